//! `rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon` and the two `ps1s0nrx4` forms:
//! asymmetric int4 weights with one f32 scale and one f32 zero offset per block of `bl` K
//! values, plus an f32 bias per column (KleidiAI 1.30, byte for byte).
//!
//! Source: N rows of `k` unsigned nibbles (row `n` starts at nibble `n * k`), two per byte; in
//! `s0s1` order the even-indexed value is the high nibble, in `s1s0` order the low one. `zero`
//! and `scale` are `[n][k / bl]` f32 arrays, `bias` (optional) `[n]` f32. The weight a kernel
//! sees is `(u - 8) * scale + zero`, so callers pass `zero = (8 - zp) * scale` for an unsigned
//! zero point `zp`, or `-zp * scale` for values already signed.
//!
//! Packed, per group of `nr` columns and per block: `nr * bl / 2` bytes of nibbles in chunks of
//! `c` bytes per column (chunk `q` of column `j` at `(q * nr + j) * c`), then `nr` f32 zero
//! offsets (copied), then `nr` f32 scales; after all blocks `nr` f32 biases (0 without bias).
//! Columns past `n` repeat column `n - 1`, except for the `ps1s0nrx4` forms' biases, which are 0
//! there.
//!
//! * `Qai4c32p` (NEON kernels): `c = kr / sr`; byte `i = 16 * s + t` of a column's block holds
//!   value `32 * s + t` in its low nibble and `32 * s + 16 + t` in its high nibble, XORed with
//!   `0x88` (signed `u - 8`); scales are stored times `0.0625` (the kernels form `16 * (u - 8)`).
//! * `Ps1s0Nrx4S0s1` / `Ps1s0Nrx4S1s0` (KleidiAI's SME2 kernels, `kr / sr == 4`, `nr` a
//!   multiple of 4): `c = 2`; byte `i` holds values `2i` (low) and `2i + 1` (high) unsigned
//!   (the kernels map `u` to `u - 8` with `LUTI4`); scales are copied.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qai4c32p as layout};

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qai4c32pPacker as Variant;

impl Variant {
    /// Whether the source holds even-indexed values in the high nibble (`s0s1`).
    pub const fn even_high(self) -> bool {
        !matches!(self, Variant::Ps1s0Nrx4S1s0)
    }

    /// Whether it writes the SME2 kernels' `ps1s0` form (unsigned nibbles in K order, scales as
    /// given) rather than the NEON kernels' (signed nibbles, scales / 16).
    pub const fn sequential(self) -> bool {
        !matches!(self, Variant::Qai4c32p)
    }
}

/// Arguments of one packing call: those every RHS packer takes (see [`super::args::RhsArgs`]).
pub use super::args::RhsArgs as Args;

/// Checks the getters' parameters: KleidiAI's `(k % 2) == 0`, `(k % kr) == 0`, `(k % bl) == 0`,
/// `(bl % kr) == 0`, `(bl % 32) == 0`, plus non-zero `nr`/`kr` and size overflow.
pub fn check_getter(k: usize, nr: usize, kr: usize, bl: usize) -> Checked {
    contract::require(nr != 0, "nr > 0")?;
    contract::require(kr != 0, "kr > 0")?;
    contract::require(k % 2 == 0, "(k % 2) == 0")?;
    contract::require(k % kr == 0, "(k % kr) == 0")?;
    layout::check_block(k, bl)?;
    contract::require(bl % kr == 0, "(bl % kr) == 0")?;
    layout::stride(k, nr, bl).map(|_| ())
}

/// Checks what `variant` requires of its arguments (KleidiAI's assertions, plus overflow of the
/// source and packed extents).
pub fn check(variant: Variant, a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    check_getter(a.k, a.nr, a.kr, a.bl)?;
    if variant.sequential() {
        contract::require(a.nr % 4 == 0, "(nr % kai_nr_multiple_of) == 0")?;
    }
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(a.sr == 2, "sr == 2")?;
    match variant {
        Variant::Qai4c32p => contract::require(a.kr <= 16, "kr >= 1 && kr <= 16")?,
        _ => contract::require(a.kr / a.sr == 4, "kr / sr == 4")?,
    }
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.zero.is_null(), "zero != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the 2-byte C struct the caller passed.
    let (lhs_zero_point, rhs_zero_point) = unsafe { (*a.params as i8, *a.params.add(1)) };
    contract::require(rhs_zero_point == 8, "params->rhs_zero_point == 8")?;
    contract::require(lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    // KleidiAI reads the scales unconditionally.
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    RhsLayout::Qai4c32p { bl: a.bl }.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    contract::mul(a.n, a.k, "n * k fits in size_t")?;
    Ok(())
}

/// The 16 packed bytes of one 32-value sub-block from its 16 source bytes at `p`: byte `t` holds
/// values `t` and `16 + t` XORed with `0x88` when `signed` (the NEON kernels' form), values
/// `2t` and `2t + 1` otherwise (the SME2 `ps1s0` form); the low nibble holds the first.
///
/// # Safety
/// `p` is readable for 16 bytes.
#[inline]
unsafe fn sub_block(p: *const u8, even_high: bool, signed: bool) -> [u8; 16] {
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: forwarded; NEON is part of the aarch64 baseline.
        unsafe { neon::sub_block(p, even_high, signed) }
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        // SAFETY: forwarded.
        let src = unsafe { p.cast::<[u8; 16]>().read_unaligned() };
        let mut v = [0u8; 32];
        for (pair, byte) in v.chunks_exact_mut(2).zip(src) {
            let (hi, lo) = (byte >> 4, byte & 0x0f);
            (pair[0], pair[1]) = if even_high { (hi, lo) } else { (lo, hi) };
        }
        let mut out = [0u8; 16];
        for (t, o) in out.iter_mut().enumerate() {
            *o = if signed {
                (v[t] | (v[16 + t] << 4)) ^ 0x88
            } else {
                v[2 * t] | (v[2 * t + 1] << 4)
            };
        }
        out
    }
}

/// Writes packed bytes `i0..i0 + 16` of column `col` of a block (`chunk` bytes per column per
/// chunk, `nr` columns) at `out`.
///
/// # Safety
/// `out` is writable for the block's `nr * bl / 2` data bytes, which hold these.
#[inline]
unsafe fn scatter(out: *mut u8, bytes: &[u8; 16], i0: usize, nr: usize, chunk: usize, col: usize) {
    let at = |i: usize| (i / chunk) * nr * chunk + col * chunk + i % chunk;
    // SAFETY (every write): inside the block's data, see the function's contract.
    unsafe {
        match chunk {
            8 | 4 | 2 => {
                for (c, piece) in bytes.chunks_exact(chunk).enumerate() {
                    let dst = out.add(at(i0 + c * chunk));
                    core::ptr::copy_nonoverlapping(piece.as_ptr(), dst, chunk);
                }
            }
            _ => {
                for (t, &byte) in bytes.iter().enumerate() {
                    *out.add(at(i0 + t)) = byte;
                }
            }
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::*;

    /// See `super::sub_block`: nibbles split with `USHR`/`AND`, put in value order with
    /// `ZIP1`/`ZIP2`, then paired with `SLI` (and `EOR` for the signed form).
    ///
    /// # Safety
    /// `p` is readable for 16 bytes.
    #[inline]
    pub(super) unsafe fn sub_block(p: *const u8, even_high: bool, signed: bool) -> [u8; 16] {
        // SAFETY: 16 readable bytes; the result is stored to a local array.
        unsafe {
            let src = vld1q_u8(p);
            let (hi, lo) = (vshrq_n_u8::<4>(src), vandq_u8(src, vdupq_n_u8(0x0f)));
            let (first, second) = if even_high { (hi, lo) } else { (lo, hi) };
            // Values 0-15 and 16-31 of the sub-block.
            let (v0, v1) = (vzip1q_u8(first, second), vzip2q_u8(first, second));
            let packed = if signed {
                veorq_u8(vsliq_n_u8::<4>(v0, v1), vdupq_n_u8(0x88))
            } else {
                vsliq_n_u8::<4>(first, second)
            };
            let mut out = [0u8; 16];
            vst1q_u8(out.as_mut_ptr(), packed);
            out
        }
    }
}

/// Reads f32 `i` of the array at `p`.
///
/// # Safety
/// `p` holds `i + 1` floats.
#[inline]
unsafe fn read_f32(p: *const u8, i: usize) -> f32 {
    // SAFETY: forwarded.
    unsafe { p.add(4 * i).cast::<f32>().read_unaligned() }
}

/// Packs the weights described by `a`.
///
/// # Safety
/// [`check`] passed for `variant`; `rhs` holds `n * k` nibbles, `zero` and `scale` `n * k / bl`
/// floats, `bias` (if not null) `n` floats; `rhs_packed` is writable for the packed size.
pub unsafe fn run(variant: Variant, a: &Args) {
    if a.n == 0 {
        return;
    }
    let (nr, bl, k) = (a.nr, a.bl, a.k);
    let blocks = k / bl;
    let stride = layout::stride(k, nr, bl).unwrap_or(0);
    let block_bytes = nr * (bl / 2 + layout::PARAM_BYTES);
    let (chunk, signed) = match variant {
        Variant::Qai4c32p => (a.kr / a.sr, true),
        _ => (2, false),
    };
    // The NEON form repeats the last column's bias past n, the ps1s0 forms write 0.
    let pad_bias_zero = variant.sequential();
    let even_high = variant.even_high();
    for g in 0..a.n.div_ceil(nr) {
        // SAFETY: group g of the packed RHS.
        let group = unsafe { a.rhs_packed.add(g * stride) };
        for col in 0..nr {
            let src_col = (g * nr + col).min(a.n - 1);
            for b in 0..blocks {
                // SAFETY: block b of the group.
                let out = unsafe { group.add(b * block_bytes) };
                // The block's nibbles start on a byte (k and bl are even): 16 source bytes
                // make one 32-value sub-block, i.e. 16 packed bytes of the column.
                let src = (src_col * k + b * bl) / 2;
                for sub in 0..bl / 32 {
                    // SAFETY: 16 bytes of sub-block `sub` of the block, inside the source.
                    let bytes = unsafe { sub_block(a.rhs.add(src + 16 * sub), even_high, signed) };
                    // SAFETY: the column's chunks of packed bytes 16 * sub.. of the block.
                    unsafe { scatter(out, &bytes, 16 * sub, nr, chunk, col) };
                }
                let at = src_col * blocks + b;
                // SAFETY: the arrays hold n * blocks floats; the block's parameters follow its
                // nr * bl / 2 data bytes.
                unsafe {
                    let zp = read_f32(a.zero, at);
                    let mut s = read_f32(a.scale, at);
                    if signed {
                        s *= 0.0625;
                    }
                    let params = out.add(nr * bl / 2);
                    params.add(4 * col).cast::<f32>().write_unaligned(zp);
                    params.add(4 * (nr + col)).cast::<f32>().write_unaligned(s);
                }
            }
            let bias = if a.bias.is_null() || (pad_bias_zero && g * nr + col >= a.n) {
                0.0
            } else {
                // SAFETY: bias holds n floats.
                unsafe { read_f32(a.bias, src_col) }
            };
            // SAFETY: the biases follow the group's blocks.
            unsafe {
                group
                    .add(blocks * block_bytes + 4 * col)
                    .cast::<f32>()
                    .write_unaligned(bias)
            };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// (weights of the NEON `qai4c32p`
    /// kernels).
    rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon: Rhs(Qai4c32p(Variant::Qai4c32p));
    /// (the format of KleidiAI's
    /// SME2 `qai4c32p` kernels, from `s0s1` nibbles).
    rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon:
        Rhs(Qai4c32p(Variant::Ps1s0Nrx4S0s1));
    /// (the same from `s1s0`
    /// nibbles).
    rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon:
        Rhs(Qai4c32p(Variant::Ps1s0Nrx4S1s0));
}
