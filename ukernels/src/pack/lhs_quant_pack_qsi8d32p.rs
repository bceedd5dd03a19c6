//! `lhs_quant_pack_qsi8d32p_f32`, `lhs_quant_pack_qsi8d32p_f32_neon` and
//! `lhs_quant_pack_qsi8d32p4x8sb_f32_neon`: symmetric int8 quantization of f32 activations with
//! one f16 scale per block of `bl` values (llama.cpp's Q8_0), packed in groups of `mr` rows
//! (KleidiAI 1.30, byte for byte).
//!
//! Per row and block: `amax = max |x|`, `d = amax / 127`, `id = d != 0 ? 1 / d : 0`, values
//! `(int8)(int32)round(x * id)` and the scale stored as `f16(d)` (round to nearest even; the
//! values use the f32 `d`). The variants differ in details KleidiAI's code fixes:
//!
//! * `F32` (scalar, read by the NEON and SVE kernels): `amax` by `a > b ? a : b` in K order from
//!   0 (a NaN is kept only if no later value replaces it), rounding half away from zero. Group
//!   layout: per block, the `mr` f16 scales, then `bl / (kr / sr)` chunks of `mr x (kr / sr)`
//!   values (row `r`'s chunk at `r * kr / sr`).
//! * `F32Neon4x8sb` (`mr = 4`, `kr = 16`, `sr = 2`): the same layout, with NEON arithmetic:
//!   `amax` by NaN-propagating `FMAX` over 4 lanes then `FMAXV`, rounding to nearest even
//!   (`FCVTNS`), and the rows of a full group of 4 read `k` floats apart from the group's first
//!   row (KleidiAI ignores `lhs_stride` there; consumers pass `4 * k`).
//! * `F32Neon` (`kr = 4`, read by KleidiAI's SME kernels): the scalar arithmetic, another layout:
//!   per group all values first (4-value chunks, element (r, k) at `(k / 4) * mr * 4 + r * 4 +
//!   k % 4`), then the `[k / bl][mr]` f16 scales at the end. It ignores `m_idx_start` and
//!   `lhs_stride`: rows are `k` contiguous floats and row `i` goes to slot `i % mr`.
//!
//! Like KleidiAI, `F32` and `F32Neon4x8sb` read source row `i` at `lhs + (i + m_idx_start) *
//! lhs_stride` (the caller passes the matrix base, unlike `qai8dxp` packing) and write it to slot
//! `(i + m_idx_start) % mr` of the group `lhs_packed` starts at. Rows past `m` are left untouched.

use crate::contract::{self, Checked};
use crate::float;
use crate::layout::qsi8d32p as layout;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qsi8d32pPacker as Variant;

impl Variant {
    /// `kai_get_m_step_*`: `mr` for every form (KleidiAI's value, although the row-by-row
    /// packers could start at any row).
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

/// Checks what `variant` requires of its arguments: KleidiAI's assertions, plus what keeps every
/// access inside the buffers (`bl` a multiple of the chunk depth, a row stride that covers a
/// row, the 4-row packer starting on a group boundary when it packs a whole group).
pub fn check(variant: Variant, a: &Args) -> Checked {
    contract::packing_params(a.mr, "mr > 0", a.kr, a.sr)?;
    layout::stride(a.k, a.bl, a.mr)?;
    match variant {
        Variant::F32 => {
            contract::require(a.bl % (a.kr / a.sr) == 0, "(bl % (kr / sr)) == 0")?;
        }
        Variant::F32Neon => {
            contract::require(a.kr == 4, "kr == 4")?;
            contract::require(a.bl % a.kr == 0, "(bl % kr) == 0")?;
        }
        Variant::F32Neon4x8sb => {
            contract::require(a.bl % 32 == 0, "bl % kai_bl == 0")?;
            contract::require(a.mr == 4, "mr == 4")?;
            contract::require(a.kr == 16, "kr == 16")?;
            contract::require(a.sr == 2, "sr == 2")?;
            // KleidiAI writes a whole group's scales at the slot of its first row.
            contract::require(
                a.m < a.mr || a.m_idx_start % a.mr == 0,
                "(m < mr) || ((m_idx_start % mr) == 0)",
            )?;
        }
    }
    if a.m == 0 {
        return Ok(());
    }
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    let row_bytes = contract::mul(a.k, 4, "k * sizeof(float) fits in size_t")?;
    contract::require(
        a.m == 1 || a.lhs_stride >= row_bytes,
        "lhs_stride >= k * sizeof(float)",
    )?;
    let rows = contract::add(a.m, a.m_idx_start, "m + m_idx_start fits in size_t")?;
    contract::mul(
        rows,
        a.lhs_stride.max(row_bytes),
        "source extent fits in size_t",
    )?;
    Ok(())
}

/// Largest absolute value of a block, `a > b ? a : b` in order from 0 (KleidiAI's `KAI_MAX`):
/// a NaN survives only until a later value replaces it.
#[inline]
pub fn amax_sequential(x: impl Iterator<Item = f32>) -> f32 {
    x.fold(0.0f32, |m, v| {
        let a = v.abs();
        if m > a { m } else { a }
    })
}

/// Scale of a block from its `amax`: the f32 scale `d` and the quantization multiplier `id`.
#[inline]
pub fn block_scale(amax: f32) -> (f32, f32) {
    let d = amax / 127.0;
    // C's `d ? 1 / d : 0`: NaN counts as true.
    let id = if d != 0.0 || d.is_nan() { 1.0 / d } else { 0.0 };
    (d, id)
}

/// `(int8_t)(int32_t)roundf(x * id)`: round half away from zero, saturate to i32 (NaN: 0), keep
/// the low byte.
#[inline]
pub fn quantize_away(x: f32, id: f32) -> i8 {
    float::round_half_away(x * id) as i32 as i8
}

/// `FCVTNS` then narrowing by truncation: round to nearest even, saturate to i32 (NaN: 0), keep
/// the low byte.
#[inline]
pub fn quantize_even(x: f32, id: f32) -> i8 {
    float::round_ties_even(x * id) as i32 as i8
}

/// f16 bits of a scale (round to nearest even, like `FCVT`).
#[inline]
pub fn f16_bits(d: f32) -> u16 {
    half::f16::from_f32(d).to_bits()
}

/// Packs the rows described by `a`.
///
/// # Safety
/// [`check`] passed for `variant`; `lhs` is readable for the rows the variant reads (see the
/// module documentation) and `lhs_packed` writable for the groups those rows land in.
pub unsafe fn run(variant: Variant, a: &Args) {
    if a.m == 0 {
        return;
    }
    match variant {
        // SAFETY (both arms): forwarded contract.
        Variant::F32Neon => unsafe { run_sme_layout(a) },
        _ => unsafe { run_block_layout(variant, a) },
    }
}

/// Reads `len` floats at `p` into `out[..len]`.
///
/// # Safety
/// `p` is readable for `len` floats (any alignment).
#[inline]
unsafe fn read_floats(p: *const u8, out: &mut [f32]) {
    for (i, v) in out.iter_mut().enumerate() {
        // SAFETY: inside the caller's range.
        *v = unsafe { p.add(4 * i).cast::<f32>().read_unaligned() };
    }
}

/// Floats per staged piece of a block (blocks longer than this are handled in pieces).
const PIECE: usize = 64;

/// `F32` and `F32Neon4x8sb`: per block, scales first, then `mr x kbl` chunks.
///
/// # Safety
/// See [`run`].
unsafe fn run_block_layout(variant: Variant, a: &Args) {
    let (mr, bl) = (a.mr, a.bl);
    let kbl = a.kr / a.sr;
    let blocks = a.k / bl;
    let stride = layout::stride(a.k, bl, mr).unwrap_or(0);
    let block_bytes = mr * (bl + layout::SCALE_BYTES);
    let src = a.lhs.cast::<u8>();
    let mut group = a.lhs_packed;
    let mut row = 0;
    // The 4x8sb packer quantizes whole groups of 4 rows with rows k floats apart, then single
    // rows (with lhs_stride) like the scalar packer.
    let full_groups = if variant == Variant::F32Neon4x8sb {
        a.m / mr
    } else {
        0
    };
    for _ in 0..full_groups {
        // SAFETY: the group's first source row; its rows lie k floats apart.
        let first = unsafe { src.add((row + a.m_idx_start) * a.lhs_stride) };
        for r in 0..mr {
            // SAFETY: forwarded contract (see the module documentation).
            unsafe {
                pack_row(
                    variant,
                    a,
                    first.add(4 * r * a.k),
                    group,
                    r,
                    kbl,
                    blocks,
                    block_bytes,
                )
            };
        }
        // SAFETY: the next group lies inside the packed buffer when rows remain.
        group = unsafe { group.add(stride) };
        row += mr;
    }
    while row < a.m {
        let slot = (row + a.m_idx_start) % mr;
        // SAFETY: row `row + m_idx_start` of the source; forwarded contract.
        unsafe {
            let line = src.add((row + a.m_idx_start) * a.lhs_stride);
            pack_row(variant, a, line, group, slot, kbl, blocks, block_bytes);
        }
        if (row + 1 + a.m_idx_start) % mr == 0 {
            // SAFETY: as above.
            group = unsafe { group.add(stride) };
        }
        row += 1;
    }
}

/// Quantizes one source row into slot `slot` of the group at `group` (block layout).
///
/// # Safety
/// `line` is readable for `k` floats; the group is writable.
#[allow(clippy::too_many_arguments)]
#[inline]
unsafe fn pack_row(
    variant: Variant,
    a: &Args,
    line: *const u8,
    group: *mut u8,
    slot: usize,
    kbl: usize,
    blocks: usize,
    block_bytes: usize,
) {
    let (mr, bl) = (a.mr, a.bl);
    let mut piece = [0.0f32; PIECE];
    for b in 0..blocks {
        // SAFETY: block b of the row and of the group.
        let (x, out) = unsafe { (line.add(4 * b * bl), group.add(b * block_bytes)) };
        #[cfg(target_arch = "aarch64")]
        if bl % 16 == 0 {
            let even = variant == Variant::F32Neon4x8sb;
            // SAFETY: the block's bl floats and the group's block are in range (see above).
            if unsafe { neon::pack_block(x.cast(), bl, out, mr, slot, kbl, even) } {
                continue;
            }
        }
        let amax = if variant == Variant::F32Neon4x8sb {
            // bl is a multiple of 32: lanes continue across pieces.
            let mut lanes = [0.0f32; 4];
            for p0 in (0..bl).step_by(PIECE) {
                let len = PIECE.min(bl - p0);
                // SAFETY: inside the block.
                unsafe { read_floats(x.add(4 * p0), &mut piece[..len]) };
                for chunk in piece[..len].chunks_exact(4) {
                    for (l, &v) in lanes.iter_mut().zip(chunk) {
                        *l = float::fmax(v.abs(), *l);
                    }
                }
            }
            float::fmax(
                float::fmax(lanes[0], lanes[1]),
                float::fmax(lanes[2], lanes[3]),
            )
        } else {
            let mut m = 0.0f32;
            for p0 in (0..bl).step_by(PIECE) {
                let len = PIECE.min(bl - p0);
                // SAFETY: inside the block.
                unsafe { read_floats(x.add(4 * p0), &mut piece[..len]) };
                m = amax_sequential(core::iter::once(m).chain(piece[..len].iter().copied()));
            }
            m
        };
        let (d, id) = block_scale(amax);
        // SAFETY: the block's scales come first.
        unsafe { out.add(2 * slot).cast::<u16>().write_unaligned(f16_bits(d)) };
        let data = unsafe { out.add(2 * mr) };
        for p0 in (0..bl).step_by(PIECE) {
            let len = PIECE.min(bl - p0);
            // SAFETY: inside the block.
            unsafe { read_floats(x.add(4 * p0), &mut piece[..len]) };
            for (i, &v) in piece[..len].iter().enumerate() {
                let kk = p0 + i;
                let q = if variant == Variant::F32Neon4x8sb {
                    quantize_even(v, id)
                } else {
                    quantize_away(v, id)
                };
                // SAFETY: chunk kk / kbl of the block, slot's kbl bytes.
                unsafe { *data.add((kk / kbl) * mr * kbl + slot * kbl + kk % kbl) = q as u8 };
            }
        }
    }
}

/// NEON path of the block-layout packers (`F32`, `F32Neon4x8sb`): `amax` with `FABS`/`FMAX`
/// lanes (equal to either packer's order when the block holds no NaN; a NaN, whose payload would
/// depend on the order, sends the block back to the scalar code), values with `FMUL`, `FCVTAS`
/// (`F32`: round half away from zero) or `FCVTNS` (`F32Neon4x8sb`: ties to even), both
/// saturating with NaN to 0, and two truncating `XTN` (the low byte of the i32), 16 at a time.
#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::*;

    use super::{block_scale, f16_bits};

    /// Packs one block of `bl` (a multiple of 16) floats at `x` into slot `slot` of the packed
    /// block at `out` (`mr` scales, then `mr x kbl` chunks), rounding ties to even if `even`,
    /// away from zero otherwise; returns `false`, having written nothing, when the block holds a
    /// NaN.
    ///
    /// # Safety
    /// `x` is readable for `bl` floats; `out` is writable for the packed block
    /// (`mr * (bl + 2)` bytes); `slot < mr`, `kbl` divides `bl`.
    #[inline(always)]
    pub(super) unsafe fn pack_block(
        x: *const f32,
        bl: usize,
        out: *mut u8,
        mr: usize,
        slot: usize,
        kbl: usize,
        even: bool,
    ) -> bool {
        // SAFETY: every load reads 4 floats below bl; every store stays in the packed block.
        unsafe {
            let mut lanes = [vdupq_n_f32(0.0); 4];
            for i in (0..bl).step_by(16) {
                for (j, l) in lanes.iter_mut().enumerate() {
                    *l = vmaxq_f32(*l, vabsq_f32(vld1q_f32(x.add(i + 4 * j))));
                }
            }
            let amax = vmaxvq_f32(vmaxq_f32(
                vmaxq_f32(lanes[0], lanes[1]),
                vmaxq_f32(lanes[2], lanes[3]),
            ));
            if amax.is_nan() {
                return false;
            }
            let (d, id) = block_scale(amax);
            out.add(2 * slot).cast::<u16>().write_unaligned(f16_bits(d));
            let data = out.add(2 * mr);
            let m = vdupq_n_f32(id);
            for i in (0..bl).step_by(16) {
                let q = |j: usize| {
                    let y = vmulq_f32(vld1q_f32(x.add(i + 4 * j)), m);
                    if even {
                        vcvtnq_s32_f32(y)
                    } else {
                        vcvtaq_s32_f32(y)
                    }
                };
                let lo = vmovn_high_s32(vmovn_s32(q(0)), q(1));
                let hi = vmovn_high_s32(vmovn_s32(q(2)), q(3));
                let bytes: [u8; 16] = core::mem::transmute(vmovn_high_s16(vmovn_s16(lo), hi));
                if mr == 1 {
                    data.add(i).cast::<[u8; 16]>().write_unaligned(bytes);
                } else {
                    for (t, &v) in bytes.iter().enumerate() {
                        let kk = i + t;
                        *data.add((kk / kbl) * mr * kbl + slot * kbl + kk % kbl) = v;
                    }
                }
            }
            true
        }
    }
}

/// `F32Neon`: values of all blocks first (4-value chunks interleaved over the rows), then the
/// `[blocks][mr]` scales.
///
/// # Safety
/// See [`run`].
unsafe fn run_sme_layout(a: &Args) {
    let (mr, bl, k) = (a.mr, a.bl, a.k);
    let blocks = k / bl;
    let stride = layout::stride(k, bl, mr).unwrap_or(0);
    let scales_at = stride - mr * blocks * layout::SCALE_BYTES;
    let src = a.lhs.cast::<u8>();
    let mut piece = [0.0f32; PIECE];
    for row in 0..a.m {
        let (g, slot) = (row / mr, row % mr);
        // SAFETY: group g of the output, row `row` of the contiguous source.
        let (group, line) = unsafe { (a.lhs_packed.add(g * stride), src.add(4 * row * k)) };
        for b in 0..blocks {
            let x = unsafe { line.add(4 * b * bl) };
            let mut m = 0.0f32;
            for p0 in (0..bl).step_by(PIECE) {
                let len = PIECE.min(bl - p0);
                // SAFETY: inside the block.
                unsafe { read_floats(x.add(4 * p0), &mut piece[..len]) };
                m = amax_sequential(core::iter::once(m).chain(piece[..len].iter().copied()));
            }
            let (d, id) = block_scale(m);
            for p0 in (0..bl).step_by(PIECE) {
                let len = PIECE.min(bl - p0);
                // SAFETY: inside the block.
                unsafe { read_floats(x.add(4 * p0), &mut piece[..len]) };
                for (i, &v) in piece[..len].iter().enumerate() {
                    let kk = b * bl + p0 + i;
                    // SAFETY: the group's data part holds k values of each of its mr rows.
                    unsafe {
                        *group.add((kk / 4) * mr * 4 + slot * 4 + kk % 4) =
                            quantize_away(v, id) as u8
                    };
                }
            }
            // SAFETY: the scale table at the end of the group.
            unsafe {
                group
                    .add(scales_at + 2 * (b * mr + slot))
                    .cast::<u16>()
                    .write_unaligned(f16_bits(d))
            };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// the format of the NEON and SVE Q4_0 kernels.
    lhs_quant_pack_qsi8d32p_f32: Lhs(Qsi8d32p(Variant::F32));
    /// the layout of KleidiAI's SME Q4_0 kernels; same size.
    lhs_quant_pack_qsi8d32p_f32_neon: Lhs(Qsi8d32p(Variant::F32Neon));
    /// the scalar packer's format for mr 4, kr 16.
    lhs_quant_pack_qsi8d32p4x8sb_f32_neon: Lhs(Qsi8d32p(Variant::F32Neon4x8sb));
}
