//! What the test files of KleidiAI's SME f32, f16 and bf16 GEMMs with both operands packed share
//! (`matmul_clamp_f32_f32p_f32p`, `tests/suite/f32p_f32p_sme.rs`; `matmul_clamp_f16_f16p_f16p`,
//! `tests/suite/f16p_f16p_sme.rs`; `matmul_clamp_fp32_bf16p_bf16p`, `tests/suite/bf16_sme.rs`): a problem of
//! raw source values (f32 bits, or halves; f32 for bf16, which the packers convert), packed
//! through the kernel's paired packers (K x N or N x K RHS sources), the scalar reference written
//! from the instructions' definitions (`FMOPA` on f32, widening `FMOPA` on halves, or `BFMOPA`,
//! from a zeroed ZA tile and the bias, then the clamp), the [`PackedFamily`] the generic tester
//! runs, the shapes and hostile values. The f32 and f16 files also share their `#[test]`
//! functions ([`packed_float_tests!`]) and keep the tests of their own numerics.

use super::cabi::func as sym;
use super::cabi::{Getter2, Getter5, MatmulFn, pack_float_rhs, pack_lhs};
use super::gemm::Impl;
use super::guard::{Edge, Guarded};
use super::rng::Rng;
use super::tester::{self, Depth, PackedFamily};
use rkai_ukernels::element::Output;
use rkai_ukernels::family::Family;
use rkai_ukernels::float::{self, f16};
use rkai_ukernels::kernel::{Clamp, MatmulKernel};
use rkai_ukernels::matmul::bf16_gemm;
use rkai_ukernels::pack::kinds::Packer;
use rkai_ukernels::reference::bf16_gemm as bf16_reference;

/// The tile (`mr` = `nr` = `m_step` = `n_step`): 2 x SVL32 on this CPU (SVL 128 bits without
/// SME, where the portable paths run).
pub fn tile() -> usize {
    2 * rkai_ukernels::arch::sme_lanes32()
}

/// The packed value type of a family (f32, f16 or bf16): its kernels' K values per step
/// (`kr`, four bytes' worth) and bytes per packed value.
pub fn values(family: Family) -> Output {
    bf16_gemm::values(family)
}

/// The type of the source values the packers read for packed values of type `values`: bf16
/// values are packed from f32 sources, the others from their own type.
pub fn source_values(values: Output) -> Output {
    match values {
        Output::Bf16 => Output::F32,
        Output::F32 | Output::F16 => values,
        Output::I8 => unreachable!("int8 is no packed float type"),
    }
}

/// The catalog entry of the kernel of `family` whose stem ends with `suffix` (`"_sme_mopa"`,
/// `"_sme2_mopa"`), whatever `RKAI_TEST_KERNEL` narrows.
pub fn kernel_ending(family: Family, suffix: &str) -> &'static MatmulKernel {
    let of_family = rkai_ukernels::catalog::KERNELS
        .iter()
        .filter(|k| k.family == family);
    let mut found = of_family.copied().filter(|k| k.stem.ends_with(suffix));
    let k = found.next().unwrap_or_else(|| panic!("no {suffix} kernel"));
    assert!(found.next().is_none(), "two {suffix} kernels");
    k
}

/// The K x N RHS packer of `kernel`.
pub fn kxn_packer(kernel: &MatmulKernel) -> &'static str {
    let mut kxn = kernel.rhs_packers.iter().filter(|p| p.name.contains("kxn"));
    kxn.next().expect("a K x N RHS packer").name
}

/// The kernels of `family`, narrowed by `RKAI_TEST_KERNEL`.
pub fn kernels(family: Family) -> impl Iterator<Item = &'static MatmulKernel> {
    tester::family_kernels(family)
}

/// The kernels of `family` this CPU runs, listed on stderr.
pub fn runnable(family: Family) -> Vec<&'static MatmulKernel> {
    let run: Vec<_> = kernels(family)
        .filter(|k| super::cpu::can_run(k.isa))
        .collect();
    eprintln!(
        "CPU features {:?}, tile {}: running {} of {} {} kernels",
        super::cpu::features(),
        tile(),
        run.len(),
        kernels(family).count(),
        family.dir()
    );
    run
}

/// Every kernel's portable implementation, then the exported symbol of each that runs here.
pub fn implementations(family: Family) -> Vec<(&'static MatmulKernel, Impl)> {
    tester::implementations(kernels(family), runnable(family))
}

/// Kinds of source values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Values {
    Normal,
    /// NaNs (quiet and signalling), infinities, signed zeros, subnormals, values near the
    /// largest finite one of the type.
    Hostile,
    /// Finite values over a wide exponent range: sums lose bits at every step.
    Wide,
}

/// One problem: raw source bits (`lhs` m x k, `rhs` k x n, `bias` n; f32 bits, or halves in the
/// low 16 bits, as [`source_values`] of the packed type `values`), and the LHS and RHS packers
/// that pack it.
#[derive(Clone)]
pub struct Problem {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub values: Output,
    pub lhs: Vec<u32>,
    pub rhs: Vec<u32>,
    pub bias: Vec<u32>,
    pub lhs_packer: &'static Packer,
    pub rhs_packer: &'static Packer,
}

/// One f32 source value of `kind` (as bits).
fn draw_f32(rng: &mut Rng, kind: Values) -> u32 {
    let x = rng.f32(-2.0, 2.0);
    let v = match kind {
        Values::Normal => x,
        Values::Wide => x * 2f32.powi(rng.range_i32(-70, 60)),
        Values::Hostile => match rng.range_i32(0, 40) {
            0 => f32::INFINITY,
            1 => f32::NEG_INFINITY,
            2 => f32::NAN,
            3 => -0.0,
            4 => 0.0,
            5 => x * 1e-39,
            6 => x * 3e38,
            7 => x * 1e-20,
            8 => f32::from_bits(0xff80_0001),
            9 => f32::from_bits(0x7f80_0001),
            _ => x,
        },
    };
    v.to_bits()
}

fn draw(rng: &mut Rng, values: Output, kind: Values) -> u32 {
    if values == Output::F32 {
        return draw_f32(rng, kind);
    }
    let x = rng.f32(-2.0, 2.0);
    let h = match kind {
        Values::Normal => f16::from_f32(x),
        Values::Wide => f16::from_f32(x * 2f32.powi(rng.range_i32(-20, 12))),
        Values::Hostile => match rng.range_i32(0, 40) {
            0 => 0x7c00,
            1 => 0xfc00,
            2 => 0x7e00,
            3 => 0x8000,
            4 => 0,
            5 => (rng.next_u64() & 0x83ff) as u16, // subnormal
            6 => f16::from_f32(x * 60000.0),
            7 => 0x7c01, // signalling NaN
            8 => 0xfe12,
            _ => f16::from_f32(x),
        },
    };
    u32::from(h)
}

/// Raw sources of `kind` (LHS m x k, RHS k x n, bias n) as values of type `values`, drawn from
/// `seed`; for `Hostile`, only the LHS rows `i % 3 == 0`, the RHS columns `j % 3 == 0` and the
/// biases `j % 3 == 1` take special values, so that every mix of special and ordinary operands
/// reaches some output.
fn sources(
    (m, n, k): (usize, usize, usize),
    values: Output,
    kind: Values,
    seed: u64,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut rng = Rng::new(seed);
    let mut draw = |special: bool| {
        let kind = if kind == Values::Hostile && !special {
            Values::Normal
        } else {
            kind
        };
        draw(&mut rng, values, kind)
    };
    let lhs = (0..m * k).map(|e| draw(e / k.max(1) % 3 == 0)).collect();
    let rhs = (0..k * n).map(|e| draw(e % n % 3 == 0)).collect();
    let bias = (0..n).map(|j| draw(j % 3 == 1)).collect();
    (lhs, rhs, bias)
}

/// Whether some element of `p` differs from a plain left-to-right f32 sum of the bias and the
/// products of the values widened by `widen`: `p`'s values are not too tame to tell the model's
/// rounding apart.
pub fn plain_sums_differ(p: &Problem, widen: impl Fn(u32) -> f32) -> bool {
    (0..p.m * p.n).any(|e| {
        let (i, j) = (e / p.n, e % p.n);
        let mut acc = widen(p.bias[j]) + 0.0;
        for kk in 0..p.k {
            acc += widen(p.lhs[i * p.k + kk]) * widen(p.rhs[kk * p.n + j]);
        }
        acc.to_bits() != p.sum(i, j).to_bits()
    })
}

impl Problem {
    /// Sources of `kind`, packed by the kernel's first LHS packer and its RHS packer `rhs`; for
    /// `Hostile`, only the LHS rows `i % 3 == 0`, the RHS columns `j % 3 == 0` and the biases
    /// `j % 3 == 1` take special values, so that every mix of special and ordinary operands
    /// reaches some output.
    pub fn new(
        kernel: &MatmulKernel,
        (m, n, k): (usize, usize, usize),
        rhs: usize,
        kind: Values,
        seed: u64,
    ) -> Self {
        let values = values(kernel.family);
        let (lhs, rhs_values, bias) = sources((m, n, k), source_values(values), kind, seed);
        Problem {
            m,
            n,
            k,
            values,
            lhs,
            rhs: rhs_values,
            bias,
            lhs_packer: kernel.lhs_packers[0],
            rhs_packer: kernel.rhs_packers[rhs % kernel.rhs_packers.len()],
        }
    }

    pub fn normal(kernel: &MatmulKernel, shape: (usize, usize, usize), seed: u64) -> Self {
        Problem::new(kernel, shape, seed as usize, Values::Normal, seed)
    }

    fn bytes(&self, v: impl Iterator<Item = u32>) -> Vec<u8> {
        let f32s = self.vb() == 4;
        let mut out: Vec<u8> = Vec::new();
        for x in v {
            if f32s {
                out.extend_from_slice(&x.to_le_bytes());
            } else {
                out.extend_from_slice(&(x as u16).to_le_bytes());
            }
        }
        if out.is_empty() {
            out.push(0);
        }
        out
    }

    /// Bytes of a source value.
    fn vb(&self) -> usize {
        source_values(self.values).size()
    }

    /// Packed values per K step: four bytes' worth.
    fn kr(&self) -> usize {
        4 / self.values.size()
    }

    pub fn pack_lhs(&self, edge: Edge) -> Guarded {
        let name = self.lhs_packer.name;
        let src = Guarded::from_bytes(&self.bytes(self.lhs.iter().copied()), edge);
        let size =
            sym::<Getter5>("get_lhs_packed_size", name)(self.m, self.k, tile(), self.kr(), 1);
        let mut out = Guarded::from_bytes(&vec![0xa5; size.max(1)], edge);
        // SAFETY: source rows and output sized for m x k.
        unsafe {
            pack_lhs(
                name,
                (self.m, self.k),
                (tile(), self.kr(), 1),
                0,
                (src.ptr().cast(), self.vb() * self.k.max(1)),
                out.mut_ptr().cast(),
            )
        };
        out
    }

    pub fn pack_rhs(&self, edge: Edge) -> Guarded {
        let name = self.rhs_packer.name;
        let (n, k) = (self.n, self.k);
        let (src, stride) = if name.contains("nxk") {
            let t = (0..n * k).map(|e| self.rhs[(e % k) * n + e / k]);
            (self.bytes(t), self.vb() * k.max(1))
        } else {
            (self.bytes(self.rhs.iter().copied()), self.vb() * n)
        };
        let src = Guarded::from_bytes(&src, edge);
        let bias = Guarded::from_bytes(&self.bytes(self.bias.iter().copied()), edge);
        let size = sym::<Getter2>("get_rhs_packed_size", name)(n, k);
        let mut out = Guarded::from_bytes(&vec![0x5a; size], edge);
        // SAFETY: source, bias and output sized for k x n.
        unsafe {
            pack_float_rhs(
                name,
                (n, k),
                (tile(), self.kr(), 1),
                (src.ptr().cast(), stride),
                bias.ptr().cast(),
                out.mut_ptr().cast(),
            )
        };
        out
    }

    /// Unclamped sum of element (i, j): the bias entered into a zeroed accumulator by an outer
    /// product with ones, then one step per `kr` K values in order (an odd K's last pair padded
    /// with zeros, as both packers pad it).
    pub fn sum(&self, i: usize, j: usize) -> f32 {
        let (k, n) = (self.k, self.n);
        match self.values {
            Output::F32 => {
                let f = f32::from_bits;
                let mut acc = float::fmopa(0.0, 1.0, f(self.bias[j]));
                for kk in 0..k {
                    acc = float::fmopa(acc, f(self.lhs[i * k + kk]), f(self.rhs[kk * n + j]));
                }
                acc
            }
            Output::Bf16 => {
                let (lhs, w, bias) = self.bf16_operands();
                bf16_reference::outer_product_element(i, j, n, k, &lhs, &w, Some(&bias))
            }
            Output::F16 => {
                let one = 0x3c00;
                let mut acc = f16::dot_add(0.0, [one, one], [self.bias[j] as u16, 0]);
                let a = |kk: usize| {
                    if kk < k {
                        self.lhs[i * k + kk] as u16
                    } else {
                        0
                    }
                };
                let b = |kk: usize| {
                    if kk < k {
                        self.rhs[kk * n + j] as u16
                    } else {
                        0
                    }
                };
                for g in (0..k).step_by(2) {
                    acc = f16::dot_add(acc, [a(g), a(g + 1)], [b(g), b(g + 1)]);
                }
                acc
            }
            Output::I8 => unreachable!("int8 is no packed float type"),
        }
    }

    /// The bf16 family's operands: the sources converted as its packers convert them, and the
    /// f32 bias.
    fn bf16_operands(&self) -> (Vec<u16>, Vec<u16>, Vec<f32>) {
        let bf = |v: &[u32]| v.iter().map(|&x| float::bf16_from_f32_bits(x)).collect();
        let bias = self.bias.iter().map(|&b| f32::from_bits(b)).collect();
        (bf(&self.lhs), bf(&self.rhs), bias)
    }

    /// Reference results of `kernel` (f32; the f16 family's halves widened exactly).
    pub fn results(&self, kernel: &MatmulKernel, (lo, hi): (f32, f32)) -> Vec<f32> {
        let clamp = kernel.epilogue.clamp;
        // The bf16 family's operands, converted once.
        let bf16 = (self.values == Output::Bf16).then(|| self.bf16_operands());
        let mut out = Vec::with_capacity(self.m * self.n);
        for i in 0..self.m {
            for j in 0..self.n {
                out.push(match self.values {
                    Output::F32 => {
                        let y = self.sum(i, j);
                        match clamp {
                            Clamp::MaxNumThenMinNum => float::clamp_num(y, lo, hi),
                            _ => float::clamp_upper_first(y, lo, hi),
                        }
                    }
                    // Narrowed, then clamped on halves with narrowed bounds.
                    Output::F16 => {
                        let y = self.sum(i, j);
                        let (y, l, h) = (f16::from_f32(y), f16::from_f32(lo), f16::from_f32(hi));
                        let r = match clamp {
                            Clamp::MaxNumThenMinNum => f16::fminnm(f16::fmaxnm(y, l), h),
                            _ => f16::fmax(f16::fmin(y, h), l),
                        };
                        f32::from_bits(f16::to_f32_bits(r))
                    }
                    // The sum of `BFMOPA` steps, clamped as the kernel clamps.
                    Output::Bf16 => {
                        let (lhs, w, bias) = bf16.as_ref().expect("bf16 operands");
                        let (n, k) = (self.n, self.k);
                        let y =
                            bf16_reference::outer_product_element(i, j, n, k, lhs, w, Some(bias));
                        bf16_gemm::clamp(kernel, y, lo, hi)
                    }
                    Output::I8 => unreachable!("int8 is no packed float type"),
                });
            }
        }
        out
    }
}

/// The SME packed-float families for the generic tester.
pub struct Sme;

impl PackedFamily for Sme {
    type Problem = Problem;
    const ANY_NAN: bool = false;

    fn shape(p: &Problem) -> (usize, usize, usize, usize) {
        (p.m, p.n, p.k, 0)
    }

    fn pack(_: &MatmulKernel, p: &Problem, edge: Edge) -> (Guarded, Guarded) {
        (p.pack_lhs(edge), p.pack_rhs(edge))
    }

    fn expected(k: &MatmulKernel, p: &Problem, clamp: (f32, f32)) -> Vec<f32> {
        p.results(k, clamp)
    }
}

/// (m, n, k) around the tile `t`: one element, partial and whole tiles and one past on both
/// axes, odd and even K, K = 0, K around the four-step loop and its remainders.
pub fn shapes(t: usize) -> Vec<(usize, usize, usize)> {
    vec![
        (1, 1, 1),
        (3, 5, 0),
        (t - 1, t + 1, 3),
        (t, t, 2),
        (t + 1, 2 * t + 1, 5),
        (2 * t + 1, t - 1, 4),
        (1, 2 * t + 1, 33),
        // K around the four-step loop and its two- and one-step remainders (for `kr` = 2
        // as for `kr` = 1), with 1-3 rows after the four-row stores.
        (t - 2, 3, 6),
        (2, t + 3, 7),
        (t + 2, 2, 8),
        (3, t, 9),
        (t - 3, 4, 15),
        (5, 3, 16),
        (2, 2, 17),
    ]
}

/// Each shape (alternating the RHS packers) with no clamp, a biting one and inverted bounds.
pub fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let mut cases = 0;
    for (seed, shape) in shapes(tile()).into_iter().enumerate() {
        let p = Problem::new(k, shape, seed, Values::Normal, 300 + seed as u64);
        let clamps = tester::clamps::<Sme>(k, &p);
        for &clamp in Depth::of(k).clamps(&clamps).iter().chain(&[(0.3, -0.3)]) {
            let expect = Sme::expected(k, &p, clamp);
            cases += tester::check_problem::<Sme>(Depth::of(k), k, &p, clamp, &expect, &[which]);
        }
    }
    cases
}

/// No clamp: both bounds infinite.
pub const NO_CLAMP: (f32, f32) = (f32::NEG_INFINITY, f32::INFINITY);

/// The clamps of the hostile-value tests: none, huge, biting, inverted.
pub const HOSTILE_CLAMPS: [(f32, f32); 4] = [NO_CLAMP, (-1e30, 1e30), (-0.5, 2.0), (0.3, -0.3)];

/// Every implementation of `family`'s kernels (each portable path, then each exported symbol
/// this CPU runs) on each of the problems `problems` builds for the kernel, under each of
/// `clamps`, checked by the generic tester at [`Depth::of`] the kernel; returns the cases.
pub fn check_implementations(
    family: Family,
    clamps: &[(f32, f32)],
    problems: impl Fn(&'static MatmulKernel) -> Vec<Problem>,
) -> usize {
    let mut cases = 0;
    for (k, which) in implementations(family) {
        for p in problems(k) {
            for &clamp in clamps {
                let expect = Sme::expected(k, &p, clamp);
                cases +=
                    tester::check_problem::<Sme>(Depth::of(k), k, &p, clamp, &expect, &[which]);
            }
        }
    }
    cases
}

/// The first `count` (up to three) hostile problems of `kernel`: special values in the LHS, the
/// RHS and the bias, in shapes around the tile, the RHS packers alternating.
pub fn hostile_problems(kernel: &MatmulKernel, count: usize) -> Vec<Problem> {
    let t = tile();
    let shapes = [(t + 1, t + 3, 7), (3, 2 * t, 16), (2 * t, 5, 33)];
    let problem =
        |(seed, shape)| Problem::new(kernel, shape, seed, Values::Hostile, 900 + seed as u64);
    shapes
        .into_iter()
        .enumerate()
        .take(count)
        .map(problem)
        .collect()
}

/// Hostile values in the LHS, the RHS and the bias, under four clamps (none, huge, biting,
/// inverted): every result equals the model bit for bit, NaNs included. Where not every case
/// runs ([`tester::every_case_here`]), the first shape only.
pub fn hostile_values_follow_the_model(family: Family) -> usize {
    check_implementations(family, &HOSTILE_CLAMPS, |k| {
        let count = if tester::every_case_here(k) { 3 } else { 1 };
        hostile_problems(k, count)
    })
}

/// The wide-value problem of `kernel`: values over a wide exponent range (every step rounds).
pub fn wide_problem(kernel: &MatmulKernel) -> Problem {
    let t = tile();
    Problem::new(kernel, (t + 3, t + 1, 64), 1, Values::Wide, 1700)
}

/// Values over a wide exponent range (every step rounds), whose results the model tells apart
/// from a plain left-to-right sum of the products (of the values widened by `widen`; checked on
/// the SME kernel's problem): the rounding of each step is the model's.
pub fn wide_values_round_as_the_model(family: Family, widen: impl Fn(u32) -> f32) -> usize {
    let p = wide_problem(kernel_ending(family, "_sme_mopa"));
    assert!(plain_sums_differ(&p, widen), "wide values too tame");
    check_implementations(family, &[NO_CLAMP], |k| vec![wide_problem(k)])
}

/// The bias problems of `kernel`: a `-0`, a signalling and a quiet NaN and a subnormal bias,
/// with row 0 times column 0 `-0` at every K (`+0` times `-1.5`); then the same with K = 0.
/// Asserts that the model gives `+0` for the first element (a `-0` bias enters ZA as `+0`).
pub fn bias_problems(kernel: &MatmulKernel) -> Vec<Problem> {
    let t = tile();
    let mut p = Problem::new(kernel, (2, t + 1, 3), 0, Values::Normal, 4);
    let f32s = source_values(p.values) == Output::F32;
    let specials: [u32; 4] = if f32s {
        [0x8000_0000, 0x7f80_0001, 0xffc0_1234, 0x0000_0003]
    } else {
        [0x8000, 0x7c01, 0xfe34, 0x0003]
    };
    for (j, b) in p.bias.iter_mut().enumerate() {
        *b = specials[j % 4];
    }
    let minus = if f32s {
        (-1.5f32).to_bits()
    } else {
        u32::from(f16::from_f32(-1.5))
    };
    for kk in 0..p.k {
        p.lhs[kk] = 0;
        p.rhs[kk * p.n] = minus;
    }
    let expect = Sme::expected(kernel, &p, NO_CLAMP);
    assert_eq!(expect[0].to_bits(), 0, "-0 bias and -0 products give +0");
    let zero_k = Problem {
        k: 0,
        lhs: vec![],
        rhs: vec![],
        ..p.clone()
    };
    vec![p, zero_k]
}

/// The K = 0 result of element 3 of the bias problems (the subnormal bias) under the model.
pub fn zero_k_subnormal(kernel: &MatmulKernel, problems: &[Problem]) -> f32 {
    Sme::expected(kernel, &problems[1], NO_CLAMP)[3]
}

/// A `-0` bias becomes `+0` in ZA (an outer product into zeros) and stays so when every product
/// is `-0`; a NaN bias becomes the default NaN; K = 0 stores the clamped bias (subnormals kept).
pub fn bias_enters_through_an_outer_product(family: Family) -> usize {
    check_implementations(family, &[NO_CLAMP], |k| {
        let problems = bias_problems(k);
        let y = zero_k_subnormal(k, &problems);
        assert!(y != 0.0 && y.abs() < 1e-6, "k = 0 keeps a subnormal bias");
        problems
    })
}

/// Neither kernel asserts `dst_stride_col`: any value gives the same results.
pub fn dst_stride_col_is_ignored(family: Family) -> usize {
    let mut calls = 0;
    for k in runnable(family) {
        let p = Problem::normal(k, (3, 5, 4), 11);
        let (lhs, rhs) = Sme::pack(k, &p, Edge::End);
        let es = p.vb();
        let mut dst = vec![0u8; 15 * es];
        let expect: Vec<u32> = p
            .results(k, (-1.0, 1.0))
            .iter()
            .map(|&v| tester::output_bits(k, v))
            .collect();
        // SAFETY: operands packed for p; dst holds 3 rows of 5 values.
        unsafe {
            sym::<MatmulFn>("run", k.stem)(
                3,
                5,
                4,
                lhs.ptr().cast(),
                rhs.ptr().cast(),
                dst.as_mut_ptr().cast(),
                5 * es,
                7,
                -1.0,
                1.0,
            )
        };
        let got: Vec<u32> = dst
            .chunks(es)
            .map(|c| match es {
                4 => u32::from_le_bytes(c.try_into().unwrap()),
                _ => u32::from(u16::from_le_bytes(c.try_into().unwrap())),
            })
            .collect();
        assert_eq!(got, expect, "{}", k.stem);
        calls += 1;
    }
    calls
}

/// The `#[test]` functions the f32 and f16 packed-float families share, for `family` (its
/// kernels `..._sme_mopa` and `..._sme2_mopa`, its LHS packer and K x N RHS packer): the getters
/// against KleidiAI's formulas (the offsets equal the packers'), the reference, thread and
/// register tests, hostile values, the bias through an outer product, the ignored
/// `dst_stride_col`, a caller's lazy ZA save and the contract violations (`dst_type` is the C
/// type of the destination named in the `dst_stride_row` assertion; `what` the death tests'
/// description). The files keep the tests of their own numerics.
#[macro_export]
macro_rules! packed_float_tests {
    (family: $family:expr, dst_type: $dst_type:literal, what: $what:literal $(,)?) => {
        /// The family's `..._sme_mopa` kernel.
        fn sme() -> &'static str {
            $crate::support::packed_float::kernel_ending($family, "_sme_mopa").stem
        }

        /// The family's `..._sme2_mopa` kernel.
        fn sme2() -> &'static str {
            $crate::support::packed_float::kernel_ending($family, "_sme2_mopa").stem
        }

        #[test]
        fn kernel_getters_equal_kleidiai_values() {
            use $crate::support::cabi::func as sym;
            use $crate::support::cabi::{Getter2, Getter3, Getter5};
            use $crate::support::packed_float as pf;
            assert_eq!(pf::kernels($family).count(), 2);
            use $crate::support::tester::getters_equal_kleidiai_values;
            let checked = getters_equal_kleidiai_values(pf::kernels($family));
            let sme = pf::kernel_ending($family, "_sme_mopa");
            let (lhs_packer, kxn) = (sme.lhs_packers[0].name, pf::kxn_packer(sme));
            let t = pf::tile();
            // Bytes per value, and values per K step (a pair of halves, or one f32).
            let vb = pf::values($family).size();
            let kr = 4 / vb;
            for k in pf::kernels($family) {
                for kk in [0usize, 1, 2, 3, 64, 77] {
                    let kp = kk.div_ceil(kr) * kr;
                    let lhs = 2 * t * kp * vb;
                    let rhs = 3 * t * (vb + kp * vb);
                    assert_eq!(
                        sym::<Getter2>("get_lhs_packed_offset", k.stem)(2 * t, kk),
                        lhs
                    );
                    assert_eq!(
                        sym::<Getter2>("get_rhs_packed_offset", k.stem)(3 * t, kk),
                        rhs
                    );
                    // The kernel's offsets are the packers'.
                    let packer =
                        sym::<Getter5>("get_lhs_packed_offset", lhs_packer)(2 * t, kk, t, kr, 1);
                    assert_eq!(packer, lhs);
                    assert_eq!(sym::<Getter2>("get_rhs_packed_offset", kxn)(3 * t, kk), rhs);
                }
                assert_eq!(
                    sym::<Getter3>("get_dst_offset", k.stem)(t, 2 * t, 1000),
                    t * 1000 + 2 * t * vb
                );
                assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(5, 7), 35 * vb);
            }
            eprintln!("{checked} measured tile rows checked");
        }

        $crate::reference_tests!(
            runnable: $crate::support::packed_float::runnable($family),
            all: $crate::support::packed_float::kernels($family),
            check: $crate::support::packed_float::check_kernel,
            family: $crate::support::packed_float::Sme,
            threads: |k, (m, n)| $crate::support::packed_float::Problem::normal(k, (m, n, 7), 77),
            registers: |k| {
                use $crate::support::packed_float::{Problem, tile};
                let t = tile();
                [(1, 1, 1), (t + 1, 2 * t + 3, 9)].map(|s| Problem::normal(k, s, 5)).into()
            },
        );

        #[test]
        fn non_finite_values_follow_the_model() {
            eprintln!(
                "RELIABILITY hostile {}",
                $crate::support::packed_float::hostile_values_follow_the_model($family)
            );
        }

        #[test]
        fn bias_enters_through_fmopa() {
            use $crate::support::packed_float::bias_enters_through_an_outer_product;
            let cases = bias_enters_through_an_outer_product($family);
            assert!(cases > 0);
            eprintln!("RELIABILITY hostile {cases}");
        }

        #[test]
        fn dst_stride_col_is_ignored() {
            eprintln!(
                "{} calls",
                $crate::support::packed_float::dst_stride_col_is_ignored($family)
            );
        }

        #[cfg(target_arch = "aarch64")]
        #[test]
        fn lazy_za_saves_are_committed() {
            use $crate::support::packed_float::{self as pf, Problem, Sme, tile};
            let ran = $crate::support::tester::lazy_za_saves_committed::<Sme>(
                &pf::runnable($family),
                |k| Problem::normal(k, (tile() + 1, tile() + 2, 5), 8),
            );
            eprintln!("RELIABILITY lazy_za {}", ran.unwrap_or(0));
        }

        type Case = $crate::support::death::Case<String, &'static str>;

        /// The kernels' contract violations (the packers' are their own test files').
        fn cases() -> Vec<Case> {
            use $crate::support::gemm::run_call;
            use $crate::support::packed_float::values;
            let mut cases: Vec<Case> = vec![
                $crate::run_case!("dst_stride_row",
                    concat!("dst_stride_row >= n * sizeof(", $dst_type, ")")
                    // Two bytes short of a row of n = 8 values.
                    => run_call(sme(), 8 * values($family).size() - 2, 4, 0)),
                $crate::run_case!("null_lhs", "lhs_packed != NULL" => run_call(sme2(), 64, 4, 1)),
                $crate::run_case!("null_rhs", "rhs_packed != NULL" => run_call(sme(), 64, 4, 2)),
                $crate::run_case!("null_dst", "dst != NULL" => run_call(sme2(), 64, 4, 3)),
            ];
            cases.extend($crate::sme_kernel_getter_cases!(sme(), sme2()));
            cases
        }

        $crate::death_tests!(cases, $what, "contract");
    };
}

/// The getter assertions of the SME kernels `sme` and `sme2` (with 2 x SVL32 tiles: the f32, f16
/// and bf16 families), one kernel each, as an array of death-test cases.
#[macro_export]
macro_rules! sme_kernel_getter_cases {
    ($sme:expr, $sme2:expr) => {{
        use $crate::support::cabi::{Getter2, Getter3};
        use $crate::support::packed_float::tile;
        [
            $crate::getter_case!("lhs_offset", "m_idx % kai_mr == 0"
                => get_lhs_packed_offset::<Getter2>($sme)(tile() + 1, 64)),
            $crate::getter_case!("rhs_offset", "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter2>($sme2)(tile() / 2, 64)),
            $crate::getter_case!("dst_offset_m", "(m_idx % m_step) == 0"
                => get_dst_offset::<Getter3>($sme2)(1, 0, 64)),
            $crate::getter_case!("dst_offset_n", "(n_idx % n_step) == 0"
                => get_dst_offset::<Getter3>($sme)(0, 3, 64)),
        ]
    }};
}
