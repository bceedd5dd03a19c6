//! C functions of the per-block int4 packers `rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0` and
//! `rhs_pack_nxk_qsi4c32pnrx{4,8}_qsu4c32s1s0_neon`.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::rhs_pack_qsi4c32p_qsu4c32s1s0::{self as pack, Variant};

/// The packer variant behind a catalog entry routed here.
fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::RhsQsi4c32p(v) => v,
        _ => unreachable!("catalog routes only qsi4c32p packers here"),
    }
}

pub fn get_n_step(_: &Packer, _: &str, nr: usize) -> usize {
    nr
}

pub fn get_rhs_offset(packer: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    let source = variant(packer).source();
    ensure(symbol, source.integer_rhs_offset(4, n_idx, rhs_stride))
}

#[allow(clippy::too_many_arguments)]
pub fn get_rhs_packed_stride(
    _: &Packer,
    symbol: &str,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    scale_dt: u32,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, sr, bl, scale_dt));
    ensure(symbol, RhsLayout::Qsi4c32p { bl }.stride(k, nr, kr, sr))
}

#[allow(clippy::too_many_arguments)]
pub fn get_rhs_packed_offset(
    _: &Packer,
    symbol: &str,
    n_idx: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    scale_dt: u32,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, sr, bl, scale_dt));
    ensure(
        symbol,
        RhsLayout::Qsi4c32p { bl }.offset(n_idx, k, nr, kr, sr),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn get_rhs_packed_size(
    _: &Packer,
    symbol: &str,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    scale_dt: u32,
) -> usize {
    ensure(symbol, pack::check_getter(k, nr, kr, sr, bl, scale_dt));
    ensure(symbol, RhsLayout::Qsi4c32p { bl }.size(n, k, nr, kr, sr))
}

/// # Safety
/// KleidiAI's contract: `rhs` holds the source matrix, `scale` its bf16 block scales, `bias`
/// n floats or null, `rhs_packed` the packed size.
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
    rhs_stride: usize,
    bias: *const f32,
    scale: *const c_void,
    scale_stride: usize,
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
        rhs_stride,
        bias,
        scale: scale.cast(),
        scale_stride,
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params: params.cast(),
    };
    let variant = variant(packer);
    ensure(symbol, pack::check(variant, &args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(variant, &args) }
}
