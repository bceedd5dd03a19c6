//! `rkai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod`: vector-length-agnostic
//! GEMV (1 row x 2 x VL32 columns per step) with SVE `SDOT`, the whole m x n computation in one
//! `asm!` block. Operands: a dynamically quantized int8 LHS (one row per group, K in order) and
//! a per-channel symmetric int4 RHS in KleidiAI's `qsi4cxp` format with `nr = 2 x VL32`,
//! `kr = 16`, `sr = 2` (8-byte blocks), the format the family's GEMMs of this tile read too.
//!
//! Loop order: column groups outside, rows inside (a group's weights stay in L1 while every row
//! uses them), K in 32-value chunks. A chunk of a group is `2 x 4` vectors: super-block `s`
//! (bytes `8s .. 8s + 8` of every column's 16-byte chunk), then column register `c` holding
//! columns `c x VL64 ..` as 8 bytes each. Each byte pairs K = `32c' + 8s + b` (low nibble) with
//! `+ 16` (high nibble); `lsl #4` and `and 0xf0` decode them as 16 x value, as the NEON kernels
//! do (the packer pre-scales sums and scales to match).
//!
//! `LD1RD` replicates 8 LHS bytes into every 64-bit element, so a plain `SDOT` multiplies each
//! column's 8 bytes by the matching 8 activations: 32-bit lane `2i` gets bytes 0..4 of column
//! `i`, lane `2i + 1` bytes 4..8. `UZP1`/`UZP2` + `ADD` fold the lane pairs after the K loop
//! (integer sums: the order does not change the result).

sve2_gemv_1x2vl! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 2 x VL32` (the
    /// 32-bit lanes of an SVE vector) and `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE2.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl: int4, "matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod";
    k_loop [
        //   z0-z3   accumulators of the low nibbles, column registers 0..3
        //   z4-z7   accumulators of the high nibbles, column registers 0..3
        //           (two SDOTs each per chunk: latency never binds)
        //   z8-z11  LHS K 0..8, 8..16, 16..24, 24..32 of the chunk, replicated per 64 bits
        //   z12     0xF0 in every byte
        //   z16-z23 RHS: super-block 0 (z16-z19) and 1 (z20-z23), shifted left by 4 in place
        //   z24-z31 byte & 0xF0 of z16-z23
        "ld1b {{z16.b}}, p0/z, [x10]",
        "ld1b {{z17.b}}, p0/z, [x10, #1, mul vl]",
        "ld1rd {{z8.d}}, p0/z, [x9]",
        "ld1b {{z18.b}}, p0/z, [x10, #2, mul vl]",
        "ld1b {{z19.b}}, p0/z, [x10, #3, mul vl]",
        "ld1rd {{z10.d}}, p0/z, [x9, #16]",
        "and z24.d, z16.d, z12.d",
        "lsl z16.b, z16.b, #4",
        "and z25.d, z17.d, z12.d",
        "lsl z17.b, z17.b, #4",
        "ld1b {{z20.b}}, p0/z, [x10, #4, mul vl]",
        "ld1b {{z21.b}}, p0/z, [x10, #5, mul vl]",
        "ld1rd {{z9.d}}, p0/z, [x9, #8]",
        "and z26.d, z18.d, z12.d",
        "lsl z18.b, z18.b, #4",
        "and z27.d, z19.d, z12.d",
        "lsl z19.b, z19.b, #4",
        "ld1b {{z22.b}}, p0/z, [x10, #6, mul vl]",
        "ld1b {{z23.b}}, p0/z, [x10, #7, mul vl]",
        "ld1rd {{z11.d}}, p0/z, [x9, #24]",
        // super-block 0: low nibbles x K 0..8, high nibbles x K 16..24
        "sdot z0.s, z16.b, z8.b",
        "sdot z1.s, z17.b, z8.b",
        "sdot z2.s, z18.b, z8.b",
        "sdot z3.s, z19.b, z8.b",
        "and z28.d, z20.d, z12.d",
        "lsl z20.b, z20.b, #4",
        "and z29.d, z21.d, z12.d",
        "lsl z21.b, z21.b, #4",
        "sdot z4.s, z24.b, z10.b",
        "sdot z5.s, z25.b, z10.b",
        "sdot z6.s, z26.b, z10.b",
        "sdot z7.s, z27.b, z10.b",
        "and z30.d, z22.d, z12.d",
        "lsl z22.b, z22.b, #4",
        "and z31.d, z23.d, z12.d",
        "lsl z23.b, z23.b, #4",
        // super-block 1: low nibbles x K 8..16, high nibbles x K 24..32
        "sdot z0.s, z20.b, z9.b",
        "sdot z1.s, z21.b, z9.b",
        "sdot z2.s, z22.b, z9.b",
        "sdot z3.s, z23.b, z9.b",
        "add x9, x9, #32",
        "sdot z4.s, z28.b, z11.b",
        "sdot z5.s, z29.b, z11.b",
        "addvl x10, x10, #8",
        "sdot z6.s, z30.b, z11.b",
        "sdot z7.s, z31.b, z11.b",
        "subs x12, x12, #1",
    ]
}
