//! The catalog: every kernel and packer rkai provides, declared once.
//!
//! An entry names the KleidiAI stem, its family (which fixes the C function set and semantics),
//! its ISA requirement, its tile parameters and the packers it pairs with. The `rkai` crate's
//! build script turns this table into the `kai_*` C functions, the headers under `include/kai`,
//! and the registration lists of the tests and benches. Adding a variant means adding one entry
//! here and its implementation file.

use crate::arch::Isa;
use crate::layout::RhsLayout;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qai8dxp_qsi4c32p as f32_qai8dxp_qsi4c32p;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qai8dxp_qsi4cxp as f32_qai8dxp_qsi4cxp;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qai8dxp_qsi8cxp as f32_qai8dxp_qsi8cxp;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qai8dxp_qsu2cxp as f32_qai8dxp_qsu2cxp;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qsi8d32p_qai4c32p as qsi8d32p_qai4c32p;
#[cfg(target_arch = "aarch64")]
use crate::matmul::matmul_clamp_f32_qsi8d32p_qsi4c32p as f32_qsi8d32p_qsi4c32p;
use crate::pack::Source;
use crate::pack::lhs_quant_pack_qai8dxp::LhsType;
use crate::pack::lhs_quant_pack_qsi8d32p::Variant as Qsi8d32pPacker;
use crate::pack::lhs_quant_pack_qsi8d32pscalef32::Variant as Qsi8d32pscalef32Packer;
use crate::pack::rhs_pack_float::Variant as FloatPacker;
use crate::pack::rhs_pack_nxk_qai4c32p::Variant as Qai4c32pPacker;
use crate::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::Variant as Qsi4c32pf16Packer;
use crate::pack::rhs_pack_nxk_qsu2cxp::Variant as Qsu2cxpPacker;
use crate::pack::rhs_pack_qsi4c32p_qsu4c32s1s0::Variant as Qsi4c32pPacker;

/// Tile and packing parameters a kernel reports through its getters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Row steps at which a portion may start.
    pub m_step: usize,
    /// Column steps at which a portion may start.
    pub n_step: usize,
    /// LHS rows interleaved per packed group.
    pub mr: usize,
    /// RHS columns interleaved per packed group.
    pub nr: usize,
    /// K values consumed per inner step.
    pub kr: usize,
    /// Splits of `kr` in the packed layout.
    pub sr: usize,
}

impl Tile {
    /// This tile with `n_step` and `nr` multiplied by `lanes` (for [`Columns::PerSveLane32`]).
    pub const fn with_column_multiplier(self, lanes: usize) -> Tile {
        Tile {
            n_step: self.n_step * lanes,
            nr: self.nr * lanes,
            ..self
        }
    }

    /// This tile with `m_step` and `mr` multiplied by `lanes`.
    pub const fn with_row_multiplier(self, lanes: usize) -> Tile {
        Tile {
            m_step: self.m_step * lanes,
            mr: self.mr * lanes,
            ..self
        }
    }

    /// The tile a kernel with `columns` scaling reports where SVE vectors hold `sve_lanes32`
    /// 32-bit lanes and streaming vectors `sme_lanes32`.
    pub const fn scaled(self, columns: Columns, sve_lanes32: usize, sme_lanes32: usize) -> Tile {
        match columns {
            Columns::Fixed | Columns::FixedAtSve256 => self,
            Columns::PerSveLane32 => self.with_column_multiplier(sve_lanes32),
            Columns::PerSmeLane32 => self.with_column_multiplier(sme_lanes32),
            Columns::RowsAndColumnsPerSmeLane32 => self
                .with_column_multiplier(sme_lanes32)
                .with_row_multiplier(sme_lanes32),
        }
    }
}

/// How a kernel's column parameters (`n_step`, `nr`) relate to the hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Fixed numbers, as written in the catalog.
    Fixed,
    /// The catalog's numbers times the SVE vector length in 32-bit lanes, read at run time
    /// (KleidiAI's `vl` tile unit, e.g. `4vl` = 4 x VL32).
    PerSveLane32,
    /// Fixed numbers, as written, for 256-bit SVE vectors only: KleidiAI's vector-length-specific
    /// SVE kernels, which run (and are selected) only where the SVE vector is 256 bits.
    FixedAtSve256,
    /// The catalog's `n_step` and `nr` times the streaming vector length in 32-bit lanes
    /// (KleidiAI's `vl` for SME kernels: a `1x4vl` GEMV).
    PerSmeLane32,
    /// As [`Columns::PerSmeLane32`], and `m_step` and `mr` too (a `1vlx4vl` outer-product GEMM).
    RowsAndColumnsPerSmeLane32,
}

impl Columns {
    /// The column scaling alone (a GEMM whose rows scale too reads the same packed RHS as a
    /// GEMV whose columns scale alike).
    pub const fn of_columns(self) -> Columns {
        match self {
            Columns::RowsAndColumnsPerSmeLane32 => Columns::PerSmeLane32,
            other => other,
        }
    }

    /// Whether `m_step` and `mr` scale with a vector length (so a base `m_step` of 1 is not one
    /// row).
    pub const fn scales_rows(self) -> bool {
        matches!(self, Columns::RowsAndColumnsPerSmeLane32)
    }
}

/// The multiple an offset getter of KleidiAI asserts an index is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexMultiple {
    /// The run-time tile value the getter is named after (`mr`, `nr`, `m_step` or `n_step`,
    /// scaled with the vector length like the getter of that name).
    Tile,
    /// A compile-time constant of KleidiAI's source (`kai_nr`, `kai_n_step`), which does not
    /// scale with the vector length where the getter of that name does.
    Constant(usize),
}

impl IndexMultiple {
    /// The multiple on this CPU, given the tile value.
    #[inline(always)]
    pub const fn of(self, tile_value: usize) -> usize {
        match self {
            IndexMultiple::Tile => tile_value,
            IndexMultiple::Constant(multiple) => multiple,
        }
    }
}

/// What K a blockwise kernel's `get_rhs_packed_offset` asserts against the block length `bl`
/// (every one asserts `bl % 32 == 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockDepth {
    /// `k % bl == 0` (the NEON and SVE kernels).
    WholeBlocks,
    /// `k % 32 == 0`; a partial last block counts whole.
    MultipleOf32,
    /// Nothing; K rounds up to 32, then to whole blocks.
    Any,
}

/// What KleidiAI's offset getters of one kernel assert about their arguments. Its kernels differ
/// here, even within a family (some assert against a constant where others call the getter), so
/// each kernel says which; rkai checks exactly that, no more, so a call KleidiAI's debug build
/// accepts is accepted at every vector length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffsetChecks {
    /// `m_idx` of `get_lhs_packed_offset`, against `mr`.
    pub lhs_packed_m_idx: IndexMultiple,
    /// `n_idx` of `get_rhs_packed_offset`, against `nr`.
    pub rhs_packed_n_idx: IndexMultiple,
    /// `m_idx` of `get_dst_offset`, against `m_step`.
    pub dst_m_idx: IndexMultiple,
    /// `n_idx` of `get_dst_offset`, against `n_step`.
    pub dst_n_idx: IndexMultiple,
    /// K against `bl` in `get_rhs_packed_offset` (the `qai8dxp_qsi4c32p` family).
    pub block_depth: BlockDepth,
}

impl OffsetChecks {
    /// Every index against the getter of its name, whole blocks: most kernels.
    pub const TILE: OffsetChecks = OffsetChecks {
        lhs_packed_m_idx: IndexMultiple::Tile,
        rhs_packed_n_idx: IndexMultiple::Tile,
        dst_m_idx: IndexMultiple::Tile,
        dst_n_idx: IndexMultiple::Tile,
        block_depth: BlockDepth::WholeBlocks,
    };
}

/// How a kernel finishes each output from its integer accumulator: the steps whose rounding or
/// NaN handling differs between kernels of one family (every other step is common to the family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Epilogue {
    /// How the combined scale and the bias are applied.
    pub scale_bias: ScaleBias,
    /// How the clamp bounds are applied.
    pub clamp: Clamp,
    /// How a per-block kernel folds its first block into the f32 accumulator.
    pub block_fold: BlockFold,
    /// Where a per-block kernel keeps its sums between blocks.
    pub partials: Partials,
    /// How a kernel with an LHS and an RHS scale per block forms their product.
    pub block_scale: BlockScale,
}

impl Epilogue {
    /// `FMUL` then `FADD`, then `FMAX`/`FMIN`: the NEON and SVE kernels.
    pub const VECTOR: Epilogue = Epilogue {
        scale_bias: ScaleBias::MultiplyThenAdd,
        clamp: Clamp::MaxThenMin,
        block_fold: BlockFold::FusedFromZero,
        partials: Partials::Registers,
        block_scale: BlockScale::Multiply,
    };
}

/// How a kernel multiplies the f16 LHS and RHS scales of a block (`qsi8d32p` x `qsi4c32p`). The
/// product of two halves is exact in f32; the two ways differ only in the sign of a zero product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockScale {
    /// Both widened, then `FMUL`: a zero product keeps its sign.
    Multiply,
    /// `FMLALB`/`FMLALT` into `+0` (the SME kernels): a zero product is `+0`.
    WidenFromZero,
}

impl BlockScale {
    /// The product of the widened scales `dl` and `dr`.
    pub fn apply(self, dl: f32, dr: f32) -> f32 {
        match self {
            BlockScale::Multiply => dl * dr,
            BlockScale::WidenFromZero => crate::float::fmla(0.0, dl, dr),
        }
    }
}

/// How a per-block kernel adds `f32(I_b) * d_b` of block `b` to its f32 accumulator: every
/// block with a fused multiply-add, except (for one kind) the first. The two differ only in the
/// sign of a zero: `fma(x, d, +0)` is `+0` where the product is `-0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockFold {
    /// `FMLA` into an accumulator that starts at `+0`.
    FusedFromZero,
    /// `FMUL` for the first block, `FMLA` for the others (SME2 outer-product kernels).
    FirstMultiplies,
}

impl BlockFold {
    /// The accumulator after block `x * d` (`first`: the row's first block).
    pub fn apply(self, first: bool, x: f32, d: f32, acc: f32) -> f32 {
        match (self, first) {
            (BlockFold::FirstMultiplies, true) => x * d,
            _ => libm::fmaf(x, d, acc),
        }
    }
}

/// Where a per-block kernel keeps its f32 sums between blocks. It matters only for 16-bit
/// outputs: a kernel that parks them in the destination rounds them to its element type after
/// every block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partials {
    /// In f32 registers until the result is stored.
    Registers,
    /// In the destination, in its element type (KleidiAI's per-block SME2 outer-product
    /// kernels, whose ZA tiles hold one block's integer sums; the f16 one rounds them to f16
    /// after each block).
    Destination,
}

impl Partials {
    /// The sums `acc` as the kernel reads them back for the next block, for `output`.
    pub fn keep(self, acc: f32, output: crate::matmul::output::Output) -> f32 {
        match (self, output.narrowing()) {
            (Partials::Destination, Some(narrow)) => narrow.widen(narrow.bits(acc)),
            _ => acc,
        }
    }
}

/// Whether `y = acc * scale + bias` rounds once or twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleBias {
    /// `FMUL`, then `FADD` (two roundings).
    MultiplyThenAdd,
    /// `FMLA` into the bias (one rounding).
    FusedMultiplyAdd,
    /// `FMUL` by the RHS scale, `FMUL` by the LHS scale, then `FADD` (three roundings; KleidiAI's
    /// 2-bit 8x4 GEMM).
    ScaleEachThenAdd,
}

/// How the clamp treats NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clamp {
    /// `FMAX` with the lower bound, then `FMIN` with the upper: a NaN stays NaN.
    MaxThenMin,
    /// SME2's `FCLAMP` (`FMAXNM`, then `FMINNM`): a quiet NaN is clamped to a bound.
    MaxNumThenMinNum,
    /// `FCLAMP` on 16-bit values, after the result and the bounds are narrowed (KleidiAI's f16
    /// `qsi4cxp` SME2 kernels). Narrowing is monotonic, so this is narrowing
    /// [`Clamp::MaxNumThenMinNum`]'s f32 result, except that narrowing quiets a signalling NaN
    /// bound, which `FMAXNM`/`FMINNM` then ignore: the f32 clamp with quieted bounds.
    NarrowedMaxNumThenMinNum,
}

impl Clamp {
    /// One lane of the clamp.
    pub fn apply(self, y: f32, lo: f32, hi: f32) -> f32 {
        match self {
            Clamp::MaxThenMin => crate::float::clamp(y, lo, hi),
            Clamp::MaxNumThenMinNum => crate::float::clamp_num(y, lo, hi),
            Clamp::NarrowedMaxNumThenMinNum => {
                crate::float::clamp_num(y, crate::float::quiet(lo), crate::float::quiet(hi))
            }
        }
    }
}

impl ScaleBias {
    /// `acc * scale + bias` with this rounding (Arm NaN rules).
    pub fn apply(self, acc: f32, scale: f32, bias: f32) -> f32 {
        match self {
            // With one combined scale there is one multiplication to make.
            ScaleBias::MultiplyThenAdd | ScaleBias::ScaleEachThenAdd => acc * scale + bias,
            ScaleBias::FusedMultiplyAdd => crate::float::fmla(bias, scale, acc),
        }
    }

    /// `acc` times the RHS scale `rscale` and the LHS scale `lscale`, plus `bias`, in this
    /// rounding (the combined scale is `rscale * lscale` unless each is applied in turn).
    pub fn apply_each(self, acc: f32, rscale: f32, lscale: f32, bias: f32) -> f32 {
        match self {
            ScaleBias::ScaleEachThenAdd => acc * rscale * lscale + bias,
            ScaleBias::MultiplyThenAdd | ScaleBias::FusedMultiplyAdd => {
                self.apply(acc, rscale * lscale, bias)
            }
        }
    }
}

/// How many LHS rows one call of a kernel may compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Any number (the kernel loops over row blocks).
    Any,
    /// Exactly one: KleidiAI's kernel asserts `m == 1`, so it cannot stand in for a multi-row
    /// kernel.
    One,
}

/// Where a kernel's name comes from, which fixes its symbol prefix and header directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A KleidiAI 1.30 kernel: `kai_*` symbols under `include/kai`.
    KleidiAi,
    /// An rkai extension named by KleidiAI's grammar: `rkai_*` symbols under `include/rkai`.
    Rkai,
}

impl Origin {
    /// Symbol prefix without the trailing underscore (`kai` or `rkai`).
    pub const fn prefix(self) -> &'static str {
        match self {
            Origin::KleidiAi => "kai",
            Origin::Rkai => "rkai",
        }
    }
}

pub use crate::family::Family;

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

    /// Format an RHS packer writes (`None` for LHS packers); `bl` as for [`Family::rhs_layout`].
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
    /// (`lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon`).
    Qsi8d32pscalef32(Qsi8d32pscalef32Packer),
    /// bf16 LHS of the bf16 GEMM families (`lhs_quant_pack_bf16p{8,1}x4_f32_neon`,
    /// `lhs_pack_bf16p8x4_f16_neon`).
    Bf16(crate::pack::lhs_pack_bf16::Variant),
    /// f32 rows to f16 in blocks of `mr` rows by pairs of K values (`lhs_pack_f16pmrx2_f32_neon`).
    F16pmrx2,
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
    /// (`rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon` and the SME2 `ps1s0nrx4` forms).
    Qai4c32p(Qai4c32pPacker),
    /// Float with the bias in front (`rhs_pack_{kxn,nxk}_x32p16x1b*`, `..._f32p8x1biasf32_...`,
    /// `..._x32p4vlx1b_..._sve`).
    Float(FloatPacker),
    /// bf16 with the bias in front (`rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`,
    /// `rhs_pack_kxn_bf16p12x4bias{f32,f16}_f16_neon`).
    Bf16(crate::pack::rhs_pack_bf16::Variant),
    /// The float format of `Float(v)`, its K given as `k_chunk_count` chunks of
    /// `k_chunk_length` rows (`rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve`): the same bytes as
    /// `v` packing `k_chunk_count * k_chunk_length` rows.
    ChunkedFloat(FloatPacker),
}

impl RhsPackerKind {
    /// Format the packer writes; `bl` as for [`Family::rhs_layout`].
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

pub use crate::matmul::call::KernelFn;

/// A matmul micro-kernel.
#[derive(Clone, Copy, Debug)]
pub struct MatmulKernel {
    /// Stem without the symbol prefix (KleidiAI's grammar, e.g. `matmul_clamp_f32_qai8dxp...`).
    pub stem: &'static str,
    /// KleidiAI kernel or rkai extension.
    pub origin: Origin,
    /// Family it belongs to.
    pub family: Family,
    /// Instructions it executes on aarch64.
    pub isa: Isa,
    /// Tile and packing parameters as written; [`MatmulKernel::tile`] gives the run-time values.
    pub base_tile: Tile,
    /// Whether `n_step` and `nr` scale with the SVE vector length.
    pub columns: Columns,
    /// Rows one call may compute.
    pub rows: Rows,
    /// LHS packers producing the format it reads.
    pub lhs_packers: &'static [&'static Packer],
    /// RHS packers producing the format it reads.
    pub rhs_packers: &'static [&'static Packer],
    /// Implementation on this target.
    pub native: KernelFn,
    /// How it finishes each output (for the portable path and the reference).
    pub epilogue: Epilogue,
    /// What its offset getters assert about their arguments.
    pub offset_checks: OffsetChecks,
}

impl MatmulKernel {
    /// Tile and packing parameters on this CPU (what the getters return). Reads only the vector
    /// length its scaling needs, so a fixed tile folds to constants in a C getter.
    #[inline(always)]
    pub fn tile(&self) -> Tile {
        match self.columns {
            Columns::Fixed | Columns::FixedAtSve256 => self.base_tile,
            Columns::PerSveLane32 => {
                self.base_tile
                    .scaled(self.columns, crate::arch::sve_lanes32(), 0)
            }
            Columns::PerSmeLane32 | Columns::RowsAndColumnsPerSmeLane32 => {
                self.base_tile
                    .scaled(self.columns, 0, crate::arch::sme_lanes32())
            }
        }
    }

    /// Whether one step of the kernel is one LHS row (a GEMV's tile).
    pub const fn steps_one_row(&self) -> bool {
        self.base_tile.m_step == 1 && !self.columns.scales_rows()
    }

    /// Whether the kernel runs where the SVE vector holds `sve_lanes32` 32-bit lanes (only the
    /// [`Columns::FixedAtSve256`] kernels depend on it).
    pub const fn runs_at_sve_lanes32(&self, sve_lanes32: usize) -> bool {
        !matches!(self.columns, Columns::FixedAtSve256) || sve_lanes32 == 8
    }

    /// Symbol prefix of its C functions (`kai` or `rkai`).
    pub const fn prefix(&self) -> &'static str {
        self.origin.prefix()
    }
}

/// Picks the aarch64 implementation on aarch64 and the portable one elsewhere.
macro_rules! native {
    ($family:ident :: $module:ident :: $out:ident) => {{
        #[cfg(target_arch = "aarch64")]
        {
            KernelFn::PackedOutput($family::$module::$out::run)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            KernelFn::Portable
        }
    }};
    ($family:ident :: $module:ident) => {{
        #[cfg(target_arch = "aarch64")]
        {
            KernelFn::Packed($family::$module::run)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            KernelFn::Portable
        }
    }};
}

// ---------------------------------------------------------------------------------------------
// Packers

/// `kai_lhs_quant_pack_qai8dxp_f32`.
pub static LHS_QUANT_PACK_QAI8DXP_F32: Packer = Packer {
    name: "lhs_quant_pack_qai8dxp_f32",
    kind: PackerKind::Lhs(LhsPackerKind::Qai8dxp(LhsType::F32)),
};

/// `kai_lhs_quant_pack_qai8dxp_f16_neon`: same packed format from f16 input.
pub static LHS_QUANT_PACK_QAI8DXP_F16_NEON: Packer = Packer {
    name: "lhs_quant_pack_qai8dxp_f16_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qai8dxp(LhsType::F16)),
};

/// `kai_lhs_quant_pack_qai8dxp_bf16_neon`: same packed format from bf16 input.
pub static LHS_QUANT_PACK_QAI8DXP_BF16_NEON: Packer = Packer {
    name: "lhs_quant_pack_qai8dxp_bf16_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qai8dxp(LhsType::Bf16)),
};

/// `kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0`.
pub static RHS_PACK_NXK_QSI4CXP_QS4CXS1S0: Packer = Packer {
    name: "rhs_pack_nxk_qsi4cxp_qs4cxs1s0",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4cxp(Source::Nxk)),
};

/// `kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0`.
pub static RHS_PACK_KXN_QSI4CXP_QS4CXS1S0: Packer = Packer {
    name: "rhs_pack_kxn_qsi4cxp_qs4cxs1s0",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4cxp(Source::Kxn)),
};

/// `kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (the format of KleidiAI's SME2 int4 kernels).
pub static RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4cxps1s0),
};

/// `kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon`.
pub static RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi8cxp_qsi8cx_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi8cxp(Source::Nxk)),
};

/// `kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon`.
pub static RHS_PACK_KXN_QSI8CXP_QSI8CX_NEON: Packer = Packer {
    name: "rhs_pack_kxn_qsi8cxp_qsi8cx_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi8cxp(Source::Kxn)),
};

/// `kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon` (2-bit weights of the NEON kernels).
pub static RHS_PACK_NXK_QSU2CXP4X4BF32SF32_QSU2CX_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsu2cxp(Qsu2cxpPacker::P4x4)),
};

/// `kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon` (2-bit weights of the SME2 kernels).
pub static RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsu2cxp(Qsu2cxpPacker::P4vlx4)),
};

/// `kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0`.
pub static RHS_PACK_NXK_QSI4C32P_QSU4C32S1S0: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32p_qsu4c32s1s0",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::Nxk)),
};

/// `kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0`.
pub static RHS_PACK_KXN_QSI4C32P_QSU4C32S1S0: Packer = Packer {
    name: "rhs_pack_kxn_qsi4c32p_qsu4c32s1s0",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::Kxn)),
};

/// `kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon` (block depth `kr / sr` = 4).
pub static RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::NxkNrx4)),
};

/// `kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon` (block depth `kr / sr` = 8).
pub static RHS_PACK_NXK_QSI4C32PNRX8_QSU4C32S1S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::NxkNrx8)),
};

/// `kai_lhs_quant_pack_qsi8d32p_f32` (the format of the NEON and SVE Q4_0 kernels).
pub static LHS_QUANT_PACK_QSI8D32P_F32: Packer = Packer {
    name: "lhs_quant_pack_qsi8d32p_f32",
    kind: PackerKind::Lhs(LhsPackerKind::Qsi8d32p(Qsi8d32pPacker::F32)),
};

/// `kai_lhs_quant_pack_qsi8d32p_f32_neon` (the layout of KleidiAI's SME Q4_0 kernels; same size).
pub static LHS_QUANT_PACK_QSI8D32P_F32_NEON: Packer = Packer {
    name: "lhs_quant_pack_qsi8d32p_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qsi8d32p(Qsi8d32pPacker::F32Neon)),
};

/// `kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon` (the scalar packer's format for mr 4, kr 16).
pub static LHS_QUANT_PACK_QSI8D32P4X8SB_F32_NEON: Packer = Packer {
    name: "lhs_quant_pack_qsi8d32p4x8sb_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qsi8d32p(Qsi8d32pPacker::F32Neon4x8sb)),
};

/// `kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon` (sequential nibbles, block depth 4: the
/// format of KleidiAI's SME2 `qsi4c32p4vlx4` kernels; ONNX Runtime's Q4 packer).
pub static RHS_PACK_NXK_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::NxkPs1s0Nrx4)),
};

/// `kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon` (the same format from a K x N source).
pub static RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON: Packer = Packer {
    name: "rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32p(Qsi4c32pPacker::KxnPs1s0Nrx4)),
};

/// `kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0` (Q4_0 weights for the NEON and SVE kernels).
pub static RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(Qsi4c32pf16Packer::Scalef16)),
};

/// `kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon` (the format of KleidiAI's SME2 Q4_0
/// kernels).
pub static RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(
        Qsi4c32pf16Packer::Ps1s0Scalef16Neon,
    )),
};

/// `kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon` (the format of KleidiAI's SME Q4_0
/// kernels: signed nibbles paired 4 apart, scales divided by 16).
pub static RHS_PACK_NXK_QSI4C32PS4S0SF16_QSU4C32S16S0_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(Qsi4c32pf16Packer::Ps4s0Sf16Neon)),
};

/// `kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon` (activations of the `qai4c32p` kernels).
pub static LHS_QUANT_PACK_QSI8D32PSCALEF32_F32_NEON: Packer = Packer {
    name: "lhs_quant_pack_qsi8d32pscalef32_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qsi8d32pscalef32(Qsi8d32pscalef32Packer::F32)),
};

/// `kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon` (the same format from f16 activations).
pub static LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON: Packer = Packer {
    name: "lhs_quant_pack_qsi8d32pscalef32_f16_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Qsi8d32pscalef32(Qsi8d32pscalef32Packer::F16)),
};

/// `kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon` (weights of the NEON `qai4c32p`
/// kernels).
pub static RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qai4c32p(Qai4c32pPacker::Qai4c32p)),
};

/// `kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon` (the format of KleidiAI's
/// SME2 `qai4c32p` kernels, from `s0s1` nibbles).
pub static RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qai4c32p(Qai4c32pPacker::Ps1s0Nrx4S0s1)),
};

/// `kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon` (the same from `s1s0`
/// nibbles).
pub static RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S1S0_F32_F32_F32_NEON: Packer = Packer {
    name: "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Qai4c32p(Qai4c32pPacker::Ps1s0Nrx4S1s0)),
};

/// `kai_rhs_pack_kxn_x32p16x1b_x32_x32_neon`.
pub static RHS_PACK_KXN_X32P16X1B_X32_X32_NEON: Packer = Packer {
    name: "rhs_pack_kxn_x32p16x1b_x32_x32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::KxnX32p16x1b)),
};

/// `kai_rhs_pack_nxk_x32p16x1bx32_x32_x32_neon`.
pub static RHS_PACK_NXK_X32P16X1BX32_X32_X32_NEON: Packer = Packer {
    name: "rhs_pack_nxk_x32p16x1bx32_x32_x32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::NxkX32p16x1bx32)),
};

/// `kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon`.
pub static RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON: Packer = Packer {
    name: "rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::KxnF32p8x1biasf32)),
};

/// `kai_rhs_pack_kxn_x32p4vlx1b_x32_x32_sve` (nr = 4 x VL32).
pub static RHS_PACK_KXN_X32P4VLX1B_X32_X32_SVE: Packer = Packer {
    name: "rhs_pack_kxn_x32p4vlx1b_x32_x32_sve",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::KxnX32p4vlx1bSve)),
};

/// `kai_rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve` (nr = 4 x VL32; K as chunks).
pub static RHS_IMATMUL_PACK_KXN_X32P4VLX1B_X32_X32_SVE: Packer = Packer {
    name: "rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve",
    kind: PackerKind::Rhs(RhsPackerKind::ChunkedFloat(FloatPacker::KxnX32p4vlx1bSve)),
};

/// `kai_rhs_pack_kxn_x16p32x1b_x16_x16_neon`.
pub static RHS_PACK_KXN_X16P32X1B_X16_X16_NEON: Packer = Packer {
    name: "rhs_pack_kxn_x16p32x1b_x16_x16_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::KxnX16p32x1b)),
};

/// `kai_rhs_pack_nxk_x16p32x1bx16_x16_x16_neon`.
pub static RHS_PACK_NXK_X16P32X1BX16_X16_X16_NEON: Packer = Packer {
    name: "rhs_pack_nxk_x16p32x1bx16_x16_x16_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::NxkX16p32x1bx16)),
};

/// `kai_rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon`.
pub static RHS_PACK_KXN_F16P16X1BIASF16_F16_F16_NEON: Packer = Packer {
    name: "rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Float(FloatPacker::KxnF16p16x1biasf16)),
};

/// `kai_lhs_quant_pack_bf16p8x4_f32_neon`.
pub static LHS_QUANT_PACK_BF16P8X4_F32_NEON: Packer = Packer {
    name: "lhs_quant_pack_bf16p8x4_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Bf16(
        crate::pack::lhs_pack_bf16::Variant::Bf16p8x4F32,
    )),
};

/// `kai_lhs_quant_pack_bf16p1x4_f32_neon`.
pub static LHS_QUANT_PACK_BF16P1X4_F32_NEON: Packer = Packer {
    name: "lhs_quant_pack_bf16p1x4_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Bf16(
        crate::pack::lhs_pack_bf16::Variant::Bf16p1x4F32,
    )),
};

/// `kai_lhs_pack_bf16p8x4_f16_neon`.
pub static LHS_PACK_BF16P8X4_F16_NEON: Packer = Packer {
    name: "lhs_pack_bf16p8x4_f16_neon",
    kind: PackerKind::Lhs(LhsPackerKind::Bf16(
        crate::pack::lhs_pack_bf16::Variant::Bf16p8x4F16,
    )),
};

/// `kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`.
pub static RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON: Packer = Packer {
    name: "rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Bf16(
        crate::pack::rhs_pack_bf16::Variant::QuantF32,
    )),
};

/// `kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon`.
pub static RHS_PACK_KXN_BF16P12X4BIASF32_F16_NEON: Packer = Packer {
    name: "rhs_pack_kxn_bf16p12x4biasf32_f16_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Bf16(
        crate::pack::rhs_pack_bf16::Variant::F16BiasF32,
    )),
};

/// `kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon`.
pub static RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON: Packer = Packer {
    name: "rhs_pack_kxn_bf16p12x4biasf16_f16_neon",
    kind: PackerKind::Rhs(RhsPackerKind::Bf16(
        crate::pack::rhs_pack_bf16::Variant::F16BiasF16,
    )),
};

/// `kai_lhs_pack_f16pmrx2_f32_neon` (the LHS of KleidiAI's `matmul_clamp_f32_f16p_qsi4c32p`
/// SME2 kernel, which rkai does not provide).
pub static LHS_PACK_F16PMRX2_F32_NEON: Packer = Packer {
    name: "lhs_pack_f16pmrx2_f32_neon",
    kind: PackerKind::Lhs(LhsPackerKind::F16pmrx2),
};

/// What a packer of KleidiAI's generic RHS interface (`kai_matmul_pack_rhs.h`) packs. Its C
/// surface is one provider function returning a `kai_matmul_pack_rhs_uker_api` table
/// (`pack::uker_rhs`), not a set of named getters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UkerRhsKind {
    /// 16-bit K x N values with a 16-bit bias, nr = 16 x vscale, kr = 2
    /// (`rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`).
    KxnX16p16vsx2bx16Sve,
}

/// A packer of the generic RHS interface.
#[derive(Debug)]
pub struct UkerRhsPacker {
    /// Name of the provider function without the `kai_` prefix.
    pub name: &'static str,
    /// Instructions KleidiAI's implementation needs (rkai's runs everywhere, see its module).
    pub isa: Isa,
    /// What it packs.
    pub kind: UkerRhsKind,
}

/// `kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve()` (nr = 16 x vscale).
pub static RHS_PACK_KXN_X16P16VSX2BX16_X16_X16_SVE: UkerRhsPacker = UkerRhsPacker {
    name: "rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve",
    isa: Isa::Sve,
    kind: UkerRhsKind::KxnX16p16vsx2bx16Sve,
};

/// Every generic-interface RHS packer rkai defines, in declaration order of
/// `kai_matmul_pack_rhs.h` (KleidiAI 1.30 declares ten more, all SME, not defined yet).
pub static UKER_RHS_PACKERS: &[&UkerRhsPacker] = &[&RHS_PACK_KXN_X16P16VSX2BX16_X16_X16_SVE];

/// Every packer, in header-generation order.
pub static PACKERS: &[&Packer] = &[
    &LHS_QUANT_PACK_QAI8DXP_F32,
    &LHS_QUANT_PACK_QAI8DXP_F16_NEON,
    &LHS_QUANT_PACK_QAI8DXP_BF16_NEON,
    &RHS_PACK_NXK_QSI4CXP_QS4CXS1S0,
    &RHS_PACK_KXN_QSI4CXP_QS4CXS1S0,
    &RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON,
    &RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON,
    &RHS_PACK_KXN_QSI8CXP_QSI8CX_NEON,
    &RHS_PACK_NXK_QSU2CXP4X4BF32SF32_QSU2CX_NEON,
    &RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON,
    &RHS_PACK_NXK_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_KXN_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON,
    &RHS_PACK_NXK_QSI4C32PNRX8_QSU4C32S1S0_NEON,
    &RHS_PACK_NXK_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON,
    &RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON,
    &LHS_QUANT_PACK_QSI8D32P_F32,
    &LHS_QUANT_PACK_QSI8D32P_F32_NEON,
    &LHS_QUANT_PACK_QSI8D32P4X8SB_F32_NEON,
    &RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0,
    &RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON,
    &RHS_PACK_NXK_QSI4C32PS4S0SF16_QSU4C32S16S0_NEON,
    &LHS_QUANT_PACK_QSI8D32PSCALEF32_F32_NEON,
    &LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON,
    &RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON,
    &RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON,
    &RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S1S0_F32_F32_F32_NEON,
    &RHS_PACK_KXN_X32P16X1B_X32_X32_NEON,
    &RHS_PACK_NXK_X32P16X1BX32_X32_X32_NEON,
    &RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON,
    &RHS_PACK_KXN_X32P4VLX1B_X32_X32_SVE,
    &RHS_IMATMUL_PACK_KXN_X32P4VLX1B_X32_X32_SVE,
    &RHS_PACK_KXN_X16P32X1B_X16_X16_NEON,
    &RHS_PACK_NXK_X16P32X1BX16_X16_X16_NEON,
    &RHS_PACK_KXN_F16P16X1BIASF16_F16_F16_NEON,
    &LHS_QUANT_PACK_BF16P8X4_F32_NEON,
    &LHS_QUANT_PACK_BF16P1X4_F32_NEON,
    &LHS_PACK_BF16P8X4_F16_NEON,
    &LHS_PACK_F16PMRX2_F32_NEON,
    &RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON,
    &RHS_PACK_KXN_BF16P12X4BIASF32_F16_NEON,
    &RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON,
];

const QSI4CXP_RHS: &[&Packer] = &[
    &RHS_PACK_NXK_QSI4CXP_QS4CXS1S0,
    &RHS_PACK_KXN_QSI4CXP_QS4CXS1S0,
];
/// The sequential-nibble int4 packer of KleidiAI's SME2 `qsi4cxp` kernels.
const QSI4CXPS1S0_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON];
const QAI8DXP_F32_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QAI8DXP_F32];
const QAI8DXP_F16_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QAI8DXP_F16_NEON];
const QAI8DXP_BF16_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QAI8DXP_BF16_NEON];
/// qsi4c32p packers for block depth 4 (`kr / sr`) and 8: the NEON forms accept only one.
const QSI4C32P_RHS_DEPTH4: &[&Packer] = &[
    &RHS_PACK_NXK_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_KXN_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON,
];
const QSI4C32P_RHS_DEPTH8: &[&Packer] = &[
    &RHS_PACK_NXK_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_KXN_QSI4C32P_QSU4C32S1S0,
    &RHS_PACK_NXK_QSI4C32PNRX8_QSU4C32S1S0_NEON,
];
/// qsi4c32p packers writing the sequential-nibble (`ps1s0`) data of the SME2 kernels.
const QSI4C32PS1S0_RHS: &[&Packer] = &[
    &RHS_PACK_NXK_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON,
    &RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON,
];
const QSI8D32P_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QSI8D32P_F32];
/// The 16x4 i8mm kernel also reads the 4x8sb packer's output (KleidiAI pairs both with it).
const QSI8D32P_LHS_4X8: &[&Packer] = &[
    &LHS_QUANT_PACK_QSI8D32P_F32,
    &LHS_QUANT_PACK_QSI8D32P4X8SB_F32_NEON,
];
const QSI4C32PF16_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0];
/// LHS and RHS packers of KleidiAI's SME2 and SME Q4_0 kernels.
const QSI8D32P_SME_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QSI8D32P_F32_NEON];
const QSI4C32PS1S0F16_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON];
const QSI4C32PS4S0SF16_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSI4C32PS4S0SF16_QSU4C32S16S0_NEON];
const QSI8D32PSCALEF32_F32_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QSI8D32PSCALEF32_F32_NEON];
const QSI8D32PSCALEF32_F16_LHS: &[&Packer] = &[&LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON];
const QAI4C32P_RHS: &[&Packer] = &[&RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON];
/// qai4c32p packers writing the sequential-nibble (`ps1s0nrx4`) data of the SME2 kernels; the
/// `s0s1` one first, whose source is the NEON packer's.
const QAI4C32PS1S0_RHS: &[&Packer] = &[
    &RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON,
    &RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S1S0_F32_F32_F32_NEON,
];
const QSI8CXP_RHS: &[&Packer] = &[
    &RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON,
    &RHS_PACK_KXN_QSI8CXP_QSI8CX_NEON,
];
/// The 2-bit packers: the NEON kernels' 4-column interleave and the SME2 kernels' `4vlx4`.
const QSU2CXP4X4_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSU2CXP4X4BF32SF32_QSU2CX_NEON];
const QSU2CXP4VLX4_RHS: &[&Packer] = &[&RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON];
const NO_LHS_PACKER: &[&Packer] = &[];
const X32P16X1B_RHS: &[&Packer] = &[
    &RHS_PACK_KXN_X32P16X1B_X32_X32_NEON,
    &RHS_PACK_NXK_X32P16X1BX32_X32_X32_NEON,
];
const F32P8X1BIASF32_RHS: &[&Packer] = &[&RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON];
const X32P4VLX1B_RHS: &[&Packer] = &[&RHS_PACK_KXN_X32P4VLX1B_X32_X32_SVE];
const IMATMUL_X32P4VLX1B_RHS: &[&Packer] = &[&RHS_IMATMUL_PACK_KXN_X32P4VLX1B_X32_X32_SVE];
const X16P32X1B_RHS: &[&Packer] = &[
    &RHS_PACK_KXN_X16P32X1B_X16_X16_NEON,
    &RHS_PACK_NXK_X16P32X1BX16_X16_X16_NEON,
];
const F16P16X1BIASF16_RHS: &[&Packer] = &[&RHS_PACK_KXN_F16P16X1BIASF16_F16_F16_NEON];
/// LHS packers of the 8-row bf16 kernels (f32 or f16 source).
const BF16P8X4_LHS: &[&Packer] = &[
    &LHS_QUANT_PACK_BF16P8X4_F32_NEON,
    &LHS_PACK_BF16P8X4_F16_NEON,
];
/// RHS packers writing 12-column bf16 groups with f32 biases (f32 or f16 source).
const BF16P12X4BIASF32_RHS: &[&Packer] = &[
    &RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON,
    &RHS_PACK_KXN_BF16P12X4BIASF32_F16_NEON,
];
/// LHS packer of the one-row bf16 kernel.
const BF16P1X4_LHS: &[&Packer] = &[&LHS_QUANT_PACK_BF16P1X4_F32_NEON];
const BF16P8X4_F16_LHS: &[&Packer] = &[&LHS_PACK_BF16P8X4_F16_NEON];
const BF16P12X4BIASF16_RHS: &[&Packer] = &[&RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON];

// ---------------------------------------------------------------------------------------------
// Kernels

/// Declares a kernel of a `qai8dxp` family: static name (the stem in upper case, which the
/// build script relies on), family, LHS and RHS packer lists, stem, ISA, the tile
/// `[m_step, n_step, mr, nr, kr, sr]` and the implementation on this target.
/// A kernel entry of any family. The short form is a KleidiAI kernel with a fixed tile; the long
/// form (`..., $native, $origin, $columns`) also names the origin and column scaling, for rkai's
/// vector-length-agnostic extensions; a final `One` marks a kernel limited to one row per call.
macro_rules! kernel_entry {
    (@epilogue) => { Epilogue::VECTOR };
    (@epilogue $e:expr) => { $e };
    (@checks) => { OffsetChecks::TILE };
    (@checks $c:expr) => { $c };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident, $isa:ident,
        $tile:tt, $native:expr
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile, $native,
            KleidiAi, Fixed);
    };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident, $isa:ident,
        $tile:tt, $native:expr, $origin:ident, $columns:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile, $native,
            $origin, $columns, Any);
    };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident, $isa:ident,
        [$m_step:expr, $n_step:expr, $mr:expr, $nr:expr, $kr:expr, $sr:expr], $native:expr,
        $origin:ident, $columns:ident, $rows:ident $(, $epilogue:expr $(, $checks:expr)?)?
    ) => {
        $(#[$doc])*
        pub static $name: MatmulKernel = MatmulKernel {
            stem: stringify!($stem),
            origin: Origin::$origin,
            family: Family::$family,
            isa: Isa::$isa,
            base_tile: Tile { m_step: $m_step, n_step: $n_step, mr: $mr, nr: $nr, kr: $kr, sr: $sr },
            columns: Columns::$columns,
            rows: Rows::$rows,
            lhs_packers: $lhs,
            rhs_packers: $rhs,
            native: $native,
            epilogue: kernel_entry!(@epilogue $($epilogue)?),
            offset_checks: kernel_entry!(@checks $($($checks)?)?),
        };
    };
}

macro_rules! f32_qai8dxp_qsi4cxp_kernel {
    ($(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt) => {
        f32_qai8dxp_qsi4cxp_kernel!($(#[$doc])* $name, $stem, $isa, $tile, $stem);
    };
    ($(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $module:ident) => {
        kernel_entry!($(#[$doc])* $name, F32Qai8dxpQsi4cxp, QAI8DXP_F32_LHS, QSI4CXP_RHS, $stem,
            $isa, $tile, native!(f32_qai8dxp_qsi4cxp::$module));
    };
}

/// A kernel of `matmul_clamp_f32_qai8dxp_qsi8cxp` whose asm lives in the module named like it.
macro_rules! f32_qai8dxp_qsi8cxp_kernel {
    ($(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt) => {
        kernel_entry!($(#[$doc])* $name, F32Qai8dxpQsi8cxp, QAI8DXP_F32_LHS, QSI8CXP_RHS, $stem,
            $isa, $tile, native!(f32_qai8dxp_qsi8cxp::$stem));
    };
}

/// A kernel of `matmul_clamp_f32_qai8dxp_qsi4c32p`: RHS packer list (by block depth) and the
/// asm module implementing its tile (stems with identical tiles share one).
macro_rules! f32_qai8dxp_qsi4c32p_kernel {
    ($(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $rhs:ident, $module:ident) => {
        kernel_entry!($(#[$doc])* $name, F32Qai8dxpQsi4c32p, QAI8DXP_F32_LHS, $rhs, $stem,
            $isa, $tile, native!(f32_qai8dxp_qsi4c32p::$module));
    };
}

/// A kernel of `matmul_clamp_f32_qsi8d32p_qsi4c32p`: its LHS packer list, its column scaling
/// (`FixedAtSve256` for KleidiAI's 256-bit SVE kernels) and the asm module implementing its tile
/// (stems with the same packed formats share one), or `portable` where there is none yet.
macro_rules! f32_qsi8d32p_qsi4c32p_kernel {
    (
        $(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $lhs:ident, $columns:ident,
        portable
    ) => {
        kernel_entry!($(#[$doc])* $name, F32Qsi8d32pQsi4c32p, $lhs, QSI4C32PF16_RHS, $stem,
            $isa, $tile, KernelFn::Portable, KleidiAi, $columns);
    };
    (
        $(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $lhs:ident, $columns:ident,
        $module:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, F32Qsi8d32pQsi4c32p, $lhs, QSI4C32PF16_RHS, $stem,
            $isa, $tile, native!(f32_qsi8d32p_qsi4c32p::$module), KleidiAi, $columns);
    };
}

/// A kernel of a 16-bit-output family: family, LHS and RHS packer lists, and the f32 module
/// and asm module of the f32 kernel with the same tile and RHS format, whose results it narrows.
macro_rules! narrowed_kernel {
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, $f32_family:ident :: $module:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile,
            native!($f32_family::$module));
    };
}

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMV, 1 row x 8 columns per step, SDOT.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP8X8_1X8X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod,
    NeonDotprod,
    [1, 8, 1, 8, 16, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 8 rows x 8 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP8X8_8X8X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm,
    NeonI8mm,
    [8, 8, 4, 8, 16, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP4X8_1X4X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4X4_1X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X4_16X4X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 8, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 8 rows x 8 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4CXP8X4_8X8X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod,
    NeonDotprod,
    [8, 8, 4, 8, 8, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 4-row portions x 4 columns, SMMLA: runs the 8x4 loop (same packed formats), whose
    /// 8-row blocks reuse each decoded weight register twice as often as a 4-row loop can.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X8_4X4X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm,
    NeonI8mm,
    [4, 4, 4, 4, 16, 2],
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 8 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X8_8X4X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm,
    NeonI8mm,
    [8, 4, 4, 4, 16, 2]
);

f32_qai8dxp_qsi4cxp_kernel!(
    /// GEMM, 4-row portions x 8 columns, SMMLA: runs the 8x8 loop (same packed formats; see the
    /// 4x4 stem).
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP8X8_4X8X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm,
    NeonI8mm,
    [4, 8, 4, 8, 16, 2],
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm
);

f32_qai8dxp_qsi8cxp_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4X4_1X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 4, 1]
);

f32_qai8dxp_qsi8cxp_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI8CXP4X8_1X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 1]
);

f32_qai8dxp_qsi8cxp_kernel!(
    /// GEMM, 16 rows x 4 columns per step, SDOT by element.
    MATMUL_CLAMP_F32_QAI8DXP4X4_QSI8CXP4X4_16X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 4, 1]
);

f32_qai8dxp_qsi8cxp_kernel!(
    /// GEMM, 16 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP4X8_16X4_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 8, 1]
);

/// An rkai SVE kernel of a per-channel `qai8dxp` family: `nr` and `n_step` are the tile's
/// numbers times the SVE vector length in 32-bit lanes; the asm lives in the module named like
/// the stem.
macro_rules! vla_qai8dxp_kernel {
    ($(#[$doc:meta])* $name:ident, $family:ident, $rhs:ident, $stem:ident, $isa:ident, $tile:tt,
        $module:ident) => {
        kernel_entry!($(#[$doc])* $name, $family, QAI8DXP_F32_LHS, $rhs, $stem, $isa, $tile,
            native!($module::$stem), Rkai, PerSveLane32);
    };
}

vla_qai8dxp_kernel!(
    /// GEMV, 1 row x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP2VLX8_1X2VL_SVE2_DOTPROD,
    F32Qai8dxpQsi4cxp,
    QSI4CXP_RHS,
    matmul_clamp_f32_qai8dxp1x8_qsi4cxp2vlx8_1x2vl_sve2_dotprod,
    Sve2Dotprod,
    [1, 2, 1, 2, 16, 2],
    f32_qai8dxp_qsi4cxp
);

vla_qai8dxp_kernel!(
    /// GEMM, 8 rows x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP2VLX8_8X2VL_SVE2_DOTPROD,
    F32Qai8dxpQsi4cxp,
    QSI4CXP_RHS,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod,
    Sve2Dotprod,
    [8, 2, 4, 2, 16, 2],
    f32_qai8dxp_qsi4cxp
);

vla_qai8dxp_kernel!(
    /// GEMM, 16 rows x 2 x VL32 columns per step, SVE SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP2VLX8_16X2VL_SVE2_I8MM,
    F32Qai8dxpQsi4cxp,
    QSI4CXP_RHS,
    matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm,
    Sve2I8mm,
    [16, 2, 4, 2, 16, 2],
    f32_qai8dxp_qsi4cxp
);

vla_qai8dxp_kernel!(
    /// GEMV, 1 row x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI8CXP2VLX8_1X2VL_SVE2_DOTPROD,
    F32Qai8dxpQsi8cxp,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod,
    Sve2Dotprod,
    [1, 2, 1, 2, 8, 1],
    f32_qai8dxp_qsi8cxp
);

vla_qai8dxp_kernel!(
    /// GEMM, 4 rows x 2 x VL32 columns per step, SVE SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP2VLX8_4X2VL_SVE2_DOTPROD,
    F32Qai8dxpQsi8cxp,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod,
    Sve2Dotprod,
    [4, 2, 4, 2, 8, 1],
    f32_qai8dxp_qsi8cxp
);

vla_qai8dxp_kernel!(
    /// GEMM, 8 rows x 2 x VL32 columns per step, SVE SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP2VLX8_8X2VL_SVE2_I8MM,
    F32Qai8dxpQsi8cxp,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm,
    Sve2I8mm,
    [8, 2, 4, 2, 8, 1],
    f32_qai8dxp_qsi8cxp
);

/// A KleidiAI SME or SME2 kernel of a packed-LHS family: its tile in streaming-vector units
/// (`PerSmeLane32` for a `1x4vl` GEMV, `RowsAndColumnsPerSmeLane32` for a `1vlx4vl` GEMM), the
/// way it finishes outputs, and the f32 module and asm module implementing it (with `:: f16`,
/// the module's f16-output form).
macro_rules! streaming_qai8dxp_kernel {
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, $columns:ident, $epilogue:expr,
        $f32_family:ident :: $module:ident $(:: $out:ident)? $(, $checks:expr)?
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile,
            native!($f32_family::$module $(:: $out)?), KleidiAi, $columns, Any, $epilogue
            $(, $checks)?);
    };
}

/// KleidiAI's f32 `qai8dxp1x4_qsi4cxp4vlx4` SME2 GEMV asserts its column indices against its
/// constants `kai_nr` (4) and `kai_n_step` (1), not against the getters, which scale with the
/// streaming length (its f16 sibling calls the getters).
const SDOT_QSI4CXP_OFFSET_CHECKS: OffsetChecks = OffsetChecks {
    rhs_packed_n_idx: IndexMultiple::Constant(4),
    dst_n_idx: IndexMultiple::Constant(1),
    ..OffsetChecks::TILE
};
/// SME2 `SDOT` GEMVs: `FMLA` into the bias, `FCLAMP`.
const SME2_DOT: Epilogue = Epilogue {
    scale_bias: ScaleBias::FusedMultiplyAdd,
    clamp: Clamp::MaxNumThenMinNum,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};
/// SME2 outer-product GEMMs: `FMUL`, `FADD`, `FCLAMP`.
const SME2_MOPA: Epilogue = Epilogue {
    scale_bias: ScaleBias::MultiplyThenAdd,
    clamp: Clamp::MaxNumThenMinNum,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};
/// The f16 forms of [`SME2_DOT`] and [`SME2_MOPA`] that narrow before `FCLAMP` (the
/// `qsi4cxp` ones; the `qsi8cxp` ones clamp in f32).
const SME2_DOT_NARROWED: Epilogue = Epilogue {
    clamp: Clamp::NarrowedMaxNumThenMinNum,
    ..SME2_DOT
};
const SME2_MOPA_NARROWED: Epilogue = Epilogue {
    clamp: Clamp::NarrowedMaxNumThenMinNum,
    ..SME2_MOPA
};
/// SME (streaming SVE) `SDOT` GEMVs: `FMLA` into the bias, `FMAX`/`FMIN`.
const SME_DOT: Epilogue = Epilogue {
    scale_bias: ScaleBias::FusedMultiplyAdd,
    clamp: Clamp::MaxThenMin,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};
/// SME2 outer-product GEMMs of per-block formats: as [`SME2_MOPA`], and the first block is
/// multiplied rather than fused into `+0`.
const SME2_BLOCKWISE_MOPA: Epilogue = Epilogue {
    block_fold: BlockFold::FirstMultiplies,
    partials: Partials::Destination,
    ..SME2_MOPA
};

streaming_qai8dxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step, SME2 multi-vector `SDOT` into ZA.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME2_DOT,
    F32Qai8dxpQsi8cxp,
    QAI8DXP_F32_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    SME2_DOT,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot
);

streaming_qai8dxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step, streaming SVE `SDOT`.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME_DOT,
    F32Qai8dxpQsi8cxp,
    QAI8DXP_F32_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot,
    Sme,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    SME_DOT,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot
);

streaming_qai8dxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles, SME2 epilogue.
    MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME2_MOPA,
    F32Qai8dxpQsi8cxp,
    QAI8DXP_F32_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    SME2_MOPA,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa
);

streaming_qai8dxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles.
    MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME_MOPA,
    F32Qai8dxpQsi8cxp,
    QAI8DXP_F32_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa,
    Sme,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    Epilogue::VECTOR,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa
);

streaming_qai8dxp_kernel!(
    /// f16 GEMV, 1 row x 4 x SVL32 columns per step, SME2 multi-vector `SDOT` into ZA.
    MATMUL_CLAMP_F16_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME2_DOT,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    SME2_DOT,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot::f16
);

streaming_qai8dxp_kernel!(
    /// f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` into four ZA tiles.
    MATMUL_CLAMP_F16_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME2_MOPA,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    SME2_MOPA,
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa::f16
);

streaming_qai8dxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, multi-vector `SDOT`
    /// into ZA per block, block scales folded in with `FMLA`.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P4VLX4_1X4VL_SME2_DOT,
    F32Qai8dxpQsi4c32p,
    QAI8DXP_F32_LHS,
    QSI4C32PS1S0_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot,
    Sme2,
    [1, 4, 1, 4, 8, 2],
    PerSmeLane32,
    SME2_DOT,
    f32_qai8dxp_qsi4c32p::matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot,
    OffsetChecks {
        block_depth: BlockDepth::Any,
        ..OffsetChecks::TILE
    }
);

streaming_qai8dxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, `SMOPA` into
    /// four ZA tiles per block, block scales folded in per output row.
    MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    F32Qai8dxpQsi4c32p,
    QAI8DXP_F32_LHS,
    QSI4C32PS1S0_RHS,
    matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 8, 2],
    RowsAndColumnsPerSmeLane32,
    SME2_BLOCKWISE_MOPA,
    f32_qai8dxp_qsi4c32p::matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    OffsetChecks {
        block_depth: BlockDepth::MultipleOf32,
        ..OffsetChecks::TILE
    }
);

streaming_qai8dxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step, SME2 `SDOT` into ZA on `LUTI4`-decoded int4.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME2_SDOT,
    F32Qai8dxpQsi4cxp,
    QAI8DXP_F32_LHS,
    QSI4CXPS1S0_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    SME2_DOT,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot,
    SDOT_QSI4CXP_OFFSET_CHECKS
);

streaming_qai8dxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step, streaming SVE `SDOT` on `s16s0` int4.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME_DOT,
    F32Qai8dxpQsi4cxp,
    QAI8DXP_F32_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot,
    Sme,
    [1, 4, 1, 4, 8, 2],
    PerSmeLane32,
    SME_DOT,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot
);

streaming_qai8dxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `LUTI4`-decoded int4, SME2 epilogue.
    MATMUL_CLAMP_F32_QAI8DXP1VLX8_QSI4CXP4VLX8_1VLX4VL_SME2_MOPA,
    F32Qai8dxpQsi4cxp,
    QAI8DXP_F32_LHS,
    QSI4CXPS1S0_RHS,
    matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    SME2_MOPA,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa
);

streaming_qai8dxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `s16s0` int4.
    MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4CXP4VLX4_1VLX4VL_SME_MOPA,
    F32Qai8dxpQsi4cxp,
    QAI8DXP_F32_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa,
    Sme,
    [1, 4, 1, 4, 8, 2],
    RowsAndColumnsPerSmeLane32,
    Epilogue::VECTOR,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa
);

streaming_qai8dxp_kernel!(
    /// f16 GEMV, 1 row x 4 x SVL32 columns per step, SME2 `SDOT` into ZA on `LUTI4`-decoded int4.
    MATMUL_CLAMP_F16_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME2_SDOT,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXPS1S0_RHS,
    matmul_clamp_f16_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    SME2_DOT_NARROWED,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot::f16
);

streaming_qai8dxp_kernel!(
    /// f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA` on `LUTI4`-decoded int4.
    MATMUL_CLAMP_F16_QAI8DXP1VLX8_QSI4CXP4VLX8_1VLX4VL_SME2_MOPA,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXPS1S0_RHS,
    matmul_clamp_f16_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    SME2_MOPA_NARROWED,
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa::f16
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P4X4_1X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 2],
    QSI4C32P_RHS_DEPTH4,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMV, 1 row x 8 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P8X4_1X8_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod,
    NeonDotprod,
    [1, 8, 1, 8, 8, 2],
    QSI4C32P_RHS_DEPTH4,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks (same code as the `1x8x32` stem,
    /// which KleidiAI gives the same tile).
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P8X8_1X8_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod,
    NeonDotprod,
    [1, 8, 1, 8, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P8X8_1X8X32_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod,
    NeonDotprod,
    [1, 8, 1, 8, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4C32P4X4_16X4_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 8, 2],
    QSI4C32P_RHS_DEPTH4,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 4 rows x 8 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4C32P8X4_4X8_NEON_DOTPROD,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod,
    NeonDotprod,
    [4, 8, 4, 8, 8, 2],
    QSI4C32P_RHS_DEPTH4,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 16 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P4X8_16X4X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 8-row portions x 4 columns, SMMLA (runs the 16x4 code: same packed formats).
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P4X8_8X4X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm,
    NeonI8mm,
    [8, 4, 4, 4, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 4 rows x 8 columns per step, SMMLA (same code as the `4x8x32` stem, which KleidiAI
    /// gives the same tile).
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P8X8_4X8_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm,
    NeonI8mm,
    [4, 8, 4, 8, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm
);

f32_qai8dxp_qsi4c32p_kernel!(
    /// GEMM, 4 rows x 8 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P8X8_4X8X32_NEON_I8MM,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm,
    NeonI8mm,
    [4, 8, 4, 8, 16, 2],
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm
);

vla_qai8dxp_kernel!(
    /// GEMV, 1 row x 2 VL32 columns per step (two groups of nr = VL32), SVE SDOT on 8-value
    /// blocks; reads the packed RHS of the `8x1vl` SVE2 GEMMs.
    MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P1VLX8_1X2VL_SVE2_DOTPROD,
    F32Qai8dxpQsi4c32p,
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod,
    Sve2Dotprod,
    [1, 2, 1, 1, 16, 2],
    f32_qai8dxp_qsi4c32p
);

vla_qai8dxp_kernel!(
    /// GEMM, 8 rows x VL32 columns per step, SVE SDOT on 8-value blocks (SVE2 CPUs without
    /// i8mm).
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P1VLX8_8X1VL_SVE2_DOTPROD,
    F32Qai8dxpQsi4c32p,
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod,
    Sve2Dotprod,
    [8, 1, 4, 1, 16, 2],
    f32_qai8dxp_qsi4c32p
);

vla_qai8dxp_kernel!(
    /// GEMM, 8 rows x VL32 columns per step, SMMLA on z registers (the NEON 16x4 loop's 8-row
    /// pass widened to the vector).
    MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P1VLX8_8X1VL_SVE2_I8MM,
    F32Qai8dxpQsi4c32p,
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm,
    Sve2I8mm,
    [8, 1, 4, 1, 16, 2],
    f32_qai8dxp_qsi4c32p
);

narrowed_kernel!(
    /// bf16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_BF16_QAI8DXP1X8_QSI4C32P4X8_1X4_NEON_DOTPROD,
    Bf16Qai8dxpQsi4c32p,
    QAI8DXP_BF16_LHS,
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2],
    f32_qai8dxp_qsi4c32p::matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod
);

narrowed_kernel!(
    /// bf16 GEMM, 16 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_BF16_QAI8DXP4X8_QSI4C32P4X8_16X4_NEON_I8MM,
    Bf16Qai8dxpQsi4c32p,
    QAI8DXP_BF16_LHS,
    QSI4C32P_RHS_DEPTH8,
    matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 16, 2],
    f32_qai8dxp_qsi4c32p::matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm
);

narrowed_kernel!(
    /// bf16 GEMV, 1 row x 8 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_BF16_QAI8DXP1X8_QSI4CXP8X8_1X8_NEON_DOTPROD,
    Bf16Qai8dxpQsi4cxp,
    QAI8DXP_BF16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod,
    NeonDotprod,
    [1, 8, 1, 8, 16, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod
);

narrowed_kernel!(
    /// bf16 GEMM, 8 rows x 8 columns per step, SMMLA.
    MATMUL_CLAMP_BF16_QAI8DXP4X8_QSI4CXP8X8_8X8_NEON_I8MM,
    Bf16Qai8dxpQsi4cxp,
    QAI8DXP_BF16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm,
    NeonI8mm,
    [8, 8, 4, 8, 16, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm
);

narrowed_kernel!(
    /// f16 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F16_QAI8DXP1X4_QSI4CXP4X4_1X4_NEON_DOTPROD,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f16_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F16_QAI8DXP1X8_QSI4CXP4X8_1X4_NEON_DOTPROD,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F16_QAI8DXP4X4_QSI4CXP4X4_16X4_NEON_DOTPROD,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f16_qai8dxp4x4_qsi4cxp4x4_16x4_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 8, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMM, 16-row portions x 4 columns, SMMLA (runs the f32 8x4 code: same packed formats).
    MATMUL_CLAMP_F16_QAI8DXP4X8_QSI4CXP4X8_16X4_NEON_I8MM,
    F16Qai8dxpQsi4cxp,
    QAI8DXP_F16_LHS,
    QSI4CXP_RHS,
    matmul_clamp_f16_qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 16, 2],
    f32_qai8dxp_qsi4cxp::matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm
);

narrowed_kernel!(
    /// f16 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F16_QAI8DXP1X4_QSI8CXP4X4_1X4_NEON_DOTPROD,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 4, 1],
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F16_QAI8DXP1X8_QSI8CXP4X8_1X4_NEON_DOTPROD,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 1],
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMM, 16 rows x 4 columns per step, SDOT by element.
    MATMUL_CLAMP_F16_QAI8DXP4X4_QSI8CXP4X4_16X4_NEON_DOTPROD,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 4, 1],
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod
);

narrowed_kernel!(
    /// f16 GEMM, 16 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F16_QAI8DXP4X8_QSI8CXP4X8_16X4_NEON_I8MM,
    F16Qai8dxpQsi8cxp,
    QAI8DXP_F16_LHS,
    QSI8CXP_RHS,
    matmul_clamp_f16_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 8, 1],
    f32_qai8dxp_qsi8cxp::matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4X4_1X4_NEON_DOTPROD,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 2],
    QSI8D32P_LHS,
    Fixed,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMV, 1 row x 4 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2],
    QSI8D32P_LHS,
    Fixed,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMM, 16 rows x 4 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QSI8D32P4X4_QSI4C32P4X4_16X4_NEON_DOTPROD,
    matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod,
    NeonDotprod,
    [16, 4, 4, 4, 8, 2],
    QSI8D32P_LHS,
    Fixed,
    matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMM, 16 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P4X8_16X4_NEON_I8MM,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm,
    NeonI8mm,
    [16, 4, 4, 4, 16, 2],
    QSI8D32P_LHS_4X8,
    Fixed,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMM, 8 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P4X8_8X4X32_NEON_I8MM,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm,
    NeonI8mm,
    [8, 4, 4, 4, 16, 2],
    QSI8D32P_LHS,
    Fixed,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMV for 256-bit SVE, 1 row x 8 columns per step, SDOT by element on 4-value blocks.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P8X4_1X8_SVE_DOTPROD,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod,
    SveDotprod,
    [1, 8, 1, 8, 8, 2],
    QSI8D32P_LHS,
    FixedAtSve256,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMV for 256-bit SVE, 1 row x 8 columns per step, SDOT on 8-value blocks.
    MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P8X8_1X8_SVE_DOTPROD,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod,
    SveDotprod,
    [1, 8, 1, 8, 16, 2],
    QSI8D32P_LHS,
    FixedAtSve256,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod
);

f32_qsi8d32p_qsi4c32p_kernel!(
    /// Q4_0 GEMM for 256-bit SVE, 16 rows x 8 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P8X8_16X8_SVE_I8MM,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm,
    SveI8mm,
    [16, 8, 4, 8, 16, 2],
    QSI8D32P_LHS,
    FixedAtSve256,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm
);

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

streaming_qai8dxp_kernel!(
    /// Q4_0 GEMV, 1 row x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, multi-vector
    /// `SDOT` into ZA per block.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME2_SDOT,
    F32Qsi8d32pQsi4c32p,
    QSI8D32P_SME_LHS,
    QSI4C32PS1S0F16_RHS,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot,
    Sme2,
    [1, 4, 1, 4, 4, 2],
    PerSmeLane32,
    SME2_Q4_0_DOT,
    f32_qsi8d32p_qsi4c32p::matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot
);

streaming_qai8dxp_kernel!(
    /// Q4_0 GEMV, 1 row x 4 x SVL32 columns per step: nibbles widened by shifts, streaming SVE
    /// `SDOT` into vector accumulators per block.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME_DOT,
    F32Qsi8d32pQsi4c32p,
    QSI8D32P_SME_LHS,
    QSI4C32PS4S0SF16_RHS,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot,
    Sme,
    [1, 4, 1, 4, 4, 2],
    PerSmeLane32,
    SME_Q4_0_DOT,
    f32_qsi8d32p_qsi4c32p::matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot
);

streaming_qai8dxp_kernel!(
    /// Q4_0 GEMM, SVL32 rows x 4 x SVL32 columns per step: int4 expanded with `LUTI4`, `SMOPA`
    /// into four ZA tiles per block, block scales folded in per output row.
    MATMUL_CLAMP_F32_QSI8D32P1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    F32Qsi8d32pQsi4c32p,
    QSI8D32P_SME_LHS,
    QSI4C32PS1S0F16_RHS,
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 2],
    RowsAndColumnsPerSmeLane32,
    SME2_Q4_0_MOPA,
    f32_qsi8d32p_qsi4c32p::matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa
);

streaming_qai8dxp_kernel!(
    /// Q4_0 GEMM, SVL32 rows x 4 x SVL32 columns per step: nibbles widened by shifts, `SMOPA`
    /// into four ZA tiles per block, block scales folded in per output row.
    MATMUL_CLAMP_F32_QSI8D32P1VLX4_QSI4C32P4VLX4_1VLX4VL_SME_MOPA,
    F32Qsi8d32pQsi4c32p,
    QSI8D32P_SME_LHS,
    QSI4C32PS4S0SF16_RHS,
    matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa,
    Sme,
    [1, 4, 1, 4, 4, 2],
    RowsAndColumnsPerSmeLane32,
    SME_Q4_0_MOPA,
    f32_qsi8d32p_qsi4c32p::matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa
);

/// A kernel of the `qsi8d32p_qai4c32p` families: family, LHS packer list, and the asm module of
/// `matmul::matmul_clamp_f32_qsi8d32p_qai4c32p` implementing its tile (the f16 kernels narrow the f32
/// kernel of the same tile), or `portable` where there is none yet.
macro_rules! qsi8d32p_qai4c32p_kernel {
    ($(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $stem:ident, $isa:ident, $tile:tt,
        portable) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, QAI4C32P_RHS, $stem, $isa, $tile,
            KernelFn::Portable);
    };
    ($(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $stem:ident, $isa:ident, $tile:tt,
        $module:ident) => {
        qsi8d32p_qai4c32p_kernel!($(#[$doc])* $name, $family, $lhs, $stem, $isa, $tile, $module,
            Any);
    };
    ($(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $stem:ident, $isa:ident, $tile:tt,
        $module:ident, $rows:ident) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, QAI4C32P_RHS, $stem, $isa, $tile,
            native!(qsi8d32p_qai4c32p::$module), KleidiAi, Fixed, $rows);
    };
}

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 GEMV, 1 row x 4 columns per step, SDOT by element on 4-value chunks.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QAI4C32P4X4_1X4_NEON_DOTPROD,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 8, 2],
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod,
    One
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 GEMV, 1 row x 4 columns per step, SDOT on 8-value chunks.
    MATMUL_CLAMP_F32_QSI8D32P1X8_QAI4C32P4X8_1X4_NEON_DOTPROD,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 16, 2],
    matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod,
    One
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 GEMM, 8 rows x 4 columns per step, SDOT by element.
    MATMUL_CLAMP_F32_QSI8D32P4X4_QAI4C32P4X4_8X4_NEON_DOTPROD,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod,
    NeonDotprod,
    [8, 4, 4, 4, 8, 2],
    matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 GEMM, 8 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F32_QSI8D32P4X8_QAI4C32P4X8_8X4_NEON_I8MM,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm,
    NeonI8mm,
    [8, 4, 4, 4, 16, 2],
    matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 f16 output, GEMV, 1 row x 4 columns per step, SDOT by element on 4-value chunks.
    MATMUL_CLAMP_F16_QSI8D32P1X4_QAI4C32P4X4_1X4_NEON_DOTPROD,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod,
    NeonFp16Dotprod,
    [1, 4, 1, 4, 8, 2],
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 f16 output, GEMV, 1 row x 4 columns per step, SDOT on 8-value chunks.
    MATMUL_CLAMP_F16_QSI8D32P1X8_QAI4C32P4X8_1X4_NEON_DOTPROD,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod,
    NeonFp16Dotprod,
    [1, 4, 1, 4, 16, 2],
    matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 f16 output, GEMM, 8 rows x 4 columns per step, SDOT by element.
    MATMUL_CLAMP_F16_QSI8D32P4X4_QAI4C32P4X4_8X4_NEON_DOTPROD,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod,
    NeonFp16Dotprod,
    [8, 4, 4, 4, 8, 2],
    matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod
);

qsi8d32p_qai4c32p_kernel!(
    /// Asymmetric int4 f16 output, GEMM, 8 rows x 4 columns per step, SMMLA.
    MATMUL_CLAMP_F16_QSI8D32P4X8_QAI4C32P4X8_8X4_NEON_I8MM,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm,
    NeonFp16I8mm,
    [8, 4, 4, 4, 16, 2],
    matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm
);

/// A KleidiAI SME2 kernel of the `qsi8d32p_qai4c32p` families: family, LHS packer list, stem,
/// tile in streaming-vector units, rows per call, epilogue, and the module of
/// `matmul::matmul_clamp_f32_qsi8d32p_qai4c32p` implementing it (with `:: f16`, its f16-output
/// form).
macro_rules! streaming_qai4c32p_kernel {
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $stem:ident, $tile:tt,
        $columns:ident, $rows:ident, $epilogue:expr, $module:ident $(:: $out:ident)?
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, QAI4C32PS1S0_RHS, $stem, Sme2, $tile,
            native!(qsi8d32p_qai4c32p::$module $(:: $out)?), KleidiAi, $columns, $rows,
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

streaming_qai4c32p_kernel!(
    /// Asymmetric int4 GEMV, 1 row x 4 x SVL32 columns per step: `LUTI4` expands the weights,
    /// multi-vector `SDOT` into ZA per block.
    MATMUL_CLAMP_F32_QSI8D32P1X4_QAI4C32P4VLX4_1X4VL_SME2_DOT,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
    [1, 4, 1, 4, 8, 2],
    PerSmeLane32,
    One,
    QAI4C32P_SME2_DOT,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot
);

streaming_qai4c32p_kernel!(
    /// Asymmetric int4 GEMM, SVL32 rows x 4 x SVL32 columns per step: `LUTI4` expands the
    /// weights, `SMOPA` into four ZA tiles per block.
    MATMUL_CLAMP_F32_QSI8D32P1VLX4_QAI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    F32Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F32_LHS,
    matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa,
    [1, 4, 1, 4, 8, 2],
    RowsAndColumnsPerSmeLane32,
    Any,
    QAI4C32P_SME2_MOPA,
    matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa
);

streaming_qai4c32p_kernel!(
    /// Asymmetric int4 f16 GEMV, 1 row x 4 x SVL32 columns per step, multi-vector `SDOT`.
    MATMUL_CLAMP_F16_QSI8D32P1X4_QAI4C32P4VLX4_1X4VL_SME2_DOT,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
    [1, 4, 1, 4, 8, 2],
    PerSmeLane32,
    One,
    QAI4C32P_SME2_DOT,
    matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot::f16
);

streaming_qai4c32p_kernel!(
    /// Asymmetric int4 f16 GEMM, SVL32 rows x 4 x SVL32 columns per step, `SMOPA`.
    MATMUL_CLAMP_F16_QSI8D32P1VLX4_QAI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    F16Qsi8d32pQai4c32p,
    QSI8D32PSCALEF32_F16_LHS,
    matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa,
    [1, 4, 1, 4, 8, 2],
    RowsAndColumnsPerSmeLane32,
    Any,
    QAI4C32P_SME2_MOPA,
    matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa::f16
);

/// A kernel of `matmul_clamp_f32_f32_f32p` (no LHS packer): RHS packer list, column scaling and
/// the module holding its asm.
macro_rules! f32_f32_f32p_kernel {
    (
        $(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $rhs:ident,
        $columns:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, F32F32F32p, NO_LHS_PACKER, $rhs, $stem, $isa, $tile, {
            #[cfg(target_arch = "aarch64")]
            {
                KernelFn::UnpackedLhs(crate::matmul::matmul_clamp_f32_f32_f32p::$stem::run)
            }
            #[cfg(not(target_arch = "aarch64"))]
            {
                KernelFn::Portable
            }
        }, KleidiAi, $columns);
    };
}

f32_f32_f32p_kernel!(
    /// f32 GEMM, 6 rows x 16 columns per step, FMLA by element (out-of-order cores).
    MATMUL_CLAMP_F32_F32_F32P16X1B_6X16_NEON_MLA,
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla,
    Neon,
    [6, 16, 1, 16, 1, 1],
    X32P16X1B_RHS,
    Fixed
);

f32_f32_f32p_kernel!(
    /// f32 GEMM, 6 rows x 16 columns per step, scheduled for in-order Cortex-A55 (64-bit loads
    /// paired with FMLAs).
    MATMUL_CLAMP_F32_F32_F32P16X1B_6X16_NEON_MLA_CORTEXA55,
    matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55,
    Neon,
    [6, 16, 1, 16, 1, 1],
    X32P16X1B_RHS,
    Fixed
);

f32_f32_f32p_kernel!(
    /// f32 GEMM, 6 rows x 8 columns per step, FMLA by element over 4 K values per iteration.
    MATMUL_CLAMP_F32_F32_F32P8X1BIASF32_6X8X4_NEON_MLA,
    matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla,
    Neon,
    [6, 8, 1, 8, 1, 1],
    F32P8X1BIASF32_RHS,
    Fixed
);

f32_f32_f32p_kernel!(
    /// f32 GEMM, 6-row blocks x 4 SVE vectors of columns (m_step 1, as KleidiAI reports),
    /// vector-length agnostic.
    MATMUL_CLAMP_F32_F32_F32P4VLX1B_6X4VL_SVE_MLA,
    matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla,
    Sve,
    [1, 4, 1, 4, 1, 1],
    X32P4VLX1B_RHS,
    PerSveLane32
);

kernel_entry!(
    /// Indirect f32 GEMM (convolution without im2col), 6-row blocks x 4 SVE vectors of columns,
    /// vector-length agnostic.
    IMATMUL_CLAMP_F32_F32_F32P4VLX1B_6X4VL_SVE_MLA,
    ImatmulF32F32F32p,
    NO_LHS_PACKER,
    IMATMUL_X32P4VLX1B_RHS,
    imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla,
    Sve,
    [6, 4, 6, 4, 1, 1],
    {
        #[cfg(target_arch = "aarch64")]
        {
            KernelFn::Indirect(
                crate::matmul::imatmul_clamp_f32_f32_f32p::imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla::run,
            )
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            KernelFn::Portable
        }
    },
    KleidiAi,
    PerSveLane32
);

/// A kernel of `matmul_clamp_f16_f16_f16p` (no LHS packer): RHS packer list and the module
/// holding its asm.
macro_rules! f16_f16_f16p_kernel {
    ($(#[$doc:meta])* $name:ident, $stem:ident, $isa:ident, $tile:tt, $rhs:ident) => {
        kernel_entry!($(#[$doc])* $name, F16F16F16p, NO_LHS_PACKER, $rhs, $stem, $isa, $tile, {
            #[cfg(target_arch = "aarch64")]
            {
                KernelFn::UnpackedLhs(crate::matmul::matmul_clamp_f16_f16_f16p::$stem::run)
            }
            #[cfg(not(target_arch = "aarch64"))]
            {
                KernelFn::Portable
            }
        }, KleidiAi, Fixed);
    };
}

f16_f16_f16p_kernel!(
    /// f16 GEMM, 6 rows x 32 columns per step, FMLA by element on halves (out-of-order cores).
    MATMUL_CLAMP_F16_F16_F16P32X1B_6X32_NEON_MLA,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla,
    NeonFp16,
    [6, 32, 1, 32, 1, 1],
    X16P32X1B_RHS
);

f16_f16_f16p_kernel!(
    /// f16 GEMM, 6 rows x 32 columns per step, scheduled for in-order Cortex-A55.
    MATMUL_CLAMP_F16_F16_F16P32X1B_6X32_NEON_MLA_CORTEXA55,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55,
    NeonFp16,
    [6, 32, 1, 32, 1, 1],
    X16P32X1B_RHS
);

f16_f16_f16p_kernel!(
    /// f16 GEMM, 6 rows x 16 columns per step, FMLA by element over 8 K values per iteration.
    MATMUL_CLAMP_F16_F16_F16P16X1BIASF16_6X16X8_NEON_MLA,
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla,
    NeonFp16,
    [6, 16, 1, 16, 1, 1],
    F16P16X1BIASF16_RHS
);

/// A kernel of a bf16 GEMM family: its asm module (under `matmul::bf16_gemm`), `f16_output` and
/// the f32 kernel's module whose asm it runs with f16 biases and results, or `portable` where
/// there is no asm yet.
macro_rules! bf16_gemm_kernel {
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, f16_output, $module:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile, {
            #[cfg(target_arch = "aarch64")]
            {
                KernelFn::Packed(crate::matmul::bf16_gemm::$module::run_f16)
            }
            #[cfg(not(target_arch = "aarch64"))]
            {
                KernelFn::Portable
            }
        });
    };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, portable
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile,
            KernelFn::Portable);
    };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, $module:ident
    ) => {
        bf16_gemm_kernel!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile, $module,
            Any);
    };
    (
        $(#[$doc:meta])* $name:ident, $family:ident, $lhs:ident, $rhs:ident, $stem:ident,
        $isa:ident, $tile:tt, $module:ident, $rows:ident
    ) => {
        kernel_entry!($(#[$doc])* $name, $family, $lhs, $rhs, $stem, $isa, $tile, {
            #[cfg(target_arch = "aarch64")]
            {
                KernelFn::Packed(crate::matmul::bf16_gemm::$module::run)
            }
            #[cfg(not(target_arch = "aarch64"))]
            {
                KernelFn::Portable
            }
        }, KleidiAi, Fixed, $rows);
    };
}

bf16_gemm_kernel!(
    /// bf16 GEMM to f32, 8 rows x 12 columns per step, BFMMLA.
    MATMUL_CLAMP_F32_BF16P8X4_BF16P12X4B_8X12_NEON_MMLA,
    F32Bf16pBf16p,
    BF16P8X4_LHS,
    BF16P12X4BIASF32_RHS,
    matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla,
    NeonBf16,
    [8, 12, 8, 12, 4, 1],
    matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla
);

bf16_gemm_kernel!(
    /// bf16 GEMV to f32, one row x 36 columns per step, BFDOT.
    MATMUL_CLAMP_F32_BF16P1X4_BF16P12X4B_1X36_NEON_DOT,
    F32Bf16pBf16p,
    BF16P1X4_LHS,
    BF16P12X4BIASF32_RHS,
    matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot,
    NeonBf16,
    [1, 36, 1, 12, 4, 1],
    matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot,
    One
);

bf16_gemm_kernel!(
    /// bf16 GEMM to f16, 8 rows x 12 columns per step, BFMMLA.
    MATMUL_CLAMP_F16_BF16P8X4_BF16P12X4B_8X12_NEON_MMLA,
    F16Bf16pBf16p,
    BF16P8X4_F16_LHS,
    BF16P12X4BIASF16_RHS,
    matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla,
    NeonFp16Bf16,
    [8, 12, 8, 12, 4, 1],
    f16_output,
    matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla
);

/// A kernel of `matmul_clamp_f32_qai8dxp_qsu2cxp` (2-bit weights through a value table).
macro_rules! f32_qai8dxp_qsu2cxp_kernel {
    ($(#[$doc:meta])* $name:ident, $rhs:ident, $stem:ident, $isa:ident, $tile:tt, $columns:ident,
     $rows:ident, $epilogue:expr) => {
        kernel_entry!($(#[$doc])* $name, F32Qai8dxpQsu2cxp, QAI8DXP_F32_LHS, $rhs, $stem, $isa,
            $tile, native!(f32_qai8dxp_qsu2cxp::$stem), KleidiAi, $columns, $rows, $epilogue);
    };
}

f32_qai8dxp_qsu2cxp_kernel!(
    /// GEMV, 1 row x 4 columns, 2-bit codes decoded with `TBL`, SDOT by element (one row per
    /// call: KleidiAI asserts `m == 1`).
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4X4BF32SF32_1X4_NEON_DOTPROD,
    QSU2CXP4X4_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod,
    NeonDotprod,
    [1, 4, 1, 4, 4, 1],
    Fixed,
    One,
    Epilogue::VECTOR
);

f32_qai8dxp_qsu2cxp_kernel!(
    /// GEMM, 8 rows x 4 columns per step, 2-bit codes decoded with `TBL`, SDOT by element.
    MATMUL_CLAMP_F32_QAI8DXP4X4_QSU2CXP4X4BF32SF32_8X4_NEON_DOTPROD,
    QSU2CXP4X4_RHS,
    matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod,
    NeonDotprod,
    [8, 4, 4, 4, 4, 1],
    Fixed,
    Any,
    Epilogue {
        scale_bias: ScaleBias::ScaleEachThenAdd,
        ..Epilogue::VECTOR
    }
);

f32_qai8dxp_qsu2cxp_kernel!(
    /// GEMV, 1 row x 4 x SVL32 columns per step: 2-bit codes expanded with `LUTI2`,
    /// multi-vector `SDOT` into ZA.
    MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4VLX4_1X4VL_SME2_DOT,
    QSU2CXP4VLX4_RHS,
    matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    PerSmeLane32,
    Any,
    SME2_DOT
);

f32_qai8dxp_qsu2cxp_kernel!(
    /// GEMM, SVL32 rows x 4 x SVL32 columns per step: 2-bit codes expanded with `LUTI2`,
    /// `SMOPA` into four ZA tiles.
    MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSU2CXP4VLX4_1VLX4VL_SME2_MOPA,
    QSU2CXP4VLX4_RHS,
    matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa,
    Sme2,
    [1, 4, 1, 4, 4, 1],
    RowsAndColumnsPerSmeLane32,
    Any,
    SME2_MOPA
);

/// Every kernel, in header-generation order.
pub static KERNELS: &[&MatmulKernel] = &[
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP4X8_1X4X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP8X8_1X8X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4CXP8X4_8X8X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X4_16X4X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X8_4X4X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP4X8_8X4X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP8X8_4X8X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP8X8_8X8X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI8CXP4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X4_QSI8CXP4X4_16X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP4X8_16X4_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4CXP2VLX8_1X2VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP2VLX8_8X2VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4CXP2VLX8_16X2VL_SVE2_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME2_SDOT,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME_DOT,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX8_QSI4CXP4VLX8_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4CXP4VLX4_1VLX4VL_SME_MOPA,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI8CXP2VLX8_1X2VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP2VLX8_4X2VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI8CXP2VLX8_8X2VL_SVE2_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME_DOT,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME_MOPA,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P8X4_1X8_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P8X8_1X8_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P8X8_1X8X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4C32P4X4_16X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X4_QSI4C32P8X4_4X8_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P4X8_16X4X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P4X8_8X4X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P8X8_4X8_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P8X8_4X8X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X8_QSI4C32P1VLX8_1X2VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P1VLX8_8X1VL_SVE2_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X8_QSI4C32P1VLX8_8X1VL_SVE2_I8MM,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4C32P4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4X4BF32SF32_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP4X4_QSU2CXP4X4BF32SF32_8X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSU2CXP4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_BF16_QAI8DXP1X8_QSI4C32P4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_BF16_QAI8DXP4X8_QSI4C32P4X8_16X4_NEON_I8MM,
    &MATMUL_CLAMP_BF16_QAI8DXP1X8_QSI4CXP8X8_1X8_NEON_DOTPROD,
    &MATMUL_CLAMP_BF16_QAI8DXP4X8_QSI4CXP8X8_8X8_NEON_I8MM,
    &MATMUL_CLAMP_F16_QAI8DXP1X4_QSI4CXP4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP1X8_QSI4CXP4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP4X4_QSI4CXP4X4_16X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP4X8_QSI4CXP4X8_16X4_NEON_I8MM,
    &MATMUL_CLAMP_F16_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME2_SDOT,
    &MATMUL_CLAMP_F16_QAI8DXP1VLX8_QSI4CXP4VLX8_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F16_QAI8DXP1X4_QSI8CXP4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP1X8_QSI8CXP4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP4X4_QSI8CXP4X4_16X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QAI8DXP4X8_QSI8CXP4X8_16X4_NEON_I8MM,
    &MATMUL_CLAMP_F16_QAI8DXP1X4_QSI8CXP4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F16_QAI8DXP1VLX4_QSI8CXP4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P4X4_QSI4C32P4X4_16X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P4X8_16X4_NEON_I8MM,
    &MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P4X8_8X4X32_NEON_I8MM,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P8X4_1X8_SVE_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P8X8_1X8_SVE_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P4X8_QSI4C32P8X8_16X8_SVE_I8MM,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME2_SDOT,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME_DOT,
    &MATMUL_CLAMP_F32_QSI8D32P1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_QSI8D32P1VLX4_QSI4C32P4VLX4_1VLX4VL_SME_MOPA,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QAI4C32P4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P1X8_QAI4C32P4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P4X4_QAI4C32P4X4_8X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F32_QSI8D32P4X8_QAI4C32P4X8_8X4_NEON_I8MM,
    &MATMUL_CLAMP_F32_QSI8D32P1X4_QAI4C32P4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F32_QSI8D32P1VLX4_QAI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F16_QSI8D32P1X4_QAI4C32P4X4_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QSI8D32P1X8_QAI4C32P4X8_1X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QSI8D32P4X4_QAI4C32P4X4_8X4_NEON_DOTPROD,
    &MATMUL_CLAMP_F16_QSI8D32P4X8_QAI4C32P4X8_8X4_NEON_I8MM,
    &MATMUL_CLAMP_F16_QSI8D32P1X4_QAI4C32P4VLX4_1X4VL_SME2_DOT,
    &MATMUL_CLAMP_F16_QSI8D32P1VLX4_QAI4C32P4VLX4_1VLX4VL_SME2_MOPA,
    &MATMUL_CLAMP_F32_F32_F32P16X1B_6X16_NEON_MLA,
    &MATMUL_CLAMP_F32_F32_F32P16X1B_6X16_NEON_MLA_CORTEXA55,
    &MATMUL_CLAMP_F32_F32_F32P8X1BIASF32_6X8X4_NEON_MLA,
    &MATMUL_CLAMP_F32_F32_F32P4VLX1B_6X4VL_SVE_MLA,
    &MATMUL_CLAMP_F16_F16_F16P32X1B_6X32_NEON_MLA,
    &MATMUL_CLAMP_F16_F16_F16P32X1B_6X32_NEON_MLA_CORTEXA55,
    &MATMUL_CLAMP_F16_F16_F16P16X1BIASF16_6X16X8_NEON_MLA,
    &MATMUL_CLAMP_F32_BF16P1X4_BF16P12X4B_1X36_NEON_DOT,
    &MATMUL_CLAMP_F32_BF16P8X4_BF16P12X4B_8X12_NEON_MMLA,
    &MATMUL_CLAMP_F16_BF16P8X4_BF16P12X4B_8X12_NEON_MMLA,
    &IMATMUL_CLAMP_F32_F32_F32P4VLX1B_6X4VL_SVE_MLA,
];

/// Looks a kernel up by stem (with or without its `kai_` / `rkai_` prefix).
pub fn kernel(stem: &str) -> Option<&'static MatmulKernel> {
    let stem = stem
        .strip_prefix("rkai_")
        .or_else(|| stem.strip_prefix("kai_"))
        .unwrap_or(stem);
    KERNELS.iter().copied().find(|k| k.stem == stem)
}

/// Looks a packer up by name (with or without the `kai_` prefix).
pub fn packer(name: &str) -> Option<&'static Packer> {
    let name = name.strip_prefix("kai_").unwrap_or(name);
    PACKERS.iter().copied().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::KERNELS;

    /// Dispatch relies on it: a kernel's hand-written function takes its family's argument shape.
    #[test]
    fn every_kernel_function_takes_its_family_arguments() {
        for k in KERNELS {
            let description = k.family.description();
            assert!(
                k.native.fits(description.operands, description.output),
                "{}: {:?} does not take {:?}",
                k.stem,
                k.native,
                k.family.description().operands
            );
        }
    }

    /// Every family with a kernel is described, and every described family has a kernel.
    #[test]
    fn every_family_has_kernels() {
        for family in crate::family::Family::ALL {
            assert!(
                KERNELS.iter().any(|k| k.family == family),
                "{family:?} has no kernel"
            );
        }
    }
}
