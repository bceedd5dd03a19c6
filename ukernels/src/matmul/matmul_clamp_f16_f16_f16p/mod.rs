//! `matmul_clamp_f16_f16_f16p`: f16 output = f16 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f16 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped;
//! FEAT_FP16 arithmetic with f16 accumulators.
//!
//! Every multiply-add rounds to f16 (`FMLA .8h` by element), so the result depends on the order
//! and is fully determined by it: from the packed bias, K values in order, then `FMIN` with the
//! upper bound and `FMAX` with the lower, both bounds rounded to f16 first (`FCVT`). Arguments,
//! checks and dispatch are shared with the f32 family (`super::float_gemm`).

/// Clamps the half accumulators `v$r...`: `FMIN` with the upper bound in `v0`, then `FMAX` with
/// the lower bound in `v1`.
#[cfg(target_arch = "aarch64")]
macro_rules! clamp_halves {
    ($($r:literal),*) => {
        concat!(
            $(concat!("fmin v", $r, ".8h, v", $r, ".8h, v0.8h\n"),)*
            $(concat!("fmax v", $r, ".8h, v", $r, ".8h, v1.8h\n"),)*
        )
    };
}

/// Stores the first `x25` (1..=32) halves of a tile row held in `v$a`..`v$d` at `x23`.
/// Clobbers `x26` and the four registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row32h {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            "cmp x25, #32\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            concat!("stp q", $c, ", q", $d, ", [x23, #32]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            "tbz x25, #4, 2f\n",
            concat!("stp q", $a, ", q", $b, ", [x26], #32\n"),
            concat!("mov v", $a, ".16b, v", $c, ".16b\n"),
            concat!("mov v", $b, ".16b, v", $d, ".16b\n"),
            "2:\n",
            store_tail16h!($a, $b),
            "9:\n",
        )
    };
}

/// Stores the first `x25` (1..=16) halves of a tile row held in `v$a`, `v$b` at `x23`.
/// Clobbers `x26` and both registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row16h {
    ($a:literal, $b:literal) => {
        concat!(
            "cmp x25, #16\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            store_tail16h!($a, $b),
            "9:\n",
        )
    };
}

/// The last `x25 % 16` halves of a row whose next values are in `v$a`, `v$b`, at `x26`.
#[cfg(target_arch = "aarch64")]
macro_rules! store_tail16h {
    ($a:literal, $b:literal) => {
        concat!(
            "tbz x25, #3, 3f\n",
            concat!("str q", $a, ", [x26], #16\n"),
            concat!("mov v", $a, ".16b, v", $b, ".16b\n"),
            "3:\n",
            "tbz x25, #2, 4f\n",
            concat!("str d", $a, ", [x26], #8\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #8\n"),
            "4:\n",
            "tbz x25, #1, 5f\n",
            concat!("str s", $a, ", [x26], #4\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #4\n"),
            "5:\n",
            "tbz x25, #0, 9f\n",
            concat!("str h", $a, ", [x26]\n"),
        )
    };
}

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
