//! `kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot`: Q4_0 GEMV (1 row x 4 x
//! SVL32 columns per step) in streaming mode. Operands: int8 activations with one f16 scale per
//! block (`lhs_quant_pack_qsi8d32p_f32_neon`, one row per group) and the `ps1s0scalef16` RHS of
//! `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon` with `nr = 4 x SVL32` (the streaming
//! vector length in bytes) columns per group.
//!
//! One 4-value K step of a group is two vectors of unsigned nibbles (2 bytes per column, K order
//! inside); `LUTI4` through a ZT0 table of `u - 8` turns each into two vectors of int8 (4 values
//! of one column per 32-bit lane), the 4-vector group an indexed multi-vector `SDOT` multiplies
//! by one 4-value block of the 16 activations `LD1RQB` broadcasts (the loads, lookups and dot
//! products of KleidiAI's loop, with immediate offsets instead of pointer updates, 32 K values
//! per iteration: `bl` is a multiple of 32, so a 32-value block takes one).
//!
//! Loop order: column groups outside, rows inside (KleidiAI's kernel takes one row; rkai's any
//! number, each reading the group's weights again from cache), then the blocks, then K in
//! 32-value steps. Each block's integer sums accumulate in one ZA vector group, zeroed per
//! block, and are folded into four f32 vectors with `FMLA` by the product of the block's scales,
//! formed with `FMLALB`/`FMLALT` into `+0` as KleidiAI does (so a zero product is `+0`).

use super::U4_MINUS_8;

streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr = 4`, `sr = 2`
    /// (4-value K steps) and the `ps1s0scalef16` RHS (unsigned nibbles, zero point 8, widened with
    /// `LUTI4` to the values). From `acc = +0.0`, each block adds `fma(I as f32, s, acc)` with
    /// `s = +0.0 + ld * wd` (`FMLALB` / `FMLALT`); clamped with `FCLAMP` (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    blockwise fn matmul_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
        let nb = k / bl;

        // Register map: the frame's (`sme2_block_dot_frame!`), and
        //   x14 points at the RHS data      x22 RHS scale pointer; x23 LHS scale pointer
        //   x24 k (LHS scales after the row's values)
        //   x25 nr * k / 2 (RHS scales after the group's data)
        //
        //   z0 / z1 16 activations in every 128-bit segment (two 16-value steps); in the fold,
        //           z1 the block's LHS scale (f16)
        //   z16-z23 packed RHS: four 4-value K steps (two vectors each)
        //   z4-z15, z28-z31  the steps widened to int8 (four 4-vector groups)
        //   ZT0     the nibble -> int8 table
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (m LHS rows; ceil(n / nr) whole RHS groups); the table holds 64 bytes.
        // The frame covers dst, streaming mode and registers (see `streaming_frames`).
        unsafe {
            sme2_block_dot_frame!(f32;
                m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, nr * nb * (bl / 2 + 2), bl,
                U4_MINUS_8.as_ptr(), clamp_min, clamp_max;
                row_setup: ["add x22, x4, x25", "add x23, x13, x24"];
                k_loop: [
                    // ---- 32 K values x nr columns per iteration, two 16-value steps ----
                    "4:",
                    "ld1rqb {{z0.b}}, p0/z, [x13]",
                    "ld1rqb {{z1.b}}, p0/z, [x13, #16]",
                    luti4_sdot_step!(0; 0, 4),
                    luti4_sdot_step!(1; 8, 12),
                    "addvl x14, x14, #16",
                    "add x13, x13, #32",
                    "subs x21, x21, #32",
                    "b.ne 4b",
                ];
                // s = +0 + ld * wd, columns in the ZA group's order (after ZIP, the even halves
                // of z16 / z17 hold quarters 0 / 1, the odd ones quarters 2 / 3)
                fold: [
                    "ld1rh {{z1.h}}, p0/z, [x23]",
                    "ld1h {{z16.h-z17.h}}, pn8/z, [x22]",
                    "add x23, x23, #2",
                    "addvl x22, x22, #2",
                    "zip {{z16.h-z17.h}}, z16.h, z17.h",
                    "mov z4.s, #0",
                    "mov z5.s, #0",
                    "mov z6.s, #0",
                    "mov z7.s, #0",
                    "fmlalb z4.s, z1.h, z16.h",
                    "fmlalb z5.s, z1.h, z17.h",
                    "fmlalt z6.s, z1.h, z16.h",
                    "fmlalt z7.s, z1.h, z17.h",
                ] => 4, 5, 6, 7;
                row_end: [] => 24, 25, 26, 27; 28, 29;
                // x23 is now the next row
                next_lhs: "mov x13, x23\n";
                extra: [
                    out("x22") _,
                    out("x23") _,
                    in("x24") k,
                    in("x25") nr * k / 2,
                ]
            );
        }
    }
}
