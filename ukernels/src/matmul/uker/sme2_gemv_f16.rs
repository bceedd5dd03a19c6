//! `kai_matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot`
//! ([`UkerKernelKind::F16F16F16p4vsx2bf16Gemv`](crate::pack::kinds::UkerKernelKind)): one f16 LHS
//! row (m = 1) times the RHS packed by `matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme` (blocks of
//! `nr` = 4 x vscale = SVL32 columns: their f16 biases, then per pair of K values the pair of each
//! column, K padded to even with zeros).
//!
//! Numerics, as KleidiAI's kernel computes them: each output starts from its bias widened to f32
//! (exact), then adds each pair of K values in K order with `FDOT` into ZA (the two products
//! summed and rounded to f32, then added with a second rounding; any NaN is the default NaN: the
//! f16 GEMV family's [`Pairs::Fdot`]), then one rounding to f16 (`FCVT`, to nearest even). With
//! `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP` the result is clamped by `FCLAMP` on halves
//! ([`f16::clamp_num`]) to the bounds read as 32-bit floats at `activation.clamp` and rounded to
//! f16 (to nearest even, as KleidiAI's `vcvt_f16_f32`); without it nothing is clamped (NaNs and
//! infinities pass). An odd K's last pair adds `+0 x +0` past the row (the LHS value past K is
//! not read, the packer's zero pads the RHS), which makes a `-0` sum `+0`; with `k == 0` rkai
//! adds one such pair of zeros to the bias (KleidiAI adds the product of zeros with RHS bytes
//! past the block's biases).
//!
//! Tiling: KleidiAI's kernel walks 8 blocks (32 x vscale columns) per step and then 4; rkai walks
//! 4 blocks per step (one four-vector ZA group, one vector of each block: the f32 generic GEMV's
//! pointers and loads, `super::sme2_gemv`: four pairs of K values of a block per strided
//! multi-vector load at a shared offset), which gives the same bits since every output is one
//! chain of `FDOT`s in K order from its bias. The K loop is the f16 streaming GEMVs'
//! `half_k_loop!`.
//! Without SME2 [`gemv_portable`] gives the same bits with the blocks of a 128-bit streaming
//! length.

use crate::arch;
use crate::float::f16;
use crate::matmul::matmul_clamp_f16_f16_f16p::Pairs;

/// Bytes of one f16 value (LHS, RHS, bias, destination).
pub const BYTES: usize = 2;
/// K values per packed pair.
pub const KR: usize = 2;

/// The clamp bounds of a call (f32, as read) rounded to f16 bits.
pub fn bounds(clamp: Option<(f32, f32)>) -> Option<(u16, u16)> {
    clamp.map(|(lo, hi)| (f16::from_f32(lo), f16::from_f32(hi)))
}

/// A checked call (`super::run`): nothing for `n == 0`, the asm where the CPU has SME2, else
/// [`gemv_portable`] with the blocks of `arch::sme_lanes32()` columns; `clamp` the bounds as
/// read (f32).
///
/// # Safety
/// The operands `(lhs, rhs, dst)` hold what [`gemv_portable`] reads and writes with `nr` =
/// `arch::sme_lanes32()`; a pending lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(
    n: usize,
    k: usize,
    (lhs, rhs, dst): (
        *const core::ffi::c_void,
        *const core::ffi::c_void,
        *mut core::ffi::c_void,
    ),
    clamp: Option<(f32, f32)>,
) {
    let (lhs, rhs, dst) = (lhs.cast::<u16>(), rhs.cast::<u16>(), dst.cast::<u16>());
    let clamp = bounds(clamp);
    if n == 0 {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { gemv(n, k, lhs, rhs, dst, clamp) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { gemv_portable(n, k, arch::sme_lanes32(), lhs, rhs, dst, clamp) };
}

/// The GEMV in scalar code, the same bits as the asm: blocks of `nr` columns at `rhs`, each `nr`
/// biases then `k.div_ceil(2)` rows of `nr` pairs.
///
/// # Safety
/// `n >= 1`; `k` readable halves at `lhs`, `ceil(n / nr)` blocks of `2 * nr * (1 + 2 *
/// k.div_ceil(2))` bytes at `rhs`, `n` writable halves at `dst`.
pub unsafe fn gemv_portable(
    n: usize,
    k: usize,
    nr: usize,
    lhs: *const u16,
    rhs: *const u16,
    dst: *mut u16,
    clamp: Option<(u16, u16)>,
) {
    let block = nr * (1 + KR * k.div_ceil(KR));
    // SAFETY (closure): callers pass indices inside the buffers of the contract.
    let load = |p: *const u16, i: usize| unsafe { p.add(i).read_unaligned() };
    let lhs_at = |kk: usize| if kk < k { load(lhs, kk) } else { 0 };
    for j in 0..n {
        let (at, c) = (rhs.wrapping_add(j / nr * block), j % nr);
        let pair = |p: usize| {
            let v = nr + KR * (p * nr + c);
            (
                [lhs_at(2 * p), lhs_at(2 * p + 1)],
                [load(at, v), load(at, v + 1)],
            )
        };
        let mut y = f16::from_f32(Pairs::Fdot.sum(load(at, c), k, pair));
        if let Some((lo, hi)) = clamp {
            y = f16::clamp_num(y, lo, hi);
        }
        // SAFETY: element j of the destination is writable.
        unsafe { dst.add(j).write_unaligned(y) };
    }
}

/// Four pairs of K values (pairs 0-3 of z0) of the step's four blocks, `FDOT`'d into ZA vector
/// group 0 in K order, x16 moved past their rows.
#[cfg(target_arch = "aarch64")]
macro_rules! four_pairs {
    () => {
        concat!(
            four_block_quads!("ld1h", "h", "x16, lsl #1"),
            sme2_za_step4!(fdot "0"; ""; ("16", "19", "0")),
            sme2_za_step4!(fdot "1"; ""; ("20", "23", "0")),
            sme2_za_step4!(fdot "2"; ""; ("24", "27", "0")),
            sme2_za_step4!(fdot "3"; ""; ("28", "31", "0")),
            "inch x16, all, mul #4\n",
        )
    };
}

/// One pair of K values of the step's four blocks at x16 (predicate p3: none read when
/// `k == 0`), `FDOT`'d by pair 0 of z0 into ZA vector group 0, x16 moved past their row.
#[cfg(target_arch = "aarch64")]
macro_rules! one_pair {
    () => {
        concat!(
            sme2_za_step4!(fdot "0"; four_block_rows!("ld1h", "h", "p3", "x16, lsl #1"); ("4", "7", "0")),
            "inch x16\n",
        )
    };
}

/// `n` (>= 1) outputs at `dst` of the row `lhs` (`k` halves) times the packed blocks at `rhs`,
/// clamped to `clamp`'s f16 bounds when given.
///
/// # Safety
/// The CPU implements SME2; the buffers of [`gemv_portable`] with `nr` = SVL32; a pending lazy
/// ZA save follows the AAPCS64 SME ABI.
#[cfg(target_arch = "aarch64")]
pub unsafe fn gemv(
    n: usize,
    k: usize,
    lhs: *const u16,
    rhs: *const u16,
    dst: *mut u16,
    clamp: Option<(u16, u16)>,
) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
    // A block: SVL32 biases (half a vector), then one vector of pairs per pair of K values.
    let block = svl / 2 + svl * k.div_ceil(KR);
    let (lo, hi, no_clamp) = match clamp {
        Some((lo, hi)) => (lo, hi, 0usize),
        None => (0, 0, 1usize << 32),
    };
    // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable halves at `lhs` (read four
    // pairs at a time while four remain, then by pair, then the odd one alone), ceil(n / SVL32)
    // whole blocks at `rhs` (a step's pointers to blocks past the last one point at its first
    // block, so every load reads inside an existing block), and n writable halves at `dst`,
    // which the stores cover under a whilelt predicate (columns below n only). Streaming mode
    // and registers: `streaming_gemv_asm!`.
    unsafe {
        streaming_gemv_asm!("sme2"; [
            "ptrue p0.b",
            "ptrue pn8.h",
            "mov w8, #0",
            "dup z2.h, w6",
            "dup z3.h, w7",
            half_k_setup!(),
            "cntw x12",
            "2:",
            "cmp x0, #0",
            "b.le 9f",
            four_block_pointers!(),
            // The blocks' biases widened to f32 (exact) into ZA vector group 0.
            four_block_rows!("ld1h", "s", "p0", "#0, mul vl"),
            "fcvt z4.s, p0/m, z4.h",
            "fcvt z5.s, p0/m, z5.h",
            "fcvt z6.s, p0/m, z6.h",
            "fcvt z7.s, p0/m, z7.h",
            sme2_f32_into_za!(("4", "7", "0")),
            // The pairs start SVL32 halves past the biases.
            "cntw x16",
            half_k_loop!(four_pairs!(); one_pair!()),
            "mova {{z4.d-z7.d}}, za.d[w8, 0, vgx4]",
            "fcvt z20.h, {{z4.s-z5.s}}",
            "fcvt z21.h, {{z6.s-z7.s}}",
            "tbnz x6, #32, 3f",
            "fclamp {{z20.h-z21.h}}, z2.h, z3.h",
            "3:",
            "whilelt pn9.h, xzr, x0, vlx2",
            "st1h {{z20.h-z21.h}}, pn9, [x4]",
            "addvl x4, x4, #2",
            "add x3, x3, x5, lsl #2",
            "sub x0, x0, x12, lsl #2",
            "b 2b",
            "9:",
        ];
            n, k, lhs, rhs, dst, block, usize::from(lo) | no_clamp, usize::from(hi))
    }
}
