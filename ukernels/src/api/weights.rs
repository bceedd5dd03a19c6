//! [`Weights`] (the source forms of a layer's weights) and [`PackedWeights`] (weights packed for
//! a kernel, with the format, shape and vector length they were packed for).
//!
//! Each source form names the RHS packer kinds that take it ([`Weights::packed_by`]); packing
//! goes through the kernel's own packer of such a kind and the checked dispatcher every C packer
//! uses ([`crate::pack::rhs::pack`]), so a refused argument carries KleidiAI's condition text.

use super::chunks::Chunks;
use super::error::{Error, Result, need, same_vector_length};
use super::kernel::{Kernel, chunked_weights, rhs_kinds};
use super::requantize::InputQuantization;
use crate::kernel::MatmulKernel;
use crate::pack::kinds::{RhsPackerKind, WeightLayout};
use crate::pack::rhs::{self, Args};
use crate::pack::rhs_pack_nxk_qsu2cxp as int2;
use crate::pack::{Source, rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 as q4_0};
use crate::select;
use crate::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};

/// The weights of a linear layer, `n` output channels of `k` inputs each: the integer forms
/// row-major ("nxk", but [`Weights::Int8Requantized`] "kxn"), the float forms in either
/// orientation.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
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
    /// llama.cpp's `Q4_0` (GGML's `block_q4_0`): per channel, `k / 32` blocks of an f16 scale `d`
    /// followed by 16 bytes, byte `i` holding value `i` in its low nibble and value `i + 16` in
    /// its high nibble, both unsigned with zero point 8 (value = `d * (nibble - 8)`). `k` must be
    /// a multiple of 32; the packed format holds no bias.
    Q4_0 {
        /// `n * k / 32` blocks of 18 bytes, as a GGUF tensor stores them.
        blocks: &'a [u8],
    },
    /// Unsigned 2-bit codes with one f32 scale per channel (llama.cpp's `Q2_0C`, the source of
    /// `matmul_clamp_f32_qai8dxp_qsu2cxp`): the weight of code `c` is `scale * values[c]`.
    /// Row `j` of `data` is bytes `j * k / 4..(j + 1) * k / 4`; input `4 * b + s` of the row is
    /// the code in bits `2s..2s + 2` of its byte `b` (input `4b` in the lowest two bits). `k`
    /// must be a multiple of 32.
    ///
    /// ```
    /// use rkai_ukernels::api::{self, Activations, Clamp, Kernel, PackedActivations, PackedWeights, Weights};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// let (m, n, k) = (1, 2, 32);
    /// // Every code 1 (bit pairs 01): weight -1 * scale with KleidiAI's default table.
    /// let codes = vec![0b0101_0101u8; n * k / 4];
    /// let scales = [0.5f32, 0.25];
    /// let weights = Weights::Int2PerChannel { data: &codes, scales: &scales, values: None };
    /// let kernel = match Kernel::select(Family::F32Qai8dxpQsu2cxp, Shape::Gemv) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without dotprod.
    ///     Err(api::Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
    /// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
    /// let x = vec![1.0f32; m * k];
    /// let rows = Activations::F32 { data: &x, stride: k };
    /// let storage = vec![0u8; kernel.packed_activations_size(m, k, 0)?];
    /// let lhs = PackedActivations::pack(&kernel, m, k, 0, rows, storage)?;
    /// let mut y = [0f32; 2];
    /// api::matmul(&kernel, &lhs, &packed, &mut y, n, Clamp::NONE)?;
    /// // 32 inputs of 1 times -0.5 and -0.25.
    /// assert!((y[0] + 16.0).abs() < 0.1 && (y[1] + 8.0).abs() < 0.1, "{y:?}");
    /// # Ok::<(), api::Error>(())
    /// ```
    Int2PerChannel {
        /// The codes, `n * k / 4` bytes.
        data: &'a [u8],
        /// `n` scales.
        scales: &'a [f32],
        /// The value of each code 0..=3 (KleidiAI's `lut`; the packer adds them into each
        /// channel's sum, the kernels read them too), or `None` for KleidiAI's default
        /// `[-2, -1, 0, 1]`: code minus the zero point 2. The kernels multiply by each entry as
        /// an int8 (its low byte), so entries belong in `-128..=127`. The packed bytes do not
        /// hold the table: [`PackedWeights`] keeps it for [`super::matmul`].
        values: Option<[i32; 4]>,
    },
    /// Asymmetric int4 with one f32 scale and one f32 zero offset per block of `bl` inputs (`bl`
    /// a multiple of 32 dividing `k`; the source of `matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p`):
    /// the weight of the unsigned nibble `u` (0..=15) of block `b` is
    /// `(u - 8) * scale + zero_offset`, so an integer zero point `zp` has
    /// `zero_offset = (8 - zp) * scale`. Row `j` of `data` is bytes
    /// `j * k / 2..(j + 1) * k / 2`, byte `i` holding inputs `2i` and `2i + 1` in the nibbles
    /// `order` says. `scales` and `zero_offsets` are `[n][k / bl]`, row-major.
    ///
    /// ```
    /// use rkai_ukernels::api::{self, Activations, Clamp, Kernel, NibbleOrder, PackedActivations};
    /// use rkai_ukernels::api::{PackedWeights, Weights};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// let (m, n, k, bl) = (1, 2, 64, 32);
    /// // Even inputs 3, odd inputs 12: with zero point 3, weights 0 and 9 * scale.
    /// let data = vec![0x3c_u8; n * k / 2];
    /// let scales = vec![0.125f32; n * k / bl];
    /// let zero_offsets: Vec<f32> = scales.iter().map(|s| (8.0 - 3.0) * s).collect();
    /// let weights = Weights::Int4AsymmetricPerBlock {
    ///     bl,
    ///     data: &data,
    ///     order: NibbleOrder::EvenHigh,
    ///     scales: &scales,
    ///     zero_offsets: &zero_offsets,
    /// };
    /// let kernel = match Kernel::select(Family::F32Qsi8d32pQai4c32p, Shape::Gemv) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without dotprod.
    ///     Err(api::Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// let storage = vec![0u8; kernel.packed_weights_size(n, k, bl)?];
    /// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
    /// let x = vec![1.0f32; m * k];
    /// let rows = Activations::F32 { data: &x, stride: k };
    /// let storage = vec![0u8; kernel.packed_activations_size(m, k, bl)?];
    /// let lhs = PackedActivations::pack(&kernel, m, k, bl, rows, storage)?;
    /// let mut y = [0f32; 2];
    /// api::matmul(&kernel, &lhs, &packed, &mut y, n, Clamp::NONE)?;
    /// // 32 odd inputs of 1 times 9 * 0.125.
    /// assert!(y.iter().all(|v| (v - 36.0).abs() < 0.1), "{y:?}");
    /// # Ok::<(), api::Error>(())
    /// ```
    Int4AsymmetricPerBlock {
        /// Block length.
        bl: usize,
        /// Packed nibbles, `n * k / 2` bytes.
        data: &'a [u8],
        /// Which nibble of a byte holds its even input. Every kernel's packer takes
        /// [`NibbleOrder::EvenHigh`]; only the SME2 kernels' packers take
        /// [`NibbleOrder::EvenLow`] (the others answer [`Error::FormatMismatch`]).
        order: NibbleOrder,
        /// `n * (k / bl)` scales.
        scales: &'a [f32],
        /// `n * (k / bl)` zero offsets, added to the scaled weights of their block.
        zero_offsets: &'a [f32],
    },
    /// `f32` weights for the f32 GEMMs (`matmul_clamp_f32_f32_f32p`, `..._f32p_f32p`) and the
    /// bf16 GEMMs, which round them to bf16 as they pack. The bias is part of the form (its type
    /// picks the packer); give `None` as [`PackedWeights::pack`]'s own `bias`.
    ///
    /// ```
    /// use rkai_ukernels::api::{Bias, WeightLayout, Weights};
    ///
    /// let (n, k) = (3, 2);
    /// let w = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]; // k rows of n values
    /// let b = [0.5f32; 3];
    /// let weights = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F32(&b)) };
    /// assert_eq!(weights.bl(), 0);
    /// # let _ = (n, k);
    /// ```
    F32 {
        /// `n * k` values: `k` rows of `n` ([`WeightLayout::Kxn`]) or `n` rows of `k`
        /// ([`WeightLayout::Nxk`]).
        data: &'a [f32],
        /// The orientation of `data`.
        layout: WeightLayout,
        /// `n` biases, or none (zeros, where the packer allows it).
        bias: Option<Bias<'a>>,
    },
    /// IEEE half-precision weights for the f16 GEMMs (`matmul_clamp_f16_f16_f16p`,
    /// `..._f16p_f16p`, with an f16 bias) and the bf16 GEMMs fed from f16
    /// (`matmul_clamp_f32_bf16p_bf16p` with an f32 bias, `matmul_clamp_f16_bf16p_bf16p` with an
    /// f16 bias). As for [`Weights::F32`], the bias is part of the form.
    F16 {
        /// `n * k` values in `layout`.
        data: &'a [half::f16],
        /// The orientation of `data`.
        layout: WeightLayout,
        /// `n` biases, or none.
        bias: Option<Bias<'a>>,
    },
    /// Signed int8 weights held K x N for the int8-output families
    /// (`matmul_clamp_qai8_qai8p_qsi8cxp`, `matmul_clamp_qai8_qai8_qsi8cxp`, and
    /// `imatmul_clamp_qai8_qai8p_qsi8cxp` through [`PackedWeights::pack_chunked`]): symmetric, one
    /// `f32` scale per channel, an `i32` bias per channel (in units of the accumulator, `input
    /// scale * scale[j]`), and the quantization of the activations they will meet, which the
    /// packer folds in ([`InputQuantization`]). As for the float forms, the bias is part of the
    /// form; give `None` as [`PackedWeights::pack`]'s own `bias`. One packing serves the GEMMs
    /// and the GEMV ([`PackedWeights::is_read_by`]).
    ///
    /// ```
    /// use rkai_ukernels::api::{InputQuantization, Weights};
    ///
    /// let (n, k) = (2, 3);
    /// let w = [1i8, -2, 3, -4, 5, -6]; // k rows of n values
    /// let input = InputQuantization { zero_point: 5, scale_multiplier: 0.25 };
    /// let weights =
    ///     Weights::Int8Requantized { data: &w, scales: &[0.5, 0.25], bias: &[100, -7], input };
    /// assert_eq!((weights.bl(), w.len()), (0, n * k));
    /// ```
    Int8Requantized {
        /// `k * n` values: `k` rows of `n`.
        data: &'a [i8],
        /// `n` scales.
        scales: &'a [f32],
        /// `n` biases.
        bias: &'a [i32],
        /// The activations' zero point and the scale multiplier the packer folds in.
        input: InputQuantization,
    },
}

/// Which nibble of a byte holds the even-indexed of its two int4 values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NibbleOrder {
    /// Input `2i` in bits 0..4, `2i + 1` in bits 4..8 (KleidiAI's `s1s0`).
    EvenLow,
    /// Input `2i` in bits 4..8, `2i + 1` in bits 0..4 (KleidiAI's `s0s1`).
    EvenHigh,
}

/// The bias of a float weight form ([`Weights::F32`], [`Weights::F16`]): `n` values of the type
/// the family adds (the packer that takes the form depends on it).
#[derive(Clone, Copy, Debug)]
pub enum Bias<'a> {
    /// `f32` biases.
    F32(&'a [f32]),
    /// IEEE half-precision biases.
    F16(&'a [half::f16]),
}

impl Bias<'_> {
    fn float(&self) -> FloatType {
        match self {
            Bias::F32(_) => FloatType::F32,
            Bias::F16(_) => FloatType::F16,
        }
    }

    fn ptr_len(&self) -> (*const u8, usize) {
        match *self {
            Bias::F32(b) => (b.as_ptr().cast(), b.len()),
            Bias::F16(b) => (b.as_ptr().cast(), b.len()),
        }
    }
}

/// The element type of float weights or biases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FloatType {
    F32,
    F16,
}

impl FloatType {
    /// The type of a float packer's `bytes`-wide values (its 16-bit ones are f16 in every family
    /// the API covers).
    const fn of_bytes(bytes: usize) -> FloatType {
        if bytes == 4 {
            FloatType::F32
        } else {
            FloatType::F16
        }
    }
}

/// A source form of [`Weights`] without its data: all that decides which packers take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FormKind {
    Int4PerChannel,
    Int8PerChannel,
    Int4PerBlock,
    Q4_0,
    Int8Requantized,
    Int2PerChannel,
    Int4AsymmetricPerBlock(NibbleOrder),
    Float {
        values: FloatType,
        layout: WeightLayout,
        bias: Option<FloatType>,
    },
}

impl FormKind {
    /// Every form kind.
    fn all() -> impl Iterator<Item = FormKind> {
        let types = [FloatType::F32, FloatType::F16];
        let biases = [None, Some(FloatType::F32), Some(FloatType::F16)];
        let floats = types.into_iter().flat_map(move |values| {
            WeightLayout::ALL.into_iter().flat_map(move |layout| {
                biases.into_iter().map(move |bias| FormKind::Float {
                    values,
                    layout,
                    bias,
                })
            })
        });
        [
            FormKind::Int4PerChannel,
            FormKind::Int8PerChannel,
            FormKind::Int4PerBlock,
            FormKind::Q4_0,
            FormKind::Int8Requantized,
            FormKind::Int2PerChannel,
            FormKind::Int4AsymmetricPerBlock(NibbleOrder::EvenLow),
            FormKind::Int4AsymmetricPerBlock(NibbleOrder::EvenHigh),
        ]
        .into_iter()
        .chain(floats)
    }

    /// Whether a packer of `kind` takes weights of this form: the one table of the forms.
    fn packed_by(self, kind: RhsPackerKind) -> bool {
        let float = |values: FloatType, layout, bias: Option<FloatType>, packer| {
            let (packer_values, packer_layout, packer_bias) = packer;
            values == packer_values
                && layout == packer_layout
                && bias.is_none_or(|b| b == packer_bias)
        };
        match (self, kind) {
            (FormKind::Int4PerChannel, RhsPackerKind::Qsi4cxp(source)) => source == Source::Nxk,
            (FormKind::Int4PerChannel, RhsPackerKind::Qsi4cxps1s0) => true,
            (FormKind::Int8PerChannel, RhsPackerKind::Qsi8cxp(source)) => source == Source::Nxk,
            (FormKind::Int4PerBlock, RhsPackerKind::Qsi4c32p(v)) => v.source() == Source::Nxk,
            (FormKind::Q4_0, RhsPackerKind::Qsi4c32pf16(_)) => true,
            // K x N (in chunks for the indirect matmuls: `PackedWeights::pack_chunked`).
            (
                FormKind::Int8Requantized,
                RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb,
            ) => true,
            (FormKind::Int2PerChannel, RhsPackerKind::Qsu2cxp(_)) => true,
            (FormKind::Int4AsymmetricPerBlock(order), RhsPackerKind::Qai4c32p(v)) => {
                v.even_high() == (order == NibbleOrder::EvenHigh)
            }
            // Values and biases of one type, copied unconverted (K in chunks for the indirect
            // matmuls: `PackedWeights::pack_chunked`).
            (
                FormKind::Float {
                    values,
                    layout,
                    bias,
                },
                RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v),
            ) => {
                let t = FloatType::of_bytes(v.bytes());
                float(values, layout, bias, (t, weight_layout(v.source()), t))
            }
            // K x N values rounded to bf16 with biases kept in their type.
            (
                FormKind::Float {
                    values,
                    layout,
                    bias,
                },
                RhsPackerKind::Bf16(v),
            ) => {
                let packer = (
                    FloatType::of_bytes(v.source_bytes()),
                    WeightLayout::Kxn,
                    FloatType::of_bytes(v.bias_bytes()),
                );
                float(values, layout, bias, packer)
            }
            _ => false,
        }
    }
}

/// The layout a packer reads from its source orientation.
const fn weight_layout(source: Source) -> WeightLayout {
    match source {
        Source::Nxk => WeightLayout::Nxk,
        Source::Kxn => WeightLayout::Kxn,
    }
}

/// The block length of [`Weights::Q4_0`].
pub const Q4_0_BLOCK: usize = 32;

/// The zero point of the 2-bit codes that KleidiAI's packers require (its default table is
/// code minus this).
const INT2_ZERO_POINT: u8 = 2;
const _: () = assert!(int2::DEFAULT_LUT[INT2_ZERO_POINT as usize] == 0);

/// The parameter struct a packer of a source form reads, kept alive for the call.
enum Params {
    Int4(kai_rhs_pack_qs4cxs1s0_param),
    Int8(kai_rhs_pack_qsi8cx_params),
    Block(kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params),
    /// The float packers take none.
    None,
}

impl Params {
    fn ptr(&self) -> *const u8 {
        match self {
            Params::Int4(p) => (&raw const *p).cast(),
            Params::Int8(p) => (&raw const *p).cast(),
            Params::Block(p) => (&raw const *p).cast(),
            Params::None => core::ptr::null(),
        }
    }
}

/// Whether some source form of [`Weights`] is packed by a packer of `kind`.
pub(super) fn takes_some_form(kind: RhsPackerKind) -> bool {
    FormKind::all().any(|form| form.packed_by(kind))
}

impl Weights<'_> {
    /// Whether a packer of `kind` takes this source form.
    ///
    /// ```
    /// use rkai_ukernels::api::{WeightLayout, Weights};
    /// use rkai_ukernels::pack::kinds::{FloatPacker, RhsPackerKind};
    ///
    /// let w = [0f32; 6];
    /// let kxn = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: None };
    /// assert!(kxn.packed_by(RhsPackerKind::Float(FloatPacker::KxnX32p16x1b)));
    /// assert!(!kxn.packed_by(RhsPackerKind::Float(FloatPacker::NxkX32p16x1bx32)));
    /// ```
    pub fn packed_by(&self, kind: RhsPackerKind) -> bool {
        self.kind().packed_by(kind)
    }

    /// The form without its data.
    fn kind(&self) -> FormKind {
        let float = |values, layout, bias: Option<Bias<'_>>| FormKind::Float {
            values,
            layout,
            bias: bias.map(|b| b.float()),
        };
        match *self {
            Weights::Int4PerChannel { .. } => FormKind::Int4PerChannel,
            Weights::Int8PerChannel { .. } => FormKind::Int8PerChannel,
            Weights::Int4PerBlock { .. } => FormKind::Int4PerBlock,
            Weights::Q4_0 { .. } => FormKind::Q4_0,
            Weights::Int8Requantized { .. } => FormKind::Int8Requantized,
            Weights::Int2PerChannel { .. } => FormKind::Int2PerChannel,
            Weights::Int4AsymmetricPerBlock { order, .. } => {
                FormKind::Int4AsymmetricPerBlock(order)
            }
            Weights::F32 { layout, bias, .. } => float(FloatType::F32, layout, bias),
            Weights::F16 { layout, bias, .. } => float(FloatType::F16, layout, bias),
        }
    }

    /// The bias a float form carries (`None` for the integer forms, whose bias is
    /// [`PackedWeights::pack`]'s argument).
    fn float_bias(&self) -> Option<Bias<'_>> {
        match *self {
            Weights::F32 { bias, .. } | Weights::F16 { bias, .. } => bias,
            _ => None,
        }
    }

    /// For a form that carries its bias, the condition that [`PackedWeights::pack`] gets none.
    fn carried_bias(&self) -> Option<&'static str> {
        match self {
            Weights::F32 { .. } | Weights::F16 { .. } => {
                Some("the bias of a float form is in the form")
            }
            Weights::Int8Requantized { .. } => Some("the bias of Int8Requantized is in the form"),
            _ => None,
        }
    }

    /// The value table of [`Weights::Int2PerChannel`] (`None` for KleidiAI's default and for
    /// the other forms).
    fn int2_values(&self) -> Option<&[i32; 4]> {
        match self {
            Weights::Int2PerChannel { values, .. } => values.as_ref(),
            _ => None,
        }
    }

    /// Block length (0 per channel).
    pub fn bl(&self) -> usize {
        match self {
            Weights::Int4PerBlock { bl, .. } | Weights::Int4AsymmetricPerBlock { bl, .. } => *bl,
            Weights::Q4_0 { .. } => Q4_0_BLOCK,
            Weights::Int4PerChannel { .. }
            | Weights::Int8PerChannel { .. }
            | Weights::Int8Requantized { .. }
            | Weights::Int2PerChannel { .. }
            | Weights::F32 { .. }
            | Weights::F16 { .. } => 0,
        }
    }

    /// Checks the slices hold `n x k` weights of this form and returns the packer arguments
    /// that read them (bias, output, geometry and params are the caller's to fill).
    fn source(&self, n: usize, k: usize) -> Result<(Args, Params)> {
        let nibble_row = k.div_ceil(2);
        let mut a = Args {
            num_groups: 1,
            n,
            k,
            nr: 0,
            kr: 0,
            sr: 0,
            bl: self.bl(),
            rhs: core::ptr::null(),
            rhs_stride: 0,
            bias: core::ptr::null(),
            scale: core::ptr::null(),
            scale_stride: 0,
            zero: core::ptr::null(),
            rhs_packed: core::ptr::null_mut(),
            extra_bytes: 0,
            params: core::ptr::null(),
            lut: core::ptr::null(),
        };
        let params = match *self {
            Weights::Int4PerChannel { data, scales } => {
                need("int4 weights", n.saturating_mul(nibble_row), data.len())?;
                need("scales", n, scales.len())?;
                (a.rhs, a.rhs_stride, a.scale) =
                    (data.as_ptr(), nibble_row, scales.as_ptr().cast());
                Params::Int4(kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                })
            }
            Weights::Int8PerChannel { data, scales } => {
                need("int8 weights", n.saturating_mul(k), data.len())?;
                need("scales", n, scales.len())?;
                (a.rhs, a.rhs_stride, a.scale) = (data.as_ptr().cast(), k, scales.as_ptr().cast());
                Params::Int8(kai_rhs_pack_qsi8cx_params {
                    lhs_zero_point: 1,
                    scale_multiplier: 1.0,
                })
            }
            Weights::Int4PerBlock { bl, data, scales } => {
                need("int4 weights", n.saturating_mul(nibble_row), data.len())?;
                let blocks = k.checked_div(bl).ok_or(Error::Precondition("bl > 0"))?;
                need("block scales", n.saturating_mul(blocks), scales.len())?;
                (a.rhs, a.rhs_stride) = (data.as_ptr(), nibble_row);
                (a.scale, a.scale_stride) = (scales.as_ptr().cast(), blocks * 2);
                Params::Block(kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                    scale_dt: kai_datatype::kai_dt_bf16,
                })
            }
            Weights::Q4_0 { blocks } => {
                if k % Q4_0_BLOCK != 0 {
                    return Err(Error::Precondition("(k % bl) == 0"));
                }
                let row = q4_0::source_stride(k, Q4_0_BLOCK);
                need("Q4_0 blocks", n.saturating_mul(row), blocks.len())?;
                (a.rhs, a.rhs_stride) = (blocks.as_ptr(), row);
                Params::Int4(kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                })
            }
            Weights::Int8Requantized {
                data,
                scales,
                bias,
                input,
            } => {
                need("int8 weights", n.saturating_mul(k), data.len())?;
                need("scales", n, scales.len())?;
                need("bias", n, bias.len())?;
                (a.rhs, a.rhs_stride) = (data.as_ptr().cast(), n);
                (a.scale, a.bias) = (scales.as_ptr().cast(), bias.as_ptr().cast());
                Params::Int8(input.packer_params())
            }
            Weights::Int2PerChannel { data, scales, .. } => {
                let row = k / 4;
                need("int2 weights", n.saturating_mul(row), data.len())?;
                need("scales", n, scales.len())?;
                (a.rhs, a.rhs_stride, a.scale) = (data.as_ptr(), row, scales.as_ptr().cast());
                a.lut = self.int2_values().map_or(core::ptr::null(), |t| t.as_ptr());
                Params::Int4(kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: INT2_ZERO_POINT,
                })
            }
            Weights::Int4AsymmetricPerBlock {
                bl,
                data,
                scales,
                zero_offsets,
                ..
            } => {
                need("int4 weights", n.saturating_mul(nibble_row), data.len())?;
                let blocks = k.checked_div(bl).ok_or(Error::Precondition("bl > 0"))?;
                let per_block = n.saturating_mul(blocks);
                need("block scales", per_block, scales.len())?;
                need("zero offsets", per_block, zero_offsets.len())?;
                (a.rhs, a.rhs_stride) = (data.as_ptr(), nibble_row);
                (a.scale, a.zero) = (scales.as_ptr().cast(), zero_offsets.as_ptr().cast());
                Params::Int4(kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                })
            }
            Weights::F32 { data, layout, .. } => {
                need("f32 weights", n.saturating_mul(k), data.len())?;
                (a.rhs, a.rhs_stride) = (data.as_ptr().cast(), float_row(layout, n, k, 4));
                Params::None
            }
            Weights::F16 { data, layout, .. } => {
                need("f16 weights", n.saturating_mul(k), data.len())?;
                (a.rhs, a.rhs_stride) = (data.as_ptr().cast(), float_row(layout, n, k, 2));
                Params::None
            }
        };
        if let Some(bias) = self.float_bias() {
            let (ptr, len) = bias.ptr_len();
            need("bias", n, len)?;
            a.bias = ptr;
        }
        Ok((a, params))
    }
}

/// Bytes between the source rows of `n x k` float weights of `bytes`-wide values in `layout`.
fn float_row(layout: WeightLayout, n: usize, k: usize, bytes: usize) -> usize {
    match layout {
        WeightLayout::Kxn => n,
        WeightLayout::Nxk => k,
    }
    .saturating_mul(bytes)
}

/// Weights packed for a kernel: the storage plus the format, shape and vector length it holds.
#[derive(Debug)]
pub struct PackedWeights<S> {
    pub(super) storage: S,
    /// The kernel the bytes were packed (or loaded) for: any kernel sharing its format reads them.
    pub(super) packed_for: &'static MatmulKernel,
    pub(super) n: usize,
    pub(super) k: usize,
    pub(super) bl: usize,
    /// K's chunks, for the weights of an indirect matmul.
    pub(super) chunks: Option<Chunks>,
    vector_bytes: usize,
    /// The table of [`Weights::Int2PerChannel`] codes, which the kernels read too.
    pub(super) int2_values: Option<[i32; 4]>,
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> PackedWeights<S> {
    /// Packs `n x k` weights with an optional bias (`n` values) for `kernel` into `storage`
    /// ([`Kernel::packed_weights_size`] bytes), with the kernel's own packer for the source form.
    /// `bias` is the integer forms' bias; the float forms and [`Weights::Int8Requantized`]
    /// carry theirs (`None` here, else [`Error::Precondition`]).
    ///
    /// f32 weights held K x N, packed for the best f32 GEMM of this CPU:
    ///
    /// ```
    /// use rkai_ukernels::api::{Bias, Kernel, PackedWeights, WeightLayout, Weights};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// let (n, k) = (5, 3);
    /// let w: Vec<f32> = (0..k * n).map(|i| i as f32).collect();
    /// let b = vec![1.0f32; n];
    /// let kernel = Kernel::select(Family::F32F32F32p, Shape::Gemm)?;
    /// let weights = Weights::F32 { data: &w, layout: WeightLayout::Kxn, bias: Some(Bias::F32(&b)) };
    /// let storage = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
    /// let packed = PackedWeights::pack(&kernel, n, k, weights, None, storage)?;
    /// assert_eq!((packed.n(), packed.k()), (n, k));
    /// # Ok::<(), rkai_ukernels::api::Error>(())
    /// ```
    pub fn pack(
        kernel: &Kernel,
        n: usize,
        k: usize,
        weights: Weights<'_>,
        bias: Option<&[f32]>,
        storage: S,
    ) -> Result<Self> {
        pack(kernel, n, k, None, weights, bias, storage)
    }

    /// Takes bytes packed earlier (by [`PackedWeights::pack`], or KleidiAI's or rkai's C packer)
    /// for `kernel`'s format: `n x k` weights, block length `bl` (0 per channel), at
    /// `vector_bytes` ([`PackedWeights::vector_bytes`] when they were packed). Checks the
    /// storage size and that the format follows the same vector length on this CPU; the bytes
    /// themselves are the caller's responsibility (any bytes are memory-safe to compute with).
    /// 2-bit weights packed with a table of their own need it back
    /// ([`PackedWeights::with_int2_values`]).
    pub fn from_bytes(
        kernel: &Kernel,
        n: usize,
        k: usize,
        bl: usize,
        vector_bytes: usize,
        storage: S,
    ) -> Result<Self> {
        same_vector_length(vector_bytes, kernel.kernel.packed_vector_bytes())?;
        let size = kernel.packed_weights_size(n, k, bl)?;
        need("packed weight storage", size, storage.as_ref().len())?;
        Ok(PackedWeights {
            storage,
            packed_for: kernel.kernel,
            n,
            k,
            bl,
            chunks: None,
            vector_bytes,
            int2_values: None,
        })
    }

    /// The same bytes with the table of the 2-bit codes they were packed with (the `values` of
    /// [`Weights::Int2PerChannel`], which the kernels read at every call): for bytes loaded by
    /// [`PackedWeights::from_bytes`], which assumes KleidiAI's default table.
    /// [`Error::FormatMismatch`] for a format without a table.
    ///
    /// ```
    /// use rkai_ukernels::api::{Error, Kernel, PackedWeights};
    /// use rkai_ukernels::family::Family;
    /// use rkai_ukernels::select::Shape;
    ///
    /// let (n, k) = (4, 32);
    /// let kernel = match Kernel::select(Family::F32Qai8dxpQsu2cxp, Shape::Gemm) {
    ///     Ok(kernel) => kernel,
    ///     // An AArch64 CPU without dotprod.
    ///     Err(Error::NotSupportedByCpu(_)) => return Ok(()),
    ///     Err(e) => return Err(e),
    /// };
    /// // Bytes saved earlier, with the table they were packed with.
    /// let saved = vec![0u8; kernel.packed_weights_size(n, k, 0)?];
    /// let vector_bytes = kernel.entry().packed_vector_bytes();
    /// let loaded = PackedWeights::from_bytes(&kernel, n, k, 0, vector_bytes, saved)?
    ///     .with_int2_values([-3, -1, 1, 3])?;
    /// assert_eq!(loaded.int2_values(), Some([-3, -1, 1, 3]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn with_int2_values(mut self, values: [i32; 4]) -> Result<Self> {
        if !self.packed_for.family.takes_lut() {
            return Err(Error::FormatMismatch("2-bit value table"));
        }
        self.int2_values = Some(values);
        Ok(self)
    }
}

/// [`PackedWeights::pack`], its K in `chunks` where the kernel's packer is a chunked one (one
/// chunk of `k` if `None`).
pub(super) fn pack<S: AsRef<[u8]> + AsMut<[u8]>>(
    kernel: &Kernel,
    n: usize,
    k: usize,
    chunks: Option<Chunks>,
    weights: Weights<'_>,
    bias: Option<&[f32]>,
    mut storage: S,
) -> Result<PackedWeights<S>> {
    let kind = rhs_kinds(kernel.kernel)
        .find(|&kind| weights.packed_by(kind))
        .ok_or(Error::FormatMismatch("weights"))?;
    let chunks = chunked_weights(kernel.kernel).then_some(chunks.unwrap_or(Chunks {
        count: 1,
        length: k,
    }));
    let bl = weights.bl();
    let format = kernel.rhs_format(bl);
    let size = match chunks {
        Some(chunks) => kernel.packed_chunked_weights_size(n, chunks)?,
        None => kernel.packed_weights_size(n, k, bl)?,
    };
    need("packed weight storage", size, storage.as_ref().len())?;
    let (mut a, params) = weights.source(n, k)?;
    if let (Some(condition), Some(_)) = (weights.carried_bias(), bias) {
        return Err(Error::Precondition(condition));
    }
    if let Some(b) = bias {
        need("bias", n, b.len())?;
        a.bias = b.as_ptr().cast();
    }
    (a.nr, a.kr, a.sr) = (format.nr, format.kr, format.sr);
    if let Some(chunks) = chunks {
        // The chunked packers' `k_chunk_length`.
        a.bl = chunks.length;
    }
    a.params = params.ptr();
    a.rhs_packed = storage.as_mut().as_mut_ptr();
    // SAFETY: the source, scales and bias hold what the packer reads (checked in `source`
    // and above) and the storage its packed size; `params` lives until the call returns.
    unsafe { rhs::pack(kind, &a)? };
    Ok(PackedWeights {
        storage,
        packed_for: kernel.kernel,
        n,
        k,
        bl,
        chunks,
        vector_bytes: kernel.kernel.packed_vector_bytes(),
        int2_values: weights.int2_values().copied(),
    })
}

impl<S: AsRef<[u8]>> PackedWeights<S> {
    /// Whether `kernel` reads these bytes: the format they were packed for is its own.
    pub fn is_read_by(&self, kernel: &Kernel) -> bool {
        core::ptr::eq(self.packed_for, kernel.kernel)
            || select::share_rhs_format(self.packed_for, kernel.kernel)
    }

    /// Bytes per vector of the length the packed layout follows (the streaming length for SME
    /// kernels, the SVE length for SVE kernels whose tile follows it, 0 for the others): store
    /// it with the bytes and give it back to [`PackedWeights::from_bytes`].
    pub fn vector_bytes(&self) -> usize {
        self.vector_bytes
    }

    /// Output channels.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Inputs per channel.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Block length (0 per channel).
    pub fn bl(&self) -> usize {
        self.bl
    }

    /// The table of the 2-bit codes the kernels read with these bytes (`None`: KleidiAI's
    /// default, or a format without one).
    pub fn int2_values(&self) -> Option<[i32; 4]> {
        self.int2_values
    }

    /// The `lut` argument of the kernels for these bytes (null: the default table).
    pub(super) fn lut(&self) -> *const i32 {
        self.int2_values
            .as_ref()
            .map_or(core::ptr::null(), |t| t.as_ptr())
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
