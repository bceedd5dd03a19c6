//! `kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm`: Q4_0 GEMM with SVE `SMMLA` for
//! 256-bit vectors, the whole m x n computation in one `asm!` block.
//!
//! Like KleidiAI's, this kernel is written for 256-bit SVE only: a segment of the 8-column RHS
//! group (8 columns x 8 bytes) is two vectors, columns 0-3 and 4-7, each holding two `SMMLA`
//! column pairs (one per 128-bit segment). The family's `check` refuses other vector lengths
//! before this function runs.
//!
//! The register blocking is 8 rows x 8 columns (two LHS groups x one RHS group); a 16-row step
//! runs as two such blocks (16 rows would need 16 int32 and 16 f32 accumulators next to the
//! operands; `z8`..`z15` are never touched). `LD1RQB` replicates one row pair of an 8-value LHS
//! slice into both 128-bit segments, so one `SMMLA` forms a 2 x 4 tile: `z(16 + 2*rp + cv)` holds
//! row pair `rp` (0, 1: group A rows {0,1}, {2,3}; 2, 3: group B) x column vector `cv` as
//! `[r0c0, r0c1, r1c0, r1c1 | r0c2, r0c3, r1c2, r1c3]` (columns offset by `4 cv`); `z24`..`z31`
//! are the f32 accumulators in the same layout.
//!
//! A block's low nibbles pair with its first `bl / 2` values and its high nibbles with the last
//! `bl / 2`, so each LHS group is read through two pointers `2 * bl` bytes apart. At the end of a
//! block the int32 tiles convert with `SCVTF` and are fused-multiply-added into the f32
//! accumulators with `column scale / 16 x row scale` (exact, so the same bits as the NEON
//! kernels' `SCVTF #4` and unscaled product), built in the tile layout with `ZIP1`/`ZIP2` and
//! `DUP` of 128-bit segments. The final epilogue un-interleaves rows with `UZP1`/`UZP2` on 64-bit
//! lanes and stores under a column predicate.

use crate::matmul::kernel_geometry::{clamp_pair, qsi8d32p_blockwise};

/// `acc += f32(I) * scale` for int32 tile `z$i`, f32 tile `z$a`, with the scale product
/// `z$c * z$l` (column scales / 16, row scales) formed in `z$t`.
macro_rules! fold_tile {
    ($i:literal, $a:literal, $l:literal, $c:literal, $t:literal) => {
        concat!(
            concat!("scvtf z", $i, ".s, p0/m, z", $i, ".s\n"),
            concat!("fmul z", $t, ".s, z", $c, ".s, z", $l, ".s\n"),
            concat!("fmla z", $a, ".s, p0/m, z", $i, ".s, z", $t, ".s\n"),
        )
    };
}

/// Tile rows `z$r0`/`z$r1` from the f32 tiles `z$t0`/`z$t1` of a row pair (column vectors 0 and
/// 1), clamped with `z6` (`FMAX`) and `z7` (`FMIN`).
macro_rules! rows_of_pair {
    ($r0:literal, $r1:literal, $t0:literal, $t1:literal) => {
        concat!(
            concat!("uzp1 z", $r0, ".d, z", $t0, ".d, z", $t1, ".d\n"),
            concat!("uzp2 z", $r1, ".d, z", $t0, ".d, z", $t1, ".d\n"),
            concat!("fmax z", $r0, ".s, p0/m, z", $r0, ".s, z6.s\n"),
            concat!("fmax z", $r1, ".s, p0/m, z", $r1, ".s, z6.s\n"),
            concat!("fmin z", $r0, ".s, p0/m, z", $r0, ".s, z7.s\n"),
            concat!("fmin z", $r1, ".s, p0/m, z", $r1, ".s, z7.s\n"),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 8` and
    /// `kr / sr = 8`.
    ///
    /// Each block adds `fma(f32(I), f32(wd) / 16 * f32(ld), acc)` (`SCVTF`, `FMUL`, `FMLA`; `I`
    /// from `16 x w`), which has the NEON kernels' bits (see the family notes).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE with 256-bit vectors and
    /// `FEAT_I8MM`.
    #[target_feature(enable = "sve,i8mm")]
    blockwise fn matmul_f32_qsi8d32p4x8_qsi4c32p8x8_16x8(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, sub_blocks, lhs_stride, rhs_stride) = qsi8d32p_blockwise(m, n, k, bl, 8);

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
        //   x10 2 * bl (half-block distance) x25 dst row pointer, x26 scratch
        //   x11 blocks (nb)
        //   p0  all lanes, p1 columns of the tile, p2 four 32-bit lanes
        //
        // SAFETY: the caller guarantees SVE with 256-bit vectors, FEAT_I8MM, the argument ranges and
        // the buffer sizes documented above. The asm reads exactly ceil(m/4) LHS groups (group B of a
        // row block is group A again when the block has at most 4 rows) and ceil(n/8) RHS groups.
        // Stores are predicated to the n columns of the m rows. All touched registers are declared;
        // x18, x19, x29, x30, sp and z8..z15 are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                "ptrue p0.b",
                "ptrue p2.s, vl4",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "21:",
                min_imm!("x12", "x0", "8", "x26"),
                group_if_rows!("x13", "x3", "x7", "x0", "4", "x3"),
                "mov x14, x4",
                "mov x15, x1",
                "mov x16, x5",
                // ---- Column loop: 8 columns (one RHS group) per iteration.
                "22:",
                "whilelt p1.s, xzr, x15",
                "mov x27, x3",
                "mov x28, x13",
                "mov x21, x14",
                "mov x22, x11",
                zero_z!("24", "25", "26", "27", "28", "29", "30", "31"),
                // ---- Block loop. x27/x28/x21 point at the block's scales.
                "26:",
                "add x17, x27, #8",
                "add x20, x28, #8",
                "add x27, x17, x10",
                "add x28, x20, x10",
                "add x21, x21, #16",
                "mov x23, x2",
                zero_z!("16", "17", "18", "19", "20", "21", "22", "23"),
                // ---- K loop: one 32-value sub-block (values 16c.. and bl/2 + 16c..) per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm",
                "ld1b {{z0.b}}, p0/z, [x21]",              // segment 2c, columns 0-3
                "ld1b {{z1.b}}, p0/z, [x21, #1, mul vl]",  // segment 2c, columns 4-7
                "ld1rqb {{z4.b}}, p0/z, [x17]",
                "ld1rqb {{z5.b}}, p0/z, [x17, #16]",
                "ld1rqb {{z6.b}}, p0/z, [x20]",
                "lsl z2.b, z0.b, #4",
                "lsl z3.b, z1.b, #4",
                "and z0.b, z0.b, #0xf0",
                "and z1.b, z1.b, #0xf0",
                // Values 16c + [0, 8) x low nibbles of segment 2c.
                "smmla z16.s, z4.b, z2.b",
                "smmla z17.s, z4.b, z3.b",
                "ld1rqb {{z4.b}}, p0/z, [x20, #16]",
                "smmla z18.s, z5.b, z2.b",
                "smmla z19.s, z5.b, z3.b",
                "ld1rqb {{z5.b}}, p0/z, [x27]",
                "smmla z20.s, z6.b, z2.b",
                "smmla z21.s, z6.b, z3.b",
                "ld1rqb {{z6.b}}, p0/z, [x27, #16]",
                "smmla z22.s, z4.b, z2.b",
                "smmla z23.s, z4.b, z3.b",
                "ld1rqb {{z4.b}}, p0/z, [x28]",
                "ld1b {{z2.b}}, p0/z, [x21, #2, mul vl]",  // segment 2c + 1, columns 0-3
                "ld1b {{z3.b}}, p0/z, [x21, #3, mul vl]",  // segment 2c + 1, columns 4-7
                // Values bl/2 + 16c + [0, 8) x high nibbles of segment 2c.
                "smmla z16.s, z5.b, z0.b",
                "smmla z17.s, z5.b, z1.b",
                "ld1rqb {{z5.b}}, p0/z, [x28, #16]",
                "smmla z18.s, z6.b, z0.b",
                "smmla z19.s, z6.b, z1.b",
                "ld1rqb {{z6.b}}, p0/z, [x17, #32]",
                "smmla z20.s, z4.b, z0.b",
                "smmla z21.s, z4.b, z1.b",
                "ld1rqb {{z4.b}}, p0/z, [x17, #48]",
                "smmla z22.s, z5.b, z0.b",
                "smmla z23.s, z5.b, z1.b",
                "ld1rqb {{z5.b}}, p0/z, [x20, #32]",
                "lsl z0.b, z2.b, #4",
                "lsl z1.b, z3.b, #4",
                "and z2.b, z2.b, #0xf0",
                "and z3.b, z3.b, #0xf0",
                // Values 16c + [8, 16) x low nibbles of segment 2c + 1.
                "smmla z16.s, z6.b, z0.b",
                "smmla z17.s, z6.b, z1.b",
                "ld1rqb {{z6.b}}, p0/z, [x20, #48]",
                "smmla z18.s, z4.b, z0.b",
                "smmla z19.s, z4.b, z1.b",
                "ld1rqb {{z4.b}}, p0/z, [x27, #32]",
                "smmla z20.s, z5.b, z0.b",
                "smmla z21.s, z5.b, z1.b",
                "ld1rqb {{z5.b}}, p0/z, [x27, #48]",
                "smmla z22.s, z6.b, z0.b",
                "smmla z23.s, z6.b, z1.b",
                "ld1rqb {{z6.b}}, p0/z, [x28, #32]",
                // Values bl/2 + 16c + [8, 16) x high nibbles of segment 2c + 1.
                "smmla z16.s, z4.b, z2.b",
                "smmla z17.s, z4.b, z3.b",
                "ld1rqb {{z4.b}}, p0/z, [x28, #48]",
                "smmla z18.s, z5.b, z2.b",
                "smmla z19.s, z5.b, z3.b",
                "smmla z20.s, z6.b, z2.b",
                "smmla z21.s, z6.b, z3.b",
                "smmla z22.s, z4.b, z2.b",
                "smmla z23.s, z4.b, z3.b",
                "add x17, x17, #64",
                "add x20, x20, #64",
                "add x27, x27, #64",
                "add x28, x28, #64",
                "addvl x21, x21, #4",
                "subs x23, x23, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Block epilogue. The LHS scales sit 2 * bl + 8 bytes before x17 / x20, the RHS
                // ones 4 * bl + 16 bytes before x21; x27 / x28 / x21 now point at the next block.
                "sub x26, x21, x10, lsl #1",
                "sub x26, x26, #16",
                "ld1h {{z0.s}}, p0/z, [x26]",              // column scales d0..d7 (f16)
                "sub x26, x17, x10",
                "sub x26, x26, #8",
                "ld1h {{z2.s}}, p2/z, [x26]",              // group A row scales
                "sub x26, x20, x10",
                "sub x26, x26, #8",
                "ld1h {{z3.s}}, p2/z, [x26]",              // group B row scales
                "movz w26, #0x3d80, lsl #16",              // 1/16
                "dup z7.s, w26",
                "fcvt z0.s, p0/m, z0.h",
                "fcvt z2.s, p0/m, z2.h",
                "fcvt z3.s, p0/m, z3.h",
                "fmul z0.s, z0.s, z7.s",
                "zip2 z1.d, z0.d, z0.d",                   // [d4, d5, d4, d5 | d6, d7, d6, d7] / 16
                "zip1 z0.d, z0.d, z0.d",                   // [d0, d1, d0, d1 | d2, d3, d2, d3] / 16
                "zip1 z2.s, z2.s, z2.s",                   // [a0, a0, a1, a1, a2, a2, a3, a3]
                "zip1 z3.s, z3.s, z3.s",
                "dup z4.q, z2.q[0]",                       // [a0, a0, a1, a1 | a0, a0, a1, a1]
                "dup z5.q, z2.q[1]",                       // [a2, a2, a3, a3 | ...]
                "dup z6.q, z3.q[0]",
                "dup z2.q, z3.q[1]",
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
                // ---- Tile epilogue: rows r -> z(16 + r), clamped; stores of x12 rows.
                "dup z6.s, w9",
                "lsr x26, x9, #32",
                "dup z7.s, w26",
                rows_of_pair!("16", "17", "24", "25"),
                rows_of_pair!("18", "19", "26", "27"),
                rows_of_pair!("20", "21", "28", "29"),
                rows_of_pair!("22", "23", "30", "31"),
                "mov x25, x16",
                each_row!(st1w_row["x25";], le, "x12", "25", "x25", "x6";
                    ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
                "25:",
                // Next column tile.
                "add x14, x14, x8",
                "add x16, x16, #32",
                "subs x15, x15, #8",
                "b.gt 22b";
                gemm[8 rows, "21"](m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_pair(clamp_min, clamp_max),
                in("x10") 2 * bl,
                in("x11") nb,
                clobber x(12 13 14 15 16 17 20 21 22 23 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 1 2),
            );
        }
    }
}
