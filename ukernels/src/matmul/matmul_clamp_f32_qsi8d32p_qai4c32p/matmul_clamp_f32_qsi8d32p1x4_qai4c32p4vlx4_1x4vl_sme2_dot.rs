//! `kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot`: GEMV (1 row x 4 x SVL32
//! columns per step) on asymmetric int4 weights with an f32 scale and zero offset per block of
//! `bl` K values, in streaming mode. Operands: the `qsi8d32pscalef32` LHS (one row per group)
//! and the `ps1s0nrx4` RHS of `rhs_pack_nxk_qai4c32ps1s0nrx4_*` with `nr = 4 x SVL32` (the
//! streaming vector length in bytes) columns per group.
//!
//! One 4-value K step of a group is two vectors of unsigned nibbles (2 bytes per column, K
//! order inside); `LUTI4` through a ZT0 table of `u - 8` turns each into two vectors of int8,
//! and an indexed multi-vector `SDOT` multiplies the 4-vector group by one 4-value block of the
//! 16 activations `LD1RQB` broadcasts.
//!
//! Loop order: column groups outside, rows inside (KleidiAI's wrapper passes one row; the loop
//! costs nothing), then the blocks, then K in 16-value steps. Each block's integer sums
//! accumulate in one ZA vector group, zeroed per block, and are folded into four f32 vectors
//! in registers, from `+0`.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

/// The kernel writing `$dst` elements: `$columns` sets the predicate of a column group's
/// outputs below n, `$store` stores z24-z27 (the row's four clamped f32 vectors) under it,
/// `$next_dst` moves the destination by one column group.
macro_rules! sme2_dot_kernel {
    (
        $(#[$doc:meta])* $name:ident, $dst:ty, $columns:literal, [$($store:literal),+ $(,)?],
        $next_dst:literal
    ) => {
    streaming_kernel! {
        $(#[$doc])*
        blockwise fn $name(
            m, n, k, bl, lhs_packed, rhs_packed, dst: $dst, dst_stride_row, clamp_min, clamp_max,
        ) {
            let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
            let nb = k / bl;

            // Register map
            //   x0  m                            x8  0 (ZA vector select)
            //   x1  columns left (signed)        x12 rows left in this column group
            //   x2  blocks per row (nb)          x13 LHS pointer (walks the rows)
            //   x3  lhs_packed                   x14 RHS pointer inside the group
            //   x4  RHS group pointer            x15 dst pointer of the current row
            //   x5  dst of the group's column 0  x16 blocks left
            //   x6  dst_stride_row               x17 nr (RDSVL)
            //   x7  the LUTI4 table              x20 bl; x21 K values left in the block
            //   x9  RHS group stride             x10 / x11 clamp_min / clamp_max bits
            //
            //   z0      16 activations in every 128-bit segment; then the block's LHS sum
            //   z1      the block's LHS scale
            //   z16-z23 packed RHS: four 4-value K steps (two vectors each); then the block's
            //           zero offsets (z16-z19) and integer sums (z20-z23)
            //   z4-z15, z28-z31  the steps widened to int8 (four 4-vector groups); then
            //           z28-z31 the block's scales times the LHS scale
            //   z24-z27 f32 accumulators of the row; z2/z3 clamp_min / clamp_max in every lane
            //   ZA      vector group 0: the block's integer sums
            //   ZT0     the uint4 -> int8 table (u - 8)
            //   p0/pn8  all lanes; pn9 the group's columns below n
            //
            // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers
            // cover the bytes read here (m LHS rows of nb * (bl + 8) bytes; ceil(n / nr) whole
            // RHS groups); the table holds 64 bytes. Stores are predicated to columns below n and
            // rows below m. Streaming mode starts and ends inside the block; only declared
            // registers change; no stack use.
            unsafe {
                streaming_asm!("sme2";
                    "ptrue p0.b",
                    "ptrue pn8.b",
                    "mov x8, #0",
                    "rdsvl x17, #1",
                    "ldr zt0, [x7]",
                    "mov z2.s, w10",
                    "mov z3.s, w11",
                    // ---- loop over column groups ----
                    "1:",
                    $columns,
                    "mov x12, x0",
                    "mov x13, x3",
                    "mov x15, x5",
                    // ---- loop over rows ----
                    "2:",
                    "mov x14, x4",
                    "mov x16, x2",
                    "mov z24.s, #0",
                    "mov z25.s, #0",
                    "mov z26.s, #0",
                    "mov z27.s, #0",
                    // ---- loop over blocks ----
                    "3:",
                    "zero {{za}}",
                    "mov x21, x20",
                    // ---- 16 K values x nr columns per iteration ----
                    "4:",
                    "ld1rqb {{z0.b}}, p0/z, [x13]",
                    "ld1b {{z16.b-z19.b}}, pn8/z, [x14]",
                    "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #4, mul vl]",
                    "luti4 {{z4.b-z5.b}}, zt0, z16[0]",
                    "luti4 {{z6.b-z7.b}}, zt0, z17[0]",
                    "luti4 {{z8.b-z9.b}}, zt0, z18[0]",
                    "luti4 {{z10.b-z11.b}}, zt0, z19[0]",
                    "luti4 {{z12.b-z13.b}}, zt0, z20[0]",
                    "luti4 {{z14.b-z15.b}}, zt0, z21[0]",
                    "luti4 {{z28.b-z29.b}}, zt0, z22[0]",
                    "luti4 {{z30.b-z31.b}}, zt0, z23[0]",
                    "sdot za.s[w8, 0, vgx4], {{z4.b-z7.b}}, z0.b[0]",
                    "sdot za.s[w8, 0, vgx4], {{z8.b-z11.b}}, z0.b[1]",
                    "sdot za.s[w8, 0, vgx4], {{z12.b-z15.b}}, z0.b[2]",
                    "sdot za.s[w8, 0, vgx4], {{z28.b-z31.b}}, z0.b[3]",
                    "addvl x14, x14, #8",
                    "add x13, x13, #16",
                    "subs x21, x21, #16",
                    "b.ne 4b",
                    // ---- fold the block in: x13 -> its LHS sum and scale, x14 -> its nr
                    // zero offsets then nr scales ----
                    "mova {{z20.d-z23.d}}, za.d[w8, 0, vgx4]",
                    "scvtf {{z20.s-z23.s}}, {{z20.s-z23.s}}",
                    "ld1rw {{z0.s}}, p0/z, [x13]",
                    "ld1rw {{z1.s}}, p0/z, [x13, #4]",
                    "add x13, x13, #8",
                    "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
                    "ld1w {{z28.s-z31.s}}, pn8/z, [x14, #4, mul vl]",
                    "addvl x14, x14, #8",
                    "fmla z24.s, p0/m, z16.s, z0.s",
                    "fmla z25.s, p0/m, z17.s, z0.s",
                    "fmla z26.s, p0/m, z18.s, z0.s",
                    "fmla z27.s, p0/m, z19.s, z0.s",
                    "fmul z28.s, z28.s, z1.s",
                    "fmul z29.s, z29.s, z1.s",
                    "fmul z30.s, z30.s, z1.s",
                    "fmul z31.s, z31.s, z1.s",
                    "fmla z24.s, p0/m, z20.s, z28.s",
                    "fmla z25.s, p0/m, z21.s, z29.s",
                    "fmla z26.s, p0/m, z22.s, z30.s",
                    "fmla z27.s, p0/m, z23.s, z31.s",
                    "subs x16, x16, #1",
                    "b.ne 3b",
                    // ---- row epilogue: x14 -> the group's biases ----
                    "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
                    "fadd z24.s, z24.s, z16.s",
                    "fadd z25.s, z25.s, z17.s",
                    "fadd z26.s, z26.s, z18.s",
                    "fadd z27.s, z27.s, z19.s",
                    "fclamp {{z24.s-z27.s}}, z2.s, z3.s",
                    $($store,)+
                    "add x15, x15, x6",
                    "subs x12, x12, #1",
                    "b.ne 2b",
                    // ---- next column group ----
                    "add x4, x4, x9",
                    $next_dst,
                    "subs x1, x1, x17",
                    "b.gt 1b";
                    in("x0") m,
                    inout("x1") n => _,
                    in("x2") nb,
                    in("x3") lhs_packed,
                    inout("x4") rhs_packed => _,
                    inout("x5") dst => _,
                    in("x6") dst_stride_row,
                    in("x7") crate::matmul::streaming::UINT4_TO_INT8.as_ptr(),
                    out("x8") _,
                    in("x9") nr * (nb * (bl / 2 + 8) + 4),
                    in("x10") clamp_min.to_bits() as usize,
                    in("x11") clamp_max.to_bits() as usize,
                    out("x12") _,
                    out("x13") _,
                    out("x14") _,
                    out("x15") _,
                    out("x16") _,
                    out("x17") _,
                    in("x20") bl,
                    out("x21") _,
                );
            }
        }
    }
    };
}

sme2_dot_kernel!(
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = +0.0
    /// for b in 0..nb:
    ///     I   = sum_{kk in block b} lq[i][kk] * (u[j][kk] - 8)      (i32)
    ///     acc = fma(rz[j][b], lsum[i][b], acc)                      (FMLA)
    ///     acc = fma(I as f32, rs[j][b] * ls[i][b], acc)             (FMUL, then FMLA)
    /// dst[i][j] = fclamp(acc + bias[j], clamp_min, clamp_max)       (FADD; FMAXNM, FMINNM)
    /// ```
    ///
    /// with `nb = k / bl`.
    ///
    /// LHS layout (one row per `nb * (bl + 8)` bytes): per block, `bl` int8 values in K order,
    /// then `lsum: f32`, then `ls: f32`.
    ///
    /// RHS layout (one group of `nr` columns per `nr * (nb * (bl / 2 + 8) + 4)` bytes): per
    /// block, for every 4-value K step, `nr` columns x 2 bytes (K `4q + 2t` in the low nibble
    /// of byte `t`, `4q + 2t + 1` in the high one, unsigned), then `rz: [f32; nr]`,
    /// `rs: [f32; nr]`; after the blocks `bias: [f32; nr]`.
    ///
    /// # Safety
    ///
    /// * The CPU must implement SME2; a pending lazy ZA save must follow the AAPCS64 SME ABI.
    /// * `m >= 1`, `n >= 1`; `bl` is a non-zero multiple of 32 and `k` a non-zero multiple of
    ///   `bl`.
    /// * `lhs_packed` must be valid for reads of `m * nb * (bl + 8)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / nr)` groups of the size above.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    matmul_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
    f32,
    "whilelt pn9.s, xzr, x1, vlx4",
    ["st1w {{z24.s-z27.s}}, pn9, [x15]"],
    "addvl x5, x5, #4"
);

/// The f16-output form, `kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot`: the
/// same computation, each clamped f32 result rounded to f16 (nearest, ties to even) by `FCVT`
/// before the store.
pub mod f16 {
    sme2_dot_kernel!(
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        matmul_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
        u16,
        "whilelt pn9.h, xzr, x1, vlx2",
        [
            "fcvt z28.h, {{z24.s-z25.s}}",
            "fcvt z29.h, {{z26.s-z27.s}}",
            "st1h {{z28.h-z29.h}}, pn9, [x15]",
        ],
        "addvl x5, x5, #2"
    );
}
