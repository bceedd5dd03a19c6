//! `lhs_quant_pack_qai8dxp_*`: dynamic per-row asymmetric int8 quantization of the LHS, packed
//! in groups of `mr` rows with `kr / sr`-deep blocks (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`k_int = roundup(k, roundup(kr * sr, 4))`, `kbl = kr / sr`):
//! `mr * k_int` int8 values, element (row r, k) at `((k / kbl) * mr + r) * kbl + k % kbl`, then
//! `mr` x `i32` negated zero points, then `mr` x `f32` dequantization scales. K padding repeats
//! the quantized last element. Rows past `m` in the last group are left untouched.

use crate::contract::{self, Checked};
use crate::layout::qai8dxp as layout;

/// A source element type the packer quantizes from.
pub trait SourceElement: Copy {
    /// Which packer variant reads this type.
    const TYPE: LhsType;

    /// Widens to `f32` exactly.
    fn to_f32(self) -> f32;
}

impl SourceElement for f32 {
    const TYPE: LhsType = LhsType::F32;
    #[inline]
    fn to_f32(self) -> f32 {
        self
    }
}

impl SourceElement for half::f16 {
    const TYPE: LhsType = LhsType::F16;
    #[inline]
    fn to_f32(self) -> f32 {
        half::f16::to_f32(self)
    }
}

impl SourceElement for half::bf16 {
    const TYPE: LhsType = LhsType::Bf16;
    #[inline]
    fn to_f32(self) -> f32 {
        half::bf16::to_f32(self)
    }
}

/// Element type of the LHS a packer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LhsType {
    /// `float`.
    F32,
    /// IEEE half precision (`_f16_neon`).
    F16,
    /// bfloat16 (`_bf16_neon`).
    Bf16,
}

impl LhsType {
    /// Bytes per source element.
    pub const fn size(self) -> usize {
        match self {
            LhsType::F32 => 4,
            LhsType::F16 | LhsType::Bf16 => 2,
        }
    }

    /// The block depths (`kr / sr`) the packer supports, as KleidiAI asserts them: any for f32,
    /// 4 or 8 for f16, 8 for bf16.
    pub fn check_block_depth(self, kr: usize, sr: usize) -> Checked {
        let depth = kr / sr;
        match self {
            LhsType::F32 => Ok(()),
            LhsType::F16 => {
                contract::require(depth == 8 || depth == 4, "(kr / sr == 8) || (kr / sr == 4)")
            }
            LhsType::Bf16 => contract::require(depth == 8, "kr / sr == 8"),
        }
    }
}

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args<T> {
    /// Rows to pack.
    pub m: usize,
    /// Columns (reduction length).
    pub k: usize,
    /// Rows per packed group (the kernel's `mr`).
    pub mr: usize,
    /// The kernel's `kr`.
    pub kr: usize,
    /// The kernel's `sr`.
    pub sr: usize,
    /// Index of the first row, deciding its slot inside the first group.
    pub m_idx_start: usize,
    /// First source row.
    pub lhs: *const T,
    /// Bytes between source rows.
    pub lhs_stride: usize,
    /// Destination: the group holding row `m_idx_start`.
    pub lhs_packed: *mut u8,
}

/// Checks what the packer requires of its arguments.
pub fn check<T: SourceElement>(a: &Args<T>) -> Checked {
    contract::packing_params(a.mr, "mr > 0", a.kr, a.sr)?;
    T::TYPE.check_block_depth(a.kr, a.sr)?;
    layout::stride(a.k, a.mr, a.kr, a.sr)?;
    if a.m == 0 {
        return Ok(());
    }
    contract::require(a.k != 0, "k > 0")?;
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    let row_bytes = contract::mul(
        a.k,
        core::mem::size_of::<T>(),
        "k * sizeof(element) fits in size_t",
    )?;
    contract::require(
        a.m == 1 || a.lhs_stride >= row_bytes,
        "lhs_stride >= k * sizeof(element)",
    )?;
    contract::require(
        a.lhs_stride % core::mem::size_of::<T>() == 0,
        "lhs_stride % sizeof(element) == 0",
    )?;
    Ok(())
}

/// Quantization parameters of one row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowQuant {
    /// Quantization multiplier (`255 / (rmax - rmin)`, or 1 for a constant row).
    pub multiplier: f32,
    /// Dequantization scale stored in the packed row (`1 / multiplier`, or 0).
    pub scale: f32,
    /// Zero point, already rounded and clamped to the int8 range.
    pub zero_point: i32,
}

/// Derives a row's quantization parameters from its minimum and maximum.
#[inline]
pub fn row_quant(min: f32, max: f32) -> RowQuant {
    const QMIN: f32 = i8::MIN as f32;
    const QMAX: f32 = i8::MAX as f32;
    let rmin = if 0.0 < min { 0.0 } else { min };
    let rmax = if 0.0 > max { 0.0 } else { max };
    let multiplier = if rmin == rmax {
        1.0
    } else {
        (QMAX - QMIN) / (rmax - rmin)
    };
    let scale = if multiplier != 0.0 {
        1.0 / multiplier
    } else {
        0.0
    };
    let descaled_min = rmin * multiplier;
    let descaled_max = rmax * multiplier;
    let mut zp = if (QMIN + descaled_min) + (QMAX + descaled_max) > 0.0 {
        QMIN - descaled_min
    } else {
        QMAX - descaled_max
    };
    zp = if zp > QMIN { zp } else { QMIN };
    zp = if zp < QMAX { zp } else { QMAX };
    RowQuant {
        multiplier,
        scale,
        zero_point: crate::float::round_ties_even(zp) as i32,
    }
}

/// Quantizes one value: round half away from zero, add the zero point, saturate to int8.
#[inline]
pub fn quantize(x: f32, q: &RowQuant) -> i8 {
    let v = (crate::float::round_half_away(x * q.multiplier) as i32).saturating_add(q.zero_point);
    v.clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

/// Minimum and maximum of a row in the order the NEON packer reduces it: 4-lane NaN-propagating
/// `FMAX`/`FMIN` over blocks of 8, a lane reduction, then a scalar tail that skips NaNs.
///
/// # Safety
/// `row` must be readable for `k` elements.
#[inline]
unsafe fn row_min_max<T: SourceElement>(row: *const T, k: usize) -> (f32, f32) {
    let mut vmax = [-f32::MAX; 4];
    let mut vmin = [f32::MAX; 4];
    let blocks = k / 8;
    for b in 0..blocks {
        for half in 0..2 {
            for (lane, (mx, mn)) in vmax.iter_mut().zip(vmin.iter_mut()).enumerate() {
                // SAFETY: b * 8 + half * 4 + lane < blocks * 8 <= k.
                let x = unsafe { row.add(b * 8 + half * 4 + lane).read_unaligned() }.to_f32();
                *mx = crate::float::fmax(x, *mx);
                *mn = crate::float::fmin(x, *mn);
            }
        }
    }
    let mut max = vmax.iter().copied().fold(-f32::MAX, crate::float::fmax);
    let mut min = vmin.iter().copied().fold(f32::MAX, crate::float::fmin);
    for i in blocks * 8..k {
        // SAFETY: i < k.
        let x = unsafe { row.add(i).read_unaligned() }.to_f32();
        max = if x > max { x } else { max };
        min = if x < min { x } else { min };
    }
    (min, max)
}

/// Quantizes and packs `m` rows.
///
/// # Safety
/// [`check`] must have passed; `lhs` must be readable for `m` rows of `k` elements at
/// `lhs_stride`; `lhs_packed` must be writable for the groups covering rows
/// `m_idx_start .. m_idx_start + m` (measured from the group containing `m_idx_start`).
pub unsafe fn run<T: SourceElement>(a: &Args<T>) {
    if a.m == 0 {
        return;
    }
    let (mr, kbl) = (a.mr, a.kr / a.sr);
    let k_int = layout::k_internal(a.k, a.kr, a.sr).unwrap_or(0);
    let stride = layout::stride(a.k, a.mr, a.kr, a.sr).unwrap_or(0);
    let mut group = a.lhs_packed;
    for row_idx in 0..a.m {
        // SAFETY: row_idx < m rows of lhs_stride bytes are readable.
        let src = unsafe { a.lhs.cast::<u8>().add(row_idx * a.lhs_stride).cast::<T>() };
        // SAFETY: the row has k readable elements.
        let (min, max) = unsafe { row_min_max(src, a.k) };
        let q = row_quant(min, max);
        let slot = (row_idx + a.m_idx_start) % mr;
        for kk in 0..k_int {
            let x = {
                // SAFETY: the index is clamped to k - 1.
                unsafe { src.add(kk.min(a.k - 1)).read_unaligned() }.to_f32()
            };
            let at = ((kk / kbl) * mr + slot) * kbl + kk % kbl;
            // SAFETY: at < mr * k_int, inside the current group.
            unsafe { group.add(at).write(quantize(x, &q) as u8) };
        }
        // SAFETY: the trailer of the group follows its mr * k_int data bytes.
        unsafe {
            let trailer = group.add(mr * k_int);
            trailer
                .add(4 * slot)
                .cast::<i32>()
                .write_unaligned(-q.zero_point);
            trailer
                .add(4 * mr + 4 * slot)
                .cast::<f32>()
                .write_unaligned(q.scale);
        }
        if (row_idx + 1 + a.m_idx_start) % mr == 0 {
            // SAFETY: the next row, if any, lives in the next group.
            group = unsafe { group.add(stride) };
        }
    }
}
