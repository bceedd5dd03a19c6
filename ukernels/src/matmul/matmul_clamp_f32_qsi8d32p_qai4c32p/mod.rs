//! `matmul_clamp_f32_qsi8d32p_qai4c32p` and `matmul_clamp_f16_qsi8d32p_qai4c32p`: f32 or f16
//! output = int8 LHS with an f32 scale and block sum per row and block of `bl` K values x
//! asymmetric int4 RHS with an f32 scale and zero offset per column and block, plus an f32 bias
//! per column, clamped.
//!
//! For row i and column j (`lq` packed LHS values with scale `ls` and block sum `lsum`, `u` the
//! packed nibbles, `w = u - 8`, `rs16` the packed scale (the user's scale / 16), `rz` the zero
//! offset), the NEON kernels compute in f32:
//!
//! ```text
//! acc = 0
//! for every block b:
//!     I   = sum_{k in b} lq * (16 * w)          (i32; 16 * w is the nibble shifted to the top)
//!     acc = fma(rz[j][b], lsum[i][b], acc)
//!     acc = fma((float)I, rs16[j][b] * ls[i][b], acc)   (scale product rounded to f32 first)
//! y = clamp(acc + bias[j])                       (FMAX with the lower bound, then FMIN)
//! ```
//!
//! and their f16 stems round the clamped f32 result to f16 (`FCVTN`: nearest even; equal to
//! clamping in f16 with the rounded bounds, since the rounding is monotonic).
//!
//! This is the order of KleidiAI's NEON kernels, read from their assembly
//! (`kai_matmul_clamp_{f32,f16}_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod_asm.S`,
//! `..._qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod_asm.S`,
//! `..._qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod_asm.S` and
//! `..._qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm_asm.S`, as vendored in Arm ComputeLibrary's
//! `third_party/kleidiai` (a 1.x copy whose getters and packed layouts equal 1.30's; the
//! wrappers' run assertions equal those of KleidiAI's own tree), with the `.c` wrappers next to
//! them). All eight share one scheme:
//! - per block, an int32 accumulator starts at 0 and takes `SDOT`/`SMMLA` products of every
//!   32-value sub-block (`num_subblocks = bl / 32`; the 1x8 GEMV keeps two partial int32 sums
//!   and adds them pairwise with `ADDP`), then `SCVTF` converts it once per block;
//! - the f32 accumulator (0 before the first block) takes `FMLA rz, lsum` first, then
//!   `FMUL rs16, ls` (rounded) and `FMLA I, (rs16 * ls)`, both fused;
//! - after the last block: `FADD` of the bias, `FMAX` with the lower bound, `FMIN` with the upper
//!   bound, all in f32 with the f32 bounds; the f16 kernels then narrow with one `FCVTN` per
//!   result. No partial sum is ever kept in f16.
//!
//! KleidiAI's SME2 kernels (`..._qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot`,
//! `..._qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa`, f32 and f16, read from their assembly in
//! KleidiAI 1.30) read the `ps1s0nrx4` RHS: unsigned nibbles in K order that `LUTI4` maps to
//! `w = u - 8`, and the user's scales as given, so `I = sum lq * w` and the block's scale product
//! is `rs * ls`. They fold blocks in the same order, then differ as their catalog `Epilogue`
//! says:
//! - both clamp with `FCLAMP` (`FMAXNM`, then `FMINNM`: a quiet NaN becomes a bound);
//! - the `1vlx4vl` GEMM starts its first block with `FMUL rz, lsum` instead of an `FMLA` into
//!   `+0` (only the sign of a zero differs) and parks its accumulators in the destination between
//!   blocks: the f16 GEMM rounds them to f16 after every block (and widens them back for the next
//!   block and for the bias), so its f16 result is not the f32 GEMM's result narrowed;
//! - the f16 kernels clamp in f32 and narrow with `FCVT` (nearest even); the f16 GEMV asserts
//!   `m == 1` like the f32 ones.
//!
//! rkai's kernels, its portable implementation and its reference compute exactly this, so results
//! are bit-identical (NaN payloads aside; checked against KleidiAI's SME2 kernels under QEMU at
//! every streaming length).
//!
//! Each f32 NEON asm kernel (one per tile, the f16 stems of the same tile narrow its results) runs
//! column groups of 4 outside and rows inside; the GEMMs take 8 rows per pass (the i8mm one
//! shares each decoded weight register between two LHS groups) or 4 (dotprod, and the i8mm tail).
//! KleidiAI's GEMMs also take 8 rows (two packed groups) per pass and the rest 4 at a time,
//! storing only the rows and columns of the portion. The SME2 kernels (one file each, with its f16
//! form as a nested `f16` module that converts and stores f16 itself) follow the loop orders of
//! the `qai8dxp_qsi4c32p` SME2 kernels.
//!
//! Preconditions are the wrappers' `KAI_ASSUME`s, checked in release builds too:
//! `dst_stride_col == sizeof(float)` (`sizeof(uint16_t)` for f16), `(k % bl) == 0`,
//! `(bl % 32) == 0`, and for the f32 GEMVs and the SME2 f16 GEMV `m == 1`, which KleidiAI
//! asserts before its `m == 0` early return (so an empty GEMV call aborts too; its NEON f16
//! GEMVs take any `m`). rkai
//! adds `bl > 0`, non-null buffers, a row stride that holds a row, and sizes that fit in `size_t`.
//!
//! Departures from KleidiAI 1.30: a call with `n == 0` reads and writes nothing (KleidiAI's asm
//! enters its column loop once, reading a packed column group and storing one element per row);
//! with `bl` violating both `(bl % 32) == 0` and `(k % bl) == 0` rkai names the former,
//! KleidiAI the latter.
//!
//! # Packed operands
//!
//! In terms of a kernel's tile (`mr`, `nr`, `kr`, `sr`) and `nb = k / bl`:
//! - LHS ([`lhs_quant_pack_qsi8d32pscalef32`]): groups of `mr` rows, `mr * nb * (bl + 8)` bytes
//!   each ([`layout::qsi8d32pscalef32::stride`]): per block, the int8 values in chunks of
//!   `kr / sr` K values of each row in turn, then `lsum: [f32; mr]` and `ls: [f32; mr]`.
//! - RHS ([`rhs_pack_nxk_qai4c32p`]): groups of `nr` columns, `nr * (nb * (bl / 2 + 8) + 4)`
//!   bytes each ([`layout::qai4c32p::stride`]): per block `nr * bl / 2` nibble bytes in chunks
//!   of `kr / sr` bytes of each column in turn, then `rz: [f32; nr]` and `rs: [f32; nr]`; after
//!   the blocks `bias: [f32; nr]`. For the NEON kernels, byte `t` of a column's 32-value
//!   sub-block holds its values `t` (low nibble) and `16 + t` (high nibble) as signed `u - 8`,
//!   with `rs16 = rs / 16`; the SME2 kernels' `ps1s0nrx4` form holds consecutive unsigned
//!   values, low nibble first, with the scales as given.
//! - dst: row `i` of `n` f32 values (f16 for the f16 stems) at byte offset `i * dst_stride_row`.
//!
//! # Safety
//!
//! Every asm kernel `fn(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`; `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of each row `i < m` (`n` elements), not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`lhs_quant_pack_qsi8d32pscalef32`]: crate::pack::lhs_quant_pack_qsi8d32pscalef32
//! [`rhs_pack_nxk_qai4c32p`]: crate::pack::rhs_pack_nxk_qai4c32p
//! [`layout::qsi8d32pscalef32::stride`]: crate::layout::qsi8d32pscalef32::stride
//! [`layout::qai4c32p::stride`]: crate::layout::qai4c32p::stride

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm,
}

pub use super::args::PackedArgs as Args;
use super::output::run_narrowed;
use crate::contract::{self, Checked};
use crate::kernel::{MatmulKernel, Rows};
use crate::layout;
use crate::matmul::args::KernelFn;
use crate::matmul::args::check_packed_output_buffers;
use crate::pack::kinds::{PackerKind, RhsPackerKind};
use crate::reference::qai4c32p::Arithmetic;

/// Whether `kernel` takes exactly one row per call ([`Rows::One`] in the catalog): KleidiAI's f32
/// GEMV wrappers and its SME2 f16 GEMV assert `m == 1` (before their `m == 0` early return, so an
/// empty call is refused too); its NEON f16 GEMVs take any `m`.
pub fn one_row(kernel: &MatmulKernel) -> bool {
    kernel.rows == Rows::One
}

/// How `kernel` computes: its packed weight form (from its RHS packers), its epilogue and its
/// output type.
pub fn arithmetic(kernel: &MatmulKernel) -> Arithmetic {
    let sequential = kernel
        .rhs_packers
        .iter()
        .any(|p| matches!(p.kind, PackerKind::Rhs(RhsPackerKind::Qai4c32p(v)) if v.sequential()));
    Arithmetic {
        sequential,
        finish: kernel.epilogue,
        output: kernel.family.output(),
    }
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    let out = kernel.family.output();
    contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    layout::qai4c32p::check_block(a.k, a.bl)?;
    if one_row(kernel) {
        contract::require(a.m == 1, "m == 1")?;
    }
    layout::qsi8d32pscalef32::stride(a.k, a.bl, tile.mr)?;
    layout::qai4c32p::stride(a.k, tile.nr, a.bl)?;
    check_packed_output_buffers(a, out)
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64 where it has one,
/// the portable implementation (same bits) elsewhere. f16 output: the SME2 kernels store it
/// themselves (`KernelFn::PackedOutput`), the NEON stems run the f32 kernel of the same tile and
/// are narrowed through a staging tile, and the portable path stores it directly.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let tile = kernel.tile();
    match (kernel.native, kernel.family.output().narrowing()) {
        // SAFETY (every arm): forwarded contract; for 16-bit outputs dst rows hold n 16-bit
        // elements and the strides are the packed groups' sizes.
        (KernelFn::PackedOutput(f), _) | (KernelFn::Packed(f), None) => unsafe { f(a) },
        (KernelFn::Packed(f), Some(narrow)) => {
            let strides = (
                layout::qsi8d32pscalef32::stride(a.k, a.bl, tile.mr).unwrap_or(0),
                layout::qai4c32p::stride(a.k, tile.nr, a.bl).unwrap_or(0),
            );
            unsafe { run_narrowed(&tile, strides, narrow, a, |a: &Args| f(a)) }
        }
        (KernelFn::Portable | KernelFn::UnpackedLhs(_) | KernelFn::Indirect(_), _) => unsafe {
            portable::run(&tile, &arithmetic(kernel), a)
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{BlockFold, Clamp, Epilogue, Partials, kernel_entries, kernel_entry, native};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qsi8d32pscalef32::{
    lhs_quant_pack_qsi8d32pscalef32_f16_neon, lhs_quant_pack_qsi8d32pscalef32_f32_neon,
};
use crate::pack::rhs_pack_nxk_qai4c32p::{
    rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon,
    rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon,
    rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon,
};

const QSI8D32PSCALEF32_F32_LHS: &[&Packer] = &[&lhs_quant_pack_qsi8d32pscalef32_f32_neon];
const QSI8D32PSCALEF32_F16_LHS: &[&Packer] = &[&lhs_quant_pack_qsi8d32pscalef32_f16_neon];
const QAI4C32P_RHS: &[&Packer] = &[&rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon];
/// qai4c32p packers writing the sequential-nibble (`ps1s0nrx4`) data of the SME2 kernels; the
/// `s0s1` one first, whose source is the NEON packer's.
const QAI4C32PS1S0_RHS: &[&Packer] = &[
    &rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon,
    &rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon,
];

/// A kernel of the `self` families: family, LHS packer list, and the asm module of
/// `matmul::matmul_clamp_f32_qsi8d32p_qai4c32p` implementing its tile (the f16 kernels narrow the f32
/// kernel of the same tile), or `portable` where there is none yet.
macro_rules! qsi8d32p_qai4c32p_kernel {
    ($(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $isa:ident, $tile:tt,
        portable) => {
        kernel_entry!($(#[$doc])* $stem, $family, $lhs, QAI4C32P_RHS, $isa, $tile,
            KernelFn::Portable);
    };
    ($(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $isa:ident, $tile:tt,
        $module:ident) => {
        qsi8d32p_qai4c32p_kernel!($(#[$doc])* $stem, $family, $lhs, $isa, $tile, $module,
            Any);
    };
    ($(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $isa:ident, $tile:tt,
        $module:ident, $rows:ident) => {
        kernel_entry!($(#[$doc])* $stem, $family, $lhs, QAI4C32P_RHS, $isa, $tile,
            native!(self::$module), KleidiAi, Fixed, $rows);
    };
}

/// A KleidiAI SME2 kernel of the `self` families: family, LHS packer list, stem,
/// tile in streaming-vector units, rows per call, epilogue, and the module of
/// `matmul::matmul_clamp_f32_qsi8d32p_qai4c32p` implementing it (with `:: f16`, its f16-output
/// form).
macro_rules! streaming_qai4c32p_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $tile:tt,
        $columns:ident, $rows:ident, $epilogue:expr, $module:ident $(:: $out:ident)?
    ) => {
        kernel_entry!($(#[$doc])* $stem, $family, $lhs, QAI4C32PS1S0_RHS, Sme2, $tile,
            native!(self::$module $(:: $out)?), KleidiAi, $columns, $rows,
            $epilogue);
    };
}

/// SME2 kernels of the asymmetric int4 families, whose results take no final scale (the bias is
/// added with `FADD`, so `scale_bias` does not apply): `FCLAMP`; the GEMV folds every block with
/// fused multiply-adds from `+0` in registers.
const QAI4C32P_SME2_DOT: Epilogue = Epilogue {
    clamp: Clamp::MaxNumThenMinNum,
    ..Epilogue::VECTOR
};

/// The outer-product GEMM: as [`QAI4C32P_SME2_DOT`], but its first block's zero-offset term is a
/// plain `FMUL`, and its sums wait in the destination between blocks (in f16 for f16 output).
const QAI4C32P_SME2_MOPA: Epilogue = Epilogue {
    block_fold: BlockFold::FirstMultiplies,
    partials: Partials::Destination,
    ..QAI4C32P_SME2_DOT
};

kernel_entries! {
    /// Asymmetric int4 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value chunks.
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, NeonDotprod, [1, 4, 1, 4, 8, 2],
        matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod, One);
    /// Asymmetric int4 GEMV, 1 row x 4 columns per step, SDOT on 8-value chunks.
    matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, NeonDotprod, [1, 4, 1, 4, 16, 2],
        matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod, One);
    /// Asymmetric int4 GEMM, 8 rows x 4 columns per step, SDOT by element.
    matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, NeonDotprod, [8, 4, 4, 4, 8, 2],
        matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod);
    /// Asymmetric int4 GEMM, 8 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm: qsi8d32p_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, NeonI8mm, [8, 4, 4, 4, 16, 2],
        matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm);
    /// Asymmetric int4 GEMV, 1 row x 4 x SVL32 columns per step: `LUTI4` expands the weights,
    /// multi-vector `SDOT` into ZA per block.
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot: streaming_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, [1, 4, 1, 4, 8, 2], PerSmeLane32, One,
        QAI4C32P_SME2_DOT, matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot);
    /// Asymmetric int4 GEMM, SVL32 rows x 4 x SVL32 columns per step: `LUTI4` expands the
    /// weights, `SMOPA` into four ZA tiles per block.
    matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa: streaming_qai4c32p_kernel!(
        F32Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F32_LHS, [1, 4, 1, 4, 8, 2],
        RowsAndColumnsPerSmeLane32, Any, QAI4C32P_SME2_MOPA,
        matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa);
    /// Asymmetric int4 f16 output, GEMV, 1 row x 4 columns per step, SDOT by element on 4-value chunks.
    matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, NeonFp16Dotprod, [1, 4, 1, 4, 8, 2],
        matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod);
    /// Asymmetric int4 f16 output, GEMV, 1 row x 4 columns per step, SDOT on 8-value chunks.
    matmul_clamp_f16_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, NeonFp16Dotprod, [1, 4, 1, 4, 16, 2],
        matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod);
    /// Asymmetric int4 f16 output, GEMM, 8 rows x 4 columns per step, SDOT by element.
    matmul_clamp_f16_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod: qsi8d32p_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, NeonFp16Dotprod, [8, 4, 4, 4, 8, 2],
        matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod);
    /// Asymmetric int4 f16 output, GEMM, 8 rows x 4 columns per step, SMMLA.
    matmul_clamp_f16_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm: qsi8d32p_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, NeonFp16I8mm, [8, 4, 4, 4, 16, 2],
        matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm);
    /// Asymmetric int4 f16 GEMV, 1 row x 4 x SVL32 columns per step, multi-vector `SDOT`.
    matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot: streaming_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, [1, 4, 1, 4, 8, 2], PerSmeLane32, One,
        QAI4C32P_SME2_DOT, matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot::f16);
    /// Asymmetric int4 f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA`.
    matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa: streaming_qai4c32p_kernel!(
        F16Qsi8d32pQai4c32p, QSI8D32PSCALEF32_F16_LHS, [1, 4, 1, 4, 8, 2],
        RowsAndColumnsPerSmeLane32, Any, QAI4C32P_SME2_MOPA,
        matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa::f16);
}
