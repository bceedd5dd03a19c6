//! `matmul_clamp_f32_qsi8d32p_qsi4c32p` (llama.cpp's Q8_0 activations x Q4_0 weights): f32
//! output = int8 LHS with one f16 scale per row and block of `bl` K values x int4 RHS with one
//! f16 scale per column and block, clamped. No zero points, no bias.
//!
//! For row i and column j (`lq` packed LHS values, `w` the signed weights, `ld`/`wd` the f16
//! scales widened to f32), KleidiAI 1.30's kernels compute in f32 with fused multiply-adds:
//! `acc = 0; for every block b: acc = fma(f32(I_b), wd[j][b] * ld[i][b], acc)` where
//! `I_b = sum_{k in b} lq * w` (i32; the kernels form `16 * w` by shifting nibbles and divide by
//! 16 with `SCVTF #4`, which is exact), the scale product rounded to f32 first; then `FMAX` with
//! the lower bound and `FMIN` with the upper one.
//!
//! Packed formats (see `pack`): LHS groups of `mr` rows, per block `mr` f16 scales then
//! `mr x kr/sr` chunks of values; RHS groups of `nr` columns, per block `nr` f16 scales then
//! `bl / kr` segments of `nr x kr/2` bytes, byte `t` of segment `s` of a column holding values
//! `s * kr/2 + t` (low nibble) and `bl/2 + s * kr/2 + t` (high nibble) of the block.
//!
//! The SME and SME2 kernels (`..._qsi4c32p4vlx4_...`) read other layouts, written by
//! `lhs_quant_pack_qsi8d32p_f32_neon` (each group's values first, in 4-value chunks, then all its
//! scales) and by their own RHS packers (all nibbles first, then the scales `[blocks][nr]`): the
//! SME2 ones `ps1s0scalef16` (sequential unsigned nibbles, widened with `LUTI4` to the values
//! themselves), the SME ones `ps4s0sf16` (signed nibbles 4 apart, widened by shifts to 16 x the
//! values, scales divided by 16 by the packer). They form the scale product with `FMLALB` into
//! `+0` and finish as their catalog `Epilogue` says: the `1vlx4vl` GEMMs multiply the first
//! block instead of fusing it into `+0`; the SME2 kernels clamp with `FCLAMP`.
//!
//! Departures from KleidiAI 1.30: every kernel accepts any `bl` that is a multiple of 32 (the
//! SVE ones assert `bl == 32`) and any `m` (the `1x4` NEON, the SVE and the SME GEMVs assert
//! `m == 1` in debug builds); rkai checks its preconditions in release builds too. KleidiAI's
//! SVE kernels are written for 256-bit vectors only and assert it; rkai's keep that contract,
//! reporting other vector lengths through the usual assertion message instead of computing
//! garbage. KleidiAI's SME GEMMs mean to skip the clamp when a flag computed from the bounds is
//! 0 (the SME one when neither bound lies inside `±FLT_MAX`, the SME2 one when either lies
//! outside, a ReLU's `FLT_MAX` included), but load the 32-bit flag as 64 bits with 4 bytes of
//! uninitialized padding, so whether they clamp is up to the stack's contents (under QEMU, two
//! builds of one test driver saw the SME2 GEMM apply a ReLU and leave it unapplied). rkai's
//! always clamp, as KleidiAI's GEMVs do.
//!
//! Implementations on aarch64: one `asm!` module per stem, except the two NEON i8mm stems (`16x4`
//! and `8x4x32`: same packed formats), which run one 8 x 4 `SMMLA` loop. The SVE modules assume
//! 256-bit vectors (guaranteed by [`check`]); having no fixed-point `SCVTF`, they multiply the
//! integer sum by `wd * ld / 16` instead of `I / 16` by `wd * ld`: the scale product of two
//! widened f16 values and its sixteenth are exact in f32, so the fused result has the same bits.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names (with
//! the tile's `mr` and `nr` and `nb = k / bl`):
//! * `m >= 1`, `n >= 1`; `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups of `mr * nb * (bl + 2)` bytes
//!   ([`layout::qsi8d32p::stride`]) and `rhs_packed` of `ceil(n / nr)` RHS groups of
//!   `nr * nb * (bl / 2 + 2)` bytes ([`layout::qsi4c32pf16::stride`]), in the formats above (the
//!   last groups are read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m` at byte offset
//!   `i * dst_stride_row`, not overlapping the packed inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`layout::qsi8d32p::stride`]: crate::layout::qsi8d32p::stride
//! [`layout::qsi4c32pf16::stride`]: crate::layout::qsi4c32pf16::stride

pub mod portable;

/// The block fold of the Q4_0 SME and SME2 GEMMs (asm text): the row pointers (x12 the ZA
/// slice, x22 dst, x26 rows, x25 the row's LHS scale; x27 moves to the next block's), then one of
/// four copies of the row loop `$fold_rows` (labels 21-24: the first block or a later one, with
/// the accumulators loaded by `$later`; the last block clamped by `$clamp`), which end at label 8.
#[cfg(target_arch = "aarch64")]
macro_rules! q40_gemm_fold {
    ($fold_rows:ident; $later:expr; $clamp:expr) => {
        concat!(
            "mov x12, #0\n",
            "mov x22, x14\n",
            "mov x26, x15\n",
            "mov x25, x27\n",
            "add x27, x27, x17, lsl #1\n",
            // Pick the row loop: first block or not, last (clamped) or not.
            "cmp x16, #1\n",
            "b.ne 5f\n",
            "cmp x16, x2\n",
            "b.eq 23f\n",
            "b 24f\n",
            "5:\n",
            "cmp x16, x2\n",
            "b.ne 22f\n",
            $fold_rows!("21"; q40_gemm_fold!(first)),
            "\n",
            $fold_rows!("22"; $later),
            "\n",
            $fold_rows!("23"; q40_gemm_fold!(first), $clamp),
            "\n",
            $fold_rows!("24"; $later, $clamp),
            "\n",
            "8:\n",
        )
    };
    // The first block: the accumulators are the block's sums times its scale products.
    (first) => {
        concat!(
            "fmul z8.s, z20.s, z16.s\n",
            "fmul z9.s, z21.s, z17.s\n",
            "fmul z10.s, z22.s, z18.s\n",
            "fmul z11.s, z23.s, z19.s",
        )
    };
}

asm_kernel_modules! {
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod,
    matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot,
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa,
}

/// `ZT0` for `LUTI4` widening the unsigned nibbles of the `ps1s0scalef16` format (zero point 8)
/// to int8: entry `u` (a 32-bit table element, of which a byte lookup takes the low byte) is
/// `u - 8`.
#[cfg(target_arch = "aarch64")]
pub static U4_MINUS_8: [i32; 16] = [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7];

pub use super::args::PackedArgs as Args;
use crate::contract::{self, Checked};
use crate::kernel::{Columns, MatmulKernel};
use crate::layout;
use crate::matmul::args::{check_packed_f32_buffers, run_packed_or};
use crate::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind};

/// The block lengths `kernel` accepts with this K: multiples of 32 dividing K, and exactly 32
/// for the 256-bit SVE kernels (KleidiAI's `bl == kai_bl`, asserted by all their getters).
pub fn check_block(kernel: &MatmulKernel, k: usize, bl: usize) -> Checked {
    layout::qsi4c32pf16::check_block(k, bl)?;
    if kernel.columns == Columns::FixedAtSve256 {
        contract::require(bl == layout::qsi4c32pf16::BL_MULTIPLE, "bl == kai_bl")?;
    }
    Ok(())
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    contract::require(a.dst_stride_col == 4, "dst_stride_col == sizeof(float)")?;
    check_block(kernel, a.k, a.bl)?;
    layout::qsi8d32p::stride(a.k, a.bl, tile.mr)?;
    layout::qsi4c32pf16::stride(a.k, tile.nr, a.bl)?;
    if kernel.columns == Columns::FixedAtSve256 && kernel.native.packed().is_some() {
        contract::require(
            crate::arch::sve_lanes32() == 8,
            "kai_get_sve_vector_length_u8() == 32 (this kernel supports 256-bit SVE only)",
        )?;
    }
    check_packed_f32_buffers(a)
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bits) elsewhere.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    // SAFETY (both callees): forwarded contract.
    unsafe {
        run_packed_or(kernel.native.packed(), a, || {
            portable::run(&kernel.tile(), formats(kernel), kernel.epilogue, a)
        });
    }
}

/// The packed formats `kernel` reads: those its first LHS and RHS packers write (a kernel's
/// packer lists share one format each).
pub fn formats(kernel: &MatmulKernel) -> portable::Formats {
    use crate::pack::lhs_quant_pack_qsi8d32p::Variant as Lhs;
    use crate::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::Variant as Rhs;
    let rhs = match kernel.rhs_packers.first().map(|p| p.kind) {
        Some(PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(v))) => v,
        _ => Rhs::Scalef16,
    };
    let lhs_scales_at_end = matches!(
        kernel.lhs_packers.first().map(|p| p.kind),
        Some(PackerKind::Lhs(LhsPackerKind::Qsi8d32p(Lhs::F32Neon)))
    );
    portable::Formats {
        rhs,
        lhs_scales_at_end,
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    BlockFold, BlockScale, Clamp, Epilogue, SME_DOT, SME2_DOT, SME2_MOPA, kernel_entries,
    kernel_entry, native, streaming_entry,
};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qsi8d32p::{
    lhs_quant_pack_qsi8d32p_f32, lhs_quant_pack_qsi8d32p_f32_neon,
    lhs_quant_pack_qsi8d32p4x8sb_f32_neon,
};
use crate::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::{
    rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon,
    rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon, rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0,
};

const QSI8D32P_LHS: &[&Packer] = &[&lhs_quant_pack_qsi8d32p_f32];
/// The 16x4 i8mm kernel also reads the 4x8sb packer's output (KleidiAI pairs both with it).
const QSI8D32P_LHS_4X8: &[&Packer] = &[
    &lhs_quant_pack_qsi8d32p_f32,
    &lhs_quant_pack_qsi8d32p4x8sb_f32_neon,
];
const QSI4C32PF16_RHS: &[&Packer] = &[&rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0];
/// LHS and RHS packers of KleidiAI's SME2 and SME Q4_0 kernels.
const QSI8D32P_SME_LHS: &[&Packer] = &[&lhs_quant_pack_qsi8d32p_f32_neon];
const QSI4C32PS1S0F16_RHS: &[&Packer] = &[&rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon];
const QSI4C32PS4S0SF16_RHS: &[&Packer] = &[&rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon];

/// A kernel of `matmul_clamp_f32_qsi8d32p_qsi4c32p`: its LHS packer list, its column scaling
/// (`FixedAtSve256` for KleidiAI's 256-bit SVE kernels) and the asm module implementing its tile
/// (stems with the same packed formats share one), or `portable` where there is none yet.
macro_rules! f32_qsi8d32p_qsi4c32p_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $lhs:ident, $columns:ident,
        portable
    ) => {
        kernel_entry!($(#[$doc])* $stem, F32Qsi8d32pQsi4c32p, $lhs, QSI4C32PF16_RHS,
            $isa, $tile, $crate::matmul::args::KernelFn::Portable, KleidiAi, $columns);
    };
    (
        $(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $lhs:ident, $columns:ident,
        $module:ident
    ) => {
        kernel_entry!($(#[$doc])* $stem, F32Qsi8d32pQsi4c32p, $lhs, QSI4C32PF16_RHS,
            $isa, $tile, native!(self::$module), KleidiAi, $columns);
    };
}

/// SME2 Q4_0 `SDOT` GEMV: block scales multiplied with `FMLALB` into `+0`, otherwise [`SME2_DOT`].
const SME2_Q4_0_DOT: Epilogue = Epilogue {
    block_scale: BlockScale::WidenFromZero,
    ..SME2_DOT
};

/// SME Q4_0 `SDOT` GEMV: as [`SME2_Q4_0_DOT`] with `FMAX`/`FMIN`.
const SME_Q4_0_DOT: Epilogue = Epilogue {
    block_scale: BlockScale::WidenFromZero,
    ..SME_DOT
};

/// SME2 Q4_0 outer-product GEMM: the first block multiplied, block scales from `+0`, `FCLAMP`.
/// (KleidiAI 1.30 means to skip the clamp for some bounds, but tests its 32-bit flag with a
/// 64-bit load that takes in 4 bytes of uninitialized padding; rkai always clamps, as the GEMVs
/// do. See the family's module.)
const SME2_Q4_0_MOPA: Epilogue = Epilogue {
    block_fold: BlockFold::FirstMultiplies,
    block_scale: BlockScale::WidenFromZero,
    ..SME2_MOPA
};

/// SME Q4_0 outer-product GEMM: as [`SME2_Q4_0_MOPA`] with `FMAX`/`FMIN`.
const SME_Q4_0_MOPA: Epilogue = Epilogue {
    clamp: Clamp::MaxThenMin,
    ..SME2_Q4_0_MOPA
};

kernel_entries! {
    /// Q4_0 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod: f32_qsi8d32p_qsi4c32p_kernel!(
        NeonDotprod, [1, 4, 1, 4, 8, 2], QSI8D32P_LHS, Fixed,
        matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod);
    /// Q4_0 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod: f32_qsi8d32p_qsi4c32p_kernel!(
        NeonDotprod, [1, 4, 1, 4, 16, 2], QSI8D32P_LHS, Fixed,
        matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod);
    /// Q4_0 GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod: f32_qsi8d32p_qsi4c32p_kernel!(
        NeonDotprod, [16, 4, 4, 4, 8, 2], QSI8D32P_LHS, Fixed,
        matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod);
    /// Q4_0 GEMM, 16 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm: f32_qsi8d32p_qsi4c32p_kernel!(
        NeonI8mm, [16, 4, 4, 4, 16, 2], QSI8D32P_LHS_4X8, Fixed,
        matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm);
    /// Q4_0 GEMM, 8 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm: f32_qsi8d32p_qsi4c32p_kernel!(
        NeonI8mm, [8, 4, 4, 4, 16, 2], QSI8D32P_LHS, Fixed,
        matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm);
    /// Q4_0 GEMV for 256-bit SVE, 1 row x 8 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod: f32_qsi8d32p_qsi4c32p_kernel!(
        SveDotprod, [1, 8, 1, 8, 8, 2], QSI8D32P_LHS, FixedAtSve256,
        matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod);
    /// Q4_0 GEMV for 256-bit SVE, 1 row x 8 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod: f32_qsi8d32p_qsi4c32p_kernel!(
        SveDotprod, [1, 8, 1, 8, 16, 2], QSI8D32P_LHS, FixedAtSve256,
        matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod);
    /// Q4_0 GEMM for 256-bit SVE, 16 rows x 8 columns per step, SMMLA.
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm: f32_qsi8d32p_qsi4c32p_kernel!(
        SveI8mm, [16, 8, 4, 8, 16, 2], QSI8D32P_LHS, FixedAtSve256,
        matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm);
    /// Q4_0 GEMV, 1 row x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, multi-vector
    /// `SDOT` into ZA per block.
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot: streaming_entry!(
        F32Qsi8d32pQsi4c32p, QSI8D32P_SME_LHS, QSI4C32PS1S0F16_RHS, Sme2, [1, 4, 1, 4, 4, 2],
        PerSmeLane32, SME2_Q4_0_DOT,
        self::matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot);
    /// Q4_0 GEMV, 1 row x 4 x SVL32 columns per step: nibbles widened by shifts, streaming SVE
    /// `SDOT` into vector accumulators per block.
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot: streaming_entry!(
        F32Qsi8d32pQsi4c32p, QSI8D32P_SME_LHS, QSI4C32PS4S0SF16_RHS, Sme, [1, 4, 1, 4, 4, 2],
        PerSmeLane32, SME_Q4_0_DOT, self::matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot);
    /// Q4_0 GEMM, SVL32 rows x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, `SMOPA`
    /// into four ZA tiles per block, block scales folded in per output row.
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa: streaming_entry!(
        F32Qsi8d32pQsi4c32p, QSI8D32P_SME_LHS, QSI4C32PS1S0F16_RHS, Sme2, [1, 4, 1, 4, 4, 2],
        RowsAndColumnsPerSmeLane32, SME2_Q4_0_MOPA,
        self::matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa);
    /// Q4_0 GEMM, SVL32 rows x 4 x SVL32 columns per step: nibbles widened by shifts, `SMOPA`
    /// into four ZA tiles per block, block scales folded in per output row.
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa: streaming_entry!(
        F32Qsi8d32pQsi4c32p, QSI8D32P_SME_LHS, QSI4C32PS4S0SF16_RHS, Sme, [1, 4, 1, 4, 4, 2],
        RowsAndColumnsPerSmeLane32, SME_Q4_0_MOPA,
        self::matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa);
}
