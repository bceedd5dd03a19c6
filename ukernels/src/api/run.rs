//! [`matmul`] (float outputs) and [`matmul_requantized`] (int8 outputs): one call of a kernel
//! over packed operands, checked; [`parallel`] spreads them over threads (`std` feature).

use super::activations::{self, Activations, FormKind, PackedActivations};
use super::chunks;
use super::conv::IndirectLhs;
use super::error::{Error, Result, need, same, strided_len};
use super::kernel::Kernel;
use super::requantize::Requantize;
use super::weights::PackedWeights;
use crate::element::Output;
use crate::family::Operands;
use crate::matmul::args::{PackedArgs, UnpackedLhsArgs};
use crate::matmul::{call, offsets};
use crate::pack::lhs;
use core::ops::Range;

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

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
    impl Sealed for i8 {}
}

/// An element type a kernel can write: `f32`, [`half::f16`] or [`half::bf16`] through
/// [`matmul`], `i8` through [`matmul_requantized`] (the kernel's family fixes which).
pub trait OutputElement: sealed::Sealed + Copy {
    /// The family output this type is.
    const OUTPUT: Output;
}

impl OutputElement for f32 {
    const OUTPUT: Output = Output::F32;
}

impl OutputElement for half::f16 {
    const OUTPUT: Output = Output::F16;
}

impl OutputElement for half::bf16 {
    const OUTPUT: Output = Output::Bf16;
}

/// ```
/// use rkai_ukernels::api::OutputElement;
/// use rkai_ukernels::element::Output;
///
/// assert_eq!(<i8 as OutputElement>::OUTPUT, Output::I8);
/// ```
impl OutputElement for i8 {
    const OUTPUT: Output = Output::I8;
}

/// What a kernel does to its sums on the way out: clamps floats (the float-output kernels), or
/// requantizes to int8 (the int8-output ones). A [`Clamp`] or a [`Requantize`] converts into
/// it, so the calls that take either ([`matmul_columns`]) take them as they are.
///
/// ```
/// use rkai_ukernels::api::{Clamp, OutputStage, Requantize};
///
/// assert!(matches!(OutputStage::from(Clamp::NONE), OutputStage::Clamp(_)));
/// assert!(matches!(OutputStage::from(Requantize::unclamped(0)), OutputStage::Requantize(_)));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum OutputStage {
    /// Float outputs clamped to the bounds.
    Clamp(Clamp),
    /// int8 outputs requantized.
    Requantize(Requantize),
}

impl From<Clamp> for OutputStage {
    fn from(clamp: Clamp) -> Self {
        OutputStage::Clamp(clamp)
    }
}

impl From<Requantize> for OutputStage {
    fn from(requantize: Requantize) -> Self {
        OutputStage::Requantize(requantize)
    }
}

/// The activations of a [`matmul`]: packed for the kernel ([`PackedActivations`], what every
/// kernel whose family packs its LHS reads), or rows as they are for the kernels that read them
/// so (`matmul_clamp_f32_f32_f32p`, `matmul_clamp_f16_f16_f16p`, the int8 GEMV
/// `matmul_clamp_qai8_qai8_qsi8cxp`: [`Kernel::reads_packed_lhs`] is false), or a convolution's
/// indirection table for the kernel that reads it so (`imatmul_clamp_f32_f32_f32p`). The wrong
/// one for the kernel is [`Error::LhsForm`]. `&PackedActivations` and `&Indirection` convert
/// into `Lhs`, so [`matmul`] takes them as they are.
///
/// ```
/// use rkai_ukernels::api::{Activations, Lhs};
///
/// let x = [1.0f32; 2 * 8];
/// // Two rows of 4 values, 8 elements apart.
/// let lhs = Lhs::Rows { m: 2, k: 4, rows: Activations::F32 { data: &x, stride: 8 } };
/// assert_eq!((lhs.m(), lhs.k()), (2, 4));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Lhs<'a> {
    /// Activations packed for the kernel (or for one of its format).
    Packed(PackedActivations<&'a [u8]>),
    /// `m` rows of `k` values as they are, of the kernel's element type (f32 or f16; int8 for
    /// the int8 GEMV, which takes `m == 1`).
    Rows {
        /// Rows.
        m: usize,
        /// Values per row.
        k: usize,
        /// The rows and their stride.
        rows: Activations<'a>,
    },
    /// A convolution's activations through its [`super::Indirection`] (built for the kernel).
    Indirect(IndirectLhs<'a>),
}

impl<'a, S: AsRef<[u8]>> From<&'a PackedActivations<S>> for Lhs<'a> {
    fn from(p: &'a PackedActivations<S>) -> Self {
        Lhs::Packed(PackedActivations {
            storage: p.storage.as_ref(),
            kind: p.kind,
            packed_for: p.packed_for,
            m: p.m,
            k: p.k,
            bl: p.bl,
            chunks: p.chunks,
            vector_bytes: p.vector_bytes,
        })
    }
}

impl Lhs<'_> {
    /// Rows.
    pub fn m(&self) -> usize {
        match self {
            Lhs::Packed(p) => p.m,
            Lhs::Rows { m, .. } => *m,
            Lhs::Indirect(i) => i.m(),
        }
    }

    /// Values per row.
    pub fn k(&self) -> usize {
        match self {
            Lhs::Packed(p) => p.k,
            Lhs::Rows { k, .. } => *k,
            // Its chunks' K fits: the table was built for it.
            Lhs::Indirect(i) => i.chunks().count.saturating_mul(i.chunks().length),
        }
    }
}

/// Checks that `kernel` has the output stage `stage`, reads `lhs` and `rhs`, writes `T`, and
/// that `dst` (rows of `dst_stride` elements) holds the `m x n` result.
fn check_operands<T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    stage: OutputStage,
    lhs: &Lhs<'_>,
    rhs: &PackedWeights<B>,
    dst_len: usize,
    dst_stride: usize,
) -> Result<()> {
    let kernel_requantizes = kernel.kernel.family.output() == Output::I8;
    if kernel_requantizes != matches!(stage, OutputStage::Requantize(_)) {
        return Err(Error::OutputStage { kernel_requantizes });
    }
    if kernel.kernel.family.output() != T::OUTPUT {
        return Err(Error::FormatMismatch("dst element type"));
    }
    if !rhs.is_read_by(kernel) {
        return Err(Error::FormatMismatch("packed weights"));
    }
    if chunks::reads_table(kernel.kernel) && !matches!(lhs, Lhs::Indirect(_)) {
        return Err(Error::FormatMismatch("activations"));
    }
    match lhs {
        Lhs::Packed(p) => {
            if !kernel.reads_packed_lhs() {
                return Err(Error::LhsForm {
                    kernel_reads_packed: false,
                });
            }
            if !p.is_read_by(kernel) {
                return Err(Error::FormatMismatch("packed activations"));
            }
            same("k", rhs.k, p.k)?;
            chunks::same_chunks(rhs.chunks, p.chunks)?;
            if activations::blockwise(p.kind) {
                same("bl", rhs.bl, p.bl)?;
            }
        }
        Lhs::Rows { m, k, rows } => {
            match FormKind::read_unpacked_by(kernel.kernel) {
                None => {
                    return Err(Error::LhsForm {
                        kernel_reads_packed: true,
                    });
                }
                Some(form) if form != rows.kind() => {
                    return Err(Error::FormatMismatch("activation rows"));
                }
                Some(_) => {}
            }
            same("k", rhs.k, *k)?;
            chunks::same_chunks(rhs.chunks, None)?;
            let (_, stride, _, held) = rows.rows();
            need("activations", strided_len(*m, *k, stride)?, held)?;
        }
        Lhs::Indirect(i) => i.check(kernel, rhs)?,
    }
    if dst_stride < rhs.n {
        return Err(Error::Precondition("dst_stride >= n"));
    }
    let needed = match lhs.m() {
        0 => 0,
        m => (m - 1).saturating_mul(dst_stride).saturating_add(rhs.n),
    };
    need("dst", needed, dst_len)
}

/// `dst[i * dst_stride + j] = clamp(sum_k lhs[i][k] * rhs[j][k] + bias[j])` for every row of
/// `lhs` and column of `rhs`, with `kernel` (which must read both operands' formats and write
/// `T`). `lhs` is a `&PackedActivations` or an [`Lhs`].
///
/// The f16 GEMM on f16 rows as they are (f16 weights held N x K):
///
/// ```
/// use half::f16;
/// use rkai_ukernels::api::{self, Activations, Bias, Clamp, Kernel, Lhs, PackedWeights, WeightLayout, Weights};
/// use rkai_ukernels::family::Family;
/// use rkai_ukernels::select::Shape;
///
/// let (m, n, k) = (2, 3, 4);
/// let w = vec![f16::from_f32(0.5); n * k];
/// let b = vec![f16::from_f32(1.0); n];
/// let x = vec![f16::from_f32(2.0); m * k];
/// let kernel = match Kernel::select(Family::F16F16F16p, Shape::Gemm) {
///     Ok(kernel) => kernel,
///     // A CPU without FEAT_FP16.
///     Err(api::Error::NotSupportedByCpu(_)) => return Ok(()),
///     Err(e) => return Err(e),
/// };
/// let weights = Weights::F16 { data: &w, layout: WeightLayout::Nxk, bias: Some(Bias::F16(&b)) };
/// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
/// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
/// let lhs = Lhs::Rows { m, k, rows: Activations::F16 { data: &x, stride: k } };
/// let mut y = vec![f16::ZERO; m * n];
/// api::matmul(&kernel, lhs, &packed, &mut y, n, Clamp::NONE)?;
/// assert!(y.iter().all(|&v| v == f16::from_f32(5.0)));
/// # Ok::<(), api::Error>(())
/// ```
pub fn matmul<'a, T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: impl Into<Lhs<'a>>,
    rhs: &PackedWeights<B>,
    dst: &mut [T],
    dst_stride: usize,
    clamp: Clamp,
) -> Result<()> {
    run_whole(
        kernel,
        lhs.into(),
        rhs,
        dst,
        dst_stride,
        OutputStage::Clamp(clamp),
    )
}

/// `dst[i * dst_stride + j]`, the int8 result of row `i` of `lhs` and column `j` of `rhs` for
/// every row and column, requantized ([`Requantize`]), with a kernel of an int8-output family
/// (`matmul_clamp_qai8_qai8p_qsi8cxp`, `matmul_clamp_qai8_qai8_qsi8cxp`,
/// `imatmul_clamp_qai8_qai8p_qsi8cxp`) reading both operands' formats. `lhs` is a
/// `&PackedActivations` (for the indirect kernels, packed by
/// [`PackedActivations::pack_indirect`]) or, for the GEMV, one row as [`Lhs::Rows`].
///
/// ```
/// use rkai_ukernels::api::{self, Activations, InputQuantization, Kernel, PackedActivations};
/// use rkai_ukernels::api::{PackedWeights, Requantize, Weights};
/// use rkai_ukernels::catalog;
///
/// let (m, n, k) = (2, 3, 4);
/// let entry = catalog::kernel("matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa")
///     .expect("a KleidiAI stem");
/// let kernel = match Kernel::new(entry) {
///     Ok(kernel) => kernel,
///     // An AArch64 CPU without SME (elsewhere the portable path runs).
///     Err(api::Error::NotSupportedByCpu(_)) => return Ok(()),
///     Err(e) => return Err(e),
/// };
/// // Weights of 1 (k rows of n), scale 0.5; activations of 6 with zero point 2, so each sum is
/// // 4 * (6 - 2) = 16, plus the bias 4, times 0.5 * 0.5 (the multiplier): 5.
/// let w = vec![1i8; k * n];
/// let input = InputQuantization { zero_point: 2, scale_multiplier: 0.5 };
/// let weights = Weights::Int8Requantized { data: &w, scales: &[0.5; 3], bias: &[4; 3], input };
/// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
/// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
/// let x = vec![6i8; m * k];
/// let storage = vec![0u8; kernel.packed_activations_size(m, k, 0)?];
/// let rows = Activations::Int8 { data: &x, stride: k };
/// let x = PackedActivations::pack(&kernel, m, k, 0, rows, storage)?;
/// let mut y = vec![0i8; m * n];
/// // Output zero point -10, clamped to at most -6.
/// let requantize = Requantize { min: -128, max: -6, zero_point: -10 };
/// api::matmul_requantized(&kernel, &x, &packed, &mut y, n, requantize)?;
/// assert_eq!(y, [-6; 6]);
/// # Ok::<(), api::Error>(())
/// ```
pub fn matmul_requantized<'a, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: impl Into<Lhs<'a>>,
    rhs: &PackedWeights<B>,
    dst: &mut [i8],
    dst_stride: usize,
    requantize: Requantize,
) -> Result<()> {
    let stage = OutputStage::Requantize(requantize);
    run_whole(kernel, lhs.into(), rhs, dst, dst_stride, stage)
}

/// [`matmul`] for the output columns `columns` only: KleidiAI's column portions (the weights
/// from `get_rhs_packed_offset`, the output from `get_dst_offset`), which a framework's threads
/// or a plan's sides ([`crate::plan`]) compute side by side. `dst` is the whole `m x n` output
/// (rows `dst_stride` elements apart), of which only these columns are written; the operands
/// are the whole matrices' too. `columns.start` must be a multiple of the kernel's `n_step`
/// (else [`Error::Precondition`] with KleidiAI's condition) and `columns.end` at most `n`; an
/// empty range writes nothing. `stage` is a [`Clamp`] for the float kernels, a [`Requantize`]
/// for the int8-output ones ([`OutputStage`]).
///
/// Two halves of the output computed apart give the whole:
///
/// ```
/// use rkai_ukernels::api::{self, Bias, Clamp, Kernel, Lhs, Activations, PackedWeights};
/// use rkai_ukernels::api::{WeightLayout, Weights};
/// use rkai_ukernels::family::Family;
/// use rkai_ukernels::select::Shape;
///
/// let (m, n, k) = (3, 40, 8);
/// let w: Vec<f32> = (0..n * k).map(|i| (i % 7) as f32 - 3.0).collect();
/// let b = vec![0.5f32; n];
/// let kernel = Kernel::select(Family::F32F32F32p, Shape::Gemm)?;
/// // K x N: the layout every f32 GEMM packs (the SVE ones have no N x K packer).
/// let weights = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F32(&b)) };
/// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
/// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
/// let x = vec![1.0f32; m * k];
/// let lhs = Lhs::Rows { m, k, rows: Activations::F32 { data: &x, stride: k } };
/// let mut whole = vec![0f32; m * n];
/// api::matmul(&kernel, lhs, &packed, &mut whole, n, Clamp::NONE)?;
/// // Split where a step of the kernel starts.
/// let split = kernel.entry().tile().n_step.min(n);
/// let mut halves = vec![0f32; m * n];
/// api::matmul_columns(&kernel, lhs, &packed, &mut halves, n, Clamp::NONE, 0..split)?;
/// api::matmul_columns(&kernel, lhs, &packed, &mut halves, n, Clamp::NONE, split..n)?;
/// assert_eq!(halves, whole);
/// # Ok::<(), api::Error>(())
/// ```
pub fn matmul_columns<'a, T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: impl Into<Lhs<'a>>,
    rhs: &PackedWeights<B>,
    dst: &mut [T],
    dst_stride: usize,
    stage: impl Into<OutputStage>,
    columns: Range<usize>,
) -> Result<()> {
    let lhs = lhs.into();
    let stage = stage.into();
    check_operands::<T, _>(kernel, stage, &lhs, rhs, dst.len(), dst_stride)?;
    check_columns(kernel, rhs, (columns.start, columns.end))?;
    run_checked(kernel, &lhs, rhs, dst, dst_stride, stage, columns)
}

/// [`matmul`] or [`matmul_requantized`]: the whole problem as one portion.
fn run_whole<T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: Lhs<'_>,
    rhs: &PackedWeights<B>,
    dst: &mut [T],
    dst_stride: usize,
    stage: OutputStage,
) -> Result<()> {
    check_operands::<T, _>(kernel, stage, &lhs, rhs, dst.len(), dst_stride)?;
    run_checked(kernel, &lhs, rhs, dst, dst_stride, stage, 0..rhs.n)
}

/// Runs every row and the `columns` of checked operands on this thread.
fn run_checked<T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &Lhs<'_>,
    rhs: &PackedWeights<B>,
    dst: &mut [T],
    dst_stride: usize,
    stage: OutputStage,
    columns: Range<usize>,
) -> Result<()> {
    if columns.is_empty() {
        return Ok(());
    }
    let dst = dst.as_mut_ptr();
    let (rows, columns) = ((0, lhs.m()), (columns.start, columns.end));
    // SAFETY: operands, dst and columns were checked; this thread alone writes dst.
    unsafe { run_portion(kernel, lhs, rhs, dst, dst_stride, stage, rows, columns) }
}

/// [`Error::Precondition`] unless columns `lo..hi` of `rhs` make a portion `kernel` computes:
/// within `n`, starting where KleidiAI's `get_rhs_packed_offset` and `get_dst_offset` allow
/// (their conditions, in the order a caller meets them).
fn check_columns<B: AsRef<[u8]>>(
    kernel: &Kernel,
    rhs: &PackedWeights<B>,
    (lo, hi): (usize, usize),
) -> Result<()> {
    if lo > hi || hi > rhs.n {
        return Err(Error::Precondition("n_start + n_len <= n"));
    }
    // An empty range is no portion: nothing is read or written, so its start needs no step.
    if lo == hi {
        return Ok(());
    }
    let rhs_k = chunks::read_k(kernel.kernel, rhs.k, rhs.chunks)?;
    offsets::rhs_packed(kernel.kernel, lo, rhs_k, rhs.bl)?;
    offsets::dst(kernel.kernel, 0, lo, 0)?;
    Ok(())
}

/// Runs rows `rows.0..rows.1` and columns `cols.0..cols.1` (starting at multiples of the
/// kernel's steps) into `dst` (the whole output, row stride `dst_stride` elements).
///
/// # Safety
/// [`check_operands`] passed for these operands and `dst`; no other thread writes this portion.
#[allow(clippy::too_many_arguments)]
unsafe fn run_portion<T: OutputElement, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &Lhs<'_>,
    rhs: &PackedWeights<B>,
    dst: *mut T,
    dst_stride: usize,
    stage: OutputStage,
    rows: (usize, usize),
    cols: (usize, usize),
) -> Result<()> {
    let f = kernel.rhs_format(rhs.bl);
    let rhs_k = chunks::read_k(kernel.kernel, rhs.k, rhs.chunks)?;
    let rhs_offset = f.layout.offset(cols.0, rhs_k, f.nr, f.kr, f.sr)?;
    let size = T::OUTPUT.size();
    // SAFETY: the offset of a start within the packed buffer (checked arithmetic).
    let rhs_packed = unsafe { rhs.storage.as_ref().as_ptr().add(rhs_offset) };
    // SAFETY: within dst, which holds the whole output.
    let dst = unsafe { dst.add(rows.0 * dst_stride + cols.0) }.cast();
    let (m, n) = (rows.1 - rows.0, cols.1 - cols.0);
    let (clamp, requantize) = match stage {
        OutputStage::Clamp(clamp) => (clamp, None),
        OutputStage::Requantize(r) => (Clamp::NONE, Some(r.kernel_params())),
    };
    // The arguments of a kernel reading `lhs_packed` (which the int8 GEMV takes as its row).
    let packed_args = |lhs_packed, k| PackedArgs {
        m,
        n,
        k,
        bl: rhs.bl,
        lhs_packed,
        rhs_packed,
        dst,
        dst_stride_row: dst_stride * size,
        dst_stride_col: size,
        clamp_min: clamp.min,
        clamp_max: clamp.max,
        lut: rhs.lut(),
        params: requantize
            .as_ref()
            .map_or(core::ptr::null(), |p| p as *const _),
    };
    match lhs {
        Lhs::Packed(p) => {
            let k = chunks::read_k(kernel.kernel, p.k, p.chunks)?;
            let lhs_dims = kernel.lhs_dims(k, p.bl);
            let lhs_offset = lhs::packed_offset(p.kind, rows.0, &lhs_dims)?;
            // SAFETY: the offset of a start within the packed buffer (checked arithmetic).
            let args = packed_args(unsafe { p.storage.as_ptr().add(lhs_offset) }, k);
            let checked = call::check_packed(kernel.kernel, &args)?;
            // SAFETY: checked arguments; the caller guarantees buffers and exclusivity.
            unsafe { call::run_packed(kernel.kernel, checked, &args) };
        }
        Lhs::Rows {
            k, rows: source, ..
        } => {
            let (ptr, stride, element, _) = source.rows();
            // SAFETY: row `rows.0` of the source, which holds the rows (checked).
            let lhs = unsafe { ptr.add(rows.0 * stride * element) };
            if kernel.kernel.family.description().operands == Operands::Qai8Qsi8cxpsb {
                let args = packed_args(lhs, *k);
                let checked = call::check_packed(kernel.kernel, &args)?;
                // SAFETY: checked arguments; the caller guarantees buffers and exclusivity.
                unsafe { call::run_packed(kernel.kernel, checked, &args) };
                return Ok(());
            }
            let args = UnpackedLhsArgs {
                m,
                n,
                k: *k,
                lhs,
                lhs_stride: stride * element,
                rhs_packed,
                dst,
                dst_stride_row: dst_stride * size,
                dst_stride_col: size,
                clamp_min: clamp.min,
                clamp_max: clamp.max,
                elem: size,
            };
            call::check_unpacked_lhs(kernel.kernel, &args)?;
            // SAFETY: checked arguments; the caller guarantees buffers and exclusivity.
            unsafe { call::run_unpacked_lhs(kernel.kernel, &args) };
        }
        Lhs::Indirect(i) => {
            let bounds = (clamp.min, clamp.max);
            // SAFETY: checked by `check_operands`; the caller guarantees buffers and exclusivity.
            unsafe {
                i.run(
                    kernel,
                    rows,
                    n,
                    rhs_packed,
                    (dst, dst_stride * size),
                    bounds,
                )?
            };
        }
    }
    Ok(())
}

/// Multi-threaded [`matmul`] (`std` feature): splits the output into tiles aligned to the
/// kernel's steps and runs them on scoped threads.
#[cfg(feature = "std")]
pub mod parallel {
    use super::*;

    /// [`super::matmul`] on up to `threads` threads (0: one per available core). Columns are
    /// split first (weights dominate memory traffic, and each thread then streams its own
    /// slice), rows when there are more threads than column steps.
    pub fn matmul<'a, T: OutputElement + Send, B: AsRef<[u8]> + Sync>(
        kernel: &Kernel,
        lhs: impl Into<Lhs<'a>>,
        rhs: &PackedWeights<B>,
        dst: &mut [T],
        dst_stride: usize,
        clamp: Clamp,
        threads: usize,
    ) -> Result<()> {
        let stage = OutputStage::Clamp(clamp);
        run_one_side(kernel, lhs.into(), rhs, dst, dst_stride, stage, threads)
    }

    /// [`super::matmul_requantized`] on up to `threads` threads (0: one per available core),
    /// split as [`matmul`] splits.
    ///
    /// ```
    /// use rkai_ukernels::api::{self, Activations, InputQuantization, Kernel, Lhs};
    /// use rkai_ukernels::api::{PackedWeights, Requantize, Weights};
    /// use rkai_ukernels::catalog;
    ///
    /// // The int8 GEMV: one row as it is.
    /// let (n, k) = (100, 7);
    /// let entry = catalog::kernel("matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot")
    ///     .expect("a KleidiAI stem");
    /// let kernel = match Kernel::new(entry) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without SME2 (elsewhere the portable path runs).
    ///     Err(api::Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let w = vec![2i8; k * n];
    /// let input = InputQuantization { zero_point: 0, scale_multiplier: 1.0 };
    /// let (scales, bias) = (vec![0.125f32; n], vec![0i32; n]);
    /// let weights = Weights::Int8Requantized { data: &w, scales: &scales, bias: &bias, input };
    /// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
    /// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
    /// let x = [4i8; 7];
    /// let row = Lhs::Rows { m: 1, k, rows: Activations::Int8 { data: &x, stride: k } };
    /// let mut y = vec![0i8; n];
    /// // 7 * 4 * 2 = 56 times 0.125: 7.
    /// let q = Requantize::unclamped(0);
    /// api::parallel::matmul_requantized(&kernel, row, &packed, &mut y, n, q, 2)?;
    /// assert!(y.iter().all(|&v| v == 7));
    /// # Ok::<(), api::Error>(())
    /// ```
    pub fn matmul_requantized<'a, B: AsRef<[u8]> + Sync>(
        kernel: &Kernel,
        lhs: impl Into<Lhs<'a>>,
        rhs: &PackedWeights<B>,
        dst: &mut [i8],
        dst_stride: usize,
        requantize: Requantize,
        threads: usize,
    ) -> Result<()> {
        let stage = OutputStage::Requantize(requantize);
        run_one_side(kernel, lhs.into(), rhs, dst, dst_stride, stage, threads)
    }

    /// The whole output of one kernel, as the one side of a run on `threads` threads (0: one
    /// per available core).
    fn run_one_side<T: OutputElement + Send, B: AsRef<[u8]> + Sync>(
        kernel: &Kernel,
        lhs: Lhs<'_>,
        rhs: &PackedWeights<B>,
        dst: &mut [T],
        dst_stride: usize,
        stage: OutputStage,
        threads: usize,
    ) -> Result<()> {
        let side = (kernel, lhs, rhs, threads_or_cores(threads), (0, rhs.n));
        run(&[side], dst, dst_stride, stage)
    }

    /// `threads`, or (for 0) one per available core.
    fn threads_or_cores(threads: usize) -> usize {
        match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        }
    }

    /// One side of a [`crate::plan::Plan`] ready to run: its kernel with the activations and
    /// weights packed for it (each side reads its own formats), its threads and its columns
    /// `columns.0..columns.1` of the output (`columns.0` a multiple of the kernel's `n_step`).
    pub struct Side<'a, A, B> {
        /// The side's kernel.
        pub kernel: &'a Kernel,
        /// Activations packed for it.
        pub lhs: &'a PackedActivations<A>,
        /// Weights packed for it (all columns, or at least the side's).
        pub rhs: &'a PackedWeights<B>,
        /// Threads that run it.
        pub threads: usize,
        /// The output columns it computes.
        pub columns: (usize, usize),
    }

    /// Runs the sides of a plan at once on scoped threads (each side's columns split into tiles
    /// of its kernel's steps over its own threads) into `dst`, row stride `dst_stride`: what a
    /// framework's pool does with [`crate::plan::plan`]'s output. `stage` is the sides' output
    /// stage: a [`Clamp`] for float kernels, a [`Requantize`] for the int8-output ones
    /// ([`OutputStage`]).
    pub fn run_sides<T: OutputElement + Send, A: AsRef<[u8]> + Sync, B: AsRef<[u8]> + Sync>(
        sides: &[Side<'_, A, B>],
        dst: &mut [T],
        dst_stride: usize,
        stage: impl Into<OutputStage>,
    ) -> Result<()> {
        let sides: std::vec::Vec<_> = (sides.iter())
            .map(|s| (s.kernel, Lhs::from(s.lhs), s.rhs, s.threads, s.columns))
            .collect();
        run(&sides, dst, dst_stride, stage.into())
    }

    /// A side: kernel, activations, weights, threads and output columns.
    type Part<'a, B> = (
        &'a Kernel,
        Lhs<'a>,
        &'a PackedWeights<B>,
        usize,
        (usize, usize),
    );

    /// [`run_sides`] over sides of either [`Lhs`].
    fn run<T: OutputElement + Send, B: AsRef<[u8]> + Sync>(
        sides: &[Part<'_, B>],
        dst: &mut [T],
        dst_stride: usize,
        stage: OutputStage,
    ) -> Result<()> {
        for (i, &(kernel, lhs, rhs, _, (lo, hi))) in sides.iter().enumerate() {
            check_operands::<T, _>(kernel, stage, &lhs, rhs, dst.len(), dst_stride)?;
            check_columns(kernel, rhs, (lo, hi))?;
            let overlaps = |o: &Part<'_, B>| o.4.0 < hi && lo < o.4.1;
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
                        let (kernel, lhs, rhs, _, _) = side;
                        // SAFETY: operands checked above; sides and their tiles are disjoint,
                        // so no two threads write the same dst element.
                        unsafe {
                            run_portion(
                                kernel,
                                lhs,
                                *rhs,
                                dst_addr as *mut T,
                                dst_stride,
                                stage,
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
    fn tiles<B>(side: &Part<'_, B>) -> std::vec::Vec<((usize, usize), (usize, usize))> {
        let (kernel, lhs, _, threads, (c0, c1)) = side;
        let t = kernel.kernel.tile();
        let threads = (*threads).max(1);
        let m = lhs.m();
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
