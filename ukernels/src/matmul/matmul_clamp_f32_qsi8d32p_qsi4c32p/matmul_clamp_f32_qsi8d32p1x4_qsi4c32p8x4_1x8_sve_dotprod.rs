//! `kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod`: Q4_0 GEMV (1 row x 8 columns
//! per step) with SVE `SDOT` (indexed) for 256-bit vectors, the whole m x n computation in one
//! `asm!` block.
//!
//! Like KleidiAI's, this kernel is written for 256-bit SVE only: one vector holds a segment of
//! the 8-column RHS group (8 columns x 4 bytes, lane `j` = column `j`). The family's `check`
//! refuses other vector lengths before this function runs.
//!
//! Loop order: column groups of 8 outside, rows inside, then the `k / bl` blocks, each in
//! 32-value sub-blocks (four segments). `LD1RQB` replicates 16 activations into both 128-bit
//! halves, so `SDOT z, w, a.b[s]` multiplies segment `s` by activations `4s..4s+4` in every
//! lane. Nibbles decode as `byte << 4` and `byte & 0xf0` (16 x the value). SVE has no
//! fixed-point `SCVTF`: the block's scale product is divided by 16 instead of the sum
//! (`fma(I, wd * ld / 16, acc)`), which gives the bits of the NEON kernels' `fma(I / 16, wd * ld,
//! acc)`: `wd * ld` (two widened f16) and its sixteenth are exact in f32, so both fused
//! operations round the same exact product once.

sve_qsi8d32p_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 8` and
    /// `kr / sr = 4`.
    ///
    /// Each block adds `fma(f32(I), f32(wd) / 16 * f32(ld), acc)` (`SCVTF`, `FMUL`, `FMLA`; `I`
    /// from `16 x w`), which has the NEON kernels' bits (see the family notes).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE with 256-bit vectors.
    #[target_feature(enable = "sve")]
    fn matmul_f32_qsi8d32p1x4_qsi4c32p8x4_1x8: "matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod", lhs v(6 7);
    k_loop [
        //   z6/z7   activations 16c..16c+16 of the low / high half (LD1RQB)
        //   z0-z3   i32 sums (z0/z2: low nibbles, z1/z3: high; two chains)
        "ld1rqb {{z6.b}}, p0/z, [x9]",
        "ld1rqb {{z7.b}}, p0/z, [x16]",
        sve_qsi8d32p_gemv_rhs_step!(),
        "sdot z0.s, z20.b, z6.b[0]",
        "sdot z1.s, z16.b, z7.b[0]",
        "sdot z2.s, z21.b, z6.b[1]",
        "sdot z3.s, z17.b, z7.b[1]",
        "lsl z22.b, z18.b, #4",
        "lsl z23.b, z19.b, #4",
        "and z18.d, z18.d, z31.d",
        "and z19.d, z19.d, z31.d",
        "sdot z0.s, z22.b, z6.b[2]",
        "sdot z1.s, z18.b, z7.b[2]",
        "sdot z2.s, z23.b, z6.b[3]",
        "sdot z3.s, z19.b, z7.b[3]",
        "subs x12, x12, #1",
    ]
    block_end [
        "add z0.s, z0.s, z1.s",
        "add z2.s, z2.s, z3.s",
        "fcvt z24.s, p0/m, z24.h",
        "fcvt z25.s, p0/m, z25.h",
        "add z0.s, z0.s, z2.s",
        "fmul z25.s, z25.s, z30.s",
        "scvtf z0.s, p0/m, z0.s",
        "fmul z27.s, z25.s, z24.s",
    ]
}
