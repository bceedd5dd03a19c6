//! `kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa`: the family's GEMM (see the
//! parent module) for CPUs with SME but not SME2: `SMIN` with `max_value`, then `SMAX` with
//! `min_value`.

float_mopa_kernel! {
    /// Computes the requantized `dst[i][j]` of the `m` x `n` portion (see the parent module for
    /// the packed operands and the order of operations).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa;
    "sme"; output i8; kr 4;
    mopa "smopa", ".b", "ld1b";
}
