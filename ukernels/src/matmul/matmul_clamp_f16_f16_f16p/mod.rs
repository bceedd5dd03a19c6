//! `matmul_clamp_f16_f16_f16p`: f16 output = f16 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f16 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped;
//! FEAT_FP16 arithmetic with f16 accumulators.
//!
//! Every multiply-add rounds to f16 (`FMLA .8h` by element), so the result depends on the order
//! and is fully determined by it: from the packed bias, K values in order, then `FMIN` with the
//! upper bound and `FMAX` with the lower, both bounds rounded to f16 first (`FCVT`). Arguments,
//! checks and dispatch are shared with the f32 family (`super::float_gemm`).

asm_kernel_modules! {
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55,
}

pub use super::call::UnpackedLhsArgs as Args;
