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

/// Clamp as the float GEMM kernels do it: `FMIN` with the upper bound, then `FMAX` with the lower
/// (so `lo` wins when `lo > hi`).
#[inline]
pub fn clamp_upper_first(y: f32, lo: f32, hi: f32) -> f32 {
    fmax(fmin(y, hi), lo)
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
    const DEFAULT_NAN: u32 = 0x7fc0_0000;
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
