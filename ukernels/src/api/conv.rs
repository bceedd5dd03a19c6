//! Convolutions through the indirect matmuls (`imatmul_clamp_*`: a convolution without im2col,
//! over f32, f16 or int8 images):
//! [`Conv2d`] (the geometry), [`Chunks`] (its K as taps of `channels` values), [`Indirection`]
//! (the table of chunk pointers the kernels read, built here from an image the table borrows).
//!
//! KleidiAI's kernels take their LHS as `m * k_chunk_count` raw pointers to chunks of
//! `k_chunk_length` values, a pad pointer and a byte offset added to every other pointer. The
//! safe form: [`Indirection::new`] fills a table the caller provides (`usize` entries, sized by
//! [`Kernel::indirection_len`]) with the addresses of the pixels of an NHWC image and of a pad
//! chunk, and holds the borrows of the table, the image and the pad for as long as it lives, so
//! no entry can dangle or be changed behind the kernel. The addresses are absolute (the offset is
//! 0): a pad entry and an image entry are then read the same way, whatever they alias.
//!
//! The table is then read as it is by the SVE kernel (`imatmul_clamp_f32_f32_f32p`:
//! [`super::matmul`] takes `&Indirection` as its [`super::Lhs`]) or packed by the SME kernels'
//! LHS packer ([`PackedActivations::pack_indirect`], [`Kernel::reads_packed_lhs`] tells which).
//! The weights, `k_chunk_count * k_chunk_length` rows of `n` values (HWIO: the rows ordered by
//! kernel row, kernel column, input channel), are packed once by
//! [`PackedWeights::pack_chunked`]. The int8 kernels (`imatmul_clamp_qai8_qai8p_qsi8cxp`) take
//! them as [`Weights::Int8Requantized`] and run through [`super::matmul_requantized`].

use super::activations::{self, PackedActivations};
use super::chunks::{Chunks, read_k, reads_table, same_chunks};
use super::error::{Error, Result, need, same};
use super::kernel::{Kernel, chunked_weights, lhs_kinds};
use super::weights::{self, PackedWeights, Weights};
use crate::element::Output;
use crate::kernel::MatmulKernel;
use crate::matmul::call::{self, IndirectArgs};
use crate::pack::kinds::{LhsPackerKind, SmeRowsPacker};
use crate::pack::lhs;
use crate::pack::lhs_imatmul_pack_sme as imatmul_pack;
use core::marker::PhantomData;

// The kernels read the table's entries as pointers.
const _: () = assert!(size_of::<usize>() == size_of::<*const u8>());

/// The geometry of a 2D convolution over one NHWC image (batch 1): `height x width` pixels of
/// `channels` values, a `kernel_height x kernel_width` kernel moved by `stride_y` rows and
/// `stride_x` columns, and zero-area padding on each side (its taps read the pad chunk).
///
/// ```
/// use rkai_ukernels::api::{Chunks, Conv2d};
///
/// // A 3x3 kernel, stride 1, one pixel of padding: the output keeps the input's size.
/// let conv = Conv2d::square(8, 6, 16, 3, 1, 1);
/// assert_eq!((conv.output_height()?, conv.output_width()?), (8, 6));
/// assert_eq!(conv.output_pixels()?, 48); // the matmul's m
/// assert_eq!(conv.chunks(), Chunks { count: 9, length: 16 }); // one chunk per tap
/// # Ok::<(), rkai_ukernels::api::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv2d {
    /// Input rows.
    pub height: usize,
    /// Input columns.
    pub width: usize,
    /// Values per input pixel (the chunk length).
    pub channels: usize,
    /// Kernel rows.
    pub kernel_height: usize,
    /// Kernel columns.
    pub kernel_width: usize,
    /// Input rows between two output rows.
    pub stride_y: usize,
    /// Input columns between two output columns.
    pub stride_x: usize,
    /// Padding rows above the image.
    pub pad_top: usize,
    /// Padding columns left of the image.
    pub pad_left: usize,
    /// Padding rows below the image.
    pub pad_bottom: usize,
    /// Padding columns right of the image.
    pub pad_right: usize,
}

impl Conv2d {
    /// A square `kernel x kernel` kernel with the same `stride` and `pad` on every side.
    pub const fn square(
        height: usize,
        width: usize,
        channels: usize,
        kernel: usize,
        stride: usize,
        pad: usize,
    ) -> Conv2d {
        Conv2d {
            height,
            width,
            channels,
            kernel_height: kernel,
            kernel_width: kernel,
            stride_y: stride,
            stride_x: stride,
            pad_top: pad,
            pad_left: pad,
            pad_bottom: pad,
            pad_right: pad,
        }
    }

    /// Output rows: `(pad_top + height + pad_bottom - kernel_height) / stride_y + 1`.
    pub fn output_height(&self) -> Result<usize> {
        let padded = [self.pad_top, self.height, self.pad_bottom];
        output_len(padded, self.kernel_height, self.stride_y)
    }

    /// Output columns: `(pad_left + width + pad_right - kernel_width) / stride_x + 1`.
    pub fn output_width(&self) -> Result<usize> {
        let padded = [self.pad_left, self.width, self.pad_right];
        output_len(padded, self.kernel_width, self.stride_x)
    }

    /// Output pixels, the rows `m` of the matmul (row `oy * output_width + ox`).
    pub fn output_pixels(&self) -> Result<usize> {
        (self.output_height()?)
            .checked_mul(self.output_width()?)
            .ok_or(Error::Precondition("output pixels fit in usize"))
    }

    /// The matmul's K: one chunk of `channels` values per kernel tap.
    pub fn chunks(&self) -> Chunks {
        Chunks {
            count: self.kernel_height.saturating_mul(self.kernel_width),
            length: self.channels,
        }
    }

    /// Input values the image holds: `height * width * channels`.
    fn image_len(&self) -> Result<usize> {
        (self.height.checked_mul(self.width))
            .and_then(|p| p.checked_mul(self.channels))
            .ok_or(Error::Precondition("image size fits in usize"))
    }

    /// The input pixel tap `(ky, kx)` of output pixel `(oy, ox)` reads, or `None` in the padding.
    fn source(&self, (oy, ox): (usize, usize), (ky, kx): (usize, usize)) -> Option<usize> {
        let y = (oy * self.stride_y + ky).checked_sub(self.pad_top)?;
        let x = (ox * self.stride_x + kx).checked_sub(self.pad_left)?;
        (y < self.height && x < self.width).then_some(y * self.width + x)
    }
}

/// Output positions along one axis of `padded` (before, image, after) input positions.
fn output_len(padded: [usize; 3], kernel: usize, stride: usize) -> Result<usize> {
    if stride == 0 || kernel == 0 {
        return Err(Error::Precondition("stride > 0 && kernel size > 0"));
    }
    let total = (padded.into_iter())
        .try_fold(0usize, usize::checked_add)
        .ok_or(Error::Precondition("padded input size fits in usize"))?;
    let span = (total.checked_sub(kernel))
        .ok_or(Error::Precondition("kernel size <= padded input size"))?;
    Ok(span / stride + 1)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for i8 {}
}

/// An element type of the images the indirect matmuls read: `f32`, [`half::f16`] or `i8` (the
/// kernel's family fixes which).
pub trait IndirectElement: sealed::Sealed + Copy {
    /// The family output of the kernels that read this type.
    const OUTPUT: Output;
}

impl IndirectElement for f32 {
    const OUTPUT: Output = Output::F32;
}

impl IndirectElement for half::f16 {
    const OUTPUT: Output = Output::F16;
}

/// The int8 images of `imatmul_clamp_qai8_qai8p_qsi8cxp`, quantized as the weights'
/// [`super::InputQuantization`] says. Their pad chunk is `channels` copies of the input zero
/// point (`InputQuantization::zero_point`), the quantized 0: the packer folds the zero point into
/// every tap, so a tap reading the zero point adds nothing, as zero padding does.
///
/// A 3x3 convolution, stride 1, one pixel of padding, through the SME int8 indirect kernel:
///
/// ```
/// use rkai_ukernels::api::{self, Conv2d, Error, Indirection, InputQuantization, Kernel};
/// use rkai_ukernels::api::{PackedActivations, PackedWeights, Requantize, Weights};
/// use rkai_ukernels::catalog;
///
/// let stem = "imatmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa";
/// let kernel = match Kernel::new(catalog::kernel(stem).unwrap()) {
///     Ok(kernel) => kernel,
///     // An AArch64 CPU without SME (off AArch64 the portable path runs).
///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
///     Err(e) => return Err(e),
/// };
/// let (conv, n) = (Conv2d::square(3, 3, 4, 3, 1, 1), 2);
/// // Every input 7 with zero point 5 (so 2 above zero), every weight 1, scales 0.5 and 1,
/// // no bias and a multiplier of 1.
/// let input = InputQuantization { zero_point: 5, scale_multiplier: 1.0 };
/// let w = vec![1i8; conv.chunks().k()? * n];
/// let weights = Weights::Int8Requantized { data: &w, scales: &[0.5, 1.0], bias: &[0, 0], input };
/// let storage = vec![0u8; kernel.packed_chunked_weights_size(n, conv.chunks())?];
/// let packed = PackedWeights::pack_chunked(&kernel, n, conv.chunks(), weights, storage)?;
///
/// let image = vec![7i8; 3 * 3 * 4];
/// let pad = [input.zero_point; 4]; // taps in the padding add 0
/// let mut table = vec![0usize; kernel.indirection_len(&conv)?];
/// let indirection = Indirection::new(&kernel, &conv, &image, &pad, &mut table)?;
/// let storage = vec![0u8; kernel.packed_indirect_activations_size(&conv)?];
/// let lhs = PackedActivations::pack_indirect(&kernel, &indirection, storage)?;
/// let mut y = vec![0i8; 9 * n];
/// api::matmul_requantized(&kernel, &lhs, &packed, &mut y, n, Requantize::unclamped(0))?;
/// // The corner pixel sees 2 x 2 taps of 4 channels of 2: 32, scaled by 0.5 and 1; the centre
/// // 3 x 3 taps: 72.
/// assert_eq!((y[0], y[1]), (16, 32));
/// assert_eq!((y[4 * n], y[4 * n + 1]), (36, 72));
/// # Ok::<(), Error>(())
/// ```
impl IndirectElement for i8 {
    const OUTPUT: Output = Output::I8;
}

/// The indirect LHS packer of `kernel` that gathers values of its own element type.
fn gathering_packer(kernel: &'static MatmulKernel) -> Option<LhsPackerKind> {
    let element = kernel.family.output();
    lhs_kinds(kernel).find(|&kind| {
        matches!(
            (kind, element),
            (
                LhsPackerKind::IndirectSmeRows(SmeRowsPacker::F32p2vlx1),
                Output::F32
            ) | (
                LhsPackerKind::IndirectSmeRows(SmeRowsPacker::X16p2vlx2),
                Output::F16
            ) | (
                LhsPackerKind::IndirectSmeRows(SmeRowsPacker::X8p2vlx4),
                Output::I8
            )
        )
    })
}

/// Whether the safe API feeds `kernel` an [`Indirection`] (read as it is or packed).
pub(super) fn takes_indirection(kernel: &'static MatmulKernel) -> bool {
    reads_table(kernel) || gathering_packer(kernel).is_some()
}

/// Rows per block of `kernel`'s indirection table: its `m_step` (SVE) or its LHS packer's
/// (SME, 2 x the streaming vector length in 32-bit lanes).
fn block_rows(kernel: &'static MatmulKernel) -> Result<usize> {
    if reads_table(kernel) {
        return Ok(kernel.tile().m_step);
    }
    let kind = gathering_packer(kernel).ok_or(Error::FormatMismatch("an indirection table"))?;
    Ok(lhs::m_step(kind, kernel.tile().mr)?)
}

/// Entries of an indirection table of `m` rows of `chunks` in blocks of `rows` rows.
fn table_len(m: usize, count: usize, rows: usize) -> Result<usize> {
    (m.checked_next_multiple_of(rows))
        .and_then(|m| m.checked_mul(count))
        .ok_or(Error::Precondition("indirection table size fits in usize"))
}

impl Kernel {
    /// Entries of the indirection table of `conv` for this kernel ([`Indirection::new`]'s
    /// `table`): the output pixels rounded up to whole blocks of the kernel's rows, times the
    /// kernel taps. [`Error::FormatMismatch`] for a kernel that reads no indirection table.
    ///
    /// ```
    /// use rkai_ukernels::api::{Conv2d, Error, Kernel};
    /// use rkai_ukernels::catalog;
    ///
    /// let entry = catalog::kernel("imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla").unwrap();
    /// match Kernel::new(entry) {
    ///     // Blocks of 6 rows: 16 output pixels take 3 blocks of 9 taps.
    ///     Ok(kernel) => assert_eq!(kernel.indirection_len(&Conv2d::square(4, 4, 8, 3, 1, 1))?, 18 * 9),
    ///     // An AArch64 CPU without SVE.
    ///     Err(Error::NotSupportedByCpu(_)) => {}
    ///     Err(other) => return Err(other),
    /// }
    /// # Ok::<(), Error>(())
    /// ```
    pub fn indirection_len(&self, conv: &Conv2d) -> Result<usize> {
        table_len(
            conv.output_pixels()?,
            conv.chunks().count,
            block_rows(self.kernel)?,
        )
    }

    /// Bytes of storage that the activations of `conv` packed for this kernel need
    /// ([`PackedActivations::pack_indirect`]); [`Error::LhsForm`] for the kernel that reads its
    /// indirection table as it is.
    pub fn packed_indirect_activations_size(&self, conv: &Conv2d) -> Result<usize> {
        let kind = gathering_packer(self.kernel).ok_or(Error::LhsForm {
            kernel_reads_packed: false,
        })?;
        let chunks = conv.chunks();
        let k = read_k(self.kernel, 0, Some(chunks))?;
        Ok(lhs::packed_size(
            kind,
            conv.output_pixels()?,
            &self.lhs_dims(k, 0),
        )?)
    }

    /// Bytes of storage that `n` output channels of weights over K in `chunks` packed for this
    /// kernel need ([`PackedWeights::pack_chunked`]).
    ///
    /// ```
    /// use rkai_ukernels::api::{Conv2d, Error, Kernel};
    /// use rkai_ukernels::family::{Family};
    /// use rkai_ukernels::select::Shape;
    ///
    /// match Kernel::select(Family::ImatmulF32F32pF32p, Shape::Gemm) {
    ///     Ok(kernel) => {
    ///         let chunks = Conv2d::square(8, 8, 16, 3, 1, 1).chunks();
    ///         assert!(kernel.packed_chunked_weights_size(32, chunks)? >= 32 * 9 * 16 * 4);
    ///     }
    ///     // A CPU without SME (every CPU off AArch64: the SME formats follow its vector length).
    ///     Err(Error::NotSupportedByCpu(_)) => {}
    ///     Err(other) => return Err(other),
    /// }
    /// # Ok::<(), Error>(())
    /// ```
    pub fn packed_chunked_weights_size(&self, n: usize, chunks: Chunks) -> Result<usize> {
        if !chunked_weights(self.kernel) {
            return Err(Error::FormatMismatch("chunked weights"));
        }
        let k = read_k(self.kernel, 0, Some(chunks))?;
        let f = self.rhs_format(0);
        Ok(f.layout.size(n, k, f.nr, f.kr, f.sr)?)
    }
}

/// The indirection table of a convolution for one kernel, filled from an NHWC image and a pad
/// chunk it borrows (with the table) for its whole life: give `&Indirection` to
/// [`super::matmul`] (the SVE kernel) or to [`PackedActivations::pack_indirect`] (the SME
/// kernels).
///
/// Entry `block * k_chunk_count + c * block_rows + r` (KleidiAI's layout, `block` a multiple of
/// the kernel's block rows) holds the address of the pixel that tap `c` of output pixel
/// `block + r` reads, or of `pad` where the tap is in the padding; rows past the output pixels
/// in the last block hold `pad` too. Building it costs one store per entry, little beside the
/// matmul: build it per image.
///
/// A 3x3 convolution, stride 2, through the SVE kernel, which reads the table as it is:
///
/// ```
/// use rkai_ukernels::api::{self, Bias, Clamp, Conv2d, Error, Indirection, Kernel};
/// use rkai_ukernels::api::{PackedWeights, WeightLayout, Weights};
/// use rkai_ukernels::catalog;
///
/// let entry = catalog::kernel("imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla").unwrap();
/// let kernel = match Kernel::new(entry) {
///     Ok(kernel) => kernel,
///     // An AArch64 CPU without SVE (off AArch64 the portable path runs).
///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
///     Err(e) => return Err(e),
/// };
/// let (conv, n) = (Conv2d::square(5, 5, 4, 3, 2, 1), 2);
/// let image = vec![1.0f32; 5 * 5 * 4];
/// let pad = [0.0f32; 4];
/// // Every weight 1, biases 0.5 and -0.5.
/// let (w, b) = (vec![1.0f32; conv.chunks().k()? * n], [0.5f32, -0.5]);
/// let weights = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F32(&b)) };
/// let storage = vec![0u8; kernel.packed_chunked_weights_size(n, conv.chunks())?];
/// let packed = PackedWeights::pack_chunked(&kernel, n, conv.chunks(), weights, storage)?;
///
/// let mut table = vec![0usize; kernel.indirection_len(&conv)?];
/// let indirection = Indirection::new(&kernel, &conv, &image, &pad, &mut table)?;
/// assert_eq!(indirection.m(), 9); // 3 x 3 output pixels
/// let mut y = vec![0f32; 9 * n];
/// api::matmul(&kernel, &indirection, &packed, &mut y, n, Clamp::NONE)?;
/// // The corner pixel sees 2 x 2 taps of the image (16 ones), the centre 3 x 3 (36).
/// assert_eq!((y[0], y[1]), (16.5, 15.5));
/// assert_eq!((y[4 * n], y[4 * n + 1]), (36.5, 35.5));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug)]
pub struct Indirection<'a, T> {
    table: &'a [usize],
    pad: &'a [T],
    _image: PhantomData<&'a [T]>,
    conv: Conv2d,
    m: usize,
    block_rows: usize,
}

impl<'a, T: IndirectElement> Indirection<'a, T> {
    /// Fills `table` ([`Kernel::indirection_len`] entries at least) for `kernel` from `image`
    /// (`height * width * channels` values, NHWC) and `pad` (`channels` values, what the taps in
    /// the padding read: zeros for zero padding, the input zero point for an int8 image), and
    /// keeps the three borrowed.
    pub fn new(
        kernel: &Kernel,
        conv: &Conv2d,
        image: &'a [T],
        pad: &'a [T],
        table: &'a mut [usize],
    ) -> Result<Self> {
        if kernel.kernel.family.output() != T::OUTPUT {
            return Err(Error::FormatMismatch("image element type"));
        }
        let block_rows = block_rows(kernel.kernel)?;
        let (m, chunks) = (conv.output_pixels()?, conv.chunks());
        chunks.k()?;
        let len = table_len(m, chunks.count, block_rows)?;
        need("indirection table", len, table.len())?;
        need("image", conv.image_len()?, image.len())?;
        need("pad", conv.channels, pad.len())?;
        let out_w = conv.output_width()?;
        let pixel = |p: usize| image.as_ptr().wrapping_add(p * conv.channels) as usize;
        let pad_address = pad.as_ptr() as usize;
        for (block, entries) in table[..len]
            .chunks_exact_mut(block_rows * chunks.count)
            .enumerate()
        {
            for (e, entry) in entries.iter_mut().enumerate() {
                let (tap, r) = (e / block_rows, e % block_rows);
                let row = block * block_rows + r;
                let tap = (tap / conv.kernel_width, tap % conv.kernel_width);
                let source = (row < m)
                    .then(|| conv.source((row / out_w, row % out_w), tap))
                    .flatten();
                *entry = source.map_or(pad_address, pixel);
            }
        }
        Ok(Indirection {
            table: &table[..len],
            pad,
            _image: PhantomData,
            conv: *conv,
            m,
            block_rows,
        })
    }

    /// The convolution.
    pub fn conv(&self) -> &Conv2d {
        &self.conv
    }

    /// Rows of the matmul: the output pixels.
    pub fn m(&self) -> usize {
        self.m
    }
}

/// The activations of a convolution as [`super::Lhs::Indirect`]: an [`Indirection`] borrowed,
/// without its element type.
#[derive(Clone, Copy, Debug)]
pub struct IndirectLhs<'a> {
    table: &'a [usize],
    pad: usize,
    m: usize,
    chunks: Chunks,
    block_rows: usize,
    element: Output,
}

impl<'a, T: IndirectElement> From<&'a Indirection<'_, T>> for super::Lhs<'a> {
    fn from(i: &'a Indirection<'_, T>) -> Self {
        super::Lhs::Indirect(IndirectLhs {
            table: i.table,
            pad: i.pad.as_ptr() as usize,
            m: i.m,
            chunks: i.conv.chunks(),
            block_rows: i.block_rows,
            element: T::OUTPUT,
        })
    }
}

impl IndirectLhs<'_> {
    /// Rows.
    pub fn m(&self) -> usize {
        self.m
    }

    /// The chunks of K.
    pub fn chunks(&self) -> Chunks {
        self.chunks
    }

    /// Checks that `kernel` reads this table as it is, laid out for it, and that `rhs` holds
    /// weights over the same chunks.
    pub(super) fn check<B: AsRef<[u8]>>(
        &self,
        kernel: &Kernel,
        rhs: &PackedWeights<B>,
    ) -> Result<()> {
        if !reads_table(kernel.kernel) {
            return Err(Error::LhsForm {
                kernel_reads_packed: kernel.reads_packed_lhs(),
            });
        }
        if self.element != kernel.kernel.family.output() {
            return Err(Error::FormatMismatch("indirection table element type"));
        }
        same(
            "indirection block rows",
            self.block_rows,
            block_rows(kernel.kernel)?,
        )?;
        same_chunks(rhs.chunks, Some(self.chunks))
    }

    /// Runs rows `rows.0..rows.1` (`rows.0` a multiple of the kernel's block rows) over the
    /// packed weights at `rhs_packed` into `dst` (the portion's first element).
    ///
    /// # Safety
    /// [`Self::check`] passed for `kernel`; `rhs_packed` and `dst` hold the portion.
    pub(super) unsafe fn run(
        &self,
        kernel: &Kernel,
        rows: (usize, usize),
        n: usize,
        rhs_packed: *const u8,
        (dst, dst_stride_row): (*mut u8, usize),
        (clamp_min, clamp_max): (f32, f32),
    ) -> Result<()> {
        // The portion's first block, inside the table (`rows.0 < m`).
        let first = self.table.get(rows.0 * self.chunks.count..).unwrap_or(&[]);
        let args = IndirectArgs {
            m: rows.1 - rows.0,
            n,
            k_chunk_count: self.chunks.count,
            k_chunk_length: self.chunks.length,
            indirection_buffer: first.as_ptr().cast(),
            pad_ptr: self.pad as *const u8,
            lhs_ptr_offset: 0,
            rhs_packed,
            dst,
            dst_stride_row,
            clamp_min,
            clamp_max,
        };
        call::check_indirect(kernel.kernel, &args)?;
        // SAFETY: checked arguments; every entry a row below m reads is the address of a pixel
        // or of the pad chunk (each `k_chunk_length` values), borrowed for the table's life;
        // the caller guarantees the packed weights and dst.
        unsafe { call::run_indirect(kernel.kernel, &args) };
        Ok(())
    }
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> PackedActivations<S> {
    /// Packs the activations of a convolution for `kernel` (an SME indirect matmul) into
    /// `storage` ([`Kernel::packed_indirect_activations_size`] bytes), gathering them through
    /// `indirection` (built for the same kernel).
    ///
    /// A 1x1 convolution of f16 values through the SME kernel, which packs the table's rows:
    ///
    /// ```
    /// use half::f16;
    /// use rkai_ukernels::api::{self, Bias, Clamp, Conv2d, Error, Indirection, Kernel};
    /// use rkai_ukernels::api::{PackedActivations, PackedWeights, WeightLayout, Weights};
    /// use rkai_ukernels::catalog;
    ///
    /// let entry = catalog::kernel("imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa").unwrap();
    /// let kernel = match Kernel::new(entry) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without SME (off AArch64 the portable path runs).
    ///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let (conv, n) = (Conv2d::square(3, 3, 2, 1, 1, 0), 1);
    /// // Pixel p holds (p, 1); the weights sum both channels.
    /// let image: Vec<f16> = (0..9).flat_map(|p| [f16::from_f32(p as f32), f16::ONE]).collect();
    /// let (w, b) = ([f16::ONE; 2], [f16::ZERO]);
    /// let weights = Weights::F16 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F16(&b)) };
    /// let storage = vec![0u8; kernel.packed_chunked_weights_size(n, conv.chunks())?];
    /// let packed = PackedWeights::pack_chunked(&kernel, n, conv.chunks(), weights, storage)?;
    ///
    /// let pad = [f16::ZERO; 2];
    /// let mut table = vec![0usize; kernel.indirection_len(&conv)?];
    /// let indirection = Indirection::new(&kernel, &conv, &image, &pad, &mut table)?;
    /// let storage = vec![0u8; kernel.packed_indirect_activations_size(&conv)?];
    /// let lhs = PackedActivations::pack_indirect(&kernel, &indirection, storage)?;
    /// let mut y = vec![f16::ZERO; 9];
    /// api::matmul(&kernel, &lhs, &packed, &mut y, n, Clamp::NONE)?;
    /// assert!(y.iter().enumerate().all(|(p, v)| v.to_f32() == p as f32 + 1.0));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn pack_indirect<T: IndirectElement>(
        kernel: &Kernel,
        indirection: &Indirection<'_, T>,
        mut storage: S,
    ) -> Result<Self> {
        let kind = gathering_packer(kernel.kernel).ok_or(Error::LhsForm {
            kernel_reads_packed: false,
        })?;
        if kernel.kernel.family.output() != T::OUTPUT {
            return Err(Error::FormatMismatch("indirection table element type"));
        }
        same(
            "indirection block rows",
            indirection.block_rows,
            block_rows(kernel.kernel)?,
        )?;
        let size = kernel.packed_indirect_activations_size(&indirection.conv)?;
        need("packed activation storage", size, storage.as_ref().len())?;
        let chunks = indirection.conv.chunks();
        let a = imatmul_pack::Args {
            m: indirection.m,
            k_chunk_count: chunks.count,
            k_chunk_length: chunks.length,
            lhs_ptrs: indirection.table.as_ptr().cast(),
            lhs_ptr_offset: 0,
            pad_ptr: indirection.pad.as_ptr().cast(),
            lhs_packed: storage.as_mut().as_mut_ptr(),
        };
        // SAFETY: the table holds the entries of every row below m in the packer's blocks
        // (laid out for this kernel's block rows, checked), each the address of a pixel or of
        // the pad chunk, borrowed for the table's life; the storage holds the packed size.
        unsafe { lhs::pack_indirect(kind, &a)? };
        Ok(PackedActivations {
            storage,
            kind,
            packed_for: kernel.kernel,
            m: indirection.m,
            k: chunks.k()?,
            bl: 0,
            chunks: Some(chunks),
            vector_bytes: activations::vector_bytes(kind, kernel.kernel),
        })
    }
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> PackedWeights<S> {
    /// Packs the weights of an indirect matmul for `kernel` into `storage`
    /// ([`Kernel::packed_chunked_weights_size`] bytes): `n` output channels over K in `chunks`,
    /// as `chunks.count * chunks.length` rows of `n` values ([`Weights::F32`] or
    /// [`Weights::F16`] with [`super::WeightLayout::Kxn`], the bias in the form; for the int8
    /// kernels [`Weights::Int8Requantized`], K x N, with its scales, biases and input
    /// quantization). A convolution's weights in HWIO order are these rows (kernel row, kernel
    /// column, input channel).
    ///
    /// ```
    /// use rkai_ukernels::api::{Bias, Conv2d, Error, Kernel, PackedWeights, WeightLayout, Weights};
    /// use rkai_ukernels::catalog;
    ///
    /// let (conv, n) = (Conv2d::square(6, 6, 3, 3, 1, 1), 8);
    /// let chunks = conv.chunks();
    /// let w = vec![0.25f32; chunks.k()? * n];
    /// let b = vec![0.5f32; n];
    /// let entry = catalog::kernel("imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla").unwrap();
    /// let kernel = match Kernel::new(entry) {
    ///     Ok(kernel) => kernel,
    ///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let weights = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F32(&b)) };
    /// let storage = vec![0u8; kernel.packed_chunked_weights_size(n, chunks)?];
    /// let packed = PackedWeights::pack_chunked(&kernel, n, chunks, weights, storage)?;
    /// assert_eq!((packed.n(), packed.k()), (8, 27));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn pack_chunked(
        kernel: &Kernel,
        n: usize,
        chunks: Chunks,
        weights: Weights<'_>,
        storage: S,
    ) -> Result<Self> {
        if !chunked_weights(kernel.kernel) {
            return Err(Error::FormatMismatch("chunked weights"));
        }
        weights::pack(kernel, n, chunks.k()?, Some(chunks), weights, None, storage)
    }

    /// Takes bytes packed earlier for `kernel`'s format ([`PackedWeights::pack_chunked`], or
    /// KleidiAI's or rkai's C packer): `n` output channels over K in `chunks`, at
    /// `vector_bytes` ([`PackedWeights::vector_bytes`] when they were packed); as
    /// [`PackedWeights::from_bytes`] checks.
    pub fn from_chunked_bytes(
        kernel: &Kernel,
        n: usize,
        chunks: Chunks,
        vector_bytes: usize,
        storage: S,
    ) -> Result<Self> {
        let size = kernel.packed_chunked_weights_size(n, chunks)?;
        need("packed weight storage", size, storage.as_ref().len())?;
        let mut packed =
            PackedWeights::from_bytes(kernel, n, chunks.k()?, 0, vector_bytes, storage)?;
        packed.chunks = Some(chunks);
        Ok(packed)
    }
}
