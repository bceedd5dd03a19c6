//! `kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa`: the family's GEMM (see the
//! parent module) with SME2's four-vector loads (two pairs of K values of each operand per load)
//! and `FCLAMP` on each output row's two halves.

float_mopa_kernel! {
    /// Computes `dst[i][j] = fclamp(bias[j] + sum over K pairs of a_i . b_j)` for the `m` x `n`
    /// portion (see the parent module for the packed operands and the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa;
    "sme2"; output f32; kr 2;
    mopa "bfmopa", ".h", "ld1h";
}
