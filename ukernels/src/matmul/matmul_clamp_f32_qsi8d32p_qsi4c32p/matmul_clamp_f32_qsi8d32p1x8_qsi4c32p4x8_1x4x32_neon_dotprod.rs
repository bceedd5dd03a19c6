//! `kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod`: Q4_0 GEMV (1 row x 4
//! columns per step) with `FEAT_DotProd` `SDOT` on 8-value blocks, the whole m x n computation in
//! one `asm!` block.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `k / bl` blocks, each in 32-value sub-blocks. One sub-block is 64
//! bytes of weights (2 segments of 4 columns x 8 bytes) and 2 x 16 activations (the values its
//! low and high nibbles pair with, `bl / 2` apart). Nibbles decode as `byte << 4` and
//! `byte & 0xf0` (16 x the value). A register holds 8 bytes of two columns, so each 8-value slice
//! of activations is loaded replicated into both halves (`LD1R .2d`): one vector `SDOT` then gives
//! two partial sums per column (lanes 0-1: first column, 2-3: second), paired up with `ADDP` at
//! the end of the block. Four accumulators (segments x column pairs) keep the `SDOT` chains two
//! deep. The block's sum converts with `SCVTF #4` (exactly `I / 16`) and is fused-multiply-added
//! into the f32 accumulator with the product of the block's column scales and row scale (both
//! f16, widened).

qsi8d32p_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32: "matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod";
    block_start [
        "add x16, x9, x14",
    ]
    k_loop [
        //   v0-v3   RHS: segment 0 columns {0,1}, {2,3}; segment 1 columns {0,1}, {2,3};
        //           `and 0xf0` in place (16 x high nibbles)
        //   v18-v21 the same shifted left by 4 (16 x low nibbles)
        //   v4/v5   activations 0-7 / 8-15 of the low half, replicated to both 64-bit halves
        //   v6/v7   the same for the high half
        //   v16/v17 i32 sums of segment 0, columns {0,1} / {2,3} (two lanes per column)
        //   v22/v23 the same for segment 1
        "ldr q4, [x9], #16",
        "ldur q0, [x10]",
        "ldr q6, [x16], #16",
        "ldur q1, [x10, #16]",
        "dup v5.2d, v4.d[1]",
        "dup v4.2d, v4.d[0]",
        "shl v18.16b, v0.16b, #4",
        "and v0.16b, v0.16b, v31.16b",
        "ldur q2, [x10, #32]",
        "dup v7.2d, v6.d[1]",
        "dup v6.2d, v6.d[0]",
        "shl v19.16b, v1.16b, #4",
        "and v1.16b, v1.16b, v31.16b",
        "ldur q3, [x10, #48]",
        "sdot v16.4s, v18.16b, v4.16b",
        "sdot v17.4s, v19.16b, v4.16b",
        "shl v20.16b, v2.16b, #4",
        "and v2.16b, v2.16b, v31.16b",
        "sdot v16.4s, v0.16b, v6.16b",
        "sdot v17.4s, v1.16b, v6.16b",
        "shl v21.16b, v3.16b, #4",
        "and v3.16b, v3.16b, v31.16b",
        "add x10, x10, #64",
        "sdot v22.4s, v20.16b, v5.16b",
        "sdot v23.4s, v21.16b, v5.16b",
        "subs x12, x12, #1",
        "sdot v22.4s, v2.16b, v7.16b",
        "sdot v23.4s, v3.16b, v7.16b",
    ]
    block_end [
        "mov x9, x16", // the next block follows the high bl / 2
        "fcvtl v25.4s, v25.4h",
        "fcvt s24, h24",
        "add v16.4s, v16.4s, v22.4s",
        "add v17.4s, v17.4s, v23.4s",
        "fmul v25.4s, v25.4s, v24.s[0]", // column scale x row scale
        "addp v16.4s, v16.4s, v17.4s",   // columns 0..3 (16x)
    ]
    clobber x(8 9 10 11 12 13 15 16) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 30 31)
}
