//! `lhs_quant_pack_qai8dxp_*`: dynamic per-row asymmetric int8 quantization of the LHS, packed
//! in groups of `mr` rows with `kr / sr`-deep blocks (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`k_int = roundup(k, roundup(kr * sr, 4))`, `kbl = kr / sr`):
//! `mr * k_int` int8 values, element (row r, k) at `((k / kbl) * mr + r) * kbl + k % kbl`, then
//! `mr` x `i32` negated zero points, then `mr` x `f32` dequantization scales. K padding repeats
//! the quantized last element. Rows past `m` in the last group are left untouched.
//!
//! Per row: min/max (`fast_row_min_max`: same bits as the NEON order of `row_min_max`), then
//! [`row_quant`], then 16 values at a time [`quantize`] and a store shaped by `mr` and `kbl`.
//! On AArch64 the loops are NEON (`FMAX`/`FMIN`; `FMUL`, `FCVTAS`, saturating narrows) and a
//! whole group of 4 rows is quantized together and interleaved by `ST4`; elsewhere portable
//! loops that LLVM vectorizes. Rows with a NaN among their first `k / 8 * 8` values take the
//! scalar `row_min_max`, whose lane order decides which NaN (payload, sign) reaches the scale.

use crate::contract::{self, Checked};
use crate::layout::qai8dxp as layout;

/// A source element type the packer quantizes from.
pub trait SourceElement: Copy {
    /// Which packer variant reads this type. When the type's size matches, the NEON loads also
    /// read its bits as that encoding (IEEE binary32, binary16, bfloat16) instead of calling
    /// [`SourceElement::to_f32`]; other types go through `to_f32`.
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

pub use super::kinds::LhsType;

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
#[cold]
#[inline(never)]
unsafe fn row_min_max<T: SourceElement>(row: *const T, k: usize) -> (f32, f32) {
    let blocks = k / 8;
    // f32 rows on AArch64 run the instructions themselves (for f32 the bits are the values).
    #[cfg(target_arch = "aarch64")]
    let native = T::TYPE == LhsType::F32 && neon::reads::<T>();
    #[cfg(not(target_arch = "aarch64"))]
    let native = false;
    let (mut min, mut max) = (f32::MAX, -f32::MAX);
    if native {
        #[cfg(target_arch = "aarch64")]
        {
            // SAFETY: blocks * 8 <= k elements are readable.
            (min, max) = unsafe { neon::ordered_min_max(row, blocks * 8) };
        }
    } else {
        let mut vmax = [-f32::MAX; 4];
        let mut vmin = [f32::MAX; 4];
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
        max = vmax.iter().copied().fold(max, crate::float::fmax);
        min = vmin.iter().copied().fold(min, crate::float::fmin);
    }
    for i in blocks * 8..k {
        // SAFETY: i < k.
        let x = unsafe { row.add(i).read_unaligned() }.to_f32();
        max = if x > max { x } else { max };
        min = if x < min { x } else { min };
    }
    (min, max)
}

/// Minimum and maximum with the same bits as [`row_min_max`], reduced 16 values at a time.
///
/// The block part (the first `k / 8 * 8` values) only needs the vector order of
/// [`row_min_max`] for NaNs and signed zeros: on non-NaN values `FMAX`/`FMIN` are the maximum
/// and minimum of a total order (-0 < +0), so any grouping gives the same bits. A block part
/// holding a NaN, whose payload and sign depend on the lane order, is rare: such rows (and, on
/// the portable path, which does not order zeros, rows whose block extreme is a zero) are
/// recomputed by [`row_min_max`]. The scalar tail is [`row_min_max`]'s.
///
/// # Safety
/// `row` must be readable for `k` elements.
#[inline(always)]
unsafe fn fast_row_min_max<T: SourceElement>(row: *const T, k: usize) -> (f32, f32) {
    let body = k / 8 * 8;
    #[cfg(target_arch = "aarch64")]
    // SAFETY: body <= k elements are readable.
    let extremes = unsafe { neon::min_max(row, body) };
    #[cfg(not(target_arch = "aarch64"))]
    // SAFETY: body <= k elements are readable.
    let extremes = unsafe { portable::min_max(row, body) };
    let Some((mut min, mut max)) = extremes else {
        // SAFETY: forwarded.
        return unsafe { row_min_max(row, k) };
    };
    for i in body..k {
        // SAFETY: i < k.
        let x = unsafe { row.add(i).read_unaligned() }.to_f32();
        max = if x > max { x } else { max };
        min = if x < min { x } else { min };
    }
    (min, max)
}

/// The quantization parameters of a row of `k` elements: [`fast_row_min_max`], then
/// [`row_quant`].
///
/// # Safety
/// `row` must be readable for `k` elements.
#[inline(never)]
unsafe fn row_params<T: SourceElement>(row: *const T, k: usize) -> RowQuant {
    // SAFETY: forwarded.
    let (min, max) = unsafe { fast_row_min_max(row, k) };
    row_quant(min, max)
}

/// Where the 16 values of a chunk go, given the row's first byte `row` in its group (`row =
/// group + slot * kbl`): value `kk` at `row + (kk / kbl) * mr * kbl + kk % kbl`.
#[derive(Clone, Copy, Debug)]
struct RowDst {
    row: *mut u8,
    mr: usize,
    kbl: usize,
}

/// Store shapes of a 16-value chunk, chosen once per call. When `kbl` divides 16 the chunk `c`
/// starts at `row + 16 * c * mr` and is `16 / kbl` runs of `kbl` bytes, `mr * kbl` apart (one
/// run when `mr == 1`, whatever `kbl`). Other depths take the per-byte formula.
mod shape {
    /// One 16-byte store (`mr == 1`).
    pub const LINEAR: u8 = 0;
    /// Two 8-byte stores (`kbl == 8`).
    pub const SPLIT8: u8 = 1;
    /// Four 4-byte stores (`kbl == 4`).
    pub const SPLIT4: u8 = 2;
    /// One byte at a time (any other depth; no catalog kernel).
    pub const BYTES: u8 = 3;

    /// The shape for `mr` rows of `kbl`-deep blocks.
    pub const fn of(mr: usize, kbl: usize) -> u8 {
        if mr == 1 {
            LINEAR
        } else if kbl == 8 {
            SPLIT8
        } else if kbl == 4 {
            SPLIT4
        } else {
            BYTES
        }
    }
}

impl RowDst {
    /// Writes the quantized chunk `c` (values `16 * c ..`) in the shape `SHAPE`; `p` is
    /// [`RowDst::chunk_start`]`(c)` (the loops step it instead of multiplying).
    ///
    /// # Safety
    /// The chunk's 16 destination bytes lie inside the group; `SHAPE == shape::of(mr, kbl)`.
    #[inline(always)]
    unsafe fn store<const SHAPE: u8>(&self, p: *mut u8, c: usize, bytes: [u8; 16]) {
        let run = self.mr * self.kbl;
        // SAFETY: by the shape, each run is inside the group (see `shape`).
        unsafe {
            match SHAPE {
                shape::LINEAR => p.cast::<[u8; 16]>().write_unaligned(bytes),
                shape::SPLIT8 => {
                    let [a, b]: [[u8; 8]; 2] = core::mem::transmute(bytes);
                    p.cast::<[u8; 8]>().write_unaligned(a);
                    p.add(run).cast::<[u8; 8]>().write_unaligned(b);
                }
                shape::SPLIT4 => {
                    let w: [[u8; 4]; 4] = core::mem::transmute(bytes);
                    for (j, wj) in w.into_iter().enumerate() {
                        p.add(j * run).cast::<[u8; 4]>().write_unaligned(wj);
                    }
                }
                _ => {
                    // kbl >= 1 (`run` makes it so); `max` keeps the division panic-free.
                    let kbl = self.kbl.max(1);
                    for (i, b) in bytes.into_iter().enumerate() {
                        let kk = 16 * c + i;
                        self.row.add((kk / kbl) * run + kk % kbl).write(b);
                    }
                }
            }
        }
    }

    /// Where chunk `c` starts for the shapes other than BYTES (see [`shape`]).
    #[inline(always)]
    fn chunk_start(&self, c: usize) -> *mut u8 {
        self.row.wrapping_add(16 * c * self.mr)
    }
}

/// Quantizes one row and writes its `k_int` values: the chunks whose 16 values lie below `k`
/// straight from the source, the last (padded) chunks from a buffer that repeats value `k - 1`.
///
/// # Safety
/// `src` is readable for `k >= 1` elements; `dst` addresses the row's slot in a group of
/// `dst.mr` rows with `k_int` (a multiple of 32, at least `k`) values per row; `shape` is
/// `shape::of(dst.mr, dst.kbl)`.
#[inline(always)]
unsafe fn pack_row<T: SourceElement>(
    src: *const T,
    k: usize,
    k_int: usize,
    q: &RowQuant,
    dst: &RowDst,
    shape: u8,
) {
    // SAFETY: the chunks 0..k / 16 read values below k and write inside the group.
    unsafe { chunks_of_shape(src, 0, k / 16, q, dst, shape) };
    // SAFETY: forwarded.
    unsafe { pack_row_tail(src, k, k_int, q, dst, shape) };
}

/// [`quantize_chunks`] in the store shape `shape`: one loop per shape, each compiled once.
///
/// # Safety
/// As for [`quantize_chunks`], with `shape == shape::of(dst.mr, dst.kbl)`.
#[inline(always)]
unsafe fn chunks_of_shape<T: SourceElement>(
    src: *const T,
    c0: usize,
    c1: usize,
    q: &RowQuant,
    dst: &RowDst,
    shape: u8,
) {
    /// # Safety
    /// As for [`quantize_chunks`].
    #[inline(never)]
    unsafe fn chunks<T: SourceElement, const SHAPE: u8>(
        src: *const T,
        c0: usize,
        c1: usize,
        q: &RowQuant,
        dst: &RowDst,
    ) {
        // SAFETY: forwarded.
        unsafe { quantize_chunks::<T, SHAPE>(src, c0, c1, q, dst) }
    }
    // SAFETY (every arm): forwarded.
    unsafe {
        match shape {
            shape::LINEAR => chunks::<T, { shape::LINEAR }>(src, c0, c1, q, dst),
            shape::SPLIT8 => chunks::<T, { shape::SPLIT8 }>(src, c0, c1, q, dst),
            shape::SPLIT4 => chunks::<T, { shape::SPLIT4 }>(src, c0, c1, q, dst),
            _ => chunks::<T, { shape::BYTES }>(src, c0, c1, q, dst),
        }
    }
}

/// The chunks of [`pack_row`] that reach past `k` (`k / 16 .. k_int / 16`).
///
/// # Safety
/// As for [`pack_row`].
unsafe fn pack_row_tail<T: SourceElement>(
    src: *const T,
    k: usize,
    k_int: usize,
    q: &RowQuant,
    dst: &RowDst,
    shape: u8,
) {
    for c in k / 16..k_int / 16 {
        let mut x = [0f32; 16];
        for (i, xi) in x.iter_mut().enumerate() {
            // SAFETY: the index is clamped to k - 1.
            *xi = unsafe { src.add((16 * c + i).min(k - 1)).read_unaligned() }.to_f32();
        }
        // SAFETY: x holds chunk c's 16 values; c < k_int / 16 is inside the group.
        unsafe { chunks_of_shape::<f32>(x.as_ptr(), c, c + 1, q, dst, shape) };
    }
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
    // `check` passed: mr, kr and sr are non-zero (the fallbacks only keep this panic-free).
    let mr = a.mr.max(1);
    let kbl = (a.kr / a.sr.max(1)).max(1);
    let shape = shape::of(mr, kbl);
    let k_int = layout::k_internal(a.k, a.kr, a.sr).unwrap_or(0);
    let stride = layout::stride(a.k, a.mr, a.kr, a.sr).unwrap_or(0);
    let mut group = a.lhs_packed;
    let mut row_idx = 0;
    while row_idx < a.m {
        // SAFETY: row_idx < m rows of lhs_stride bytes are readable.
        let src = unsafe { a.lhs.cast::<u8>().add(row_idx * a.lhs_stride).cast::<T>() };
        let slot = (row_idx + a.m_idx_start) % mr;
        #[cfg(target_arch = "aarch64")]
        if (shape == shape::SPLIT4 || shape == shape::SPLIT8)
            && mr == 4
            && slot == 0
            && a.m - row_idx >= 4
        {
            // SAFETY: rows row_idx..row_idx + 4 are readable and fill this group.
            if unsafe { neon::pack_group4::<T>(a, src, k_int, group, shape) } {
                row_idx += 4;
                // SAFETY: the next row, if any, lives in the next group.
                group = unsafe { group.add(stride) };
                continue;
            }
        }
        // SAFETY: the row has k readable elements.
        let q = unsafe { row_params(src, a.k) };
        let dst = RowDst {
            row: group.wrapping_add(slot * kbl),
            mr,
            kbl,
        };
        // SAFETY: k >= 1 (checked when m > 0) readable values; the row's slot in this group.
        unsafe { pack_row::<T>(src, a.k, k_int, &q, &dst, shape) };
        // SAFETY: the group holds k_int values of mr rows.
        unsafe { write_row_trailer(group, mr, k_int, slot, &q) };
        row_idx += 1;
        if (row_idx + a.m_idx_start) % mr == 0 {
            // SAFETY: the next row, if any, lives in the next group.
            group = unsafe { group.add(stride) };
        }
    }
}

/// Writes a row's negated zero point and scale into its group's trailer.
///
/// # Safety
/// `group` is a group of `mr` rows of `k_int` values, `slot < mr`.
#[inline(always)]
unsafe fn write_row_trailer(group: *mut u8, mr: usize, k_int: usize, slot: usize, q: &RowQuant) {
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
}

/// Quantizes chunks `c0..c1` of a row, read from `src` (value `16 * c0` first), and stores them
/// through `dst`: [`quantize`] on every value.
///
/// # Safety
/// `src` is readable for `16 * (c1 - c0)` elements; the chunks are inside the row's group.
#[inline(always)]
unsafe fn quantize_chunks<T: SourceElement, const SHAPE: u8>(
    src: *const T,
    c0: usize,
    c1: usize,
    q: &RowQuant,
    dst: &RowDst,
) {
    #[cfg(target_arch = "aarch64")]
    if neon::reads::<T>() {
        // SAFETY: forwarded.
        return unsafe { neon::quantize_chunks::<T, SHAPE>(src, c0, c1, q, dst) };
    }
    // SAFETY: forwarded.
    unsafe { portable::quantize_chunks::<T, SHAPE>(src, c0, c1, q, dst) }
}

/// Element-by-element forms of the vector loops, for targets without NEON (and element types
/// the NEON loads do not know). Written so that LLVM vectorizes them.
mod portable {
    use super::{RowDst, RowQuant, SourceElement};

    /// The block part's minimum and maximum (see [`super::fast_row_min_max`]), or `None` when
    /// it holds a NaN or its minimum or maximum is a zero: comparisons do not order -0 and +0,
    /// which [`super::row_min_max`] does.
    ///
    /// # Safety
    /// `row` is readable for `body` (a multiple of 8) elements.
    #[inline(always)]
    pub(super) unsafe fn min_max<T: SourceElement>(
        row: *const T,
        body: usize,
    ) -> Option<(f32, f32)> {
        let mut mx = [-f32::MAX; 8];
        let mut mn = [f32::MAX; 8];
        let mut nan = [false; 8];
        for b in 0..body / 8 {
            for i in 0..8 {
                // SAFETY: 8 * b + i < body.
                let x = unsafe { row.add(8 * b + i).read_unaligned() }.to_f32();
                nan[i] |= x.is_nan();
                mx[i] = if x > mx[i] { x } else { mx[i] };
                mn[i] = if x < mn[i] { x } else { mn[i] };
            }
        }
        let max = mx
            .into_iter()
            .fold(-f32::MAX, |a, b| if b > a { b } else { a });
        let min = mn
            .into_iter()
            .fold(f32::MAX, |a, b| if b < a { b } else { a });
        if nan.contains(&true) || max == 0.0 || min == 0.0 {
            None
        } else {
            Some((min, max))
        }
    }

    /// [`super::quantize`] in a form that vectorizes: `x * multiplier`, clamped to ±256 (NaN
    /// kept), truncated, rounded half away from zero by the fraction, zero point added, clamped
    /// to int8. Below 2^23 in magnitude this is `round_half_away`'s own arithmetic; beyond ±256
    /// the result saturates either way, since the zero point is in -128..=127.
    #[inline(always)]
    pub(super) fn quantize(x: f32, multiplier: f32, zero_point: i32) -> i8 {
        let y = x * multiplier;
        let y = if y > 256.0 { 256.0 } else { y };
        let y = if y < -256.0 { -256.0 } else { y };
        let t = y as i32; // NaN -> 0
        let frac = y - t as f32;
        let r = t + i32::from(frac >= 0.5) - i32::from(frac <= -0.5);
        (r + zero_point).clamp(i8::MIN as i32, i8::MAX as i32) as i8
    }

    /// See [`super::quantize_chunks`].
    ///
    /// # Safety
    /// As there.
    #[inline(always)]
    pub(super) unsafe fn quantize_chunks<T: SourceElement, const SHAPE: u8>(
        src: *const T,
        c0: usize,
        c1: usize,
        q: &RowQuant,
        dst: &RowDst,
    ) {
        for c in c0..c1 {
            let mut out = [0u8; 16];
            for (i, o) in out.iter_mut().enumerate() {
                // SAFETY: 16 * (c - c0) + i < 16 * (c1 - c0).
                let x = unsafe { src.add(16 * (c - c0) + i).read_unaligned() }.to_f32();
                *o = quantize(x, q.multiplier, q.zero_point) as u8;
            }
            // SAFETY: forwarded.
            unsafe { dst.store::<SHAPE>(dst.chunk_start(c), c, out) };
        }
    }
}

/// NEON forms of the two vector loops.
///
/// Min/max: `FMAX`/`FMIN` are [`crate::float::fmax`]/[`crate::float::fmin`], so non-NaN bits
/// match for any grouping; `FMAXV`/`FMINV` propagate a NaN, which sends the row to the scalar
/// order. Quantization: `FMUL` then `FCVTAS` (round half away from zero, saturating, NaN to 0:
/// `round_half_away(y) as i32`), `SQXTN` to 16 bits, `SQADD` of the zero point, `SQXTN` to 8
/// bits. Saturating at 16 bits before adding the zero point cannot change the int8 result: a
/// value clamped to ±32767 stays beyond int8 after adding -128..=127.
#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::*;
    use core::arch::asm;

    use super::{Args, LhsType, RowDst, RowQuant, SourceElement, shape};

    /// Whether the NEON loads read `T`: its `TYPE` names the element's encoding and its size
    /// agrees with it.
    #[inline(always)]
    pub(super) const fn reads<T: SourceElement>() -> bool {
        core::mem::size_of::<T>() == T::TYPE.size()
    }

    /// Eight consecutive elements widened to f32, exact for every non-NaN value (as
    /// `to_f32`); NaNs stay NaNs (payloads may differ, they do not reach the output).
    ///
    /// # Safety
    /// `p` is readable for 8 elements; [`reads::<T>()`].
    #[inline(always)]
    unsafe fn load8<T: SourceElement>(p: *const T) -> (float32x4_t, float32x4_t) {
        // SAFETY: 8 elements of T::TYPE.size() bytes are readable.
        unsafe {
            match T::TYPE {
                LhsType::F32 => {
                    let [a, b] = p.cast::<[float32x4_t; 2]>().read_unaligned();
                    (a, b)
                }
                LhsType::Bf16 => {
                    // bf16 is the high half of an f32.
                    let h = p.cast::<uint16x8_t>().read_unaligned();
                    (
                        vreinterpretq_f32_u32(vshll_n_u16::<16>(vget_low_u16(h))),
                        vreinterpretq_f32_u32(vshll_high_n_u16::<16>(h)),
                    )
                }
                LhsType::F16 => {
                    // FCVTL is base AdvSIMD, but its intrinsic needs the unstable f16 type.
                    let h = p.cast::<uint16x8_t>().read_unaligned();
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

    /// The block part's minimum and maximum (see [`super::fast_row_min_max`]), or `None` when
    /// it holds a NaN. Falls back to the portable form for element types it does not read.
    ///
    /// # Safety
    /// `row` is readable for `body` (a multiple of 8) elements.
    #[inline(always)]
    pub(super) unsafe fn min_max<T: SourceElement>(
        row: *const T,
        body: usize,
    ) -> Option<(f32, f32)> {
        if !reads::<T>() {
            // SAFETY: forwarded.
            return unsafe { super::portable::min_max(row, body) };
        }
        // SAFETY: every load reads 8 elements below body.
        unsafe {
            let mut mx = [vdupq_n_f32(-f32::MAX); 4];
            let mut mn = [vdupq_n_f32(f32::MAX); 4];
            let mut i = 0;
            // 64 values per iteration: 32 FMAX/FMIN, 8 loads and one loop test.
            while i + 64 <= body {
                for h in [0, 16, 32, 48] {
                    let (a, b) = load8(row.add(i + h));
                    let (c, d) = load8(row.add(i + h + 8));
                    mx[0] = vmaxq_f32(mx[0], a);
                    mx[1] = vmaxq_f32(mx[1], b);
                    mx[2] = vmaxq_f32(mx[2], c);
                    mx[3] = vmaxq_f32(mx[3], d);
                    mn[0] = vminq_f32(mn[0], a);
                    mn[1] = vminq_f32(mn[1], b);
                    mn[2] = vminq_f32(mn[2], c);
                    mn[3] = vminq_f32(mn[3], d);
                }
                i += 64;
            }
            while i + 8 <= body {
                let (a, b) = load8(row.add(i));
                mx[0] = vmaxq_f32(mx[0], a);
                mx[1] = vmaxq_f32(mx[1], b);
                mn[0] = vminq_f32(mn[0], a);
                mn[1] = vminq_f32(mn[1], b);
                i += 8;
            }
            let max = vmaxvq_f32(vmaxq_f32(vmaxq_f32(mx[0], mx[1]), vmaxq_f32(mx[2], mx[3])));
            let min = vminvq_f32(vminq_f32(vminq_f32(mn[0], mn[1]), vminq_f32(mn[2], mn[3])));
            if max.is_nan() || min.is_nan() {
                None
            } else {
                Some((min, max))
            }
        }
    }

    /// The block part of [`super::row_min_max`] (`body` values, a multiple of 8), as
    /// `(min, max)`: `FMAX`/`FMIN` of each 4 values into 4 lanes, the value the first operand
    /// (which decides which NaN a pair of NaNs gives), then the lanes folded in order into
    /// `-f32::MAX` / `f32::MAX`. In `asm!` so that the operand order is kept.
    ///
    /// # Safety
    /// `row` is readable for `body` elements; [`reads::<T>()`].
    #[inline(always)]
    pub(super) unsafe fn ordered_min_max<T: SourceElement>(
        row: *const T,
        body: usize,
    ) -> (f32, f32) {
        // SAFETY: every load reads 8 elements below body.
        unsafe {
            let mut mx = vdupq_n_f32(-f32::MAX);
            let mut mn = vdupq_n_f32(f32::MAX);
            let mut i = 0;
            while i < body {
                let (a, b) = load8(row.add(i));
                asm!(
                    "fmax {mx:v}.4s, {a:v}.4s, {mx:v}.4s",
                    "fmin {mn:v}.4s, {a:v}.4s, {mn:v}.4s",
                    "fmax {mx:v}.4s, {b:v}.4s, {mx:v}.4s",
                    "fmin {mn:v}.4s, {b:v}.4s, {mn:v}.4s",
                    a = in(vreg) a,
                    b = in(vreg) b,
                    mx = inout(vreg) mx,
                    mn = inout(vreg) mn,
                    options(pure, nomem, nostack, preserves_flags),
                );
                i += 8;
            }
            let (mut max, mut min) = (-f32::MAX, f32::MAX);
            asm!(
                "fmax {max:s}, {max:s}, {mx:s}",
                "fmin {min:s}, {min:s}, {mn:s}",
                "mov {t:s}, {mx:v}.s[1]",
                "fmax {max:s}, {max:s}, {t:s}",
                "mov {t:s}, {mn:v}.s[1]",
                "fmin {min:s}, {min:s}, {t:s}",
                "mov {t:s}, {mx:v}.s[2]",
                "fmax {max:s}, {max:s}, {t:s}",
                "mov {t:s}, {mn:v}.s[2]",
                "fmin {min:s}, {min:s}, {t:s}",
                "mov {t:s}, {mx:v}.s[3]",
                "fmax {max:s}, {max:s}, {t:s}",
                "mov {t:s}, {mn:v}.s[3]",
                "fmin {min:s}, {min:s}, {t:s}",
                mx = in(vreg) mx,
                mn = in(vreg) mn,
                max = inout(vreg) max,
                min = inout(vreg) min,
                t = out(vreg) _,
                options(pure, nomem, nostack, preserves_flags),
            );
            (min, max)
        }
    }

    /// See [`super::quantize_chunks`]; requires [`reads::<T>()`].
    ///
    /// # Safety
    /// As there.
    #[inline(always)]
    pub(super) unsafe fn quantize_chunks<T: SourceElement, const SHAPE: u8>(
        src: *const T,
        c0: usize,
        c1: usize,
        q: &RowQuant,
        dst: &RowDst,
    ) {
        // SAFETY: each chunk reads 16 elements below 16 * (c1 - c0); stores forwarded.
        unsafe {
            let m = vdupq_n_f32(q.multiplier);
            // -128..=127 (0 for a NaN row), see `row_quant`.
            let zp = vdupq_n_s16(q.zero_point as i16);
            let mut p = src;
            let mut out = dst.chunk_start(c0);
            for c in c0..c1 {
                let v = quantize16(p, m, zp);
                p = p.add(16);
                dst.store::<SHAPE>(out, c, core::mem::transmute::<int8x16_t, [u8; 16]>(v));
                out = out.wrapping_add(16 * dst.mr);
            }
        }
    }

    /// Quantizes 16 elements at `p`.
    ///
    /// # Safety
    /// `p` is readable for 16 elements; [`reads::<T>()`].
    #[inline(always)]
    unsafe fn quantize16<T: SourceElement>(
        p: *const T,
        m: float32x4_t,
        zp: int16x8_t,
    ) -> int8x16_t {
        // SAFETY: forwarded.
        unsafe {
            let (a, b) = load8(p);
            let (d, e) = load8(p.add(8));
            let ia = vcvtaq_s32_f32(vmulq_f32(a, m));
            let ib = vcvtaq_s32_f32(vmulq_f32(b, m));
            let id = vcvtaq_s32_f32(vmulq_f32(d, m));
            let ie = vcvtaq_s32_f32(vmulq_f32(e, m));
            let lo = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(ia), ib), zp);
            let hi = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(id), ie), zp);
            vqmovn_high_s16(vqmovn_s16(lo), hi)
        }
    }

    /// Packs the 4 rows of a whole `mr == 4` group (slots 0..4) from `src` on, if it reads
    /// `T`; returns whether it did. The 4 rows' chunks `c` are quantized together and written
    /// with one `ST4` of 4-byte (`kbl` 4) or 8-byte (`kbl` 8) elements: 64 contiguous bytes that
    /// are the chunk's `16 / kbl` blocks of the 4 rows in the packed order. Chunks past `k` and
    /// the trailers as per row.
    ///
    /// # Safety
    /// As for [`super::run`]; rows `src`, `src + lhs_stride`, ... (4) are readable; `group`
    /// is the group they fill; `shape` is SPLIT4 or SPLIT8 for `a`.
    pub(super) unsafe fn pack_group4<T: SourceElement>(
        a: &Args<T>,
        src: *const T,
        k_int: usize,
        group: *mut u8,
        shape: u8,
    ) -> bool {
        if !reads::<T>() {
            return false;
        }
        // SAFETY: forwarded.
        unsafe {
            let rows: [*const T; 4] =
                core::array::from_fn(|r| src.cast::<u8>().add(r * a.lhs_stride).cast::<T>());
            let q: [RowQuant; 4] = core::array::from_fn(|r| super::row_params(rows[r], a.k));
            group4_chunks::<T>(rows, &q, a.k / 16, group, shape == shape::SPLIT4);
            let kbl = if shape == shape::SPLIT4 { 4 } else { 8 };
            for (slot, (&row, q)) in rows.iter().zip(&q).enumerate() {
                let dst = RowDst {
                    row: group.add(slot * kbl),
                    mr: 4,
                    kbl,
                };
                super::pack_row_tail::<T>(row, a.k, k_int, q, &dst, shape);
                super::write_row_trailer(group, 4, k_int, slot, q);
            }
        }
        true
    }

    /// The first `chunks` chunks of the 4 rows of [`pack_group4`], stored from `group` on as
    /// 4-byte (`split4`, SPLIT4) or 8-byte (SPLIT8) elements. One loop for both shapes: the
    /// choice is a branch inside the store's `asm!`, which the compiler cannot unswitch into
    /// two copies of the loop.
    ///
    /// # Safety
    /// As for [`pack_group4`]; the rows hold `16 * chunks` readable elements.
    #[inline(always)]
    unsafe fn group4_chunks<T: SourceElement>(
        rows: [*const T; 4],
        q: &[RowQuant; 4],
        chunks: usize,
        group: *mut u8,
        split4: bool,
    ) {
        // SAFETY: forwarded.
        unsafe {
            let m: [float32x4_t; 4] = core::array::from_fn(|r| vdupq_n_f32(q[r].multiplier));
            let zp: [int16x8_t; 4] = core::array::from_fn(|r| vdupq_n_s16(q[r].zero_point as i16));
            let mut p = rows;
            let mut out = group;
            for _ in 0..chunks {
                let v: [int8x16_t; 4] = core::array::from_fn(|r| quantize16(p[r], m[r], zp[r]));
                for pr in &mut p {
                    *pr = pr.add(16);
                }
                asm!(
                    "tbz {split4:w}, #0, 2f",
                    "st4 {{v0.4s, v1.4s, v2.4s, v3.4s}}, [{out}], #64",
                    "b 3f",
                    "2:",
                    "st4 {{v0.2d, v1.2d, v2.2d, v3.2d}}, [{out}], #64",
                    "3:",
                    split4 = in(reg) u32::from(split4),
                    out = inout(reg) out,
                    in("v0") v[0],
                    in("v1") v[1],
                    in("v2") v[2],
                    in("v3") v[3],
                    options(nostack, preserves_flags),
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    lhs_quant_pack_qai8dxp_f32: Lhs(Qai8dxp(LhsType::F32));
    /// Same packed format from f16 input.
    lhs_quant_pack_qai8dxp_f16_neon: Lhs(Qai8dxp(LhsType::F16));
    /// Same packed format from bf16 input.
    lhs_quant_pack_qai8dxp_bf16_neon: Lhs(Qai8dxp(LhsType::Bf16));
}
