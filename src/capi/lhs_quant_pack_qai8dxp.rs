//! C functions of the `lhs_quant_pack_qai8dxp_*` packers.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::Packer;
use rkai_ukernels::contract;
use rkai_ukernels::layout::qai8dxp as layout;
use rkai_ukernels::pack::lhs_quant_pack_qai8dxp::{self as pack, SourceElement};

pub fn get_m_step(_: &Packer, _: &str, mr: usize) -> usize {
    mr
}

pub fn get_lhs_offset(_: &Packer, symbol: &str, m_idx: usize, lhs_stride: usize) -> usize {
    ensure(
        symbol,
        contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t"),
    )
}

pub fn get_lhs_packed_offset(
    _: &Packer,
    symbol: &str,
    m_idx: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, contract::packing_params(mr, "mr > 0", kr, sr));
    ensure(symbol, layout::offset(m_idx, k, mr, kr, sr))
}

pub fn get_lhs_packed_size(
    _: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, contract::packing_params(mr, "mr > 0", kr, sr));
    ensure(symbol, layout::size(m, k, mr, kr, sr))
}

/// # Safety
/// KleidiAI's contract: `lhs` holds m rows, `lhs_packed` the groups those rows land in.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run(
    _: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
    m_idx_start: usize,
    lhs: *const f32,
    lhs_stride: usize,
    lhs_packed: *mut c_void,
) {
    // SAFETY: forwarded contract.
    unsafe {
        pack_rows(
            symbol,
            m,
            k,
            mr,
            kr,
            sr,
            m_idx_start,
            lhs,
            lhs_stride,
            lhs_packed,
        )
    }
}

/// Checks the arguments (aborting naming `symbol`) and packs rows of element type `T`.
///
/// # Safety
/// KleidiAI's contract: `lhs` holds m rows of `T`, `lhs_packed` the groups those rows land in.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn pack_rows<T: SourceElement>(
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
    m_idx_start: usize,
    lhs: *const T,
    lhs_stride: usize,
    lhs_packed: *mut c_void,
) {
    let args = pack::Args {
        m,
        k,
        mr,
        kr,
        sr,
        m_idx_start,
        lhs,
        lhs_stride,
        lhs_packed: lhs_packed.cast(),
    };
    ensure(symbol, pack::check(&args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(&args) }
}
