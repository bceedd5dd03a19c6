//! Reference of the 2-bit per-channel format (`qsu2cxp`) and its kernels, from unpacked codes:
//! every packed byte is placed by its address formula (the packers walk sources instead).
//!
//! Codes are unsigned 0..=3 (`codes[n][k]`); a table maps code `c` to `lut[c]`. The kernels read
//! each table entry as int8 (its low byte); the row sums are KleidiAI's (see
//! [`crate::pack::rhs_pack_nxk_qsu2cxp`]): pairwise int8 sums of the truncated entries, except the
//! `4x4` packer's last group, which adds the full entries.

use super::qai8dx;
use crate::kernel::Epilogue;
use crate::pack::rhs_pack_nxk_qsu2cxp::Variant;

/// The row sum a packer writes for a column with `codes` (`k` of them, a multiple of 32), in a
/// group whose sums take the scalar path (`scalar`) or the vectorised one.
pub fn row_sum(codes: &[u8], lut: &[i32; 4], scalar: bool) -> i32 {
    let mut sum = 0i32;
    if scalar {
        for &c in codes {
            sum = sum.wrapping_add(lut[usize::from(c)]);
        }
        return sum;
    }
    // A source byte holds 4 consecutive codes: the first two and the last two are paired.
    for quad in codes.chunks_exact(4) {
        let t = |i: usize| lut[usize::from(quad[i])] as i8;
        sum = sum.wrapping_add(i32::from(t(0).wrapping_add(t(1))));
        sum = sum.wrapping_add(i32::from(t(2).wrapping_add(t(3))));
    }
    sum
}

/// Packs `codes` (n x k) as `variant` with `nr` columns per group; `out` must be the packed size.
#[allow(clippy::too_many_arguments)]
pub fn pack(
    variant: Variant,
    n: usize,
    k: usize,
    nr: usize,
    codes: &[u8],
    lut: &[i32; 4],
    scale: &[f32],
    bias: Option<&[f32]>,
    out: &mut [u8],
) {
    let data = nr * k / 4;
    let stride = data + 12 * nr;
    for g in 0..n.div_ceil(nr) {
        let base = g * stride;
        let scalar = variant == Variant::P4x4 && g * nr + nr >= n;
        for col in 0..nr {
            let j = g * nr + col;
            let real = j < n;
            // The column whose codes this one holds: none (4x4 padding) or the last one.
            let from = match variant {
                Variant::P4x4 if !real => None,
                _ => Some(j.min(n - 1)),
            };
            let code = |kk: usize| from.map_or(2u8, |r| codes[r * k + kk]);
            for kk in 0..k {
                let (at, bit) = match variant {
                    // Block kk / 16, column col, byte kk % 4, slot (kk % 16) / 4.
                    Variant::P4x4 => (16 * (kk / 16) + 4 * col + kk % 4, 2 * ((kk % 16) / 4)),
                    // 4-value block kk / 4, column col, slot kk % 4.
                    Variant::P4vlx4 => ((kk / 4) * nr + col, 2 * (kk % 4)),
                };
                out[base + at] = (out[base + at] & !(3 << bit)) | (code(kk) << bit);
            }
            let sum = from.map_or(0, |r| row_sum(&codes[r * k..(r + 1) * k], lut, scalar));
            let (s, b) = if real {
                (scale[j], bias.map_or(0.0, |b| b[j]))
            } else {
                (0.0, 0.0)
            };
            let t = base + data;
            out[t + 4 * col..t + 4 * col + 4].copy_from_slice(&sum.to_le_bytes());
            out[t + 4 * (nr + col)..t + 4 * (nr + col) + 4].copy_from_slice(&s.to_le_bytes());
            out[t + 4 * (2 * nr + col)..t + 4 * (2 * nr + col) + 4]
                .copy_from_slice(&b.to_le_bytes());
        }
    }
}

/// The sums `variant` writes for the `n` columns of `codes` with `nr` columns per group.
pub fn row_sums(
    variant: Variant,
    n: usize,
    k: usize,
    nr: usize,
    codes: &[u8],
    lut: &[i32; 4],
) -> impl Iterator<Item = i32> {
    (0..n).map(move |j| {
        let scalar = variant == Variant::P4x4 && (j / nr) * nr + nr >= n;
        row_sum(&codes[j * k..(j + 1) * k], lut, scalar)
    })
}

/// `dst[i][j]` (row-major, `dst_stride` elements a row) for the quantized LHS `lq` (m x k) and
/// `rows`, weights `lut[codes[j][kk]] as i8`, the packer's sums `rsum`, per-channel `scale` and
/// `bias`: `acc = sum(lq * w) + lhs_offset * rsum` (wrapping i32), then the kernel's `finish`
/// with `scale[j] * lhs_scale`.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    finish: Epilogue,
    (m, n, k): (usize, usize, usize),
    lq: &[i8],
    rows: &[qai8dx::Row],
    codes: &[u8],
    lut: &[i32; 4],
    rsum: &[i32],
    scale: &[f32],
    bias: Option<&[f32]>,
    clamp: (f32, f32),
    dst: &mut [f32],
    dst_stride: usize,
) {
    let w8 = lut.map(|v| v as i8);
    for i in 0..m {
        for j in 0..n {
            let mut dot = 0i32;
            for kk in 0..k {
                let w = w8[usize::from(codes[j * k + kk])];
                dot = dot.wrapping_add(i32::from(lq[i * k + kk]) * i32::from(w));
            }
            let acc = dot.wrapping_add((-rows[i].zero_point).wrapping_mul(rsum[j]));
            let y = finish.scale_bias.apply_each(
                acc as f32,
                scale[j],
                rows[i].scale,
                bias.map_or(0.0, |b| b[j]),
            );
            dst[i * dst_stride + j] = finish.clamp.apply(y, clamp.0, clamp.1);
        }
    }
}
