//! C functions of the bf16 GEMM kernels (`matmul_clamp_f32_bf16p_bf16p`,
//! `matmul_clamp_f16_bf16p_bf16p`: bf16 LHS and RHS both packed, the bias packed with the RHS).

use super::ensure;
// The tile getters are the same for every matmul family.
pub use super::matmul_clamp_qai8dxp::{get_kr, get_m_step, get_mr, get_n_step, get_nr, get_sr};
use core::ffi::c_void;
use rkai_ukernels::catalog::{MatmulKernel, Rows};
use rkai_ukernels::contract;
use rkai_ukernels::layout;
use rkai_ukernels::matmul::bf16_gemm as family;

pub fn get_lhs_packed_offset(kernel: &MatmulKernel, symbol: &str, m_idx: usize, k: usize) -> usize {
    let t = kernel.tile();
    let valid = match kernel.rows {
        Rows::One => contract::require(m_idx == 0, "m_idx == 0"),
        Rows::Any => contract::require(m_idx % t.mr == 0, "m_idx % kai_mr == 0"),
    };
    ensure(symbol, valid);
    let row = ensure(symbol, family::lhs_row_bytes(k));
    ensure(
        symbol,
        contract::mul(m_idx, row, "packed LHS offset fits in size_t"),
    )
}

pub fn get_rhs_packed_offset(kernel: &MatmulKernel, symbol: &str, n_idx: usize, k: usize) -> usize {
    let t = kernel.tile();
    ensure(
        symbol,
        family::rhs_layout(kernel.family).offset(n_idx, k, t.nr, t.kr, t.sr),
    )
}

pub fn get_dst_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    m_idx: usize,
    n_idx: usize,
    stride: usize,
) -> usize {
    let t = kernel.tile();
    ensure(
        symbol,
        contract::require(m_idx % t.m_step == 0, "(m_idx % m_step) == 0"),
    );
    ensure(
        symbol,
        contract::require(n_idx % t.n_step == 0, "(n_idx % n_step) == 0"),
    );
    let elem = kernel.family.output().size();
    ensure(symbol, layout::dst::offset(m_idx, n_idx, stride, elem))
}

pub fn get_dst_size(kernel: &MatmulKernel, symbol: &str, m: usize, n: usize) -> usize {
    let elem = kernel.family.output().size();
    ensure(symbol, layout::dst::size(m, n, elem))
}

/// # Safety
/// KleidiAI's contract for `kai_run_matmul_*`: `lhs_packed` holds the portion's packed row
/// blocks, `rhs_packed` its packed column groups, `dst` m rows of n elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_matmul(
    kernel: &MatmulKernel,
    symbol: &str,
    m: usize,
    n: usize,
    k: usize,
    lhs_packed: *const c_void,
    rhs_packed: *const c_void,
    dst: *mut c_void,
    dst_stride_row: usize,
    dst_stride_col: usize,
    clamp_min: f32,
    clamp_max: f32,
) {
    let args = family::Args {
        m,
        n,
        k,
        lhs_packed: lhs_packed.cast(),
        rhs_packed: rhs_packed.cast(),
        dst: dst.cast(),
        dst_stride_row,
        dst_stride_col,
        clamp_min,
        clamp_max,
    };
    ensure(symbol, family::check(kernel, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { family::run(kernel, &args) }
}
