//! `kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm` and
//! `kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm` (same packed formats: LHS groups
//! of 4 rows x 8-value slices, RHS groups of 4 columns x 8-byte segments; `m_step` only says where
//! portions may start): Q4_0 GEMM with FEAT_I8MM `SMMLA`, the whole m x n computation in one
//! `asm!` block.
//!
//! The register blocking is 8 rows x 4 columns (two LHS groups x one RHS group) for both stems:
//! 16 rows would need 16 int32 block accumulators plus 16 f32 accumulators, more than the 24
//! vector registers used here (`v8`..`v15` are never touched).
//!
//! * `v16`..`v23`: int32 sums of the current block; `v(16 + 2*rp + cp)` holds the 2x2 `SMMLA`
//!   tile of row pair `rp` (0, 1: group A rows {0,1}, {2,3}; 2, 3: group B) x columns
//!   `{2cp, 2cp+1}` as `[r0c0, r0c1, r1c0, r1c1]`.
//! * `v24`..`v31`: f32 accumulators over the blocks, same interleaving.
//! * `v0`..`v3`: one 32-value sub-block of RHS (two segments, columns `{0,1}` and `{2,3}`),
//!   decoded as 16 x low nibbles (`SHL #4`) and 16 x high nibbles (`AND 0xF0`).
//! * `v4`..`v6`: LHS operands (one row pair of one 8-value slice), streamed; `v7` the mask.
//!
//! A block's low nibbles pair with its first `bl / 2` values and its high nibbles with the last
//! `bl / 2`, so each LHS group is read through two pointers `2 * bl` bytes apart (low and high
//! halves of the block). After the sub-blocks of a block, the int32 tiles convert with
//! `SCVTF #4` (exactly `I / 16`) and are fused-multiply-added into the f32 accumulators with the
//! products `column scale x row scale` (both f16, widened), built in the interleaved layout.

use crate::matmul::kernel_geometry::{clamp_pair, qsi8d32p_blockwise};

/// Clamps tile row `v$r` with `v6` (lower bound, `FMAX`) and `v7` (upper bound, `FMIN`).
macro_rules! clamp_row {
    ($r:literal) => {
        concat!(
            concat!("fmax v", $r, ".4s, v", $r, ".4s, v6.4s\n"),
            concat!("fmin v", $r, ".4s, v", $r, ".4s, v7.4s\n"),
        )
    };
}

/// Stores tile row `v$r` at `x25`, writing only the first `x24` (1..=4) columns. Clobbers `x26`
/// and `v$r`.
macro_rules! store_row {
    ($r:literal) => {
        store_cols4!(cmp, $r, "x24", "x25", "x26"; "5", "6", "8")
    };
}

/// `acc += f32(I) / 16 * scale` for int32 tile `v$i`, f32 tile `v$a`, with the scale product
/// `v$l * v$c` (row scales, column scales) formed in `v$t`.
macro_rules! fold_tile {
    ($i:literal, $a:literal, $l:literal, $c:literal, $t:literal) => {
        concat!(
            concat!("scvtf v", $i, ".4s, v", $i, ".4s, #4\n"),
            concat!("fmul v", $t, ".4s, v", $c, ".4s, v", $l, ".4s\n"),
            concat!("fmla v", $a, ".4s, v", $i, ".4s, v", $t, ".4s\n"),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    blockwise fn matmul_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, sub_blocks, lhs_stride, rhs_stride) = qsi8d32p_blockwise(m, n, k, bl, 4);

        // Register map
        //   x0  rows left                    x12 rows in this block (1..=8)
        //   x1  n                            x13 LHS group B of the row block
        //   x2  sub-blocks per block         x14 RHS group pointer
        //   x3  LHS group A of the row block x15 columns left
        //   x4  rhs_packed                   x16 dst of this column tile
        //   x5  dst of this row block        x17/x20 group A/B: low half of the block
        //   x6  dst_stride_row               x27/x28 group A/B: high half, then the next block
        //   x7  lhs_stride (one group)       x21 RHS pointer
        //   x8  rhs_stride (one group)       x22 blocks left
        //   x9  clamp bits (min | max << 32) x23 sub-blocks left in the block
        //   x10 2 * bl (half-block distance) x24 columns in this tile (1..=4)
        //   x11 blocks (nb)                  x25 dst row pointer, x26 scratch
        //
        // SAFETY: the caller guarantees FEAT_I8MM, the argument ranges and the buffer sizes
        // documented above. The asm reads exactly ceil(m/4) LHS groups (group B of a row block is
        // group A again when the block has at most 4 rows) and ceil(n/4) RHS groups. Stores are
        // limited to the m x n region. All touched registers are declared; x18, x19, x29, x30, sp
        // and v8..v15 are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "21:",
                min_imm!("x12", "x0", "8", "x24"),
                group_if_rows!("x13", "x3", "x7", "x0", "4", "x3"),
                "mov x14, x4",
                "mov x15, x1",
                "mov x16, x5",
                // ---- Column loop: 4 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x24", "x15", "4", "x24"),
                "mov x27, x3",
                "mov x28, x13",
                "mov x21, x14",
                "mov x22, x11",
                zero_v!("4s"; "24", "25", "26", "27", "28", "29", "30", "31"),
                // ---- Block loop. x27/x28/x21 point at the block's scales.
                "26:",
                "movi v7.16b, #0xf0",
                "add x17, x27, #8",
                "add x20, x28, #8",
                "add x27, x17, x10",
                "add x28, x20, x10",
                "add x21, x21, #8",
                "mov x23, x2",
                zero_v!("4s"; "16", "17", "18", "19", "20", "21", "22", "23"),
                // ---- K loop: one 32-value sub-block (values 16c.. and bl/2 + 16c..) per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm",
                "ldr q0, [x21]",                  // segment 2c, columns {0,1}
                "ldr q1, [x21, #16]",             // segment 2c, columns {2,3}
                "ldr q4, [x17]",
                "ldr q5, [x17, #16]",
                "ldr q6, [x20]",
                "shl v2.16b, v0.16b, #4",
                "shl v3.16b, v1.16b, #4",
                "and v0.16b, v0.16b, v7.16b",
                "and v1.16b, v1.16b, v7.16b",
                // Values 16c + [0, 8) x low nibbles of segment 2c.
                "smmla v16.4s, v4.16b, v2.16b",
                "smmla v17.4s, v4.16b, v3.16b",
                "ldr q4, [x20, #16]",
                "smmla v18.4s, v5.16b, v2.16b",
                "smmla v19.4s, v5.16b, v3.16b",
                "ldr q5, [x27]",
                "smmla v20.4s, v6.16b, v2.16b",
                "smmla v21.4s, v6.16b, v3.16b",
                "ldr q6, [x27, #16]",
                "smmla v22.4s, v4.16b, v2.16b",
                "smmla v23.4s, v4.16b, v3.16b",
                "ldr q4, [x28]",
                "ldr q2, [x21, #32]",             // segment 2c + 1, columns {0,1}
                "ldr q3, [x21, #48]",             // segment 2c + 1, columns {2,3}
                // Values bl/2 + 16c + [0, 8) x high nibbles of segment 2c.
                "smmla v16.4s, v5.16b, v0.16b",
                "smmla v17.4s, v5.16b, v1.16b",
                "ldr q5, [x28, #16]",
                "smmla v18.4s, v6.16b, v0.16b",
                "smmla v19.4s, v6.16b, v1.16b",
                "ldr q6, [x17, #32]",
                "smmla v20.4s, v4.16b, v0.16b",
                "smmla v21.4s, v4.16b, v1.16b",
                "ldr q4, [x17, #48]",
                "smmla v22.4s, v5.16b, v0.16b",
                "smmla v23.4s, v5.16b, v1.16b",
                "ldr q5, [x20, #32]",
                "shl v0.16b, v2.16b, #4",
                "shl v1.16b, v3.16b, #4",
                "and v2.16b, v2.16b, v7.16b",
                "and v3.16b, v3.16b, v7.16b",
                // Values 16c + [8, 16) x low nibbles of segment 2c + 1.
                "smmla v16.4s, v6.16b, v0.16b",
                "smmla v17.4s, v6.16b, v1.16b",
                "ldr q6, [x20, #48]",
                "smmla v18.4s, v4.16b, v0.16b",
                "smmla v19.4s, v4.16b, v1.16b",
                "ldr q4, [x27, #32]",
                "smmla v20.4s, v5.16b, v0.16b",
                "smmla v21.4s, v5.16b, v1.16b",
                "ldr q5, [x27, #48]",
                "smmla v22.4s, v6.16b, v0.16b",
                "smmla v23.4s, v6.16b, v1.16b",
                "ldr q6, [x28, #32]",
                // Values bl/2 + 16c + [8, 16) x high nibbles of segment 2c + 1.
                "smmla v16.4s, v4.16b, v2.16b",
                "smmla v17.4s, v4.16b, v3.16b",
                "ldr q4, [x28, #48]",
                "smmla v18.4s, v5.16b, v2.16b",
                "smmla v19.4s, v5.16b, v3.16b",
                "smmla v20.4s, v6.16b, v2.16b",
                "smmla v21.4s, v6.16b, v3.16b",
                "smmla v22.4s, v4.16b, v2.16b",
                "smmla v23.4s, v4.16b, v3.16b",
                "add x17, x17, #64",
                "add x20, x20, #64",
                "add x27, x27, #64",
                "add x28, x28, #64",
                "add x21, x21, #64",
                "subs x23, x23, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Block epilogue. The scales sit 2 * bl + 8 bytes before x17 / x20 / x21 (the
                // low halves ended where the high halves began); x27 / x28 / x21 now point at the
                // next block.
                "sub x26, x21, x10",
                "ldur d0, [x26, #-8]",            // column scales d0..d3 (f16)
                "sub x26, x17, x10",
                "ldur d2, [x26, #-8]",            // group A row scales
                "sub x26, x20, x10",
                "ldur d3, [x26, #-8]",            // group B row scales
                "fcvtl v0.4s, v0.4h",
                "fcvtl v2.4s, v2.4h",
                "fcvtl v3.4s, v3.4h",
                "zip2 v1.2d, v0.2d, v0.2d",       // [d2, d3, d2, d3]
                "zip1 v0.2d, v0.2d, v0.2d",       // [d0, d1, d0, d1]
                "zip1 v4.4s, v2.4s, v2.4s",       // [a0, a0, a1, a1]
                "zip2 v5.4s, v2.4s, v2.4s",       // [a2, a2, a3, a3]
                "zip1 v6.4s, v3.4s, v3.4s",       // [b0, b0, b1, b1]
                "zip2 v2.4s, v3.4s, v3.4s",       // [b2, b2, b3, b3]
                fold_tile!("16", "24", "4", "0", "3"),
                fold_tile!("17", "25", "4", "1", "7"),
                fold_tile!("18", "26", "5", "0", "3"),
                fold_tile!("19", "27", "5", "1", "7"),
                fold_tile!("20", "28", "6", "0", "3"),
                fold_tile!("21", "29", "6", "1", "7"),
                fold_tile!("22", "30", "2", "0", "3"),
                fold_tile!("23", "31", "2", "1", "7"),
                "subs x22, x22, #1",
                "b.ne 26b",
                // ---- Tile epilogue: un-interleave (tile row r -> v(16 + r)), clamp.
                "dup v6.4s, w9",
                "lsr x26, x9, #32",
                "dup v7.4s, w26",
                "trn1 v16.2d, v24.2d, v25.2d",
                "trn2 v17.2d, v24.2d, v25.2d",
                "trn1 v18.2d, v26.2d, v27.2d",
                "trn2 v19.2d, v26.2d, v27.2d",
                "trn1 v20.2d, v28.2d, v29.2d",
                "trn2 v21.2d, v28.2d, v29.2d",
                "trn1 v22.2d, v30.2d, v31.2d",
                "trn2 v23.2d, v30.2d, v31.2d",
                clamp_row!("16"),
                clamp_row!("17"),
                clamp_row!("18"),
                clamp_row!("19"),
                clamp_row!("20"),
                clamp_row!("21"),
                clamp_row!("22"),
                clamp_row!("23"),
                // ---- Stores. Fast path: a full 8 x 4 tile.
                "cmp x12, #8",
                "b.ne 24f",
                "cmp x24, #4",
                "b.ne 24f",
                "mov x25, x16",
                store_rows_q!("x25", "x6"; "16", "17", "18", "19", "20", "21", "22", "23"),
                "b 25f",
                // Partial tile: x12 rows, x24 columns.
                "24:",
                "mov x25, x16",
                each_row!(store_row, lt, "x12", "25", "x25", "x6";
                    ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
                "25:",
                // Next column tile.
                "add x14, x14, x8",
                "add x16, x16, #16",
                "subs x15, x15, #4",
                "b.gt 22b";
                gemm[8 rows, "21"](m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_pair(clamp_min, clamp_max),
                in("x10") 2 * bl,
                in("x11") nb,
                clobber x(12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
