//! C functions of the asymmetric int4 RHS packers `rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon`
//! and its SME2 `ps1s0nrx4` forms.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::rhs_pack_nxk_qai4c32p::{self as pack, Variant};

/// The packer variant behind a catalog entry routed here.
fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::RhsQai4c32p(v) => v,
        _ => unreachable!("catalog routes only qai4c32p RHS packers here"),
    }
}

pub fn get_rhs_offset(_: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    ensure(
        symbol,
        contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t"),
    )
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
        RhsLayout::Qai4c32p { bl }.offset(n_idx, k, nr, kr, 2),
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
    ensure(symbol, RhsLayout::Qai4c32p { bl }.size(n, k, nr, kr, 2))
}

/// # Safety
/// KleidiAI's contract: `rhs` holds `n x k` nibbles, `zero` and `scale` `n x k / bl` floats,
/// `bias` (optional) `n` floats, `rhs_packed` the packed size.
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
    zero: *const c_void,
    bias: *const c_void,
    scale: *const c_void,
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
        zero: zero.cast(),
        bias: bias.cast(),
        scale: scale.cast(),
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params: params.cast(),
    };
    let variant = variant(packer);
    ensure(symbol, pack::check(variant, &args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(variant, &args) }
}
