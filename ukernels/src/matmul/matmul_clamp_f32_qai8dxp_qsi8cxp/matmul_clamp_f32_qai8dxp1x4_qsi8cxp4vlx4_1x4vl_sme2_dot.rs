//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot`: GEMV (1 row x 4 x SVL32
//! columns per step) with SME2 multi-vector `SDOT` accumulating into ZA, in streaming mode.
//! Operands: a dynamically quantized int8 LHS (one row per group) and a per-channel int8 RHS in
//! KleidiAI's `qsi8cxp` format with `nr = 4 x SVL32 = SVL bytes`, `kr = 4`, `sr = 1`, the
//! format the family's `1vlx4vl` outer-product GEMMs read too.
//!
//! Loop order: column groups outside, rows inside (a group's weights stay in cache while every
//! row uses them), K in 32-value passes. One 4-value K block of a group is four vectors (column
//! `c x SVL32 + i` in 32-bit lane `i` of vector `c`); `LD1RQB` puts 16 activations in every
//! 128-bit segment, so the indexed `SDOT` of a 4-vector group with element `e` multiplies block
//! `e` of them by all `nr` columns. The four blocks of a 16-value step go to four different ZA
//! vector groups (independent accumulation chains); they are summed once after the K loop
//! (integer sums: the order does not change the result).

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

qai8dxp_streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr = 4`. The
    /// dequantisation is one fused `FMLA`: `y = fma(acc as f32, rscale[j] * lhs_scale[i],
    /// bias[j])`, clamped with `FCLAMP` (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    fn matmul_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot;
    /// The f16-output form, `kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot`: the
    /// same computation, each clamped f32 result rounded to f16 (nearest, ties to even) by `FCVT`
    /// before the store.
    f16 {
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        fn matmul_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot;
    }
    sme2_dot_frame, int8;

    // Register map: the frame's (`sme2_dot_frame!`), and in the K loop
    //   z0/z1   16 activations each, in every 128-bit segment
    //   z16-z31 RHS: four 4-vector groups (one 4-value K block of nr columns each)
    //   ZA      vector groups 0..3: one accumulation chain per K block of a 16-value step
    setup: [];
    k_loop: [
        // ---- K loop: 32 values x nr columns per iteration ----
        "3:",
        "ld1rqb {{z0.b}}, p0/z, [x13]",
        "ld1rqb {{z1.b}}, p0/z, [x13, #16]",
        "ld1b {{z16.b-z19.b}}, pn8/z, [x14]",
        "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #4, mul vl]",
        "ld1b {{z24.b-z27.b}}, pn8/z, [x14, #8, mul vl]",
        "ld1b {{z28.b-z31.b}}, pn8/z, [x14, #12, mul vl]",
        "sdot za.s[w8, 0, vgx4], {{z16.b-z19.b}}, z0.b[0]",
        "sdot za.s[w8, 1, vgx4], {{z20.b-z23.b}}, z0.b[1]",
        "sdot za.s[w8, 2, vgx4], {{z24.b-z27.b}}, z0.b[2]",
        "sdot za.s[w8, 3, vgx4], {{z28.b-z31.b}}, z0.b[3]",
        "ld1b {{z16.b-z19.b}}, pn8/z, [x14, #16, mul vl]",
        "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #20, mul vl]",
        "ld1b {{z24.b-z27.b}}, pn8/z, [x14, #24, mul vl]",
        "ld1b {{z28.b-z31.b}}, pn8/z, [x14, #28, mul vl]",
        "sdot za.s[w8, 0, vgx4], {{z16.b-z19.b}}, z1.b[0]",
        "sdot za.s[w8, 1, vgx4], {{z20.b-z23.b}}, z1.b[1]",
        "sdot za.s[w8, 2, vgx4], {{z24.b-z27.b}}, z1.b[2]",
        "sdot za.s[w8, 3, vgx4], {{z28.b-z31.b}}, z1.b[3]",
        "addvl x14, x14, #16",
        "addvl x14, x14, #16",
        "add x13, x13, #32",
        "subs x16, x16, #32",
        "b.ne 3b",
    ];
    extra: [];
}
