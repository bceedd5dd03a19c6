//! The C functions of every LHS packer: one Rust function per verb over the packer's kind (the
//! kind's semantics are in `rkai_ukernels::pack::lhs`).

use super::{CArgs, ensure};
use rkai_ukernels::pack::kinds::LhsPackerKind;
use rkai_ukernels::pack::lhs::{self, Dims};
use rkai_ukernels::pack::lhs_imatmul_pack_sme;

fn dims(kind: LhsPackerKind, symbol: &str, a: &CArgs) -> Dims {
    Dims {
        k: ensure(
            symbol,
            lhs::getter_k(kind, a.k, a.k_chunk_count, a.k_chunk_length),
        ),
        bl: a.bl,
        mr: a.mr,
        kr: a.kr,
        sr: a.sr,
    }
}

#[inline(always)]
pub fn get_m_step(kind: LhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, lhs::m_step(kind, a.mr))
}

#[inline(always)]
pub fn get_lhs_offset(kind: LhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, lhs::offset(kind, a.m_idx, a.lhs_stride))
}

#[inline(always)]
pub fn get_lhs_packed_offset(kind: LhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(
        symbol,
        lhs::packed_offset(kind, a.m_idx, &dims(kind, symbol, a)),
    )
}

#[inline(always)]
pub fn get_lhs_packed_size(kind: LhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, lhs::packed_size(kind, a.m, &dims(kind, symbol, a)))
}

/// # Safety
/// KleidiAI's contract of the packer: `lhs` holds the rows it reads, `lhs_packed` the groups
/// they land in.
#[inline(always)]
pub unsafe fn run(kind: LhsPackerKind, symbol: &str, a: &CArgs) {
    if let LhsPackerKind::IndirectSmeRows(_) = kind {
        let args = lhs_imatmul_pack_sme::Args {
            m: a.m,
            k_chunk_count: a.k_chunk_count,
            k_chunk_length: a.k_chunk_length,
            lhs_ptrs: a.lhs.cast(),
            lhs_ptr_offset: a.lhs_ptr_offset,
            pad_ptr: a.pad_ptr.cast(),
            lhs_packed: a.lhs_packed.cast_mut().cast(),
        };
        // SAFETY: the packer checks the arguments first; extents are the caller's contract.
        ensure(symbol, unsafe { lhs::pack_indirect(kind, &args) });
        return;
    }
    let args = lhs::Args {
        m: a.m,
        k: a.k,
        bl: a.bl,
        mr: a.mr,
        kr: a.kr,
        sr: a.sr,
        m_idx_start: a.m_idx_start,
        lhs: a.lhs.cast(),
        lhs_stride: a.lhs_stride,
        lhs_packed: a.lhs_packed.cast_mut().cast(),
    };
    // SAFETY: the packer checks the arguments first; extents are the caller's contract.
    ensure(symbol, unsafe { lhs::pack(kind, &args) })
}
