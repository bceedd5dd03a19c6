//! The bf16 GEMM families (`matmul_clamp_f32_bf16p_bf16p`, `matmul_clamp_f16_bf16p_bf16p`) through
//! their C symbols: getters equal KleidiAI's, every kernel (exported, and the portable path)
//! matches the scalar reference bit for bit with operands packed by the C packers, for edge
//! shapes, portions, guard pages, canaries around the portion, non-finite and extreme values,
//! threads on disjoint portions and callee-saved registers; invalid arguments abort naming
//! KleidiAI's assertion. Under QEMU the reference's model of BFMMLA (round to odd, flushed
//! subnormals, default NaN) is checked against the emulated instruction.

use crate::support;

use rkai_ukernels::catalog;

use rkai_ukernels::family::Family;

use rkai_ukernels::kernel::{MatmulKernel, Rows};

use rkai_ukernels::float::{self, f16};
use rkai_ukernels::matmul::bf16_gemm as family;
use rkai_ukernels::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::lhs_pack_bf16::Variant as LhsVariant;
use rkai_ukernels::pack::rhs_pack_bf16::Variant as RhsVariant;
use rkai_ukernels::reference::bf16_gemm as reference;
use std::ptr;
use support::cabi::func as sym;
use support::cabi::{Getter2, Getter3, pack_float_rhs, pack_lhs};
use support::gemm::{self, Impl, Portion, portions, run_call};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::tester;

fn kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    catalog::KERNELS
        .iter()
        .copied()
        .filter(|k| matches!(k.family, Family::F32Bf16pBf16p | Family::F16Bf16pBf16p))
}

fn runnable() -> Vec<&'static MatmulKernel> {
    let run: Vec<_> = kernels().filter(|k| support::cpu::can_run(k.isa)).collect();
    eprintln!(
        "CPU features {:?}: running {} of {} bf16 GEMM kernels ({})",
        support::cpu::features(),
        run.len(),
        kernels().count(),
        run.iter().map(|k| k.stem).collect::<Vec<_>>().join(", ")
    );
    run
}

fn lhs_variant(p: &Packer) -> LhsVariant {
    match p.kind {
        PackerKind::Lhs(LhsPackerKind::Bf16(v)) => v,
        _ => unreachable!(),
    }
}

fn rhs_variant(p: &Packer) -> RhsVariant {
    match p.kind {
        PackerKind::Rhs(RhsPackerKind::Bf16(v)) => v,
        _ => unreachable!(),
    }
}

/// Rows a problem for `k` may have: `m`, or 1 for KleidiAI's one-row kernel.
fn rows_for(k: &MatmulKernel, m: usize) -> usize {
    match k.rows {
        Rows::One => 1,
        Rows::Any => m,
    }
}

/// Output element size of a kernel.
fn out_bytes(k: &MatmulKernel) -> usize {
    k.family.output().size()
}

#[test]
fn getters_equal_kleidiai_values() {
    assert_eq!(kernels().count(), 3);
    for k in kernels() {
        tester::getters_equal_kleidiai_values(std::iter::once(k));
        for kk in [1usize, 3, 4, 5, 64, 77] {
            let kp = kk.div_ceil(4) * 4;
            let bias = if k.family == Family::F16Bf16pBf16p {
                2
            } else {
                4
            };
            let m_idx = if k.rows == Rows::One { 0 } else { 16 };
            assert_eq!(
                sym::<Getter2>("get_lhs_packed_offset", k.stem)(m_idx, kk),
                m_idx * kp * 2
            );
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(72, kk),
                72 * (bias + kp * 2)
            );
            for p in k.rhs_packers {
                let v = rhs_variant(p);
                let packer_off = if v == RhsVariant::QuantF32 {
                    sym::<support::cabi::Getter4>("get_rhs_packed_offset", p.name)(24, kk, 12, 4)
                } else {
                    sym::<Getter2>("get_rhs_packed_offset", p.name)(24, kk)
                };
                assert_eq!(packer_off, 24 * (bias + kp * 2), "{}", p.name);
            }
        }
        let m_idx = if k.rows == Rows::One { 0 } else { 8 };
        assert_eq!(
            sym::<Getter3>("get_dst_offset", k.stem)(m_idx, 36, 1000),
            m_idx * 1000 + 36 * out_bytes(k)
        );
        assert_eq!(
            sym::<Getter2>("get_dst_size", k.stem)(5, 7),
            35 * out_bytes(k)
        );
    }
}

/// One problem: sources in the packers' element types, and the bf16 values they pack to.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    /// LHS source bits (f32 bits, or f16 bits in the low half), row-major m x k.
    lhs_src: Vec<u32>,
    /// RHS source bits, row-major k x n.
    rhs_src: Vec<u32>,
    /// Bias source bits (f32 or f16).
    bias_src: Option<Vec<u32>>,
    lhs_packer: &'static Packer,
    rhs_packer: &'static Packer,
}

/// How a source value of `bytes` bytes reaches bf16 (`BFCVT`, f16 widened first).
fn to_bf16(bits: u32, bytes: usize) -> u16 {
    if bytes == 2 {
        float::bf16_from_f32_bits(f16::to_f32_bits(bits as u16))
    } else {
        float::bf16_from_f32_bits(bits)
    }
}

/// Value generators: `Normal` (uniform in +-2), or a mix with non-finite and extreme values.
#[derive(Clone, Copy, PartialEq)]
enum Values {
    Normal,
    Hostile,
    /// Finite values over 2^-70..2^60: sums with far-apart exponents (where rounding to odd and
    /// to nearest differ) and partial results below 2^-126 (flushed).
    Wide,
}

fn value(rng: &mut Rng, bytes: usize, kind: Values) -> u32 {
    let x = rng.f32(-2.0, 2.0);
    let v = if kind == Values::Wide {
        x * 2f32.powi(rng.range_i32(-70, 60))
    } else if kind == Values::Hostile {
        match rng.range_i32(0, 16) {
            0 => f32::INFINITY,
            1 => f32::NEG_INFINITY,
            2 => f32::NAN,
            3 => -0.0,
            4 => 0.0,
            5 => x * 1e-39, // subnormal in f32 and bf16 (zero or subnormal in f16)
            6 => x * 3e38,  // products overflow
            7 => x * 1e-20, // products flushed
            8 => x * 6e4,
            9 => f32::from_bits(0x7f80_0001), // signalling NaN
            10 => x * 1e-6,
            _ => x,
        }
    } else {
        x
    };
    if bytes == 2 {
        u32::from(f16::from_f32(v))
    } else {
        v.to_bits()
    }
}

impl Problem {
    #[allow(clippy::too_many_arguments)]
    fn new(
        m: usize,
        n: usize,
        k: usize,
        with_bias: bool,
        lhs_packer: &'static Packer,
        rhs_packer: &'static Packer,
        kind: Values,
        seed: u64,
    ) -> Self {
        let mut rng = Rng::new(seed);
        let (lb, rb) = (
            lhs_variant(lhs_packer).source_bytes(),
            rhs_variant(rhs_packer).source_bytes(),
        );
        let bb = rhs_variant(rhs_packer).bias_bytes();
        let lhs_src = (0..m * k).map(|_| value(&mut rng, lb, kind)).collect();
        let rhs_src = (0..k * n).map(|_| value(&mut rng, rb, kind)).collect();
        let bias_src = with_bias.then(|| (0..n).map(|_| value(&mut rng, bb, kind)).collect());
        Problem {
            m,
            n,
            k,
            lhs_src,
            rhs_src,
            bias_src,
            lhs_packer,
            rhs_packer,
        }
    }

    /// Normal values with bias, packed by `k`'s first packers; rows as `k` takes them.
    fn with_first_packers(k: &MatmulKernel, (m, n, kk): (usize, usize, usize), seed: u64) -> Self {
        let (lhs, rhs) = (k.lhs_packers[0], k.rhs_packers[0]);
        let m = rows_for(k, m);
        Problem::new(m, n, kk, true, lhs, rhs, Values::Normal, seed)
    }

    fn bytes(v: &[u32], es: usize) -> Vec<u8> {
        v.iter()
            .flat_map(|x| x.to_le_bytes()[..es].to_vec())
            .collect()
    }

    fn pack_lhs(&self, edge: Edge) -> Guarded {
        let v = lhs_variant(self.lhs_packer);
        let es = v.source_bytes();
        let src = Guarded::from_bytes(&Self::bytes(&self.lhs_src, es), edge);
        let size = v.packed_size(self.m, self.k).unwrap();
        let mut out = Guarded::from_bytes(&vec![0xa5; size.max(1)], edge);
        // SAFETY: source rows and output sized for m x k.
        unsafe {
            pack_lhs(
                self.lhs_packer.name,
                (self.m, self.k),
                (v.mr(), 4, 1),
                0,
                (src.ptr().cast(), es * self.k.max(1)),
                out.mut_ptr().cast(),
            )
        };
        out
    }

    fn pack_rhs(&self, edge: Edge) -> Guarded {
        let v = rhs_variant(self.rhs_packer);
        let (sb, bb) = (v.source_bytes(), v.bias_bytes());
        let src = Guarded::from_bytes(&Self::bytes(&self.rhs_src, sb), edge);
        let bias = self
            .bias_src
            .as_ref()
            .map(|b| Guarded::from_bytes(&Self::bytes(b, bb), edge));
        let size = v.layout().size(self.n, self.k, 12, 4, 1).unwrap();
        let mut out = Guarded::from_bytes(&vec![0x5a; size], edge);
        // SAFETY: source, bias and output sized for k x n; scale and params null.
        unsafe {
            let bias = bias.as_ref().map_or(ptr::null(), |b| b.ptr().cast());
            let (shape, tile) = ((self.n, self.k), (12, 4, 1));
            let src = (src.ptr().cast(), sb * self.n);
            pack_float_rhs(
                self.rhs_packer.name,
                shape,
                tile,
                src,
                bias,
                out.mut_ptr().cast(),
            )
        };
        out
    }

    /// Expected destination bits (f32 bits, or f16 bits) of `kernel`.
    fn expected(&self, kernel: &MatmulKernel, clamp: (f32, f32)) -> Vec<u32> {
        let results = self.results(kernel, clamp).into_iter();
        if kernel.family == Family::F16Bf16pBf16p {
            results.map(|y| u32::from(f16::from_f32(y))).collect()
        } else {
            results.map(f32::to_bits).collect()
        }
    }

    /// Reference results of `kernel` (f32, before any narrowing to f16).
    fn results(&self, kernel: &MatmulKernel, clamp: (f32, f32)) -> Vec<f32> {
        let order = family::accumulation(kernel);
        let lb = lhs_variant(self.lhs_packer).source_bytes();
        let v = rhs_variant(self.rhs_packer);
        let lhs: Vec<u16> = self.lhs_src.iter().map(|&x| to_bf16(x, lb)).collect();
        let w: Vec<u16> = self
            .rhs_src
            .iter()
            .map(|&x| to_bf16(x, v.source_bytes()))
            .collect();
        let bias: Option<Vec<f32>> = self.bias_src.as_ref().map(|b| {
            b.iter()
                .map(|&x| {
                    if v.bias_bytes() == 2 {
                        f32::from_bits(f16::to_f32_bits(x as u16))
                    } else {
                        f32::from_bits(x)
                    }
                })
                .collect()
        });
        let mut out = Vec::with_capacity(self.m * self.n);
        for i in 0..self.m {
            for j in 0..self.n {
                let y = reference::element(
                    order,
                    i,
                    j,
                    self.n,
                    self.k,
                    &lhs,
                    &w,
                    bias.as_deref(),
                    clamp,
                );
                out.push(y);
            }
        }
        out
    }
}

problem_packed_family!(
    /// The bf16 families for the generic tester's threads and register checks (their kernel
    /// checks are [`check_kernel`]'s: three clamps, one inverted, and a canary byte).
    Bf16 for Problem
);

const CANARY: u8 = 0xc3;

/// Runs one portion into an m x (n + 3) canary-filled destination; returns its bytes.
#[allow(clippy::too_many_arguments)]
fn call(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    lhs: &Guarded,
    rhs: &Guarded,
    portion: Portion,
    clamp: (f32, f32),
    edge: Edge,
) -> Guarded {
    let stride = out_bytes(k) * (p.n + 3);
    let mut dst = Guarded::from_bytes(&vec![CANARY; stride * p.m], edge);
    let buffers = (lhs.ptr(), rhs.ptr(), dst.mut_ptr());
    // SAFETY: operands packed for `p`; dst holds its m rows of `stride` bytes.
    unsafe {
        tester::run_portion_into(
            k,
            which,
            (p.k, 0),
            buffers,
            stride,
            portion,
            clamp,
            std::ptr::null(),
        )
    };
    dst
}

/// Checks a destination against `expect` inside the portion and the canary outside it.
fn verify(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    dst: &Guarded,
    portion: Portion,
    expect: &[u32],
    what: &str,
) {
    let es = out_bytes(k);
    let canary = u32::from_le_bytes([CANARY; 4]) >> (32 - 8 * es as u32);
    let context = || {
        format!(
            "{} ({}, {} + {}) {what} m={} n={} k={}",
            k.stem,
            which.name(),
            p.lhs_packer.name,
            p.rhs_packer.name,
            p.m,
            p.n,
            p.k
        )
    };
    gemm::check_portion_by(
        dst.bytes(),
        es,
        p.m,
        p.n,
        p.n + 3,
        portion,
        |at| expect[at],
        canary,
        &context,
    );
}

/// Packs `p` against a guard page at the end and checks one call of `which` over all of it
/// against `expect` (`what` names the data in a failure).
fn check_whole(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    clamp: (f32, f32),
    expect: &[u32],
    what: &str,
) {
    let lhs = p.pack_lhs(Edge::End);
    let rhs = p.pack_rhs(Edge::End);
    let whole = (0, 0, p.m, p.n);
    let dst = call(k, which, p, &lhs, &rhs, whole, clamp, Edge::End);
    verify(k, which, p, &dst, whole, expect, what);
}

/// (m, n, k): partial and whole row blocks and column groups, every K tail mod 4, K = 0.
#[rustfmt::skip]
const SHAPES: [(usize, usize, usize); 15] = [
    (1, 1, 1), (3, 5, 0), (1, 12, 4), (8, 12, 8), (7, 13, 5), (9, 25, 2),
    (16, 24, 3), (17, 35, 31), (1, 1, 1023), (2, 100, 6), (33, 11, 7), (24, 36, 64),
    (41, 49, 13), (5, 7, 129), (64, 1, 9),
];

fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let t = k.tile();
    let mut cases = 0;
    for (seed, &(m, n, kk)) in SHAPES.iter().enumerate() {
        let m = rows_for(k, m);
        for with_bias in [false, true] {
            let lp = k.lhs_packers[seed % k.lhs_packers.len()];
            let rp = k.rhs_packers[(seed / 2 + with_bias as usize) % k.rhs_packers.len()];
            let p = Problem::new(
                m,
                n,
                kk,
                with_bias,
                lp,
                rp,
                Values::Normal,
                300 + seed as u64,
            );
            let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let mut sorted: Vec<f32> = p
                .expected(k, no_clamp)
                .iter()
                .map(|&b| f32::from_bits(b))
                .collect();
            sorted.sort_by(f32::total_cmp);
            let biting = (sorted[sorted.len() / 5], sorted[sorted.len() * 4 / 5]);
            let inverted = (0.3, -0.3);
            for clamp in [no_clamp, biting, inverted] {
                let expect = p.expected(k, clamp);
                for edge in EDGES {
                    let lhs = p.pack_lhs(edge);
                    let rhs = p.pack_rhs(edge);
                    for portion in portions(m, n, t.m_step, t.n_step) {
                        let dst = call(k, which, &p, &lhs, &rhs, portion, clamp, edge);
                        verify(k, which, &p, &dst, portion, &expect, "normal");
                        cases += 1;
                    }
                }
            }
        }
    }
    cases
}

reference_tests!(runnable: runnable(), all: kernels(), check: check_kernel);

#[test]
fn kernels_need_bf16() {
    for k in kernels() {
        let f = support::cpu::features();
        let has = f.contains(rkai_ukernels::arch::Features::BF16)
            && (k.family == Family::F32Bf16pBf16p
                || f.contains(rkai_ukernels::arch::Features::FP16));
        // Off aarch64 the portable path runs everything.
        let has = has || !cfg!(target_arch = "aarch64");
        assert_eq!(support::cpu::can_run(k.isa), has, "{}", k.stem);
    }
}

/// Every kernel's portable implementation, then the exported symbol of each that runs here.
fn implementations() -> Vec<(&'static MatmulKernel, Impl)> {
    tester::implementations(kernels(), runnable())
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals, overflowing and flushed
/// products: every result equals the model (round to odd, flush to zero, default NaN).
#[test]
fn non_finite_values_follow_the_model() {
    let mut cases = 0;
    for (k, which) in implementations() {
        for (seed, &(m, n, kk)) in [(9, 26, 7), (8, 12, 16), (3, 40, 33), (17, 13, 4)]
            .iter()
            .enumerate()
        {
            let m = rows_for(k, m);
            for (pi, lp) in k.lhs_packers.iter().enumerate() {
                for rp in k.rhs_packers {
                    let s = 900 + (seed * 10 + pi) as u64;
                    let p = Problem::new(m, n, kk, true, lp, rp, Values::Hostile, s);
                    for clamp in [
                        (f32::NEG_INFINITY, f32::INFINITY),
                        (-1e30, 1e30),
                        (-0.5, 2.0),
                    ] {
                        let expect = p.expected(k, clamp);
                        check_whole(k, which, &p, clamp, &expect, "hostile");
                        cases += 1;
                    }
                }
            }
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// Whether the same chain with every operation rounded to nearest even differs from `expect`
/// (f32 results, K a multiple of 4, f32 sources).
fn nearest_even_differs(p: &Problem, expect: &[u32]) -> bool {
    let v = |x: u32| f32::from_bits(u32::from(float::bf16_from_f32_bits(x)) << 16);
    (0..p.m * p.n).any(|e| {
        let (i, j) = (e / p.n, e % p.n);
        let mut acc = p.bias_src.as_ref().map_or(0.0, |b| f32::from_bits(b[j]));
        for kk in (0..p.k).step_by(2) {
            let a = |d: usize| v(p.lhs_src[i * p.k + kk + d]) * v(p.rhs_src[(kk + d) * p.n + j]);
            acc += a(0) + a(1);
        }
        acc.to_bits() != expect[e]
    })
}

/// Values whose sums lose bits at every step: the kernels equal the round-to-odd model.
#[test]
fn wide_exponent_ranges_round_to_odd() {
    let mut cases = 0;
    for (k, which) in implementations() {
        for (seed, &(m, n, kk)) in [(9, 26, 7), (8, 12, 16), (3, 40, 33), (17, 13, 64)]
            .iter()
            .enumerate()
        {
            let m = rows_for(k, m);
            let (lp, rp) = (k.lhs_packers[0], k.rhs_packers[seed % k.rhs_packers.len()]);
            let p = Problem::new(
                m,
                n,
                kk,
                seed % 2 == 0,
                lp,
                rp,
                Values::Wide,
                1700 + seed as u64,
            );
            let clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let expect = p.expected(k, clamp);
            let chain = family::accumulation(k) == family::Accumulation::Chain;
            if k.family == Family::F32Bf16pBf16p && chain && kk == 64 {
                // The data must tell the model from rounding to nearest: with every step rounded
                // to nearest even (and no flushing) some results differ.
                assert!(nearest_even_differs(&p, &expect), "wide values too tame");
            }
            check_whole(k, which, &p, clamp, &expect, "wide");
            cases += 1;
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// The one-row BFDOT kernel keeps two partial sums per column: on ordinary data its results
/// differ from the one-chain order of the BFMMLA kernels, and equal the split model.
#[test]
fn bfdot_kernel_follows_its_split_sums() {
    let mut cases = 0;
    for k in kernels().filter(|k| family::accumulation(k) == family::Accumulation::SplitPairs) {
        let p = Problem::with_first_packers(k, (1, 75, 256), 2024);
        let clamp = (f32::NEG_INFINITY, f32::INFINITY);
        let expect = p.expected(k, clamp);
        let as_chain = MatmulKernel {
            rows: Rows::Any,
            ..*k
        };
        let chain = p.expected(&as_chain, clamp);
        let differing = expect.iter().zip(&chain).filter(|(a, b)| a != b).count();
        assert!(differing > 0, "data does not tell the orders apart");
        let mut impls = vec![Impl::Portable];
        if support::cpu::can_run(k.isa) {
            impls.push(Impl::Exported);
        }
        for which in impls {
            check_whole(k, which, &p, clamp, &expect, "split");
            cases += 1;
        }
        eprintln!(
            "{}: {differing} of {} results differ from one chain",
            k.stem, p.n
        );
    }
    assert!(cases > 0);
}

/// Sums that cancel to tiny values and near-ties: where round to odd and ties to even differ.
#[test]
fn rounding_is_to_odd_with_flushing() {
    use rkai_ukernels::float::bf16;
    let one = 0x3f80u16;
    // 1 + 2^-30: inexact in f32, round to odd sets the last bit.
    let tiny = float::bf16_from_f32_bits((2f32).powi(-30).to_bits());
    assert_eq!(
        bf16::dot_step(1.0, [one, tiny], [one, one]).to_bits(),
        0x4000_0001
    );
    // The pair sum is exactly 1 + 2^-30; added to 2^24 it is inexact: 2^24 + 1 (odd) truncated.
    assert_eq!(
        bf16::dot_step(16_777_216.0, [one, tiny], [one, one]).to_bits(),
        0x4b80_0001 // 2^24 + 2 (the odd last place at this exponent)
    );
    // Results below 2^-126 are flushed to zero with their sign.
    let small = float::bf16_from_f32_bits((2f32).powi(-70).to_bits());
    assert_eq!(bf16::dot_step(0.0, [small, 0], [small, 0]).to_bits(), 0);
    let neg = small | 0x8000;
    assert_eq!(bf16::dot_step(-0.0, [neg, 0], [small, 0]).to_bits(), 0); // -0 + (-0 + 0)
    assert_eq!(
        bf16::dot_step(-0.0, [neg, 0x8000], [small, one]).to_bits(),
        0x8000_0000
    );
    // A subnormal accumulator is flushed before the addition.
    assert_eq!(
        bf16::dot_step(f32::from_bits(1), [0, 0], [0, 0]).to_bits(),
        0
    );
    // Overflow gives infinity (not the largest finite value).
    let big = float::bf16_from_f32_bits(3e38f32.to_bits());
    assert_eq!(bf16::dot_step(0.0, [big, big], [big, big]), f32::INFINITY);
    // inf - inf and NaNs give the default NaN.
    let inf = 0x7f80u16;
    assert_eq!(
        bf16::dot_step(0.0, [inf, inf], [one, one | 0x8000]).to_bits(),
        0x7fc0_0000
    );
    assert_eq!(
        bf16::dot_step(f32::from_bits(0xffc1_2345), [one, one], [one, one]).to_bits(),
        0x7fc0_0000
    );
}

#[test]
fn threads_on_disjoint_portions_equal_one_call() {
    let threaded = tester::threads_equal_one_call_on::<Bf16>(&runnable(), |k, (m, n)| {
        Problem::with_first_packers(k, (m, n, 77), 77)
    });
    eprintln!("RELIABILITY concurrency {threaded}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn callee_saved_registers_survive() {
    let shapes = [(1, 8, 3), (9, 33, 9), (16, 40, 64), (1, 75, 33)];
    let calls = tester::registers_survive_on::<Bf16>(&runnable(), |k| {
        let problem = |shape| Problem::with_first_packers(k, shape, 5);
        shapes.map(problem).into()
    });
    eprintln!("RELIABILITY registers {calls}");
}

const F32_GEMM: &str = "matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla";
const F16_GEMM: &str = "matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla";
const F32_GEMV: &str = "matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot";

fn cases() -> Vec<support::death::Case<String, &'static str>> {
    vec![
        run_case!("dst_stride_col_f32", "dst_stride_col == sizeof(float)"
            => run_call(F32_GEMM, 64, 8, 0)),
        run_case!("dst_stride_col_f16", "dst_stride_col == sizeof(uint16_t)"
            => run_call(F16_GEMM, 64, 4, 0)),
        run_case!("dst_stride_row", "dst_stride_row >= n * sizeof(float)"
            => run_call(F32_GEMM, 30, 4, 0)),
        run_case!("null_lhs", "lhs_packed != NULL" => run_call(F16_GEMM, 64, 2, 1)),
        run_case!("null_rhs", "rhs_packed != NULL" => run_call(F32_GEMM, 64, 4, 2)),
        run_case!("null_dst", "dst != NULL" => run_call(F32_GEMM, 64, 4, 3)),
        getter_case!("lhs_offset", "m_idx % kai_mr == 0"
            => get_lhs_packed_offset::<Getter2>(F32_GEMM)(3, 64)),
        getter_case!("rhs_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(F16_GEMM)(8, 64)),
        getter_case!("dst_offset", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(F32_GEMM)(8, 6, 64)),
        run_case!("gemv_rows", "m == 1" => run_call(F32_GEMV, 64, 4, 0)),
        getter_case!("gemv_lhs_offset", "m_idx == 0"
            => get_lhs_packed_offset::<Getter2>(F32_GEMV)(1, 64)),
        getter_case!("gemv_rhs_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(F32_GEMV)(6, 64)),
        getter_case!("lhs_offset_overflow", "packed LHS offset fits in size_t"
            => get_lhs_packed_offset::<Getter2>(F16_GEMM)(usize::MAX / 8 * 8, 64)),
    ]
}

death_tests!(cases, "bf16 contract violations", "contract");
