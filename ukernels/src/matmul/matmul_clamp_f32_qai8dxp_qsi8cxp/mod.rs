//! `matmul_clamp_f32_qai8dxp_qsi8cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int8 RHS (per channel, symmetric), plus bias, clamped.
//!
//! Same arguments and arithmetic as the int4 family (`acc = sum(lq * w) + lhs_offset * rsum`,
//! then `f32(acc) * (rscale * lhs_scale) + bias`, FMAX/FMIN), with plain int8 weights.

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm,
}

pub use super::call::PackedArgs as Args;
