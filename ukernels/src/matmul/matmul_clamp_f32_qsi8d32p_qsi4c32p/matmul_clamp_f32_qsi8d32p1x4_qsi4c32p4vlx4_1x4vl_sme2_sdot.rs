//! `kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot`: Q4_0 GEMV (1 row x 4 x
//! SVL32 columns per step) in streaming mode. Operands: int8 activations with one f16 scale per
//! block (`lhs_quant_pack_qsi8d32p_f32_neon`, one row per group) and the `ps1s0scalef16` RHS of
//! `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon` with `nr = 4 x SVL32` (the streaming
//! vector length in bytes) columns per group.
//!
//! One 4-value K step of a group is two vectors of unsigned nibbles (2 bytes per column, K order
//! inside); `LUTI4` through a ZT0 table of `u - 8` turns each into two vectors of int8 (4 values
//! of one column per 32-bit lane), the 4-vector group an indexed multi-vector `SDOT` multiplies
//! by one 4-value block of the 16 activations `LD1RQB` broadcasts (the loads, lookups and dot
//! products of KleidiAI's loop, with immediate offsets instead of pointer updates, 32 K values
//! per iteration: `bl` is a multiple of 32, so a 32-value block takes one).
//!
//! Loop order: column groups outside, rows inside (KleidiAI's kernel takes one row; rkai's any
//! number, each reading the group's weights again from cache), then the blocks, then K in
//! 32-value steps. Each block's integer sums accumulate in one ZA vector group, zeroed per
//! block, and are folded into four f32 vectors with `FMLA` by the product of the block's scales,
//! formed with `FMLALB`/`FMLALT` into `+0` as KleidiAI does (so a zero product is `+0`).

use super::U4_MINUS_8;

streaming_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = +0.0
    /// for b in 0..nb:
    ///     I   = sum_{kk in block b} lq[i][kk] * w[j][kk]             (i32)
    ///     s   = +0.0 + f32(ld[i][b]) * f32(wd[j][b])                 (FMLALB / FMLALT)
    ///     acc = fma(I as f32, s, acc)                                (SCVTF, FMLA)
    /// dst[i][j] = fclamp(acc, clamp_min, clamp_max)                  (FMAXNM, then FMINNM)
    /// ```
    ///
    /// with `nb = k / bl`, `ld` and `wd` the f16 block scales.
    ///
    /// LHS layout (one row per `k + 2 * nb` bytes): `k` int8 values in K order, then
    /// `ld: [f16; nb]`.
    ///
    /// RHS layout (one group of `nr` columns per `nr * nb * (bl / 2 + 2)` bytes): for every
    /// 4-value K step, `nr` columns x 2 bytes (K `4q + 2t` in the low nibble of byte `t`,
    /// `4q + 2t + 1` in the high one, unsigned with zero point 8), then `wd: [[f16; nr]; nb]`.
    ///
    /// # Safety
    ///
    /// * The CPU must implement SME2; a pending lazy ZA save must follow the AAPCS64 SME ABI.
    /// * `m >= 1`, `n >= 1`; `bl` is a non-zero multiple of 32 and `k` a non-zero multiple of
    ///   `bl`.
    /// * `lhs_packed` must be valid for reads of `m * (k + 2 * nb)` bytes.
    /// * `rhs_packed` must be valid for reads of `ceil(n / nr)` groups of the size above.
    /// * `dst` must be valid for writes of the `m` rows of `4 * n` bytes at byte offsets
    ///   `i * dst_stride_row`, and those rows must not overlap the packed inputs.
    /// * No alignment is required of any pointer.
    blockwise fn matmul_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
        let nb = k / bl;

        // Register map
        //   x0  m                            x8  0 (ZA vector select)
        //   x1  columns left (signed)        x12 rows left in this column group
        //   x2  blocks per row (nb)          x13 LHS pointer (walks the rows)
        //   x3  lhs_packed                   x14 RHS data pointer inside the group
        //   x4  RHS group pointer            x15 dst pointer of the current row
        //   x5  dst of the group's column 0  x16 blocks left
        //   x6  dst_stride_row               x17 nr (RDSVL)
        //   x7  the LUTI4 table              x20 bl; x21 K values left in the block
        //   x9  RHS group stride             x22 RHS scale pointer; x23 LHS scale pointer
        //   x10 / x11 clamp_min / clamp_max  x24 k (LHS scales after the row's values)
        //   x25 nr * k / 2 (RHS scales after the group's data)
        //
        //   z0 / z1 16 activations in every 128-bit segment (two 16-value steps); in the fold,
        //           z1 the block's LHS scale (f16)
        //   z16-z23 packed RHS: four 4-value K steps (two vectors each)
        //   z4-z15, z28-z31  the steps widened to int8 (four 4-vector groups)
        //   z24-z27 f32 accumulators of the row; z2/z3 clamp_min / clamp_max in every lane
        //   ZA      vector group 0: the block's integer sums
        //   ZT0     the nibble -> int8 table
        //   p0/pn8  all lanes; pn9 the group's columns below n
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover
        // the bytes read here (m LHS rows; ceil(n / nr) whole RHS groups); the table holds 64
        // bytes. Stores are predicated to columns below n and rows below m. Streaming mode
        // starts and ends inside the block; only declared registers change; no stack use.
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
                "whilelt pn9.s, xzr, x1, vlx4",
                "mov x12, x0",
                "mov x13, x3",
                "mov x15, x5",
                // ---- loop over rows ----
                "2:",
                "mov x14, x4",
                "add x22, x4, x25",
                "add x23, x13, x24",
                "mov x16, x2",
                "mov z24.s, #0",
                "mov z25.s, #0",
                "mov z26.s, #0",
                "mov z27.s, #0",
                // ---- loop over blocks ----
                "3:",
                "zero {{za}}",
                "mov x21, x20",
                // ---- 32 K values x nr columns per iteration, two 16-value steps ----
                "4:",
                "ld1rqb {{z0.b}}, p0/z, [x13]",
                "ld1rqb {{z1.b}}, p0/z, [x13, #16]",
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
                "ld1b {{z16.b-z19.b}}, pn8/z, [x14, #8, mul vl]",
                "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #12, mul vl]",
                "luti4 {{z4.b-z5.b}}, zt0, z16[0]",
                "luti4 {{z6.b-z7.b}}, zt0, z17[0]",
                "luti4 {{z8.b-z9.b}}, zt0, z18[0]",
                "luti4 {{z10.b-z11.b}}, zt0, z19[0]",
                "luti4 {{z12.b-z13.b}}, zt0, z20[0]",
                "luti4 {{z14.b-z15.b}}, zt0, z21[0]",
                "luti4 {{z28.b-z29.b}}, zt0, z22[0]",
                "luti4 {{z30.b-z31.b}}, zt0, z23[0]",
                "sdot za.s[w8, 0, vgx4], {{z4.b-z7.b}}, z1.b[0]",
                "sdot za.s[w8, 0, vgx4], {{z8.b-z11.b}}, z1.b[1]",
                "sdot za.s[w8, 0, vgx4], {{z12.b-z15.b}}, z1.b[2]",
                "sdot za.s[w8, 0, vgx4], {{z28.b-z31.b}}, z1.b[3]",
                "addvl x14, x14, #16",
                "add x13, x13, #32",
                "subs x21, x21, #32",
                "b.ne 4b",
                // ---- fold the block in: s = +0 + ld * wd (columns in the ZA group's order:
                // after ZIP, the even halves of z16 / z17 hold quarters 0 / 1, the odd ones
                // quarters 2 / 3) ----
                "mova {{z20.d-z23.d}}, za.d[w8, 0, vgx4]",
                "scvtf {{z20.s-z23.s}}, {{z20.s-z23.s}}",
                "ld1rh {{z1.h}}, p0/z, [x23]",
                "ld1h {{z16.h-z17.h}}, pn8/z, [x22]",
                "add x23, x23, #2",
                "addvl x22, x22, #2",
                "zip {{z16.h-z17.h}}, z16.h, z17.h",
                "mov z4.s, #0",
                "mov z5.s, #0",
                "mov z6.s, #0",
                "mov z7.s, #0",
                "fmlalb z4.s, z1.h, z16.h",
                "fmlalb z5.s, z1.h, z17.h",
                "fmlalt z6.s, z1.h, z16.h",
                "fmlalt z7.s, z1.h, z17.h",
                "fmla z24.s, p0/m, z20.s, z4.s",
                "fmla z25.s, p0/m, z21.s, z5.s",
                "fmla z26.s, p0/m, z22.s, z6.s",
                "fmla z27.s, p0/m, z23.s, z7.s",
                "subs x16, x16, #1",
                "b.ne 3b",
                // ---- row epilogue; x23 is now the next row ----
                "fclamp {{z24.s-z27.s}}, z2.s, z3.s",
                "st1w {{z24.s-z27.s}}, pn9, [x15]",
                "mov x13, x23",
                "add x15, x15, x6",
                "subs x12, x12, #1",
                "b.ne 2b",
                // ---- next column group ----
                "add x4, x4, x9",
                "addvl x5, x5, #4",
                "subs x1, x1, x17",
                "b.gt 1b";
                in("x0") m,
                inout("x1") n => _,
                in("x2") nb,
                in("x3") lhs_packed,
                inout("x4") rhs_packed => _,
                inout("x5") dst => _,
                in("x6") dst_stride_row,
                in("x7") U4_MINUS_8.as_ptr(),
                out("x8") _,
                in("x9") nr * nb * (bl / 2 + 2),
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
                out("x22") _,
                out("x23") _,
                in("x24") k,
                in("x25") nr * k / 2,
            );
        }
    }
}
