//! `matmul_clamp_fp32_bf16p_bf16p`: KleidiAI's SME bf16 GEMMs. f32 output = bf16 LHS x bf16 RHS
//! (both packed in streaming-length tiles) + f32 bias, clamped. KleidiAI keeps them in a directory
//! of their own (`fp32`), whose interface header is nevertheless named
//! `kai_matmul_clamp_f32_bf16p_bf16p_interface.h` and declares the same struct as the NEON bf16
//! family's; rkai's includes that family's header. Checks, dispatch and the portable path are the
//! bf16 families' ([`crate::matmul::bf16_gemm`]).
//!
//! # Packed operands
//!
//! With `vl` = SVL32 (32-bit lanes of the streaming vector), `mr = nr = 2 vl`, `kr = 2` and
//! `kp = roundup(k, 2)`:
//! - LHS ([`lhs_pack_bf16p2vlx2_f32_sme`] or `_sme2`, the same bytes): blocks of `mr` rows,
//!   `mr * kp * 2` bytes each: per pair of K values, the pair of each row in turn (one 32-bit
//!   word per row). K and the rows past `m` are padded with zeros.
//! - RHS ([`rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`]): groups of `nr` columns, `nr * (4 + kp * 2)`
//!   bytes each: the `nr` f32 biases, then per pair of K values the pair of each column in turn.
//!   An odd K's last pair takes its second value from the source's first row; columns past `n`
//!   are zeros.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`.
//!
//! # Numerics ([`Accumulation::OuterProducts`])
//!
//! Each `mr` x `nr` tile is four ZA tiles. They are zeroed, then `FMOPA` adds `1.0 x bias` (so a
//! `-0` bias becomes `+0` and a NaN the default NaN, ZA-targeting instructions producing default
//! NaNs; [`za_bias`]); then each pair of K values adds `BFMOPA`'s widening step
//! `acc + (a0 * b0 + a1 * b1)`, pairs in K order. Last the clamp: `FMIN` with `clamp_max`, then
//! `FMAX` with `clamp_min` for the SME kernel (a NaN stays NaN; `clamp_min` wins when the bounds
//! are inverted), SME2's `FCLAMP` (`FMAXNM` with `clamp_min`, then `FMINNM` with `clamp_max`: a
//! quiet NaN becomes a bound) for the SME2 kernel; see [`clamp`].
//!
//! What `BFMOPA` computes depends on FPCR.EBF (FEAT_EBF16). With FPCR.EBF = 0 (the reset value,
//! what Linux gives a process, and the only behaviour without FEAT_EBF16) every product and sum of
//! the step is rounded to odd, subnormal inputs and results are flushed to zero and NaNs are the
//! default NaN: [`crate::float::bf16::dot_step`], which is also what QEMU 11 executes
//! (`is_ebf`: EBF = 0 takes its round-to-odd, flush-to-zero path; checked by this family's tests
//! at every streaming length). Hardware with FPCR.EBF = 1 fuses the two products and rounds to
//! nearest even with FPCR.FZ honoured; the Arm ARM also leaves some intermediate precision of the
//! EBF = 0 pair sum to the implementation. There, last bits may differ from the reference: rkai
//! follows the instruction as KleidiAI does, and its portable path follows QEMU's model.
//!
//! The kernels are the SME packed-float template's (`matmul::float_mopa_template`) with
//! `BFMOPA` and `kr` = 2.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1` (`k` may be 0: the result is the clamped bias).
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS blocks and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`lhs_pack_bf16p2vlx2_f32_sme`]: crate::pack::lhs_pack_bf16::lhs_pack_bf16p2vlx2_f32_sme
//! [`rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`]: crate::pack::rhs_pack_bf16::rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme
//! [`Accumulation::OuterProducts`]: crate::matmul::bf16_gemm::Accumulation::OuterProducts
//! [`za_bias`]: crate::matmul::bf16_gemm::za_bias
//! [`clamp`]: crate::matmul::bf16_gemm::clamp

asm_kernel_modules! {
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa,
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa,
}

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, Epilogue, SME2_MOPA, kernel_entries, streaming_entry};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_bf16::{lhs_pack_bf16p2vlx2_f32_sme, lhs_pack_bf16p2vlx2_f32_sme2};
use crate::pack::rhs_pack_bf16::rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme;

/// LHS packers of the SME2 kernel (KleidiAI pairs it with the SME2 packer; both write the same
/// bytes).
const SME2_LHS: &[&Packer] = &[&lhs_pack_bf16p2vlx2_f32_sme2, &lhs_pack_bf16p2vlx2_f32_sme];
/// LHS packers of the SME kernel.
const SME_LHS: &[&Packer] = &[&lhs_pack_bf16p2vlx2_f32_sme, &lhs_pack_bf16p2vlx2_f32_sme2];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme];

kernel_entries! {
    /// bf16 GEMM to f32, 2 x SVL32 rows x 2 x SVL32 columns per step, `BFMOPA` into four ZA
    /// tiles, `FCLAMP`. Its `run` ignores `dst_stride_col`, as KleidiAI's does.
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa: streaming_entry!(
        Fp32Bf16pBf16p, SME2_LHS, RHS, Sme2, [2, 2, 2, 2, 2, 1], RowsAndColumnsPerSmeLane32,
        SME2_MOPA, self::matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa,
        Asserts::IGNORING_DST_STRIDE_COL);
    /// bf16 GEMM to f32, 2 x SVL32 rows x 2 x SVL32 columns per step, `BFMOPA` into four ZA
    /// tiles, `FMIN`/`FMAX`.
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa: streaming_entry!(
        Fp32Bf16pBf16p, SME_LHS, RHS, Sme, [2, 2, 2, 2, 2, 1], RowsAndColumnsPerSmeLane32,
        Epilogue::VECTOR, self::matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa);
}
