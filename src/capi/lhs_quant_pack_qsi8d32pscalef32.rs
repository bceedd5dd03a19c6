//! C functions of the `lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon` packers (activations of
//! the asymmetric int4 `qai4c32p` kernels).

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::layout::qsi8d32pscalef32 as layout;
use rkai_ukernels::pack::lhs_quant_pack_qsi8d32pscalef32::{self as pack, Variant};

/// The packer variant behind a catalog entry routed here.
fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::LhsQuantQsi8d32pscalef32(v) => v,
        _ => unreachable!("catalog routes only qsi8d32pscalef32 LHS packers here"),
    }
}

pub fn get_m_step(packer: &Packer, _: &str, mr: usize) -> usize {
    variant(packer).m_step(mr)
}

pub fn get_lhs_offset(_: &Packer, symbol: &str, m_idx: usize, lhs_stride: usize) -> usize {
    ensure(
        symbol,
        contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t"),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn get_lhs_packed_offset(
    packer: &Packer,
    symbol: &str,
    m_idx: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, pack::check_getter(k, bl, mr, kr, sr));
    // Only the f32 packer asserts it; a group boundary is what the kernels read either way.
    if variant(packer) == Variant::F32 {
        ensure(
            symbol,
            contract::require(m_idx % mr == 0, "(m_idx % mr) == 0"),
        );
    }
    ensure(symbol, layout::offset(m_idx, k, bl, mr))
}

#[allow(clippy::too_many_arguments)]
pub fn get_lhs_packed_size(
    _: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, pack::check_getter(k, bl, mr, kr, sr));
    ensure(symbol, layout::size(m, k, bl, mr))
}

/// # Safety
/// KleidiAI's contract: `lhs` holds the rows the packer reads, `lhs_packed` the groups they land
/// in (see `rkai_ukernels::pack::lhs_quant_pack_qsi8d32pscalef32`).
#[allow(clippy::too_many_arguments)]
pub unsafe fn run<T>(
    packer: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    bl: usize,
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
        bl,
        mr,
        kr,
        sr,
        m_idx_start,
        lhs: lhs.cast(),
        lhs_stride,
        lhs_packed: lhs_packed.cast(),
    };
    let variant = variant(packer);
    ensure(symbol, pack::check(variant, &args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(variant, &args) }
}
