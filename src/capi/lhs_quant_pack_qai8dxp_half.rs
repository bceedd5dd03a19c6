//! C functions of the `lhs_quant_pack_qai8dxp_{f16,bf16}_neon` packers: the getters are the f32
//! packer's (same packed format); `run` reads half-precision rows through `const void*`.

use core::ffi::c_void;
use rkai_ukernels::catalog::{Packer, PackerKind};
use rkai_ukernels::pack::lhs_quant_pack_qai8dxp::LhsType;

use super::lhs_quant_pack_qai8dxp::pack_rows;
pub use super::lhs_quant_pack_qai8dxp::{
    get_lhs_offset, get_lhs_packed_offset, get_lhs_packed_size, get_m_step,
};

/// # Safety
/// KleidiAI's contract: `lhs` holds m rows of f16/bf16, `lhs_packed` the groups they land in.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run(
    packer: &Packer,
    symbol: &str,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
    m_idx_start: usize,
    lhs: *const c_void,
    lhs_stride: usize,
    lhs_packed: *mut c_void,
) {
    let PackerKind::LhsQuantQai8dxp(ty) = packer.kind else {
        unreachable!("catalog routes only qai8dxp LHS packers here")
    };
    // SAFETY (both arms): forwarded contract; the element type is the packer's.
    match ty {
        LhsType::Bf16 => unsafe {
            pack_rows(
                symbol,
                m,
                k,
                mr,
                kr,
                sr,
                m_idx_start,
                lhs.cast::<half::bf16>(),
                lhs_stride,
                lhs_packed,
            )
        },
        _ => unsafe {
            pack_rows(
                symbol,
                m,
                k,
                mr,
                kr,
                sr,
                m_idx_start,
                lhs.cast::<half::f16>(),
                lhs_stride,
                lhs_packed,
            )
        },
    }
}
