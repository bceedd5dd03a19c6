//! The SME2 asm of `kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla` (see `super`): one
//! f32 row times blocks of SVL32 packed columns, four blocks per step.
//!
//! A step's four blocks are one four-vector group (one vector of each block, read by single
//! loads a block stride apart) accumulated in ZA vector group 0 (`za.s[w8, 0, vgx4]`, started
//! from the blocks' biases by `MOVA`): every output takes one fused multi-vector `FMLA` per K
//! value in K order, through the streaming GEMVs' K loop (`gemv_k_loop!`). Past the last block
//! the step reads the first block of the step again in place of the missing ones (nothing past
//! the packed RHS is read) and stores only the columns below `n`. The clamp is `FCLAMP`, skipped
//! when bit 32 of x6 (above the lower bound's bits) is set.

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

/// Unit `$i` of z0: the four blocks' row `#$o` vectors on `FMLA`'d into ZA vector group 0.
macro_rules! step {
    ($i:literal, $o:literal) => {
        sme2_za_step4!($i; four_block_rows!("ld1w", "s", "p0", $o); ("4", "7", "0"))
    };
}

/// Advances the four block pointers by `$v` vectors.
macro_rules! advance {
    ($v:literal) => {
        sme2_block_advance!($v; "x14", "x9", "x15", "x10")
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
            "mov x8, #0",
            "dup z30.s, w6",
            "dup z31.s, w7",
            "cntw x12",
            "2:",
            "cmp x0, #0",
            "b.le 9f",
            four_block_pointers!(),
            four_block_rows!("ld1w", "s", "p0", "0"),
            advance!("1"),
            sme2_f32_into_za!(("4", "7", "0")),
            gemv_k_loop!("x1";
                concat!(step!("0", "0"), step!("1", "1"), step!("2", "2"), step!("3", "3"),
                    advance!("4"));
                concat!(step!("0", "0"), advance!("1"))),
            "mova {{z4.d-z7.d}}, za.d[w8, 0, vgx4]",
            "tbnz x6, #32, 3f",
            "fclamp {{z4.s-z7.s}}, z30.s, z31.s",
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
