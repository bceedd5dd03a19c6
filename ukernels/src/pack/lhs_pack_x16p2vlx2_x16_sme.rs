//! `lhs_pack_x16p2vlx2_x16_sme`: 16-bit LHS rows (f16 or bf16, copied bit for bit) in blocks of
//! `mr` rows, `mr` = 2 x the streaming vector length in 32-bit lanes (the SME `f16p2vlx2` and
//! `bf16p2vlx2` LHS format).
//!
//! Format: blocks of `mr` rows, each `mr * roundup(k, 2)` values; within a block, for each pair of
//! K values, the pair of row 0, then of row 1, ... of row `mr - 1`. The rows past `m` of the last
//! block and the K value past an odd `k` are zero: KleidiAI's streaming code loads rows into ZA
//! under zeroing predicates and stores whole pairs of columns, so every byte of the packed size is
//! written. Portable Rust here (plain copies), for every streaming length.

use crate::arch;
use crate::contract::{self, Checked, Violation};
use core::ptr;

/// K values per packed pair.
pub const KR: usize = 2;

/// Rows per packed block at the running streaming length (`mr`, also the row step).
pub fn mr() -> usize {
    2 * arch::sme_lanes32()
}

/// `get_m_step(mr)`: KleidiAI asserts the caller's `mr` is the packer's.
pub fn m_step(mr_arg: usize) -> Result<usize, Violation> {
    contract::require(mr_arg == mr(), "mr == kai_mr")?;
    Ok(mr())
}

/// `get_lhs_offset(m_idx, lhs_stride_row)`: `m_idx` must start a block.
pub fn lhs_offset(m_idx: usize, lhs_stride: usize) -> Result<usize, Violation> {
    contract::require(m_idx % mr() == 0, "m_idx % kai_mr == 0")?;
    contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t")
}

/// The assertions on `(mr, kr, sr)` every offset and size getter and `run` make, in KleidiAI's
/// order (after `m_idx`'s for the offset getter, see [`packed_offset`]).
fn check_params(kr: usize, sr: usize) -> Checked {
    contract::require(kr == KR, "kr == KR")?;
    contract::require(sr == 1, "sr == SR")
}

/// Bytes of one packed block of `mr` rows.
fn block_bytes(k: usize) -> Result<usize, Violation> {
    let cond = "packed LHS size fits in size_t";
    let kp = contract::roundup(k, KR, cond)?;
    contract::mul(contract::mul(mr(), kp, cond)?, 2, cond)
}

/// `get_lhs_packed_offset(m_idx, k, mr, kr, sr)`.
pub fn packed_offset(
    m_idx: usize,
    k: usize,
    mr_arg: usize,
    kr: usize,
    sr: usize,
) -> Result<usize, Violation> {
    // KleidiAI calls its m_step getter first (asserting mr), then checks m_idx, then the rest.
    m_step(mr_arg)?;
    contract::require(m_idx % mr() == 0, "m_idx % m_step == 0")?;
    check_params(kr, sr)?;
    let cond = "packed LHS offset fits in size_t";
    let kp = contract::roundup(k, KR, cond)?;
    contract::mul(contract::mul(m_idx, kp, cond)?, 2, cond)
}

/// `get_lhs_packed_size(m, k, mr, kr, sr)`.
pub fn packed_size(
    m: usize,
    k: usize,
    mr_arg: usize,
    kr: usize,
    sr: usize,
) -> Result<usize, Violation> {
    m_step(mr_arg)?;
    check_params(kr, sr)?;
    let blocks = contract::roundup(m, mr(), "packed LHS size fits in size_t")? / mr();
    contract::mul(blocks, block_bytes(k)?, "packed LHS size fits in size_t")
}

/// Arguments of one packing call.
pub use super::args::LhsArgs as Args;

/// KleidiAI's assertions on `run`, in its order, and that the packed size fits.
pub fn check(a: &Args) -> Checked {
    m_step(a.mr)?;
    check_params(a.kr, a.sr)?;
    contract::require(a.m_idx_start == 0, "m_idx_start == 0")?;
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    packed_size(a.m, a.k, a.mr, a.kr, a.sr)?;
    Ok(())
}

/// Packs `m` rows.
///
/// # Safety
/// [`check`] must have passed; source row `i < m` holds `k` 16-bit values at
/// `lhs + i * lhs_stride`, and `lhs_packed` is writable for the packed size of `m` rows.
pub unsafe fn run(a: &Args) {
    let mr = mr();
    let pairs = a.k.div_ceil(KR);
    // Bytes of one block: `pairs` runs of mr pairs of values.
    let block = mr * pairs * 4;
    for b in 0..a.m.div_ceil(mr) {
        let rows = mr.min(a.m - b * mr);
        // SAFETY: every block lies inside the packed size of m rows.
        let out = unsafe { a.lhs_packed.add(b * block) };
        for r in 0..mr {
            // Rows past m are zero.
            let src = (r < rows).then(|| a.lhs.wrapping_add((b * mr + r) * a.lhs_stride));
            for p in 0..pairs {
                let value = |kk: usize| match src {
                    // SAFETY: source row b * mr + r (< m) holds k values.
                    Some(src) if kk < a.k => unsafe {
                        ptr::read_unaligned(src.add(2 * kk).cast::<u16>())
                    },
                    _ => 0,
                };
                let pair = [value(2 * p), value(2 * p + 1)];
                // SAFETY: pair p of row r of the block.
                unsafe {
                    ptr::write_unaligned(out.add(p * mr * 4 + r * 4).cast::<[u16; 2]>(), pair)
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// mr = 2 x SVL32, kr = 2.
    lhs_pack_x16p2vlx2_x16_sme: Lhs(X16p2vlx2Sme);
}
