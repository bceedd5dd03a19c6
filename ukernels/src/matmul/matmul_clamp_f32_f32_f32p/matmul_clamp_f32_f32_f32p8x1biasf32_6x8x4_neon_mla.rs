//! `kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla`: f32 GEMM, 6 rows x 8 columns per
//! tile, 4 K values per loop iteration, `FMLA` by element, the whole m x n computation in one
//! `asm!` block.
//!
//! Register plan:
//!
//! * `v8`..`v19` — accumulators: row `r` of the tile in `v(8 + 2r)`, `v(9 + 2r)` (columns 0-3,
//!   4-7), initialised from the packed bias.
//! * `v0`..`v5` — four K values of LHS rows 0..5 (one `ldr q` each per iteration).
//! * `v20`..`v27` — the four packed RHS rows of the iteration (two vectors each), each loaded
//!   one K value ahead of its `FMLA`s.
//!
//! One K-loop iteration covers 4 K values: 6 LHS loads, 4 `ldp q` of packed RHS (128 bytes) and
//! 48 `FMLA`s (192 MACs). Rows past the block's last row read row 0 again (their results are not
//! stored); columns past `n` are the packer's zero padding (not stored either).

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety).
    #[target_feature(enable = "neon")]
    fn matmul_f32_f32p8x1biasf32_6x8x4: f32, 6 x 8, "matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla", ring;
}
