//! C functions of the bf16 RHS packers (`rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`,
//! `rhs_pack_kxn_bf16p12x4bias{f32,f16}_f16_neon`), with KleidiAI's assertions.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::pack::rhs_pack_bf16::{self as pack, KR, NR, Variant};

fn variant(packer: &Packer) -> Variant {
    match packer.kind {
        PackerKind::RhsBf16(v) => v,
        _ => unreachable!("catalog routes only bf16 RHS packers here"),
    }
}

fn aligned(symbol: &str, n_idx: usize) {
    ensure(
        symbol,
        contract::require(n_idx % NR == 0, "n_idx % kai_nr == 0"),
    );
}

pub fn get_n_step(_: &Packer, _: &str) -> usize {
    NR
}

pub fn get_rhs_offset(packer: &Packer, symbol: &str, n_idx: usize) -> usize {
    aligned(symbol, n_idx);
    let bytes = variant(packer).source_bytes();
    ensure(
        symbol,
        contract::mul(n_idx, bytes, "n_idx * sizeof(value) fits in size_t"),
    )
}

pub fn get_bias_offset(packer: &Packer, symbol: &str, n_idx: usize) -> usize {
    let v = variant(packer);
    if v == Variant::QuantF32 {
        aligned(symbol, n_idx);
    }
    ensure(
        symbol,
        contract::mul(n_idx, v.bias_bytes(), "bias offset fits in size_t"),
    )
}

pub fn get_rhs_packed_stride(packer: &Packer, symbol: &str, k: usize) -> usize {
    ensure(symbol, variant(packer).layout().stride(k, NR, KR, 1))
}

pub fn get_rhs_packed_offset(packer: &Packer, symbol: &str, n_idx: usize, k: usize) -> usize {
    aligned(symbol, n_idx);
    ensure(symbol, variant(packer).layout().offset(n_idx, k, NR, KR, 1))
}

pub fn get_rhs_packed_size(packer: &Packer, symbol: &str, n: usize, k: usize) -> usize {
    ensure(symbol, variant(packer).layout().size(n, k, NR, KR, 1))
}

/// KleidiAI's assertions on the `nr`, `kr` the quantizing packer's getters receive.
fn check_nr_kr(symbol: &str, nr: usize, kr: usize) {
    ensure(symbol, contract::require(nr == NR, "kai_nr == nr"));
    ensure(symbol, contract::require(kr == KR, "kai_kr == kr"));
}

/// `get_rhs_packed_offset(n_idx, k, nr, kr)` of `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`.
pub fn get_rhs_packed_offset_nrkr(
    packer: &Packer,
    symbol: &str,
    n_idx: usize,
    k: usize,
    nr: usize,
    kr: usize,
) -> usize {
    ensure(
        symbol,
        contract::require(nr != 0 && n_idx % nr == 0, "n_idx % nr == 0"),
    );
    check_nr_kr(symbol, nr, kr);
    ensure(symbol, variant(packer).layout().offset(n_idx, k, NR, KR, 1))
}

/// `get_rhs_packed_size(n, k, nr, kr)` of `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`.
pub fn get_rhs_packed_size_nrkr(
    packer: &Packer,
    symbol: &str,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
) -> usize {
    check_nr_kr(symbol, nr, kr);
    ensure(symbol, variant(packer).layout().size(n, k, NR, KR, 1))
}

/// # Safety
/// KleidiAI's contract: `rhs` holds k rows of n values `rhs_stride` bytes apart, `bias` n values
/// or null, `rhs_packed` the packed size of n columns.
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
        scale: scale.cast(),
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params: params.cast(),
    };
    ensure(symbol, pack::check(v, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { pack::run(v, &args) }
}
