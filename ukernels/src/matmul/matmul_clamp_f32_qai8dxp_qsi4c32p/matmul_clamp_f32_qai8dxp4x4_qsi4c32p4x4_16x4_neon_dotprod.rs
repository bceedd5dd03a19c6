//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod`: GEMM (16 rows x 4 columns
//! per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!`
//! block. Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a
//! groupwise symmetric int4 RHS (packed 4 columns x 4-byte blocks, one bf16 scale per column
//! and block of `bl` K values).
//!
//! Loop order: blocks of 16 rows (four LHS groups) outside, column groups of 4 inside; each
//! 16 x 4 tile is computed in two passes of 8 rows (two LHS groups), each pass running over the
//! `k / bl` blocks in 32-value chunks. Sixteen rows of integer block sums plus sixteen rows of
//! float accumulators do not fit next to the operands in the 24 vector registers available
//! (`v8`..`v15` are left alone), so a pass keeps 8 of each; the second pass re-reads the RHS
//! column group, which the first one has just brought into L1.
//!
//! One 4-deep K block is a single `SDOT (by element)` step: the decoded RHS vector holds 4 K
//! values of each of the 4 columns, the LHS vector of a group holds 4 K values of each of its 4
//! rows, and `sdot acc[row], rhs, lhs.4b[row % 4]` adds the 4 products of that row to each
//! column lane. Nibbles decode as `byte << 4` (16 x low nibble: K block `s` of the chunk) and
//! `byte & 0xf0` (16 x high nibble: K block `s + 4`). At the end of every block the integer
//! sums are converted with `SCVTF #4` (exactly `I / 16`), multiplied by the block's column
//! scales into the float accumulators with a fused `FMLA`, and cleared.
//!
//! Register plan (one pass):
//!
//! * `v16`..`v23` — integer block accumulators; `v(16 + r)` holds pass row `r`, lanes =
//!   columns 0..4.
//! * `v24`..`v31` — float accumulators, `v(24 + r)` for pass row `r`.
//! * `v4`/`v5` — LHS K block `s` of the pass's groups 0 and 1; `v6`/`v7` — LHS K block `s + 4`.
//! * `v0`/`v2` — raw RHS super-block, decoded in place to the high nibbles (the two alternate
//!   between super-blocks); `v1` — its low nibbles.
//! * `v3` — the 0xF0 nibble mask. In the block epilogue `v4` holds the f32 scales, in the
//!   final epilogue `v0`..`v7` hold the trailers and clamp bounds.
//!
//! One K-loop iteration (a 32-deep chunk of one pass) issues 4 RHS and 16 LHS q-loads, 8 decode
//! ops and 64 `sdot` (1024 MACs); every operand is reloaded right after its last use, so the
//! loop is bound by the 72 vector-pipe ops (llvm-mca: 36 cycles on Neoverse N1/N2, 18 on V1/V2).
//! The loads are written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the
//! scaled-offset `ldr q` encoding an extra uop, which would make its 3-wide dispatch the bound).
//! The block epilogue adds 25 vector ops per pass and block (llvm-mca, `bl = 32`: one chunk plus
//! its epilogue in 48.6 cycles on N1/N2, 26.4 on V1/V2).

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

/// Block epilogue of pass row `$i` (integer accumulator) into float accumulator `$f`:
/// `f += (i / 16) * scale` (fused), then `i = 0`. `v4` holds the block's f32 column scales.
macro_rules! block_row {
    ($i:literal, $f:literal) => {
        concat!(
            concat!("scvtf v", $i, ".4s, v", $i, ".4s, #4\n"),
            concat!("fmla v", $f, ".4s, v", $i, ".4s, v4.4s\n"),
            concat!("movi v", $i, ".4s, #0\n"),
        )
    };
}

asm_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = 0.0
    /// for every block b of bl K values:
    ///     I   = sum_{kk in b} lq[i][kk] * (16 * w[j][kk])             (i32)
    ///     acc = fma(f32(I) / 16, f32(d[j][b]), acc)
    /// acc = fma(rsum[j], f32(lhs_offset[i]), acc)
    /// y   = acc * lhs_scale[i] + bias[j]                              (not fused)
    /// dst[i][j] = min(max(y, clamp_min), clamp_max)                   (NEON FMAX/FMIN)
    /// ```
    ///
    /// LHS layout (one group of 4 rows per `4 * (k + 8)` bytes): value (row `r`, `kk`) at byte
    /// `((kk / 4) * 4 + r) * 4 + kk % 4`, then `lhs_offset: [i32; 4]`, `lhs_scale: [f32; 4]`.
    ///
    /// RHS layout (one group of 4 columns per `4 * (nb * (bl / 2 + 2) + 8)` bytes, `nb = k / bl`):
    /// for every block, `4 * bl / 2` data bytes — for every 32-value K chunk `c` of the block and
    /// each of its four super-blocks `s`, 4 columns x 4 bytes where byte `b` holds
    /// `w[32c + 4s + b]` in its low nibble and `w[32c + 16 + 4s + b]` in its high nibble — then the
    /// block's scales `d: [bf16; 4]`; after the last block `rsum: [f32; 4]`, `bias: [f32; 4]`.
    ///
    /// Only `dst[i][j]` with `i < m`, `j < n` is written; the 4-byte values of row `i` start at
    /// `dst + i * dst_stride_row` bytes.
    ///
    /// # Safety
    ///
    /// * The CPU must support the `dotprod` extension (`FEAT_DotProd`).
    /// * `m >= 1`, `n >= 1`, `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
    /// * `lhs_packed` must be valid for reads of `ceil(m / 4) * 4 * (k + 8)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / 4) * 4 * (k / bl * (bl / 2 + 2) + 8)`
    ///   bytes.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required for `lhs_packed`, `rhs_packed` or `dst`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp4x4_qsi4c32p4x4_16x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, _, lhs_stride, rhs_stride) = qai8dxp_blockwise(m, n, k, bl, 4);

        // General-purpose registers
        //   x0  rows left                      x11 chunks per block (bl / 32)
        //   x1  n                              x12 rows in this pass (1..=8)
        //   x2  blocks (k / bl)                x13 rows of the tile not yet done
        //   x3  LHS group 0 of the row block   x14 LHS group 0 of the pass
        //   x4  rhs_packed                     x15 columns left
        //   x5  dst of the row block           x16 RHS group of the column tile
        //   x6  dst_stride_row                 x17 dst of the tile
        //   x7  LHS group stride               x20/x21 LHS pointers of the pass's groups 0 and 1
        //   x8  RHS group stride               x22 dst of the pass
        //   w9  clamp_min bits, w10 clamp_max  x24 RHS pointer, x25 blocks left
        //   x26 chunks left in the block       x26-x28 store pointers, columns in the tile
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n >= 1, k = nb * bl with
        // bl a multiple of 32, and that the packed buffers hold ceil(m / 4) LHS groups and
        // ceil(n / 4) RHS groups. A pass only starts with at least one row left, so its group 0
        // exists; its group 1 aliases group 0 when the pass has at most 4 rows. Every load reads
        // the current chunk, block scales or trailer of one of those groups (no read-ahead).
        // Stores are limited to dst[i][0..n), i < m. All touched registers are declared; x18, x19,
        // x29, x30, v8-v15 and sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                pass16x4_start!(),
                "mov x20, x14",
                group_if_rows!("x21", "x14", "x7", "x12", "4", "x14"),
                "mov x24, x16",
                "mov x25, x2",
                "movi v3.16b, #0xf0",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- Block loop.
                "23:",
                "mov x26, x11",
                // ---- K loop: one 32-deep chunk per iteration.
                "24:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod",
                "ldur q0, [x24]",
                "ldur q4, [x20]",
                "ldur q5, [x21]",
                "ldur q6, [x20, #64]",
                "ldur q7, [x21, #64]",
                // Super-block 0: K blocks 0 (low nibbles) and 4 (high).
                sdot_super_block!("0"; "x20", "x21", "16"; "2", "16";
                    "x20", "x21", "80"),
                // Super-block 1: K blocks 1 and 5.
                sdot_super_block!("2"; "x20", "x21", "32"; "0", "32";
                    "x20", "x21", "96"),
                // Super-block 2: K blocks 2 and 6.
                sdot_super_block!("0"; "x20", "x21", "48"; "2", "48";
                    "x20", "x21", "112"),
                // Super-block 3: K blocks 3 and 7.
                sdot_super_block!("2"),
                "add x20, x20, #128",
                "add x21, x21, #128",
                "add x24, x24, #64",
                "subs x26, x26, #1",
                "b.ne 24b",
                "// LLVM-MCA-END",
                // ---- Block epilogue: x24 points at the block's 4 bf16 scales.
                "ldr d4, [x24], #8",
                "shll v4.4s, v4.4h, #16",
                block_row!("16", "24"),
                block_row!("17", "25"),
                block_row!("18", "26"),
                block_row!("19", "27"),
                block_row!("20", "28"),
                block_row!("21", "29"),
                block_row!("22", "30"),
                block_row!("23", "31"),
                "subs x25, x25, #1",
                "b.ne 23b",
                // ---- Final epilogue. x20/x21 point at the LHS trailers, x24 at the RHS one.
                "ldp q4, q5, [x20]", // group 0 lhs_offset (i32), lhs_scale
                "ldp q6, q7, [x21]", // group 1
                "ldp q0, q1, [x24]", // rsum, bias
                "scvtf v4.4s, v4.4s",
                "scvtf v6.4s, v6.4s",
                "dup v2.4s, w9",
                "dup v3.4s, w10",
                for_rows!(finish_row[v, "0", "1", "2", "3";];
                    ("24", "4", "5", "0") ("25", "4", "5", "1") ("26", "4", "5", "2")
                    ("27", "4", "5", "3") ("28", "6", "7", "0") ("29", "6", "7", "1")
                    ("30", "6", "7", "2") ("31", "6", "7", "3")),
                pass16x4_store_and_next!();
                gemm[16 rows, "20"](m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                in("x11") bl / 32,
                clobber x(12 13 14 15 16 17 20 21 22 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
