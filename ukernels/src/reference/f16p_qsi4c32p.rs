//! Reference of `matmul_clamp_f32_f16p_qsi4c32p` (f16 activations x Q4_0 weights with f16 block
//! scales, f32 output) from unpacked operands, and the two arithmetic steps its kernel is made of,
//! which the portable path shares:
//!
//! * [`scaled_weight`]: a weight `w` (-8..=7) as an f16 times its block's f16 scale, rounded to
//!   f16 (streaming SVE `FMUL` on halves: ties to even, overflow to infinity, subnormals kept);
//! * [`dot_add`]: one widening `FMOPA` step, `acc + (a0 * b0 + a1 * b1)` on halves into f32, as
//!   the architecture defines it (`FPDotAdd_ZA`): the two products and their sum rounded once to
//!   f32, then added to `acc` with a second rounding; ZA-targeting instructions behave as if
//!   FPCR.DN were 1, so any NaN result is the default NaN `0x7fc0_0000`.
//!
//! For row `i` and column `j`: `acc = +0; for every pair p of K values (2p, 2p + 1) in order:
//! acc = dot_add(acc, [a[i][2p], a[i][2p + 1]], [sw(2p), sw(2p + 1)])`, with `sw(v) =
//! scaled_weight(w[j][v], d[j][v / bl])`; then `FCLAMP` ([`Clamp::MaxNumThenMinNum`]: a NaN sum
//! clamps to a bound).
//!
//! [`Clamp::MaxNumThenMinNum`]: crate::kernel::Clamp::MaxNumThenMinNum

use crate::float::f16;

/// The default NaN of ZA-targeting instructions.
pub const DEFAULT_NAN: u32 = 0x7fc0_0000;

fn is_nan16(x: u16) -> bool {
    x & 0x7c00 == 0x7c00 && x & 0x03ff != 0
}

/// `w` (an int4 value) times the f16 scale `d`, rounded to f16: what the kernel's `FMUL` of the
/// `LUTI4`-widened weight by the scale gives. A NaN keeps `d`'s sign and payload, quieted (the
/// next step turns every NaN into the default one anyway).
pub fn scaled_weight(w: i8, d: u16) -> u16 {
    if is_nan16(d) {
        return d | 0x0200;
    }
    let p = f64::from(w) * f16::to_f64(d);
    if p.is_nan() {
        return 0x7e00; // 0 x infinity
    }
    // Exact in f64 (4 x 11 significant bits); a zero takes the sign of the exact product.
    f16::from_f64(p)
}

/// An f16 value times 2^24, exactly (every finite half is a multiple of 2^-24).
fn scaled_int(x: u16) -> i64 {
    let v = f16::to_f64(x) * 16_777_216.0;
    v as i64
}

/// One widening `FMOPA` step on halves `a` (LHS pair) and `b` (RHS pair) into the f32 `acc`
/// (see the module documentation).
pub fn dot_add(acc: f32, a: [u16; 2], b: [u16; 2]) -> f32 {
    let default_nan = f32::from_bits(DEFAULT_NAN);
    if acc.is_nan() || a.iter().chain(&b).any(|&x| is_nan16(x)) {
        return default_nan;
    }
    let infinite = |x: u16| x & 0x7fff == 0x7c00;
    let dot = if a.iter().chain(&b).any(|&x| infinite(x)) {
        // Infinities: IEEE arithmetic gives the result (infinity x 0 and inf - inf: NaN).
        let p0 = f16::to_f64(a[0]) * f16::to_f64(b[0]);
        let p1 = f16::to_f64(a[1]) * f16::to_f64(b[1]);
        (p0 + p1) as f32
    } else {
        // Both products are exact in f64 (11 x 11 significant bits). When their f64 sum is exact
        // too (its error term is zero), one conversion rounds it as the instruction does,
        // signed zeros included.
        let p0 = f16::to_f64(a[0]) * f16::to_f64(b[0]);
        let p1 = f16::to_f64(a[1]) * f16::to_f64(b[1]);
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
    };
    let r = acc + dot;
    if r.is_nan() { default_nan } else { r }
}

/// One lane of `FMLALB`/`FMLALT` (SVE2, legal in streaming mode) on the halves `b` (first source)
/// and `a` (second) into the f32 `acc`: both widened exactly, `acc + b * a` rounded once (the
/// product of two halves is exact in f32), with FPCR.DN = 0: the NaN rules of
/// [`crate::float::fmla`], a signalling half counting as signalling (it comes out quieted, its
/// payload shifted into the f32 one).
pub fn fmlal(acc: f32, b: u16, a: u16) -> f32 {
    let widen = |x: u16| {
        let bits = f16::to_f32_bits(x);
        let signalling = is_nan16(x) && x & 0x0200 == 0;
        f32::from_bits(if signalling {
            bits & !0x0040_0000
        } else {
            bits
        })
    };
    crate::float::fmla(acc, widen(b), widen(a))
}

/// SME2 `FCLAMP` on halves: `FMAXNM` with `lo`, then `FMINNM` with `hi` (a quiet NaN becomes a
/// bound). Every operand here is quiet (results of `FCVT`, bounds rounded by `FCVT`), and
/// widening a half to f32 is exact and monotonic, so this is the f32 clamp of the widened values.
pub fn fclamp(y: u16, lo: u16, hi: u16) -> u16 {
    let w = |x: u16| f32::from_bits(f16::to_f32_bits(x));
    f16::from_f32(crate::float::clamp_num(w(y), w(lo), w(hi)))
}

/// Reference results (`m` x `n`, rows `n` apart) for activations `a` (m x k halves, as the LHS
/// packer rounds them), weights `w` (n x k, -8..=7) and scales `d` (n x k / bl halves), clamped
/// with `FCLAMP`.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    a: &[u16],
    w: &[i8],
    d: &[u16],
    (lo, hi): (f32, f32),
    dst: &mut [f32],
) {
    let blocks = k / bl;
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f32;
            for p in 0..k / 2 {
                let v = 2 * p;
                let scale = d[j * blocks + v / bl];
                let sw = |v: usize| scaled_weight(w[j * k + v], scale);
                acc = dot_add(acc, [a[i * k + v], a[i * k + v + 1]], [sw(v), sw(v + 1)]);
            }
            dst[i * n + j] = crate::kernel::Clamp::MaxNumThenMinNum.apply(acc, lo, hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_add_rounds_the_pair_once_then_the_sum() {
        let h = |x: f32| f16::from_f32(x);
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
        assert_eq!(dot_add(1.0, [inf, 0], [0, 0]).to_bits(), DEFAULT_NAN);
        assert_eq!(dot_add(1.0, [0xfe01, 0], [0, 0]).to_bits(), DEFAULT_NAN);
        assert_eq!(dot_add(f32::INFINITY, [inf, 0], [h(1.0), 0]), f32::INFINITY);
        assert_eq!(
            dot_add(f32::NEG_INFINITY, [inf, 0], [h(1.0), 0]).to_bits(),
            DEFAULT_NAN
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

    #[test]
    fn scaled_weight_rounds_to_f16() {
        let h = |x: f32| f16::from_f32(x);
        assert_eq!(scaled_weight(-8, h(65504.0)), 0xfc00);
        // 3 x 1365/4096 = 4095/4096, halfway between 2047/2048 and 1: ties to even (1).
        assert_eq!(scaled_weight(3, 0x3555), 0x3c00);
        assert_eq!(scaled_weight(0, 0xfc00), 0x7e00);
        assert_eq!(scaled_weight(0, h(-2.0)), 0x8000);
        assert_eq!(scaled_weight(-1, 0x0001), 0x8001);
    }
}
