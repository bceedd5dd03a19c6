//! `kai_lhs_pack_f32p2vlx1_f32_sme`: f32 rows packed in groups of `mr` = 2 x SVL32 rows (the
//! streaming vector length in 32-bit lanes, twice), one K value per step, the LHS format of
//! KleidiAI's `matmul_clamp_f32_f32p2vlx1_f32p2vlx1*` SME and SME2 kernels.
//!
//! Format: group `g` (rows `g * mr ..`) takes `mr * k` floats; value `kk` of row `g * mr + i` is
//! float `kk * mr + i` of the group. Every group is written whole: the rows past `m` in the last
//! group are `+0.0`, as KleidiAI's packer (whose loads of absent rows are zeroing) writes them.
//! Values are copied bit for bit (NaN payloads and signalling NaNs kept).
//!
//! KleidiAI's `run` asserts `mr`, `kr == 1`, `sr == 1`, `m_idx_start == 0` and non-null buffers
//! (even for an empty matrix); rkai asserts the same. KleidiAI's packer transposes through ZA;
//! rkai's is a plain copy loop (the same bytes; no streaming mode, so no ZA state to commit).

use crate::arch;
use crate::contract::{self, Checked, Violation};

/// Rows per group: `2 * kai_get_sme_vector_length_u32()` (8 where SME is absent, the portable
/// streaming length of 128 bits).
pub fn mr() -> usize {
    2 * arch::sme_lanes32()
}

/// `get_m_step(mr)`: asserts that `mr` is the packer's own.
pub fn m_step(mr_arg: usize) -> Result<usize, Violation> {
    contract::require(
        mr_arg == mr(),
        "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()",
    )?;
    Ok(mr())
}

/// `get_lhs_offset(m_idx, lhs_stride_row)`.
pub fn offset(m_idx: usize, lhs_stride: usize) -> Result<usize, Violation> {
    contract::require(
        m_idx % mr() == 0,
        "m_idx % kai_get_mr_lhs_pack_f32p2vlx1_f32_sme() == 0",
    )?;
    contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t")
}

/// The assertions KleidiAI's offset and size getters make on the packing parameters.
fn check_params(mr_arg: usize, kr: usize, sr: usize) -> Checked {
    contract::require(
        mr_arg == mr(),
        "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()",
    )?;
    contract::require(kr == 1, "kr == KR")?;
    contract::require(sr == 1, "sr == SR")
}

/// Bytes of `rows` packed rows of `k` floats.
fn rows_bytes(rows: usize, k: usize) -> Result<usize, Violation> {
    let floats = contract::mul(rows, k, "packed LHS size fits in size_t")?;
    contract::mul(floats, 4, "packed LHS size fits in size_t")
}

/// `get_lhs_packed_offset(m_idx, k, mr, kr, sr)`: KleidiAI checks `m_idx` against the row step
/// (whose getter asserts `mr` first), then the parameters.
pub fn packed_offset(
    m_idx: usize,
    k: usize,
    mr_arg: usize,
    kr: usize,
    sr: usize,
) -> Result<usize, Violation> {
    let step = m_step(mr_arg)?;
    contract::require(
        m_idx % step == 0,
        "m_idx % kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme(mr) == 0",
    )?;
    check_params(mr_arg, kr, sr)?;
    rows_bytes(m_idx, k)
}

/// `get_lhs_packed_size(m, k, mr, kr, sr)`: whole groups.
pub fn packed_size(
    m: usize,
    k: usize,
    mr_arg: usize,
    kr: usize,
    sr: usize,
) -> Result<usize, Violation> {
    check_params(mr_arg, kr, sr)?;
    let groups = m.div_ceil(mr());
    rows_bytes(
        contract::mul(groups, mr(), "packed LHS size fits in size_t")?,
        k,
    )
}

pub use super::args::LhsArgs as Args;

/// Checks what `run` requires: KleidiAI's assertions, then that the sizes fit.
pub fn check(a: &Args) -> Checked {
    check_params(a.mr, a.kr, a.sr)?;
    contract::require(a.m_idx_start == 0, "m_idx_start == 0")?;
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    packed_size(a.m, a.k, a.mr, a.kr, a.sr)?;
    if a.m != 0 && a.k != 0 {
        // The last source row ends inside the caller's buffer.
        let last = contract::mul(a.m - 1, a.lhs_stride, "m * lhs_stride fits in size_t")?;
        contract::add(last, 4 * a.k, "m * lhs_stride fits in size_t")?;
    }
    Ok(())
}

/// Packs `m` rows of `k` floats, rows `lhs_stride` bytes apart.
///
/// # Safety
/// [`check`] passed; row `r < m` holds `k` floats at `lhs + r * lhs_stride`, and `lhs_packed` is
/// writable for the packed size of `m` rows.
pub unsafe fn run(a: &Args) {
    let (k, mr) = (a.k, mr());
    for group in 0..a.m.div_ceil(mr) {
        let row0 = group * mr;
        let rows = mr.min(a.m - row0);
        // SAFETY: the group lies inside the packed size of m rows.
        let out = unsafe { a.lhs_packed.add(4 * row0 * k).cast::<u32>() };
        for i in 0..mr {
            // SAFETY (both arms): value kk of the group's row i is float kk * mr + i < mr * k of
            // the group; source row row0 + i < m holds k floats.
            if i < rows {
                let src = unsafe { a.lhs.add((row0 + i) * a.lhs_stride).cast::<u32>() };
                for kk in 0..k {
                    unsafe {
                        out.add(kk * mr + i)
                            .write_unaligned(src.add(kk).read_unaligned())
                    };
                }
            } else {
                for kk in 0..k {
                    unsafe { out.add(kk * mr + i).write_unaligned(0) };
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// mr = 2 x SVL32.
    lhs_pack_f32p2vlx1_f32_sme: Lhs(F32p2vlx1Sme);
}
