//! `matmul_clamp_f32_qai8dxp_qsi4c32p`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int4 RHS with one bf16 scale per block of `bl` K values, plus bias, clamped.
//!
//! For row i and column j (`lq` packed LHS values, `w16` = 16 x int4 weight, `d` the block
//! scales widened to f32, trailers as packed), all in f32 with fused multiply-adds:
//! `acc = sum over blocks b of fma(f32(I_b) / 16, d[j][b], acc)` where
//! `I_b = sum_{k in b} lq * w16` (i32); then `acc = fma(rsum[j], f32(lhs_offset[i]), acc)`,
//! `y = acc * lhs_scale[i] + bias[j]` (multiply and add not fused), clamped with `FMAX` then
//! `FMIN`. KleidiAI's SVE sibling `..._qsi4c32p8x4_1x8_sve_dotprod` shows the same sequence.
//!
//! The SME2 kernels (`..._qsi4c32p4vlx4_...`) read the `ps1s0` data order of their own packers
//! and finish as their catalog `Epilogue` says: the `1x4vl` GEMV fuses `acc * lhs_scale + bias`
//! into one `FMLA`, the `1vlx4vl` GEMM starts each accumulator with `FMUL` by the first block's
//! scale instead of an `FMLA` into `+0`, and both clamp with `FCLAMP` (`FMAXNM`, `FMINNM`).

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm,
    // rkai extensions: vector-length-agnostic SVE2 kernels (nr = VL32, kr 16, sr 2).
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm,
}

pub use super::call::PackedArgs as Args;
