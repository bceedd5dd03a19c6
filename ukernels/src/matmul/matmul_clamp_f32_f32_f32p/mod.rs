//! `matmul_clamp_f32_f32_f32p`: f32 output = f32 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f32 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped.
//!
//! Numerics (KleidiAI's kernels, which come from Arm's "hybrid" GEMM generator): every output
//! starts from its column's packed bias and takes one fused multiply-add per K value in K order
//! (`acc = fma(b[k][j], a[i][k], acc)`, `FMLA` by element), then `FMIN` with the upper bound and
//! `FMAX` with the lower. The order is fully determined, so every implementation (NEON, SVE,
//! portable) gives the same bits, NaNs included (see [`crate::float::fmla`]).
//!
//! The streaming GEMVs (`_1x8vl_sme_mla`, `_1x16vl_sme2_mla`) compute one row per call
//! (KleidiAI asserts `m == 1`) in the same chain; the SME2 ones accumulate in ZA, whose NaN
//! results are the default NaN, and clamp with `FCLAMP` (see `super::float_gemm`). With `k = 0`
//! they give the clamped bias, as every kernel of the family; KleidiAI's streaming GEMVs then
//! still run one K step, with a zeroed LHS value and an RHS row read past the group's biases
//! (a `-0` bias can come out `+0`, and an infinity or NaN read there gives NaN).
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
    matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla,
    matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla,
    matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla,
}

pub use super::args::UnpackedLhsArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    Asserts, Clamp, Epilogue, kernel_entries, kernel_entry, native, streaming_entry,
};
use crate::pack::kinds::Packer;
use crate::pack::rhs_pack_float::{
    rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme, rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon,
    rhs_pack_kxn_f32p16vlx1b_f32_f32_sme, rhs_pack_kxn_x32p4vlx1b_x32_x32_sve,
    rhs_pack_kxn_x32p16x1b_x32_x32_neon, rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme,
    rhs_pack_nxk_x32p16x1bx32_x32_x32_neon,
};

const NO_LHS_PACKER: &[&Packer] = &[];
const X32P16X1B_RHS: &[&Packer] = &[
    &rhs_pack_kxn_x32p16x1b_x32_x32_neon,
    &rhs_pack_nxk_x32p16x1bx32_x32_x32_neon,
];
const F32P8X1BIASF32_RHS: &[&Packer] = &[&rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon];
const X32P4VLX1B_RHS: &[&Packer] = &[&rhs_pack_kxn_x32p4vlx1b_x32_x32_sve];
/// The `2vl` SME layout: KleidiAI pairs its GEMVs with the K x N packer; the N x K one (paired
/// with its SME GEMM) writes the same bytes.
const F32P2VLX1BIASF32_SME_RHS: &[&Packer] = &[
    &rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme,
    &rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme,
];
const F32P16VLX1B_SME_RHS: &[&Packer] = &[&rhs_pack_kxn_f32p16vlx1b_f32_f32_sme];

/// The SME2 GEMVs' finish: the family's chain accumulated in ZA, then `FCLAMP`.
const SME2_MLA: Epilogue = Epilogue {
    clamp: Clamp::MaxNumThenMinNum,
    ..Epilogue::VECTOR
};

/// A kernel of `matmul_clamp_f32_f32_f32p` (no LHS packer): RHS packer list, column scaling and
/// the module holding its asm.
macro_rules! f32_f32_f32p_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $rhs:ident,
        $columns:ident, $asserts:expr
    ) => {
        kernel_entry!($(#[$doc])* $stem, F32F32F32p, NO_LHS_PACKER, $rhs, $isa, $tile,
            native!(unpacked self::$stem), KleidiAi, $columns, Any, Epilogue::VECTOR, $asserts);
    };
}

kernel_entries! {
    /// f32 GEMM, 6 rows x 16 columns per step, FMLA by element (out-of-order cores).
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla: f32_f32_f32p_kernel!(
        Neon, [6, 16, 1, 16, 1, 1], X32P16X1B_RHS, Fixed, Asserts::IGNORING_DST_STRIDE_COL);
    /// f32 GEMM, 6 rows x 16 columns per step, scheduled for in-order Cortex-A55 (64-bit loads
    /// paired with FMLAs).
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55: f32_f32_f32p_kernel!(
        Neon, [6, 16, 1, 16, 1, 1], X32P16X1B_RHS, Fixed, Asserts::IGNORING_DST_STRIDE_COL);
    /// f32 GEMM, 6 rows x 8 columns per step, FMLA by element over 4 K values per iteration.
    matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla: f32_f32_f32p_kernel!(
        Neon, [6, 8, 1, 8, 1, 1], F32P8X1BIASF32_RHS, Fixed, Asserts::USUAL);
    /// f32 GEMM, 6-row blocks x 4 SVE vectors of columns (m_step 1, as KleidiAI reports),
    /// vector-length agnostic.
    matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla: f32_f32_f32p_kernel!(
        Sve, [1, 4, 1, 4, 1, 1], X32P4VLX1B_RHS, PerSveLane32, Asserts::IGNORING_DST_STRIDE_COL);
    /// f32 GEMV, one row x 8 streaming vectors of columns per step, streaming SVE `FMLA` (SME).
    matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla: streaming_entry!(
        F32F32F32p, NO_LHS_PACKER, F32P2VLX1BIASF32_SME_RHS, Sme, [1, 8, 1, 2, 1, 1],
        PerSmeLane32, Epilogue::VECTOR,
        unpacked self::matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla, One,
        Asserts::IGNORING_DST_STRIDE_COL);
    /// f32 GEMV, one row x 16 streaming vectors of columns per step, multi-vector `FMLA` into ZA
    /// (SME2), on the `2vl` layout.
    matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla: streaming_entry!(
        F32F32F32p, NO_LHS_PACKER, F32P2VLX1BIASF32_SME_RHS, Sme2, [1, 16, 1, 2, 1, 1],
        PerSmeLane32, SME2_MLA,
        unpacked self::matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla, One,
        Asserts::IGNORING_DST_STRIDE_COL);
    /// f32 GEMV, one row x 16 streaming vectors of columns per step, multi-vector `FMLA` into ZA
    /// (SME2), on the `16vl` layout.
    matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla: streaming_entry!(
        F32F32F32p, NO_LHS_PACKER, F32P16VLX1B_SME_RHS, Sme2, [1, 16, 1, 16, 1, 1],
        PerSmeLane32, SME2_MLA,
        unpacked self::matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla, One,
        Asserts::IGNORING_DST_STRIDE_COL);
}
