//! `kai_matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla`: f32 GEMV (one row x 16 x SVL32
//! columns per step) accumulating in ZA, for CPUs with SME2, on the RHS of
//! `rhs_pack_kxn_f32p16vlx1b_f32_f32_sme` (groups of `nr = 16 x SVL32` columns: their biases,
//! then one row of them per K value; the last group is padded to whole rows).
//!
//! One group per step: its row is four four-vector groups (multi-vector loads at `#0`, `#4`, `#8`,
//! `#12` vectors), each accumulated in its ZA vector group (`za.s[w8, 0..3, vgx4]`, started from
//! the biases by `MOVA`). Every output takes one fused multi-vector `FMLA` per K value in K order
//! (weights times the K value), as KleidiAI's kernel does: a NaN it produces is the default NaN
//! (ZA-targeting arithmetic), and the result is clamped by `FCLAMP` (`FMAXNM` with the lower
//! bound, then `FMINNM` with the upper). Columns past `n` in the last group are computed from the
//! packer's zero padding and not stored.

/// One K row of a group (16 vectors) from `[x14]` into z4-z19, x14 advanced by the row.
macro_rules! group_row {
    () => {
        concat!(
            "ld1w {{z4.s-z7.s}}, pn8/z, [x14]\n",
            "ld1w {{z8.s-z11.s}}, pn8/z, [x14, #4, mul vl]\n",
            "ld1w {{z12.s-z15.s}}, pn8/z, [x14, #8, mul vl]\n",
            "ld1w {{z16.s-z19.s}}, pn8/z, [x14, #12, mul vl]\n",
            "addvl x14, x14, #16\n",
        )
    };
}

streaming_kernel! {
    /// One LHS row times `n` packed columns (see the module documentation).
    ///
    #[doc = streaming_gemv_safety!("SME2")]
    float fn matmul_f32_f32_f32p16vlx1b_1x16vl_sme2_mla(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, lhs_stride, dst_stride);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: 16 x SVL32 floats (16 x SVL bytes) per row, its bias row and k rows.
        let group = 16 * svl * (k + 1);
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable floats at `lhs`,
        // ceil(n / nr) whole groups at `rhs_packed` (every load below reads one row of the
        // current group), and n writable floats at `dst`, which the stores cover under whilelt
        // predicates (columns below n only). Streaming mode and registers:
        // `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.s",
                "ptrue pn8.b",
                "mov x8, #0",
                "dup z30.s, w6",
                "dup z31.s, w7",
                "cntw x10",
                "lsl x11, x10, #4",
                "2:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x14, x3",
                group_row!(),
                sme2_f32_into_za!(("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                "mov x20, x2",
                "mov x21, x1",
                "cbz x21, 4f",
                "3:",
                sme2_f32_step4!(group_row!(); ("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                "subs x21, x21, #1",
                "b.ne 3b",
                "4:",
                "mov x9, #0",
                sme2_f32_finish4!(("4", "7", "0", "0") ("8", "11", "1", "4")
                    ("12", "15", "2", "8") ("16", "19", "3", "12")),
                "addvl x4, x4, #16",
                "add x3, x3, x5",
                "sub x0, x0, x11",
                "b 2b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group,
                clamp_min.to_bits() as usize, clamp_max.to_bits() as usize)
        }
    }
}
