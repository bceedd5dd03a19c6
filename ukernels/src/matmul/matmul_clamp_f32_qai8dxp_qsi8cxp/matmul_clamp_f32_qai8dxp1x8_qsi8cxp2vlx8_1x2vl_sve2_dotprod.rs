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

use crate::matmul::kernel_geometry::per_channel;

asm_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = sum_{kk < k_int} lq[i][kk] * w[j][kk]              (wrapping i32)
    /// acc = acc + lhs_offset[i] * rsum[j]                      (i32)
    /// y   = (acc as f32) * (rscale[j] * lhs_scale[i]) + bias[j]
    /// dst[i][j] = min(max(y, clamp_min), clamp_max)            (FMAX, then FMIN)
    /// ```
    ///
    /// with `k_int = roundup(k, 32)` and `nr = 2 x VL32` (twice the number of 32-bit lanes of an SVE
    /// vector on this CPU).
    ///
    /// LHS layout (one row per `k_int + 8` bytes): `k_int` int8 values in K order, then
    /// `lhs_offset: i32`, then `lhs_scale: f32`.
    ///
    /// RHS layout (one group of `nr` columns per `nr * (k_int + 12)` bytes): for every 8-value K
    /// block, `nr` columns x 8 int8 values, then `rsum: [i32; nr]`, `rscale: [f32; nr]`,
    /// `bias: [f32; nr]`.
    ///
    /// # Safety
    ///
    /// * The CPU must implement SVE2.
    /// * `m >= 1`, `n >= 1`, `k >= 1`.
    /// * `lhs_packed` must be valid for reads of `m * (k_int + 8)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / nr) * nr * (k_int + 12)` bytes.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    #[target_feature(enable = "sve2")]
    fn matmul_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, _, rhs_col_bytes) = per_channel(m, n, k, 1, false);

        // Register map
        //   x0  m                            x8  rows left in this column group
        //   x1  columns left (signed)        x9  LHS pointer (walks the rows)
        //   x2  32-value chunks              x10 RHS pointer inside the group
        //   x3  lhs_packed                   x11 dst pointer of the current row
        //   x4  RHS group pointer            x12 chunks left
        //   x5  dst of the group's column 0  x13 VL32 (CNTW)
        //   x6  dst_stride_row               x14 RHS group stride (nr * rhs_col_bytes)
        //   x15 clamp_min bits               x16 clamp_max bits
        //
        //   z0-z3   accumulators of blocks 0 and 2, column registers 0..3
        //   z4-z7   accumulators of blocks 1 and 3, column registers 0..3
        //           (two SDOTs each per chunk: latency never binds)
        //   z8-z11  LHS blocks 0..3 of the chunk, replicated per 64 bits
        //   z13/z14 clamp_min / clamp_max in every lane
        //   z16-z31 RHS: z(16 + 4b + c) = block b, column register c
        //   p0      all lanes; p1/p2 columns of the group below n (first / second VL32)
        //
        // SAFETY: the caller guarantees (see `# Safety`) SVE2 and that the packed buffers cover the
        // bytes read here (m LHS rows of k_int + 8 bytes; ceil(n / nr) RHS groups of
        // nr * rhs_col_bytes bytes, read exactly). Stores are predicated to columns below n and rows
        // below m. Only declared registers are touched (v8-v15 are declared, so the compiler saves
        // d8-d15); no stack use.
        unsafe {
            kernel_asm!(
                "ptrue p0.b",
                "cntw x13",
                "mul x14, x14, x13",
                "lsl x14, x14, #1",
                "mov z13.s, w15",
                "mov z14.s, w16",
                // ---- loop over column groups ----
                "2:",
                "whilelt p1.s, xzr, x1",
                "whilelt p2.s, x13, x1",
                "mov x8, x0",
                "mov x9, x3",
                "mov x11, x5",
                // ---- loop over rows ----
                "3:",
                "mov x10, x4",
                "mov x12, x2",
                zero_z!("0", "1", "2", "3", "4", "5", "6", "7"),
                // ---- K loop: 32 values x nr columns per iteration ----
                "4:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod",
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
                "b.ne 4b",
                "// LLVM-MCA-END",
                // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
                "ld1rw {{z8.s}}, p0/z, [x9]",
                "ld1rw {{z9.s}}, p0/z, [x9, #4]",
                "add x9, x9, #8",
                "ld1w {{z16.s}}, p0/z, [x10]",
                "ld1w {{z17.s}}, p0/z, [x10, #1, mul vl]",
                "ld1w {{z18.s}}, p0/z, [x10, #2, mul vl]",
                "ld1w {{z19.s}}, p0/z, [x10, #3, mul vl]",
                "ld1w {{z20.s}}, p0/z, [x10, #4, mul vl]",
                "ld1w {{z21.s}}, p0/z, [x10, #5, mul vl]",
                "add z0.s, z0.s, z4.s",
                "add z1.s, z1.s, z5.s",
                "add z2.s, z2.s, z6.s",
                "add z3.s, z3.s, z7.s",
                // Fold lane pairs: even lanes (bytes 0..4 of a column) + odd lanes (4..8).
                "uzp1 z4.s, z0.s, z1.s",
                "uzp2 z5.s, z0.s, z1.s",
                "uzp1 z6.s, z2.s, z3.s",
                "uzp2 z7.s, z2.s, z3.s",
                "add z4.s, z4.s, z5.s",
                "add z6.s, z6.s, z7.s",
                "mla z4.s, p0/m, z16.s, z8.s",
                "mla z6.s, p0/m, z17.s, z8.s",
                "fmul z18.s, z18.s, z9.s",
                "fmul z19.s, z19.s, z9.s",
                "scvtf z4.s, p0/m, z4.s",
                "scvtf z6.s, p0/m, z6.s",
                "fmul z4.s, z4.s, z18.s",
                "fmul z6.s, z6.s, z19.s",
                "fadd z4.s, z4.s, z20.s",
                "fadd z6.s, z6.s, z21.s",
                "fmax z4.s, p0/m, z4.s, z13.s",
                "fmax z6.s, p0/m, z6.s, z13.s",
                "fmin z4.s, p0/m, z4.s, z14.s",
                "fmin z6.s, p0/m, z6.s, z14.s",
                "st1w {{z4.s}}, p1, [x11]",
                "st1w {{z6.s}}, p2, [x11, #1, mul vl]",
                "add x11, x11, x6",
                "subs x8, x8, #1",
                "b.ne 3b",
                // ---- next column group ----
                "add x4, x4, x14",
                "addvl x5, x5, #2",
                "sub x1, x1, x13, lsl #1",
                "cmp x1, #0",
                "b.gt 2b";
                gemv(m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row);
                inout("x14") rhs_col_bytes => _,
                in("x15") clamp_min.to_bits() as usize,
                in("x16") clamp_max.to_bits() as usize,
                clobber x(8 9 10 11 12 13)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1 2),
            );
        }
    }
}
