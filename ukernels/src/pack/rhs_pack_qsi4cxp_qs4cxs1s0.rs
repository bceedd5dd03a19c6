//! `rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0`: per-channel int4 weights packed for the
//! `qai8dxp x qsi4cxp` kernels (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`nr` columns, `blen = kr / sr` bytes, `k_int` as for the LHS): `nr * k_int / 2`
//! data bytes, then `nr` x `i32` row sums (x16), `nr` x `f32` scales (/16), `nr` x `f32` biases.
//! Data byte `b`: block `b / blen` = super-block `sb` x column `col`, byte `j = b % blen`,
//! `kb = sb * blen + j`, `k0 = kb + 16 * (kb / 16)`; low nibble holds `w[col][k0]`, high nibble
//! `w[col][k0 + 16]`, both signed two's complement. Columns past `n` repeat column `n - 1`.
//! The x16 / /16 pair exists because the kernels decode nibbles as `byte << 4` and `byte & 0xf0`.
//!
//! # How the packer is organised
//!
//! When `blen` divides 16 (every kernel's tile) the data of a group is a sequence of 32-value
//! chunks, and each column contributes 16 bytes to a chunk: byte `i` holds K `32c + i` low and
//! `32c + 16 + i` high. Those 16 bytes are cut into `16 / blen` segments, and segment `s` of
//! column `col` lands at `((c * 16 / blen + s) * nr + col) * blen`. So the packer works per
//! group, per chunk, per column: it builds a column's 16 bytes from 16 source bytes (Nxk: the
//! column's row; Kxn: one nibble from each of 32 rows) with shifts and masks, and sums the
//! nibbles for the row sum on the way. Other `blen` values keep the byte-by-byte walk of the
//! layout formula above.
//!
//! Values travel in the *offset coding* `u = w + 8` (0..=15): zero point 8 is that coding
//! already, zero point 0 (two's complement) becomes it by flipping bit 3 of each nibble, and the
//! packed two's complement nibble is `u ^ 8`. K padding is `w = 0`, i.e. `u = 8`, so the row sum
//! is `sum(u) - 8 * k_int` over the padded chunks.
//!
//! On AArch64, `nr` in {4, 8} with `blen` in {4, 8} (every NEON kernel's tile) uses NEON (see
//! `neon`; Kxn chunks are first gathered into 16-byte copies per column) and every other tile
//! the byte-by-byte walk; elsewhere the portable chunk code runs. All produce the same bytes.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsi4cxp as layout};
use crate::types::kai_rhs_pack_qs4cxs1s0_param;

use super::Source;

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Must be 1.
    pub num_groups: usize,
    /// Output channels.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Columns per packed group (the kernel's `nr`).
    pub nr: usize,
    /// The kernel's `kr`.
    pub kr: usize,
    /// The kernel's `sr`.
    pub sr: usize,
    /// Unpacked int4 weights.
    pub rhs: *const u8,
    /// Optional per-channel bias (`n` floats) or null.
    pub bias: *const f32,
    /// Per-channel scales (`n` floats).
    pub scale: *const f32,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// Zero points.
    pub params: *const kai_rhs_pack_qs4cxs1s0_param,
}

/// Checks what the packer requires of its arguments (KleidiAI's assertions plus size overflow).
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the C struct the caller passed.
    let p = unsafe { a.params.read_unaligned() };
    contract::require(p.lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    contract::require(
        p.rhs_zero_point == 0 || p.rhs_zero_point == 8,
        "params->rhs_zero_point == 0 || params->rhs_zero_point == 8",
    )?;
    contract::require(a.n != 0, "n > 0")?;
    contract::require(a.k != 0, "k > 0")?;
    RhsLayout::Qsi4cxp.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Reads the unsigned nibble of element (`n_idx`, `k_idx`) from the source.
///
/// # Safety
/// The element must lie inside the source matrix.
#[inline]
unsafe fn source_nibble(
    src: Source,
    rhs: *const u8,
    n: usize,
    k: usize,
    n_idx: usize,
    k_idx: usize,
) -> u8 {
    let (row, col, row_len) = match src {
        Source::Nxk => (n_idx, k_idx, k),
        Source::Kxn => (k_idx, n_idx, n),
    };
    let row_bytes = row_len.div_ceil(2);
    // SAFETY: row < rows and col / 2 < row_bytes by the caller's contract.
    let byte = unsafe { rhs.add(row * row_bytes + col / 2).read() };
    (byte >> ((col % 2) * 4)) & 0x0f
}

/// Signed value of a source nibble under the given zero point (8: unsigned with offset 8; 0:
/// two's complement).
#[inline]
pub fn signed_value(nibble: u8, rhs_zero_point: u8) -> i8 {
    if rhs_zero_point == 8 {
        nibble as i8 - 8
    } else {
        ((nibble << 4) as i8) >> 4
    }
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold the whole source matrix, `scale` (and `bias` when
/// non-null) `n` floats, and `rhs_packed` must be writable for the packed size
/// bytes.
pub unsafe fn run(src: Source, a: &Args) {
    // SAFETY: check() verified params is non-null.
    let zp = unsafe { a.params.read_unaligned() }.rhs_zero_point;
    // `check` passed: nr, kr and sr are non-zero (the fallbacks only keep this panic-free).
    let blen = (a.kr / a.sr.max(1)).max(1);
    if 16 % blen != 0 {
        // SAFETY: forwarded contract.
        return unsafe { run_bytewise(src, a, zp) };
    }
    let g = Geometry::new(src, a, zp);
    #[cfg(target_arch = "aarch64")]
    {
        // The NEON loops cover the NEON kernels' tiles; other tiles (the SVE kernels' at vector
        // lengths above 128 bits) take the layout walk, so that a program linking this packer
        // carries one fallback, not two.
        let Some(body) = neon::body_for(&g) else {
            // SAFETY: forwarded contract.
            return unsafe { run_bytewise(src, a, zp) };
        };
        for group in 0..a.n.div_ceil(g.nr) {
            // SAFETY: group < ceil(n / nr), so the group lies inside the packed buffer.
            let dst = unsafe { a.rhs_packed.add(group * g.stride) };
            // SAFETY: forwarded contract; dst is the group's start; `body` fits the tile.
            unsafe { neon::pack_group(&g, a, group, dst, body) };
        }
    }
    #[cfg(not(target_arch = "aarch64"))]
    for group in 0..a.n.div_ceil(g.nr) {
        // SAFETY: group < ceil(n / nr), so the group lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(group * g.stride) };
        for col in 0..g.nr {
            let n_idx = g.column(group, col);
            // SAFETY: forwarded contract; n_idx < n, col < nr.
            let usum = unsafe { pack_column(&g, a.rhs, n_idx, col, dst) };
            // SAFETY: as above.
            unsafe { write_trailer(&g, a, dst, col, n_idx, usum) };
        }
    }
}

/// Sizes and codings shared by every group of one call (the fast paths, `blen` dividing 16).
struct Geometry {
    src: Source,
    n: usize,
    k: usize,
    nr: usize,
    blen: usize,
    /// Bytes per source row (`ceil(k / 2)` for Nxk, `ceil(n / 2)` for Kxn).
    row_bytes: usize,
    /// 32-value chunks per column (`k_int / 32`).
    chunks: usize,
    /// Chunks whose 32 values all lie below `k`.
    full_chunks: usize,
    /// Data bytes of a group (`nr * k_int / 2`).
    data_bytes: usize,
    /// Bytes of a group.
    stride: usize,
    /// XOR taking source nibbles to the offset coding (`0x88` per byte for zero point 0).
    flip: u8,
}

impl Geometry {
    fn new(src: Source, a: &Args, zp: u8) -> Self {
        let k_int = layout::k_internal(a.k, a.kr, a.sr).unwrap_or(0);
        let row_len = match src {
            Source::Nxk => a.k,
            Source::Kxn => a.n,
        };
        Geometry {
            src,
            n: a.n,
            k: a.k,
            nr: a.nr.max(1),
            blen: (a.kr / a.sr.max(1)).max(1),
            row_bytes: row_len.div_ceil(2),
            chunks: k_int / 32,
            full_chunks: a.k / 32,
            data_bytes: a.nr * k_int / 2,
            stride: layout::stride(a.k, a.nr, a.kr, a.sr).unwrap_or(0),
            flip: if zp == 8 { 0 } else { 0x88 },
        }
    }

    /// Source channel of column `col` of `group` (columns past `n` repeat the last channel).
    fn column(&self, group: usize, col: usize) -> usize {
        (group * self.nr + col).min(self.n - 1)
    }

    /// The 16 source-coded bytes of chunk `c` of channel `n_idx` whose values reach past `k`
    /// (Nxk tail chunk) or of a Kxn channel, padded with `w = 0`: byte `j` holds K `32c + 2j`
    /// low and `32c + 2j + 1` high, as an Nxk row does.
    ///
    /// # Safety
    /// `rhs` holds the source matrix, `n_idx < n`, `c < chunks`.
    unsafe fn gathered_chunk(&self, rhs: *const u8, n_idx: usize, c: usize) -> [u8; 16] {
        // Values of the chunk below k; the rest is padding w = 0, offset-coded 8, so
        // source-coded 8 ^ flip in every nibble.
        let valid = self.k.saturating_sub(32 * c).min(32);
        let pad = u128::from_ne_bytes([0x88 ^ self.flip; 16]);
        let nibbles;
        match self.src {
            Source::Nxk => {
                let bytes = valid.div_ceil(2);
                let mut raw = [0u8; 16];
                // SAFETY: bytes 16c..16c + ceil(valid / 2) of the channel's row lie inside it.
                unsafe {
                    rhs.add(n_idx * self.row_bytes + 16 * c)
                        .copy_to_nonoverlapping(raw.as_mut_ptr(), bytes.min(16))
                };
                nibbles = u128::from_le_bytes(raw);
            }
            Source::Kxn if valid == 32 => {
                // SAFETY: rows 32c..32c + 32 lie below k.
                nibbles = u128::from_le_bytes(unsafe { kxn_chunk(rhs, self.row_bytes, n_idx, c) });
            }
            Source::Kxn => {
                let mut raw = [0u8; 16];
                for (j, byte) in raw.iter_mut().enumerate().take(valid.div_ceil(2)) {
                    let rows = 32 * c + 2 * j;
                    // SAFETY: rows 32c + 2j (< k) and 32c + 2j + 1 (read only when < k).
                    *byte =
                        unsafe { kxn_pair(rhs, self.row_bytes, n_idx, rows, 2 * j + 1 < valid) };
                }
                nibbles = u128::from_le_bytes(raw);
            }
        }
        // Keep the valid nibbles (an odd k leaves a stray high nibble in an Nxk row).
        let keep = if valid == 32 {
            u128::MAX
        } else {
            (1u128 << (4 * valid)) - 1
        };
        ((nibbles & keep) | (pad & !keep)).to_le_bytes()
    }
}

/// The source nibbles of channel `n_idx` in K rows `row` (low) and `row + 1` (high, when
/// `both`, else 0) of a Kxn matrix with `row_bytes` bytes per row.
///
/// # Safety
/// Row `row` (and `row + 1` when `both`) and channel `n_idx` lie inside the matrix.
#[inline(always)]
pub(super) unsafe fn kxn_pair(
    rhs: *const u8,
    row_bytes: usize,
    n_idx: usize,
    row: usize,
    both: bool,
) -> u8 {
    // Channel n_idx is nibble n_idx % 2 of byte n_idx / 2 of each row.
    let shift = 4 * (n_idx % 2);
    // SAFETY: by the caller's contract.
    unsafe {
        let at = rhs.add(row * row_bytes + n_idx / 2);
        let lo = (at.read() >> shift) & 0x0f;
        let hi = if both {
            (at.add(row_bytes).read() >> shift) & 0x0f
        } else {
            0
        };
        lo | (hi << 4)
    }
}

/// The 16 source-coded bytes of chunk `c` of channel `n_idx` of a Kxn matrix with `row_bytes`
/// bytes per row: byte `j` holds rows `32c + 2j` (low) and `32c + 2j + 1` (high).
///
/// # Safety
/// Rows `32c..32c + 32` and channel `n_idx` lie inside the matrix.
#[inline(always)]
pub(super) unsafe fn kxn_chunk(
    rhs: *const u8,
    row_bytes: usize,
    n_idx: usize,
    c: usize,
) -> [u8; 16] {
    // Channel n_idx is nibble n_idx % 2 of byte n_idx / 2 of each row.
    let shift = 4 * (n_idx % 2) as u32;
    let mut bytes = [0u8; 16];
    // SAFETY: the 32 rows' bytes by the caller's contract.
    unsafe {
        let mut at = rhs.add(32 * c * row_bytes + n_idx / 2);
        for byte in &mut bytes {
            let (lo, hi) = (at.read() >> shift, at.add(row_bytes).read() >> shift);
            *byte = (lo & 0x0f) | (hi << 4);
            at = at.add(2 * row_bytes);
        }
    }
    bytes
}

/// Mask of the low nibble of every byte.
const LO: u64 = 0x0f0f_0f0f_0f0f_0f0f;

/// Places byte `j` of `x` at byte `2j` of the result (the other bytes zero).
#[inline(always)]
fn spread_bytes(x: u32) -> u64 {
    let x = x as u64;
    let x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    (x | (x << 8)) & 0x00ff_00ff_00ff_00ff
}

/// Sum of the 16 nibbles of `x`.
#[inline(always)]
pub(super) fn nibble_sum(x: u64) -> u32 {
    // Bytes of nibble pairs (<= 30), then all eight added in the top byte (<= 240).
    let pairs = (x & LO) + ((x >> 4) & LO);
    (pairs.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The 16 packed bytes of one column and chunk (two's complement nibbles) from its offset-coded
/// source bytes: `lo` holds K 0..16 and `hi` K 16..32 of the chunk, two per byte, low first.
#[inline(always)]
pub(super) fn packed_chunk(lo: u64, hi: u64) -> [u8; 16] {
    // Packed byte i = K i low, K 16 + i high: `even` holds the bytes of even i (low nibbles of
    // the source bytes), `odd` those of odd i (high nibbles).
    let even = (lo & LO) | ((hi & LO) << 4);
    let odd = ((lo >> 4) & LO) | (hi & !LO);
    let packed = [
        spread_bytes(even as u32) | (spread_bytes(odd as u32) << 8),
        spread_bytes((even >> 32) as u32) | (spread_bytes((odd >> 32) as u32) << 8),
    ];
    // Offset coding -> two's complement nibbles.
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&(packed[0] ^ 0x8888_8888_8888_8888).to_le_bytes());
    out[8..].copy_from_slice(&(packed[1] ^ 0x8888_8888_8888_8888).to_le_bytes());
    out
}

/// Stores the `16 / blen` segments of a column's packed chunk, segment `s` at `dst + s * step`,
/// with a fixed-size copy per block depth (a `blen`-byte copy would call `memcpy`).
///
/// # Safety
/// `blen` divides 16 and every segment's destination is writable.
#[inline(always)]
pub(super) unsafe fn store_segments(out: &[u8; 16], blen: usize, dst: *mut u8, step: usize) {
    /// # Safety
    /// As for `store_segments`, with `B == blen`.
    #[inline(always)]
    unsafe fn copy<const B: usize>(out: &[u8; 16], dst: *mut u8, step: usize) {
        for s in 0..16 / B {
            // SAFETY: s * B + B <= 16 bytes of `out`; the destination by the caller's contract.
            unsafe {
                let segment = out.as_ptr().add(s * B).cast::<[u8; B]>().read_unaligned();
                dst.add(s * step).cast::<[u8; B]>().write_unaligned(segment);
            }
        }
    }
    // SAFETY (every arm): forwarded contract.
    unsafe {
        match blen {
            1 => copy::<1>(out, dst, step),
            2 => copy::<2>(out, dst, step),
            4 => copy::<4>(out, dst, step),
            8 => copy::<8>(out, dst, step),
            _ => copy::<16>(out, dst, step),
        }
    }
}

/// Packs one column's data into a group: per chunk, its 16 bytes from 16 source bytes, cut into
/// segments. Returns the sum of the column's offset-coded values (including padding).
///
/// # Safety
/// [`check`] passed for the call `g` describes; `rhs` holds the source, `n_idx < n`, `col < nr`,
/// `dst` is the group's start.
#[cfg(not(target_arch = "aarch64"))]
unsafe fn pack_column(g: &Geometry, rhs: *const u8, n_idx: usize, col: usize, dst: *mut u8) -> u32 {
    let flip = u64::from_ne_bytes([g.flip; 8]);
    let segments = 16 / g.blen;
    let mut usum = 0u32;
    for c in 0..g.chunks {
        let bytes = if g.src == Source::Nxk && c < g.full_chunks {
            // SAFETY: the chunk's 16 bytes lie inside the channel's row (32c + 32 <= k).
            unsafe {
                rhs.add(n_idx * g.row_bytes + 16 * c)
                    .cast::<[u8; 16]>()
                    .read_unaligned()
            }
        } else {
            // SAFETY: forwarded contract; c < chunks.
            unsafe { g.gathered_chunk(rhs, n_idx, c) }
        };
        // Offset-coded K 32c + 0..16 (`lo`) and 32c + 16..32 (`hi`), two per byte.
        let [
            l0,
            l1,
            l2,
            l3,
            l4,
            l5,
            l6,
            l7,
            h0,
            h1,
            h2,
            h3,
            h4,
            h5,
            h6,
            h7,
        ] = bytes;
        let lo = u64::from_le_bytes([l0, l1, l2, l3, l4, l5, l6, l7]) ^ flip;
        let hi = u64::from_le_bytes([h0, h1, h2, h3, h4, h5, h6, h7]) ^ flip;
        usum = usum.wrapping_add(nibble_sum(lo) + nibble_sum(hi));
        let out = packed_chunk(lo, hi);
        // SAFETY: the segments of chunk c of column col lie in the group's data bytes.
        unsafe {
            store_segments(
                &out,
                g.blen,
                dst.add((c * segments * g.nr + col) * g.blen),
                g.nr * g.blen,
            )
        };
    }
    usum
}

/// Writes column `col`'s trailer from the sum of its offset-coded values.
///
/// # Safety
/// `dst` is a group's start, `col < nr`, `n_idx < n`; `a.scale` (and `a.bias` when non-null)
/// hold `n` floats.
#[inline(never)]
unsafe fn write_trailer(g: &Geometry, a: &Args, dst: *mut u8, col: usize, n_idx: usize, usum: u32) {
    // sum(w) = sum(u) - 8 * k_int, in the packer's wrapping i32 arithmetic.
    let sum = usum.wrapping_sub((8 * 32 * g.chunks) as u32) as i32;
    // SAFETY: scale has n entries, bias too when non-null; the trailer is in the group.
    unsafe {
        let scale = a.scale.add(n_idx).read_unaligned();
        let bias = super::bias_at(a.bias, n_idx);
        super::write_column_trailer(
            dst.add(g.data_bytes),
            g.nr,
            col,
            sum.wrapping_mul(16),
            scale * 0.0625,
            bias,
        );
    }
}

/// The layout formula applied byte by byte: the path for `blen` values that do not divide 16
/// (no kernel uses one), where a column's last chunk can lose values to a half-width segment.
///
/// # Safety
/// As for [`run`].
unsafe fn run_bytewise(src: Source, a: &Args, zp: u8) {
    // Non-zero after `check`; `max` keeps the divisions panic-free.
    let (n, k, nr) = (a.n, a.k, a.nr.max(1));
    let blen = (a.kr / a.sr.max(1)).max(1);
    let k_int = layout::k_internal(k, a.kr, a.sr).unwrap_or(0);
    let stride = layout::stride(k, nr, a.kr, a.sr).unwrap_or(0);
    let data_bytes = nr * k_int / 2;
    // Not inlined: the walk is the fallback for tiles no NEON kernel has, kept small.
    #[inline(never)]
    fn value(src: Source, a: &Args, zp: u8, n_idx: usize, k_idx: usize) -> i8 {
        if k_idx < a.k {
            // SAFETY: n_idx < n (clamped by the caller) and k_idx < k.
            signed_value(
                unsafe { source_nibble(src, a.rhs, a.n, a.k, n_idx, k_idx) },
                zp,
            )
        } else {
            0
        }
    }
    let value = |n_idx: usize, k_idx: usize| value(src, a, zp, n_idx, k_idx);
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(g * stride) };
        for col in 0..nr {
            let n_idx = (g * nr + col).min(n - 1);
            let mut sum = 0i32;
            // Column col owns the blen-byte blocks col, col + nr, col + 2 nr, ... of the data.
            let mut block = col;
            while block * blen < data_bytes {
                let sb = block / nr;
                for j in 0..blen.min(data_bytes - block * blen) {
                    let kb = sb * blen + j;
                    let k0 = kb + 16 * (kb / 16);
                    let (lo, hi) = (value(n_idx, k0), value(n_idx, k0 + 16));
                    sum = sum.wrapping_add(lo as i32 + hi as i32);
                    // SAFETY: block * blen + j < data_bytes.
                    unsafe {
                        dst.add(block * blen + j)
                            .write((lo as u8 & 0x0f) | ((hi as u8) << 4))
                    };
                }
                block += nr;
            }
            // SAFETY: scale has n entries, bias too when non-null; the trailer is in the group.
            unsafe {
                let scale = a.scale.add(n_idx).read_unaligned();
                let bias = super::bias_at(a.bias, n_idx);
                super::write_column_trailer(
                    dst.add(data_bytes),
                    nr,
                    col,
                    sum.wrapping_mul(16),
                    scale * 0.0625,
                    bias,
                );
            }
        }
    }
}

/// NEON form of the fast path for the kernels' tiles: `nr` in {4, 8}, `blen` in {4, 8}. It reads
/// Nxk rows in place; Kxn chunks (and the Nxk chunk reaching past `k`) are first gathered into a
/// 16-byte copy per column, which it reads like a row.
///
/// Columns go in sets of four. `LD4 {v0.s-v3.s}[m]` loads the 16 source bytes of column `m` of
/// a set as four 32-bit lanes, so one load per column both reads and transposes: `v0` holds
/// source bytes 0..4 of the four columns (K 0..8), `v1` bytes 4..8, `v2` bytes 8..12 (K 16..24),
/// `v3` bytes 12..16. A pair `(l, h)` = (`v0`, `v2`) or (`v1`, `v3`) gives the even packed bytes
/// (`l` low nibbles under `h` low nibbles) and the odd ones (high nibbles) of one 8-byte segment
/// of every column, and `ST2` interleaves even and odd bytes while storing: 32 bytes, exactly
/// that segment of the four columns. Block depth 4 regroups the 16-bit halves of the lanes
/// before storing (`UZP` across two sets, `TBL` for a single set).
///
/// The loop reads offset-coded sources (zero point 8). A zero-point-0 source (two's complement)
/// is copied slice by slice with bit 3 of every nibble flipped, which is that coding: one loop
/// per tile serves both zero points, and a program carries half the code; the copy makes zero
/// point 0 about half as fast again as zero point 8.
///
/// SLI and SRI overwrite an operand that both merges need, so each pair is merged with
/// operations that leave the loaded registers intact (copying them would cost as much): the
/// packed nibble is `u ^ 8`; even = `SLI` of the flipped sources; odd = `8 + sext(q)` added
/// under `(s ^ 8) << 4` (`SRI` of 0x80 then `SSRA`), since `8 + sext(x) == x ^ 8` for a nibble
/// and stays inside it.
///
/// Row sums of the offset-coded source bytes: `UADALP` adds byte pairs into 16-bit lanes and
/// `USRA #4` the high nibbles into bytes, `sum(u) = sum(bytes) - 15 * sum(high nibbles)`. Byte
/// accumulators take a strip of 4 chunks (4 x 4 x 15 <= 255) and are then added into 16-bit
/// lanes, which are exact modulo 2^16, stay below it for 256 chunks, and are then widened to 32
/// bits. The chunk loop is compiled once per tile; the group's driver (gathering, slices,
/// trailers) once.
///
/// The chunk is one `asm!` block: with intrinsics LLVM turns `SRI` of a constant into `AND` plus
/// `ADD`, recomputes the store addresses and copies registers, about 15% more instructions.
#[cfg(target_arch = "aarch64")]
pub(super) mod neon {
    use core::arch::aarch64::*;
    use core::arch::asm;

    use super::{Args, Geometry, write_trailer};
    use crate::pack::Source;

    /// The loop packing chunks of one tile's groups (see [`body`]).
    pub(super) type Body = unsafe fn(&mut State, usize, bool) -> [u32; 8];

    /// The NEON loop for the call's tile, if it has one.
    pub(super) fn body_for(g: &Geometry) -> Option<Body> {
        Some(match (g.nr, g.blen) {
            (4, 8) => body::<1, 8>,
            (8, 8) => body::<2, 8>,
            (4, 4) => body::<1, 4>,
            (8, 4) => body::<2, 4>,
            _ => return None,
        })
    }

    /// What the chunk loop carries from one call of [`body`] to the next within a group.
    pub(super) struct State {
        /// Where the next chunk of each column is read (set `s`, column `m` at `4s + m`).
        rows: [*const u8; 8],
        /// The accumulators the chunk loop keeps in registers, per set.
        live: [Live; 2],
        /// Per set and column (32-bit lane), the sum of offset-coded values modulo 2^32
        /// (updated every [`WIDEN_STRIPS`] strips, kept in memory).
        wide: [uint32x4_t; 2],
        /// Where the next chunk is stored.
        out: *mut u8,
        /// Chunks in the current strip of byte accumulators.
        in_strip: usize,
        /// Strips since the 16-bit sums were last widened.
        strips: usize,
    }

    /// Packs `group`.
    ///
    /// # Safety
    /// As for [`super::run`]; `dst` is the group's start; `body` is [`body_for`]`(g)`.
    pub(super) unsafe fn pack_group(
        g: &Geometry,
        a: &Args,
        group: usize,
        dst: *mut u8,
        body: Body,
    ) {
        // SAFETY: NEON is part of the AArch64 baseline.
        let (live, wide) = unsafe { ([vdupq_n_u8(0); 3], vdupq_n_u32(0)) };
        let mut st = State {
            rows: [a.rhs; 8],
            live: [live; 2],
            wide: [wide; 2],
            out: dst,
            in_strip: 0,
            strips: 0,
        };
        // Column loops run to nr (4 or 8, a NEON tile) through pointers: loops with a run-time
        // bound, compiled once rather than unrolled for every count up to 8.
        let rows = st.rows.as_mut_ptr();
        for col in 0..g.nr {
            // SAFETY: col < nr <= 8; the channel's row lies inside the source matrix.
            unsafe { *rows.add(col) = a.rhs.add(g.column(group, col) * g.row_bytes) };
        }
        // Kxn chunks, and the Nxk chunk reaching past k, are first gathered into 16-byte copies
        // per column, which the loop then reads instead of the rows; offset-coded (zero point 0
        // flipped), as the loop reads them.
        let flip = u128::from_ne_bytes([g.flip; 16]);
        let mut copies = [[0u8; 16]; 8];
        let mut gathered = |st: &mut State, c: usize| {
            for col in 0..g.nr {
                // SAFETY: forwarded contract; c < chunks; col < nr <= 8.
                unsafe {
                    let bytes = g.gathered_chunk(a.rhs, g.column(group, col), c);
                    let copy = copies.as_mut_ptr().add(col);
                    *copy = (u128::from_ne_bytes(bytes) ^ flip).to_ne_bytes();
                    *st.rows.as_mut_ptr().add(col) = (*copy).as_ptr();
                }
            }
            // SAFETY: every column's copy holds the chunk; `out` is its place in the group.
            unsafe { body(st, 1, false) };
        };
        match (g.src, g.flip) {
            // SAFETY: the rows hold the full chunks; the group holds their packed bytes.
            (Source::Nxk, 0) => unsafe { body(&mut st, g.full_chunks, false) },
            // SAFETY: as above.
            (Source::Nxk, _) => unsafe { flipped_rows(g, &mut st, body) },
            (Source::Kxn, _) => {
                for c in 0..g.full_chunks {
                    gathered(&mut st, c);
                }
                [0; 8]
            }
        };
        if g.chunks > g.full_chunks {
            gathered(&mut st, g.full_chunks);
        }
        // SAFETY: no chunk; moves the accumulators into the sums.
        let sums = unsafe { body(&mut st, 0, true) };
        if (group + 1) * g.nr <= g.n {
            // SAFETY: forwarded contract; the group's columns are channels group * nr.. in order.
            unsafe { write_trailers(g, a, dst, group * g.nr, &sums) };
        } else {
            for col in 0..g.nr {
                let n_idx = g.column(group, col);
                // SAFETY: forwarded contract; col < nr <= 8.
                unsafe { write_trailer(g, a, dst, col, n_idx, *sums.as_ptr().add(col)) };
            }
        }
    }

    /// Chunks of a zero-point-0 group in slices of this many, flipped into a copy first.
    const SLICE: usize = 16;

    /// The full chunks of a group whose source is two's complement (zero point 0): each slice
    /// of [`SLICE`] chunks is copied with every nibble's bit 3 flipped, which gives the offset
    /// coding the loop packs (one loop serves both zero points; the copy costs about half of
    /// what packing does).
    ///
    /// # Safety
    /// As for [`pack_group`]; `st.rows` are the group's Nxk rows.
    #[inline(never)]
    unsafe fn flipped_rows(g: &Geometry, st: &mut State, body: Body) -> [u32; 8] {
        let mut copies = [[0u8; 16 * SLICE]; 8];
        let mut rows = st.rows;
        let mut c = 0;
        while c < g.full_chunks {
            let n = SLICE.min(g.full_chunks - c);
            // Loops with run-time bounds (nr columns, n chunks): compiled once, not unrolled.
            for col in 0..g.nr {
                // SAFETY: col < nr <= 8 (a NEON tile); the row holds these n chunks (below
                // full_chunks); NEON is part of the AArch64 baseline.
                unsafe {
                    let (row, copy) = (rows.as_mut_ptr().add(col), copies.as_mut_ptr().add(col));
                    let flip = vdupq_n_u8(0x88);
                    let (mut from, mut to) = (*row, (*copy).as_mut_ptr());
                    for _ in 0..n {
                        vst1q_u8(to, veorq_u8(vld1q_u8(from), flip));
                        (from, to) = (from.add(16), to.add(16));
                    }
                    *row = from;
                    *st.rows.as_mut_ptr().add(col) = (*copy).as_ptr();
                }
            }
            // SAFETY: the copies hold n chunks of every column.
            unsafe { body(st, n, false) };
            c += n;
        }
        [0; 8]
    }

    /// The trailer of a group whose `nr` (4 or 8) columns are channels `first..first + nr`,
    /// four columns per vector operation (what [`write_trailer`] does per column).
    ///
    /// # Safety
    /// `dst` is the group's start, `first + nr <= n`, `nr` is 4 or 8; `a.scale` (and `a.bias`
    /// when non-null) hold `n` floats.
    unsafe fn write_trailers(g: &Geometry, a: &Args, dst: *mut u8, first: usize, usums: &[u32; 8]) {
        let nr = g.nr;
        // SAFETY: NEON is baseline; the reads cover channels first..first + nr; the writes the
        // trailer's three arrays of nr entries after the group's data bytes.
        unsafe {
            let trailer = dst.add(g.data_bytes);
            let k8 = vdupq_n_u32((8 * 32 * g.chunks) as u32);
            for s in 0..nr / 4 {
                // sum(w) = sum(u) - 8 * k_int, times 16, in wrapping i32 arithmetic.
                let usum = vld1q_u32(usums.as_ptr().add(4 * s));
                let sum = vshlq_n_u32::<4>(vsubq_u32(usum, k8));
                vst1q_u8(trailer.add(16 * s), vreinterpretq_u8_u32(sum));
                // Byte loads: the C caller's floats need not be aligned (as `read_unaligned`).
                let scale = vreinterpretq_f32_u8(vld1q_u8(a.scale.add(first + 4 * s).cast()));
                let scale = vmulq_f32(scale, vdupq_n_f32(0.0625));
                vst1q_u8(trailer.add(4 * nr + 16 * s), vreinterpretq_u8_f32(scale));
                let bias = if a.bias.is_null() {
                    vdupq_n_f32(0.0)
                } else {
                    vreinterpretq_f32_u8(vld1q_u8(a.bias.add(first + 4 * s).cast()))
                };
                vst1q_u8(trailer.add(8 * nr + 16 * s), vreinterpretq_u8_f32(bias));
            }
        }
    }

    /// Byte constants of the merges.
    #[derive(Clone, Copy)]
    struct Consts {
        /// `0x88`: offset coding <-> two's complement.
        flip: uint8x16_t,
        /// `0x80`, shifted into a low nibble by `SRI #4` to give `0x08`.
        k80: uint8x16_t,
        /// `TBL` indices taking the first 16-bit halves of the four lanes, then the second ones.
        halves: uint8x16_t,
    }

    /// The row sums of one set of four columns (see the module docs) kept in registers through
    /// the chunk loop: the byte pairs (u16 lanes), the strip's high nibbles (bytes), and the
    /// high nibbles in pairs (u16 lanes).
    type Live = [uint8x16_t; 3];

    /// Chunks per strip of the byte accumulators.
    const STRIP: usize = 4;

    /// Strips after which the 16-bit sums are widened (each lane gains at most 240 a chunk, so
    /// 256 chunks stay below 2^16, and -128 x 256 fits in i16).
    const WIDEN_STRIPS: usize = 64;

    /// Packs `chunks` chunks of every column of a group with `SETS` sets of 4 columns and block
    /// depth `BLEN` from offset-coded sources, continuing from `st`: the chunk loop, the only
    /// code compiled per tile. Byte accumulators are moved into the 16-bit sums every
    /// [`STRIP`] chunks and those widened every [`WIDEN_STRIPS`] strips, counted over the group.
    ///
    /// With `finish`, the group's last call: moves every accumulator into the 32-bit sums and
    /// returns each column's sum of offset-coded values; otherwise returns zeros.
    ///
    /// # Safety
    /// Each of the `4 * SETS` row pointers is readable for `chunks` chunks (16 bytes each) and
    /// `out` writable for their packed bytes.
    #[inline(never)]
    unsafe fn body<const SETS: usize, const BLEN: usize>(
        st: &mut State,
        mut chunks: usize,
        finish: bool,
    ) -> [u32; 8] {
        const HALVES: [u8; 16] = [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15];
        // SAFETY: NEON is part of the AArch64 baseline.
        let k = unsafe {
            Consts {
                flip: vdupq_n_u8(0x88),
                k80: vdupq_n_u8(0x80),
                halves: vld1q_u8(HALVES.as_ptr()),
            }
        };
        // Only this tile's sets live in registers through the loop.
        let mut rows = st.rows;
        let mut live = [st.live[0], if SETS == 2 { st.live[1] } else { st.live[0] }];
        let (mut out, mut in_strip, mut strips) = (st.out, st.in_strip, st.strips);
        while chunks > 0 {
            // Up to the end of the strip: a loop with a run-time count, not unrolled per tile.
            let n = chunks.min(STRIP - in_strip);
            // SAFETY: in_strip < STRIP and chunks > 0.
            unsafe { core::hint::assert_unchecked(n > 0) };
            for _ in 0..n {
                // SAFETY: a chunk of every row remains; `out` is the next chunk's place.
                unsafe { chunk::<SETS, BLEN>(&k, &mut rows, &mut live, &mut out) };
            }
            chunks -= n;
            in_strip += n;
            if in_strip == STRIP {
                end_strip(&mut live, SETS);
                in_strip = 0;
                strips += 1;
                if strips == WIDEN_STRIPS {
                    widen(&mut live, &mut st.wide, SETS);
                    strips = 0;
                }
            }
        }
        let mut result = [0u32; 8];
        if finish {
            end_strip(&mut live, SETS);
            widen(&mut live, &mut st.wide, SETS);
            for (s, wide) in st.wide.iter().enumerate().take(SETS) {
                // SAFETY: 4 lanes into entries 4s..4s + 4 (s < 2).
                unsafe { vst1q_u32(result.as_mut_ptr().add(4 * s), *wide) };
            }
        }
        st.rows[..4 * SETS].copy_from_slice(&rows[..4 * SETS]);
        st.live[..SETS].copy_from_slice(&live[..SETS]);
        (st.out, st.in_strip, st.strips) = (out, in_strip, strips);
        result
    }

    /// `LD4` of one 16-byte chunk of four columns into lanes 0..3 of four registers.
    macro_rules! load_set {
        ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $r0:literal, $r1:literal, $r2:literal, $r3:literal) => {
            concat!(
                "ld4 {{",
                $t0,
                ".s, ",
                $t1,
                ".s, ",
                $t2,
                ".s, ",
                $t3,
                ".s}}[0], [{",
                $r0,
                "}], #16\n",
                "ld4 {{",
                $t0,
                ".s, ",
                $t1,
                ".s, ",
                $t2,
                ".s, ",
                $t3,
                ".s}}[1], [{",
                $r1,
                "}], #16\n",
                "ld4 {{",
                $t0,
                ".s, ",
                $t1,
                ".s, ",
                $t2,
                ".s, ",
                $t3,
                ".s}}[2], [{",
                $r2,
                "}], #16\n",
                "ld4 {{",
                $t0,
                ".s, ",
                $t1,
                ".s, ",
                $t2,
                ".s, ",
                $t3,
                ".s}}[3], [{",
                $r3,
                "}], #16\n",
            )
        };
    }
    pub(crate) use load_set;

    /// Zero point 8 (offset-coded source): even bytes into `$e`, odd into `$o`, both two's
    /// complement, from the pair `($l, $h)`; needs operands `flip` (0x88) and `k80` (0x80).
    macro_rules! merge_zp8 {
        ($l:literal, $h:literal, $e:literal, $o:literal) => {
            concat!(
                "eor ",
                $e,
                ".16b, ",
                $l,
                ".16b, {flip:v}.16b\n",
                "eor ",
                $o,
                ".16b, ",
                $h,
                ".16b, {flip:v}.16b\n",
                "sli ",
                $e,
                ".16b, ",
                $o,
                ".16b, #4\n",
                "sri ",
                $o,
                ".16b, {k80:v}.16b, #4\n",
                "ssra ",
                $o,
                ".16b, ",
                $l,
                ".16b, #4\n",
            )
        };
    }
    pub(crate) use merge_zp8;

    /// Zero point 8: [`merge_zp8`], and row sums into `$pairs` (byte pairs) and `$strip` (high
    /// nibbles).
    macro_rules! pair_zp8 {
        ($l:literal, $h:literal, $e:literal, $o:literal, $pairs:literal, $strip:literal) => {
            concat!(
                merge_zp8!($l, $h, $e, $o),
                "uadalp {",
                $pairs,
                ":v}.8h, ",
                $l,
                ".16b\n",
                "usra {",
                $strip,
                ":v}.16b, ",
                $l,
                ".16b, #4\n",
                "uadalp {",
                $pairs,
                ":v}.8h, ",
                $h,
                ".16b\n",
                "usra {",
                $strip,
                ":v}.16b, ",
                $h,
                ".16b, #4\n",
            )
        };
    }

    /// `ST2` of the even and odd bytes in `v16`, `v17` at `out`, advancing it.
    macro_rules! st2_pair {
        () => {
            "st2 {{v16.16b, v17.16b}}, [{out}], #32\n"
        };
    }
    pub(crate) use st2_pair;

    /// Block depth 4, two sets: 16-bit halves of both sets' pairs (`v16`/`v17`, `v20`/`v21`)
    /// regrouped into two 4-byte segments of eight columns, stored.
    macro_rules! st2_uzp {
        () => {
            concat!(
                "uzp1 v24.8h, v16.8h, v20.8h\n",
                "uzp1 v25.8h, v17.8h, v21.8h\n",
                "st2 {{v24.16b, v25.16b}}, [{out}], #32\n",
                "uzp2 v24.8h, v16.8h, v20.8h\n",
                "uzp2 v25.8h, v17.8h, v21.8h\n",
                "st2 {{v24.16b, v25.16b}}, [{out}], #32\n",
            )
        };
    }

    /// Block depth 4, one set: the pair's two 4-byte segments of four columns, stored.
    macro_rules! st2_tbl {
        () => {
            concat!(
                "tbl v24.16b, {{v16.16b}}, {halves:v}.16b\n",
                "tbl v25.16b, {{v17.16b}}, {halves:v}.16b\n",
                "st2 {{v24.16b, v25.16b}}, [{out}], #32\n",
            )
        };
    }

    /// Packs one chunk of every set: loads 16 bytes per column from `rows` (then advanced by
    /// 16), stores the chunk's `4 * SETS * 16` packed bytes at `out` (then advanced past them),
    /// adds to the strip and pair sums.
    ///
    /// # Safety
    /// Each of the `4 * SETS` row pointers is readable for 16 bytes; `out` is writable for the
    /// chunk.
    #[inline(always)]
    unsafe fn chunk<const SETS: usize, const BLEN: usize>(
        k: &Consts,
        rows: &mut [*const u8; 8],
        live: &mut [Live; 2],
        out: &mut *mut u8,
    ) {
        // Register plan: set 0 loads into v0..v3, set 1 into v4..v7; a pair's even and odd
        // bytes go to v16/v17 (set 1's, for block depth 4 with two sets, to v20/v21); v18 and
        // v22 are scratch; v24/v25 hold regrouped bytes for block depth 4.
        let [r0, r1, r2, r3, r4, r5, r6, r7] = rows;
        let [[p0, s0, _], [p1, s1, _]] = live;
        // SAFETY: loads of 16 bytes at each used row pointer and stores of the chunk's bytes at
        // `out`, both by the caller's contract; no stack use; the flags are untouched.
        unsafe {
            match (SETS, BLEN) {
                (1, 8) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    p0 = inout(vreg) *p0, s0 = inout(vreg) *s0,
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _,
                    options(nostack, preserves_flags),
                ),
                (2, 8) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    pair_zp8!("v4", "v6", "v16", "v17", "p1", "s1"),
                    st2_pair!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    pair_zp8!("v5", "v7", "v16", "v17", "p1", "s1"),
                    st2_pair!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                    r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                    out = inout(reg) *out,
                    p0 = inout(vreg) *p0, s0 = inout(vreg) *s0,
                    p1 = inout(vreg) *p1, s1 = inout(vreg) *s1,
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _,
                    options(nostack, preserves_flags),
                ),
                (1, 4) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    st2_tbl!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    st2_tbl!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    p0 = inout(vreg) *p0, s0 = inout(vreg) *s0,
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80, halves = in(vreg) k.halves,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _, out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                (2, 4) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    pair_zp8!("v4", "v6", "v20", "v21", "p1", "s1"),
                    st2_uzp!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    pair_zp8!("v5", "v7", "v20", "v21", "p1", "s1"),
                    st2_uzp!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                    r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                    out = inout(reg) *out,
                    p0 = inout(vreg) *p0, s0 = inout(vreg) *s0,
                    p1 = inout(vreg) *p1, s1 = inout(vreg) *s1,
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _, out("v20") _, out("v21") _,
                    out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                // pack_group dispatches only the tiles above.
                _ => {}
            }
        }
    }

    /// Moves the strip's byte accumulators of the first `sets` sets into the 16-bit ones.
    #[inline(always)]
    fn end_strip(live: &mut [Live; 2], sets: usize) {
        for l in live.iter_mut().take(sets) {
            // SAFETY: NEON is part of the AArch64 baseline.
            unsafe {
                l[2] = vreinterpretq_u8_u16(vpadalq_u8(vreinterpretq_u16_u8(l[2]), l[1]));
                l[1] = vdupq_n_u8(0);
            }
        }
    }

    /// Moves the 16-bit sums of the first `sets` sets into the 32-bit per-column ones.
    #[inline(always)]
    fn widen(live: &mut [Live; 2], wide: &mut [uint32x4_t; 2], sets: usize) {
        for (l, w) in live.iter_mut().zip(wide.iter_mut()).take(sets) {
            // SAFETY: NEON is part of the AArch64 baseline.
            unsafe {
                // sum(u) = sum(bytes) - 15 * sum(high nibbles), exact modulo 2^16.
                let (pairs, high) = (vreinterpretq_u16_u8(l[0]), vreinterpretq_u16_u8(l[2]));
                *w = vpadalq_u16(*w, vmlsq_n_u16(pairs, high, 15));
                l[0] = vdupq_n_u8(0);
                l[2] = vdupq_n_u8(0);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    rhs_pack_nxk_qsi4cxp_qs4cxs1s0: Rhs(Qsi4cxp(Source::Nxk));
    rhs_pack_kxn_qsi4cxp_qs4cxs1s0: Rhs(Qsi4cxp(Source::Kxn));
}
