//! `matmul_clamp_f32_qai8dxp_qsi8cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int8 RHS (per channel, symmetric), plus bias, clamped.
//!
//! Same arguments and arithmetic as the int4 family (`acc = sum(lq * w) + lhs_offset * rsum`,
//! then `f32(acc) * (rscale * lhs_scale) + bias`, FMAX/FMIN), with plain int8 weights.

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm;

pub use super::matmul_clamp_f32_qai8dxp_qsi4cxp::{Args, RunFn};

use crate::catalog::{MatmulKernel, NativeFn, Tile};
use crate::contract::Checked;
use crate::layout;

/// Checks what the kernel requires of its arguments.
pub fn check(tile: &Tile, a: &Args) -> Checked {
    super::matmul_clamp_f32_qai8dxp_qsi4cxp::check_with_rhs(tile, a, layout::qsi8cxp::stride)
}

/// Runs `kernel`: its ISA implementation on aarch64, the portable one elsewhere.
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
        NativeFn::F32Qai8dxpQsi8cxp(f) => unsafe { f(a) },
        // SAFETY: forwarded contract.
        _ => unsafe { portable::run(&kernel.tile, a) },
    }
}
