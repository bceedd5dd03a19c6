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
//! On AArch64, `nr` in {4, 8} with `blen` in {4, 8} (every kernel's tile) uses NEON (see `neon`;
//! Kxn chunks are first gathered into 16-byte copies per column); every other case runs the
//! portable code, which produces the same bytes.

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
    let blen = a.kr / a.sr;
    if 16 % blen != 0 {
        // SAFETY: forwarded contract.
        return unsafe { run_bytewise(src, a, zp) };
    }
    let g = Geometry::new(src, a, zp);
    for group in 0..a.n.div_ceil(a.nr) {
        // SAFETY: group < ceil(n / nr), so the group lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(group * g.stride) };
        #[cfg(target_arch = "aarch64")]
        {
            // SAFETY: forwarded contract; dst is the group's start.
            if unsafe { neon::pack_group(&g, a, group, dst) } {
                continue;
            }
        }
        for col in 0..a.nr {
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
            nr: a.nr,
            blen: a.kr / a.sr,
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
    let (n, k, nr) = (a.n, a.k, a.nr);
    let blen = a.kr / a.sr;
    let k_int = layout::k_internal(k, a.kr, a.sr).unwrap_or(0);
    let stride = layout::stride(k, nr, a.kr, a.sr).unwrap_or(0);
    let data_bytes = nr * k_int / 2;
    let value = |n_idx: usize, k_idx: usize| -> i8 {
        if k_idx < k {
            // SAFETY: n_idx < n (clamped by the caller) and k_idx < k.
            signed_value(unsafe { source_nibble(src, a.rhs, n, k, n_idx, k_idx) }, zp)
        } else {
            0
        }
    };
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
/// SLI and SRI overwrite an operand that both merges need, so each pair is merged with
/// operations that leave the loaded registers intact (copying them would cost as much):
/// * zero point 8 (packed nibble `u ^ 8`): even = `SLI` of the flipped sources; odd = `8 +
///   sext(q)` added under `(s ^ 8) << 4` (`SRI` of 0x80 then `SSRA`), since `8 + sext(x) ==
///   x ^ 8` for a nibble and stays inside it;
/// * zero point 0 (stored as is): even = `SRI` of `p << 4` into `r << 4`; odd = `(h & 0xf0) +
///   (l >> 4)` (`AND`, `USRA`).
///
/// Row sums. Zero point 8 sums the offset-coded source bytes: `UADALP` adds byte pairs into
/// 16-bit lanes and `USRA #4` the high nibbles into bytes, `sum(u) = sum(bytes) - 15 *
/// sum(high nibbles)`. Zero point 0 sums the signed nibbles with `SSRA #4` from registers where
/// each nibble is high once (`p << 4`, `l`, `r << 4`, `h`). Byte accumulators take a strip of 4
/// chunks (4 x 4 x 15 <= 255; zero point 0 keeps one per pair, 4 x 4 x 8 <= 128) and are then
/// added into 16-bit lanes, which are exact modulo 2^16, stay below it for 256 chunks, and are
/// then widened to 32 bits.
///
/// The chunk is one `asm!` block: with intrinsics LLVM turns `SRI` of a constant into `AND` plus
/// `ADD`, recomputes the store addresses and copies registers, about 15% more instructions.
#[cfg(target_arch = "aarch64")]
pub(super) mod neon {
    use core::arch::aarch64::*;
    use core::arch::asm;

    use super::{Args, Geometry, write_trailer};
    use crate::pack::Source;

    /// Packs `group` if its tile has a NEON form; returns whether it did.
    ///
    /// # Safety
    /// As for [`super::run`]; `dst` is the group's start.
    pub(super) unsafe fn pack_group(g: &Geometry, a: &Args, group: usize, dst: *mut u8) -> bool {
        let zp8 = g.flip == 0;
        // SAFETY (every arm): forwarded contract.
        let sums = unsafe {
            match (g.nr, g.blen, zp8) {
                (4, 8, true) => group_sets::<1, 8, true>(g, a, group, dst),
                (4, 8, false) => group_sets::<1, 8, false>(g, a, group, dst),
                (8, 8, true) => group_sets::<2, 8, true>(g, a, group, dst),
                (8, 8, false) => group_sets::<2, 8, false>(g, a, group, dst),
                (4, 4, true) => group_sets::<1, 4, true>(g, a, group, dst),
                (4, 4, false) => group_sets::<1, 4, false>(g, a, group, dst),
                (8, 4, true) => group_sets::<2, 4, true>(g, a, group, dst),
                (8, 4, false) => group_sets::<2, 4, false>(g, a, group, dst),
                _ => return false,
            }
        };
        if (group + 1) * g.nr <= g.n {
            // SAFETY: forwarded contract; the group's columns are channels group * nr.. in order.
            unsafe { write_trailers(g, a, dst, group * g.nr, &sums) };
        } else {
            for (col, &usum) in sums.iter().enumerate().take(g.nr) {
                let n_idx = g.column(group, col);
                // SAFETY: forwarded contract; col < nr.
                unsafe { write_trailer(g, a, dst, col, n_idx, usum) };
            }
        }
        true
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
        /// `0xf0`: high nibbles.
        high: uint8x16_t,
        /// `TBL` indices taking the first 16-bit halves of the four lanes, then the second ones.
        halves: uint8x16_t,
    }

    /// Running row sums of one set of four columns (see the module docs).
    #[derive(Clone, Copy)]
    struct SetSums {
        /// Per column (32-bit lane) sum of offset-coded values, modulo 2^32; zero point 0: of
        /// signed values.
        wide: uint32x4_t,
        /// Zero point 8: byte pairs; zero point 0: signed nibble sums in pairs (i16 bits).
        pairs: uint16x8_t,
        /// Zero point 8: high nibbles in pairs.
        high: uint16x8_t,
        /// The strip's byte accumulators: zero point 8 high nibbles in `[0]`; zero point 0
        /// signed nibbles (i8 bits) of pair 0 and pair 1.
        strip: [uint8x16_t; 2],
    }

    /// Chunks per strip of the byte accumulators.
    const STRIP: usize = 4;

    /// Strips after which the 16-bit sums are widened (each lane gains at most 240 a chunk, so
    /// 256 chunks stay below 2^16, and -128 x 256 fits in i16).
    const WIDEN_STRIPS: usize = 64;

    /// Packs one group with `SETS` sets of 4 columns and block depth `BLEN`; returns the sum of
    /// each column's offset-coded values (like [`super::pack_column`]).
    ///
    /// # Safety
    /// As for [`pack_group`], with `nr == 4 * SETS`, `blen == BLEN`, `ZP8` the zero point.
    #[inline(never)]
    unsafe fn group_sets<const SETS: usize, const BLEN: usize, const ZP8: bool>(
        g: &Geometry,
        a: &Args,
        group: usize,
        dst: *mut u8,
    ) -> [u32; 8] {
        // Source rows of the group's columns (set s, column m at 4s + m).
        let mut rows = [a.rhs; 8];
        for (col, row) in rows.iter_mut().enumerate().take(4 * SETS) {
            // SAFETY: the channel's row lies inside the source matrix.
            *row = unsafe { a.rhs.add(g.column(group, col) * g.row_bytes) };
        }
        // SAFETY: NEON is part of the AArch64 baseline.
        let (k, mut sums) = unsafe {
            const HALVES: [u8; 16] = [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15];
            let k = Consts {
                flip: vdupq_n_u8(0x88),
                k80: vdupq_n_u8(0x80),
                high: vdupq_n_u8(0xf0),
                halves: vld1q_u8(HALVES.as_ptr()),
            };
            let zero = SetSums {
                wide: vdupq_n_u32(0),
                pairs: vdupq_n_u16(0),
                high: vdupq_n_u16(0),
                strip: [vdupq_n_u8(0); 2],
            };
            (k, [zero; 2])
        };
        let mut out = dst;
        // Kxn chunks, and the Nxk chunk reaching past k, are first gathered into 16-byte copies
        // per column, which the chunk then reads instead of the rows.
        let mut copies = [[0u8; 16]; 8];
        let kxn = g.src == Source::Kxn;
        // Chunk `$c`: gathered first when `$gather`, then packed.
        macro_rules! step {
            ($gather:expr, $c:expr) => {
                if $gather {
                    for (col, copy) in copies.iter_mut().enumerate().take(4 * SETS) {
                        // SAFETY: forwarded contract; the chunk lies below chunks.
                        *copy = unsafe { g.gathered_chunk(a.rhs, g.column(group, col), $c) };
                        rows[col] = copy.as_ptr();
                    }
                }
                // SAFETY: a full chunk of every row, or its copy, remains; `out` is the next
                // chunk's data.
                unsafe { chunk::<SETS, BLEN, ZP8>(&k, &mut rows, &mut sums, &mut out) };
            };
        }
        let (strips, rest) = (g.full_chunks / STRIP, g.full_chunks % STRIP);
        for strip in 0..strips {
            // Written out four times so the Nxk strip is straight-line code.
            let c = STRIP * strip;
            step!(kxn, c);
            step!(kxn, c + 1);
            step!(kxn, c + 2);
            step!(kxn, c + 3);
            end_strip::<SETS, ZP8>(&mut sums);
            if (strip + 1) % WIDEN_STRIPS == 0 {
                widen::<SETS, ZP8>(&mut sums);
            }
        }
        // The remainder and the chunk reaching past k share a strip: at most 3 + 1 chunks.
        for c in STRIP * strips..STRIP * strips + rest {
            step!(kxn, c);
        }
        if g.chunks > g.full_chunks {
            step!(true, g.full_chunks);
        }
        end_strip::<SETS, ZP8>(&mut sums);
        widen::<SETS, ZP8>(&mut sums);
        let mut result = [0u32; 8];
        for (s, set) in sums.iter().enumerate().take(SETS) {
            // SAFETY: 4 lanes into entries 4s..4s + 4 (s < 2).
            unsafe { vst1q_u32(result.as_mut_ptr().add(4 * s), set.wide) };
        }
        if !ZP8 {
            // The signed sums are sum(w); the caller expects sum(u) = sum(w) + 8 * k_int.
            for r in &mut result {
                *r = r.wrapping_add((8 * 32 * g.chunks) as u32);
            }
        }
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

    /// Zero point 0: even bytes into `$e`, odd into `$o`, from the pair `($l, $h)`, with `$t` a
    /// scratch register; signed nibble sums into `$strip`.
    macro_rules! pair_zp0 {
        ($l:literal, $h:literal, $e:literal, $o:literal, $t:literal, $strip:literal) => {
            concat!(
                "shl ",
                $e,
                ".16b, ",
                $h,
                ".16b, #4\n",
                "shl ",
                $t,
                ".16b, ",
                $l,
                ".16b, #4\n",
                "ssra {",
                $strip,
                ":v}.16b, ",
                $e,
                ".16b, #4\n",
                "ssra {",
                $strip,
                ":v}.16b, ",
                $t,
                ".16b, #4\n",
                "ssra {",
                $strip,
                ":v}.16b, ",
                $l,
                ".16b, #4\n",
                "ssra {",
                $strip,
                ":v}.16b, ",
                $h,
                ".16b, #4\n",
                "sri ",
                $e,
                ".16b, ",
                $t,
                ".16b, #4\n",
                "and ",
                $o,
                ".16b, ",
                $h,
                ".16b, {high:v}.16b\n",
                "usra ",
                $o,
                ".16b, ",
                $l,
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
    unsafe fn chunk<const SETS: usize, const BLEN: usize, const ZP8: bool>(
        k: &Consts,
        rows: &mut [*const u8; 8],
        sums: &mut [SetSums; 2],
        out: &mut *mut u8,
    ) {
        // Register plan: set 0 loads into v0..v3, set 1 into v4..v7; a pair's even and odd
        // bytes go to v16/v17 (set 1's, for block depth 4 with two sets, to v20/v21); v18 and
        // v22 are scratch; v24/v25 hold regrouped bytes for block depth 4.
        let [r0, r1, r2, r3, r4, r5, r6, r7] = rows;
        let [s0, s1] = sums;
        // SAFETY: loads of 16 bytes at each used row pointer and stores of the chunk's bytes at
        // `out`, both by the caller's contract; no stack use; the flags are untouched.
        unsafe {
            match (SETS, BLEN, ZP8) {
                (1, 8, true) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    st2_pair!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    p0 = inout(vreg) s0.pairs, s0 = inout(vreg) s0.strip[0],
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _,
                    options(nostack, preserves_flags),
                ),
                (2, 8, true) => asm!(
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
                    p0 = inout(vreg) s0.pairs, s0 = inout(vreg) s0.strip[0],
                    p1 = inout(vreg) s1.pairs, s1 = inout(vreg) s1.strip[0],
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _,
                    options(nostack, preserves_flags),
                ),
                (1, 8, false) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp0!("v0", "v2", "v16", "v17", "v18", "a0"),
                    st2_pair!(),
                    pair_zp0!("v1", "v3", "v16", "v17", "v18", "b0"),
                    st2_pair!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    a0 = inout(vreg) s0.strip[0], b0 = inout(vreg) s0.strip[1],
                    high = in(vreg) k.high,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _, out("v18") _,
                    options(nostack, preserves_flags),
                ),
                (2, 8, false) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                    pair_zp0!("v0", "v2", "v16", "v17", "v18", "a0"),
                    st2_pair!(),
                    pair_zp0!("v4", "v6", "v16", "v17", "v18", "a1"),
                    st2_pair!(),
                    pair_zp0!("v1", "v3", "v16", "v17", "v18", "b0"),
                    st2_pair!(),
                    pair_zp0!("v5", "v7", "v16", "v17", "v18", "b1"),
                    st2_pair!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                    r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                    out = inout(reg) *out,
                    a0 = inout(vreg) s0.strip[0], b0 = inout(vreg) s0.strip[1],
                    a1 = inout(vreg) s1.strip[0], b1 = inout(vreg) s1.strip[1],
                    high = in(vreg) k.high,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _, out("v18") _,
                    options(nostack, preserves_flags),
                ),
                (1, 4, true) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp8!("v0", "v2", "v16", "v17", "p0", "s0"),
                    st2_tbl!(),
                    pair_zp8!("v1", "v3", "v16", "v17", "p0", "s0"),
                    st2_tbl!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    p0 = inout(vreg) s0.pairs, s0 = inout(vreg) s0.strip[0],
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80, halves = in(vreg) k.halves,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _, out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                (2, 4, true) => asm!(
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
                    p0 = inout(vreg) s0.pairs, s0 = inout(vreg) s0.strip[0],
                    p1 = inout(vreg) s1.pairs, s1 = inout(vreg) s1.strip[0],
                    flip = in(vreg) k.flip, k80 = in(vreg) k.k80,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _, out("v20") _, out("v21") _,
                    out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                (1, 4, false) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    pair_zp0!("v0", "v2", "v16", "v17", "v18", "a0"),
                    st2_tbl!(),
                    pair_zp0!("v1", "v3", "v16", "v17", "v18", "b0"),
                    st2_tbl!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    out = inout(reg) *out,
                    a0 = inout(vreg) s0.strip[0], b0 = inout(vreg) s0.strip[1],
                    high = in(vreg) k.high, halves = in(vreg) k.halves,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v16") _, out("v17") _, out("v18") _, out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                (2, 4, false) => asm!(
                    load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                    load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                    pair_zp0!("v0", "v2", "v16", "v17", "v18", "a0"),
                    pair_zp0!("v4", "v6", "v20", "v21", "v22", "a1"),
                    st2_uzp!(),
                    pair_zp0!("v1", "v3", "v16", "v17", "v18", "b0"),
                    pair_zp0!("v5", "v7", "v20", "v21", "v22", "b1"),
                    st2_uzp!(),
                    r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                    r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                    r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                    r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                    out = inout(reg) *out,
                    a0 = inout(vreg) s0.strip[0], b0 = inout(vreg) s0.strip[1],
                    a1 = inout(vreg) s1.strip[0], b1 = inout(vreg) s1.strip[1],
                    high = in(vreg) k.high,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                    out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                    out("v16") _, out("v17") _, out("v18") _, out("v20") _, out("v21") _,
                    out("v22") _, out("v24") _, out("v25") _,
                    options(nostack, preserves_flags),
                ),
                // pack_group dispatches only the tiles above.
                _ => {}
            }
        }
    }

    /// Moves the strip's byte accumulators into the 16-bit ones.
    fn end_strip<const SETS: usize, const ZP8: bool>(sums: &mut [SetSums; 2]) {
        for sum in sums.iter_mut().take(SETS) {
            // SAFETY: NEON is part of the AArch64 baseline.
            unsafe {
                if ZP8 {
                    sum.high = vpadalq_u8(sum.high, sum.strip[0]);
                } else {
                    let mut pairs = vreinterpretq_s16_u16(sum.pairs);
                    for strip in sum.strip {
                        pairs = vpadalq_s8(pairs, vreinterpretq_s8_u8(strip));
                    }
                    sum.pairs = vreinterpretq_u16_s16(pairs);
                }
                sum.strip = [vdupq_n_u8(0); 2];
            }
        }
    }

    /// Moves the 16-bit sums into the 32-bit per-column ones.
    fn widen<const SETS: usize, const ZP8: bool>(sums: &mut [SetSums; 2]) {
        for sum in sums.iter_mut().take(SETS) {
            // SAFETY: NEON is part of the AArch64 baseline.
            unsafe {
                if ZP8 {
                    // sum(u) = sum(bytes) - 15 * sum(high nibbles), exact modulo 2^16.
                    let nibbles = vmlsq_n_u16(sum.pairs, sum.high, 15);
                    sum.wide = vpadalq_u16(sum.wide, nibbles);
                } else {
                    let wide = vreinterpretq_s32_u32(sum.wide);
                    let pairs = vreinterpretq_s16_u16(sum.pairs);
                    sum.wide = vreinterpretq_u32_s32(vpadalq_s16(wide, pairs));
                }
                sum.pairs = vdupq_n_u16(0);
                sum.high = vdupq_n_u16(0);
            }
        }
    }
}
