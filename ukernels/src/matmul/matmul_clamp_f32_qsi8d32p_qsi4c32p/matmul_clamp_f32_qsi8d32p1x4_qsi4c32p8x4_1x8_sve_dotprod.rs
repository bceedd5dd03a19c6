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

use crate::matmul::kernel_geometry::qsi8d32p_blockwise;

asm_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands (`nb = k / bl` blocks):
    ///
    /// ```text
    /// acc = 0.0
    /// for b < nb:
    ///     I   = sum_{kk in block b} lq[i][kk] * (16 * w[j][kk])      (i32)
    ///     acc = fma(f32(I), f32(wd[j][b]) / 16 * f32(ld[i][b]), acc)  (SCVTF, FMUL, FMLA)
    /// dst[i][j] = min(max(acc, clamp_min), clamp_max)                 (FMAX, FMIN)
    /// ```
    ///
    /// LHS layout (one row per `nb * (bl + 2)` bytes): per block, `ld: f16` then the `bl` int8
    /// values in K order.
    ///
    /// RHS layout (one group of 8 columns per `8 * nb * (bl / 2 + 2)` bytes): per block, the 8
    /// columns' `wd: f16`, then `bl / 8` segments of 32 bytes; in segment `s`, column `j`'s 4 bytes
    /// hold values `4s + t` (low nibble) and `bl / 2 + 4s + t` (high nibble), signed.
    ///
    /// # Safety
    ///
    /// * The CPU must implement SVE with 256-bit vectors.
    /// * `m >= 1`, `n >= 1`; `bl` is a nonzero multiple of 32 and `k` a nonzero multiple of `bl`.
    /// * `lhs_packed` must be valid for reads of `m * (k / bl) * (bl + 2)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / 8) * 8 * (k / bl) * (bl / 2 + 2)` bytes.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    #[target_feature(enable = "sve")]
    blockwise fn matmul_f32_qsi8d32p1x4_qsi4c32p8x4_1x8(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (blocks, sub_blocks, _, _) = qsi8d32p_blockwise(m, n, k, bl, 1);

        // Register map
        //   x0  m (rows)                     x8  rows left in this group
        //   x1  columns left (n - 8g)        x9  LHS pointer (low half of the block)
        //   x2  sub-blocks per block         x10 RHS pointer (walks the group)
        //   x3  lhs_packed                   x11 dst pointer of the current row
        //   x4  RHS group pointer            x12 sub-blocks left in this block
        //   x5  dst + 4 * 8g                 x14 bl / 2 (LHS high-half offset)
        //   x6  dst_stride_row               x15 blocks left in this row
        //   x7  blocks (k / bl)              x16 LHS pointer (high half)
        //   w17 clamp_min bits, w20 clamp_max bits, w21 scratch
        //   p0  all lanes                    p1  the group's columns to store
        //
        //   z6/z7   activations 16c..16c+16 of the low / high half (LD1RQB)
        //   z0-z3   i32 sums (z0/z2: low nibbles, z1/z3: high; two chains)
        //   z16-z19 RHS segments, `and 0xf0` in place; z20-z23 the same shifted left by 4
        //   z24/z25 row scale / column scales, z26 f32 accumulator, z27 scale product
        //   z28/z29 clamp bounds, z30 1/16, z31 0xF0 bytes
        //
        // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover exactly the
        // bytes this block reads (m LHS rows; ceil(n / 8) RHS groups), that dst rows are writable
        // for 4 * n bytes, and that the CPU implements SVE with 256-bit vectors (so that `mul vl`
        // offsets step one 32-byte segment). Stores are predicated to the n columns. Only the
        // declared registers are touched and the stack is not used.
        unsafe {
            kernel_asm!(
                "ptrue p0.b",
                "dup z31.b, #-16",
                "movz w21, #0x3d80, lsl #16", // 1/16
                "dup z30.s, w21",
                "dup z28.s, w17",
                "dup z29.s, w20",
                // ---- loop over groups of 8 columns ----
                "2:",
                "mov x8, x0",
                "mov x9, x3",
                "mov x11, x5",
                "whilelt p1.s, xzr, x1",
                // ---- loop over rows ----
                "3:",
                "mov x10, x4",
                "mov x15, x7",
                "mov z26.s, #0",
                // ---- loop over blocks ----
                "4:",
                "ld1rh {{z24.s}}, p0/z, [x9]",
                "ld1h {{z25.s}}, p0/z, [x10]",
                "add x9, x9, #2",
                "add x10, x10, #16",
                "add x16, x9, x14",
                "mov x12, x2",
                zero_z!("0", "1", "2", "3"),
                // ---- K loop: one 32-value sub-block x 8 columns per iteration ----
                "5:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod",
                "ld1rqb {{z6.b}}, p0/z, [x9]",
                "ld1rqb {{z7.b}}, p0/z, [x16]",
                "ld1b {{z16.b}}, p0/z, [x10]",
                "ld1b {{z17.b}}, p0/z, [x10, #1, mul vl]",
                "ld1b {{z18.b}}, p0/z, [x10, #2, mul vl]",
                "ld1b {{z19.b}}, p0/z, [x10, #3, mul vl]",
                "add x9, x9, #16",
                "add x16, x16, #16",
                "addvl x10, x10, #4",
                "lsl z20.b, z16.b, #4",
                "lsl z21.b, z17.b, #4",
                "and z16.d, z16.d, z31.d",
                "and z17.d, z17.d, z31.d",
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
                "b.ne 5b",
                "// LLVM-MCA-END",
                // ---- block epilogue: x16 ends at the next block ----
                "mov x9, x16",
                "add z0.s, z0.s, z1.s",
                "add z2.s, z2.s, z3.s",
                "fcvt z24.s, p0/m, z24.h",
                "fcvt z25.s, p0/m, z25.h",
                "add z0.s, z0.s, z2.s",
                "fmul z25.s, z25.s, z30.s",
                "scvtf z0.s, p0/m, z0.s",
                "fmul z27.s, z25.s, z24.s",
                "subs x15, x15, #1",
                "fmla z26.s, p0/m, z0.s, z27.s",
                "b.ne 4b",
                // ---- row epilogue: clamp, store the group's columns ----
                "fmax z26.s, p0/m, z26.s, z28.s",
                "fmin z26.s, p0/m, z26.s, z29.s",
                "st1w {{z26.s}}, p1, [x11]",
                "add x11, x11, x6",
                "subs x8, x8, #1",
                "b.ne 3b",
                // ---- next group of 8 columns (x10 ends at its start) ----
                "mov x4, x10",
                "add x5, x5, #32",
                "subs x1, x1, #8",
                "b.gt 2b";
                gemv(m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row);
                in("x7") blocks,
                in("x14") bl / 2,
                in("x17") clamp_min.to_bits() as usize,
                in("x20") clamp_max.to_bits() as usize,
                clobber x(8 9 10 11 12 15 16 21)
                    v(0 1 2 3 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 1),
            );
        }
    }
}
