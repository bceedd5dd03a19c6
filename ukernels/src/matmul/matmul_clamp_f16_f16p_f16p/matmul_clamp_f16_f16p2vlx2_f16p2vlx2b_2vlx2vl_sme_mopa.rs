//! `kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa`: the family's GEMM (see the
//! parent module) for CPUs with SME but not SME2: each row's two f32 halves narrowed by
//! predicated `FCVT` and joined (`UZP1`), then `FMIN` with `clamp_max` and `FMAX` with
//! `clamp_min` on halves.

float_mopa_kernel! {
    /// Computes `dst[i][j] = max(min(f16(bias[j] + sum over K pairs of a_i . b_j), clamp_max),
    /// clamp_min)` for the `m` x `n` portion (see the parent module for the packed operands and
    /// the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa;
    "sme"; output f16; kr 2;
    mopa "fmopa", ".h", "ld1h";
}
