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

pub use super::args::UnpackedLhsArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, Epilogue, kernel_entries, kernel_entry, native};
use crate::pack::kinds::Packer;
use crate::pack::rhs_pack_float::{
    rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon, rhs_pack_kxn_x16p32x1b_x16_x16_neon,
    rhs_pack_nxk_x16p32x1bx16_x16_x16_neon,
};

const NO_LHS_PACKER: &[&Packer] = &[];
const X16P32X1B_RHS: &[&Packer] = &[
    &rhs_pack_kxn_x16p32x1b_x16_x16_neon,
    &rhs_pack_nxk_x16p32x1bx16_x16_x16_neon,
];
const F16P16X1BIASF16_RHS: &[&Packer] = &[&rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon];

/// A kernel of `matmul_clamp_f16_f16_f16p` (no LHS packer): RHS packer list and the module
/// holding its asm.
macro_rules! f16_f16_f16p_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $rhs:ident,
        $asserts:expr
    ) => {
        kernel_entry!($(#[$doc])* $stem, F16F16F16p, NO_LHS_PACKER, $rhs, $isa, $tile,
            native!(unpacked self::$stem), KleidiAi, Fixed, Any, Epilogue::VECTOR, $asserts);
    };
}

kernel_entries! {
    /// f16 GEMM, 6 rows x 32 columns per step, FMLA by element on halves (out-of-order cores).
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla: f16_f16_f16p_kernel!(
        NeonFp16, [6, 32, 1, 32, 1, 1], X16P32X1B_RHS, Asserts::IGNORING_DST_STRIDE_COL);
    /// f16 GEMM, 6 rows x 32 columns per step, scheduled for in-order Cortex-A55.
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55: f16_f16_f16p_kernel!(
        NeonFp16, [6, 32, 1, 32, 1, 1], X16P32X1B_RHS, Asserts::IGNORING_DST_STRIDE_COL);
    /// f16 GEMM, 6 rows x 16 columns per step, FMLA by element over 8 K values per iteration.
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla: f16_f16_f16p_kernel!(
        NeonFp16, [6, 16, 1, 16, 1, 1], F16P16X1BIASF16_RHS, Asserts::USUAL);
}
