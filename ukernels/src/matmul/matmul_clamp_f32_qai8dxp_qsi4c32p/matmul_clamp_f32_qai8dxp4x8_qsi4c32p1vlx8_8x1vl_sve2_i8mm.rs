//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm` (rkai extension): GEMM
//! (8 rows x VL32 columns per step) with `SMMLA` on SVE z registers, vector-length agnostic,
//! groupwise int4 weights with one bf16 scale per `bl` K values, the whole m x n computation in
//! one `asm!` block.
//!
//! Packed formats: the LHS of `lhs_quant_pack_qai8dxp_f32` with mr 4, kr 16, sr 2 (4 rows x
//! 8-deep blocks); the RHS of the family's packers with nr = VL32, kr 16, sr 2, the format of the
//! `1x2vl` SVE2 GEMV. Every 128-bit segment of an RHS vector holds two columns x 8 bytes, which
//! is `SMMLA`'s right operand as stored; an LHS row pair of one 8-deep K slice, replicated into
//! every segment with `LD1RQB`, is its left operand.
//!
//! Register blocking: 8 rows (two LHS groups) x one RHS group of VL32 columns, the NEON 16x4
//! loop's 8-row pass widened to the vector: 8 int32 block accumulators, 8 f32 accumulators,
//! 4 decoded RHS vectors, 3 LHS operands, the nibble mask and the 1/16 constant. More rows would
//! need more accumulators than the 32 z registers hold (16 rows: 16 + 16 accumulators).
//!
//! * `z16`..`z23` — int32 accumulators of the current block: `z(16 + 2p + v)` holds row pair `p`
//!   (0, 1: group A rows {0,1}, {2,3}; 2, 3: group B rows {0,1}, {2,3}) x column half `v`
//!   (columns `[0, h)` / `[h, 2h)`, h = VL32 / 2), each segment as `[r0c0, r0c1, r1c0, r1c1]`.
//! * `z24`..`z31` — f32 accumulators over the blocks, same layout.
//! * `z0`..`z3` — one segment of RHS: 16 x low nibbles (`lsl #4`) and 16 x high nibbles
//!   (`and 0xF0`) of the two column halves.
//! * `z4`..`z6` — LHS operands, streamed; `z7` — the 0xF0 mask; `z8` — 1/16.
//!
//! After the chunks of a block, the int32 sums are converted with `SCVTF` and fused into the f32
//! accumulators with the block's scales divided by 16 (exact, see the function's documentation),
//! arranged as `[d0, d1, d0, d1]`, `[d2, d3, d2, d3]`, ... by `ZIP1` / `ZIP2` on doublewords.
//! The final epilogue un-interleaves the row pairs with `UZP1` / `UZP2` on doublewords, then adds
//! `rsum * lhs_offset` (fused), multiplies by the LHS scale, adds the bias and clamps; stores are
//! predicated to the columns left.

sve2_8x1vl_gemm! {
    /// The family's [contract](super#safety) with `mr = 4`, `nr = VL32` (the 32-bit lanes of an SVE
    /// vector) and `kr / sr = 8`.
    ///
    /// No fixed-point `SCVTF` in SVE: each block adds `fma(I, d / 16, acc)`, which equals the NEON
    /// kernels' `fma(I / 16, d, acc)` bit for bit (`d` is a widened bf16 with 8 significant bits,
    /// so `d / 16` is exact even when subnormal, and both round the same exact product once).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement SVE2 and `FEAT_I8MM`.
    #[target_feature(enable = "sve2,i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl: "matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm";
    setup [
        "movz w25, #0x3d80, lsl #16", // 1/16
        "dup z8.s, w25",
    ]
    tile_start [
        "dup z7.b, #-16",                 // 0xF0
        zero_z!("24", "25", "26", "27", "28", "29", "30", "31"),
    ]
    block_start [
        zero_z!("16", "17", "18", "19", "20", "21", "22", "23"),
    ]
    k_loop [
        "ld1b {{z0.b}}, p0/z, [x21]",             // segment 0, columns [0, h)
        "ld1b {{z1.b}}, p0/z, [x21, #1, mul vl]", // segment 0, columns [h, 2h)
        "lsl z2.b, z0.b, #4",
        "lsl z3.b, z1.b, #4",
        "and z0.d, z0.d, z7.d",
        "and z1.d, z1.d, z7.d",
        // K slice 32c + [0, 8): LHS slice 0 x low nibbles of segment 0.
        "ld1rqb {{z4.b}}, p0/z, [x17]",
        "smmla z16.s, z4.b, z2.b",
        "smmla z17.s, z4.b, z3.b",
        "ld1rqb {{z5.b}}, p0/z, [x17, #16]",
        "smmla z18.s, z5.b, z2.b",
        "smmla z19.s, z5.b, z3.b",
        "ld1rqb {{z6.b}}, p0/z, [x20]",
        "smmla z20.s, z6.b, z2.b",
        "smmla z21.s, z6.b, z3.b",
        "ld1rqb {{z4.b}}, p0/z, [x20, #16]",
        "smmla z22.s, z4.b, z2.b",
        "smmla z23.s, z4.b, z3.b",
        // K slice 32c + [16, 24): LHS slice 2 x high nibbles of segment 0.
        "ld1rqb {{z5.b}}, p0/z, [x17, #64]",
        "smmla z16.s, z5.b, z0.b",
        "smmla z17.s, z5.b, z1.b",
        "ld1rqb {{z6.b}}, p0/z, [x17, #80]",
        "smmla z18.s, z6.b, z0.b",
        "smmla z19.s, z6.b, z1.b",
        "ld1rqb {{z4.b}}, p0/z, [x20, #64]",
        "smmla z20.s, z4.b, z0.b",
        "smmla z21.s, z4.b, z1.b",
        "ld1rqb {{z5.b}}, p0/z, [x20, #80]",
        "smmla z22.s, z5.b, z0.b",
        "smmla z23.s, z5.b, z1.b",
        "ld1b {{z0.b}}, p0/z, [x21, #2, mul vl]", // segment 1, columns [0, h)
        "ld1b {{z1.b}}, p0/z, [x21, #3, mul vl]", // segment 1, columns [h, 2h)
        "lsl z2.b, z0.b, #4",
        "lsl z3.b, z1.b, #4",
        "and z0.d, z0.d, z7.d",
        "and z1.d, z1.d, z7.d",
        // K slice 32c + [8, 16): LHS slice 1 x low nibbles of segment 1.
        "ld1rqb {{z6.b}}, p0/z, [x17, #32]",
        "smmla z16.s, z6.b, z2.b",
        "smmla z17.s, z6.b, z3.b",
        "ld1rqb {{z4.b}}, p0/z, [x17, #48]",
        "smmla z18.s, z4.b, z2.b",
        "smmla z19.s, z4.b, z3.b",
        "ld1rqb {{z5.b}}, p0/z, [x20, #32]",
        "smmla z20.s, z5.b, z2.b",
        "smmla z21.s, z5.b, z3.b",
        "ld1rqb {{z6.b}}, p0/z, [x20, #48]",
        "smmla z22.s, z6.b, z2.b",
        "smmla z23.s, z6.b, z3.b",
        // K slice 32c + [24, 32): LHS slice 3 x high nibbles of segment 1.
        "ld1rqb {{z4.b}}, p0/z, [x17, #96]",
        "smmla z16.s, z4.b, z0.b",
        "smmla z17.s, z4.b, z1.b",
        "ld1rqb {{z5.b}}, p0/z, [x17, #112]",
        "smmla z18.s, z5.b, z0.b",
        "smmla z19.s, z5.b, z1.b",
        "ld1rqb {{z6.b}}, p0/z, [x20, #96]",
        "smmla z20.s, z6.b, z0.b",
        "smmla z21.s, z6.b, z1.b",
        "ld1rqb {{z4.b}}, p0/z, [x20, #112]",
        "smmla z22.s, z4.b, z0.b",
        "smmla z23.s, z4.b, z1.b",
    ]
    block_end [
        "ld1h {{z0.s}}, p0/z, [x21]",     // VL32 scales, zero-extended to 32 bits
        "addpl x21, x21, #4",             // + VL32 * 2 bytes
        "lsl z0.s, z0.s, #16",            // f32 [d0, d1, d2, ...]
        "fmul z0.s, z0.s, z8.s",
        "zip1 z1.d, z0.d, z0.d",          // [d0, d1, d0, d1], [d2, d3, d2, d3], ...
        "zip2 z2.d, z0.d, z0.d",          // the same for columns [h, 2h)
        "scvtf z16.s, p0/m, z16.s",
        "scvtf z17.s, p0/m, z17.s",
        "scvtf z18.s, p0/m, z18.s",
        "scvtf z19.s, p0/m, z19.s",
        "scvtf z20.s, p0/m, z20.s",
        "scvtf z21.s, p0/m, z21.s",
        "scvtf z22.s, p0/m, z22.s",
        "scvtf z23.s, p0/m, z23.s",
        "fmla z24.s, p0/m, z16.s, z1.s",
        "fmla z25.s, p0/m, z17.s, z2.s",
        "fmla z26.s, p0/m, z18.s, z1.s",
        "fmla z27.s, p0/m, z19.s, z2.s",
        "fmla z28.s, p0/m, z20.s, z1.s",
        "fmla z29.s, p0/m, z21.s, z2.s",
        "fmla z30.s, p0/m, z22.s, z1.s",
        "fmla z31.s, p0/m, z23.s, z2.s",
    ]
    unpack_before []
    unpack_after [
        // Un-interleave: tile row r -> z(16 + r).
        "uzp1 z16.d, z24.d, z25.d",
        "uzp2 z17.d, z24.d, z25.d",
        "uzp1 z18.d, z26.d, z27.d",
        "uzp2 z19.d, z26.d, z27.d",
        "uzp1 z20.d, z28.d, z29.d",
        "uzp2 z21.d, z28.d, z29.d",
        "uzp1 z22.d, z30.d, z31.d",
        "uzp2 z23.d, z30.d, z31.d",
    ]
    clobber x(12 13 14 15 16 17 20 21 22 23 24 25) v(0 1 2 3 4 5 6 7 8 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 1)
}
