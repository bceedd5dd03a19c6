//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) with `SMOPA` outer products into the four 32-bit ZA tiles, in
//! streaming mode, with an SME2 epilogue. Operands: a dynamically quantized int8 LHS in groups of
//! `mr = SVL32` rows with `kr = 4` (one vector per 4-value K block: row `r` in lane `r`) and the
//! `qsi8cxp` RHS of the family's `1x4vl` GEMVs (`nr = 4 x SVL32`, `kr = 4`, `sr = 1`).
//!
//! Loop order: row groups outside (a group's activations stay in cache across the columns),
//! column groups inside, K in 8-value steps (two blocks, eight outer products). After the K
//! loop, output row `r` of the four tiles is ZA array rows `4r .. 4r + 4`, read with one
//! multi-vector `MOVA` of byte-tile slices.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

qai8dxp_streaming_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`,
    /// `kr = 4`, clamped with `FCLAMP` (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa;
    /// The f16-output form, `kai_matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa`: the
    /// same computation, each clamped f32 result rounded to f16 (nearest, ties to even) by `FCVT`
    /// before the store.
    f16 {
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        fn matmul_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa;
    }
    sme2_mopa_frame, int8;

    // Register map: the frame's (`sme2_mopa_frame!`), and in the K loop
    //   z0/z1   LHS: two 4-value K blocks of mr rows
    //   z16-z23 RHS: two blocks of nr columns (four vectors each)
    setup: [];
    k_loop: [
        // ---- K loop: 8 values per iteration ----
        "3:",
        "ld1w {{z0.s-z1.s}}, pn8/z, [x16]",
        "ld1b {{z16.b-z19.b}}, pn8/z, [x20]",
        "ld1b {{z20.b-z23.b}}, pn8/z, [x20, #4, mul vl]",
        "smopa za0.s, p0/m, p0/m, z0.b, z16.b",
        "smopa za1.s, p0/m, p0/m, z0.b, z17.b",
        "smopa za2.s, p0/m, p0/m, z0.b, z18.b",
        "smopa za3.s, p0/m, p0/m, z0.b, z19.b",
        "smopa za0.s, p0/m, p0/m, z1.b, z20.b",
        "smopa za1.s, p0/m, p0/m, z1.b, z21.b",
        "smopa za2.s, p0/m, p0/m, z1.b, z22.b",
        "smopa za3.s, p0/m, p0/m, z1.b, z23.b",
        "addvl x16, x16, #2",
        "addvl x20, x20, #8",
        "subs x21, x21, #8",
        "b.ne 3b",
    ];
    extra: [];
}
