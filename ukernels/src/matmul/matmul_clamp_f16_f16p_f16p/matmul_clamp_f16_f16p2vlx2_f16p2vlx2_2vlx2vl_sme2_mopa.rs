//! `kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa`: the family's GEMM (see the
//! parent module) with SME2's four-vector loads, the two-vector `FCVT` narrowing each row and
//! `FCLAMP` on halves.

float_mopa_kernel! {
    /// Computes `dst[i][j] = fclamp(f16(bias[j] + sum over K pairs of a_i . b_j))` for the `m`
    /// x `n` portion (see the parent module for the packed operands and the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa;
    "sme2"; output f16; kr 2;
    mopa "fmopa", ".h", "ld1h";
}
