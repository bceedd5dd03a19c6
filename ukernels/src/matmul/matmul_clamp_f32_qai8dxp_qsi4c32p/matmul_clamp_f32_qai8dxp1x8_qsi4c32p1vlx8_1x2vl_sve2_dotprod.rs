//! `rkai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod` (rkai extension): GEMV
//! (1 row x 2 VL32 columns per step) with SVE `SDOT` on z registers, vector-length agnostic,
//! groupwise int4 weights with one bf16 scale per `bl` K values, the whole m x n computation in
//! one `asm!` block.
//!
//! Packed formats: the LHS of `lhs_quant_pack_qai8dxp_f32` with mr 1, kr 16, sr 2; the RHS of the
//! family's packers with nr = VL32 (32-bit lanes per vector, `CNTW`), kr 16, sr 2: column groups
//! of VL32 columns in 8-byte blocks. A 32-value K chunk of a group is two segments of VL32 x 8
//! bytes, four vectors; vector 0 of a segment holds columns `[0, h)` and vector 1 columns
//! `[h, 2h)` (h = VL32 / 2), so an `SDOT` leaves each column's sum in a pair of adjacent 32-bit
//! lanes.
//!
//! Loop order: pairs of column groups outside (both groups stream their weights through the same
//! K loop and share the activation loads; when one group is left the second one re-reads it and
//! stores nothing), rows inside, then the `nb = k / bl` blocks, then K in chunks of 32 values.
//!
//! Per block, SVE2's `ADDP` folds each column's lane pair and interleaves the two vectors of a
//! group: lane `2i` gets column `i`, lane `2i + 1` column `h + i`. The f32 accumulators stay in
//! that order for the whole row (the block scales are loaded in the same order with two
//! half-vector loads and a `ZIP1`), and one `EXT` + `UZP1` restores column order before the row
//! epilogue. SVE has no fixed-point `SCVTF`: the scales are divided by 16 instead of the sums,
//! which gives the same bits (see the function's documentation).

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

asm_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = VL32` (the 32-bit lanes of an SVE
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
    blockwise fn matmul_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, chunks, _, group_bytes_per_column) = qai8dxp_blockwise(m, n, k, bl, 1);

        // Register map
        //   x0  m (rows)                      x8  rows left
        //   x1  columns left                  x9  LHS pointer (walks the rows)
        //   x2  blocks per row (nb)           x10 RHS pointer, first group of the pair
        //   x3  lhs_packed                    x11 RHS pointer, second group of the pair
        //   x4  first group of the pair       x12 K chunks left in the block
        //   x5  dst of the pair's columns     x13 dst pointer of the current row
        //   x6  dst_stride_row                x14 group stride (bytes)
        //   x7  32-value K chunks per block   x15 blocks left
        //   w16 clamp_min bits                w17 clamp_max bits
        //   x20 VL32                          x21 h = VL32 / 2
        //   x22 scratch                       x23 second group of the pair (or the first again)
        //   p0  all lanes   p2 lanes < h   p3 / p4 columns of the first / second group to store
        //
        //   z0/z1   int32 sums of the first group's columns [0, h) / [h, 2h), a lane pair per
        //           column; z2/z3 the same for the second group
        //   z4/z5   f32 accumulators of the two groups (ADDP order over the row, see the module)
        //   z6/z7   clamp_min / clamp_max in every lane
        //   z16-z23 RHS bytes of one chunk (4 vectors per group), high nibbles masked in place;
        //           scale and trailer temporaries in the epilogues
        //   z24-z27 LHS 8-byte slices lq[0..8], [8..16], [16..24], [24..32], each replicated
        //   z28/z29 16 x low nibbles of a segment
        //   z30     1/16 in every lane       z31 0xF0 in every byte
        //
        // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover exactly the
        // bytes this block reads (m LHS rows of k + 8 bytes; ceil(n / VL32) RHS groups, the second
        // group of a pair being the first again when it does not exist), that dst rows are writable
        // for 4 * n bytes, and that the CPU implements SVE2 (also required by this function's
        // `target_feature`). Stores are predicated to the n columns, loads stay inside the groups.
        // Only the declared registers are touched and the stack is not used.
        unsafe {
            kernel_asm!(
                "ptrue p0.b",
                "cntw x20",
                "mul x14, x14, x20",
                "lsr x21, x20, #1",
                "whilelt p2.s, xzr, x21",
                "dup z31.b, #-16",
                "movz w22, #0x3d80, lsl #16", // 1/16
                "dup z30.s, w22",
                "dup z6.s, w16",
                "dup z7.s, w17",
                // ---- loop over pairs of column groups ----
                "2:",
                "mov x8, x0",
                "mov x9, x3",
                "mov x13, x5",
                "add x23, x4, x14",
                "cmp x1, x20",
                "csel x23, x23, x4, gt", // one group left: the second re-reads the first
                "whilelt p3.s, xzr, x1",
                "whilelt p4.s, x20, x1",
                // ---- loop over rows ----
                "3:",
                "mov x10, x4",
                "mov x11, x23",
                "mov x15, x2",
                zero_z!("4", "5", "0", "1", "2", "3"),
                // ---- loop over blocks of bl K values ----
                "4:",
                "mov x12, x7",
                // ---- K loop: 32 K values x 2 groups per iteration ----
                "5:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod",
                "ld1rd {{z24.d}}, p0/z, [x9]",
                "ld1rd {{z25.d}}, p0/z, [x9, #8]",
                "ld1rd {{z26.d}}, p0/z, [x9, #16]",
                "ld1rd {{z27.d}}, p0/z, [x9, #24]",
                "add x9, x9, #32",
                "ld1b {{z16.b}}, p0/z, [x10]",
                "ld1b {{z17.b}}, p0/z, [x10, #1, mul vl]",
                "ld1b {{z18.b}}, p0/z, [x10, #2, mul vl]",
                "ld1b {{z19.b}}, p0/z, [x10, #3, mul vl]",
                "ld1b {{z20.b}}, p0/z, [x11]",
                "ld1b {{z21.b}}, p0/z, [x11, #1, mul vl]",
                "ld1b {{z22.b}}, p0/z, [x11, #2, mul vl]",
                "ld1b {{z23.b}}, p0/z, [x11, #3, mul vl]",
                "addvl x10, x10, #4",
                "addvl x11, x11, #4",
                // first group, segment 0: low nibbles x lq[0..8], high x lq[16..24]
                "lsl z28.b, z16.b, #4",
                "lsl z29.b, z17.b, #4",
                "and z16.d, z16.d, z31.d",
                "and z17.d, z17.d, z31.d",
                "sdot z0.s, z28.b, z24.b",
                "sdot z1.s, z29.b, z24.b",
                "sdot z0.s, z16.b, z26.b",
                "sdot z1.s, z17.b, z26.b",
                // first group, segment 1: low nibbles x lq[8..16], high x lq[24..32]
                "lsl z28.b, z18.b, #4",
                "lsl z29.b, z19.b, #4",
                "and z18.d, z18.d, z31.d",
                "and z19.d, z19.d, z31.d",
                "sdot z0.s, z28.b, z25.b",
                "sdot z1.s, z29.b, z25.b",
                "sdot z0.s, z18.b, z27.b",
                "sdot z1.s, z19.b, z27.b",
                // second group, segment 0
                "lsl z28.b, z20.b, #4",
                "lsl z29.b, z21.b, #4",
                "and z20.d, z20.d, z31.d",
                "and z21.d, z21.d, z31.d",
                "sdot z2.s, z28.b, z24.b",
                "sdot z3.s, z29.b, z24.b",
                "sdot z2.s, z20.b, z26.b",
                "sdot z3.s, z21.b, z26.b",
                // second group, segment 1
                "lsl z28.b, z22.b, #4",
                "lsl z29.b, z23.b, #4",
                "and z22.d, z22.d, z31.d",
                "and z23.d, z23.d, z31.d",
                "sdot z2.s, z28.b, z25.b",
                "sdot z3.s, z29.b, z25.b",
                "sdot z2.s, z22.b, z27.b",
                "sdot z3.s, z23.b, z27.b",
                "subs x12, x12, #1",
                "b.ne 5b",
                "// LLVM-MCA-END",
                // ---- block epilogue: x10 / x11 -> the block's VL32 bf16 scales ----
                // Scales in ADDP order: [d0, d_h, d1, d_h+1, ...], widened, divided by 16.
                "ld1h {{z16.s}}, p2/z, [x10]",
                "ld1h {{z17.s}}, p2/z, [x10, x21, lsl #1]",
                "ld1h {{z18.s}}, p2/z, [x11]",
                "ld1h {{z19.s}}, p2/z, [x11, x21, lsl #1]",
                "addpl x10, x10, #4",
                "addpl x11, x11, #4",
                "addp z0.s, p0/m, z0.s, z1.s",
                "addp z2.s, p0/m, z2.s, z3.s",
                "zip1 z16.s, z16.s, z17.s",
                "zip1 z18.s, z18.s, z19.s",
                "scvtf z0.s, p0/m, z0.s",
                "scvtf z2.s, p0/m, z2.s",
                "lsl z16.s, z16.s, #16",
                "lsl z18.s, z18.s, #16",
                "fmul z16.s, z16.s, z30.s",
                "fmul z18.s, z18.s, z30.s",
                "fmla z4.s, p0/m, z0.s, z16.s",
                "fmla z5.s, p0/m, z2.s, z18.s",
                zero_z!("0", "1", "2", "3"),
                "subs x15, x15, #1",
                "b.ne 4b",
                // ---- row epilogue: x9 -> lhs_offset, x10 / x11 -> rsum, then bias ----
                // Column order again: [even lanes, odd lanes] = UZP1(P, P rotated by one lane).
                "movprfx z16, z4",
                "ext z16.b, z16.b, z4.b, #4",
                "uzp1 z4.s, z4.s, z16.s",
                "movprfx z17, z5",
                "ext z17.b, z17.b, z5.b, #4",
                "uzp1 z5.s, z5.s, z17.s",
                "ld1rw {{z24.s}}, p0/z, [x9]",
                "ld1rw {{z25.s}}, p0/z, [x9, #4]",
                "add x9, x9, #8",
                "ld1w {{z16.s}}, p0/z, [x10]",
                "ld1w {{z17.s}}, p0/z, [x10, #1, mul vl]",
                "ld1w {{z18.s}}, p0/z, [x11]",
                "ld1w {{z19.s}}, p0/z, [x11, #1, mul vl]",
                "scvtf z24.s, p0/m, z24.s",
                "fmla z4.s, p0/m, z16.s, z24.s",
                "fmla z5.s, p0/m, z18.s, z24.s",
                "fmul z4.s, z4.s, z25.s",
                "fmul z5.s, z5.s, z25.s",
                "fadd z4.s, z4.s, z17.s",
                "fadd z5.s, z5.s, z19.s",
                "fmax z4.s, p0/m, z4.s, z6.s",
                "fmax z5.s, p0/m, z5.s, z6.s",
                "fmin z4.s, p0/m, z4.s, z7.s",
                "fmin z5.s, p0/m, z5.s, z7.s",
                "st1w {{z4.s}}, p3, [x13]",
                "st1w {{z5.s}}, p4, [x13, #1, mul vl]",
                "add x13, x13, x6",
                "subs x8, x8, #1",
                "b.ne 3b",
                // ---- next pair of column groups ----
                "add x4, x4, x14, lsl #1",
                "addvl x5, x5, #2",
                "subs x1, x1, x20, lsl #1",
                "b.gt 2b";
                gemv(m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row);
                in("x7") chunks,
                inout("x14") group_bytes_per_column => _,
                in("x16") clamp_min.to_bits() as usize,
                in("x17") clamp_max.to_bits() as usize,
                clobber x(8 9 10 11 12 13 15 20 21 22 23)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 2 3 4),
            );
        }
    }
}
