//! Reference of `matmul_clamp_f32_f16p_qsi4c32p` (f16 activations x Q4_0 weights with f16 block
//! scales, f32 output) from unpacked operands, and the two arithmetic steps its kernel is made of,
//! which the portable path shares:
//!
//! * [`scaled_weight`]: a weight `w` (-8..=7) as an f16 times its block's f16 scale, rounded to
//!   f16 (streaming SVE `FMUL` on halves: ties to even, overflow to infinity, subnormals kept);
//! * [`dot_add`] ([`crate::float::f16::dot_add`], shared with the SME f16 GEMMs): one widening
//!   `FMOPA` step, `acc + (a0 * b0 + a1 * b1)` on halves into f32.
//!
//! For row `i` and column `j`: `acc = +0; for every pair p of K values (2p, 2p + 1) in order:
//! acc = dot_add(acc, [a[i][2p], a[i][2p + 1]], [sw(2p), sw(2p + 1)])`, with `sw(v) =
//! scaled_weight(w[j][v], d[j][v / bl])`; then `FCLAMP` ([`Clamp::MaxNumThenMinNum`]: a NaN sum
//! clamps to a bound).
//!
//! [`Clamp::MaxNumThenMinNum`]: crate::kernel::Clamp::MaxNumThenMinNum

use crate::float::f16;
pub use crate::float::f16::dot_add;

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
