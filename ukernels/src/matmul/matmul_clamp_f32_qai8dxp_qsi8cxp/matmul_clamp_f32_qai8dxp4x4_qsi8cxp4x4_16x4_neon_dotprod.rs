//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod`: GEMM (16 rows x 4 columns per
//! step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!` block.
//! Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a per-channel
//! symmetric int8 RHS (packed 4 columns x 4-deep blocks).
//!
//! Register plan of the single `asm!` block:
//!
//! * `v16`..`v31` — accumulators: `v(16 + r)` holds tile row `r` (LHS group
//!   `r / 4`, lane `r % 4`), lane `j` = column `j`. Every accumulator takes
//!   one `sdot` per 4-deep block, eight per iteration.
//! * `v8`..`v11` / `v12`..`v15` — LHS of an even / odd 4-deep block, one
//!   register per group (lane `r` = the 4 values of the group's row `r`).
//! * `v0`..`v7` — RHS of the eight 4-deep blocks of a chunk (lane `j` = the 4
//!   values of column `j`).
//!
//! One K-loop iteration covers a 32-deep chunk: 4 RHS and 16 LHS `ldp q` and
//! 128 `sdot` (2048 MACs). The LHS of a row block lives in up to four
//! groups; a group past the block's last row is replaced by group 0, so only
//! groups holding rows are ever read.
//!
//! The accumulators already hold tile rows, so the epilogue offsets,
//! rescales, clamps and stores them one row at a time, stopping at the
//! block's last row.

use crate::matmul::kernel_geometry::per_channel;

/// Two 4-deep K blocks (RHS already in `v$r0`, `v$r1`) at byte offset `$o`
/// of every LHS pointer: the LHS of both blocks into `v8`..`v15`, then 32
/// `sdot` by element.
macro_rules! k_block_pair {
    ($o:literal, $r0:literal, $r1:literal) => {
        concat!(
            concat!("ldp q8, q12, [x20, #", $o, "]\n"),
            concat!("ldp q9, q13, [x21, #", $o, "]\n"),
            concat!("ldp q10, q14, [x22, #", $o, "]\n"),
            concat!("ldp q11, q15, [x23, #", $o, "]\n"),
            k_block!($r0, "8", "9", "10", "11"),
            k_block!($r1, "12", "13", "14", "15"),
        )
    };
}

/// One 4-deep K block: RHS `v$r`, LHS groups 0..3 in `v$g0`..`v$g3`.
macro_rules! k_block {
    ($r:literal, $g0:literal, $g1:literal, $g2:literal, $g3:literal) => {
        concat!(
            concat!("sdot v16.4s, v", $r, ".16b, v", $g0, ".4b[0]\n"),
            concat!("sdot v17.4s, v", $r, ".16b, v", $g0, ".4b[1]\n"),
            concat!("sdot v18.4s, v", $r, ".16b, v", $g0, ".4b[2]\n"),
            concat!("sdot v19.4s, v", $r, ".16b, v", $g0, ".4b[3]\n"),
            concat!("sdot v20.4s, v", $r, ".16b, v", $g1, ".4b[0]\n"),
            concat!("sdot v21.4s, v", $r, ".16b, v", $g1, ".4b[1]\n"),
            concat!("sdot v22.4s, v", $r, ".16b, v", $g1, ".4b[2]\n"),
            concat!("sdot v23.4s, v", $r, ".16b, v", $g1, ".4b[3]\n"),
            concat!("sdot v24.4s, v", $r, ".16b, v", $g2, ".4b[0]\n"),
            concat!("sdot v25.4s, v", $r, ".16b, v", $g2, ".4b[1]\n"),
            concat!("sdot v26.4s, v", $r, ".16b, v", $g2, ".4b[2]\n"),
            concat!("sdot v27.4s, v", $r, ".16b, v", $g2, ".4b[3]\n"),
            concat!("sdot v28.4s, v", $r, ".16b, v", $g3, ".4b[0]\n"),
            concat!("sdot v29.4s, v", $r, ".16b, v", $g3, ".4b[1]\n"),
            concat!("sdot v30.4s, v", $r, ".16b, v", $g3, ".4b[2]\n"),
            concat!("sdot v31.4s, v", $r, ".16b, v", $g3, ".4b[3]\n"),
        )
    };
}

/// Finish the tile row held in accumulator `v$a` (lane `$i` of the group's offsets `v$vo` and
/// scales `v$vs`; `v2` rsum, `v3` rscale, `v4` bias, `v0`/`v1` clamp, `v7` temporary), store
/// its first `x26` (1..=4) columns at `x27` (clobbers `x28`), then advance `x27`.
macro_rules! row {
    ($a:literal, $vo:literal, $vs:literal, $i:literal) => {
        concat!(
            dequant_row!(convert_first, $a; "2", $vo[$i]; "3", $vs[$i] -> "7"; "4"; "0", "1"),
            store_cols4!(cmp, $a, "x26", "x27", "x28"; "5", "6", "8"),
            "add x27, x27, x6\n",
        )
    };
}

asm_kernel! {
    /// Computes, for `i < m` and `j < n`,
    ///
    /// ```text
    /// dst[i][j] = clamp(((acc + lhs_offset[i] * rsum[j]) as f32) * (rscale[j] * lhs_scale[i]) + bias[j])
    /// ```
    ///
    /// where `acc` is the int8 x int8 dot product over `roundup(k, 32)`.
    ///
    /// # Safety
    ///
    /// * The CPU must implement FEAT_DotProd.
    /// * `m >= 1`, `n >= 1`, `k >= 1`.
    /// * `lhs_packed` must be readable for `ceil(m / 4)` groups of
    ///   `4 * (k_int + 8)` bytes each (`k_int = roundup(k, 32)`), laid out as the
    ///   qai8dxp4x4 format (4 rows x 4-deep blocks, then 4 x i32 offsets and
    ///   4 x f32 scales).
    /// * `rhs_packed` must be readable for `ceil(n / 4)` groups of
    ///   `4 * (k_int + 12)` bytes each, laid out as the qsi8cxp4x4 format
    ///   (4 columns x 4-deep int8 blocks, then 4 x i32 rsum, 4 x f32 rscale,
    ///   4 x f32 bias).
    /// * For every `i < m`, `j < n`, the 4 bytes at
    ///   `dst + i * dst_stride_row + 4 * j` (byte offsets) must be writable and
    ///   must not overlap either packed buffer. Nothing else is written.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp4x4_qsi8cxp4x4_16x4(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, lhs_stride, rhs_stride) = per_channel(m, n, k, 4, false);

        // Register map
        //   x0  rows left                    x11 rows in this block (1..=16)
        //   x1  n                            x12-x14 groups 1..3 of the block
        //   x2  32-deep chunks               x15 RHS group pointer
        //   x3  LHS block (group 0)          x16 columns left
        //   x4  rhs_packed                   x17 dst of this column tile
        //   x5  dst of this row block        x20-x23 LHS group pointers (K loop)
        //   x6  dst_stride_row               x24 RHS pointer (K loop)
        //   x7  lhs_stride (one group)       x25 chunks left
        //   x8  rhs_stride (one group)       x26 columns in this tile (1..=4)
        //   w9  clamp_min bits               x27 dst row pointer (stores)
        //   w10 clamp_max bits               x28 partial-store pointer
        //
        // SAFETY: the caller guarantees FEAT_DotProd, m, n, k >= 1 and the buffer
        // sizes documented above. The asm reads exactly ceil(m/4) LHS groups (a
        // group past the block's rows is replaced by the block's first group)
        // and ceil(n/4) RHS groups, each only within its data and trailer.
        // Stores are limited to the m x n region. All touched registers are
        // declared; x18, x19, x29, x30 and sp are not used and no stack memory
        // is accessed.
        unsafe {
            kernel_asm!(
                // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
                "21:",
                min_imm!("x11", "x0", "16", "x24"), // rows in this block (1..=16)
                // group 1, or group 0 if <= 4 rows
                group_if_rows!("x12", "x3", "x7", "x11", "4", "x3"),
                "add x13, x3, x7, lsl #1",        // group 2 ...
                "cmp x11, #8",
                "csel x13, x13, x3, gt",          // ... or group 0 if <= 8 rows
                // group 3 (x13 is group 2 here), or group 0 if <= 12 rows
                group_if_rows!("x14", "x13", "x7", "x11", "12", "x3"),
                "mov x15, x4",
                "mov x16, x1",
                "mov x17, x5",
                // ---- Column loop: 4 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x26", "x16", "4", "x24"), // columns in this tile (1..=4)
                "mov x20, x3",
                "mov x21, x12",
                "mov x22, x13",
                "mov x23, x14",
                "mov x24, x15",
                "mov x25, x2",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- K loop: one 32-deep chunk (eight 4-deep blocks) per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod",
                "ldp q0, q1, [x24]",
                "ldp q2, q3, [x24, #32]",
                "ldp q4, q5, [x24, #64]",
                "ldp q6, q7, [x24, #96]",
                k_block_pair!("0", "0", "1"),
                k_block_pair!("32", "2", "3"),
                k_block_pair!("64", "4", "5"),
                k_block_pair!("96", "6", "7"),
                "add x20, x20, #128",
                "add x21, x21, #128",
                "add x22, x22, #128",
                "add x23, x23, #128",
                "add x24, x24, #128",
                "subs x25, x25, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Epilogue. x20..x23 point at the LHS trailers, x24 at the RHS one.
                "ldp q8, q9, [x20]",              // group 0 offsets, scales
                "ldp q10, q11, [x21]",            // group 1
                "ldp q12, q13, [x22]",            // group 2
                "ldp q14, q15, [x23]",            // group 3
                "ldp q2, q3, [x24]",              // rsum, rscale
                "ldr q4, [x24, #32]",             // bias
                "dup v0.4s, w9",
                "dup v1.4s, w10",
                "mov x27, x17",
                each_row!(row, lt, "x11", "25";
                    ("16", "8", "9", "0") ("17", "8", "9", "1") ("18", "8", "9", "2")
                    ("19", "8", "9", "3") ("20", "10", "11", "0") ("21", "10", "11", "1")
                    ("22", "10", "11", "2") ("23", "10", "11", "3") ("24", "12", "13", "0")
                    ("25", "12", "13", "1") ("26", "12", "13", "2") ("27", "12", "13", "3")
                    ("28", "14", "15", "0") ("29", "14", "15", "1") ("30", "14", "15", "2")
                    ("31", "14", "15", "3")),
                "25:",
                // Next column tile.
                "add x15, x15, x8",
                "add x17, x17, #16",
                "subs x16, x16, #4",
                "b.gt 22b";
                gemm[16 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                clobber x(11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
