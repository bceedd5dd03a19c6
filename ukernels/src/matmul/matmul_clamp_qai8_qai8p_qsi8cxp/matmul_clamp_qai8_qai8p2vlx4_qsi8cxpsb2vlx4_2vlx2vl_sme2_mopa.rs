//! `kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa`: the family's GEMM (see
//! the parent module) with SME2's four-vector loads (four K steps of each operand per load) and
//! `SCLAMP` on each output row's two halves.

float_mopa_kernel! {
    /// Computes the requantized `dst[i][j]` of the `m` x `n` portion (see the parent module for
    /// the packed operands and the order of operations).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa;
    "sme2"; output i8; kr 4;
    mopa "smopa", ".b", "ld1b";
}
