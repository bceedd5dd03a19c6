//! `imatmul_clamp_f32_f32p_f32p`: KleidiAI's SME indirect f32 GEMMs, a convolution without
//! im2col. f32 output = f32 LHS packed from an indirection buffer x f32 RHS packed with its bias
//! in front, clamped ([`Operands::ChunkedPackedFloat`] of f32 values).
//!
//! K is `k_chunk_count` chunks of `k_chunk_length` values. The LHS packer
//! ([`lhs_imatmul_pack_x32p2vlx1_x32p_sme`]) reads, for each block of `mr` = 2 x SVL32 rows and
//! each chunk `c`, the block's `mr` pointers to chunk `c` (entries `block * k_chunk_count +
//! c * mr + r` of the indirection buffer) and packs that chunk of the block's rows exactly as
//! `lhs_pack_f32p2vlx1_f32_sme` packs `k_chunk_length` K values; the chunks follow each other.
//! The RHS packer ([`rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme`]) packs the
//! `k_chunk_count * k_chunk_length` rows of a K x N matrix exactly as
//! `rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme` packs `k` rows. With `kr` = 1 no chunk is padded,
//! so both packed operands are those of `matmul_clamp_f32_f32p_f32p` with
//! `k = k_chunk_count * k_chunk_length`, and KleidiAI's imatmul kernels run its GEMMs' code on
//! them (their assembly is the same instruction for instruction). So do rkai's: each entry
//! names the GEMM family's kernel of the same ISA, and the call is that family's packed call
//! (checks, portable path and numerics: see [`crate::matmul::matmul_clamp_f32_f32p_f32p`]).
//!
//! KleidiAI's kernels assert nothing in `run`; rkai's refuse what the packed GEMMs refuse (null
//! buffers, a destination row stride shorter than a row, sizes that overflow). With no K value
//! (`k_chunk_count` or `k_chunk_length` zero) they write the clamped biases, as the GEMMs do.
//!
//! [`Operands::ChunkedPackedFloat`]: crate::family::Operands::ChunkedPackedFloat
//! [`lhs_imatmul_pack_x32p2vlx1_x32p_sme`]: crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x32p2vlx1_x32p_sme
//! [`rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme`]: crate::pack::rhs_pack_float::rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

// The GEMM family's kernels (named only where their asm exists).
#[cfg(target_arch = "aarch64")]
use super::matmul_clamp_f32_f32p_f32p as gemm;
use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x32p2vlx1_x32p_sme;
use crate::pack::rhs_pack_float::rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme;

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_imatmul_pack_x32p2vlx1_x32p_sme];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme];

kernel_entries! {
    /// Indirect f32 GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `FMOPA` into four ZA
    /// tiles, `FMIN`/`FMAX`: the code of `matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa`.
    imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa: float_mopa_entry!(
        ImatmulF32F32pF32p, LHS, RHS, Sme, kr 1,
        gemm::matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa);
    /// Indirect f32 GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `FMOPA` into four ZA
    /// tiles, `FCLAMP`: the code of `matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa`.
    imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa: float_mopa_entry!(
        ImatmulF32F32pF32p, LHS, RHS, Sme2, kr 1,
        gemm::matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa);
}
