//! `rkai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod`: vector-length-agnostic
//! GEMV (1 row x 2 x VL32 columns per step) with SVE `SDOT`, the whole m x n computation in one
//! `asm!` block. Operands: a dynamically quantized int8 LHS (one row per group, K in order) and
//! a per-channel symmetric int8 RHS in KleidiAI's `qsi8cxp` format with `nr = 2 x VL32`,
//! `kr = 8`, `sr = 1`, the format the family's GEMMs of this tile read too.
//!
//! Loop order: column groups outside, rows inside (a group's weights stay in L1 while every row
//! uses them), K in 32-value chunks. A chunk of a group is `4 x 4` vectors: 8-value block `b`,
//! then column register `c` holding columns `c x VL64 ..` as 8 bytes each. `LD1RD` replicates
//! the block's 8 activations into every 64-bit element, so a plain `SDOT` multiplies each
//! column's 8 bytes by them: 32-bit lane `2i` gets bytes 0..4 of column `i`, lane `2i + 1`
//! bytes 4..8. `UZP1`/`UZP2` + `ADD` fold the lane pairs after the K loop (integer sums: the
//! order does not change the result).

sve2_gemv_1x2vl! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 2 x VL32` and
    /// `kr = 8`. `2 x VL32` is twice the 32-bit lanes of an SVE vector.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE2.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl: int8, "matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod";
    k_loop [
        //   z0-z3   accumulators of blocks 0 and 2, column registers 0..3
        //   z4-z7   accumulators of blocks 1 and 3, column registers 0..3
        //           (two SDOTs each per chunk: latency never binds)
        //   z8-z11  LHS blocks 0..3 of the chunk, replicated per 64 bits
        //   z16-z31 RHS: z(16 + 4b + c) = block b, column register c
        "ld1rd {{z8.d}}, p0/z, [x9]",
        "ld1b {{z16.b}}, p0/z, [x10]",
        "ld1b {{z17.b}}, p0/z, [x10, #1, mul vl]",
        "ld1b {{z18.b}}, p0/z, [x10, #2, mul vl]",
        "ld1b {{z19.b}}, p0/z, [x10, #3, mul vl]",
        "ld1rd {{z9.d}}, p0/z, [x9, #8]",
        "ld1b {{z20.b}}, p0/z, [x10, #4, mul vl]",
        "ld1b {{z21.b}}, p0/z, [x10, #5, mul vl]",
        "ld1b {{z22.b}}, p0/z, [x10, #6, mul vl]",
        "ld1b {{z23.b}}, p0/z, [x10, #7, mul vl]",
        "addvl x10, x10, #16",
        "sdot z0.s, z16.b, z8.b",
        "sdot z1.s, z17.b, z8.b",
        "sdot z2.s, z18.b, z8.b",
        "sdot z3.s, z19.b, z8.b",
        "ld1rd {{z10.d}}, p0/z, [x9, #16]",
        "ld1b {{z24.b}}, p0/z, [x10, #-8, mul vl]",
        "ld1b {{z25.b}}, p0/z, [x10, #-7, mul vl]",
        "ld1b {{z26.b}}, p0/z, [x10, #-6, mul vl]",
        "ld1b {{z27.b}}, p0/z, [x10, #-5, mul vl]",
        "sdot z4.s, z20.b, z9.b",
        "sdot z5.s, z21.b, z9.b",
        "sdot z6.s, z22.b, z9.b",
        "sdot z7.s, z23.b, z9.b",
        "ld1rd {{z11.d}}, p0/z, [x9, #24]",
        "ld1b {{z28.b}}, p0/z, [x10, #-4, mul vl]",
        "ld1b {{z29.b}}, p0/z, [x10, #-3, mul vl]",
        "ld1b {{z30.b}}, p0/z, [x10, #-2, mul vl]",
        "ld1b {{z31.b}}, p0/z, [x10, #-1, mul vl]",
        "add x9, x9, #32",
        "sdot z0.s, z24.b, z10.b",
        "sdot z1.s, z25.b, z10.b",
        "sdot z2.s, z26.b, z10.b",
        "sdot z3.s, z27.b, z10.b",
        "subs x12, x12, #1",
        "sdot z4.s, z28.b, z11.b",
        "sdot z5.s, z29.b, z11.b",
        "sdot z6.s, z30.b, z11.b",
        "sdot z7.s, z31.b, z11.b",
    ]
}
