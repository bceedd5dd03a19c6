//! `kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod` and
//! `kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod` (the same tile and packed
//! formats in KleidiAI): GEMV (1 row x 8 columns per step) with FEAT_DotProd `SDOT`, groupwise
//! int4 weights with one bf16 scale per `bl` K values, the whole m x n computation in one `asm!`
//! block.
//!
//! Loop order: column groups of 8 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `nb = k / bl` blocks, then K in passes of 32 values x 8 columns. The
//! K loop is the per-channel `qsi4cxp8x8` one (nibbles decode as `byte & 0xf0` and `byte << 4`,
//! 16x the value); each block's int32 sums are converted with `SCVTF #4` (undoing the 16) and
//! fused into an f32 accumulator with the block's scales. The int32 accumulators are zeroed once
//! per row: after a block, one `NEG` per accumulator pair makes the pair sum to 0 again (cheaper
//! than zeroing all eight).

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 8` and
    /// `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp1x8_qsi4c32p8x8_1x8: blockwise(8 cols), "matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer, x15 blocks
    // left.
    //
    // LHS rows are contiguous (k + 8 bytes each) and the blocks of a row follow
    // each other, so x9 simply walks through them: K loop, then lhs_offset and
    // lhs_scale. Likewise x10 walks a group: block data, block scales, ..., rsum.
    //
    //   v0-v3   int32 accumulators of the low nibbles, column pairs 0..3
    //   v4-v7   int32 accumulators of the high nibbles, column pairs 0..3
    //           (lanes 0-1: first column of the pair, lanes 2-3: second)
    //   v16-v19 RHS bytes of a super-block, shifted left by 4 in place
    //           (= 16 * low nibble); reloaded for the second super-block
    //   v20-v22 byte & 0xF0 (= 16 * high nibble), rotating
    //   v24-v27 LHS 8-byte slices lq[0..8], [8..16], [16..24], [24..32],
    //           each replicated in both 64-bit halves (one LD4R)
    //   v28/v29 f32 accumulators, columns 0..3 / 4..7
    //   v23/v30 clamp_min / clamp_max in every lane
    //   v31     0xF0 mask
    // v8-v15 (callee-saved) are not used. The block epilogue reuses v16-v22,
    // the row epilogue v16-v19 and v24/v25.
    setup ["movi v31.16b, #0xf0", "dup v23.4s, w16", "dup v30.4s, w17"]
    row_start [
        "mov x15, x2",
        zero_v!("16b"; "28", "29", "0", "1", "2", "3", "4", "5", "6", "7"),
        // ---- loop over blocks of bl K values ----
        "4:",
        "mov x12, x7",
        // ---- K loop: 32 K values x 8 columns per iteration ----
    ]
    k_loop [
        "ld4r {{v24.2d, v25.2d, v26.2d, v27.2d}}, [x9], #32",
        // super-block 0: low nibbles x lq[0..8], high x lq[16..24]
        "ldur q16, [x10]",
        "and v20.16b, v16.16b, v31.16b",
        "shl v16.16b, v16.16b, #4",
        "sdot v0.4s, v16.16b, v24.16b",
        "sdot v4.4s, v20.16b, v26.16b",
        "ldur q17, [x10, #16]",
        "and v21.16b, v17.16b, v31.16b",
        "shl v17.16b, v17.16b, #4",
        "sdot v1.4s, v17.16b, v24.16b",
        "sdot v5.4s, v21.16b, v26.16b",
        "ldur q18, [x10, #32]",
        "and v22.16b, v18.16b, v31.16b",
        "shl v18.16b, v18.16b, #4",
        "sdot v2.4s, v18.16b, v24.16b",
        "sdot v6.4s, v22.16b, v26.16b",
        "ldur q19, [x10, #48]",
        "and v20.16b, v19.16b, v31.16b",
        "shl v19.16b, v19.16b, #4",
        "sdot v3.4s, v19.16b, v24.16b",
        "sdot v7.4s, v20.16b, v26.16b",
        // super-block 1: low nibbles x lq[8..16], high x lq[24..32]
        "ldur q16, [x10, #64]",
        "and v21.16b, v16.16b, v31.16b",
        "shl v16.16b, v16.16b, #4",
        "sdot v0.4s, v16.16b, v25.16b",
        "sdot v4.4s, v21.16b, v27.16b",
        "ldur q17, [x10, #80]",
        "and v22.16b, v17.16b, v31.16b",
        "shl v17.16b, v17.16b, #4",
        "sdot v1.4s, v17.16b, v25.16b",
        "sdot v5.4s, v22.16b, v27.16b",
        "ldur q18, [x10, #96]",
        "and v20.16b, v18.16b, v31.16b",
        "shl v18.16b, v18.16b, #4",
        "sdot v2.4s, v18.16b, v25.16b",
        "sdot v6.4s, v20.16b, v27.16b",
        "ldur q19, [x10, #112]",
        "add x10, x10, #128",
        "and v21.16b, v19.16b, v31.16b",
        "shl v19.16b, v19.16b, #4",
        "subs x12, x12, #1",
        "sdot v3.4s, v19.16b, v25.16b",
        "sdot v7.4s, v21.16b, v27.16b",
    ]
    row_end [
        // ---- block epilogue: x10 -> the block's 8 bf16 scales ----
        // The block's sums: (v0 + v4) .. (v3 + v7) per lane, then pairwise; then
        // v0 = -v4 .. v3 = -v7, so that every lane pair sums to 0 again for the
        // next block (wrapping i32, exact).
        "ldr q20, [x10], #16",
        "add v16.4s, v0.4s, v4.4s",
        "add v17.4s, v1.4s, v5.4s",
        "add v18.4s, v2.4s, v6.4s",
        "add v19.4s, v3.4s, v7.4s",
        "neg v0.4s, v4.4s",
        "neg v1.4s, v5.4s",
        "neg v2.4s, v6.4s",
        "neg v3.4s, v7.4s",
        "addp v16.4s, v16.4s, v17.4s", // I, columns 0..3
        "addp v18.4s, v18.4s, v19.4s", // I, columns 4..7
        "shll v21.4s, v20.4h, #16", // bf16 -> f32, columns 0..3
        "shll2 v22.4s, v20.8h, #16", // columns 4..7
        "scvtf v16.4s, v16.4s, #4",
        "scvtf v18.4s, v18.4s, #4",
        "subs x15, x15, #1",
        "fmla v28.4s, v16.4s, v21.4s",
        "fmla v29.4s, v18.4s, v22.4s",
        "b.ne 4b",
        // ---- row epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d24, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldp q16, q17, [x10]", // rsum
        "ldp q18, q19, [x10, #32]", // bias
        "scvtf s25, s24",
        "fmla v28.4s, v16.4s, v25.s[0]",
        "fmla v29.4s, v17.4s, v25.s[0]",
        "fmul v28.4s, v28.4s, v24.s[1]",
        "fmul v29.4s, v29.4s, v24.s[1]",
        "fadd v28.4s, v28.4s, v18.4s",
        "fadd v29.4s, v29.4s, v19.4s",
        "fmax v28.4s, v28.4s, v23.4s",
        "fmax v29.4s, v29.4s, v23.4s",
        "fmin v28.4s, v28.4s, v30.4s",
        "fmin v29.4s, v29.4s, v30.4s",
        // ---- store 8 columns, or the n % 8 tail ----
        store_cols8!("28", "29", "x1", "x11", "x13"; "7", "8", "9", "6"),
    ]
    clobber x(8 9 10 11 12 13 15) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
}
