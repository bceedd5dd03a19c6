//! `kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`, KleidiAI's int8 RHS packer of
//! the generic interface (`kai_matmul_pack_rhs.h`): int8 K x N weights, `i32` biases and `f32`
//! per-column scales into the RHS of the generic int8-output SME2 kernels
//! (`qsi8cxp4vsx4bi32sf32`).
//!
//! Format: the format of `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` (its `pack_group`
//! packs each block) with blocks of `nr` = 4 x vscale columns (the streaming length in 32-bit
//! lanes) placed `stride.n` bytes apart (the caller's stride, normally `get_rhs_packed_stride`).
//! Per block:
//! - `nr` `i32` biases: `bias[j] + k_sum_scale_global * sum_k rhs[k][j]`, wrapping;
//! - per step of 4 K rows (K padded with zero rows to a multiple of 4), 4 bytes for each column
//!   in turn: its values at those rows;
//! - `nr` `f32` scales: `scale_n[j] * scale_global`, one `FMUL` each.
//!
//! Columns past `n` are zero, their scale `0 * scale_global`. KleidiAI's `run` packs nothing
//! when `n` or `k` is 0, and leaves the scales unwritten when `scale_n` is null (rkai the same).
//! Outside KleidiAI's contract: a null `bias_n` faults in KleidiAI (rkai packs zero biases), and
//! a null `k_sum_scale_global` or `scale_global` (KleidiAI reads both unconditionally) is a
//! violation in rkai. rkai copies with plain loads and stores (no streaming mode, so no ZA state
//! to commit); without SME the blocks are those of a 128-bit streaming length.

use super::matmul_pack_rhs_x32p4vsx1bx32 as x32p4vs;
use super::rhs_pack_float::Chunks;
use super::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::{Group, KR, pack_group};
use crate::arch;
use crate::contract::{self, Violation};
use core::ffi::c_void;

/// Bytes of one bias and of one scale.
const BYTES: usize = 4;

/// Columns per block and N step: 4 x vscale.
pub fn nr() -> usize {
    arch::sme_lanes32()
}

/// Strides `(n, k)` of a K x N int8 source of `n` columns.
pub const fn rhs_stride(n: usize) -> (usize, usize) {
    (1, n)
}

/// Byte offset of column `n_idx` in the source (KleidiAI ignores the stride).
pub fn rhs_offset(n_idx: usize, k_idx: usize) -> Result<usize, Violation> {
    x32p4vs::aligned(n_idx, k_idx)?;
    Ok(n_idx)
}

/// Bytes of one packed block for `k` rows: `nr` biases, `roundup(k, 4)` rows of `nr` values and
/// `nr` scales (in `size_t` arithmetic, as KleidiAI's `kai_roundup` wraps).
pub fn packed_stride(k: usize) -> usize {
    let kp = k.wrapping_add(KR - 1) / KR * KR;
    nr().wrapping_mul(kp.wrapping_add(2 * BYTES))
}

/// Byte offset of the block of column `n_idx` in a packed RHS of block stride `stride`.
pub fn packed_offset(n_idx: usize, k_idx: usize, stride: usize) -> Result<usize, Violation> {
    x32p4vs::packed_offset(n_idx, k_idx, stride)
}

/// Bytes of a packed RHS of `n` columns with block stride `stride`.
pub fn packed_size(n: usize, stride: usize) -> usize {
    x32p4vs::packed_size(n, stride)
}

/// Byte offset of column `n_idx` in the bias or the scales (KleidiAI asserts nothing about it).
pub const fn bias_or_scale_offset(n_idx: usize) -> usize {
    n_idx.wrapping_mul(BYTES)
}

/// One packing call, from `kai_matmul_pack_rhs_uker_args`.
pub use super::args::UkerRhsArgs as Args;

/// The operands of a call beyond [`Args`]: `scale_n`, `k_sum_scale_global`, `scale_global`.
pub struct Scales {
    /// `n` `f32` scales, or null to leave the packed scales unwritten.
    pub scale: *const c_void,
    /// One `i32`: the multiplier of each column sum added to its bias.
    pub k_sum_scale_global: *const c_void,
    /// One `f32`: the multiplier of each scale.
    pub scale_global: *const c_void,
}

/// Packs the weights: nothing when `n` or `k` is 0, otherwise the two global operands must be
/// non-null.
///
/// # Safety
/// `a.rhs` holds `a.k` rows of `a.n` int8 values `a.rhs_stride` bytes apart, `a.bias` is null or
/// holds `a.n` `i32`, `s.scale` null or `a.n` `f32`, the globals one value each, and each block at
/// `a.rhs_packed + b * a.packed_stride` (`b < a.n.div_ceil(nr())`) is writable for
/// `packed_stride(a.k)` bytes.
pub unsafe fn run(a: &Args, s: &Scales) -> Result<(), Violation> {
    if a.n == 0 || a.k == 0 {
        return Ok(());
    }
    contract::require(
        !s.k_sum_scale_global.is_null(),
        "args->operand.k_sum_scale_global.ptr != NULL",
    )?;
    contract::require(
        !s.scale_global.is_null(),
        "args->operand.scale_global.ptr != NULL",
    )?;
    // SAFETY: non-null (checked), one value each by the contract.
    let (sum_multiplier, scale_multiplier) = unsafe {
        (
            s.k_sum_scale_global.cast::<i32>().read_unaligned(),
            s.scale_global.cast::<f32>().read_unaligned(),
        )
    };
    let nr = nr();
    let chunks = Chunks {
        count: 1,
        length: a.k,
    };
    let kp = a.k.div_ceil(KR) * KR;
    let offset = |p: *const c_void, col0: usize| match p.is_null() {
        true => core::ptr::null(),
        // SAFETY: a non-null bias or scale holds n > col0 entries.
        false => unsafe { p.cast::<u8>().add(BYTES * col0) },
    };
    for block in 0..a.n.div_ceil(nr) {
        let col0 = block * nr;
        let group = Group {
            nr,
            cols: nr.min(a.n - col0),
            // SAFETY: column col0 < n of the source.
            rhs: unsafe { a.rhs.add(col0) },
            rhs_stride: a.rhs_stride,
            bias: offset(a.bias.cast(), col0),
            scale: offset(s.scale, col0),
            sum_multiplier,
            scale_multiplier,
        };
        // SAFETY: the function contract: the block is writable, the columns readable.
        unsafe {
            pack_group(
                &group,
                chunks,
                kp,
                a.rhs_packed.add(block * a.packed_stride),
            )
        };
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::{UkerRhsKind, UkerRhsPacker};

/// `kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`: K x N int8, nr = 4 x vscale,
/// kr = 4.
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme: UkerRhsPacker =
    UkerRhsPacker {
        name: "matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme",
        isa: Isa::Sme,
        kind: UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme,
    };

/// This module's packers.
pub const PACKERS: &[&UkerRhsPacker] =
    &[&matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme];
