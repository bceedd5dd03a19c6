//! Matrix-multiplication families, one module per KleidiAI directory that has its own kernels.
//! (The f16- and bf16-output families reuse the f32 kernels of the same tile; see `output`.)

// The asm text fragments every kernel uses; first, so that their macros are in scope below.
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod asm_fragments;
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod float_template;
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod gemv_template;
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod gemm_template;
#[cfg(target_arch = "aarch64")]
mod kernel_geometry;
#[cfg(target_arch = "aarch64")]
#[macro_use]
pub mod streaming;
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod streaming_frames;
#[cfg(target_arch = "aarch64")]
#[macro_use]
mod float_mopa_template;
#[cfg(target_arch = "aarch64")]
#[macro_use]
pub mod streaming_gemv;

/// Declares an asm kernel: the function with its family's argument types (the caller names the
/// arguments) and the `run(&Args)` entry point the catalog registers, which forwards the portion
/// to it.
///
/// * `fn k(m, n, k, lhs, rhs, dst, dst_stride_row, clamp_min, clamp_max)`: the qai8dxp
///   per-channel families;
/// * `blockwise fn k(m, n, k, bl, lhs, rhs, dst, dst_stride_row, clamp_min, clamp_max)`: the
///   per-block families;
/// * `float fn` / `half fn k(m, n, k, lhs, lhs_stride, rhs, dst, dst_stride, clamp_min,
///   clamp_max)`: the f32 and f16 families (unpacked LHS, row strides in bytes; f16 bounds as
///   bits, rounded as KleidiAI does).
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! asm_kernel {
    ($(#[$a:meta])* fn $name:ident(
        $m:ident, $n:ident, $k:ident, $l:ident, $r:ident, $d:ident, $ds:ident, $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $l: *const u8, $r: *const u8, $d: *mut f32, $ds: usize,
            $lo: f32, $hi: f32) $body;
            |a| a.m, a.n, a.k, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row, a.clamp_min,
            a.clamp_max);
    };
    ($(#[$a:meta])* blockwise fn $name:ident(
        $m:ident, $n:ident, $k:ident, $bl:ident, $l:ident, $r:ident, $d:ident, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $bl: usize, $l: *const u8, $r: *const u8, $d: *mut f32,
            $ds: usize, $lo: f32, $hi: f32) $body;
            |a| a.m, a.n, a.k, a.bl, a.lhs_packed, a.rhs_packed, a.dst.cast(), a.dst_stride_row,
            a.clamp_min, a.clamp_max);
    };
    ($(#[$a:meta])* float fn $name:ident(
        $m:ident, $n:ident, $k:ident, $l:ident, $ls:ident, $r:ident, $d:ident, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $l: *const u8, $ls: usize, $r: *const u8, $d: *mut u8,
            $ds: usize, $lo: f32, $hi: f32) $body;
            |a| a.m, a.n, a.k, a.lhs, a.lhs_row_bytes(), a.rhs_packed, a.dst, a.dst_row_bytes(),
            a.clamp_min, a.clamp_max);
    };
    ($(#[$a:meta])* half fn $name:ident(
        $m:ident, $n:ident, $k:ident, $l:ident, $ls:ident, $r:ident, $d:ident, $ds:ident,
        $lo:ident, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $m: usize, $n: usize, $k: usize, $l: *const u8, $ls: usize, $r: *const u8, $d: *mut u8,
            $ds: usize, $lo: u16, $hi: u16) $body;
            |a| a.m, a.n, a.k, a.lhs, a.lhs_row_bytes(), a.rhs_packed, a.dst, a.dst_row_bytes(),
            crate::float::f16::from_f32(a.clamp_min), crate::float::f16::from_f32(a.clamp_max));
    };
    (@define [$($attr:tt)*] $name:ident($($p:ident: $t:ty),+) $body:block; |$a:ident| $($arg:expr),+) => {
        $($attr)*
        #[allow(clippy::too_many_arguments, clippy::too_many_lines)]
        pub unsafe fn $name($($p: $t),+) $body

        /// Runs the kernel on the portion described by the arguments (the entry point the catalog
        /// registers).
        ///
        /// # Safety
        /// The family's `check` passed, the buffers cover the portion, and the CPU implements the
        /// kernel's ISA.
        pub unsafe fn run($a: &super::Args) {
            // SAFETY: forwarded contract; the family's `run` guarantees m, n >= 1.
            unsafe { $name($($arg),+) }
        }
    };
}

/// Declares the modules of a family's asm kernels, one file each, compiled on aarch64 only.
macro_rules! asm_kernel_modules {
    ($($(#[$doc:meta])* $module:ident),+ $(,)?) => {
        $(
            $(#[$doc])*
            #[cfg(target_arch = "aarch64")]
            pub mod $module;
        )+
    };
}

pub mod args;
pub mod bf16_gemm;
pub mod call;
pub mod float_gemm;
pub mod imatmul_clamp_f16_f16p_f16p;
pub mod imatmul_clamp_f32_f32_f32p;
pub mod imatmul_clamp_f32_f32p_f32p;
pub mod imatmul_clamp_qai8_qai8p_qsi8cxp;
pub mod matmul_clamp_f16_f16_f16p;
pub mod matmul_clamp_f16_f16p_f16p;
pub mod matmul_clamp_f32_f16p_qsi4c32p;
pub mod matmul_clamp_f32_f32_f32p;
pub mod matmul_clamp_f32_f32p_f32p;
pub mod matmul_clamp_f32_qai8dxp_qsi4c32p;
pub mod matmul_clamp_f32_qai8dxp_qsi4cxp;
pub mod matmul_clamp_f32_qai8dxp_qsi8cxp;
pub mod matmul_clamp_f32_qai8dxp_qsu2cxp;
pub mod matmul_clamp_f32_qsi8d32p_qai4c32p;
pub mod matmul_clamp_f32_qsi8d32p_qsi4c32p;
pub mod matmul_clamp_fp32_bf16p_bf16p;
pub mod matmul_clamp_qai8_qai8_qsi8cxp;
pub mod matmul_clamp_qai8_qai8p_qsi8cxp;
pub mod offsets;
pub mod output;
mod passes;
pub mod qai8dxp;
pub(crate) mod qai8dxp_portable;
pub mod uker;
