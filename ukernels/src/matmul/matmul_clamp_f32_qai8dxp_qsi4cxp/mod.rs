//! `matmul_clamp_f32_qai8dxp_qsi4cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int4 RHS (per channel, symmetric), plus bias, clamped.
//!
//! For row i and column j (`lq` packed LHS values, `w16` = 16 x int4 weight, trailers as packed):
//! `acc = sum(lq * w16) + lhs_offset[i] * rsum[j]` in wrapping i32; then
//! `y = f32(acc) * (rscale[j] * lhs_scale[i]) + bias[j]` (multiply and add not fused), clamped
//! with `FMAX` then `FMIN`.

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm,
}

pub use super::call::PackedArgs as Args;
