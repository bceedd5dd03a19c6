//! The SME2 asm of the generic interface's float GEMMs (see `super`), one frame for both element
//! types: `kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa` ([`gemm_f32`]: f32
//! values, one K value per outer product) and
//! `kai_matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa` ([`gemm_f16`]: f16 values,
//! one pair of K values per widening outer product, f16 biases and output). Tiles of 2 x SVL32
//! rows by 2 x SVL32 columns, each from two LHS blocks of SVL32 rows (`lhs_stride` bytes apart)
//! and two RHS blocks of SVL32 columns (`rhs_stride` bytes apart, each its biases then one
//! vector per K step).
//!
//! A tile's four ZA tiles (za0 rows of the first LHS block by columns of the first RHS block,
//! za1 the same rows by the second block's columns, za2/za3 the second LHS block's rows) start
//! from the columns' biases as f32 (f16 ones widened by `FCVT`, exact) added to zero as integers
//! (`ADDHA`: the bias bits, signed zeros and NaN payloads included), then take one `FMOPA` per K
//! step in K order (four per iteration, then two and one). The stores, clamped by `FCLAMP`
//! (after `FCVT` to f16 for the f16 kernel) and predicated to the rows below `m` and the columns
//! below `n`, are the SME packed-float GEMMs' (`float_mopa_kernel!(@tile_out)`). Where the last
//! tile has rows or columns for one block only, the second block's pointer is the first's (its
//! phantom rows or columns are computed and not stored), so nothing past the packed operands is
//! read. KleidiAI covers those edges with narrower sub-kernels instead; every output is the same
//! single `FMOPA` chain either way.

/// The loads of `$s` K steps (`$s` = 2 or 4: one multi-vector load per block; 1: single loads)
/// by `$ld` of `$el` elements into z0 (first LHS block, x13), z16 (second LHS block, x20), z4
/// (first RHS block, x9) and z20 (second RHS block, x21), the pointers then advanced past them.
macro_rules! split_load {
    (@last 0, 2) => { "1" };
    (@last 0, 4) => { "3" };
    (@last 16, 2) => { "17" };
    (@last 16, 4) => { "19" };
    (@last 4, 2) => { "5" };
    (@last 4, 4) => { "7" };
    (@last 20, 2) => { "21" };
    (@last 20, 4) => { "23" };
    (@advance $s:tt) => {
        concat!(
            "addvl x13, x13, #", $s, "\n",
            "addvl x20, x20, #", $s, "\n",
            "addvl x9, x9, #", $s, "\n",
            "addvl x21, x21, #", $s,
        )
    };
    (1, $ld:literal, $el:literal) => {
        concat!(
            $ld, " {{z0", $el, "}}, p0/z, [x13]\n",
            $ld, " {{z16", $el, "}}, p0/z, [x20]\n",
            $ld, " {{z4", $el, "}}, p0/z, [x9]\n",
            $ld, " {{z20", $el, "}}, p0/z, [x21]\n",
            split_load!(@advance 1),
        )
    };
    ($s:tt, $ld:literal, $el:literal) => {
        concat!(
            $ld, " {{z0", $el, "-z", split_load!(@last 0, $s), $el, "}}, pn8/z, [x13]\n",
            $ld, " {{z16", $el, "-z", split_load!(@last 16, $s), $el, "}}, pn8/z, [x20]\n",
            $ld, " {{z4", $el, "-z", split_load!(@last 4, $s), $el, "}}, pn8/z, [x9]\n",
            $ld, " {{z20", $el, "-z", split_load!(@last 20, $s), $el, "}}, pn8/z, [x21]\n",
            split_load!(@advance $s),
        )
    };
}

/// The outer products of K step `$i` of the loaded ones (z0+i, z16+i by z4+i, z20+i), sources
/// of `$el` elements.
macro_rules! split_step {
    ($el:literal, $a:literal, $b:literal, $c:literal, $d:literal) => {
        float_mopa_kernel!(@step "fmopa", $el, $a, $b, $c, $d)
    };
}

/// One GEMM: its documentation, name, output (`f32` | `f16`: the template's `@setup` and
/// `@tile_out`), the load and element suffix of its K steps, and `bias [...]`: the asm that puts
/// the f32 biases of the first RHS block (x9) in z27 and the second's (x21) in z28, leaving both
/// pointers at the first K step.
macro_rules! uker_mopa_gemm {
    ($(#[$doc:meta])* fn $name:ident: $out:ident, $ld:literal, $el:literal;
     bias [$($bias:literal),+ $(,)?]) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU implements SME2; `ceil(m / SVL32)` LHS blocks of `steps` vectors and
        /// `ceil(n / SVL32)` RHS blocks of their biases and `steps` vectors at the given
        /// strides are readable; the `m` rows of `n` values at `dst` are writable and overlap
        /// neither; a pending lazy ZA save follows the AAPCS64 SME ABI.
        pub unsafe fn $name(
            (m, n, steps): (usize, usize, usize),
            (lhs, lhs_stride): (*const u8, usize),
            (rhs, rhs_stride): (*const u8, usize),
            (dst, dst_stride): (*mut u8, usize),
            (lo, hi): (u32, u32),
        ) {
            // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
            unsafe { crate::matmul::streaming::commit_lazy_za_save() };
            // SAFETY: the caller guarantees (see `# Safety`) SME2 and the blocks read here: a
            // tile's second LHS (RHS) block is read only where rows (columns) remain for it,
            // else its first block is read again; every block is read whole and no further.
            // Stores are predicated to the m rows and n columns. Only the declared registers
            // change; streaming mode starts and ends in the block.
            unsafe {
                streaming_asm!("sme2";
                    "cntw x7",
                    "lsl x8, x7, #1",
                    "ptrue p0.b",
                    float_mopa_kernel!(@setup "sme2" $out),
                    "mov x10, #0",
                    // ---- M loop: two LHS blocks (x3, x25) ----
                    "1:",
                    "sub x17, x0, x10",
                    "add x25, x3, x22",
                    "cmp x17, x7",
                    "csel x25, x25, x3, gt",
                    "mov x24, x4",
                    "mov x11, #0",
                    // ---- N loop: two RHS blocks (x24, x21) ----
                    "2:",
                    "sub x17, x1, x11",
                    "add x21, x24, x23",
                    "cmp x17, x7",
                    "csel x21, x21, x24, gt",
                    "mov x9, x24",
                    "zero {{za}}",
                    $($bias,)+
                    "addha za0.s, p0/m, p0/m, z27.s",
                    "addha za1.s, p0/m, p0/m, z28.s",
                    "addha za2.s, p0/m, p0/m, z27.s",
                    "addha za3.s, p0/m, p0/m, z28.s",
                    // ---- K: four steps per iteration, then two and one ----
                    "mov x13, x3",
                    "mov x20, x25",
                    "lsr x14, x2, #2",
                    "cbz x14, 8f",
                    "3:",
                    split_load!(4, $ld, $el),
                    split_step!($el, "0", "16", "4", "20"),
                    split_step!($el, "1", "17", "5", "21"),
                    split_step!($el, "2", "18", "6", "22"),
                    split_step!($el, "3", "19", "7", "23"),
                    "subs x14, x14, #1",
                    "b.ne 3b",
                    "8:",
                    "tbz x2, #1, 9f",
                    split_load!(2, $ld, $el),
                    split_step!($el, "0", "16", "4", "20"),
                    split_step!($el, "1", "17", "5", "21"),
                    "9:",
                    "tbz x2, #0, 4f",
                    split_load!(1, $ld, $el),
                    split_step!($el, "0", "16", "4", "20"),
                    "4:",
                    float_mopa_kernel!(@tile_out "sme2" $out),
                    "add x24, x24, x23, lsl #1",
                    "add x11, x11, x8",
                    "cmp x11, x1",
                    "b.lo 2b",
                    "add x3, x3, x22, lsl #1",
                    "add x10, x10, x8",
                    "cmp x10, x0",
                    "b.lo 1b";
                    inout("x0") m => _,
                    inout("x1") n => _,
                    inout("x2") steps => _,
                    inout("x3") lhs => _,
                    inout("x4") rhs => _,
                    inout("x5") dst => _,
                    inout("x6") dst_stride => _,
                    inout("x22") lhs_stride => _,
                    inout("x23") rhs_stride => _,
                    lo = in(reg) lo,
                    hi = in(reg) hi,
                    out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _,
                    out("x12") _, out("x13") _, out("x14") _, out("x15") _, out("x16") _,
                    out("x17") _, out("x20") _, out("x21") _, out("x24") _, out("x25") _,
                );
            }
        }
    };
}

uker_mopa_gemm! {
    /// f32 GEMM: `m` x `n` outputs (both >= 1) at `dst` (rows `dst_stride` bytes apart) of the
    /// packed LHS blocks at `lhs` (`lhs_stride` bytes apart; per K value a vector of the block's
    /// rows) times the packed RHS blocks at `rhs` (`rhs_stride` bytes apart; SVL32 f32 biases,
    /// then per K value a vector of the block's columns), `steps` = `k`, clamped by `FCLAMP` to
    /// the f32 bounds whose bits are `(lo, hi)`.
    fn gemm_f32: f32, "ld1w", ".s";
    bias [
        "ld1w {{z27.s}}, p0/z, [x9]",
        "ld1w {{z28.s}}, p0/z, [x21]",
        "addvl x9, x9, #1",
        "addvl x21, x21, #1",
    ]
}

uker_mopa_gemm! {
    /// f16 GEMM: as [`gemm_f32`] with halves: per pair of K values a vector of the block's row
    /// (column) pairs, `steps` = `ceil(k / 2)` widening `FMOPA`s; SVL32 f16 biases in front of
    /// each RHS block, loaded into 32-bit lanes and widened by `FCVT`; each f32 sum narrowed by
    /// `FCVT` and clamped by `FCLAMP` on halves to the f16 bounds whose bits are `(lo, hi)`.
    fn gemm_f16: f16, "ld1h", ".h";
    bias [
        "ld1h {{z27.s}}, p0/z, [x9]",
        "ld1h {{z28.s}}, p0/z, [x21]",
        "incw x9, all, mul #2",
        "incw x21, all, mul #2",
        "fcvt z27.s, p0/m, z27.h",
        "fcvt z28.s, p0/m, z28.h",
    ]
}
