//! The `qai8dxp` matmul families (dynamically quantized int8 LHS x per-channel int4 or int8
//! RHS, f32 output): their shared arguments, precondition checks and dispatch. The families
//! differ only in the packed RHS format, which the kernel's family names.

use super::{matmul_clamp_f32_qai8dxp_qsi4cxp as int4, matmul_clamp_f32_qai8dxp_qsi8cxp as int8};
use crate::catalog::{Family, MatmulKernel, NativeFn};
use crate::contract::{self, Checked};
use crate::layout;

/// Arguments of one `kai_run_matmul_*` call.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Full reduction length.
    pub k: usize,
    /// Packed LHS at the portion's first row group.
    pub lhs_packed: *const u8,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut f32,
    /// Bytes between destination rows.
    pub dst_stride_row: usize,
    /// Bytes between destination columns: must be `sizeof(float)`.
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
}

/// Signature of an ISA-specific implementation.
pub type RunFn = unsafe fn(&Args);

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile;
    contract::require(
        a.dst_stride_col == core::mem::size_of::<f32>(),
        "dst_stride_col == sizeof(float)",
    )?;
    layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr)?;
    kernel
        .family
        .rhs_layout()
        .stride(a.k, tile.nr, tile.kr, tile.sr)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k != 0, "k > 0")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, 4, "n * sizeof(float) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_stride_row >= row_bytes,
        "dst_stride_row >= n * sizeof(float)",
    )?;
    Ok(())
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bytes, same results) elsewhere.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match kernel.native {
        // SAFETY: forwarded contract.
        NativeFn::Qai8dxp(f) => unsafe { f(a) },
        // SAFETY (both arms): forwarded contract.
        NativeFn::Portable => match kernel.family {
            Family::F32Qai8dxpQsi4cxp => unsafe { int4::portable::run(&kernel.tile, a) },
            Family::F32Qai8dxpQsi8cxp => unsafe { int8::portable::run(&kernel.tile, a) },
        },
    }
}
