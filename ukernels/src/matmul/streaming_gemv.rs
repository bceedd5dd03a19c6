//! The streaming GEMVs with an unpacked LHS (KleidiAI's `_1x8vl_sme_mla` / `_1x16vl_sme2_*`
//! kernels of the float families): one LHS row against packed RHS groups of columns, each group
//! its biases then one row of columns per K value. What they share, whatever the element type:
//!
//! * the declaration: `streaming_kernel!`'s `float fn` (f32 bounds) or `half fn` (f16 bounds as
//!   bits) form (`matmul/streaming.rs`), whose `run` commits a pending lazy
//!   ZA save, and the entry `streaming_entry!(..., unpacked folder::module, One)` (`kernel.rs`);
//! * the register convention of `streaming_gemv_asm!`, which wraps `streaming_asm!` with the
//!   operands below, so a kernel file holds only its loops;
//! * `streaming_gemv_safety!`, the `# Safety` section of every such kernel;
//! * the K loop, `gemv_k_loop!`: four units (K values of f32, pairs of K values of f16) per
//!   iteration while four remain, each broadcast to the 128-bit segments of z0 by one `LD1RQW`
//!   and taken by element (`FMLA`, `FMLALB`/`FMLALT`, `FDOT` by `z0.s[i]` or `z0.h[j]`), the RHS
//!   rows of the four read at immediate offsets and each pointer advanced once; then the units
//!   left one at a time (`LD1RW`). The f16 kernels wrap it in `half_k_loop!`, which adds the odd
//!   K value and the `k == 0` step.
//!
//! The fragments after those are the element-specific pieces: f32 (SME: two-vector group steps,
//! clamps and stores in Z registers; SME2: ZA vector groups, the eight-group block's loads, and
//! their finish), int8 with requantized int8 output (`SDOT` steps into ZA, the K tail of
//! `int8_k_loop!`, `sme2_i8_finish!`), then f16 (the pair loop's set-up and `half_k_loop!`).
//!
//! Register convention (operands of `streaming_gemv_asm!`):
//!
//! ```text
//! x0  columns left (signed; may go negative past the last group)
//! x1  k                       x2  LHS row (k elements, read once per column block)
//! x3  RHS group pointer       x4  dst (advances with the columns)
//! x5  bytes of one RHS group  x6 / x7  clamp_min / clamp_max bits (of the element type);
//!                             int8 output: x6 the `kai_matmul_requantize32_params`
//! x8-x17, x20-x22  scratch (the K loop: x20, x21; f16 and int8 also x11); every Z, P and PN
//!                  register; ZA
//! ```

/// The `# Safety` section of the streaming GEMVs with an unpacked LHS (for `#[doc = ...]`).
macro_rules! streaming_gemv_safety {
    ($isa:literal) => {
        concat!(
            "# Safety\n\n",
            "The [family contract](super#safety) with `m == 1`; the CPU must implement ",
            $isa,
            ", and a pending lazy ZA save must follow the AAPCS64 SME ABI.\n",
        )
    };
}

/// One streaming `asm!` block of a GEMV with an unpacked LHS: `$ext` (`"sme"` or `"sme2"`), the
/// kernel's text, then `n, k, lhs, rhs_packed, dst, group_bytes, clamp_min_bits,
/// clamp_max_bits` bound to the registers of the module's convention.
macro_rules! streaming_gemv_asm {
    (
        $ext:literal; [$($text:expr),+ $(,)?];
        $n:expr, $k:expr, $lhs:expr, $rhs:expr, $dst:expr, $group:expr, $lo:expr, $hi:expr
    ) => {
        streaming_asm!($ext; $($text),+;
            inout("x0") $n => _,
            in("x1") $k,
            in("x2") $lhs,
            inout("x3") $rhs => _,
            inout("x4") $dst => _,
            in("x5") $group,
            in("x6") $lo,
            in("x7") $hi,
            out("x8") _, out("x9") _, out("x10") _, out("x11") _, out("x12") _, out("x13") _,
            out("x14") _, out("x15") _, out("x16") _, out("x17") _, out("x20") _, out("x21") _,
            out("x22") _,
        )
    };
}

/// The K loop of every GEMV of this form, over `$units` (a register: K values for f32, pairs of
/// K values for f16) of four bytes each of the LHS row, in K order: while four units remain,
/// `LD1RQW` puts them in every 128-bit segment of z0 and `$four` runs (its steps take unit `i`
/// as the indexed element `z0.s[i]`, or its halves `z0.h[2i]`, `z0.h[2i + 1]`, and advance the
/// RHS pointers past the four rows); then each unit left is broadcast by `LD1RW` (unit 0 of
/// every segment) and `$one` runs. Leaves x20 past the units read. Uses x20 and x21; labels 30 to
/// 33.
macro_rules! gemv_k_loop {
    ($units:literal; $four:expr; $one:expr) => {
        concat!(
            "mov x20, x2\n",
            "lsr x21, ",
            $units,
            ", #2\n",
            "cbz x21, 31f\n",
            "30:\n",
            "ld1rqw {{z0.s}}, p0/z, [x20]\n",
            "add x20, x20, #16\n",
            $four,
            "subs x21, x21, #1\n",
            "b.ne 30b\n",
            "31:\n",
            "ands x21, ",
            $units,
            ", #3\n",
            "b.eq 33f\n",
            "32:\n",
            "ld1rw {{z0.s}}, p0/z, [x20]\n",
            "add x20, x20, #4\n",
            $one,
            "subs x21, x21, #1\n",
            "b.ne 32b\n",
            "33:\n",
        )
    };
}

/// The RHS pointers of a block of four groups (SME kernels): x12 at the group x3 points to, x13,
/// x14 and x15 at the next three (x5 bytes apart).
macro_rules! four_group_pointers {
    () => {
        concat!(
            "mov x12, x3\n",
            "add x13, x12, x5\n",
            "add x14, x13, x5\n",
            "add x15, x14, x5\n",
        )
    };
}

/// The RHS pointers of a block of eight groups (SME2 kernels), in group order: x14 at the group
/// x3 points to, then x9, x15, x10, x16, x13, x17, x22 (x5 bytes apart).
macro_rules! eight_group_pointers {
    () => {
        concat!(
            "mov x14, x3\n",
            "add x9, x14, x5\n",
            "add x15, x9, x5\n",
            "add x10, x15, x5\n",
            "add x16, x10, x5\n",
            "add x13, x16, x5\n",
            "add x17, x13, x5\n",
            "add x22, x17, x5\n",
        )
    };
}

// ---- f32, SME (streaming SVE): accumulators in Z registers ----

/// Two vectors (one `2vl` group's row) from `[$p]` into z$a/z$b (predicate p0), `$p` advanced
/// past them.
macro_rules! sme_f32_row2 {
    ($p:literal; $a:literal, $b:literal) => {
        concat!(
            "ld1w {{z",
            $a,
            ".s}}, p0/z, [",
            $p,
            "]\n",
            "ld1w {{z",
            $b,
            ".s}}, p0/z, [",
            $p,
            ", #1, mul vl]\n",
            "addvl ",
            $p,
            ", ",
            $p,
            ", #2\n",
        )
    };
}

/// One K step of one group, unit `$i` of z0 (see `gemv_k_loop!`): its row at `[$p, #$o0, mul
/// vl]` and `[$p, #$o1, mul vl]` into z$w0/z$w1, then `acc += w * z0.s[$i]` into z$a0/z$a1,
/// fused (`FMLA` by element, weight first as KleidiAI's kernel multiplies). `$p` is not moved.
macro_rules! sme_f32_step2 {
    ($p:literal, $o0:literal, $o1:literal, $i:literal; $w0:literal, $w1:literal;
        $a0:literal, $a1:literal) => {
        concat!(
            "ld1w {{z",
            $w0,
            ".s}}, p0/z, [",
            $p,
            ", #",
            $o0,
            ", mul vl]\n",
            "ld1w {{z",
            $w1,
            ".s}}, p0/z, [",
            $p,
            ", #",
            $o1,
            ", mul vl]\n",
            "fmla z",
            $a0,
            ".s, z",
            $w0,
            ".s, z0.s[",
            $i,
            "]\n",
            "fmla z",
            $a1,
            ".s, z",
            $w1,
            ".s, z0.s[",
            $i,
            "]\n",
        )
    };
}

/// `FMIN` with the upper bound (z31), then `FMAX` with the lower (z30), of each z$r.
macro_rules! sme_f32_clamp {
    ($($r:literal),+) => {
        concat!(
            $("fmin z", $r, ".s, p0/m, z", $r, ".s, z31.s\n",)+
            $("fmax z", $r, ".s, p0/m, z", $r, ".s, z30.s\n",)+
        )
    };
}

/// Stores z$r to `[x4, #$i, mul vl]` for the columns below x0, counting columns in x8 (which
/// must be the column of vector 0 before the first).
macro_rules! sme_f32_store {
    ($(($r:literal, $i:literal))+) => {
        concat!($(
            "whilelt p1.s, x8, x0\n",
            "st1w {{z", $r, ".s}}, p1, [x4, #", $i, ", mul vl]\n",
            "incw x8\n",
        )+)
    };
}

// ---- f32, SME2: accumulators in ZA vector groups ----

/// Moves the four-vector groups z$r..z$r+3 (one per listed ZA vector group offset) into ZA.
macro_rules! sme2_f32_into_za {
    ($(($r0:literal, $r3:literal, $o:literal))+) => {
        concat!($("mova za.d[w8, ", $o, ", vgx4], {{z", $r0, ".d-z", $r3, ".d}}\n",)+)
    };
}

/// The finish of four-vector groups: each ZA vector group read into z$r0..z$r3, `FCLAMP` with
/// z30/z31, and stored to `[x4, #$i, mul vl]` for the columns below x0 (x9 counts columns; it
/// must be the column of the first group before; w8 selects the ZA vector groups).
macro_rules! sme2_f32_finish4 {
    ($(($r0:literal, $r3:literal, $o:literal, $i:literal))+) => {
        concat!($(
            "mova {{z", $r0, ".d-z", $r3, ".d}}, za.d[w8, ", $o, ", vgx4]\n",
            "fclamp {{z", $r0, ".s-z", $r3, ".s}}, z30.s, z31.s\n",
            "whilelt pn9.s, x9, x0, vlx4\n",
            "st1w {{z", $r0, ".s-z", $r3, ".s}}, pn9, [x4, #", $i, ", mul vl]\n",
            "incw x9, all, mul #4\n",
        )+)
    };
}

/// One K step of the SME2 GEMVs, unit `$i` of z0 (see `gemv_k_loop!`): `$loads` fills the
/// registers, then each listed four-vector group is multiplied by element `$i` of z0 into its ZA
/// vector group: `FMLA` by `z0.s[$i]` (f32), `SDOT` by the four bytes `z0.b[$i]` (int8), or
/// `FDOT` by the pair of halves `z0.h[$i]` (f16).
macro_rules! sme2_za_step4 {
    ($i:literal; $loads:expr; $(($r0:literal, $r3:literal, $o:literal))+) => {
        concat!(
            $loads,
            $("fmla za.s[w8, ", $o, ", vgx4], {{z", $r0, ".s-z", $r3, ".s}}, z0.s[", $i, "]\n",)+
        )
    };
    (sdot $i:literal; $loads:expr; $(($r0:literal, $r3:literal, $o:literal))+) => {
        concat!(
            $loads,
            $("sdot za.s[w8, ", $o, ", vgx4], {{z", $r0, ".b-z", $r3, ".b}}, z0.b[", $i, "]\n",)+
        )
    };
    (fdot $i:literal; $loads:expr; $(($r0:literal, $r3:literal, $o:literal))+) => {
        concat!(
            $loads,
            $("fdot za.s[w8, ", $o, ", vgx4], {{z", $r0, ".h-z", $r3, ".h}}, z0.h[", $i, "]\n",)+
        )
    };
}

/// One K step of a block of eight groups (SME2 GEMVs, see `eight_group_pointers!`) into z4-z19,
/// `#$o` vectors on: group j's two vectors (its f32 row of one K value, or its int8 bytes of four
/// K values) into z(4 + 2j) and z(5 + 2j), so that groups 2i and 2i + 1 make the four-vector
/// group z(4 + 4i)..z(7 + 4i). The pointers are not moved.
macro_rules! sme2_block_rows {
    ($o:literal) => {
        concat!(
            "ld1w {{z4.s-z5.s}}, pn8/z, [x14, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z6.s-z7.s}}, pn8/z, [x9, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z8.s-z9.s}}, pn8/z, [x15, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z10.s-z11.s}}, pn8/z, [x10, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z12.s-z13.s}}, pn8/z, [x16, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z14.s-z15.s}}, pn8/z, [x13, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z16.s-z17.s}}, pn8/z, [x17, #",
            $o,
            ", mul vl]\n",
            "ld1w {{z18.s-z19.s}}, pn8/z, [x22, #",
            $o,
            ", mul vl]\n",
        )
    };
}

/// Advances the eight group pointers of `eight_group_pointers!` (or the listed pointers) by `$v`
/// vectors.
macro_rules! sme2_block_advance {
    ($v:literal) => {
        sme2_block_advance!($v; "x14", "x9", "x15", "x10", "x16", "x13", "x17", "x22")
    };
    ($v:literal; $($p:literal),+) => {
        concat!($("addvl ", $p, ", ", $p, ", #", $v, "\n",)+)
    };
}

/// The head of an SME2 GEMV's block of eight groups (label 2): to label 6 unless more than x12
/// (14 x SVL32) columns remain; otherwise the block's pointers (`eight_group_pointers!`), their
/// groups' biases (two vectors each) moved into ZA vector groups 0-3 (four-vector groups of two
/// groups each, as the K steps accumulate them), and the pointers advanced past the biases.
macro_rules! sme2_block_head {
    () => {
        concat!(
            "2:\n",
            "cmp x0, x12\n",
            "b.le 6f\n",
            eight_group_pointers!(),
            sme2_block_rows!("0"),
            sme2_block_advance!("2"),
            sme2_f32_into_za!(("4", "7", "0")("8", "11", "1")("12", "15", "2")(
                "16", "19", "3"
            )),
        )
    };
}

// ---- int8 with requantized int8 output, SME2: i32 sums in ZA vector groups ----

/// Sets up the requantization of `sme2_i8_finish!` from the `kai_matmul_requantize32_params` at
/// x6: z2 `min_value`, z3 `max_value`, z1 `output_zero_point` in every lane (p0 all true; the
/// single vector of a multi-vector `ADD` must be one of z0-z15; the K loops leave z1-z3 alone and
/// may use all of z16-z31).
macro_rules! sme2_i8_setup {
    () => {
        concat!(
            "ld1rw {{z2.s}}, p0/z, [x6]\n",
            "ld1rw {{z3.s}}, p0/z, [x6, #4]\n",
            "ld1rw {{z1.s}}, p0/z, [x6, #8]\n",
        )
    };
}

/// The K loop of an int8 GEMV, in K order: `gemv_k_loop!` over the `k / 4` steps of four K
/// values (x11 their count; a step takes step `i` as the four bytes `z0.b[i]`), then the last
/// `k % 4` values, if any, loaded under a byte predicate into the low bytes of each 128-bit
/// segment (the rest zero, and no byte past the row read) for `$one`. Uses x11, x20, x21 and p3;
/// labels 30 to 35.
macro_rules! int8_k_loop {
    ($four:expr; $one:expr) => {
        concat!(
            "lsr x11, x1, #2\n",
            gemv_k_loop!("x11"; $four; $one),
            "ands x21, x1, #3\n",
            "b.eq 35f\n",
            "whilelt p3.b, xzr, x21\n",
            "ld1rqb {{z0.b}}, p3/z, [x20]\n",
            $one,
            "35:\n",
        )
    };
}

/// The finish of int8 sums: each listed ZA vector group (`vgx$n`, `$n` of 2 or 4) read into
/// z20.., converted to f32 (`SCVTF`), multiplied by its columns' scales (two vectors at each
/// listed pointer, which the K loop left past the group's K steps, into z24..; with `4 single`,
/// one vector at each of four pointers, p0 all true), rounded to nearest even (`FRINTN`),
/// converted to i32 (`FCVTZS`), plus the output zero point (z1, wrapping), clamped by `SCLAMP`
/// (z2, z3), and stored as the low byte of each lane (`ST1B` of 32-bit elements) for the
/// columns below x0; x11 counts columns (it must be the column of the first group before) and x4
/// advances one vector of bytes per four-vector group.
macro_rules! sme2_i8_finish {
    (4; $(($o:literal, $pa:literal, $pb:literal))+) => {
        concat!($(
            sme2_i8_finish!(@four $o; concat!(
                "ld1w {{z24.s-z25.s}}, pn8/z, [", $pa, "]\n",
                "ld1w {{z26.s-z27.s}}, pn8/z, [", $pb, "]\n",
            )),
        )+)
    };
    (4 single; $o:literal; $pa:literal, $pb:literal, $pc:literal, $pd:literal) => {
        sme2_i8_finish!(@four $o; concat!(
            "ld1w {{z24.s}}, p0/z, [", $pa, "]\n",
            "ld1w {{z25.s}}, p0/z, [", $pb, "]\n",
            "ld1w {{z26.s}}, p0/z, [", $pc, "]\n",
            "ld1w {{z27.s}}, p0/z, [", $pd, "]\n",
        ))
    };
    (@four $o:literal; $scales:expr) => {
        concat!(
            "mova {{z20.d-z23.d}}, za.d[w8, ", $o, ", vgx4]\n",
            $scales,
            "scvtf {{z20.s-z23.s}}, {{z20.s-z23.s}}\n",
            "fmul z20.s, z20.s, z24.s\n",
            "fmul z21.s, z21.s, z25.s\n",
            "fmul z22.s, z22.s, z26.s\n",
            "fmul z23.s, z23.s, z27.s\n",
            "frintn {{z20.s-z23.s}}, {{z20.s-z23.s}}\n",
            "fcvtzs {{z20.s-z23.s}}, {{z20.s-z23.s}}\n",
            "add {{z20.s-z23.s}}, {{z20.s-z23.s}}, z1.s\n",
            "sclamp {{z20.s-z23.s}}, z2.s, z3.s\n",
            sme2_i8_store!(("20", "0") ("21", "1") ("22", "2") ("23", "3")),
            "addvl x4, x4, #1\n",
        )
    };
    (2; $pa:literal) => {
        concat!(
            "mova {{z20.d-z21.d}}, za.d[w8, 0, vgx2]\n",
            "ld1w {{z24.s-z25.s}}, pn8/z, [", $pa, "]\n",
            "scvtf {{z20.s-z21.s}}, {{z20.s-z21.s}}\n",
            "fmul z20.s, z20.s, z24.s\n",
            "fmul z21.s, z21.s, z25.s\n",
            "frintn {{z20.s-z21.s}}, {{z20.s-z21.s}}\n",
            "fcvtzs {{z20.s-z21.s}}, {{z20.s-z21.s}}\n",
            "add {{z20.s-z21.s}}, {{z20.s-z21.s}}, z1.s\n",
            "sclamp {{z20.s-z21.s}}, z2.s, z3.s\n",
            sme2_i8_store!(("20", "0") ("21", "1")),
        )
    };
}

/// Stores the low byte of each 32-bit lane of z$r to `[x4, #$i, mul vl]` (a vector of 32-bit
/// lanes stores SVL32 bytes) for the columns below x0, x11 counting columns.
macro_rules! sme2_i8_store {
    ($(($r:literal, $i:literal))+) => {
        concat!($(
            "whilelt p1.s, x11, x0\n",
            "st1b {{z", $r, ".s}}, p1, [x4, #", $i, ", mul vl]\n",
            "incw x11\n",
        )+)
    };
}

// ---- f16: pairs of K values ----

/// Sets up `half_k_loop!`: `p3` all true when `k` (x1) is not 0, all false when it is (the RHS
/// loads of the steps are predicated by it); leaves x11 all ones when `k` is not 0 and 0 when it
/// is (for other predicates of the RHS loads, before the loop).
macro_rules! half_k_setup {
    () => {
        concat!(
            "cmp x1, #0\n",
            "csetm x11, ne\n",
            "whilelo p3.h, xzr, x11\n",
        )
    };
}

/// The K loop of an f16 GEMV, in K order: `gemv_k_loop!` over the `k / 2` pairs of K values
/// (x11 their count; a step takes pair `i`'s halves as `z0.h[2i]` and `z0.h[2i + 1]`, or the
/// pair as the 32-bit element `z0.s[i]`), then an odd K's last value is loaded alone into the
/// low half of each 32-bit lane (`LD1RH`: the high half is `+0`, and no byte past the row is
/// read) for `$one`; `k == 0` runs `$one` once with z0 and every RHS load zero (nothing read).
/// Uses x11, x20, x21; labels 30 to 35.
macro_rules! half_k_loop {
    ($four:expr; $one:expr) => {
        concat!(
            "lsr x11, x1, #1\n",
            gemv_k_loop!("x11"; $four; $one),
            "cbz x1, 34f\n",
            "tbz x1, #0, 35f\n",
            "34:\n",
            "ld1rh {{z0.s}}, p3/z, [x20]\n",
            $one,
            "35:\n",
        )
    };
}
