//! C functions of `matmul_clamp_f32_qsi8d32p_qsi4c32p` (llama.cpp's Q8_0 x Q4_0): the per-block
//! set with the block length `bl` also in `get_lhs_packed_offset`.

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::MatmulKernel;
use rkai_ukernels::contract;
use rkai_ukernels::layout;
use rkai_ukernels::matmul::matmul_clamp_f32_qsi8d32p_qsi4c32p as family;
use rkai_ukernels::matmul::qai8dxp::Args;

pub use super::matmul_clamp_qai8dxp::{
    get_dst_offset, get_dst_size, get_kr, get_m_step, get_mr, get_n_step, get_nr, get_sr,
};

pub fn get_lhs_packed_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    m_idx: usize,
    k: usize,
    bl: usize,
) -> usize {
    let t = &kernel.tile();
    ensure(
        symbol,
        contract::require(m_idx % t.mr == 0, "(m_idx % mr) == 0"),
    );
    ensure(symbol, family::check_block(kernel, k, bl));
    ensure(symbol, layout::qsi8d32p::offset(m_idx, k, bl, t.mr))
}

pub fn get_rhs_packed_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    n_idx: usize,
    k: usize,
    bl: usize,
) -> usize {
    let t = &kernel.tile();
    ensure(symbol, family::check_block(kernel, k, bl));
    ensure(
        symbol,
        kernel
            .family
            .rhs_layout(bl)
            .offset(n_idx, k, t.nr, t.kr, t.sr),
    )
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
    let args = Args {
        m,
        n,
        k,
        bl,
        lhs_packed: lhs_packed.cast(),
        rhs_packed: rhs_packed.cast(),
        dst: dst.cast(),
        dst_stride_row,
        dst_stride_col,
        clamp_min: scalar_min,
        clamp_max: scalar_max,
    };
    ensure(symbol, family::check(kernel, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { family::run(kernel, &args) }
}
