//! The float GEMM families with an unpacked LHS, `matmul_clamp_f32_f32_f32p` and
//! `matmul_clamp_f16_f16_f16p`: their shared arguments, precondition checks and dispatch.
//!
//! Numerics (KleidiAI's kernels, which come from Arm's "hybrid" GEMM generator): every output
//! starts from its column's packed bias and takes one fused multiply-add per K value in K order
//! (`acc = fma(b[k][j], a[i][k], acc)`, `FMLA` by element, rounded to the element type at every
//! step), then `FMIN` with the upper bound and `FMAX` with the lower (for f16 both bounds are
//! first rounded to f16). The order is fully determined, so every implementation (NEON, SVE,
//! portable) gives the same bits, NaNs included (see [`crate::float`]).
//!
//! Like KleidiAI, `run` reads `lhs_stride` and `dst_stride_row` in whole elements (rounding down),
//! and ignores `dst_stride_col` except in the kernels listed in [`CHECKS_DST_STRIDE_COL`].

use super::{matmul_clamp_f16_f16_f16p as f16p, matmul_clamp_f32_f32_f32p as f32p};
use crate::catalog::{Family, MatmulKernel, NativeFn};
use crate::contract::{self, Checked};
use crate::layout::RhsLayout;

/// Arguments of one `kai_run_matmul_*` call.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// LHS at the portion's first row.
    pub lhs: *const u8,
    /// Bytes between LHS rows (used rounded down to whole elements, as KleidiAI does).
    pub lhs_stride: usize,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows (rounded down to whole elements).
    pub dst_stride_row: usize,
    /// Bytes between destination columns (see [`check`]).
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
    /// Bytes per element of the LHS, RHS and destination (4 or 2).
    pub elem: usize,
}

impl Args {
    /// `lhs_stride` in whole elements, as bytes.
    pub fn lhs_row_bytes(&self) -> usize {
        self.lhs_stride / self.elem * self.elem
    }

    /// `dst_stride_row` in whole elements, as bytes.
    pub fn dst_row_bytes(&self) -> usize {
        self.dst_stride_row / self.elem * self.elem
    }
}

/// Signature of an ISA-specific implementation.
pub type RunFn = unsafe fn(&Args);

/// Kernels that assert `dst_stride_col == sizeof(element)`; the others ignore it, as KleidiAI's do.
pub const CHECKS_DST_STRIDE_COL: &[&str] = &[
    "matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla",
    "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla",
];

/// Bytes per element of a float GEMM family (0 for other families).
pub const fn element_size(family: Family) -> usize {
    match family {
        Family::F32F32F32p => 4,
        Family::F16F16F16p => 2,
        _ => 0,
    }
}

/// The packed RHS format of a float GEMM family.
pub const fn rhs_layout(family: Family) -> RhsLayout {
    RhsLayout::FloatBias {
        bytes: element_size(family),
    }
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertion, non-null buffers, a
/// destination row stride that holds a row, and a packed size that does not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let out = kernel.family.output();
    contract::require(a.elem == out.size(), "element size of the family")?;
    if CHECKS_DST_STRIDE_COL.contains(&kernel.stem) {
        contract::require(a.dst_stride_col == a.elem, out.size_condition())?;
    }
    rhs_layout(kernel.family).stride(a.k, kernel.tile().nr, 1, 1)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k == 0 || !a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, a.elem, "n * sizeof(dst) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_row_bytes() >= row_bytes,
        out.row_condition(),
    )?;
    Ok(())
}

/// Runs `kernel`: its hand-written implementation on aarch64, the portable one (same bits)
/// elsewhere.
///
/// # Safety
/// [`check`] must have passed; the LHS must hold `m` rows of `k` elements, the packed RHS the
/// portion's column groups in the layout of `kernel.tile()`, and the destination `m` rows of `n`
/// elements; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let nr = kernel.tile().nr;
    match (kernel.native, kernel.family) {
        // SAFETY (every arm): forwarded contract.
        (NativeFn::FloatGemm(f), _) => unsafe { f(a) },
        (_, Family::F16F16F16p) => unsafe { f16p::portable::run(nr, a) },
        _ => unsafe { f32p::portable::run(nr, a) },
    }
}
