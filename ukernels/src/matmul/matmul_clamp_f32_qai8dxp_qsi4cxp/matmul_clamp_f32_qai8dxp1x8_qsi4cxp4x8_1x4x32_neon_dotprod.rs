//! `kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod`: GEMV (1 row x 4 columns per
//! step) with FEAT_DotProd `SDOT`, the whole m x n computation in one `asm!` block.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), K in passes of 32 values x 4 columns. Nibbles decode as `byte & 0xf0` and
//! `byte << 4` (16x the value; the packer pre-scales sums and scales to match).

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32: per_channel(4 cols, int4), "matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer.
    //
    //   v0-v3   accumulators of the low nibbles: v0/v1 super-block 0,
    //           columns {0,1} / {2,3}; v2/v3 super-block 1, same columns
    //           (lanes 0-1: first column of the pair, lanes 2-3: second)
    //   v4-v7   the same for the high nibbles
    //   v16-v19 RHS bytes: v16/v17 super-block 0, v18/v19 super-block 1;
    //           shifted left by 4 in place (= 16 * low nibble)
    //   v20-v23 byte & 0xF0 (= 16 * high nibble) of v16-v19
    //   v24-v27 LHS 8-byte slices lq[0..8], [8..16], [16..24], [24..32],
    //           each replicated into both 64-bit halves
    //   v28/v29 clamp_min / clamp_max in every lane
    //   v31     0xF0 mask
    // Every accumulator takes one SDOT per iteration, so the loop is bound by
    // the vector pipes, not by the SDOT latency. v8-v15 (callee-saved) are
    // not used. The epilogue reuses v16-v27.
    setup ["movi v31.16b, #0xf0", "dup v28.4s, w15", "dup v29.4s, w16"]
    row_start [
        "mov x12, x2",
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7"),
        // ---- K loop: 32 K values x 4 columns per iteration ----
    ]
    k_loop [
        int4_chunk_4x8!(),
    ]
    row_end [
        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d24, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldr q16, [x10]", // rsum
        "ldr q17, [x10, #16]", // rscale
        "ldr q18, [x10, #32]", // bias
        sum_sdot_chains_into_v0_v1!(),
        "addp v0.4s, v0.4s, v1.4s", // columns 0..3
        per_channel_gemv4_row_end!(),
    ]
    clobber x(8 9 10 11 12 13) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 31)
}
