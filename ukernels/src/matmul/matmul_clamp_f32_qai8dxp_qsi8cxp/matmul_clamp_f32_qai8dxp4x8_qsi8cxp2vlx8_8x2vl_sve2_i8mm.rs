//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm`: vector-length-agnostic GEMM
//! (8 rows x 2 x VL32 columns per step) with SVE `SMMLA` (FEAT_I8MM), the whole m x n
//! computation in one `asm!` block. Operands: a dynamically quantized int8 LHS packed 4 rows x
//! 8-value blocks and a per-channel symmetric int8 RHS in KleidiAI's `qsi8cxp` format with
//! `nr = 2 x VL32`, `kr = 8`, `sr = 1`: the packed weights of the family's SVE GEMV.
//!
//! Each 8-value K block of a column group is 4 RHS vectors (column register `c` holding columns
//! `c x VL64 ..` as 8 bytes each), so every 128-bit segment is the 2 x 8 right operand of
//! `SMMLA` (two columns); `LD1RQB` of 16 LHS bytes (two rows of the block) replicates the 2 x 8
//! left operand into every segment. An accumulator segment holds `[r0 c0, r0 c1, r1 c0, r1 c1]`;
//! `UZP1`/`UZP2` on 64-bit elements of a column-register pair separate the two rows after the K
//! loop, in column order. Per block: 4 RHS and 4 LHS loads for 16 `SMMLA` (4 row pairs x 4
//! column registers, 16 accumulators).
//!
//! Loop order: row blocks of 8 (two LHS groups) outside, column groups inside, K innermost.

use crate::matmul::kernel_geometry::per_channel;

/// Epilogue of row pair `q` (accumulators `$a0 .. $a3` = column registers 0..3; LHS trailer at
/// `$lt`, row offsets at bytes `$o0`, `$o1`, scales at `$s0`, `$s1`): separate the rows, add
/// `lhs_offset * rsum`, convert, scale, add bias, clamp. Row `2q` lands in `$a0` (columns
/// `0 .. VL32`) and `$a1` (`VL32 .. 2 x VL32`), row `2q + 1` in `$a2` / `$a3`. Expects rsum /
/// rscale / bias in z0-z1 / z2-z3 / z4-z5 and clamp bounds in z13 / z14; uses z6-z11.
macro_rules! epilogue_pair {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $lt:literal, $o0:literal, $o1:literal,
     $s0:literal, $s1:literal) => {
        concat!(
            zop3!("uzp1" "d"; ("6", $a0, $a1)),
            zop3!("uzp2" "d"; ("7", $a0, $a1)),
            zop3!("uzp1" "d"; ("8", $a2, $a3)),
            zop3!("uzp2" "d"; ("9", $a2, $a3)),
            concat!("ld1rw {{z10.s}}, p0/z, [", $lt, ", #", $o0, "]\n"),
            concat!("ld1rw {{z11.s}}, p0/z, [", $lt, ", #", $o1, "]\n"),
            mla_z!(("6", "0", "10") ("8", "1", "10") ("7", "0", "11") ("9", "1", "11")),
            concat!("ld1rw {{z10.s}}, p0/z, [", $lt, ", #", $s0, "]\n"),
            concat!("ld1rw {{z11.s}}, p0/z, [", $lt, ", #", $s1, "]\n"),
            scvtf_z!("6", "8", "7", "9"),
            zop3!("fmul" "s"; ($a0, "2", "10") ($a1, "3", "10") ($a2, "2", "11") ($a3, "3", "11")),
            zop3!("fmul" "s"; ($a0, "6", $a0) ($a1, "8", $a1) ($a2, "7", $a2) ($a3, "9", $a3)),
            bias_clamp_z!(($a0, "4") ($a1, "5") ($a2, "4") ($a3, "5"); "13", "14"),
        )
    };
}

/// 16 `SMMLA`s of one K block: row pairs `$l0 .. $l3` x column registers `$c0 .. $c3`.
macro_rules! smmla_block {
    (
        $l0:literal, $l1:literal, $l2:literal, $l3:literal,
        $c0:literal, $c1:literal, $c2:literal, $c3:literal
    ) => {
        concat!(
            "smmla z16.s, z",
            $l0,
            ".b, z",
            $c0,
            ".b\n",
            "smmla z17.s, z",
            $l0,
            ".b, z",
            $c1,
            ".b\n",
            "smmla z18.s, z",
            $l0,
            ".b, z",
            $c2,
            ".b\n",
            "smmla z19.s, z",
            $l0,
            ".b, z",
            $c3,
            ".b\n",
            "smmla z20.s, z",
            $l1,
            ".b, z",
            $c0,
            ".b\n",
            "smmla z21.s, z",
            $l1,
            ".b, z",
            $c1,
            ".b\n",
            "smmla z22.s, z",
            $l1,
            ".b, z",
            $c2,
            ".b\n",
            "smmla z23.s, z",
            $l1,
            ".b, z",
            $c3,
            ".b\n",
            "smmla z24.s, z",
            $l2,
            ".b, z",
            $c0,
            ".b\n",
            "smmla z25.s, z",
            $l2,
            ".b, z",
            $c1,
            ".b\n",
            "smmla z26.s, z",
            $l2,
            ".b, z",
            $c2,
            ".b\n",
            "smmla z27.s, z",
            $l2,
            ".b, z",
            $c3,
            ".b\n",
            "smmla z28.s, z",
            $l3,
            ".b, z",
            $c0,
            ".b\n",
            "smmla z29.s, z",
            $l3,
            ".b, z",
            $c1,
            ".b\n",
            "smmla z30.s, z",
            $l3,
            ".b, z",
            $c2,
            ".b\n",
            "smmla z31.s, z",
            $l3,
            ".b, z",
            $c3,
            ".b\n",
        )
    };
}

/// Replicates the 4 row pairs of LHS block `b` (bytes `$o` = `32 b` and `$o + 16` of group A at
/// x9 and group B at x21) into `$l0 .. $l3`.
macro_rules! load_lhs_block {
    ($o:literal, $o16:literal, $l0:literal, $l1:literal, $l2:literal, $l3:literal) => {
        concat!(
            "ld1rqb {{z",
            $l0,
            ".b}}, p0/z, [x9, #",
            $o,
            "]\n",
            "ld1rqb {{z",
            $l1,
            ".b}}, p0/z, [x9, #",
            $o16,
            "]\n",
            "ld1rqb {{z",
            $l2,
            ".b}}, p0/z, [x21, #",
            $o,
            "]\n",
            "ld1rqb {{z",
            $l3,
            ".b}}, p0/z, [x21, #",
            $o16,
            "]\n",
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 2 x VL32` and
    /// `kr = 8`. `2 x VL32` is twice the 32-bit lanes of an SVE vector.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE2 and `FEAT_I8MM`.
    #[target_feature(enable = "sve2,i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, lhs_stride, rhs_col_bytes) = per_channel(m, n, k, 1, false);

        // Register map
        //   x0  rows left                    x9  LHS pointer, group A (rows 0..4)
        //   x1  n                            x10 RHS pointer in the group
        //   x2  32-value chunks              x11 dst of the column group (row 0)
        //   x3  LHS group A of the block     x12 chunks left
        //   x4  rhs_packed                   x13 VL32 (CNTW)
        //   x5  dst of the row block         x14 columns left (signed)
        //   x6  dst_stride_row               x17 rows in this block (1..=8)
        //   x7  lhs_stride                   x20 RHS group pointer
        //   x8  RHS group stride             x21 LHS pointer, group B (rows 4..8)
        //   x15 / x16 clamp bounds (bits)    x24 LHS group B of the block (group A if <= 4 rows)
        //   x25 dst of the row being stored
        //
        //   z16-z31 accumulators: z(16 + 4q + c) = row pair q (rows 2q, 2q + 1) x column register c
        //   z0-z3   RHS of blocks 0 and 2 of the chunk; z4-z7 of blocks 1 and 3
        //   z8-z11  row pairs 0..4 (group A rows 0-1, 2-3, group B rows 0-1, 2-3) of blocks 0
        //           and 2, replicated per 128 bits; z12-z15 the same for blocks 1 and 3
        //   z13/z14 clamp bounds, set after the K loop
        //   p0      all lanes; p1 / p2 columns of the tile below n (first / second VL32)
        //
        // SAFETY: the caller guarantees (see `# Safety`) SVE2, FEAT_I8MM and the buffer sizes. The
        // asm reads exactly ceil(m / 4) LHS groups (the second group of a block only when the block
        // has more than 4 rows, else group A twice; rows past m are computed but not stored) and
        // ceil(n / nr) RHS groups. Stores are predicated to columns below n and limited to rows
        // below m. Only declared registers are touched (v8-v15 are declared, so the compiler saves
        // d8-d15); x18, x19, x29, x30 and sp are not used.
        unsafe {
            kernel_asm!(
                gemm2vl_start!(),
                // ---- row blocks of 8 ----
                "1:",
                min_imm!("x17", "x0", "8", "x17"),
                group_if_rows!("x24", "x3", "x7", "x0", "4", "x3"),
                gemm2vl_groups!(),
                "whilelt p1.s, xzr, x14",
                "whilelt p2.s, x13, x14",
                "mov x9, x3",
                "mov x21, x24",
                "mov x10, x20",
                gemm2vl_chunks!(),
                // ---- K loop: one 32-value chunk per iteration ----
                "3:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm",
                "ld1b {{z0.b}}, p0/z, [x10]",
                "ld1b {{z1.b}}, p0/z, [x10, #1, mul vl]",
                "ld1b {{z2.b}}, p0/z, [x10, #2, mul vl]",
                "ld1b {{z3.b}}, p0/z, [x10, #3, mul vl]",
                load_lhs_block!("0", "16", "8", "9", "10", "11"),
                "ld1b {{z4.b}}, p0/z, [x10, #4, mul vl]",
                "ld1b {{z5.b}}, p0/z, [x10, #5, mul vl]",
                "ld1b {{z6.b}}, p0/z, [x10, #6, mul vl]",
                "ld1b {{z7.b}}, p0/z, [x10, #7, mul vl]",
                load_lhs_block!("32", "48", "12", "13", "14", "15"),
                "addvl x10, x10, #16",
                smmla_block!("8", "9", "10", "11", "0", "1", "2", "3"),
                "ld1b {{z0.b}}, p0/z, [x10, #-8, mul vl]",
                "ld1b {{z1.b}}, p0/z, [x10, #-7, mul vl]",
                "ld1b {{z2.b}}, p0/z, [x10, #-6, mul vl]",
                "ld1b {{z3.b}}, p0/z, [x10, #-5, mul vl]",
                load_lhs_block!("64", "80", "8", "9", "10", "11"),
                smmla_block!("12", "13", "14", "15", "4", "5", "6", "7"),
                "ld1b {{z4.b}}, p0/z, [x10, #-4, mul vl]",
                "ld1b {{z5.b}}, p0/z, [x10, #-3, mul vl]",
                "ld1b {{z6.b}}, p0/z, [x10, #-2, mul vl]",
                "ld1b {{z7.b}}, p0/z, [x10, #-1, mul vl]",
                load_lhs_block!("96", "112", "12", "13", "14", "15"),
                smmla_block!("8", "9", "10", "11", "0", "1", "2", "3"),
                "add x9, x9, #128",
                "add x21, x21, #128",
                "subs x12, x12, #1",
                smmla_block!("12", "13", "14", "15", "4", "5", "6", "7"),
                "b.ne 3b",
                "// LLVM-MCA-END",
                // ---- epilogue: x9 / x21 -> LHS trailers (4 offsets, 4 scales each) ----
                "mov z13.s, w15",
                "mov z14.s, w16",
                "ld1w {{z0.s}}, p0/z, [x10]",
                "ld1w {{z1.s}}, p0/z, [x10, #1, mul vl]",
                "ld1w {{z2.s}}, p0/z, [x10, #2, mul vl]",
                "ld1w {{z3.s}}, p0/z, [x10, #3, mul vl]",
                "ld1w {{z4.s}}, p0/z, [x10, #4, mul vl]",
                "ld1w {{z5.s}}, p0/z, [x10, #5, mul vl]",
                epilogue_pair!("16", "17", "18", "19", "x9", "0", "4", "16", "20"),
                epilogue_pair!("20", "21", "22", "23", "x9", "8", "12", "24", "28"),
                epilogue_pair!("24", "25", "26", "27", "x21", "0", "4", "16", "20"),
                epilogue_pair!("28", "29", "30", "31", "x21", "8", "12", "24", "28"),
                // ---- stores: rows below m, columns below n; row r is in z(16 + 2r), z(17 + 2r) ----
                "mov x25, x11",
                each_row!(st1w_row["x25";], le, "x17", "5", "x25", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ("24", "25") ("26", "27")
                    ("28", "29") ("30", "31")),
                "5:",
                // ---- next column group ----
                gemm2vl_next_group!();
                gemm2vl[8 rows, "1"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride,
                    rhs_col_bytes, clamp_min.to_bits() as usize, clamp_max.to_bits() as usize);
                clobber x(9 10 11 12 13 14 17 20 21 24 25)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1 2),
            );
        }
    }
}
