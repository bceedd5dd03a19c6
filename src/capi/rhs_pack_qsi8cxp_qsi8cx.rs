//! C functions of the `rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon` packers.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::pack::rhs_pack_qsi8cxp_qsi8cx as pack;
use rkai_ukernels::types::kai_rhs_pack_qsi8cx_params;

pub use super::rhs_pack_getters::*;

/// # Safety
/// KleidiAI's contract: `rhs` holds the n x k (or k x n) int8 matrix, `scale`/`bias` n floats,
/// `rhs_packed` the packed size.
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
    rhs: *const i8,
    bias: *const f32,
    scale: *const f32,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const kai_rhs_pack_qsi8cx_params,
) {
    let PackerKind::RhsQsi8cxp(source) = packer.kind else {
        unreachable!("catalog routes only qsi8cxp packers here")
    };
    let args = pack::Args {
        num_groups,
        n,
        k,
        nr,
        kr,
        sr,
        rhs,
        bias,
        scale,
        rhs_packed: rhs_packed.cast(),
        extra_bytes,
        params,
    };
    ensure(symbol, pack::check(&args));
    // SAFETY: arguments checked; extents are the caller's contract.
    unsafe { pack::run(source, &args) }
}
