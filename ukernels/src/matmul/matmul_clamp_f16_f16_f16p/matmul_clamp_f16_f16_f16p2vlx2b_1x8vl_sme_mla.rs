//! `kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla`: f16 GEMV on the streaming SVE unit (SME),
//! one LHS row, f32 accumulators widened from f16 (`FMLALB`/`FMLALT` by element). Numerics: the
//! family's [`Pairs::Fmlal`](super::Pairs).
//!
//! Columns go in blocks of four packed groups (`nr` = 2 x SVL32 columns each, eight f32
//! accumulators z16-z23) while more than three groups remain, then one group at a time (z16/z17),
//! as KleidiAI's `1x8vl` loop walks them. Each group starts from its biases widened to f32 and
//! takes, per pair of K values in K order, `FMLALB` (even K) then `FMLALT` (odd K) of each
//! accumulator; the K loop is `half_k_loop!` (four pairs per iteration while four remain). Then
//! each group is rounded to f16, clamped (`FMIN` by the upper bound, then `FMAX` by the lower) and
//! stored for the columns below `n`.

/// Pair `$i` of z0 (see `gemv_k_loop!`) for one group at `$p`: its pair row at `#$o0` and `#$o1`
/// vectors into z$w0/z$w1 (predicate p3: none when `k == 0`), then `FMLALB` by the even half and
/// `FMLALT` by the odd half into z$a0/z$a1. `$p` is not moved.
macro_rules! group_pair {
    ($p:literal, $o0:literal, $o1:literal, $e:literal, $od:literal; $w0:literal, $w1:literal;
        $a0:literal, $a1:literal) => {
        concat!(
            "ld1h {{z", $w0, ".h}}, p3/z, [", $p, ", #", $o0, ", mul vl]\n",
            "ld1h {{z", $w1, ".h}}, p3/z, [", $p, ", #", $o1, ", mul vl]\n",
            "fmlalb z", $a0, ".s, z", $w0, ".h, z0.h[", $e, "]\n",
            "fmlalb z", $a1, ".s, z", $w1, ".h, z0.h[", $e, "]\n",
            "fmlalt z", $a0, ".s, z", $w0, ".h, z0.h[", $od, "]\n",
            "fmlalt z", $a1, ".s, z", $w1, ".h, z0.h[", $od, "]\n",
        )
    };
}

/// Pair `$i` (halves `$e`, `$od` of z0; pair row `#$o0`, `#$o1` vectors on) of the block of four
/// groups (x12-x15) into z16-z23.
macro_rules! block_pair {
    ($o0:literal, $o1:literal, $e:literal, $od:literal) => {
        concat!(
            group_pair!("x12", $o0, $o1, $e, $od; "1", "2"; "16", "17"),
            group_pair!("x13", $o0, $o1, $e, $od; "3", "4"; "18", "19"),
            group_pair!("x14", $o0, $o1, $e, $od; "5", "6"; "20", "21"),
            group_pair!("x15", $o0, $o1, $e, $od; "7", "8"; "22", "23"),
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

/// A group's biases from `[$p]` (one vector of halves) widened into z$a0/z$a1, `$p` advanced past
/// them.
macro_rules! group_bias {
    ($p:literal; $a0:literal, $a1:literal) => {
        concat!(
            "ld1h {{z", $a0, ".s}}, p0/z, [", $p, "]\n",
            "ld1h {{z", $a1, ".s}}, p0/z, [", $p, ", #1, mul vl]\n",
            "fcvt z", $a0, ".s, p0/m, z", $a0, ".h\n",
            "fcvt z", $a1, ".s, p0/m, z", $a1, ".h\n",
            "addvl ", $p, ", ", $p, ", #1\n",
        )
    };
}

/// A group's accumulators z$a0/z$a1 rounded to f16 (into z$a0), clamped, and stored at `[x4,
/// #$v, mul vl]` for the columns below x0 (x8 counts columns: the group's first before, the next
/// group's after).
macro_rules! group_finish {
    ($a0:literal, $a1:literal, $v:literal) => {
        concat!(
            "fcvt z", $a0, ".h, p0/m, z", $a0, ".s\n",
            "fcvt z", $a1, ".h, p0/m, z", $a1, ".s\n",
            "uzp1 z", $a0, ".h, z", $a0, ".h, z", $a1, ".h\n",
            "fmin z", $a0, ".h, p0/m, z", $a0, ".h, z31.h\n",
            "fmax z", $a0, ".h, p0/m, z", $a0, ".h, z30.h\n",
            "whilelt p1.h, x8, x0\n",
            "st1h {{z", $a0, ".h}}, p1, [x4, #", $v, ", mul vl]\n",
            "inch x8\n",
        )
    };
}

streaming_kernel! {
    /// The family's [SME GEMV](super#the-sme-gemvs-f16p2vlx2b-pairs) with `nr` = 2 x SVL32.
    ///
    #[doc = streaming_gemv_safety!("SME")]
    half fn matmul_f16_f16_f16p2vlx2b_1x8vl_sme_mla(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, lhs_stride, dst_stride);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: its biases (one vector of halves), then one row of pairs (two vectors) per
        // pair of K values.
        let group = svl * (1 + 2 * k.div_ceil(2));
        // SAFETY: the caller guarantees (see `# Safety`) SME, k readable halves at `lhs` (read
        // four pairs at a time while four remain, then by pair, then the odd one alone),
        // ceil(n / nr) whole groups at `rhs_packed` (every load stays in its group; a block of
        // four runs only while more than three remain), and n writable halves at `dst`, which
        // the stores cover under whilelt predicates. Streaming mode and registers:
        // `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme"; [
                "ptrue p0.b",
                "dup z30.h, w6",
                "dup z31.h, w7",
                half_k_setup!(),
                "cnth x9, all, mul #3",
                "cnth x10, all, mul #4",
                // ---- blocks of four groups: while more than three remain ----
                "2:",
                "cmp x0, x9",
                "b.le 6f",
                four_group_pointers!(),
                group_bias!("x12"; "16", "17"),
                group_bias!("x13"; "18", "19"),
                group_bias!("x14"; "20", "21"),
                group_bias!("x15"; "22", "23"),
                half_k_loop!(
                    concat!(block_pair!("0", "1", "0", "1"), block_pair!("2", "3", "2", "3"),
                        block_pair!("4", "5", "4", "5"), block_pair!("6", "7", "6", "7"),
                        block_advance!("8"));
                    concat!(block_pair!("0", "1", "0", "1"), block_advance!("2"))),
                "mov x8, #0",
                group_finish!("16", "17", "0"),
                group_finish!("18", "19", "1"),
                group_finish!("20", "21", "2"),
                group_finish!("22", "23", "3"),
                "addvl x4, x4, #4",
                "add x3, x3, x5, lsl #2",
                "subs x0, x0, x10",
                "b.gt 2b",
                "b 9f",
                // ---- the remaining groups, one at a time ----
                "6:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x12, x3",
                group_bias!("x12"; "16", "17"),
                half_k_loop!(
                    concat!(
                        group_pair!("x12", "0", "1", "0", "1"; "1", "2"; "16", "17"),
                        group_pair!("x12", "2", "3", "2", "3"; "1", "2"; "16", "17"),
                        group_pair!("x12", "4", "5", "4", "5"; "1", "2"; "16", "17"),
                        group_pair!("x12", "6", "7", "6", "7"; "1", "2"; "16", "17"),
                        "addvl x12, x12, #8\n");
                    concat!(group_pair!("x12", "0", "1", "0", "1"; "1", "2"; "16", "17"),
                        "addvl x12, x12, #2\n")),
                "mov x8, #0",
                group_finish!("16", "17", "0"),
                "addvl x4, x4, #1",
                "add x3, x3, x5",
                "dech x0",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group, usize::from(clamp_min), usize::from(clamp_max))
        }
    }
}
