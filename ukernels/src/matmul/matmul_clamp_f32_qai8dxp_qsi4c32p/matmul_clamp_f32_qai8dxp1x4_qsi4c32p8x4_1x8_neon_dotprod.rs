//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod`: GEMV (1 row x 8 columns per
//! step) with FEAT_DotProd `SDOT` (by element), groupwise int4 weights with one bf16 scale per
//! `bl` K values, the whole m x n computation in one `asm!` block.
//!
//! Loop order: column groups of 8 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `nb = k / bl` blocks, then K in passes of 32 values x 8 columns.
//! Nibbles decode as `byte & 0xf0` and `byte << 4` (16x the value); each block's int32 sums are
//! converted with `SCVTF #4` (undoing the 16) and fused into an f32 accumulator with the block's
//! scales. The int32 accumulators are zeroed once per row: after a block, subtracting its sum
//! from one accumulator per 4 columns makes them sum to 0 again (cheaper than zeroing all eight).
//!
//! One K-loop iteration (32 K values x 8 columns, 256 MACs) issues 10 q-loads, 16 decode ops and
//! 16 `sdot`: llvm-mca 16 cycles on Neoverse N1/N2, 8 on V1/V2 (bound by the vector pipes). The
//! loads are written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the
//! scaled-offset `ldr q` encoding an extra uop on its 3-wide dispatch). The block epilogue adds
//! 14 vector ops (a whole bl = 32 block: 23 cycles on N1/N2, 12 on V1/V2).

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 8` and
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp1x4_qsi4c32p8x4_1x8: blockwise(8 cols), "matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer, x15 blocks
    // left.
    //
    // LHS rows are contiguous (k + 8 bytes each) and the blocks of a row follow
    // each other, so x9 simply walks through them: K loop, then lhs_offset and
    // lhs_scale. Likewise x10 walks a group: block data, block scales, ..., rsum.
    //
    //   v0-v3   int32 accumulators of columns 0..3, segment s = 0..3 of a chunk
    //   v4-v7   int32 accumulators of columns 4..7, segment s
    //           (lane j = column j; low and high nibbles of a segment go to
    //           the same accumulator: two SDOTs each per iteration)
    //   v16-v19 RHS segments (columns 0..3, 4..7 of two segments, reloaded
    //           for the next two), turned into byte & 0xF0 (= 16 * high
    //           nibble) in place
    //   v20/v21 LHS lq[0..16] / lq[16..32] of the chunk, used by element
    //   v24-v27 16 * low nibbles of v16-v19 (`shl #4`)
    //   v28/v29 f32 accumulators, columns 0..3 / 4..7
    //   v23/v30 clamp_min / clamp_max in every lane
    //   v31     0xF0 mask
    // v8-v15 (callee-saved) are not used. The block epilogue reuses v16-v20
    // and v24/v25, the row epilogue v16-v21.
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
        "ldur q20, [x9]", // lq[0..16]
        "ldur q21, [x9, #16]", // lq[16..32]
        "add x9, x9, #32",
        // segment 0: low nibbles x lq[0..4], high x lq[16..20]
        "ldur q16, [x10]",
        "ldur q17, [x10, #16]",
        "shl v24.16b, v16.16b, #4",
        "shl v25.16b, v17.16b, #4",
        "and v16.16b, v16.16b, v31.16b",
        "and v17.16b, v17.16b, v31.16b",
        "sdot v0.4s, v24.16b, v20.4b[0]",
        "sdot v4.4s, v25.16b, v20.4b[0]",
        "sdot v0.4s, v16.16b, v21.4b[0]",
        "sdot v4.4s, v17.16b, v21.4b[0]",
        // segment 1: low nibbles x lq[4..8], high x lq[20..24]
        "ldur q18, [x10, #32]",
        "ldur q19, [x10, #48]",
        "shl v26.16b, v18.16b, #4",
        "shl v27.16b, v19.16b, #4",
        "and v18.16b, v18.16b, v31.16b",
        "and v19.16b, v19.16b, v31.16b",
        "sdot v1.4s, v26.16b, v20.4b[1]",
        "sdot v5.4s, v27.16b, v20.4b[1]",
        "sdot v1.4s, v18.16b, v21.4b[1]",
        "sdot v5.4s, v19.16b, v21.4b[1]",
        // segment 2: low nibbles x lq[8..12], high x lq[24..28]
        "ldur q16, [x10, #64]",
        "ldur q17, [x10, #80]",
        "shl v24.16b, v16.16b, #4",
        "shl v25.16b, v17.16b, #4",
        "and v16.16b, v16.16b, v31.16b",
        "and v17.16b, v17.16b, v31.16b",
        "sdot v2.4s, v24.16b, v20.4b[2]",
        "sdot v6.4s, v25.16b, v20.4b[2]",
        "sdot v2.4s, v16.16b, v21.4b[2]",
        "sdot v6.4s, v17.16b, v21.4b[2]",
        // segment 3: low nibbles x lq[12..16], high x lq[28..32]
        "ldur q18, [x10, #96]",
        "ldur q19, [x10, #112]",
        "add x10, x10, #128",
        "subs x12, x12, #1",
        "shl v26.16b, v18.16b, #4",
        "shl v27.16b, v19.16b, #4",
        "and v18.16b, v18.16b, v31.16b",
        "and v19.16b, v19.16b, v31.16b",
        "sdot v3.4s, v26.16b, v20.4b[3]",
        "sdot v7.4s, v27.16b, v20.4b[3]",
        "sdot v3.4s, v18.16b, v21.4b[3]",
        "sdot v7.4s, v19.16b, v21.4b[3]",
    ]
    row_end [
        // ---- block epilogue: x10 -> the block's 8 bf16 scales ----
        // The block's sums I = v0 + v1 + v2 + v3 (columns 0..3) and v4 + .. + v7
        // (4..7); then v0 -= I and v4 -= I, so that every column's accumulators
        // sum to 0 again for the next block (wrapping i32, exact).
        "ldr q16, [x10], #16",
        "add v17.4s, v0.4s, v1.4s",
        "add v18.4s, v2.4s, v3.4s",
        "add v19.4s, v4.4s, v5.4s",
        "add v20.4s, v6.4s, v7.4s",
        "add v17.4s, v17.4s, v18.4s", // I, columns 0..3
        "add v19.4s, v19.4s, v20.4s", // I, columns 4..7
        "sub v0.4s, v0.4s, v17.4s",
        "sub v4.4s, v4.4s, v19.4s",
        "shll v24.4s, v16.4h, #16", // bf16 -> f32, columns 0..3
        "shll2 v25.4s, v16.8h, #16", // columns 4..7
        "scvtf v17.4s, v17.4s, #4",
        "scvtf v19.4s, v19.4s, #4",
        "subs x15, x15, #1",
        "fmla v28.4s, v17.4s, v24.4s",
        "fmla v29.4s, v19.4s, v25.4s",
        "b.ne 4b",
        // ---- row epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d20, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldp q16, q17, [x10]", // rsum
        "ldp q18, q19, [x10, #32]", // bias
        "scvtf s21, s20",
        "fmla v28.4s, v16.4s, v21.s[0]",
        "fmla v29.4s, v17.4s, v21.s[0]",
        "fmul v28.4s, v28.4s, v20.s[1]",
        "fmul v29.4s, v29.4s, v20.s[1]",
        "fadd v28.4s, v28.4s, v18.4s",
        "fadd v29.4s, v29.4s, v19.4s",
        "fmax v28.4s, v28.4s, v23.4s",
        "fmax v29.4s, v29.4s, v23.4s",
        "fmin v28.4s, v28.4s, v30.4s",
        "fmin v29.4s, v29.4s, v30.4s",
        // ---- store 8 columns, or the n % 8 tail ----
        store_cols8!("28", "29", "x1", "x11", "x13"; "7", "8", "9", "6"),
    ]
    clobber x(8 9 10 11 12 13 15) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 23 24 25 26 27 28 29 30 31)
}
