//! `matmul_clamp_f32_qai8dxp_qsu2cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x 2-bit RHS codes (per channel) mapped to int8 weights by a 4-entry table, plus
//! bias, clamped (llama.cpp's Q2_0C).
//!
//! For row i and column j (`lq` packed LHS values, `w = lut[code] as i8`, trailers as packed):
//! `acc = sum(lq * w) + lhs_offset[i] * rsum[j]` in wrapping i32; then
//! `y = f32(acc) * (rscale[j] * lhs_scale[i]) + bias[j]`, clamped. `rsum` is what the packer
//! wrote from the same table (see `pack::rhs_pack_nxk_qsu2cxp`); the kernels read each table
//! entry's low byte, as KleidiAI's do. A null `lut` means `{-2, -1, 0, 1}`.
//!
//! Preconditions (KleidiAI's `KAI_ASSUME`s, checked in release builds too):
//! `dst_stride_col == sizeof(float)`, `m > 0`, `n > 0`, `k > 0`, `k % 32 == 0`, and `m == 1` for
//! the NEON GEMV. The NEON kernels read the `4x4` interleave (`TBL` decode, `SDOT` by element),
//! the SME2 ones the `4vlx4` interleave (`LUTI2` decode through ZT0, which rkai loads from a
//! 64-byte copy of the table rather than reading 64 bytes at the caller's 16-byte `lut`).
//!
//! # Safety
//!
//! The SME2 kernels `fn(m, n, k, lut, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` require, besides the CPU features their own `# Safety` names (with `mr` and `nr`
//! the tile's, `k_int = k` here):
//! * `m >= 1`, `n >= 1`, `k` a positive multiple of 32; a non-null `lut` holds 4 `i32`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups of `mr * (k + 8)` bytes and
//!   `rhs_packed` of `ceil(n / nr)` RHS groups of `nr * (k / 4 + 12)` bytes (the last groups are
//!   read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m` at byte offset
//!   `i * dst_stride_row`, not overlapping the packed inputs; nothing else is written.
//! * No alignment of any pointer.

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa,
}

pub use super::args::PackedArgs as Args;
use crate::contract::{self, Checked};
use crate::kernel::{MatmulKernel, Rows};
use crate::pack::kinds::{PackerKind, RhsPackerKind};
use crate::pack::rhs_pack_nxk_qsu2cxp::{K_MULTIPLE, Variant};

/// The interleave `kernel` reads (from its RHS packers).
pub fn variant(kernel: &MatmulKernel) -> Variant {
    match kernel.rhs_packers.first().map(|p| p.kind) {
        Some(PackerKind::Rhs(RhsPackerKind::Qsu2cxp(v))) => v,
        _ => Variant::P4x4,
    }
}

/// KleidiAI's assertions beyond the `qai8dxp` families' common ones, in its order.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    contract::require(a.m > 0, "m > 0")?;
    contract::require(a.n > 0, "n > 0")?;
    contract::require(a.k > 0, "k > 0")?;
    contract::require(a.k % K_MULTIPLE == 0, "k % kai_k_multiple_of == 0")?;
    if kernel.rows == Rows::One {
        contract::require(a.m == 1, "m == 1")?;
    }
    Ok(())
}

/// The 16-byte `TBL` table of the NEON kernels (entries' low bytes, then zeros) and the 64-byte
/// ZT0 image of the SME2 ones (entries as 32-bit words, then zeros) for a caller's `lut`.
///
/// # Safety
/// A non-null `lut` points to 4 `i32`.
#[cfg(target_arch = "aarch64")]
pub(crate) unsafe fn tables(lut: *const i32) -> ([i8; 16], [i32; 16]) {
    // SAFETY: forwarded contract.
    let t = unsafe { crate::pack::rhs_pack_nxk_qsu2cxp::table(lut) };
    let mut tbl = [0i8; 16];
    let mut zt0 = [0i32; 16];
    for i in 0..4 {
        tbl[i] = t[i] as i8;
        zt0[i] = t[i];
    }
    (tbl, zt0)
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    Epilogue, SME2_DOT, SME2_MOPA, ScaleBias, kernel_entries, kernel_entry, native,
};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qai8dxp::lhs_quant_pack_qai8dxp_f32;
use crate::pack::rhs_pack_nxk_qsu2cxp::{
    rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon, rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon,
};

const QAI8DXP_F32_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f32];
/// The 2-bit packers: the NEON kernels' 4-column interleave and the SME2 kernels' `4vlx4`.
const QSU2CXP4X4_RHS: &[&Packer] = &[&rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon];
const QSU2CXP4VLX4_RHS: &[&Packer] = &[&rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon];

/// A kernel of `matmul_clamp_f32_qai8dxp_qsu2cxp` (2-bit weights through a value table).
macro_rules! f32_qai8dxp_qsu2cxp_kernel {
    ($(#[$doc:meta])* $stem:ident, $rhs:ident, $isa:ident, $tile:tt, $columns:ident,
     $rows:ident, $epilogue:expr) => {
        kernel_entry!($(#[$doc])* $stem, F32Qai8dxpQsu2cxp, QAI8DXP_F32_LHS, $rhs, $isa,
            $tile, native!(self::$stem), KleidiAi, $columns, $rows, $epilogue);
    };
}

kernel_entries! {
    /// GEMV, 1 row x 4 columns, 2-bit codes decoded with `TBL`, SDOT by element (one row per
    /// call: KleidiAI asserts `m == 1`).
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod: f32_qai8dxp_qsu2cxp_kernel!(
        QSU2CXP4X4_RHS, NeonDotprod, [1, 4, 1, 4, 4, 1], Fixed, One, Epilogue::VECTOR);
    /// GEMM, 8 rows x 4 columns per step, 2-bit codes decoded with `TBL`, SDOT by element.
    matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod: f32_qai8dxp_qsu2cxp_kernel!(
        QSU2CXP4X4_RHS, NeonDotprod, [8, 4, 4, 4, 4, 1], Fixed, Any,
        Epilogue { scale_bias: ScaleBias::ScaleEachThenAdd, ..Epilogue::VECTOR });
    /// GEMV, 1 row x 4 x SVL32 columns per step: 2-bit codes expanded with `LUTI2`,
    /// multi-vector `SDOT` into ZA.
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot: f32_qai8dxp_qsu2cxp_kernel!(
        QSU2CXP4VLX4_RHS, Sme2, [1, 4, 1, 4, 4, 1], PerSmeLane32, Any, SME2_DOT);
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step: 2-bit codes expanded with `LUTI2`,
    /// `SMOPA` into four ZA tiles.
    matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa: f32_qai8dxp_qsu2cxp_kernel!(
        QSU2CXP4VLX4_RHS, Sme2, [1, 4, 1, 4, 4, 1], RowsAndColumnsPerSmeLane32, Any, SME2_MOPA);
}
