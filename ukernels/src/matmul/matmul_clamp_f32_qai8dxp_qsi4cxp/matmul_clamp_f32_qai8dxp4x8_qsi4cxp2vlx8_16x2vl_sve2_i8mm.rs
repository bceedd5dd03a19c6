//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm`: vector-length-agnostic
//! GEMM (16 rows x 2 x VL32 columns per step) with SVE `SMMLA` (FEAT_I8MM), the whole m x n
//! computation in one `asm!` block. Operands: a dynamically quantized int8 LHS packed 4 rows x
//! 8-value blocks and a per-channel symmetric int4 RHS in KleidiAI's `qsi4cxp` format with
//! `nr = 2 x VL32`, `kr = 16`, `sr = 2`: the packed weights of the family's SVE GEMV.
//!
//! A 32-value K chunk of a column group is `2 x 4` RHS vectors (super-block, then column
//! register holding VL64 columns x 8 bytes). Each 128-bit segment of a column register is thus
//! the 2 x 8 right operand of `SMMLA` (two columns), and `LD1RQB` of 16 LHS bytes (two rows of a
//! block) replicates its 2 x 8 left operand into every segment: the accumulator segment holds
//! `[r0 c0, r0 c1, r1 c0, r1 c1]`. `UZP1`/`UZP2` on 64-bit elements of a column-register pair
//! separate the two rows after the K loop, in column order.
//!
//! The column group is computed in two passes of VL32 columns (2 column registers) x 16 rows:
//! each decoded register (`lsl #4`, `and 0xf0`: 16 x the nibble) serves 8 row pairs, 8 decodes
//! per 64 `SMMLA`, where 8 rows x 2 x VL32 would need 16 (llvm-mca: 89% against 80% of the
//! SMMLA peak on Neoverse N2). The second pass is skipped when no column of it is below `n`.
//!
//! Loop order: row blocks of 16 (four LHS groups) outside, column groups inside, the two passes,
//! K innermost.

use crate::matmul::kernel_geometry::per_channel;

/// Epilogue of accumulators `$a0`, `$a1` (row pair `2q`, `2q + 1` of an LHS group whose trailer
/// is at `$lt`; offsets at bytes `$o0`, `$o1`, scales at `$s0`, `$s1`): separate the rows, add
/// `lhs_offset * rsum`, convert, scale, add bias, clamp. Row `2q` lands in `$a0`, row `2q + 1`
/// in `$a1`. Expects rsum / rscale / bias of the pass's columns in z0 / z1 / z2 and clamp bounds
/// in z13 / z14; uses z4-z11.
macro_rules! epilogue_pair {
    ($a0:literal, $a1:literal, $lt:literal, $o0:literal, $o1:literal, $s0:literal, $s1:literal) => {
        concat!(
            zop3!("uzp1" "d"; ("4", $a0, $a1)),
            zop3!("uzp2" "d"; ("5", $a0, $a1)),
            concat!("ld1rw {{z6.s}}, p0/z, [", $lt, ", #", $o0, "]\n"),
            concat!("ld1rw {{z7.s}}, p0/z, [", $lt, ", #", $o1, "]\n"),
            concat!("ld1rw {{z8.s}}, p0/z, [", $lt, ", #", $s0, "]\n"),
            concat!("ld1rw {{z9.s}}, p0/z, [", $lt, ", #", $s1, "]\n"),
            mla_z!(("4", "0", "6") ("5", "0", "7")),
            zop3!("fmul" "s"; ("10", "1", "8") ("11", "1", "9")),
            scvtf_z!("4", "5"),
            zop3!("fmul" "s"; ($a0, "4", "10") ($a1, "5", "11")),
            bias_clamp_z!(($a0, "2") ($a1, "2"); "13", "14"),
        )
    };
}

/// 16 `SMMLA`s of one K slice: row pairs z4-z11 x column registers `$c0`, `$c1`.
macro_rules! smmla_slice {
    ($c0:literal, $c1:literal) => {
        concat!(
            "smmla z16.s, z4.b, z",
            $c0,
            ".b\n",
            "smmla z17.s, z4.b, z",
            $c1,
            ".b\n",
            "smmla z18.s, z5.b, z",
            $c0,
            ".b\n",
            "smmla z19.s, z5.b, z",
            $c1,
            ".b\n",
            "smmla z20.s, z6.b, z",
            $c0,
            ".b\n",
            "smmla z21.s, z6.b, z",
            $c1,
            ".b\n",
            "smmla z22.s, z7.b, z",
            $c0,
            ".b\n",
            "smmla z23.s, z7.b, z",
            $c1,
            ".b\n",
            "smmla z24.s, z8.b, z",
            $c0,
            ".b\n",
            "smmla z25.s, z8.b, z",
            $c1,
            ".b\n",
            "smmla z26.s, z9.b, z",
            $c0,
            ".b\n",
            "smmla z27.s, z9.b, z",
            $c1,
            ".b\n",
            "smmla z28.s, z10.b, z",
            $c0,
            ".b\n",
            "smmla z29.s, z10.b, z",
            $c1,
            ".b\n",
            "smmla z30.s, z11.b, z",
            $c0,
            ".b\n",
            "smmla z31.s, z11.b, z",
            $c1,
            ".b\n",
        )
    };
}

/// Replicates the two row pairs of LHS block `b` of the chunk (byte offset `$o` = `32 b` and
/// `$o + 16` in each group) of the four groups (x9, x21, x24, x27) into z4-z11.
macro_rules! load_lhs_block {
    ($o:literal, $o16:literal) => {
        concat!(
            "ld1rqb {{z4.b}}, p0/z, [x9, #",
            $o,
            "]\n",
            "ld1rqb {{z5.b}}, p0/z, [x9, #",
            $o16,
            "]\n",
            "ld1rqb {{z6.b}}, p0/z, [x21, #",
            $o,
            "]\n",
            "ld1rqb {{z7.b}}, p0/z, [x21, #",
            $o16,
            "]\n",
            "ld1rqb {{z8.b}}, p0/z, [x24, #",
            $o,
            "]\n",
            "ld1rqb {{z9.b}}, p0/z, [x24, #",
            $o16,
            "]\n",
            "ld1rqb {{z10.b}}, p0/z, [x27, #",
            $o,
            "]\n",
            "ld1rqb {{z11.b}}, p0/z, [x27, #",
            $o16,
            "]\n",
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 2 x VL32` (the
    /// 32-bit lanes of an SVE vector) and `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE2 and `FEAT_I8MM`.
    #[target_feature(enable = "sve2,i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, k_int, lhs_stride, rhs_col_bytes) = per_channel(m, n, k, 1, true);

        // Register map
        //   x0  rows left                    x9  LHS pointer, group 0 (rows 0..4)
        //   x1  n                            x10 RHS pointer of the pass
        //   x2  32-value chunks              x11 dst of the column group (row 0)
        //   x3  LHS group 0 of the block     x12 chunks left
        //   x4  rhs_packed                   x13 VL32 (CNTW)
        //   x5  dst of the row block         x14 columns left from the group's column 0 (signed)
        //   x6  dst_stride_row               x17 rows in this block (1..=16)
        //   x7  lhs_stride                   x20 RHS group pointer
        //   x8  RHS group stride             x21 / x24 / x27 LHS pointers, groups 1 / 2 / 3 (group 0
        //   x15 / x16 clamp bounds (bits)        again for groups past the block's rows)
        //   x22 first column of the pass in the group (0 / VL32)
        //   x23 int4 data bytes of a group   x25 dst of the row being stored
        //   x26 RHS trailer of the pass
        //
        //   z16-z31 accumulators: z(16 + 2q + c) = row pair q (rows 2q, 2q + 1) x column register c
        //   z0/z1   RHS of one super-block, shifted left by 4 in place (low nibbles)
        //   z2/z3   byte & 0xF0 of z0/z1 (high nibbles)
        //   z4-z11  row pairs 0..8 of one 8-value LHS block, replicated per 128 bits
        //   z12     0xF0 in every byte; z13 / z14 clamp bounds
        //   p0      all lanes; p1 columns of the pass below n
        //
        // SAFETY: the caller guarantees (see `# Safety`) SVE2, FEAT_I8MM and the buffer sizes. The
        // asm reads exactly ceil(m / 4) LHS groups (a block's group g only when the block has more
        // than 4g rows, else group 0 again; rows past m are computed but not stored) and
        // ceil(n / nr) RHS groups. Stores are predicated to columns below n and limited to rows below
        // m. Only declared registers are touched (v8-v15 are declared, so the compiler saves
        // d8-d15); x18, x19, x29, x30 and sp are not used.
        unsafe {
            kernel_asm!(
                gemm2vl_start!(),
                "mul x23, x23, x13",
                "mov z12.b, #-16", // 0xF0
                "mov z13.s, w15",
                "mov z14.s, w16",
                // ---- row blocks of 16 ----
                "1:",
                min_imm!("x17", "x0", "16", "x17"),
                gemm2vl_groups!(),
                gemm2vl_pass!(),
                group_if_rows!("x21", "x3", "x7", "x17", "4", "x3"),
                "add x24, x3, x7, lsl #1",
                "cmp x17, #8",
                "csel x24, x24, x3, gt",
                "add x27, x3, x7, lsl #1",
                group_if_rows!("x27", "x27", "x7", "x17", "12", "x3"),
                gemm2vl_chunks!(),
                // ---- K loop: one 32-value chunk per iteration ----
                "4:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm",
                // super-block 0: K 0..8 (low nibbles), then K 16..24 (high)
                sve_nibble_super_block!(smmla_slice; "x10", 0, 1;
                    load_lhs_block!("0", "16");
                    load_lhs_block!("64", "80")),
                // super-block 1: K 8..16 (low nibbles), then K 24..32 (high)
                sve_nibble_super_block!(smmla_slice; "x10", 4, 5;
                    load_lhs_block!("32", "48");
                    load_lhs_block!("96", "112")),
                "add x9, x9, #128",
                "add x21, x21, #128",
                "add x24, x24, #128",
                "add x27, x27, #128",
                "addvl x10, x10, #8",
                "subs x12, x12, #1",
                "b.ne 4b",
                "// LLVM-MCA-END",
                // ---- epilogue: x9 / x21 / x24 / x27 -> LHS trailers (4 offsets, 4 scales each) ----
                "add x26, x20, x23",
                "add x26, x26, x22, lsl #2",
                "ld1w {{z0.s}}, p0/z, [x26]",
                "ld1w {{z1.s}}, p0/z, [x26, #2, mul vl]",
                "ld1w {{z2.s}}, p0/z, [x26, #4, mul vl]",
                epilogue_pair!("16", "17", "x9", "0", "4", "16", "20"),
                epilogue_pair!("18", "19", "x9", "8", "12", "24", "28"),
                epilogue_pair!("20", "21", "x21", "0", "4", "16", "20"),
                epilogue_pair!("22", "23", "x21", "8", "12", "24", "28"),
                epilogue_pair!("24", "25", "x24", "0", "4", "16", "20"),
                epilogue_pair!("26", "27", "x24", "8", "12", "24", "28"),
                epilogue_pair!("28", "29", "x27", "0", "4", "16", "20"),
                epilogue_pair!("30", "31", "x27", "8", "12", "24", "28"),
                // ---- stores: rows below m, columns below n ----
                "add x25, x11, x22, lsl #2",
                each_row!(st1w_row["x25";], le, "x17", "5", "x25", "x6";
                    ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23") ("24") ("25") ("26")
                    ("27") ("28") ("29") ("30") ("31")),
                gemm2vl_next_pass!(),
                // ---- next column group ----
                gemm2vl_next_group!();
                gemm2vl[16 rows, "1"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride,
                    rhs_col_bytes, clamp_min.to_bits() as usize, clamp_max.to_bits() as usize);
                inout("x23") k_int => _,
                clobber x(9 10 11 12 13 14 17 20 21 22 24 25 26 27)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1),
            );
        }
    }
}
