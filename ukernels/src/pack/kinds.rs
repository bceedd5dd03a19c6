//! What each packer is: its kind (which fixes its C function set and its packed format), the
//! variants a packer module implements, and the [`Packer`] entry a packer module declares for
//! each of its C names. Below every packer module and the catalog: it imports none of them.

use crate::arch::Isa;
use crate::layout::RhsLayout;

/// What a packer does, which fixes its C function set: an LHS or an RHS packer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackerKind {
    /// Packs activations (the LHS).
    Lhs(LhsPackerKind),
    /// Packs weights (the RHS).
    Rhs(RhsPackerKind),
}

impl PackerKind {
    /// The LHS kind (`None` for an RHS packer).
    pub const fn lhs(self) -> Option<LhsPackerKind> {
        match self {
            PackerKind::Lhs(kind) => Some(kind),
            PackerKind::Rhs(_) => None,
        }
    }

    /// The RHS kind (`None` for an LHS packer).
    pub const fn rhs(self) -> Option<RhsPackerKind> {
        match self {
            PackerKind::Lhs(_) => None,
            PackerKind::Rhs(kind) => Some(kind),
        }
    }

    /// Format an RHS packer writes (`None` for LHS packers); `bl` as for [`Family::rhs_layout`](crate::family::Family::rhs_layout).
    pub const fn rhs_layout(self, bl: usize) -> Option<RhsLayout> {
        match self {
            PackerKind::Lhs(_) => None,
            PackerKind::Rhs(kind) => Some(kind.layout(bl)),
        }
    }
}

/// What an LHS packer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LhsPackerKind {
    /// Dynamic per-row int8 quantization (`lhs_quant_pack_qai8dxp_{f32,f16_neon,bf16_neon}`).
    Qai8dxp(LhsType),
    /// Symmetric int8 per block with f16 scales (`lhs_quant_pack_qsi8d32p_f32`, `..._f32_neon`,
    /// `lhs_quant_pack_qsi8d32p4x8sb_f32_neon`).
    Qsi8d32p(Qsi8d32pPacker),
    /// Symmetric int8 per block with f32 scales and block sums, from f32 or f16
    /// `lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon`.
    Qsi8d32pscalef32(Qsi8d32pscalef32Packer),
    /// bf16 LHS of the bf16 GEMM families (`lhs_quant_pack_bf16p{8,1}x4_f32_neon`,
    /// `lhs_pack_bf16p8x4_f16_neon`, `lhs_pack_bf16p2vlx2_f32_{sme,sme2}`).
    Bf16(Bf16LhsPacker),
    /// f32 rows to f16 in blocks of `mr` rows by pairs of K values (`lhs_pack_f16pmrx2_f32_neon`).
    F16pmrx2,
    /// Rows copied unchanged into groups of 2 x SVL32 rows (`lhs_pack_f32p2vlx1_f32_sme`,
    /// `lhs_pack_x16p2vlx2_x16_sme`, `lhs_pack_x8p2vlx4_x8_sme`).
    SmeRows(SmeRowsPacker),
    /// The format of `SmeRows(v)` over K chunks gathered through an indirection buffer, each
    /// chunk padded to whole steps (`lhs_imatmul_pack_x32p2vlx1_x32p_sme`,
    /// `lhs_imatmul_pack_x16p2vlx2_x16p_sme`).
    IndirectSmeRows(SmeRowsPacker),
}

/// The row-copying SME LHS packers (`pack::lhs_pack_sme_rows`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmeRowsPacker {
    /// f32 rows, one K value per step (`lhs_pack_f32p2vlx1_f32_sme`).
    F32p2vlx1,
    /// 16-bit rows, pairs of K values per step (`lhs_pack_x16p2vlx2_x16_sme`).
    X16p2vlx2,
    /// 8-bit rows, four K values per step (`lhs_pack_x8p2vlx4_x8_sme`).
    X8p2vlx4,
}

/// What an RHS packer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RhsPackerKind {
    /// Per-channel int4 (`rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0`).
    Qsi4cxp(Source),
    /// Per-channel int4 with sequential nibbles (`rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon`).
    Qsi4cxps1s0,
    /// Per-channel int8 (`rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon`).
    Qsi8cxp(Source),
    /// Per-channel 2-bit with a value table (`rhs_pack_nxk_qsu2cxp{4x4bf32sf32,4vlx4}_qsu2cx_neon`).
    Qsu2cxp(Qsu2cxpPacker),
    /// int4 with bf16 scales per block (`rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0` and the NEON
    /// `nrx4` / `nrx8` forms).
    Qsi4c32p(Qsi4c32pPacker),
    /// int4 with f16 scales per block from Q4_0 rows (`rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0`
    /// and the SME2 `ps1s0` NEON form).
    Qsi4c32pf16(Qsi4c32pf16Packer),
    /// Asymmetric int4 with f32 scales and zero offsets per block and an f32 bias
    /// `rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon` and the SME2 `ps1s0nrx4` forms.
    Qai4c32p(Qai4c32pPacker),
    /// Float with the bias in front (`rhs_pack_{kxn,nxk}_x32p16x1b*`, `..._f32p8x1biasf32_...`,
    /// `..._x32p4vlx1b_..._sve`).
    Float(FloatPacker),
    /// bf16 with the bias in front (`rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`,
    /// `rhs_pack_kxn_bf16p12x4bias{f32,f16}_f16_neon`, `rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`).
    Bf16(Bf16RhsPacker),
    /// The float format of `Float(v)`, its K given as `k_chunk_count` chunks of
    /// `k_chunk_length` rows (`rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve`): the same bytes as
    /// `v` packing `k_chunk_count * k_chunk_length` rows.
    ChunkedFloat(FloatPacker),
    /// int8 K x N weights in groups of 2 x SVL32 columns by 4 K values, the `i32` biases (the
    /// LHS zero point folded in) in front and the `f32` scales behind
    /// (`rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`).
    Qsi8cxpsb,
    /// The format of `Qsi8cxpsb`, its K given as `k_chunk_count` chunks of `k_chunk_length` rows,
    /// each padded to whole steps of 4 (`rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`).
    ChunkedQsi8cxpsb,
}

impl RhsPackerKind {
    /// Format the packer writes; `bl` as for [`Family::rhs_layout`](crate::family::Family::rhs_layout).
    pub const fn layout(self, bl: usize) -> RhsLayout {
        match self {
            RhsPackerKind::Qsi4cxp(_) | RhsPackerKind::Qsi4cxps1s0 => RhsLayout::Qsi4cxp,
            RhsPackerKind::Qsi8cxp(_) => RhsLayout::Qsi8cxp,
            RhsPackerKind::Qsu2cxp(_) => RhsLayout::Qsu2cxp,
            RhsPackerKind::Qsi4c32p(_) => RhsLayout::Qsi4c32p { bl },
            RhsPackerKind::Qsi4c32pf16(_) => RhsLayout::Qsi4c32pf16 { bl },
            RhsPackerKind::Qai4c32p(_) => RhsLayout::Qai4c32p { bl },
            RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v) => v.layout(),
            RhsPackerKind::Bf16(v) => v.layout(),
            RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb => RhsLayout::Qsi8cxpsb,
        }
    }
}

/// A packing routine.
#[derive(Debug)]
pub struct Packer {
    /// KleidiAI name without the `kai_` prefix, e.g. `lhs_quant_pack_qai8dxp_f32`.
    pub name: &'static str,
    /// What it does.
    pub kind: PackerKind,
}

impl Packer {
    /// The layout of the weights an RHS packer reads, from KleidiAI's name (`rhs_pack_kxn_...`);
    /// `None` for an LHS packer.
    pub fn weight_layout(&self) -> Option<WeightLayout> {
        match (self.name.contains("_kxn_"), self.name.contains("_nxk_")) {
            (true, false) => Some(WeightLayout::Kxn),
            (false, true) => Some(WeightLayout::Nxk),
            _ => None,
        }
    }
}

/// How the weights a framework holds are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightLayout {
    /// N rows of K values (a PyTorch `Linear` weight).
    Nxk,
    /// K rows of N values.
    Kxn,
}

impl WeightLayout {
    /// Both layouts.
    pub const ALL: [WeightLayout; 2] = [WeightLayout::Nxk, WeightLayout::Kxn];

    /// As C names it (`rkai_select_<family>_nxk`).
    pub const fn name(self) -> &'static str {
        match self {
            WeightLayout::Nxk => "nxk",
            WeightLayout::Kxn => "kxn",
        }
    }
}

/// What a packer of KleidiAI's generic RHS interface (`kai_matmul_pack_rhs.h`) packs. Its C
/// surface is one provider function returning a `kai_matmul_pack_rhs_uker_api` table
/// (`pack::uker_rhs`), not a set of named getters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UkerRhsKind {
    /// 16-bit K x N values with a 16-bit bias, nr = 16 x vscale, kr = 2
    /// `rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`.
    KxnX16p16vsx2bx16Sve,
    /// The same format with nr = 4 x vscale of SME:
    /// `matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`.
    KxnX16p4vsx2bx16Sme,
    /// f32 values with an f32 bias, nr = 4 x vscale, kr = 1, from a K x N or N x K source:
    /// `matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme`.
    X32p4vsx1bx32Sme(Source),
    /// 8-bit values without bias, nr = 4 x vscale, kr = 4, from a K x N or N x K source:
    /// `matmul_pack_rhs_{kxn,nxk}_x8p4vsx4_x8_sme`.
    X8p4vsx4Sme(Source),
    /// K x N int8 values with `i32` biases and `f32` scales, nr = 4 x vscale, kr = 4:
    /// `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`.
    KxnQsi8cxp4vsx4bi32sf32Sme,
    /// int4 values with int32 biases (plus the scaled K sums) and f32 scales, nr = 8 x vscale,
    /// kr = 4, from a K x N or N x K source, signed (`false`) or unsigned with zero point 8
    /// (`true`): `matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`.
    Qsi4cxp8vsx4Sme(Source, bool),
}

/// What a packer of KleidiAI's generic LHS interface (`kai_matmul_pack_lhs.h`) packs: the
/// three SME packers that copy rows of `4 / elem` values per step into blocks of
/// `mr` = 4 x vscale rows (`pack::matmul_pack_lhs_mxk`, functions in `pack::uker_lhs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UkerLhsKind {
    /// 32-bit rows, kr = 1: `matmul_pack_lhs_mxk_x32p4vsx1_x32_sme`.
    MxkX32p4vsx1Sme,
    /// 16-bit rows, kr = 2: `matmul_pack_lhs_mxk_x16p4vsx2_x16_sme`.
    MxkX16p4vsx2Sme,
    /// 8-bit rows, kr = 4: `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme`.
    MxkX8p4vsx4Sme,
}

/// What a kernel of KleidiAI's generic matmul interface (`kai_matmul.h`) computes. Its C surface
/// is one provider function returning a `kai_matmul_uker_api` table (`matmul::uker`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UkerKernelKind {
    /// f32 GEMV (m = 1) on the RHS of `matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme`:
    /// `matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla`.
    F32F32F32p4vsx1bf32Gemv,
    /// f16 GEMM (6 rows x 16 x vscale columns per step of KleidiAI's) on the RHS of
    /// `rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`:
    /// `matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot`.
    F16F16F16p16vsx2bf16Sve2p1,
    /// f32 GEMM on the LHS of `matmul_pack_lhs_mxk_x32p4vsx1_x32_sme` and the RHS of
    /// `matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme`:
    /// `matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa`.
    F32p4vsx1F32p4vsx1bf32Mopa,
    /// f16 GEMV (m = 1) on the RHS of `matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`:
    /// `matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot`.
    F16F16F16p4vsx2bf16Gemv,
    /// f16 GEMM (f32 sums) on the LHS of `matmul_pack_lhs_mxk_x16p4vsx2_x16_sme` and the RHS of
    /// `matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`:
    /// `matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa`.
    F16p4vsx2F16p4vsx2bf16Mopa,
    /// u8 x u8 GEMM with int32 row and column biases, int32 output, on the LHS of
    /// `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` and the RHS of
    /// `matmul_pack_rhs_{kxn,nxk}_x8p4vsx4_x8_sme`:
    /// `matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa` (`matmul::uker::u8_mopa`), and
    /// with `F32` the same sums scaled, biased and clamped to f32:
    /// `matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa`.
    U8p4vsx4Mopa(U8Output),
    /// int8 GEMV (m = 1) requantized to int8, one raw int8 LHS row times the RHS of
    /// `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`:
    /// `matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot` (`matmul::uker::qai8_gemv`).
    Qai8Qsi8cxp4vsx4bi32sf32Gemv,
    /// int8 x int4 GEMM with int8 output, requantized, on the LHS of `lhs_pack_x8p2vlx4_x8_sme`
    /// and the RHS of `matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`:
    /// `matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa`
    /// (`matmul::uker::qai8_qsi4_mopa`).
    Qai8p8vsx4Qsi4cxp8vsx4Mopa,
    /// int8 GEMV (m = 1) on int4 weights requantized to int8, one raw int8 LHS row times the
    /// RHS of `matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`:
    /// `matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot`
    /// (`matmul::uker::qai8_qsi4_gemv`).
    Qai8Qsi4cxp8vsx4Gemv,
    /// int8 x int8 GEMM requantized to int8, on the LHS of `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme`
    /// and the RHS of `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`:
    /// `matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa`
    /// (`matmul::uker::qai8_mopa`).
    Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa,
    /// The same GEMM with an SME2.1 `SMOP4A` sub-kernel for short bottom edges:
    /// `matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa`
    /// (`matmul::uker::qai8_mop4`).
    Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4,
}

/// The output of a [`UkerKernelKind::U8p4vsx4Mopa`] kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum U8Output {
    /// The int32 sums.
    I32,
    /// The sums converted, scaled, biased and clamped to f32.
    F32,
}

/// A provider of one of KleidiAI's generic interfaces (`kai_matmul_pack_rhs.h`,
/// `kai_matmul_pack_lhs.h`): a C function returning a table, described by its kind `K`.
#[derive(Debug)]
pub struct UkerProvider<K> {
    /// Name of the provider function without the `kai_` prefix.
    pub name: &'static str,
    /// Instructions KleidiAI's implementation needs (rkai's runs everywhere, see its module).
    pub isa: Isa,
    /// What it does.
    pub kind: K,
}

/// A packer of the generic RHS interface.
pub type UkerRhsPacker = UkerProvider<UkerRhsKind>;

/// A packer of the generic LHS interface.
pub type UkerLhsPacker = UkerProvider<UkerLhsKind>;

/// A kernel of the generic matmul interface.
pub type UkerKernel = UkerProvider<UkerKernelKind>;

/// Element type of the LHS a packer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LhsType {
    /// `float`.
    F32,
    /// IEEE half precision (`_f16_neon`).
    F16,
    /// bfloat16 (`_bf16_neon`).
    Bf16,
}

/// Which KleidiAI packer of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qsi8d32pPacker {
    /// `lhs_quant_pack_qsi8d32p_f32`.
    F32,
    /// `lhs_quant_pack_qsi8d32p_f32_neon` (SME kernels' layout).
    F32Neon,
    /// `lhs_quant_pack_qsi8d32p4x8sb_f32_neon`.
    F32Neon4x8sb,
}

/// Which KleidiAI packer of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qsi8d32pscalef32Packer {
    /// `lhs_quant_pack_qsi8d32pscalef32_f32_neon` (f32 activations).
    F32,
    /// `lhs_quant_pack_qsi8d32pscalef32_f16_neon` (f16 activations, FEAT_FP16).
    F16,
}

/// One of the bf16 LHS packers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bf16LhsPacker {
    /// `kai_lhs_quant_pack_bf16p8x4_f32_neon`.
    Bf16p8x4F32,
    /// `kai_lhs_quant_pack_bf16p1x4_f32_neon` (one row per call).
    Bf16p1x4F32,
    /// `kai_lhs_pack_bf16p8x4_f16_neon`.
    Bf16p8x4F16,
    /// `kai_lhs_pack_bf16p2vlx2_f32_sme` (mr = 2 x SVL32, kr = 2).
    Bf16p2vlx2F32Sme,
    /// `kai_lhs_pack_bf16p2vlx2_f32_sme2` (the same bytes as the SME packer).
    Bf16p2vlx2F32Sme2,
}

/// One of KleidiAI's float RHS packers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatPacker {
    /// `kai_rhs_pack_kxn_x32p16x1b_x32_x32_neon`: 32-bit values, nr 16 (the `nr` argument is
    /// ignored), null bias allowed.
    KxnX32p16x1b,
    /// `kai_rhs_pack_nxk_x32p16x1bx32_x32_x32_neon`: N x K source, nr 16 (asserted), null bias
    /// allowed; its stride getter returns the bytes of one *column*.
    NxkX32p16x1bx32,
    /// `kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon`: nr 8 (asserted), bias required, no stride
    /// getter.
    KxnF32p8x1biasf32,
    /// `kai_rhs_pack_kxn_x32p4vlx1b_x32_x32_sve`: nr = 4 x the SVE vector length in 32-bit lanes
    /// (asserted), bias required, `sr` ignored.
    KxnX32p4vlx1bSve,
    /// `kai_rhs_pack_kxn_x16p32x1b_x16_x16_neon`: 16-bit values, nr 32 (ignored), null bias
    /// allowed.
    KxnX16p32x1b,
    /// `kai_rhs_pack_nxk_x16p32x1bx16_x16_x16_neon`: N x K 16-bit source, nr 32 (asserted), null
    /// bias allowed; its stride getter returns the bytes of one column.
    NxkX16p32x1bx16,
    /// `kai_rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon`: 16-bit values, nr 16 (asserted), bias
    /// required, no stride getter.
    KxnF16p16x1biasf16,
    /// `kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme`: 16-bit values by pairs of K values (kr 2),
    /// nr = 2 x the streaming length in 32-bit lanes (asserted), bias required.
    KxnX16p2vlx2bSme,
    /// `kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme`: as [`FloatPacker::KxnX16p2vlx2bSme`] from an
    /// N x K source; its stride getter returns the bytes of one column.
    NxkX16p2vlx2bSme,
    /// `kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme`: nr = 2 x the streaming vector length in
    /// 32-bit lanes (asserted), bias required.
    KxnF32p2vlx1biasf32Sme,
    /// `kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme`: N x K source, nr = 2 x SVL32 (asserted),
    /// bias required; its stride getter returns the bytes of one column.
    NxkF32p2vlx1biasf32Sme,
    /// `kai_rhs_pack_kxn_f32p16vlx1b_f32_f32_sme`: 32-bit values, nr = 16 x the streaming length
    /// in 32-bit lanes (asserted), bias required.
    KxnF32p16vlx1bSme,
}

/// Which KleidiAI packer of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qai4c32pPacker {
    /// `rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon`.
    Qai4c32p,
    /// `rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon`.
    Ps1s0Nrx4S0s1,
    /// `rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon`.
    Ps1s0Nrx4S1s0,
}

/// Which KleidiAI packer of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qsi4c32pf16Packer {
    /// `rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0`.
    Scalef16,
    /// `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon`.
    Ps1s0Scalef16Neon,
    /// `rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon`.
    Ps4s0Sf16Neon,
}

/// The two 2-bit packers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qsu2cxpPacker {
    /// `rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon` (`nr` = 4).
    P4x4,
    /// `rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon` (any `nr` that is a multiple of 8).
    P4vlx4,
}

/// Which KleidiAI packer of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qsi4c32pPacker {
    /// `rhs_pack_nxk_qsi4c32p_qsu4c32s1s0`.
    Nxk,
    /// `rhs_pack_kxn_qsi4c32p_qsu4c32s1s0`.
    Kxn,
    /// `rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon` (block depth `kr / sr` must be 4).
    NxkNrx4,
    /// `rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon` (block depth `kr / sr` must be 8).
    NxkNrx8,
    /// `rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon`: sequential nibbles (see
    /// [`Qsi4c32pPacker::sequential_nibbles`]; block depth must be 4), for the SME2 kernels.
    NxkPs1s0Nrx4,
    /// `rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon`: as [`Qsi4c32pPacker::NxkPs1s0Nrx4`] from a
    /// K x N source.
    KxnPs1s0Nrx4,
}

/// One of the bf16 RHS packers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bf16RhsPacker {
    /// `kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`: f32 values and biases; its offset and
    /// size getters take (and assert) `nr` and `kr`.
    QuantF32,
    /// `kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon`: f16 values, f32 biases.
    F16BiasF32,
    /// `kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon`: f16 values and biases.
    F16BiasF16,
    /// `kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`: f32 values and biases (bias required),
    /// nr = 2 x SVL32, kr = 2.
    KxnF32Sme,
}

/// Orientation of an unpacked RHS source matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// N rows of K values (int4: row stride `roundup(k, 2) / 2` bytes, low nibble = even k).
    Nxk,
    /// K rows of N values (int4: row stride `roundup(n, 2) / 2` bytes, low nibble = even n).
    Kxn,
}

/// Declares a packer module's entries, one `Packer` static per C name, named by it (the C name
/// without `kai_`, which the build script relies on) and documented with it and any further lines
/// given, and `PACKERS`, all of them in order. A kind is written from its side on:
/// `Lhs(Qai8dxp(LhsType::F32))` is `PackerKind::Lhs(LhsPackerKind::Qai8dxp(LhsType::F32))`.
macro_rules! packer_entries {
    ($($(#[$doc:meta])* $name:ident: $side:ident($($kind:tt)*);)+) => {
        $(
            #[doc = concat!("`kai_", stringify!($name), "`.")]
            $(#[$doc])*
            #[allow(non_upper_case_globals)]
            pub static $name: $crate::pack::kinds::Packer = $crate::pack::kinds::Packer {
                name: stringify!($name),
                kind: $crate::pack::kinds::packer_entries!(@kind $side($($kind)*)),
            };
        )+
        /// The C names this module implements, in catalog order.
        pub const PACKERS: &[&$crate::pack::kinds::Packer] = &[$(&$name),+];
    };
    (@kind Lhs($($kind:tt)*)) => {
        $crate::pack::kinds::PackerKind::Lhs($crate::pack::kinds::LhsPackerKind::$($kind)*)
    };
    (@kind Rhs($($kind:tt)*)) => {
        $crate::pack::kinds::PackerKind::Rhs($crate::pack::kinds::RhsPackerKind::$($kind)*)
    };
}
pub(crate) use packer_entries;
