//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot`: GEMV (1 row x 4 x SVL32
//! columns per step) with SME2 multi-vector `SDOT` into ZA, in streaming mode, on int4 weights in
//! the sequential-nibble format of `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (`nr = SVL bytes`,
//! `kr = 4`, `sr = 1`): per 4-value K block, `nr` columns x 2 bytes, K values `2i` (low nibble)
//! and `2i + 1` (high); row sums and scales unscaled.
//!
//! The frame (loops, epilogue, stores) is the `qsi8cxp` SME2 GEMV's (`sme2_dot_frame!`). The K loop
//! decodes with `LUTI4` through ZT0 (`streaming::INT4_TO_INT8`): one RHS vector (a 4-value block of
//! half the group's columns) becomes two vectors of int8 weights, in column order, so a 4-value
//! block of all `nr` columns is four vectors, as in the int8 kernel.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

qai8dxp_streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr = 4`, `sr = 1`
    /// (sequential RHS: plain weights, `rsum` and `rscale`). The dequantisation is one fused
    /// `FMLA`: `y = fma(acc as f32, rscale[j] * lhs_scale[i], bias[j])`, clamped with `FCLAMP`
    /// (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot;
    /// The f16-output form, `kai_matmul_clamp_f16_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot`: the
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
        fn matmul_f16_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot;
    }
    sme2_dot_frame, int4;

    // Register map: the frame's (`sme2_dot_frame!`), and in the K loop
    //   x25     the decode table (ZT0)
    //   z0      16 activations in every 128-bit segment
    //   z16-z23 RHS: four 4-value K blocks of nr columns as nibbles (two vectors each)
    //   z24-z31, z4-z11  the blocks decoded to int8 (four vectors each)
    setup: ["ldr zt0, [x25]"];
    k_loop: [
        // ---- K loop: 16 values x nr columns per iteration ----
        "3:",
        "ld1rqb {{z0.b}}, p0/z, [x13]",
        "ld1b {{z16.b-z19.b}}, pn8/z, [x14]",
        "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #4, mul vl]",
        "luti4 {{z24.b-z25.b}}, zt0, z16[0]",
        "luti4 {{z26.b-z27.b}}, zt0, z17[0]",
        "sdot za.s[w8, 0, vgx4], {{z24.b-z27.b}}, z0.b[0]",
        "luti4 {{z28.b-z29.b}}, zt0, z18[0]",
        "luti4 {{z30.b-z31.b}}, zt0, z19[0]",
        "sdot za.s[w8, 1, vgx4], {{z28.b-z31.b}}, z0.b[1]",
        "luti4 {{z4.b-z5.b}}, zt0, z20[0]",
        "luti4 {{z6.b-z7.b}}, zt0, z21[0]",
        "sdot za.s[w8, 2, vgx4], {{z4.b-z7.b}}, z0.b[2]",
        "luti4 {{z8.b-z9.b}}, zt0, z22[0]",
        "luti4 {{z10.b-z11.b}}, zt0, z23[0]",
        "sdot za.s[w8, 3, vgx4], {{z8.b-z11.b}}, z0.b[3]",
        "addvl x14, x14, #8",
        "add x13, x13, #16",
        "subs x16, x16, #16",
        "b.ne 3b",
    ];
    extra: [in("x25") crate::matmul::streaming::INT4_TO_INT8.as_ptr(),];
}
