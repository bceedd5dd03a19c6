//! KleidiAI's SME f16 GEMVs with an unpacked LHS (`matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla`,
//! `_1x16vl_sme2_dot`) through their C symbols, at the streaming vector length of the CPU running
//! the test (`scripts/test-all.sh` runs it at every one), with the RHS packed by
//! `rhs_pack_kxn_x16p2vlx2b_x16_x16_sme` (whose bytes `tests/suite/x16p2vlx2_pack.rs` checks): getters
//! equal KleidiAI's formulas and measured tiles; every kernel (exported, and the portable path)
//! equals the scalar reference (`reference::half_gemv`) bit for bit for edge shapes around the
//! group and the step (odd K, K = 0 and 1), portions through the offset getters, guard pages,
//! canaries around the destination, inverted clamps and hostile values (NaNs, infinities,
//! subnormals of f16, signed zeros, sums overflowing f16); threads, callee-saved registers and a
//! caller's pending lazy ZA save; invalid arguments abort naming KleidiAI's assertion.

use crate::support;

use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::reference::half_gemv::{self as reference, Pairs};
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter2, Getter3, MatmulFloatFn};
use support::float_family::{self as shared, Elem, FloatModel, Problem, Reference};
use support::gemm::Impl;
use support::gemv;
use support::guard::Edge;
use support::tester;

type Getter1 = extern "C" fn(usize) -> usize;

const FAMILY: Family = Family::F16F16F16p;
const RHS: &str = "rhs_pack_kxn_x16p2vlx2b_x16_x16_sme";
const MLA: &str = "matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla";
const DOT: &str = "matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot";

/// The reference of the kernels pairing K values with `FMLALB`/`FMLALT` (the SME one)...
struct Fmlal;
/// ... and with `FDOT` (the SME2 one).
struct Fdot;

macro_rules! f16_gemv_model {
    ($ty:ty, $pairs:expr) => {
        impl FloatModel for $ty {
            type T = u16;
            const LABEL: &'static str = "SME f16 GEMV";
            const REFERENCE: Reference<u16> = |m, n, k, lhs, _stride, w, bias, clamp, dst| {
                assert_eq!(m, 1, "a GEMV");
                reference::matmul($pairs, n, k, lhs, w, bias, clamp, dst)
            };
        }
    };
}

f16_gemv_model!(Fmlal, Pairs::Fmlal);
f16_gemv_model!(Fdot, Pairs::Fdot);

/// Runs `f::<Fmlal>` or `f::<Fdot>` as `k` pairs K values.
macro_rules! by_model {
    ($k:expr, $($f:ident)::+($($arg:expr),*)) => {
        match pairs($k) {
            Pairs::Fmlal => $($f)::+::<Fmlal>($($arg),*),
            Pairs::Fdot => $($f)::+::<Fdot>($($arg),*),
        }
    };
}

fn kernels() -> Vec<&'static MatmulKernel> {
    gemv::kernels(FAMILY)
}

fn runnable() -> Vec<&'static MatmulKernel> {
    gemv::runnable(FAMILY, "SME f16 GEMV")
}

fn pairs(k: &MatmulKernel) -> Pairs {
    Pairs::of(k).expect("an SME GEMV")
}

/// Streaming length in 32-bit lanes (4 without SME, where the portable paths run).
fn svl32() -> usize {
    rkai_ukernels::arch::sme_lanes32()
}

// ---------------------------------------------------------------------------------------------
// Getters

#[test]
fn getters_equal_kleidiai_values() {
    let table = tester::tsv_rows(include_str!("data/kleidiai-1.30-getters.tsv"));
    let svl = 4 * svl32();
    let mut measured = 0;
    for k in kernels() {
        // `1xNvl`: n_step = N/2 x the streaming length in halves, nr = that length.
        let wide = if k.isa == rkai_ukernels::arch::Isa::Sme2 {
            16
        } else {
            8
        };
        let expect = [1, wide * svl32(), 2 * svl32(), 2, 1];
        let verbs = ["get_m_step", "get_n_step", "get_nr", "get_kr", "get_sr"];
        for (verb, want) in verbs.iter().zip(expect) {
            assert_eq!(sym::<Getter0>(verb, k.stem)(), want, "{verb} of {}", k.stem);
        }
        let rows: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        assert!(rows.len() >= 3, "{} measured", k.stem);
        for r in rows.iter().filter(|r| r[11] == svl.to_string()) {
            let want = [r[1], r[2], r[4], r[5], r[6]].map(|v| v.parse::<usize>().unwrap());
            assert_eq!(want, expect, "{r:?}");
            assert_eq!(r[3], "-", "no get_mr");
            measured += 1;
        }
        let nr = 2 * svl32();
        let lhs_offset = shared::lhs_offset_verb(k);
        for kk in [0usize, 1, 2, 3, 17, 64] {
            let group = nr * 2 * (1 + 2 * kk.div_ceil(2));
            for n_idx in [0, nr, 3 * nr] {
                let at = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n_idx, kk);
                assert_eq!(at, n_idx / nr * group, "{}", k.stem);
                assert_eq!(at, sym::<Getter2>("get_rhs_packed_offset", RHS)(n_idx, kk));
            }
            assert_eq!(sym::<Getter1>("get_rhs_packed_stride", RHS)(kk), group);
            assert_eq!(sym::<Getter2>(lhs_offset, k.stem)(0, kk), 0);
        }
        let n_step = wide * svl32();
        for n_idx in [0, n_step, 3 * n_step] {
            let at = sym::<Getter3>("get_dst_offset", k.stem)(0, n_idx, 1000);
            assert_eq!(at, 2 * n_idx);
        }
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(1, 77), 154);
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(3, 5), 30);
        assert_eq!(sym::<Getter0>("get_n_step", RHS)(), nr);
    }
    eprintln!("{measured} measured rows at this streaming length");
}

// ---------------------------------------------------------------------------------------------
// Values

/// (n, k) of the kernel checks: one column, partial, whole and next groups and steps, K of 0,
/// 1, 2, odd and even, short and long.
fn shapes(k: &MatmulKernel) -> Vec<(usize, usize)> {
    let t = k.tile();
    let (nr, step) = (t.nr, t.n_step);
    vec![
        (1, 1),
        (1, 0),
        (nr - 1, 2),
        (nr, 3),
        (nr + 1, 4),
        (2 * nr + 3, 1),
        (step - 1, 7),
        (step, 8),
        (step + 1, 9),
        (2 * step + nr + 5, 17),
        (3, 65),
        (nr + 2, 0),
        (step + 3, 130),
    ]
}

gemv_tests! {
    models: |k| pairs(k) == Pairs::Fdot => Fdot, Fmlal;
    shapes: shapes,
    thread_depth: 33,
    register_shapes: |k: &MatmulKernel| {
        let t = k.tile();
        [(1, 1, 3), (1, t.n_step + 5, 9), (1, 2 * t.nr + 1, 64)]
    },
    lazy_za_shape: |k: &MatmulKernel| (k.tile().n_step + 1, 11),
}

/// NaNs (quiet and signalling), infinities, signed zeros and f16 subnormals scattered over the
/// LHS, the weights and the biases: the kernels follow the reference's model of their
/// instructions (FMLALB/FMLALT with Arm's NaN rules, or FDOT's default NaN; FMIN/FMAX or
/// FCLAMP).
#[test]
fn hostile_values_follow_the_model() {
    let mut cases = 0;
    for (k, impls) in gemv::implementations(FAMILY) {
        let t = k.tile();
        let every = tester::every_case_here(k);
        let shapes = [(t.n_step + 3, 9), (t.nr + 1, 4), (5, 1)];
        let all = [shared::SPECIAL_CLAMPS, <u16 as Elem>::EXTRA_SPECIAL_CLAMPS].concat();
        let (rounds, clamps) = if every { (4, &all[..]) } else { (1, &all[..3]) };
        cases += by_model!(k, gemv::hostile(k, &impls, &shapes, rounds, clamps));
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// The whole row of `p` through each of `impls` against the reference; returns the runs.
fn check_whole<F: FloatModel<T = u16>>(
    k: &MatmulKernel,
    impls: &[Impl],
    p: &Problem<F>,
    clamp: (f32, f32),
) -> usize {
    let rhs = shared::pack(p, k.rhs_packers[0], support::guard::Edge::End);
    shared::check_whole(k, impls, p, &rhs, clamp)
}

/// Signed zeros: a `-0` bias with `-0` products keeps `-0` for an even K, and becomes `+0` for
/// an odd K (the padded pair adds `+0 x +0`) and for K = 0; sums past 65504 round to infinity;
/// subnormal halves multiply into f32 exactly.
#[test]
fn zeros_overflow_and_subnormals_follow_the_pairs() {
    let mut cases = 0;
    for (k, impls) in gemv::implementations(FAMILY) {
        cases += by_model!(k, zeros_overflow_and_subnormals(k, &impls));
    }
    eprintln!("RELIABILITY hostile {cases}");
}

fn zeros_overflow_and_subnormals<F: FloatModel<T = u16>>(
    k: &MatmulKernel,
    impls: &[Impl],
) -> usize {
    let problem = |n, kk, seed| Problem::<F>::new(1, n, kk, 0, true, seed);
    let mut cases = 0;
    {
        let n = k.tile().nr + 3;
        let unclamped = (f32::NEG_INFINITY, f32::INFINITY);
        for kk in [0, 1, 2, 3, 4] {
            let mut p = problem(n, kk, 5);
            p.bias.as_mut().unwrap().fill(0x8000);
            p.lhs.fill(0x3c00); // 1.0
            p.w.fill(0x8000); // -0
            let expect = p.expected_dst(unclamped);
            let want = if kk % 2 == 0 && kk > 0 { 0x8000 } else { 0 };
            assert!(expect.iter().all(|&y| y == want), "{} k={kk}", k.stem);
            cases += check_whole(k, impls, &p, unclamped);
        }
        // Sums of large products: beyond the f16 range only once rounded (f32 accumulators).
        let mut p = problem(n, 6, 6);
        p.lhs.fill(0x7bff);
        for (i, w) in p.w.iter_mut().enumerate() {
            *w = if i / n % 2 == 0 { 0x3c00 } else { 0xbc00 }; // +1, -1 by K row
        }
        let expect = p.expected_dst(unclamped);
        assert!(expect.iter().all(|&y| y & 0x7c00 != 0x7c00), "no overflow");
        cases += check_whole(k, impls, &p, unclamped);
        p.w.fill(0x3c00);
        let expect = p.expected_dst(unclamped);
        assert!(expect.iter().all(|&y| y == 0x7c00), "overflow to +inf");
        cases += check_whole(k, impls, &p, unclamped);
        // Subnormal times subnormal: 2^-48 per product, far below f16 but exact in f32.
        let mut p = problem(n, 8, 7);
        p.lhs.fill(0x0001);
        p.w.fill(0x03ff);
        p.bias.as_mut().unwrap().fill(0x0001);
        cases += check_whole(k, impls, &p, unclamped);
    }
    cases
}

/// FMLALB then FMLALT round after each product, FDOT once for the pair and once for the sum:
/// from `1 + 2^-11` (bias 1, then the pair (2^-11 x 1, 0)), the pair (2^-12 x 2^-12, 2^-12 x
/// 2^-12) adds two halves of an f32 ulp, each rounded away to even by FMLAL (`1 + 2^-11`, an f16
/// tie, rounds to 1.0) but summed to one whole ulp first by FDOT (`1 + 2^-11 + 2^-23` rounds to
/// `1 + 2^-10`). Every kernel that runs here gives its model's half.
#[test]
fn pair_rounding_distinguishes_the_kernels() {
    let mut cases = 0;
    for (k, impls) in gemv::implementations(FAMILY) {
        cases += by_model!(k, pair_rounding(k, &impls));
    }
    eprintln!("RELIABILITY hostile {cases}");
}

fn pair_rounding<F: FloatModel<T = u16>>(k: &MatmulKernel, impls: &[Impl]) -> usize {
    {
        let mut p = Problem::<F>::new(1, 1, 4, 0, true, 8);
        p.bias = Some(vec![0x3c00]);
        p.lhs = vec![0x1000, 0x0000, 0x0c00, 0x0c00];
        p.w = vec![0x3c00, 0x0000, 0x0c00, 0x0c00];
        let want = match pairs(k) {
            Pairs::Fmlal => 0x3c00,
            Pairs::Fdot => 0x3c01,
        };
        let unclamped = (f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(p.expected_dst(unclamped), [want], "{}", k.stem);
        check_whole(k, impls, &p, unclamped)
    }
}

// ---------------------------------------------------------------------------------------------
// Contract violations

/// Calls `run` of `stem` on a small valid problem with `m` rows.
fn run_rows(stem: &str, m: usize) {
    let k = rkai_ukernels::catalog::kernel(stem).unwrap();
    let p = Problem::<Fmlal>::new(1, 4, 3, 0, true, 1);
    let lhs = p.lhs_buffer(Edge::End);
    let rhs = shared::pack(&p, k.rhs_packers[0], Edge::End);
    let mut dst = vec![0u8; 2 * 7 * m];
    // SAFETY: operands of a 1 x 4 x 3 problem, dst of m rows; the call is expected to abort.
    unsafe {
        sym::<MatmulFloatFn>("run", stem)(
            m,
            4,
            3,
            lhs.ptr().cast(),
            6,
            rhs.ptr().cast(),
            dst.as_mut_ptr().cast(),
            14,
            2,
            -1.0,
            1.0,
        )
    }
}

type Case = support::death::Case<String, &'static str>;

/// KleidiAI's assertions of each kernel (its run's `m == 1`, its getters' indices).
fn cases() -> Vec<Case> {
    let mut out: Vec<Case> = vec![
        run_case!("mla_two_rows", "m == 1" => run_rows(MLA, 2)),
        getter_case!("mla_lhs_row", "m_idx == 0" => get_lhs_offset::<Getter2>(MLA)(1, 8)),
        getter_case!("mla_dst_row", "m_idx == 0" => get_dst_offset::<Getter3>(MLA)(1, 0, 64)),
        getter_case!("mla_dst_column", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(MLA)(0, 16, 64)),
        getter_case!("mla_rhs_column", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(MLA)(1, 8)),
    ];
    if kernels().iter().any(|k| k.stem == DOT) {
        out.extend([
            run_case!("dot_two_rows", "m == 1" => run_rows(DOT, 2)),
            getter_case!("dot_lhs_row", "m_idx == 0"
                => get_lhs_packed_offset::<Getter2>(DOT)(1, 8)),
            getter_case!("dot_dst_row", "m_idx == 0"
                => get_dst_offset::<Getter3>(DOT)(1, 0, 64)),
            getter_case!("dot_dst_column", "(n_idx % n_step) == 0"
                => get_dst_offset::<Getter3>(DOT)(0, 16, 64)),
            getter_case!("dot_rhs_column", "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter2>(DOT)(1, 8)),
        ]);
    }
    out
}

death_tests!(cases, "SME f16 GEMV contract violations", "contract");
