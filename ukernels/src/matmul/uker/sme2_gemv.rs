//! The SME2 asm of `kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla` (see `super`): one
//! f32 row times blocks of SVL32 packed columns, four blocks per step.
//!
//! A step's four blocks are one four-vector group (one vector of each block) accumulated in ZA
//! vector group 0 (`za.s[w8, 0, vgx4]`, started from the blocks' biases by `MOVA`): every output
//! takes one fused multi-vector `FMLA` per K value in K order, through the streaming GEMVs' K
//! loop (`gemv_k_loop!`). Its four-value iteration reads each block's four rows with one strided
//! multi-vector load (`four_block_quads!`: block j's rows into z(16 + j), z(20 + j), z(24 + j),
//! z(28 + j), so z16-z19 hold the four blocks' first row, z20-z23 their second, and so on) at a
//! shared element offset (x16) from the four block pointers, which one `INCW` moves; a single K
//! value reads one row of each block (`four_block_rows!`). Past the last block the step reads
//! the first block of the step again in place of the missing ones (nothing past the packed RHS
//! is read) and stores only the columns below `n`. The clamp is `FCLAMP` (bounds in z2 and z3,
//! clear of the loads), skipped when bit 32 of x6 (above the lower bound's bits) is set.

/// One row of four blocks: `$ld {z.$t}, $p/z` of blocks x14, x9, x15, x10 (or the four
/// pointers after `;`) at `[block, $at]` (an immediate `"#1, mul vl"` or a register offset
/// `"x16, lsl #2"`) into z4-z7 (or the four registers listed). Shared with the f16 and int8
/// GEMVs (`super::sme2_gemv_f16`, `super::qai8_gemv`).
macro_rules! four_block_rows {
    ($ld:literal, $t:literal, $p:literal, $at:expr) => {
        four_block_rows!($ld, $t, $p, $at; ("4", "5", "6", "7"); "x14", "x9", "x15", "x10")
    };
    ($ld:literal, $t:literal, $p:literal, $at:expr; ($($z:literal),+); $($x:literal),+) => {
        concat!($(
            $ld, " {{z", $z, ".", $t, "}}, ", $p, "/z, [", $x, ", ", $at, "]\n",
        )+)
    };
}

/// Four consecutive rows of each of four blocks, one strided multi-vector `$ld` (predicate pn8,
/// all true) per block at `[block, $at]` (see `four_block_rows!`). Blocks x14, x9, x15, x10 (or
/// the four pointers after `hi ..;`) put their rows in z(16 + j), z(20 + j), z(24 + j),
/// z(28 + j) for block j, so z(16 + 4r)..z(19 + 4r) is row r of the four blocks, one
/// four-vector group (the strided four-vector form starts at one of z0-z3 or z16-z19; z0-z3
/// hold the LHS and constants). Shared with the f16 and int8 GEMVs.
macro_rules! four_block_quads {
    ($ld:literal, $t:literal, $at:expr) => {
        four_block_quads!(hi $ld, $t, $at; "x14", "x9", "x15", "x10")
    };
    (hi $ld:literal, $t:literal, $at:expr; $p0:literal, $p1:literal, $p2:literal, $p3:literal) => {
        concat!(
            four_block_quads!(@one $ld, $t, $at, $p0; "16", "20", "24", "28"),
            four_block_quads!(@one $ld, $t, $at, $p1; "17", "21", "25", "29"),
            four_block_quads!(@one $ld, $t, $at, $p2; "18", "22", "26", "30"),
            four_block_quads!(@one $ld, $t, $at, $p3; "19", "23", "27", "31"),
        )
    };
    (@one $ld:literal, $t:literal, $at:expr, $p:literal; $a:literal, $b:literal, $c:literal,
        $d:literal) => {
        concat!(
            $ld, " {{z", $a, ".", $t, ", z", $b, ".", $t, ", z", $c, ".", $t, ", z", $d, ".", $t,
            "}}, pn8/z, [", $p, ", ", $at, "]\n",
        )
    };
}

/// The step's four blocks (x12 = SVL32 columns per block, x0 columns left, x5 bytes per block):
/// x14 the block at x3; x9, x15, x10 the next ones where columns remain for them, else x3's
/// again. Uses x13.
macro_rules! four_block_pointers {
    () => {
        concat!(
            "mov x14, x3\n",
            "add x9, x3, x5\n",
            "cmp x0, x12\n",
            "csel x9, x9, x3, gt\n",
            "add x15, x3, x5, lsl #1\n",
            "cmp x0, x12, lsl #1\n",
            "csel x15, x15, x3, gt\n",
            "add x10, x3, x5\n",
            "add x10, x10, x5, lsl #1\n",
            "add x13, x12, x12, lsl #1\n",
            "cmp x0, x13\n",
            "csel x10, x10, x3, gt\n",
        )
    };
}

/// Four K values (units 0-3 of z0) of the step's four blocks, `FMLA`'d into ZA vector group 0
/// in K order, x16 moved past their rows.
macro_rules! four_k {
    () => {
        concat!(
            four_block_quads!("ld1w", "s", "x16, lsl #2"),
            sme2_za_step4!("0"; ""; ("16", "19", "0")),
            sme2_za_step4!("1"; ""; ("20", "23", "0")),
            sme2_za_step4!("2"; ""; ("24", "27", "0")),
            sme2_za_step4!("3"; ""; ("28", "31", "0")),
            "incw x16, all, mul #4\n",
        )
    };
}

/// `n` (>= 1) outputs at `dst` of the row `lhs` (`k` floats) times the packed blocks at `rhs`,
/// clamped to `clamp`'s bounds when given.
///
/// # Safety
/// The CPU implements SME2; `k` readable floats at `lhs`, `ceil(n / SVL32)` packed blocks of
/// `4 * SVL32 * (k + 1)` bytes at `rhs`, `n` writable floats at `dst` overlapping neither; a
/// pending lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn gemv(
    n: usize,
    k: usize,
    lhs: *const f32,
    rhs: *const f32,
    dst: *mut f32,
    clamp: Option<(f32, f32)>,
) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
    // A block: SVL32 floats (SVL bytes) per row, its bias row and k rows.
    let block = svl * (k + 1);
    let (lo, hi, no_clamp) = match clamp {
        Some((lo, hi)) => (lo.to_bits(), hi.to_bits(), 0usize),
        None => (0, 0, 1usize << 32),
    };
    // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable floats at `lhs`,
    // ceil(n / SVL32) whole blocks at `rhs` (a step's pointers to blocks past the last one point
    // at its first block, so every load reads a row of an existing block), and n writable
    // floats at `dst`, which the stores cover under a whilelt predicate (columns below n only).
    // Streaming mode and registers: `streaming_gemv_asm!`.
    unsafe {
        streaming_gemv_asm!("sme2"; [
            "ptrue p0.s",
            "ptrue pn8.s",
            "mov x8, #0",
            "dup z2.s, w6",
            "dup z3.s, w7",
            "cntw x12",
            "2:",
            "cmp x0, #0",
            "b.le 9f",
            four_block_pointers!(),
            four_block_rows!("ld1w", "s", "p0", "#0, mul vl"),
            sme2_f32_into_za!(("4", "7", "0")),
            // The K rows start one row (SVL32 floats) past the biases.
            "cntw x16",
            gemv_k_loop!("x1";
                four_k!();
                concat!(sme2_za_step4!("0"; four_block_rows!("ld1w", "s", "p0", "x16, lsl #2");
                    ("4", "7", "0")), "incw x16\n")),
            "mova {{z4.d-z7.d}}, za.d[w8, 0, vgx4]",
            "tbnz x6, #32, 3f",
            "fclamp {{z4.s-z7.s}}, z2.s, z3.s",
            "3:",
            "whilelt pn9.s, xzr, x0, vlx4",
            "st1w {{z4.s-z7.s}}, pn9, [x4]",
            "addvl x4, x4, #4",
            "add x3, x3, x5, lsl #2",
            "sub x0, x0, x12, lsl #2",
            "b 2b",
            "9:",
        ];
            n, k, lhs, rhs, dst, block, lo as usize | no_clamp, hi as usize)
    }
}
