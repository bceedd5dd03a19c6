//! `kai_matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla`: f16 GEMM (FEAT_FP16, f16 accumulators),
//! 6 rows x 32 columns per tile, `FMLA` by element, the whole m x n computation in one `asm!`
//! block. Scheduled for out-of-order cores: 128-bit loads, B loaded in pairs right before use.
//!
//! Register plan:
//!
//! * `v8`..`v31` — accumulators: row `r` of the tile in `v(8 + 4r)`..`v(11 + 4r)` (columns
//!   0-7, 8-15, 16-23, 24-31), initialised from the packed bias.
//! * `v0`..`v5` — four K values of LHS rows 0..5 (one 64-bit `ldr d` each per iteration).
//! * `v6`, `v7` — two 8-column vectors of the packed RHS row of the current K value.
//!
//! One K-loop iteration covers 4 K values: 6 LHS loads, 8 `ldp q` of packed RHS (256 bytes) and
//! 96 `FMLA`s (768 MACs). Rows past the block's last row read row 0 again (their results are not
//! stored); columns past `n` are the packer's zero padding (not stored either).

/// The 24 `FMLA`s of one K value (half `$l` of `v0`..`v5`), loading its packed row from `x16`
/// at byte offsets `$o` and `$o2` (64 bytes).
macro_rules! k_step {
    ($o:literal, $o2:literal, $l:literal) => {
        concat!(
            concat!("ldp q6, q7, [x16, #", $o, "]\n"),
            concat!("fmla v8.8h, v6.8h, v0.h[", $l, "]\n"),
            concat!("fmla v12.8h, v6.8h, v1.h[", $l, "]\n"),
            concat!("fmla v16.8h, v6.8h, v2.h[", $l, "]\n"),
            concat!("fmla v20.8h, v6.8h, v3.h[", $l, "]\n"),
            concat!("fmla v24.8h, v6.8h, v4.h[", $l, "]\n"),
            concat!("fmla v28.8h, v6.8h, v5.h[", $l, "]\n"),
            concat!("fmla v9.8h, v7.8h, v0.h[", $l, "]\n"),
            concat!("fmla v13.8h, v7.8h, v1.h[", $l, "]\n"),
            concat!("fmla v17.8h, v7.8h, v2.h[", $l, "]\n"),
            concat!("fmla v21.8h, v7.8h, v3.h[", $l, "]\n"),
            concat!("fmla v25.8h, v7.8h, v4.h[", $l, "]\n"),
            concat!("fmla v29.8h, v7.8h, v5.h[", $l, "]\n"),
            concat!("ldp q6, q7, [x16, #", $o2, "]\n"),
            concat!("fmla v10.8h, v6.8h, v0.h[", $l, "]\n"),
            concat!("fmla v14.8h, v6.8h, v1.h[", $l, "]\n"),
            concat!("fmla v18.8h, v6.8h, v2.h[", $l, "]\n"),
            concat!("fmla v22.8h, v6.8h, v3.h[", $l, "]\n"),
            concat!("fmla v26.8h, v6.8h, v4.h[", $l, "]\n"),
            concat!("fmla v30.8h, v6.8h, v5.h[", $l, "]\n"),
            concat!("fmla v11.8h, v7.8h, v0.h[", $l, "]\n"),
            concat!("fmla v15.8h, v7.8h, v1.h[", $l, "]\n"),
            concat!("fmla v19.8h, v7.8h, v2.h[", $l, "]\n"),
            concat!("fmla v23.8h, v7.8h, v3.h[", $l, "]\n"),
            concat!("fmla v27.8h, v7.8h, v4.h[", $l, "]\n"),
            concat!("fmla v31.8h, v7.8h, v5.h[", $l, "]\n"),
        )
    };
}

asm_kernel! {
    /// Computes, for `i < m` and `j < n`, starting from `acc = bias[j]`,
    ///
    /// ```text
    /// acc = f16(rhs[kk][j] * lhs[i][kk] + acc) for kk in 0..k;  dst[i][j] = max(min(acc, clamp_max), clamp_min)
    /// ```
    ///
    /// with every step rounded to f16 and the bounds given as f16 bits.
    ///
    /// # Safety
    ///
    /// * The CPU implements FEAT_FP16; `m >= 1`, `n >= 1`; `lhs_stride` and `dst_stride` are even.
    /// * LHS row `i < m` is readable for `k` halves at `lhs + i * lhs_stride` (unaligned is fine).
    /// * `rhs_packed` is readable for `ceil(n / 32)` groups of `64 * (k + 1)` bytes (32 biases, then
    ///   32 values per K value).
    /// * For every `i < m`, `j < n`, the 2 bytes at `dst + i * dst_stride + 2 * j` are writable and
    ///   overlap neither input. Nothing else is written.
    #[target_feature(enable = "fp16")]
    half fn matmul_f16_f16p32x1b_6x32(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // Register map
        //   x0  rows left                 x10-x15 LHS rows 0..5 of the block
        //   x1  n                         x16 packed RHS (advances through the groups)
        //   x2  k                         x17 columns left
        //   x3  LHS block (row 0)         x20 byte offset of the K value in the LHS rows
        //   x4  lhs_stride                x21 loop counter
        //   x5  rhs_packed                x22 dst of this column tile (row 0)
        //   x6  dst block (row 0)         x23 dst row pointer (stores)
        //   x7  dst_stride                x24 rows in this block (1..=6)
        //   w8  clamp_min (f16 bits)      x25 columns in this tile (1..=32)
        //   w9  clamp_max (f16 bits)      x26 partial-store pointer
        //   x27 6 * lhs_stride            x28 6 * dst_stride
        //
        // SAFETY: the caller guarantees the buffer extents above. LHS rows are read only within
        // their k halves (4-value loads while 4 or more remain, then single values); rows past the
        // block's last row are replaced by its row 0. The packed RHS is read exactly once per row
        // block, group by group. Stores cover columns < n of rows < m only. Every touched register
        // is declared; x18, x19, x29, x30 and sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                times6!("x27", "x4"),
                times6!("x28", "x7"),
                // ---- Row blocks of 6.
                "10:",
                min_imm!("x24", "x0", "6", "x24"),
                row_pointers!("x24", "x3", "x4"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "mov x16, x5",
                "mov x17, x1",
                "mov x22, x6",
                // ---- Column tiles of 32: accumulators start from the packed bias.
                "20:",
                min_imm!("x25", "x17", "32", "x25"),
                "ldp q8, q9, [x16]",
                "ldp q10, q11, [x16, #32]",
                "add x16, x16, #64",
                copy_rows!(v;
                    ("8", "9", "10", "11") => ("12", "13", "14", "15") ("16", "17", "18", "19")
                    ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
                "mov x20, #0",
                "lsr x21, x2, #2",
                "cbz x21, 40f",
                // ---- K loop: 4 K values per iteration.
                "30:",
                "// LLVM-MCA-BEGIN matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla",
                load_rows!(ldr "d", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #8",
                k_step!("0", "32", "0"),
                k_step!("64", "96", "1"),
                k_step!("128", "160", "2"),
                k_step!("192", "224", "3"),
                "add x16, x16, #256",
                "subs x21, x21, #1",
                "b.ne 30b",
                "// LLVM-MCA-END",
                // ---- K tail: one K value per iteration.
                "40:",
                "ands x21, x2, #3",
                "b.eq 50f",
                "45:",
                load_rows!(ldr "h", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #2",
                k_step!("0", "32", "0"),
                "add x16, x16, #64",
                "subs x21, x21, #1",
                "b.ne 45b",
                // ---- Clamp and store the block's rows.
                "50:",
                "dup v0.8h, w9",
                "dup v1.8h, w8",
                fmin_fmax!(v "8h";
                    "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                    "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"; "0", "1"),
                "mov x23, x22",
                each_row!(store_row_float[f16, "x25", "x23", "x26";], le, "x24", "60", "x23", "x7";
                    ("8", "9", "10", "11") ("12", "13", "14", "15") ("16", "17", "18", "19")
                    ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
                "60:",
                "add x22, x22, #64",
                "subs x17, x17, #32",
                "b.gt 20b";
                float[6 rows, "10"](m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min as usize, clamp_max as usize);
                clobber x(10 11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
