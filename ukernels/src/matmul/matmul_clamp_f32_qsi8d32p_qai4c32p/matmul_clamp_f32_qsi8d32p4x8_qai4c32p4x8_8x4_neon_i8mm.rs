//! `kai_matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm`: asymmetric int4 GEMM with
//! `FEAT_I8MM` `SMMLA`, the whole m x n computation in one `asm!` block. The f16-output kernel of
//! the same tile narrows its results.
//!
//! Loop order: column groups of 4 outside, then rows: 8 at a time (two LHS groups of 4 sharing
//! each decoded weight register) while more than 4 remain, then one pass of the last 1-4 rows
//! (the packed LHS holds only their group), then the `k / bl` blocks, each in 32-value
//! sub-blocks. A sub-block is 64 bytes of weights (8-byte chunks 0 and 1 of columns 0-3; byte
//! `t` of chunk `c` holds values `8c + t` low and `16 + 8c + t` high) and 128 bytes of each LHS
//! group's activations (four 8-value chunks of its 4 rows, rows 0-1 and 2-3 in one register
//! each). Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the signed value); one `SMMLA`
//! multiplies a 2-row by a 2-column 8-value chunk, so an 8-row sub-block is 8 decodes for 32
//! `SMMLA`. The block epilogue transposes the 2x2 tiles into rows (`ZIP1`/`ZIP2 .2d`) and folds
//! them into the f32 row accumulators in the family's order.

use crate::matmul::kernel_geometry::{clamp_pair, qsi8d32p_blockwise};

asm_kernel! {
    /// The family's computation (NEON order) and [contract](super#safety) with `mr = 4`, `nr = 4`
    /// and `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    blockwise fn matmul_f32_qsi8d32p4x8_qai4c32p4x8_8x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (blocks, sub_blocks, _, _) = qsi8d32p_blockwise(m, n, k, bl, 1);

        // Register map
        //   x0  m (rows)                     x8  rows left (from the current LHS group on)
        //   x1  columns left (n - 4g)        x9  LHS pointer (first group of the pass)
        //   x2  sub-blocks per block         x10 RHS pointer (walks the column group)
        //   x3  lhs_packed                   x11 dst pointer of the pass's first row
        //   x4  RHS group pointer            x12 sub-blocks left in this block
        //   x5  dst + 4 * 4g                 x13 dst pointer of the row being stored
        //   x6  dst_stride_row               x14 partial-store pointer
        //   x7  blocks (k / bl)              x15 blocks left
        //   x16 LHS pointer of the second group (8-row passes)
        //   x17 clamp bounds (f32 bits: min low, max high), x20 bytes per LHS group
        //
        //   v0-v3   weights (chunk 0 cols 0-1, 2-3, chunk 1 cols 0-1, 2-3); `and 0xf0` in place
        //   v4-v7   the same shifted left by 4 (16 x low nibbles), v12 the 0xF0 mask
        //   v16-v23 i32 accumulators, 2x2 tiles (8-row pass: rows 0-1 x cols 0-1, 0-1 x 2-3, 2-3 x
        //           0-1, 2-3 x 2-3, then rows 4-7 alike; 4-row pass: rows 0-3 for the low nibbles,
        //           then for the high ones)
        //   v8-v11  activation chunks (8-row pass: rows 0-1, 2-3, 4-5, 6-7 of one chunk; 4-row pass:
        //           chunks 0 and 1, with chunks 2 and 3 in v28-v31)
        //   v24-v31 f32 accumulators of rows 0-7
        //   In the epilogues v0-v15 hold block parameters, row sums, bias and clamp bounds.
        //
        // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover exactly the
        // bytes this block reads (ceil(m / 4) LHS groups; ceil(n / 4) RHS groups), that dst rows are
        // writable for 4 * n bytes, and that the CPU implements i8mm (also required by this
        // function's `target_feature`). The block stores only dst[i][0..n), touches only the
        // declared registers (v8-v15 and x20 among them, which the compiler saves), and does not use
        // the stack.
        unsafe {
            kernel_asm!(
                // ---- loop over groups of 4 columns ----
                "2:",
                "mov x8, x0",
                "mov x9, x3",
                "mov x11, x5",
                // ---- loop over row passes ----
                "3:",
                "mov x10, x4",
                "mov x15, x7",
                zero_v!("16b"; "24", "25", "26", "27"),
                "cmp x8, #4",
                "b.gt 30f",
                // ==== 4-row pass: blocks ====
                "4:",
                "movi v12.16b, #0xf0",
                zero_v!("16b"; "16", "17", "18", "19", "20", "21", "22", "23"),
                "mov x12, x2",
                // ---- K loop: one 32-value sub-block x 4 rows x 4 columns per iteration ----
                "5:",
                "ldp q0, q1, [x10]",
                "ldp q8, q9, [x9]",
                "ldp q2, q3, [x10, #32]",
                "ldp q10, q11, [x9, #32]",
                "shl v4.16b, v0.16b, #4",
                "shl v5.16b, v1.16b, #4",
                "ldp q28, q29, [x9, #64]",
                "smmla v16.4s, v8.16b, v4.16b",
                "smmla v17.4s, v8.16b, v5.16b",
                "shl v6.16b, v2.16b, #4",
                "ldp q30, q31, [x9, #96]",
                "smmla v18.4s, v9.16b, v4.16b",
                "smmla v19.4s, v9.16b, v5.16b",
                "shl v7.16b, v3.16b, #4",
                "and v0.16b, v0.16b, v12.16b",
                "smmla v16.4s, v10.16b, v6.16b",
                "smmla v17.4s, v10.16b, v7.16b",
                "and v1.16b, v1.16b, v12.16b",
                "smmla v18.4s, v11.16b, v6.16b",
                "smmla v19.4s, v11.16b, v7.16b",
                "and v2.16b, v2.16b, v12.16b",
                "smmla v20.4s, v28.16b, v0.16b",
                "smmla v21.4s, v28.16b, v1.16b",
                "and v3.16b, v3.16b, v12.16b",
                "smmla v22.4s, v29.16b, v0.16b",
                "smmla v23.4s, v29.16b, v1.16b",
                "add x10, x10, #64",
                "add x9, x9, #128",
                "smmla v20.4s, v30.16b, v2.16b",
                "smmla v21.4s, v30.16b, v3.16b",
                "subs x12, x12, #1",
                "smmla v22.4s, v31.16b, v2.16b",
                "smmla v23.4s, v31.16b, v3.16b",
                "b.ne 5b",
                // ---- block epilogue ----
                "ldp q0, q1, [x9], #32", // lsum, ls of rows 0-3
                "ldp q4, q5, [x10], #32", // rz, rs16 of columns 0-3
                "add v16.4s, v16.4s, v20.4s",
                "add v17.4s, v17.4s, v21.4s",
                "add v18.4s, v18.4s, v22.4s",
                "add v19.4s, v19.4s, v23.4s",
                "zip1 v20.2d, v16.2d, v17.2d", // row 0
                "zip2 v21.2d, v16.2d, v17.2d", // row 1
                "zip1 v22.2d, v18.2d, v19.2d", // row 2
                "zip2 v23.2d, v18.2d, v19.2d", // row 3
                "scvtf v16.4s, v20.4s",
                "scvtf v17.4s, v21.4s",
                "scvtf v18.4s, v22.4s",
                "scvtf v19.4s, v23.4s",
                "fmul v8.4s, v5.4s, v1.s[0]",
                "fmla v24.4s, v4.4s, v0.s[0]",
                "fmul v9.4s, v5.4s, v1.s[1]",
                "fmla v25.4s, v4.4s, v0.s[1]",
                "fmul v10.4s, v5.4s, v1.s[2]",
                "fmla v26.4s, v4.4s, v0.s[2]",
                "fmul v11.4s, v5.4s, v1.s[3]",
                "fmla v27.4s, v4.4s, v0.s[3]",
                "fmla v24.4s, v16.4s, v8.4s",
                "fmla v25.4s, v17.4s, v9.4s",
                "fmla v26.4s, v18.4s, v10.4s",
                "fmla v27.4s, v19.4s, v11.4s",
                "subs x15, x15, #1",
                "b.ne 4b",
                "b 40f",
                // ==== 8-row pass: blocks ====
                "30:",
                "add x16, x9, x20",
                zero_v!("16b"; "28", "29", "30", "31"),
                "31:",
                "movi v12.16b, #0xf0",
                zero_v!("16b"; "16", "17", "18", "19", "20", "21", "22", "23"),
                "mov x12, x2",
                // ---- K loop: one 32-value sub-block x 8 rows x 4 columns per iteration ----
                "32:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm",
                "ldr q0, [x10]",
                "ldr q1, [x10, #16]",
                "ldr q2, [x10, #32]",
                "ldr q3, [x10, #48]",
                "ldr q8, [x9]",
                "ldr q9, [x9, #16]",
                "ldr q10, [x16]",
                "ldr q11, [x16, #16]",
                "shl v4.16b, v0.16b, #4",
                "shl v5.16b, v1.16b, #4",
                "smmla v16.4s, v8.16b, v4.16b",
                "smmla v17.4s, v8.16b, v5.16b",
                "smmla v18.4s, v9.16b, v4.16b",
                "smmla v19.4s, v9.16b, v5.16b",
                "shl v6.16b, v2.16b, #4",
                "smmla v20.4s, v10.16b, v4.16b",
                "smmla v21.4s, v10.16b, v5.16b",
                "smmla v22.4s, v11.16b, v4.16b",
                "smmla v23.4s, v11.16b, v5.16b",
                "shl v7.16b, v3.16b, #4",
                "ldr q8, [x9, #32]",
                "ldr q9, [x9, #48]",
                "ldr q10, [x16, #32]",
                "ldr q11, [x16, #48]",
                "smmla v16.4s, v8.16b, v6.16b",
                "smmla v17.4s, v8.16b, v7.16b",
                "smmla v18.4s, v9.16b, v6.16b",
                "smmla v19.4s, v9.16b, v7.16b",
                "and v0.16b, v0.16b, v12.16b",
                "smmla v20.4s, v10.16b, v6.16b",
                "smmla v21.4s, v10.16b, v7.16b",
                "smmla v22.4s, v11.16b, v6.16b",
                "smmla v23.4s, v11.16b, v7.16b",
                "and v1.16b, v1.16b, v12.16b",
                "ldr q8, [x9, #64]",
                "ldr q9, [x9, #80]",
                "ldr q10, [x16, #64]",
                "ldr q11, [x16, #80]",
                "smmla v16.4s, v8.16b, v0.16b",
                "smmla v17.4s, v8.16b, v1.16b",
                "smmla v18.4s, v9.16b, v0.16b",
                "smmla v19.4s, v9.16b, v1.16b",
                "and v2.16b, v2.16b, v12.16b",
                "smmla v20.4s, v10.16b, v0.16b",
                "smmla v21.4s, v10.16b, v1.16b",
                "smmla v22.4s, v11.16b, v0.16b",
                "smmla v23.4s, v11.16b, v1.16b",
                "and v3.16b, v3.16b, v12.16b",
                "ldr q8, [x9, #96]",
                "ldr q9, [x9, #112]",
                "ldr q10, [x16, #96]",
                "ldr q11, [x16, #112]",
                "smmla v16.4s, v8.16b, v2.16b",
                "smmla v17.4s, v8.16b, v3.16b",
                "smmla v18.4s, v9.16b, v2.16b",
                "smmla v19.4s, v9.16b, v3.16b",
                "add x9, x9, #128",
                "add x16, x16, #128",
                "add x10, x10, #64",
                "smmla v20.4s, v10.16b, v2.16b",
                "smmla v21.4s, v10.16b, v3.16b",
                "smmla v22.4s, v11.16b, v2.16b",
                "smmla v23.4s, v11.16b, v3.16b",
                "subs x12, x12, #1",
                "b.ne 32b",
                "// LLVM-MCA-END",
                // ---- block epilogue ----
                "ldp q0, q1, [x9], #32", // lsum, ls of rows 0-3
                "ldp q2, q3, [x16], #32", // lsum, ls of rows 4-7
                "ldp q4, q5, [x10], #32", // rz, rs16 of columns 0-3
                "zip1 v6.2d, v16.2d, v17.2d", // row 0
                "zip2 v7.2d, v16.2d, v17.2d", // row 1
                "zip1 v8.2d, v18.2d, v19.2d", // row 2
                "zip2 v9.2d, v18.2d, v19.2d", // row 3
                "zip1 v10.2d, v20.2d, v21.2d", // row 4
                "zip2 v11.2d, v20.2d, v21.2d", // row 5
                "zip1 v13.2d, v22.2d, v23.2d", // row 6
                "zip2 v14.2d, v22.2d, v23.2d", // row 7
                "scvtf v6.4s, v6.4s",
                "scvtf v7.4s, v7.4s",
                "scvtf v8.4s, v8.4s",
                "scvtf v9.4s, v9.4s",
                "scvtf v10.4s, v10.4s",
                "scvtf v11.4s, v11.4s",
                "scvtf v13.4s, v13.4s",
                "scvtf v14.4s, v14.4s",
                "fmul v15.4s, v5.4s, v1.s[0]",
                "fmla v24.4s, v4.4s, v0.s[0]",
                "fmla v24.4s, v6.4s, v15.4s",
                "fmul v15.4s, v5.4s, v1.s[1]",
                "fmla v25.4s, v4.4s, v0.s[1]",
                "fmla v25.4s, v7.4s, v15.4s",
                "fmul v15.4s, v5.4s, v1.s[2]",
                "fmla v26.4s, v4.4s, v0.s[2]",
                "fmla v26.4s, v8.4s, v15.4s",
                "fmul v15.4s, v5.4s, v1.s[3]",
                "fmla v27.4s, v4.4s, v0.s[3]",
                "fmla v27.4s, v9.4s, v15.4s",
                "fmul v15.4s, v5.4s, v3.s[0]",
                "fmla v28.4s, v4.4s, v2.s[0]",
                "fmla v28.4s, v10.4s, v15.4s",
                "fmul v15.4s, v5.4s, v3.s[1]",
                "fmla v29.4s, v4.4s, v2.s[1]",
                "fmla v29.4s, v11.4s, v15.4s",
                "fmul v15.4s, v5.4s, v3.s[2]",
                "fmla v30.4s, v4.4s, v2.s[2]",
                "fmla v30.4s, v13.4s, v15.4s",
                "fmul v15.4s, v5.4s, v3.s[3]",
                "fmla v31.4s, v4.4s, v2.s[3]",
                "fmla v31.4s, v14.4s, v15.4s",
                "subs x15, x15, #1",
                "b.ne 31b",
                // the second group's pointer is where the next pass starts
                "mov x9, x16",
                // ==== pass epilogue: bias, clamp, store up to 8 rows of 4 columns ====
                "40:",
                "ldr q13, [x10]",
                "dup v14.2d, x17",
                "dup v15.4s, v14.s[1]",
                "dup v14.4s, v14.s[0]",
                "mov x13, x11",
                // row 0
                "cmp x8, #1",
                "b.lt 9f",
                "fadd v24.4s, v24.4s, v13.4s",
                "fmax v24.4s, v24.4s, v14.4s",
                "fmin v24.4s, v24.4s, v15.4s",
                store_cols4!(cmp, "24", "x1", "x13", "x14"; "60", "80", "70"),
                "add x13, x13, x6",
                // row 1
                "cmp x8, #2",
                "b.lt 9f",
                "fadd v25.4s, v25.4s, v13.4s",
                "fmax v25.4s, v25.4s, v14.4s",
                "fmin v25.4s, v25.4s, v15.4s",
                store_cols4!(cmp, "25", "x1", "x13", "x14"; "61", "81", "71"),
                "add x13, x13, x6",
                // row 2
                "cmp x8, #3",
                "b.lt 9f",
                "fadd v26.4s, v26.4s, v13.4s",
                "fmax v26.4s, v26.4s, v14.4s",
                "fmin v26.4s, v26.4s, v15.4s",
                store_cols4!(cmp, "26", "x1", "x13", "x14"; "62", "82", "72"),
                "add x13, x13, x6",
                // row 3
                "cmp x8, #4",
                "b.lt 9f",
                "fadd v27.4s, v27.4s, v13.4s",
                "fmax v27.4s, v27.4s, v14.4s",
                "fmin v27.4s, v27.4s, v15.4s",
                store_cols4!(cmp, "27", "x1", "x13", "x14"; "63", "83", "73"),
                "add x13, x13, x6",
                // row 4
                "cmp x8, #5",
                "b.lt 9f",
                "fadd v28.4s, v28.4s, v13.4s",
                "fmax v28.4s, v28.4s, v14.4s",
                "fmin v28.4s, v28.4s, v15.4s",
                store_cols4!(cmp, "28", "x1", "x13", "x14"; "64", "84", "74"),
                "add x13, x13, x6",
                // row 5
                "cmp x8, #6",
                "b.lt 9f",
                "fadd v29.4s, v29.4s, v13.4s",
                "fmax v29.4s, v29.4s, v14.4s",
                "fmin v29.4s, v29.4s, v15.4s",
                store_cols4!(cmp, "29", "x1", "x13", "x14"; "65", "85", "75"),
                "add x13, x13, x6",
                // row 6
                "cmp x8, #7",
                "b.lt 9f",
                "fadd v30.4s, v30.4s, v13.4s",
                "fmax v30.4s, v30.4s, v14.4s",
                "fmin v30.4s, v30.4s, v15.4s",
                store_cols4!(cmp, "30", "x1", "x13", "x14"; "66", "86", "76"),
                "add x13, x13, x6",
                // row 7
                "cmp x8, #8",
                "b.lt 9f",
                "fadd v31.4s, v31.4s, v13.4s",
                "fmax v31.4s, v31.4s, v14.4s",
                "fmin v31.4s, v31.4s, v15.4s",
                store_cols4!(cmp, "31", "x1", "x13", "x14"; "67", "87", "77"),
                "add x13, x13, x6",
                "9:",
                "cmp x8, #4",
                "b.le 10f",
                "add x11, x11, x6, lsl #3",
                "subs x8, x8, #8",
                "b.gt 3b",
                "10:",
                // ---- next group of 4 columns (after this group's biases) ----
                "add x4, x10, #16",
                "add x5, x5, #16",
                "subs x1, x1, #4",
                "b.gt 2b";
                gemv(m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row);
                in("x7") blocks,
                in("x17") clamp_pair(clamp_min, clamp_max),
                in("x20") blocks * 4 * (bl + 8),
                clobber x(8 9 10 11 12 13 14 15 16)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
