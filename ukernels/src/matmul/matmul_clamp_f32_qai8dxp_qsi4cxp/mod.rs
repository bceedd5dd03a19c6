//! `matmul_clamp_f32_qai8dxp_qsi4cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int4 RHS (per channel, symmetric), plus bias, clamped.
//!
//! For row i and column j (`lq` packed LHS values, `w16` = 16 x int4 weight, trailers as packed):
//! `acc = sum(lq * w16) + lhs_offset[i] * rsum[j]` in wrapping i32; then
//! `y = f32(acc) * (rscale[j] * lhs_scale[i]) + bias[j]` (multiply and add not fused), clamped
//! with `FMAX` then `FMIN`.
//!
//! The SME kernels finish as the catalog's `Epilogue` says (the `1x4vl` GEMVs fuse the
//! multiply-add; SME2 clamps with `FCLAMP`). The SME2 ones read the sequential-nibble layout of
//! `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon`, whose weights, row sums and scales are unscaled
//! (`w` instead of `w16`, `rsum` and `rscale` as given), decoded with `LUTI4`; the SME ones read
//! `s16s0` like the NEON kernels.
//!
//! # Packed operands
//!
//! In terms of a kernel's tile (`mr`, `nr`, `kr`, `sr`; `4vl` is 4 x SVL32, `2vl` 2 x VL32) and
//! `k_int = roundup(k, 32)` (the packers pad K to whole 32-value chunks):
//! - LHS ([`lhs_quant_pack_qai8dxp`]): groups of `mr` rows, `mr * (k_int + 8)` bytes each
//!   ([`layout::qai8dxp::stride`]): the int8 values in chunks of `kr / sr` K values of each row
//!   in turn, then `lhs_offset: [i32; mr]` (negated zero points) and `lhs_scale: [f32; mr]`.
//! - RHS: groups of `nr` columns, `nr * (k_int / 2 + 12)` bytes each
//!   ([`layout::qsi4cxp::stride`]): `nr * k_int / 2` bytes of signed nibbles, then
//!   `rsum: [i32; nr]`, `rscale: [f32; nr]`, `bias: [f32; nr]`. In the `s16s0` order
//!   ([`rhs_pack_qsi4cxp_qs4cxs1s0`]), per 32-value chunk, per `kr / sr`-byte segment `s`, per
//!   column, byte `t` holds K `s * kr / sr + t` of the chunk in its low nibble and K
//!   `16 + s * kr / sr + t` in its high one, with `rsum` and `rscale` as `16 x` and `/ 16` the
//!   plain ones; in the sequential order of the SME2 kernels
//!   ([`rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0`]), per `kr`-value block, per column, consecutive K
//!   values share a byte (low nibble first), with plain `rsum` and `rscale`.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`, `k >= 1`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer; `dst_stride_row` should be a multiple of 4 (any value works on
//!   CPUs that allow unaligned accesses, as Linux on Arm64 does).
//!
//! [`lhs_quant_pack_qai8dxp`]: crate::pack::lhs_quant_pack_qai8dxp
//! [`rhs_pack_qsi4cxp_qs4cxs1s0`]: crate::pack::rhs_pack_qsi4cxp_qs4cxs1s0
//! [`rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0`]: crate::pack::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0
//! [`layout::qai8dxp::stride`]: crate::layout::qai8dxp::stride
//! [`layout::qsi4cxp::stride`]: crate::layout::qsi4cxp::stride

pub mod portable;

/// `LD1B z$z.b, p0/z, [$base, #$vl, mul vl]` for each listed `$z, $vl` pair.
#[cfg(target_arch = "aarch64")]
macro_rules! ld1b_vectors {
    ($base:literal; $($z:literal, $vl:literal);+ $(;)?) => {
        concat!($("ld1b {{z", $z, ".b}}, p0/z, [", $base, ", #", $vl, ", mul vl]\n",)+)
    };
}

/// `$pre$a$mid$b$post` on one line for each listed register pair `$a $b`.
#[cfg(target_arch = "aarch64")]
macro_rules! pair_lines {
    ($pre:expr, $mid:expr, $post:expr; $($a:literal $b:literal),+ $(,)?) => {
        concat!($($pre, $a, $mid, $b, $post, "\n",)+)
    };
}

/// The low nibbles of `s16s0` weights in z$r* as `16 x value` int8 in z$t* (`LSL #4`), then
/// `$between` (which uses them), then the high nibbles in place (`AND #0xf0`).
#[cfg(target_arch = "aarch64")]
macro_rules! s16s0_decode {
    ($r0:literal, $r1:literal, $r2:literal, $r3:literal => $t0:literal, $t1:literal,
     $t2:literal, $t3:literal; $between:expr) => {
        concat!(
            pair_lines!("lsl z", ".b, z", ".b, #4"; $t0 $r0, $t1 $r1, $t2 $r2, $t3 $r3),
            $between,
            pair_lines!("and z", ".b, z", ".b, #0xf0"; $r0 $r0, $r1 $r1, $r2 $r2, $r3 $r3),
        )
    };
}

/// One 4-vector run of an `s16s0` chunk in the SME GEMV: low nibbles (via z4-z7) times
/// activation block `$i` of z0 into z8-z11, high nibbles times block `$i` of z1 into z12-z15.
#[cfg(target_arch = "aarch64")]
macro_rules! s16s0_dot_run {
    ($r0:literal, $r1:literal, $r2:literal, $r3:literal; $i:literal) => {
        concat!(
            s16s0_decode!($r0, $r1, $r2, $r3 => 4, 5, 6, 7; pair_lines!(
                "sdot z", ".s, z", concat!(".b, z0.b[", $i, "]"); 8 4, 9 5, 10 6, 11 7
            )),
            pair_lines!(
                "sdot z", ".s, z", concat!(".b, z1.b[", $i, "]");
                12 $r0, 13 $r1, 14 $r2, 15 $r3
            ),
        )
    };
}

/// One 4-vector run of an `s16s0` chunk in the SME GEMM: low nibbles (via z8-z11) times LHS
/// block z$lo, high nibbles times LHS block z$hi, into tiles za0..za3.
#[cfg(target_arch = "aarch64")]
macro_rules! s16s0_mopa_run {
    ($r0:literal, $r1:literal, $r2:literal, $r3:literal; $lo:literal, $hi:literal) => {
        concat!(
            s16s0_decode!($r0, $r1, $r2, $r3 => 8, 9, 10, 11; pair_lines!(
                "smopa za", concat!(".s, p0/m, p0/m, z", $lo, ".b, z"), ".b";
                0 8, 1 9, 2 10, 3 11
            )),
            pair_lines!(
                "smopa za", concat!(".s, p0/m, p0/m, z", $hi, ".b, z"), ".b";
                0 $r0, 1 $r1, 2 $r2, 3 $r3
            ),
        )
    };
}

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa,
    matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm,
}

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{
    Asserts, Epilogue, IndexMultiple, SME_DOT, SME2_DOT, SME2_DOT_NARROWED, SME2_MOPA,
    SME2_MOPA_NARROWED, kernel_entries, kernel_entry, narrowed_kernel, native, streaming_entry,
    vla_qai8dxp_kernel,
};
use crate::pack::kinds::Packer;
use crate::pack::lhs_quant_pack_qai8dxp::{
    lhs_quant_pack_qai8dxp_bf16_neon, lhs_quant_pack_qai8dxp_f16_neon, lhs_quant_pack_qai8dxp_f32,
};
use crate::pack::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon;
use crate::pack::rhs_pack_qsi4cxp_qs4cxs1s0::{
    rhs_pack_kxn_qsi4cxp_qs4cxs1s0, rhs_pack_nxk_qsi4cxp_qs4cxs1s0,
};

const QSI4CXP_RHS: &[&Packer] = &[
    &rhs_pack_nxk_qsi4cxp_qs4cxs1s0,
    &rhs_pack_kxn_qsi4cxp_qs4cxs1s0,
];
/// The sequential-nibble int4 packer of KleidiAI's SME2 `qsi4cxp` kernels.
const QSI4CXPS1S0_RHS: &[&Packer] = &[&rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon];
const QAI8DXP_F32_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f32];
const QAI8DXP_F16_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_f16_neon];
const QAI8DXP_BF16_LHS: &[&Packer] = &[&lhs_quant_pack_qai8dxp_bf16_neon];

macro_rules! f32_qai8dxp_qsi4cxp_kernel {
    ($(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt) => {
        f32_qai8dxp_qsi4cxp_kernel!($(#[$doc])* $stem, $isa, $tile, $stem);
    };
    ($(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $module:ident) => {
        kernel_entry!($(#[$doc])* $stem, F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXP_RHS,
            $isa, $tile, native!(self::$module));
    };
}

/// KleidiAI's f32 `qai8dxp1x4_qsi4cxp4vlx4` SME2 GEMV asserts its column indices against its
/// constants `kai_nr` (4) and `kai_n_step` (1), not against the getters, which scale with the
/// streaming length (its f16 sibling calls the getters).
const SDOT_QSI4CXP_ASSERTS: Asserts = Asserts {
    rhs_packed_n_idx: IndexMultiple::Constant(4),
    dst_n_idx: IndexMultiple::Constant(1),
    ..Asserts::USUAL
};

kernel_entries! {
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod: f32_qai8dxp_qsi4cxp_kernel!(
        NeonDotprod, [1, 4, 1, 4, 8, 2]);
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod: f32_qai8dxp_qsi4cxp_kernel!(
        NeonDotprod, [1, 4, 1, 4, 16, 2]);
    /// GEMV, 1 row x 8 columns per step, SDOT.
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod: f32_qai8dxp_qsi4cxp_kernel!(
        NeonDotprod, [1, 8, 1, 8, 16, 2]);
    /// GEMM, 8 rows x 8 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod: f32_qai8dxp_qsi4cxp_kernel!(
        NeonDotprod, [8, 8, 4, 8, 8, 2]);
    /// GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod: f32_qai8dxp_qsi4cxp_kernel!(
        NeonDotprod, [16, 4, 4, 4, 8, 2]);
    /// GEMM, 4-row portions x 4 columns, SMMLA: runs the 8x4 loop (same packed formats), whose
    /// 8-row blocks reuse each decoded weight register twice as often as a 4-row loop can.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm: f32_qai8dxp_qsi4cxp_kernel!(
        NeonI8mm, [4, 4, 4, 4, 16, 2], matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm);
    /// GEMM, 8 rows x 4 columns per step, SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm: f32_qai8dxp_qsi4cxp_kernel!(
        NeonI8mm, [8, 4, 4, 4, 16, 2]);
    /// GEMM, 4-row portions x 8 columns, SMMLA: runs the 8x8 loop (same packed formats; see the
    /// 4x4 stem).
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm: f32_qai8dxp_qsi4cxp_kernel!(
        NeonI8mm, [4, 8, 4, 8, 16, 2], matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm);
    /// GEMM, 8 rows x 8 columns per step, SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm: f32_qai8dxp_qsi4cxp_kernel!(
        NeonI8mm, [8, 8, 4, 8, 16, 2]);
    /// GEMV, 1 row x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4cxp, QSI4CXP_RHS, Sve2Dotprod, [1, 2, 1, 2, 16, 2], self);
    /// GEMM, 8 rows x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4cxp, QSI4CXP_RHS, Sve2Dotprod, [8, 2, 4, 2, 16, 2], self);
    /// GEMM, 16 rows x 2 x VL32 columns per step, SVE SMMLA.
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm: vla_qai8dxp_kernel!(
        F32Qai8dxpQsi4cxp, QSI4CXP_RHS, Sve2I8mm, [16, 2, 4, 2, 16, 2], self);
    /// GEMV, 1 row x 4 x SVL32 columns per step, SME2 `SDOT` into ZA on `LUTI4`-decoded int4.
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot: streaming_entry!(
        F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXPS1S0_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        PerSmeLane32, SME2_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot,
        SDOT_QSI4CXP_ASSERTS);
    /// GEMV, 1 row x 4 x SVL32 columns per step, streaming SVE `SDOT` on `s16s0` int4.
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot: streaming_entry!(
        F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXP_RHS, Sme, [1, 4, 1, 4, 8, 2], PerSmeLane32,
        SME_DOT, self::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot);
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `LUTI4`-decoded int4, SME2 epilogue.
    matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa: streaming_entry!(
        F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXPS1S0_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        RowsAndColumnsPerSmeLane32, SME2_MOPA,
        self::matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa);
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `s16s0` int4.
    matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa: streaming_entry!(
        F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXP_RHS, Sme, [1, 4, 1, 4, 8, 2],
        RowsAndColumnsPerSmeLane32, Epilogue::VECTOR,
        self::matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa);
    /// bf16 GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks.
    matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod: narrowed_kernel!(
        Bf16Qai8dxpQsi4cxp, QAI8DXP_BF16_LHS, QSI4CXP_RHS, NeonDotprod, [1, 8, 1, 8, 16, 2],
        self::matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod);
    /// bf16 GEMM, 8 rows x 8 columns per step, SMMLA.
    matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm: narrowed_kernel!(
        Bf16Qai8dxpQsi4cxp, QAI8DXP_BF16_LHS, QSI4CXP_RHS, NeonI8mm, [8, 8, 4, 8, 16, 2],
        self::matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm);
    /// f16 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f16_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXP_RHS, NeonDotprod, [1, 4, 1, 4, 8, 2],
        self::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod);
    /// f16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXP_RHS, NeonDotprod, [1, 4, 1, 4, 16, 2],
        self::matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod);
    /// f16 GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    matmul_clamp_f16_qai8dxp4x4_qsi4cxp4x4_16x4_neon_dotprod: narrowed_kernel!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXP_RHS, NeonDotprod, [16, 4, 4, 4, 8, 2],
        self::matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod);
    /// f16 GEMM, 16-row portions x 4 columns, SMMLA (runs the f32 8x4 code: same packed formats).
    matmul_clamp_f16_qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm: narrowed_kernel!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXP_RHS, NeonI8mm, [16, 4, 4, 4, 16, 2],
        self::matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm);
    /// f16 GEMV, 1 row x 4 x SVL32 columns per step, SME2 `SDOT` into ZA on `LUTI4`-decoded int4.
    matmul_clamp_f16_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot: streaming_entry!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXPS1S0_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        PerSmeLane32, SME2_DOT_NARROWED,
        self::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot::f16);
    /// f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `LUTI4`-decoded int4.
    matmul_clamp_f16_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa: streaming_entry!(
        F16Qai8dxpQsi4cxp, QAI8DXP_F16_LHS, QSI4CXPS1S0_RHS, Sme2, [1, 4, 1, 4, 4, 1],
        RowsAndColumnsPerSmeLane32, SME2_MOPA_NARROWED,
        self::matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa::f16);
}
