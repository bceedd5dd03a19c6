//! `imatmul_clamp_qai8_qai8p_qsi8cxp`: KleidiAI's SME indirect int8-output GEMMs, a quantized
//! convolution without im2col. int8 output = int8 LHS packed from an indirection buffer x int8
//! weights packed with folded `i32` biases and `f32` scales, requantized by
//! `kai_matmul_requantize32_params` ([`Operands::ChunkedQai8pQsi8cxpsb`]).
//!
//! K is `k_chunk_count` chunks of `k_chunk_length` values, each chunk rounded up to whole steps
//! of 4 (`kr` = 4). The LHS packer ([`lhs_imatmul_pack_x8p2vlx4_x8p_sme`]) reads, for each block
//! of `mr` = 2 x SVL32 rows and each chunk `c`, the block's `mr` pointers to chunk `c` and packs
//! that chunk of the block's rows exactly as `lhs_pack_x8p2vlx4_x8_sme` packs `k_chunk_length`
//! K values (a chunk ends in zeros up to a whole step). The RHS packer
//! ([`rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`]) packs each chunk of
//! `k_chunk_length` consecutive rows of a K x N matrix the same way, between the group's folded
//! biases (the LHS zero point times each column's sum) and its scales. So both packed operands
//! are those of `matmul_clamp_qai8_qai8p_qsi8cxp` with `k = k_chunk_count *
//! roundup(k_chunk_length, 4)`, whose padding steps add `0 * 0`, and KleidiAI's imatmul kernels
//! run its GEMMs' code on them (their assembly is the same instruction for instruction). So do
//! rkai's: each entry names the GEMM family's kernel of the same ISA, and the call is that
//! family's packed call (checks, portable path, clamp order and numerics: see
//! [`crate::matmul::matmul_clamp_qai8_qai8p_qsi8cxp`]).
//!
//! KleidiAI's kernels assert nothing in `run`; rkai's refuse what the packed GEMMs refuse (null
//! buffers, a destination row stride shorter than a row, sizes that overflow). With no K value
//! (`k_chunk_count` or `k_chunk_length` zero) they requantize the packed biases, as the GEMMs do.
//!
//! [`Operands::ChunkedQai8pQsi8cxpsb`]: crate::family::Operands::ChunkedQai8pQsi8cxpsb
//! [`lhs_imatmul_pack_x8p2vlx4_x8p_sme`]: crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x8p2vlx4_x8p_sme
//! [`rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`]: crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

// The GEMM family's kernels (named only where their asm exists).
#[cfg(target_arch = "aarch64")]
use super::matmul_clamp_qai8_qai8p_qsi8cxp as gemm;
use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_imatmul_pack_sme::lhs_imatmul_pack_x8p2vlx4_x8p_sme;
use crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme;

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_imatmul_pack_x8p2vlx4_x8p_sme];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme];

kernel_entries! {
    /// Indirect int8-output GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `SMOPA` into
    /// four ZA tiles, `SMIN`/`SMAX`: the code of
    /// `matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa`.
    imatmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa: float_mopa_entry!(
        ImatmulQai8Qai8pQsi8cxp, LHS, RHS, Sme, kr 4,
        gemm::matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa);
    /// Indirect int8-output GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `SMOPA` into
    /// four ZA tiles, SME2's four-vector loads, `SCLAMP`: the code of
    /// `matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa`.
    imatmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa: float_mopa_entry!(
        ImatmulQai8Qai8pQsi8cxp, LHS, RHS, Sme2, kr 4,
        gemm::matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa);
}
