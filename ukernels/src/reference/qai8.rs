//! Requantized int8 output (`qai8` destinations): the output stage of KleidiAI's
//! `matmul_clamp_qai8_qai8p_qsi8cxp` and `matmul_clamp_qai8_qai8_qsi8cxp` kernels, with the
//! weights of `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`, written from their order of
//! operations (KleidiAI 1.30):
//!
//! 1. `acc = bias'[j] + sum_k lhs[i][k] * rhs[k][j]` in wrapping `i32`, where the packer's
//!    `bias'[j] = bias[j] - lhs_zero_point * sum_k rhs[k][j]` (also wrapping) folds in the LHS
//!    zero point;
//! 2. `acc` converted to `f32` (`SCVTF`, to nearest even);
//! 3. times the column's packed scale `scale'[j] = scale[j] * scale_multiplier` (`FMUL`, both
//!    products rounded to nearest even);
//! 4. rounded to an integral value, ties to even (`FRINTN`), then converted to `i32` with
//!    saturation, NaN giving 0 (`FCVTZS`);
//! 5. plus the output zero point in wrapping `i32` (`ADD`: a saturated value wraps);
//! 6. clamped to `[min_value, max_value]` in `i32`, in the kernel's order ([`ClampOrder`]);
//! 7. stored as its low byte (`UZP1` + `ST1B` truncate: bounds outside `i8` wrap).
//!
//! The packed operands' layouts are [`crate::layout::RhsLayout::Qsi8cxpsb`] and
//! `lhs_pack_x8p2vlx4_x8_sme`'s; this module computes from unpacked data.

use crate::float;

/// The order in which a kernel applies the two bounds; they differ only when
/// `min_value > max_value`, which KleidiAI does not reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClampOrder {
    /// `SMIN` with the upper bound, then `SMAX` with the lower (the SME kernel): `min_value`
    /// wins an inverted range.
    UpperFirst,
    /// `SCLAMP` (the SME2 kernels): the lower bound first, so `max_value` wins an inverted
    /// range.
    LowerFirst,
}

/// `kai_matmul_requantize32_params` as values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requantize {
    /// Lowest output value.
    pub min_value: i32,
    /// Highest output value.
    pub max_value: i32,
    /// Added to every rounded result.
    pub output_zero_point: i32,
}

/// Steps 2 to 7 for one accumulator `acc` of a column whose packed scale is `scale`.
pub fn requantize(acc: i32, scale: f32, p: Requantize, order: ClampOrder) -> i8 {
    let scaled = float::fmul(acc as f32, scale);
    // `as` saturates and maps NaN to 0, as FCVTZS does.
    let rounded = float::round_ties_even(scaled) as i32;
    let shifted = rounded.wrapping_add(p.output_zero_point);
    let clamped = match order {
        ClampOrder::UpperFirst => shifted.min(p.max_value).max(p.min_value),
        ClampOrder::LowerFirst => shifted.max(p.min_value).min(p.max_value),
    };
    clamped as i8
}

/// The packer's folded bias of a column: `bias - lhs_zero_point * column_sum`, wrapping.
pub fn folded_bias(bias: i32, lhs_zero_point: i32, column: impl Iterator<Item = i8>) -> i32 {
    let sum = column.fold(0i32, |s, v| s.wrapping_add(i32::from(v)));
    bias.wrapping_add(sum.wrapping_mul(lhs_zero_point.wrapping_neg()))
}

/// The unpacked operands of a requantized int8 matmul.
#[derive(Clone, Copy, Debug)]
pub struct Operands<'a> {
    /// `m` rows of `k` int8 activations, rows `k` apart.
    pub lhs: &'a [i8],
    /// `k` rows of `n` int8 weights, rows `n` apart.
    pub rhs: &'a [i8],
    /// `n` biases.
    pub bias: &'a [i32],
    /// `n` per-channel scales (before the multiplier).
    pub scale: &'a [f32],
    /// The LHS zero point the packer folds in.
    pub lhs_zero_point: i32,
    /// The packer's scale multiplier.
    pub scale_multiplier: f32,
}

/// The `m` x `n` int8 result, rows `n` apart.
pub fn matmul(
    (m, n, k): (usize, usize, usize),
    o: &Operands,
    p: Requantize,
    order: ClampOrder,
) -> impl Iterator<Item = i8> {
    (0..m * n).map(move |at| {
        let (i, j) = (at / n, at % n);
        let column = (0..k).map(|kk| o.rhs[kk * n + j]);
        let mut acc = folded_bias(o.bias[j], o.lhs_zero_point, column);
        for kk in 0..k {
            let product = i32::from(o.lhs[i * k + kk]) * i32::from(o.rhs[kk * n + j]);
            acc = acc.wrapping_add(product);
        }
        let scale = float::fmul(o.scale[j], o.scale_multiplier);
        requantize(acc, scale, p, order)
    })
}
