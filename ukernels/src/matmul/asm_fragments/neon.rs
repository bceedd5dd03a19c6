//! NEON fragments: zeroing (`zero_v!`), partial and full tile stores of f32 rows
//! (`store_cols4!`, `store_cols8!`, `store_rows_q!`, `store_rows_qq!`, `store8x4!`,
//! `store_row_float!`), the per-channel and blockwise epilogues (`dequant_row!`,
//! `dequant_row2!`, `finish_row2!`, `clamp_v!`, `scvtf4!`, `ldr_zero!`), and the 16x4 int4 GEMMs'
//! K-loop chunks (`smmla_16x4_chunk!`, `sdot_16x4_chunk!`).
//!
//! Users: the NEON `dotprod`/`i8mm` kernels of the `qai8dxp` families and their templates
//! (`gemv_template.rs`, `gemm_template.rs`), and the f32/f16 float template.

/// `MOVI v$r.$arr, #0` for each listed register (`$arr` "16b" or "4s": different encodings).
macro_rules! zero_v {
    ($arr:literal; $($r:literal),+ $(,)?) => {
        concat!($(concat!("movi v", $r, ".", $arr, ", #0\n"),)+)
    };
}

/// The last `$n % 4` f32 columns (2, then 1) of `v$v` at `[$p]`, which advances. Leaves for
/// `$done` (not defined here) after the last one; defines `$half`.
macro_rules! store_tail4 {
    ($v:literal, $n:literal, $p:literal; $half:literal, $done:literal) => {
        concat!(
            concat!("tbz ", $n, ", #1, ", $half, "f\n"),
            concat!("str d", $v, ", [", $p, "], #8\n"),
            concat!("dup v", $v, ".2d, v", $v, ".d[1]\n"),
            concat!($half, ":\n"),
            concat!("tbz ", $n, ", #0, ", $done, "f\n"),
            concat!("str s", $v, ", [", $p, "]\n"),
        )
    };
}

/// Stores the first `$n` f32 columns (all 4 when `$n >= 4`) of `v$v` at `[$dst]`; `$p` is the
/// scratch pointer of the partial store. `cmp` tests `$n >= 4`; `tbz` tests bit 2 and needs
/// `$n <= 4`. Clobbers `v$v` on the partial path; defines `$partial`, `$half`, `$done`.
macro_rules! store_cols4 {
    (cmp, $v:literal, $n:literal, $dst:literal, $p:literal; $partial:literal, $half:literal, $done:literal) => {
        concat!(
            concat!("cmp ", $n, ", #4\n"),
            concat!("b.lt ", $partial, "f\n"),
            store_cols4!(@rest $v, $n, $dst, $p; $partial, $half, $done),
        )
    };
    (tbz, $v:literal, $n:literal, $dst:literal, $p:literal; $partial:literal, $half:literal, $done:literal) => {
        concat!(
            concat!("tbz ", $n, ", #2, ", $partial, "f\n"),
            store_cols4!(@rest $v, $n, $dst, $p; $partial, $half, $done),
        )
    };
    (@rest $v:literal, $n:literal, $dst:literal, $p:literal; $partial:literal, $half:literal, $done:literal) => {
        concat!(
            concat!("str q", $v, ", [", $dst, "]\n"),
            concat!("b ", $done, "f\n"),
            concat!($partial, ":\n"),
            concat!("mov ", $p, ", ", $dst, "\n"),
            store_tail4!($v, $n, $p; $half, $done),
            concat!($done, ":\n"),
        )
    };
}

/// Stores the first `$n` f32 columns (all 8 when `$n >= 8`) of `v$lo`, `v$hi` at `[$dst]`, as
/// [`store_cols4`] (`cmp` gate). Defines `$partial`, `$quarter`, `$half`, `$done`.
macro_rules! store_cols8 {
    ($lo:literal, $hi:literal, $n:literal, $dst:literal, $p:literal;
     $partial:literal, $quarter:literal, $half:literal, $done:literal) => {
        concat!(
            concat!("cmp ", $n, ", #8\n"),
            concat!("b.lt ", $partial, "f\n"),
            concat!("stp q", $lo, ", q", $hi, ", [", $dst, "]\n"),
            concat!("b ", $done, "f\n"),
            concat!($partial, ":\n"),
            concat!("mov ", $p, ", ", $dst, "\n"),
            concat!("tbz ", $n, ", #2, ", $quarter, "f\n"),
            concat!("str q", $lo, ", [", $p, "], #16\n"),
            concat!("mov v", $lo, ".16b, v", $hi, ".16b\n"),
            concat!($quarter, ":\n"),
            store_tail4!($lo, $n, $p; $half, $done),
            concat!($done, ":\n"),
        )
    };
}

/// Full-tile store: `STR q$r, [$ptr]` for each row register, moving `$ptr` on by `$stride`
/// between rows.
macro_rules! store_rows_q {
    ($ptr:literal, $stride:literal; $first:literal $(, $r:literal)* $(,)?) => {
        concat!(
            concat!("str q", $first, ", [", $ptr, "]\n"),
            $(
                concat!("add ", $ptr, ", ", $ptr, ", ", $stride, "\n"),
                concat!("str q", $r, ", [", $ptr, "]\n"),
            )*
        )
    };
}

/// Full-tile store of 8-column rows: `STP q$lo, q$hi, [$ptr]` for each `($lo, $hi)`, moving
/// `$ptr` on by `$stride` between rows.
macro_rules! store_rows_qq {
    ($ptr:literal, $stride:literal; ($lo0:literal, $hi0:literal) $(($lo:literal, $hi:literal))*) => {
        concat!(
            concat!("stp q", $lo0, ", q", $hi0, ", [", $ptr, "]\n"),
            $(
                concat!("add ", $ptr, ", ", $ptr, ", ", $stride, "\n"),
                concat!("stp q", $lo, ", q", $hi, ", [", $ptr, "]\n"),
            )*
        )
    };
}

/// Per-channel dequantisation and clamp of one int32 accumulator row `v$acc` (4 columns):
///
/// ```text
/// acc += rsum * lhs_offset             MLA by element (wrapping i32)
/// t    = rscale * lhs_scale            FMUL by element
/// acc  = f32(acc) * t + bias           SCVTF, FMUL, FADD (not fused)
/// acc  = min(max(acc, lo), hi)         FMAX, FMIN
/// ```
///
/// `v$o.s[$oi]` / `v$s.s[$si]`: the row's LHS offset / scale. `scale_first` issues the scale
/// product before the conversion, `convert_first` after it (each kernel keeps its schedule).
/// `$t` may be `$rscale` itself when the column scales are not needed again.
macro_rules! dequant_row {
    (scale_first, $acc:literal; $rsum:literal, $o:literal[$oi:literal];
     $rscale:literal, $s:literal[$si:literal] -> $t:literal; $bias:literal; $lo:literal, $hi:literal) => {
        concat!(
            concat!("mla v", $acc, ".4s, v", $rsum, ".4s, v", $o, ".s[", $oi, "]\n"),
            concat!("fmul v", $t, ".4s, v", $rscale, ".4s, v", $s, ".s[", $si, "]\n"),
            concat!("scvtf v", $acc, ".4s, v", $acc, ".4s\n"),
            dequant_row!(@tail $acc, $t, $bias, $lo, $hi),
        )
    };
    (convert_first, $acc:literal; $rsum:literal, $o:literal[$oi:literal];
     $rscale:literal, $s:literal[$si:literal] -> $t:literal; $bias:literal; $lo:literal, $hi:literal) => {
        concat!(
            concat!("mla v", $acc, ".4s, v", $rsum, ".4s, v", $o, ".s[", $oi, "]\n"),
            concat!("scvtf v", $acc, ".4s, v", $acc, ".4s\n"),
            concat!("fmul v", $t, ".4s, v", $rscale, ".4s, v", $s, ".s[", $si, "]\n"),
            dequant_row!(@tail $acc, $t, $bias, $lo, $hi),
        )
    };
    (@tail $acc:literal, $t:literal, $bias:literal, $lo:literal, $hi:literal) => {
        concat!(
            concat!("fmul v", $acc, ".4s, v", $acc, ".4s, v", $t, ".4s\n"),
            concat!("fadd v", $acc, ".4s, v", $acc, ".4s, v", $bias, ".4s\n"),
            clamp_v!("4s"; $acc; $lo, $hi),
        )
    };
}

/// `FMAX` with `v$lo`, then `FMIN` with `v$hi`, for each listed register (arrangement `$arr`).
macro_rules! clamp_v {
    ($arr:literal; $($r:literal),+; $lo:literal, $hi:literal) => {
        concat!(
            $(concat!("fmax v", $r, ".", $arr, ", v", $r, ".", $arr, ", v", $lo, ".", $arr, "\n"),)+
            $(concat!("fmin v", $r, ".", $arr, ", v", $r, ".", $arr, ", v", $hi, ".", $arr, "\n"),)+
        )
    };
}

/// Stores the first `$n` columns of a float tile row (`f32` or `f16` elements) held in two
/// (`v$a`, `v$b`) or four (`v$a`..`v$d`) q registers at `[$dst]`; `$p` is the scratch pointer of
/// the partial store. Uses the local labels 1..5 and 9; clobbers the row's registers.
macro_rules! store_row_float {
    ($t:ident, $n:literal, $dst:literal, $p:literal; $a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            concat!("cmp ", $n, ", #", store_row_float!(@cols $t 4), "\n"),
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [", $dst, "]\n"),
            concat!("stp q", $c, ", q", $d, ", [", $dst, ", #32]\n"),
            "b 9f\n",
            "1:\n",
            concat!("mov ", $p, ", ", $dst, "\n"),
            concat!("tbz ", $n, ", #", store_row_float!(@bit $t), ", 2f\n"),
            concat!("stp q", $a, ", q", $b, ", [", $p, "], #32\n"),
            concat!("mov v", $a, ".16b, v", $c, ".16b\n"),
            concat!("mov v", $b, ".16b, v", $d, ".16b\n"),
            "2:\n",
            store_row_float!(@tail $t, $n, $p; $a, $b),
            "9:\n",
        )
    };
    ($t:ident, $n:literal, $dst:literal, $p:literal; $a:literal, $b:literal) => {
        concat!(
            concat!("cmp ", $n, ", #", store_row_float!(@cols $t 2), "\n"),
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [", $dst, "]\n"),
            "b 9f\n",
            "1:\n",
            concat!("mov ", $p, ", ", $dst, "\n"),
            store_row_float!(@tail $t, $n, $p; $a, $b),
            "9:\n",
        )
    };
    (@cols f32 4) => { "16" };
    (@cols f32 2) => { "8" };
    (@cols f16 4) => { "32" };
    (@cols f16 2) => { "16" };
    (@bit f32) => { "3" };
    (@bit f16) => { "4" };
    // The last columns (fewer than two registers' worth), from `v$a` then `v$b`, at `[$p]`.
    (@tail f32, $n:literal, $p:literal; $a:literal, $b:literal) => {
        concat!(
            concat!("tbz ", $n, ", #2, 3f\n"),
            concat!("str q", $a, ", [", $p, "], #16\n"),
            concat!("mov v", $a, ".16b, v", $b, ".16b\n"),
            "3:\n",
            concat!("tbz ", $n, ", #1, 4f\n"),
            concat!("str d", $a, ", [", $p, "], #8\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #8\n"),
            "4:\n",
            concat!("tbz ", $n, ", #0, 9f\n"),
            concat!("str s", $a, ", [", $p, "]\n"),
        )
    };
    (@tail f16, $n:literal, $p:literal; $a:literal, $b:literal) => {
        concat!(
            concat!("tbz ", $n, ", #3, 3f\n"),
            concat!("str q", $a, ", [", $p, "], #16\n"),
            concat!("mov v", $a, ".16b, v", $b, ".16b\n"),
            "3:\n",
            concat!("tbz ", $n, ", #2, 4f\n"),
            concat!("str d", $a, ", [", $p, "], #8\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #8\n"),
            "4:\n",
            concat!("tbz ", $n, ", #1, 5f\n"),
            concat!("str s", $a, ", [", $p, "], #4\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #4\n"),
            "5:\n",
            concat!("tbz ", $n, ", #0, 9f\n"),
            concat!("str h", $a, ", [", $p, "]\n"),
        )
    };
}

/// `scvtf v$r.4s, v$r.4s, #4`: an int32 block sum of 16 * int4 weights to `I / 16` (exact).
macro_rules! scvtf4 {
    ($r:literal) => {
        concat!("scvtf v", $r, ".4s, v", $r, ".4s, #4\n")
    };
}

/// Clears `v$r` by loading the 16 zero bytes at `[x12, #128]` (the 16-row blockwise GEMMs keep
/// them after their stack accumulators): a load pipe instead of a vector pipe.
macro_rules! ldr_zero {
    ($r:literal) => {
        concat!("ldr q", $r, ", [x12, #128]\n")
    };
}

/// One K-loop iteration (a 32-deep chunk) of the 16-row x 4-column `SMMLA` GEMMs over the
/// qai8dxp4x8 LHS and a 4-column int4 RHS of 8-byte blocks (two 32-byte segments per chunk): the
/// LHS groups A..D at x17, x20, x27, x28 and the RHS at x21 move on, x23 counts down. Each RHS
/// register is decoded once for the 16 rows (16 * low nibbles by `shl #4`, 16 * high nibbles by
/// `and` with the mask `v7`; segment `s` low nibbles pair with K slice `s`, high with slice
/// `s + 2`). int32 accumulators: `v(16 + 2*rp + cp)` (groups A, B: row pairs 0..4) and
/// `v(8 + 2*rp + cp)` (groups C, D) hold the 2x2 block of row pair `rp` x columns
/// `{2cp, 2cp+1}`. Scratch: `v0`..`v3` RHS, `v4`..`v6` LHS.
macro_rules! smmla_16x4_chunk {
    () => {
        concat!(
            "ldr q0, [x21]\n",
            "ldr q1, [x21, #16]\n",
            "shl v2.16b, v0.16b, #4\n",
            "shl v3.16b, v1.16b, #4\n",
            "and v0.16b, v0.16b, v7.16b\n",
            "and v1.16b, v1.16b, v7.16b\n",
            "ldr q4, [x17]\n",
            "ldr q5, [x17, #16]\n",
            "smmla v16.4s, v4.16b, v2.16b\n",
            "smmla v17.4s, v4.16b, v3.16b\n",
            "ldr q6, [x20]\n",
            "smmla v18.4s, v5.16b, v2.16b\n",
            "smmla v19.4s, v5.16b, v3.16b\n",
            "ldr q4, [x20, #16]\n",
            "smmla v20.4s, v6.16b, v2.16b\n",
            "smmla v21.4s, v6.16b, v3.16b\n",
            "ldr q5, [x27]\n",
            "smmla v22.4s, v4.16b, v2.16b\n",
            "smmla v23.4s, v4.16b, v3.16b\n",
            "ldr q6, [x27, #16]\n",
            "smmla v8.4s, v5.16b, v2.16b\n",
            "smmla v9.4s, v5.16b, v3.16b\n",
            "ldr q4, [x28]\n",
            "smmla v10.4s, v6.16b, v2.16b\n",
            "smmla v11.4s, v6.16b, v3.16b\n",
            "ldr q5, [x28, #16]\n",
            "smmla v12.4s, v4.16b, v2.16b\n",
            "smmla v13.4s, v4.16b, v3.16b\n",
            "ldr q6, [x17, #64]\n",
            "smmla v14.4s, v5.16b, v2.16b\n",
            "smmla v15.4s, v5.16b, v3.16b\n",
            "ldr q4, [x17, #80]\n",
            "smmla v16.4s, v6.16b, v0.16b\n",
            "smmla v17.4s, v6.16b, v1.16b\n",
            "ldr q5, [x20, #64]\n",
            "smmla v18.4s, v4.16b, v0.16b\n",
            "smmla v19.4s, v4.16b, v1.16b\n",
            "ldr q6, [x20, #80]\n",
            "smmla v20.4s, v5.16b, v0.16b\n",
            "smmla v21.4s, v5.16b, v1.16b\n",
            "ldr q4, [x27, #64]\n",
            "smmla v22.4s, v6.16b, v0.16b\n",
            "smmla v23.4s, v6.16b, v1.16b\n",
            "ldr q5, [x27, #80]\n",
            "smmla v8.4s, v4.16b, v0.16b\n",
            "smmla v9.4s, v4.16b, v1.16b\n",
            "ldr q6, [x28, #64]\n",
            "smmla v10.4s, v5.16b, v0.16b\n",
            "smmla v11.4s, v5.16b, v1.16b\n",
            "ldr q4, [x28, #80]\n",
            "smmla v12.4s, v6.16b, v0.16b\n",
            "smmla v13.4s, v6.16b, v1.16b\n",
            "ldr q5, [x17, #32]\n",
            "smmla v14.4s, v4.16b, v0.16b\n",
            "smmla v15.4s, v4.16b, v1.16b\n",
            "ldr q6, [x17, #48]\n",
            "ldr q0, [x21, #32]\n",
            "ldr q1, [x21, #48]\n",
            "shl v2.16b, v0.16b, #4\n",
            "shl v3.16b, v1.16b, #4\n",
            "and v0.16b, v0.16b, v7.16b\n",
            "and v1.16b, v1.16b, v7.16b\n",
            "smmla v16.4s, v5.16b, v2.16b\n",
            "smmla v17.4s, v5.16b, v3.16b\n",
            "ldr q4, [x20, #32]\n",
            "smmla v18.4s, v6.16b, v2.16b\n",
            "smmla v19.4s, v6.16b, v3.16b\n",
            "ldr q5, [x20, #48]\n",
            "smmla v20.4s, v4.16b, v2.16b\n",
            "smmla v21.4s, v4.16b, v3.16b\n",
            "ldr q6, [x27, #32]\n",
            "smmla v22.4s, v5.16b, v2.16b\n",
            "smmla v23.4s, v5.16b, v3.16b\n",
            "ldr q4, [x27, #48]\n",
            "smmla v8.4s, v6.16b, v2.16b\n",
            "smmla v9.4s, v6.16b, v3.16b\n",
            "ldr q5, [x28, #32]\n",
            "smmla v10.4s, v4.16b, v2.16b\n",
            "smmla v11.4s, v4.16b, v3.16b\n",
            "ldr q6, [x28, #48]\n",
            "smmla v12.4s, v5.16b, v2.16b\n",
            "smmla v13.4s, v5.16b, v3.16b\n",
            "ldr q4, [x17, #96]\n",
            "smmla v14.4s, v6.16b, v2.16b\n",
            "smmla v15.4s, v6.16b, v3.16b\n",
            "ldr q5, [x17, #112]\n",
            "smmla v16.4s, v4.16b, v0.16b\n",
            "smmla v17.4s, v4.16b, v1.16b\n",
            "ldr q6, [x20, #96]\n",
            "smmla v18.4s, v5.16b, v0.16b\n",
            "smmla v19.4s, v5.16b, v1.16b\n",
            "ldr q4, [x20, #112]\n",
            "smmla v20.4s, v6.16b, v0.16b\n",
            "smmla v21.4s, v6.16b, v1.16b\n",
            "ldr q5, [x27, #96]\n",
            "smmla v22.4s, v4.16b, v0.16b\n",
            "smmla v23.4s, v4.16b, v1.16b\n",
            "ldr q6, [x27, #112]\n",
            "smmla v8.4s, v5.16b, v0.16b\n",
            "smmla v9.4s, v5.16b, v1.16b\n",
            "ldr q4, [x28, #96]\n",
            "smmla v10.4s, v6.16b, v0.16b\n",
            "smmla v11.4s, v6.16b, v1.16b\n",
            "ldr q5, [x28, #112]\n",
            "smmla v12.4s, v4.16b, v0.16b\n",
            "smmla v13.4s, v4.16b, v1.16b\n",
            "smmla v14.4s, v5.16b, v0.16b\n",
            "smmla v15.4s, v5.16b, v1.16b\n",
            "add x17, x17, #128\n",
            "add x20, x20, #128\n",
            "add x27, x27, #128\n",
            "add x28, x28, #128\n",
            "add x21, x21, #64\n",
            "subs x23, x23, #1\n",
        )
    };
}

/// One K-loop iteration (a 32-deep chunk) of the 16-row x 4-column `SDOT` (by element) GEMMs over
/// the qai8dxp4x4 LHS and a 4-column int4 RHS of 4-byte blocks (four 16-byte super-blocks per
/// chunk, low nibbles K block `s`, high nibbles K block `s + 4`): the LHS groups A..D at x17,
/// x20, x27, x28 and the RHS at x21 move on, x23 counts down. Each RHS register is decoded once
/// for the 16 rows (`shl #4` into `v1`, `and` with the mask `v3` in place). int32 accumulators:
/// row `r` in `v(16 + r)` (rows 0..8) or `v(r)` (rows 8..16), lanes = columns. Scratch: `v0`..`v2`
/// RHS, `v4`..`v7` LHS of groups A..D. The loads are `ldur` (see the 8-row pass of
/// `matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod`).
macro_rules! sdot_16x4_chunk {
    () => {
        concat!(
            "ldur q0, [x21]\n",
            "ldur q4, [x17]\n",
            "ldur q5, [x20]\n",
            "ldur q6, [x27]\n",
            "ldur q7, [x28]\n",
            "shl v1.16b, v0.16b, #4\n",
            "and v0.16b, v0.16b, v3.16b\n",
            "sdot v16.4s, v1.16b, v4.4b[0]\n",
            "sdot v17.4s, v1.16b, v4.4b[1]\n",
            "sdot v18.4s, v1.16b, v4.4b[2]\n",
            "sdot v19.4s, v1.16b, v4.4b[3]\n",
            "ldur q4, [x17, #64]\n",
            "sdot v20.4s, v1.16b, v5.4b[0]\n",
            "sdot v21.4s, v1.16b, v5.4b[1]\n",
            "sdot v22.4s, v1.16b, v5.4b[2]\n",
            "sdot v23.4s, v1.16b, v5.4b[3]\n",
            "ldur q5, [x20, #64]\n",
            "sdot v8.4s, v1.16b, v6.4b[0]\n",
            "sdot v9.4s, v1.16b, v6.4b[1]\n",
            "sdot v10.4s, v1.16b, v6.4b[2]\n",
            "sdot v11.4s, v1.16b, v6.4b[3]\n",
            "ldur q6, [x27, #64]\n",
            "sdot v12.4s, v1.16b, v7.4b[0]\n",
            "sdot v13.4s, v1.16b, v7.4b[1]\n",
            "sdot v14.4s, v1.16b, v7.4b[2]\n",
            "sdot v15.4s, v1.16b, v7.4b[3]\n",
            "ldur q7, [x28, #64]\n",
            "ldur q2, [x21, #16]\n",
            "sdot v16.4s, v0.16b, v4.4b[0]\n",
            "sdot v17.4s, v0.16b, v4.4b[1]\n",
            "sdot v18.4s, v0.16b, v4.4b[2]\n",
            "sdot v19.4s, v0.16b, v4.4b[3]\n",
            "ldur q4, [x17, #16]\n",
            "sdot v20.4s, v0.16b, v5.4b[0]\n",
            "sdot v21.4s, v0.16b, v5.4b[1]\n",
            "sdot v22.4s, v0.16b, v5.4b[2]\n",
            "sdot v23.4s, v0.16b, v5.4b[3]\n",
            "ldur q5, [x20, #16]\n",
            "sdot v8.4s, v0.16b, v6.4b[0]\n",
            "sdot v9.4s, v0.16b, v6.4b[1]\n",
            "sdot v10.4s, v0.16b, v6.4b[2]\n",
            "sdot v11.4s, v0.16b, v6.4b[3]\n",
            "ldur q6, [x27, #16]\n",
            "sdot v12.4s, v0.16b, v7.4b[0]\n",
            "sdot v13.4s, v0.16b, v7.4b[1]\n",
            "sdot v14.4s, v0.16b, v7.4b[2]\n",
            "sdot v15.4s, v0.16b, v7.4b[3]\n",
            "ldur q7, [x28, #16]\n",
            "shl v1.16b, v2.16b, #4\n",
            "and v2.16b, v2.16b, v3.16b\n",
            "sdot v16.4s, v1.16b, v4.4b[0]\n",
            "sdot v17.4s, v1.16b, v4.4b[1]\n",
            "sdot v18.4s, v1.16b, v4.4b[2]\n",
            "sdot v19.4s, v1.16b, v4.4b[3]\n",
            "ldur q4, [x17, #80]\n",
            "sdot v20.4s, v1.16b, v5.4b[0]\n",
            "sdot v21.4s, v1.16b, v5.4b[1]\n",
            "sdot v22.4s, v1.16b, v5.4b[2]\n",
            "sdot v23.4s, v1.16b, v5.4b[3]\n",
            "ldur q5, [x20, #80]\n",
            "sdot v8.4s, v1.16b, v6.4b[0]\n",
            "sdot v9.4s, v1.16b, v6.4b[1]\n",
            "sdot v10.4s, v1.16b, v6.4b[2]\n",
            "sdot v11.4s, v1.16b, v6.4b[3]\n",
            "ldur q6, [x27, #80]\n",
            "sdot v12.4s, v1.16b, v7.4b[0]\n",
            "sdot v13.4s, v1.16b, v7.4b[1]\n",
            "sdot v14.4s, v1.16b, v7.4b[2]\n",
            "sdot v15.4s, v1.16b, v7.4b[3]\n",
            "ldur q7, [x28, #80]\n",
            "ldur q0, [x21, #32]\n",
            "sdot v16.4s, v2.16b, v4.4b[0]\n",
            "sdot v17.4s, v2.16b, v4.4b[1]\n",
            "sdot v18.4s, v2.16b, v4.4b[2]\n",
            "sdot v19.4s, v2.16b, v4.4b[3]\n",
            "ldur q4, [x17, #32]\n",
            "sdot v20.4s, v2.16b, v5.4b[0]\n",
            "sdot v21.4s, v2.16b, v5.4b[1]\n",
            "sdot v22.4s, v2.16b, v5.4b[2]\n",
            "sdot v23.4s, v2.16b, v5.4b[3]\n",
            "ldur q5, [x20, #32]\n",
            "sdot v8.4s, v2.16b, v6.4b[0]\n",
            "sdot v9.4s, v2.16b, v6.4b[1]\n",
            "sdot v10.4s, v2.16b, v6.4b[2]\n",
            "sdot v11.4s, v2.16b, v6.4b[3]\n",
            "ldur q6, [x27, #32]\n",
            "sdot v12.4s, v2.16b, v7.4b[0]\n",
            "sdot v13.4s, v2.16b, v7.4b[1]\n",
            "sdot v14.4s, v2.16b, v7.4b[2]\n",
            "sdot v15.4s, v2.16b, v7.4b[3]\n",
            "ldur q7, [x28, #32]\n",
            "shl v1.16b, v0.16b, #4\n",
            "and v0.16b, v0.16b, v3.16b\n",
            "sdot v16.4s, v1.16b, v4.4b[0]\n",
            "sdot v17.4s, v1.16b, v4.4b[1]\n",
            "sdot v18.4s, v1.16b, v4.4b[2]\n",
            "sdot v19.4s, v1.16b, v4.4b[3]\n",
            "ldur q4, [x17, #96]\n",
            "sdot v20.4s, v1.16b, v5.4b[0]\n",
            "sdot v21.4s, v1.16b, v5.4b[1]\n",
            "sdot v22.4s, v1.16b, v5.4b[2]\n",
            "sdot v23.4s, v1.16b, v5.4b[3]\n",
            "ldur q5, [x20, #96]\n",
            "sdot v8.4s, v1.16b, v6.4b[0]\n",
            "sdot v9.4s, v1.16b, v6.4b[1]\n",
            "sdot v10.4s, v1.16b, v6.4b[2]\n",
            "sdot v11.4s, v1.16b, v6.4b[3]\n",
            "ldur q6, [x27, #96]\n",
            "sdot v12.4s, v1.16b, v7.4b[0]\n",
            "sdot v13.4s, v1.16b, v7.4b[1]\n",
            "sdot v14.4s, v1.16b, v7.4b[2]\n",
            "sdot v15.4s, v1.16b, v7.4b[3]\n",
            "ldur q7, [x28, #96]\n",
            "ldur q2, [x21, #48]\n",
            "sdot v16.4s, v0.16b, v4.4b[0]\n",
            "sdot v17.4s, v0.16b, v4.4b[1]\n",
            "sdot v18.4s, v0.16b, v4.4b[2]\n",
            "sdot v19.4s, v0.16b, v4.4b[3]\n",
            "ldur q4, [x17, #48]\n",
            "sdot v20.4s, v0.16b, v5.4b[0]\n",
            "sdot v21.4s, v0.16b, v5.4b[1]\n",
            "sdot v22.4s, v0.16b, v5.4b[2]\n",
            "sdot v23.4s, v0.16b, v5.4b[3]\n",
            "ldur q5, [x20, #48]\n",
            "sdot v8.4s, v0.16b, v6.4b[0]\n",
            "sdot v9.4s, v0.16b, v6.4b[1]\n",
            "sdot v10.4s, v0.16b, v6.4b[2]\n",
            "sdot v11.4s, v0.16b, v6.4b[3]\n",
            "ldur q6, [x27, #48]\n",
            "sdot v12.4s, v0.16b, v7.4b[0]\n",
            "sdot v13.4s, v0.16b, v7.4b[1]\n",
            "sdot v14.4s, v0.16b, v7.4b[2]\n",
            "sdot v15.4s, v0.16b, v7.4b[3]\n",
            "ldur q7, [x28, #48]\n",
            "shl v1.16b, v2.16b, #4\n",
            "and v2.16b, v2.16b, v3.16b\n",
            "sdot v16.4s, v1.16b, v4.4b[0]\n",
            "sdot v17.4s, v1.16b, v4.4b[1]\n",
            "sdot v18.4s, v1.16b, v4.4b[2]\n",
            "sdot v19.4s, v1.16b, v4.4b[3]\n",
            "ldur q4, [x17, #112]\n",
            "sdot v20.4s, v1.16b, v5.4b[0]\n",
            "sdot v21.4s, v1.16b, v5.4b[1]\n",
            "sdot v22.4s, v1.16b, v5.4b[2]\n",
            "sdot v23.4s, v1.16b, v5.4b[3]\n",
            "ldur q5, [x20, #112]\n",
            "sdot v8.4s, v1.16b, v6.4b[0]\n",
            "sdot v9.4s, v1.16b, v6.4b[1]\n",
            "sdot v10.4s, v1.16b, v6.4b[2]\n",
            "sdot v11.4s, v1.16b, v6.4b[3]\n",
            "ldur q6, [x27, #112]\n",
            "sdot v12.4s, v1.16b, v7.4b[0]\n",
            "sdot v13.4s, v1.16b, v7.4b[1]\n",
            "sdot v14.4s, v1.16b, v7.4b[2]\n",
            "sdot v15.4s, v1.16b, v7.4b[3]\n",
            "ldur q7, [x28, #112]\n",
            "sdot v16.4s, v2.16b, v4.4b[0]\n",
            "sdot v17.4s, v2.16b, v4.4b[1]\n",
            "sdot v18.4s, v2.16b, v4.4b[2]\n",
            "sdot v19.4s, v2.16b, v4.4b[3]\n",
            "sdot v20.4s, v2.16b, v5.4b[0]\n",
            "sdot v21.4s, v2.16b, v5.4b[1]\n",
            "sdot v22.4s, v2.16b, v5.4b[2]\n",
            "sdot v23.4s, v2.16b, v5.4b[3]\n",
            "sdot v8.4s, v2.16b, v6.4b[0]\n",
            "sdot v9.4s, v2.16b, v6.4b[1]\n",
            "sdot v10.4s, v2.16b, v6.4b[2]\n",
            "sdot v11.4s, v2.16b, v6.4b[3]\n",
            "sdot v12.4s, v2.16b, v7.4b[0]\n",
            "sdot v13.4s, v2.16b, v7.4b[1]\n",
            "sdot v14.4s, v2.16b, v7.4b[2]\n",
            "sdot v15.4s, v2.16b, v7.4b[3]\n",
            "add x17, x17, #128\n",
            "add x20, x20, #128\n",
            "add x27, x27, #128\n",
            "add x28, x28, #128\n",
            "add x21, x21, #64\n",
            "subs x23, x23, #1\n",
        )
    };
}

/// Stores the 8 rows `v24`..`v31` from `$ptr` on (`$stride` bytes apart; `$ptr` moves), their
/// first `$cols` (1..=4) columns; `$p` is the partial-store scratch pointer. Local labels 5, 6,
/// 24 and 25.
macro_rules! store8x4 {
    ($cols:literal, $ptr:literal, $stride:literal, $p:literal) => {
        concat!(
            concat!("cmp ", $cols, ", #4\n"),
            "b.ne 24f\n",
            store_rows_q!($ptr, $stride; "24", "25", "26", "27", "28", "29", "30", "31"),
            "b 25f\n",
            "24:\n",
            store8x4!(@tail $cols, $ptr, $stride, $p; "24"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "25"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "26"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "27"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "28"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "29"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "30"),
            store8x4!(@tail $cols, $ptr, $stride, $p; "31"),
            "25:\n",
        )
    };
    (@tail $cols:literal, $ptr:literal, $stride:literal, $p:literal; $v:literal) => {
        concat!(
            concat!("mov ", $p, ", ", $ptr, "\n"),
            store_tail4!($v, $cols, $p; "5", "6"),
            "6:\n",
            concat!("add ", $ptr, ", ", $ptr, ", ", $stride, "\n"),
        )
    };
}

/// [`finish_row`] (NEON) for an 8-column row in `v$a` (columns 0..3) and `v$b` (4..7), the two
/// halves interleaved instruction by instruction; rsum and bias halves in `v$ra`/`v$rb` and
/// `v$ba`/`v$bb`.
macro_rules! finish_row2 {
    ($ra:literal, $rb:literal, $ba:literal, $bb:literal, $lo:literal, $hi:literal;
     $a:literal, $b:literal, $o:literal, $s:literal, $i:literal) => {
        concat!(
            concat!("fmla v", $a, ".4s, v", $ra, ".4s, v", $o, ".s[", $i, "]\n"),
            concat!("fmla v", $b, ".4s, v", $rb, ".4s, v", $o, ".s[", $i, "]\n"),
            concat!("fmul v", $a, ".4s, v", $a, ".4s, v", $s, ".s[", $i, "]\n"),
            concat!("fmul v", $b, ".4s, v", $b, ".4s, v", $s, ".s[", $i, "]\n"),
            concat!("fadd v", $a, ".4s, v", $a, ".4s, v", $ba, ".4s\n"),
            concat!("fadd v", $b, ".4s, v", $b, ".4s, v", $bb, ".4s\n"),
            clamp_v!("4s"; $a, $b; $lo, $hi),
        )
    };
}

/// [`dequant_row`] (`scale_first`) for an 8-column row in `v$a` and `v$b`, interleaved, without
/// the clamp (kernels clamp right after, or load the bounds first).
macro_rules! dequant_row2 {
    ($ra:literal, $rb:literal, $sa:literal, $sb:literal, $ta:literal, $tb:literal, $ba:literal, $bb:literal;
     $a:literal, $b:literal, $o:literal[$oi:literal], $s:literal[$si:literal]) => {
        concat!(
            concat!("mla v", $a, ".4s, v", $ra, ".4s, v", $o, ".s[", $oi, "]\n"),
            concat!("mla v", $b, ".4s, v", $rb, ".4s, v", $o, ".s[", $oi, "]\n"),
            concat!(
                "fmul v", $ta, ".4s, v", $sa, ".4s, v", $s, ".s[", $si, "]\n"
            ),
            concat!(
                "fmul v", $tb, ".4s, v", $sb, ".4s, v", $s, ".s[", $si, "]\n"
            ),
            concat!("scvtf v", $a, ".4s, v", $a, ".4s\n"),
            concat!("scvtf v", $b, ".4s, v", $b, ".4s\n"),
            concat!("fmul v", $a, ".4s, v", $a, ".4s, v", $ta, ".4s\n"),
            concat!("fmul v", $b, ".4s, v", $b, ".4s, v", $tb, ".4s\n"),
            concat!("fadd v", $a, ".4s, v", $a, ".4s, v", $ba, ".4s\n"),
            concat!("fadd v", $b, ".4s, v", $b, ".4s, v", $bb, ".4s\n"),
        )
    };
}
