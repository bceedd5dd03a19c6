//! C functions of the per-block `qai8dxp` families (`matmul_clamp_{f32,bf16}_qai8dxp_qsi4c32p`):
//! the per-channel set plus the block length `bl` in `get_rhs_packed_offset` and `run`.

use super::matmul_clamp_qai8dxp::{rhs_packed_offset, run_blocks};
use core::ffi::c_void;
use rkai_ukernels::catalog::MatmulKernel;

pub use super::matmul_clamp_qai8dxp::{
    get_dst_offset, get_dst_size, get_kr, get_lhs_packed_offset, get_m_step, get_mr, get_n_step,
    get_nr, get_sr,
};

pub fn get_rhs_packed_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    n_idx: usize,
    k: usize,
    bl: usize,
) -> usize {
    rhs_packed_offset(kernel, symbol, n_idx, k, bl)
}

/// # Safety
/// KleidiAI's contract for `kai_run_matmul_*`: packed operands and dst cover the portion.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_matmul<T>(
    kernel: &MatmulKernel,
    symbol: &str,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lhs_packed: *const c_void,
    rhs_packed: *const c_void,
    dst: *mut T,
    dst_stride_row: usize,
    dst_stride_col: usize,
    scalar_min: f32,
    scalar_max: f32,
) {
    // SAFETY: forwarded contract.
    unsafe {
        run_blocks(
            kernel,
            symbol,
            m,
            n,
            k,
            bl,
            lhs_packed,
            rhs_packed,
            dst.cast(),
            dst_stride_row,
            dst_stride_col,
            scalar_min,
            scalar_max,
        )
    }
}
