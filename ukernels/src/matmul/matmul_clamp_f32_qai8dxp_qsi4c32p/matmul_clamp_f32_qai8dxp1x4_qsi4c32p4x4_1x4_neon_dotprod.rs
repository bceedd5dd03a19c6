//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod`: GEMV (1 row x 4 columns per
//! step) of int8 activations by groupwise int4 weights with bf16 block scales, using
//! `FEAT_DotProd` `SDOT` (by element), the whole m x n computation in one `asm!` block.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `k / bl` blocks, each in passes of 32 K values x 4 columns. Nibbles
//! decode as `byte & 0xf0` and `byte << 4` (16x the value); each block's i32 sums convert with
//! `SCVTF #4` (exact division by 16) and accumulate into f32 with the block's scales.

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp1x4_qsi4c32p4x4_1x4: blockwise(4 cols), "matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer, x17 blocks
    // left in this row.
    //
    // LHS rows are contiguous (k + 8 bytes each), so x9 simply walks through
    // them: K loop, then lhs_offset and lhs_scale. x10 walks a group's blocks
    // (data, then scales) and ends at its rsum.
    //
    //   v0-v3   i32 accumulators of the low nibbles, super-blocks 0..3 of a
    //           chunk, running over the whole row
    //   v4-v7   the same for the high nibbles (lane j = column j; one
    //           accumulator per SDOT of a pass, so the loop is bound by the
    //           vector pipes, not SDOT latency)
    //   v16-v19 RHS super-blocks 0..3 (4 columns x 4 bytes each)
    //   v20/v21 LHS lq[0..16] / lq[16..32] of the chunk, used by element
    //   v22-v25 16 * low nibbles of v16-v19 (`shl #4`); v16-v19 then become
    //           16 * high nibbles in place (`and 0xF0`)
    //   v26     f32 accumulator of the row (lane j = column j)
    //   v27     sum of v0-v7 at the end of the previous block
    //   v28/v29 clamp_min / clamp_max in every lane
    //   v30     0xF0 mask
    // A block's i32 sums are the difference of the reduced accumulators at its
    // end and at its start (v27): cheaper than zeroing eight accumulators per
    // block, and exact in wrapping arithmetic since every block sum fits in
    // i32. v8-v15 (callee-saved) are not used. The epilogues reuse v16-v21.
    setup ["movi v30.16b, #0xf0", "dup v28.4s, w15", "dup v29.4s, w16"]
    row_start [
        "mov x17, x7",
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7", "26", "27"),
        // ---- loop over blocks ----
        "4:",
        "mov x12, x2",
        // ---- K loop: 32 K values x 4 columns per iteration ----
    ]
    k_loop [
        int4_chunk_4x4!(),
    ]
    row_end [
        // ---- block epilogue: x10 -> the block's 4 bf16 scales ----
        "ldr d16, [x10], #8",
        "add v17.4s, v0.4s, v1.4s",
        "add v18.4s, v2.4s, v3.4s",
        "add v19.4s, v4.4s, v5.4s",
        "add v20.4s, v6.4s, v7.4s",
        "shll v16.4s, v16.4h, #16", // bf16 -> f32
        "add v17.4s, v17.4s, v18.4s",
        "add v19.4s, v19.4s, v20.4s",
        "subs x17, x17, #1",
        "add v17.4s, v17.4s, v19.4s", // running sums, columns 0..3 (16x)
        "sub v18.4s, v17.4s, v27.4s", // this block's sums
        "mov v27.16b, v17.16b",
        "scvtf v18.4s, v18.4s, #4",
        "fmla v26.4s, v18.4s, v16.4s",
        "b.ne 4b",
        // ---- row epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d20, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldr q16, [x10]",    // rsum
        "ldr q18, [x10, #16]", // bias
        "scvtf s21, s20",
        "fmla v26.4s, v16.4s, v21.s[0]",
        "fmul v26.4s, v26.4s, v20.s[1]",
        "fadd v26.4s, v26.4s, v18.4s",
        "fmax v26.4s, v26.4s, v28.4s",
        "fmin v26.4s, v26.4s, v29.4s",
        // ---- store 4 columns, or the n % 4 tail ----
        store_cols4!(cmp, "26", "x1", "x11", "x13"; "6", "7", "8"),
    ]
    clobber x(8 9 10 11 12 13 17) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30)
}
