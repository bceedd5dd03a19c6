//! The generic-interface int8-output GEMM
//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa`.
//!
//! Operands: the LHS packed by `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` (blocks of `mr` = SVL32
//! rows, `lhs.stride.m` bytes apart; per step of four K values each row's four bytes, read as
//! int8), the RHS by `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme` (blocks of `nr`
//! = SVL32 columns `rhs.stride.n` bytes apart: `nr` `i32` biases, the K steps, `nr` `f32`
//! scales). Every output is its column's bias plus the `k` products (wrapping `i32`, as `SMOPA`
//! accumulates), requantized as the family's SME2 GEMM does
//! ([`crate::reference::qai8::requantize`]: `SCVTF`, `FMUL` by the column's scale, `FRINTN`,
//! `FCVTZS`, wrapping add of the output zero point, `SCLAMP`, low byte). The zero point is the
//! `int32_t` at `operand.bias.scale_bias_global`; the bounds the `int32_t`s at
//! `activation.clamp` with `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP`, else `INT8_MIN..INT8_MAX`.
//!
//! KleidiAI's `run` splits the call by shape into six sub-kernels (8vs x 8vs in the middle,
//! narrower ones at the right and bottom edges); every output is the same sum and
//! requantization in each, so rkai runs the 8vs x 8vs tile walk of the u8 GEMMs
//! ([`super::u8_mopa`]) everywhere. Where KleidiAI's behaviour is outside its contract rkai
//! differs: a null `scale_bias_global` with a non-empty output is a violation (KleidiAI reads
//! through it). Without SME2 the portable path gives the same bits with the blocks of a 128-bit
//! streaming length.

use crate::arch;
use crate::contract::{self, Violation};
use crate::matmul::matmul_clamp_qai8_qai8p_qsi8cxp::column;
use crate::matmul_types::*;
use crate::reference::qai8::{ClampOrder, Requantize};

/// K values per packed step.
const KR: usize = 4;

/// Bytes of one column's bias and of its scale in an RHS block.
const BIAS_AND_SCALE: usize = 8;

/// One checked call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// K values.
    pub k: usize,
    /// First LHS block and the bytes from one to the next.
    pub lhs: (*const u8, usize),
    /// First RHS block and the bytes from one to the next.
    pub rhs: (*const u8, usize),
    /// Destination and the bytes from one row to the next.
    pub dst: (*mut u8, usize),
    /// Bounds and output zero point.
    pub quant: Requantize,
}

/// `(mr, nr)`, and `m_step`/`n_step` alike: SVL32 rows and columns.
pub fn tile() -> (usize, usize) {
    (arch::sme_lanes32(), arch::sme_lanes32())
}

/// `get_rhs_stride`'s bytes per column of `k` values: bias, K padded to 4, scale.
pub fn rhs_column_bytes(k: usize) -> usize {
    k.wrapping_add(KR - 1) / KR * KR + BIAS_AND_SCALE
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the values the call
/// reads.
///
/// # Safety
/// Non-null bound pointers (with the clamp flag) and zero-point pointer point to readable
/// 32-bit values.
pub unsafe fn check(args: &kai_matmul_uker_args) -> Result<Call, Violation> {
    let clamp = super::FLAG_CLAMP;
    contract::require(
        args.flags & !clamp == 0,
        "Only supported flags are accepted!",
    )?;
    let o = &args.operand;
    contract::require(!o.lhs.ptr.is_null(), "args->operand.lhs.ptr != NULL")?;
    contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
    contract::require(!o.dst.ptr.is_null(), "args->operand.dst.ptr != NULL")?;
    // SAFETY (reads): the caller's contract; KleidiAI reads `int32_t`s.
    let read = |p: *const core::ffi::c_void| unsafe { p.cast::<i32>().read_unaligned() };
    let (min_value, max_value) = if args.flags & clamp != 0 {
        let c = &args.activation.clamp;
        contract::require(
            !c.min_ptr.is_null(),
            "args->activation.clamp.min_ptr != NULL",
        )?;
        contract::require(
            !c.max_ptr.is_null(),
            "args->activation.clamp.max_ptr != NULL",
        )?;
        (read(c.min_ptr), read(c.max_ptr))
    } else {
        (i32::from(i8::MIN), i32::from(i8::MAX))
    };
    let (m, n) = (args.shape.m, args.shape.n);
    let zp = o.bias.scale_bias_global.ptr;
    // Read only by a sub-kernel, so only for a non-empty output.
    let output_zero_point = if m == 0 || n == 0 {
        0
    } else {
        contract::require(
            !zp.is_null(),
            "args->operand.bias.scale_bias_global.ptr != NULL",
        )?;
        read(zp)
    };
    Ok(Call {
        m,
        n,
        k: args.shape.k,
        lhs: (o.lhs.ptr.cast(), o.lhs.stride.m),
        rhs: (o.rhs.ptr.cast(), o.rhs.stride.n),
        dst: (o.dst.ptr.cast(), o.dst.stride.m),
        quant: Requantize {
            min_value,
            max_value,
            output_zero_point,
        },
    })
}

/// The GEMM in scalar code, the same bits as the asm, with blocks of `lanes` rows (LHS) and
/// columns (RHS).
///
/// # Safety
/// `ceil(m / lanes)` LHS blocks of `lanes * roundup(k, 4)` bytes and `ceil(n / lanes)` RHS
/// blocks of `lanes * (roundup(k, 4) + 8)` bytes readable at their strides; `m` destination
/// rows of `n` bytes writable.
pub unsafe fn portable(c: &Call, lanes: usize) {
    let kp = c.k.div_ceil(KR) * KR;
    for i in 0..c.m {
        let (block, r) = (i / lanes, i % lanes);
        let lhs = c.lhs.0.wrapping_add(block * c.lhs.1);
        // K value kk of row r: in its step's place in the row's block.
        // SAFETY: the block holds kp values of each of its rows.
        let x = |kk: usize| unsafe { *lhs.add(kk / KR * lanes * KR + r * KR + kk % KR) as i8 };
        for j in 0..c.n {
            let rhs = c.rhs.0.wrapping_add(j / lanes * c.rhs.1);
            // SAFETY: column j's block lies in the packed RHS.
            let v = unsafe {
                column(
                    rhs,
                    (lanes, j % lanes),
                    kp,
                    x,
                    c.quant,
                    ClampOrder::LowerFirst,
                )
            };
            // SAFETY: element (i, j) of the destination.
            unsafe { c.dst.0.add(i * c.dst.1 + j).write(v as u8) };
        }
    }
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has SME2.
///
/// # Safety
/// `args` satisfies KleidiAI's contract (see [`portable`], at the caller's strides); a pending
/// lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { check(args) }?;
    if c.m == 0 || c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        let q = c.quant;
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe {
            super::u8_mopa::gemm_qai8(
                (c.m, c.n, c.k),
                c.lhs,
                c.rhs,
                c.dst,
                [q.min_value, q.max_value, q.output_zero_point],
            )
        };
        return Ok(());
    }
    // SAFETY: the caller's contract, at the blocks of this CPU's (or the 128-bit) length.
    unsafe { portable(&c, arch::sme_lanes32()) };
    Ok(())
}
