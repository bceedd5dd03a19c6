//! C functions of the bf16 LHS packers (`lhs_quant_pack_bf16p{8,1}x4_f32_neon`,
//! `lhs_pack_bf16p8x4_f16_neon`), with KleidiAI's assertions.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::pack::lhs_pack_bf16::{self as pack, Variant};

fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::LhsBf16(v) => v,
        _ => unreachable!("catalog routes only bf16 LHS packers here"),
    }
}

pub fn get_m_step(packer: &Packer, symbol: &str, mr: usize) -> usize {
    let v = variant(packer);
    ensure(symbol, contract::require(mr == v.mr(), "mr == kai_mr"));
    v.mr()
}

pub fn get_lhs_offset(packer: &Packer, symbol: &str, m_idx: usize, lhs_stride: usize) -> usize {
    if variant(packer) == Variant::Bf16p8x4F16 {
        ensure(
            symbol,
            contract::require(m_idx % 8 == 0, "m_idx % (kai_mr) == 0"),
        );
    }
    ensure(
        symbol,
        contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t"),
    )
}

pub fn get_lhs_packed_offset(
    packer: &Packer,
    symbol: &str,
    m_idx: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    let v = variant(packer);
    ensure(symbol, v.check_params(mr, kr, sr));
    ensure(symbol, v.packed_offset(m_idx, k))
}

pub fn get_lhs_packed_size(
    packer: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    let v = variant(packer);
    ensure(symbol, v.check_params(mr, kr, sr));
    ensure(symbol, v.packed_size(m, k))
}

/// # Safety
/// KleidiAI's contract: `lhs` holds m rows of k source elements `lhs_stride` bytes apart,
/// `lhs_packed` the packed size of m rows.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run(
    packer: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
    m_idx_start: usize,
    lhs: *const c_void,
    lhs_stride: usize,
    lhs_packed: *mut c_void,
) {
    let v = variant(packer);
    let args = pack::Args {
        m,
        k,
        mr,
        kr,
        sr,
        m_idx_start,
        lhs: lhs.cast(),
        lhs_stride,
        lhs_packed: lhs_packed.cast(),
    };
    ensure(symbol, pack::check(v, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { pack::run(v, &args) }
}
