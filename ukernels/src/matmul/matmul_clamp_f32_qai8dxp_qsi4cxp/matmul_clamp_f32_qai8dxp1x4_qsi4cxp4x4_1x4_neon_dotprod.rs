//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod`: GEMV (1 row x 4 columns per
//! step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!` block.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), K in passes of 32 values x 4 columns.
//! Nibbles decode as `byte & 0xf0` and `byte << 4` (16x the value; the packer pre-scales sums
//! and scales to match).

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr / sr = 4` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp1x4_qsi4cxp4x4_1x4: per_channel(4 cols, int4), "matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer.
    //
    //   v0-v3   accumulators of the low nibbles, super-blocks 0..3 of a chunk
    //   v4-v7   accumulators of the high nibbles, super-blocks 0..3
    //           (lane j = column j; one accumulator per SDOT of a pass, so
    //           the loop is bound by the vector pipes, not SDOT latency)
    //   v16-v19 RHS super-blocks 0..3 (4 columns x 4 bytes each)
    //   v20/v21 LHS lq[0..16] / lq[16..32] of the chunk, used by element
    //   v22-v25 16 * low nibbles of v16-v19 (`shl #4`); v16-v19 then become
    //           16 * high nibbles in place (`and 0xF0`)
    //   v28/v29 clamp_min / clamp_max in every lane
    //   v30     0xF0 mask
    // v8-v15 (callee-saved) are not used. The epilogue reuses v16-v20.
    setup ["movi v30.16b, #0xf0", "dup v28.4s, w15", "dup v29.4s, w16"]
    row_start [
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7"),
        "cbz x2, 6f",
        "mov x12, x2",
        // ---- K loop: 32 K values x 4 columns per iteration ----
    ]
    k_loop [
        int4_chunk_4x4!(),
    ]
    row_end [
        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "6:",
        "ldr d20, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldr q16, [x10]", // rsum
        "ldr q17, [x10, #16]", // rscale
        "ldr q18, [x10, #32]", // bias
        "add v0.4s, v0.4s, v1.4s",
        "add v2.4s, v2.4s, v3.4s",
        "add v4.4s, v4.4s, v5.4s",
        "add v6.4s, v6.4s, v7.4s",
        "add v0.4s, v0.4s, v2.4s",
        "add v4.4s, v4.4s, v6.4s",
        "add v0.4s, v0.4s, v4.4s", // columns 0..3
        dequant_row!(scale_first, "0";
            "16", "20"["0"]; "17", "20"["1"] -> "17"; "18"; "28", "29"),
        // ---- store 4 columns, or the n % 4 tail ----
        store_cols4!(cmp, "0", "x1", "x11", "x13"; "7", "8", "9"),
    ]
    clobber x(8 9 10 11 12 13) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 28 29 30)
}
