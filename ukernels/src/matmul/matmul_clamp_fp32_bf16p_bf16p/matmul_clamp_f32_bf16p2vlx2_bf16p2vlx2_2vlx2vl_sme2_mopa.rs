//! `kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa`: the family's GEMM (see the
//! parent module) with SME2's four-vector loads (two pairs of K values of each operand per load)
//! and `FCLAMP` on each output row's two halves.

bf16_mopa_kernel! {
    /// Computes `dst[i][j] = fclamp(bias[j] + sum over K pairs of a_i . b_j)` for the `m` x `n`
    /// portion (see the parent module for the packed operands and the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa;
    "sme2";
    setup ["ptrue pn8.h"];
    load [
        "ld1h {{z0.h-z3.h}}, pn8/z, [x13]",
        "ld1h {{z4.h-z7.h}}, pn8/z, [x9]",
    ];
    clamp ["fclamp {{z4.s, z5.s}}, z30.s, z31.s"]
}
