//! `kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla`: f16 GEMV on the streaming SVE unit (SME),
//! one LHS row, f32 accumulators widened from f16 (`FMLALB`/`FMLALT`), one packed column group
//! (`nr` = 2 x SVL32 columns) per pass. Numerics: the family's [`Pairs::Fmlal`](super::Pairs).
//!
//! Registers: x0 columns left, x1 `k`, x2 the LHS row, x3 the RHS read pointer, x4 dst, x9 the
//! group's bytes, x12 `nr`, x13 the group's start; z24/z25 the group's two f32 accumulators
//! (columns 0..SVL32 and SVL32..2 x SVL32), z0 the LHS pair, z1/z2 the pair's RHS vectors,
//! z30/z31 the lower and upper bound (halves); p0 all true, p1 the columns stored, p3 the RHS
//! loads (none when `k == 0`).

streaming_gemv_kernel! {
    /// The family's [SME GEMV](super#the-sme-gemvs-f16p2vlx2b-pairs) with `nr` = 2 x SVL32.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety) for one row (`m == 1`), on a CPU implementing SME;
    /// the LHS row is read for exactly `k` halves.
    fn matmul_f16_f16p2vlx2b_1x8vl(n, k, lhs, rhs_packed, dst, clamp_min: u16, clamp_max) {
        // SAFETY: the caller guarantees SME and buffers covering the row, the packed groups of
        // the n columns (whole) and the n halves of dst; stores are predicated to n. Only the
        // declared registers change; streaming mode starts and ends in the block.
        unsafe {
            streaming_asm!("sme";
                "ptrue p0.b",
                "dup z30.h, {lo:w}",
                "dup z31.h, {hi:w}",
                half_pairs_setup!(),
                "cnth x12",
                "mov x13, x3",
                // ---- One group of nr columns: the biases widened to f32 ----
                "1:",
                "ld1h {{z24.s}}, p0/z, [x13]",
                "ld1h {{z25.s}}, p0/z, [x13, #1, mul vl]",
                "fcvt z24.s, p0/m, z24.h",
                "fcvt z25.s, p0/m, z25.h",
                "addvl x3, x13, #1",
                half_pairs_k_loop!(
                    "ld1h {{z1.h}}, p3/z, [x3]",
                    "ld1h {{z2.h}}, p3/z, [x3, #1, mul vl]",
                    "addvl x3, x3, #2",
                    "fmlalb z24.s, z1.h, z0.h",
                    "fmlalb z25.s, z2.h, z0.h",
                    "fmlalt z24.s, z1.h, z0.h",
                    "fmlalt z25.s, z2.h, z0.h",
                ),
                // ---- Round to f16, clamp (upper bound first), store the columns left ----
                "fcvt z24.h, p0/m, z24.s",
                "fcvt z25.h, p0/m, z25.s",
                "uzp1 z24.h, z24.h, z25.h",
                "fmin z24.h, p0/m, z24.h, z31.h",
                "fmax z24.h, p0/m, z24.h, z30.h",
                "whilelt p1.h, xzr, x0",
                "st1h {{z24.h}}, p1, [x4]",
                "addvl x4, x4, #1",
                "add x13, x13, x9",
                "subs x0, x0, x12",
                "b.gt 1b";
                inout("x0") n => _,
                inout("x1") k => _,
                inout("x2") lhs => _,
                inout("x3") rhs_packed => _,
                inout("x4") dst => _,
                lo = in(reg) u32::from(clamp_min),
                hi = in(reg) u32::from(clamp_max),
                out("x9") _, out("x10") _, out("x11") _, out("x12") _, out("x13") _,
            );
        }
    }
}
