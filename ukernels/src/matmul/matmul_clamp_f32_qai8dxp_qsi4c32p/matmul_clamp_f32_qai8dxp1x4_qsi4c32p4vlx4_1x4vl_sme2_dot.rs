//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot`: GEMV (1 row x 4 x SVL32
//! columns per step) on int4 weights with one bf16 scale per block of `bl` K values, in streaming
//! mode. Operands: a dynamically quantized int8 LHS (one row per group, `kr / sr = 4`) and the
//! `ps1s0` RHS of `rhs_pack_{nxk,kxn}_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon` with `nr = 4 x SVL32`
//! (the streaming vector length in bytes) columns per group.
//!
//! One 4-value K step of a group is two vectors of packed nibbles (2 bytes per column, K order
//! inside). `LUTI4` through a ZT0 table of the sixteen int4 values turns each into two vectors
//! of int8 (4 values of one column per 32-bit lane), so one packed vector pair becomes the
//! 4-vector group an indexed multi-vector `SDOT` multiplies by one 4-value block of the 16
//! activations `LD1RQB` broadcasts.
//!
//! Loop order: column groups outside, rows inside (a group's weights stay in cache while every
//! row uses them), then the blocks, then K in 16-value steps. Each block's integer sums
//! accumulate in one ZA vector group, zeroed per block, and are folded into four f32 vectors
//! with `FMLA` by the block scales (from `+0`, as KleidiAI does).

use crate::matmul::streaming::INT4_TO_INT8;

streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr / sr = 4` and the
    /// `ps1s0` RHS. From `acc = +0.0`, each block adds `fma(I as f32, d, acc)` (`SCVTF`, `FMLA`;
    /// `I` from unscaled weights), then `y = fma(acc, lhs_scale, bias)` (one rounding) after the
    /// `rsum` term, clamped with `FCLAMP` (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    blockwise fn matmul_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
        let nb = k / bl;

        // Register map: the frame's (`sme2_block_dot_frame!`), and
        //   z0      16 activations in every 128-bit segment
        //   z16-z23 packed RHS: four 4-value K steps (two vectors each)
        //   z4-z15, z28-z31  the steps widened to int8 (four 4-vector groups)
        //   ZT0     the int4 -> int8 table
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (m LHS rows of k + 8 bytes; ceil(n / nr) whole RHS groups); the table
        // holds 64 bytes. The frame covers dst, streaming mode and registers (see
        // `streaming_frames`).
        unsafe {
            sme2_block_dot_frame!(f32;
                m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row,
                nr * (nb * (bl / 2 + 2) + 8), bl, INT4_TO_INT8.as_ptr(), clamp_min, clamp_max;
                row_setup: [];
                k_loop: [luti4_sdot_k16_loop!()];
                // x14 -> the block's nr bf16 scales, widened to f32 in z16-z19
                fold: [
                    "ld1h {{z16.s}}, p0/z, [x14]",
                    "ld1h {{z17.s}}, p0/z, [x14, #1, mul vl]",
                    "ld1h {{z18.s}}, p0/z, [x14, #2, mul vl]",
                    "ld1h {{z19.s}}, p0/z, [x14, #3, mul vl]",
                    "addvl x14, x14, #2",
                    "lsl z16.s, z16.s, #16",
                    "lsl z17.s, z17.s, #16",
                    "lsl z18.s, z18.s, #16",
                    "lsl z19.s, z19.s, #16",
                ] => 16, 17, 18, 19;
                // x13 -> the row's offset and scale, x14 -> the trailer (row sums, biases)
                row_end: [
                    "ld1rw {{z0.s}}, p0/z, [x13]",
                    "ld1rw {{z1.s}}, p0/z, [x13, #4]",
                    "scvtf z0.s, p0/m, z0.s",
                    "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
                    "ld1w {{z20.s-z23.s}}, pn8/z, [x14, #4, mul vl]",
                    "fmla z24.s, p0/m, z16.s, z0.s",
                    "fmla z25.s, p0/m, z17.s, z0.s",
                    "fmla z26.s, p0/m, z18.s, z0.s",
                    "fmla z27.s, p0/m, z19.s, z0.s",
                    "fmla z20.s, p0/m, z24.s, z1.s",
                    "fmla z21.s, p0/m, z25.s, z1.s",
                    "fmla z22.s, p0/m, z26.s, z1.s",
                    "fmla z23.s, p0/m, z27.s, z1.s",
                ] => 20, 21, 22, 23; 28, 29;
                next_lhs: "add x13, x13, #8\n";
                extra: []
            );
        }
    }
}
