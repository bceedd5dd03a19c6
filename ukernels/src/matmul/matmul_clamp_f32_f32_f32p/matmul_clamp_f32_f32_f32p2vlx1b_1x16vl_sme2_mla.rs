//! `kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla`: f32 GEMV (one row x 16 x SVL32
//! columns per step) accumulating in ZA, for CPUs with SME2, on the RHS of
//! `rhs_pack_{kxn,nxk}_f32p2vlx1biasf32_f32_f32_sme` (groups of `nr = 2 x SVL32` columns: their
//! biases, then one row of them per K value).
//!
//! Columns go in blocks of eight groups while more than seven remain: each pair of groups is one
//! four-vector group (two two-vector loads, the second a group stride on) accumulated in its ZA
//! vector group (`za.s[w8, 0..3, vgx4]`, started from the biases by `MOVA`); then one group at a
//! time in a two-vector ZA group. Every output takes one fused multi-vector `FMLA` per K value in
//! K order (weights times the K value), as KleidiAI's kernel does: a NaN it produces is the
//! default NaN (ZA-targeting arithmetic), and the result is clamped by `FCLAMP` (`FMAXNM` with the
//! lower bound, then `FMINNM` with the upper).

/// Unit `$i` of z0 for the block: its row `#$o` vectors on, `FMLA`'d into the four ZA groups.
macro_rules! block_step {
    ($i:literal, $o:literal) => {
        sme2_za_step4!($i; sme2_block_rows!($o); ("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
            ("16", "19", "3"))
    };
}

/// Unit `$i` of z0 for one group (x14): its row `#$o` vectors on into a two-vector ZA group.
macro_rules! single_step {
    ($i:literal, $o:literal) => {
        concat!(
            "ld1w {{z4.s-z5.s}}, pn8/z, [x14, #", $o, ", mul vl]\n",
            "fmla za.s[w8, 0, vgx2], {{z4.s-z5.s}}, z0.s[", $i, "]\n",
        )
    };
}

streaming_kernel! {
    /// One LHS row times `n` packed columns (see the module documentation).
    ///
    #[doc = streaming_gemv_safety!("SME2")]
    float fn matmul_f32_f32_f32p2vlx1b_1x16vl_sme2_mla(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, lhs_stride, dst_stride);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: 2 x SVL32 floats (2 x SVL bytes) per row, its bias row and k rows.
        let group = 2 * svl * (k + 1);
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable floats at `lhs`,
        // ceil(n / nr) whole groups at `rhs_packed` (every load below stays inside the group it
        // belongs to, and a block of eight groups runs only while more than seven remain), and
        // n writable floats at `dst`, which the stores cover under whilelt predicates (columns
        // below n only). Streaming mode and registers: `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.s",
                "ptrue pn8.b",
                "mov x8, #0",
                "dup z30.s, w6",
                "dup z31.s, w7",
                "cntw x11, all, mul #16",
                "cntw x12, all, mul #14",
                // ---- blocks of eight groups: while more than 14 x SVL32 columns remain ----
                sme2_block_head!(),
                gemv_k_loop!("x1";
                    concat!(block_step!("0", "0"), block_step!("1", "2"), block_step!("2", "4"),
                        block_step!("3", "6"), sme2_block_advance!("8"));
                    concat!(block_step!("0", "0"), sme2_block_advance!("2"))),
                "mov x9, #0",
                sme2_f32_finish4!(("4", "7", "0", "0") ("8", "11", "1", "4")
                    ("12", "15", "2", "8") ("16", "19", "3", "12")),
                "addvl x4, x4, #16",
                "add x3, x3, x5, lsl #3",
                "subs x0, x0, x11",
                "b.gt 2b",
                "b 9f",
                // ---- the remaining groups, one at a time (two-vector ZA group) ----
                "6:",
                "cmp x0, #0",
                "b.le 9f",
                "ld1w {{z4.s-z5.s}}, pn8/z, [x3]",
                "addvl x14, x3, #2",
                "mova za.d[w8, 0, vgx2], {{z4.d-z5.d}}",
                gemv_k_loop!("x1";
                    concat!(single_step!("0", "0"), single_step!("1", "2"), single_step!("2", "4"),
                        single_step!("3", "6"), "addvl x14, x14, #8\n");
                    concat!(single_step!("0", "0"), "addvl x14, x14, #2\n")),
                "mova {{z4.d-z5.d}}, za.d[w8, 0, vgx2]",
                "fclamp {{z4.s-z5.s}}, z30.s, z31.s",
                "whilelt pn9.s, xzr, x0, vlx2",
                "st1w {{z4.s-z5.s}}, pn9, [x4]",
                "addvl x4, x4, #2",
                "add x3, x3, x5",
                "decw x0, all, mul #2",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group,
                clamp_min.to_bits() as usize, clamp_max.to_bits() as usize)
        }
    }
}
