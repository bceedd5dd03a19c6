//! Fragments every kind of kernel uses, NEON and SVE alike: the `asm!` block with a register
//! convention (`kernel_asm!`, `asm_clobbering_all_vectors!`), the K-loop frame (`k_loop!`), row
//! chains over a tile (`each_row!`, `for_rows!`, `rows_of_two_groups!`), row-block arithmetic
//! (`min_imm!`, `group_if_rows!`, `times6!`, `row_pointers!`), and the float kernels' row
//! loads, bias copies, clamps and blockwise row finish, each with a NEON `v` and an SVE `z` form
//! (`load_rows!`, `copy_rows!`, `fmin_fmax!`, `finish_row!`).
//!
//! Users: the templates (`gemv_template.rs`, `gemm_template.rs`, `float_template.rs`), the
//! streaming block (`streaming.rs`), and the NEON, SVE and SVE2 kernels of every family.

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

/// A K loop from its local label `$l`: the llvm-mca region named `$mca` around the loop body
/// (whose last flag-setting instruction counts the iterations down), closed by `b.ne` back to the
/// label.
macro_rules! k_loop {
    ($l:literal, $mca:literal; $($body:expr),+ $(,)?) => {
        concat!($l, ":\n", "// LLVM-MCA-BEGIN ", $mca, "\n", $($body, "\n",)+ "b.ne ", $l, "b\n", "// LLVM-MCA-END")
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
