//! `matmul_clamp_f16_f16p_f16p`: KleidiAI's SME f16 GEMMs. f16 output = f16 LHS x f16 RHS (both
//! packed in streaming-length tiles) + f16 bias, accumulated in f32, clamped. The operands are
//! the packed-float format ([`Operands::PackedFloat`] of halves): checks, dispatch and the
//! portable path are [`crate::matmul::bf16_gemm`]'s, the kernels the SME packed-float template's
//! (`matmul::float_mopa_template`, shared with the SME bf16 and f32 families) with the widening
//! `FMOPA` on halves, `kr` = 2 and f16 stores.
//!
//! # Packed operands
//!
//! With `vl` = SVL32 (32-bit lanes of the streaming vector), `mr = nr = 2 vl`, `kr = 2` and
//! `kp = roundup(k, 2)`:
//! - LHS ([`lhs_pack_x16p2vlx2_x16_sme`]): blocks of `mr` rows, `mr * kp * 2` bytes each: per
//!   pair of K values, the pair of each row in turn; K and the rows past `m` padded with zeros.
//! - RHS ([`rhs_pack_kxn_x16p2vlx2b_x16_x16_sme`], [`rhs_pack_nxk_x16p2vlx2b_x16_x16_sme`]): groups
//!   of `nr` columns, `nr * (1 + kp) * 2` bytes each: the `nr` f16 biases, then per pair of K
//!   values the pair of each column in turn; K and the columns past `n` padded with zeros. (Both
//!   kernels read the biases, the SME2 one's name without `b` notwithstanding.)
//! - dst: row `i` of `n` halves at byte offset `i * dst_stride_row`; `dst_stride_col` is ignored
//!   (neither kernel asserts it, as in KleidiAI).
//!
//! # Numerics ([`Accumulation::OuterProducts`])
//!
//! Each `mr` x `nr` tile is four f32 ZA tiles. They are zeroed, then the widening `FMOPA` adds
//! `(1, 1) . (bias, 0)` (the bias exactly; a `-0` bias becomes `+0`, a NaN the default NaN), then
//! one widening step per pair of K values in K order, [`crate::float::f16::dot_add`]: the two
//! products and their sum rounded once to f32, then added to the accumulator (a second
//! rounding), subnormals kept, any NaN the default NaN. An odd K's last pair meets zeros on both
//! sides. Last, each f32 result is narrowed to f16 by `FCVT` (ties to even, overflow to
//! infinity; the default NaN becomes `0x7e00`) and clamped on halves with bounds narrowed the
//! same way (KleidiAI's `run` converts them with `FCVT` before the kernel): `FMIN` with the
//! upper, then `FMAX` with the lower bound (SME), or `FCLAMP` (SME2); see
//! [`narrow_then_clamp`].
//!
//! This is the architected `FPDotAdd_ZA` with FPCR.FZ = FZ16 = 0, and QEMU 11's model of it,
//! which the tests check at every streaming length. The Arm ARM lets an implementation keep the
//! pair sum at higher precision before the accumulation on some cores (a fused three-way add);
//! there the last bit of an f32 sum, and so rarely an f16 result's, may differ from this model.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`, `k >= 1` (`k` = 0 runs the portable path: the clamped bias).
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS blocks and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `2 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`Operands::PackedFloat`]: crate::family::Operands::PackedFloat
//! [`lhs_pack_x16p2vlx2_x16_sme`]: crate::pack::lhs_pack_sme_rows::lhs_pack_x16p2vlx2_x16_sme
//! [`rhs_pack_kxn_x16p2vlx2b_x16_x16_sme`]: crate::pack::rhs_pack_float::rhs_pack_kxn_x16p2vlx2b_x16_x16_sme
//! [`rhs_pack_nxk_x16p2vlx2b_x16_x16_sme`]: crate::pack::rhs_pack_float::rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
//! [`Accumulation::OuterProducts`]: crate::matmul::bf16_gemm::Accumulation::OuterProducts
//! [`narrow_then_clamp`]: crate::matmul::bf16_gemm::narrow_then_clamp

asm_kernel_modules! {
    matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa,
    matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa,
}

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_sme_rows::lhs_pack_x16p2vlx2_x16_sme;
use crate::pack::rhs_pack_float::{
    rhs_pack_kxn_x16p2vlx2b_x16_x16_sme, rhs_pack_nxk_x16p2vlx2b_x16_x16_sme,
};

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_pack_x16p2vlx2_x16_sme];
/// The RHS packers of both kernels (K x N and N x K sources, the same format).
const RHS: &[&Packer] = &[
    &rhs_pack_kxn_x16p2vlx2b_x16_x16_sme,
    &rhs_pack_nxk_x16p2vlx2b_x16_x16_sme,
];

kernel_entries! {
    /// f16 GEMM (f32 sums), 2 x SVL32 rows x 2 x SVL32 columns per step, widening `FMOPA` into
    /// four ZA tiles, `FCVT` then `FCLAMP` on halves.
    matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa: float_mopa_entry!(
        F16F16pF16p, LHS, RHS, Sme2, kr 2,
        self::matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa);
    /// f16 GEMM (f32 sums), 2 x SVL32 rows x 2 x SVL32 columns per step, widening `FMOPA` into
    /// four ZA tiles, `FCVT` then `FMIN`/`FMAX` on halves.
    matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa: float_mopa_entry!(
        F16F16pF16p, LHS, RHS, Sme, kr 2,
        self::matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa);
}
