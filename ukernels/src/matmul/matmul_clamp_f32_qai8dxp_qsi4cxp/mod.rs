//! `matmul_clamp_f32_qai8dxp_qsi4cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int4 RHS (per channel, symmetric), plus bias, clamped.
//!
//! For row i and column j (`lq` packed LHS values, `w16` = 16 x int4 weight, trailers as packed):
//! `acc = sum(lq * w16) + lhs_offset[i] * rsum[j]` in wrapping i32; then
//! `y = f32(acc) * (rscale[j] * lhs_scale[i]) + bias[j]` (multiply and add not fused), clamped
//! with `FMAX` then `FMIN`.

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm;

use crate::catalog::{MatmulKernel, NativeFn, Tile};
use crate::contract::{self, Checked};
use crate::layout;

/// Arguments of one `kai_run_matmul_*` call of this family.
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

/// Checks what the kernel requires of its arguments.
pub fn check(tile: &Tile, a: &Args) -> Checked {
    check_with_rhs(tile, a, layout::qsi4cxp::stride)
}

/// Checks shared by the `qai8dxp` families; `rhs_stride` is the packed RHS group size formula.
pub(crate) fn check_with_rhs(
    tile: &Tile,
    a: &Args,
    rhs_stride: fn(usize, usize, usize, usize) -> Result<usize, crate::contract::Violation>,
) -> Checked {
    contract::require(
        a.dst_stride_col == core::mem::size_of::<f32>(),
        "dst_stride_col == sizeof(float)",
    )?;
    layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr)?;
    rhs_stride(a.k, tile.nr, tile.kr, tile.sr)?;
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
        NativeFn::F32Qai8dxpQsi4cxp(f) => unsafe { f(a) },
        // SAFETY: forwarded contract.
        _ => unsafe { portable::run(&kernel.tile, a) },
    }
}
