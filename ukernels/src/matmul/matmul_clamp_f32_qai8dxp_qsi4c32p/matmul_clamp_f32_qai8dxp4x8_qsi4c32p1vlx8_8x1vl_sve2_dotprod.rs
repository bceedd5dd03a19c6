//! `rkai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod` (rkai extension): GEMM
//! (8 rows x VL32 columns per step) with SVE `SDOT` on z registers, for SVE2 CPUs without
//! FEAT_I8MM; vector-length agnostic, groupwise int4 weights with one bf16 scale per `bl` K
//! values, the whole m x n computation in one `asm!` block.
//!
//! Packed formats: the LHS of `lhs_quant_pack_qai8dxp_f32` with mr 4, kr 16, sr 2 (4 rows x
//! 8-deep blocks); the RHS of the family's packers with nr = VL32, kr 16, sr 2, the format of the
//! `1x2vl` SVE2 GEMV and the `8x1vl` SMMLA GEMM. Vector 0 of a segment holds columns `[0, h)` and
//! vector 1 columns `[h, 2h)` (h = VL32 / 2), 8 bytes each; an `SDOT` with one LHS row's 8-byte
//! slice replicated into every doubleword (`LD1RD`) leaves each column's sum in a pair of adjacent
//! 32-bit lanes.
//!
//! Register blocking: 8 rows (two LHS groups) x one RHS group of VL32 columns. Every decoded RHS
//! vector feeds 8 rows (64 `SDOT` per 8 decode operations per 32-deep chunk); the rows need 16
//! int32 accumulators (a lane pair per column) and 8 f32 accumulators, so all 32 z registers are
//! in use (`z8`..`z15` among them: the compiler preserves `d8`..`d15`).
//!
//! * `z0`..`z15` — int32 block sums: `z(2r)` columns `[0, h)`, `z(2r + 1)` columns `[h, 2h)` of
//!   row `r`.
//! * `z16`..`z23` — f32 accumulators of rows 0..8, in `ADDP` order (below).
//! * `z24`/`z25` — one segment of RHS, high nibbles masked in place (16 x the value);
//!   `z26`/`z27` — its low nibbles shifted up; `z28`/`z29` — LHS slices; `z30` — 1/16;
//!   `z31` — the 0xF0 mask.
//!
//! Per block, SVE2's `ADDP` folds each column's lane pair and interleaves a row's two vectors:
//! lane `2i` gets column `i`, lane `2i + 1` column `h + i`. The f32 accumulators keep that order
//! over all blocks (the block scales are loaded in the same order with two half-vector loads and
//! a `ZIP1`), and one `EXT` + `UZP1` per row restores column order in the final epilogue, which
//! then adds `rsum * lhs_offset` (fused), multiplies by the LHS scale, adds the bias and clamps.

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
    /// The [family contract](super#safety); the CPU must implement SVE2.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_dotprod: "matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod";
    setup [
        "lsr x26, x24, #1",
        "whilelt p2.s, xzr, x26",
        "movz w25, #0x3d80, lsl #16", // 1/16
        "dup z30.s, w25",
        "dup z31.b, #-16",            // 0xF0
    ]
    tile_start [
        zero_z!("16", "17", "18", "19", "20", "21", "22", "23"),
    ]
    block_start [
        zero_z!(
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14",
            "15"),
    ]
    k_loop [
        "ld1b {{z24.b}}, p0/z, [x21, #0, mul vl]", // segment 0, columns [0, h)
        "ld1b {{z25.b}}, p0/z, [x21, #1, mul vl]", // segment 0, columns [h, 2h)
        "lsl z26.b, z24.b, #4",
        "lsl z27.b, z25.b, #4",
        "and z24.d, z24.d, z31.d",
        "and z25.d, z25.d, z31.d",
        // rows x (low nibbles x LHS slice 0, high nibbles x LHS slice 2)
        "ld1rd {{z28.d}}, p0/z, [x17, #0]",
        "ld1rd {{z29.d}}, p0/z, [x17, #64]",
        "sdot z0.s, z26.b, z28.b",
        "sdot z1.s, z27.b, z28.b",
        "sdot z0.s, z24.b, z29.b",
        "sdot z1.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #8]",
        "ld1rd {{z29.d}}, p0/z, [x17, #72]",
        "sdot z2.s, z26.b, z28.b",
        "sdot z3.s, z27.b, z28.b",
        "sdot z2.s, z24.b, z29.b",
        "sdot z3.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #16]",
        "ld1rd {{z29.d}}, p0/z, [x17, #80]",
        "sdot z4.s, z26.b, z28.b",
        "sdot z5.s, z27.b, z28.b",
        "sdot z4.s, z24.b, z29.b",
        "sdot z5.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #24]",
        "ld1rd {{z29.d}}, p0/z, [x17, #88]",
        "sdot z6.s, z26.b, z28.b",
        "sdot z7.s, z27.b, z28.b",
        "sdot z6.s, z24.b, z29.b",
        "sdot z7.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #0]",
        "ld1rd {{z29.d}}, p0/z, [x20, #64]",
        "sdot z8.s, z26.b, z28.b",
        "sdot z9.s, z27.b, z28.b",
        "sdot z8.s, z24.b, z29.b",
        "sdot z9.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #8]",
        "ld1rd {{z29.d}}, p0/z, [x20, #72]",
        "sdot z10.s, z26.b, z28.b",
        "sdot z11.s, z27.b, z28.b",
        "sdot z10.s, z24.b, z29.b",
        "sdot z11.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #16]",
        "ld1rd {{z29.d}}, p0/z, [x20, #80]",
        "sdot z12.s, z26.b, z28.b",
        "sdot z13.s, z27.b, z28.b",
        "sdot z12.s, z24.b, z29.b",
        "sdot z13.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #24]",
        "ld1rd {{z29.d}}, p0/z, [x20, #88]",
        "sdot z14.s, z26.b, z28.b",
        "sdot z15.s, z27.b, z28.b",
        "sdot z14.s, z24.b, z29.b",
        "sdot z15.s, z25.b, z29.b",
        "ld1b {{z24.b}}, p0/z, [x21, #2, mul vl]", // segment 1, columns [0, h)
        "ld1b {{z25.b}}, p0/z, [x21, #3, mul vl]", // segment 1, columns [h, 2h)
        "lsl z26.b, z24.b, #4",
        "lsl z27.b, z25.b, #4",
        "and z24.d, z24.d, z31.d",
        "and z25.d, z25.d, z31.d",
        // rows x (low nibbles x LHS slice 1, high nibbles x LHS slice 3)
        "ld1rd {{z28.d}}, p0/z, [x17, #32]",
        "ld1rd {{z29.d}}, p0/z, [x17, #96]",
        "sdot z0.s, z26.b, z28.b",
        "sdot z1.s, z27.b, z28.b",
        "sdot z0.s, z24.b, z29.b",
        "sdot z1.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #40]",
        "ld1rd {{z29.d}}, p0/z, [x17, #104]",
        "sdot z2.s, z26.b, z28.b",
        "sdot z3.s, z27.b, z28.b",
        "sdot z2.s, z24.b, z29.b",
        "sdot z3.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #48]",
        "ld1rd {{z29.d}}, p0/z, [x17, #112]",
        "sdot z4.s, z26.b, z28.b",
        "sdot z5.s, z27.b, z28.b",
        "sdot z4.s, z24.b, z29.b",
        "sdot z5.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x17, #56]",
        "ld1rd {{z29.d}}, p0/z, [x17, #120]",
        "sdot z6.s, z26.b, z28.b",
        "sdot z7.s, z27.b, z28.b",
        "sdot z6.s, z24.b, z29.b",
        "sdot z7.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #32]",
        "ld1rd {{z29.d}}, p0/z, [x20, #96]",
        "sdot z8.s, z26.b, z28.b",
        "sdot z9.s, z27.b, z28.b",
        "sdot z8.s, z24.b, z29.b",
        "sdot z9.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #40]",
        "ld1rd {{z29.d}}, p0/z, [x20, #104]",
        "sdot z10.s, z26.b, z28.b",
        "sdot z11.s, z27.b, z28.b",
        "sdot z10.s, z24.b, z29.b",
        "sdot z11.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #48]",
        "ld1rd {{z29.d}}, p0/z, [x20, #112]",
        "sdot z12.s, z26.b, z28.b",
        "sdot z13.s, z27.b, z28.b",
        "sdot z12.s, z24.b, z29.b",
        "sdot z13.s, z25.b, z29.b",
        "ld1rd {{z28.d}}, p0/z, [x20, #56]",
        "ld1rd {{z29.d}}, p0/z, [x20, #120]",
        "sdot z14.s, z26.b, z28.b",
        "sdot z15.s, z27.b, z28.b",
        "sdot z14.s, z24.b, z29.b",
        "sdot z15.s, z25.b, z29.b",
    ]
    block_end [
        // Scales in ADDP order: [d0, d_h, d1, d_h+1, ...], widened, divided by 16.
        "ld1h {{z24.s}}, p2/z, [x21]",
        "ld1h {{z25.s}}, p2/z, [x21, x26, lsl #1]",
        "addpl x21, x21, #4",             // + VL32 * 2 bytes
        "zip1 z24.s, z24.s, z25.s",
        "lsl z24.s, z24.s, #16",
        "fmul z24.s, z24.s, z30.s",
        "addp z0.s, p0/m, z0.s, z1.s",
        "addp z2.s, p0/m, z2.s, z3.s",
        "addp z4.s, p0/m, z4.s, z5.s",
        "addp z6.s, p0/m, z6.s, z7.s",
        "addp z8.s, p0/m, z8.s, z9.s",
        "addp z10.s, p0/m, z10.s, z11.s",
        "addp z12.s, p0/m, z12.s, z13.s",
        "addp z14.s, p0/m, z14.s, z15.s",
        "scvtf z0.s, p0/m, z0.s",
        "scvtf z2.s, p0/m, z2.s",
        "scvtf z4.s, p0/m, z4.s",
        "scvtf z6.s, p0/m, z6.s",
        "scvtf z8.s, p0/m, z8.s",
        "scvtf z10.s, p0/m, z10.s",
        "scvtf z12.s, p0/m, z12.s",
        "scvtf z14.s, p0/m, z14.s",
        "fmla z16.s, p0/m, z0.s, z24.s",
        "fmla z17.s, p0/m, z2.s, z24.s",
        "fmla z18.s, p0/m, z4.s, z24.s",
        "fmla z19.s, p0/m, z6.s, z24.s",
        "fmla z20.s, p0/m, z8.s, z24.s",
        "fmla z21.s, p0/m, z10.s, z24.s",
        "fmla z22.s, p0/m, z12.s, z24.s",
        "fmla z23.s, p0/m, z14.s, z24.s",
    ]
    unpack_before [
        // Column order again: [even lanes, odd lanes] = UZP1(P, P rotated by one lane).
        "movprfx z8, z16",
        "ext z8.b, z8.b, z16.b, #4",
        "uzp1 z16.s, z16.s, z8.s",
        "movprfx z9, z17",
        "ext z9.b, z9.b, z17.b, #4",
        "uzp1 z17.s, z17.s, z9.s",
        "movprfx z10, z18",
        "ext z10.b, z10.b, z18.b, #4",
        "uzp1 z18.s, z18.s, z10.s",
        "movprfx z11, z19",
        "ext z11.b, z11.b, z19.b, #4",
        "uzp1 z19.s, z19.s, z11.s",
        "movprfx z12, z20",
        "ext z12.b, z12.b, z20.b, #4",
        "uzp1 z20.s, z20.s, z12.s",
        "movprfx z13, z21",
        "ext z13.b, z13.b, z21.b, #4",
        "uzp1 z21.s, z21.s, z13.s",
        "movprfx z14, z22",
        "ext z14.b, z14.b, z22.b, #4",
        "uzp1 z22.s, z22.s, z14.s",
        "movprfx z15, z23",
        "ext z15.b, z15.b, z23.b, #4",
        "uzp1 z23.s, z23.s, z15.s",
    ]
    unpack_after []
    clobber x(12 13 14 15 16 17 20 21 22 23 24 25 26) v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 1 2)
}
