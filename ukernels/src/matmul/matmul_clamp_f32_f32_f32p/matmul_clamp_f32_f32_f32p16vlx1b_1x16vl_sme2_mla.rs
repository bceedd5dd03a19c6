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

/// One K row of a group (16 vectors) from `[x14]`, `#$o` vectors on (then `#$o + 4`, `+ 8`,
/// `+ 12`), into z4-z19; x14 is not moved.
macro_rules! group_row {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            "ld1w {{z4.s-z7.s}}, pn8/z, [x14, #", $o0, ", mul vl]\n",
            "ld1w {{z8.s-z11.s}}, pn8/z, [x14, #", $o1, ", mul vl]\n",
            "ld1w {{z12.s-z15.s}}, pn8/z, [x14, #", $o2, ", mul vl]\n",
            "ld1w {{z16.s-z19.s}}, pn8/z, [x14, #", $o3, ", mul vl]\n",
        )
    };
}

/// Unit `$i` of z0: the group's row at `$row` `FMLA`'d into the four ZA groups.
macro_rules! group_step {
    ($i:literal; $row:expr) => {
        sme2_za_step4!($i; $row; ("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
            ("16", "19", "3"))
    };
}

/// Advances x14 past two K rows (32 vectors: x10 holds 16 vectors' bytes).
macro_rules! two_rows {
    () => {
        "add x14, x14, x10, lsl #1\n"
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
                "cntw x11, all, mul #16",
                "rdvl x10, #16",
                "2:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x14, x3",
                group_row!("0", "4", "8", "12"),
                "addvl x14, x14, #16",
                sme2_f32_into_za!(("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                gemv_k_loop!("x1";
                    concat!(
                        group_step!("0"; group_row!("0", "4", "8", "12")),
                        group_step!("1"; group_row!("16", "20", "24", "28")),
                        two_rows!(),
                        group_step!("2"; group_row!("0", "4", "8", "12")),
                        group_step!("3"; group_row!("16", "20", "24", "28")),
                        two_rows!(),
                    );
                    concat!(group_step!("0"; group_row!("0", "4", "8", "12")),
                        "addvl x14, x14, #16\n")),
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
