//! `lhs_quant_pack_qsi8d32pscalef32_f32_neon` and `lhs_quant_pack_qsi8d32pscalef32_f16_neon`:
//! symmetric int8 quantization of f32 or f16 activations with one f32 scale and one f32 block
//! sum per block of `bl` values, packed in groups of `mr` rows (KleidiAI 1.30, byte for byte).
//! These feed the asymmetric int4 `qai4c32p` kernels, which need the block sum for the weights'
//! zero offsets.
//!
//! Per row and block: `amax = max |x|` (NaN-propagating `FMAX` lanes, starting from `-FLT_MAX`),
//! `s = amax == 0 ? 0 : 127 / amax`, `r = s != 0 ? 1 / s : 0` (a NaN `s` counts as non-zero),
//! values `q = clamp(round(x * s), -128, 127)`, then the block's f32 sum `(float)sum(q) * r` and
//! its f32 scale `r`. The f32 packer rounds to nearest even (`FCVTNS`, NaN to 0, saturating); the
//! f16 packer widens each value to f32 and rounds half away from zero (`roundf`, then a
//! saturating conversion, NaN to 0). The f16 packer's `amax` is taken in f16 (exact).
//!
//! Group layout, per block `b` at `b * mr * (bl + 8)`: `bl / (kr / sr)` chunks of
//! `mr x (kr / sr)` values (row `r`'s chunk at `r * kr / sr`), then `mr` f32 sums, then `mr` f32
//! scales. Like KleidiAI, source row `i` is read at `lhs + (i + m_idx_start) * lhs_stride` and
//! written to slot `(i + m_idx_start) % mr` of the group `lhs_packed` points at (the caller passes
//! the matrix base and the packed group of row `m_idx_start`).
//!
//! On aarch64 blocks go through NEON (8 values per step, same bits); a block whose maximum is
//! NaN takes the portable path, which reproduces the NaN KleidiAI's lane order keeps.

use crate::contract::{self, Checked};
use crate::float;
use crate::layout::qsi8d32pscalef32 as layout;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qsi8d32pscalef32Packer as Variant;

impl Variant {
    /// Bytes per source element.
    pub const fn element_size(self) -> usize {
        match self {
            Variant::F32 => 4,
            Variant::F16 => 2,
        }
    }

    /// `kai_get_m_step_*`: `mr`.
    pub const fn m_step(self, mr: usize) -> usize {
        mr
    }
}

/// Arguments of one packing call: those every LHS packer takes (see [`super::args::LhsArgs`]).
pub use super::args::LhsArgs as Args;

/// Checks the getters' parameters: KleidiAI's `(k % 2) == 0`, `(k % kr) == 0`, `(k % bl) == 0`
/// plus non-zero packing parameters and size overflow.
pub fn check_getter(k: usize, bl: usize, mr: usize, kr: usize, sr: usize) -> Checked {
    contract::packing_params(mr, "mr > 0", kr, sr)?;
    contract::require(k % 2 == 0, "(k % 2) == 0")?;
    contract::require(k % kr == 0, "(k % kr) == 0")?;
    layout::stride(k, bl, mr).map(|_| ())
}

/// Checks what `variant` requires of its arguments: KleidiAI's assertions (`(kr % sr) == 0`,
/// `(bl % kr) == 0`, `(k % bl) == 0`, `(bl % 32) == 0`, and for the f32 packer `kr / sr` of 4 or
/// 8), plus non-null buffers and a row stride that covers a row.
pub fn check(variant: Variant, a: &Args) -> Checked {
    contract::packing_params(a.mr, "mr > 0", a.kr, a.sr)?;
    contract::require(a.bl % a.kr == 0, "(bl % kr) == 0")?;
    layout::stride(a.k, a.bl, a.mr)?;
    contract::require(a.bl % 32 == 0, "(bl % kai_bl_multiple_of) == 0")?;
    if variant == Variant::F32 {
        let kbl = a.kr / a.sr;
        contract::require(kbl == 8 || kbl == 4, "((kr / sr) == 8) || ((kr / sr) == 4)")?;
    }
    if a.m == 0 {
        return Ok(());
    }
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    let row_bytes = contract::mul(
        a.k,
        variant.element_size(),
        "k * sizeof(element) fits in size_t",
    )?;
    contract::require(
        a.m == 1 || a.lhs_stride >= row_bytes,
        "lhs_stride >= k * sizeof(element)",
    )?;
    let rows = contract::add(a.m, a.m_idx_start, "m + m_idx_start fits in size_t")?;
    contract::mul(
        rows,
        a.lhs_stride.max(row_bytes),
        "source extent fits in size_t",
    )?;
    Ok(())
}

/// `s` and `r` of a block from its `amax` (see the module documentation).
#[inline]
pub fn block_scale(amax: f32) -> (f32, f32) {
    let s = if amax == 0.0 { 0.0 } else { 127.0 / amax };
    // C's `s ? 1 / s : 0`: NaN counts as true.
    let r = if s != 0.0 || s.is_nan() { 1.0 / s } else { 0.0 };
    (s, r)
}

/// The f32 packer's value: `FCVTNS(x * s)` (ties to even, saturating, NaN to 0), then clamped.
#[inline]
pub fn quantize_f32(x: f32, s: f32) -> i32 {
    (float::round_ties_even(x * s) as i32).clamp(-128, 127)
}

/// The f16 packer's value: `(int32_t)roundf(x * s)` (ties away, saturating, NaN to 0), then
/// clamped.
#[inline]
pub fn quantize_f16(x: f32, s: f32) -> i32 {
    (float::round_half_away(x * s) as i32).clamp(-128, 127)
}

/// Source element `i` of the row at `p`, widened to f32.
///
/// # Safety
/// `p` is readable for `i + 1` elements of `variant`.
#[inline]
unsafe fn element(variant: Variant, p: *const u8, i: usize) -> f32 {
    // SAFETY: forwarded.
    unsafe {
        match variant {
            Variant::F32 => p.add(4 * i).cast::<f32>().read_unaligned(),
            Variant::F16 => {
                half::f16::from_bits(p.add(2 * i).cast::<u16>().read_unaligned()).to_f32()
            }
        }
    }
}

/// `amax` of a block as KleidiAI's vector code forms it: NaN-propagating lane maxima from
/// `-FLT_MAX` (f16: `-65504`, exact in f16), then `FMAXV` (pairwise halving). Only which NaN
/// survives depends on the order; it is KleidiAI's: f32 lane `l` takes
/// `max(|x[8i + l]|, max(lane, |x[8i + 4 + l]|))`, f16 lane `l` takes `max(lane, |x[8i + l]|)`.
///
/// # Safety
/// `x` is readable for `bl` elements (a multiple of 8).
#[inline]
unsafe fn block_amax(variant: Variant, x: *const u8, bl: usize) -> f32 {
    // SAFETY (every read): i < bl.
    let at = |i: usize| unsafe { element(variant, x, i) }.abs();
    match variant {
        Variant::F32 => {
            let mut l = [-f32::MAX; 4];
            for i in (0..bl).step_by(8) {
                for (j, lane) in l.iter_mut().enumerate() {
                    *lane = float::fmax(at(i + j), float::fmax(*lane, at(i + 4 + j)));
                }
            }
            float::fmax(float::fmax(l[0], l[1]), float::fmax(l[2], l[3]))
        }
        Variant::F16 => {
            let mut l = [-65504.0f32; 8];
            for i in (0..bl).step_by(8) {
                for (j, lane) in l.iter_mut().enumerate() {
                    *lane = float::fmax(*lane, at(i + j));
                }
            }
            let q = |a: usize| {
                float::fmax(float::fmax(l[a], l[a + 1]), float::fmax(l[a + 2], l[a + 3]))
            };
            float::fmax(q(0), q(4))
        }
    }
}

/// Quantizes one block of `bl` elements at `x` into slot `slot` of the packed block at `out`
/// (values in chunks of `kbl`, then the `mr` sums and `mr` scales).
///
/// # Safety
/// `x` is readable for `bl` elements of `variant`; `out` writable for `mr * (bl + 8)` bytes.
#[inline]
unsafe fn pack_block(
    variant: Variant,
    x: *const u8,
    bl: usize,
    out: *mut u8,
    mr: usize,
    kbl: usize,
    slot: usize,
) {
    // SAFETY: the block holds bl elements.
    let amax = unsafe { block_amax(variant, x, bl) };
    let (s, r) = block_scale(amax);
    let mut qsum = 0i32;
    for kk in 0..bl {
        // SAFETY: kk < bl.
        let v = unsafe { element(variant, x, kk) };
        let q = match variant {
            Variant::F32 => quantize_f32(v, s),
            Variant::F16 => quantize_f16(v, s),
        };
        qsum += q;
        // SAFETY: chunk kk / kbl of the block, the slot's kbl bytes.
        unsafe { *out.add((kk / kbl) * mr * kbl + slot * kbl + kk % kbl) = q as i8 as u8 };
    }
    // SAFETY: the block's sums then scales follow its mr * bl values.
    unsafe { write_params(out, mr, bl, slot, qsum as f32 * r, r) };
}

/// Writes a block's f32 sum and scale for `slot`.
///
/// # Safety
/// `out` is writable for `mr * (bl + 8)` bytes.
#[inline]
unsafe fn write_params(out: *mut u8, mr: usize, bl: usize, slot: usize, sum: f32, scale: f32) {
    // SAFETY: the sums and scales follow the block's mr * bl values.
    unsafe {
        let params = out.add(mr * bl);
        params.add(4 * slot).cast::<f32>().write_unaligned(sum);
        params
            .add(4 * (mr + slot))
            .cast::<f32>()
            .write_unaligned(scale);
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    //! The packers' blocks with NEON, 8 values per step, with KleidiAI's arithmetic: lane
    //! maxima and `FMAXV`, `FMUL` by the block's multiplier, then `FCVTNS` (f32 input) or
    //! `FCVTAS` (f16 input: `roundf` then a saturating conversion), saturating narrowing and the
    //! clamp to [-128, 127]. f16 values are widened with `FCVTL` (exact), so maxima and products
    //! equal the f16 packer's.
    use super::Variant;
    use core::arch::aarch64::*;
    use core::arch::asm;

    /// Eight consecutive source elements widened to f32.
    ///
    /// # Safety
    /// `p` is readable for 8 elements of `variant`.
    #[inline(always)]
    unsafe fn load8(variant: Variant, p: *const u8) -> (float32x4_t, float32x4_t) {
        // SAFETY: 8 elements are readable.
        unsafe {
            match variant {
                Variant::F32 => (vld1q_f32(p.cast()), vld1q_f32(p.cast::<f32>().add(4))),
                Variant::F16 => {
                    // FCVTL is base AdvSIMD, but its intrinsic needs the unstable f16 type.
                    let h = vld1q_u16(p.cast());
                    let (lo, hi): (float32x4_t, float32x4_t);
                    asm!(
                        "fcvtl {lo:v}.4s, {h:v}.4h",
                        "fcvtl2 {hi:v}.4s, {h:v}.8h",
                        h = in(vreg) h,
                        lo = out(vreg) lo,
                        hi = out(vreg) hi,
                        options(pure, nomem, nostack, preserves_flags),
                    );
                    (lo, hi)
                }
            }
        }
    }

    /// Packs one block like `super::pack_block` and returns `true`, or returns `false` without
    /// writing when the block's maximum is NaN (the portable code then decides which NaN the
    /// scale carries).
    ///
    /// # Safety
    /// `x` is readable for `bl` elements of `variant` (`bl` a multiple of 8); `out` writable
    /// for `mr * (bl + 8)` bytes.
    #[inline]
    pub(super) unsafe fn pack_block(
        variant: Variant,
        x: *const u8,
        bl: usize,
        out: *mut u8,
        mr: usize,
        kbl: usize,
        slot: usize,
    ) -> bool {
        let esize = variant.element_size();
        // SAFETY: every load reads 8 elements below bl; stores stay in the slot's chunks and
        // parameters.
        unsafe {
            let mut lanes = vdupq_n_f32(-f32::MAX);
            for i in (0..bl).step_by(8) {
                let (a, b) = load8(variant, x.add(esize * i));
                lanes = vmaxq_f32(vabsq_f32(a), vmaxq_f32(lanes, vabsq_f32(b)));
            }
            let amax = vmaxvq_f32(lanes);
            if amax.is_nan() {
                return false;
            }
            let (s, r) = super::block_scale(amax);
            let lo = vdupq_n_s16(-128);
            let hi = vdupq_n_s16(127);
            let mut qsum = 0i32;
            for i in (0..bl).step_by(8) {
                let (a, b) = load8(variant, x.add(esize * i));
                let (a, b) = (vmulq_n_f32(a, s), vmulq_n_f32(b, s));
                let (a, b) = match variant {
                    Variant::F32 => (vcvtnq_s32_f32(a), vcvtnq_s32_f32(b)),
                    Variant::F16 => (vcvtaq_s32_f32(a), vcvtaq_s32_f32(b)),
                };
                let h = vminq_s16(
                    vmaxq_s16(vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)), lo),
                    hi,
                );
                qsum += i32::from(vaddvq_s16(h));
                let q = vreinterpret_u8_s8(vqmovn_s16(h));
                let chunk = |kk: usize| out.add((kk / kbl) * mr * kbl + slot * kbl);
                match kbl {
                    8 => vst1_u8(chunk(i), q),
                    4 => {
                        let w = vreinterpret_u32_u8(q);
                        chunk(i)
                            .cast::<u32>()
                            .write_unaligned(vget_lane_u32::<0>(w));
                        chunk(i + 4)
                            .cast::<u32>()
                            .write_unaligned(vget_lane_u32::<1>(w));
                    }
                    _ => {
                        let mut bytes = [0u8; 8];
                        vst1_u8(bytes.as_mut_ptr(), q);
                        for (t, &byte) in bytes.iter().enumerate() {
                            *out.add(((i + t) / kbl) * mr * kbl + slot * kbl + (i + t) % kbl) =
                                byte;
                        }
                    }
                }
            }
            super::write_params(out, mr, bl, slot, qsum as f32 * r, r);
        }
        true
    }
}

/// Packs the rows described by `a`.
///
/// # Safety
/// [`check`] passed for `variant`; `lhs` is readable for rows `m_idx_start..m_idx_start + m` at
/// `lhs_stride` apart, `lhs_packed` writable for the groups those rows land in.
pub unsafe fn run(variant: Variant, a: &Args) {
    if a.m == 0 {
        return;
    }
    let (mr, bl) = (a.mr, a.bl);
    let kbl = a.kr / a.sr;
    let blocks = a.k / bl;
    let stride = layout::stride(a.k, bl, mr).unwrap_or(0);
    let block_bytes = mr * (bl + layout::PARAM_BYTES);
    let esize = variant.element_size();
    let mut group = a.lhs_packed;
    for row in 0..a.m {
        let slot = (row + a.m_idx_start) % mr;
        // SAFETY: row `row + m_idx_start` of the source.
        let line = unsafe { a.lhs.add((row + a.m_idx_start) * a.lhs_stride) };
        for b in 0..blocks {
            // SAFETY: block b of the row and of the group.
            let (x, out) = unsafe { (line.add(esize * b * bl), group.add(b * block_bytes)) };
            #[cfg(target_arch = "aarch64")]
            {
                // SAFETY: as below; NEON is part of the aarch64 baseline.
                let done = unsafe { neon::pack_block(variant, x, bl, out, mr, kbl, slot) };
                if done {
                    continue;
                }
            }
            // SAFETY: the block's bl elements and the group's block.
            unsafe { pack_block(variant, x, bl, out, mr, kbl, slot) };
        }
        if (row + 1 + a.m_idx_start) % mr == 0 {
            // SAFETY: the next group lies inside the packed buffer when rows remain.
            group = unsafe { group.add(stride) };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// activations of the `qai4c32p` kernels.
    lhs_quant_pack_qsi8d32pscalef32_f32_neon: Lhs(Qsi8d32pscalef32(Variant::F32));
    /// the same format from f16 activations.
    lhs_quant_pack_qsi8d32pscalef32_f16_neon: Lhs(Qsi8d32pscalef32(Variant::F16));
}
