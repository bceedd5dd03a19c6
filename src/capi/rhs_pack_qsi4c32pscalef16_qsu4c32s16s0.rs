//! C functions of the Q4_0 RHS packers `rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0` and
//! `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon`.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::{self as pack, Variant};

/// The packer variant behind a catalog entry routed here.
fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::RhsQsi4c32pf16(v) => v,
        _ => unreachable!("catalog routes only Q4_0 RHS packers here"),
    }
}

pub fn get_rhs_offset(_: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    ensure(
        symbol,
        contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t"),
    )
}

pub fn get_rhs_packed_stride(
    _: &Packer,
    symbol: &str,
    k: usize,
    nr: usize,
    kr: usize,
    bl: usize,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, bl));
    ensure(symbol, RhsLayout::Qsi4c32pf16 { bl }.stride(k, nr, kr, 2))
}

pub fn get_rhs_packed_offset(
    _: &Packer,
    symbol: &str,
    n_idx: usize,
    k: usize,
    nr: usize,
    kr: usize,
    bl: usize,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, bl));
    ensure(
        symbol,
        RhsLayout::Qsi4c32pf16 { bl }.offset(n_idx, k, nr, kr, 2),
    )
}

pub fn get_rhs_packed_size(
    _: &Packer,
    symbol: &str,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    bl: usize,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, bl));
    ensure(symbol, RhsLayout::Qsi4c32pf16 { bl }.size(n, k, nr, kr, 2))
}

/// # Safety
/// KleidiAI's contract: `rhs` holds `n` Q4_0 rows of `k` values, `rhs_packed` the packed size.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run<P>(
    packer: &Packer,
    symbol: &str,
    num_groups: usize,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    rhs: *const u8,
    bias: *const f32,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const P,
) {
    let args = pack::Args {
        num_groups,
        n,
        k,
        nr,
        kr,
        sr,
        bl,
        rhs,
        bias,
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params: params.cast(),
    };
    let variant = variant(packer);
    ensure(symbol, pack::check(variant, &args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(variant, &args) }
}
