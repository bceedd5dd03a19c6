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
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min,
//! clamp_max)` of the family, with `nr` its tile's, requires, besides the CPU features its own
//! `# Safety` names:
//! * `m >= 1`, `n >= 1`; `lhs_stride` and `dst_stride` (bytes) are multiples of 4.
//! * LHS row `i < m` is readable for `k` floats at `lhs + i * lhs_stride` (unaligned is fine).
//! * `rhs_packed` is readable for `ceil(n / nr)` groups of `4 * nr * (k + 1)` bytes (`nr`
//!   biases, then `nr` values per K value).
//! * For every `i < m`, `j < n`, the 4 bytes at `dst + i * dst_stride + 4 * j` are writable and
//!   overlap neither input. Nothing else is written.

asm_kernel_modules! {
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla,
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55,
    matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla,
    matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla,
}

pub use super::call::UnpackedLhsArgs as Args;
