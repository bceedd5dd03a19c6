//! Pieces of asm text shared by the aarch64 kernels: partial-tile stores, row chains, loop
//! scaffolding, dequantisation epilogues, nibble decoding and clamps, as macros that expand to
//! string literals (`concat!`) for use inside `asm!`. KleidiAI's SME kernels `.include` one helper
//! file of assembler macros in the same way; here the assembler cannot do it for us because the
//! asm lives in Rust (binutils 2.40 does not know SME2).
//!
//! A kernel keeps its inner loop and its register map; what follows the loop (and the few loop
//! set-up sequences every kernel repeats) comes from here, so a fix to, say, the n % 4 tail store
//! reaches every kernel at once.
//!
//! Conventions:
//! * General registers are passed with their prefix (`"x11"`); vector, `q`/`d`/`s` and `z`
//!   registers as bare numbers (`"16"`) because the fragment picks the view it needs.
//! * Labels are numeric local labels passed as `"5"`; fragments append `f`/`b` themselves. A
//!   fragment defines only the labels it is given, so a kernel can use it many times.
//! * A fragment touches only the registers it is given.

/// `MOVI v$r.$arr, #0` for each listed register (`$arr` "16b" or "4s": different encodings).
macro_rules! zero_v {
    ($arr:literal; $($r:literal),+ $(,)?) => {
        concat!($(concat!("movi v", $r, ".", $arr, ", #0\n"),)+)
    };
}

/// `MOV z$r.s, #0` for each listed SVE register.
macro_rules! zero_z {
    ($($r:literal),+ $(,)?) => {
        concat!($(concat!("mov z", $r, ".s, #0\n"),)+)
    };
}

/// `$dst = min($left, #$w)`, through `$tmp` (rows in a row block, columns in a column tile).
macro_rules! min_imm {
    ($dst:literal, $left:literal, $w:literal, $tmp:literal) => {
        concat!(
            concat!("mov ", $tmp, ", #", $w, "\n"),
            concat!("cmp ", $left, ", #", $w, "\n"),
            concat!("csel ", $dst, ", ", $left, ", ", $tmp, ", lt\n"),
        )
    };
}

/// The LHS group after `$prev` (`$prev + $stride`), or `$first` when the block has at most
/// `$lim` rows (`$rows`): blocks shorter than the kernel's rows read the first group again
/// instead of past the end of the packed LHS.
macro_rules! group_if_rows {
    ($dst:literal, $prev:literal, $stride:literal, $rows:literal, $lim:literal, $first:literal) => {
        concat!(
            concat!("add ", $dst, ", ", $prev, ", ", $stride, "\n"),
            concat!("cmp ", $rows, ", #", $lim, "\n"),
            concat!("csel ", $dst, ", ", $dst, ", ", $first, ", gt\n"),
        )
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

/// Runs `$row!` on each row of a tile (each row's arguments as one parenthesised group, after
/// the optional common `[$pre]` ones), leaving for `$done` (not defined here) once the block's
/// `$rows` rows (a count, 1..) are done, and moving `$ptr` on by `$stride` before every row but
/// the first (when given; otherwise `$row!` moves its own pointer). `lt`: `cmp $rows, #r + 1;
/// b.lt` before row r (0-based); `le`: `cmp $rows, #r; b.le` (the same test, another immediate).
macro_rules! each_row {
    ($row:ident $([$($pre:tt)*])?, lt, $rows:literal, $done:literal $(, $ptr:literal, $stride:literal)?;
     ($($first:tt)*) $($rest:tt)*) => {
        concat!(
            $row!($($($pre)*)? $($first)*),
            each_row!(@next $row [$($($pre)*)?], "b.lt", $rows, $done,
                [$("add ", $ptr, ", ", $ptr, ", ", $stride, "\n")?];
                ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"]
                $($rest)*),
        )
    };
    ($row:ident $([$($pre:tt)*])?, le, $rows:literal, $done:literal $(, $ptr:literal, $stride:literal)?;
     ($($first:tt)*) $($rest:tt)*) => {
        concat!(
            $row!($($($pre)*)? $($first)*),
            each_row!(@next $row [$($($pre)*)?], "b.le", $rows, $done,
                [$("add ", $ptr, ", ", $ptr, ", ", $stride, "\n")?];
                ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"]
                $($rest)*),
        )
    };
    (@next $row:ident [$($pre:tt)*], $b:literal, $rows:literal, $done:literal, [$($adv:literal),*];
     [$c:literal $(, $cs:literal)*] ($($r:tt)*) $($rest:tt)*) => {
        concat!(
            concat!("cmp ", $rows, ", #", $c, "\n"),
            concat!($b, " ", $done, "f\n"),
            $($adv,)*
            $row!($($pre)* $($r)*),
            each_row!(@next $row [$($pre)*], $b, $rows, $done, [$($adv),*]; [$($cs),*] $($rest)*),
        )
    };
    (@next $row:ident [$($pre:tt)*], $b:literal, $rows:literal, $done:literal, [$($adv:literal),*];
     [$($cs:literal),*]) => {
        ""
    };
}

/// Stores one tile row of SVE vectors `z$z...` at `[$ptr]`, `[$ptr, #1, mul vl]`, ...,
/// vector `i` under predicate `p(i + 1)` (the columns of each vector in the tile).
macro_rules! st1w_row {
    ($ptr:literal; $($z:literal),+) => {
        st1w_row!(@go $ptr; ["p1", "p2", "p3", "p4"] [", #1, mul vl", ", #2, mul vl", ", #3, mul vl"];
            ""; $($z),+)
    };
    (@go $ptr:literal; [$p:literal $(, $ps:literal)*] [$($os:literal),*]; $off:literal; $z:literal $(, $zs:literal)*) => {
        concat!(
            concat!("st1w {{z", $z, ".s}}, ", $p, ", [", $ptr, $off, "]\n"),
            st1w_row!(@next $ptr; [$($ps),*] [$($os),*]; $($zs),*),
        )
    };
    (@next $ptr:literal; [$($ps:literal),*] [$o:literal $(, $os:literal)*]; $($zs:literal),+) => {
        st1w_row!(@go $ptr; [$($ps),*] [$($os),*]; $o; $($zs),+)
    };
    (@next $ptr:literal; [$($ps:literal),*] [$($os:literal),*];) => {
        ""
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

/// `$dst = 6 * $src` (the byte stride of a 6-row block).
macro_rules! times6 {
    ($dst:literal, $src:literal) => {
        concat!(
            concat!("add ", $dst, ", ", $src, ", ", $src, ", lsl #1\n"),
            concat!("lsl ", $dst, ", ", $dst, ", #1\n"),
        )
    };
}

/// Pointers to the rows of a block of up to 6 (unpacked) LHS rows: `$p0 = $base`, then each next
/// row `$stride` bytes on, or `$base` again past the block's `$rows` rows (never past the end).
macro_rules! row_pointers {
    ($rows:literal, $base:literal, $stride:literal; $p0:literal $(, $p:literal)*) => {
        concat!(
            concat!("mov ", $p0, ", ", $base, "\n"),
            row_pointers!(@next $rows, $base, $stride; ["1", "2", "3", "4", "5"] $p0 $(, $p)*),
        )
    };
    (@next $rows:literal, $base:literal, $stride:literal; [$c:literal $(, $cs:literal)*]
     $prev:literal, $p:literal $(, $ps:literal)*) => {
        concat!(
            concat!("add ", $p, ", ", $prev, ", ", $stride, "\n"),
            concat!("cmp ", $rows, ", #", $c, "\n"),
            concat!("csel ", $p, ", ", $p, ", ", $base, ", gt\n"),
            row_pointers!(@next $rows, $base, $stride; [$($cs),*] $p $(, $ps)*),
        )
    };
    (@next $rows:literal, $base:literal, $stride:literal; [$($cs:literal),*] $prev:literal) => {
        ""
    };
}

/// Loads one element group of each LHS row pointer into `v0`, `v1`, ... (`$kind`: `q`/`d`/`s`/`h`
/// with `ldr`, at byte offset `$off`), or broadcasts 128 bits of it into `z0`, `z1`, ...
/// (`ld1rqw` under `$pred`, `$off` in elements).
macro_rules! load_rows {
    (ldr $kind:literal, $off:literal; $($p:literal),+) => {
        load_rows!(@ldr $kind, $off; ["0", "1", "2", "3", "4", "5"] $($p),+)
    };
    (@ldr $kind:literal, $off:literal; [$r:literal $(, $rs:literal)*] $p:literal $(, $ps:literal)*) => {
        concat!(
            concat!("ldr ", $kind, $r, ", [", $p, ", ", $off, "]\n"),
            load_rows!(@ldr $kind, $off; [$($rs),*] $($ps),*),
        )
    };
    (@ldr $kind:literal, $off:literal; [$($rs:literal),*]) => {
        ""
    };
    (ld1rqw $pred:literal, $off:literal; $($p:literal),+) => {
        load_rows!(@ld1rqw $pred, $off; ["0", "1", "2", "3", "4", "5"] $($p),+)
    };
    (@ld1rqw $pred:literal, $off:literal; [$r:literal $(, $rs:literal)*] $p:literal $(, $ps:literal)*) => {
        concat!(
            concat!("ld1rqw {{z", $r, ".s}}, ", $pred, "/z, [", $p, ", ", $off, ", lsl #2]\n"),
            load_rows!(@ld1rqw $pred, $off; [$($rs),*] $($ps),*),
        )
    };
    (@ld1rqw $pred:literal, $off:literal; [$($rs:literal),*]) => {
        ""
    };
}

/// Copies one row of registers into the next rows (`mov` of whole vectors): the bias, loaded
/// once, becomes every row's starting accumulator. `v`: NEON, `z`: SVE.
macro_rules! copy_rows {
    (v; ($($s:literal),+) => $($rows:tt)+) => {
        copy_rows!(@rows "mov v", ".16b", ", v"; [$($s),+] $($rows)+)
    };
    (z; ($($s:literal),+) => $($rows:tt)+) => {
        copy_rows!(@rows "mov z", ".d", ", z"; [$($s),+] $($rows)+)
    };
    (@rows $mov:literal, $arr:literal, $sep:literal; [$($s:literal),+] ($($d:literal),+) $($rest:tt)*) => {
        concat!(
            $(concat!($mov, $d, $arr, $sep, $s, $arr, "\n"),)+
            copy_rows!(@rows $mov, $arr, $sep; [$($s),+] $($rest)*),
        )
    };
    (@rows $mov:literal, $arr:literal, $sep:literal; [$($s:literal),+]) => {
        ""
    };
}

/// `FMIN` with `$hi`, then `FMAX` with `$lo`, for each listed register (KleidiAI's clamp order in
/// the float kernels): NEON `v` with arrangement `$arr`, or SVE `z` (`.s`, under `p0`).
macro_rules! fmin_fmax {
    (v $arr:literal; $($r:literal),+; $hi:literal, $lo:literal) => {
        concat!(
            $(concat!("fmin v", $r, ".", $arr, ", v", $r, ".", $arr, ", v", $hi, ".", $arr, "\n"),)+
            $(concat!("fmax v", $r, ".", $arr, ", v", $r, ".", $arr, ", v", $lo, ".", $arr, "\n"),)+
        )
    };
    (z; $($r:literal),+; $hi:literal, $lo:literal) => {
        concat!(
            $(concat!("fmin z", $r, ".s, p0/m, z", $r, ".s, z", $hi, ".s\n"),)+
            $(concat!("fmax z", $r, ".s, p0/m, z", $r, ".s, z", $lo, ".s\n"),)+
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
