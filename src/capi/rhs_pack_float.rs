//! C functions of the float RHS packers (`rhs_pack_{kxn,nxk}_x32p16x1b*`,
//! `rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon`, `rhs_pack_kxn_x32p4vlx1b_x32_x32_sve`).

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::pack::rhs_pack_float::{self as pack, Variant};

fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::RhsFloat(v) => v,
        _ => unreachable!("catalog routes only float packers here"),
    }
}

fn aligned(symbol: &str, v: Variant, n_idx: usize) {
    ensure(
        symbol,
        contract::require(n_idx % v.nr() == 0, "(n_idx % n_step) == 0"),
    );
}

pub fn get_n_step(packer: &Packer, _: &str) -> usize {
    variant(packer).nr()
}

/// `get_rhs_offset(n_idx)` of the K x N packers: byte offset of column n_idx in a K row.
pub fn get_rhs_offset(packer: &Packer, symbol: &str, n_idx: usize) -> usize {
    let v = variant(packer);
    aligned(symbol, v, n_idx);
    ensure(
        symbol,
        contract::mul(n_idx, v.bytes(), "n_idx * sizeof(value) fits in size_t"),
    )
}

/// `get_rhs_offset(n_idx, rhs_stride)` of the N x K packer: byte offset of source row n_idx.
pub fn get_rhs_offset_nxk(packer: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    aligned(symbol, variant(packer), n_idx);
    ensure(
        symbol,
        contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t"),
    )
}

pub fn get_bias_offset(packer: &Packer, symbol: &str, n_idx: usize) -> usize {
    let v = variant(packer);
    if v.bias_offset_aligned() {
        aligned(symbol, v, n_idx);
    }
    ensure(
        symbol,
        contract::mul(n_idx, v.bytes(), "bias offset fits in size_t"),
    )
}

pub fn get_rhs_packed_stride(packer: &Packer, symbol: &str, k: usize) -> usize {
    let v = variant(packer);
    let nr = if v.stride_per_column() { 1 } else { v.nr() };
    ensure(symbol, v.layout().stride(k, nr, 1, 1))
}

pub fn get_rhs_packed_offset(packer: &Packer, symbol: &str, n_idx: usize, k: usize) -> usize {
    let v = variant(packer);
    ensure(symbol, v.layout().offset(n_idx, k, v.nr(), 1, 1))
}

pub fn get_rhs_packed_size(packer: &Packer, symbol: &str, n: usize, k: usize) -> usize {
    let v = variant(packer);
    ensure(symbol, v.layout().size(n, k, v.nr(), 1, 1))
}

/// # Safety
/// KleidiAI's contract: `rhs` holds the K x N (or N x K) matrix with rows `rhs_stride` bytes
/// apart, `bias` (if non-null) n values, `rhs_packed` the packed size.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run(
    packer: &Packer,
    symbol: &str,
    num_groups: usize,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    rhs_stride: usize,
    rhs: *const c_void,
    bias: *const c_void,
    scale: *const c_void,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const c_void,
) {
    let v = variant(packer);
    let args = pack::Args {
        num_groups,
        n,
        k,
        nr,
        kr,
        sr,
        rhs_stride,
        rhs: rhs.cast(),
        bias: bias.cast(),
        scale,
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params,
    };
    ensure(symbol, pack::check(v, &args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(v, &args) }
}
