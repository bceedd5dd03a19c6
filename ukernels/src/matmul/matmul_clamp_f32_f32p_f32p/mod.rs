//! `matmul_clamp_f32_f32p_f32p`: KleidiAI's SME f32 GEMMs. f32 output = f32 LHS x f32 RHS (both
//! packed in streaming-length tiles) + f32 bias, clamped. The operands are the packed-float
//! format ([`Operands::PackedFloat`] of f32 values): checks, dispatch and the portable path are
//! [`crate::matmul::bf16_gemm`]'s, the kernels the SME packed-float template's
//! (`matmul::float_mopa_template`, shared with the SME bf16 and f16 families) with `FMOPA` on
//! f32 and `kr` = 1.
//!
//! # Packed operands
//!
//! With `vl` = SVL32 (32-bit lanes of the streaming vector), `mr = nr = 2 vl` and `kr = 1`:
//! - LHS ([`lhs_pack_f32p2vlx1_f32_sme`]): blocks of `mr` rows, `mr * k * 4` bytes each: per K
//!   value, that value of each row in turn; rows past `m` are zeros.
//! - RHS ([`rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme`], [`rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme`]):
//!   groups of `nr` columns, `nr * (1 + k) * 4` bytes each: the `nr` biases, then per K value
//!   that value of each column in turn; columns past `n` are zeros.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`; `dst_stride_col` is
//!   ignored (neither kernel asserts it, as in KleidiAI).
//!
//! # Numerics ([`Accumulation::OuterProducts`])
//!
//! Each `mr` x `nr` tile is four ZA tiles. They are zeroed, then `FMOPA` adds `1.0 x bias` (so a
//! `-0` bias becomes `+0` and a NaN the default NaN; [`za_bias`]); then each K value adds
//! `FMOPA`'s fused step `acc + a * b` (one rounding, ties to even, subnormals kept with
//! FPCR.FZ = 0, any NaN the default NaN: [`crate::float::fmopa`]), in K order. Both kernels do
//! this; KleidiAI's SME2 kernel is named `biasf32` and its SME one `b`, but both read the same
//! f32 biases at the front of each group and enter them the same way. Last the clamp: `FMIN`
//! with `clamp_max`, then `FMAX` with `clamp_min` (SME), or `FCLAMP` (SME2); see [`clamp`].
//! `FMOPA` on f32 is an IEEE fused multiply-add: hardware and QEMU agree to the bit.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`, `k >= 1` (`k` = 0 runs the portable path: the clamped bias).
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS blocks and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`Operands::PackedFloat`]: crate::family::Operands::PackedFloat
//! [`lhs_pack_f32p2vlx1_f32_sme`]: crate::pack::lhs_pack_sme_rows::lhs_pack_f32p2vlx1_f32_sme
//! [`rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme`]: crate::pack::rhs_pack_float::rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
//! [`rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme`]: crate::pack::rhs_pack_float::rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme
//! [`Accumulation::OuterProducts`]: crate::matmul::bf16_gemm::Accumulation::OuterProducts
//! [`za_bias`]: crate::matmul::bf16_gemm::za_bias
//! [`clamp`]: crate::matmul::bf16_gemm::clamp

asm_kernel_modules! {
    matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa,
    matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa,
}

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_sme_rows::lhs_pack_f32p2vlx1_f32_sme;
use crate::pack::rhs_pack_float::{
    rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme, rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme,
};

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_pack_f32p2vlx1_f32_sme];
/// The RHS packers of both kernels (K x N and N x K sources, the same format).
const RHS: &[&Packer] = &[
    &rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme,
    &rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme,
];

kernel_entries! {
    /// f32 GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `FMOPA` into four ZA tiles,
    /// `FMIN`/`FMAX`.
    matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa: float_mopa_entry!(
        F32F32pF32p, LHS, RHS, Sme, kr 1,
        self::matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa);
    /// f32 GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `FMOPA` into four ZA tiles,
    /// `FCLAMP`.
    matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa: float_mopa_entry!(
        F32F32pF32p, LHS, RHS, Sme2, kr 1,
        self::matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa);
}
