//! `kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod`: Q4_0 GEMV (1 row x 4
//! columns per step) with `FEAT_DotProd` `SDOT` (by element), the whole m x n computation in one
//! `asm!` block.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `k / bl` blocks, each in 32-value sub-blocks. One sub-block is 64
//! bytes of weights (4 segments of 4 columns x 4 bytes) and 2 x 16 activations (the values its
//! low and high nibbles pair with, `bl / 2` apart). Nibbles decode as `byte << 4` and
//! `byte & 0xf0` (16 x the value); `SDOT (by element)` with lane `s` of the activations adds
//! segment `s`'s 4 products to each column lane. Four accumulators (low / high nibbles x segments
//! 0-1 / 2-3) keep the `SDOT` dependency chains two deep, so the loop is bound by the vector pipes
//! (16 ops) rather than by `SDOT` latency; at the end of a block their sum converts with `SCVTF #4`
//! (exactly `I / 16`) and is fused-multiply-added into the f32 accumulator with the product of
//! the block's column scales and row scale (both f16, widened).

qsi8d32p_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qsi8d32p1x4_qsi4c32p4x4_1x4: "matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod";
    block_start []
    k_loop [
        //   v0-v3   RHS segments 0..3 of the sub-block; `and 0xf0` in place (16 x high nibbles)
        //   v18-v21 the same shifted left by 4 (16 x low nibbles)
        //   v4/v5   16 activations paired with the low / high nibbles
        //   v16/v17 i32 block sums of the low / high nibbles of segments 0-1 (lane = column)
        //   v22/v23 the same for segments 2-3
        "ldur q0, [x10]",
        "ldur q4, [x9]",
        "ldur q1, [x10, #16]",
        "ldr q5, [x9, x14]",
        "shl v18.16b, v0.16b, #4",
        "and v0.16b, v0.16b, v31.16b",
        "ldur q2, [x10, #32]",
        "shl v19.16b, v1.16b, #4",
        "and v1.16b, v1.16b, v31.16b",
        "ldur q3, [x10, #48]",
        "sdot v16.4s, v18.16b, v4.4b[0]",
        "sdot v17.4s, v0.16b, v5.4b[0]",
        "shl v20.16b, v2.16b, #4",
        "and v2.16b, v2.16b, v31.16b",
        "sdot v16.4s, v19.16b, v4.4b[1]",
        "sdot v17.4s, v1.16b, v5.4b[1]",
        "shl v21.16b, v3.16b, #4",
        "and v3.16b, v3.16b, v31.16b",
        "add x10, x10, #64",
        "add x9, x9, #16",
        "sdot v22.4s, v20.16b, v4.4b[2]",
        "sdot v23.4s, v2.16b, v5.4b[2]",
        "subs x12, x12, #1",
        "sdot v22.4s, v21.16b, v4.4b[3]",
        "sdot v23.4s, v3.16b, v5.4b[3]",
    ]
    block_end [
        "add x9, x9, x14", // skip the high bl / 2 of the block's activations
        "fcvtl v25.4s, v25.4h",
        "fcvt s24, h24",
        "add v16.4s, v16.4s, v17.4s",
        "add v22.4s, v22.4s, v23.4s",
        "add v16.4s, v16.4s, v22.4s",
        "fmul v25.4s, v25.4s, v24.s[0]", // column scale x row scale
    ]
    clobber x(8 9 10 11 12 13 15) v(0 1 2 3 4 5 16 17 18 19 20 21 22 23 24 25 30 31)
}
