//! KleidiAI's generic f16 GEMV `kai_matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot`, through
//! the C ABI (function pointers called as C calls them), on an RHS packed by the generic provider
//! `kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`: getters against KleidiAI's formulas, and
//! results against a scalar reference in KleidiAI's order of operations at the streaming length
//! of the CPU under test (SME2 asm where the CPU has it, the portable path otherwise): edge
//! shapes, column portions through the offset getters, guard pages, register canaries, hostile
//! halves, both clamp settings and KleidiAI's assumptions.

use crate::support;

use rkai_capi::capi::exports::kai_matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot as provider;
use rkai_capi::capi::exports::kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme as rhs_provider;
use rkai_ukernels::float::f16;
use rkai_ukernels::matmul::uker::sme2_gemv_f16;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{
    GemvCase, Getters, Nulls, Uker, check_gemv, check_getters, gemv_args, gemv_call,
    hostile_operands, sme_lanes32,
};
use support::uker_pack::{RhsOperands, RhsPackApi, RhsStride};

const NAME: &str = "kai_matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot";
const KERNEL: Uker = Uker::new(NAME, provider);
/// What the destination holds before a run (a signalling NaN no result can be).
const FILL: u16 = 0x7d5a;

/// KleidiAI's getter values, from its formulas: mr 1, nr 4 x vscale, kr 2, 2-byte elements.
#[test]
fn getters_equal_kleidiai() {
    let nr = sme_lanes32();
    let lhs_stride = |k: usize| k.div_ceil(2) * 2 * 2;
    let rhs_stride = |k: usize| nr * (2 + 2 * k.div_ceil(2) * 2);
    check_getters(&KERNEL, &Getters::gemv(nr, (&lhs_stride, &rhs_stride), 2));
}

/// The RHS (`k` x `n` halves) and bias packed by the generic provider (byte-exact against its
/// layout in tests/suite/matmul_pack_rhs.rs).
fn pack(n: usize, k: usize, rhs: &[u16], bias: &[u16]) -> Vec<u8> {
    let stride = RhsStride { n: 2, k: 2 * n };
    let source = RhsOperands::source(rhs.as_ptr().cast(), stride, bias.as_ptr().cast());
    // SAFETY: the source holds k x n halves, the bias n.
    unsafe { RhsPackApi(rhs_provider()).pack((n, k), &source) }
}

/// KleidiAI's order of operations: the column's bias widened to f32, one `FDOT` per pair of K
/// values in K order (zeros past `k`; an empty K one pair of zeros), one rounding to f16, then
/// `FCLAMP` on halves with the bounds rounded to f16 when asked.
fn reference(
    (n, k): (usize, usize),
    lhs: &[u16],
    rhs: &[u16],
    bias: &[u16],
    clamp: Option<(f32, f32)>,
) -> Vec<u16> {
    let l = |kk: usize| if kk < k { lhs[kk] } else { 0 };
    (0..n)
        .map(|j| {
            let r = |kk: usize| if kk < k { rhs[kk * n + j] } else { 0 };
            let mut acc = f32::from_bits(f16::to_f32_bits(bias[j]));
            for p in 0..k.div_ceil(2).max(1) {
                let (a, b) = ([l(2 * p), l(2 * p + 1)], [r(2 * p), r(2 * p + 1)]);
                acc = f16::dot_add(acc, a, b);
            }
            let y = f16::from_f32(acc);
            match clamp {
                Some((lo, hi)) => f16::clamp_num(y, f16::from_f32(lo), f16::from_f32(hi)),
                None => y,
            }
        })
        .collect()
}

fn halves(v: &[u8]) -> Vec<u16> {
    v.chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

fn le(v: &[u16]) -> Vec<u8> {
    support::sme_pack::le_bytes(v)
}

/// One case: every edge of the guard pages, the whole row and each portion (start columns every
/// block, widths 1, a block and three blocks less one), through the getters; results equal the
/// reference and the portable path. Returns the runs.
fn check_case(
    (n, k): (usize, usize),
    lhs: &[u16],
    rhs: &[u16],
    bias: &[u16],
    clamp: Option<(f32, f32)>,
) -> usize {
    let nr = sme_lanes32();
    let packed = pack(n, k, rhs, bias);
    let expect = reference((n, k), lhs, rhs, bias, clamp);
    // The portable path gives the same bits.
    let mut portable = vec![0u16; n];
    // SAFETY: the buffers hold k halves, the packed blocks and n halves.
    unsafe {
        sme2_gemv_f16::gemv_portable(
            n,
            k,
            nr,
            lhs.as_ptr(),
            packed.as_ptr().cast(),
            portable.as_mut_ptr(),
            sme2_gemv_f16::bounds(clamp),
        )
    };
    assert_eq!(portable, expect, "portable n {n} k {k} clamp {clamp:?}");
    let case = GemvCase {
        n,
        k,
        lhs: &le(lhs),
        packed: &packed,
        expect: &le(&expect),
        fill: &FILL.to_le_bytes(),
        clamp,
    };
    check_gemv(&KERNEL, nr, &case)
}

fn random_halves(rng: &mut Rng, len: usize, lo: f32, hi: f32) -> Vec<u16> {
    (0..len).map(|_| f16::from_f32(rng.f32(lo, hi))).collect()
}

/// Edge shapes: every one up to 512-bit streaming lengths (or with `RKAI_SME_CASES=all`), else a
/// set reaching each path once (a partial step of blocks, a whole step and more; K of one pair and
/// an odd value, and of the four-pair loop and one pair more).
#[test]
fn gemv_equals_reference_at_edge_shapes() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(27);
    let mut runs = 0;
    let (ns, ks) = support::uker::gemv_sweep(nr, (&[1, 2, 3, 4, 5, 7, 8, 9, 17], &[3, 10]));
    for &n in &ns {
        for &k in ks {
            let lhs = random_halves(&mut rng, k, -2.0, 2.0);
            let rhs = random_halves(&mut rng, k * n, -2.0, 2.0);
            let bias = random_halves(&mut rng, n, -1.0, 1.0);
            for clamp in support::uker::CLAMPS {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    support::uker::report_sme2_runs(runs, ("nr", nr));
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals, the largest half and sums
/// past its range in every operand, without clamp (they pass, NaNs as the default NaN rounded to
/// f16) and with (FCLAMP's rules; bounds past the f16 range round to infinities).
#[test]
fn hostile_halves() {
    let nr = sme_lanes32();
    let specials: [u16; 10] = [
        0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe34, 0x8000, 0x0000, 0x0001, 0x7bff, 0xfbff,
    ];
    let mut rng = Rng::new(4);
    let mut runs = 0;
    let shapes = if support::sme_pack::full_sweep() {
        vec![(nr + 1, 3), (4 * nr + 2, 5), (2, 1)]
    } else {
        vec![(4 * nr + 2, 5)]
    };
    for (n, k) in shapes {
        for round in 0..4 {
            let random = || f16::from_f32(rng.f32(-3.0, 3.0));
            let [lhs, rhs, bias] = hostile_operands(&specials, (1, n, k), round, random);
            for clamp in [
                None,
                Some((-1.0, 1.0)),
                Some((f32::NEG_INFINITY, f32::INFINITY)),
                Some((2.0, -2.0)),
                Some((f32::NAN, 1.0)),
                Some((-1.0e6, 70000.0)),
            ] {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// `n == 0` writes nothing; `k == 0` gives the (clamped) bias plus a pair of zeros.
#[test]
fn empty_shapes() {
    let nr = sme_lanes32();
    let bias: Vec<u16> = (0..nr + 1)
        .map(|i| f16::from_f32(i as f32 - 2.0))
        .chain([0x8000])
        .collect();
    let n = bias.len();
    assert!(check_case((n, 0), &[], &[], &bias, Some((-1.0, 1.0))) >= 4);
    assert!(check_case((n, 0), &[], &[], &bias, None) >= 4);
    let one = [0x3c00u16; 4];
    let mut d = Guarded::from_bytes(&le(&[FILL]), EDGES[0]);
    KERNEL.run(&gemv_args(
        0,
        (1, 0, 1),
        (one.as_ptr().cast(), one.as_ptr().cast(), d.mut_ptr()),
        (&0.0, &0.0),
    ));
    assert_eq!(halves(d.bytes()), [FILL]);
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, m: usize, nulls: Nulls) {
        gemv_call(&KERNEL, &0x3c00u16.to_le_bytes(), (flags, m, nulls));
    }
    uker_gemv_violations!(call)
}

death_tests!(violations, "assumptions");
