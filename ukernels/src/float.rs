//! Scalar floating-point operations with AArch64 semantics, so that the portable path and the
//! reference produce the same bits as the NEON kernels (including signed zeros and NaNs).

/// `FMAX` (vector form): NaN-propagating, `max(+0, -0) = +0`.
#[inline]
pub fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    if a == b {
        // Only differs for ±0: the result is -0 only when both are -0.
        return f32::from_bits(a.to_bits() & b.to_bits());
    }
    if a > b { a } else { b }
}

/// `FMIN` (vector form): NaN-propagating, `min(+0, -0) = -0`.
#[inline]
pub fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    if a == b {
        return f32::from_bits(a.to_bits() | b.to_bits());
    }
    if a < b { a } else { b }
}

/// Clamp as the kernels do it: `FMAX` with the lower bound, then `FMIN` with the upper.
#[inline]
pub fn clamp(y: f32, lo: f32, hi: f32) -> f32 {
    fmin(fmax(y, lo), hi)
}

/// `FMAXNM`: as [`fmax`], except that a quiet NaN against a number gives the number.
#[inline]
pub fn fmaxnm(a: f32, b: f32) -> f32 {
    match (is_quiet_nan(a), is_quiet_nan(b)) {
        (true, false) if !b.is_nan() => b,
        (false, true) if !a.is_nan() => a,
        _ => fmax(a, b),
    }
}

/// `FMINNM`: as [`fmin`], except that a quiet NaN against a number gives the number.
#[inline]
pub fn fminnm(a: f32, b: f32) -> f32 {
    match (is_quiet_nan(a), is_quiet_nan(b)) {
        (true, false) if !b.is_nan() => b,
        (false, true) if !a.is_nan() => a,
        _ => fmin(a, b),
    }
}

/// Clamp as SME2's `FCLAMP` does it: `FMAXNM` with the lower bound, then `FMINNM` with the upper
/// (a quiet NaN result is clamped to a bound; a signalling one becomes quiet, then the upper
/// bound). The architecture's operand order matters when both are NaNs: `FPMaxNum(lo, y)`, then
/// `FPMinNum(that, hi)`, so a NaN `y` against a NaN `lo` gives `lo`'s NaN (as QEMU computes it).
#[inline]
pub fn clamp_num(y: f32, lo: f32, hi: f32) -> f32 {
    fminnm(fmaxnm(lo, y), hi)
}

/// `x` with a signalling NaN made quiet (what a conversion such as `FCVT` does to it).
#[inline]
pub fn quiet(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 0x0040_0000)
    } else {
        x
    }
}

fn is_quiet_nan(x: f32) -> bool {
    x.is_nan() && x.to_bits() & 0x0040_0000 != 0
}

/// Clamp as the float GEMM kernels do it: `FMIN` with the upper bound, then `FMAX` with the lower
/// (so `lo` wins when `lo > hi`).
#[inline]
pub fn clamp_upper_first(y: f32, lo: f32, hi: f32) -> f32 {
    fmax(fmin(y, hi), lo)
}

/// The f32 default NaN: what an invalid operation gives with FPCR.DN = 0, and every NaN result
/// of an instruction targeting ZA (those behave as if FPCR.DN were 1).
pub const DEFAULT_NAN: u32 = 0x7fc0_0000;

/// One lane of `FADD`/`FADDP` with FPCR.DN = 0, FZ = 0: `a + b` rounded to nearest even,
/// subnormals kept; a signalling NaN among (`a`, `b`) in that order wins, quieted, then a quiet
/// NaN in the same order; `inf - inf` gives the default NaN.
#[inline]
pub fn fadd(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    let r = a + b;
    if r.is_nan() {
        f32::from_bits(DEFAULT_NAN)
    } else {
        r
    }
}

/// One lane of `FMUL` with FPCR.DN = 0, FZ = 0: `a * b` rounded to nearest even, subnormals
/// kept; NaN operands as [`fadd`]; infinity times zero gives the default NaN.
#[inline]
pub fn fmul(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    let r = a * b;
    if r.is_nan() {
        f32::from_bits(DEFAULT_NAN)
    } else {
        r
    }
}

/// One lane of `FMLA Vd, Vn, Vm[i]` (and SVE `FMLA` by element): `acc + b * a` with a single
/// rounding (ties to even), and Arm's NaN rules with FPCR.DN = 0: a signalling NaN among
/// (`acc`, `b`, `a`) in that order wins, quieted; then a quiet NaN in the same order, except that
/// a quiet-NaN `acc` with an infinity times zero product gives the default NaN; invalid operations
/// (infinity times zero, infinities of opposite signs) give the default NaN.
#[inline]
pub fn fmla(acc: f32, b: f32, a: f32) -> f32 {
    let r = libm::fmaf(b, a, acc);
    if !r.is_nan() {
        return r;
    }
    const QUIET: u32 = 0x0040_0000;
    let is_snan = |x: f32| x.is_nan() && x.to_bits() & QUIET == 0;
    let quiet = |x: f32| f32::from_bits(x.to_bits() | QUIET);
    if let Some(&s) = [acc, b, a].iter().find(|&&x| is_snan(x)) {
        return quiet(s);
    }
    let inf_times_zero = (b.is_infinite() && a == 0.0) || (b == 0.0 && a.is_infinite());
    if acc.is_nan() {
        return if inf_times_zero {
            f32::from_bits(DEFAULT_NAN)
        } else {
            acc
        };
    }
    if b.is_nan() {
        return b;
    }
    if a.is_nan() {
        return a;
    }
    f32::from_bits(DEFAULT_NAN)
}

/// One lane of a non-widening f32 `FMOPA` step: `acc + a * b` with a single rounding (ties to
/// even, subnormals kept with FPCR.FZ = 0); any NaN result is the default NaN.
#[inline]
pub fn fmopa(acc: f32, a: f32, b: f32) -> f32 {
    let r = libm::fmaf(a, b, acc);
    if r.is_nan() {
        f32::from_bits(DEFAULT_NAN)
    } else {
        r
    }
}

/// One lane of SME2's multi-vector `FMLA` into a ZA array vector: the lane arithmetic of
/// [`fmopa`] (fused, and a NaN result is the default NaN, as for every ZA-targeting
/// floating-point instruction), with [`fmla`]'s argument order.
#[inline]
pub fn fmla_za(acc: f32, b: f32, a: f32) -> f32 {
    fmopa(acc, a, b)
}

/// IEEE binary16 operations with AArch64 FEAT_FP16 semantics (FPCR.DN = 0, FZ16 = 0, round to
/// nearest even), on raw bits: what `FMLA`/`FMIN`/`FMAX` on `.8h` vectors and `FCVT Hd, Sn` do.
pub mod f16 {
    const QUIET: u16 = 0x0200;
    const DEFAULT_NAN: u16 = 0x7e00;

    fn is_nan(x: u16) -> bool {
        x & 0x7c00 == 0x7c00 && x & 0x03ff != 0
    }

    fn is_snan(x: u16) -> bool {
        is_nan(x) && x & QUIET == 0
    }

    fn is_inf(x: u16) -> bool {
        x & 0x7fff == 0x7c00
    }

    fn is_zero(x: u16) -> bool {
        x & 0x7fff == 0
    }

    /// 2^e as an f64 (normal range only).
    fn pow2(e: i32) -> f64 {
        f64::from_bits(((e + 1023) as u64) << 52)
    }

    /// Exact value of a non-NaN half.
    pub fn to_f64(x: u16) -> f64 {
        let sign = if x & 0x8000 != 0 { -1.0 } else { 1.0 };
        let (e, m) = (((x >> 10) & 0x1f) as i32, (x & 0x3ff) as f64);
        sign * match e {
            0 => m * pow2(-24),
            0x1f => f64::INFINITY,
            e => (1024.0 + m) * pow2(e - 25),
        }
    }

    /// `x` rounded to a half (ties to even, overflow to infinity); `x` must not be NaN.
    pub fn from_f64(x: f64) -> u16 {
        let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
        let a = x.abs();
        if a >= 65520.0 {
            return sign | 0x7c00;
        }
        // Exponent of the half's last place: 2^-24 below 2^-14, else 2^(e - 10).
        let e = if a < pow2(-14) {
            -14
        } else {
            ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
        };
        let m = libm::rint(a * pow2(10 - e)) as u32; // exact scaling, then ties to even
        let bits = if e == -14 && m < 1024 {
            m // subnormal or zero; 1024 is the smallest normal's encoding
        } else {
            (((e + 15) as u32) << 10) + m - 1024 // m == 2048 carries into the exponent
        };
        sign | bits as u16
    }

    /// `FCVT Hd, Sn`: a float rounded to a half; NaNs keep their sign and top payload bits,
    /// quieted.
    pub fn from_f32(x: f32) -> u16 {
        if x.is_nan() {
            let b = x.to_bits();
            return ((b >> 16) as u16 & 0x8000) | 0x7c00 | QUIET | ((b >> 13) as u16 & 0x03ff);
        }
        from_f64(x as f64)
    }

    /// One lane of `FMLA Vd.8h, Vn.8h, Vm.h[i]`: `acc + b * a` rounded once to a half, with the
    /// NaN rules of [`super::fmla`].
    pub fn fmla(acc: u16, b: u16, a: u16) -> u16 {
        if [acc, b, a].iter().any(|&x| is_nan(x)) {
            if let Some(&s) = [acc, b, a].iter().find(|&&x| is_snan(x)) {
                return s | QUIET;
            }
            let inf_times_zero = (is_inf(b) && is_zero(a)) || (is_zero(b) && is_inf(a));
            if is_nan(acc) {
                return if inf_times_zero { DEFAULT_NAN } else { acc };
            }
            return if is_nan(b) { b } else { a };
        }
        let (p, c) = (to_f64(b) * to_f64(a), to_f64(acc));
        let s = p + c;
        if s.is_nan() {
            return DEFAULT_NAN; // infinity times zero, or infinities of opposite signs
        }
        // b * a is exact in f64 (22 significant bits); the sum is exact or, when it is not, so far
        // from a half's rounding boundary that one rounding of it equals the fused result.
        from_f64(s)
    }

    /// `FMIN` on halves (NaN-propagating, `min(+0, -0) = -0`).
    pub fn fmin(a: u16, b: u16) -> u16 {
        pick(a, b, true)
    }

    /// `FMAX` on halves (NaN-propagating, `max(+0, -0) = +0`).
    pub fn fmax(a: u16, b: u16) -> u16 {
        pick(a, b, false)
    }

    fn pick(a: u16, b: u16, min: bool) -> u16 {
        if is_nan(a) || is_nan(b) {
            let n = if is_snan(a) {
                a
            } else if is_snan(b) || !is_nan(a) {
                b
            } else {
                a
            };
            return n | QUIET;
        }
        let (x, y) = (to_f64(a), to_f64(b));
        if x == y {
            return if min { a | b } else { a & b }; // signed zeros; otherwise a == b
        }
        if (x < y) == min { a } else { b }
    }

    /// Clamp as the f16 GEMM kernels do it: `FMIN` with the upper bound, then `FMAX` with the
    /// lower, all halves.
    pub fn clamp_upper_first(y: u16, lo: u16, hi: u16) -> u16 {
        fmax(fmin(y, hi), lo)
    }

    /// An f16 value times 2^24, exactly (every finite half is a multiple of 2^-24).
    fn scaled_int(x: u16) -> i64 {
        let v = to_f64(x) * 16_777_216.0;
        v as i64
    }

    /// One widening `FMOPA` step on halves `a` (LHS pair) and `b` (RHS pair) into the f32 `acc`,
    /// `acc + (a0 * b0 + a1 * b1)`, as the architecture defines it (`FPDotAdd_ZA`) and QEMU 11
    /// computes it: the two products and their sum rounded once to f32 (ties to even,
    /// subnormals kept with FPCR.FZ = 0), then added to `acc` with a second rounding;
    /// ZA-targeting instructions behave as if FPCR.DN were 1, so any NaN result is the default
    /// NaN `0x7fc0_0000`.
    pub fn dot_add(acc: f32, a: [u16; 2], b: [u16; 2]) -> f32 {
        let default_nan = f32::from_bits(super::DEFAULT_NAN);
        if acc.is_nan() || a.iter().chain(&b).any(|&x| is_nan(x)) {
            return default_nan;
        }
        let r = acc + pair_sum(a, b);
        if r.is_nan() { default_nan } else { r }
    }

    /// One lane of SVE2.1's 2-way `FDOT Zda.S, Zn.H, Zm.H[i]` (a Z register, FPCR.DN = 0):
    /// `acc + (n0 * m0 + n1 * m1)`, the pair rounded once to f32 as in [`dot_add`], then added
    /// with a second rounding (the architecture's `FPDotAdd`: `FPAdd(acc, FPDot(..))`). NaNs
    /// follow Arm's rules: a NaN among the four halves, signalling ones first, in the order
    /// `n0, n1, m0, m1`, becomes the pair's (quieted, widened) value; then `FPAdd` keeps a NaN
    /// `acc` (quieted) before the pair's; invalid operations (infinity x 0, opposite
    /// infinities) give the default NaN.
    ///
    /// QEMU 11 orders the NaN operands differently (the second pair's signalling NaNs first, and
    /// infinity x 0 beside a quiet NaN gives the default NaN); the two agree whenever the NaNs
    /// feeding one lane are one quiet and one signalling value at most, which is what rkai's
    /// tests feed.
    pub fn fdot(acc: f32, n: [u16; 2], m: [u16; 2]) -> f32 {
        let ops = [n[0], n[1], m[0], m[1]];
        let nan = ops
            .iter()
            .find(|&&x| is_snan(x))
            .or_else(|| ops.iter().find(|&&x| is_nan(x)));
        if acc.is_nan() {
            return super::quiet(acc);
        }
        if let Some(&x) = nan {
            return f32::from_bits(to_f32_bits(x | QUIET));
        }
        let r = acc + pair_sum(n, m);
        if r.is_nan() {
            f32::from_bits(super::DEFAULT_NAN)
        } else {
            r
        }
    }

    /// `a0 * b0 + a1 * b1` of non-NaN halves, rounded once to f32 (ties to even, subnormals
    /// kept); an invalid operation gives a NaN.
    fn pair_sum(a: [u16; 2], b: [u16; 2]) -> f32 {
        let infinite = |x: u16| x & 0x7fff == 0x7c00;
        if a.iter().chain(&b).any(|&x| infinite(x)) {
            // Infinities: IEEE arithmetic gives the result (infinity x 0 and inf - inf: NaN).
            let p0 = to_f64(a[0]) * to_f64(b[0]);
            let p1 = to_f64(a[1]) * to_f64(b[1]);
            (p0 + p1) as f32
        } else {
            // Both products are exact in f64 (11 x 11 significant bits). When their f64 sum is exact
            // too (its error term is zero), one conversion rounds it as the instruction does,
            // signed zeros included.
            let p0 = to_f64(a[0]) * to_f64(b[0]);
            let p1 = to_f64(a[1]) * to_f64(b[1]);
            let s = p0 + p1;
            let t = s - p0;
            if (p0 - (s - t)) + (p1 - t) == 0.0 {
                s as f32
            } else {
                // Otherwise: every finite half is an integer times 2^-24, so the exact sum is an
                // integer times 2^-48 below 2^81, non-zero here (the f64 sum was inexact): one
                // conversion rounds it (ties to even) and the scaling is exact (the sum is at least
                // 2^-48, far from f32's subnormals).
                let exact = i128::from(scaled_int(a[0])) * i128::from(scaled_int(b[0]))
                    + i128::from(scaled_int(a[1])) * i128::from(scaled_int(b[1]));
                (exact as f32) * f32::from_bits(0x2780_0000) // 2^-48
            }
        }
    }

    /// `FMAXNM` on halves: a quiet NaN loses to a number, a signalling NaN wins (quieted);
    /// `max(+0, -0) = +0`.
    pub fn fmaxnm(a: u16, b: u16) -> u16 {
        pick_num(a, b, false)
    }

    /// `FMINNM` on halves (see [`fmaxnm`]); `min(+0, -0) = -0`.
    pub fn fminnm(a: u16, b: u16) -> u16 {
        pick_num(a, b, true)
    }

    fn pick_num(a: u16, b: u16, min: bool) -> u16 {
        let quiet_nan = |x: u16| is_nan(x) && !is_snan(x);
        match (quiet_nan(a), quiet_nan(b)) {
            (true, false) if !is_nan(b) => b,
            (false, true) if !is_nan(a) => a,
            _ => pick(a, b, min),
        }
    }

    /// SME2's `FCLAMP` on halves: `FPMaxNum(lo, y)`, then `FPMinNum(that, hi)` (the operand
    /// order of [`super::clamp_num`]).
    pub fn clamp_num(y: u16, lo: u16, hi: u16) -> u16 {
        fminnm(fmaxnm(lo, y), hi)
    }

    /// The f32 bits of a half, as `FCVTL` widens it (exact; NaNs quieted, payload kept).
    pub fn to_f32_bits(x: u16) -> u32 {
        let sign = u32::from(x & 0x8000) << 16;
        let (e, m) = (u32::from((x >> 10) & 0x1f), u32::from(x & 0x3ff));
        match e {
            0x1f if m == 0 => sign | 0x7f80_0000,
            0x1f => sign | 0x7fc0_0000 | (m << 13),
            // Subnormal (or zero): m * 2^-24 is exact in f32.
            0 => sign | (m as f32 * (1.0 / 16_777_216.0)).to_bits(),
            e => sign | ((e + 112) << 23) | (m << 13),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn dot_add_rounds_the_pair_once_then_the_sum() {
            let h = from_f32;
            // 1 * 1 + 2^-24 * 2^-24 (subnormal halves): the pair is 1 + 2^-48, rounded to 1.
            let tiny = 0x0001;
            assert_eq!(dot_add(0.0, [h(1.0), tiny], [h(1.0), tiny]), 1.0);
            // (2^10 + 1) * 2^11 + 1 * 1: 2^21 + 2^11 + 1, exact in f32.
            let r = dot_add(0.0, [h(1025.0), h(1.0)], [h(2048.0), h(1.0)]);
            assert_eq!(r, 2_099_201.0);
            // A tie at f32 precision: 2^24 + 1 rounds to even (2^24), then + 0.
            let r = dot_add(0.0, [h(4096.0), h(1.0)], [h(4096.0), h(1.0)]);
            assert_eq!(r, 16_777_216.0);
            // 2^24 + 1 + 2^-10 rounds up: the pair is rounded once, as a whole.
            let r = dot_add(0.0, [h(4096.0), 0x3c01], [h(4096.0), h(1.0)]);
            assert_eq!(r, 16_777_218.0);
            // Zeros: -0 + -0 is -0 in the pair; +0 + -0 is +0 in the accumulation.
            assert_eq!(
                dot_add(-0.0, [h(-1.0), h(1.0)], [0, 0x8000]).to_bits(),
                0x8000_0000
            );
            assert_eq!(dot_add(0.0, [h(-1.0), h(1.0)], [0, 0x8000]).to_bits(), 0);
            // NaNs and infinity x 0 give the default NaN.
            let inf = 0x7c00;
            assert_eq!(
                dot_add(1.0, [inf, 0], [0, 0]).to_bits(),
                super::super::DEFAULT_NAN
            );
            assert_eq!(
                dot_add(1.0, [0xfe01, 0], [0, 0]).to_bits(),
                super::super::DEFAULT_NAN
            );
            assert_eq!(dot_add(f32::INFINITY, [inf, 0], [h(1.0), 0]), f32::INFINITY);
            assert_eq!(
                dot_add(f32::NEG_INFINITY, [inf, 0], [h(1.0), 0]).to_bits(),
                super::super::DEFAULT_NAN
            );
        }

        /// `FDOT` into a Z register: the same arithmetic as the ZA step, Arm's NaN choice
        /// (accumulator, then signalling before quiet in the order n0, n1, m0, m1), the default
        /// NaN only for invalid operations.
        #[test]
        fn fdot_keeps_nans_as_the_architecture_orders_them() {
            let h = from_f32;
            let (one, two) = ([h(1.0), h(2.0)], [h(3.0), h(-0.5)]);
            assert_eq!(fdot(0.25, one, two), dot_add(0.25, one, two));
            assert_eq!(fdot(0.25, one, two), 2.25);
            let (q1, q2, s1) = (0x7e01u16, 0xfe02u16, 0x7d03u16);
            let widened = |x: u16| to_f32_bits(x | 0x0200);
            // The accumulator's NaN first (quieted), even beside a signalling half.
            let acc = f32::from_bits(0x7fa0_0001);
            assert_eq!(fdot(acc, [s1, 0], one).to_bits(), 0x7fe0_0001);
            // Signalling before quiet, whatever the position; then quiet ones in order.
            assert_eq!(fdot(1.0, [q1, 0], [0, s1]).to_bits(), widened(s1));
            assert_eq!(fdot(1.0, [0, q2], [q1, 0]).to_bits(), widened(q2));
            // Invalid operations give the default NaN.
            assert_eq!(
                fdot(1.0, [0x7c00, 0], [0, 0]).to_bits(),
                super::super::DEFAULT_NAN
            );
            assert_eq!(
                fdot(f32::NEG_INFINITY, [0x7c00, 0], [h(1.0), 0]).to_bits(),
                super::super::DEFAULT_NAN
            );
        }

        /// The f64 fast path and the integer path agree wherever both apply: on random finite halves
        /// of every magnitude (subnormal to 65504), the pair rounded through the exact integer sum.
        #[test]
        fn dot_add_equals_the_exact_integer_sum() {
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let h = (x >> 20) as u16;
                if h & 0x7c00 == 0x7c00 { h & 0xbfff } else { h }
            };
            for _ in 0..200_000 {
                let (a, b) = ([next(), next()], [next(), next()]);
                let exact = i128::from(scaled_int(a[0])) * i128::from(scaled_int(b[0]))
                    + i128::from(scaled_int(a[1])) * i128::from(scaled_int(b[1]));
                let want = 0.0 + (exact as f32) * f32::from_bits(0x2780_0000);
                assert_eq!(
                    dot_add(0.0, a, b).to_bits(),
                    want.to_bits(),
                    "{a:x?} {b:x?}"
                );
            }
        }
    }
}

/// The bf16 bits of an f32 given as bits, as `BFCVT` rounds it with FPCR.DN = 0, FZ = 0: to
/// nearest, ties to even (overflow to infinity, subnormals kept); NaNs quieted, upper payload kept.
pub const fn bf16_from_f32_bits(b: u32) -> u16 {
    if b & 0x7fff_ffff > 0x7f80_0000 {
        return ((b >> 16) | 0x0040) as u16;
    }
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

/// Arm NaN propagation with FPCR.DN = 0: a signalling NaN operand wins, then the first NaN;
/// the result is quieted.
#[inline]
fn propagate_nan(a: f32, b: f32) -> f32 {
    const QUIET: u32 = 0x0040_0000;
    let is_snan = |x: f32| x.is_nan() && x.to_bits() & QUIET == 0;
    let pick = if is_snan(a) {
        a
    } else if is_snan(b) || !a.is_nan() {
        b
    } else {
        a
    };
    f32::from_bits(pick.to_bits() | QUIET)
}

/// `roundf`: nearest integer, ties away from zero (`FCVTAS` before conversion). NaN stays NaN.
#[inline]
pub fn round_half_away(x: f32) -> f32 {
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x; // already integral, infinite or NaN
    }
    let t = x as i32 as f32;
    let frac = x - t;
    if frac >= 0.5 {
        t + 1.0
    } else if frac <= -0.5 {
        t - 1.0
    } else {
        t
    }
}

/// `rintf` in the default rounding mode: nearest integer, ties to even. NaN stays NaN.
#[inline]
pub fn round_ties_even(x: f32) -> f32 {
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = x as i32 as f32;
    let frac = x - t;
    let odd = (t as i32) & 1 != 0;
    if frac > 0.5 || (frac == 0.5 && odd) {
        t + 1.0
    } else if frac < -0.5 || (frac == -0.5 && odd) {
        t - 1.0
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_zeros_follow_fmax_fmin() {
        assert_eq!(fmax(0.0, -0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(fmax(-0.0, 0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(fmin(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(fmax(-0.0, -0.0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn rounding_modes() {
        for (x, away, even) in [
            (0.5f32, 1.0f32, 0.0f32),
            (1.5, 2.0, 2.0),
            (2.5, 3.0, 2.0),
            (-0.5, -1.0, 0.0),
            (-2.5, -3.0, -2.0),
            (2.4999998, 2.0, 2.0),
            (-7.7, -8.0, -8.0),
            (1e10, 1e10, 1e10),
        ] {
            assert_eq!(round_half_away(x), away, "away {x}");
            assert_eq!(round_ties_even(x), even, "even {x}");
        }
        assert!(round_half_away(f32::NAN).is_nan());
    }

    #[test]
    fn nan_propagates() {
        assert!(fmax(f32::NAN, 1.0).is_nan());
        assert!(fmin(1.0, f32::NAN).is_nan());
        assert_eq!(clamp(5.0, -1.0, 2.0), 2.0);
        assert_eq!(clamp(-5.0, -1.0, 2.0), -1.0);
        assert_eq!(clamp_upper_first(5.0, 3.0, 2.0), 3.0);
    }

    #[test]
    fn half_conversions_round_to_nearest_even() {
        for bits in 0..=0xffffu16 {
            if bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0 {
                continue;
            }
            let v = f16::to_f64(bits);
            assert_eq!(f16::from_f64(v), bits, "{bits:#06x}");
            assert_eq!(f16::from_f32(v as f32), bits, "{bits:#06x}");
        }
        // Halfway cases: 1 + 2^-11 ties down to 1, 1 + 3 * 2^-11 up to 1 + 2^-9.
        assert_eq!(f16::from_f64(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f16::from_f64(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(f16::from_f64(65519.0), 0x7bff);
        assert_eq!(f16::from_f64(65520.0), 0x7c00);
        let tiny = f16::to_f64(0x0001); // 2^-24
        assert_eq!(f16::from_f64(tiny / 2.0), 0x0000);
        assert_eq!(f16::from_f64(tiny * 0.75), 0x0001);
        assert_eq!(f16::from_f64(tiny * 1.5), 0x0002);
        assert_eq!(f16::from_f32(f32::from_bits(0x7f80_2001)), 0x7e01);
        // fma: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20 fused; 2^-9 if the product rounded first.
        let b = 0x3c01;
        assert_eq!(
            f16::fmla(0xbc00, b, b),
            f16::from_f64(1.0 / 512.0 + 1.0 / 1048576.0)
        );
        assert_eq!(f16::fmla(0x7e00, 0x7c00, 0x0000), 0x7e00);
        assert_eq!(f16::fmla(0x3c00, 0x7d00, 0xfe01), 0x7f00);
        assert_eq!(f16::clamp_upper_first(0x4000, 0x4200, 0x3c00), 0x4200);
    }

    #[test]
    fn bf16_and_half_widening_match_the_half_crate() {
        for bits in 0..=0xffffu16 {
            let wide = f16::to_f32_bits(bits);
            let nan = bits & 0x7c00 == 0x7c00 && bits & 0x3ff != 0;
            if !nan {
                assert_eq!(f32::from_bits(wide), half::f16::from_bits(bits).to_f32());
            } else {
                assert_eq!(wide & 0x7fc0_0000, 0x7fc0_0000, "{bits:#06x} quieted");
            }
        }
        let mut x = 0x1234_5677u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let f = f32::from_bits(x);
            if !f.is_nan() {
                assert_eq!(
                    bf16_from_f32_bits(x),
                    half::bf16::from_f32(f).to_bits(),
                    "{x:#x}"
                );
            }
        }
        assert_eq!(bf16_from_f32_bits(0x3f80_8000), 0x3f80); // tie to even (down)
        assert_eq!(bf16_from_f32_bits(0x3f81_8000), 0x3f82); // tie to even (up)
        assert_eq!(bf16_from_f32_bits(0x7f7f_ffff), 0x7f80); // overflow
        assert_eq!(bf16_from_f32_bits(0x7f80_0001), 0x7fc0); // sNaN quieted
        assert_eq!(bf16_from_f32_bits(0xffc1_2345), 0xffc1);
    }

    #[test]
    fn fmla_rounds_once_and_follows_arm_nan_rules() {
        // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly when fused (2^-11 when the product rounds).
        let b = f32::from_bits(0x3f80_0800);
        assert_eq!(fmla(-1.0, b, b).to_bits(), 0x3a00_0400);
        let snan = f32::from_bits(0x7f80_0001);
        let qnan = f32::from_bits(0xffc0_0002);
        assert_eq!(fmla(1.0, snan, qnan).to_bits(), 0x7fc0_0001);
        assert_eq!(fmla(qnan, f32::INFINITY, 0.0).to_bits(), 0x7fc0_0000);
        assert_eq!(fmla(qnan, 1.0, 2.0).to_bits(), qnan.to_bits());
        assert_eq!(
            fmla(f32::INFINITY, -1.0, f32::INFINITY).to_bits(),
            0x7fc0_0000
        );
        assert_eq!(fmla(1.0, 2.0, qnan).to_bits(), qnan.to_bits());
    }
}

/// The bf16 dot-product steps of `BFDOT` and `BFMMLA` as QEMU executes them with FPCR.EBF = 0
/// (the architecture's only behaviour without FEAT_EBF16): every multiply and add rounds to odd
/// (overflow gives infinity), subnormal inputs and results are flushed to signed zero, and any
/// NaN result is the default NaN. One step is `acc + (a0 * b0 + a1 * b1)`; `BFMMLA` takes two
/// steps per output (K values 0-1, then 2-3), `BFDOT` one per lane.
///
/// Real hardware computes the same architected result when FPCR.EBF = 0, but the Arm ARM leaves
/// the intermediate precision of the pair sum to the implementation for BFDOT ("fused" on some
/// cores) and FEAT_EBF16 cores with FPCR.EBF = 1 round to nearest even with FPCR.FZ honoured:
/// there the last bits of a result may differ from this model.
pub mod bf16 {
    use super::DEFAULT_NAN;

    /// f32 value of bf16 bits (exact).
    #[inline]
    pub fn to_f32(x: u16) -> f32 {
        f32::from_bits(u32::from(x) << 16)
    }

    /// Flush-to-zero of an input (FPCR.FIZ behaviour of the bf16 operations).
    #[inline]
    fn flush(x: f32) -> f32 {
        if x.is_subnormal() {
            f32::from_bits(x.to_bits() & 0x8000_0000)
        } else {
            x
        }
    }

    /// `s + e` (`s` the f64 sum rounded to nearest, `e` its exact error, both finite) rounded to
    /// odd at f32 precision, overflow to infinity, results below 2^-126 flushed to signed zero.
    fn round_odd(s: f64, e: f64) -> f32 {
        if s == 0.0 {
            return s as f32; // exact zero, sign as computed
        }
        const DROP: u64 = (1 << 29) - 1; // f64 fraction bits below the f32 last place
        let bits = s.to_bits();
        let sign = bits & (1 << 63);
        let mag = bits & !(1 << 63);
        let mut t = mag & !DROP; // |s| truncated to 24 significant bits
        let mut inexact = mag & DROP != 0;
        if e != 0.0 {
            // The exact value lies strictly between s and its f64 neighbour on e's side: on the
            // 24-bit grid, truncation moves one place down if s was on the grid and e points to 0.
            if !inexact && e.is_sign_negative() != s.is_sign_negative() {
                t -= 1 << 29;
            }
            inexact = true;
        }
        let v = f64::from_bits(t);
        let sign32 = (sign >> 32) as u32;
        if v < f64::from(f32::MIN_POSITIVE) {
            return f32::from_bits(sign32);
        }
        if v >= f64::from_bits(0x47f0_0000_0000_0000) {
            // v >= 2^128
            return f32::from_bits(sign32 | 0x7f80_0000);
        }
        let r = (v as f32).to_bits() | u32::from(inexact);
        f32::from_bits(sign32 | r)
    }

    /// One product, as `float32_mul` with the bf16 status.
    #[inline]
    pub fn mul(a: f32, b: f32) -> f32 {
        let (a, b) = (flush(a), flush(b));
        if a.is_nan()
            || b.is_nan()
            || (a.is_infinite() && b == 0.0)
            || (a == 0.0 && b.is_infinite())
        {
            return f32::from_bits(DEFAULT_NAN);
        }
        if a.is_infinite() || b.is_infinite() {
            return a * b;
        }
        // 24 x 24 significant bits: exact in f64.
        round_odd(f64::from(a) * f64::from(b), 0.0)
    }

    /// One sum, as `float32_add` with the bf16 status.
    #[inline]
    pub fn add(a: f32, b: f32) -> f32 {
        let (a, b) = (flush(a), flush(b));
        if a.is_nan() || b.is_nan() {
            return f32::from_bits(DEFAULT_NAN);
        }
        if a.is_infinite() || b.is_infinite() {
            let r = a + b;
            return if r.is_nan() {
                f32::from_bits(DEFAULT_NAN)
            } else {
                r
            };
        }
        let (x, y) = (f64::from(a), f64::from(b));
        let s = x + y;
        // Knuth's two-sum: the exact error of s.
        let yy = s - x;
        let e = (x - (s - yy)) + (y - yy);
        round_odd(s, e)
    }

    /// One dot step: `acc + (a[0] * b[0] + a[1] * b[1])` on bf16 bits.
    #[inline]
    pub fn dot_step(acc: f32, a: [u16; 2], b: [u16; 2]) -> f32 {
        let t0 = mul(to_f32(a[0]), to_f32(b[0]));
        let t1 = mul(to_f32(a[1]), to_f32(b[1]));
        add(acc, add(t0, t1))
    }
}
