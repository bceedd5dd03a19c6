//! `kai_matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod`: asymmetric int4 GEMM with
//! `FEAT_DotProd` `SDOT` (by element), the whole m x n computation in one `asm!` block. The
//! f16-output kernel of the same tile narrows its results.
//!
//! Loop order: column groups of 4 outside, blocks of 8 rows (two LHS groups of 4) inside (a
//! column group's weights stay in L1 while every row block uses them), then the `k / bl` blocks,
//! each in 32-value sub-blocks. A sub-block is 64 bytes of weights (4-byte chunks 0-3 of columns
//! 0-3, one register per chunk, lane = column; byte `t` of chunk `c` holds values `4c + t` low and
//! `16 + 4c + t` high) and 128 bytes of activations per LHS group (eight 4-value chunks of the 4
//! rows, lane = row). Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the signed value),
//! once per 8 rows; `SDOT (by element)` with lane `r` of an activation chunk adds row `r`'s 4
//! products to each column lane. One int32 accumulator per row takes both nibble halves (the
//! integer sum is exact in any order); the block epilogue folds it into the f32 row accumulators
//! in the family's order.

use crate::matmul::kernel_geometry::qsi8d32p_blockwise;

/// `scvtf v$r.4s, v$r.4s`: a row's int32 block sum to f32.
macro_rules! scvtf_row {
    ($r:literal) => {
        concat!("scvtf v", $r, ".4s, v", $r, ".4s\n")
    };
}

/// The block parameters of row lane `$i` of a group (`v$lsum`, `v$ls`): `v$t = rs16 x ls[i]`
/// (`v5` rs16), and `acc += rz x lsum[i]` (`v4` rz) into f32 accumulator `v$acc`.
macro_rules! block_params {
    ($acc:literal, $t:literal, $lsum:literal, $ls:literal, $i:literal) => {
        concat!(
            concat!("fmul v", $t, ".4s, v5.4s, v", $ls, ".s[", $i, "]\n"),
            concat!("fmla v", $acc, ".4s, v4.4s, v", $lsum, ".s[", $i, "]\n"),
        )
    };
}

/// Adds the biases `v12` to row `v$r`, clamps it to `[v14, v15]` and stores its first `x1`
/// columns at `x13`.
macro_rules! bias_clamp_store {
    ($r:literal) => {
        concat!(
            concat!("fadd v", $r, ".4s, v", $r, ".4s, v12.4s\n"),
            concat!("fmax v", $r, ".4s, v", $r, ".4s, v14.4s\n"),
            concat!("fmin v", $r, ".4s, v", $r, ".4s, v15.4s\n"),
            store_cols4!(cmp, $r, "x1", "x13", "x14"; "5", "6", "8"),
        )
    };
}

asm_kernel! {
    /// The family's computation (NEON order) and [contract](super#safety) with `mr = 4`, `nr = 4`
    /// and `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qsi8d32p4x4_qai4c32p4x4_8x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (blocks, sub_blocks, _, _) = qsi8d32p_blockwise(m, n, k, bl, 1);

        let lhs_stride = 4 * blocks * (bl + 8);

        // Register map
        //   x0  m (rows)                     x8  rows left (from this row block on)
        //   x1  columns left (n - 4g)        x9  LHS group A pointer (walks the groups)
        //   x2  sub-blocks per block         x10 RHS pointer (walks the column group)
        //   x3  lhs_packed                   x11 dst pointer of the row block's first row
        //   x4  RHS group pointer            x12 sub-blocks left in this block
        //   x5  dst + 4 * 4g                 x13 dst pointer of the row being stored
        //   x6  dst_stride_row               x14 partial-store pointer
        //   x7  blocks (k / bl)              x15 blocks left
        //   x16 LHS group B pointer (group A again when the block has at most 4 rows)
        //   x17 LHS group stride             w20 / w21 clamp bounds
        //
        //   v0-v3   weight chunks 0-3 (lane = column); `and 0xf0` in place (16 x high nibbles)
        //   v4-v7   the same shifted left by 4 (16 x low nibbles)
        //   v8-v14  activation chunks (lane = row), streamed; v15 the 0xF0 mask
        //   v16-v23 i32 accumulators of rows 0-7 (lane = column)
        //   v24-v31 f32 accumulators of rows 0-7
        //   In the epilogues v0-v15 hold block parameters, products, biases and clamp bounds.
        //
        // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover exactly the
        // bytes this block reads (ceil(m / 4) LHS groups, group B of a row block being group A
        // again when the block has at most 4 rows; ceil(n / 4) RHS groups), that dst rows are
        // writable for 4 * n bytes, and that the CPU implements dotprod (also required by this
        // function's `target_feature`). The block stores only dst[i][0..n), touches only the
        // declared registers (v8-v15 among them, which the compiler saves), and does not use the
        // stack.
        unsafe {
            kernel_asm!(
                // ---- loop over groups of 4 columns ----
                "2:",
                "mov x8, x0",
                "mov x9, x3",
                "mov x11, x5",
                // ---- loop over blocks of 8 rows (LHS groups A, B) ----
                "3:",
                group_if_rows!("x16", "x9", "x17", "x8", "4", "x9"),
                "mov x10, x4",
                "mov x15, x7",
                "movi v15.16b, #0xf0",
                zero_v!("16b"; "24", "25", "26", "27", "28", "29", "30", "31"),
                // ---- loop over blocks ----
                "4:",
                zero_v!("16b"; "16", "17", "18", "19", "20", "21", "22", "23"),
                "mov x12, x2",
                // ---- K loop: one 32-value sub-block x 8 rows x 4 columns per iteration ----
                "10:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod",
                "ldur q0, [x10]",
                "ldur q1, [x10, #16]",
                "ldur q2, [x10, #32]",
                "ldur q3, [x10, #48]",
                "ldur q8, [x9]",
                "ldur q9, [x16]",
                "ldur q10, [x9, #64]",
                "shl v4.16b, v0.16b, #4",
                "and v0.16b, v0.16b, v15.16b",
                "sdot v16.4s, v4.16b, v8.4b[0]",
                "sdot v17.4s, v4.16b, v8.4b[1]",
                "sdot v18.4s, v4.16b, v8.4b[2]",
                "sdot v19.4s, v4.16b, v8.4b[3]",
                "ldur q11, [x16, #64]",
                "sdot v20.4s, v4.16b, v9.4b[0]",
                "sdot v21.4s, v4.16b, v9.4b[1]",
                "sdot v22.4s, v4.16b, v9.4b[2]",
                "sdot v23.4s, v4.16b, v9.4b[3]",
                "ldur q12, [x9, #16]",
                "sdot v16.4s, v0.16b, v10.4b[0]",
                "sdot v17.4s, v0.16b, v10.4b[1]",
                "sdot v18.4s, v0.16b, v10.4b[2]",
                "sdot v19.4s, v0.16b, v10.4b[3]",
                "ldur q13, [x16, #16]",
                "sdot v20.4s, v0.16b, v11.4b[0]",
                "sdot v21.4s, v0.16b, v11.4b[1]",
                "sdot v22.4s, v0.16b, v11.4b[2]",
                "sdot v23.4s, v0.16b, v11.4b[3]",
                "ldur q14, [x9, #80]",
                "shl v5.16b, v1.16b, #4",
                "and v1.16b, v1.16b, v15.16b",
                "sdot v16.4s, v5.16b, v12.4b[0]",
                "sdot v17.4s, v5.16b, v12.4b[1]",
                "sdot v18.4s, v5.16b, v12.4b[2]",
                "sdot v19.4s, v5.16b, v12.4b[3]",
                "ldur q8, [x16, #80]",
                "sdot v20.4s, v5.16b, v13.4b[0]",
                "sdot v21.4s, v5.16b, v13.4b[1]",
                "sdot v22.4s, v5.16b, v13.4b[2]",
                "sdot v23.4s, v5.16b, v13.4b[3]",
                "ldur q9, [x9, #32]",
                "sdot v16.4s, v1.16b, v14.4b[0]",
                "sdot v17.4s, v1.16b, v14.4b[1]",
                "sdot v18.4s, v1.16b, v14.4b[2]",
                "sdot v19.4s, v1.16b, v14.4b[3]",
                "ldur q10, [x16, #32]",
                "sdot v20.4s, v1.16b, v8.4b[0]",
                "sdot v21.4s, v1.16b, v8.4b[1]",
                "sdot v22.4s, v1.16b, v8.4b[2]",
                "sdot v23.4s, v1.16b, v8.4b[3]",
                "ldur q11, [x9, #96]",
                "shl v6.16b, v2.16b, #4",
                "and v2.16b, v2.16b, v15.16b",
                "sdot v16.4s, v6.16b, v9.4b[0]",
                "sdot v17.4s, v6.16b, v9.4b[1]",
                "sdot v18.4s, v6.16b, v9.4b[2]",
                "sdot v19.4s, v6.16b, v9.4b[3]",
                "ldur q12, [x16, #96]",
                "sdot v20.4s, v6.16b, v10.4b[0]",
                "sdot v21.4s, v6.16b, v10.4b[1]",
                "sdot v22.4s, v6.16b, v10.4b[2]",
                "sdot v23.4s, v6.16b, v10.4b[3]",
                "ldur q13, [x9, #48]",
                "sdot v16.4s, v2.16b, v11.4b[0]",
                "sdot v17.4s, v2.16b, v11.4b[1]",
                "sdot v18.4s, v2.16b, v11.4b[2]",
                "sdot v19.4s, v2.16b, v11.4b[3]",
                "ldur q14, [x16, #48]",
                "sdot v20.4s, v2.16b, v12.4b[0]",
                "sdot v21.4s, v2.16b, v12.4b[1]",
                "sdot v22.4s, v2.16b, v12.4b[2]",
                "sdot v23.4s, v2.16b, v12.4b[3]",
                "ldur q8, [x9, #112]",
                "shl v7.16b, v3.16b, #4",
                "and v3.16b, v3.16b, v15.16b",
                "sdot v16.4s, v7.16b, v13.4b[0]",
                "sdot v17.4s, v7.16b, v13.4b[1]",
                "sdot v18.4s, v7.16b, v13.4b[2]",
                "sdot v19.4s, v7.16b, v13.4b[3]",
                "ldur q9, [x16, #112]",
                "sdot v20.4s, v7.16b, v14.4b[0]",
                "sdot v21.4s, v7.16b, v14.4b[1]",
                "sdot v22.4s, v7.16b, v14.4b[2]",
                "sdot v23.4s, v7.16b, v14.4b[3]",
                "sdot v16.4s, v3.16b, v8.4b[0]",
                "sdot v17.4s, v3.16b, v8.4b[1]",
                "sdot v18.4s, v3.16b, v8.4b[2]",
                "sdot v19.4s, v3.16b, v8.4b[3]",
                "sdot v20.4s, v3.16b, v9.4b[0]",
                "sdot v21.4s, v3.16b, v9.4b[1]",
                "sdot v22.4s, v3.16b, v9.4b[2]",
                "sdot v23.4s, v3.16b, v9.4b[3]",
                "add x10, x10, #64",
                "add x9, x9, #128",
                "add x16, x16, #128",
                "subs x12, x12, #1",
                "b.ne 10b",
                "// LLVM-MCA-END",
                // ---- block epilogue ----
                "ldp q0, q1, [x9], #32", // lsum, ls of group A
                "ldp q2, q3, [x16], #32", // lsum, ls of group B
                "ldp q4, q5, [x10], #32", // rz, rs16 of columns 0-3
                for_rows!(scvtf_row[]; ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
                for_rows!(block_params[];
                    ("24", "6", "0", "1", "0") ("25", "7", "0", "1", "1") ("26", "8", "0", "1", "2")
                    ("27", "9", "0", "1", "3") ("28", "10", "2", "3", "0") ("29", "11", "2", "3", "1")
                    ("30", "12", "2", "3", "2") ("31", "13", "2", "3", "3")),
                "fmla v24.4s, v16.4s, v6.4s",
                "fmla v25.4s, v17.4s, v7.4s",
                "fmla v26.4s, v18.4s, v8.4s",
                "fmla v27.4s, v19.4s, v9.4s",
                "fmla v28.4s, v20.4s, v10.4s",
                "fmla v29.4s, v21.4s, v11.4s",
                "fmla v30.4s, v22.4s, v12.4s",
                "fmla v31.4s, v23.4s, v13.4s",
                "subs x15, x15, #1",
                "b.ne 4b",
                // ---- row-block epilogue: bias, clamp, store up to 8 rows of 4 columns ----
                "ldr q12, [x10]",
                "dup v14.4s, w20",
                "dup v15.4s, w21",
                "mov x13, x11",
                each_row!(bias_clamp_store, lt, "x8", "9", "x13", "x6";
                    ("24") ("25") ("26") ("27") ("28") ("29") ("30") ("31")),
                "9:",
                "add x11, x11, x6, lsl #3",
                "mov x9, x16",
                "subs x8, x8, #8",
                "b.gt 3b",
                // ---- next group of 4 columns (after this group's biases) ----
                "add x4, x10, #16",
                "add x5, x5, #16",
                "subs x1, x1, #4",
                "b.gt 2b";
                gemv(m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row);
                in("x7") blocks,
                in("x17") lhs_stride,
                in("x20") clamp_min.to_bits() as usize,
                in("x21") clamp_max.to_bits() as usize,
                clobber x(8 9 10 11 12 13 14 15 16)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
