//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod`: vector-length-agnostic
//! GEMM (8 rows x 2 x VL32 columns per step) with SVE `SDOT`, the whole m x n computation in one
//! `asm!` block. Operands: a dynamically quantized int8 LHS packed 4 rows x 8-value blocks and a
//! per-channel symmetric int4 RHS in KleidiAI's `qsi4cxp` format with `nr = 2 x VL32`,
//! `kr = 16`, `sr = 2`: the packed weights of the family's SVE GEMV and SMMLA GEMM.
//!
//! A 32-value K chunk of a column group is `2 x 4` RHS vectors (super-block, then column
//! register holding VL64 columns x 8 bytes, as in the GEMV). `LD1RD` replicates a row's 8
//! activations into every 64-bit element, so a plain `SDOT` multiplies each column's 8 bytes by
//! them (lane `2i`: bytes 0..4 of column `i`, lane `2i + 1`: bytes 4..8); `UZP1`/`UZP2` + `ADD`
//! fold the lane pairs after the K loop.
//!
//! The column group is computed in two passes of VL32 columns (2 column registers) x 8 rows:
//! each decoded register (`lsl #4`, `and 0xf0`: 16 x the nibble) then serves 8 rows, 8 decodes
//! per 64 `SDOT`, where a 4-row x 2 x VL32 tile would need 16 (llvm-mca: 89% against 80% of the
//! SDOT peak on Neoverse N2 and V2). The second pass is skipped when the group's columns past
//! `n` would fill it entirely.
//!
//! Loop order: row blocks of 8 (two LHS groups) outside, column groups inside, the two passes,
//! K innermost.

use crate::matmul::kernel_geometry::per_channel;

/// Epilogue of tile row `r` (accumulators `$a0`, `$a1`, LHS trailer at `$lt` with the row's
/// offset at byte `$off` and scale at `$scale`): fold lane pairs, add `lhs_offset * rsum`,
/// convert, scale, add bias, clamp; the result lands in `$a0`. Expects rsum / rscale / bias of
/// the pass's columns in z0 / z1 / z2 and clamp bounds in z13 / z14; uses z4-z8.
macro_rules! epilogue_row {
    ($a0:literal, $a1:literal, $lt:literal, $off:literal, $scale:literal) => {
        concat!(
            zop3!("uzp1" "s"; ("4", $a0, $a1)),
            zop3!("uzp2" "s"; ("5", $a0, $a1)),
            concat!("ld1rw {{z6.s}}, p0/z, [", $lt, ", #", $off, "]\n"),
            concat!("ld1rw {{z7.s}}, p0/z, [", $lt, ", #", $scale, "]\n"),
            zop3!("add" "s"; ($a0, "4", "5")),
            mla_z!(($a0, "0", "6")),
            zop3!("fmul" "s"; ("8", "1", "7")),
            scvtf_z!($a0),
            zop3!("fmul" "s"; ($a0, $a0, "8")),
            bias_clamp_z!(($a0, "2"); "13", "14"),
        )
    };
}

/// 16 `SDOT`s of one K slice: rows z4-z11 x column registers `$c0`, `$c1`.
macro_rules! sdot_slice {
    ($c0:literal, $c1:literal) => {
        concat!(
            "sdot z16.s, z",
            $c0,
            ".b, z4.b\n",
            "sdot z17.s, z",
            $c1,
            ".b, z4.b\n",
            "sdot z18.s, z",
            $c0,
            ".b, z5.b\n",
            "sdot z19.s, z",
            $c1,
            ".b, z5.b\n",
            "sdot z20.s, z",
            $c0,
            ".b, z6.b\n",
            "sdot z21.s, z",
            $c1,
            ".b, z6.b\n",
            "sdot z22.s, z",
            $c0,
            ".b, z7.b\n",
            "sdot z23.s, z",
            $c1,
            ".b, z7.b\n",
            "sdot z24.s, z",
            $c0,
            ".b, z8.b\n",
            "sdot z25.s, z",
            $c1,
            ".b, z8.b\n",
            "sdot z26.s, z",
            $c0,
            ".b, z9.b\n",
            "sdot z27.s, z",
            $c1,
            ".b, z9.b\n",
            "sdot z28.s, z",
            $c0,
            ".b, z10.b\n",
            "sdot z29.s, z",
            $c1,
            ".b, z10.b\n",
            "sdot z30.s, z",
            $c0,
            ".b, z11.b\n",
            "sdot z31.s, z",
            $c1,
            ".b, z11.b\n",
        )
    };
}

/// Replicates the 8 activations of LHS block `b` of the chunk for rows 0..4 (group A at x9) and
/// 4..8 (group B at x21) into z4-z11; `$o` = `32 b`, the rows follow at 8-byte steps.
macro_rules! load_lhs_block {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            "ld1rd {{z4.d}}, p0/z, [x9, #",
            $o0,
            "]\n",
            "ld1rd {{z5.d}}, p0/z, [x9, #",
            $o1,
            "]\n",
            "ld1rd {{z6.d}}, p0/z, [x9, #",
            $o2,
            "]\n",
            "ld1rd {{z7.d}}, p0/z, [x9, #",
            $o3,
            "]\n",
            "ld1rd {{z8.d}}, p0/z, [x21, #",
            $o0,
            "]\n",
            "ld1rd {{z9.d}}, p0/z, [x21, #",
            $o1,
            "]\n",
            "ld1rd {{z10.d}}, p0/z, [x21, #",
            $o2,
            "]\n",
            "ld1rd {{z11.d}}, p0/z, [x21, #",
            $o3,
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
    /// The [family contract](super#safety); the CPU must implement SVE2.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, k_int, lhs_stride, rhs_col_bytes) = per_channel(m, n, k, 1, true);

        // Register map
        //   x0  rows left                    x9  LHS pointer, group A (rows 0..4)
        //   x1  n                            x10 RHS pointer of the pass
        //   x2  32-value chunks              x11 dst of the column group (row 0)
        //   x3  LHS group A of the block     x12 chunks left
        //   x4  rhs_packed                   x13 VL32 (CNTW)
        //   x5  dst of the row block         x14 columns left from the group's column 0 (signed)
        //   x6  dst_stride_row               x17 rows in this block (1..=8)
        //   x7  lhs_stride                   x20 RHS group pointer
        //   x8  RHS group stride             x21 LHS pointer, group B (rows 4..8)
        //   x15 / x16 clamp bounds (bits)    x22 first column of the pass in the group (0 / VL32)
        //   x23 int4 data bytes of a group   x24 LHS group B of the block (group A if <= 4 rows)
        //   x25 dst of the row being stored  x26 RHS trailer of the pass
        //
        //   z16-z31 accumulators: z(16 + 2r + c) = row r x column register c of the pass
        //   z0/z1   RHS of one super-block, shifted left by 4 in place (low nibbles)
        //   z2/z3   byte & 0xF0 of z0/z1 (high nibbles)
        //   z4-z11  rows 0..8 of one 8-value LHS block, replicated per 64 bits
        //   z12     0xF0 in every byte; z13 / z14 clamp bounds
        //   p0      all lanes; p1 columns of the pass below n
        //
        // SAFETY: the caller guarantees (see `# Safety`) SVE2 and the buffer sizes. The asm reads
        // exactly ceil(m / 4) LHS groups (the second group of a block only when the block has more
        // than 4 rows, else group A twice; rows past m are computed but not stored) and ceil(n / nr)
        // RHS groups. Stores are predicated to columns below n and limited to rows below m. Only
        // declared registers are touched (v8-v15 are declared, so the compiler saves d8-d15); x18,
        // x19, x29, x30 and sp are not used.
        unsafe {
            kernel_asm!(
                gemm2vl_start!(),
                "mul x23, x23, x13",
                "mov z12.b, #-16", // 0xF0
                "mov z13.s, w15",
                "mov z14.s, w16",
                // ---- row blocks of 8 ----
                "1:",
                min_imm!("x17", "x0", "8", "x17"),
                group_if_rows!("x24", "x3", "x7", "x0", "4", "x3"),
                gemm2vl_groups!(),
                gemm2vl_pass!(),
                "mov x21, x24",
                gemm2vl_chunks!(),
                // ---- K loop: one 32-value chunk per iteration ----
                "4:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod",
                // super-block 0: K 0..8 (low nibbles), then K 16..24 (high)
                sve_nibble_super_block!(sdot_slice; "x10", 0, 1;
                    load_lhs_block!("0", "8", "16", "24");
                    load_lhs_block!("64", "72", "80", "88")),
                // super-block 1: K 8..16 (low nibbles), then K 24..32 (high)
                sve_nibble_super_block!(sdot_slice; "x10", 4, 5;
                    load_lhs_block!("32", "40", "48", "56");
                    load_lhs_block!("96", "104", "112", "120")),
                "add x9, x9, #128",
                "add x21, x21, #128",
                "addvl x10, x10, #8",
                "subs x12, x12, #1",
                "b.ne 4b",
                "// LLVM-MCA-END",
                // ---- epilogue: x9 / x21 -> LHS trailers (4 offsets, 4 scales each) ----
                "add x26, x20, x23",
                "add x26, x26, x22, lsl #2",
                "ld1w {{z0.s}}, p0/z, [x26]",
                "ld1w {{z1.s}}, p0/z, [x26, #2, mul vl]",
                "ld1w {{z2.s}}, p0/z, [x26, #4, mul vl]",
                epilogue_row!("16", "17", "x9", "0", "16"),
                epilogue_row!("18", "19", "x9", "4", "20"),
                epilogue_row!("20", "21", "x9", "8", "24"),
                epilogue_row!("22", "23", "x9", "12", "28"),
                epilogue_row!("24", "25", "x21", "0", "16"),
                epilogue_row!("26", "27", "x21", "4", "20"),
                epilogue_row!("28", "29", "x21", "8", "24"),
                epilogue_row!("30", "31", "x21", "12", "28"),
                // ---- stores: rows below m, columns below n ----
                "add x25, x11, x22, lsl #2",
                each_row!(st1w_row["x25";], le, "x17", "5", "x25", "x6";
                    ("16") ("18") ("20") ("22") ("24") ("26") ("28") ("30")),
                gemm2vl_next_pass!(),
                // ---- next column group ----
                gemm2vl_next_group!();
                gemm2vl[8 rows, "1"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride,
                    rhs_col_bytes, clamp_min.to_bits() as usize, clamp_max.to_bits() as usize);
                inout("x23") k_int => _,
                clobber x(9 10 11 12 13 14 17 20 21 22 24 25 26)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1),
            );
        }
    }
}
