//! Direct depthwise convolution over a whole image: the oracle of the `dwconv` kernels, written
//! from the definition (every output pixel sums its filter window) rather than from a kernel's
//! walk over calls, columns and channel groups.
//!
//! The image is NHWC (`height x width x channels`), the filter `[3][3][channels]`, the output
//! `(height + top + bottom - 2) x (width + left + right - 2) x channels`. The sum follows
//! KleidiAI's kernels: the bias, then filter columns left to right and rows top to bottom within
//! a column, each a fused multiply-add with ZA's NaN rule; a tap whose input column is padding is
//! left out, a tap whose input row is padding multiplies a zero; then SME2's `FCLAMP`.
//!
//! The f16 convolution ([`f16_3x3`]) is computed in halves: the bias, then each tap a fused
//! multiply-add rounded to a half (padding multiplies a zero), in the order of the pixel's place
//! in the 4x4 tiles the f16 kernel's calls are cut in (`TAP_ORDER`), then `FCLAMP` with the bounds
//! rounded to halves.

use crate::dwconv::dwconv_f16_f16_f16p::TAP_ORDER;
use crate::float::{self, f16};

/// Padding of an image, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Padding {
    /// Rows above.
    pub top: usize,
    /// Rows below.
    pub bottom: usize,
    /// Columns left.
    pub left: usize,
    /// Columns right.
    pub right: usize,
}

/// Output rows and columns of a 3x3 stride-1 convolution of `height x width` with `pad`.
pub fn output_shape(height: usize, width: usize, pad: Padding) -> (usize, usize) {
    (
        (height + pad.top + pad.bottom).saturating_sub(2),
        (width + pad.left + pad.right).saturating_sub(2),
    )
}

/// The f32 convolution of `src` (`height x width x channels`) with `weights` and `bias` into a new
/// image written through `out(row, col, channel, value)`.
#[allow(clippy::too_many_arguments)]
pub fn f32_3x3(
    src: &[f32],
    (height, width, channels): (usize, usize, usize),
    weights: &[f32],
    bias: &[f32],
    pad: Padding,
    (lo, hi): (f32, f32),
    mut out: impl FnMut(usize, usize, usize, f32),
) {
    let (out_h, out_w) = output_shape(height, width, pad);
    for oy in 0..out_h {
        for ox in 0..out_w {
            for ch in 0..channels {
                let mut acc = bias[ch];
                for fx in 0..3 {
                    let Some(x) = (ox + fx).checked_sub(pad.left).filter(|&x| x < width) else {
                        continue;
                    };
                    for fy in 0..3 {
                        let pixel = (oy + fy)
                            .checked_sub(pad.top)
                            .filter(|&y| y < height)
                            .map_or(0.0, |y| src[(y * width + x) * channels + ch]);
                        acc = float::fmla_za(acc, pixel, weights[(fy * 3 + fx) * channels + ch]);
                    }
                }
                out(oy, ox, ch, float::clamp_num(acc, lo, hi));
            }
        }
    }
}

/// The f16 convolution (raw halves) of `src` (`height x width x channels`) with `weights` and
/// `bias` into a new image written through `out(row, col, channel, value)`; the 4x4 tiles of
/// the summation order start at output `origin` (row, column): where a call's output starts.
#[allow(clippy::too_many_arguments)]
pub fn f16_3x3(
    src: &[u16],
    (height, width, channels): (usize, usize, usize),
    weights: &[u16],
    bias: &[u16],
    pad: Padding,
    (lo, hi): (f32, f32),
    origin: (usize, usize),
    mut out: impl FnMut(usize, usize, usize, u16),
) {
    let (out_h, out_w) = output_shape(height, width, pad);
    let (lo, hi) = (f16::from_f32(lo), f16::from_f32(hi));
    let place = |v: usize, o: usize| (v + 4 - o % 4) % 4;
    for oy in 0..out_h {
        for ox in 0..out_w {
            let order = &TAP_ORDER[place(oy, origin.0) * 4 + place(ox, origin.1)];
            for ch in 0..channels {
                let mut acc = bias[ch];
                for &tap in order {
                    let (fy, fx) = (usize::from(tap) / 3, usize::from(tap) % 3);
                    let y = (oy + fy).checked_sub(pad.top).filter(|&y| y < height);
                    let x = (ox + fx).checked_sub(pad.left).filter(|&x| x < width);
                    let pixel = match (y, x) {
                        (Some(y), Some(x)) => src[(y * width + x) * channels + ch],
                        _ => 0,
                    };
                    acc = f16::fmla(acc, weights[usize::from(tap) * channels + ch], pixel);
                }
                out(oy, ox, ch, f16::clamp_num(acc, lo, hi));
            }
        }
    }
}
