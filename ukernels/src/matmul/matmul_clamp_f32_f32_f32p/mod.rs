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

/// Clamps the accumulators `v$r...`: `FMIN` with the upper bound in `v0`, then `FMAX` with the
/// lower bound in `v1` (KleidiAI's order).
#[cfg(target_arch = "aarch64")]
macro_rules! clamp_accumulators {
    ($($r:literal),*) => {
        concat!(
            $(concat!("fmin v", $r, ".4s, v", $r, ".4s, v0.4s\n"),)*
            $(concat!("fmax v", $r, ".4s, v", $r, ".4s, v1.4s\n"),)*
        )
    };
}

/// Stores the first `x25` (1..=16) columns of a tile row held in `v$a`..`v$d` at `x23`.
/// Clobbers `x26` and the four registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row16 {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            "cmp x25, #16\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            concat!("stp q", $c, ", q", $d, ", [x23, #32]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            "tbz x25, #3, 2f\n",
            concat!("stp q", $a, ", q", $b, ", [x26], #32\n"),
            concat!("mov v", $a, ".16b, v", $c, ".16b\n"),
            concat!("mov v", $b, ".16b, v", $d, ".16b\n"),
            "2:\n",
            store_tail8!($a, $b),
            "9:\n",
        )
    };
}

/// Stores the first `x25` (1..=8) columns of a tile row held in `v$a`, `v$b` at `x23`.
/// Clobbers `x26` and both registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row8 {
    ($a:literal, $b:literal) => {
        concat!(
            "cmp x25, #8\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            store_tail8!($a, $b),
            "9:\n",
        )
    };
}

/// The last `x25 % 8` columns of a row whose next values are in `v$a`, `v$b`, at `x26`.
#[cfg(target_arch = "aarch64")]
macro_rules! store_tail8 {
    ($a:literal, $b:literal) => {
        concat!(
            "tbz x25, #2, 3f\n",
            concat!("str q", $a, ", [x26], #16\n"),
            concat!("mov v", $a, ".16b, v", $b, ".16b\n"),
            "3:\n",
            "tbz x25, #1, 4f\n",
            concat!("str d", $a, ", [x26], #8\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #8\n"),
            "4:\n",
            "tbz x25, #0, 9f\n",
            concat!("str s", $a, ", [x26]\n"),
        )
    };
}

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
