//! The bf16 GEMM families with both operands packed, `matmul_clamp_f32_bf16p_bf16p` and
//! `matmul_clamp_f16_bf16p_bf16p`: their arguments, precondition checks and dispatch.
//!
//! Packed LHS (`bf16p{mr}x4`, see `pack::lhs_pack_bf16`): blocks of `mr` rows, K padded with zeros
//! to a multiple of 4. Packed RHS (`bf16p12x4b`, see `pack::rhs_pack_bf16`): groups of 12 columns,
//! the 12 biases (f32, or f16 for the f16 family) first, then 4 K values per column; the padded K
//! values repeat the RHS's first row, so they still meet the LHS's zeros (`0 * inf` is a NaN).
//!
//! Numerics of KleidiAI's BFMMLA kernels ([`Accumulation::Chain`]): every output starts from its
//! column's bias (f16 biases widened exactly) and takes, per group of 4 K values, two steps of
//! [`crate::float::bf16`] (`acc + (a0 b0 + a1 b1)`, then the same for K values 2-3), rounded to
//! odd with subnormals flushed; then `FMIN` with the upper bound and `FMAX` with the lower (f32),
//! and for the f16 family `FCVTN` to f16 (ties to even).
//!
//! KleidiAI's one-row BFDOT kernel (`..._1x36_neon_dot`, [`Accumulation::SplitPairs`]) keeps two
//! partial sums per column, in neighbouring lanes: the bias plus the steps of K values 0-1 of
//! every group, and `+0` plus the steps of K values 2-3; `FADDP` adds them (round to nearest,
//! subnormals kept) before the clamp. The same inputs therefore give results that may differ in
//! the last bits between the GEMV and the GEMM, exactly as in KleidiAI.
//!
//! The SME family `matmul_clamp_fp32_bf16p_bf16p` (folder `matmul_clamp_fp32_bf16p_bf16p`) has
//! the same operands in streaming-length tiles (`bf16p2vlx2`: `kr` = 2, `mr` = `nr` = 2 x SVL32)
//! and its own order, [`Accumulation::OuterProducts`]: see that folder's documentation. The SME
//! f32 and f16 families (`matmul_clamp_f32_f32p_f32p`, `f32p2vlx1`, `kr` = 1;
//! `matmul_clamp_f16_f16p_f16p`, `f16p2vlx2`, `kr` = 2) have the same packed-float operands
//! ([`Operands::PackedFloat`], the value type as parameter), the same outer-product order and the
//! same asm template (`matmul::float_mopa_template`), with `FMOPA` on f32 or widening `FMOPA` on
//! halves in place of `BFMOPA`; this module checks and runs all of them.
//!
//! Departures from KleidiAI: `k == 0` in the BFMMLA kernels, whose loop count `k / 4 - 1` reads
//! out of bounds in KleidiAI; rkai returns the clamped biases. The copy of KleidiAI's BFDOT
//! kernel that could be read (vendored by Arm Compute Library) never clamps: its activation flag
//! is hard-wired off and KleidiAI's tests pass infinite bounds. rkai's applies `clamp_min` and
//! `clamp_max` as the function's documentation promises (KleidiAI fixed the same omission in its
//! Q4_0 GEMV); for infinite bounds the bits are the same either way.

asm_kernel_modules! {
    matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot,
    matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla,
}
pub mod portable;

pub use super::args::PackedArgs as Args;
use crate::contract::{self, Checked};
use crate::element::Output;
use crate::family::{Family, Operands};
use crate::kernel::{Clamp, MatmulKernel, Rows};

/// K values per packed step of the NEON kernels.
pub const KR: usize = 4;

/// Order in which a kernel accumulates an output (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accumulation {
    /// One chain from the bias, K values 0-1 then 2-3 of each group (`BFMMLA`).
    Chain,
    /// Two chains, bias + K values 0-1 and +0 + K values 2-3, added at the end (`BFDOT`).
    SplitPairs,
    /// The SME kernels: the bias enters a zeroed ZA tile through `FMOPA` with a vector of ones
    /// ([`za_bias`]), then one outer-product step (`BFMOPA`, `FMOPA`) per `kr` K values.
    OuterProducts,
}

/// How `kernel` accumulates: KleidiAI's one-row kernel is its `BFDOT` one, the SME family's
/// kernels are outer products.
pub fn accumulation(kernel: &MatmulKernel) -> Accumulation {
    match (kernel.family, kernel.rows) {
        (
            Family::Fp32Bf16pBf16p
            | Family::F32F32pF32p
            | Family::F16F16pF16p
            | Family::ImatmulF32F32pF32p
            | Family::ImatmulF16F16pF16p,
            _,
        ) => Accumulation::OuterProducts,
        (_, Rows::One) => Accumulation::SplitPairs,
        (_, Rows::Any) => Accumulation::Chain,
    }
}

/// A bias as `FMOPA` adds it to a zeroed ZA tile (`0 + 1.0 * bias`, one rounding; ZA-targeting
/// instructions produce the default NaN): `-0` becomes `+0`, a NaN the default NaN, every other
/// value (subnormals included, FPCR.FZ being 0) stays.
pub fn za_bias(bias: f32) -> f32 {
    if bias.is_nan() {
        f32::from_bits(0x7fc0_0000)
    } else {
        bias + 0.0
    }
}

/// The clamp of `kernel`: `FCLAMP` for an SME2 kernel ([`Clamp::MaxNumThenMinNum`] in its
/// epilogue), `FMIN` with the upper bound then `FMAX` with the lower for every other kernel of
/// the bf16 families (which read nothing else of their epilogue).
pub fn clamp(kernel: &MatmulKernel, y: f32, lo: f32, hi: f32) -> f32 {
    match kernel.epilogue.clamp {
        Clamp::MaxNumThenMinNum => crate::float::clamp_num(y, lo, hi),
        Clamp::MaxThenMin | Clamp::NarrowedMaxNumThenMinNum => {
            crate::float::clamp_upper_first(y, lo, hi)
        }
    }
}

/// The f16 result of an SME f16 kernel (`matmul_clamp_f16_f16p_f16p`) for the f32 sum `y`: `FCVT`
/// to a half, then the clamp on halves with bounds narrowed by `FCVT` too (as KleidiAI's `run`
/// narrows them): `FMIN` with the upper then `FMAX` with the lower bound (SME), or `FCLAMP`
/// (SME2: `FMAXNM` with the lower, then `FMINNM` with the upper bound).
pub fn narrow_then_clamp(kernel: &MatmulKernel, y: f32, lo: f32, hi: f32) -> u16 {
    use crate::float::f16;
    let (y, lo, hi) = (f16::from_f32(y), f16::from_f32(lo), f16::from_f32(hi));
    match kernel.epilogue.clamp {
        Clamp::MaxNumThenMinNum => f16::clamp_num(y, lo, hi),
        Clamp::MaxThenMin | Clamp::NarrowedMaxNumThenMinNum => f16::clamp_upper_first(y, lo, hi),
    }
}

/// The type of the packed LHS and RHS values of `family`, one of the packed-float families.
#[inline(always)]
pub fn values(family: Family) -> Output {
    match family.description().operands {
        Operands::PackedFloat(values) | Operands::ChunkedPackedFloat(values) => values,
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::UnpackedFloat
        | Operands::IndirectFloat
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb => Output::Bf16,
    }
}

/// Bytes of one packed LHS row of `family` for `k` (K padded to a multiple of `kr`).
pub fn lhs_row_bytes(family: Family, k: usize, kr: usize) -> Result<usize, contract::Violation> {
    let cond = "packed LHS offset fits in size_t";
    contract::mul(contract::roundup(k, kr, cond)?, values(family).size(), cond)
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertion on `dst_stride_col`
/// (where its source makes it), non-null buffers, a destination row stride that holds a row, and
/// packed sizes that fit.
///
/// KleidiAI's one-row kernel asserts `m == 1` and ignores both destination strides instead.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let out = kernel.family.output();
    let t = kernel.tile();
    if kernel.rows == Rows::One {
        contract::require(a.m == 1, "m == 1")?;
    } else if kernel.asserts.dst_stride_col {
        contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    }
    kernel.family.rhs_layout(0).stride(a.k, t.nr, t.kr, 1)?;
    let row = lhs_row_bytes(kernel.family, a.k, t.kr)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::mul(
        contract::roundup(a.m, kernel.tile().mr, "packed LHS size fits in size_t")?,
        row,
        "packed LHS size fits in size_t",
    )?;
    contract::require(a.k == 0 || !a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, out.size(), "n * sizeof(dst) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_stride_row / out.size() * out.size() >= row_bytes,
        out.row_condition(),
    )?;
    Ok(())
}

/// Runs `kernel`: its hand-written implementation on aarch64 where there is one, the portable
/// one (same bits) elsewhere.
///
/// # Safety
/// [`check`] must have passed; the packed LHS must hold the portion's row blocks, the packed RHS
/// its column groups, and the destination `m` rows of `n` elements; on aarch64 the CPU must
/// implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match kernel.native.packed() {
        // SAFETY: forwarded contract.
        Some(f) if a.k > 0 => unsafe { f(a) },
        // SAFETY: forwarded contract.
        _ => unsafe { portable::run(kernel, a) },
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{kernel_entries, kernel_entry, native};

use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_bf16::{
    lhs_pack_bf16p8x4_f16_neon, lhs_quant_pack_bf16p1x4_f32_neon, lhs_quant_pack_bf16p8x4_f32_neon,
};
use crate::pack::rhs_pack_bf16::{
    rhs_pack_kxn_bf16p12x4biasf16_f16_neon, rhs_pack_kxn_bf16p12x4biasf32_f16_neon,
    rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon,
};

/// LHS packers of the 8-row bf16 kernels (f32 or f16 source).
const BF16P8X4_LHS: &[&Packer] = &[
    &lhs_quant_pack_bf16p8x4_f32_neon,
    &lhs_pack_bf16p8x4_f16_neon,
];
/// RHS packers writing 12-column bf16 groups with f32 biases (f32 or f16 source).
const BF16P12X4BIASF32_RHS: &[&Packer] = &[
    &rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon,
    &rhs_pack_kxn_bf16p12x4biasf32_f16_neon,
];
/// LHS packer of the one-row bf16 kernel.
const BF16P1X4_LHS: &[&Packer] = &[&lhs_quant_pack_bf16p1x4_f32_neon];
const BF16P8X4_F16_LHS: &[&Packer] = &[&lhs_pack_bf16p8x4_f16_neon];
const BF16P12X4BIASF16_RHS: &[&Packer] = &[&rhs_pack_kxn_bf16p12x4biasf16_f16_neon];

/// A kernel of a bf16 GEMM family: its asm module (under `matmul::bf16_gemm`), `f16_output` and
/// the f32 kernel's module whose asm it runs with f16 biases and results.
macro_rules! bf16_gemm_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, f16_output, $module:ident
    ) => {
        kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile,
            native!(@on_aarch64 Packed(crate::matmul::bf16_gemm::$module::run_f16)));
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, $module:ident
    ) => {
        bf16_gemm_kernel!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile, $module,
            Any);
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, $module:ident, $rows:ident
    ) => {
        kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile,
            native!(self::$module), KleidiAi, Fixed, $rows);
    };
}

kernel_entries! {
    /// bf16 GEMV to f32, one row x 36 columns per step, BFDOT.
    matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot: bf16_gemm_kernel!(
        F32Bf16pBf16p, BF16P1X4_LHS, BF16P12X4BIASF32_RHS, NeonBf16, [1, 36, 1, 12, 4, 1],
        matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot, One);
    /// bf16 GEMM to f32, 8 rows x 12 columns per step, BFMMLA.
    matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla: bf16_gemm_kernel!(
        F32Bf16pBf16p, BF16P8X4_LHS, BF16P12X4BIASF32_RHS, NeonBf16, [8, 12, 8, 12, 4, 1],
        matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla);
    /// bf16 GEMM to f16, 8 rows x 12 columns per step, BFMMLA.
    matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla: bf16_gemm_kernel!(
        F16Bf16pBf16p, BF16P8X4_F16_LHS, BF16P12X4BIASF16_RHS, NeonFp16Bf16, [8, 12, 8, 12, 4, 1],
        f16_output, matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla);
}
