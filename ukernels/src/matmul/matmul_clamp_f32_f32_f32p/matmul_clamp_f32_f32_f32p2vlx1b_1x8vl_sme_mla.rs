//! `kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla`: f32 GEMV (one row x 8 x SVL32 columns
//! per step) in streaming SVE, for CPUs with SME (no SME2 needed), on the RHS of
//! `rhs_pack_{kxn,nxk}_f32p2vlx1biasf32_f32_f32_sme` (groups of `nr = 2 x SVL32` columns: their
//! biases, then one row of them per K value).
//!
//! Columns go in blocks of four groups (eight vectors, z16-z23) while more than three groups
//! remain, then one group (two vectors) at a time. Every output starts from its bias and takes one
//! fused `FMLA` per K value in K order (weight times the K value broadcast from the LHS row), then
//! `FMIN` with the upper bound and `FMAX` with the lower: the family's chain, as KleidiAI's kernel
//! computes it (its `1x8vl` loop walks the same groups eight vectors at a time). The K loop is
//! `gemv_k_loop!`: four K values per iteration while four remain (each group's four rows read at
//! immediate offsets, its pointer advanced once).

/// Unit `$i` (K row `$i` of four, vectors `#$o0` and `#$o1` on) of the block of four groups
/// (x12-x15) into z16-z23.
macro_rules! block_step {
    ($i:literal, $o0:literal, $o1:literal) => {
        concat!(
            sme_f32_step2!("x12", $o0, $o1, $i; "1", "2"; "16", "17"),
            sme_f32_step2!("x13", $o0, $o1, $i; "3", "4"; "18", "19"),
            sme_f32_step2!("x14", $o0, $o1, $i; "5", "6"; "20", "21"),
            sme_f32_step2!("x15", $o0, $o1, $i; "7", "8"; "22", "23"),
        )
    };
}

/// Advances the block's group pointers (x12-x15) by `$v` vectors.
macro_rules! block_advance {
    ($v:literal) => {
        concat!(
            "addvl x12, x12, #", $v, "\n",
            "addvl x13, x13, #", $v, "\n",
            "addvl x14, x14, #", $v, "\n",
            "addvl x15, x15, #", $v, "\n",
        )
    };
}

streaming_kernel! {
    /// One LHS row times `n` packed columns (see the module documentation).
    ///
    #[doc = streaming_gemv_safety!("SME")]
    float fn matmul_f32_f32_f32p2vlx1b_1x8vl_sme_mla(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, lhs_stride, dst_stride);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: 2 x SVL32 floats (2 x SVL bytes) per row, its bias row and k rows.
        let group = 2 * svl * (k + 1);
        // SAFETY: the caller guarantees (see `# Safety`) SME, k readable floats at `lhs`,
        // ceil(n / nr) whole groups at `rhs_packed` (every load below stays inside the group
        // it belongs to, and a block of four groups runs only while more than three remain), and
        // n writable floats at `dst`, which the stores cover under whilelt predicates (columns
        // below n only). Streaming mode and registers: `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme"; [
                "ptrue p0.s",
                "dup z30.s, w6",
                "dup z31.s, w7",
                "cntw x9",
                "lsl x10, x9, #3",
                "sub x11, x10, x9, lsl #1",
                // ---- blocks of four groups: while more than 6 x SVL32 columns remain ----
                "2:",
                "cmp x0, x11",
                "b.le 6f",
                four_group_pointers!(),
                sme_f32_row2!("x12"; "16", "17"),
                sme_f32_row2!("x13"; "18", "19"),
                sme_f32_row2!("x14"; "20", "21"),
                sme_f32_row2!("x15"; "22", "23"),
                gemv_k_loop!("x1";
                    concat!(block_step!("0", "0", "1"), block_step!("1", "2", "3"),
                        block_step!("2", "4", "5"), block_step!("3", "6", "7"),
                        block_advance!("8"));
                    concat!(block_step!("0", "0", "1"), block_advance!("2"))),
                sme_f32_clamp!("16", "17", "18", "19", "20", "21", "22", "23"),
                "mov x8, #0",
                sme_f32_store!(("16", "0") ("17", "1") ("18", "2") ("19", "3")
                    ("20", "4") ("21", "5") ("22", "6") ("23", "7")),
                "addvl x4, x4, #8",
                "add x3, x3, x5, lsl #2",
                "subs x0, x0, x10",
                "b.gt 2b",
                "b 9f",
                // ---- the remaining groups, one at a time ----
                "6:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x12, x3",
                sme_f32_row2!("x12"; "16", "17"),
                gemv_k_loop!("x1";
                    concat!(
                        sme_f32_step2!("x12", "0", "1", "0"; "1", "2"; "16", "17"),
                        sme_f32_step2!("x12", "2", "3", "1"; "1", "2"; "16", "17"),
                        sme_f32_step2!("x12", "4", "5", "2"; "1", "2"; "16", "17"),
                        sme_f32_step2!("x12", "6", "7", "3"; "1", "2"; "16", "17"),
                        "addvl x12, x12, #8\n");
                    concat!(sme_f32_step2!("x12", "0", "1", "0"; "1", "2"; "16", "17"),
                        "addvl x12, x12, #2\n")),
                sme_f32_clamp!("16", "17"),
                "mov x8, #0",
                sme_f32_store!(("16", "0") ("17", "1")),
                "addvl x4, x4, #2",
                "add x3, x3, x5",
                "sub x0, x0, x9, lsl #1",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group,
                clamp_min.to_bits() as usize, clamp_max.to_bits() as usize)
        }
    }
}
