//! Scalar oracle written from the format specification (KleidiAI 1.30, see DESIGN.md §1.3).
//!
//! It works on unpacked data and places every element by the documented address formula, the
//! reverse direction from the production packers, so a shared mistake is unlikely. Tests compare
//! production packers byte for byte and kernels bit for bit against it.

pub mod f16p_qsi4c32p;
pub mod qai4c32p;
pub mod qai8;
pub mod qsi8d32p;
pub mod qsu2cxp;

/// Per-row dynamic asymmetric int8 quantization (`qai8dx`).
pub mod qai8dx {
    /// Quantization of one row.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Row {
        /// Dequantization scale (`(rmax - rmin) / 255` as the reciprocal of the multiplier).
        pub scale: f32,
        /// Zero point in [-128, 127].
        pub zero_point: i32,
    }

    /// Quantizes `x` into `q` (same length); returns the row's parameters.
    ///
    /// Range includes 0; multiplier `255 / (rmax - rmin)` (1 for a constant row); zero point
    /// picked from the endpoint with the smaller error, clamped, rounded half to even; values
    /// rounded half away from zero and saturated.
    pub fn quantize_row(x: &[f32], q: &mut [i8]) -> Row {
        let (mut lo, mut hi) = (0.0f32, 0.0f32);
        for &v in x {
            lo = if v < lo { v } else { lo };
            hi = if v > hi { v } else { hi };
        }
        let mult = if lo == hi { 1.0 } else { 255.0 / (hi - lo) };
        let scale = if mult != 0.0 { 1.0 / mult } else { 0.0 };
        let (dlo, dhi) = (lo * mult, hi * mult);
        let zp = if (-128.0 + dlo) + (127.0 + dhi) > 0.0 {
            -128.0 - dlo
        } else {
            127.0 - dhi
        };
        let zero_point = crate::float::round_ties_even(zp.clamp(-128.0, 127.0)) as i32;
        for (qv, &v) in q.iter_mut().zip(x) {
            // `as` saturates (a multiplier that overflowed to infinity meets denormal rows).
            let q = crate::float::round_half_away(v * mult) as i32;
            *qv = q.saturating_add(zero_point).clamp(-128, 127) as i8;
        }
        Row { scale, zero_point }
    }
}

/// Packed-layout builders.
pub mod pack {
    /// K after padding: whole 32-value chunks (independent of `kr`, `sr`).
    pub fn k_internal(k: usize, _kr: usize, _sr: usize) -> usize {
        k.div_ceil(32) * 32
    }

    /// Packs quantized rows into `qai8dxp` (rows from `m_idx_start = 0`).
    ///
    /// `lq` is m x k, `rows` the per-row parameters; `out` must be the packed size. Padding K
    /// repeats the last value; rows past `m` in the last group stay as they are in `out`.
    pub fn qai8dxp(
        m: usize,
        k: usize,
        mr: usize,
        kr: usize,
        sr: usize,
        lq: &[i8],
        rows: &[super::qai8dx::Row],
        out: &mut [u8],
    ) {
        let k_int = k_internal(k, kr, sr);
        let kbl = kr / sr;
        let stride = mr * (k_int + 8);
        for i in 0..m {
            let (g, r) = (i / mr, i % mr);
            let base = g * stride;
            for kk in 0..k_int {
                let v = lq[i * k + kk.min(k - 1)];
                out[base + ((kk / kbl) * mr + r) * kbl + kk % kbl] = v as u8;
            }
            let t = base + mr * k_int;
            out[t + 4 * r..t + 4 * r + 4].copy_from_slice(&(-rows[i].zero_point).to_le_bytes());
            out[t + 4 * (mr + r)..t + 4 * (mr + r) + 4]
                .copy_from_slice(&rows[i].scale.to_le_bytes());
        }
    }

    /// Packs signed int4 weights `w` (n x k, values in -8..=7) into `qsi4cxp`.
    ///
    /// Each K value is placed by the inverse of the packer's walk: within a 32-value chunk `c`,
    /// value `i < 16` is the low nibble and `16 + i` the high nibble of column byte `16c + i`,
    /// which sits in super-block `(16c + i) / blen` at byte `(16c + i) % blen` of the column.
    pub fn qsi4cxp(
        n: usize,
        k: usize,
        nr: usize,
        kr: usize,
        sr: usize,
        w: &[i8],
        scale: &[f32],
        bias: Option<&[f32]>,
        out: &mut [u8],
    ) {
        let k_int = k_internal(k, kr, sr);
        let blen = kr / sr;
        let data = nr * k_int / 2;
        let stride = data + 12 * nr;
        for g in 0..n.div_ceil(nr) {
            let base = g * stride;
            for col in 0..nr {
                let src = (g * nr + col).min(n - 1);
                let mut sum = 0i32;
                for kk in 0..k_int {
                    let v = if kk < k { w[src * k + kk] } else { 0 };
                    let (chunk, within) = (kk / 32, kk % 32);
                    let col_byte = 16 * chunk + within % 16;
                    let (sb, j) = (col_byte / blen, col_byte % blen);
                    let at = base + (sb * nr + col) * blen + j;
                    if at >= base + data {
                        continue; // K tail a half-width chunk cannot hold
                    }
                    sum += v as i32;
                    let nib = (v as u8) & 0x0f;
                    if within < 16 {
                        out[at] = (out[at] & 0xf0) | nib;
                    } else {
                        out[at] = (out[at] & 0x0f) | (nib << 4);
                    }
                }
                let b = bias.map_or(0.0, |b| b[src]);
                super::put_column_trailer(
                    &mut out[base + data..],
                    nr,
                    col,
                    sum * 16,
                    scale[src] * 0.0625,
                    b,
                );
            }
        }
    }
}

/// Reference for `matmul_clamp_f32_qai8dxp_qsi4cxp` on unpacked operands.
///
/// `lq` m x k int8 with per-row `rows`; `w` n x k int4 values; per-channel `scale` and `bias`.
/// Uses the documented arithmetic: integer dot product with the zero point folded in through the
/// weight sum, then, for kernels reading the `s16s0` layout (`by_16`), which compute with 16 x
/// the weights, `f32(acc * 16) * ((scale / 16) * lhs_scale) + bias`, and for those reading the
/// sequential-nibble layout of KleidiAI's SME2 kernels `f32(acc) * (scale * lhs_scale) + bias`;
/// the multiply-add and the clamp as the kernel's epilogue `finish` does them.
/// `dst` is row-major with `dst_stride` elements per row; only the m x n region is written.
#[allow(clippy::too_many_arguments)]
pub fn matmul_f32_qai8dx_qsi4cx(
    finish: crate::kernel::Epilogue,
    by_16: bool,
    m: usize,
    n: usize,
    k: usize,
    lq: &[i8],
    rows: &[qai8dx::Row],
    w: &[i8],
    scale: &[f32],
    bias: Option<&[f32]>,
    clamp: (f32, f32),
    dst: &mut [f32],
    dst_stride: usize,
) {
    let unit = if by_16 { 16 } else { 1 };
    for i in 0..m {
        for j in 0..n {
            let mut dot = 0i32;
            let mut wsum = 0i32;
            for kk in 0..k {
                dot += lq[i * k + kk] as i32 * w[j * k + kk] as i32;
                wsum += w[j * k + kk] as i32;
            }
            let acc = (dot * unit).wrapping_add((-rows[i].zero_point).wrapping_mul(wsum * unit));
            let rscale = if by_16 { scale[j] * 0.0625 } else { scale[j] };
            let y = finish.scale_bias.apply(
                acc as f32,
                rscale * rows[i].scale,
                bias.map_or(0.0, |b| b[j]),
            );
            dst[i * dst_stride + j] = finish.clamp.apply(y, clamp.0, clamp.1);
        }
    }
}

/// Packs int8 weights `w` (n x k) into `qsi8cxp`: element (col, k) at
/// `(k / kr) * nr * kr + col * kr + k % kr`, zero K padding to a multiple of 32, then per column
/// `lhs_zero_point * sum(w)`, scale and bias; columns past `n` repeat column `n - 1`.
#[allow(clippy::too_many_arguments)]
pub fn pack_qsi8cxp(
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    w: &[i8],
    scale: &[f32],
    bias: Option<&[f32]>,
    lhs_zero_point: i32,
    out: &mut [u8],
) {
    let k_int = pack::k_internal(k, kr, 1);
    let stride = nr * (k_int + 12);
    for g in 0..n.div_ceil(nr) {
        let base = g * stride;
        for col in 0..nr {
            let src = (g * nr + col).min(n - 1);
            let row = &w[src * k..(src + 1) * k];
            for kk in 0..k_int {
                let v = if kk < k { row[kk] } else { 0 };
                out[base + (kk / kr) * nr * kr + col * kr + kk % kr] = v as u8;
            }
            let sum: i32 = row.iter().map(|&v| v as i32).sum();
            let b = bias.map_or(0.0, |b| b[src]);
            put_column_trailer(
                &mut out[base + nr * k_int..],
                nr,
                col,
                sum * lhs_zero_point,
                scale[src],
                b,
            );
        }
    }
}

/// Reference for `matmul_clamp_f32_qai8dxp_qsi8cxp` on unpacked operands (see
/// [`matmul_f32_qai8dx_qsi4cx`]; weights are int8 and unscaled), finishing each output as the
/// kernel's epilogue `finish` does (`f32(acc) * (scale * lhs_scale) + bias`, one or two
/// roundings, then the clamp).
#[allow(clippy::too_many_arguments)]
pub fn matmul_f32_qai8dx_qsi8cx(
    finish: crate::kernel::Epilogue,
    m: usize,
    n: usize,
    k: usize,
    lq: &[i8],
    rows: &[qai8dx::Row],
    w: &[i8],
    scale: &[f32],
    bias: Option<&[f32]>,
    clamp: (f32, f32),
    dst: &mut [f32],
    dst_stride: usize,
) {
    for i in 0..m {
        for j in 0..n {
            let mut dot = 0i32;
            let mut wsum = 0i32;
            for kk in 0..k {
                dot += lq[i * k + kk] as i32 * w[j * k + kk] as i32;
                wsum += w[j * k + kk] as i32;
            }
            let acc = dot.wrapping_add((-rows[i].zero_point).wrapping_mul(wsum));
            let y = finish.scale_bias.apply(
                acc as f32,
                scale[j] * rows[i].scale,
                bias.map_or(0.0, |b| b[j]),
            );
            dst[i * dst_stride + j] = finish.clamp.apply(y, clamp.0, clamp.1);
        }
    }
}

/// Packs signed int4 weights `w` (n x k) into the sequential-nibble `qsi4cxps1s0` format: per
/// K block of `kr`, per column, `kr / 2` bytes with K `2i` low and `2i + 1` high; then plain
/// sums, scales and biases; columns past `n` all zero.
#[allow(clippy::too_many_arguments)]
pub fn pack_qsi4cxps1s0(
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    w: &[i8],
    scale: &[f32],
    bias: Option<&[f32]>,
    out: &mut [u8],
) {
    let k_int = pack::k_internal(k, kr, 1);
    let stride = nr * (k_int / 2 + 12);
    for g in 0..n.div_ceil(nr) {
        let base = g * stride;
        for col in 0..nr {
            let j = g * nr + col;
            let v = |kk: usize| if j < n && kk < k { w[j * k + kk] } else { 0 };
            let mut sum = 0i32;
            for kk in 0..k_int {
                sum += v(kk) as i32;
                let byte = base + (kk / kr) * nr * (kr / 2) + col * (kr / 2) + (kk % kr) / 2;
                let nib = (v(kk) as u8) & 0x0f;
                out[byte] = if kk % 2 == 0 {
                    (out[byte] & 0xf0) | nib
                } else {
                    (out[byte] & 0x0f) | (nib << 4)
                };
            }
            let (s, b) = if j < n {
                (scale[j], bias.map_or(0.0, |b| b[j]))
            } else {
                (0.0, 0.0)
            };
            put_column_trailer(&mut out[base + nr * k_int / 2..], nr, col, sum, s, b);
        }
    }
}

/// Stores column `col` of a per-channel RHS trailer (`nr` sums, then `nr` scales, then `nr`
/// biases, little endian) at the start of `trailer`.
fn put_column_trailer(trailer: &mut [u8], nr: usize, col: usize, sum: i32, scale: f32, bias: f32) {
    trailer[4 * col..][..4].copy_from_slice(&sum.to_le_bytes());
    trailer[4 * (nr + col)..][..4].copy_from_slice(&scale.to_le_bytes());
    trailer[4 * (2 * nr + col)..][..4].copy_from_slice(&bias.to_le_bytes());
}

/// How a `qsi4c32p` packer accumulates its f32 row sums (the bits can differ in the last place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumOrder {
    /// One `d * partial` per `kr / sr`-byte segment (the scalar packers).
    PerSegment,
    /// One `d * partial` per 32-value chunk (the NEON `nrx4` / `nrx8` packers).
    PerChunk,
    /// Per segment, the sum of `d * (low + high)` over its bytes (the `kxn` packer; equal to
    /// `PerSegment` for finite, moderate scales).
    PerPair,
    /// `fma(partial, d, sum)` per 32-value chunk (the `nxk` `ps1s0nrx4` packer).
    PerChunkFused,
    /// `fma(partial, d, sum)` per 4 consecutive K values (the `kxn` `ps1s0nrx4` packer).
    PerQuadFused,
}

/// f32 row sum of one `qsi4c32p` column: `sum over blocks b of d_b * sum_{k in b} w` in the
/// packer's order, with partial sums over `2 * blen` values (segments) or 32 (chunks), or (the
/// fused orders) over runs of consecutive K values, each folded in with one `fma`.
pub fn qsi4c32p_row_sum(w: &[i8], d: &[u16], bl: usize, blen: usize, order: SumOrder) -> f32 {
    let part = match order {
        SumOrder::PerSegment | SumOrder::PerPair => blen,
        _ => 16,
    };
    let fused_run = match order {
        SumOrder::PerChunkFused => Some(32),
        SumOrder::PerQuadFused => Some(4),
        _ => None,
    };
    let mut sum = 0.0f32;
    for (b, &bits) in d.iter().enumerate() {
        let scale = f32::from_bits((bits as u32) << 16);
        if let Some(run) = fused_run {
            for values in w[b * bl..(b + 1) * bl].chunks(run) {
                let partial: i32 = values.iter().map(|&v| v as i32).sum();
                sum = libm::fmaf(partial as f32, scale, sum);
            }
            continue;
        }
        for c in 0..bl / 32 {
            let chunk = &w[b * bl + 32 * c..][..32];
            for s in 0..16 / part {
                let pair = |j: usize| chunk[s * part + j] as i32 + chunk[16 + s * part + j] as i32;
                if order == SumOrder::PerPair {
                    sum += (0..part).fold(0.0f32, |acc, j| acc + pair(j) as f32 * scale);
                } else {
                    sum += (0..part).map(pair).sum::<i32>() as f32 * scale;
                }
            }
        }
    }
    sum
}

/// Packs signed int4 weights `w` (n x k) with bf16 block scales `d` (n x k / bl, raw bits) into
/// `qsi4c32p`: per group and block, value (col, k) of chunk `c` at data byte
/// `((c * 16 + (k % 16)) / blen * nr + col) * blen + (k % 16) % blen` (low nibble for `k % 32 <
/// 16`, high otherwise), then the block's `nr` scales; after the blocks, row sums and biases.
/// Columns past `n` repeat column `n - 1`. With `sequential` nibbles (the `ps1s0` packers of
/// the SME2 kernels) value (col, k) of a block is instead at data byte `(k / 4 * nr + col) * 2 +
/// (k % 4) / 2`, low nibble for even `k`.
#[allow(clippy::too_many_arguments)]
pub fn pack_qsi4c32p(
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    w: &[i8],
    d: &[u16],
    bias: Option<&[f32]>,
    order: SumOrder,
    sequential: bool,
    out: &mut [u8],
) {
    let blen = kr / sr;
    let blocks = k / bl;
    let block_bytes = nr * (bl / 2 + 2);
    let stride = blocks * block_bytes + 8 * nr;
    for g in 0..n.div_ceil(nr) {
        let base = g * stride;
        for col in 0..nr {
            let src = (g * nr + col).min(n - 1);
            let row = &w[src * k..(src + 1) * k];
            let scales = &d[src * blocks..(src + 1) * blocks];
            for (kk, &v) in row.iter().enumerate() {
                let (b, within) = (kk / bl, kk % bl);
                let (c, i) = (within / 32, within % 32);
                let col_byte = 16 * c + i % 16;
                let (at, low) = if sequential {
                    (
                        (within / 4 * nr + col) * 2 + within % 4 / 2,
                        within % 2 == 0,
                    )
                } else {
                    (
                        (col_byte / blen * nr + col) * blen + col_byte % blen,
                        i < 16,
                    )
                };
                let at = base + b * block_bytes + at;
                let nib = (v as u8) & 0x0f;
                out[at] = if low {
                    (out[at] & 0xf0) | nib
                } else {
                    (out[at] & 0x0f) | (nib << 4)
                };
            }
            for (b, &s) in scales.iter().enumerate() {
                let at = base + b * block_bytes + nr * bl / 2 + 2 * col;
                out[at..at + 2].copy_from_slice(&s.to_le_bytes());
            }
            let t = base + blocks * block_bytes;
            let sum = qsi4c32p_row_sum(row, scales, bl, blen, order);
            out[t + 4 * col..][..4].copy_from_slice(&sum.to_le_bytes());
            let b = bias.map_or(0.0, |b| b[src]);
            out[t + 4 * (nr + col)..][..4].copy_from_slice(&b.to_le_bytes());
        }
    }
}

/// Reference for `matmul_clamp_f32_qai8dxp_qsi4c32p` on unpacked operands: per block an integer
/// dot product folded in with a fused multiply-add by the block scale (the first block as
/// `finish.block_fold` says), then the zero-point correction `fma(rsum, -zero_point, acc)`, the
/// LHS scale and the bias (`finish.scale_bias`), and the clamp (`finish.clamp`).
/// `rsum` are the packed row sums ([`qsi4c32p_row_sum`]).
#[allow(clippy::too_many_arguments)]
pub fn matmul_f32_qai8dx_qsi4c32(
    finish: crate::kernel::Epilogue,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lq: &[i8],
    rows: &[qai8dx::Row],
    w: &[i8],
    d: &[u16],
    rsum: &[f32],
    bias: Option<&[f32]>,
    clamp: (f32, f32),
    dst: &mut [f32],
    dst_stride: usize,
) {
    let blocks = k / bl;
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f32;
            for b in 0..blocks {
                let dot: i32 = (b * bl..(b + 1) * bl)
                    .map(|kk| lq[i * k + kk] as i32 * w[j * k + kk] as i32)
                    .sum();
                let scale = f32::from_bits((d[j * blocks + b] as u32) << 16);
                acc = finish.block_fold.apply(b == 0, dot as f32, scale, acc);
            }
            acc = libm::fmaf(rsum[j], -rows[i].zero_point as f32, acc);
            let y = finish
                .scale_bias
                .apply(acc, rows[i].scale, bias.map_or(0.0, |b| b[j]));
            dst[i * dst_stride + j] = finish.clamp.apply(y, clamp.0, clamp.1);
        }
    }
}

/// The float GEMM families with the bias packed in front of the RHS (`matmul_clamp_f32_f32_f32p`):
/// packing from a K x N matrix and the result, each element computed on its own.
pub mod float_gemm {
    use crate::float;

    /// Packs the K x N matrix `w` (element (kk, j) at `w[kk * n + j]`, raw bits of `bytes`-byte
    /// values) and the optional `bias` into `out`, which must be the packed size of `n` columns
    /// in groups of `nr`. Every packed slot is filled from its address: group `g`, row `r` (0 is
    /// the bias, `1 + kk` holds K value `kk`), column `c`; columns past `n` are zero.
    pub fn pack(
        n: usize,
        k: usize,
        nr: usize,
        bytes: usize,
        w: &[u32],
        bias: Option<&[u32]>,
        out: &mut [u8],
    ) {
        let per_group = (k + 1) * nr;
        assert_eq!(out.len(), n.div_ceil(nr) * per_group * bytes);
        for (slot, dst) in out.chunks_exact_mut(bytes).enumerate() {
            let (g, within) = (slot / per_group, slot % per_group);
            let (r, c) = (within / nr, within % nr);
            let j = g * nr + c;
            let v = match (j < n, r) {
                (false, _) => 0,
                (true, 0) => bias.map_or(0, |b| b[j]),
                (true, r) => w[(r - 1) * n + j],
            };
            dst.copy_from_slice(&v.to_le_bytes()[..bytes]);
        }
    }

    /// `dst[i * n + j]` for `i < m`, `j < n`: starting from `bias[j]` (0 without bias), one fused
    /// multiply-add `acc += w[kk][j] * lhs[i][kk]` per K value in order (Arm NaN rules), then
    /// `FMIN` with `clamp.1` and `FMAX` with `clamp.0`. LHS row `i` starts at `lhs[i * lhs_stride]`.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul(
        m: usize,
        n: usize,
        k: usize,
        lhs: &[f32],
        lhs_stride: usize,
        w: &[f32],
        bias: Option<&[f32]>,
        clamp: (f32, f32),
        dst: &mut [f32],
    ) {
        let ops = (float::fmla as Op, float::clamp_upper_first as Op);
        chain(m, n, k, (lhs, lhs_stride), w, bias, clamp, dst, ops);
    }

    /// As [`matmul`], for KleidiAI's SME2 f32 GEMVs: each fused multiply-add into a ZA array
    /// vector gives the default NaN for any NaN ([`float::fmla_za`]; the bias enters ZA by a
    /// move, unchanged), and the clamp is `FCLAMP` (`FMAXNM` with `clamp.0`, then `FMINNM` with
    /// `clamp.1`).
    #[allow(clippy::too_many_arguments)]
    pub fn matmul_za(
        m: usize,
        n: usize,
        k: usize,
        lhs: &[f32],
        lhs_stride: usize,
        w: &[f32],
        bias: Option<&[f32]>,
        clamp: (f32, f32),
        dst: &mut [f32],
    ) {
        let ops = (float::fmla_za as Op, float::clamp_num as Op);
        chain(m, n, k, (lhs, lhs_stride), w, bias, clamp, dst, ops);
    }

    /// A step of the chain: `(acc, weight, activation)`, or a clamp `(y, lo, hi)`.
    type Op = fn(f32, f32, f32) -> f32;

    /// The chain of [`matmul`] with its multiply-add step and its clamp given.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        m: usize,
        n: usize,
        k: usize,
        (lhs, lhs_stride): (&[f32], usize),
        w: &[f32],
        bias: Option<&[f32]>,
        clamp: (f32, f32),
        dst: &mut [f32],
        (step, clamp_op): (Op, Op),
    ) {
        for i in 0..m {
            for j in 0..n {
                let mut acc = bias.map_or(0.0, |b| b[j]);
                for kk in 0..k {
                    acc = step(acc, w[kk * n + j], lhs[i * lhs_stride + kk]);
                }
                dst[i * n + j] = clamp_op(acc, clamp.0, clamp.1);
            }
        }
    }
}

/// The f16 GEMM family (`matmul_clamp_f16_f16_f16p`) on raw half bits: the same chain as
/// [`float_gemm::matmul`] with every step rounded to f16, and the bounds rounded to f16.
pub mod half_gemm {
    use crate::float::f16;

    /// `dst[i * n + j]` for `i < m`, `j < n` (see the module documentation); LHS row `i` starts
    /// at `lhs[i * lhs_stride]`, weight (kk, j) is `w[kk * n + j]`.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul(
        m: usize,
        n: usize,
        k: usize,
        lhs: &[u16],
        lhs_stride: usize,
        w: &[u16],
        bias: Option<&[u16]>,
        clamp: (f32, f32),
        dst: &mut [u16],
    ) {
        let (lo, hi) = (f16::from_f32(clamp.0), f16::from_f32(clamp.1));
        for i in 0..m {
            for j in 0..n {
                let mut acc = bias.map_or(0, |b| b[j]);
                for kk in 0..k {
                    acc = f16::fmla(acc, w[kk * n + j], lhs[i * lhs_stride + kk]);
                }
                dst[i * n + j] = f16::clamp_upper_first(acc, lo, hi);
            }
        }
    }
}

/// KleidiAI's SME f16 GEMVs (`matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla`, `_1x16vl_sme2_dot`)
/// on raw half bits: one row, f32 sums of pairs of K values from the widened bias, rounded once to
/// f16 and clamped, with the arithmetic of each kernel (`Pairs`; the module documentation of
/// `matmul_clamp_f16_f16_f16p`).
pub mod half_gemv {
    use crate::float::f16;
    pub use crate::matmul::matmul_clamp_f16_f16_f16p::Pairs;

    /// `dst[j]` for `j < n`: the LHS row `lhs` (`k` halves), weight (kk, j) at `w[kk * n + j]`,
    /// the bias of column `j` (0 without one), pairs of K values in order (`+0` past `k`), then
    /// the f16 rounding and the clamp with bounds rounded to f16.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul(
        pairs: Pairs,
        n: usize,
        k: usize,
        lhs: &[u16],
        w: &[u16],
        bias: Option<&[u16]>,
        clamp: (f32, f32),
        dst: &mut [u16],
    ) {
        let (lo, hi) = (f16::from_f32(clamp.0), f16::from_f32(clamp.1));
        let a = |kk: usize| if kk < k { lhs[kk] } else { 0 };
        for j in 0..n {
            let b = |kk: usize| if kk < k { w[kk * n + j] } else { 0 };
            let pair = |p: usize| ([a(2 * p), a(2 * p + 1)], [b(2 * p), b(2 * p + 1)]);
            let acc = pairs.sum(bias.map_or(0, |b| b[j]), k, pair);
            dst[j] = pairs.finish(acc, lo, hi);
        }
    }
}

/// The bf16 LHS packers (`bf16p{mr}x4`): layout only, from values already converted to bf16.
pub mod lhs_bf16 {
    /// Packs `m` rows of `k` bf16 values (`rows[i * k + kk]`) in blocks of `mr` rows by 4 K
    /// values: K padded with zeros to a multiple of 4, the missing rows of the last block taken
    /// from the block's first row. `out` must hold `roundup(m, mr) * roundup(k, 4)` values.
    pub fn pack(m: usize, k: usize, mr: usize, rows: &[u16], out: &mut [u16]) {
        let kp = k.div_ceil(4) * 4;
        assert_eq!(out.len(), m.div_ceil(mr) * mr * kp);
        for (slot, o) in out.iter_mut().enumerate() {
            // slot = ((block * kp / 4 + chunk) * mr + r) * 4 + i
            let (i, rest) = (slot % 4, slot / 4);
            let (r, rest) = (rest % mr, rest / mr);
            let (chunk, block) = (rest % (kp / 4), rest / (kp / 4));
            let row = block * mr + r;
            let row = if row < m { row } else { block * mr };
            let kk = chunk * 4 + i;
            *o = if kk < k { rows[row * k + kk] } else { 0 };
        }
    }
}

/// The bf16 GEMM families (`matmul_clamp_{f32,f16}_bf16p_bf16p`) from unpacked bf16 operands,
/// each element computed on its own with the instruction semantics of [`crate::float::bf16`].
pub mod bf16_gemm {
    use crate::float::{self, bf16};
    pub use crate::matmul::bf16_gemm::Accumulation;

    /// Clamped f32 result of element (i, j): `lhs[i * k + kk]` and `w[kk * n + j]` are bf16 bits,
    /// `bias` f32 values (0 without bias). K is processed in groups of 4, padded as the packers
    /// pad it (LHS zeros, RHS the first row again), two dot steps per group, in one chain from
    /// the bias or, for `SplitPairs`, K values 2-3 in a second chain from `+0` that `FADDP` adds
    /// at the end; `k == 0` leaves the bias. Then `FMIN` with `clamp.1` and `FMAX` with `clamp.0`.
    #[allow(clippy::too_many_arguments)]
    pub fn element(
        order: Accumulation,
        i: usize,
        j: usize,
        n: usize,
        k: usize,
        lhs: &[u16],
        w: &[u16],
        bias: Option<&[f32]>,
        clamp: (f32, f32),
    ) -> f32 {
        let mut acc = bias.map_or(0.0, |b| b[j]);
        let a = |kk: usize| if kk < k { lhs[i * k + kk] } else { 0 };
        let b = |kk: usize| if kk < k { w[kk * n + j] } else { w[j] };
        let mut odd = 0.0;
        for g in (0..k).step_by(4) {
            acc = bf16::dot_step(acc, [a(g), a(g + 1)], [b(g), b(g + 1)]);
            let (a23, b23) = ([a(g + 2), a(g + 3)], [b(g + 2), b(g + 3)]);
            match order {
                Accumulation::Chain => acc = bf16::dot_step(acc, a23, b23),
                Accumulation::SplitPairs => odd = bf16::dot_step(odd, a23, b23),
                Accumulation::OuterProducts => unreachable!("see outer_product_element"),
            }
        }
        if order == Accumulation::SplitPairs {
            acc = float::fadd(acc, odd);
        }
        float::clamp_upper_first(acc, clamp.0, clamp.1)
    }

    /// Unclamped f32 result of element (i, j) of the SME family (`matmul_clamp_fp32_bf16p_bf16p`,
    /// [`Accumulation::OuterProducts`]): operands as for [`element`]; the bias enters a zeroed
    /// accumulator through `FMOPA` (`-0` becomes `+0`, NaN the default NaN), then one dot step
    /// per pair of K values, an odd K padded as the packers pad it (LHS zero, RHS the first row
    /// again). The kernels then clamp as `crate::matmul::bf16_gemm::clamp` says.
    #[allow(clippy::too_many_arguments)]
    pub fn outer_product_element(
        i: usize,
        j: usize,
        n: usize,
        k: usize,
        lhs: &[u16],
        w: &[u16],
        bias: Option<&[f32]>,
    ) -> f32 {
        let mut acc = crate::matmul::bf16_gemm::za_bias(bias.map_or(0.0, |b| b[j]));
        let a = |kk: usize| if kk < k { lhs[i * k + kk] } else { 0 };
        let b = |kk: usize| if kk < k { w[kk * n + j] } else { w[j] };
        for g in (0..k).step_by(2) {
            acc = bf16::dot_step(acc, [a(g), a(g + 1)], [b(g), b(g + 1)]);
        }
        acc
    }
}
