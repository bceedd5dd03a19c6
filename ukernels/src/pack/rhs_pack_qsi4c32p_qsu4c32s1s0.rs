//! `rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0` and the NEON forms
//! `rhs_pack_nxk_qsi4c32pnrx{4,8}_qsu4c32s1s0_neon`: int4 weights with one bf16 scale per block
//! of `bl` K values, packed for the `qai8dxp x qsi4c32p` kernels (KleidiAI 1.30, byte for byte).
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

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsi4c32p as layout};
use crate::types::kai_datatype;

use super::Source;

/// Which KleidiAI packer of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `rhs_pack_nxk_qsi4c32p_qsu4c32s1s0`.
    Nxk,
    /// `rhs_pack_kxn_qsi4c32p_qsu4c32s1s0`.
    Kxn,
    /// `rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon` (block depth `kr / sr` must be 4).
    NxkNrx4,
    /// `rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon` (block depth `kr / sr` must be 8).
    NxkNrx8,
}

impl Variant {
    /// Orientation of the source matrix.
    pub const fn source(self) -> Source {
        match self {
            Variant::Kxn => Source::Kxn,
            _ => Source::Nxk,
        }
    }

    /// The block depth `kr / sr` a NEON form is written for.
    const fn required_block_depth(self) -> Option<usize> {
        match self {
            Variant::NxkNrx4 => Some(4),
            Variant::NxkNrx8 => Some(8),
            _ => None,
        }
    }

    /// Whether row sums take one product per 32-value chunk (NEON forms) rather than per segment.
    const fn sums_per_chunk(self) -> bool {
        self.required_block_depth().is_some()
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
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the C struct the caller passed.
    let p = unsafe { Params::read(a.params) };
    contract::require(p.rhs_zero_point == 8, "params->rhs_zero_point == 8")?;
    contract::require(p.lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    check_getter(a.k, a.nr, a.kr, a.sr, a.bl, p.scale_dt)?;
    if let Some(depth) = variant.required_block_depth() {
        contract::require(
            a.kr / a.sr == depth,
            if depth == 4 {
                "block_length_in_bytes == 4"
            } else {
                "block_length_in_bytes == 8"
            },
        )?;
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
                // SAFETY: channel n_idx has `blocks` scales of 2 bytes at scale_stride.
                let raw_scale = unsafe {
                    a.scale
                        .add(n_idx * a.scale_stride + 2 * b)
                        .cast::<[u8; 2]>()
                        .read_unaligned()
                };
                // SAFETY: the scales follow the block's nr * bl / 2 data bytes.
                unsafe {
                    block
                        .add(nr * bl / 2 + 2 * col)
                        .cast::<[u8; 2]>()
                        .write_unaligned(raw_scale)
                };
                let d = f32::from_bits((u16::from_ne_bytes(raw_scale) as u32) << 16);
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
                            Variant::NxkNrx4 | Variant::NxkNrx8 => chunk_sum += segment_sum,
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
