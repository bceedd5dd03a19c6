//! `kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa`: the family's GEMM (see the
//! parent module) for CPUs with SME but not SME2: `FMIN` with `clamp_max`, then `FMAX` with
//! `clamp_min`.

float_mopa_kernel! {
    /// Computes `dst[i][j] = max(min(bias[j] + sum over K pairs of a_i . b_j, clamp_max),
    /// clamp_min)` for the `m` x `n` portion (see the parent module for the packed operands and
    /// the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa;
    "sme"; output f32; kr 2;
    mopa "bfmopa", ".h", "ld1h";
}
