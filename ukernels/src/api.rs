//! Safe Rust API: typed packed buffers that know their format and shape, constructors that check
//! every precondition and return [`Error`] instead of aborting, and a [`matmul`] that refuses
//! buffers packed for another format.
//!
//! The flow of one linear layer `y = x W^T + b` with dynamically quantized activations:
//! 1. choose kernels once: [`Kernel::select`] (best for this CPU) or [`Kernel::new`];
//! 2. pack the weights once: [`PackedWeights::pack`] into storage you provide (any
//!    `AsMut<[u8]>`: a `Vec<u8>`, an arena slice) of [`Kernel::packed_weights_size`] bytes; with the
//!    GEMV/GEMM pair of [`Kernel::select_pair`], one packing serves both;
//! 3. per call, quantize the activations: [`QuantizedActivations::quantize`];
//! 4. run [`matmul`] (or, with the `std` feature, [`parallel::matmul`] over threads).
//!
//! Nothing here allocates. Only the `f32`-output `qai8dxp` families are covered so far.

use crate::arch::{self, Features};
use crate::contract::Violation;
use crate::family::Family;
use crate::kernel::MatmulKernel;
use crate::layout::{self, RhsLayout};
use crate::matmul::args::PackedArgs;
use crate::matmul::call;
use crate::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind};
use crate::pack::lhs_quant_pack_qai8dxp as lhs_pack;
use crate::pack::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0 as sequential_int4_pack;
use crate::pack::rhs_pack_qsi4c32p_qsu4c32s1s0 as block_pack;
use crate::pack::rhs_pack_qsi4cxp_qs4cxs1s0 as int4_pack;
use crate::pack::rhs_pack_qsi8cxp_qsi8cx as int8_pack;
use crate::pack::{Source, lhs_quant_pack_qai8dxp::LhsType};
use crate::select::{self, Shape};
use crate::select_env;
use crate::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};
use core::fmt;

/// Why a safe call refused its arguments. More variants may come with more families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A precondition of the kernel or packer does not hold (KleidiAI's condition text).
    Precondition(&'static str),
    /// A buffer is shorter than the operation needs.
    BufferTooSmall {
        /// Which buffer.
        buffer: &'static str,
        /// Elements (or bytes, for packed storage) needed.
        needed: usize,
        /// Elements (or bytes) given.
        given: usize,
    },
    /// Two operands disagree about a dimension.
    ShapeMismatch {
        /// Which dimension.
        dimension: &'static str,
        /// Its value in the packed operand.
        packed: usize,
        /// Its value in the call.
        given: usize,
    },
    /// A packed operand was packed for a kernel with another format.
    FormatMismatch(&'static str),
    /// The kernel's family is not covered by the safe API yet.
    UnsupportedFamily(&'static str),
    /// This CPU cannot run the kernel (or no kernel of the family).
    NotSupportedByCpu(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Precondition(c) => write!(f, "precondition failed: {c}"),
            Error::BufferTooSmall {
                buffer,
                needed,
                given,
            } => write!(f, "{buffer} holds {given} but needs {needed}"),
            Error::ShapeMismatch {
                dimension,
                packed,
                given,
            } => write!(
                f,
                "{dimension} is {packed} in the packed operand but {given} here"
            ),
            Error::FormatMismatch(what) => write!(f, "{what} was packed for another format"),
            Error::UnsupportedFamily(dir) => write!(f, "family {dir} has no safe API yet"),
            Error::NotSupportedByCpu(what) => write!(f, "this CPU cannot run {what}"),
        }
    }
}

impl core::error::Error for Error {}

impl From<Violation> for Error {
    fn from(v: Violation) -> Self {
        Error::Precondition(v.condition)
    }
}

/// Result of the safe API.
pub type Result<T> = core::result::Result<T, Error>;

fn need(buffer: &'static str, needed: usize, given: usize) -> Result<()> {
    if given < needed {
        return Err(Error::BufferTooSmall {
            buffer,
            needed,
            given,
        });
    }
    Ok(())
}

fn same(dimension: &'static str, packed: usize, given: usize) -> Result<()> {
    if packed != given {
        return Err(Error::ShapeMismatch {
            dimension,
            packed,
            given,
        });
    }
    Ok(())
}

/// A kernel this CPU can run, of a family the safe API covers.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    kernel: &'static MatmulKernel,
}

impl Kernel {
    /// Wraps a catalog entry after checking the family and (on aarch64) the CPU's features.
    pub fn new(kernel: &'static MatmulKernel) -> Result<Kernel> {
        let covered = matches!(
            kernel.family,
            Family::F32Qai8dxpQsi4cxp | Family::F32Qai8dxpQsi8cxp | Family::F32Qai8dxpQsi4c32p
        );
        if !covered {
            return Err(Error::UnsupportedFamily(kernel.family.dir()));
        }
        if cfg!(target_arch = "aarch64") && !Features::detect().contains(kernel.isa.features()) {
            return Err(Error::NotSupportedByCpu(kernel.stem));
        }
        Ok(Kernel { kernel })
    }

    /// The best GEMV and GEMM of `family` for this CPU; they share one packed weight format.
    /// Chosen as C's `rkai_select_<family>` chooses ([`crate::select_env`]): `RKAI_FEATURES`
    /// restricts the features, `RKAI_LOG_SELECTION` logs the choice, and off AArch64 only the
    /// kernels whose formats follow no vector length are offered (their portable paths run).
    pub fn select_pair(family: Family) -> Result<(Kernel, Kernel)> {
        let features = select_env::allowed_features(select_env::ALL);
        let pair = select::best_pair(family, features, arch::sve_lanes32());
        for shape in [Shape::Gemv, Shape::Gemm] {
            select_env::log_choice(family, shape, pair.map(|p| p.kernel(shape)), features);
        }
        let pair = pair.ok_or(Error::NotSupportedByCpu(family.dir()))?;
        Ok((Kernel::new(pair.gemv)?, Kernel::new(pair.gemm)?))
    }

    /// The best kernel of `family` for `shape` on this CPU.
    pub fn select(family: Family, shape: Shape) -> Result<Kernel> {
        let (gemv, gemm) = Kernel::select_pair(family)?;
        Ok(match shape {
            Shape::Gemv => gemv,
            Shape::Gemm => gemm,
        })
    }

    /// The catalog entry.
    pub fn entry(&self) -> &'static MatmulKernel {
        self.kernel
    }

    /// Bytes of storage that `n x k` weights (block length `bl`, 0 per channel) packed for this
    /// kernel need ([`PackedWeights::pack`]).
    pub fn packed_weights_size(&self, n: usize, k: usize, bl: usize) -> Result<usize> {
        let f = self.rhs_format(bl);
        Ok(f.layout.size(n, k, f.nr, f.kr, f.sr)?)
    }

    /// Bytes of storage that `m x k` activations quantized for this kernel need
    /// ([`QuantizedActivations::quantize`]).
    pub fn quantized_activations_size(&self, m: usize, k: usize) -> Result<usize> {
        let t = self.kernel.tile();
        Ok(layout::qai8dxp::size(m, k, t.mr, t.kr, t.sr)?)
    }

    /// Format of the packed weights this kernel reads.
    fn rhs_format(&self, bl: usize) -> RhsFormat {
        let t = self.kernel.tile();
        RhsFormat {
            layout: self.kernel.family.rhs_layout(bl),
            nr: t.nr,
            kr: t.kr,
            sr: t.sr,
        }
    }
}

/// The weights of a linear layer, `n` output channels of `k` inputs each, row-major ("nxk").
#[derive(Clone, Copy, Debug)]
pub enum Weights<'a> {
    /// Signed int4 with one f32 scale per channel: `data` holds unsigned nibbles with zero point
    /// 8, two per byte (even k in the low nibble), rows of `ceil(k / 2)` bytes.
    Int4PerChannel {
        /// Packed nibbles, `n * ceil(k / 2)` bytes.
        data: &'a [u8],
        /// `n` scales.
        scales: &'a [f32],
    },
    /// Signed int8 with one f32 scale per channel: `n * k` values.
    Int8PerChannel {
        /// `n * k` values.
        data: &'a [i8],
        /// `n` scales.
        scales: &'a [f32],
    },
    /// Signed int4 with one bf16 scale per block of `bl` inputs (`bl` a multiple of 32 dividing
    /// `k`): nibbles as for [`Weights::Int4PerChannel`], `n * k / bl` scales.
    Int4PerBlock {
        /// Block length.
        bl: usize,
        /// Packed nibbles, `n * ceil(k / 2)` bytes.
        data: &'a [u8],
        /// `n * (k / bl)` scales.
        scales: &'a [half::bf16],
    },
}

impl Weights<'_> {
    fn family(&self) -> Family {
        match self {
            Weights::Int4PerChannel { .. } => Family::F32Qai8dxpQsi4cxp,
            Weights::Int8PerChannel { .. } => Family::F32Qai8dxpQsi8cxp,
            Weights::Int4PerBlock { .. } => Family::F32Qai8dxpQsi4c32p,
        }
    }

    fn bl(&self) -> usize {
        match self {
            Weights::Int4PerBlock { bl, .. } => *bl,
            _ => 0,
        }
    }
}

/// A packed weight format: what a kernel must read to use a packed buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RhsFormat {
    layout: RhsLayout,
    nr: usize,
    kr: usize,
    sr: usize,
}

/// Weights packed for a kernel: the storage plus the format and shape it holds.
#[derive(Debug)]
pub struct PackedWeights<S> {
    storage: S,
    format: RhsFormat,
    family: Family,
    n: usize,
    k: usize,
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> PackedWeights<S> {
    /// Packs `n x k` weights with an optional bias (`n` values) for `kernel` into `storage`.
    pub fn pack(
        kernel: &Kernel,
        n: usize,
        k: usize,
        weights: Weights<'_>,
        bias: Option<&[f32]>,
        mut storage: S,
    ) -> Result<Self> {
        let family = kernel.kernel.family;
        if weights.family() != family {
            return Err(Error::FormatMismatch("weights"));
        }
        let bl = weights.bl();
        let format = kernel.rhs_format(bl);
        let size = kernel.packed_weights_size(n, k, bl)?;
        need("packed weight storage", size, storage.as_ref().len())?;
        if let Some(b) = bias {
            need("bias", n, b.len())?;
        }
        let bias = bias.map_or(core::ptr::null(), <[f32]>::as_ptr);
        let nibble_row = k.div_ceil(2);
        let packed = storage.as_mut().as_mut_ptr();
        let (nr, kr, sr) = (format.nr, format.kr, format.sr);
        let num_groups = 1;
        match weights {
            Weights::Int4PerChannel { data, scales } => {
                need("int4 weights", n.saturating_mul(nibble_row), data.len())?;
                need("scales", n, scales.len())?;
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                };
                let a = int4_pack::Args {
                    num_groups,
                    n,
                    k,
                    nr,
                    kr,
                    sr,
                    rhs: data.as_ptr(),
                    bias,
                    scale: scales.as_ptr(),
                    rhs_packed: packed,
                    extra_bytes: 0,
                    params: &params,
                };
                // The kernel's own packer: the SME2 kernels read sequential nibbles with
                // unscaled sums and scales, the others `s16s0`.
                if crate::matmul::qai8dxp::sequential_nibbles(kernel.kernel) {
                    sequential_int4_pack::check(&a)?;
                    // SAFETY: checked arguments; every buffer's length was verified above.
                    unsafe { sequential_int4_pack::run(&a) };
                } else {
                    int4_pack::check(&a)?;
                    // SAFETY: as above.
                    unsafe { int4_pack::run(Source::Nxk, &a) };
                }
            }
            Weights::Int8PerChannel { data, scales } => {
                need("int8 weights", n.saturating_mul(k), data.len())?;
                need("scales", n, scales.len())?;
                let params = kai_rhs_pack_qsi8cx_params {
                    lhs_zero_point: 1,
                    scale_multiplier: 1.0,
                };
                let a = int8_pack::Args {
                    num_groups,
                    n,
                    k,
                    nr,
                    kr,
                    sr,
                    rhs: data.as_ptr(),
                    bias,
                    scale: scales.as_ptr(),
                    rhs_packed: packed,
                    extra_bytes: 0,
                    params: &params,
                };
                int8_pack::check(&a)?;
                // SAFETY: as above.
                unsafe { int8_pack::run(Source::Nxk, &a) };
            }
            Weights::Int4PerBlock { bl, data, scales } => {
                need("int4 weights", n.saturating_mul(nibble_row), data.len())?;
                let blocks = k.checked_div(bl).ok_or(Error::Precondition("bl > 0"))?;
                need("block scales", n.saturating_mul(blocks), scales.len())?;
                let params = kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                    scale_dt: kai_datatype::kai_dt_bf16,
                };
                let a = block_pack::Args {
                    num_groups,
                    n,
                    k,
                    nr,
                    kr,
                    sr,
                    bl,
                    rhs: data.as_ptr(),
                    rhs_stride: nibble_row,
                    bias,
                    scale: scales.as_ptr().cast(),
                    scale_stride: blocks * 2,
                    rhs_packed: packed,
                    extra_bytes: 0,
                    params: (&raw const params).cast(),
                };
                // The kernel's own N x K packer: the formats differ in nibble order, block depth
                // and the order of the row sums' arithmetic.
                let variant = kernel
                    .kernel
                    .rhs_packers
                    .iter()
                    .find_map(|p| match p.kind {
                        PackerKind::Rhs(RhsPackerKind::Qsi4c32p(v))
                            if v.source() == Source::Nxk =>
                        {
                            Some(v)
                        }
                        _ => None,
                    })
                    .ok_or(Error::FormatMismatch("weights"))?;
                block_pack::check(variant, &a)?;
                // SAFETY: as above.
                unsafe { block_pack::run(variant, &a) };
            }
        }
        Ok(PackedWeights {
            storage,
            format,
            family,
            n,
            k,
        })
    }

    /// Output channels.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Inputs per channel.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The packed bytes (KleidiAI's format, usable through the C API too).
    pub fn bytes(&self) -> &[u8] {
        self.storage.as_ref()
    }

    /// Gives the storage back.
    pub fn into_storage(self) -> S {
        self.storage
    }
}

/// Activations quantized to int8 per row and packed for a kernel.
#[derive(Debug)]
pub struct QuantizedActivations<S> {
    storage: S,
    m: usize,
    k: usize,
    mr: usize,
    kr: usize,
    sr: usize,
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> QuantizedActivations<S> {
    /// Quantizes the `m x k` row-major activations `x` for `kernel` into `storage`.
    pub fn quantize(
        kernel: &Kernel,
        m: usize,
        k: usize,
        x: &[f32],
        mut storage: S,
    ) -> Result<Self> {
        let t = kernel.kernel.tile();
        if !matches!(
            kernel.kernel.lhs_packers[0].kind,
            PackerKind::Lhs(LhsPackerKind::Qai8dxp(LhsType::F32))
        ) {
            return Err(Error::UnsupportedFamily(kernel.kernel.family.dir()));
        }
        need("activations", m.saturating_mul(k), x.len())?;
        need(
            "activation storage",
            kernel.quantized_activations_size(m, k)?,
            storage.as_ref().len(),
        )?;
        let a = lhs_pack::Args {
            m,
            k,
            mr: t.mr,
            kr: t.kr,
            sr: t.sr,
            m_idx_start: 0,
            lhs: x.as_ptr(),
            lhs_stride: k.saturating_mul(4),
            lhs_packed: storage.as_mut().as_mut_ptr(),
        };
        lhs_pack::check(&a)?;
        // SAFETY: checked arguments; `x` holds m x k values, the storage the packed size.
        unsafe { lhs_pack::run(&a) };
        Ok(QuantizedActivations {
            storage,
            m,
            k,
            mr: t.mr,
            kr: t.kr,
            sr: t.sr,
        })
    }

    /// Rows.
    pub fn m(&self) -> usize {
        self.m
    }
}

/// Clamp bounds of the output (`f32::NEG_INFINITY..=f32::INFINITY` for none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clamp {
    /// Lower bound.
    pub min: f32,
    /// Upper bound.
    pub max: f32,
}

impl Clamp {
    /// No clamping.
    pub const NONE: Clamp = Clamp {
        min: f32::NEG_INFINITY,
        max: f32::INFINITY,
    };
}

/// Checks that `kernel` reads `lhs` and `rhs` and that `dst` (rows of `dst_stride` elements)
/// holds the `m x n` result.
fn check_operands<A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &QuantizedActivations<A>,
    rhs: &PackedWeights<B>,
    dst_len: usize,
    dst_stride: usize,
) -> Result<()> {
    let t = kernel.kernel.tile();
    if rhs.family != kernel.kernel.family || rhs.format != kernel.rhs_format(rhs.format.bl()) {
        return Err(Error::FormatMismatch("packed weights"));
    }
    if (lhs.mr, lhs.kr, lhs.sr) != (t.mr, t.kr, t.sr) {
        return Err(Error::FormatMismatch("quantized activations"));
    }
    same("k", rhs.k, lhs.k)?;
    if dst_stride < rhs.n {
        return Err(Error::Precondition("dst_stride >= n"));
    }
    let needed = match lhs.m {
        0 => 0,
        m => (m - 1).saturating_mul(dst_stride).saturating_add(rhs.n),
    };
    need("dst", needed, dst_len)
}

impl RhsFormat {
    fn bl(&self) -> usize {
        match self.layout {
            RhsLayout::Qsi4c32p { bl } => bl,
            _ => 0,
        }
    }
}

/// `dst[i * dst_stride + j] = clamp(sum_k lhs[i][k] * rhs[j][k] + bias[j])` for every row of
/// `lhs` and column of `rhs`, with `kernel` (which must read both operands' formats).
pub fn matmul<A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &QuantizedActivations<A>,
    rhs: &PackedWeights<B>,
    dst: &mut [f32],
    dst_stride: usize,
    clamp: Clamp,
) -> Result<()> {
    check_operands(kernel, lhs, rhs, dst.len(), dst_stride)?;
    // SAFETY: the whole problem is one portion; operands and dst were checked above.
    unsafe {
        run_portion(
            kernel,
            lhs,
            rhs,
            dst.as_mut_ptr(),
            dst_stride,
            clamp,
            (0, lhs.m),
            (0, rhs.n),
        )
    }
}

/// Runs rows `rows.0..rows.1` and columns `cols.0..cols.1` (starting at multiples of the
/// kernel's steps) into `dst` (the whole output, row stride `dst_stride` elements).
///
/// # Safety
/// [`check_operands`] passed for these operands and `dst`; no other thread writes this portion.
#[allow(clippy::too_many_arguments)]
unsafe fn run_portion<A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &QuantizedActivations<A>,
    rhs: &PackedWeights<B>,
    dst: *mut f32,
    dst_stride: usize,
    clamp: Clamp,
    rows: (usize, usize),
    cols: (usize, usize),
) -> Result<()> {
    let t = kernel.kernel.tile();
    let f = rhs.format;
    let lhs_offset = layout::qai8dxp::offset(rows.0, lhs.k, t.mr, t.kr, t.sr)?;
    let rhs_offset = f.layout.offset(cols.0, rhs.k, f.nr, f.kr, f.sr)?;
    let args = PackedArgs {
        m: rows.1 - rows.0,
        n: cols.1 - cols.0,
        k: lhs.k,
        bl: f.bl(),
        // SAFETY (both): offsets of a start within the packed buffers (checked arithmetic).
        lhs_packed: unsafe { lhs.storage.as_ref().as_ptr().add(lhs_offset) },
        rhs_packed: unsafe { rhs.storage.as_ref().as_ptr().add(rhs_offset) },
        // SAFETY: within dst, which holds the whole output.
        dst: unsafe { dst.add(rows.0 * dst_stride + cols.0) }.cast(),
        dst_stride_row: dst_stride * 4,
        dst_stride_col: 4,
        clamp_min: clamp.min,
        clamp_max: clamp.max,
        lut: core::ptr::null(),
        params: core::ptr::null(),
    };
    let checked = call::check_packed(kernel.kernel, &args)?;
    // SAFETY: checked arguments; the caller guarantees buffers and exclusivity.
    unsafe { call::run_packed(kernel.kernel, checked, &args) };
    Ok(())
}

/// Whether the kernel's tile depends on a vector length (SVE or streaming): its packed buffers
/// are only valid on CPUs with the same vector length.
pub fn is_vector_length_dependent(kernel: &Kernel) -> bool {
    kernel.kernel.columns.follows_vector_length()
}

/// Multi-threaded [`matmul`] (`std` feature): splits the output into tiles aligned to the
/// kernel's steps and runs them on scoped threads.
#[cfg(feature = "std")]
pub mod parallel {
    use super::*;

    /// [`super::matmul`] on up to `threads` threads (0: one per available core). Columns are
    /// split first (weights dominate memory traffic, and each thread then streams its own
    /// slice), rows when there are more threads than column steps.
    pub fn matmul<A: AsRef<[u8]> + Sync, B: AsRef<[u8]> + Sync>(
        kernel: &Kernel,
        lhs: &QuantizedActivations<A>,
        rhs: &PackedWeights<B>,
        dst: &mut [f32],
        dst_stride: usize,
        clamp: Clamp,
        threads: usize,
    ) -> Result<()> {
        check_operands(kernel, lhs, rhs, dst.len(), dst_stride)?;
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let side = Side {
            kernel,
            lhs,
            rhs,
            threads,
            columns: (0, rhs.n),
        };
        run_sides(&[side], dst, dst_stride, clamp)
    }

    /// One side of a [`crate::plan::Plan`] ready to run: its kernel with the activations and
    /// weights packed for it (each side reads its own formats), its threads and its columns
    /// `columns.0..columns.1` of the output (`columns.0` a multiple of the kernel's `n_step`).
    pub struct Side<'a, A, B> {
        /// The side's kernel.
        pub kernel: &'a Kernel,
        /// Activations quantized for it.
        pub lhs: &'a QuantizedActivations<A>,
        /// Weights packed for it (all columns, or at least the side's).
        pub rhs: &'a PackedWeights<B>,
        /// Threads that run it.
        pub threads: usize,
        /// The output columns it computes.
        pub columns: (usize, usize),
    }

    /// Runs the sides of a plan at once on scoped threads (each side's columns split into tiles
    /// of its kernel's steps over its own threads) into `dst`, row stride `dst_stride`: what a
    /// framework's pool does with [`crate::plan::plan`]'s output.
    pub fn run_sides<A: AsRef<[u8]> + Sync, B: AsRef<[u8]> + Sync>(
        sides: &[Side<'_, A, B>],
        dst: &mut [f32],
        dst_stride: usize,
        clamp: Clamp,
    ) -> Result<()> {
        for (i, side) in sides.iter().enumerate() {
            check_operands(side.kernel, side.lhs, side.rhs, dst.len(), dst_stride)?;
            let (lo, hi) = side.columns;
            let step = side.kernel.kernel.tile().n_step;
            if lo > hi || hi > side.rhs.n || lo % step != 0 {
                return Err(Error::Precondition("columns within n, starting on a step"));
            }
            let overlaps = |o: &Side<'_, A, B>| o.columns.0 < hi && lo < o.columns.1;
            if sides[..i].iter().any(overlaps) {
                return Err(Error::Precondition("sides on disjoint columns"));
            }
        }
        let dst_addr = dst.as_mut_ptr() as usize;
        std::thread::scope(|s| -> Result<()> {
            let mut handles = std::vec::Vec::new();
            for side in sides {
                for (rows, cols) in tiles(side) {
                    handles.push(s.spawn(move || {
                        // SAFETY: operands checked above; sides and their tiles are disjoint,
                        // so no two threads write the same dst element.
                        unsafe {
                            run_portion(
                                side.kernel,
                                side.lhs,
                                side.rhs,
                                dst_addr as *mut f32,
                                dst_stride,
                                clamp,
                                rows,
                                cols,
                            )
                        }
                    }));
                }
            }
            for h in handles {
                // A worker's panic is a bug, not a refused argument: it continues here.
                h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            }
            Ok(())
        })
    }

    /// The (rows, columns) tiles of one side for its threads: columns first, then rows.
    fn tiles<A: AsRef<[u8]>, B: AsRef<[u8]>>(
        side: &Side<'_, A, B>,
    ) -> std::vec::Vec<((usize, usize), (usize, usize))> {
        let t = side.kernel.kernel.tile();
        let threads = side.threads.max(1);
        let (m, (c0, c1)) = (side.lhs.m, side.columns);
        let n = c1 - c0;
        let col_steps = n.div_ceil(t.n_step).max(1);
        let col_parts = threads.min(col_steps);
        let row_parts = (threads / col_parts).clamp(1, m.div_ceil(t.m_step).max(1));
        let split = |len: usize, step: usize, parts: usize, i: usize| {
            let steps = len.div_ceil(step);
            let lo = (steps * i / parts * step).min(len);
            let hi = (steps * (i + 1) / parts * step).min(len);
            (lo, hi)
        };
        let mut out = std::vec::Vec::new();
        for r in 0..row_parts {
            for c in 0..col_parts {
                let rows = split(m, t.m_step, row_parts, r);
                let cols = split(n, t.n_step, col_parts, c);
                if rows.0 != rows.1 && cols.0 != cols.1 {
                    out.push((rows, (c0 + cols.0, c0 + cols.1)));
                }
            }
        }
        out
    }
}
