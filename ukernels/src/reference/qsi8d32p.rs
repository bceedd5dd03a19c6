//! Oracle of the llama.cpp Q8_0 x Q4_0 family (`matmul_clamp_f32_qsi8d32p_qsi4c32p`): block
//! quantization of activations, every packed layout by its address formula, and the kernels'
//! arithmetic on unpacked operands.

use crate::float;

/// How a packer finds a block's largest magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amax {
    /// `m = m > |x| ? m : |x|` in K order from 0 (the scalar C packers).
    Sequential,
    /// NaN-propagating maximum per lane `i % 4`, then lanes (0, 1) and (2, 3), then the two (the
    /// NEON 4x8sb packer).
    Lanes,
}

/// How a packer rounds `x / d` to an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Half away from zero (`roundf`).
    Away,
    /// Half to even (`FCVTNS`).
    Even,
}

/// Quantizes `x` (k values) in blocks of `bl`: `q` gets k int8 values, `d` the `k / bl` scales as
/// f16 bits. `d = amax / 127` in f32 (stored rounded to f16); values are `x * (1 / d)` rounded,
/// converted with saturation to i32 (NaN to 0), then truncated to 8 bits.
pub fn quantize_row(
    x: &[f32],
    bl: usize,
    amax: Amax,
    rounding: Rounding,
    q: &mut [i8],
    d: &mut [u16],
) {
    for (b, block) in x.chunks(bl).enumerate() {
        let m = match amax {
            Amax::Sequential => {
                let mut m = 0.0f32;
                for &v in block {
                    // C's `m > |v| ? m : |v|`: a NaN on either side takes |v|.
                    m = match m.partial_cmp(&v.abs()) {
                        Some(core::cmp::Ordering::Greater) => m,
                        _ => v.abs(),
                    };
                }
                m
            }
            Amax::Lanes => {
                let lane = |l: usize| {
                    block
                        .iter()
                        .skip(l)
                        .step_by(4)
                        .fold(0.0f32, |acc, v| float::fmax(v.abs(), acc))
                };
                float::fmax(float::fmax(lane(0), lane(1)), float::fmax(lane(2), lane(3)))
            }
        };
        let scale = m / 127.0;
        let inv = if scale == 0.0 { 0.0 } else { 1.0 / scale };
        d[b] = half::f16::from_f32(scale).to_bits();
        for (i, &v) in block.iter().enumerate() {
            let r = match rounding {
                Rounding::Away => float::round_half_away(v * inv),
                Rounding::Even => float::round_ties_even(v * inv),
            };
            q[b * bl + i] = r as i32 as i8;
        }
    }
}

/// Packs quantized rows (`q`: m x k, `d`: m x k / bl f16 bits) in the layout of the scalar and
/// 4x8sb packers, rows from 0: value (row r, K index kk) of block b at `group + b * mr * (bl + 2)
/// + 2 * mr + (kk % bl / kbl) * mr * kbl + (r % mr) * kbl + kk % kbl`, scale at
/// `group + b * mr * (bl + 2) + 2 * (r % mr)`. Rows past `m` stay as they are in `out`.
#[allow(clippy::too_many_arguments)]
pub fn pack_lhs(
    m: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kbl: usize,
    q: &[i8],
    d: &[u16],
    out: &mut [u8],
) {
    let blocks = k / bl;
    let block_bytes = mr * (bl + 2);
    for r in 0..m {
        let group = (r / mr) * blocks * block_bytes;
        let slot = r % mr;
        for b in 0..blocks {
            let base = group + b * block_bytes;
            out[base + 2 * slot..][..2].copy_from_slice(&d[r * blocks + b].to_le_bytes());
            for i in 0..bl {
                let at = base + 2 * mr + (i / kbl) * mr * kbl + slot * kbl + i % kbl;
                out[at] = q[r * k + b * bl + i] as u8;
            }
        }
    }
}

/// Packs quantized rows in the SME kernels' layout (`lhs_quant_pack_qsi8d32p_f32_neon`): per
/// group, value (r, kk) at `(kk / 4) * mr * 4 + (r % mr) * 4 + kk % 4`, then scale (r, b) at
/// `mr * k + 2 * (b * mr + r % mr)`.
pub fn pack_lhs_sme(m: usize, k: usize, bl: usize, mr: usize, q: &[i8], d: &[u16], out: &mut [u8]) {
    let blocks = k / bl;
    let stride = mr * blocks * (bl + 2);
    for r in 0..m {
        let group = (r / mr) * stride;
        let slot = r % mr;
        for kk in 0..k {
            out[group + (kk / 4) * mr * 4 + slot * 4 + kk % 4] = q[r * k + kk] as u8;
        }
        for b in 0..blocks {
            let at = group + mr * k + 2 * (b * mr + slot);
            out[at..at + 2].copy_from_slice(&d[r * blocks + b].to_le_bytes());
        }
    }
}

/// Writes Q4_0-style source rows of signed int4 weights `w` (n x k, -8..=7) with f16 block
/// scales `d` (n x k / bl) into `out`: per block the scale, then byte `j` = `(w[j] + 8) |
/// (w[j + bl / 2] + 8) << 4`.
pub fn q4_0_rows(n: usize, k: usize, bl: usize, w: &[i8], d: &[u16], out: &mut [u8]) {
    let blocks = k / bl;
    let half = bl / 2;
    let mut at = 0;
    for r in 0..n {
        for b in 0..blocks {
            out[at..at + 2].copy_from_slice(&d[r * blocks + b].to_le_bytes());
            at += 2;
            let base = r * k + b * bl;
            for j in 0..half {
                out[at] = ((w[base + j] + 8) as u8) | (((w[base + j + half] + 8) as u8) << 4);
                at += 1;
            }
        }
    }
}

/// Packs weights in the `qsi4c32pscalef16` layout for block length a multiple of `kr`: per group
/// and block, scale of column c at `2 * c`, and for value index `j < bl / 2` of the block, the
/// byte `2 * nr + (j / (kr / 2)) * nr * (kr / 2) + c * (kr / 2) + j % (kr / 2)` holds
/// `w[j] & 0xf | (w[j + bl / 2] & 0xf) << 4` (signed nibbles). Columns past `n` repeat `n - 1`.
#[allow(clippy::too_many_arguments)]
pub fn pack_rhs(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    kr: usize,
    w: &[i8],
    d: &[u16],
    out: &mut [u8],
) {
    let blocks = k / bl;
    let block_bytes = nr * (bl / 2 + 2);
    let seg = kr / 2;
    for g in 0..n.div_ceil(nr) {
        for c in 0..nr {
            let src = (g * nr + c).min(n - 1);
            for b in 0..blocks {
                let base = (g * blocks + b) * block_bytes;
                out[base + 2 * c..][..2].copy_from_slice(&d[src * blocks + b].to_le_bytes());
                for j in 0..bl / 2 {
                    let lo = w[src * k + b * bl + j] as u8 & 0x0f;
                    let hi = w[src * k + b * bl + j + bl / 2] as u8 & 0x0f;
                    out[base + 2 * nr + (j / seg) * nr * seg + c * seg + j % seg] = lo | (hi << 4);
                }
            }
        }
    }
}

/// Packs weights in the SME2 `qsi4c32ps1s0scalef16` layout: per group, value index `v` of block
/// `b` of column `c` in 4-value unit `(b * bl / 4 + v / 4) * nr + c` (2 bytes), byte `v % 4 / 2`
/// of the unit, low nibble for even `v`, as the unsigned `w + 8`; scale (b, c) at
/// `nr * k / 2 + 2 * (b * nr + c)`. Columns past `n` stay as they are in `out`.
#[allow(clippy::too_many_arguments)]
pub fn pack_rhs_ps1s0(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    w: &[i8],
    d: &[u16],
    out: &mut [u8],
) {
    let blocks = k / bl;
    let stride = nr * blocks * (bl / 2 + 2);
    for col in 0..n {
        let (g, c) = (col / nr, col % nr);
        for b in 0..blocks {
            for v in 0..bl {
                let at = g * stride + 2 * ((b * bl / 4 + v / 4) * nr + c) + (v % 4) / 2;
                let u = (w[col * k + b * bl + v] + 8) as u8;
                out[at] = if v % 2 == 0 {
                    (out[at] & 0xf0) | u
                } else {
                    (out[at] & 0x0f) | (u << 4)
                };
            }
            let at = g * stride + nr * k / 2 + 2 * (b * nr + c);
            out[at..at + 2].copy_from_slice(&d[col * blocks + b].to_le_bytes());
        }
    }
}

/// Packs weights in the SME `qsi4c32ps4s0sf16` layout: per group, value index `v` of block `b`
/// of column `c` in 4-byte packet `(b * bl / 8 + v / 8) * nr + c`, byte `v % 4`, low nibble for
/// `v % 8 < 4`, as the signed nibble of `w`; scale (b, c) at `nr * k / 2 + 2 * (b * nr + c)`,
/// `d / 16` rounded to f16. Columns past `n` stay as they are in `out`.
#[allow(clippy::too_many_arguments)]
pub fn pack_rhs_ps4s0(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    w: &[i8],
    d: &[u16],
    out: &mut [u8],
) {
    let blocks = k / bl;
    let stride = nr * blocks * (bl / 2 + 2);
    for col in 0..n {
        let (g, c) = (col / nr, col % nr);
        for b in 0..blocks {
            for v in 0..bl {
                let at = g * stride + 4 * ((b * bl / 8 + v / 8) * nr + c) + v % 4;
                let s = w[col * k + b * bl + v] as u8 & 0x0f;
                out[at] = if v % 8 < 4 {
                    (out[at] & 0xf0) | s
                } else {
                    (out[at] & 0x0f) | (s << 4)
                };
            }
            let at = g * stride + nr * k / 2 + 2 * (b * nr + c);
            let scale = half::f16::from_bits(d[col * blocks + b]).to_f32() / 16.0;
            let bits = float::f16::from_f32(scale);
            out[at..at + 2].copy_from_slice(&bits.to_le_bytes());
        }
    }
}

/// The kernels' arithmetic on unpacked operands: `lq` m x k int8 with f16 scales `ld`
/// (m x k / bl), `w` n x k weights with f16 scales `wd` (as the kernel sees them: int4 values,
/// or 16 times them with the scales divided by 16 for the `ps4s0sf16` format). For each block,
/// the integer dot product `I` becomes `f32(I)`, the scale is `f32(ld) * f32(wd)`
/// (`finish.block_scale`), and `acc = fma(f32(I), scale, acc)` from `acc = 0` (the first block
/// as `finish.block_fold` says); the result is clamped as `finish.clamp` says.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    finish: crate::kernel::Epilogue,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lq: &[i8],
    ld: &[u16],
    w: &[i8],
    wd: &[u16],
    clamp: (f32, f32),
    dst: &mut [f32],
    dst_stride: usize,
) {
    let blocks = k / bl;
    let f16 = |bits: u16| half::f16::from_bits(bits).to_f32();
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f32;
            for b in 0..blocks {
                let dot = (b * bl..(b + 1) * bl).fold(0i32, |s, kk| {
                    s.wrapping_add(lq[i * k + kk] as i32 * w[j * k + kk] as i32)
                });
                let scale = finish
                    .block_scale
                    .apply(f16(ld[i * blocks + b]), f16(wd[j * blocks + b]));
                acc = finish.block_fold.apply(b == 0, dot as f32, scale, acc);
            }
            dst[i * dst_stride + j] = finish.clamp.apply(acc, clamp.0, clamp.1);
        }
    }
}
