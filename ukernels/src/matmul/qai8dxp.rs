//! The `qai8dxp` matmul families (dynamically quantized int8 LHS x int4 or int8 RHS with
//! per-channel or per-block scales; f32, f16 or bf16 output): their shared arguments,
//! precondition checks and dispatch. Families differ in the packed RHS format and the output
//! type, both of which the kernel's family names.

use super::output::run_narrowed;
use super::{
    matmul_clamp_f32_qai8dxp_qsi4c32p as int4_blockwise, matmul_clamp_f32_qai8dxp_qsi4cxp as int4,
    matmul_clamp_f32_qai8dxp_qsi8cxp as int8,
};
use crate::catalog::{MatmulKernel, NativeFn};
use crate::contract::{self, Checked};
use crate::layout::{self, RhsLayout};

/// Arguments of one `kai_run_matmul_*` call.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Full reduction length.
    pub k: usize,
    /// Block length of the per-block families (ignored by the per-channel ones).
    pub bl: usize,
    /// Packed LHS at the portion's first row group.
    pub lhs_packed: *const u8,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows.
    pub dst_stride_row: usize,
    /// Bytes between destination columns: must be the element size.
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
}

/// Signature of an ISA-specific implementation (f32 output).
pub type RunFn = unsafe fn(&Args);

/// Packed RHS format `kernel` reads for block length `bl`.
fn rhs_layout(kernel: &MatmulKernel, bl: usize) -> RhsLayout {
    kernel.family.rhs_layout(bl)
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    let out = kernel.family.output();
    contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr)?;
    rhs_layout(kernel, a.bl).stride(a.k, tile.nr, tile.kr, tile.sr)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k != 0, "k > 0")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, out.size(), "n * sizeof(dst) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_stride_row >= row_bytes,
        out.row_condition(),
    )?;
    Ok(())
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bytes, same results) elsewhere; 16-bit outputs go through the f32
/// implementation of the same tile (see `matmul::output`).
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    // The asymmetric int4 families have their own LHS format and dispatch.
    if let RhsLayout::Qai4c32p { .. } = rhs_layout(kernel, a.bl) {
        // SAFETY: forwarded contract.
        return unsafe { super::matmul_clamp_qsi8d32p_qai4c32p::run(kernel, a) };
    }
    let tile = &kernel.tile();
    let run_f32 = |a: &Args| match kernel.native {
        // SAFETY (every arm): forwarded contract.
        NativeFn::Qai8dxp(f) => unsafe { f(a) },
        // bf16 GEMM kernels are dispatched by their own family module, never here.
        NativeFn::Bf16Gemm(_) => {}
        NativeFn::Portable | NativeFn::FloatGemm(_) => match rhs_layout(kernel, a.bl) {
            RhsLayout::Qsi4cxp => unsafe { int4::portable::run(tile, a) },
            RhsLayout::Qsi8cxp => unsafe { int8::portable::run(tile, a) },
            RhsLayout::Qsi4c32p { .. } => unsafe { int4_blockwise::portable::run(tile, a) },
            // Only the Q4_0 family reads this format; its own dispatch is `run` there.
            RhsLayout::Qsi4c32pf16 { .. } => unsafe {
                super::matmul_clamp_f32_qsi8d32p_qsi4c32p::portable::run(tile, a)
            },
            // Handled above.
            RhsLayout::Qai4c32p { .. } => unsafe {
                super::matmul_clamp_qsi8d32p_qai4c32p::portable::run(tile, a)
            },
            // Float kernels are dispatched by their own family module, never here.
            RhsLayout::FloatBias { .. } | RhsLayout::Bf16Bias { .. } => {}
        },
    };
    match kernel.family.output().narrowing() {
        None => run_f32(a),
        // SAFETY: forwarded contract; dst rows hold n 16-bit elements.
        Some(narrow) => unsafe { run_narrowed(tile, rhs_layout(kernel, a.bl), narrow, a, run_f32) },
    }
}
