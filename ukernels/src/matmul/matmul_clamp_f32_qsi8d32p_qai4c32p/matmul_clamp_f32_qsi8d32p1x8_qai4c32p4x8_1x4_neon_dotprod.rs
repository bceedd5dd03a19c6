//! `kai_matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod`: asymmetric int4 GEMV (1 row x
//! 4 columns per step) with `FEAT_DotProd` `SDOT` (vector form), the whole m x n computation in
//! one `asm!` block. The f16-output kernel of the same tile narrows its results.
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), then the `k / bl` blocks, each in 32-value sub-blocks. A sub-block is 64 bytes
//! of weights: two 8-byte chunks per column, chunk `c` of columns 0-1 and 2-3 in one register
//! each; byte `t` of a column holds values `t` (low nibble) and `16 + t` (high nibble) of the
//! sub-block. Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the signed value). Each 8-value
//! activation chunk is loaded into both halves of a register (`LD1R .2d`), so one `SDOT` adds two
//! columns' half-chunk sums into 4 lanes. Eight accumulators (low / high nibbles x chunk x column
//! pair) keep every `SDOT` chain one deep per iteration; the block epilogue folds them into the 4
//! column sums (`ADD`, `ADDP`), then into the f32 accumulator in the family's order.

qai4c32p_gemv! {
    /// The family's computation (NEON order) and [contract](super#safety) with `mr = 1`, `nr = 4`
    /// and `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qsi8d32p1x8_qai4c32p4x8_1x4: "matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", fold "addp", lhs v(4 5 6 7);
    k_loop [
        //   v0-v3   weights of the sub-block (chunk 0 cols 0-1, cols 2-3, chunk 1 cols 0-1, 2-3);
        //           `and 0xf0` in place (16 x high nibbles)
        //   v24-v27 the same shifted left by 4 (16 x low nibbles); block parameters afterwards
        //   v4-v7   activations 0-7, 8-15 (low nibbles), 16-23, 24-31 (high), in both halves
        //   v16-v23 i32 accumulators (low chunk 0, 1 / high chunk 0, 1 x column pairs)
        // Single `ldr q` loads and `dup` rather than `ldp` pairs and `ld1r` (V2 cracks an
        // `ldp q` into three uops): 5.3 cycles per iteration on V2 in llvm-mca, against 6.5
        // before and 6.0 for KleidiAI's loop.
        "ldr q0, [x10]",
        "ldr q1, [x10, #16]",
        "ldr q4, [x9], #32",
        "ldur q6, [x9, #-16]",
        "ldr q2, [x10, #32]",
        "ldr q3, [x10, #48]",
        "dup v5.2d, v4.d[1]",
        "dup v4.2d, v4.d[0]",
        "dup v7.2d, v6.d[1]",
        "dup v6.2d, v6.d[0]",
        "shl v24.16b, v0.16b, #4",
        "and v0.16b, v0.16b, v31.16b",
        "shl v25.16b, v1.16b, #4",
        "and v1.16b, v1.16b, v31.16b",
        "sdot v16.4s, v24.16b, v4.16b",
        "sdot v20.4s, v0.16b, v6.16b",
        "shl v26.16b, v2.16b, #4",
        "and v2.16b, v2.16b, v31.16b",
        "sdot v17.4s, v25.16b, v4.16b",
        "sdot v21.4s, v1.16b, v6.16b",
        "shl v27.16b, v3.16b, #4",
        "and v3.16b, v3.16b, v31.16b",
        "sdot v18.4s, v26.16b, v5.16b",
        "sdot v22.4s, v2.16b, v7.16b",
        "add x10, x10, #64",
        "subs x12, x12, #1",
        "sdot v19.4s, v27.16b, v5.16b",
        "sdot v23.4s, v3.16b, v7.16b",
    ]
}
