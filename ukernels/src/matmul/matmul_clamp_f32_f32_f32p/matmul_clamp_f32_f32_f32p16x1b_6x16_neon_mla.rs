//! `kai_matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla`: f32 GEMM, 6 rows x 16 columns per tile,
//! `FMLA` by element, the whole m x n computation in one `asm!` block. Scheduled for out-of-order
//! cores (Neoverse, Cortex-A7x/X): 128-bit loads, B loaded in pairs right before use.
//!
//! Register plan:
//!
//! * `v8`..`v31` — accumulators: row `r` of the tile in `v(8 + 4r)`..`v(11 + 4r)` (columns
//!   0-3, 4-7, 8-11, 12-15), initialised from the packed bias.
//! * `v0`..`v5` — four K values of LHS rows 0..5 (one `ldr q` each per iteration).
//! * `v6`, `v7` — two 4-column vectors of the packed RHS row of the current K value.
//!
//! One K-loop iteration covers 4 K values: 6 LHS loads, 8 `ldp q` of packed RHS (256 bytes) and
//! 96 `FMLA`s (384 MACs). Rows past the block's last row read row 0 again (their results are not
//! stored); columns past `n` are the packer's zero padding (not stored either).

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 16`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety).
    #[target_feature(enable = "neon")]
    fn matmul_f32_f32p16x1b_6x16: f32, 6 x 16, "matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla", pairs;
}
