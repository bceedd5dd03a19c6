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
//!
//! # Packed operands
//!
//! A kernel's tile (catalog and getters) gives `mr`, `nr`, `kr`, `sr`; its stem names `mr` x
//! `kr / sr` and `nr` x `kr / sr` (`vl`: the 32-bit lanes of a vector, VL32 for SVE, SVL32 for
//! SME). With `nb = k / bl` blocks (K needs no padding, being a multiple of 32):
//! - LHS ([`lhs_quant_pack_qai8dxp`]): groups of `mr` rows, `mr * (k + 8)` bytes each
//!   ([`layout::qai8dxp::stride`]): the int8 values in chunks of `kr / sr` K values of each row
//!   in turn, then `lhs_offset: [i32; mr]` (negated zero points) and `lhs_scale: [f32; mr]`.
//! - RHS ([`rhs_pack_qsi4c32p_qsu4c32s1s0`]): groups of `nr` columns,
//!   `nr * (nb * (bl / 2 + 2) + 8)` bytes each ([`layout::qsi4c32p::stride`]): per block
//!   `nr * bl / 2` bytes of signed nibbles, then `d: [bf16; nr]`; after the blocks
//!   `rsum: [f32; nr]` and `bias: [f32; nr]`. In the `s16s0` order (NEON and SVE kernels), per
//!   32-value chunk, per `kr / sr`-byte segment `s`, per column, byte `t` holds K
//!   `s * kr / sr + t` of the chunk in its low nibble and K `16 + s * kr / sr + t` in its high
//!   one; in the `ps1s0` order (SME2 kernels) consecutive K values share a byte, low nibble
//!   first.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`; `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer; `dst_stride_row` should be a multiple of 4 (any value works on
//!   CPUs that allow unaligned accesses, as Linux on Arm64 does).
//!
//! [`lhs_quant_pack_qai8dxp`]: crate::pack::lhs_quant_pack_qai8dxp
//! [`rhs_pack_qsi4c32p_qsu4c32s1s0`]: crate::pack::rhs_pack_qsi4c32p_qsu4c32s1s0
//! [`layout::qai8dxp::stride`]: crate::layout::qai8dxp::stride
//! [`layout::qsi4c32p::stride`]: crate::layout::qsi4c32p::stride

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

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    Asserts, BlockDepth, SME2_BLOCKWISE_MOPA, SME2_DOT, kernel_entries, kernel_entry,
    narrowed_kernel, native, streaming_entry, vla_qai8dxp_kernel,
};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qai8dxp::{
    lhs_quant_pack_qai8dxp_bf16_neon, lhs_quant_pack_qai8dxp_f32,
};
use crate::pack::rhs_pack_qsi4c32p_qsu4c32s1s0::{
    rhs_pack_kxn_qsi4c32p_qsu4c32s1s0, rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon,
    rhs_pack_nxk_qsi4c32p_qsu4c32s1s0, rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon,
    rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon, rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon,
};

const QAI8DXP_F32_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f32];
const QAI8DXP_BF16_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_bf16_neon];
/// qsi4c32p packers for block depth 4 (`kr / sr`) and 8: the NEON forms accept only one.
const QSI4C32P_RHS_DEPTH4: &[&Packer] = &[
    &rhs_pack_nxk_qsi4c32p_qsu4c32s1s0,
    &rhs_pack_kxn_qsi4c32p_qsu4c32s1s0,
    &rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon,
];
const QSI4C32P_RHS_DEPTH8: &[&Packer] = &[
    &rhs_pack_nxk_qsi4c32p_qsu4c32s1s0,
    &rhs_pack_kxn_qsi4c32p_qsu4c32s1s0,
    &rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon,
];
/// qsi4c32p packers writing the sequential-nibble (`ps1s0`) data of the SME2 kernels.
const QSI4C32PS1S0_RHS: &[&Packer] = &[
    &rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon,
    &rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon,
];

/// A kernel of `matmul_clamp_f32_qai8dxp_qsi4c32p`: RHS packer list (by block depth) and the
/// asm module implementing its tile (stems with identical tiles share one).
macro_rules! f32_qai8dxp_qsi4c32p_kernel {
    ($(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $rhs:ident, $module:ident) => {
        kernel_entry!($(#[$doc])* $stem, F32Qai8dxpQsi4c32p, QAI8DXP_F32_LHS, $rhs,
            $isa, $tile, native!(self::$module));
    };
}

kernel_entries! {
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [1, 4, 1, 4, 8, 2], QSI4C32P_RHS_DEPTH4,
        matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod);
    /// GEMV, 1 row x 8 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [1, 8, 1, 8, 8, 2], QSI4C32P_RHS_DEPTH4,
        matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod);
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [1, 4, 1, 4, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod);
    /// GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks (same code as the `1x8x32` stem,
    /// which KleidiAI gives the same tile).
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [1, 8, 1, 8, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod);
    /// GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [1, 8, 1, 8, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod);
    /// GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [16, 4, 4, 4, 8, 2], QSI4C32P_RHS_DEPTH4,
        matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod);
    /// GEMM, 4 rows x 8 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod: f32_qai8dxp_qsi4c32p_kernel!(
        NeonDotprod, [4, 8, 4, 8, 8, 2], QSI4C32P_RHS_DEPTH4,
        matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod);
    /// GEMM, 16 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm: f32_qai8dxp_qsi4c32p_kernel!(
        NeonI8mm, [16, 4, 4, 4, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm);
    /// GEMM, 8-row portions x 4 columns, SMMLA (runs the 16x4 code: same packed formats).
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm: f32_qai8dxp_qsi4c32p_kernel!(
        NeonI8mm, [8, 4, 4, 4, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm);
    /// GEMM, 4 rows x 8 columns per step, SMMLA (same code as the `4x8x32` stem, which KleidiAI
    /// gives the same tile).
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm: f32_qai8dxp_qsi4c32p_kernel!(
        NeonI8mm, [4, 8, 4, 8, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm);
    /// GEMM, 4 rows x 8 columns per step, SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm: f32_qai8dxp_qsi4c32p_kernel!(
        NeonI8mm, [4, 8, 4, 8, 16, 2], QSI4C32P_RHS_DEPTH8,
        matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm);
    /// GEMV, 1 row x 2 VL32 columns per step (two groups of nr = VL32), SVE SDOT on 8-value
    /// blocks; reads the packed RHS of the `8x1vl` SVE2 GEMMs.
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4c32p, QSI4C32P_RHS_DEPTH8, Sve2Dotprod, [1, 2, 1, 1, 16, 2], self);
    /// GEMM, 8 rows x VL32 columns per step, SVE SDOT on 8-value blocks (SVE2 CPUs without
    /// i8mm).
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4c32p, QSI4C32P_RHS_DEPTH8, Sve2Dotprod, [8, 1, 4, 1, 16, 2], self);
    /// GEMM, 8 rows x VL32 columns per step, SMMLA on z registers (the NEON 16x4 loop's 8-row
    /// pass widened to the vector).
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4c32p, QSI4C32P_RHS_DEPTH8, Sve2I8mm, [8, 1, 4, 1, 16, 2], self);
    /// GEMV, 1 row x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, multi-vector `SDOT`
    /// into ZA per block, block scales folded in with `FMLA`.
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot: streaming_entry!(
        F32Qai8dxpQsi4c32p, QAI8DXP_F32_LHS, QSI4C32PS1S0_RHS, Sme2, [1, 4, 1, 4, 8, 2],
        PerSmeLane32, SME2_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot,
        Asserts { block_depth: BlockDepth::Any, ..Asserts::USUAL });
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, `SMOPA` into
    /// four ZA tiles per block, block scales folded in per output row.
    matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa: streaming_entry!(
        F32Qai8dxpQsi4c32p, QAI8DXP_F32_LHS, QSI4C32PS1S0_RHS, Sme2, [1, 4, 1, 4, 8, 2],
        RowsAndColumnsPerSmeLane32, SME2_BLOCKWISE_MOPA,
        self::matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
        Asserts { block_depth: BlockDepth::MultipleOf32, ..Asserts::USUAL });
    /// bf16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod: narrowed_kernel!(
        Bf16Qai8dxpQsi4c32p, QAI8DXP_BF16_LHS, QSI4C32P_RHS_DEPTH8, NeonDotprod, [1, 4, 1, 4, 16,
        2], self::matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod);
    /// bf16 GEMM, 16 rows x 4 columns per step, SMMLA.
    matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm: narrowed_kernel!(
        Bf16Qai8dxpQsi4c32p, QAI8DXP_BF16_LHS, QSI4C32P_RHS_DEPTH8, NeonI8mm, [16, 4, 4, 4, 16, 2],
        self::matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm);
}
