//! KleidiAI's SME f16 GEMVs with an unpacked LHS (`matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla`,
//! `_1x16vl_sme2_dot`) through their C symbols, at the streaming vector length of the CPU running
//! the test (`scripts/test-all.sh` runs it at every one), with the RHS packed by
//! `rhs_pack_kxn_x16p2vlx2b_x16_x16_sme` (whose bytes `tests/x16p2vlx2_pack.rs` checks): getters
//! equal KleidiAI's formulas and measured tiles; every kernel (exported, and the portable path)
//! equals the scalar reference (`reference::half_gemv`) bit for bit for edge shapes around the
//! group and the step (odd K, K = 0 and 1), portions through the offset getters, guard pages,
//! canaries around the destination, inverted clamps and hostile values (NaNs, infinities,
//! subnormals of f16, signed zeros, sums overflowing f16); threads, callee-saved registers and a
//! caller's pending lazy ZA save; invalid arguments abort naming KleidiAI's assertion.

mod support;

use rkai::ukernels::catalog;
use rkai::ukernels::family::Family;
use rkai::ukernels::float::f16;
use rkai::ukernels::kernel::MatmulKernel;
use rkai::ukernels::matmul::args::KernelFn;
use rkai::ukernels::matmul::float_gemm as family;
use rkai::ukernels::reference::half_gemv::{self as reference, Pairs};
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter2, Getter3, MatmulFloatFn, pack_float_rhs};
use support::gemm::{self, Impl, Portion};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::tester;

type Getter1 = extern "C" fn(usize) -> usize;

const RHS: &str = "rhs_pack_kxn_x16p2vlx2b_x16_x16_sme";
const MLA: &str = "matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla";

/// A destination value no computation produces (a NaN with a payload).
const CANARY: u16 = 0x7e5a;

fn kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    let all = catalog::KERNELS.iter().copied();
    tester::narrowed(all.filter(|k| k.family == Family::F16F16F16p && k.isa.is_streaming()))
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(kernels(), |k| support::cpu::can_run(k.isa), "SME f16 GEMV")
}

fn pairs(k: &MatmulKernel) -> Pairs {
    Pairs::of(k).expect("an SME GEMV")
}

/// The LHS offset getter of `k`: KleidiAI's SME2 GEMV names it `get_lhs_packed_offset`.
fn lhs_offset_verb(k: &MatmulKernel) -> &'static str {
    let packed = support::cabi::symbol("get_lhs_packed_offset", k.stem);
    match rkai::capi::exports::symbol_address(&packed) {
        Some(_) => "get_lhs_packed_offset",
        None => "get_lhs_offset",
    }
}

/// Streaming length in 32-bit lanes (4 without SME, where the portable paths run).
fn svl32() -> usize {
    rkai::ukernels::arch::sme_lanes32()
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
        let wide = if k.isa == rkai::ukernels::arch::Isa::Sme2 {
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
        for kk in [0usize, 1, 2, 3, 17, 64] {
            let group = nr * 2 * (1 + 2 * kk.div_ceil(2));
            for n_idx in [0, nr, 3 * nr] {
                let at = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n_idx, kk);
                assert_eq!(at, n_idx / nr * group, "{}", k.stem);
                assert_eq!(at, sym::<Getter2>("get_rhs_packed_offset", RHS)(n_idx, kk));
            }
            assert_eq!(sym::<Getter1>("get_rhs_packed_stride", RHS)(kk), group);
            assert_eq!(sym::<Getter2>(lhs_offset_verb(k), k.stem)(0, kk), 0);
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
// Problems

/// One GEMV: the LHS row, K x N weights (element (kk, j) at `w[kk * n + j]`) and the biases.
struct Problem {
    n: usize,
    k: usize,
    lhs: Vec<u16>,
    w: Vec<u16>,
    bias: Vec<u16>,
}

fn halves(rng: &mut Rng, len: usize, lo: f32, hi: f32) -> Vec<u16> {
    (0..len).map(|_| f16::from_f32(rng.f32(lo, hi))).collect()
}

fn bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

impl Problem {
    fn new(n: usize, k: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        Problem {
            n,
            k,
            lhs: halves(&mut rng, k, -1.0, 1.0),
            w: halves(&mut rng, k * n, -1.0, 1.0),
            bias: halves(&mut rng, n, -2.0, 2.0),
        }
    }

    /// The LHS row exactly (an empty row is one unused byte), against the guard at `edge`.
    fn lhs_buffer(&self, edge: Edge) -> Guarded {
        let b = bytes(&self.lhs);
        Guarded::from_bytes(if b.is_empty() { &[0] } else { &b }, edge)
    }

    /// The RHS packed through the packer's C symbol (rows padded by 3 values in the source).
    fn pack(&self, edge: Edge) -> Guarded {
        let (n, k) = (self.n, self.k);
        let stride = n + 3;
        let mut src = vec![CANARY; k.saturating_sub(1) * stride + n];
        for kk in 0..k {
            src[kk * stride..kk * stride + n].copy_from_slice(&self.w[kk * n..(kk + 1) * n]);
        }
        let src_bytes = if k == 0 { vec![0, 0] } else { bytes(&src) };
        let src = Guarded::from_bytes(&src_bytes, edge);
        let bias = Guarded::from_bytes(&bytes(&self.bias), edge);
        let size = sym::<Getter2>("get_rhs_packed_size", RHS)(n, k);
        let mut out = Guarded::from_bytes(&vec![0xa5; size], edge);
        // SAFETY: source, bias and output sized for k x n.
        unsafe {
            pack_float_rhs(
                RHS,
                (n, k),
                (2 * svl32(), 2, 1),
                (src.ptr().cast(), 2 * stride),
                bias.ptr().cast(),
                out.mut_ptr().cast(),
            )
        };
        out
    }

    fn expected(&self, k: &MatmulKernel, clamp: (f32, f32)) -> Vec<u16> {
        let mut out = vec![CANARY; self.n];
        let (lhs, w, bias) = (&self.lhs, &self.w, Some(&self.bias[..]));
        reference::matmul(pairs(k), self.n, self.k, lhs, w, bias, clamp, &mut out);
        out
    }

    /// Clamp bounds cutting about a fifth of the results at each end (between halves).
    fn biting(&self, k: &MatmulKernel) -> (f32, f32) {
        let mut sorted: Vec<f64> = self
            .expected(k, (f32::NEG_INFINITY, f32::INFINITY))
            .iter()
            .map(|&x| f16::to_f64(x))
            .filter(|x| !x.is_nan())
            .collect();
        if sorted.is_empty() {
            return (-1.0, 1.0);
        }
        sorted.sort_by(f64::total_cmp);
        let (lo, hi) = (sorted[sorted.len() / 5], sorted[sorted.len() * 4 / 5]);
        (lo as f32 + 1e-4, hi as f32 - 1e-4)
    }
}

/// Runs columns `n0..n0 + cols` of `p` through `which` into `dst` (one row of `n + 3` halves),
/// every pointer offset by the kernel's getters.
#[allow(clippy::too_many_arguments)]
fn call(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    (lhs, rhs): (*const u8, *const u8),
    dst: *mut u8,
    (n0, cols): (usize, usize),
    clamp: (f32, f32),
    m: usize,
) {
    let dst_stride = 2 * (p.n + 3);
    let lhs_off = sym::<Getter2>(lhs_offset_verb(k), k.stem)(0, p.k);
    let rhs_off = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, p.k);
    let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(0, n0, dst_stride);
    // SAFETY: offsets from the kernel's getters; buffers sized for the problem.
    unsafe {
        let (l, r, d) = (lhs.add(lhs_off), rhs.add(rhs_off), dst.add(dst_off));
        match which {
            Impl::Exported => sym::<MatmulFloatFn>("run", k.stem)(
                m,
                cols,
                p.k,
                l.cast(),
                2 * p.k + 6,
                r.cast(),
                d.cast(),
                dst_stride,
                2,
                clamp.0,
                clamp.1,
            ),
            Impl::Portable => {
                let args = family::Args {
                    m,
                    n: cols,
                    k: p.k,
                    lhs: l,
                    lhs_stride: 2 * p.k + 6,
                    rhs_packed: r,
                    dst: d,
                    dst_stride_row: dst_stride,
                    dst_stride_col: 2,
                    clamp_min: clamp.0,
                    clamp_max: clamp.1,
                    elem: 2,
                };
                let portable = MatmulKernel {
                    native: KernelFn::Portable,
                    ..*k
                };
                assert_eq!(family::check(&portable, &args), Ok(()));
                family::run(&portable, &args)
            }
        }
    }
}

/// Runs one portion (columns) of `p` into a canary-filled row against the guard at `edge`; checks
/// it bit for bit and that nothing else was written.
#[allow(clippy::too_many_arguments)]
fn run_portion(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    (lhs, rhs): (&Guarded, &Guarded),
    portion: Portion,
    clamp: (f32, f32),
    expect: &[u16],
    edge: Edge,
) {
    let stride = p.n + 3;
    let mut dst = Guarded::from_bytes(&bytes(&vec![CANARY; stride]), edge);
    let (_, n0, _, cols) = portion;
    let operands = (lhs.ptr(), rhs.ptr());
    call(k, which, p, operands, dst.mut_ptr(), (n0, cols), clamp, 1);
    gemm::check_portion_by(
        dst.bytes(),
        2,
        1,
        p.n,
        stride,
        portion,
        |at| expect[at].into(),
        CANARY.into(),
        &|| {
            format!(
                "{} ({}) n={} k={} clamp={clamp:?} {edge:?} svl32={}",
                k.stem,
                which.name(),
                p.n,
                p.k,
                svl32()
            )
        },
    );
}

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

/// Every shape unclamped, with bounds that bite and inverted, against both guard edges, over the
/// portions a framework computes; above 512-bit streaming lengths each shape once (biting clamp,
/// one edge, the whole row and the last step: [`tester::every_case_here`]). Returns the cases.
fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let every = tester::every_case_here(k);
    let t = k.tile();
    let mut cases = 0;
    for (seed, (n, kk)) in shapes(k).into_iter().enumerate() {
        let p = Problem::new(n, kk, 100 + seed as u64);
        let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
        let clamps = match every {
            true => vec![no_clamp, p.biting(k), (0.3, -0.3)],
            false => vec![p.biting(k)],
        };
        for clamp in clamps {
            let expect = p.expected(k, clamp);
            for edge in if every { &EDGES[..] } else { &EDGES[..1] } {
                let (lhs, rhs) = (p.lhs_buffer(*edge), p.pack(*edge));
                let mut parts = gemm::portions(1, n, 1, t.n_step);
                if !every {
                    parts.drain(1..2);
                    parts.truncate(2);
                }
                for portion in parts {
                    run_portion(k, which, &p, (&lhs, &rhs), portion, clamp, &expect, *edge);
                    cases += 1;
                }
            }
        }
    }
    cases
}

#[test]
fn exported_kernels_match_reference() {
    let total = tester::count_cases(runnable(), "", |k| check_kernel(k, Impl::Exported));
    eprintln!("RELIABILITY bounds_kernels {total}");
}

#[test]
fn portable_kernels_match_reference() {
    let total = tester::count_cases(kernels(), " (portable)", |k| {
        check_kernel(k, Impl::Portable)
    });
    eprintln!("RELIABILITY bounds_portable {total}");
}

/// The implementations each kernel's value checks run: its portable path, and the exported
/// kernel where the CPU runs it.
fn implementations() -> Vec<(&'static MatmulKernel, Vec<Impl>)> {
    kernels()
        .map(|k| {
            let mut which = vec![Impl::Portable];
            if support::cpu::can_run(k.isa) {
                which.push(Impl::Exported);
            }
            (k, which)
        })
        .collect()
}

/// The whole row of `p` through each of `impls` against the reference; returns the runs.
fn check_whole(k: &MatmulKernel, impls: &[Impl], p: &Problem, clamp: (f32, f32)) -> usize {
    let expect = p.expected(k, clamp);
    let (lhs, rhs) = (p.lhs_buffer(Edge::End), p.pack(Edge::End));
    for &which in impls {
        let whole = (0, 0, 1, p.n);
        run_portion(k, which, p, (&lhs, &rhs), whole, clamp, &expect, Edge::End);
    }
    impls.len()
}

/// f16 values the hostile checks scatter over the operands.
const SPECIALS: &[u16] = &[
    0x7e00, // quiet NaN
    0x7d01, // signalling NaN with payload
    0xfe33, // negative quiet NaN with payload
    0x7c00, // +inf
    0xfc00, // -inf
    0x8000, // -0
    0x0000, // +0
    0x0001, // smallest subnormal
    0x83ff, // largest negative subnormal
    0x0400, // smallest normal
    0x7bff, // 65504
    0xfbff, // -65504
    0x5bff, // 255.9
];

/// The clamps of the hostile checks: none, biting, NaN bounds, signed zeros, bounds beyond the
/// f16 range (infinities after rounding) and bounds rounding to the largest half.
const SPECIAL_CLAMPS: &[(f32, f32)] = &[
    (f32::NEG_INFINITY, f32::INFINITY),
    (-1.0, 1.0),
    (f32::NAN, 1.0),
    (-1.0, f32::NAN),
    (-0.0, 0.0),
    (-1e9, 1e9),
    (-70000.0, 65519.0),
];

/// NaNs (quiet and signalling), infinities, signed zeros and f16 subnormals scattered over the
/// LHS, the weights and the biases: the kernels follow the reference's model of their
/// instructions (FMLALB/FMLALT with Arm's NaN rules, or FDOT's default NaN; FMIN/FMAX or
/// FCLAMP).
#[test]
fn hostile_values_follow_the_model() {
    let mut cases = 0;
    for (k, impls) in implementations() {
        let t = k.tile();
        let every = tester::every_case_here(k);
        for (seed, (n, kk)) in [(t.n_step + 3, 9), (t.nr + 1, 4), (5, 1)]
            .into_iter()
            .enumerate()
        {
            for round in 0..if every { 4u64 } else { 1 } {
                let mut p = Problem::new(n, kk, 900 + 10 * seed as u64 + round);
                let mut rng = Rng::new(round + 7 * seed as u64);
                let mut pick = |v: &mut Vec<u16>| {
                    for _ in 0..v.len() / 4 + 1 {
                        if v.is_empty() {
                            break;
                        }
                        let at = rng.next_u64() as usize % v.len();
                        v[at] = SPECIALS[rng.next_u64() as usize % SPECIALS.len()];
                    }
                };
                pick(&mut p.lhs);
                pick(&mut p.w);
                pick(&mut p.bias);
                let clamps = if every {
                    SPECIAL_CLAMPS
                } else {
                    &SPECIAL_CLAMPS[..3]
                };
                for &clamp in clamps {
                    cases += check_whole(k, &impls, &p, clamp);
                }
            }
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// Signed zeros: a `-0` bias with `-0` products keeps `-0` for an even K, and becomes `+0` for
/// an odd K (the padded pair adds `+0 x +0`) and for K = 0; sums past 65504 round to infinity;
/// subnormal halves multiply into f32 exactly.
#[test]
fn zeros_overflow_and_subnormals_follow_the_pairs() {
    let mut cases = 0;
    for (k, impls) in implementations() {
        let n = k.tile().nr + 3;
        let unclamped = (f32::NEG_INFINITY, f32::INFINITY);
        for kk in [0, 1, 2, 3, 4] {
            let mut p = Problem::new(n, kk, 5);
            p.bias.fill(0x8000);
            p.lhs.fill(0x3c00); // 1.0
            p.w.fill(0x8000); // -0
            let expect = p.expected(k, unclamped);
            let want = if kk % 2 == 0 && kk > 0 { 0x8000 } else { 0 };
            assert!(expect.iter().all(|&y| y == want), "{} k={kk}", k.stem);
            cases += check_whole(k, &impls, &p, unclamped);
        }
        // Sums of large products: beyond the f16 range only once rounded (f32 accumulators).
        let mut p = Problem::new(n, 6, 6);
        p.lhs.fill(0x7bff);
        for (i, w) in p.w.iter_mut().enumerate() {
            *w = if i / n % 2 == 0 { 0x3c00 } else { 0xbc00 }; // +1, -1 by K row
        }
        let expect = p.expected(k, unclamped);
        assert!(expect.iter().all(|&y| y & 0x7c00 != 0x7c00), "no overflow");
        cases += check_whole(k, &impls, &p, unclamped);
        p.w.fill(0x3c00);
        let expect = p.expected(k, unclamped);
        assert!(expect.iter().all(|&y| y == 0x7c00), "overflow to +inf");
        cases += check_whole(k, &impls, &p, unclamped);
        // Subnormal times subnormal: 2^-48 per product, far below f16 but exact in f32.
        let mut p = Problem::new(n, 8, 7);
        p.lhs.fill(0x0001);
        p.w.fill(0x03ff);
        p.bias.fill(0x0001);
        cases += check_whole(k, &impls, &p, unclamped);
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// FMLALB then FMLALT round after each product, FDOT once for the pair and once for the sum:
/// from `1 + 2^-11` (bias 1, then the pair (2^-11 x 1, 0)), the pair (2^-12 x 2^-12, 2^-12 x
/// 2^-12) adds two halves of an f32 ulp, each rounded away to even by FMLAL (`1 + 2^-11`, an f16
/// tie, rounds to 1.0) but summed to one whole ulp first by FDOT (`1 + 2^-11 + 2^-23` rounds to
/// `1 + 2^-10`). Every kernel that runs here gives its model's half.
#[test]
fn pair_rounding_distinguishes_the_kernels() {
    let mut cases = 0;
    for (k, impls) in implementations() {
        let mut p = Problem::new(1, 4, 8);
        p.bias = vec![0x3c00];
        p.lhs = vec![0x1000, 0x0000, 0x0c00, 0x0c00];
        p.w = vec![0x3c00, 0x0000, 0x0c00, 0x0c00];
        let want = match pairs(k) {
            Pairs::Fmlal => 0x3c00,
            Pairs::Fdot => 0x3c01,
        };
        let unclamped = (f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(p.expected(k, unclamped), [want], "{}", k.stem);
        cases += check_whole(k, &impls, &p, unclamped);
    }
    eprintln!("RELIABILITY hostile {cases}");
}

// ---------------------------------------------------------------------------------------------
// Threads, registers, lazy ZA

#[test]
fn threads_on_disjoint_portions_equal_one_call() {
    let mut tiles = 0;
    for k in runnable() {
        let t = k.tile();
        let p = Problem::new(5 * t.n_step + 3, 33, 77);
        let (lhs, rhs) = (p.lhs_buffer(Edge::End), p.pack(Edge::End));
        let (lhs_at, rhs_at) = (lhs.ptr() as usize, rhs.ptr() as usize);
        let (n, kk) = (p.n, p.k);
        let run_into = move |dst: usize, _m0: usize, n0: usize, _rows: usize, cols: usize| {
            let rhs_off = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, kk);
            let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(0, n0, 2 * n);
            // SAFETY: the operands outlive the threads; each writes only its own columns.
            unsafe {
                sym::<MatmulFloatFn>("run", k.stem)(
                    1,
                    cols,
                    kk,
                    (lhs_at as *const u8).cast(),
                    2 * kk,
                    (rhs_at as *const u8).add(rhs_off).cast(),
                    (dst as *mut u8).add(dst_off).cast(),
                    2 * n,
                    2,
                    -3.0,
                    3.0,
                )
            }
        };
        tiles += gemm::threads_equal_one_call(k.stem, (1, n), (1, t.n_step), 2, &run_into);
    }
    eprintln!("RELIABILITY threads {tiles}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn callee_saved_registers_survive() {
    use support::abi::CallArgs;
    let mut calls = 0;
    for k in runnable() {
        for (n, kk) in [(1, 3), (k.tile().n_step + 5, 9), (2 * k.tile().nr + 1, 64)] {
            let p = Problem::new(n, kk, 9);
            let (lhs, rhs) = (p.lhs_buffer(Edge::End), p.pack(Edge::End));
            let mut dst = Guarded::new(2 * n, Edge::End);
            let x = [
                1,
                n as u64,
                kk as u64,
                lhs.ptr() as u64,
                2 * kk as u64,
                rhs.ptr() as u64,
                dst.mut_ptr() as u64,
                2 * n as u64,
            ];
            let mut d = [0; 8];
            d[..2].copy_from_slice(&[CallArgs::f32_bits(-1e4), CallArgs::f32_bits(1e4)]);
            let args = CallArgs {
                x,
                stack: [2, 0, 0, 0],
                d,
            };
            // SAFETY: args describe kai_run_matmul's prototype with valid buffers.
            unsafe { gemm::assert_registers_survive(k.stem, &args) };
            let expect = p.expected(k, (-1e4, 1e4));
            assert_eq!(dst.bytes(), &bytes(&expect)[..], "{}", k.stem);
            calls += 1;
        }
    }
    eprintln!("RELIABILITY registers {calls}");
}

/// A caller with a pending lazy ZA save calls each kernel: the save is committed first, and the
/// result is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_saves_are_committed() {
    let Some(svl) = rkai::ukernels::arch::sme_vector_bytes() else {
        eprintln!("no SME on this CPU: no ZA state to protect");
        return;
    };
    let mut za = support::abi::PendingZaSave::new(svl);
    let mut ran = 0;
    for k in runnable() {
        let p = Problem::new(k.tile().n_step + 1, 11, 12);
        let clamp = (-3.0, 3.0);
        let expect = p.expected(k, clamp);
        let (lhs, rhs) = (p.lhs_buffer(Edge::End), p.pack(Edge::End));
        za.arm();
        let whole = (0, 0, 1, p.n);
        run_portion(
            k,
            Impl::Exported,
            &p,
            (&lhs, &rhs),
            whole,
            clamp,
            &expect,
            Edge::End,
        );
        za.assert_committed(k.stem);
        ran += 1;
    }
    za.finish();
    eprintln!("RELIABILITY lazy_za {ran}");
}

// ---------------------------------------------------------------------------------------------
// Contract violations

/// Calls `run` of `stem` on a small valid problem with `m` rows.
fn run_rows(stem: &str, m: usize) {
    let k = catalog::kernel(stem).unwrap();
    let p = Problem::new(4, 3, 1);
    let (lhs, rhs) = (p.lhs_buffer(Edge::End), p.pack(Edge::End));
    let mut dst = vec![0u8; 2 * 7 * m];
    call(
        k,
        Impl::Exported,
        &p,
        (lhs.ptr(), rhs.ptr()),
        dst.as_mut_ptr(),
        (0, 4),
        (-1.0, 1.0),
        m,
    );
}

type Case = support::death::Case<String, &'static str>;

const DOT: &str = "matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot";

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
    if kernels().any(|k| k.stem == DOT) {
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
