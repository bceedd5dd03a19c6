//! The asymmetric int4 families (`matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p`) and their packers,
//! through the exported C symbols, against the scalar reference: getters and packed sizes equal
//! KleidiAI 1.30's (measured tables), packed bytes equal the reference byte for byte (both LHS
//! packers, hostile values included, and the three RHS packers with and without bias, at the
//! NEON and the SME2 tiles), results equal it bit for bit (each kernel's own arithmetic: NEON or
//! SME2 weight form, clamp, first-block fold, f16 partial sums) on edge shapes, block lengths 32
//! to 288, clamps that bite, portions, guard-page placements, threads, and (on aarch64) with
//! callee-saved registers checked; contract violations abort with KleidiAI's condition.

use crate::support;

use rkai_ukernels::catalog::KERNELS;

use rkai_ukernels::family::Family;

use rkai_ukernels::kernel::MatmulKernel;

use rkai_ukernels::matmul::matmul_clamp_f32_qsi8d32p_qai4c32p as family;
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind};
use rkai_ukernels::pack::lhs_quant_pack_qsi8d32pscalef32::Variant as LhsVariant;
use rkai_ukernels::reference::qai4c32p::{self as reference, Rounding};
use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param as Params;
use support::block_gemm::{self, PARAMS, run_kernel, run_rows};
use support::block_lhs::{self, BlockLhsProblem, LhsCase};
use support::cabi::func as sym;
use support::cabi::{BlockLhsGetter, pack_qai4c32p_rhs};
use support::cabi::{Getter2, Getter5, MatmulBlockFn};
use support::gemm::Impl;
use support::guard::{Edge, Guarded};
use support::hostile;
use support::rng::Rng;
use support::tester::{self, Depth, PackedFamily};

const LHS_F32: &str = "lhs_quant_pack_qsi8d32pscalef32_f32_neon";
const LHS_F16: &str = "lhs_quant_pack_qsi8d32pscalef32_f16_neon";
const RHS: &str = "rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon";
const RHS_S0S1: &str = "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon";
const RHS_S1S0: &str = "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon";
/// Parameters the packers refuse: a zero point of 0 (signed source), an LHS zero point of 0.
const SIGNED_RHS: Params = Params {
    rhs_zero_point: 0,
    ..PARAMS
};
const LHS_ZERO_POINT_0: Params = Params {
    lhs_zero_point: 0,
    ..PARAMS
};

fn family_kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    KERNELS.iter().copied().filter(|k| {
        matches!(
            k.family,
            Family::F32Qsi8d32pQai4c32p | Family::F16Qsi8d32pQai4c32p
        )
    })
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(
        family_kernels(),
        |k| support::cpu::can_run(k.isa),
        "qai4c32p",
    )
}

fn lhs_variant(name: &str) -> LhsVariant {
    match rkai_ukernels::catalog::packer(name).map(|p| p.kind) {
        Some(PackerKind::Lhs(LhsPackerKind::Qsi8d32pscalef32(v))) => v,
        _ => panic!("{name} is not a qsi8d32pscalef32 LHS packer"),
    }
}

/// Bytes per output element of `k`.
fn out_size(k: &MatmulKernel) -> usize {
    k.family.output().size()
}

#[test]
fn getters_equal_kleidiai_values() {
    assert_eq!(tester::getters_equal_kleidiai_values(family_kernels()), 12);
}

#[test]
fn packed_sizes_and_offsets_equal_kleidiai_values() {
    let checked = tester::packed_sizes_equal_measured(family_kernels(), |r| {
        assert_eq!(r.lhs_packer, r.kernel.lhs_packers[0].name);
        assert_eq!(r.rhs_packer, r.kernel.rhs_packers[0].name);
        block_lhs::measured_sizes(r).0
    });
    assert_eq!(checked, 8 * 3, "measured rows checked");
}

#[test]
fn packer_step_and_offset_getters() {
    for name in [LHS_F32, LHS_F16] {
        assert_eq!(sym::<Getter2>("get_lhs_offset", name)(5, 400), 2000);
        for mr in [1, 4] {
            assert_eq!(
                sym::<extern "C" fn(usize) -> usize>("get_m_step", name)(mr),
                mr
            );
        }
        let size = sym::<BlockLhsGetter>("get_lhs_packed_size", name)(9, 256, 64, 4, 8, 2);
        assert_eq!(size, 3 * 4 * 4 * (64 + 8), "{name}");
    }
    for name in [RHS, RHS_S0S1, RHS_S1S0] {
        assert_eq!(sym::<Getter2>("get_rhs_offset", name)(3, 72), 216);
        let size = sym::<Getter5>("get_rhs_packed_size", name)(17, 256, 8, 8, 64);
        assert_eq!(size, 3 * 8 * (4 * (32 + 8) + 4), "{name}");
        assert_eq!(
            sym::<Getter5>("get_rhs_packed_offset", name)(16, 256, 8, 8, 64),
            2 * 8 * (4 * (32 + 8) + 4)
        );
    }
}

/// A test problem: activations (f32, or f16 bits for the f16 packer), unsigned int4 weights with
/// f32 scales and zero offsets per block, optional bias.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    lhs: Vec<f32>,
    u: Vec<u8>,
    rs: Vec<f32>,
    rz: Vec<f32>,
    bias: Option<Vec<f32>>,
}

impl Problem {
    fn new(m: usize, n: usize, k: usize, bl: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut lhs = block_gemm::activations(&mut rng, m, k, bl);
        // Values exact in f16, so the f16 packer sees the same numbers.
        for v in &mut lhs {
            *v = half::f16::from_f32(*v).to_f32();
        }
        let blocks = k / bl;
        let u = (0..n * k).map(|_| rng.range_i32(0, 15) as u8).collect();
        let rs = (0..n * blocks).map(|_| rng.f32(0.001, 0.1)).collect();
        let rz = (0..n * blocks).map(|_| rng.f32(-0.8, 0.8)).collect();
        let bias = (seed % 2 == 0).then(|| rng.vec_f32(n, -2.0, 2.0));
        Problem {
            m,
            n,
            k,
            bl,
            lhs,
            u,
            rs,
            rz,
            bias,
        }
    }

    fn blocks(&self) -> usize {
        self.k / self.bl
    }

    /// Quantized activations with `packer`'s arithmetic: (values, scales, sums).
    fn quantized(&self, packer: &str) -> (Vec<i8>, Vec<f32>, Vec<f32>) {
        let (lanes, rounding) = match lhs_variant(packer) {
            LhsVariant::F32 => (4, Rounding::Even),
            LhsVariant::F16 => (8, Rounding::Away),
        };
        let nb = self.blocks();
        let mut q = vec![0i8; self.m * self.k];
        let mut s = vec![0f32; self.m * nb];
        let mut sum = vec![0f32; self.m * nb];
        let rows = self
            .lhs
            .chunks_exact(self.k)
            .zip(q.chunks_exact_mut(self.k));
        let blocks = s.chunks_exact_mut(nb).zip(sum.chunks_exact_mut(nb));
        for ((lhs, q), (s, sum)) in rows.zip(blocks) {
            reference::quantize_row(lhs, self.bl, lanes, rounding, q, s, sum);
        }
        (q, s, sum)
    }
}

impl BlockLhsProblem for Problem {
    fn lhs_shape(&self) -> (usize, usize, usize) {
        (self.m, self.k, self.bl)
    }

    /// f32 or f16 rows, as `packer` reads them.
    fn lhs_source(&self, packer: &str) -> Vec<u8> {
        match lhs_variant(packer) {
            LhsVariant::F32 => self.lhs.iter().flat_map(|v| v.to_le_bytes()).collect(),
            LhsVariant::F16 => self
                .lhs
                .iter()
                .flat_map(|v| half::f16::from_f32(*v).to_bits().to_le_bytes())
                .collect(),
        }
    }

    fn lhs_row_bytes(&self, packer: &str) -> usize {
        match lhs_variant(packer) {
            LhsVariant::F32 => 4 * self.k,
            LhsVariant::F16 => 2 * self.k,
        }
    }

    fn expected_lhs(&self, (name, mr, kr, sr): LhsCase, size: usize, fill: u8) -> Vec<u8> {
        let (q, s, sum) = self.quantized(name);
        let mut out = vec![fill; size];
        reference::pack_lhs(self.m, self.k, self.bl, mr, kr / sr, &q, &s, &sum, &mut out);
        out
    }

    fn activations_mut(&mut self) -> &mut [f32] {
        &mut self.lhs
    }
}

/// Packs `p`'s weights with RHS packer `name`; the buffer starts filled with `fill`.
fn pack_rhs(p: &Problem, name: &str, nr: usize, kr: usize, edge: Edge, fill: u8) -> Guarded {
    let size = sym::<Getter5>("get_rhs_packed_size", name)(p.n, p.k, nr, kr, p.bl);
    let mut src_bytes = vec![0u8; p.n * p.k / 2];
    reference::source(&p.u, name != RHS_S1S0, &mut src_bytes);
    let src = Guarded::from_bytes(&src_bytes, edge);
    let zero = Guarded::from_f32(&p.rz, edge);
    let scale = Guarded::from_f32(&p.rs, edge);
    let bias = p.bias.as_ref().map(|b| Guarded::from_f32(b, edge));
    let mut packed = Guarded::from_bytes(&vec![fill; size], edge);
    let bias = bias.as_ref().map_or(std::ptr::null(), |b| b.ptr().cast());
    let floats = (zero.ptr().cast(), bias, scale.ptr().cast());
    let (shape, tile, out) = ((p.n, p.k, p.bl), (nr, kr, 2), packed.mut_ptr().cast());
    // SAFETY: buffers sized from the getters and the shape.
    unsafe { pack_qai4c32p_rhs(name, shape, tile, src.ptr(), floats, out, &PARAMS) };
    packed
}

/// The RHS packer the test pairs with `k`: its first (the SME2 kernels read the `ps1s0nrx4`
/// form; both of its packers are compared byte for byte in `rhs_packers_match_reference_bytes`).
fn rhs_packer(k: &MatmulKernel) -> &'static str {
    k.rhs_packers[0].name
}

fn expected_rhs(p: &Problem, name: &str, nr: usize, kr: usize, size: usize, fill: u8) -> Vec<u8> {
    let mut out = vec![fill; size];
    let bias = p.bias.as_deref();
    if name == RHS {
        reference::pack_rhs(p.n, p.k, p.bl, nr, kr, &p.u, &p.rz, &p.rs, bias, &mut out);
    } else {
        reference::pack_rhs_ps1s0(p.n, p.k, p.bl, nr, &p.u, &p.rz, &p.rs, bias, &mut out);
    }
    out
}

/// Whether an LHS packer takes blocks of `bl` in `k` with `kr`.
fn lhs_packer_takes((_, _, kr, _): LhsCase, (k, bl): (usize, usize)) -> bool {
    k % kr == 0 && bl % kr == 0
}

/// Infinities, NaNs, signed zeros, the extremes of f16 and quantization ties (the reference
/// follows the packers' lane order, so the same NaN survives, and their rounding).
const SPECIAL: [f32; 10] = [
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -0.0,
    65504.0,
    -65504.0,
    6.0e-8,
    0.5,
    1.5,
    0.0,
];

// The LHS cases: every kernel's tile, the SME kernels' (mr = VL32), and other tiles the packers
// accept. Any split point on a group boundary works (the packers take m_idx_start and the group
// of that row).
block_lhs_tests!(
    kernels: family_kernels(),
    extra_cases: block_lhs::tiles_of(&[
        (LHS_F32, &[[8, 8, 2], [16, 16, 2], [2, 8, 1]]),
        (LHS_F16, &[[8, 8, 2], [3, 16, 1], [2, 4, 2]]),
    ]),
    takes: lhs_packer_takes,
    problem: |m, k, bl, seed| Problem::new(m, 1, k, bl, seed),
    special: SPECIAL,
    last_of_block: -f32::NAN,
    splits_at: |(_, mr, ..): LhsCase, split: usize, _| split % mr == 0,
    reliability: false,
);

#[test]
fn rhs_packers_match_reference_bytes() {
    let mut combos: Vec<(&str, usize, usize)> = family_kernels()
        .flat_map(|k| {
            k.rhs_packers
                .iter()
                .map(move |p| (p.name, k.tile().nr, k.tile().kr))
        })
        .collect();
    // SME2 tiles of the ps1s0nrx4 packers (nr = 4 x VL32 at 128 to 2048 bits, and the smallest
    // multiple of 4 they accept), and other shapes the NEON packer accepts.
    for name in [RHS_S0S1, RHS_S1S0] {
        combos.extend([16, 32, 64, 128, 256, 4].map(|nr| (name, nr, 8)));
    }
    combos.extend([(RHS, 16, 8), (RHS, 3, 4), (RHS, 8, 2), (RHS, 8, 32)]);
    let cases = block_gemm::rhs_packings_equal_reference(
        combos,
        |(name, _, kr), bl| bl % kr == 0 && !(name == RHS && kr > 16),
        // Seeds alternate bias and no bias.
        |n, k, bl, seed| Problem::new(1, n, k, bl, seed),
        pack_rhs,
        expected_rhs,
    );
    eprintln!("RHS packer byte comparisons: {cases}");
}

/// Shapes (m, n, k, bl) of the kernel tests: KleidiAI's own, block lengths 32 to 288, one and
/// several blocks, and row and column tails of every tile.
#[rustfmt::skip]
const SHAPES: [(usize, usize, usize, usize); 20] = [
    (1, 2, 32, 32), (1, 40, 32, 32), (1, 33, 64, 32), (1, 71, 64, 32), (15, 32, 32, 32),
    (32, 64, 64, 32), (16, 32, 64, 64), (8, 32, 64, 32), (77, 99, 64, 32), (1, 1, 32, 32),
    (3, 7, 96, 32), (9, 17, 128, 64), (2, 8, 512, 256), (17, 9, 256, 128), (6, 12, 192, 96),
    (5, 13, 288, 96), (11, 6, 96, 32), (10, 4, 256, 256), (1, 225, 64, 32), (4, 5, 32, 32),
];

/// The asymmetric int4 families for the generic tester: each kernel's first LHS packer and
/// [`RHS`].
struct Asymmetric;

impl PackedFamily for Asymmetric {
    type Problem = Problem;

    fn shape(p: &Problem) -> (usize, usize, usize, usize) {
        (p.m, p.n, p.k, p.bl)
    }

    fn pack(k: &MatmulKernel, p: &Problem, edge: Edge) -> (Guarded, Guarded) {
        let t = k.tile();
        let lhs = block_lhs::pack(p, (k.lhs_packers[0].name, t.mr, t.kr, t.sr), edge, 0);
        (lhs, pack_rhs(p, rhs_packer(k), t.nr, t.kr, edge, 0))
    }

    fn expected(k: &MatmulKernel, p: &Problem, clamp: (f32, f32)) -> Vec<f32> {
        expected_dst(p, k, clamp)
    }
}

/// Reference results of `k` (m x n, f32 before any narrowing) for `p`, with activations quantized
/// by its LHS packer.
fn expected_dst(p: &Problem, k: &MatmulKernel, clamp: (f32, f32)) -> Vec<f32> {
    let (lq, ls, lsum) = p.quantized(k.lhs_packers[0].name);
    let mut dst = vec![0.0f32; p.m * p.n];
    reference::matmul(
        family::arithmetic(k),
        p.m,
        p.n,
        p.k,
        p.bl,
        &lq,
        &ls,
        &lsum,
        &p.u,
        &p.rs,
        &p.rz,
        p.bias.as_deref(),
        clamp,
        &mut dst,
    );
    dst
}

fn check_kernel(k: &MatmulKernel, implementations: &[Impl]) -> usize {
    let problems = SHAPES
        .iter()
        .enumerate()
        .map(|(seed, &(m, n, kk, bl))| Problem::new(m, n, kk, bl, 100 + seed as u64));
    tester::check_kernel::<Asymmetric>(k, problems, implementations)
}

#[test]
fn exported_kernels_match_reference() {
    let total = tester::count_cases(runnable(), "", |k| check_kernel(k, &[Impl::Exported]));
    eprintln!("exported kernel cases: {total}");
}

#[test]
fn portable_kernels_match_reference() {
    tester::count_cases(family_kernels(), " (portable)", |k| {
        check_kernel(k, &[Impl::Portable])
    });
}

/// The shared hostile scenarios, then infinite and NaN zero offsets.
fn hostile_scenarios() -> impl Iterator<Item = &'static str> {
    hostile::SCENARIOS
        .into_iter()
        .chain(["zero_inf", "zero_nan"])
}

fn make_hostile(p: &mut Problem, scenario: &str) {
    let every_third = |v: &mut Vec<f32>, x: f32| {
        v.iter_mut().skip(1).step_by(3).for_each(|s| *s = x);
    };
    let operands = hostile::Operands {
        lhs: &mut p.lhs,
        k: p.k,
        bias: &mut p.bias,
        n: p.n,
    };
    if hostile::apply(scenario, operands, |x| every_third(&mut p.rs, x)) {
        return;
    }
    match scenario {
        "zero_inf" => every_third(&mut p.rz, f32::NEG_INFINITY),
        "zero_nan" => every_third(&mut p.rz, f32::NAN),
        _ => unreachable!("unknown scenario {scenario}"),
    }
}

/// Runs `k` on every hostile scenario (two shapes, guard pages on both sides, every portion);
/// returns the number of cases. The f16 packer reads the values rounded to f16, which the
/// reference then uses for both packers.
fn check_hostile(k: &MatmulKernel, which: Impl) -> usize {
    let (lhs_packer, depth) = (k.lhs_packers[0].name, Depth::of(k));
    let mut cases = 0;
    for (seed, (m, n, kk, bl)) in [(5, 13, 64, 32), (1, 9, 96, 32), (9, 6, 128, 64)]
        .into_iter()
        .enumerate()
    {
        for scenario in hostile_scenarios() {
            let mut p = Problem::new(m, n, kk, bl, 900 + seed as u64);
            make_hostile(&mut p, scenario);
            if lhs_variant(lhs_packer) == LhsVariant::F16 {
                for v in &mut p.lhs {
                    *v = half::f16::from_f32(*v).to_f32();
                }
            }
            let clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let expect = expected_dst(&p, k, clamp);
            cases += tester::check_problem::<Asymmetric>(depth, k, &p, clamp, &expect, &[which]);
        }
    }
    cases
}

#[test]
fn hostile_data_matches_reference() {
    hostile::check_exported_and_portable(runnable(), family_kernels(), check_hostile);
}

/// Frameworks run disjoint m_step x n_step portions of one call on many threads, sharing the
/// packed operands: the result must equal one single-threaded call byte for byte.
#[test]
fn threads_on_disjoint_portions_equal_one_call() {
    tester::threads_equal_one_call_on::<Asymmetric>(&runnable(), |_, (m, n)| {
        Problem::new(m, n, 192, 64, 78)
    });
}

/// Empty portions write nothing: `m == 0` returns early (except on the one-row kernels, whose
/// `m == 1` assertion KleidiAI checks first: see the death tests), and so does `n == 0`.
#[test]
fn empty_portions_write_nothing() {
    let mut checked = 0;
    for k in family_kernels() {
        let t = k.tile();
        let p = Problem::new(t.m_step.max(2), 8, 64, 32, 11);
        let lhs = block_lhs::pack(&p, (k.lhs_packers[0].name, t.mr, t.kr, t.sr), Edge::End, 0);
        let rhs = pack_rhs(&p, rhs_packer(k), t.nr, t.kr, Edge::End, 0);
        let mut shapes = vec![(1, 0)];
        if !family::one_row(k) {
            shapes.push((0, 8));
        }
        for (m, n) in shapes {
            let mut dst = vec![0x5au8; 4 * 8 * 8];
            // SAFETY: packed operands of a larger problem; an empty portion reads nothing.
            unsafe {
                sym::<MatmulBlockFn>("run", k.stem)(
                    m,
                    n,
                    p.k,
                    p.bl,
                    lhs.ptr().cast(),
                    rhs.ptr().cast(),
                    dst.as_mut_ptr().cast(),
                    4 * 8,
                    out_size(k),
                    -1.0,
                    1.0,
                )
            };
            assert!(dst.iter().all(|&b| b == 0x5a), "{} m={m} n={n}", k.stem);
            checked += 1;
        }
    }
    eprintln!("{checked} empty portions checked");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn callee_saved_registers_survive() {
    tester::registers_survive_on::<Asymmetric>(&runnable(), |k| {
        let shapes = [(1, 8, 32, 32), (9, 17, 128, 64), (16, 32, 64, 32)];
        let rows = |m| if family::one_row(k) { 1 } else { m };
        let problem = |(m, n, kk, bl)| Problem::new(rows(m), n, kk, bl, 5);
        shapes.map(problem).into()
    });
}

/// The SME kernels commit a caller's pending lazy ZA save before using ZA
/// ([`tester::lazy_za_saves_committed`]).
#[cfg(target_arch = "aarch64")]
#[test]
fn streaming_kernels_commit_a_pending_lazy_za_save() {
    let ran = tester::lazy_za_saves_committed::<Asymmetric>(&runnable(), |k| {
        let m = if family::one_row(k) { 1 } else { 3 };
        Problem::new(m, k.tile().n_step + 1, 128, 64, 77)
    });
    if let Some(kernels) = ran {
        let sme2 = support::cpu::can_run(rkai_ukernels::arch::Isa::Sme2);
        assert_eq!(kernels > 0, sme2, "SME2 kernels run where SME2 is");
    }
}

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random shapes and data: packed bytes and results equal the reference.
        #[test]
        fn random_problems_match_reference(m in 1usize..24, n in 1usize..40, (bl, kk) in block_gemm::random_block_k(), seed in any::<u64>()) {
            for k in runnable() {
                let t = k.tile();
                let p = Problem::new(m, n, kk, bl, seed);
                let name = k.lhs_packers[0].name;
                let lhs_case = (name, t.mr, t.kr, t.sr);
                let lhs = block_lhs::pack_checked(&p, lhs_case);
                let rhs = pack_rhs(&p, rhs_packer(k), t.nr, t.kr, Edge::End, 0);
                let expect_rhs = expected_rhs(&p, rhs_packer(k), t.nr, t.kr, rhs.bytes().len(), 0);
                prop_assert_eq!(rhs.bytes(), &expect_rhs[..]);
                let clamp = (-2.0, 2.5);
                let expect = expected_dst(&p, k, clamp);
                tester::check_portion::<Asymmetric>(k, Impl::Exported, &p, (&lhs, &rhs), (0, 0, m, n), clamp, &expect, Edge::End);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each aborts with `rkai: <function>: assertion failed: <condition>`.

const GEMV: &str = "matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod";
const GEMV_F16: &str = "matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod";
const GEMV_1X4: &str = "matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod";
const GEMV_F16_SME2: &str = "matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot";

fn run_rhs(name: &str, kr: usize, bl: usize, null_zero: bool, params: Params) {
    run_rhs_nr(name, 8, kr, bl, null_zero, params)
}

fn run_rhs_nr(name: &str, nr: usize, kr: usize, bl: usize, null_zero: bool, params: Params) {
    let src = vec![0u8; 8 * 64];
    let f = [0f32; 64];
    let mut out = vec![0u8; 8192];
    let zero = if null_zero {
        std::ptr::null()
    } else {
        f.as_ptr().cast()
    };
    let floats = (zero, std::ptr::null(), f.as_ptr().cast());
    let (shape, tile, out) = ((8, 64, bl), (nr, kr, 2), out.as_mut_ptr().cast());
    // SAFETY: expected to abort before touching memory.
    unsafe { pack_qai4c32p_rhs(name, shape, tile, src.as_ptr(), floats, out, &params) }
}

/// One violation: (case name, symbol, condition, action).
type Case = (&'static str, String, &'static str, fn());

fn cases() -> Vec<Case> {
    use support::block_gemm::run_lhs;
    let gemv: Vec<Case> = block_gemv_cases!(GEMV);
    let own: Vec<Case> = vec![
        run_case!("f16_dst_stride_col", "dst_stride_col == sizeof(uint16_t)"
            => run_kernel(GEMV_F16, 64, 32, 4, false)),
        // KleidiAI's f32 GEMVs assert one row, ahead of their early return for m == 0.
        run_case!("gemv_two_rows", "m == 1" => run_rows(GEMV, 2, 64, 32, 4, false)),
        run_case!("gemv_1x4_no_rows", "m == 1" => run_rows(GEMV_1X4, 0, 64, 32, 4, false)),
        // The SME2 f16 GEMV asserts one row too (the NEON f16 GEMVs take any m).
        run_case!("sme2_f16_gemv_two_rows", "m == 1"
            => run_rows(GEMV_F16_SME2, 2, 64, 32, 2, false)),
        // Checked in the order of KleidiAI's wrapper: the block length before the row count.
        run_case!("gemv_two_rows_bad_bl", "(bl % 32) == 0" => run_rows(GEMV, 2, 96, 48, 4, false)),
        run_case!("lhs_k_not_multiple_of_bl", "(k % bl) == 0"
            => run_lhs(LHS_F32, 2, 48, 1, 8, 2, 0)),
        run_case!("lhs_bl_kr", "(bl % kr) == 0" => run_lhs(LHS_F32, 2, 32, 1, 24, 2, 0)),
        run_case!("lhs_bl_32", "(bl % kai_bl_multiple_of) == 0"
            => run_lhs(LHS_F16, 2, 16, 1, 8, 2, 0)),
        run_case!("lhs_block_depth", "((kr / sr) == 8) || ((kr / sr) == 4)"
            => run_lhs(LHS_F32, 2, 32, 1, 16, 1, 0)),
        getter_case!("lhs_size_k_odd", "(k % 2) == 0"
            => get_lhs_packed_size::<BlockLhsGetter>(LHS_F32)(1, 33, 33, 1, 1, 1)),
        getter_case!("lhs_offset_m_idx", "(m_idx % mr) == 0"
            => get_lhs_packed_offset::<BlockLhsGetter>(LHS_F32)(3, 64, 32, 4, 8, 2)),
        run_case!("rhs_null_zero", "zero != NULL" => run_rhs(RHS, 8, 32, true, PARAMS)),
        run_case!("rhs_bl", "(bl % 32) == 0" => run_rhs(RHS, 8, 16, false, PARAMS)),
        run_case!("rhs_kr", "kr >= 1 && kr <= 16" => run_rhs(RHS, 32, 32, false, PARAMS)),
        run_case!("rhs_zero_point", "params->rhs_zero_point == 8"
            => run_rhs(RHS, 8, 32, false, SIGNED_RHS)),
        run_case!("rhs_lhs_zero_point", "params->lhs_zero_point == 1"
            => run_rhs(RHS, 8, 32, false, LHS_ZERO_POINT_0)),
        run_case!("ps1s0_kr", "kr / sr == 4" => run_rhs(RHS_S0S1, 16, 32, false, PARAMS)),
        run_case!("ps1s0_s1s0_kr", "kr / sr == 4" => run_rhs(RHS_S1S0, 4, 32, false, PARAMS)),
        run_case!("ps1s0_nr", "(nr % kai_nr_multiple_of) == 0"
            => run_rhs_nr(RHS_S0S1, 6, 8, 32, false, PARAMS)),
        getter_case!("rhs_size_kr", "(k % kr) == 0"
            => get_rhs_packed_size::<Getter5>(RHS)(4, 64, 4, 12, 32)),
    ];
    [gemv, own].concat()
}

death_tests!(cases, "contract violations");
