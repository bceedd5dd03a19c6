//! Matrix-multiplication families, one module per KleidiAI directory that has its own kernels.
//! (The f16- and bf16-output families reuse the f32 kernels of the same tile; see `output`.)

// The asm text fragments every kernel uses; first, so that their macros are in scope below.
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod asm_fragments;

/// Defines a variant's catalog entry point `run(&Args)`, which forwards the portion to the
/// variant's asm kernel function `$kernel` (signature: m, n, k, lhs, rhs, dst, dst_stride_row,
/// clamp_min, clamp_max).
#[cfg(target_arch = "aarch64")]
macro_rules! asm_kernel_entry {
    ($kernel:ident) => {
        /// Runs the kernel on the portion described by `a` (the entry point the catalog registers).
        ///
        /// # Safety
        /// The family's `check` passed, the buffers cover the portion, and the CPU implements the
        /// kernel's ISA.
        pub unsafe fn run(a: &super::Args) {
            // SAFETY: forwarded contract; the family's `run` guarantees m, n >= 1.
            unsafe {
                $kernel(
                    a.m,
                    a.n,
                    a.k,
                    a.lhs_packed,
                    a.rhs_packed,
                    a.dst.cast(),
                    a.dst_stride_row,
                    a.clamp_min,
                    a.clamp_max,
                )
            }
        }
    };
}

/// [`asm_kernel_entry`] for the per-block families: the kernel also takes the block length
/// (signature: m, n, k, bl, lhs, rhs, dst, dst_stride_row, clamp_min, clamp_max).
#[cfg(target_arch = "aarch64")]
#[allow(unused_macros)]
macro_rules! blockwise_asm_kernel_entry {
    ($kernel:ident) => {
        /// Runs the kernel on the portion described by `a` (the entry point the catalog registers).
        ///
        /// # Safety
        /// The family's `check` passed, the buffers cover the portion, and the CPU implements the
        /// kernel's ISA.
        pub unsafe fn run(a: &super::Args) {
            // SAFETY: forwarded contract; the family's `run` guarantees m, n >= 1.
            unsafe {
                $kernel(
                    a.m,
                    a.n,
                    a.k,
                    a.bl,
                    a.lhs_packed,
                    a.rhs_packed,
                    a.dst.cast(),
                    a.dst_stride_row,
                    a.clamp_min,
                    a.clamp_max,
                )
            }
        }
    };
}

pub mod bf16_gemm;
pub mod call;
pub mod float_gemm;
pub mod matmul_clamp_f16_f16_f16p;
pub mod matmul_clamp_f32_f32_f32p;
pub mod matmul_clamp_f32_qai8dxp_qsi4c32p;
pub mod matmul_clamp_f32_qai8dxp_qsi4cxp;
pub mod matmul_clamp_f32_qai8dxp_qsi8cxp;
pub mod matmul_clamp_f32_qsi8d32p_qai4c32p;
pub mod matmul_clamp_f32_qsi8d32p_qsi4c32p;
pub mod offsets;
pub mod output;
pub mod qai8dxp;
pub(crate) mod qai8dxp_portable;
