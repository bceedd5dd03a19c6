//! `kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot`: f16 GEMV on SME2, one LHS row, f32 sums
//! in ZA (`FDOT` of pairs of halves into four ZA vectors at once), two packed column groups
//! (`2 x nr` = 4 x SVL32 columns) per pass. Numerics: the family's
//! [`Pairs::Fdot`](super::Pairs).
//!
//! Registers: x0 columns left, x1 `k`, x2 the LHS row, x4 dst, x9 one group's bytes, x12 the
//! columns of a pass, x13 the pass's first group, x14/x15 the read pointers of its two groups
//! (the second is the first again when the pass has one group's columns or fewer: its sums are
//! not stored), w8 the ZA vector select; z8-z11 the widened biases, z0 the LHS pair, z20-z23
//! the pair's RHS vectors, z4-z7 the sums read back, z30/z31 the bounds (halves); p0 all true,
//! p3/pn10 the RHS loads (none when `k == 0`), pn8 the columns stored.

streaming_gemv_kernel! {
    /// The family's [SME GEMV](super#the-sme-gemvs-f16p2vlx2b-pairs) with `nr` = 2 x SVL32.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety) for one row (`m == 1`), on a CPU implementing SME2;
    /// the LHS row is read for exactly `k` halves.
    fn matmul_f16_f16p2vlx2b_1x16vl(n, k, lhs, rhs_packed, dst, clamp_min: u16, clamp_max) {
        // SAFETY: the caller guarantees SME2 and buffers covering the row, the packed groups of
        // the n columns (whole) and the n halves of dst; stores are predicated to n. Only the
        // declared registers change; streaming mode starts and ends in the block.
        unsafe {
            streaming_asm!("sme2";
                "ptrue p0.b",
                "dup z30.h, {lo:w}",
                "dup z31.h, {hi:w}",
                half_pairs_setup!(),
                "whilelo pn10.h, xzr, x11, vlx2",
                "mov w8, #0",
                "cnth x12, all, mul #2",
                "mov x13, x3",
                // ---- One pass: two groups, their biases widened into ZA ----
                "1:",
                "mov x14, x13",
                "cnth x15",
                "cmp x0, x15",
                "add x15, x13, x9",
                "csel x15, x15, x13, gt",
                "ld1h {{z8.s}}, p0/z, [x14]",
                "ld1h {{z9.s}}, p0/z, [x14, #1, mul vl]",
                "ld1h {{z10.s}}, p0/z, [x15]",
                "ld1h {{z11.s}}, p0/z, [x15, #1, mul vl]",
                "fcvt z8.s, p0/m, z8.h",
                "fcvt z9.s, p0/m, z9.h",
                "fcvt z10.s, p0/m, z10.h",
                "fcvt z11.s, p0/m, z11.h",
                "mova za.d[w8, 0, vgx4], {{z8.d - z11.d}}",
                "addvl x14, x14, #1",
                "addvl x15, x15, #1",
                half_pairs_k_loop!(
                    "ld1h {{z20.h - z21.h}}, pn10/z, [x14]",
                    "ld1h {{z22.h - z23.h}}, pn10/z, [x15]",
                    "addvl x14, x14, #2",
                    "addvl x15, x15, #2",
                    "fdot za.s[w8, 0, vgx4], {{z20.h - z23.h}}, z0.h[0]",
                ),
                // ---- Round to f16, FCLAMP, store the columns left ----
                "mova {{z4.d - z7.d}}, za.d[w8, 0, vgx4]",
                "fcvt z20.h, {{z4.s - z5.s}}",
                "fcvt z21.h, {{z6.s - z7.s}}",
                "fclamp {{z20.h - z21.h}}, z30.h, z31.h",
                "whilelt pn8.h, xzr, x0, vlx2",
                "st1h {{z20.h - z21.h}}, pn8, [x4]",
                "addvl x4, x4, #2",
                "add x13, x13, x9, lsl #1",
                "subs x0, x0, x12",
                "b.gt 1b";
                inout("x0") n => _,
                inout("x1") k => _,
                inout("x2") lhs => _,
                inout("x3") rhs_packed => _,
                inout("x4") dst => _,
                lo = in(reg) u32::from(clamp_min),
                hi = in(reg) u32::from(clamp_max),
                out("x8") _, out("x9") _, out("x10") _, out("x11") _, out("x12") _,
                out("x13") _, out("x14") _, out("x15") _,
            );
        }
    }
}
