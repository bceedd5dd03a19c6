//! Getters shared by the per-channel RHS packers: the same C functions over each packer's
//! packed layout.

use super::ensure;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract;
use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::Source;

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

/// The source orientation and value width of a per-channel packer.
fn source(packer: &Packer) -> (Source, usize) {
    match packer.kind {
        PackerKind::RhsQsi4cxp(source) => (source, 4),
        PackerKind::RhsQsi4cxps1s0 => (Source::Nxk, 4),
        PackerKind::RhsQsi8cxp(source) => (source, 8),
        _ => unreachable!("catalog routes only per-channel RHS packers here"),
    }
}

pub fn get_rhs_offset(packer: &Packer, symbol: &str, n_idx: usize, rhs_stride: usize) -> usize {
    let (source, bits) = source(packer);
    ensure(symbol, source.integer_rhs_offset(bits, n_idx, rhs_stride))
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
