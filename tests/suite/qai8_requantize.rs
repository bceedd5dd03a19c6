//! The requantized int8 output stage of KleidiAI's SME int8-output kernels
//! (`rkai_ukernels::reference::qai8`), the oracle their kernels are to be checked against: KleidiAI's
//! order of operations on hand-picked cases (ties to even, a saturated conversion whose zero point
//! addition wraps, NaN scales, inverted bounds in both clamp orders, bounds outside `i8`), the
//! folded bias of the RHS packer, and, on Arm, every step against the instructions the kernels
//! use (`SCVTF`, `FMUL`, `FRINTN`, `FCVTZS`, `ADD`, `SMIN`/`SMAX`) over random and hostile
//! inputs.

use crate::support;

use rkai_ukernels::reference::qai8::{
    self, ClampOrder, Operands, Requantize, folded_bias, requantize,
};
use support::rng::Rng;

const INT8: Requantize = Requantize {
    min_value: -128,
    max_value: 127,
    output_zero_point: 0,
};

const WIDE: Requantize = Requantize {
    min_value: i32::MIN,
    max_value: i32::MAX,
    output_zero_point: 0,
};

const ORDERS: [ClampOrder; 2] = [ClampOrder::UpperFirst, ClampOrder::LowerFirst];

#[test]
fn hand_cases_follow_kleidiai_order() {
    let zp = |output_zero_point| Requantize {
        output_zero_point,
        ..INT8
    };
    let mut cases = 0;
    for order in ORDERS {
        let cases_here: [(i32, f32, Requantize, i8); 12] = [
            (0, 1.0, INT8, 0),
            // FRINTN: ties to even.
            (5, 0.5, INT8, 2),
            (7, 0.5, INT8, 4),
            (-5, 0.5, INT8, -2),
            (3, 0.5, zp(10), 12),
            // FCVTZS saturates to i32::MAX, the zero point's ADD wraps to the bottom: the
            // clamp gives min_value, not max_value.
            (i32::MAX, f32::MAX, zp(1), -128),
            (i32::MIN, f32::MAX, zp(-1), 127),
            // A NaN or infinite-times-zero product converts to 0.
            (17, f32::NAN, zp(5), 5),
            (0, f32::INFINITY, zp(-3), -3),
            // SCVTF rounds 2^24 + 1 to 2^24; bounds outside i8 keep the low byte.
            (16_777_217, 1.0, WIDE, 0),
            (300, 1.0, WIDE, 44),
            (-129, 1.0, WIDE, 127),
        ];
        for (acc, scale, p, expect) in cases_here {
            let got = requantize(acc, scale, p, order);
            assert_eq!(got, expect, "acc={acc} scale={scale:e} {p:?} {order:?}");
            cases += 1;
        }
    }
    // Inverted bounds: the SME kernel's upper bound first leaves min_value, SME2's SCLAMP
    // max_value.
    let inverted = Requantize {
        min_value: 10,
        max_value: -10,
        output_zero_point: 0,
    };
    assert_eq!(requantize(0, 1.0, inverted, ClampOrder::UpperFirst), 10);
    assert_eq!(requantize(0, 1.0, inverted, ClampOrder::LowerFirst), -10);
    eprintln!("requantize hand cases: {}", cases + 2);
}

#[test]
fn folded_bias_wraps() {
    let column = [127i8, 127, -128, 5];
    assert_eq!(folded_bias(10, 3, column.iter().copied()), 10 - 3 * 131);
    // i32::MIN as zero point: its negation wraps to itself.
    let got = folded_bias(i32::MAX, i32::MIN, [1i8].into_iter());
    assert_eq!(got, i32::MAX.wrapping_add(i32::MIN));
    let got = folded_bias(i32::MIN, 1, [1i8].into_iter());
    assert_eq!(got, i32::MAX);
}

/// The matmul oracle equals the textbook formula `(lhs - zp) x rhs + bias` taken modulo 2^32.
#[test]
fn matmul_equals_the_zero_point_formula() {
    let mut rng = Rng::new(27);
    let mut checked = 0;
    for &(m, n, k) in &[(1, 1, 1), (3, 5, 7), (4, 9, 33), (2, 3, 64)] {
        for lhs_zero_point in [0, -128, 127, i32::MIN, i32::MAX] {
            let bytes = |rng: &mut Rng, len| (0..len).map(|_| rng.next_u64() as i8).collect();
            let lhs: Vec<i8> = bytes(&mut rng, m * k);
            let rhs: Vec<i8> = bytes(&mut rng, k * n);
            let bias: Vec<i32> = (0..n).map(|_| rng.next_u64() as i32).collect();
            let scale = rng.vec_f32(n, -1e-3, 1e-3);
            let o = Operands {
                lhs: &lhs,
                rhs: &rhs,
                bias: &bias,
                scale: &scale,
                lhs_zero_point,
                scale_multiplier: 0.5,
            };
            let p = Requantize {
                min_value: -100,
                max_value: 90,
                output_zero_point: 3,
            };
            let got: Vec<i8> = qai8::matmul((m, n, k), &o, p, ClampOrder::LowerFirst).collect();
            for i in 0..m {
                for j in 0..n {
                    let mut acc = i64::from(bias[j]);
                    for kk in 0..k {
                        let a = i64::from(lhs[i * k + kk]) - i64::from(lhs_zero_point);
                        acc += a * i64::from(rhs[kk * n + j]);
                    }
                    let expect = requantize(acc as i32, scale[j] * 0.5, p, ClampOrder::LowerFirst);
                    assert_eq!(got[i * n + j], expect, "{m}x{n}x{k} zp {lhs_zero_point}");
                    checked += 1;
                }
            }
        }
    }
    eprintln!("qai8 matmul oracle values checked: {checked}");
}

/// One value through the kernels' instructions (scalar forms, the same FPCR arithmetic).
#[cfg(target_arch = "aarch64")]
fn on_cpu(acc: i32, scale: f32, p: Requantize, order: ClampOrder) -> i8 {
    let out: i32;
    // SAFETY: register-only arithmetic.
    unsafe {
        core::arch::asm!(
            "scvtf {f:s}, {x:w}",
            "fmul {f:s}, {f:s}, {s:s}",
            "frintn {f:s}, {f:s}",
            "fcvtzs {x:w}, {f:s}",
            "add {x:w}, {x:w}, {zp:w}",
            x = inout(reg) acc => out,
            f = out(vreg) _,
            s = in(vreg) scale,
            zp = in(reg) p.output_zero_point,
            options(pure, nomem, nostack),
        );
    }
    let clamped = match order {
        ClampOrder::UpperFirst => out.min(p.max_value).max(p.min_value),
        ClampOrder::LowerFirst => out.max(p.min_value).min(p.max_value),
    };
    clamped as i8
}

#[test]
#[cfg(target_arch = "aarch64")]
fn requantize_matches_the_cpu() {
    let mut rng = Rng::new(0x9a18);
    let specials = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -0.0,
        0.5,
        1.0,
        f32::from_bits(0x7f80_0001),
    ];
    let accs = [i32::MIN, i32::MAX, 0, 1, -1, 16_777_217, -16_777_217];
    let mut checked = 0;
    for round in 0..4000 {
        let r = rng.next_u64();
        let acc = match r % 4 {
            0 => accs[(r >> 8) as usize % accs.len()],
            _ => (r >> 16) as i32 >> (r % 24),
        };
        let scale = match (r >> 40) % 4 {
            0 => specials[(r >> 44) as usize % specials.len()],
            _ => rng.f32(-2.0, 2.0) * [1e-6, 1e-3, 1.0, 1e6][round % 4],
        };
        let output_zero_point = match round % 5 {
            0 => i32::MIN,
            1 => i32::MAX,
            _ => rng.range_i32(-128, 127),
        };
        let (a, b) = (rng.range_i32(-300, 300), rng.range_i32(-300, 300));
        let p = Requantize {
            min_value: a,
            max_value: b,
            output_zero_point,
        };
        for order in ORDERS {
            let (got, cpu) = (
                requantize(acc, scale, p, order),
                on_cpu(acc, scale, p, order),
            );
            assert_eq!(
                got,
                cpu,
                "acc={acc} scale={:#x} {p:?} {order:?}",
                scale.to_bits()
            );
            checked += 1;
        }
    }
    eprintln!("requantize values checked against the CPU: {checked}");
}
