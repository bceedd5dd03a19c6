//! What a kernel entry is: the tile, how it scales with the vector length, how the kernel
//! finishes each output, what its getters check, and the [`MatmulKernel`] entry itself; the
//! epilogues several families share; and the macros family folders declare their entries with.
//!
//! Below every family: it imports no family module, so a family folder can declare its own
//! kernels (`matmul/<family>/mod.rs`) and the catalog only lists the folders.

use crate::arch::{Features, Isa};
use crate::family::Family;
use crate::matmul::args::KernelFn;
use crate::pack::kinds::Packer;

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

    /// Whether the packed layout follows a vector length (SVE or streaming), so packed buffers
    /// are only valid where that length is the same.
    pub const fn follows_vector_length(self) -> bool {
        !matches!(self, Columns::Fixed | Columns::FixedAtSve256)
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

/// What KleidiAI's functions of one kernel assert where its kernels differ, even within a family
/// (one asserts an index against a constant where another calls the getter; one float kernel
/// asserts `dst_stride_col`, its siblings ignore it). rkai checks exactly that, no more, so a call
/// KleidiAI's debug build accepts is accepted at every vector length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asserts {
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
    /// Whether `run` asserts `dst_stride_col == sizeof(element)`. Read by the unpacked-LHS float
    /// families and the bf16 families; every other packed-LHS kernel asserts it (its family's
    /// check does).
    pub dst_stride_col: bool,
}

impl Asserts {
    /// Every index against the getter of its name, whole blocks, `dst_stride_col` checked: most
    /// kernels.
    pub const USUAL: Asserts = Asserts {
        lhs_packed_m_idx: IndexMultiple::Tile,
        rhs_packed_n_idx: IndexMultiple::Tile,
        dst_m_idx: IndexMultiple::Tile,
        dst_n_idx: IndexMultiple::Tile,
        block_depth: BlockDepth::WholeBlocks,
        dst_stride_col: true,
    };

    /// [`Asserts::USUAL`] but for `dst_stride_col`, which `run` ignores (most of KleidiAI's
    /// unpacked-LHS float kernels).
    pub const IGNORING_DST_STRIDE_COL: Asserts = Asserts {
        dst_stride_col: false,
        ..Asserts::USUAL
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
    pub fn keep(self, acc: f32, output: crate::element::Output) -> f32 {
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
    /// What its C functions assert where kernels differ.
    pub asserts: Asserts,
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

    /// Bytes of the vector whose length this kernel's packed operands are laid out for on this
    /// machine: the SVE vector for the kernels whose tile follows it, the streaming vector for the
    /// SME ones, 0 where the layout follows no vector length (NEON, and the SVE kernels that run
    /// at one length only). Data packed where this differs is laid out for another tile: a
    /// framework keeps the value with its packed weights and repacks when it changes.
    pub fn packed_vector_bytes(&self) -> usize {
        match self.columns {
            Columns::PerSveLane32 => 4 * crate::arch::sve_lanes32(),
            Columns::PerSmeLane32 | Columns::RowsAndColumnsPerSmeLane32 => {
                4 * crate::arch::sme_lanes32()
            }
            Columns::Fixed | Columns::FixedAtSve256 => 0,
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

    /// Whether the kernel runs on a CPU with `features` whose SVE vector holds `sve_lanes32`
    /// 32-bit lanes.
    pub fn runs_on(&self, features: Features, sve_lanes32: usize) -> bool {
        features.contains(self.isa.features()) && self.runs_at_sve_lanes32(sve_lanes32)
    }

    /// Symbol prefix of its C functions (`kai` or `rkai`).
    pub const fn prefix(&self) -> &'static str {
        self.origin.prefix()
    }
}

// ---------------------------------------------------------------------------------------------
// Epilogues several families share

/// SME2 `SDOT` GEMVs: `FMLA` into the bias, `FCLAMP`.
pub const SME2_DOT: Epilogue = Epilogue {
    scale_bias: ScaleBias::FusedMultiplyAdd,
    clamp: Clamp::MaxNumThenMinNum,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};

/// SME2 outer-product GEMMs: `FMUL`, `FADD`, `FCLAMP`.
pub const SME2_MOPA: Epilogue = Epilogue {
    scale_bias: ScaleBias::MultiplyThenAdd,
    clamp: Clamp::MaxNumThenMinNum,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};

/// The f16 forms of [`SME2_DOT`] and [`SME2_MOPA`] that narrow before `FCLAMP` (the
/// `qsi4cxp` ones; the `qsi8cxp` ones clamp in f32).
pub const SME2_DOT_NARROWED: Epilogue = Epilogue {
    clamp: Clamp::NarrowedMaxNumThenMinNum,
    ..SME2_DOT
};

/// See [`SME2_DOT_NARROWED`].
pub const SME2_MOPA_NARROWED: Epilogue = Epilogue {
    clamp: Clamp::NarrowedMaxNumThenMinNum,
    ..SME2_MOPA
};

/// SME (streaming SVE) `SDOT` GEMVs: `FMLA` into the bias, `FMAX`/`FMIN`.
pub const SME_DOT: Epilogue = Epilogue {
    scale_bias: ScaleBias::FusedMultiplyAdd,
    clamp: Clamp::MaxThenMin,
    block_fold: BlockFold::FusedFromZero,
    partials: Partials::Registers,
    block_scale: BlockScale::Multiply,
};

/// SME2 outer-product GEMMs of per-block formats: as [`SME2_MOPA`], and the first block is
/// multiplied rather than fused into `+0`.
pub const SME2_BLOCKWISE_MOPA: Epilogue = Epilogue {
    block_fold: BlockFold::FirstMultiplies,
    partials: Partials::Destination,
    ..SME2_MOPA
};

// ---------------------------------------------------------------------------------------------
// Entry macros

/// Picks the aarch64 implementation on aarch64 and the portable one elsewhere: the module's `run`
/// (`unpacked`: taking an unpacked LHS, `indirect`: an indirection buffer, else both operands
/// packed; a third segment names the 16-bit-output form of a packed kernel).
macro_rules! native {
    (unpacked $family:ident :: $module:ident) => {
        $crate::kernel::native!(@on_aarch64 UnpackedLhs($family::$module::run))
    };
    (indirect $family:ident :: $module:ident) => {
        $crate::kernel::native!(@on_aarch64 Indirect($family::$module::run))
    };
    ($family:ident :: $module:ident :: $out:ident) => {
        $crate::kernel::native!(@on_aarch64 PackedOutput($family::$module::$out::run))
    };
    ($family:ident :: $module:ident) => {
        $crate::kernel::native!(@on_aarch64 Packed($family::$module::run))
    };
    // `KernelFn::$shape($f)` where the asm exists, the portable implementation elsewhere.
    (@on_aarch64 $shape:ident($f:path)) => {{
        #[cfg(target_arch = "aarch64")]
        {
            $crate::matmul::args::KernelFn::$shape($f)
        }
        #[cfg(not(target_arch = "aarch64"))]
        {
            $crate::matmul::args::KernelFn::Portable
        }
    }};
}

/// Declares a kernel entry of any family: its stem (the static's name and its C stem), family,
/// LHS and RHS packer lists, ISA, the tile `[m_step, n_step, mr, nr, kr, sr]` and the
/// implementation on this target. The short form is a KleidiAI kernel with a fixed tile; the long
/// form (`..., $native, $origin, $columns`) also names the origin and column scaling, for rkai's
/// vector-length-agnostic extensions; then the rows per call (`One`: limited to one row), the
/// epilogue and the asserts may follow.
macro_rules! kernel_entry {
    (@epilogue) => { $crate::kernel::Epilogue::VECTOR };
    (@epilogue $e:expr) => { $e };
    (@checks) => { $crate::kernel::Asserts::USUAL };
    (@checks $c:expr) => { $c };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident, $isa:ident,
        $tile:tt, $native:expr
    ) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile, $native,
            KleidiAi, Fixed);
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident, $isa:ident,
        $tile:tt, $native:expr, $origin:ident, $columns:ident
    ) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile, $native,
            $origin, $columns, Any);
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident, $isa:ident,
        [$m_step:expr, $n_step:expr, $mr:expr, $nr:expr, $kr:expr, $sr:expr], $native:expr,
        $origin:ident, $columns:ident, $rows:ident $(, $epilogue:expr $(, $checks:expr)?)?
    ) => {
        $(#[$doc])*
        #[allow(non_upper_case_globals)]
        pub static $stem: $crate::kernel::MatmulKernel = $crate::kernel::MatmulKernel {
            stem: stringify!($stem),
            origin: $crate::kernel::Origin::$origin,
            family: $crate::family::Family::$family,
            isa: $crate::arch::Isa::$isa,
            base_tile: $crate::kernel::Tile { m_step: $m_step, n_step: $n_step, mr: $mr, nr: $nr, kr: $kr, sr: $sr },
            columns: $crate::kernel::Columns::$columns,
            rows: $crate::kernel::Rows::$rows,
            lhs_packers: $lhs,
            rhs_packers: $rhs,
            native: $native,
            epilogue: $crate::kernel::kernel_entry!(@epilogue $($epilogue)?),
            asserts: $crate::kernel::kernel_entry!(@checks $($($checks)?)?),
        };
    };
}

/// A kernel of a 16-bit-output family: family, LHS and RHS packer lists, and the f32 module
/// and asm module of the f32 kernel with the same tile and RHS format, whose results it narrows.
macro_rules! narrowed_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, $f32_family:ident :: $module:ident
    ) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile,
            $crate::kernel::native!($f32_family::$module));
    };
}

/// An rkai SVE kernel of a per-channel `qai8dxp` family: `nr` and `n_step` are the tile's
/// numbers times the SVE vector length in 32-bit lanes; the asm lives in the module named like
/// the stem.
macro_rules! vla_qai8dxp_kernel {
    ($(#[$doc:meta])* $stem:ident, $family:ident, $rhs:ident, $isa:ident, $tile:tt,
        $module:ident) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, QAI8DXP_F32_LHS, $rhs, $isa, $tile,
            $crate::kernel::native!($module::$stem), Rkai, PerSveLane32);
    };
}

/// A KleidiAI SME or SME2 kernel of a packed-LHS family: its tile in streaming-vector units
/// (`PerSmeLane32` for a `1x4vl` GEMV, `RowsAndColumnsPerSmeLane32` for a `1vlx4vl` GEMM), the
/// way it finishes outputs, and the f32 module and asm module implementing it (with `:: f16`,
/// the module's f16-output form). With `unpacked` before the module, a kernel of an
/// unpacked-LHS float family (its `run` takes `UnpackedLhsArgs`), followed by its [`Rows`].
macro_rules! streaming_entry {
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, $columns:ident, $epilogue:expr,
        unpacked $folder:ident :: $module:ident, $rows:ident $(, $checks:expr)?
    ) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile,
            $crate::kernel::native!(unpacked $folder::$module), KleidiAi, $columns, $rows,
            $epilogue $(, $checks)?);
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident,
        $isa:ident, $tile:tt, $columns:ident, $epilogue:expr,
        $f32_family:ident :: $module:ident $(:: $out:ident)? $(, $checks:expr)?
    ) => {
        $crate::kernel::kernel_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, $isa, $tile,
            $crate::kernel::native!($f32_family::$module $(:: $out)?), KleidiAi, $columns, Any, $epilogue
            $(, $checks)?);
    };
}

/// The entry of an SME float outer-product GEMM of `float_mopa_kernel!` (direct or indirect):
/// 2 x SVL32 rows by 2 x SVL32 columns per step with `kr` values per K step, the vector clamp
/// on SME and `FCLAMP` on SME2, and a `run` that ignores `dst_stride_col`, as KleidiAI's does.
macro_rules! float_mopa_entry {
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident, Sme, kr $kr:literal,
        $folder:ident :: $module:ident
    ) => {
        $crate::kernel::streaming_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, Sme,
            [2, 2, 2, 2, $kr, 1], RowsAndColumnsPerSmeLane32, $crate::kernel::Epilogue::VECTOR,
            $folder::$module, $crate::kernel::Asserts::IGNORING_DST_STRIDE_COL);
    };
    (
        $(#[$doc:meta])* $stem:ident, $family:ident, $lhs:ident, $rhs:ident, Sme2, kr $kr:literal,
        $folder:ident :: $module:ident
    ) => {
        $crate::kernel::streaming_entry!($(#[$doc])* $stem, $family, $lhs, $rhs, Sme2,
            [2, 2, 2, 2, $kr, 1], RowsAndColumnsPerSmeLane32, $crate::kernel::SME2_MOPA,
            $folder::$module, $crate::kernel::Asserts::IGNORING_DST_STRIDE_COL);
    };
}

/// Declares a folder's kernel entries and `KERNELS`, all of them in order. Each row is an entry
/// static, named by the kernel's stem (without `kai_`; the build script relies on it), and the
/// entry macro that declares it with the rest of its arguments:
/// `/// doc` `stem: folder_kernel!(isa, tile, ...);` is `folder_kernel!(/// doc stem, isa, ...)`.
macro_rules! kernel_entries {
    ($($(#[$doc:meta])* $stem:ident: $declare:ident!($($rest:tt)*);)+) => {
        $($declare!($(#[$doc])* $stem, $($rest)*);)+
        /// The kernels this folder implements, in catalog order.
        pub const KERNELS: &[&$crate::kernel::MatmulKernel] = &[$(&$stem),+];
    };
}

// Path-based imports for the family folders: `use crate::kernel::kernel_entry;`.
pub(crate) use {
    float_mopa_entry, kernel_entries, kernel_entry, narrowed_kernel, native, streaming_entry,
    vla_qai8dxp_kernel,
};
