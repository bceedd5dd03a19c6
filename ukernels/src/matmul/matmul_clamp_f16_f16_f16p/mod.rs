//! `matmul_clamp_f16_f16_f16p`: f16 output = f16 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f16 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped;
//! FEAT_FP16 arithmetic with f16 accumulators.
//!
//! Every multiply-add rounds to f16 (`FMLA .8h` by element), so the result depends on the order
//! and is fully determined by it: from the packed bias, K values in order, then `FMIN` with the
//! upper bound and `FMAX` with the lower, both bounds rounded to f16 first (`FCVT`). Arguments,
//! checks and dispatch are shared with the f32 family (`super::float_gemm`).
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min,
//! clamp_max)` of the family, with `nr` its tile's, requires, besides the CPU features its own
//! `# Safety` names (FEAT_FP16 among them):
//! * `m >= 1`, `n >= 1`; `lhs_stride` and `dst_stride` (bytes) are even.
//! * `clamp_min` and `clamp_max` are f16 bits.
//! * LHS row `i < m` is readable for `k` halves at `lhs + i * lhs_stride` (unaligned is fine).
//! * `rhs_packed` is readable for `ceil(n / nr)` groups of `2 * nr * (k + 1)` bytes (`nr`
//!   biases, then `nr` values per K value).
//! * For every `i < m`, `j < n`, the 2 bytes at `dst + i * dst_stride + 2 * j` are writable and
//!   overlap neither input. Nothing else is written.

asm_kernel_modules! {
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55,
}

pub use super::call::UnpackedLhsArgs as Args;
