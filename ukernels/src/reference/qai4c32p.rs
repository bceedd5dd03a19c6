//! Oracle of the asymmetric int4 families (`matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p`): block
//! quantization of activations with f32 scales and sums, every packed layout by its address
//! formula, and the kernels' arithmetic on unpacked operands.

use crate::float;
use crate::kernel::Epilogue;
use crate::matmul::output::Output;

/// How an LHS packer rounds `x * s` to an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Half to even (`FCVTNS`, the f32 packer).
    Even,
    /// Half away from zero (`roundf`, the f16 packer).
    Away,
}

/// Quantizes one row `x` (k values, already widened to f32) in blocks of `bl`. `lanes` is the
/// packer's vector width for the block maximum (4 for f32 input, 8 for f16), which only decides
/// which NaN a block with several keeps. Per block: `amax` (NaN-propagating), `s = 127 / amax`
/// (0 for `amax == 0`), `r = 1 / s` (0 for `s == 0`), `q = clamp(round(x * s), -128, 127)`
/// (saturating, NaN to 0), `sum = (float)sum(q) * r`, scale `r`.
pub fn quantize_row(
    x: &[f32],
    bl: usize,
    lanes: usize,
    rounding: Rounding,
    q: &mut [i8],
    scale: &mut [f32],
    sum: &mut [f32],
) {
    for (b, block) in x.chunks(bl).enumerate() {
        // Lane maxima, then a pairwise reduction (FMAXV).
        let start = if lanes == 4 { -f32::MAX } else { -65504.0 };
        let mut lane = [start; 8];
        for chunk in block.chunks(8) {
            if lanes == 4 {
                for j in 0..4 {
                    lane[j] = float::fmax(chunk[j].abs(), float::fmax(lane[j], chunk[4 + j].abs()));
                }
            } else {
                for j in 0..8 {
                    lane[j] = float::fmax(lane[j], chunk[j].abs());
                }
            }
        }
        let mut width = lanes;
        while width > 1 {
            width /= 2;
            for j in 0..width {
                lane[j] = float::fmax(lane[2 * j], lane[2 * j + 1]);
            }
        }
        let amax = lane[0];
        let s = if amax == 0.0 { 0.0 } else { 127.0 / amax };
        let r = if s == 0.0 { 0.0 } else { 1.0 / s };
        let mut total = 0i32;
        for (i, &v) in block.iter().enumerate() {
            let t = match rounding {
                Rounding::Even => float::round_ties_even(v * s),
                Rounding::Away => float::round_half_away(v * s),
            };
            let v = (t as i32).clamp(-128, 127);
            total += v;
            q[b * bl + i] = v as i8;
        }
        scale[b] = r;
        sum[b] = total as f32 * r;
    }
}

/// Packs quantized rows (`q`: m x k, `scale`/`sum`: m x k / bl) from row 0: value (r, kk) of block
/// b at `group + b * mr * (bl + 8) + (kk % bl / kbl) * mr * kbl + (r % mr) * kbl + kk % kbl`, the
/// sum at `group + b * mr * (bl + 8) + mr * bl + 4 * (r % mr)`, the scale `4 * mr` bytes later.
/// Rows past `m` stay as they are in `out`.
#[allow(clippy::too_many_arguments)]
pub fn pack_lhs(
    m: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kbl: usize,
    q: &[i8],
    scale: &[f32],
    sum: &[f32],
    out: &mut [u8],
) {
    let blocks = k / bl;
    let block_bytes = mr * (bl + 8);
    for r in 0..m {
        let group = (r / mr) * blocks * block_bytes;
        let slot = r % mr;
        for b in 0..blocks {
            let base = group + b * block_bytes;
            for i in 0..bl {
                let at = base + (i / kbl) * mr * kbl + slot * kbl + i % kbl;
                out[at] = q[r * k + b * bl + i] as u8;
            }
            let p = base + mr * bl + 4 * slot;
            out[p..p + 4].copy_from_slice(&sum[r * blocks + b].to_le_bytes());
            out[p + 4 * mr..p + 4 * mr + 4].copy_from_slice(&scale[r * blocks + b].to_le_bytes());
        }
    }
}

/// Source rows of unsigned nibbles `u` (n x k, 0..=15): nibble index `i` of the matrix in byte
/// `i / 2` of `out` (`u.len() / 2` bytes), the high nibble for even `i` when `even_high`
/// (`s0s1`), the low one otherwise.
pub fn source(u: &[u8], even_high: bool, out: &mut [u8]) {
    out.fill(0);
    for (i, &v) in u.iter().enumerate() {
        let high = (i % 2 == 0) == even_high;
        out[i / 2] |= if high { v << 4 } else { v };
    }
}

/// The packed form of the NEON kernels (`qai4c32p`): per group and block, value `v` of column
/// `c` is nibble `t / 16` (0 low, 1 high) of byte `i = 16 * (v / 32) + v % 16` of the column,
/// stored at `(i / c_len) * nr * c_len + c * c_len + i % c_len` (`c_len = kr / 2`) as the signed
/// `u - 8`; then `nr` zero offsets, `nr` scales / 16; after all blocks `nr` biases. Columns past
/// `n` repeat column `n - 1`.
#[allow(clippy::too_many_arguments)]
pub fn pack_rhs(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    kr: usize,
    u: &[u8],
    zero: &[f32],
    scale: &[f32],
    bias: Option<&[f32]>,
    out: &mut [u8],
) {
    pack_rhs_layout(n, k, bl, nr, kr / 2, true, u, zero, scale, bias, out);
}

/// The SME2 `ps1s0nrx4` form: value `v` of column `c` is the low (even `v`) or high nibble of
/// byte `i = v / 2` at `(i / 2) * nr * 2 + c * 2 + i % 2`, unsigned; scales copied; biases of
/// columns past `n` are 0.
#[allow(clippy::too_many_arguments)]
pub fn pack_rhs_ps1s0(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    u: &[u8],
    zero: &[f32],
    scale: &[f32],
    bias: Option<&[f32]>,
    out: &mut [u8],
) {
    pack_rhs_layout(n, k, bl, nr, 2, false, u, zero, scale, bias, out);
}

#[allow(clippy::too_many_arguments)]
fn pack_rhs_layout(
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
    c_len: usize,
    neon: bool,
    u: &[u8],
    zero: &[f32],
    scale: &[f32],
    bias: Option<&[f32]>,
    out: &mut [u8],
) {
    let blocks = k / bl;
    let block_bytes = nr * (bl / 2 + 8);
    let stride = blocks * block_bytes + 4 * nr;
    for g in 0..n.div_ceil(nr) {
        for c in 0..nr {
            let src = (g * nr + c).min(n - 1);
            for b in 0..blocks {
                let base = g * stride + b * block_bytes;
                for v in 0..bl {
                    let (i, high) = if neon {
                        (16 * (v / 32) + v % 16, v % 32 >= 16)
                    } else {
                        (v / 2, v % 2 == 1)
                    };
                    let at = base + (i / c_len) * nr * c_len + c * c_len + i % c_len;
                    let mut nib = u[src * k + b * bl + v];
                    if neon {
                        nib ^= 8;
                    }
                    if high {
                        out[at] = (out[at] & 0x0f) | (nib << 4);
                    } else {
                        out[at] = (out[at] & 0xf0) | nib;
                    }
                }
                let s = scale[src * blocks + b] * if neon { 0.0625 } else { 1.0 };
                let p = base + nr * bl / 2;
                out[p + 4 * c..p + 4 * c + 4]
                    .copy_from_slice(&zero[src * blocks + b].to_le_bytes());
                out[p + 4 * (nr + c)..p + 4 * (nr + c) + 4].copy_from_slice(&s.to_le_bytes());
            }
            let padding = g * nr + c >= n;
            let bv = bias.map_or(0.0, |b| if padding && !neon { 0.0 } else { b[src] });
            let p = g * stride + blocks * block_bytes + 4 * c;
            out[p..p + 4].copy_from_slice(&bv.to_le_bytes());
        }
    }
}

/// What sets one kernel of the families apart from another in its arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arithmetic {
    /// The weights in the SME2 kernels' `ps1s0` form: products with `u - 8` and the scales as
    /// given; otherwise the NEON kernels' products with `16 * (u - 8)` and scales times 1/16.
    pub sequential: bool,
    /// The kernel's clamp, first-block fold and where its sums wait between blocks
    /// (`scale_bias` does not apply: these results take no final scale).
    pub finish: Epilogue,
    /// The element type of the destination.
    pub output: Output,
}

/// The kernels' arithmetic on unpacked operands: `lq` m x k int8 with f32 scales `ls` and sums
/// `lsum` (m x k / bl), `u` n x k unsigned nibbles with f32 scales `rs` and zero offsets `rz`
/// (n x k / bl), optional `bias`. Per block, from `acc = 0`: `I = sum(lq * (u - 8))`,
/// `acc = fma(rz, lsum, acc)` (a plain product for the first block where `block_fold` says
/// so), `acc = fma(f32(I), rs * ls, acc)` (`f32(16 * I)` and `(rs * 0.0625) * ls` for the NEON
/// form), rounded to the output type where the partials wait in the destination; then
/// `acc + bias` and the kernel's clamp. Results are f32, before the narrowing to a 16-bit
/// output.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    how: Arithmetic,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lq: &[i8],
    ls: &[f32],
    lsum: &[f32],
    u: &[u8],
    rs: &[f32],
    rz: &[f32],
    bias: Option<&[f32]>,
    clamp: (f32, f32),
    dst: &mut [f32],
) {
    let blocks = k / bl;
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f32;
            for b in 0..blocks {
                let dot = (b * bl..(b + 1) * bl).fold(0i32, |s, kk| {
                    s.wrapping_add(lq[i * k + kk] as i32 * (u[j * k + kk] as i32 - 8))
                });
                let (l, r) = (i * blocks + b, j * blocks + b);
                let (x, scale) = if how.sequential {
                    (dot as f32, rs[r] * ls[l])
                } else {
                    (dot.wrapping_mul(16) as f32, (rs[r] * 0.0625) * ls[l])
                };
                acc = how.finish.block_fold.apply(b == 0, rz[r], lsum[l], acc);
                acc = libm::fmaf(x, scale, acc);
                acc = how.finish.partials.keep(acc, how.output);
            }
            let y = acc + bias.map_or(0.0, |b| b[j]);
            dst[i * n + j] = how.finish.clamp.apply(y, clamp.0, clamp.1);
        }
    }
}
