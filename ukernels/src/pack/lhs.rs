//! The functions of every LHS packer, by kind: the getters' values and KleidiAI's assertions, and
//! one checked `pack` over arguments every LHS packer shares (the C ABI and the safe API call
//! these; the packers themselves live in the sibling modules).

use super::lhs_imatmul_pack_sme as imatmul;
use super::lhs_pack_bf16::{self as bf16, Variant as Bf16};
use super::lhs_pack_f16pmrx2_f32 as f16pmrx2;
use super::lhs_pack_sme_rows as sme_rows;
use super::lhs_quant_pack_qai8dxp::{self as qai8dxp, LhsType, SourceElement};
use super::lhs_quant_pack_qsi8d32p::{self as qsi8d32p, Variant as Qsi8d32p};
use super::lhs_quant_pack_qsi8d32pscalef32::{self as scalef32, Variant as Scalef32};
use crate::contract::{self, Checked, Violation};
use crate::layout;
use crate::pack::kinds::LhsPackerKind;

pub use super::args::LhsArgs as Args;

/// The packing parameters an LHS getter receives (`bl` is 0 for per-row formats).
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// Reduction length.
    pub k: usize,
    /// Block length.
    pub bl: usize,
    /// Rows per packed group.
    pub mr: usize,
    /// K values per inner step.
    pub kr: usize,
    /// Splits of `kr`.
    pub sr: usize,
}

/// `get_m_step(mr)`: the row step of the packer.
#[inline(always)]
pub fn m_step(kind: LhsPackerKind, mr: usize) -> Result<usize, Violation> {
    match kind {
        LhsPackerKind::Qai8dxp(_) => Ok(mr),
        LhsPackerKind::Qsi8d32p(v) => Ok(v.m_step(mr)),
        LhsPackerKind::Qsi8d32pscalef32(v) => Ok(v.m_step(mr)),
        // The SME packers ignore `mr`.
        LhsPackerKind::Bf16(v) if v.is_sme() => Ok(v.mr()),
        LhsPackerKind::Bf16(v) => {
            contract::require(mr == v.mr(), "mr == kai_mr")?;
            Ok(v.mr())
        }
        LhsPackerKind::F16pmrx2 => Ok(mr),
        LhsPackerKind::SmeRows(v) => sme_rows::format(v).m_step(mr),
        // `get_m_step(void)`.
        LhsPackerKind::IndirectSmeRows(v) => Ok(imatmul::packer(v).m_step()),
    }
}

/// `get_lhs_offset(m_idx, lhs_stride)`: where source row `m_idx` starts.
#[inline(always)]
pub fn offset(kind: LhsPackerKind, m_idx: usize, lhs_stride: usize) -> Result<usize, Violation> {
    match kind {
        LhsPackerKind::Bf16(Bf16::Bf16p8x4F16) => {
            contract::require(m_idx % 8 == 0, "m_idx % (kai_mr) == 0")?
        }
        LhsPackerKind::SmeRows(v) => {
            return sme_rows::format(v).lhs_offset(m_idx, lhs_stride);
        }
        LhsPackerKind::Bf16(v @ (Bf16::Bf16p2vlx2F32Sme | Bf16::Bf16p2vlx2F32Sme2)) => {
            contract::require(m_idx % v.mr() == 0, "m_idx % kai_mr == 0")?
        }
        LhsPackerKind::Bf16(Bf16::Bf16p8x4F32 | Bf16::Bf16p1x4F32)
        | LhsPackerKind::Qai8dxp(_)
        | LhsPackerKind::Qsi8d32p(_)
        | LhsPackerKind::Qsi8d32pscalef32(_)
        | LhsPackerKind::F16pmrx2 => {}
        // No such getter (its rows are reached through the indirection buffer).
        LhsPackerKind::IndirectSmeRows(_) => return Err(NEEDS_ROWS),
    }
    contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t")
}

/// KleidiAI's assertions on the packing parameters of the offset and size getters.
#[inline(always)]
fn check_dims(kind: LhsPackerKind, d: &Dims) -> Checked {
    match kind {
        LhsPackerKind::Qai8dxp(_) => contract::packing_params(d.mr, "mr > 0", d.kr, d.sr),
        LhsPackerKind::Qsi8d32p(_) => qsi8d32p::check_getter(d.k, d.bl, d.mr, d.kr, d.sr),
        LhsPackerKind::Qsi8d32pscalef32(_) => scalef32::check_getter(d.k, d.bl, d.mr, d.kr, d.sr),
        LhsPackerKind::Bf16(v) => v.check_params(d.mr, d.kr, d.sr),
        LhsPackerKind::F16pmrx2 => f16pmrx2::check_getter(d.k, d.bl, d.kr),
        // Checked by the packers' getters, in KleidiAI's order.
        LhsPackerKind::SmeRows(_) | LhsPackerKind::IndirectSmeRows(_) => Ok(()),
    }
}

/// `get_lhs_packed_offset`: where the packed group holding row `m_idx` starts.
#[inline(always)]
pub fn packed_offset(kind: LhsPackerKind, m_idx: usize, d: &Dims) -> Result<usize, Violation> {
    check_dims(kind, d)?;
    // Only the f32 NEON packers assert it; a group boundary is what the kernels read either way.
    let group_start = || contract::require(m_idx % d.mr == 0, "(m_idx % mr) == 0");
    match kind {
        LhsPackerKind::Qai8dxp(_) => layout::qai8dxp::offset(m_idx, d.k, d.mr, d.kr, d.sr),
        LhsPackerKind::Qsi8d32p(v) => {
            if v == Qsi8d32p::F32Neon {
                group_start()?;
            }
            layout::qsi8d32p::offset(m_idx, d.k, d.bl, d.mr)
        }
        LhsPackerKind::Qsi8d32pscalef32(v) => {
            if v == Scalef32::F32 {
                group_start()?;
            }
            layout::qsi8d32pscalef32::offset(m_idx, d.k, d.bl, d.mr)
        }
        LhsPackerKind::Bf16(v) => v.packed_offset(m_idx, d.k),
        LhsPackerKind::F16pmrx2 => f16pmrx2::packed_offset(m_idx, d.k, d.bl, d.mr, d.kr),
        LhsPackerKind::SmeRows(v) => {
            sme_rows::format(v).packed_offset(m_idx, d.k, d.mr, d.kr, d.sr)
        }
        // `d.k`: the chunks' K (`imatmul::packed_k`).
        LhsPackerKind::IndirectSmeRows(v) => imatmul::packer(v).packed_offset(m_idx, d.k),
    }
}

/// `get_lhs_packed_size`: bytes of `m` packed rows.
#[inline(always)]
pub fn packed_size(kind: LhsPackerKind, m: usize, d: &Dims) -> Result<usize, Violation> {
    check_dims(kind, d)?;
    match kind {
        LhsPackerKind::Qai8dxp(_) => layout::qai8dxp::size(m, d.k, d.mr, d.kr, d.sr),
        LhsPackerKind::Qsi8d32p(_) => layout::qsi8d32p::size(m, d.k, d.bl, d.mr),
        LhsPackerKind::Qsi8d32pscalef32(_) => layout::qsi8d32pscalef32::size(m, d.k, d.bl, d.mr),
        LhsPackerKind::Bf16(v) => v.packed_size(m, d.k),
        LhsPackerKind::F16pmrx2 => f16pmrx2::packed_size(m, d.k, d.bl, d.mr, d.kr),
        LhsPackerKind::SmeRows(v) => sme_rows::format(v).packed_size(m, d.k, d.mr, d.kr, d.sr),
        LhsPackerKind::IndirectSmeRows(v) => imatmul::packer(v).packed_size(m, d.k),
    }
}

/// Checks `a` as the packer of `kind` requires and packs, or returns the first violated
/// condition before writing anything.
///
/// # Safety
/// KleidiAI's contract of the packer: `lhs` holds the rows it reads (of its source element type),
/// `lhs_packed` the groups they land in.
#[inline(always)]
pub unsafe fn pack(kind: LhsPackerKind, a: &Args) -> Checked {
    // SAFETY (every arm): arguments checked first; extents are the caller's contract.
    match kind {
        LhsPackerKind::Qai8dxp(LhsType::F32) => unsafe { pack_qai8dxp::<f32>(a) },
        LhsPackerKind::Qai8dxp(LhsType::F16) => unsafe { pack_qai8dxp::<half::f16>(a) },
        LhsPackerKind::Qai8dxp(LhsType::Bf16) => unsafe { pack_qai8dxp::<half::bf16>(a) },
        // These packers take the shared arguments as they are.
        LhsPackerKind::Qsi8d32p(v) => {
            qsi8d32p::check(v, a)?;
            unsafe { qsi8d32p::run(v, a) };
            Ok(())
        }
        LhsPackerKind::Qsi8d32pscalef32(v) => {
            scalef32::check(v, a)?;
            unsafe { scalef32::run(v, a) };
            Ok(())
        }
        LhsPackerKind::Bf16(v) => {
            bf16::check(v, a)?;
            unsafe { bf16::run(v, a) };
            Ok(())
        }
        LhsPackerKind::F16pmrx2 => {
            f16pmrx2::check(a)?;
            unsafe { f16pmrx2::run(a) };
            Ok(())
        }
        LhsPackerKind::SmeRows(v) => {
            let format = sme_rows::format(v);
            format.check(a)?;
            unsafe { format.run(a) };
            Ok(())
        }
        LhsPackerKind::IndirectSmeRows(_) => Err(NEEDS_ROWS),
    }
}

/// Refusal of a row-source call for a packer reading an indirection buffer, or the reverse.
const NEEDS_ROWS: Violation = Violation {
    condition: "the packer's LHS source is of another kind",
};

/// Checks `a` as the indirect packer of `kind` requires and packs (see [`pack`]).
///
/// # Safety
/// The contract of [`imatmul::Packer::run`].
pub unsafe fn pack_indirect(kind: LhsPackerKind, a: &imatmul::Args) -> Checked {
    match kind {
        LhsPackerKind::IndirectSmeRows(v) => {
            let packer = imatmul::packer(v);
            packer.check(a)?;
            // SAFETY: arguments checked; extents are the caller's contract.
            unsafe { packer.run(a) };
            Ok(())
        }
        LhsPackerKind::Qai8dxp(_)
        | LhsPackerKind::Qsi8d32p(_)
        | LhsPackerKind::Qsi8d32pscalef32(_)
        | LhsPackerKind::Bf16(_)
        | LhsPackerKind::F16pmrx2
        | LhsPackerKind::SmeRows(_) => Err(NEEDS_ROWS),
    }
}

/// The K of a packer's offset and size getters: `k`, or for an indirect packer its chunks'
/// `k_chunk_count * roundup(k_chunk_length, kr)`.
pub fn getter_k(
    kind: LhsPackerKind,
    k: usize,
    k_chunk_count: usize,
    k_chunk_length: usize,
) -> Result<usize, Violation> {
    match kind {
        LhsPackerKind::IndirectSmeRows(v) => {
            imatmul::packed_k(imatmul::packer(v).kr(), k_chunk_count, k_chunk_length)
        }
        LhsPackerKind::Qai8dxp(_)
        | LhsPackerKind::Qsi8d32p(_)
        | LhsPackerKind::Qsi8d32pscalef32(_)
        | LhsPackerKind::Bf16(_)
        | LhsPackerKind::F16pmrx2
        | LhsPackerKind::SmeRows(_) => Ok(k),
    }
}

/// [`pack`] of the `qai8dxp` packers, whose source rows hold `T`.
///
/// # Safety
/// As for [`pack`].
unsafe fn pack_qai8dxp<T: SourceElement>(a: &Args) -> Checked {
    let args: qai8dxp::Args<T> = packer_args!(a => qai8dxp::Args {
        m, k, mr, kr, sr, m_idx_start, lhs_stride; lhs, lhs_packed
    });
    qai8dxp::check(&args)?;
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { qai8dxp::run(&args) };
    Ok(())
}
