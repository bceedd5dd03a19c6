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

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 32`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety), on a CPU implementing FEAT_FP16.
    #[target_feature(enable = "fp16")]
    fn matmul_f16_f16p32x1b_6x32: f16, 6 x 32, "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla", pairs;
}
