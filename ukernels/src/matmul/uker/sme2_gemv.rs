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
//! value reads one row of each block (`four_block_rows_at!`). Past the last block the step reads
//! the first block of the step again in place of the missing ones (nothing past the packed RHS
//! is read) and stores only the columns below `n`. The clamp is `FCLAMP` (bounds in z2 and z3,
//! clear of the loads), skipped when bit 32 of x6 (above the lower bound's bits) is set.

/// One row of the step's four blocks, `#$o` vectors on: `$ld {z.$t}, $p/z` of blocks x14, x9,
/// x15, x10 into z4-z7 (shared with the f16 GEMV, `super::sme2_gemv_f16`).
macro_rules! four_block_rows {
    ($ld:literal, $t:literal, $p:literal, $o:literal) => {
        concat!(
            $ld,
            " {{z4.",
            $t,
            "}}, ",
            $p,
            "/z, [x14, #",
            $o,
            ", mul vl]\n",
            $ld,
            " {{z5.",
            $t,
            "}}, ",
            $p,
            "/z, [x9, #",
            $o,
            ", mul vl]\n",
            $ld,
            " {{z6.",
            $t,
            "}}, ",
            $p,
            "/z, [x15, #",
            $o,
            ", mul vl]\n",
            $ld,
            " {{z7.",
            $t,
            "}}, ",
            $p,
            "/z, [x10, #",
            $o,
            ", mul vl]\n",
        )
    };
}

/// One row of the step's four blocks at element offset x16 (scaled by `LSL #$sh`): `$ld {z.$t},
/// $p/z` of blocks x14, x9, x15, x10 into z4-z7 (shared with the f16 GEMV).
macro_rules! four_block_rows_at {
    ($ld:literal, $t:literal, $p:literal, $sh:literal) => {
        concat!(
            $ld,
            " {{z4.",
            $t,
            "}}, ",
            $p,
            "/z, [x14, x16, lsl #",
            $sh,
            "]\n",
            $ld,
            " {{z5.",
            $t,
            "}}, ",
            $p,
            "/z, [x9, x16, lsl #",
            $sh,
            "]\n",
            $ld,
            " {{z6.",
            $t,
            "}}, ",
            $p,
            "/z, [x15, x16, lsl #",
            $sh,
            "]\n",
            $ld,
            " {{z7.",
            $t,
            "}}, ",
            $p,
            "/z, [x10, x16, lsl #",
            $sh,
            "]\n",
        )
    };
}

/// Four consecutive rows of each of the step's four blocks at element offset x16 (scaled by
/// `LSL #$sh`), one strided multi-vector `$ld` (predicate pn8, all true) per block: block x14's
/// rows into z16, z20, z24, z28, block x9's into z17, z21, z25, z29, block x15's into z18, z22,
/// z26, z30, block x10's into z19, z23, z27, z31; so z(16 + 4r)..z(19 + 4r) is row r of the four
/// blocks, one four-vector group (shared with the f16 GEMV).
macro_rules! four_block_quads {
    ($ld:literal, $t:literal, $sh:literal) => {
        concat!(
            four_block_quads!(@one $ld, $t, $sh, "16", "20", "24", "28", "x14"),
            four_block_quads!(@one $ld, $t, $sh, "17", "21", "25", "29", "x9"),
            four_block_quads!(@one $ld, $t, $sh, "18", "22", "26", "30", "x15"),
            four_block_quads!(@one $ld, $t, $sh, "19", "23", "27", "31", "x10"),
        )
    };
    (@one $ld:literal, $t:literal, $sh:literal, $a:literal, $b:literal, $c:literal,
        $d:literal, $p:literal) => {
        concat!(
            $ld, " {{z", $a, ".", $t, ", z", $b, ".", $t, ", z", $c, ".", $t, ", z", $d, ".", $t,
            "}}, pn8/z, [", $p, ", x16, lsl #", $sh, "]\n",
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
            four_block_quads!("ld1w", "s", "2"),
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
            four_block_rows!("ld1w", "s", "p0", "0"),
            sme2_f32_into_za!(("4", "7", "0")),
            // The K rows start one row (SVL32 floats) past the biases.
            "cntw x16",
            gemv_k_loop!("x1";
                four_k!();
                concat!(sme2_za_step4!("0"; four_block_rows_at!("ld1w", "s", "p0", "2");
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
