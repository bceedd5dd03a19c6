//! KleidiAI's two 8-bit SME RHS packers of the generic interface (`kai_matmul_pack_rhs.h`):
//! `kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme` (K x N source) and
//! `kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme` (N x K source), the RHS of the generic u8 SME2
//! kernels (`u8p4vsx4`, `matmul::uker`).
//!
//! Format: no bias; blocks of `nr` = 4 x vscale columns (vscale = SVL / 128, so `nr` is the
//! streaming length in 32-bit lanes and a block's step is one streaming vector); per block, per
//! step of `kr` = 4 K values (K padded to whole steps), the step's four bytes of each column in
//! turn, columns past `n` and values past `k` zero. That is the format of the LHS packer
//! `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` with columns for rows, so the N x K packer is that
//! packer's group writer over the source's rows. Blocks lie `stride.n` bytes apart in the packed
//! buffer (the caller's stride, normally `get_rhs_packed_stride`).
//!
//! Where KleidiAI's code differs from that on arguments outside its contract, rkai packs only
//! the bytes inside the blocks: with `n == 0` KleidiAI's K x N packer still writes one block of
//! zeros, rkai writes nothing. KleidiAI's `get_bias_n_offset` returns 0 for every column (there
//! is no bias) and its `run` ignores the bias operand; rkai's do the same. rkai copies with plain
//! loads and stores (no streaming mode, so no ZA state to commit); without SME the blocks are
//! those of a 128-bit streaming length.

use super::lhs_pack_sme_rows::X8P2VLX4;
use crate::arch;
use crate::contract::{self, Violation};
use crate::pack::Source;

/// K values per step.
const KR: usize = 4;

/// Columns per block and N step: 4 x vscale.
pub fn nr() -> usize {
    arch::sme_lanes32()
}

/// Strides `(n, k)` of an unpacked source of `shape = (n, k)`: K x N rows hold `n` bytes, N x K
/// rows `k` bytes.
pub const fn rhs_stride(source: Source, (n, k): (usize, usize)) -> (usize, usize) {
    match source {
        Source::Kxn => (1, n),
        Source::Nxk => (k, 1),
    }
}

/// KleidiAI's assumptions on a start column (`n_idx`) and start row (`k_idx`).
fn aligned(n_idx: usize, k_idx: usize) -> Result<(), Violation> {
    contract::require(n_idx % nr() == 0, "index->n % get_nr() == 0")?;
    contract::require(k_idx == 0, "index->k == 0")
}

/// Byte offset of column `n_idx` in the source: the K x N packer ignores `stride_n` (one byte a
/// column), the N x K one multiplies by it (a row per column).
pub fn rhs_offset(
    source: Source,
    n_idx: usize,
    k_idx: usize,
    stride_n: usize,
) -> Result<usize, Violation> {
    aligned(n_idx, k_idx)?;
    Ok(match source {
        Source::Kxn => n_idx,
        Source::Nxk => n_idx.wrapping_mul(stride_n),
    })
}

/// Bytes of one packed block for `k` rows: `nr` columns of `k` rounded up to whole steps.
pub fn packed_stride(k: usize) -> usize {
    nr().wrapping_mul(k.wrapping_add(KR - 1) / KR * KR)
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

/// One packing call, from `kai_matmul_pack_rhs_uker_args` (its `bias` is ignored).
pub use super::args::UkerRhsArgs as Args;

/// Packs the weights. KleidiAI asserts nothing here.
///
/// # Safety
/// `a.rhs` holds the `a.n` x `a.k` bytes (`source` orientation, rows `a.rhs_stride` bytes
/// apart), and each block at `a.rhs_packed + b * a.packed_stride` (`b < a.n.div_ceil(nr())`) is
/// writable for `packed_stride(a.k)` bytes.
pub unsafe fn run(source: Source, a: &Args) {
    let nr = nr();
    let steps = a.k.div_ceil(KR);
    for block in 0..a.n.div_ceil(nr) {
        let col0 = block * nr;
        let cols = nr.min(a.n - col0);
        let out = a.rhs_packed.wrapping_add(block * a.packed_stride);
        match source {
            // SAFETY: the function contract: the block is writable, rows col0.. readable.
            Source::Nxk => unsafe {
                X8P2VLX4.pack_group_of(nr, out, cols, a.k, |i| {
                    a.rhs.wrapping_add((col0 + i) * a.rhs_stride)
                })
            },
            Source::Kxn => {
                for s in 0..steps {
                    for c in 0..nr {
                        for b in 0..KR {
                            let kk = s * KR + b;
                            let v = match c < cols && kk < a.k {
                                // SAFETY: row kk < k, column col0 + c < n of the source.
                                true => unsafe { a.rhs.add(kk * a.rhs_stride + col0 + c).read() },
                                false => 0,
                            };
                            // SAFETY: byte b of column c of step s inside the block.
                            unsafe { out.add((s * nr + c) * KR + b).write(v) };
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::{UkerRhsKind, UkerRhsPacker};

/// `kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme`: K x N bytes, nr = 4 x vscale, kr = 4.
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_kxn_x8p4vsx4_x8_sme: UkerRhsPacker = UkerRhsPacker {
    name: "matmul_pack_rhs_kxn_x8p4vsx4_x8_sme",
    isa: Isa::Sme,
    kind: UkerRhsKind::X8p4vsx4Sme(Source::Kxn),
};

/// `kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme`: N x K bytes, nr = 4 x vscale, kr = 4.
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_nxk_x8p4vsx4_x8_sme: UkerRhsPacker = UkerRhsPacker {
    name: "matmul_pack_rhs_nxk_x8p4vsx4_x8_sme",
    isa: Isa::Sme,
    kind: UkerRhsKind::X8p4vsx4Sme(Source::Nxk),
};

/// This module's packers, in KleidiAI's header order.
pub const PACKERS: &[&UkerRhsPacker] = &[
    &matmul_pack_rhs_nxk_x8p4vsx4_x8_sme,
    &matmul_pack_rhs_kxn_x8p4vsx4_x8_sme,
];
