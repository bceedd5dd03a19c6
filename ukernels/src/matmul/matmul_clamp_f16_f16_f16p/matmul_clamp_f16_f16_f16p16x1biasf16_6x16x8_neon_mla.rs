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
    /// The family's computation and [contract](super#safety) with `nr = 16`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety), on a CPU implementing FEAT_FP16.
    #[target_feature(enable = "fp16")]
    fn matmul_f16_f16p16x1biasf16_6x16x8: f16, 6 x 16, "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla", ring;
}
