//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod`: vector-length-agnostic
//! GEMM (4 rows x 2 x VL32 columns per step) with SVE `SDOT`, the whole m x n computation in one
//! `asm!` block. Operands: a dynamically quantized int8 LHS packed 4 rows x 8-value blocks and a
//! per-channel symmetric int8 RHS in KleidiAI's `qsi8cxp` format with `nr = 2 x VL32`, `kr = 8`,
//! `sr = 1`: the packed weights of the family's SVE GEMV and SMMLA GEMM.
//!
//! Each 8-value K block of a column group is 4 RHS vectors (column register `c` holding columns
//! `c x VL64 ..` as 8 bytes each). `LD1RD` replicates a row's 8 activations into every 64-bit
//! element, so a plain `SDOT` multiplies each column's 8 bytes by them (lane `2i`: bytes 0..4
//! of column `i`, lane `2i + 1`: bytes 4..8); `UZP1`/`UZP2` + `ADD` fold the lane pairs after
//! the K loop. int8 weights need no decode, so the 4 x 4 register tile (16 accumulators) keeps
//! the vector pipes on `SDOT` alone: 16 RHS and 16 LHS loads per 64 `SDOT`.
//!
//! Loop order: row blocks of 4 (one LHS group) outside, column groups inside, K innermost.

use crate::matmul::kernel_geometry::per_channel;

/// Epilogue of tile row `$r` (accumulators `z(16 + 4r) .. z(19 + 4r)`): fold lane pairs,
/// add `lhs_offset * rsum`, convert, scale, add bias, clamp. Result: columns `0 .. VL32` in
/// `z(16 + 4r)`, `VL32 .. 2 x VL32` in `z(17 + 4r)`. Expects rsum in z0/z1, rscale in z2/z3,
/// bias in z4/z5, clamp bounds in z13/z14 and the LHS trailer at x9; uses z8-z11.
macro_rules! epilogue_row {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $off:literal, $scale:literal) => {
        concat!(
            zop3!("uzp1" "s"; ("8", $a0, $a1)),
            zop3!("uzp2" "s"; ("9", $a0, $a1)),
            zop3!("uzp1" "s"; ("10", $a2, $a3)),
            zop3!("uzp2" "s"; ("11", $a2, $a3)),
            zop3!("add" "s"; ($a0, "8", "9") ($a1, "10", "11")),
            concat!("ld1rw {{z8.s}}, p0/z, [x9, #", $off, "]\n"),
            concat!("ld1rw {{z9.s}}, p0/z, [x9, #", $scale, "]\n"),
            mla_z!(($a0, "0", "8") ($a1, "1", "8")),
            zop3!("fmul" "s"; ("10", "2", "9") ("11", "3", "9")),
            scvtf_z!($a0, $a1),
            zop3!("fmul" "s"; ($a0, $a0, "10") ($a1, $a1, "11")),
            bias_clamp_z!(($a0, "4") ($a1, "5"); "13", "14"),
        )
    };
}

/// 16 `SDOT`s of one K slice: rows z8-z11 x column registers `$c0 .. $c3`.
macro_rules! sdot_slice {
    ($c0:literal, $c1:literal, $c2:literal, $c3:literal) => {
        concat!(
            "sdot z16.s, z",
            $c0,
            ".b, z8.b\n",
            "sdot z17.s, z",
            $c1,
            ".b, z8.b\n",
            "sdot z18.s, z",
            $c2,
            ".b, z8.b\n",
            "sdot z19.s, z",
            $c3,
            ".b, z8.b\n",
            "sdot z20.s, z",
            $c0,
            ".b, z9.b\n",
            "sdot z21.s, z",
            $c1,
            ".b, z9.b\n",
            "sdot z22.s, z",
            $c2,
            ".b, z9.b\n",
            "sdot z23.s, z",
            $c3,
            ".b, z9.b\n",
            "sdot z24.s, z",
            $c0,
            ".b, z10.b\n",
            "sdot z25.s, z",
            $c1,
            ".b, z10.b\n",
            "sdot z26.s, z",
            $c2,
            ".b, z10.b\n",
            "sdot z27.s, z",
            $c3,
            ".b, z10.b\n",
            "sdot z28.s, z",
            $c0,
            ".b, z11.b\n",
            "sdot z29.s, z",
            $c1,
            ".b, z11.b\n",
            "sdot z30.s, z",
            $c2,
            ".b, z11.b\n",
            "sdot z31.s, z",
            $c3,
            ".b, z11.b\n",
        )
    };
}

/// Replicates 8 activations of each of the 4 rows of LHS block `$b` of the chunk (byte offset
/// `32 b + 8 r` from x9) into z8-z11.
macro_rules! load_lhs_block {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            "ld1rd {{z8.d}}, p0/z, [x9, #",
            $o0,
            "]\n",
            "ld1rd {{z9.d}}, p0/z, [x9, #",
            $o1,
            "]\n",
            "ld1rd {{z10.d}}, p0/z, [x9, #",
            $o2,
            "]\n",
            "ld1rd {{z11.d}}, p0/z, [x9, #",
            $o3,
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
    /// The [family contract](super#safety); the CPU must implement SVE2.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, lhs_stride, rhs_col_bytes) = per_channel(m, n, k, 1, false);

        // Register map
        //   x0  rows left                    x9  LHS pointer in the group
        //   x1  n                            x10 RHS pointer in the group
        //   x2  32-value chunks              x11 dst of the tile (row 0, column 0)
        //   x3  LHS group pointer            x12 chunks left
        //   x4  rhs_packed                   x13 VL32 (CNTW)
        //   x5  dst of the row block         x14 columns left (signed)
        //   x6  dst_stride_row               x17 rows in this block (1..=4)
        //   x7  lhs_stride                   x20 RHS group pointer
        //   x8  RHS group stride             x21 dst of the tile row being stored
        //   x15 / x16 clamp bounds (bits)
        //
        //   z16-z31 accumulators: z(16 + 4r + c) = row r x column register c
        //   z0-z3   RHS of blocks 0 and 2 of the chunk (column registers 0..3)
        //   z4-z7   RHS of blocks 1 and 3
        //   z8-z11  rows 0..3 of one 8-value LHS block, replicated per 64 bits
        //   z13 / z14 clamp bounds
        //   p0      all lanes; p1 / p2 columns of the tile below n (first / second VL32)
        //
        // SAFETY: the caller guarantees (see `# Safety`) SVE2 and the buffer sizes. The asm reads
        // exactly ceil(m / 4) LHS groups (rows past m in the last group are computed but not stored)
        // and ceil(n / nr) RHS groups. Stores are predicated to columns below n and limited to rows
        // below m. Only declared registers are touched (v8-v15 are declared, so the compiler saves
        // d8-d15); x18, x19, x29, x30 and sp are not used.
        unsafe {
            kernel_asm!(
                gemm2vl_start!(),
                "mov z13.s, w15",
                "mov z14.s, w16",
                // ---- row blocks of 4 ----
                "1:",
                min_imm!("x17", "x0", "4", "x17"),
                gemm2vl_groups!(),
                "whilelt p1.s, xzr, x14",
                "whilelt p2.s, x13, x14",
                "mov x9, x3",
                "mov x10, x20",
                gemm2vl_chunks!(),
                // ---- K loop: one 32-value chunk per iteration ----
                "3:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod",
                "ld1b {{z0.b}}, p0/z, [x10]",
                "ld1b {{z1.b}}, p0/z, [x10, #1, mul vl]",
                "ld1b {{z2.b}}, p0/z, [x10, #2, mul vl]",
                "ld1b {{z3.b}}, p0/z, [x10, #3, mul vl]",
                load_lhs_block!("0", "8", "16", "24"),
                "ld1b {{z4.b}}, p0/z, [x10, #4, mul vl]",
                "ld1b {{z5.b}}, p0/z, [x10, #5, mul vl]",
                "ld1b {{z6.b}}, p0/z, [x10, #6, mul vl]",
                "ld1b {{z7.b}}, p0/z, [x10, #7, mul vl]",
                "addvl x10, x10, #16",
                sdot_slice!("0", "1", "2", "3"),
                load_lhs_block!("32", "40", "48", "56"),
                "ld1b {{z0.b}}, p0/z, [x10, #-8, mul vl]",
                "ld1b {{z1.b}}, p0/z, [x10, #-7, mul vl]",
                "ld1b {{z2.b}}, p0/z, [x10, #-6, mul vl]",
                "ld1b {{z3.b}}, p0/z, [x10, #-5, mul vl]",
                sdot_slice!("4", "5", "6", "7"),
                load_lhs_block!("64", "72", "80", "88"),
                "ld1b {{z4.b}}, p0/z, [x10, #-4, mul vl]",
                "ld1b {{z5.b}}, p0/z, [x10, #-3, mul vl]",
                "ld1b {{z6.b}}, p0/z, [x10, #-2, mul vl]",
                "ld1b {{z7.b}}, p0/z, [x10, #-1, mul vl]",
                sdot_slice!("0", "1", "2", "3"),
                load_lhs_block!("96", "104", "112", "120"),
                "add x9, x9, #128",
                "subs x12, x12, #1",
                sdot_slice!("4", "5", "6", "7"),
                "b.ne 3b",
                "// LLVM-MCA-END",
                // ---- epilogue: x9 -> LHS trailer (4 offsets, 4 scales), x10 -> RHS trailer ----
                "ld1w {{z0.s}}, p0/z, [x10]",
                "ld1w {{z1.s}}, p0/z, [x10, #1, mul vl]",
                "ld1w {{z2.s}}, p0/z, [x10, #2, mul vl]",
                "ld1w {{z3.s}}, p0/z, [x10, #3, mul vl]",
                "ld1w {{z4.s}}, p0/z, [x10, #4, mul vl]",
                "ld1w {{z5.s}}, p0/z, [x10, #5, mul vl]",
                epilogue_row!("16", "17", "18", "19", "0", "16"),
                epilogue_row!("20", "21", "22", "23", "4", "20"),
                epilogue_row!("24", "25", "26", "27", "8", "24"),
                epilogue_row!("28", "29", "30", "31", "12", "28"),
                // ---- stores: rows below m, columns below n ----
                "mov x21, x11",
                each_row!(st1w_row["x21";], lt, "x17", "4", "x21", "x6";
                    ("16", "17") ("20", "21") ("24", "25") ("28", "29")),
                "4:",
                // ---- next column group ----
                gemm2vl_next_group!();
                gemm2vl[4 rows, "1"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride,
                    rhs_col_bytes, clamp_min.to_bits() as usize, clamp_max.to_bits() as usize);
                clobber x(9 10 11 12 13 14 17 20 21)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1 2),
            );
        }
    }
}
