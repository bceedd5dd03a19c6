//! `kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot`: f16 GEMV on SME2, one LHS row, f32 sums
//! in ZA (`FDOT` by element of pairs of halves into four ZA vectors at once). Numerics: the
//! family's [`Pairs::Fdot`](super::Pairs).
//!
//! Columns go in blocks of eight packed groups (`nr` = 2 x SVL32 columns each; groups 2i and
//! 2i + 1 summed in the ZA vector group `za.s[w8, i, vgx4]`) while more than seven groups remain,
//! as KleidiAI's `1x16vl` loop walks them, then in passes of two groups (the second read is the
//! first again when one group's columns or fewer remain: its sums are not stored). Each group
//! starts from its biases widened to f32; the K loop is `half_k_loop!` (four pairs per iteration
//! while four remain). Then the sums are rounded to f16 (`FCVT` of two vectors), clamped by
//! `FCLAMP` and stored for the columns below `n`.

/// The block's eight group pointers, in the order of their four-vector groups.
macro_rules! block_groups {
    ($m:ident!($($a:tt)*)) => {
        concat!(
            $m!($($a)* "x14", "x9"; "4", "5", "6", "7"; "0"),
            $m!($($a)* "x15", "x10"; "8", "9", "10", "11"; "1"),
            $m!($($a)* "x16", "x13"; "12", "13", "14", "15"; "2"),
            $m!($($a)* "x17", "x22"; "16", "17", "18", "19"; "3"),
        )
    };
}

/// The biases of groups `$p` and `$q` widened into z$r0..z$r3 and moved into ZA vector group
/// `$o`; both pointers advanced past them.
macro_rules! pair_bias {
    ($p:literal, $q:literal; $r0:literal, $r1:literal, $r2:literal, $r3:literal; $o:literal) => {
        concat!(
            "ld1h {{z", $r0, ".s}}, p0/z, [", $p, "]\n",
            "ld1h {{z", $r1, ".s}}, p0/z, [", $p, ", #1, mul vl]\n",
            "ld1h {{z", $r2, ".s}}, p0/z, [", $q, "]\n",
            "ld1h {{z", $r3, ".s}}, p0/z, [", $q, ", #1, mul vl]\n",
            "fcvt z", $r0, ".s, p0/m, z", $r0, ".h\n",
            "fcvt z", $r1, ".s, p0/m, z", $r1, ".h\n",
            "fcvt z", $r2, ".s, p0/m, z", $r2, ".h\n",
            "fcvt z", $r3, ".s, p0/m, z", $r3, ".h\n",
            "mova za.d[w8, ", $o, ", vgx4], {{z", $r0, ".d - z", $r3, ".d}}\n",
            "addvl ", $p, ", ", $p, ", #1\n",
            "addvl ", $q, ", ", $q, ", #1\n",
        )
    };
}

/// Pair `$i` of z0 (see `gemv_k_loop!`) for groups `$p` and `$q`: their pair rows `#$v` vectors
/// on (predicate pn10: none when `k == 0`) into z$r0..z$r3, `FDOT`'d by `z0.h[$i]` into ZA vector
/// group `$o`. The pointers are not moved.
macro_rules! pair_step {
    ($i:literal, $v:literal; $p:literal, $q:literal; $r0:literal, $r1:literal, $r2:literal,
        $r3:literal; $o:literal) => {
        concat!(
            "ld1h {{z", $r0, ".h - z", $r1, ".h}}, pn10/z, [", $p, ", #", $v, ", mul vl]\n",
            "ld1h {{z", $r2, ".h - z", $r3, ".h}}, pn10/z, [", $q, ", #", $v, ", mul vl]\n",
            "fdot za.s[w8, ", $o, ", vgx4], {{z", $r0, ".h - z", $r3, ".h}}, z0.h[", $i, "]\n",
        )
    };
}

/// Advances groups `$p` and `$q` by `$v` vectors (the registers and ZA group `block_groups!`
/// passes are not used).
macro_rules! pair_advance {
    ($v:literal; $p:literal, $q:literal; $r0:literal, $r1:literal, $r2:literal, $r3:literal;
        $o:literal) => {
        concat!("addvl ", $p, ", ", $p, ", #", $v, "\n", "addvl ", $q, ", ", $q, ", #", $v, "\n",)
    };
}

/// The sums of ZA vector group `$o` rounded to f16, clamped, and stored at `[x4, #$v, mul vl]`
/// (`$v` = 2 x `$o`) for the columns below x0 (x9 counts columns: the pair's first before, the
/// next pair's after).
macro_rules! pair_finish {
    ($v:literal, $o:literal) => {
        concat!(
            "mova {{z4.d - z7.d}}, za.d[w8, ", $o, ", vgx4]\n",
            "fcvt z20.h, {{z4.s - z5.s}}\n",
            "fcvt z21.h, {{z6.s - z7.s}}\n",
            "fclamp {{z20.h - z21.h}}, z30.h, z31.h\n",
            "whilelt pn8.h, x9, x0, vlx2\n",
            "st1h {{z20.h - z21.h}}, pn8, [x4, #", $v, ", mul vl]\n",
            "inch x9, all, mul #2\n",
        )
    };
}

/// One pass's two groups (x14, x15) for pair `$i` of z0, `#$v` vectors on.
macro_rules! pass_step {
    ($i:literal, $v:literal) => {
        pair_step!($i, $v; "x14", "x15"; "20", "21", "22", "23"; "0")
    };
}

streaming_kernel! {
    /// The family's [SME GEMV](super#the-sme-gemvs-f16p2vlx2b-pairs) with `nr` = 2 x SVL32.
    ///
    #[doc = streaming_gemv_safety!("SME2")]
    half fn matmul_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // One row: KleidiAI ignores both strides.
        let _ = (m, lhs_stride, dst_stride);
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A group: its biases (one vector of halves), then one row of pairs (two vectors) per
        // pair of K values.
        let group = svl * (1 + 2 * k.div_ceil(2));
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable halves at `lhs` (read
        // four pairs at a time while four remain, then by pair, then the odd one alone),
        // ceil(n / nr) whole groups at `rhs_packed` (every load stays in its group; a block of
        // eight runs only while more than seven remain, a pass's second group is read only when
        // it exists), and n writable halves at `dst`, which the stores cover under whilelt
        // predicates. Streaming mode and registers: `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.b",
                "dup z30.h, w6",
                "dup z31.h, w7",
                half_k_setup!(),
                "whilelo pn10.h, xzr, x11, vlx2",
                "mov w8, #0",
                "cnth x12, all, mul #7",
                // ---- blocks of eight groups: while more than seven remain ----
                "2:",
                "cmp x0, x12",
                "b.le 6f",
                eight_group_pointers!(),
                block_groups!(pair_bias!()),
                half_k_loop!(
                    concat!(
                        block_groups!(pair_step!("0", "0";)),
                        block_groups!(pair_step!("1", "2";)),
                        block_groups!(pair_step!("2", "4";)),
                        block_groups!(pair_step!("3", "6";)),
                        block_groups!(pair_advance!("8";)));
                    concat!(block_groups!(pair_step!("0", "0";)),
                        block_groups!(pair_advance!("2";)))),
                "mov x9, #0",
                pair_finish!("0", "0"),
                pair_finish!("2", "1"),
                pair_finish!("4", "2"),
                pair_finish!("6", "3"),
                "addvl x4, x4, #8",
                "add x3, x3, x5, lsl #3",
                "dech x0, all, mul #8",
                "b 2b",
                // ---- passes of two groups ----
                "6:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x14, x3",
                "cnth x15",
                "cmp x0, x15",
                "add x15, x3, x5",
                "csel x15, x15, x3, gt",
                pair_bias!("x14", "x15"; "8", "9", "10", "11"; "0"),
                half_k_loop!(
                    concat!(
                        pass_step!("0", "0"),
                        pass_step!("1", "2"),
                        pass_step!("2", "4"),
                        pass_step!("3", "6"),
                        "addvl x14, x14, #8\n",
                        "addvl x15, x15, #8\n");
                    concat!(pass_step!("0", "0"), "addvl x14, x14, #2\n", "addvl x15, x15, #2\n")),
                "mov x9, #0",
                pair_finish!("0", "0"),
                "addvl x4, x4, #2",
                "add x3, x3, x5, lsl #1",
                "dech x0, all, mul #2",
                "b 6b",
                "9:",
            ];
                n, k, lhs, rhs_packed, dst, group, usize::from(clamp_min), usize::from(clamp_max))
        }
    }
}
