//! `matmul_clamp_f16_f16_f16p`: f16 output = f16 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f16 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped;
//! FEAT_FP16 arithmetic with f16 accumulators.
//!
//! Every multiply-add rounds to f16 (`FMLA .8h` by element), so the result depends on the order
//! and is fully determined by it: from the packed bias, K values in order, then `FMIN` with the
//! upper bound and `FMAX` with the lower, both bounds rounded to f16 first (`FCVT`). Arguments,
//! checks and dispatch are shared with the f32 family (`super::float_gemm`).

/// Defines the variant's `run(&Args)`, which forwards the portion to the asm function `$kernel`
/// (m, n, k, lhs, lhs row bytes, rhs_packed, dst, dst row bytes, clamp_min and clamp_max as f16
/// bits).
#[cfg(target_arch = "aarch64")]
macro_rules! half_kernel_entry {
    ($kernel:ident) => {
        /// Runs the kernel on the portion described by `a` (the entry point the catalog
        /// registers): row strides in whole elements and the bounds rounded to f16, as KleidiAI
        /// does.
        ///
        /// # Safety
        /// The family's `check` passed, `m`, `n` >= 1, the buffers cover the portion, and the
        /// CPU implements FEAT_FP16.
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
                    crate::float::f16::from_f32(a.clamp_min),
                    crate::float::f16::from_f32(a.clamp_max),
                )
            }
        }
    };
}

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55;

pub use super::call::UnpackedLhsArgs as Args;
