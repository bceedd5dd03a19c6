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

pub use super::call::UnpackedLhsArgs as Args;
use super::output::Output;
use super::{matmul_clamp_f16_f16_f16p as f16p, matmul_clamp_f32_f32_f32p as f32p};
use crate::catalog::MatmulKernel;
use crate::contract::{self, Checked};

/// Kernels that assert `dst_stride_col == sizeof(element)`; the others ignore it, as KleidiAI's do.
pub const CHECKS_DST_STRIDE_COL: &[&str] = &[
    "matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla",
    "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla",
];

/// Checks what `kernel` requires of its arguments: KleidiAI's assertion, non-null buffers, a
/// destination row stride that holds a row, and a packed size that does not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let out = kernel.family.output();
    contract::require(a.elem == out.size(), "element size of the family")?;
    if CHECKS_DST_STRIDE_COL.contains(&kernel.stem) {
        contract::require(a.dst_stride_col == a.elem, out.size_condition())?;
    }
    kernel
        .family
        .rhs_layout(0)
        .stride(a.k, kernel.tile().nr, 1, 1)?;
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
    match kernel.native.unpacked_lhs() {
        // SAFETY (every arm): forwarded contract.
        Some(f) => unsafe { f(a) },
        None if kernel.family.output() == Output::F16 => unsafe { f16p::portable::run(nr, a) },
        None => unsafe { f32p::portable::run(nr, a) },
    }
}
