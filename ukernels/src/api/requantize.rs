//! The quantization parameters of the int8-output families (`matmul_clamp_qai8_qai8p_qsi8cxp`,
//! `matmul_clamp_qai8_qai8_qsi8cxp`, `imatmul_clamp_qai8_qai8p_qsi8cxp`): [`InputQuantization`], which their weights fold in when
//! they are packed, and [`Requantize`], the output stage [`super::matmul_requantized`] gives the
//! kernel at each call.
//!
//! With the activations `x = input_scale * (qx - input_zero_point)`, the weights of channel `j`
//! `w = scale[j] * qw` (symmetric), its bias `input_scale * scale[j] * bias[j]` and the output
//! `y = output_scale * (qy - output_zero_point)`, the kernels compute on the integers
//! `qy[i][j] = clamp(round(scale[j] * scale_multiplier * (bias[j] + sum_k (qx[i][k] -
//! input_zero_point) * qw[k][j])) + output_zero_point)` with `scale_multiplier = input_scale /
//! output_scale`: the sum in wrapping `i32`, the product of the scales (once, when packing) and
//! the rounding (to nearest, ties to even) in `f32`.

use crate::types::{kai_matmul_requantize32_params, kai_rhs_pack_qsi8cx_params};

/// How the int8 activations of a layer with int8 output are quantized, relative to its output.
///
/// Part of the weights ([`Weights::Int8Requantized`](super::Weights::Int8Requantized)), not of
/// the activations: the kernels never read it, the packer folds it into every channel (the zero
/// point times the column sum subtracted from the bias, the multiplier into the scale). Weights
/// packed for one input quantization compute wrong values (never unsafe ones) with activations
/// of another; pack them again when it changes.
///
/// ```
/// use rkai_ukernels::api::InputQuantization;
///
/// // Activations x = q / 64 (zero point 0), output y = (q - 7) / 16.
/// let (input_scale, output_scale) = (1.0f32 / 64.0, 1.0f32 / 16.0);
/// let input = InputQuantization { zero_point: 0, scale_multiplier: input_scale / output_scale };
/// assert_eq!(input.scale_multiplier, 0.25);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputQuantization {
    /// The activations' zero point: `x = input_scale * (q - zero_point)`.
    pub zero_point: i8,
    /// `input_scale / output_scale`: multiplies every channel's scale as the weights are packed
    /// (one `f32` multiplication each).
    pub scale_multiplier: f32,
}

impl InputQuantization {
    /// The packer's parameter struct.
    pub(super) fn packer_params(self) -> kai_rhs_pack_qsi8cx_params {
        kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: self.zero_point.into(),
            scale_multiplier: self.scale_multiplier,
        }
    }
}

/// The output stage of the int8-output kernels, given to [`super::matmul_requantized`] as
/// [`super::Clamp`] is to [`super::matmul`]: each scaled and rounded sum plus `zero_point`,
/// clamped to `min..=max`.
///
/// With `min > max` the kernels disagree, as KleidiAI's do: the SME kernel gives `min`, the SME2
/// ones `max`.
///
/// ```
/// use rkai_ukernels::api::Requantize;
///
/// // A ReLU6 fused into an output quantized as y = 0.05 * (q + 128): 0 is -128, 6 is -8.
/// let relu6 = Requantize { min: -128, max: -8, zero_point: -128 };
/// assert_eq!(Requantize::unclamped(-128), Requantize { max: 127, ..relu6 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requantize {
    /// Lowest output value.
    pub min: i8,
    /// Highest output value.
    pub max: i8,
    /// The output's zero point, added to every rounded result.
    pub zero_point: i8,
}

impl Requantize {
    /// The whole int8 range, the output's zero point `zero_point`.
    pub const fn unclamped(zero_point: i8) -> Requantize {
        Requantize {
            min: i8::MIN,
            max: i8::MAX,
            zero_point,
        }
    }

    /// The kernels' parameter struct.
    pub(super) fn kernel_params(self) -> kai_matmul_requantize32_params {
        kai_matmul_requantize32_params {
            min_value: self.min.into(),
            max_value: self.max.into(),
            output_zero_point: self.zero_point.into(),
        }
    }
}
