//! Getters shared by the per-channel RHS packers: the same C functions over each packer's
//! packed layout.

use super::ensure;
use rkai_ukernels::catalog::Packer;
use rkai_ukernels::contract;
use rkai_ukernels::layout::RhsLayout;

/// The packed layout `packer` writes (per-channel packers: no block length).
fn layout(packer: &Packer) -> RhsLayout {
    packer
        .kind
        .rhs_layout(0)
        .expect("catalog routes only RHS packers here")
}

pub fn get_n_step(_: &Packer, _: &str, nr: usize) -> usize {
    nr
}

pub fn get_rhs_offset(_: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    ensure(
        symbol,
        contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t"),
    )
}

pub fn get_rhs_packed_stride(
    packer: &Packer,
    symbol: &str,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, contract::packing_params(nr, "nr > 0", kr, sr));
    ensure(symbol, layout(packer).stride(k, nr, kr, sr))
}

pub fn get_rhs_packed_offset(
    packer: &Packer,
    symbol: &str,
    n_idx: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, contract::packing_params(nr, "nr > 0", kr, sr));
    ensure(symbol, layout(packer).offset(n_idx, k, nr, kr, sr))
}

pub fn get_rhs_packed_size(
    packer: &Packer,
    symbol: &str,
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
) -> usize {
    ensure(symbol, contract::packing_params(nr, "nr > 0", kr, sr));
    ensure(symbol, layout(packer).size(n, k, nr, kr, sr))
}
