//! `rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0`,
//! `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon` and
//! `rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon`: int4 weights with one f16 scale per block,
//! from llama.cpp's Q4_0 rows (KleidiAI 1.30, byte for byte).
//!
//! Source (`qsu4c32s16s0`): N rows of `k / bl` blocks, each `[f16 scale][bl / 2 bytes]` where
//! byte `j` holds value `j` in its low nibble and value `j + bl / 2` in its high nibble, unsigned
//! with zero point 8. Rows are `k / bl * (bl / 2 + 2)` bytes apart.
//!
//! * `Scalef16` (read by the NEON and SVE kernels): per group of `nr` columns and per block, the
//!   `nr` scales copied verbatim, then `bl / kr` segments of `nr x kr / 2` bytes: column `c`'s
//!   `kr / 2` bytes are the source bytes of the segment with each byte XORed with `0x88` (each
//!   nibble becomes the signed value `u - 8`, the nibble pairing is kept). Columns past `n`
//!   repeat column `n - 1`. This is KleidiAI's walk, including what it does when `bl` is not a
//!   multiple of `kr` (source and destination drift together).
//! * `Ps1s0Scalef16Neon` (`kr = 4`, read by KleidiAI's SME2 kernels): nibbles made sequential
//!   (byte `e` of a block holds values `2e` low and `2e + 1` high), unsigned (no XOR), stored per
//!   block in 4-value units (`u16`), unit `q` of column `c` at `(block * bl / 4 + q) * nr + c`;
//!   all scales at the end of the group as `[blocks][nr]`. Columns past `n` are left untouched.
//! * `Ps4s0Sf16Neon` (`kr = 4`, read by KleidiAI's SME kernels, which widen nibbles by shifting
//!   instead of a table): per block, 8-value packets of 4 bytes, byte `t` of packet `p` holding
//!   values `8p + t` (low nibble) and `8p + t + 4` (high), signed (`u ^ 8`); packet `p` of
//!   column `c` at `(block * bl / 8 + p) * nr + c` (4-byte units). The kernels see each value
//!   times 16, so the scales at the end of the group (`[blocks][nr]`) are `f16(f32(d) / 16)`.
//!   Columns past `n` are left untouched.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsi4c32pf16 as layout};

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qsi4c32pf16Packer as Variant;

impl Variant {
    /// Whether the packer writes every block's data first and all scales at the end of the
    /// group (the SME kernels' formats).
    pub const fn scales_at_end(self) -> bool {
        !matches!(self, Variant::Scalef16)
    }
}

/// Largest block length of the SME formats' packers (KleidiAI's `KAI_SME_VEC_LENGTH_MAX_BYTES`).
pub const PS1S0_MAX_BL: usize = 256;

/// Arguments of one packing call: those every RHS packer takes (see [`super::args::RhsArgs`]).
pub use super::args::RhsArgs as Args;

/// Checks the getters' parameters: KleidiAI's `(bl % 32) == 0`, `(k % 2) == 0`, `(k % kr) == 0`,
/// `(k % bl) == 0`, plus size overflow and a non-zero `kr` and `bl`, which KleidiAI divides by
/// (its C is undefined there; Rust's `%` would panic). A zero `nr` is KleidiAI's: the getters
/// answer 0 (see `RhsLayout::offset`); packing refuses it ([`check`]).
pub fn check_getter(k: usize, nr: usize, kr: usize, bl: usize) -> Checked {
    contract::require(kr != 0, "kr > 0")?;
    layout::check_block(k, bl)?;
    contract::require(k % 2 == 0, "(k % 2) == 0")?;
    contract::require(k % kr == 0, "(k % kr) == 0")?;
    layout::stride(k, nr, bl).map(|_| ())
}

/// Checks what `variant` requires of its arguments (KleidiAI's assertions).
pub fn check(variant: Variant, a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    // Packing `nr`-column groups of zero columns would never advance.
    contract::require(a.nr != 0, "nr > 0")?;
    check_getter(a.k, a.nr, a.kr, a.bl)?;
    contract::require(a.bias.is_null(), "bias == NULL")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    match variant {
        Variant::Scalef16 => {}
        Variant::Ps1s0Scalef16Neon | Variant::Ps4s0Sf16Neon => {
            contract::require(a.bl <= PS1S0_MAX_BL, "bl <= kai_max_bl")?;
            contract::require(a.kr == 4, "kr == 4")?;
        }
    }
    contract::require(a.sr == 2, "sr == 2")?;
    contract::require(a.kr <= 16, "kr >= 1 && kr <= 16")?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the 2-byte C struct the caller passed.
    let (lhs_zero_point, rhs_zero_point) = unsafe { (*a.params as i8, *a.params.add(1)) };
    contract::require(rhs_zero_point == 8, "params->rhs_zero_point == 8")?;
    contract::require(lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    RhsLayout::Qsi4c32pf16 { bl: a.bl }.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    contract::mul(a.n, source_stride(a.k, a.bl), "source size fits in size_t")?;
    Ok(())
}

/// Bytes between source rows: `k / bl` blocks of a scale and `bl / 2` nibble bytes.
pub const fn source_stride(k: usize, bl: usize) -> usize {
    k / bl * (bl / 2 + layout::SCALE_BYTES)
}

/// Packs the weights described by `a`.
///
/// # Safety
/// [`check`] passed for `variant`; `rhs` holds `n` source rows; `rhs_packed` is writable for the
/// packed size.
pub unsafe fn run(variant: Variant, a: &Args) {
    match variant {
        // SAFETY (both arms): forwarded contract.
        Variant::Scalef16 => unsafe {
            // The kernels' group and segment widths get loops with both known at compile time.
            match (a.nr, a.kr / 2) {
                (4, 4) => run_scalef16::<4, 4>(a),
                (4, 8) => run_scalef16::<4, 8>(a),
                (8, 4) => run_scalef16::<8, 4>(a),
                (8, 8) => run_scalef16::<8, 8>(a),
                _ => run_scalef16::<0, 0>(a),
            }
        },
        Variant::Ps1s0Scalef16Neon => unsafe { run_ps1s0(a) },
        Variant::Ps4s0Sf16Neon => unsafe { run_ps4s0(a) },
    }
}

/// Copies `len` bytes from `src` to `dst`, XORing each with `0x88` (whole words where it can).
///
/// # Safety
/// Both ranges are valid for `len` bytes.
#[inline]
unsafe fn copy_xor88(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY (all arms): the ranges hold len bytes.
    unsafe {
        match len {
            8 => {
                let v = src.cast::<u64>().read_unaligned() ^ 0x8888_8888_8888_8888;
                dst.cast::<u64>().write_unaligned(v);
            }
            4 => {
                let v = src.cast::<u32>().read_unaligned() ^ 0x8888_8888;
                dst.cast::<u32>().write_unaligned(v);
            }
            _ => {
                for i in 0..len {
                    *dst.add(i) = *src.add(i) ^ 0x88;
                }
            }
        }
    }
}

/// Widest group whose source rows [`run_scalef16`] keeps in registers (wider groups recompute
/// each row's offset).
const MAX_HOISTED_NR: usize = 16;

/// KleidiAI's walk of the scalar packer; `NR` and `SEG` are `nr` and `kr / 2` when they are known
/// at compile time, 0 otherwise.
///
/// # Safety
/// See [`run`].
unsafe fn run_scalef16<const NR: usize, const SEG: usize>(a: &Args) {
    let (n, bl) = (a.n, a.bl);
    let nr = if NR == 0 { a.nr } else { NR };
    let blocks = a.k / bl;
    let src_stride = source_stride(a.k, bl);
    let stride = layout::stride(a.k, nr, bl).unwrap_or(0);
    let seg_bytes = if SEG == 0 { a.kr / 2 } else { SEG };
    let segments = bl / a.kr;
    let mut rows = [core::ptr::null::<u8>(); MAX_HOISTED_NR];
    for y in (0..n).step_by(nr) {
        // SAFETY (this loop): every source read is row min(y + i, n - 1) at an offset below its
        // stride; every write stays inside group y / nr (the walk writes at most its size).
        let mut dst = unsafe { a.rhs_packed.add((y / nr) * stride) };
        let row = |i: usize| unsafe { a.rhs.add((y + i).min(n - 1) * src_stride) };
        let hoisted = nr <= MAX_HOISTED_NR;
        if hoisted {
            for (i, r) in rows.iter_mut().enumerate().take(nr) {
                *r = row(i);
            }
        }
        let src = |i: usize| if hoisted { rows[i] } else { row(i) };
        let mut src_off = 0;
        for _ in 0..blocks {
            for i in 0..nr {
                unsafe { core::ptr::copy_nonoverlapping(src(i).add(src_off), dst.add(2 * i), 2) };
            }
            src_off += 2;
            dst = unsafe { dst.add(2 * nr) };
            for _ in 0..segments {
                for i in 0..nr {
                    unsafe { copy_xor88(src(i).add(src_off), dst.add(i * seg_bytes), seg_bytes) };
                }
                src_off += seg_bytes;
                dst = unsafe { dst.add(seg_bytes * nr) };
            }
        }
    }
}

/// One source block (`bl / 2` bytes, s16s0 pairing) to sequential nibbles (`bl / 2` bytes).
#[inline]
fn sequential_nibbles(src: &[u8], out: &mut [u8]) {
    let half = src.len();
    for (e, o) in out.iter_mut().enumerate() {
        let v = 2 * e;
        *o = if v < half {
            (src[v] & 0x0f) | (src[v + 1] << 4)
        } else {
            let j = v - half;
            (src[j] >> 4) | (src[j + 1] & 0xf0)
        };
    }
}

/// The `ps1s0` packer.
///
/// # Safety
/// See [`run`].
unsafe fn run_ps1s0(a: &Args) {
    let (nr, bl) = (a.nr, a.bl);
    let blocks = a.k / bl;
    let src_stride = source_stride(a.k, bl);
    let stride = layout::stride(a.k, nr, bl).unwrap_or(0);
    let scales_at = stride - nr * blocks * layout::SCALE_BYTES;
    let mut nibbles = [0u8; PS1S0_MAX_BL / 2];
    let mut seq = [0u8; PS1S0_MAX_BL / 2];
    for n_idx in 0..a.n {
        let (g, c) = (n_idx / nr, n_idx % nr);
        // SAFETY: group g of the output and row n_idx of the source.
        let group = unsafe { a.rhs_packed.add(g * stride) };
        for b in 0..blocks {
            let block = unsafe { a.rhs.add(n_idx * src_stride + b * (bl / 2 + 2)) };
            // SAFETY: a source block is a scale then bl / 2 bytes (bl <= 256 checked).
            unsafe {
                core::ptr::copy_nonoverlapping(block.add(2), nibbles.as_mut_ptr(), bl / 2);
                core::ptr::copy_nonoverlapping(block, group.add(scales_at + 2 * (b * nr + c)), 2);
            }
            sequential_nibbles(&nibbles[..bl / 2], &mut seq[..bl / 2]);
            for q in 0..bl / 4 {
                // SAFETY: unit q of column c in block b lies in the group's data part.
                unsafe {
                    core::ptr::copy_nonoverlapping(
                        seq.as_ptr().add(2 * q),
                        group.add(2 * ((b * bl / 4 + q) * nr + c)),
                        2,
                    )
                };
            }
        }
    }
}

/// One source block (`bl / 2` bytes, s16s0 pairing) to 8-value packets (`bl / 2` bytes): byte
/// `t` of packet `p` holds values `8p + t` (low) and `8p + t + 4` (high), each nibble signed.
/// Packets never straddle the halves of a block (`bl / 2` is a multiple of 16).
#[inline]
fn packets_of_eight(src: &[u8], out: &mut [u8]) {
    let half = src.len();
    for (p, packet) in out.chunks_exact_mut(4).enumerate() {
        // Values 8p.. come from the low nibbles of source bytes 8p.. in the first half of the
        // block, from the high nibbles of bytes 8p - bl / 2.. in the second.
        let (bytes, shift) = if 8 * p < half {
            (&src[8 * p..8 * p + 8], 0)
        } else {
            (&src[8 * p - half..8 * p - half + 8], 4)
        };
        for (t, o) in packet.iter_mut().enumerate() {
            let lo = (bytes[t] >> shift) & 0x0f;
            let hi = (bytes[t + 4] >> shift) & 0x0f;
            *o = (lo | hi << 4) ^ 0x88;
        }
    }
}

/// A Q4_0 scale divided by 16 for kernels that see every value times 16: widened to f32,
/// multiplied by 1/16 and rounded back to f16 (ties to even; a NaN comes back quieted).
#[inline]
fn scale_over_16(bits: u16) -> u16 {
    let d = f32::from_bits(crate::float::f16::to_f32_bits(bits));
    crate::float::f16::from_f32(d * (1.0 / 16.0))
}

/// The `ps4s0` packer.
///
/// # Safety
/// See [`run`].
unsafe fn run_ps4s0(a: &Args) {
    let (nr, bl) = (a.nr, a.bl);
    let blocks = a.k / bl;
    let src_stride = source_stride(a.k, bl);
    let stride = layout::stride(a.k, nr, bl).unwrap_or(0);
    let scales_at = stride - nr * blocks * layout::SCALE_BYTES;
    let mut nibbles = [0u8; PS1S0_MAX_BL / 2];
    let mut packets = [0u8; PS1S0_MAX_BL / 2];
    for n_idx in 0..a.n {
        let (g, c) = (n_idx / nr, n_idx % nr);
        // SAFETY: group g of the output and row n_idx of the source.
        let group = unsafe { a.rhs_packed.add(g * stride) };
        for b in 0..blocks {
            let block = unsafe { a.rhs.add(n_idx * src_stride + b * (bl / 2 + 2)) };
            // SAFETY: a source block is a scale then bl / 2 bytes (bl <= 256 checked).
            let scale = unsafe {
                core::ptr::copy_nonoverlapping(block.add(2), nibbles.as_mut_ptr(), bl / 2);
                block.cast::<u16>().read_unaligned()
            };
            let scale = scale_over_16(scale).to_le_bytes();
            // SAFETY: scale (b, c) lies in the group's scale part.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    scale.as_ptr(),
                    group.add(scales_at + 2 * (b * nr + c)),
                    2,
                )
            };
            packets_of_eight(&nibbles[..bl / 2], &mut packets[..bl / 2]);
            for p in 0..bl / 8 {
                // SAFETY: packet p of column c in block b lies in the group's data part.
                unsafe {
                    core::ptr::copy_nonoverlapping(
                        packets.as_ptr().add(4 * p),
                        group.add(4 * ((b * bl / 8 + p) * nr + c)),
                        4,
                    )
                };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// Q4_0 weights for the NEON and SVE kernels.
    rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0: Rhs(Qsi4c32pf16(Variant::Scalef16));
    /// (the format of KleidiAI's SME2 Q4_0
    /// kernels).
    rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon:
        Rhs(Qsi4c32pf16(Variant::Ps1s0Scalef16Neon));
    /// (the format of KleidiAI's SME Q4_0
    /// kernels: signed nibbles paired 4 apart, scales divided by 16).
    rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon: Rhs(Qsi4c32pf16(Variant::Ps4s0Sf16Neon));
}
