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

/// One K row of a block's eight groups into z4-z19: groups 2i and 2i + 1 (a group stride, x13
/// floats, apart) from the pointer of pair i (x14-x17) into z(4 + 4i)..z(7 + 4i), each pointer
/// advanced by the row.
macro_rules! pair_rows {
    () => {
        concat!(
            "ld1w {{z4.s-z5.s}}, pn8/z, [x14]\n",
            "ld1w {{z6.s-z7.s}}, pn8/z, [x14, x13, lsl #2]\n",
            "ld1w {{z8.s-z9.s}}, pn8/z, [x15]\n",
            "ld1w {{z10.s-z11.s}}, pn8/z, [x15, x13, lsl #2]\n",
            "ld1w {{z12.s-z13.s}}, pn8/z, [x16]\n",
            "ld1w {{z14.s-z15.s}}, pn8/z, [x16, x13, lsl #2]\n",
            "ld1w {{z16.s-z17.s}}, pn8/z, [x17]\n",
            "ld1w {{z18.s-z19.s}}, pn8/z, [x17, x13, lsl #2]\n",
            "addvl x14, x14, #2\n",
            "addvl x15, x15, #2\n",
            "addvl x16, x16, #2\n",
            "addvl x17, x17, #2\n",
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
                "cntw x10",
                "lsl x11, x10, #4",
                "sub x12, x11, x10, lsl #1",
                "lsr x13, x5, #2",
                // ---- blocks of eight groups: while more than 14 x SVL32 columns remain ----
                "2:",
                "cmp x0, x12",
                "b.le 6f",
                "mov x14, x3",
                "add x15, x14, x5, lsl #1",
                "add x16, x15, x5, lsl #1",
                "add x17, x16, x5, lsl #1",
                pair_rows!(),
                sme2_f32_into_za!(("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                "mov x20, x2",
                "mov x21, x1",
                "cbz x21, 4f",
                "3:",
                sme2_f32_step4!(pair_rows!(); ("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                "subs x21, x21, #1",
                "b.ne 3b",
                "4:",
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
                "mov x20, x2",
                "mov x21, x1",
                "cbz x21, 8f",
                "7:",
                "ld1rw {{z0.s}}, p0/z, [x20]",
                "add x20, x20, #4",
                "ld1w {{z4.s-z5.s}}, pn8/z, [x14]",
                "addvl x14, x14, #2",
                "fmla za.s[w8, 0, vgx2], {{z4.s-z5.s}}, z0.s[0]",
                "subs x21, x21, #1",
                "b.ne 7b",
                "8:",
                "mova {{z4.d-z5.d}}, za.d[w8, 0, vgx2]",
                "fclamp {{z4.s-z5.s}}, z30.s, z31.s",
                "whilelt pn9.s, xzr, x0, vlx2",
                "st1w {{z4.s-z5.s}}, pn9, [x4]",
                "addvl x4, x4, #2",
                "add x3, x3, x5",
                "sub x0, x0, x10, lsl #1",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group,
                clamp_min.to_bits() as usize, clamp_max.to_bits() as usize)
        }
    }
}
