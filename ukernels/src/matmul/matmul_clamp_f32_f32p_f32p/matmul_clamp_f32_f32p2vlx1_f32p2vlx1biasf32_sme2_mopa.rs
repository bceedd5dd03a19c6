//! `kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa`: the family's GEMM (see the
//! parent module) with SME2's four-vector loads (four K values of each operand per load) and
//! `FCLAMP` on each output row's two halves.

float_mopa_kernel! {
    /// Computes `dst[i][j] = fclamp(bias[j] + sum over K of a_ik * b_kj)` for the `m` x `n`
    /// portion (see the parent module for the packed operands and the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa;
    "sme2"; output f32; kr 1;
    mopa "fmopa", ".s", "ld1w";
}
