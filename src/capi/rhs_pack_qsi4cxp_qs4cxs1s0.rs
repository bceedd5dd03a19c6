//! C functions of the per-channel int4 packers `rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0` and
//! `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (same C signature, different layouts).

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::pack::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0 as sequential;
use rkai_ukernels::pack::rhs_pack_qsi4cxp_qs4cxs1s0 as pack;
use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param;

pub use super::rhs_pack_getters::*;

/// # Safety
/// KleidiAI's contract: `rhs` holds the n x k (or k x n) int4 matrix, `scale`/`bias` n floats,
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
    rhs: *const u8,
    bias: *const f32,
    scale: *const f32,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const kai_rhs_pack_qs4cxs1s0_param,
) {
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
    // SAFETY (both arms): arguments checked; extents are the caller's contract.
    match packer.kind {
        PackerKind::RhsQsi4cxp(source) => {
            ensure(symbol, pack::check(&args));
            unsafe { pack::run(source, &args) }
        }
        _ => {
            ensure(symbol, sequential::check(&args));
            unsafe { sequential::run(&args) }
        }
    }
}
