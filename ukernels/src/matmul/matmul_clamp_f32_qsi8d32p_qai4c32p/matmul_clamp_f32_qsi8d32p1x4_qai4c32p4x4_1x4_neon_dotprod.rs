//! `kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod`: asymmetric int4 GEMV (1 row x
//! 4 columns per step) with `FEAT_DotProd` `SDOT` (by element), the whole m x n computation in
//! one `asm!` block. The f16-output kernel of the same tile narrows its results.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `k / bl` blocks, each in 32-value sub-blocks. A sub-block is 64 bytes
//! of weights: four 4-byte chunks per column, chunk `c` of the 4 columns in one register (lane =
//! column); byte `t` of a column holds values `t` (low nibble) and `16 + t` (high nibble) of the
//! sub-block. Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the signed value); `SDOT (by
//! element)` with lane `c` of the 16 activations the low (or high) nibbles pair with adds chunk
//! `c`'s 4 products to each column lane. Eight accumulators keep every `SDOT` chain one deep per
//! iteration; the block epilogue adds them and folds the 4 column sums into the f32 accumulator
//! in the family's order.

qai4c32p_gemv! {
    /// The family's computation (NEON order) and [contract](super#safety) with `mr = 1`, `nr = 4`
    /// and `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qsi8d32p1x4_qai4c32p4x4_1x4: "matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", fold "add", lhs v(4 5);
    k_loop [
        //   v0-v3   weights of the sub-block (chunks 0-3, lane = column); `and 0xf0` in place
        //           (16 x high nibbles)
        //   v24-v27 the same shifted left by 4 (16 x low nibbles); block parameters afterwards
        //   v4/v5   activations 0-15 (low nibbles) / 16-31 (high nibbles)
        "ldp q0, q1, [x10]",
        "ldp q4, q5, [x9], #32",
        "ldp q2, q3, [x10, #32]",
        "shl v24.16b, v0.16b, #4",
        "and v0.16b, v0.16b, v31.16b",
        "shl v25.16b, v1.16b, #4",
        "and v1.16b, v1.16b, v31.16b",
        "sdot v16.4s, v24.16b, v4.4b[0]",
        "sdot v20.4s, v0.16b, v5.4b[0]",
        "shl v26.16b, v2.16b, #4",
        "and v2.16b, v2.16b, v31.16b",
        "sdot v17.4s, v25.16b, v4.4b[1]",
        "sdot v21.4s, v1.16b, v5.4b[1]",
        "shl v27.16b, v3.16b, #4",
        "and v3.16b, v3.16b, v31.16b",
        "sdot v18.4s, v26.16b, v4.4b[2]",
        "sdot v22.4s, v2.16b, v5.4b[2]",
        "add x10, x10, #64",
        "subs x12, x12, #1",
        "sdot v19.4s, v27.16b, v4.4b[3]",
        "sdot v23.4s, v3.16b, v5.4b[3]",
    ]
}
