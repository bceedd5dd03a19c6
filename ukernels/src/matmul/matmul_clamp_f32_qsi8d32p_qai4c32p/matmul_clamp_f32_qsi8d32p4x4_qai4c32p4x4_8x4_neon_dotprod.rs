//! `kai_matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod`: asymmetric int4 GEMM with
//! `FEAT_DotProd` `SDOT` (by element), the whole m x n computation in one `asm!` block. The f16-output kernel of
//! the same tile narrows its results.
//!
//! Loop order: column groups of 4 outside, LHS groups of 4 rows inside (a column group's
//! weights stay in L1 while every row group uses them; an 8-row step is two passes), then the
//! `k / bl` blocks, each in 32-value sub-blocks. A sub-block is 64 bytes of weights (4-byte
//! chunks 0-3 of columns 0-3, one register per chunk, lane = column; byte `t` of chunk `c` holds
//! values `4c + t` low and `16 + 4c + t` high) and 128 bytes of activations (eight 4-value
//! chunks of the 4 rows, lane = row). Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the
//! signed value); `SDOT (by element)` with lane `r` of an activation chunk adds row `r`'s 4
//! products to each column lane. Eight accumulators (low / high nibbles x row) hold the rows'
//! column sums directly; the block epilogue adds them and folds them into the f32 row
//! accumulators in the family's order.

use crate::matmul::kernel_geometry::qsi8d32p_blockwise;

asm_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands (`nb = k / bl` blocks):
    ///
    /// ```text
    /// acc = 0.0
    /// for b < nb:
    ///     I   = sum_{kk in block b} lq[i][kk] * (16 * w[j][kk])        (i32)
    ///     acc = fma(rz[j][b], lsum[i][b], acc)                          (FMLA by element)
    ///     acc = fma(f32(I), rs16[j][b] * ls[i][b], acc)                 (FMUL, SCVTF, FMLA)
    /// dst[i][j] = min(max(acc + bias[j], clamp_min), clamp_max)         (FADD, FMAX, FMIN)
    /// ```
    ///
    /// LHS layout (one group of 4 rows per `4 * nb * (bl + 8)` bytes): per block, `bl / 4` chunks
    /// of 4 rows x 4 int8 values, then 4 `lsum: f32` and 4 `ls: f32`.
    ///
    /// RHS layout (one group of 4 columns per `4 * (nb * (bl / 2 + 8) + 4)` bytes): per block,
    /// `bl / 32` sub-blocks of 64 bytes (chunks 0-3, each 4 bytes of columns 0-3; byte `t` of chunk
    /// `c` holds sub-block values `4c + t` (low nibble) and `16 + 4c + t` (high nibble), signed), then
    /// 4 `rz: f32` and 4 `rs16: f32`; after all blocks 4 `bias: f32`.
    ///
    /// Only `dst[i][j]` with `i < m`, `j < n` is written; the 4-byte values of row `i` start at
    /// `dst + i * dst_stride_row` bytes.
    ///
    /// # Safety
    ///
    /// * The CPU must support the `dotprod` extension (`FEAT_DotProd`).
    /// * `m >= 1`, `n >= 1`; `bl` is a nonzero multiple of 32 and `k` a nonzero multiple of `bl`.
    /// * `lhs_packed` must be valid for reads of `ceil(m / 4) * 4 * (k / bl) * (bl + 8)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / 4) * 4 * ((k / bl) * (bl / 2 + 8) + 4)`
    ///   bytes.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qsi8d32p4x4_qai4c32p4x4_8x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (blocks, sub_blocks, _, _) = qsi8d32p_blockwise(m, n, k, bl, 1);

        // Register map
        //   x0  m (rows)                     x8  rows left (from this LHS group on)
        //   x1  columns left (n - 4g)        x9  LHS pointer (walks the groups)
        //   x2  sub-blocks per block         x10 RHS pointer (walks the column group)
        //   x3  lhs_packed                   x11 dst pointer of the LHS group's first row
        //   x4  RHS group pointer            x12 sub-blocks left in this block
        //   x5  dst + 4 * 4g                 x13 dst pointer of the row being stored
        //   x6  dst_stride_row               x14 partial-store pointer
        //   x7  blocks (k / bl)              x15 blocks left
        //
        //   v0-v3   weight chunks 0-3 (lane = column); `and 0xf0` in place (16 x high nibbles)
        //   v4-v7   the same shifted left by 4 (16 x low nibbles)
        //   v8-v15  activation chunks 0-7 of the sub-block (lane = row)
        //   v16-v19 i32 accumulators of the low nibbles of rows 0-3 (lane = column), v20-v23 the
        //           same for the high nibbles
        //   v24-v27 f32 accumulators of rows 0-3, v28 0xF0 mask, v29/v30 clamp bounds
        //   In the epilogues v0-v15 hold block parameters, row sums and biases.
        //
        // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover exactly the
        // bytes this block reads (ceil(m / 4) LHS groups; ceil(n / 4) RHS groups), that dst rows are
        // writable for 4 * n bytes, and that the CPU implements dotprod (also required by this
        // function's `target_feature`). The block stores only dst[i][0..n), touches only the
        // declared registers (v8-v15 among them, which the compiler saves), and does not use the
        // stack.
        unsafe {
            kernel_asm!(
                "movi v28.16b, #0xf0",
                "dup v29.4s, v29.s[0]",
                "dup v30.4s, v30.s[0]",
                // ---- loop over groups of 4 columns ----
                "2:",
                "mov x8, x0",
                "mov x9, x3",
                "mov x11, x5",
                // ---- loop over LHS groups of 4 rows ----
                "3:",
                "mov x10, x4",
                "mov x15, x7",
                zero_v!("16b"; "24", "25", "26", "27"),
                // ---- loop over blocks ----
                "4:",
                zero_v!("16b"; "16", "17", "18", "19", "20", "21", "22", "23"),
                "mov x12, x2",
                // ---- K loop: one 32-value sub-block x 4 rows x 4 columns per iteration ----
                "5:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod",
                "ldp q0, q1, [x10]",
                "ldp q8, q9, [x9]",
                "ldp q2, q3, [x10, #32]",
                "ldp q10, q11, [x9, #32]",
                "shl v4.16b, v0.16b, #4",
                "and v0.16b, v0.16b, v28.16b",
                "ldp q12, q13, [x9, #64]",
                "ldp q14, q15, [x9, #96]",
                "sdot v16.4s, v4.16b, v8.4b[0]",
                "sdot v20.4s, v0.16b, v12.4b[0]",
                "sdot v17.4s, v4.16b, v8.4b[1]",
                "sdot v21.4s, v0.16b, v12.4b[1]",
                "shl v5.16b, v1.16b, #4",
                "and v1.16b, v1.16b, v28.16b",
                "sdot v18.4s, v4.16b, v8.4b[2]",
                "sdot v22.4s, v0.16b, v12.4b[2]",
                "sdot v19.4s, v4.16b, v8.4b[3]",
                "sdot v23.4s, v0.16b, v12.4b[3]",
                "sdot v16.4s, v5.16b, v9.4b[0]",
                "sdot v20.4s, v1.16b, v13.4b[0]",
                "sdot v17.4s, v5.16b, v9.4b[1]",
                "sdot v21.4s, v1.16b, v13.4b[1]",
                "shl v6.16b, v2.16b, #4",
                "and v2.16b, v2.16b, v28.16b",
                "sdot v18.4s, v5.16b, v9.4b[2]",
                "sdot v22.4s, v1.16b, v13.4b[2]",
                "sdot v19.4s, v5.16b, v9.4b[3]",
                "sdot v23.4s, v1.16b, v13.4b[3]",
                "sdot v16.4s, v6.16b, v10.4b[0]",
                "sdot v20.4s, v2.16b, v14.4b[0]",
                "sdot v17.4s, v6.16b, v10.4b[1]",
                "sdot v21.4s, v2.16b, v14.4b[1]",
                "shl v7.16b, v3.16b, #4",
                "and v3.16b, v3.16b, v28.16b",
                "sdot v18.4s, v6.16b, v10.4b[2]",
                "sdot v22.4s, v2.16b, v14.4b[2]",
                "sdot v19.4s, v6.16b, v10.4b[3]",
                "sdot v23.4s, v2.16b, v14.4b[3]",
                "sdot v16.4s, v7.16b, v11.4b[0]",
                "sdot v20.4s, v3.16b, v15.4b[0]",
                "sdot v17.4s, v7.16b, v11.4b[1]",
                "sdot v21.4s, v3.16b, v15.4b[1]",
                "add x10, x10, #64",
                "add x9, x9, #128",
                "sdot v18.4s, v7.16b, v11.4b[2]",
                "sdot v22.4s, v3.16b, v15.4b[2]",
                "subs x12, x12, #1",
                "sdot v19.4s, v7.16b, v11.4b[3]",
                "sdot v23.4s, v3.16b, v15.4b[3]",
                "b.ne 5b",
                "// LLVM-MCA-END",
                // ---- block epilogue ----
                "ldp q0, q1, [x9], #32", // lsum, ls of rows 0-3
                "ldp q4, q5, [x10], #32", // rz, rs16 of columns 0-3
                "add v16.4s, v16.4s, v20.4s",
                "add v17.4s, v17.4s, v21.4s",
                "add v18.4s, v18.4s, v22.4s",
                "add v19.4s, v19.4s, v23.4s",
                "scvtf v16.4s, v16.4s",
                "scvtf v17.4s, v17.4s",
                "scvtf v18.4s, v18.4s",
                "scvtf v19.4s, v19.4s",
                "fmul v8.4s, v5.4s, v1.s[0]", // rs16 x ls[0]
                "fmla v24.4s, v4.4s, v0.s[0]", // + rz x lsum[0]
                "fmul v9.4s, v5.4s, v1.s[1]", // rs16 x ls[1]
                "fmla v25.4s, v4.4s, v0.s[1]", // + rz x lsum[1]
                "fmul v10.4s, v5.4s, v1.s[2]", // rs16 x ls[2]
                "fmla v26.4s, v4.4s, v0.s[2]", // + rz x lsum[2]
                "fmul v11.4s, v5.4s, v1.s[3]", // rs16 x ls[3]
                "fmla v27.4s, v4.4s, v0.s[3]", // + rz x lsum[3]
                "fmla v24.4s, v16.4s, v8.4s",
                "fmla v25.4s, v17.4s, v9.4s",
                "fmla v26.4s, v18.4s, v10.4s",
                "fmla v27.4s, v19.4s, v11.4s",
                "subs x15, x15, #1",
                "b.ne 4b",
                // ---- LHS group epilogue: bias, clamp, store up to 4 rows of 4 columns ----
                "ldr q12, [x10]",
                "mov x13, x11",
                // row 0
                "cmp x8, #1",
                "b.lt 9f",
                "fadd v24.4s, v24.4s, v12.4s",
                "fmax v24.4s, v24.4s, v29.4s",
                "fmin v24.4s, v24.4s, v30.4s",
                store_cols4!(cmp, "24", "x1", "x13", "x14"; "60", "80", "70"),
                "add x13, x13, x6",
                // row 1
                "cmp x8, #2",
                "b.lt 9f",
                "fadd v25.4s, v25.4s, v12.4s",
                "fmax v25.4s, v25.4s, v29.4s",
                "fmin v25.4s, v25.4s, v30.4s",
                store_cols4!(cmp, "25", "x1", "x13", "x14"; "61", "81", "71"),
                "add x13, x13, x6",
                // row 2
                "cmp x8, #3",
                "b.lt 9f",
                "fadd v26.4s, v26.4s, v12.4s",
                "fmax v26.4s, v26.4s, v29.4s",
                "fmin v26.4s, v26.4s, v30.4s",
                store_cols4!(cmp, "26", "x1", "x13", "x14"; "62", "82", "72"),
                "add x13, x13, x6",
                // row 3
                "cmp x8, #4",
                "b.lt 9f",
                "fadd v27.4s, v27.4s, v12.4s",
                "fmax v27.4s, v27.4s, v29.4s",
                "fmin v27.4s, v27.4s, v30.4s",
                store_cols4!(cmp, "27", "x1", "x13", "x14"; "63", "83", "73"),
                "add x13, x13, x6",
                "9:",
                "add x11, x11, x6, lsl #2",
                "subs x8, x8, #4",
                "b.gt 3b",
                // ---- next group of 4 columns (after this group's biases) ----
                "add x4, x10, #16",
                "add x5, x5, #16",
                "subs x1, x1, #4",
                "b.gt 2b";
                gemv(m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row);
                in("x7") blocks,
                inout("v29") clamp_min => _,
                inout("v30") clamp_max => _,
                clobber x(8 9 10 11 12 13 14 15)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28),
            );
        }
    }
}
