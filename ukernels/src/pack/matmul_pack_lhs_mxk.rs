//! KleidiAI's three SME LHS packers of the generic interface (`kai_matmul_pack_lhs.h`):
//! `kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme`, `..._x16p4vsx2_x16_sme` and
//! `..._x8p4vsx4_x8_sme`, the LHS of the generic SME2 kernels (`f32p4vsx1`, `f16p4vsx2`,
//! `qai8p4vsx4` / `u8p4vsx4`).
//!
//! Format: the row-copying SME format of `lhs_pack_sme_rows` with blocks of `mr` = 4 x vscale
//! rows (vscale = SVL / 128, so `mr` is the streaming length in 32-bit lanes, half the `2vl` of
//! the named packers): per block, per step of `kr` = `4 / elem` K values (K padded to whole
//! steps), the step's values of each row in turn, rows past `m` and values past `k` zero. Blocks
//! lie `stride.m` bytes apart in the packed buffer (the caller's stride, normally
//! `get_lhs_packed_stride`), source rows `stride.m` bytes apart in the LHS.
//!
//! KleidiAI transposes through ZA; rkai copies with plain loads and stores (the same bytes, no
//! streaming mode), so it needs no SME and commits no ZA state. Where SME is absent the block is
//! that of a 128-bit streaming length, as for rkai's other SME packers.

use super::lhs_pack_sme_rows::{F32P2VLX1, RowFormat, X8P2VLX4, X16P2VLX2};
use crate::arch;
use crate::contract::{self, Violation};
use crate::pack::kinds::UkerLhsKind;

/// Rows per block and M step: 4 x vscale.
pub fn mr() -> usize {
    arch::sme_lanes32()
}

/// The row format of `kind` (element size and K values per 4-byte step).
const fn format(kind: UkerLhsKind) -> &'static RowFormat {
    match kind {
        UkerLhsKind::MxkX32p4vsx1Sme => &F32P2VLX1,
        UkerLhsKind::MxkX16p4vsx2Sme => &X16P2VLX2,
        UkerLhsKind::MxkX8p4vsx4Sme => &X8P2VLX4,
    }
}

/// Bytes per source element.
pub const fn elem(kind: UkerLhsKind) -> usize {
    format(kind).elem_and_kr().0
}

/// KleidiAI's assumptions on a start coordinate (the wording of its `m` condition differs
/// between the f32 packer and the other two).
fn aligned(kind: UkerLhsKind, m_idx: usize, k_idx: usize) -> Result<(), Violation> {
    let m_condition = match kind {
        UkerLhsKind::MxkX32p4vsx1Sme => "index->m % get_m_step() == 0",
        UkerLhsKind::MxkX16p4vsx2Sme | UkerLhsKind::MxkX8p4vsx4Sme => "index->m % get_mr() == 0",
    };
    contract::require(m_idx % mr() == 0, m_condition)?;
    contract::require(k_idx == 0, "index->k == 0")
}

/// Bytes from one source row of `k` values to the next (wrapping, as KleidiAI's product does).
pub const fn lhs_stride(kind: UkerLhsKind, k: usize) -> usize {
    k.wrapping_mul(elem(kind))
}

/// Byte offset of row `m_idx` in a source of row stride `stride` (K must not be split).
pub fn lhs_offset(
    kind: UkerLhsKind,
    m_idx: usize,
    k_idx: usize,
    stride: usize,
) -> Result<usize, Violation> {
    aligned(kind, m_idx, k_idx)?;
    Ok(m_idx.wrapping_mul(stride))
}

/// Bytes of one packed block for `k` values a row: `mr` rows of whole steps.
pub fn packed_stride(kind: UkerLhsKind, k: usize) -> usize {
    let (elem, kr) = format(kind).elem_and_kr();
    let k_steps = k.wrapping_add(kr - 1) / kr * kr;
    mr().wrapping_mul(k_steps).wrapping_mul(elem)
}

/// Byte offset of the block of row `m_idx` in a packed LHS of block stride `stride`.
pub fn packed_offset(
    kind: UkerLhsKind,
    m_idx: usize,
    k_idx: usize,
    stride: usize,
) -> Result<usize, Violation> {
    aligned(kind, m_idx, k_idx)?;
    Ok((m_idx / mr()).wrapping_mul(stride))
}

/// Bytes of a packed LHS of `m` rows with block stride `stride`.
pub fn packed_size(m: usize, stride: usize) -> usize {
    m.div_ceil(mr()).wrapping_mul(stride)
}

/// One packing call, from `kai_matmul_pack_lhs_uker_args`.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows.
    pub m: usize,
    /// Values a row.
    pub k: usize,
    /// Source: `m` rows of `k` values, `lhs_stride` bytes apart.
    pub lhs: *const u8,
    /// Bytes from one source row to the next.
    pub lhs_stride: usize,
    /// Destination: `m.div_ceil(mr)` blocks, `packed_stride` bytes apart.
    pub lhs_packed: *mut u8,
    /// Bytes from one packed block to the next.
    pub packed_stride: usize,
}

/// Packs `a`. KleidiAI asserts nothing here; `m == 0` or `k == 0` writes nothing.
///
/// # Safety
/// `a.lhs` holds `a.m` rows of `a.k` values `a.lhs_stride` bytes apart, and each block at
/// `a.lhs_packed + b * a.packed_stride` (`b < a.m.div_ceil(mr())`) is writable for
/// `packed_stride(kind, a.k)` bytes.
pub unsafe fn run(kind: UkerLhsKind, a: &Args) {
    let mr = mr();
    for block in 0..a.m.div_ceil(mr) {
        let row0 = block * mr;
        // SAFETY: the function contract: the block is writable and its rows below m readable.
        unsafe {
            format(kind).pack_group_of(
                mr,
                a.lhs_packed.add(block * a.packed_stride),
                mr.min(a.m - row0),
                a.k,
                |i| a.lhs.wrapping_add((row0 + i) * a.lhs_stride),
            )
        };
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::UkerLhsPacker;

/// `kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme`: 32-bit rows, mr = 4 x vscale, kr = 1.
#[allow(non_upper_case_globals)]
pub static matmul_pack_lhs_mxk_x32p4vsx1_x32_sme: UkerLhsPacker = UkerLhsPacker {
    name: "matmul_pack_lhs_mxk_x32p4vsx1_x32_sme",
    isa: Isa::Sme,
    kind: UkerLhsKind::MxkX32p4vsx1Sme,
};

/// `kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme`: 16-bit rows, mr = 4 x vscale, kr = 2.
#[allow(non_upper_case_globals)]
pub static matmul_pack_lhs_mxk_x16p4vsx2_x16_sme: UkerLhsPacker = UkerLhsPacker {
    name: "matmul_pack_lhs_mxk_x16p4vsx2_x16_sme",
    isa: Isa::Sme,
    kind: UkerLhsKind::MxkX16p4vsx2Sme,
};

/// `kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme`: 8-bit rows, mr = 4 x vscale, kr = 4.
#[allow(non_upper_case_globals)]
pub static matmul_pack_lhs_mxk_x8p4vsx4_x8_sme: UkerLhsPacker = UkerLhsPacker {
    name: "matmul_pack_lhs_mxk_x8p4vsx4_x8_sme",
    isa: Isa::Sme,
    kind: UkerLhsKind::MxkX8p4vsx4Sme,
};

/// This module's packers, in KleidiAI's header order.
pub const PACKERS: &[&UkerLhsPacker] = &[
    &matmul_pack_lhs_mxk_x8p4vsx4_x8_sme,
    &matmul_pack_lhs_mxk_x16p4vsx2_x16_sme,
    &matmul_pack_lhs_mxk_x32p4vsx1_x32_sme,
];
