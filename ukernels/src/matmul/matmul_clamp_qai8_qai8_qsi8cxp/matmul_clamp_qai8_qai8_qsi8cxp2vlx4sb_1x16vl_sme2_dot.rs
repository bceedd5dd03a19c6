//! `kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot`: int8-output GEMV (one unpacked
//! int8 LHS row x 16 x SVL32 columns per step) accumulating in ZA, for CPUs with SME2, on the RHS
//! of `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` (groups of `nr = 2 x SVL32` columns: their
//! `i32` biases, per step of four K values four bytes of each column, their `f32` scales).
//!
//! Columns go in blocks of eight groups while more than seven remain: each pair of groups is one
//! four-vector group (two two-vector loads, the second a group stride on) accumulated in its ZA
//! vector group (`za.s[w8, 0..3, vgx4]`, started from the biases by `MOVA`) by one multi-vector
//! `SDOT` per step of four K values, in K order; then one group at a time in a two-vector ZA
//! group. The sums wrap in `i32`; the requantization is `sme2_i8_finish!`'s (`SCVTF`, `FMUL` by
//! the column's scale, `FRINTN`, `FCVTZS`, wrapping add of the output zero point, `SCLAMP`, the
//! low byte).

/// Step `$i` of z0 for the block: its bytes `#$o` vectors on, `SDOT`'d into the four ZA groups.
macro_rules! block_step {
    ($i:literal, $o:literal) => {
        sme2_za_step4!(sdot $i; sme2_block_rows!($o); ("4", "7", "0") ("8", "11", "1")
            ("12", "15", "2") ("16", "19", "3"))
    };
}

/// Step `$i` of z0 for one group (x14): its bytes `#$o` vectors on into a two-vector ZA group.
macro_rules! single_step {
    ($i:literal, $o:literal) => {
        concat!(
            "ld1w {{z4.s-z5.s}}, pn8/z, [x14, #", $o, ", mul vl]\n",
            "sdot za.s[w8, 0, vgx2], {{z4.b-z5.b}}, z0.b[", $i, "]\n",
        )
    };
}

streaming_kernel! {
    /// One unpacked LHS row times `n` packed columns (see the module documentation).
    ///
    #[doc = streaming_gemv_safety!("SME2")]
    requantize fn matmul_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(
        m, n, k, lhs, rhs_packed, dst, dst_stride_row, params,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, dst_stride_row);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: 2 x SVL32 columns (SVL / 2 of them) of a bias, roundup(k, 4) bytes and a
        // scale each.
        let group = svl / 2 * (k.div_ceil(4) * 4 + 8);
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable bytes at `lhs` (the
        // last k % 4 are read under a byte predicate), ceil(n / nr) whole groups at
        // `rhs_packed` (every load below stays inside the group it belongs to, and a block of
        // eight groups runs only while more than seven remain), one readable
        // `kai_matmul_requantize32_params` at `params` and n writable bytes at `dst`, which the
        // stores cover under whilelt predicates (columns below n only). Streaming mode and
        // registers: `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.b",
                "ptrue pn8.b",
                "mov x8, #0",
                sme2_i8_setup!(),
                "cntw x12, all, mul #14",
                // ---- blocks of eight groups: while more than 14 x SVL32 columns remain ----
                sme2_block_head!(),
                int8_k_loop!(
                    concat!(block_step!("0", "0"), block_step!("1", "2"), block_step!("2", "4"),
                        block_step!("3", "6"), sme2_block_advance!("8"));
                    concat!(block_step!("0", "0"), sme2_block_advance!("2"))),
                "mov x11, #0",
                sme2_i8_finish!(4; ("0", "x14", "x9") ("1", "x15", "x10") ("2", "x16", "x13")
                    ("3", "x17", "x22")),
                "add x3, x3, x5, lsl #3",
                "decw x0, all, mul #16",
                "cmp x0, #0",
                "b.gt 2b",
                "b 9f",
                // ---- the remaining groups, one at a time (two-vector ZA group) ----
                "6:",
                "cmp x0, #0",
                "b.le 9f",
                "ld1w {{z4.s-z5.s}}, pn8/z, [x3]",
                "addvl x14, x3, #2",
                "mova za.d[w8, 0, vgx2], {{z4.d-z5.d}}",
                int8_k_loop!(
                    concat!(single_step!("0", "0"), single_step!("1", "2"), single_step!("2", "4"),
                        single_step!("3", "6"), "addvl x14, x14, #8\n");
                    concat!(single_step!("0", "0"), "addvl x14, x14, #2\n")),
                "mov x11, #0",
                sme2_i8_finish!(2; "x14"),
                "incw x4, all, mul #2",
                "add x3, x3, x5",
                "decw x0, all, mul #2",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group, params as usize, 0usize)
        }
    }
}
