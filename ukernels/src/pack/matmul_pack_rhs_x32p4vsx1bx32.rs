//! KleidiAI's two f32 SME RHS packers of the generic interface (`kai_matmul_pack_rhs.h`):
//! `kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme` (K x N source) and
//! `kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme` (N x K source), the RHS of the generic
//! f32 SME2 kernels (`f32p4vsx1bf32`).
//!
//! Format: the bias-first float format of `rhs_pack_float` with blocks of `nr` = 4 x vscale
//! columns (vscale = SVL / 128, so `nr` is the streaming length in 32-bit lanes): per block `nr`
//! biases, then `k` rows of `nr` values (`kr` = 1), 32-bit values copied as bits; columns past
//! `n` are zero. Blocks lie `stride.n` bytes apart in the packed buffer (the caller's stride,
//! normally `get_rhs_packed_stride`).
//!
//! Where KleidiAI's code differs from that on arguments outside its contract, rkai packs only
//! the bytes inside the blocks: with `n == 0` KleidiAI's K x N loops still write one block, rkai
//! writes nothing; a null bias faults in KleidiAI's K x N packer and, in its N x K one, drops the
//! first block's bias row (shifting its values) and reads near address 0 for the others; rkai
//! packs zero biases for both. No getter asserts more than KleidiAI's (`get_bias_n_offset`
//! asserts nothing). rkai copies with plain loads and stores (no streaming mode, so no ZA state
//! to commit); without SME the blocks are those of a 128-bit streaming length.

use super::rhs_pack_float;
use crate::arch;
use crate::contract::{self, Violation};
use crate::pack::Source;

/// Bytes of one value and of one bias.
const BYTES: usize = 4;

/// Columns per block and N step: 4 x vscale.
pub fn nr() -> usize {
    arch::sme_lanes32()
}

/// Strides `(n, k)` of an unpacked source of `shape = (n, k)`: K x N rows hold `n` values, N x K
/// rows `k` values.
pub const fn rhs_stride(source: Source, (n, k): (usize, usize)) -> (usize, usize) {
    match source {
        Source::Kxn => (BYTES, n.wrapping_mul(BYTES)),
        Source::Nxk => (k.wrapping_mul(BYTES), BYTES),
    }
}

/// KleidiAI's assumptions on a start column (`n_idx`) and start row (`k_idx`).
pub(super) fn aligned(n_idx: usize, k_idx: usize) -> Result<(), Violation> {
    contract::require(n_idx % nr() == 0, "index->n % get_n_step() == 0")?;
    contract::require(k_idx == 0, "index->k == 0")
}

/// Byte offset of column `n_idx` in the source: the K x N packer ignores `stride_n` (its value
/// bytes by format), the N x K one multiplies by it (a row per column).
pub fn rhs_offset(
    source: Source,
    n_idx: usize,
    k_idx: usize,
    stride_n: usize,
) -> Result<usize, Violation> {
    aligned(n_idx, k_idx)?;
    Ok(match source {
        Source::Kxn => n_idx.wrapping_mul(BYTES),
        Source::Nxk => n_idx.wrapping_mul(stride_n),
    })
}

/// Bytes of one packed block for `k` rows: `nr` biases and `k` rows of `nr` values.
pub fn packed_stride(k: usize) -> usize {
    nr().wrapping_mul(BYTES.wrapping_add(k.wrapping_mul(BYTES)))
}

/// Byte offset of the block of column `n_idx` in a packed RHS of block stride `stride`.
pub fn packed_offset(n_idx: usize, k_idx: usize, stride: usize) -> Result<usize, Violation> {
    aligned(n_idx, k_idx)?;
    Ok((n_idx / nr()).wrapping_mul(stride))
}

/// Bytes of a packed RHS of `n` columns with block stride `stride`.
pub fn packed_size(n: usize, stride: usize) -> usize {
    n.div_ceil(nr()).wrapping_mul(stride)
}

/// Byte offset of column `n_idx` in the bias (KleidiAI asserts nothing about it).
pub const fn bias_offset(n_idx: usize) -> usize {
    n_idx.wrapping_mul(BYTES)
}

/// One packing call, from `kai_matmul_pack_rhs_uker_args`.
pub use super::args::UkerRhsArgs as Args;

/// Packs the weights. KleidiAI asserts nothing here.
///
/// # Safety
/// `a.rhs` holds the `a.n` x `a.k` source (`source` orientation, rows `a.rhs_stride` bytes
/// apart), `a.bias` is null or holds `a.n` values, and each block at
/// `a.rhs_packed + b * a.packed_stride` (`b < a.n.div_ceil(nr())`) is writable for
/// `packed_stride(a.k)` bytes.
pub unsafe fn run(source: Source, a: &Args) {
    let nr = nr();
    for block in 0..a.n.div_ceil(nr) {
        let col0 = block * nr;
        // SAFETY: the function contract: the block is writable, the columns readable.
        unsafe {
            rhs_pack_float::pack_group(
                source,
                (BYTES, nr, a.k),
                a.rhs_packed.add(block * a.packed_stride),
                (a.rhs, a.rhs_stride),
                a.bias,
                (col0, nr.min(a.n - col0)),
            )
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::{UkerRhsKind, UkerRhsPacker};

/// `kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme`: K x N f32, nr = 4 x vscale.
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme: UkerRhsPacker = UkerRhsPacker {
    name: "matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme",
    isa: Isa::Sme,
    kind: UkerRhsKind::X32p4vsx1bx32Sme(Source::Kxn),
};

/// `kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme`: N x K f32, nr = 4 x vscale.
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme: UkerRhsPacker = UkerRhsPacker {
    name: "matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme",
    isa: Isa::Sme,
    kind: UkerRhsKind::X32p4vsx1bx32Sme(Source::Nxk),
};

/// This module's packers, in KleidiAI's header order.
pub const PACKERS: &[&UkerRhsPacker] = &[
    &matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme,
    &matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme,
];
