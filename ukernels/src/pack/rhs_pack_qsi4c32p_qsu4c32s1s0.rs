//! `rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0`, the NEON forms
//! `rhs_pack_nxk_qsi4c32pnrx{4,8}_qsu4c32s1s0_neon` and the `ps1s0` forms
//! `rhs_pack_{nxk,kxn}_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon` of the SME2 kernels: int4 weights with
//! one bf16 scale per block of `bl` K values, packed for the `qai8dxp x qsi4c32p` kernels
//! (KleidiAI 1.30, byte for byte). The `ps1s0` forms keep the layout below except for the order
//! of the data bytes inside a block (see `run_sequential`).
//!
//! Source: unsigned nibbles with zero point 8, low nibble = even index (`nxk`: rows of K with
//! `rhs_stride` bytes each; `kxn`: rows of N). Scales: bf16, `scale[n * scale_stride + 2b]` bytes.
//!
//! Group layout (`nr` columns, `blen = kr / sr` bytes): per block, `nr * bl / 2` data bytes (per
//! 32-value chunk, per `blen`-byte segment, per column; byte `j` of a segment holds K `s*blen + j`
//! of the chunk low and `16 + s*blen + j` high, as `(u ^ 8)` signed nibbles), then `nr` bf16
//! scales copied verbatim; after the blocks, `nr` f32 row sums and `nr` f32 biases. Columns past
//! `n` repeat column `n - 1`.
//!
//! Row sums are `sum over blocks of d_b * sum(u - 8)` in f32, accumulated in the order each
//! KleidiAI packer uses (which can differ in the last bit): the scalar packers add one product per
//! `blen`-byte segment, the NEON ones one per 32-value chunk.
//!
//! # How the packer is organised
//!
//! When `blen` divides 16 (every kernel's tile) the packer works per group, per block, per
//! 32-value chunk, per column, like `rhs_pack_qsi4cxp_qs4cxs1s0`: a column's 16 packed bytes of a
//! chunk come from 16 source bytes with shifts and masks (Nxk: the column's row; Kxn: one nibble
//! from each of 32 rows), and segment `s` (packed bytes `s * blen..`, i.e. source bytes
//! `s * blen / 2..` of each half of the chunk) gives the integer `segment_sum` of the row-sum
//! recurrence. The f32 recurrence itself runs in each variant's order:
//! * `Nxk`: `sum += segment_sum as f32 * d` per segment;
//! * `NxkNrx4` / `NxkNrx8`: `sum += chunk_sum as f32 * d` per chunk;
//! * `Kxn`: `segment_scaled += pair as f32 * d` per packed byte from 0, then `sum +=
//!   segment_scaled` per segment. For a finite `d` below 2^119 every partial sum is
//!   `d * (integer of at most 9 bits)`, exact in f32, so `segment_scaled == segment_sum as f32 *
//!   d` bit for bit and the `Nxk` recurrence applies; other scales (inf, NaN, huge) take the
//!   per-byte recurrence.
//!
//! On AArch64 `nr` in {4, 8} with `blen` 8 (the i8mm and 8-deep dotprod tiles) use NEON (see
//! `neon`); other cases run the portable code, with the same bytes. Other block depths keep the
//! byte-by-byte walk of the original code.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsi4c32p as layout};
use crate::types::kai_datatype;

use super::Source;
use super::rhs_pack_qsi4cxp_qs4cxs1s0::{kxn_chunk, nibble_sum, packed_chunk, store_segments};

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qsi4c32pPacker as Variant;

impl Variant {
    /// Orientation of the source matrix.
    pub const fn source(self) -> Source {
        match self {
            Variant::Kxn | Variant::KxnPs1s0Nrx4 => Source::Kxn,
            _ => Source::Nxk,
        }
    }

    /// The block depth `kr / sr` a NEON form is written for, with KleidiAI's assertion text.
    const fn required_block_depth(self) -> Option<(usize, &'static str)> {
        match self {
            Variant::NxkNrx4 => Some((4, "block_length_in_bytes == 4")),
            Variant::NxkNrx8 => Some((8, "block_length_in_bytes == 8")),
            Variant::NxkPs1s0Nrx4 | Variant::KxnPs1s0Nrx4 => Some((4, "block_length == 4")),
            _ => None,
        }
    }

    /// Whether the data of a block is in the `ps1s0` order of the SME2 kernels: per 4-value K
    /// step, every column's 2 bytes, K `4q + 2t` in the low nibble of byte `t` and `4q + 2t + 1`
    /// in the high one (rather than the 32-value chunks pairing K `i` with `16 + i`).
    pub const fn sequential_nibbles(self) -> bool {
        matches!(self, Variant::NxkPs1s0Nrx4 | Variant::KxnPs1s0Nrx4)
    }

    /// Whether row sums take one product per 32-value chunk (NEON forms) rather than per segment.
    const fn sums_per_chunk(self) -> bool {
        matches!(self, Variant::NxkNrx4 | Variant::NxkNrx8)
    }

    /// The order in which the packer accumulates its f32 row sums.
    pub const fn sum_order(self) -> crate::reference::SumOrder {
        use crate::reference::SumOrder;
        match self {
            Variant::Nxk => SumOrder::PerSegment,
            Variant::Kxn => SumOrder::PerPair,
            Variant::NxkNrx4 | Variant::NxkNrx8 => SumOrder::PerChunk,
            Variant::NxkPs1s0Nrx4 => SumOrder::PerChunkFused,
            Variant::KxnPs1s0Nrx4 => SumOrder::PerQuadFused,
        }
    }
}

/// The packer parameters (`kai_rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0_params`, same layout),
/// read field by field so an unknown `scale_dt` is an error rather than an invalid Rust enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Must be 1.
    pub lhs_zero_point: i8,
    /// Must be 8.
    pub rhs_zero_point: u8,
    /// Raw `enum kai_datatype` of the scales; must be `kai_dt_bf16`.
    pub scale_dt: u32,
}

impl Params {
    /// Reads the C struct at `p`.
    ///
    /// # Safety
    /// `p` points to a readable 8-byte parameter struct.
    pub unsafe fn read(p: *const u8) -> Self {
        // SAFETY: the struct is { int8_t; uint8_t; enum (4 bytes) at offset 4 }.
        let raw = unsafe { p.cast::<[u8; 8]>().read_unaligned() };
        Params {
            lhs_zero_point: raw[0] as i8,
            rhs_zero_point: raw[1],
            scale_dt: u32::from_ne_bytes([raw[4], raw[5], raw[6], raw[7]]),
        }
    }
}

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Must be 1.
    pub num_groups: usize,
    /// Output channels.
    pub n: usize,
    /// Reduction length (a multiple of `bl`).
    pub k: usize,
    /// Columns per packed group (the kernel's `nr`, a multiple of 4).
    pub nr: usize,
    /// The kernel's `kr`.
    pub kr: usize,
    /// The kernel's `sr`.
    pub sr: usize,
    /// Block length (a multiple of 32 and of `kr`).
    pub bl: usize,
    /// Unpacked uint4 weights.
    pub rhs: *const u8,
    /// Bytes per source row.
    pub rhs_stride: usize,
    /// Optional per-channel bias (`n` floats) or null.
    pub bias: *const f32,
    /// bf16 scales, `k / bl` per channel.
    pub scale: *const u8,
    /// Bytes between the scales of consecutive channels.
    pub scale_stride: usize,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// The parameter struct.
    pub params: *const u8,
}

/// Checks the getters' parameters: KleidiAI's assertions plus size overflow.
pub fn check_getter(
    k: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    bl: usize,
    scale_dt: u32,
) -> Checked {
    contract::packing_params(nr, "nr > 0", kr, sr)?;
    layout::check_block(k, bl)?;
    contract::require(bl % kr == 0, "(bl % kr) == 0")?;
    contract::require(nr % 4 == 0, "(nr % 4) == 0")?;
    contract::require(
        scale_dt == kai_datatype::kai_dt_bf16 as u32,
        "scale_dt == kai_dt_bf16",
    )?;
    layout::stride(k, nr, bl).map(|_| ())
}

/// Checks what `variant` requires of its arguments.
pub fn check(variant: Variant, a: &Args) -> Checked {
    // The ps1s0 forms ignore both (KleidiAI marks them unused).
    if !variant.sequential_nibbles() {
        contract::require(a.num_groups == 1, "num_groups == 1")?;
        contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    }
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the C struct the caller passed.
    let p = unsafe { Params::read(a.params) };
    contract::require(p.rhs_zero_point == 8, "params->rhs_zero_point == 8")?;
    contract::require(p.lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    check_getter(a.k, a.nr, a.kr, a.sr, a.bl, p.scale_dt)?;
    if let Some((depth, assertion)) = variant.required_block_depth() {
        contract::require(a.kr / a.sr == depth, assertion)?;
    }
    contract::require(a.n != 0, "n > 0")?;
    contract::require(a.k != 0, "k > 0")?;
    let row_bytes = match variant.source() {
        Source::Nxk => a.k / 2,
        Source::Kxn => a.n.div_ceil(2),
    };
    contract::require(a.rhs_stride >= row_bytes, "rhs_stride covers a source row")?;
    contract::require(
        a.scale_stride >= (a.k / a.bl) * layout::SCALE_BYTES,
        "scale_stride covers a channel's scales",
    )?;
    RhsLayout::Qsi4c32p { bl: a.bl }.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed for `variant`; `rhs` must hold the source matrix, `scale` the
/// scales (and `bias`, when non-null, `n` floats), and `rhs_packed` must be writable for the
/// packed size.
pub unsafe fn run(variant: Variant, a: &Args) {
    if variant.sequential_nibbles() {
        // SAFETY: forwarded contract.
        return unsafe { run_sequential(variant, a) };
    }
    let blen = a.kr / a.sr;
    if 16 % blen != 0 {
        // SAFETY: forwarded contract.
        return unsafe { run_bytewise(variant, a) };
    }
    let g = Geometry::new(variant, a);
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
            unsafe {
                let sum = pack_column(&g, a, n_idx, col, dst);
                write_trailer(&g, a, dst, col, n_idx, sum);
            }
        }
    }
}

/// Sizes shared by every group of one call (the structured path, `blen` dividing 16).
struct Geometry {
    variant: Variant,
    n: usize,
    nr: usize,
    blen: usize,
    bl: usize,
    /// Blocks per column (`k / bl`).
    blocks: usize,
    /// Bytes of one block of a group: data then scales.
    block_stride: usize,
    /// Bytes of a group.
    stride: usize,
}

impl Geometry {
    fn new(variant: Variant, a: &Args) -> Self {
        Geometry {
            variant,
            n: a.n,
            nr: a.nr,
            blen: a.kr / a.sr,
            bl: a.bl,
            blocks: a.k / a.bl,
            block_stride: layout::block_stride(a.nr, a.bl).unwrap_or(0),
            stride: layout::stride(a.k, a.nr, a.bl).unwrap_or(0),
        }
    }

    /// Source channel of column `col` of `group` (columns past `n` repeat the last channel).
    fn column(&self, group: usize, col: usize) -> usize {
        (group * self.nr + col).min(self.n - 1)
    }
}

/// The bf16 scale of block `b` of channel `n_idx`, as raw bytes.
///
/// # Safety
/// `n_idx < n`, `b < k / bl`, and `a.scale` holds the scales.
#[inline(always)]
unsafe fn raw_scale(a: &Args, n_idx: usize, b: usize) -> [u8; 2] {
    // SAFETY: channel n_idx has `k / bl` scales of 2 bytes at scale_stride.
    unsafe {
        a.scale
            .add(n_idx * a.scale_stride + 2 * b)
            .cast::<[u8; 2]>()
            .read_unaligned()
    }
}

/// The f32 value of a raw bf16 scale.
#[inline(always)]
fn scale_value(raw: [u8; 2]) -> f32 {
    f32::from_bits((u16::from_ne_bytes(raw) as u32) << 16)
}

/// Whether the Kxn per-byte recurrence equals the per-segment one for scale `d` (finite, and
/// `256 * |d|` far from overflow; see the module docs).
#[inline(always)]
fn exact_segments(d: f32) -> bool {
    d.abs() < f32::from_bits(0x7b00_0000) // 2^119
}

/// The 16 source bytes of chunk `c` of channel `n_idx` (K `32c..32c + 32`, two per byte, low
/// first): Nxk reads them, Kxn gathers one nibble from each of 32 rows.
///
/// # Safety
/// `n_idx < n`, `32c + 32 <= k`, and `a.rhs` holds the source matrix.
#[inline(always)]
unsafe fn chunk_bytes(g: &Geometry, a: &Args, n_idx: usize, c: usize) -> [u8; 16] {
    match g.variant.source() {
        // SAFETY: the chunk's 16 bytes lie inside the channel's row (32c + 32 <= k).
        Source::Nxk => unsafe {
            a.rhs
                .add(n_idx * a.rhs_stride + 16 * c)
                .cast::<[u8; 16]>()
                .read_unaligned()
        },
        // SAFETY: rows 32c..32c + 32 lie below k; channel n_idx < n.
        Source::Kxn => unsafe { kxn_chunk(a.rhs, a.rhs_stride, n_idx, c) },
    }
}

/// Block `b` of the group at `dst`, after copying column `col`'s scale of it into place; and
/// that scale as f32.
///
/// # Safety
/// [`check`] passed for the call `g` describes; `n_idx < n`, `col < nr`, `b < k / bl`, `dst`
/// is a group's start.
#[inline(always)]
unsafe fn block_with_scale(
    g: &Geometry,
    a: &Args,
    dst: *mut u8,
    n_idx: usize,
    col: usize,
    b: usize,
) -> (*mut u8, f32) {
    // SAFETY: block b of the group; its scales follow its nr * bl / 2 data bytes.
    let block = unsafe { dst.add(b * g.block_stride) };
    // SAFETY: forwarded contract.
    let raw = unsafe { raw_scale(a, n_idx, b) };
    // SAFETY: the column's scale slot of the block.
    unsafe {
        block
            .add(g.nr * g.bl / 2 + 2 * col)
            .cast::<[u8; 2]>()
            .write_unaligned(raw)
    };
    (block, scale_value(raw))
}

/// Packs one column's data and scales into a group; returns its f32 row sum.
///
/// # Safety
/// [`check`] passed for the call `g` describes; `n_idx < n`, `col < nr`, `dst` is the group's
/// start.
unsafe fn pack_column(g: &Geometry, a: &Args, n_idx: usize, col: usize, dst: *mut u8) -> f32 {
    let segments = 16 / g.blen;
    // Nibbles of one segment within a 64-bit half chunk.
    let segment_mask = u64::MAX >> (64 - 4 * g.blen);
    let mut sum = 0.0f32;
    for b in 0..g.blocks {
        // SAFETY: forwarded contract.
        let (block, d) = unsafe { block_with_scale(g, a, dst, n_idx, col, b) };
        let per_byte = g.variant == Variant::Kxn && !exact_segments(d);
        for c in 0..g.bl / 32 {
            // SAFETY: chunk b * bl / 32 + c lies below k.
            let bytes = unsafe { chunk_bytes(g, a, n_idx, b * g.bl / 32 + c) };
            // Unsigned nibbles with zero point 8: already the offset coding of the packed data.
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
            let lo = u64::from_le_bytes([l0, l1, l2, l3, l4, l5, l6, l7]);
            let hi = u64::from_le_bytes([h0, h1, h2, h3, h4, h5, h6, h7]);
            let out = packed_chunk(lo, hi);
            // SAFETY: the segments of chunk c of column col lie in the block's data.
            unsafe {
                store_segments(
                    &out,
                    g.blen,
                    block.add((c * segments * g.nr + col) * g.blen),
                    g.nr * g.blen,
                )
            };
            // Row sum: packed byte i pairs K i (nibble i of lo) with K 16 + i (of hi).
            let mut chunk_sum = 0i32;
            for s in 0..segments {
                let mask = segment_mask << (4 * g.blen * s);
                if per_byte {
                    let mut segment_scaled = 0.0f32;
                    for i in s * g.blen..(s + 1) * g.blen {
                        let u = |x: u64| ((x >> (4 * i)) & 0x0f) as i32;
                        let pair = u(lo) + u(hi) - 16;
                        segment_scaled += pair as f32 * d;
                    }
                    sum += segment_scaled;
                } else {
                    let nibbles = nibble_sum(lo & mask) + nibble_sum(hi & mask);
                    let segment_sum = nibbles as i32 - 16 * g.blen as i32;
                    match g.variant {
                        Variant::NxkNrx4 | Variant::NxkNrx8 => chunk_sum += segment_sum,
                        _ => sum += segment_sum as f32 * d,
                    }
                }
            }
            if g.variant.sums_per_chunk() {
                sum += chunk_sum as f32 * d;
            }
        }
    }
    sum
}

/// Writes column `col`'s row sum and bias after the group's blocks.
///
/// # Safety
/// `dst` is a group's start, `col < nr`, `n_idx < n`; `a.bias` is null or holds `n` floats.
unsafe fn write_trailer(g: &Geometry, a: &Args, dst: *mut u8, col: usize, n_idx: usize, sum: f32) {
    // SAFETY: the trailer holds nr sums and nr biases; bias has n entries when non-null.
    unsafe {
        let sums = dst.add(g.blocks * g.block_stride);
        sums.add(4 * col).cast::<f32>().write_unaligned(sum);
        sums.add(4 * (g.nr + col))
            .cast::<f32>()
            .write_unaligned(super::bias_at(a.bias, n_idx));
    }
}

/// The original byte-by-byte walk, for block depths that do not divide 16 (no kernel uses one;
/// such depths leave bytes of each chunk unwritten, which this reproduces).
///
/// # Safety
/// As for [`run`].
unsafe fn run_bytewise(variant: Variant, a: &Args) {
    let (n, k, nr, bl) = (a.n, a.k, a.nr, a.bl);
    let blen = a.kr / a.sr;
    let segments = 16 / blen;
    let stride = layout::stride(k, nr, bl).unwrap_or(0);
    let block_stride = layout::block_stride(nr, bl).unwrap_or(0);
    let blocks = k / bl;
    // Unsigned source nibble of (channel, K index).
    let nibble = |n_idx: usize, k_idx: usize| -> u8 {
        let (row, col) = match variant.source() {
            Source::Nxk => (n_idx, k_idx),
            Source::Kxn => (k_idx, n_idx),
        };
        // SAFETY: row and col lie inside the source matrix (n_idx < n, k_idx < k).
        let byte = unsafe { a.rhs.add(row * a.rhs_stride + col / 2).read() };
        (byte >> ((col % 2) * 4)) & 0x0f
    };
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let group = unsafe { a.rhs_packed.add(g * stride) };
        // SAFETY: the sums and biases follow the blocks inside the group.
        let sums = unsafe { group.add(blocks * block_stride) };
        let biases = unsafe { sums.add(4 * nr) };
        for col in 0..nr {
            let n_idx = (g * nr + col).min(n - 1);
            let mut sum = 0.0f32;
            for b in 0..blocks {
                // SAFETY: block b of the group.
                let block = unsafe { group.add(b * block_stride) };
                // SAFETY: forwarded contract.
                let raw = unsafe { raw_scale(a, n_idx, b) };
                // SAFETY: the scales follow the block's nr * bl / 2 data bytes.
                unsafe {
                    block
                        .add(nr * bl / 2 + 2 * col)
                        .cast::<[u8; 2]>()
                        .write_unaligned(raw)
                };
                let d = scale_value(raw);
                for c in 0..bl / 32 {
                    let k_chunk = b * bl + 32 * c;
                    let mut chunk_sum = 0i32;
                    for s in 0..segments {
                        let mut segment_sum = 0i32;
                        // The kxn packer scales each byte's pair before adding (differs from
                        // segment_sum * d only for non-finite scales).
                        let mut segment_scaled = 0.0f32;
                        for j in 0..blen {
                            let kk = k_chunk + s * blen + j;
                            let (lo, hi) = (nibble(n_idx, kk), nibble(n_idx, kk + 16));
                            let pair = lo as i32 + hi as i32 - 16;
                            segment_sum += pair;
                            segment_scaled += pair as f32 * d;
                            let at = ((c * segments + s) * nr + col) * blen + j;
                            // SAFETY: at < nr * bl / 2, inside the block's data.
                            unsafe { block.add(at).write((lo | (hi << 4)) ^ 0x88) };
                        }
                        match variant {
                            Variant::Kxn => sum += segment_scaled,
                            Variant::Nxk => sum += segment_sum as f32 * d,
                            _ => chunk_sum += segment_sum,
                        }
                    }
                    if variant.sums_per_chunk() {
                        sum += chunk_sum as f32 * d;
                    }
                }
            }
            // SAFETY: the trailer holds nr sums and nr biases; bias has n entries when non-null.
            unsafe {
                sums.add(4 * col).cast::<f32>().write_unaligned(sum);
                biases
                    .add(4 * col)
                    .cast::<f32>()
                    .write_unaligned(super::bias_at(a.bias, n_idx));
            }
        }
    }
}

/// The `ps1s0` forms (block depth 4, checked): per group and block, for every 4-value K step
/// `q`, column `col`'s 2 bytes at `(q * nr + col) * 2` hold K `4q .. 4q + 4` as signed nibbles,
/// two per byte, low first. An N x K source row already has that nibble order, so a column's 2
/// bytes are the row's bytes with the zero point flipped (`^ 0x88`); a K x N source gives one
/// nibble from each of 4 rows. Columns past `n` repeat column `n - 1`. (KleidiAI's K x N form
/// loads 16 source columns at a time from the last column's byte on, so its padding columns,
/// and their row sums, hold whatever bytes follow that row; only columns below `n` are defined.)
///
/// Row sums, in f32 from 0 per column: `acc = fma(sum as f32, d, acc)` per 32-value chunk (N x
/// K form) or per 4-value step (K x N form). The K x N form calls `vfmaq_f32`; the N x K form
/// writes `acc += sum * d` in C, which compilers contract into one `FMADD` by default (GCC 12
/// `-O2` for AArch64 does, for this statement and the same one in the `nrx4` packer), so the
/// fused form is KleidiAI's as built.
///
/// # Safety
/// As for [`run`].
unsafe fn run_sequential(variant: Variant, a: &Args) {
    let g = Geometry::new(variant, a);
    let steps = g.bl / 4;
    for group in 0..a.n.div_ceil(a.nr) {
        // SAFETY: group < ceil(n / nr), so the group lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(group * g.stride) };
        for col in 0..a.nr {
            let n_idx = g.column(group, col);
            let mut sum = 0.0f32;
            for b in 0..g.blocks {
                // SAFETY: forwarded contract.
                let (block, d) = unsafe { block_with_scale(&g, a, dst, n_idx, col, b) };
                let mut chunk_sum = 0i32;
                for q in 0..steps {
                    let k_idx = b * g.bl + 4 * q;
                    // SAFETY: K values k_idx .. k_idx + 4 < k of channel n_idx.
                    let bytes = unsafe { step_bytes(a, variant.source(), n_idx, k_idx) };
                    let step_sum = nibble_sum(u16::from_le_bytes(bytes) as u64) as i32 - 4 * 8;
                    // SAFETY: the column's 2 bytes of step q lie in the block's data.
                    unsafe {
                        block
                            .add((q * g.nr + col) * 2)
                            .cast::<[u8; 2]>()
                            .write_unaligned(bytes.map(|x| x ^ 0x88))
                    };
                    if variant == Variant::KxnPs1s0Nrx4 {
                        sum = libm::fmaf(step_sum as f32, d, sum);
                    } else {
                        chunk_sum += step_sum;
                        if q % 8 == 7 {
                            sum = libm::fmaf(chunk_sum as f32, d, sum);
                            chunk_sum = 0;
                        }
                    }
                }
            }
            // SAFETY: forwarded contract; col < nr, n_idx < n.
            unsafe { write_trailer(&g, a, dst, col, n_idx, sum) };
        }
    }
}

/// The 2 source bytes of K values `k_idx .. k_idx + 4` of channel `n_idx` (`k_idx` a multiple
/// of 4), unsigned nibbles, low first.
///
/// # Safety
/// `n_idx < n`, `k_idx + 4 <= k`, and `a.rhs` holds the source matrix.
#[inline(always)]
unsafe fn step_bytes(a: &Args, source: Source, n_idx: usize, k_idx: usize) -> [u8; 2] {
    match source {
        // SAFETY: the 2 bytes lie inside the channel's row.
        Source::Nxk => unsafe {
            a.rhs
                .add(n_idx * a.rhs_stride + k_idx / 2)
                .cast::<[u8; 2]>()
                .read_unaligned()
        },
        Source::Kxn => {
            let shift = 4 * (n_idx % 2);
            // SAFETY: rows k_idx .. k_idx + 4 lie below k; byte n_idx / 2 inside each row.
            let v = |r: usize| unsafe {
                (a.rhs.add((k_idx + r) * a.rhs_stride + n_idx / 2).read() >> shift) & 0x0f
            };
            [v(0) | (v(1) << 4), v(2) | (v(3) << 4)]
        }
    }
}

/// NEON form for block depth 8 and `nr` in {4, 8} (Kxn chunks are first gathered into 16-byte
/// copies per column).
///
/// The data of a chunk is packed as in `rhs_pack_qsi4cxp_qs4cxs1s0` with zero point 8 (the same
/// `LD4` lane loads, merges and `ST2` stores, from that module's macros). With block depth 8 the
/// two pairs `(v0, v2)` and `(v1, v3)` of a set are exactly segments 0 and 1 of its four columns,
/// so the integer segment sums come per 32-bit lane: byte pairs (`UADDLP`/`UADALP`) and high
/// nibbles (`USHR`/`USRA`) are reduced to 16-bit per-column sums of both segments with `ADDP`,
/// `sum(u) = sum(bytes) - 15 * sum(high nibbles)` (`MLS`), minus 16 per byte, and the f32
/// recurrence runs on four columns at once (`SCVTF`, `FMUL`, `FADD`: the same IEEE operations
/// in the same order as the scalar code, so the same bits, NaN payloads included). The `NxkNrx*`
/// variants add the two segments before converting.
#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::*;
    use core::arch::asm;

    use super::{
        Args, Geometry, Variant, exact_segments, kxn_chunk, raw_scale, scale_value, write_trailer,
    };
    use crate::pack::rhs_pack_qsi4cxp_qs4cxs1s0::neon::{load_set, merge_zp8, st2_pair};

    /// Packs `group` if its tile has a NEON form; returns whether it did.
    ///
    /// # Safety
    /// As for [`super::run`]; `dst` is the group's start.
    pub(super) unsafe fn pack_group(g: &Geometry, a: &Args, group: usize, dst: *mut u8) -> bool {
        if g.blen != 8 {
            return false;
        }
        if g.variant == Variant::Kxn {
            // The vector recurrence is the per-segment one, which the Kxn packer follows only
            // for scales where both agree (see the module docs): otherwise the portable code.
            for col in 0..g.nr {
                for b in 0..g.blocks {
                    // SAFETY: forwarded contract.
                    let raw = unsafe { raw_scale(a, g.column(group, col), b) };
                    if !exact_segments(scale_value(raw)) {
                        return false;
                    }
                }
            }
        }
        let per_chunk = g.variant.sums_per_chunk();
        // SAFETY (every arm): forwarded contract.
        let sums = unsafe {
            match (g.nr, per_chunk) {
                (4, false) => group_sets::<1, false>(g, a, group, dst),
                (4, true) => group_sets::<1, true>(g, a, group, dst),
                (8, false) => group_sets::<2, false>(g, a, group, dst),
                (8, true) => group_sets::<2, true>(g, a, group, dst),
                _ => return false,
            }
        };
        for (col, &sum) in sums.iter().enumerate().take(g.nr) {
            // SAFETY: forwarded contract; col < nr.
            unsafe { write_trailer(g, a, dst, col, g.column(group, col), sum) };
        }
        true
    }

    /// Packs one group of `SETS` sets of 4 columns; returns each column's f32 row sum.
    ///
    /// # Safety
    /// As for [`pack_group`], with `nr == 4 * SETS`, block depth 8, and `PER_CHUNK` the
    /// variant's sum order.
    #[inline(never)]
    unsafe fn group_sets<const SETS: usize, const PER_CHUNK: bool>(
        g: &Geometry,
        a: &Args,
        group: usize,
        dst: *mut u8,
    ) -> [f32; 8] {
        let mut cols = [0usize; 8];
        let mut rows = [a.rhs; 8];
        for col in 0..4 * SETS {
            cols[col] = g.column(group, col);
            // SAFETY: the channel's row lies inside the source matrix.
            rows[col] = unsafe { a.rhs.add(cols[col] * a.rhs_stride) };
        }
        // SAFETY: NEON is part of the AArch64 baseline.
        let (flip, k80, c15, c128, c256, mut sum) = unsafe {
            (
                vdupq_n_u8(0x88),
                vdupq_n_u8(0x80),
                vdupq_n_u16(15),
                vdupq_n_u16(128),
                vdupq_n_u32(256),
                [vdupq_n_f32(0.0); 2],
            )
        };
        let kxn = g.variant == Variant::Kxn;
        let mut copies = [[0u8; 16]; 8];
        let mut out = dst;
        for b in 0..g.blocks {
            // This block's scales: copied after its data, and widened to f32 per set.
            let mut raw = [0u16; 8];
            for col in 0..4 * SETS {
                // SAFETY: forwarded contract; cols[col] < n, b < blocks.
                raw[col] = u16::from_ne_bytes(unsafe { raw_scale(a, cols[col], b) });
            }
            // SAFETY: the block's nr scales follow its nr * bl / 2 data bytes; NEON is baseline.
            let d = unsafe {
                let scales = dst.add(b * g.block_stride + g.nr * g.bl / 2);
                scales
                    .cast::<u16>()
                    .copy_from_nonoverlapping(raw.as_ptr(), 4 * SETS);
                let raw = vld1q_u16(raw.as_ptr());
                [
                    vreinterpretq_f32_u32(vshll_n_u16::<16>(vget_low_u16(raw))),
                    vreinterpretq_f32_u32(vshll_high_n_u16::<16>(raw)),
                ]
            };
            for c in 0..g.bl / 32 {
                if kxn {
                    // Kxn: gather the chunk of each column into a 16-byte copy, then pack the
                    // copies as Nxk rows.
                    for col in 0..4 * SETS {
                        let chunk = b * g.bl / 32 + c;
                        // SAFETY: rows 32 chunk..32 chunk + 32 lie below k; cols[col] < n.
                        copies[col] = unsafe { kxn_chunk(a.rhs, a.rhs_stride, cols[col], chunk) };
                        rows[col] = copies[col].as_ptr();
                    }
                }
                let [r0, r1, r2, r3, r4, r5, r6, r7] = &mut rows;
                let [s0, s1] = &mut sum;
                // Register plan: set 0 loads into v0..v3, set 1 into v4..v7; a pair's packed
                // bytes go to v16/v17; v18..v21 hold the sums.
                // SAFETY: loads of 16 bytes at each used row pointer (a chunk of the channel)
                // and stores of the chunk's 64 * SETS bytes at `out`; no stack; flags kept.
                unsafe {
                    match (SETS, PER_CHUNK) {
                        (1, false) => asm!(
                            load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                            merge_zp8!("v0", "v2", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v1", "v3", "v16", "v17"),
                            st2_pair!(),
                            segment_sums!("v0", "v1", "v2", "v3"),
                            segment_f32!("d0", "s0"),
                            r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                            r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                            out = inout(reg) out,
                            s0 = inout(vreg) *s0, d0 = in(vreg) d[0],
                            flip = in(vreg) flip, k80 = in(vreg) k80,
                            c15 = in(vreg) c15, c128 = in(vreg) c128,
                            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
                            out("v20") _, out("v21") _,
                            options(nostack, preserves_flags),
                        ),
                        (1, true) => asm!(
                            load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                            merge_zp8!("v0", "v2", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v1", "v3", "v16", "v17"),
                            st2_pair!(),
                            chunk_sums!("v0", "v1", "v2", "v3", "d0", "s0"),
                            r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                            r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                            out = inout(reg) out,
                            s0 = inout(vreg) *s0, d0 = in(vreg) d[0],
                            flip = in(vreg) flip, k80 = in(vreg) k80,
                            c15 = in(vreg) c15, c256 = in(vreg) c256,
                            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
                            out("v20") _,
                            options(nostack, preserves_flags),
                        ),
                        (2, false) => asm!(
                            load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                            load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                            merge_zp8!("v0", "v2", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v4", "v6", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v1", "v3", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v5", "v7", "v16", "v17"),
                            st2_pair!(),
                            segment_sums!("v0", "v1", "v2", "v3"),
                            segment_f32!("d0", "s0"),
                            segment_sums!("v4", "v5", "v6", "v7"),
                            segment_f32!("d1", "s1"),
                            r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                            r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                            r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                            r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                            out = inout(reg) out,
                            s0 = inout(vreg) *s0, d0 = in(vreg) d[0],
                            s1 = inout(vreg) *s1, d1 = in(vreg) d[1],
                            flip = in(vreg) flip, k80 = in(vreg) k80,
                            c15 = in(vreg) c15, c128 = in(vreg) c128,
                            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                            out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
                            out("v20") _, out("v21") _,
                            options(nostack, preserves_flags),
                        ),
                        (2, true) => asm!(
                            load_set!("v0", "v1", "v2", "v3", "r0", "r1", "r2", "r3"),
                            load_set!("v4", "v5", "v6", "v7", "r4", "r5", "r6", "r7"),
                            merge_zp8!("v0", "v2", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v4", "v6", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v1", "v3", "v16", "v17"),
                            st2_pair!(),
                            merge_zp8!("v5", "v7", "v16", "v17"),
                            st2_pair!(),
                            chunk_sums!("v0", "v1", "v2", "v3", "d0", "s0"),
                            chunk_sums!("v4", "v5", "v6", "v7", "d1", "s1"),
                            r0 = inout(reg) *r0, r1 = inout(reg) *r1,
                            r2 = inout(reg) *r2, r3 = inout(reg) *r3,
                            r4 = inout(reg) *r4, r5 = inout(reg) *r5,
                            r6 = inout(reg) *r6, r7 = inout(reg) *r7,
                            out = inout(reg) out,
                            s0 = inout(vreg) *s0, d0 = in(vreg) d[0],
                            s1 = inout(vreg) *s1, d1 = in(vreg) d[1],
                            flip = in(vreg) flip, k80 = in(vreg) k80,
                            c15 = in(vreg) c15, c256 = in(vreg) c256,
                            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                            out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
                            out("v20") _,
                            options(nostack, preserves_flags),
                        ),
                        // pack_group dispatches only the tiles above.
                        _ => {}
                    }
                }
            }
            // Past the block's scales to the next block's data.
            // SAFETY: still inside the group (the trailer follows the last block).
            out = unsafe { out.add(2 * g.nr) };
        }
        let mut result = [0f32; 8];
        for (s, set) in sum.iter().enumerate().take(SETS) {
            // SAFETY: 4 lanes into entries 4s..4s + 4 (s < 2).
            unsafe { vst1q_f32(result.as_mut_ptr().add(4 * s), *set) };
        }
        result
    }

    /// Segment sums of one set from its loaded registers (`$l0`, `$l1`, `$h0`, `$h1`): in v18,
    /// 16-bit `[segment 0 of columns 0..4, segment 1 of columns 0..4]` of offset-coded nibbles.
    macro_rules! segment_sums {
        ($l0:literal, $l1:literal, $h0:literal, $h1:literal) => {
            concat!(
                "uaddlp v18.8h, ",
                $l0,
                ".16b\n",
                "uadalp v18.8h, ",
                $h0,
                ".16b\n",
                "uaddlp v19.8h, ",
                $l1,
                ".16b\n",
                "uadalp v19.8h, ",
                $h1,
                ".16b\n",
                "ushr v20.16b, ",
                $l0,
                ".16b, #4\n",
                "usra v20.16b, ",
                $h0,
                ".16b, #4\n",
                "ushr v21.16b, ",
                $l1,
                ".16b, #4\n",
                "usra v21.16b, ",
                $h1,
                ".16b, #4\n",
                "addp v20.16b, v20.16b, v21.16b\n",
                "uaddlp v20.8h, v20.16b\n",
                "addp v18.8h, v18.8h, v19.8h\n",
                "mls v18.8h, v20.8h, {c15:v}.8h\n",
            )
        };
    }

    /// `sum += (segment - 128) as f32 * d` for segment 0 then 1 of the sums in v18.
    macro_rules! segment_f32 {
        ($d:literal, $sum:literal) => {
            concat!(
                "usubl v19.4s, v18.4h, {c128:v}.4h\n",
                "usubl2 v20.4s, v18.8h, {c128:v}.8h\n",
                "scvtf v19.4s, v19.4s\n",
                "scvtf v20.4s, v20.4s\n",
                "fmul v19.4s, v19.4s, {",
                $d,
                ":v}.4s\n",
                "fadd {",
                $sum,
                ":v}.4s, {",
                $sum,
                ":v}.4s, v19.4s\n",
                "fmul v20.4s, v20.4s, {",
                $d,
                ":v}.4s\n",
                "fadd {",
                $sum,
                ":v}.4s, {",
                $sum,
                ":v}.4s, v20.4s\n",
            )
        };
    }

    /// `sum += (chunk - 256) as f32 * d` per column of one set (`NxkNrx*` order).
    macro_rules! chunk_sums {
        ($l0:literal, $l1:literal, $h0:literal, $h1:literal, $d:literal, $sum:literal) => {
            concat!(
                "uaddlp v18.8h, ",
                $l0,
                ".16b\n",
                "uadalp v18.8h, ",
                $h0,
                ".16b\n",
                "uadalp v18.8h, ",
                $l1,
                ".16b\n",
                "uadalp v18.8h, ",
                $h1,
                ".16b\n",
                "ushr v19.16b, ",
                $l0,
                ".16b, #4\n",
                "usra v19.16b, ",
                $h0,
                ".16b, #4\n",
                "usra v19.16b, ",
                $l1,
                ".16b, #4\n",
                "usra v19.16b, ",
                $h1,
                ".16b, #4\n",
                "uaddlp v19.8h, v19.16b\n",
                "mls v18.8h, v19.8h, {c15:v}.8h\n",
                "uaddlp v18.4s, v18.8h\n",
                "sub v18.4s, v18.4s, {c256:v}.4s\n",
                "scvtf v18.4s, v18.4s\n",
                "fmul v18.4s, v18.4s, {",
                $d,
                ":v}.4s\n",
                "fadd {",
                $sum,
                ":v}.4s, {",
                $sum,
                ":v}.4s, v18.4s\n",
            )
        };
    }
    use {chunk_sums, segment_f32, segment_sums};
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    rhs_pack_nxk_qsi4c32p_qsu4c32s1s0: Rhs(Qsi4c32p(Variant::Nxk));
    rhs_pack_kxn_qsi4c32p_qsu4c32s1s0: Rhs(Qsi4c32p(Variant::Kxn));
    /// block depth `kr / sr` = 4.
    rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon: Rhs(Qsi4c32p(Variant::NxkNrx4));
    /// block depth `kr / sr` = 8.
    rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon: Rhs(Qsi4c32p(Variant::NxkNrx8));
    /// (sequential nibbles, block depth 4: the
    /// format of KleidiAI's SME2 `qsi4c32p4vlx4` kernels; ONNX Runtime's Q4 packer).
    rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon: Rhs(Qsi4c32p(Variant::NxkPs1s0Nrx4));
    /// the same format from a K x N source.
    rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon: Rhs(Qsi4c32p(Variant::KxnPs1s0Nrx4));
}
