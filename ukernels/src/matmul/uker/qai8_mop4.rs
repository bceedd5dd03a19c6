//! The generic-interface int8-output GEMM
//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa`: the same
//! operands, assumptions, getters and numerics as [`super::qai8_mopa`] (the `sf32bi32` of its
//! name notwithstanding, it reads the packed RHS of
//! `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`: per block of SVL32 columns the
//! `i32` biases, the K steps, the `f32` scales), with one more sub-kernel on CPUs that have the
//! SME quarter-tile outer products (FEAT_SME_MOP4, Linux `HWCAP_SME_SMOP4`).
//!
//! KleidiAI's `run` leaves a bottom edge of `m - main_m` rows below the 2 x SVL32-row tiles
//! (`main_m = min(m, rounddown(roundup(m, SVL32), 2 x SVL32))`). Where that edge has at most
//! SVL32 / 2 rows and the output at least 8 x SVL32 columns, its first `rounddown(n, 8 x SVL32)`
//! columns go to `SMOP4A` (`gemm_mop4`); everything else is the SME2 MOPA GEMM, here the
//! 8vs x 8vs walk of [`super::qai8_mopa`] (`u8_mopa::gemm_qai8`) on each remaining region.
//! Every output is the same wrapping `i32` sum and the same requantization in either, so the
//! split changes no bit. Without SME_MOP4 the whole call is [`super::qai8_mopa::run`]'s.

use super::qai8_mopa;
#[cfg(target_arch = "aarch64")]
use crate::arch;
use crate::contract::Violation;
use crate::matmul_types::*;

/// K values per packed step.
#[cfg(target_arch = "aarch64")]
const KR: usize = 4;

/// The asm's argument block (`x0` points at it; byte offsets in the asm).
#[cfg(target_arch = "aarch64")]
#[repr(C)]
struct Params {
    m: usize,          // 0: rows, 1..=SVL32/2
    panels: usize,     // 8: panels of 8 x SVL32 columns, >= 1
    steps: usize,      // 16: K steps of four values
    lhs: *const u8,    // 24: the LHS block
    rhs: *const u8,    // 32: the first RHS block
    rhs_stride: usize, // 40
    dst: *mut u8,      // 48
    dst_stride: usize, // 56
    quant: *const i32, // 64: lower bound, upper bound, output zero point
}

/// One ZA tile's outputs: tile `$za` holds the rows times RHS block 2t in its top half (slices
/// 0..SVL32/2) and times block 2t+1 in its bottom half; x21 the tile's first column in the
/// destination row, `$s` the read pointer at block 2t's scales (block 2t+1's `x5` further).
/// Row `w12` and slice `w12 + SVL32/2` become one destination row of 2 x SVL32 bytes through
/// the SME2 GEMM's requantizing row (`float_mopa_kernel!(@row "sme2" i8)`).
#[cfg(target_arch = "aarch64")]
macro_rules! mop4_tile_out {
    ($za:literal, $s:literal, $label:literal) => {
        concat!(
            "ld1b {{z27.b}}, p0/z, [", $s, "]\n",
            "ld1b {{z28.b}}, p0/z, [", $s, ", x5]\n",
            "mov x16, x21\n",
            "mov w12, #0\n",
            $label, ":\n",
            "add w15, w12, w8\n",
            "mova z4.s, p0/m, ", $za, "h.s[w12, 0]\n",
            "mova z5.s, p0/m, ", $za, "h.s[w15, 0]\n",
            float_mopa_kernel!(@row "sme2" i8), "\n",
            "add x16, x16, x6\n",
            "add w12, w12, #1\n",
            "cmp x12, x1\n",
            "b.lt ", $label, "b\n",
            "add x21, x21, x7, lsl #1",
        )
    };
}

/// The `SMOP4A` sub-kernel: `m` (1..=SVL32/2) rows of one LHS block by `panels` panels of
/// 8 x SVL32 columns. Per panel, ZA tile t (0..4) holds the rows times RHS block 2t in its top
/// half and times block 2t+1 in its bottom half: each LHS step's first SVL32/2 words are copied
/// into both halves of a vector (`TBL`), each block's biases added to its half (`ADDHA` under
/// the half's row predicate), then per K step (four per iteration with SME2's strided
/// four-vector loads, then one at a time) one `SMOP4A` per tile on the two blocks' vectors.
/// The stores requantize as the SME2 GEMM does, one destination row per tile slice pair.
///
/// # Safety
/// The CPU implements SME2 and SME_MOP4; `1 <= m <= SVL32/2`, `panels >= 1`; the LHS block at
/// `lhs` (`SVL32 x roundup(k, 4)` bytes) and `8 x panels` RHS blocks at `rhs`, `rhs_stride`
/// apart (biases, K steps, scales), readable; `m` destination rows of `8 x panels x SVL32`
/// bytes writable, overlapping no input; a pending lazy ZA save follows the AAPCS64 SME ABI.
#[cfg(target_arch = "aarch64")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_mop4(
    (m, panels, k): (usize, usize, usize),
    lhs: *const u8,
    (rhs, rhs_stride): (*const u8, usize),
    (dst, dst_stride): (*mut u8, usize),
    quant: [i32; 3],
) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let p = Params {
        m,
        panels,
        steps: k.div_ceil(KR),
        lhs,
        rhs,
        rhs_stride,
        dst,
        dst_stride,
        quant: quant.as_ptr(),
    };
    // SAFETY: the caller guarantees SME2, SME_MOP4 and the buffers: the LHS block and each
    // panel's eight RHS blocks are read whole and no further; each row's store is 2 x SVL32
    // bytes inside the panel's columns of one of the m rows. Only the declared registers
    // change; streaming mode starts and ends in the block.
    unsafe {
        streaming_asm!("sme2";
            ".arch_extension sme-mop4",
            "ldr x1, [x0]",
            "ldr x2, [x0, #8]",
            "ldr x3, [x0, #16]",
            "ldr x4, [x0, #24]",
            "ldr x9, [x0, #32]",
            "ldr x5, [x0, #40]",
            "ldr x20, [x0, #48]",
            "ldr x6, [x0, #56]",
            "cntw x7",
            "lsr x8, x7, #1",
            "ptrue p0.b",
            "ptrue pn8.b",
            "ptrue p2.h",
            // p1: the top half's rows, p3: the bottom half's.
            "whilelt p1.s, xzr, x8",
            "not p3.b, p0/z, p1.b",
            // z14: word indices 0..SVL32/2 twice (SVL32 is a power of two).
            "sub x10, x8, #1",
            "index z14.s, #0, #1",
            "dup z15.s, w10",
            "and z14.d, z14.d, z15.d",
            // ---- Panel loop: RHS blocks 0, 2, 4, 6 at x10, x11, x22, x13, the odd ones x5 further ----
            "1:",
            "mov x10, x9",
            "add x11, x10, x5, lsl #1",
            "add x22, x11, x5, lsl #1",
            "add x13, x22, x5, lsl #1",
            "zero {{za}}",
            "ld1b {{z16.b}}, p0/z, [x10]",
            "ld1b {{z17.b}}, p0/z, [x10, x5]",
            "ld1b {{z18.b}}, p0/z, [x11]",
            "ld1b {{z19.b}}, p0/z, [x11, x5]",
            "ld1b {{z20.b}}, p0/z, [x22]",
            "ld1b {{z21.b}}, p0/z, [x22, x5]",
            "ld1b {{z22.b}}, p0/z, [x13]",
            "ld1b {{z23.b}}, p0/z, [x13, x5]",
            "addha za0.s, p1/m, p0/m, z16.s",
            "addha za0.s, p3/m, p0/m, z17.s",
            "addha za1.s, p1/m, p0/m, z18.s",
            "addha za1.s, p3/m, p0/m, z19.s",
            "addha za2.s, p1/m, p0/m, z20.s",
            "addha za2.s, p3/m, p0/m, z21.s",
            "addha za3.s, p1/m, p0/m, z22.s",
            "addha za3.s, p3/m, p0/m, z23.s",
            "addvl x10, x10, #1",
            "addvl x11, x11, #1",
            "addvl x22, x22, #1",
            "addvl x13, x13, #1",
            // ---- K: four steps per iteration, then one at a time ----
            "mov x14, x4",
            "lsr x17, x3, #2",
            "cbz x17, 5f",
            "2:",
            "ld1w {{z0.s-z3.s}}, pn8/z, [x14]",
            "addvl x14, x14, #4",
            "tbl z4.s, {{z0.s}}, z14.s",
            "tbl z6.s, {{z1.s}}, z14.s",
            "tbl z8.s, {{z2.s}}, z14.s",
            "tbl z10.s, {{z3.s}}, z14.s",
            "ld1b {{z16.b, z20.b, z24.b, z28.b}}, pn8/z, [x10]",
            "ld1b {{z17.b, z21.b, z25.b, z29.b}}, pn8/z, [x10, x5]",
            "ld1b {{z18.b, z22.b, z26.b, z30.b}}, pn8/z, [x11]",
            "ld1b {{z19.b, z23.b, z27.b, z31.b}}, pn8/z, [x11, x5]",
            "smop4a za0.s, z4.b, {{z16.b-z17.b}}",
            "smop4a za1.s, z4.b, {{z18.b-z19.b}}",
            "smop4a za0.s, z6.b, {{z20.b-z21.b}}",
            "smop4a za1.s, z6.b, {{z22.b-z23.b}}",
            "smop4a za0.s, z8.b, {{z24.b-z25.b}}",
            "smop4a za1.s, z8.b, {{z26.b-z27.b}}",
            "smop4a za0.s, z10.b, {{z28.b-z29.b}}",
            "smop4a za1.s, z10.b, {{z30.b-z31.b}}",
            "ld1b {{z16.b, z20.b, z24.b, z28.b}}, pn8/z, [x22]",
            "ld1b {{z17.b, z21.b, z25.b, z29.b}}, pn8/z, [x22, x5]",
            "ld1b {{z18.b, z22.b, z26.b, z30.b}}, pn8/z, [x13]",
            "ld1b {{z19.b, z23.b, z27.b, z31.b}}, pn8/z, [x13, x5]",
            "smop4a za2.s, z4.b, {{z16.b-z17.b}}",
            "smop4a za3.s, z4.b, {{z18.b-z19.b}}",
            "smop4a za2.s, z6.b, {{z20.b-z21.b}}",
            "smop4a za3.s, z6.b, {{z22.b-z23.b}}",
            "smop4a za2.s, z8.b, {{z24.b-z25.b}}",
            "smop4a za3.s, z8.b, {{z26.b-z27.b}}",
            "smop4a za2.s, z10.b, {{z28.b-z29.b}}",
            "smop4a za3.s, z10.b, {{z30.b-z31.b}}",
            "addvl x10, x10, #4",
            "addvl x11, x11, #4",
            "addvl x22, x22, #4",
            "addvl x13, x13, #4",
            "subs x17, x17, #1",
            "b.ne 2b",
            "5:",
            "ands x17, x3, #3",
            "b.eq 7f",
            "6:",
            "ld1w {{z0.s}}, p0/z, [x14]",
            "addvl x14, x14, #1",
            "tbl z4.s, {{z0.s}}, z14.s",
            "ld1b {{z16.b}}, p0/z, [x10]",
            "ld1b {{z17.b}}, p0/z, [x10, x5]",
            "ld1b {{z18.b}}, p0/z, [x11]",
            "ld1b {{z19.b}}, p0/z, [x11, x5]",
            "ld1b {{z20.b}}, p0/z, [x22]",
            "ld1b {{z21.b}}, p0/z, [x22, x5]",
            "ld1b {{z22.b}}, p0/z, [x13]",
            "ld1b {{z23.b}}, p0/z, [x13, x5]",
            "smop4a za0.s, z4.b, {{z16.b-z17.b}}",
            "smop4a za1.s, z4.b, {{z18.b-z19.b}}",
            "smop4a za2.s, z4.b, {{z20.b-z21.b}}",
            "smop4a za3.s, z4.b, {{z22.b-z23.b}}",
            "addvl x10, x10, #1",
            "addvl x11, x11, #1",
            "addvl x22, x22, #1",
            "addvl x13, x13, #1",
            "subs x17, x17, #1",
            "b.ne 6b",
            // ---- Stores: bounds z30/z31, zero point z26; x10, x11, x22, x13 at the scales ----
            "7:",
            "ldr x15, [x0, #64]",
            "ld1rw {{z30.s}}, p0/z, [x15]",
            "ld1rw {{z31.s}}, p0/z, [x15, #4]",
            "ld1rw {{z26.s}}, p0/z, [x15, #8]",
            "mov x21, x20",
            mop4_tile_out!("za0", "x10", "10"),
            mop4_tile_out!("za1", "x11", "11"),
            mop4_tile_out!("za2", "x22", "12"),
            mop4_tile_out!("za3", "x13", "13"),
            "add x9, x9, x5, lsl #3",
            "add x20, x20, x7, lsl #3",
            "subs x2, x2, #1",
            "b.ne 1b";
            in("x0") &p,
            out("x1") _, out("x2") _, out("x3") _, out("x4") _, out("x5") _, out("x6") _,
            out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _, out("x12") _,
            out("x13") _, out("x14") _, out("x15") _, out("x16") _, out("x17") _,
            out("x20") _, out("x21") _, out("x22") _,
        );
    }
}

/// Whether a call of `m` rows and `n` columns reaches the `SMOP4A` sub-kernel, at `lanes` =
/// SVL32: `(main_m, columns)` — the rows above the bottom edge and the edge's columns it takes
/// (0: none).
pub fn split(m: usize, n: usize, lanes: usize) -> (usize, usize) {
    let main_m = m.min(m.div_ceil(lanes) * lanes / (2 * lanes) * (2 * lanes));
    let edge = m - main_m;
    let columns = if edge > 0 && edge <= lanes / 2 {
        n / (8 * lanes) * (8 * lanes)
    } else {
        0
    };
    (main_m, columns)
}

/// `run`: checks `args` as [`qai8_mopa::check`] and computes the call: with SME2 and
/// SME_MOP4 natively, splitting it as KleidiAI does ([`split`]); else as
/// [`qai8_mopa::run`].
///
/// # Safety
/// As [`qai8_mopa::run`].
pub unsafe fn run(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { qai8_mopa::check(args) }?;
    if c.m == 0 || c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) && arch::sme_mop4() {
        let lanes = arch::sme_lanes32();
        let q = c.quant;
        let q = [q.min_value, q.max_value, q.output_zero_point];
        let (main_m, columns) = split(c.m, c.n, lanes);
        let (lhs, ls) = c.lhs;
        let (rhs, rs) = c.rhs;
        let (dst, ds) = c.dst;
        // SAFETY (all three): SME2 and SME_MOP4 were detected; each region's blocks and rows
        // lie in the caller's buffers (the bottom edge starts at LHS block main_m / SVL32 and
        // destination row main_m, the columns after the SMOP4A ones at RHS block
        // columns / SVL32).
        unsafe {
            if main_m > 0 {
                super::u8_mopa::gemm_qai8((main_m, c.n, c.k), c.lhs, c.rhs, c.dst, q);
            }
            if main_m < c.m {
                let edge = c.m - main_m;
                let lhs = lhs.wrapping_add(main_m / lanes * ls);
                let dst = dst.wrapping_add(main_m * ds);
                if columns > 0 {
                    gemm_mop4(
                        (edge, columns / (8 * lanes), c.k),
                        lhs,
                        (rhs, rs),
                        (dst, ds),
                        q,
                    );
                }
                if columns < c.n {
                    super::u8_mopa::gemm_qai8(
                        (edge, c.n - columns, c.k),
                        (lhs, ls),
                        (rhs.wrapping_add(columns / lanes * rs), rs),
                        (dst.wrapping_add(columns), ds),
                        q,
                    );
                }
            }
        }
        return Ok(());
    }
    // SAFETY: forwarded contract.
    unsafe { qai8_mopa::run(args) }
}
