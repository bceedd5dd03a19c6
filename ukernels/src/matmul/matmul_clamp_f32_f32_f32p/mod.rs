//! `matmul_clamp_f32_f32_f32p`: f32 output = f32 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f32 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped.
//!
//! Numerics (KleidiAI's kernels, which come from Arm's "hybrid" GEMM generator): every output
//! starts from its column's packed bias and takes one fused multiply-add per K value in K order
//! (`acc = fma(b[k][j], a[i][k], acc)`, `FMLA` by element), then `FMIN` with the upper bound and
//! `FMAX` with the lower. The order is fully determined, so every implementation (NEON, SVE,
//! portable) gives the same bits, NaNs included (see [`crate::float::fmla`]).
//!
//! Arguments, checks and dispatch are shared with the f16 family (`super::float_gemm`).

/// Defines the variant's `run(&Args)`, which forwards the portion to the asm function `$kernel`
/// (m, n, k, lhs, lhs row bytes, rhs_packed, dst, dst row bytes, clamp_min, clamp_max).
#[cfg(target_arch = "aarch64")]
macro_rules! float_kernel_entry {
    ($kernel:ident) => {
        /// Runs the kernel on the portion described by `a` (the entry point the catalog
        /// registers): row strides in whole elements, as KleidiAI reads them.
        ///
        /// # Safety
        /// The family's `check` passed, `m`, `n` >= 1, the buffers cover the portion, and the
        /// CPU implements the kernel's ISA.
        pub unsafe fn run(a: &super::Args) {
            // SAFETY: forwarded contract.
            unsafe {
                $kernel(
                    a.m,
                    a.n,
                    a.k,
                    a.lhs,
                    a.lhs_row_bytes(),
                    a.rhs_packed,
                    a.dst,
                    a.dst_row_bytes(),
                    a.clamp_min,
                    a.clamp_max,
                )
            }
        }
    };
}

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla;

pub use super::call::UnpackedLhsArgs as Args;
