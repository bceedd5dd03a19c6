//! `kai_matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa`: Q4_0 GEMM (SVL32 rows x
//! 4 x SVL32 columns per step): `SMOPA` outer products into the four 32-bit ZA tiles, in
//! streaming mode. Operands: int8 activations with one f16 scale per block in groups of
//! `mr = SVL32` rows (`lhs_quant_pack_qsi8d32p_f32_neon`: one vector per 4-value K step, row `r`
//! in lane `r`, then the group's scales) and the `ps1s0scalef16` RHS of the family's `1x4vl`
//! SME2 GEMV.
//!
//! One 4-value K step of a column group is two vectors of unsigned nibbles; `LUTI4` through a
//! ZT0 table of `u - 8` widens each to two vectors of int8, one per ZA tile (tile `t` holds
//! columns `[t x SVL32, (t + 1) x SVL32)` of the group). The K loop takes 16 values per
//! iteration: KleidiAI's loads per outer product, in a quarter of its load instructions.
//!
//! Loop order: row groups outside, column groups inside, then the blocks, then K. ZA holds one
//! block's integer sums; after each block every output row is read from ZA (row `r` of the four
//! tiles is ZA array rows `4r .. 4r + 4`, one multi-vector `MOVA` of byte-tile slices) and
//! folded into its f32 accumulators, which live in the destination rows between blocks (only
//! columns below `n` and rows below `m`, as the final values will): the first block with
//! `FMUL`, the others with `FMLA`, by the scale product formed with `FMLALB`/`FMLALT` into `+0`
//! (KleidiAI's order). The last block also clamps, instead of a pass of its own as in KleidiAI's
//! kernel. Four copies of the row loop (first block or not, last or not) keep the branches out
//! of it.

use super::U4_MINUS_8;

/// The row loop of one block fold from local label `$l`: the row's sums from ZA, the scale
/// product, `$combine` (into z8-z11), then the store and `b 8f` (the block's end).
macro_rules! fold_rows {
    ($l:literal; $($combine:expr),+ $(,)?) => {
        concat!(
            $l, ":\n",
            "mova {{z16.b-z19.b}}, za0h.b[w12, 0:3]\n",
            "scvtf {{z16.s-z19.s}}, {{z16.s-z19.s}}\n",
            "ld1rh {{z1.h}}, p0/z, [x25]\n",
            "add x25, x25, #2\n",
            "mov z20.s, #0\n",
            "mov z21.s, #0\n",
            "mov z22.s, #0\n",
            "mov z23.s, #0\n",
            "fmlalb z20.s, z1.h, z24.h\n",
            "fmlalb z21.s, z1.h, z25.h\n",
            "fmlalt z22.s, z1.h, z24.h\n",
            "fmlalt z23.s, z1.h, z25.h\n",
            $($combine, "\n",)+
            "st1w {{z8.s-z11.s}}, pn9, [x22]\n",
            "add x22, x22, x6\n",
            "add x12, x12, #4\n",
            "subs x26, x26, #1\n",
            "b.ne ", $l, "b\n",
            "b 8f",
        )
    };
}

/// `FMUL` of the first block.
macro_rules! later_block {
    () => {
        concat!(
            "ld1w {{z8.s-z11.s}}, pn9/z, [x22]\n",
            "fmla z8.s, p0/m, z20.s, z16.s\n",
            "fmla z9.s, p0/m, z21.s, z17.s\n",
            "fmla z10.s, p0/m, z22.s, z18.s\n",
            "fmla z11.s, p0/m, z23.s, z19.s",
        )
    };
}

streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`, `kr = 4`,
    /// `sr = 2` (4-value K steps) and the `ps1s0scalef16` RHS: as the `1x4vl` GEMV, except that
    /// the first block's sum is multiplied by `s` (`SCVTF`, `FMUL`) instead of fused into `+0.0`.
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    /// `dst` must also be valid for reads: the rows hold the f32
    /// accumulators between blocks.
    blockwise fn matmul_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;
        let nb = k / bl;

        // Register map: the frame's (`sme2_block_mopa_frame!`; x20 / x23 point at the data), and
        //   x10 nr * k / 2 (RHS scales)      x12 ZA slice of the output row (4 x row)
        //   x11 mr * k (LHS scales)          x22 dst pointer of the output row
        //   x25 the row's LHS scale          x26 rows left to fold
        //   x27 / x28 the block's LHS / RHS scales
        //
        //   K loop: z4-z7 LHS (four 4-value K steps of mr rows); z0-z3, z16-z19 packed RHS (two
        //           vectors per step); z8-z15, z20-z27 widened to int8
        //   fold:   z16-z19 one output row's sums; z20-z23 its scale products; z24/z25 the
        //           block's RHS scales (zipped); z1 the row's LHS scale; z8-z11 accumulators
        //   z30/z31 clamp_min / clamp_max in every lane
        //   ZT0     the nibble -> int8 table
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read exactly,
        // including rows and columns past m and n); the table holds 64 bytes. The frame covers dst,
        // streaming mode and registers (see `streaming_frames`).
        unsafe {
            sme2_block_mopa_frame!(f32;
                m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, mr * (k + 2 * nb),
                svl * nb * (bl / 2 + 2), bl, U4_MINUS_8.as_ptr(), clamp_min, clamp_max => 30, 31;
                group_setup: ["add x27, x3, x11", "add x28, x8, x10"];
                k_loop: [
                    // ---- 16 K values per iteration ----
                    "4:",
                    "ld1w {{z4.s-z7.s}}, pn8/z, [x23]",
                    "ld1b {{z0.b-z3.b}}, pn8/z, [x20]",
                    "ld1b {{z16.b-z19.b}}, pn8/z, [x20, #4, mul vl]",
                    "luti4 {{z8.b-z9.b}}, zt0, z0[0]",
                    "luti4 {{z10.b-z11.b}}, zt0, z1[0]",
                    "luti4 {{z12.b-z13.b}}, zt0, z2[0]",
                    "luti4 {{z14.b-z15.b}}, zt0, z3[0]",
                    "smopa za0.s, p0/m, p0/m, z4.b, z8.b",
                    "smopa za1.s, p0/m, p0/m, z4.b, z9.b",
                    "smopa za2.s, p0/m, p0/m, z4.b, z10.b",
                    "smopa za3.s, p0/m, p0/m, z4.b, z11.b",
                    "luti4 {{z20.b-z21.b}}, zt0, z16[0]",
                    "luti4 {{z22.b-z23.b}}, zt0, z17[0]",
                    "luti4 {{z24.b-z25.b}}, zt0, z18[0]",
                    "luti4 {{z26.b-z27.b}}, zt0, z19[0]",
                    "smopa za0.s, p0/m, p0/m, z5.b, z12.b",
                    "smopa za1.s, p0/m, p0/m, z5.b, z13.b",
                    "smopa za2.s, p0/m, p0/m, z5.b, z14.b",
                    "smopa za3.s, p0/m, p0/m, z5.b, z15.b",
                    "smopa za0.s, p0/m, p0/m, z6.b, z20.b",
                    "smopa za1.s, p0/m, p0/m, z6.b, z21.b",
                    "smopa za2.s, p0/m, p0/m, z6.b, z22.b",
                    "smopa za3.s, p0/m, p0/m, z6.b, z23.b",
                    "smopa za0.s, p0/m, p0/m, z7.b, z24.b",
                    "smopa za1.s, p0/m, p0/m, z7.b, z25.b",
                    "smopa za2.s, p0/m, p0/m, z7.b, z26.b",
                    "smopa za3.s, p0/m, p0/m, z7.b, z27.b",
                    "addvl x23, x23, #4",
                    "addvl x20, x20, #8",
                    "subs x21, x21, #16",
                    "b.ne 4b",
                ];
                fold: [
                    // ---- fold the block into every row: the block's RHS scales zipped (even
                    // halves of z24 / z25: quarters 0 / 1, odd ones: quarters 2 / 3) ----
                    "ld1h {{z24.h-z25.h}}, pn8/z, [x28]",
                    "addvl x28, x28, #2",
                    "zip {{z24.h-z25.h}}, z24.h, z25.h",
                    q40_gemm_fold!(fold_rows; later_block!(); "fclamp {{z8.s-z11.s}}, z30.s, z31.s"),
                ];
                extra: [
                    in("x10") svl * k / 2,
                    in("x11") mr * k,
                    out("x27") _,
                    out("x28") _,
                ]
            );
        }
    }
}
