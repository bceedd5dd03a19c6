//! `kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod`: Q4_0 GEMV (1 row x 8 columns
//! per step) with SVE `SDOT` on 8-value blocks for 256-bit vectors, the whole m x n computation
//! in one `asm!` block.
//!
//! Like KleidiAI's, this kernel is written for 256-bit SVE only: a segment of the 8-column RHS
//! group (8 columns x 8 bytes) is two vectors, columns 0-3 and 4-7, each column in a pair of
//! adjacent 32-bit lanes. The family's `check` refuses other vector lengths before this function
//! runs.
//!
//! Loop order: column groups of 8 outside, rows inside, then the `k / bl` blocks, each in
//! 32-value sub-blocks (two segments). `LD1RD` replicates 8 activations into every 64-bit lane,
//! so one `SDOT` gives two partial sums per column; at the end of a block `UZP1`/`UZP2` + `ADD`
//! fold each pair (plain SVE has no `ADDP`) and leave the columns in order. Nibbles decode as
//! `byte << 4` and `byte & 0xf0` (16 x the value). As in the `1x4` SVE kernel, the block's scale
//! product is divided by 16 instead of the sum (exact, same bits as `SCVTF #4`).

sve_qsi8d32p_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 8` and
    /// `kr / sr = 8`.
    ///
    /// Each block adds `fma(f32(I), f32(wd) / 16 * f32(ld), acc)` (`SCVTF`, `FMUL`, `FMLA`; `I`
    /// from `16 x w`), which has the NEON kernels' bits (see the family notes).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE with 256-bit vectors.
    #[target_feature(enable = "sve")]
    fn matmul_f32_qsi8d32p1x8_qsi4c32p8x8_1x8: "matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod", lhs v(4 5 6 7);
    k_loop [
        //   z4-z7   activations: low half 16c..+8, +8..+16; high half the same (LD1RD)
        //   z0/z1   i32 lane-pair sums of columns 0-3 / 4-7 (low nibbles), z2/z3 (high nibbles)
        "ld1rd {{z4.d}}, p0/z, [x9]",
        "ld1rd {{z5.d}}, p0/z, [x9, #8]",
        "ld1rd {{z6.d}}, p0/z, [x16]",
        "ld1rd {{z7.d}}, p0/z, [x16, #8]",
        sve_qsi8d32p_gemv_rhs_step!(),
        // segment 2c: low nibbles x values 16c..+8, high x bl/2 + 16c..+8
        "sdot z0.s, z20.b, z4.b",
        "sdot z1.s, z21.b, z4.b",
        "sdot z2.s, z16.b, z6.b",
        "sdot z3.s, z17.b, z6.b",
        // segment 2c + 1: the next 8 values of each bl / 2
        "lsl z22.b, z18.b, #4",
        "lsl z23.b, z19.b, #4",
        "and z18.d, z18.d, z31.d",
        "and z19.d, z19.d, z31.d",
        "sdot z0.s, z22.b, z5.b",
        "sdot z1.s, z23.b, z5.b",
        "sdot z2.s, z18.b, z7.b",
        "sdot z3.s, z19.b, z7.b",
        "subs x12, x12, #1",
    ]
    block_end [
        "add z0.s, z0.s, z2.s",
        "add z1.s, z1.s, z3.s",
        "fcvt z24.s, p0/m, z24.h",
        "fcvt z25.s, p0/m, z25.h",
        "uzp1 z2.s, z0.s, z1.s", // first lane of each column's pair, columns 0..8
        "uzp2 z3.s, z0.s, z1.s", // second lane
        "fmul z25.s, z25.s, z30.s",
        "add z0.s, z2.s, z3.s",
        "fmul z27.s, z25.s, z24.s",
        "scvtf z0.s, p0/m, z0.s",
    ]
}
