//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) with `SMOPA` outer products into the four 32-bit ZA tiles, in
//! streaming mode, with an SME2 epilogue. Operands: a dynamically quantized int8 LHS in groups of
//! `mr = SVL32` rows with `kr = 4` (one vector per 4-value K block: row `r` in lane `r`) and the
//! `qsi8cxp` RHS of the family's `1x4vl` GEMVs (`nr = 4 x SVL32`, `kr = 4`, `sr = 1`).
//!
//! Loop order: row groups outside (a group's activations stay in cache across the columns),
//! column groups inside, K in 8-value steps (two blocks, eight outer products). After the K
//! loop, output row `r` of the four tiles is ZA array rows `4r .. 4r + 4`, read with one
//! multi-vector `MOVA` of byte-tile slices.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

/// The kernel writing `$dst` elements: `$columns` sets the predicate of a column group's
/// outputs below n, `$store` clamps, converts and stores z4-z7 (one output row of the group, four
/// f32 vectors) under it, `$next_dst` moves the destination by one column group.
macro_rules! sme2_mopa_kernel {
    (
        $(#[$doc:meta])* $name:ident, $dst:ty, $columns:literal, [$($store:literal),+ $(,)?],
        $next_dst:literal
    ) => {
    streaming_kernel! {
        $(#[$doc])*
        fn $name(
            m, n, k, lhs_packed, rhs_packed, dst: $dst, dst_stride_row, clamp_min, clamp_max,
        ) {
            let k_int = k.div_ceil(32) * 32;
            let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
            let mr = svl / 4;

            // Register map
            //   x0  rows left (signed)           x12 ZA slice of the output row (4 x row)
            //   x1  n                            x13 columns left in this row group (signed)
            //   x2  k_int                        x14 dst of the column group's row 0
            //   x3  LHS group pointer            x15 rows of this group to store
            //   x4  rhs_packed                   x16 LHS pointer inside the group
            //   x5  dst of the row group         x17 mr (CNTW)
            //   x6  dst_stride_row               x20 RHS pointer inside the column group
            //   x7  LHS group stride             x21 K values left
            //   x8  RHS group pointer            x22 dst pointer of the output row
            //   x9  RHS group stride             x23 / x24 the row's LHS offset / scale pointer
            //   x10 / x11 clamp_min / clamp_max bits
            //
            //   z0/z1   LHS: two 4-value K blocks of mr rows
            //   z16-z23 RHS: two blocks of nr columns (four vectors each)
            //   z16-z27 after the K loop: rsum, rscale, bias of the column group
            //   z4-z11  one output row; z12/z13 clamp_min / clamp_max in every lane
            //   ZA      tiles za0..za3: columns [t x mr, (t + 1) x mr) of the group
            //   p0/pn8  all lanes; pn9 the group's columns below n
            //
            // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover
            // the bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read
            // exactly, including rows and columns past m and n, which the packers fill). Stores are
            // predicated to columns below n and limited to rows below m. Streaming mode starts and
            // ends inside the block; only declared registers change; no stack use.
            unsafe {
                streaming_asm!("sme2";
                    "ptrue p0.b",
                    "ptrue pn8.b",
                    "cntw x17",
                    "mov z12.s, w10",
                    "mov z13.s, w11",
                    // ---- loop over row groups ----
                    "1:",
                    "cmp x0, x17",
                    "csel x15, x0, x17, lt",
                    "mov x8, x4",
                    "mov x13, x1",
                    "mov x14, x5",
                    // ---- loop over column groups ----
                    "2:",
                    "mov x16, x3",
                    "mov x20, x8",
                    "mov x21, x2",
                    "zero {{za}}",
                    // ---- K loop: 8 values per iteration ----
                    "3:",
                    "ld1w {{z0.s-z1.s}}, pn8/z, [x16]",
                    "ld1b {{z16.b-z19.b}}, pn8/z, [x20]",
                    "ld1b {{z20.b-z23.b}}, pn8/z, [x20, #4, mul vl]",
                    "smopa za0.s, p0/m, p0/m, z0.b, z16.b",
                    "smopa za1.s, p0/m, p0/m, z0.b, z17.b",
                    "smopa za2.s, p0/m, p0/m, z0.b, z18.b",
                    "smopa za3.s, p0/m, p0/m, z0.b, z19.b",
                    "smopa za0.s, p0/m, p0/m, z1.b, z20.b",
                    "smopa za1.s, p0/m, p0/m, z1.b, z21.b",
                    "smopa za2.s, p0/m, p0/m, z1.b, z22.b",
                    "smopa za3.s, p0/m, p0/m, z1.b, z23.b",
                    "addvl x16, x16, #2",
                    "addvl x20, x20, #8",
                    "subs x21, x21, #8",
                    "b.ne 3b",
                    // ---- epilogue: x16 -> the group's LHS offsets, x20 -> the RHS trailer ----
                    "ld1w {{z16.s-z19.s}}, pn8/z, [x20]",
                    "ld1w {{z20.s-z23.s}}, pn8/z, [x20, #4, mul vl]",
                    "ld1w {{z24.s-z27.s}}, pn8/z, [x20, #8, mul vl]",
                    $columns,
                    "mov x12, #0",
                    "mov x22, x14",
                    "mov x23, x16",
                    "addvl x24, x16, #1",
                    "mov x21, x15",
                    // ---- one output row per iteration ----
                    "4:",
                    "ld1rw {{z0.s}}, p0/z, [x23]",
                    "ld1rw {{z1.s}}, p0/z, [x24]",
                    "mova {{z4.b-z7.b}}, za0h.b[w12, 0:3]",
                    "mla z4.s, p0/m, z16.s, z0.s",
                    "mla z5.s, p0/m, z17.s, z0.s",
                    "mla z6.s, p0/m, z18.s, z0.s",
                    "mla z7.s, p0/m, z19.s, z0.s",
                    "scvtf {{z4.s-z7.s}}, {{z4.s-z7.s}}",
                    "fmul z8.s, z20.s, z1.s",
                    "fmul z9.s, z21.s, z1.s",
                    "fmul z10.s, z22.s, z1.s",
                    "fmul z11.s, z23.s, z1.s",
                    "fmul z4.s, z4.s, z8.s",
                    "fmul z5.s, z5.s, z9.s",
                    "fmul z6.s, z6.s, z10.s",
                    "fmul z7.s, z7.s, z11.s",
                    "fadd z4.s, z4.s, z24.s",
                    "fadd z5.s, z5.s, z25.s",
                    "fadd z6.s, z6.s, z26.s",
                    "fadd z7.s, z7.s, z27.s",
                    $($store,)+
                    "add x22, x22, x6",
                    "add x23, x23, #4",
                    "add x24, x24, #4",
                    "add x12, x12, #4",
                    "subs x21, x21, #1",
                    "b.ne 4b",
                    // ---- next column group ----
                    "add x8, x8, x9",
                    $next_dst,
                    "subs x13, x13, x17, lsl #2",
                    "b.gt 2b",
                    // ---- next row group ----
                    "add x3, x3, x7",
                    "madd x5, x6, x17, x5",
                    "subs x0, x0, x17",
                    "b.gt 1b";
                    inout("x0") m => _,
                    in("x1") n,
                    in("x2") k_int,
                    inout("x3") lhs_packed => _,
                    in("x4") rhs_packed,
                    inout("x5") dst => _,
                    in("x6") dst_stride_row,
                    in("x7") mr * (k_int + 8),
                    out("x8") _,
                    in("x9") svl * (k_int + 12),
                    in("x10") clamp_min.to_bits() as usize,
                    in("x11") clamp_max.to_bits() as usize,
                    out("x12") _,
                    out("x13") _,
                    out("x14") _,
                    out("x15") _,
                    out("x16") _,
                    out("x17") _,
                    out("x20") _,
                    out("x21") _,
                    out("x22") _,
                    out("x23") _,
                    out("x24") _,
                );
            }
        }
    }
    };
}

sme2_mopa_kernel!(
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = sum_{kk < k_int} lq[i][kk] * w[j][kk]              (wrapping i32)
    /// acc = acc + lhs_offset[i] * rsum[j]                      (i32)
    /// y   = (acc as f32) * (rscale[j] * lhs_scale[i]) + bias[j]
    /// dst[i][j] = fclamp(y, clamp_min, clamp_max)              (FMAXNM, then FMINNM)
    /// ```
    ///
    /// with `k_int = roundup(k, 32)`, `mr = SVL32` rows per LHS group and `nr = 4 x SVL32`
    /// columns per RHS group.
    ///
    /// LHS layout (one group of `mr` rows per `mr * (k_int + 8)` bytes): for every 4-value K
    /// block, `mr` rows x 4 int8 values, then `lhs_offset: [i32; mr]`, `lhs_scale: [f32; mr]`.
    ///
    /// RHS layout: as for the family's `1x4vl` GEMVs.
    ///
    /// # Safety
    ///
    /// * The CPU must implement SME2; a pending lazy ZA save must follow the AAPCS64 SME ABI.
    /// * `m >= 1`, `n >= 1`, `k >= 1`.
    /// * `lhs_packed` must be valid for reads of `ceil(m / mr) * mr * (k_int + 8)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / nr) * nr * (k_int + 12)` bytes.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    matmul_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
    f32,
    "whilelt pn9.s, xzr, x13, vlx4",
    ["fclamp {{z4.s-z7.s}}, z12.s, z13.s", "st1w {{z4.s-z7.s}}, pn9, [x22]"],
    "addvl x14, x14, #4"
);

/// The f16-output form, `kai_matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa`: the
/// same computation, each clamped f32 result rounded to f16 (nearest, ties to even) by `FCVT`
/// before the store.
pub mod f16 {
    sme2_mopa_kernel!(
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        matmul_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
        u16,
        "whilelt pn9.h, xzr, x13, vlx2",
        [
            "fclamp {{z4.s-z7.s}}, z12.s, z13.s",
            "fcvt z8.h, {{z4.s-z5.s}}",
            "fcvt z9.h, {{z6.s-z7.s}}",
            "st1h {{z8.h-z9.h}}, pn9, [x22]",
        ],
        "addvl x14, x14, #2"
    );
}
