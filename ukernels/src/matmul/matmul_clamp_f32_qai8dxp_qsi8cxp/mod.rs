//! `matmul_clamp_f32_qai8dxp_qsi8cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int8 RHS (per channel, symmetric), plus bias, clamped.
//!
//! Same arguments and arithmetic as the int4 family (`acc = sum(lq * w) + lhs_offset * rsum`,
//! then `f32(acc) * (rscale * lhs_scale) + bias`, FMAX/FMIN), with plain int8 weights.
//!
//! # Packed operands
//!
//! In terms of a kernel's tile (`mr`, `nr`, `kr`; `sr = 1` throughout; `4vl` is 4 x SVL32, `2vl`
//! 2 x VL32) and `k_int = roundup(k, 32)` (the packers pad K with zeros):
//! - LHS ([`lhs_quant_pack_qai8dxp`]): groups of `mr` rows, `mr * (k_int + 8)` bytes each
//!   ([`layout::qai8dxp::stride`]): the int8 values in chunks of `kr / sr` K values of each row
//!   in turn, then `lhs_offset: [i32; mr]` (negated zero points) and `lhs_scale: [f32; mr]`.
//! - RHS ([`rhs_pack_qsi8cxp_qsi8cx`]): groups of `nr` columns, `nr * (k_int + 12)` bytes each
//!   ([`layout::qsi8cxp::stride`]): per `kr`-value chunk of K, the chunk of each column in turn,
//!   then `rsum: [i32; nr]`, `rscale: [f32; nr]`, `bias: [f32; nr]`.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row` (`n` f16 values for the
//!   `f16` forms of the SME2 kernels).
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`, `k >= 1`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer; `dst_stride_row` should be a multiple of 4 (any value works on
//!   CPUs that allow unaligned accesses, as Linux on Arm64 does).
//!
//! [`lhs_quant_pack_qai8dxp`]: crate::pack::lhs_quant_pack_qai8dxp
//! [`rhs_pack_qsi8cxp_qsi8cx`]: crate::pack::rhs_pack_qsi8cxp_qsi8cx
//! [`layout::qai8dxp::stride`]: crate::layout::qai8dxp::stride
//! [`layout::qsi8cxp::stride`]: crate::layout::qsi8cxp::stride

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

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    Epilogue, SME_DOT, SME2_DOT, SME2_MOPA, kernel_entries, kernel_entry, narrowed_kernel, native,
    streaming_entry, vla_qai8dxp_kernel,
};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qai8dxp::{
    lhs_quant_pack_qai8dxp_f16_neon, lhs_quant_pack_qai8dxp_f32,
};
use crate::pack::rhs_pack_qsi8cxp_qsi8cx::{
    rhs_pack_kxn_qsi8cxp_qsi8cx_neon, rhs_pack_nxk_qsi8cxp_qsi8cx_neon,
};

const QAI8DXP_F32_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f32];
const QAI8DXP_F16_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f16_neon];
const QSI8CXP_RHS: &[&Packer] = &[
    &rhs_pack_nxk_qsi8cxp_qsi8cx_neon,
    &rhs_pack_kxn_qsi8cxp_qsi8cx_neon,
];

/// A kernel of `matmul_clamp_f32_qai8dxp_qsi8cxp` whose asm lives in the module named like it.
macro_rules! f32_qai8dxp_qsi8cxp_kernel {
    ($(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt) => {
        kernel_entry!($(#[$doc])* $stem, F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS,
            $isa, $tile, native!(self::$stem));
    };
}

kernel_entries! {
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod: f32_qai8dxp_qsi8cxp_kernel!(
        NeonDotprod, [1, 4, 1, 4, 4, 1]);
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod: f32_qai8dxp_qsi8cxp_kernel!(
        NeonDotprod, [1, 4, 1, 4, 8, 1]);
    /// GEMM, 16 rows x 4 columns per step, SDOT by element.
    matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod: f32_qai8dxp_qsi8cxp_kernel!(
        NeonDotprod, [16, 4, 4, 4, 4, 1]);
    /// GEMM, 16 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm: f32_qai8dxp_qsi8cxp_kernel!(
        NeonI8mm, [16, 4, 4, 4, 8, 1]);
    /// GEMV, 1 row x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi8cxp, QSI8CXP_RHS, Sve2Dotprod, [1, 2, 1, 2, 8, 1], self);
    /// GEMM, 4 rows x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi8cxp, QSI8CXP_RHS, Sve2Dotprod, [4, 2, 4, 2, 8, 1], self);
    /// GEMM, 8 rows x 2 x VL32 columns per step, SVE SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi8cxp, QSI8CXP_RHS, Sve2I8mm, [8, 2, 4, 2, 8, 1], self);
    /// GEMV, 1 row x 4 x SVL32 columns per step, SME2 multi-vector `SDOT` into ZA.
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot: streaming_entry!(
        F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS, Sme2, [1, 4, 1, 4, 4, 1], PerSmeLane32,
        SME2_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot);
    /// GEMV, 1 row x 4 x SVL32 columns per step, streaming SVE `SDOT`.
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot: streaming_entry!(
        F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS, Sme, [1, 4, 1, 4, 4, 1], PerSmeLane32,
        SME_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot);
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles, SME2 epilogue.
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa: streaming_entry!(
        F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        RowsAndColumnsPerSmeLane32, SME2_MOPA,
        self::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa);
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles.
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa: streaming_entry!(
        F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS, Sme, [1, 4, 1, 4, 4, 1],
        RowsAndColumnsPerSmeLane32, Epilogue::VECTOR,
        self::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa);
    /// f16 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f16_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, NeonDotprod, [1, 4, 1, 4, 4, 1],
        self::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod);
    /// f16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f16_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, NeonDotprod, [1, 4, 1, 4, 8, 1],
        self::matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod);
    /// f16 GEMM, 16 rows x 4 columns per step, SDOT by element.
    matmul_clamp_f16_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, NeonDotprod, [16, 4, 4, 4, 4, 1],
        self::matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod);
    /// f16 GEMM, 16 rows x 4 columns per step, SMMLA.
    matmul_clamp_f16_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm: narrowed_kernel!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, NeonI8mm, [16, 4, 4, 4, 8, 1],
        self::matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm);
    /// f16 GEMV, 1 row x 4 x SVL32 columns per step, SME2 multi-vector `SDOT` into ZA.
    matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot: streaming_entry!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, Sme2, [1, 4, 1, 4, 4, 1], PerSmeLane32,
        SME2_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot::f16);
    /// f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles.
    matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa: streaming_entry!(
        F16Qai8dxpQsi8cxp, QAI8DXP_F16_LHS, QSI8CXP_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        RowsAndColumnsPerSmeLane32, SME2_MOPA,
        self::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa::f16);
}
