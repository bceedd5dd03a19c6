//! Getters shared by the per-channel RHS packers: the same C functions over each packer's
//! packed layout.

use super::ensure;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::contract::{self, Violation};
use rkai_ukernels::layout;

/// `stride(k, nr, kr, sr)` of a packed layout.
type StrideFormula = fn(usize, usize, usize, usize) -> Result<usize, Violation>;
/// `offset(n_idx, k, nr, kr, sr)` or `size(n, k, nr, kr, sr)` of a packed layout.
type Formula = fn(usize, usize, usize, usize, usize) -> Result<usize, Violation>;

/// The packed layout of `packer`: (stride, offset, size) formulas.
fn formulas(packer: &Packer) -> (StrideFormula, Formula, Formula) {
    match packer.kind {
        PackerKind::RhsQsi8cxp(_) => (
            layout::qsi8cxp::stride,
            layout::qsi8cxp::offset,
            layout::qsi8cxp::size,
        ),
        _ => (
            layout::qsi4cxp::stride,
            layout::qsi4cxp::offset,
            layout::qsi4cxp::size,
        ),
    }
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
    ensure(symbol, formulas(packer).0(k, nr, kr, sr))
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
    ensure(symbol, formulas(packer).1(n_idx, k, nr, kr, sr))
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
    ensure(symbol, formulas(packer).2(n, k, nr, kr, sr))
}
