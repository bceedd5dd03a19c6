//! The one asm template of the SME packed-float GEMMs (`2vlx2vl`, both operands packed in
//! streaming-length tiles, the bias in front of each RHS group): the bf16 family
//! (`matmul_clamp_fp32_bf16p_bf16p`, `BFMOPA`, `kr` = 2), the f32 family
//! (`matmul_clamp_f32_f32p_f32p`, `FMOPA` on f32, `kr` = 1) and the f16 family
//! (`matmul_clamp_f16_f16p_f16p`, widening `FMOPA` on halves, `kr` = 2, f16 output).
//!
//! Per `mr` x `nr` tile (`mr` = `nr` = 2 x SVL32, four ZA tiles: za0 rows 0..SVL32 x columns
//! 0..SVL32, za1 the next columns, za2/za3 the next rows): ZA zeroed, the biases entered by an
//! outer product of a vector of ones with them, then one outer-product step per `kr` K values,
//! in K order (four steps per loop iteration, then two and one for the remaining steps); then each
//! row of za0/za1, and of za2/za3, clamped (and narrowed) and stored, predicated to the `n`
//! columns, four rows per loop iteration and then one at a time.

/// One SME packed-float GEMM kernel: its documentation and function name, then
/// `"sme" | "sme2"` (the extension: the loads, one vector each or SME2's four-vector form, and the
/// clamp, `FMIN`/`FMAX` or `FCLAMP`), `output f32 | f16` (the destination's element: f16 results
/// are narrowed by `FCVT` before the clamp, whose bounds are halves as `FCVT` rounds them),
/// `kr 1 | 2` (K values per outer-product step) and `mopa "<instruction>", "<element suffix of
/// its sources>", "<load of one vector of them>"`. The RHS values of a step are `bytes` (as
/// loaded) or, for the int4 RHS of the generic interface's int8-output GEMM, `nibbles`: half a
/// vector a step, widened to int8 by `LUTI4` on the table in ZT0 (z8-z11 the packed nibbles), the
/// K values of each group padded to a multiple of 32 (skipped after the K loop).
///
/// Registers: x0 m, x1 n, x2 K steps, x3 the LHS block, x4 the first RHS group, x5 dst, x6 the
/// row stride, x7 SVL32, x8 2 x SVL32 (the tile), x9 the RHS read pointer, x10 the tile's first
/// row, x11 its first column, w12 the ZA slice, x13 the LHS read pointer, x14 the K count, x15
/// and x17 row or column counts (x14 also the row count less four in the stores), x16 the
/// destination row; z0-z3 and z16-z19 LHS, z4-z7 and z20-z23 RHS steps (then z0-z11 four output
/// rows, z4/z5 one row's two halves), z29 ones, z26 zeros, z27/z28 biases, z30/z31 the lower and
/// upper bounds; p0 and pn8 all true, p2/p3 the store predicates (SME2 f32: also pn9, both
/// halves as one counter).
#[cfg(target_arch = "aarch64")]
macro_rules! float_mopa_kernel {
    // ---- Pieces, each one string of asm lines ----
    (@steps 1) => { "" };
    (@steps 2) => { "add x2, x2, #1\nlsr x2, x2, #1" };
    (@steps 4) => { "add x2, x2, #3\nlsr x2, x2, #2" };
    (@setup "sme" f32) => { "fmov z29.s, #1.0\ndup z30.s, {lo:w}\ndup z31.s, {hi:w}" };
    (@setup "sme" f16) => {
        "fmov z29.h, #1.0\ndup z26.h, #0\ndup z30.h, {lo:w}\ndup z31.h, {hi:w}"
    };
    (@setup "sme" i8) => {
        "dup z30.s, {lo:w}\ndup z31.s, {hi:w}\ndup z26.s, {zp:w}"
    };
    (@setup "sme2" $out:ident) => {
        concat!(float_mopa_kernel!(@setup "sme" $out), "\nptrue pn8.b")
    };
    // The biases: f32 ones in two vectors; f16 ones in one, each paired with a zero.
    (@bias f32) => {
        "ld1w {{z28.s}}, p0/z, [x9]
        ld1w {{z27.s}}, p0/z, [x9, #1, mul vl]
        addvl x9, x9, #2
        fmopa za0.s, p0/m, p0/m, z29.s, z28.s
        fmopa za1.s, p0/m, p0/m, z29.s, z27.s
        fmopa za2.s, p0/m, p0/m, z29.s, z28.s
        fmopa za3.s, p0/m, p0/m, z29.s, z27.s"
    };
    // int8 output: the `i32` biases added to every row of the zeroed tiles (`ADDHA`).
    (@bias i8) => {
        "ld1w {{z27.s}}, p0/z, [x9]
        ld1w {{z28.s}}, p0/z, [x9, #1, mul vl]
        addvl x9, x9, #2
        addha za0.s, p0/m, p0/m, z27.s
        addha za1.s, p0/m, p0/m, z28.s
        addha za2.s, p0/m, p0/m, z27.s
        addha za3.s, p0/m, p0/m, z28.s"
    };
    (@bias f16) => {
        "ld1h {{z28.h}}, p0/z, [x9]
        addvl x9, x9, #1
        zip1 z27.h, z28.h, z26.h
        zip2 z28.h, z28.h, z26.h
        fmopa za0.s, p0/m, p0/m, z29.h, z27.h
        fmopa za1.s, p0/m, p0/m, z29.h, z28.h
        fmopa za2.s, p0/m, p0/m, z29.h, z27.h
        fmopa za3.s, p0/m, p0/m, z29.h, z28.h"
    };
    (@load "sme" $ld:literal, $el:literal, bytes) => {
        concat!(
            $ld, " {{z0", $el, "}}, p0/z, [x13]\n",
            $ld, " {{z1", $el, "}}, p0/z, [x13, #1, mul vl]\n",
            $ld, " {{z2", $el, "}}, p0/z, [x13, #2, mul vl]\n",
            $ld, " {{z3", $el, "}}, p0/z, [x13, #3, mul vl]\n",
            $ld, " {{z4", $el, "}}, p0/z, [x9]\n",
            $ld, " {{z5", $el, "}}, p0/z, [x9, #1, mul vl]\n",
            $ld, " {{z6", $el, "}}, p0/z, [x9, #2, mul vl]\n",
            $ld, " {{z7", $el, "}}, p0/z, [x9, #3, mul vl]",
        )
    };
    (@load "sme2" $ld:literal, $el:literal, bytes) => {
        concat!(
            $ld, " {{z0", $el, "-z3", $el, "}}, pn8/z, [x13]\n",
            $ld, " {{z4", $el, "-z7", $el, "}}, pn8/z, [x9]",
        )
    };
    // Two steps of int4 RHS: one vector of nibbles a step, widened into z4-z5 and z6-z7.
    (@load "sme2" $ld:literal, $el:literal, nibbles) => {
        concat!(
            $ld, " {{z0", $el, "-z3", $el, "}}, pn8/z, [x13]\n",
            "ld1b {{z8.b-z9.b}}, pn8/z, [x9]\n",
            "luti4 {{z4.b-z5.b}}, zt0, z8[0]\n",
            "luti4 {{z6.b-z7.b}}, zt0, z9[0]",
        )
    };
    // Four steps: the first two as `@load`, the next two in z16-z19 and z20-z23.
    (@load4 "sme" $ld:literal, $el:literal, bytes) => {
        concat!(
            float_mopa_kernel!(@load "sme" $ld, $el, bytes), "\n",
            $ld, " {{z16", $el, "}}, p0/z, [x13, #4, mul vl]\n",
            $ld, " {{z17", $el, "}}, p0/z, [x13, #5, mul vl]\n",
            $ld, " {{z18", $el, "}}, p0/z, [x13, #6, mul vl]\n",
            $ld, " {{z19", $el, "}}, p0/z, [x13, #7, mul vl]\n",
            $ld, " {{z20", $el, "}}, p0/z, [x9, #4, mul vl]\n",
            $ld, " {{z21", $el, "}}, p0/z, [x9, #5, mul vl]\n",
            $ld, " {{z22", $el, "}}, p0/z, [x9, #6, mul vl]\n",
            $ld, " {{z23", $el, "}}, p0/z, [x9, #7, mul vl]",
        )
    };
    (@load4 "sme2" $ld:literal, $el:literal, bytes) => {
        concat!(
            float_mopa_kernel!(@load "sme2" $ld, $el, bytes), "\n",
            $ld, " {{z16", $el, "-z19", $el, "}}, pn8/z, [x13, #4, mul vl]\n",
            $ld, " {{z20", $el, "-z23", $el, "}}, pn8/z, [x9, #4, mul vl]",
        )
    };
    (@load4 "sme2" $ld:literal, $el:literal, nibbles) => {
        concat!(
            $ld, " {{z0", $el, "-z3", $el, "}}, pn8/z, [x13]\n",
            $ld, " {{z16", $el, "-z19", $el, "}}, pn8/z, [x13, #4, mul vl]\n",
            "ld1b {{z8.b-z11.b}}, pn8/z, [x9]\n",
            "luti4 {{z4.b-z5.b}}, zt0, z8[0]\n",
            "luti4 {{z6.b-z7.b}}, zt0, z9[0]\n",
            "luti4 {{z20.b-z21.b}}, zt0, z10[0]\n",
            "luti4 {{z22.b-z23.b}}, zt0, z11[0]",
        )
    };
    // The last single step's RHS (z4/z5), and the RHS pointer's advance over 4, 2 or 1 steps.
    (@load1 $ld:literal, $el:literal, bytes) => {
        concat!(
            $ld, " {{z4", $el, "}}, p0/z, [x9]\n",
            $ld, " {{z5", $el, "}}, p0/z, [x9, #1, mul vl]",
        )
    };
    (@load1 $ld:literal, $el:literal, nibbles) => {
        "ld1b {{z8.b}}, p0/z, [x9]\nluti4 {{z4.b-z5.b}}, zt0, z8[0]"
    };
    (@rhs_advance bytes, 4) => { "addvl x9, x9, #8" };
    (@rhs_advance bytes, 2) => { "addvl x9, x9, #4" };
    (@rhs_advance bytes, 1) => { "addvl x9, x9, #2" };
    (@rhs_advance nibbles, 4) => { "addvl x9, x9, #4" };
    (@rhs_advance nibbles, 2) => { "addvl x9, x9, #2" };
    (@rhs_advance nibbles, 1) => { "addvl x9, x9, #1" };
    // int4 RHS: ZT0 holds the nibble table; after the K loop, skip the steps (one vector each)
    // that pad the group's K to a multiple of 32 (eight steps).
    (@table bytes) => { "" };
    (@table nibbles) => { "ldr zt0, [{lut}]" };
    (@k_pad bytes) => { "" };
    (@k_pad nibbles) => { "neg x14, x2\nand x14, x14, #7\ncntb x15\nmadd x9, x14, x15, x9" };
    // One step: LHS vectors $a (rows of za0/za1) and $b (za2/za3), RHS $c (za0/za2), $d.
    (@step $mopa:literal, $el:literal, $a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            $mopa, " za0.s, p0/m, p0/m, z", $a, $el, ", z", $c, $el, "\n",
            $mopa, " za1.s, p0/m, p0/m, z", $a, $el, ", z", $d, $el, "\n",
            $mopa, " za2.s, p0/m, p0/m, z", $b, $el, ", z", $c, $el, "\n",
            $mopa, " za3.s, p0/m, p0/m, z", $b, $el, ", z", $d, $el,
        )
    };
    (@columns "sme" f32) => {
        "whilelt p2.s, xzr, x15\nwhilelt p3.s, x7, x15\nadd x16, x16, x11, lsl #2"
    };
    (@columns "sme2" f32) => {
        concat!(float_mopa_kernel!(@columns "sme" f32), "\nwhilelt pn9.s, xzr, x15, vlx2")
    };
    (@columns $ext:tt i8) => { "whilelt p2.h, xzr, x15\nadd x16, x16, x11" };
    (@columns $ext:tt f16) => { "whilelt p2.h, xzr, x15\nadd x16, x16, x11, lsl #1" };
    (@row "sme" f32) => {
        "fmin z4.s, p0/m, z4.s, z31.s
        fmin z5.s, p0/m, z5.s, z31.s
        fmax z4.s, p0/m, z4.s, z30.s
        fmax z5.s, p0/m, z5.s, z30.s
        st1w {{z4.s}}, p2, [x16]
        st1w {{z5.s}}, p3, [x16, #1, mul vl]"
    };
    (@row "sme2" f32) => {
        "fclamp {{z4.s, z5.s}}, z30.s, z31.s
        st1w {{z4.s}}, p2, [x16]
        st1w {{z5.s}}, p3, [x16, #1, mul vl]"
    };
    // int8 output: requantized (z27/z28 the column scales, z26 the output zero point), clamped
    // by `$clamp` and stored as the low bytes.
    (@row "sme" i8) => { float_mopa_kernel!(@requantize
        "smin z4.s, p0/m, z4.s, z31.s
        smin z5.s, p0/m, z5.s, z31.s
        smax z4.s, p0/m, z4.s, z30.s
        smax z5.s, p0/m, z5.s, z30.s") };
    (@row "sme2" i8) => { float_mopa_kernel!(@requantize "sclamp {{z4.s-z5.s}}, z30.s, z31.s") };
    (@requantize $clamp:literal) => {
        concat!(
            "scvtf z4.s, p0/m, z4.s
            scvtf z5.s, p0/m, z5.s
            fmul z4.s, z4.s, z27.s
            fmul z5.s, z5.s, z28.s
            frintn z4.s, p0/m, z4.s
            frintn z5.s, p0/m, z5.s
            fcvtzs z4.s, p0/m, z4.s
            fcvtzs z5.s, p0/m, z5.s
            add z4.s, z4.s, z26.s
            add z5.s, z5.s, z26.s\n",
            $clamp,
            "\nuzp1 z4.h, z4.h, z5.h
            st1b {{z4.h}}, p2, [x16]",
        )
    };
    // What lies between a group's K steps and its stores: int8 output reads the column scales
    // (z27/z28), which follow the values.
    (@scales i8) => {
        "ld1w {{z27.s}}, p0/z, [x9]
        ld1w {{z28.s}}, p0/z, [x9, #1, mul vl]
        addvl x9, x9, #2"
    };
    (@scales $out:ident) => { "" };
    (@row "sme" f16) => {
        "fcvt z4.h, p0/m, z4.s
        fcvt z5.h, p0/m, z5.s
        uzp1 z4.h, z4.h, z5.h
        fmin z4.h, p0/m, z4.h, z31.h
        fmax z4.h, p0/m, z4.h, z30.h
        st1h {{z4.h}}, p2, [x16]"
    };
    (@row "sme2" f16) => {
        "fcvt z4.h, {{z4.s-z5.s}}
        fclamp z4.h, z30.h, z31.h
        st1h {{z4.h}}, p2, [x16]"
    };
    // One output row: slice w12 + $i of tiles $ta/$tb, then the next destination row.
    (@one $ext:tt $out:ident, $ta:literal, $tb:literal, $i:literal) => {
        concat!(
            "mova z4.s, p0/m, ", $ta, ".s[w12, ", $i, "]\n",
            "mova z5.s, p0/m, ", $tb, ".s[w12, ", $i, "]\n",
            float_mopa_kernel!(@row $ext $out), "\n",
            "add x16, x16, x6",
        )
    };
    // Four output rows, slices w12 to w12 + 3: SME2 f32 moves, clamps and stores them as
    // multi-vectors (z0-z3 the four rows' first halves, z8-z11 their second halves).
    (@quad "sme2" f32, $ta:literal, $tb:literal) => {
        concat!(
            "mova {{z0.s-z3.s}}, ", $ta, ".s[w12, 0:3]\n",
            "mova {{z8.s-z11.s}}, ", $tb, ".s[w12, 0:3]\n",
            "fclamp {{z0.s-z3.s}}, z30.s, z31.s\n",
            "fclamp {{z8.s-z11.s}}, z30.s, z31.s\n",
            "st1w {{z0.s, z8.s}}, pn9, [x16]\nadd x16, x16, x6\n",
            "st1w {{z1.s, z9.s}}, pn9, [x16]\nadd x16, x16, x6\n",
            "st1w {{z2.s, z10.s}}, pn9, [x16]\nadd x16, x16, x6\n",
            "st1w {{z3.s, z11.s}}, pn9, [x16]\nadd x16, x16, x6",
        )
    };
    // SME2 int8 output: the four rows requantized as two multi-vectors (z0-z3 first halves, z8-z11
    // second halves; each element as `@requantize` treats it, the scales by single vectors, the
    // zero point copied to z12, as the multi-vector `ADD` takes z0-z15), then each row narrowed
    // and stored.
    (@quad "sme2" i8, $ta:literal, $tb:literal) => {
        concat!(
            "mova {{z0.s-z3.s}}, ", $ta, ".s[w12, 0:3]\n",
            "mova {{z8.s-z11.s}}, ", $tb, ".s[w12, 0:3]\n",
            "scvtf {{z0.s-z3.s}}, {{z0.s-z3.s}}\n",
            "scvtf {{z8.s-z11.s}}, {{z8.s-z11.s}}\n",
            "fmul z0.s, z0.s, z27.s\nfmul z1.s, z1.s, z27.s\n",
            "fmul z2.s, z2.s, z27.s\nfmul z3.s, z3.s, z27.s\n",
            "fmul z8.s, z8.s, z28.s\nfmul z9.s, z9.s, z28.s\n",
            "fmul z10.s, z10.s, z28.s\nfmul z11.s, z11.s, z28.s\n",
            "frintn {{z0.s-z3.s}}, {{z0.s-z3.s}}\n",
            "frintn {{z8.s-z11.s}}, {{z8.s-z11.s}}\n",
            "fcvtzs {{z0.s-z3.s}}, {{z0.s-z3.s}}\n",
            "fcvtzs {{z8.s-z11.s}}, {{z8.s-z11.s}}\n",
            "mov z12.d, z26.d\n",
            "add {{z0.s-z3.s}}, {{z0.s-z3.s}}, z12.s\n",
            "add {{z8.s-z11.s}}, {{z8.s-z11.s}}, z12.s\n",
            "sclamp {{z0.s-z3.s}}, z30.s, z31.s\n",
            "sclamp {{z8.s-z11.s}}, z30.s, z31.s\n",
            "uzp1 z0.h, z0.h, z8.h\nst1b {{z0.h}}, p2, [x16]\nadd x16, x16, x6\n",
            "uzp1 z1.h, z1.h, z9.h\nst1b {{z1.h}}, p2, [x16]\nadd x16, x16, x6\n",
            "uzp1 z2.h, z2.h, z10.h\nst1b {{z2.h}}, p2, [x16]\nadd x16, x16, x6\n",
            "uzp1 z3.h, z3.h, z11.h\nst1b {{z3.h}}, p2, [x16]\nadd x16, x16, x6",
        )
    };
    (@quad $ext:tt $out:ident, $ta:literal, $tb:literal) => {
        concat!(
            float_mopa_kernel!(@one $ext $out, $ta, $tb, "0"), "\n",
            float_mopa_kernel!(@one $ext $out, $ta, $tb, "1"), "\n",
            float_mopa_kernel!(@one $ext $out, $ta, $tb, "2"), "\n",
            float_mopa_kernel!(@one $ext $out, $ta, $tb, "3"),
        )
    };
    // The x15 rows of tiles $ta/$tb: four per iteration (label $four) while four remain, then
    // one per iteration (label $one); $done after them.
    (@rows $ext:tt $out:ident, $ta:literal, $tb:literal, $four:literal, $rest:literal,
     $one:literal, $done:literal) => {
        concat!(
            "mov w12, #0\n",
            "subs x14, x15, #4\n",
            "b.lt ", $rest, "f\n",
            $four, ":\n",
            float_mopa_kernel!(@quad $ext $out, $ta, $tb), "\n",
            "add w12, w12, #4\n",
            "cmp x12, x14\n",
            "b.le ", $four, "b\n",
            $rest, ":\n",
            "cmp x12, x15\n",
            "b.ge ", $done, "f\n",
            $one, ":\n",
            float_mopa_kernel!(@one $ext $out, $ta, $tb, "0"), "\n",
            "add w12, w12, #1\n",
            "cmp x12, x15\n",
            "b.lt ", $one, "b\n",
            $done, ":",
        )
    };
    // The K loop over one LHS block (x3) and RHS group (x9, left past the last step): x2 steps of
    // 2 x SVL32 rows and columns each, four per iteration, then two and one; label 4 after it.
    // Any kernel whose operands interleave K this way may run it over its own K (the chunked
    // K of the indirect GEMMs).
    (@k_loop $ext:tt, $mopa:literal, $el:literal, $ld:literal, $rhs:ident) => {
        concat!(
            "mov x13, x3\n",
            "lsr x14, x2, #2\n",
            "cbz x14, 8f\n",
            // ---- Four steps, in K order per tile ----
            "3:\n",
            float_mopa_kernel!(@load4 $ext $ld, $el, $rhs), "\n",
            "addvl x13, x13, #8\n",
            float_mopa_kernel!(@rhs_advance $rhs, 4), "\n",
            float_mopa_kernel!(@step $mopa, $el, "0", "1", "4", "5"), "\n",
            float_mopa_kernel!(@step $mopa, $el, "2", "3", "6", "7"), "\n",
            float_mopa_kernel!(@step $mopa, $el, "16", "17", "20", "21"), "\n",
            float_mopa_kernel!(@step $mopa, $el, "18", "19", "22", "23"), "\n",
            "subs x14, x14, #1\n",
            "b.ne 3b\n",
            // ---- The remaining steps: two, then one ----
            "8:\n",
            "tbz x2, #1, 9f\n",
            float_mopa_kernel!(@load $ext $ld, $el, $rhs), "\n",
            "addvl x13, x13, #4\n",
            float_mopa_kernel!(@rhs_advance $rhs, 2), "\n",
            float_mopa_kernel!(@step $mopa, $el, "0", "1", "4", "5"), "\n",
            float_mopa_kernel!(@step $mopa, $el, "2", "3", "6", "7"), "\n",
            "9:\n",
            "tbz x2, #0, 4f\n",
            $ld, " {{z0", $el, "}}, p0/z, [x13]\n",
            $ld, " {{z1", $el, "}}, p0/z, [x13, #1, mul vl]\n",
            float_mopa_kernel!(@load1 $ld, $el, $rhs), "\n",
            "addvl x13, x13, #2\n",
            float_mopa_kernel!(@rhs_advance $rhs, 1), "\n",
            float_mopa_kernel!(@step $mopa, $el, "0", "1", "4", "5"), "\n",
            "4:",
        )
    };
    // The stores of one tile: its rows below `m` (x0) from row x10 and its columns below `n`
    // (x1) from column x11 (x7 SVL32), clamped, at `dst` (x5, rows x6 bytes apart); label 7
    // after them.
    (@tile_out $ext:tt $out:ident) => {
        concat!(
            "sub x15, x1, x11\n",
            "madd x16, x10, x6, x5\n",
            float_mopa_kernel!(@columns $ext $out), "\n",
            "sub x17, x0, x10\n",
            "cmp x17, x7\n",
            "csel x15, x17, x7, lt\n",
            float_mopa_kernel!(@rows $ext $out, "za0h", "za1h", "5", "20", "21", "22"), "\n",
            "subs x17, x17, x7\n",
            "b.le 7f\n",
            "cmp x17, x7\n",
            "csel x15, x17, x7, lt\n",
            float_mopa_kernel!(@rows $ext $out, "za2h", "za3h", "6", "23", "24", "25"), "\n",
            "7:",
        )
    };
    (@dst f32) => { f32 };
    (@dst f16) => { u16 };
    (@bits f32, $x:expr) => { $x.to_bits() };
    (@bits f16, $x:expr) => { u32::from($crate::float::f16::from_f32($x)) };
    // The asm block of a kernel: arguments `$m` ... `$ds` as named in its function, `$bounds`
    // the operands its `@setup` reads (`lo`, `hi`; int8 output also `zp`).
    (@body $ext:tt $out:ident $kr:tt $mopa:literal, $el:literal, $ld:literal, $rhs:ident;
     $m:ident, $n:ident, $k:ident, $l:ident, $r:ident, $d:ident, $ds:ident; $($bounds:tt)*) => {
        // SAFETY: the caller guarantees (see `# Safety`) the kernel's ISA and that the
        // packed buffers cover the blocks and groups read here, whole; stores are
        // predicated to the n columns of each of the m rows. Only the declared registers
        // change; streaming mode starts and ends in the block.
        unsafe {
            streaming_asm!($ext;
                "cntw x7",
                "lsl x8, x7, #1",
                float_mopa_kernel!(@steps $kr),
                "ptrue p0.b",
                float_mopa_kernel!(@setup $ext $out),
                float_mopa_kernel!(@table $rhs),
                "mov x10, #0",
                // ---- M loop: one block of 2 x SVL32 rows ----
                "1:",
                "mov x9, x4",
                "mov x11, #0",
                // ---- N loop: one group of 2 x SVL32 columns ----
                "2:",
                "zero {{za}}",
                float_mopa_kernel!(@bias $out),
                float_mopa_kernel!(@k_loop $ext, $mopa, $el, $ld, $rhs),
                float_mopa_kernel!(@k_pad $rhs),
                float_mopa_kernel!(@scales $out),
                float_mopa_kernel!(@tile_out $ext $out),
                "add x11, x11, x8",
                "cmp x11, x1",
                "b.lo 2b",
                // The next LHS block follows this one's last step.
                "mov x3, x13",
                "add x10, x10, x8",
                "cmp x10, x0",
                "b.lo 1b";
                inout("x0") $m => _,
                inout("x1") $n => _,
                inout("x2") $k => _,
                inout("x3") $l => _,
                inout("x4") $r => _,
                inout("x5") $d => _,
                inout("x6") $ds => _,
                $($bounds)*
                out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _,
                out("x12") _, out("x13") _, out("x14") _, out("x15") _, out("x16") _,
                out("x17") _,
            );
        }
    };
    // The generic interface's int4-weight int8-output GEMM: a plain function (its `run` is the
    // generic table's), the bounds and zero point passed as values.
    (
        $(#[$doc:meta])* fn $name:ident; "sme2"; output i8; kr 4; rhs nibbles;
        mopa $mopa:literal, $el:literal, $ld:literal $(;)?
    ) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn $name(
            m: usize,
            n: usize,
            k: usize,
            lhs_packed: *const u8,
            rhs_packed: *const u8,
            dst: *mut i8,
            dst_stride_row: usize,
            q: $crate::reference::qai8::Requantize,
        ) {
            // SAFETY: the caller guarantees SME2 and the ABI's TPIDR2 block.
            unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
            float_mopa_kernel!(@body "sme2" i8 4 $mopa, $el, $ld, nibbles;
                m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row;
                lo = in(reg) q.min_value,
                hi = in(reg) q.max_value,
                zp = in(reg) q.output_zero_point,
                lut = in(reg) $crate::matmul::streaming::INT4_TO_INT8.as_ptr(),
            );
        }
    };
    (
        $(#[$doc:meta])* fn $name:ident; $ext:tt; output i8; kr $kr:tt;
        mopa $mopa:literal, $el:literal, $ld:literal $(;)?
    ) => {
        streaming_kernel! {
            $(#[$doc])*
            requantize fn $name(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, params) {
                // SAFETY: `params` points at the caller's struct (the family's check refuses
                // null).
                let q = unsafe { params.read_unaligned() };
                float_mopa_kernel!(@body $ext i8 $kr $mopa, $el, $ld, bytes;
                    m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row;
                    lo = in(reg) q.min_value,
                    hi = in(reg) q.max_value,
                    zp = in(reg) q.output_zero_point,
                );
            }
        }
    };
    (
        $(#[$doc:meta])* fn $name:ident; $ext:tt; output $out:ident; kr $kr:tt;
        mopa $mopa:literal, $el:literal, $ld:literal $(;)?
    ) => {
        streaming_kernel! {
            $(#[$doc])*
            fn $name(
                m, n, k, lhs_packed, rhs_packed, dst: float_mopa_kernel!(@dst $out),
                dst_stride_row, clamp_min, clamp_max,
            ) {
                float_mopa_kernel!(@body $ext $out $kr $mopa, $el, $ld, bytes;
                    m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row;
                    lo = in(reg) float_mopa_kernel!(@bits $out, clamp_min),
                    hi = in(reg) float_mopa_kernel!(@bits $out, clamp_max),
                );
            }
        }
    };
}
