//! `kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod`: Q4_0 GEMM (16 rows x 4
//! columns per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one
//! `asm!` block.
//!
//! Loop order: blocks of 16 rows (four LHS groups) outside, column groups of 4 inside; each
//! 16 x 4 tile is computed in two passes of 8 rows (two LHS groups), each pass running over the
//! `k / bl` blocks in 32-value sub-blocks. Sixteen rows of integer block sums plus sixteen rows
//! of float accumulators do not fit next to the operands in the 24 vector registers used
//! (`v8`..`v15` are left alone), so a pass keeps 8 of each; the second pass re-reads the RHS
//! column group, which the first one has just brought into L1.
//!
//! One 4-value K slice is a single `SDOT (by element)` step: the decoded RHS vector holds 4 K
//! values of each of the 4 columns, the LHS vector of a group holds 4 K values of each of its 4
//! rows, and `sdot acc[row], rhs, lhs.4b[row % 4]` adds the 4 products of that row to each
//! column lane. A block's low nibbles pair with its first `bl / 2` values and its high nibbles
//! with the last `bl / 2`, so each LHS group is read through two pointers `2 * bl` bytes apart.
//! Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the value). At the end of every block
//! the integer sums convert with `SCVTF #4` (exactly `I / 16`) and are fused-multiply-added into
//! the float accumulators with the products `column scales x row scale` (f16, widened).
//!
//! Register plan (one pass):
//!
//! * `v16`..`v23`: integer block accumulators; `v(16 + r)` holds pass row `r`, lanes =
//!   columns 0..4.
//! * `v24`..`v31`: float accumulators, `v(24 + r)` for pass row `r`.
//! * `v4`/`v5`: LHS low-half slice `s` of the pass's groups 0 and 1; `v6`/`v7`: high half.
//! * `v0`/`v2`: raw RHS segment, decoded in place to the high nibbles (the two alternate
//!   between segments); `v1`: its low nibbles; `v3`: the 0xF0 mask. In the block epilogue
//!   `v4`..`v7` hold the scales, in the final epilogue `v2`/`v3` the clamp bounds.

use crate::matmul::kernel_geometry::{clamp_pair, qsi8d32p_blockwise};

/// Block epilogue of pass row `$i` (integer accumulator) into float accumulator `$f`:
/// `f += (i / 16) * (column scales x row scale)` (fused), then `i = 0`. `v4` holds the column
/// scales, lane `$r` of `$l` the row scale; the product is formed in `v7`.
macro_rules! block_row {
    ($i:literal, $f:literal, $l:literal, $r:literal) => {
        concat!(
            concat!("scvtf v", $i, ".4s, v", $i, ".4s, #4\n"),
            concat!("fmul v7.4s, v4.4s, v", $l, ".s[", $r, "]\n"),
            concat!("fmla v", $f, ".4s, v", $i, ".4s, v7.4s\n"),
            concat!("movi v", $i, ".4s, #0\n"),
        )
    };
}

/// Clamps pass row `$a` with `v2` (lower bound, `FMAX`) and `v3` (upper bound, `FMIN`).
macro_rules! clamp_row {
    ($a:literal) => {
        concat!(
            concat!("fmax v", $a, ".4s, v", $a, ".4s, v2.4s\n"),
            concat!("fmin v", $a, ".4s, v", $a, ".4s, v3.4s\n"),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qsi8d32p4x4_qsi4c32p4x4_16x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, _, lhs_stride, rhs_stride) = qsi8d32p_blockwise(m, n, k, bl, 4);

        // General-purpose registers
        //   x0  rows left                      x11 sub-blocks per block (bl / 32)
        //   x1  n                              x12 rows in this pass (1..=8)
        //   x2  blocks (k / bl)                x13 rows of the tile not yet done
        //   x3  LHS group 0 of the row block   x14 LHS group 0 of the pass
        //   x4  rhs_packed                     x15 columns left
        //   x5  dst of the row block           x16 RHS group of the column tile
        //   x6  dst_stride_row                 x17 dst of the tile
        //   x7  LHS group stride               x20/x21 LHS low halves of the pass's groups 0 and 1
        //   x8  RHS group stride               x22 dst of the pass
        //   x9  clamp bits (min | max << 32)   x24 RHS pointer, x25 blocks left
        //   x10 2 * bl (half-block distance)   x26 sub-blocks left, then scratch
        //   x27/x28 LHS high halves (then the next block) in the K loop; store pointer and
        //           columns in the tile in the stores
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n >= 1, k = nb * bl with
        // bl a multiple of 32, and that the packed buffers hold ceil(m / 4) LHS groups and
        // ceil(n / 4) RHS groups. A pass only starts with at least one row left, so its group 0
        // exists; its group 1 aliases group 0 when the pass has at most 4 rows. Every load reads
        // the current sub-block or the block's scales of one of those groups (no read-ahead).
        // Stores are limited to dst[i][0..n), i < m. All touched registers are declared; x18, x19,
        // x29, x30, v8-v15 and sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                pass16x4_start!(),
                "mov x27, x14",
                group_if_rows!("x28", "x14", "x7", "x12", "4", "x14"),
                "mov x24, x16",
                "mov x25, x2",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- Block loop. x27/x28/x24 point at the block's scales.
                "23:",
                "movi v3.16b, #0xf0",
                "add x20, x27, #8",
                "add x21, x28, #8",
                "add x27, x20, x10",
                "add x28, x21, x10",
                "add x24, x24, #8",
                "mov x26, x11",
                // ---- K loop: one 32-value sub-block (values 16c.. and bl/2 + 16c..) per iteration.
                "24:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod",
                "ldur q0, [x24]",
                "ldur q4, [x20]",
                "ldur q5, [x21]",
                "ldur q6, [x27]",
                "ldur q7, [x28]",
                // Segment 0: low-half slice 0 (low nibbles) and high-half slice 0 (high).
                sdot_super_block!("0"; "x20", "x21", "16"; "2", "16";
                    "x27", "x28", "16"),
                // Segment 1: slices 1.
                sdot_super_block!("2"; "x20", "x21", "32"; "0", "32";
                    "x27", "x28", "32"),
                // Segment 2: slices 2.
                sdot_super_block!("0"; "x20", "x21", "48"; "2", "48";
                    "x27", "x28", "48"),
                // Segment 3: slices 3.
                sdot_super_block!("2"),
                "add x20, x20, #64",
                "add x21, x21, #64",
                "add x27, x27, #64",
                "add x28, x28, #64",
                "add x24, x24, #64",
                "subs x26, x26, #1",
                "b.ne 24b",
                "// LLVM-MCA-END",
                // ---- Block epilogue. The scales sit 2 * bl + 8 bytes before x20 / x21 / x24 (the
                // low halves ended where the high halves began); x27 / x28 / x24 now point at the
                // next block.
                "sub x26, x24, x10",
                "ldur d4, [x26, #-8]", // column scales (f16)
                "sub x26, x20, x10",
                "ldur d5, [x26, #-8]", // group 0 row scales
                "sub x26, x21, x10",
                "ldur d6, [x26, #-8]", // group 1 row scales
                "fcvtl v4.4s, v4.4h",
                "fcvtl v5.4s, v5.4h",
                "fcvtl v6.4s, v6.4h",
                rows_of_two_groups!(block_row;
                    ("16", "24") ("17", "25") ("18", "26") ("19", "27") ["5"];
                    ("20", "28") ("21", "29") ("22", "30") ("23", "31") ["6"]),
                "subs x25, x25, #1",
                "b.ne 23b",
                // ---- Final epilogue: clamp.
                "dup v2.4s, w9",
                "lsr x26, x9, #32",
                "dup v3.4s, w26",
                clamp_row!("24"),
                clamp_row!("25"),
                clamp_row!("26"),
                clamp_row!("27"),
                clamp_row!("28"),
                clamp_row!("29"),
                clamp_row!("30"),
                clamp_row!("31"),
                pass16x4_store_and_next!();
                gemm[16 rows, "20"](m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_pair(clamp_min, clamp_max),
                in("x10") 2 * bl,
                in("x11") bl / 32,
                clobber x(12 13 14 15 16 17 20 21 22 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
