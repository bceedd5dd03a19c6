//! C functions of the per-channel `qai8dxp` families (`matmul_clamp_{f32,f16,bf16}_qai8dxp_qsi4cxp`
//! and `..._qsi8cxp`), which share their function set and differ in the packed RHS format and
//! the output type; the per-block families reuse them (see `matmul_clamp_qai8dxp_blockwise`).

use super::ensure;
use core::ffi::c_void;
use rkai_ukernels::catalog::MatmulKernel;
use rkai_ukernels::contract;
use rkai_ukernels::layout;
use rkai_ukernels::matmul::qai8dxp;

pub fn get_m_step(k: &MatmulKernel, _: &str) -> usize {
    k.tile().m_step
}

pub fn get_n_step(k: &MatmulKernel, _: &str) -> usize {
    k.tile().n_step
}

pub fn get_mr(k: &MatmulKernel, _: &str) -> usize {
    k.tile().mr
}

pub fn get_nr(k: &MatmulKernel, _: &str) -> usize {
    k.tile().nr
}

pub fn get_kr(k: &MatmulKernel, _: &str) -> usize {
    k.tile().kr
}

pub fn get_sr(k: &MatmulKernel, _: &str) -> usize {
    k.tile().sr
}

pub fn get_lhs_packed_offset(kernel: &MatmulKernel, symbol: &str, m_idx: usize, k: usize) -> usize {
    let t = &kernel.tile();
    ensure(
        symbol,
        contract::require(m_idx % t.mr == 0, "(m_idx % mr) == 0"),
    );
    ensure(symbol, layout::qai8dxp::offset(m_idx, k, t.mr, t.kr, t.sr))
}

pub fn get_rhs_packed_offset(kernel: &MatmulKernel, symbol: &str, n_idx: usize, k: usize) -> usize {
    rhs_packed_offset(kernel, symbol, n_idx, k, 0)
}

/// Offset of column `n_idx` in the packed RHS; `bl` is used by the per-block families only.
pub(super) fn rhs_packed_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    n_idx: usize,
    k: usize,
    bl: usize,
) -> usize {
    let t = &kernel.tile();
    ensure(
        symbol,
        kernel
            .family
            .rhs_layout(bl)
            .offset(n_idx, k, t.nr, t.kr, t.sr),
    )
}

pub fn get_dst_offset(
    kernel: &MatmulKernel,
    symbol: &str,
    m_idx: usize,
    n_idx: usize,
    dst_stride: usize,
) -> usize {
    let t = &kernel.tile();
    ensure(
        symbol,
        contract::require(m_idx % t.m_step == 0, "(m_idx % m_step) == 0"),
    );
    ensure(
        symbol,
        contract::require(n_idx % t.n_step == 0, "(n_idx % n_step) == 0"),
    );
    ensure(
        symbol,
        layout::dst::offset(m_idx, n_idx, dst_stride, kernel.family.output().size()),
    )
}

pub fn get_dst_size(kernel: &MatmulKernel, symbol: &str, m: usize, n: usize) -> usize {
    ensure(
        symbol,
        layout::dst::size(m, n, kernel.family.output().size()),
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
    lhs_packed: *const c_void,
    rhs_packed: *const c_void,
    dst: *mut T,
    dst_stride_row: usize,
    dst_stride_col: usize,
    scalar_min: f32,
    scalar_max: f32,
) {
    // SAFETY: forwarded contract; per-channel kernels ignore bl.
    unsafe {
        run_blocks(
            kernel,
            symbol,
            m,
            n,
            k,
            0,
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

/// [`run_matmul`] with a block length (used by the per-block families only).
///
/// # Safety
/// As for [`run_matmul`].
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn run_blocks(
    kernel: &MatmulKernel,
    symbol: &str,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lhs_packed: *const c_void,
    rhs_packed: *const c_void,
    dst: *mut u8,
    dst_stride_row: usize,
    dst_stride_col: usize,
    scalar_min: f32,
    scalar_max: f32,
) {
    let args = qai8dxp::Args {
        m,
        n,
        k,
        bl,
        lhs_packed: lhs_packed.cast(),
        rhs_packed: rhs_packed.cast(),
        dst,
        dst_stride_row,
        dst_stride_col,
        clamp_min: scalar_min,
        clamp_max: scalar_max,
    };
    ensure(symbol, qai8dxp::check(kernel, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { qai8dxp::run(kernel, &args) }
}
