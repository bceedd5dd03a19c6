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

/// `asm!` (no stack use) for blocks that overwrite the whole vector register file: the given
/// template and operands (ending with a comma), then v0-v31 as clobbers.
macro_rules! asm_clobbering_all_vectors {
    ($($template_and_operands:tt)*) => {
        core::arch::asm!(
            $($template_and_operands)*
            out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _, out("v5") _,
            out("v6") _, out("v7") _, out("v8") _, out("v9") _, out("v10") _, out("v11") _,
            out("v12") _, out("v13") _, out("v14") _, out("v15") _, out("v16") _, out("v17") _,
            out("v18") _, out("v19") _, out("v20") _, out("v21") _, out("v22") _, out("v23") _,
            out("v24") _, out("v25") _, out("v26") _, out("v27") _, out("v28") _, out("v29") _,
            out("v30") _, out("v31") _,
            options(nostack),
        )
    };
}

/// `MOVI v$r.$arr, #0` for each listed register (`$arr` "16b" or "4s": different encodings).
macro_rules! zero_v {
    ($arr:literal; $($r:literal),+ $(,)?) => {
        concat!($(concat!("movi v", $r, ".", $arr, ", #0\n"),)+)
    };
}

/// `$step!(row.., group.., lane)` for the eight rows of two 4-row LHS groups: row `i` of a group
/// takes lane `i` of its group's per-row values (scales, sums, ...), so each row names only its
/// own registers (`(..)`) and each group its shared ones (`[..]`).
macro_rules! rows_of_two_groups {
    ($step:ident;
     ($($r0:literal),+) ($($r1:literal),+) ($($r2:literal),+) ($($r3:literal),+) [$($g0:literal),+];
     ($($r4:literal),+) ($($r5:literal),+) ($($r6:literal),+) ($($r7:literal),+) [$($g1:literal),+]
     $(,)?) => {
        concat!(
            $step!($($r0,)+ $($g0,)+ "0"),
            $step!($($r1,)+ $($g0,)+ "1"),
            $step!($($r2,)+ $($g0,)+ "2"),
            $step!($($r3,)+ $($g0,)+ "3"),
            $step!($($r4,)+ $($g1,)+ "0"),
            $step!($($r5,)+ $($g1,)+ "1"),
            $step!($($r6,)+ $($g1,)+ "2"),
            $step!($($r7,)+ $($g1,)+ "3"),
        )
    };
}

/// `LD1B` (predicate p0, zeroing) of the eight consecutive vectors z16-z23 from `[$base]` on
/// (`#0, mul vl` is the plain `[$base]`): SVE and SME1 have no multi-vector load.
macro_rules! ld1b_z16_to_z23 {
    ($base:literal) => {
        ld1b_z16_to_z23!(@each $base;
            ("16", "0") ("17", "1") ("18", "2") ("19", "3") ("20", "4") ("21", "5") ("22", "6") ("23", "7"))
    };
    (@each $base:literal; $(($z:literal, $i:literal))+) => {
        concat!($(concat!("ld1b {{z", $z, ".b}}, p0/z, [", $base, ", #", $i, ", mul vl]\n"),)+)
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

/// A K loop from its local label `$l`: the llvm-mca region named `$mca` around the loop body
/// (whose last flag-setting instruction counts the iterations down), closed by `b.ne` back to the
/// label.
macro_rules! k_loop {
    ($l:literal, $mca:literal; $($body:expr),+ $(,)?) => {
        concat!($l, ":\n", "// LLVM-MCA-BEGIN ", $mca, "\n", $($body, "\n",)+ "b.ne ", $l, "b\n", "// LLVM-MCA-END")
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

/// One nibble super-block of the SVE2 int4 GEMMs' K loop: two vectors of packed nibbles at
/// `$p` + `$o0` / `$o1` vectors into z0/z1 (`$lhs0`, the LHS loads of the low half, between),
/// split into `byte << 4` (z0/z1, in place) and `byte & 0xf0` (z2/z3; the mask in z12), both 16x
/// the int4 values, then `$slice!` of the low nibbles, `$lhs1`, `$slice!` of the high ones.
macro_rules! sve_nibble_super_block {
    ($slice:ident; $p:literal, $o0:literal, $o1:literal; $lhs0:expr; $lhs1:expr) => {
        concat!(
            "ld1b {{z0.b}}, p0/z, [",
            $p,
            ", #",
            $o0,
            ", mul vl]\n",
            "ld1b {{z1.b}}, p0/z, [",
            $p,
            ", #",
            $o1,
            ", mul vl]\n",
            $lhs0,
            "and z2.d, z0.d, z12.d\n",
            "and z3.d, z1.d, z12.d\n",
            "lsl z0.b, z0.b, #4\n",
            "lsl z1.b, z1.b, #4\n",
            $slice!("0", "1"),
            $lhs1,
            $slice!("2", "3"),
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

/// A kernel's `asm!` block with the inputs of one of the kernels' register conventions written
/// once: the template, `;`, the convention with the values it binds, `;`, the kernel's own
/// operands, then `clobber` and the other registers it writes as numbers per class: `x(...)`
/// (and `lr`), `v(...)` (the NEON/SVE vector registers), `p(...)` (SVE predicates). Every kernel
/// block is `options(nostack)`. `=> _` below: the asm consumes the register.
///
/// * `gemv(m, n, a, lhs, rhs, dst, dst_stride)`: x0 `m`, x1 `n` => _, x2 `a`, x3 `lhs`,
///   x4 `rhs` => _, x5 `dst` => _, x6 `dst_stride` (column groups outside, rows inside).
///   `gemv[C cols, "next"](...) setup [..] row [..]` writes that loop nest around the row's code:
///   per group of C (4 or 8) columns (label 2) x8 = rows left, x9 = the LHS, x11 = the group's dst;
///   per row (label 3) x10 = the group's RHS, then the row code (which moves x9 and x10 on); after
///   it x11 steps a row, and after the rows `next` sets the next group's RHS in x4.
/// * `gemm[R rows, "L"](m, n, a, lhs, rhs, dst, dst_stride, lhs_stride)`: x0 `m` => _, x1 `n`,
///   x2 `a`, x3 `lhs` => _, x4 `rhs`, x5 `dst` => _, x6 `dst_stride`, x7 `lhs_stride`: row blocks
///   of R (4, 8 or 16) rows outside, from label L; the block loop's tail ends the template.
/// * `float[6 rows, "L"](m, n, k, lhs, lhs_stride, rhs, dst, dst_stride, lo, hi)`: x0 `m` => _,
///   x1 `n`, x2 `k`, x3 `lhs` => _, x4 `lhs_stride`, x5 `rhs`, x6 `dst` => _, x7 `dst_stride`,
///   x8 `lo`, x9 `hi`: blocks of 6 rows from label L, the row strides times 6 in x27 / x28;
///   `float(...)`: the same inputs, the template ends with its own block loop tail.
#[rustfmt::skip]
macro_rules! kernel_asm {
    // (Before the arms that start with an `expr`: a fragment that fails to parse is not retried.)
    (gemv[$cols:tt cols, $next:literal]($m:expr, $n:expr, $a:expr, $lhs:expr, $rhs:expr, $dst:expr, $ds:expr)
     $(setup [$($s:expr),+ $(,)?])? row [$($r:expr),+ $(,)?]; $($rest:tt)*) => {
        kernel_asm!(
            $($($s,)+)?
            "2:", "mov x8, x0", "mov x9, x3", "mov x11, x5",
            "3:", "mov x10, x4",
            $($r,)+
            "add x11, x11, x6", "subs x8, x8, #1", "b.ne 3b",
            $next, kernel_asm!(@next_cols $cols), "b.gt 2b";
            gemv($m, $n, $a, $lhs, $rhs, $dst, $ds); $($rest)*
        )
    };
    (@next_cols 4) => { "add x5, x5, #16\nsubs x1, x1, #4\n" };
    (@next_cols 8) => { "add x5, x5, #32\nsubs x1, x1, #8\n" };
    ($($t:expr),+ $(,)?; gemv($m:expr, $n:expr, $a:expr, $lhs:expr, $rhs:expr, $dst:expr, $ds:expr); $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+] [
            in("x0") $m, inout("x1") $n => _, in("x2") $a, in("x3") $lhs, inout("x4") $rhs => _,
            inout("x5") $dst => _, in("x6") $ds,
        ] $($rest)*)
    };
    ($($t:expr),+ $(,)?;
     gemm[$rows:tt rows, $l:literal]($m:expr, $n:expr, $a:expr, $lhs:expr, $rhs:expr, $dst:expr, $ds:expr, $ls:expr);
     $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+, kernel_asm!(@next_rows $rows, $l)] [
            inout("x0") $m => _, in("x1") $n, in("x2") $a, inout("x3") $lhs => _, in("x4") $rhs,
            inout("x5") $dst => _, in("x6") $ds, in("x7") $ls,
        ] $($rest)*)
    };
    ($($t:expr),+ $(,)?;
     float[6 rows, $l:literal]($m:expr, $n:expr, $k:expr, $lhs:expr, $ls:expr, $rhs:expr, $dst:expr, $ds:expr, $lo:expr, $hi:expr);
     $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+, kernel_asm!(@next_rows 6, $l)] [
            inout("x0") $m => _, in("x1") $n, in("x2") $k, inout("x3") $lhs => _, in("x4") $ls,
            in("x5") $rhs, inout("x6") $dst => _, in("x7") $ds, in("x8") $lo, in("x9") $hi,
        ] $($rest)*)
    };
    ($($t:expr),+ $(,)?;
     float($m:expr, $n:expr, $k:expr, $lhs:expr, $ls:expr, $rhs:expr, $dst:expr, $ds:expr, $lo:expr, $hi:expr);
     $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+] [
            inout("x0") $m => _, in("x1") $n, in("x2") $k, inout("x3") $lhs => _, in("x4") $ls,
            in("x5") $rhs, inout("x6") $dst => _, in("x7") $ds, in("x8") $lo, in("x9") $hi,
        ] $($rest)*)
    };
    // The row-block loop's tail: the LHS (x3, `x7` bytes per group of 4 rows) and dst (x5, `x6`
    // bytes per row) pointers move on by a block, `m` (x0) counts down. The float kernels keep 6
    // row strides of each in x27 / x28 (and x3 / x6 as their LHS / dst pointers).
    // The 2vlx8 GEMMs: `gemm` with the RHS group's bytes per column in x8 (scaled by the asm) and
    // the clamp bounds as bits in w15 / w16.
    ($($t:expr),+ $(,)?;
     gemm2vl[$rows:tt rows, $l:literal]($m:expr, $n:expr, $a:expr, $lhs:expr, $rhs:expr, $dst:expr, $ds:expr, $ls:expr,
     $group:expr, $lo:expr, $hi:expr);
     $($rest:tt)*) => {
        kernel_asm!($($t),+; gemm[$rows rows, $l]($m, $n, $a, $lhs, $rhs, $dst, $ds, $ls);
            inout("x8") $group => _, in("x15") $lo, in("x16") $hi, $($rest)*)
    };
    (@next_rows 4, $l:literal) => {
        concat!("add x3, x3, x7\n", "add x5, x5, x6, lsl #2\n", "subs x0, x0, #4\n", "b.gt ", $l, "b\n")
    };
    (@next_rows 8, $l:literal) => {
        concat!(
            "add x3, x3, x7, lsl #1\n", "add x5, x5, x6, lsl #3\n", "subs x0, x0, #8\n", "b.gt ", $l, "b\n",
        )
    };
    (@next_rows 16, $l:literal) => {
        concat!(
            "add x3, x3, x7, lsl #2\n", "add x5, x5, x6, lsl #4\n", "subs x0, x0, #16\n", "b.gt ", $l, "b\n",
        )
    };
    (@next_rows 6, $l:literal) => {
        concat!("add x3, x3, x27\n", "add x6, x6, x28\n", "subs x0, x0, #6\n", "b.gt ", $l, "b\n")
    };
    // The kernel's own operands; registers as `tt` (a `literal` fragment is not the string
    // literal `asm!` expects there).
    (@ops [$($t:expr),+] [$($o:tt)*] in($r:tt) $e:expr, $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+] [$($o)* in($r) $e,] $($rest)*)
    };
    (@ops [$($t:expr),+] [$($o:tt)*] inout($r:tt) $e:expr => _, $($rest:tt)*) => {
        kernel_asm!(@ops [$($t),+] [$($o)* inout($r) $e => _,] $($rest)*)
    };
    (@ops [$($t:expr),+] [$($o:tt)*] clobber $($rest:tt)*) => {
        kernel_asm!(@c [$($t),+] [$($o)*] $($rest)*)
    };
    // Clobbers, one register number at a time (the register names must be literal tokens).
    (@c [$($t:expr),+] [$($o:tt)*] x(8 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x8") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(9 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x9") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(10 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x10") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(11 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x11") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(12 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x12") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(13 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x13") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(14 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x14") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(15 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x15") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(16 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x16") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(17 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x17") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(20 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x20") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(21 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x21") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(22 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x22") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(23 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x23") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(24 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x24") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(25 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x25") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(26 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x26") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(27 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x27") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(28 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("x28") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] x(lr $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("lr") _,] x($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(0 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v0") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(1 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v1") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(2 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v2") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(3 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v3") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(4 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v4") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(5 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v5") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(6 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v6") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(7 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v7") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(8 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v8") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(9 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v9") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(10 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v10") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(11 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v11") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(12 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v12") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(13 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v13") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(14 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v14") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(15 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v15") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(16 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v16") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(17 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v17") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(18 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v18") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(19 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v19") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(20 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v20") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(21 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v21") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(22 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v22") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(23 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v23") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(24 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v24") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(25 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v25") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(26 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v26") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(27 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v27") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(28 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v28") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(29 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v29") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(30 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v30") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] v(31 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("v31") _,] v($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(0 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p0") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(1 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p1") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(2 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p2") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(3 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p3") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(4 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p4") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] p(5 $($n:tt)*) $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)* out("p5") _,] p($($n)*) $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] $c:ident() $($r:tt)*) => { kernel_asm!(@c [$($t),+] [$($o)*] $($r)*) };
    (@c [$($t:expr),+] [$($o:tt)*] $(,)?) => { core::arch::asm!($($t),+, $($o)* options(nostack)) };
}

/// `$m!` once per group of row arguments, each after the common arguments `[$pre]`: the rows of a
/// tile that take the same fragment with their own registers.
macro_rules! for_rows {
    ($m:ident[$($pre:tt)*]; ($($r:tt)*) $($rest:tt)*) => {
        concat!($m!($($pre)* $($r)*), for_rows!($m[$($pre)*]; $($rest)*))
    };
    ($m:ident[$($pre:tt)*];) => {
        ""
    };
}

/// Blockwise epilogue of one tile row of f32 sums `$a` (NEON `v` .4s or SVE `z` .s):
///
/// ```text
/// acc = fma(rsum, lhs_offset, acc)     FMLA by element
/// acc = acc * lhs_scale + bias         FMUL by element, FADD (not fused)
/// acc = min(max(acc, lo), hi)          FMAX, FMIN
/// ```
///
/// `$o[$i]` / `$s[$i]`: the row's LHS offset (as f32) / scale.
macro_rules! finish_row {
    (v, $rsum:literal, $bias:literal, $lo:literal, $hi:literal; $a:literal, $o:literal, $s:literal, $i:literal) => {
        concat!(
            concat!("fmla v", $a, ".4s, v", $rsum, ".4s, v", $o, ".s[", $i, "]\n"),
            concat!("fmul v", $a, ".4s, v", $a, ".4s, v", $s, ".s[", $i, "]\n"),
            concat!("fadd v", $a, ".4s, v", $a, ".4s, v", $bias, ".4s\n"),
            clamp_v!("4s"; $a; $lo, $hi),
        )
    };
    (z, $rsum:literal, $bias:literal, $lo:literal, $hi:literal; $a:literal, $o:literal, $s:literal, $i:literal) => {
        concat!(
            concat!("fmla z", $a, ".s, z", $rsum, ".s, z", $o, ".s[", $i, "]\n"),
            concat!("fmul z", $a, ".s, z", $a, ".s, z", $s, ".s[", $i, "]\n"),
            concat!("fadd z", $a, ".s, z", $a, ".s, z", $bias, ".s\n"),
            concat!("fmax z", $a, ".s, p0/m, z", $a, ".s, z", $lo, ".s\n"),
            concat!("fmin z", $a, ".s, p0/m, z", $a, ".s, z", $hi, ".s\n"),
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

/// SVE, the end of a dequantised row: `FADD z$a, z$a, z$bias` for each `($a, $bias)`, then
/// `FMAX` with `z$lo` and `FMIN` with `z$hi` for each (under `p0`).
macro_rules! bias_clamp_z {
    ($(($a:literal, $b:literal))+; $lo:literal, $hi:literal) => {
        concat!(
            $(concat!("fadd z", $a, ".s, z", $a, ".s, z", $b, ".s\n"),)+
            $(concat!("fmax z", $a, ".s, p0/m, z", $a, ".s, z", $lo, ".s\n"),)+
            $(concat!("fmin z", $a, ".s, p0/m, z", $a, ".s, z", $hi, ".s\n"),)+
        )
    };
}

/// SVE: `SCVTF z$r.s, p0/m, z$r.s` (int32 to f32) for each listed register.
macro_rules! scvtf_z {
    ($($r:literal),+) => {
        concat!($(concat!("scvtf z", $r, ".s, p0/m, z", $r, ".s\n"),)+)
    };
}

/// SVE: `$op z$d.$t, z$n.$t, z$m.$t` for each `($d, $n, $m)` (unpredicated `uzp1`, `uzp2`,
/// `add`, `fmul`, ...).
macro_rules! zop3 {
    ($op:literal $t:literal; $(($d:literal, $n:literal, $m:literal))+) => {
        concat!($(concat!($op, " z", $d, ".", $t, ", z", $n, ".", $t, ", z", $m, ".", $t, "\n"),)+)
    };
}

/// SVE: `MLA z$d.s, p0/m, z$n.s, z$m.s` for each `($d, $n, $m)` (`d += n * m`, int32).
macro_rules! mla_z {
    ($(($d:literal, $n:literal, $m:literal))+) => {
        concat!($(concat!("mla z", $d, ".s, p0/m, z", $n, ".s, z", $m, ".s\n"),)+)
    };
}

/// The 24 `FMLA`s of one K value of the SVE 6 x 4VL f32 tiles (element `$l` of each segment of the
/// six LHS rows in `z0`..`z5`, accumulators `z8`..`z31` by row): loads the packed row's four
/// vectors from `x16` (under `p0`) and advances it.
macro_rules! sve_6x4vl_k_step {
    ($l:literal) => {
        concat!(
            "ld1w {{z6.s}}, p0/z, [x16]\n",
            "ld1w {{z7.s}}, p0/z, [x16, #1, mul vl]\n",
            concat!("fmla z8.s, z6.s, z0.s[", $l, "]\n"),
            concat!("fmla z12.s, z6.s, z1.s[", $l, "]\n"),
            concat!("fmla z16.s, z6.s, z2.s[", $l, "]\n"),
            concat!("fmla z20.s, z6.s, z3.s[", $l, "]\n"),
            concat!("fmla z24.s, z6.s, z4.s[", $l, "]\n"),
            concat!("fmla z28.s, z6.s, z5.s[", $l, "]\n"),
            concat!("fmla z9.s, z7.s, z0.s[", $l, "]\n"),
            concat!("fmla z13.s, z7.s, z1.s[", $l, "]\n"),
            concat!("fmla z17.s, z7.s, z2.s[", $l, "]\n"),
            concat!("fmla z21.s, z7.s, z3.s[", $l, "]\n"),
            concat!("fmla z25.s, z7.s, z4.s[", $l, "]\n"),
            concat!("fmla z29.s, z7.s, z5.s[", $l, "]\n"),
            "ld1w {{z6.s}}, p0/z, [x16, #2, mul vl]\n",
            "ld1w {{z7.s}}, p0/z, [x16, #3, mul vl]\n",
            concat!("fmla z10.s, z6.s, z0.s[", $l, "]\n"),
            concat!("fmla z14.s, z6.s, z1.s[", $l, "]\n"),
            concat!("fmla z18.s, z6.s, z2.s[", $l, "]\n"),
            concat!("fmla z22.s, z6.s, z3.s[", $l, "]\n"),
            concat!("fmla z26.s, z6.s, z4.s[", $l, "]\n"),
            concat!("fmla z30.s, z6.s, z5.s[", $l, "]\n"),
            concat!("fmla z11.s, z7.s, z0.s[", $l, "]\n"),
            concat!("fmla z15.s, z7.s, z1.s[", $l, "]\n"),
            concat!("fmla z19.s, z7.s, z2.s[", $l, "]\n"),
            concat!("fmla z23.s, z7.s, z3.s[", $l, "]\n"),
            concat!("fmla z27.s, z7.s, z4.s[", $l, "]\n"),
            concat!("fmla z31.s, z7.s, z5.s[", $l, "]\n"),
            "addvl x16, x16, #4\n",
        )
    };
}

/// The head of a column tile of the SVE 6 x 4VL f32 kernels (label `20`): `x25` = the tile's
/// columns (`x17` columns left, at most 4 x VL32), their predicates p1-p4, and the bias row at
/// `x16` (advanced past it) as every row's starting accumulators z8..z31. Uses x26.
macro_rules! sve_6x4vl_tile_head {
    () => {
        concat!(
            "20:\n",
            "cntw x26, all, mul #4\n",
            "cmp x17, x26\n",
            "csel x25, x17, x26, lt\n",
            "mov x26, #0\n",
            "whilelt p1.s, x26, x25\n",
            "incw x26\n",
            "whilelt p2.s, x26, x25\n",
            "incw x26\n",
            "whilelt p3.s, x26, x25\n",
            "incw x26\n",
            "whilelt p4.s, x26, x25\n",
            "ld1w {{z8.s}}, p0/z, [x16]\n",
            "ld1w {{z9.s}}, p0/z, [x16, #1, mul vl]\n",
            "ld1w {{z10.s}}, p0/z, [x16, #2, mul vl]\n",
            "ld1w {{z11.s}}, p0/z, [x16, #3, mul vl]\n",
            "addvl x16, x16, #4\n",
            copy_rows!(z;
                ("8", "9", "10", "11") => ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
        )
    };
}

/// The K tail of the SVE 6 x 4VL f32 kernels (label `40`, done at `50`): the last `$k & 3` values
/// (1 to 3, in `x21`) of the six rows at `x10`..`x15` + `$at` bytes, one predicated block load
/// (inactive elements are not accessed), then value by value.
macro_rules! sve_6x4vl_k_tail {
    ($k:literal, $at:literal) => {
        concat!(
            "40:\n",
            "ands x21, ", $k, ", #3\n",
            "b.eq 50f\n",
            "whilelt p5.s, xzr, x21\n",
            load_rows!(ld1rqw "p5", $at; "x10", "x11", "x12", "x13", "x14", "x15"),
            sve_6x4vl_k_step!("0"),
            "cmp x21, #1\n",
            "b.eq 50f\n",
            sve_6x4vl_k_step!("1"),
            "cmp x21, #2\n",
            "b.eq 50f\n",
            sve_6x4vl_k_step!("2"),
        )
    };
}

/// The end of a column tile of the SVE 6 x 4VL f32 kernels: z8..z31 clamped to `[z1, z0]`, the
/// `x24` rows stored from `x22` (rows `$stride` bytes apart, columns under p1-p4), then the next
/// tile (back to label `20` while columns are left in `x17`). Uses x23 and x26.
macro_rules! sve_6x4vl_tile_end {
    ($stride:literal) => {
        concat!(
            fmin_fmax!(z;
                "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"; "0", "1"),
            "mov x23, x22\n",
            each_row!(st1w_row["x23";], le, "x24", "60", "x23", $stride;
                ("8", "9", "10", "11") ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
            "60:\n",
            "addvl x22, x22, #4\n",
            "cntw x26, all, mul #4\n",
            "subs x17, x17, x26\n",
            "b.gt 20b\n",
        )
    };
}
