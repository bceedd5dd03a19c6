//! `kai_matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla`: f16 GEMM (FEAT_FP16, f16
//! accumulators), 6 rows x 16 columns per tile, 8 K values per loop iteration, `FMLA` by element,
//! the whole m x n computation in one `asm!` block.
//!
//! Register plan:
//!
//! * `v8`..`v19` — accumulators: row `r` of the tile in `v(8 + 2r)`, `v(9 + 2r)` (columns 0-7,
//!   8-15), initialised from the packed bias.
//! * `v0`..`v5` — eight K values of LHS rows 0..5 (one `ldr q` each per iteration).
//! * `v20`..`v27` — a ring of four packed RHS rows (two vectors each), each loaded one K value
//!   ahead of its `FMLA`s.
//!
//! One K-loop iteration covers 8 K values: 6 LHS loads, 8 `ldp q` of packed RHS (256 bytes) and
//! 96 `FMLA`s (768 MACs). Rows past the block's last row read row 0 again (their results are not
//! stored); columns past `n` are the packer's zero padding (not stored either).

float_kernel! {
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
    /// * `rhs_packed` is readable for `ceil(n / 16)` groups of `32 * (k + 1)` bytes (16 biases, then
    ///   16 values per K value).
    /// * For every `i < m`, `j < n`, the 2 bytes at `dst + i * dst_stride + 2 * j` are writable and
    ///   overlap neither input. Nothing else is written.
    #[target_feature(enable = "fp16")]
    fn matmul_f16_f16p16x1biasf16_6x16x8: f16, 6 x 16, "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla", ring;
}
