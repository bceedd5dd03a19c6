//! `kai_matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) with `SMOPA` outer products into the four 32-bit ZA tiles, in
//! streaming mode, on the sequential-nibble int4 RHS of the family's SME2 GEMV (`nr = 4 x SVL32`,
//! `kr = 4`, `sr = 1`, despite the `x8` in the name: KleidiAI's getters say so) and an LHS in
//! groups of `mr = SVL32` rows with `kr = 4` (one vector per 4-value K block).
//!
//! The frame (loops, epilogue, stores) is the `qsi8cxp` SME2 GEMM's (`sme2_mopa_frame!`); the K
//! loop decodes each 4-value block of the group (two vectors of nibbles) with `LUTI4` into the
//! four int8 vectors the int8 kernel loads.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

qai8dxp_streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`, `kr = 4`, `sr =
    /// 1` (sequential RHS: plain weights, `rsum` and `rscale`), the family's dequantisation
    /// (`FMUL`, then `FADD`: two roundings) and `FCLAMP` (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa;
    /// The f16-output form, `kai_matmul_clamp_f16_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa`: the
    /// same computation, the result rounded to f16 and clamped to the bounds rounded to f16
    /// (`Clamp::NarrowedMaxNumThenMinNum`). Rounding is monotonic, so the kernel clamps in f32 and
    /// then rounds (`FCVT`); that equals KleidiAI's order for quiet bounds, and the caller
    /// (`qai8dxp::run`) quiets signalling NaN bounds, as rounding them would.
    f16 {
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        fn matmul_f16_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa;
    }
    sme2_mopa_frame, int4;

    // Register map: the frame's (`sme2_mopa_frame!`), and in the K loop
    //   x25     the decode table (ZT0)
    //   z0/z1   LHS: two 4-value K blocks of mr rows
    //   z16-z19 RHS: the same two blocks of nr columns as nibbles (two vectors each)
    //   z20-z27 the blocks decoded to int8 (four vectors each)
    setup: ["ldr zt0, [x25]"];
    k_loop: [
        // ---- K loop: 8 values per iteration ----
        "3:",
        "ld1w {{z0.s-z1.s}}, pn8/z, [x16]",
        "ld1b {{z16.b-z19.b}}, pn8/z, [x20]",
        "luti4 {{z20.b-z21.b}}, zt0, z16[0]",
        "luti4 {{z22.b-z23.b}}, zt0, z17[0]",
        "luti4 {{z24.b-z25.b}}, zt0, z18[0]",
        "luti4 {{z26.b-z27.b}}, zt0, z19[0]",
        "smopa za0.s, p0/m, p0/m, z0.b, z20.b",
        "smopa za1.s, p0/m, p0/m, z0.b, z21.b",
        "smopa za2.s, p0/m, p0/m, z0.b, z22.b",
        "smopa za3.s, p0/m, p0/m, z0.b, z23.b",
        "smopa za0.s, p0/m, p0/m, z1.b, z24.b",
        "smopa za1.s, p0/m, p0/m, z1.b, z25.b",
        "smopa za2.s, p0/m, p0/m, z1.b, z26.b",
        "smopa za3.s, p0/m, p0/m, z1.b, z27.b",
        "addvl x16, x16, #2",
        "addvl x20, x20, #4",
        "subs x21, x21, #8",
        "b.ne 3b",
    ];
    extra: [in("x25") crate::matmul::streaming::INT4_TO_INT8.as_ptr(),];
}
