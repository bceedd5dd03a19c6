//! The whole-kernel template of the 6-row NEON float GEMMs (`matmul_clamp_f32_f32_f32p*` and
//! `matmul_clamp_f16_f16_f16p*`): f32 and f16 kernels of one schedule are the same instruction
//! stream with another arrangement (`.4s` / `.8h`), so each kernel file states only its element,
//! its tile and its K-loop schedule, and [`float_kernel`] writes the function, its `run` entry and
//! its `asm!` block.
//!
//! Register plan (every schedule):
//!
//! * `v8`..`v31` (4 vectors a row) or `v8`..`v19` (2 vectors a row) — accumulators: row `r` of
//!   the tile in consecutive registers from `v(8 + w * r)`, initialised from the packed bias.
//! * `v0`..`v5` — K values of LHS rows 0..5; after the loops, the clamp bounds in `v0`, `v1`.
//! * `v6`, `v7` (`pairs`, `in_order`) or `v20`..`v27` (`ring`) — packed RHS vectors.
//!
//! Rows past the block's last row read row 0 again (their results are not stored); columns past
//! `n` are the packer's zero padding (not stored either).

/// `FMLA` by element of one packed RHS vector `v$b` into one accumulator per LHS row: lane `$l`
/// of `v0`, `v1`, ... (one row each) into `v$acc`..., arrangement `$arr`, lane size `$lane`.
macro_rules! fmla_rows {
    ($arr:literal, $lane:literal, $l:literal; $b:literal => $($acc:literal),+) => {
        fmla_rows!(@go $arr, $lane, $l, $b; ["0", "1", "2", "3", "4", "5"] $($acc),+)
    };
    (@go $arr:literal, $lane:literal, $l:literal, $b:literal; [$r:literal $(, $rs:literal)*]
     $acc:literal $(, $accs:literal)*) => {
        concat!(
            "fmla v", $acc, ".", $arr, ", v", $b, ".", $arr, ", v", $r, ".", $lane, "[", $l, "]\n",
            fmla_rows!(@go $arr, $lane, $l, $b; [$($rs),*] $($accs),*),
        )
    };
    (@go $arr:literal, $lane:literal, $l:literal, $b:literal; [$($rs:literal),*]) => {
        ""
    };
}

/// One K value of a 4-vector row (`pairs` schedule): the 24 `FMLA`s of lane `$l`, loading the
/// packed row from `x16` at byte offsets `$o` and `$o2` (two `ldp q6, q7`).
macro_rules! fmla_6x4v {
    ($arr:literal, $lane:literal; $o:literal, $o2:literal, $l:literal) => {
        concat!(
            "ldp q6, q7, [x16, #", $o, "]\n",
            fmla_rows!($arr, $lane, $l; "6" => "8", "12", "16", "20", "24", "28"),
            fmla_rows!($arr, $lane, $l; "7" => "9", "13", "17", "21", "25", "29"),
            "ldp q6, q7, [x16, #", $o2, "]\n",
            fmla_rows!($arr, $lane, $l; "6" => "10", "14", "18", "22", "26", "30"),
            fmla_rows!($arr, $lane, $l; "7" => "11", "15", "19", "23", "27", "31"),
        )
    };
}

/// One K value of a 2-vector row (`ring` schedule): the 12 `FMLA`s of lane `$l` with the packed
/// row already in `v$p`, `v$q`.
macro_rules! fmla_6x2v {
    ($arr:literal, $lane:literal; $p:literal, $q:literal, $l:literal) => {
        concat!(
            fmla_rows!($arr, $lane, $l; $p => "8", "10", "12", "14", "16", "18"),
            fmla_rows!($arr, $lane, $l; $q => "9", "11", "13", "15", "17", "19"),
        )
    };
}

/// A line of an `in_order` kernel's `k_block!` that loads ahead for the next iteration: the
/// line (`with`), or nothing in the last iteration (`without`).
macro_rules! prefetch {
    (with, $s:expr) => {
        concat!($s, "\n")
    };
    (without, $s:expr) => {
        ""
    };
}

/// One packed RHS vector of an `in_order` iteration (Cortex-A55): the 6 `FMLA`s of lane `$l` of
/// `v0`..`v5` by the vector into column group `$c` ("0".."3") of the accumulators, with the
/// companions that keep the next vectors coming, each between two `FMLA`s:
///
/// * before the first `FMLA`, the next vector's low half (`ldr d`, from `[x16, #$o1]`) into the
///   B register the previous vector freed, and the high half of the vector after it (`ldr x`,
///   from `[x16, #$o2]`);
/// * after the second, the `INS` of the next vector's high half (loaded one vector earlier), so
///   the load, the insert and the first use are spaced by the `FMLA`s in between.
///
/// `$par` (`even` / `odd`) is the vector's index parity in the iteration: even vectors are in
/// `v6` and their high halves pass through `x28`, odd ones `v7` and `x30`. `$p1` gates the next
/// vector's loads, `$p2` the one after (`with`, or the kernel's `$p` where they belong to the next
/// iteration). `lhs $lp $off`: the last vector of an LHS half also refills each row's `v0`..`v5`
/// with `ldr d` from `[x10..x15, $off]` right after the row's last `FMLA` of that half (no `INS`:
/// the following `FMLA`s use lanes of the low 64 bits only). `; then $tail`: one more
/// instruction at the end.
macro_rules! in_order_vector {
    ($e:ident $l:literal, "0", $($rest:tt)*) => {
        in_order_vector!(@par $e $l ["8", "12", "16", "20", "24", "28"] $($rest)*)
    };
    ($e:ident $l:literal, "1", $($rest:tt)*) => {
        in_order_vector!(@par $e $l ["9", "13", "17", "21", "25", "29"] $($rest)*)
    };
    ($e:ident $l:literal, "2", $($rest:tt)*) => {
        in_order_vector!(@par $e $l ["10", "14", "18", "22", "26", "30"] $($rest)*)
    };
    ($e:ident $l:literal, "3", $($rest:tt)*) => {
        in_order_vector!(@par $e $l ["11", "15", "19", "23", "27", "31"] $($rest)*)
    };
    (@par $e:ident $l:literal $acc:tt even; $($rest:tt)*) => {
        in_order_vector!(@go $e $l $acc ["6", "7", "x30", "x28"] $($rest)*)
    };
    (@par $e:ident $l:literal $acc:tt odd; $($rest:tt)*) => {
        in_order_vector!(@go $e $l $acc ["7", "6", "x28", "x30"] $($rest)*)
    };
    (@go $e:ident $l:literal [$a0:literal, $a1:literal, $a2:literal, $a3:literal, $a4:literal, $a5:literal]
     [$b:literal, $nb:literal, $h1:literal, $h2:literal] $p1:ident $o1:literal, $p2:ident $o2:literal
     $(; lhs $lp:ident $off:literal)? $(; then $tail:literal)?) => {
        concat!(
            prefetch!($p1, concat!("ldr d", $nb, ", [x16, #", $o1, "]")),
            prefetch!($p2, concat!("ldr ", $h2, ", [x16, #", $o2, "]")),
            in_order_vector!(@fmla $e, $a0, $b, "0", $l),
            $(prefetch!($lp, concat!("ldr d0, [x10, ", $off, "]")),)?
            in_order_vector!(@fmla $e, $a1, $b, "1", $l),
            prefetch!($p1, concat!("ins v", $nb, ".d[1], ", $h1)),
            $(prefetch!($lp, concat!("ldr d1, [x11, ", $off, "]")),)?
            in_order_vector!(@fmla $e, $a2, $b, "2", $l),
            $(prefetch!($lp, concat!("ldr d2, [x12, ", $off, "]")),)?
            in_order_vector!(@fmla $e, $a3, $b, "3", $l),
            $(prefetch!($lp, concat!("ldr d3, [x13, ", $off, "]")),)?
            in_order_vector!(@fmla $e, $a4, $b, "4", $l),
            $(prefetch!($lp, concat!("ldr d4, [x14, ", $off, "]")),)?
            in_order_vector!(@fmla $e, $a5, $b, "5", $l),
            $(prefetch!($lp, concat!("ldr d5, [x15, ", $off, "]")),)?
            $($tail, "\n",)?
        )
    };
    (@fmla f32, $a:literal, $b:literal, $r:literal, $l:literal) => {
        concat!("fmla v", $a, ".4s, v", $b, ".4s, v", $r, ".s[", $l, "]\n")
    };
    (@fmla f16, $a:literal, $b:literal, $r:literal, $l:literal) => {
        concat!("fmla v", $a, ".8h, v", $b, ".8h, v", $r, ".h[", $l, "]\n")
    };
}

/// Declares a 6-row float GEMM kernel (the function, with `asm_kernel!`, and its `run` entry):
///
/// ```text
/// float_kernel! {
///     /// docs, safety
///     #[target_feature(enable = "neon")]
///     fn name: f32, 6 x 16, "<stem for llvm-mca>", pairs;
/// }
/// ```
///
/// The element (`f32`: `float fn`, `.4s`; `f16`: `half fn`, `.8h`, bounds as f16 bits) and the
/// tile width (columns) come first, then the stem that names the K loop's llvm-mca region, then
/// the K-loop schedule:
///
/// * `pairs` — 4 vectors a row, 4 K values an iteration (one 4-element LHS load per row), the
///   packed row of each K value loaded in two `ldp q6, q7` right before its `FMLA`s.
/// * `ring` — 2 vectors a row, one 128-bit LHS load per row (4 f32 / 8 f16 K values) an
///   iteration, the packed rows in a ring of `v20`..`v27`, each loaded one K value ahead.
/// * `in_order $k_block` — 4 vectors a row for in-order cores (Cortex-A55): the kernel's own
///   `$k_block!(with)` / `$k_block!(without)` is one iteration of 128 bits of LHS per row (two
///   64-bit halves, each loaded into `v0`..`v5` with `ldr d`), with or without the loads of the
///   next iteration (the last one must not make them). They keep the LHS row pointers' byte
///   offset in `x20`, `x20 + 8` in `x27` and RHS high halves in flight in `x28` and `x30`, so the
///   row-block strides are recomputed instead of kept.
macro_rules! float_kernel {
    ($(#[$attr:meta])* fn $name:ident: f32, 6 x $cols:literal, $mca:literal, $schedule:ident $($k_block:ident)?;) => {
        float_kernel!(@schedule [$(#[$attr])*] $name [float, f32, "4s", "s", "4", "4", "2", "3"]
            $cols, $mca, $schedule $($k_block)?);
    };
    ($(#[$attr:meta])* fn $name:ident: f16, 6 x $cols:literal, $mca:literal, $schedule:ident $($k_block:ident)?;) => {
        float_kernel!(@schedule [$(#[$attr])*] $name [half, f16, "8h", "h", "2", "8", "3", "7"]
            $cols, $mca, $schedule $($k_block)?);
    };
    // The element as literals: [fn kind, element, arrangement, lane size, element bytes, elements
    // per 128 bits, log2 of that, that - 1].
    (@schedule [$($attr:tt)*] $name:ident [$kind:ident, $e:ident, $arr:literal, $lane:literal,
     $bytes:literal, $lanes:tt, $lanes_log2:literal, $lanes_mask:literal]
     $cols:literal, $mca:literal, pairs) => {
        float_kernel!(@kernel [$($attr)*] $name [$kind, $e, $arr] $cols, out_of_order, 4;
            // 4 K values an iteration: 128 bits of f32 or 64 bits of f16 per row.
            concat!("lsr x21, x2, #2\n", "cbz x21, 40f\n", "30:\n", "// LLVM-MCA-BEGIN ", $mca, "\n",
                float_kernel!(@lhs_4 $e),
                fmla_6x4v!($arr, $lane; "0", "32", "0"),
                fmla_6x4v!($arr, $lane; "64", "96", "1"),
                fmla_6x4v!($arr, $lane; "128", "160", "2"),
                fmla_6x4v!($arr, $lane; "192", "224", "3"),
                "add x16, x16, #256\n", "subs x21, x21, #1\n", "b.ne 30b\n", "// LLVM-MCA-END\n"),
            concat!("40:\n", "ands x21, x2, #3\n", "b.eq 50f\n", "45:\n",
                load_rows!(ldr $lane, "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #", $bytes, "\n",
                fmla_6x4v!($arr, $lane; "0", "32", "0"),
                "add x16, x16, #64\n"));
    };
    (@schedule [$($attr:tt)*] $name:ident [$kind:ident, $e:ident, $arr:literal, $lane:literal,
     $bytes:literal, $lanes:tt, $lanes_log2:literal, $lanes_mask:literal]
     $cols:literal, $mca:literal, ring) => {
        float_kernel!(@kernel [$($attr)*] $name [$kind, $e, $arr] $cols, out_of_order, 2;
            concat!("lsr x21, x2, #", $lanes_log2, "\n", "cbz x21, 40f\n", "30:\n",
                "// LLVM-MCA-BEGIN ", $mca, "\n",
                "ldp q20, q21, [x16]\n",
                load_rows!(ldr "q", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #16\n",
                float_kernel!(@ring $lanes, $arr, $lane),
                "subs x21, x21, #1\n", "b.ne 30b\n", "// LLVM-MCA-END\n"),
            concat!("40:\n", "ands x21, x2, #", $lanes_mask, "\n", "b.eq 50f\n", "45:\n",
                load_rows!(ldr $lane, "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #", $bytes, "\n",
                "ldp q20, q21, [x16], #32\n",
                fmla_6x2v!($arr, $lane; "20", "21", "0")));
    };
    (@schedule [$($attr:tt)*] $name:ident [$kind:ident, $e:ident, $arr:literal, $lane:literal,
     $bytes:literal, $lanes:tt, $lanes_log2:literal, $lanes_mask:literal]
     $cols:literal, $mca:literal, in_order $k_block:ident) => {
        float_kernel!(@kernel [$($attr)*] $name [$kind, $e, $arr] $cols, in_order, 4;
            concat!("lsr x21, x2, #", $lanes_log2, "\n", "cbz x21, 40f\n",
                // Prologue: the first 64-bit half of each LHS row (x20 is 0), RHS vector 0 and
                // the high half of vector 1.
                "ldr d0, [x10]\n", "ldr d1, [x11]\n", "ldr d2, [x12]\n", "ldr d3, [x13]\n",
                "ldr d4, [x14]\n", "ldr d5, [x15]\n",
                "ldr q6, [x16]\n", "ldr x30, [x16, #24]\n", "mov x27, #8\n",
                "subs x21, x21, #1\n", "b.eq 35f\n",
                // Iterations with a successor, then the last one without prefetches.
                "30:\n", "// LLVM-MCA-BEGIN ", $mca, "\n", $k_block!(with),
                "subs x21, x21, #1\n", "b.ne 30b\n", "// LLVM-MCA-END\n",
                "35:\n", $k_block!(without)),
            // K tail (plain loads, one vector at a time).
            concat!("40:\n", "ands x21, x2, #", $lanes_mask, "\n", "b.eq 50f\n", "45:\n",
                load_rows!(ldr $lane, "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #", $bytes, "\n",
                "ldr q6, [x16, #0]\n",
                fmla_rows!($arr, $lane, "0"; "6" => "8", "12", "16", "20", "24", "28"),
                "ldr q7, [x16, #16]\n",
                fmla_rows!($arr, $lane, "0"; "7" => "9", "13", "17", "21", "25", "29"),
                "ldr q6, [x16, #32]\n",
                fmla_rows!($arr, $lane, "0"; "6" => "10", "14", "18", "22", "26", "30"),
                "ldr q7, [x16, #48]\n",
                fmla_rows!($arr, $lane, "0"; "7" => "11", "15", "19", "23", "27", "31"),
                "add x16, x16, #64\n"));
    };
    // 4 K values of each LHS row: a q register of f32, a d register of f16.
    (@lhs_4 f32) => {
        concat!(load_rows!(ldr "q", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"), "add x20, x20, #16\n")
    };
    (@lhs_4 f16) => {
        concat!(load_rows!(ldr "d", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"), "add x20, x20, #8\n")
    };
    // The `ring` iteration: each packed row loaded one K value ahead of its `FMLA`s.
    (@ring "4", $arr:literal, $lane:literal) => {
        concat!(
            "ldp q22, q23, [x16, #32]\n", fmla_6x2v!($arr, $lane; "20", "21", "0"),
            "ldp q24, q25, [x16, #64]\n", fmla_6x2v!($arr, $lane; "22", "23", "1"),
            "ldp q26, q27, [x16, #96]\n", fmla_6x2v!($arr, $lane; "24", "25", "2"),
            fmla_6x2v!($arr, $lane; "26", "27", "3"),
            "add x16, x16, #128\n",
        )
    };
    (@ring "8", $arr:literal, $lane:literal) => {
        concat!(
            "ldp q22, q23, [x16, #32]\n", fmla_6x2v!($arr, $lane; "20", "21", "0"),
            "ldp q24, q25, [x16, #64]\n", fmla_6x2v!($arr, $lane; "22", "23", "1"),
            "ldp q26, q27, [x16, #96]\n", fmla_6x2v!($arr, $lane; "24", "25", "2"),
            "ldp q20, q21, [x16, #128]\n", fmla_6x2v!($arr, $lane; "26", "27", "3"),
            "ldp q22, q23, [x16, #160]\n", fmla_6x2v!($arr, $lane; "20", "21", "4"),
            "ldp q24, q25, [x16, #192]\n", fmla_6x2v!($arr, $lane; "22", "23", "5"),
            "ldp q26, q27, [x16, #224]\n", fmla_6x2v!($arr, $lane; "24", "25", "6"),
            fmla_6x2v!($arr, $lane; "26", "27", "7"),
            "add x16, x16, #256\n",
        )
    };
    // The kernel around its K loop (`$k_loop`) and K tail (`$k_tail`, its loop closed here).
    (@kernel [$($attr:tt)*] $name:ident [$kind:ident, $e:ident, $arr:literal] $cols:literal,
     $schedule:ident, $w:tt; $k_loop:expr, $k_tail:expr) => {
        asm_kernel! {
            $($attr)*
            $kind fn $name(m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max) {
                // Register map
                //   x0  rows left                 x10-x15 LHS rows 0..5 of the block
                //   x1  n                         x16 packed RHS (advances through the groups)
                //   x2  k                         x17 columns left
                //   x3  LHS block (row 0)         x20 byte offset of the K value in the LHS rows
                //   x4  lhs_stride                x21 loop counter
                //   x5  rhs_packed                x22 dst of this column tile (row 0)
                //   x6  dst block (row 0)         x23 dst row pointer (stores)
                //   x7  dst_stride                x24 rows in this block (1..=6)
                //   w8  clamp_min bits            x25 columns in this tile (1..=cols)
                //   w9  clamp_max bits            x26 partial-store pointer
                //   x27 6 * lhs_stride            x28 6 * dst_stride (`out_of_order`; `in_order`
                //                                 schedules use x27, x28, x30 in the loop)
                //
                // SAFETY: the caller guarantees the buffer extents in the kernel's contract. LHS
                // rows are read only within their k elements: whole loads while a whole
                // iteration's values remain (an `in_order` iteration loads the next iteration's
                // values only when one follows), then single values; rows past the block's last
                // row are replaced by its row 0. The packed RHS is read once per row block, group
                // by group, within the group (an `in_order` iteration reads the next vectors only
                // when it has a successor in the group). Stores cover columns < n of rows < m
                // only. Every touched register is declared; x18, x19, x29 and sp are not used, and
                // no stack memory is accessed.
                unsafe {
                    float_kernel!(@asm $schedule [$e, $arr] $cols, $w;
                        float_kernel!(@bias $w),
                        concat!("mov x20, #0\n", $k_loop, $k_tail, "subs x21, x21, #1\n", "b.ne 45b\n"),
                        float_kernel!(@bound $kind, clamp_min), float_kernel!(@bound $kind, clamp_max),
                        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride);
                }
            }
        }
    };
    (@bound float, $b:ident) => { $b.to_bits() as usize };
    (@bound half, $b:ident) => { $b as usize };
    // Accumulators from the packed bias (one row loaded, copied to the others).
    (@bias 4) => {
        concat!("ldp q8, q9, [x16]\n", "ldp q10, q11, [x16, #32]\n", "add x16, x16, #64\n",
            copy_rows!(v;
                ("8", "9", "10", "11") => ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")))
    };
    (@bias 2) => {
        concat!("ldp q8, q9, [x16]\n", "add x16, x16, #32\n",
            copy_rows!(v; ("8", "9") => ("10", "11") ("12", "13") ("14", "15") ("16", "17") ("18", "19")))
    };
    // Clamp (the bounds in v0 / v1) and store the block's rows.
    (@clamp_store 4, $e:ident, $arr:literal) => {
        concat!(
            fmin_fmax!(v $arr;
                "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"; "0", "1"),
            "mov x23, x22\n",
            each_row!(store_row_float[$e, "x25", "x23", "x26";], le, "x24", "60", "x23", "x7";
                ("8", "9", "10", "11") ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
            "60:\n", "add x22, x22, #64\n",
        )
    };
    (@clamp_store 2, $e:ident, $arr:literal) => {
        concat!(
            fmin_fmax!(v $arr;
                "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"; "0", "1"),
            "mov x23, x22\n",
            each_row!(store_row_float[$e, "x25", "x23", "x26";], le, "x24", "60", "x23", "x7";
                ("8", "9") ("10", "11") ("12", "13") ("14", "15") ("16", "17") ("18", "19")),
            "60:\n", "add x22, x22, #32\n",
        )
    };
    // Row blocks of 6 (label 10), column tiles of `$cols` (label 20).
    (@asm out_of_order [$e:ident, $arr:literal] $cols:literal, $w:tt; $bias:expr, $k:expr, $lo:expr, $hi:expr,
     $m:ident, $n:ident, $kk:ident, $lhs:ident, $ls:ident, $rhs:ident, $dst:ident, $ds:ident) => {
        kernel_asm!(
            times6!("x27", "x4"),
            times6!("x28", "x7"),
            float_kernel!(@block_start $cols),
            $bias,
            $k,
            concat!("50:\n", "dup v0.", $arr, ", w9\n", "dup v1.", $arr, ", w8\n"),
            float_kernel!(@clamp_store $w, $e, $arr),
            concat!("subs x17, x17, #", $cols, "\n"),
            "b.gt 20b";
            float[6 rows, "10"]($m, $n, $kk, $lhs, $ls, $rhs, $dst, $ds, $lo, $hi);
            clobber x(10 11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
        )
    };
    (@asm in_order [$e:ident, $arr:literal] $cols:literal, $w:tt; $bias:expr, $k:expr, $lo:expr, $hi:expr,
     $m:ident, $n:ident, $kk:ident, $lhs:ident, $ls:ident, $rhs:ident, $dst:ident, $ds:ident) => {
        kernel_asm!(
            float_kernel!(@block_start $cols),
            $bias,
            $k,
            concat!("50:\n", "dup v0.", $arr, ", w9\n", "dup v1.", $arr, ", w8\n"),
            float_kernel!(@clamp_store $w, $e, $arr),
            concat!("subs x17, x17, #", $cols, "\n"),
            "b.gt 20b",
            // Next row block: 6 rows further (4 + 2 strides).
            "add x3, x3, x4, lsl #2",
            "add x3, x3, x4, lsl #1",
            "add x6, x6, x7, lsl #2",
            "add x6, x6, x7, lsl #1",
            "subs x0, x0, #6",
            "b.gt 10b";
            float($m, $n, $kk, $lhs, $ls, $rhs, $dst, $ds, $lo, $hi);
            clobber x(10 11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28 lr)
                v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
        )
    };
    (@block_start $cols:literal) => {
        concat!(
            "10:\n",
            min_imm!("x24", "x0", "6", "x24"),
            row_pointers!("x24", "x3", "x4"; "x10", "x11", "x12", "x13", "x14", "x15"),
            "mov x16, x5\n", "mov x17, x1\n", "mov x22, x6\n",
            "20:\n",
            min_imm!("x25", "x17", $cols, "x25"),
        )
    };
}
