//! KleidiAI's streaming f32 GEMVs of `matmul_clamp_f32_f32_f32p` (`_1x8vl_sme_mla`,
//! `_1x16vl_sme2_mla` on the `2vl` and `16vl` layouts; an unpacked LHS row, RHS packed by the
//! SME packers) through their C symbols, at the streaming vector length of the CPU running the
//! test (`scripts/test-all.sh` runs it at every one; the portable paths run everywhere): getters
//! equal KleidiAI's measured tiles and formulas; every kernel (exported, and the portable path)
//! equals the scalar reference bit for bit (the SME one: `FMLA` chain, `FMIN` then `FMAX`; the
//! SME2 ones: the chain in ZA, default NaN, `FCLAMP`) for column counts around every loop
//! boundary, K of 0, 1 and odd lengths, column portions through the offset getters, guard
//! pages, canaries, hostile values and inverted clamps; the strides KleidiAI ignores are
//! ignored; threads, callee-saved registers and a caller's pending lazy ZA save; invalid
//! arguments (`m != 1` first) abort naming KleidiAI's assertion.

use crate::support;

use rkai_ukernels::arch;
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::{Clamp, MatmulKernel};
use rkai_ukernels::reference::float_gemm as reference;
use std::ptr;
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter2, Getter3, MatmulFloatFn};
use support::float_family::{self as shared, FloatModel, Reference};
use support::gemv;
use support::tester;

const SME: &str = "matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla";
const SME2: &str = "matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla";
const SME2_16VL: &str = "matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla";

/// The family's values with the reference of the SME kernel (vector `FMLA`, `FMIN` then `FMAX`).
struct Vector;
/// ... and of the SME2 kernels (ZA accumulation, `FCLAMP`).
struct Za;

macro_rules! f32_model {
    ($ty:ty, $reference:path) => {
        impl FloatModel for $ty {
            type T = f32;
            const LABEL: &'static str = "streaming f32";
            const REFERENCE: Reference<f32> = $reference;
        }
    };
}

f32_model!(Vector, reference::matmul);
f32_model!(Za, reference::matmul_za);

/// Whether `k` accumulates in ZA and clamps with `FCLAMP` (the SME2 GEMVs).
fn in_za(k: &MatmulKernel) -> bool {
    k.epilogue.clamp == Clamp::MaxNumThenMinNum
}

const FAMILY: Family = Family::F32F32F32p;

fn kernels() -> Vec<&'static MatmulKernel> {
    gemv::kernels(FAMILY)
}

fn runnable() -> Vec<&'static MatmulKernel> {
    gemv::runnable(FAMILY, "streaming f32 GEMV")
}

/// 32-bit lanes of a streaming vector (4 where there is no SME: the portable paths' tiles).
fn vl() -> usize {
    arch::sme_lanes32()
}

/// Column counts around every boundary of the kernels' loops (vectors, groups of `nr`, the SME
/// kernel's blocks of four 2vl groups, the SME2 one's blocks of eight, `n_step`), then a few
/// whole steps and a tail.
fn column_counts(k: &MatmulKernel) -> Vec<usize> {
    let t = k.tile();
    let v = vl();
    let mut n = vec![1, 2, v - 1, v, v + 1, t.nr - 1, t.nr, t.nr + 1];
    n.extend([6 * v, 6 * v + 1, 7 * v + 3, 14 * v, 14 * v + 1, 15 * v + 2]);
    n.extend([
        t.n_step - 1,
        t.n_step,
        t.n_step + 1,
        2 * t.n_step + t.nr + 3,
    ]);
    n.extend([3 * t.n_step - 1, 17 * v + 5]);
    n.sort_unstable();
    n.dedup();
    n
}

const DEPTHS: [usize; 7] = [0, 1, 2, 3, 5, 16, 33];

/// Every column count with every depth.
fn shapes(k: &MatmulKernel) -> Vec<(usize, usize)> {
    let columns = column_counts(k);
    columns
        .iter()
        .flat_map(|&n| DEPTHS.map(|kk| (n, kk)))
        .collect()
}

/// Runs `check::<Vector>` or `check::<Za>` as `k` computes.
macro_rules! by_model {
    ($k:expr, $($f:ident)::+($($arg:expr),*)) => {
        if in_za($k) { $($f)::+::<Za>($($arg),*) } else { $($f)::+::<Vector>($($arg),*) }
    };
}

#[test]
fn getters_equal_kleidiai_values() {
    let ks = kernels();
    assert_eq!(ks.len(), 3);
    // KleidiAI's measured tiles (streaming lengths 16, 32 and 64 bytes; no `get_mr`): the row of
    // this length, or the 16-byte row scaled to it.
    let table = tester::tsv_rows(include_str!("data/kleidiai-1.30-getters.tsv"));
    let svl = 4 * vl();
    let mut rows = 0;
    for k in &ks {
        let measured: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        let at = |bytes: usize| measured.iter().find(|r| r[11] == bytes.to_string());
        let r16 = at(16).expect("16-byte row");
        let value = |r: &Vec<&str>, i: usize| r[i].parse::<usize>().unwrap();
        // m_step, n_step, nr, kr, sr: n_step and nr scale with the streaming length.
        let scaled = [
            value(r16, 1),
            value(r16, 2) * svl / 16,
            value(r16, 4) * svl / 16,
            value(r16, 5),
            value(r16, 6),
        ];
        if let Some(r) = at(svl) {
            assert_eq!([1, 2, 4, 5, 6].map(|i| value(r, i)), scaled, "{}", k.stem);
        }
        assert_eq!(r16[3], "-", "KleidiAI has no get_mr for {}", k.stem);
        let got = ["get_m_step", "get_n_step", "get_nr", "get_kr", "get_sr"]
            .map(|verb| sym::<Getter0>(verb, k.stem)());
        let expected = scaled;
        assert_eq!(got, expected, "{} at {svl}-byte streaming vectors", k.stem);
        rows += 1;
    }
    for k in &ks {
        let t = k.tile();
        let lanes = vl();
        let (nr, n_step) = match k.stem {
            SME => (2 * lanes, 8 * lanes),
            SME2 => (2 * lanes, 16 * lanes),
            SME2_16VL => (16 * lanes, 16 * lanes),
            other => panic!("unexpected {other}"),
        };
        assert_eq!(
            (t.m_step, t.n_step, t.nr, t.kr, t.sr),
            (1, n_step, nr, 1, 1)
        );
        for kk in [0, 1, 7, 100] {
            let group = 4 * nr * (kk + 1);
            for packer in k.rhs_packers {
                let at = sym::<Getter2>("get_rhs_packed_offset", packer.name)(n_step, kk);
                assert_eq!(at, n_step / nr * group, "{}", packer.name);
                assert_eq!(sym::<Getter0>("get_n_step", packer.name)(), nr);
            }
            let at = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n_step, kk);
            assert_eq!(at, n_step / nr * group, "{}", k.stem);
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(nr, kk),
                group
            );
        }
        assert_eq!(sym::<Getter2>("get_lhs_offset", k.stem)(0, 4096), 0);
        assert_eq!(
            sym::<Getter3>("get_dst_offset", k.stem)(0, n_step, 1 << 20),
            4 * n_step
        );
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(1, 77), 4 * 77);
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(3, 5), 60);
    }
    eprintln!("RELIABILITY getters {rows}");
}

gemv_tests! {
    models: in_za => Za, Vector;
    shapes: shapes,
    thread_depth: 37,
    register_shapes: |k: &MatmulKernel| {
        let t = k.tile();
        [(1, 1, 1), (1, t.n_step + 3, 9), (1, 16 * vl() + 1, 0)]
    },
    lazy_za_shape: |k: &MatmulKernel| (k.tile().n_step + 2, 5),
}

/// NaNs (quiet and signalling), infinities, signed zeros, subnormals and overflowing products
/// scattered over the operands, with every special clamp: exported and portable follow the
/// reference's model of the instructions bit for bit.
#[test]
fn non_finite_values_follow_the_model() {
    let mut total = 0;
    for (k, impls) in gemv::implementations(FAMILY) {
        let t = k.tile();
        let shapes = if tester::every_case_here(k) {
            vec![
                (t.n_step + 3, 9),
                (2 * t.nr + 1, 0),
                (15 * vl() + 2, 4),
                (3, 1),
            ]
        } else {
            vec![(t.n_step + 3, 9), (3, 0)]
        };
        let clamps = [shared::SPECIAL_CLAMPS, &[(f32::NAN, f32::NAN)]].concat();
        total += by_model!(k, gemv::hostile(k, &impls, &shapes, 4, &clamps));
    }
    eprintln!("RELIABILITY hostile {total}");
}

// ---------------------------------------------------------------------------------------------
// Contract violations

/// Calls `stem` for n = 8, k = 4 with `m` rows; `null` names the buffer passed as NULL (1 LHS,
/// 2 RHS, 3 dst, 0 none).
fn run_call(stem: &str, m: usize, null: usize) {
    let lhs = vec![0u8; 1 << 12];
    let rhs = vec![0u8; 1 << 16];
    let mut dst = vec![0u8; 1 << 12];
    let p = |b: &[u8], which: usize| {
        if null == which {
            ptr::null()
        } else {
            b.as_ptr().cast()
        }
    };
    let d = if null == 3 {
        ptr::null_mut()
    } else {
        dst.as_mut_ptr().cast()
    };
    // SAFETY: buffers cover the call; it is expected to abort.
    unsafe {
        sym::<MatmulFloatFn>("run", stem)(m, 8, 4, p(&lhs, 1), 16, p(&rhs, 2), d, 32, 4, -1.0, 1.0)
    }
}

fn nr(stem: &str) -> usize {
    catalog::kernel(stem).unwrap().tile().nr
}

type Case = support::death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    vec![
        run_case!("two_rows", "m == 1" => run_call(SME, 2, 0)),
        run_case!("two_rows_sme2", "m == 1" => run_call(SME2, 2, 0)),
        run_case!("two_rows_16vl", "m == 1" => run_call(SME2_16VL, 2, 0)),
        run_case!("no_rows", "m == 1" => run_call(SME2_16VL, 0, 0)),
        run_case!("null_lhs", "lhs != NULL" => run_call(SME, 1, 1)),
        run_case!("null_rhs", "rhs_packed != NULL" => run_call(SME2, 1, 2)),
        run_case!("null_dst", "dst != NULL" => run_call(SME2_16VL, 1, 3)),
        getter_case!("lhs_offset", "m_idx == 0" => get_lhs_offset::<Getter2>(SME)(1, 64)),
        getter_case!("lhs_offset_16vl", "m_idx == 0"
            => get_lhs_offset::<Getter2>(SME2_16VL)(1, 64)),
        getter_case!("dst_offset_m", "m_idx == 0" => get_dst_offset::<Getter3>(SME2)(1, 0, 64)),
        getter_case!("dst_offset_n", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(SME)(0, nr(SME), 64)),
        getter_case!("dst_offset_n_16vl", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(SME2_16VL)(0, 4, 64)),
        getter_case!("rhs_packed_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(SME2)(nr(SME2) / 2, 64)),
        getter_case!("rhs_packed_offset_16vl", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(SME2_16VL)(nr(SME2), 64)),
    ]
}

death_tests!(cases, "streaming f32 GEMV contract violations", "contract");
