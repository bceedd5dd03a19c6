//! `imatmul_clamp_f16_f16p_f16p`: KleidiAI's SME indirect f16 GEMMs, a convolution without
//! im2col. f16 output = f16 LHS packed from an indirection buffer x f16 RHS packed with its f16
//! bias in front, accumulated in f32, clamped ([`Operands::ChunkedPackedFloat`] of halves).
//!
//! K is `k_chunk_count` chunks of `k_chunk_length` values, each chunk rounded up to whole pairs
//! (`kr` = 2). The LHS packer ([`lhs_imatmul_pack_x16p2vlx2_x16p_sme`]) reads, for each block of
//! `mr` = 2 x SVL32 rows and each chunk `c`, the block's `mr` pointers to chunk `c` and packs
//! that chunk of the block's rows exactly as `lhs_pack_x16p2vlx2_x16_sme` packs
//! `k_chunk_length` K values (an odd chunk ends in a pair completed by a zero). The RHS packer
//! ([`rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme`]) packs each chunk of `k_chunk_length`
//! consecutive rows of a K x N matrix the same way, after the group's biases. So both packed
//! operands are those of `matmul_clamp_f16_f16p_f16p` with
//! `k = k_chunk_count * roundup(k_chunk_length, 2)`, whose padding pairs add `0 * 0`, and
//! KleidiAI's imatmul kernels run its GEMMs' code on them (their assembly is the same
//! instruction for instruction; the SME2 one reads the biases too, the `b` missing from its name
//! notwithstanding, as its packed-offset getter counts them). So do rkai's: each entry names the
//! GEMM family's kernel of the same ISA, and the call is that family's packed call (checks,
//! portable path and numerics: see [`crate::matmul::matmul_clamp_f16_f16p_f16p`]).
//!
//! KleidiAI's kernels assert nothing in `run`; rkai's refuse what the packed GEMMs refuse (null
//! buffers, a destination row stride shorter than a row, sizes that overflow). With no K value
//! (`k_chunk_count` or `k_chunk_length` zero) they write the clamped biases, as the GEMMs do.
//!
//! [`Operands::ChunkedPackedFloat`]: crate::family::Operands::ChunkedPackedFloat
//! [`lhs_imatmul_pack_x16p2vlx2_x16p_sme`]: crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x16p2vlx2_x16p_sme
//! [`rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme`]: crate::pack::rhs_pack_float::rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

// The GEMM family's kernels (named only where their asm exists).
#[cfg(target_arch = "aarch64")]
use super::matmul_clamp_f16_f16p_f16p as gemm;
use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x16p2vlx2_x16p_sme;
use crate::pack::rhs_pack_float::rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme;

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_imatmul_pack_x16p2vlx2_x16p_sme];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme];

kernel_entries! {
    /// Indirect f16 GEMM (f32 sums), 2 x SVL32 rows x 2 x SVL32 columns per step, widening
    /// `FMOPA` into four ZA tiles, `FCVT` then `FMIN`/`FMAX` on halves: the code of
    /// `matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa`.
    imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa: float_mopa_entry!(
        ImatmulF16F16pF16p, LHS, RHS, Sme, kr 2,
        gemm::matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa);
    /// Indirect f16 GEMM (f32 sums), 2 x SVL32 rows x 2 x SVL32 columns per step, widening
    /// `FMOPA` into four ZA tiles, `FCVT` then `FCLAMP` on halves: the code of
    /// `matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa`.
    imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa: float_mopa_entry!(
        ImatmulF16F16pF16p, LHS, RHS, Sme2, kr 2,
        gemm::matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa);
}
