//! llama.cpp's Q8_0 x Q4_0 family (`matmul_clamp_f32_qsi8d32p_qsi4c32p`) and its packers, through
//! the exported C symbols, against the scalar reference: getters and packed sizes equal KleidiAI
//! 1.30's (measured tables), packed bytes equal the reference byte for byte (every LHS and RHS
//! packer, hostile values included), results equal it bit for bit on edge shapes, block lengths
//! 32 to 288, clamps that bite, portions, guard-page placements, threads, and (on aarch64) with
//! callee-saved registers checked. KleidiAI's 256-bit SVE kernels run where the vector is 256
//! bits and abort with their assertion elsewhere; selection never offers them there. The SME and
//! SME2 kernels read the formats of their own packers (block lengths up to 256) and finish as
//! their catalog `Epilogue` says, which the reference follows.

use crate::support;

use rkai_ukernels::arch;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::{Columns, MatmulKernel};
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::lhs_quant_pack_qsi8d32p::Variant as LhsVariant;
use rkai_ukernels::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::{
    PS1S0_MAX_BL, Variant as RhsVariant,
};
use rkai_ukernels::reference::qsi8d32p::{self as reference, Amax, Rounding};
use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param as Params;
use support::block_gemm::{self, PARAMS, Q4_0Problem, run_kernel};
use support::block_lhs::{self, BlockLhsProblem, LhsCase};
use support::cabi::func as sym;
use support::cabi::{BlockLhsGetter, pack_q4_0_rhs};
use support::cabi::{Getter2, Getter3, Getter4, Getter5};
use support::death;
use support::gemm::Impl;
use support::guard::{Edge, Guarded};
use support::tester::{self, PackedFamily};

const LHS: &str = "lhs_quant_pack_qsi8d32p_f32";
const LHS_NEON: &str = "lhs_quant_pack_qsi8d32p_f32_neon";
const LHS_4X8: &str = "lhs_quant_pack_qsi8d32p4x8sb_f32_neon";
const RHS: &str = "rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0";
const RHS_PS1S0: &str = "rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon";
const RHS_PS4S0: &str = "rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon";

/// The family's kernels; `RKAI_TEST_KERNEL=<substring>` narrows every test to the kernels whose
/// stem contains it (the vector-length runs of `scripts/test-all.sh`).
fn family_kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    tester::family_kernels(Family::F32Qsi8d32pQsi4c32p)
}

/// Whether this process runs `k`'s own implementation (aarch64: the ISA is present and, for the
/// 256-bit SVE kernels, the vector is 256 bits; elsewhere the portable path always runs).
fn runs_here(k: &MatmulKernel) -> bool {
    support::cpu::can_run(k.isa)
        && (!cfg!(target_arch = "aarch64") || k.runs_at_sve_lanes32(arch::sve_lanes32()))
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(family_kernels(), runs_here, "Q4_0")
}

fn lhs_variant(name: &str) -> LhsVariant {
    match rkai_ukernels::catalog::packer(name).map(|p| p.kind) {
        Some(PackerKind::Lhs(LhsPackerKind::Qsi8d32p(v))) => v,
        _ => panic!("{name} is not a qsi8d32p LHS packer"),
    }
}

fn rhs_variant(name: &str) -> RhsVariant {
    match rkai_ukernels::catalog::packer(name).map(|p| p.kind) {
        Some(PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(v))) => v,
        _ => panic!("{name} is not a Q4_0 RHS packer"),
    }
}

/// The arithmetic of an LHS packer (the 4x8sb one rounds to even and reduces in NEON order).
fn lhs_arithmetic(name: &str) -> (Amax, Rounding) {
    if lhs_variant(name) == LhsVariant::F32Neon4x8sb {
        (Amax::Lanes, Rounding::Even)
    } else {
        (Amax::Sequential, Rounding::Away)
    }
}

#[test]
fn getters_equal_kleidiai_values() {
    tester::getters_equal_kleidiai_values(family_kernels());
}

#[test]
fn packed_sizes_and_offsets_equal_kleidiai_values() {
    let checked = tester::packed_sizes_equal_measured(family_kernels(), |r| {
        let (sizes, rhs_offset) = block_lhs::measured_sizes(r);
        let t = r.kernel.tile();
        let stride = sym::<Getter4>("get_rhs_packed_stride", r.rhs_packer)(r.k, t.nr, t.kr, r.bl);
        assert_eq!(rhs_offset, stride);
        sizes
    });
    // 5 NEON kernels (the 16x4 i8mm one with both LHS packers) and 3 SVE kernels at 3 VLs (the
    // table has no SME rows).
    if std::env::var_os("RKAI_TEST_KERNEL").is_none() {
        assert_eq!(checked, 3 * (6 + 3 * 3), "measured rows checked");
    }
}

#[test]
fn packer_step_and_offset_getters() {
    assert_eq!(sym::<Getter2>("get_lhs_offset", LHS)(5, 400), 2000);
    for (name, mr) in [(LHS, 4), (LHS_NEON, 8), (LHS_4X8, 4)] {
        assert_eq!(
            sym::<extern "C" fn(usize) -> usize>("get_m_step", name)(mr),
            mr,
            "{name}: KleidiAI's m_step is mr"
        );
    }
    assert_eq!(sym::<Getter2>("get_rhs_offset", RHS)(3, 72), 216);
    assert_eq!(sym::<Getter2>("get_rhs_offset", RHS_PS1S0)(3, 72), 216);
    assert_eq!(sym::<Getter2>("get_rhs_offset", RHS_PS4S0)(3, 72), 216);
    // All RHS formats and all LHS formats of a shape have one size.
    for (name, kr) in [(RHS, 8), (RHS, 16), (RHS_PS1S0, 4), (RHS_PS4S0, 4)] {
        let stride = sym::<Getter4>("get_rhs_packed_stride", name)(256, 8, kr, 64);
        assert_eq!(stride, 8 * 4 * (32 + 2), "{name}");
        assert_eq!(
            sym::<Getter5>("get_rhs_packed_size", name)(17, 256, 8, kr, 64),
            3 * stride
        );
        assert_eq!(
            sym::<Getter5>("get_rhs_packed_offset", name)(16, 256, 8, kr, 64),
            2 * stride
        );
    }
    for (name, kr) in [(LHS, 8), (LHS_NEON, 4), (LHS_4X8, 16)] {
        let size = sym::<BlockLhsGetter>("get_lhs_packed_size", name)(9, 256, 64, 4, kr, 2);
        assert_eq!(size, 3 * 4 * 4 * (64 + 2), "{name}");
    }
}

/// A test problem: f32 activations, int4 weights with f16 block scales.
type Problem = Q4_0Problem;

/// [`block_gemm::activations`] (zero and tie rows; with them, products of the scales of either
/// sign are zeros of either sign) times Q4_0 weights.
fn problem(m: usize, n: usize, k: usize, bl: usize, seed: u64) -> Problem {
    Q4_0Problem::new((m, n, k, bl), seed, |rng, m, k| {
        block_gemm::activations(rng, m, k, bl)
    })
}

impl Problem {
    /// Quantized activations with `packer`'s arithmetic: (m x k values, m x blocks scales).
    fn quantized(&self, packer: &str) -> (Vec<i8>, Vec<u16>) {
        let (amax, rounding) = lhs_arithmetic(packer);
        let mut q = vec![0i8; self.m * self.k];
        let mut d = vec![0u16; self.m * self.blocks()];
        let rows = self
            .lhs
            .chunks_exact(self.k)
            .zip(q.chunks_exact_mut(self.k));
        for ((lhs, q), d) in rows.zip(d.chunks_exact_mut(self.blocks())) {
            reference::quantize_row(lhs, self.bl, amax, rounding, q, d);
        }
        (q, d)
    }
}

impl BlockLhsProblem for Problem {
    fn lhs_shape(&self) -> (usize, usize, usize) {
        (self.m, self.k, self.bl)
    }

    fn lhs_source(&self, _: &str) -> Vec<u8> {
        self.lhs.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn lhs_row_bytes(&self, _: &str) -> usize {
        4 * self.k
    }

    /// The scalar and 4x8sb packers offset the source by m_idx_start rows themselves; the _neon
    /// one ignores m_idx_start and needs the rows themselves (and a start on a group boundary).
    fn source_at_start_row(packer: &str) -> bool {
        lhs_variant(packer) == LhsVariant::F32Neon
    }

    fn expected_lhs(&self, (name, mr, kr, sr): LhsCase, size: usize, fill: u8) -> Vec<u8> {
        let (q, d) = self.quantized(name);
        let mut out = vec![fill; size];
        if lhs_variant(name) == LhsVariant::F32Neon {
            reference::pack_lhs_sme(self.m, self.k, self.bl, mr, &q, &d, &mut out);
        } else {
            reference::pack_lhs(self.m, self.k, self.bl, mr, kr / sr, &q, &d, &mut out);
        }
        out
    }

    fn activations_mut(&mut self) -> &mut [f32] {
        &mut self.lhs
    }
}

/// Packs `p`'s weights with RHS packer `name`; the buffer starts filled with `fill`.
fn pack_rhs(p: &Problem, name: &str, nr: usize, kr: usize, edge: Edge, fill: u8) -> Guarded {
    p.pack_rhs(name, (nr, kr, 2), edge, fill)
}

fn expected_rhs(p: &Problem, name: &str, nr: usize, kr: usize, size: usize, fill: u8) -> Vec<u8> {
    let mut out = vec![fill; size];
    match rhs_variant(name) {
        RhsVariant::Scalef16 => reference::pack_rhs(p.n, p.k, p.bl, nr, kr, &p.w, &p.wd, &mut out),
        RhsVariant::Ps1s0Scalef16Neon => {
            reference::pack_rhs_ps1s0(p.n, p.k, p.bl, nr, &p.w, &p.wd, &mut out)
        }
        RhsVariant::Ps4s0Sf16Neon => {
            reference::pack_rhs_ps4s0(p.n, p.k, p.bl, nr, &p.w, &p.wd, &mut out)
        }
    }
    out
}

/// Whether RHS packer `name` takes blocks of `bl` (the SME formats' packers at most 256).
fn rhs_packer_takes(name: &str, bl: usize) -> bool {
    rhs_variant(name) == RhsVariant::Scalef16 || bl <= PS1S0_MAX_BL
}

/// Whether LHS packer `name` takes blocks of `bl` in `k` with `kr` and `sr` (the 4x8sb one only
/// multiples of 32).
fn lhs_packer_takes((name, _, kr, sr): LhsCase, (k, bl): (usize, usize)) -> bool {
    k % kr == 0 && bl % (kr / sr) == 0 && (name != LHS_4X8 || bl % 32 == 0)
}

/// Infinities, NaNs (both signs, quiet and signalling), signed zeros, the extremes of f32 and
/// values whose quantization ties. Some blocks stay finite; the last position of a block
/// sometimes holds a NaN (the scalar max keeps it).
const SPECIAL: [u32; 12] = [
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_1234,
    0x7f80_0001,
    0x8000_0000,
    0x0000_0001,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x0080_0000,
    0x3f00_0000,
    0x0000_0000,
];

// The LHS cases: every kernel's tile, and the SME tiles for the `_neon` packer (mr = 1 and
// multiples of the streaming vector length). Row slices: the scalar packer takes any start row;
// the 4x8sb one a start on a group boundary when the slice holds a whole group, the _neon one a
// start on a group boundary.
block_lhs_tests!(
    kernels: family_kernels(),
    extra_cases: block_lhs::tiles_of(&[
        (LHS_NEON, &[[1, 4, 2], [4, 4, 2], [8, 4, 2], [16, 4, 2]]),
        (LHS, &[[2, 4, 1], [3, 12, 2]]),
    ]),
    takes: lhs_packer_takes,
    problem: |m, k, bl, seed| problem(m, 1, k, bl, seed),
    special: SPECIAL.map(f32::from_bits),
    last_of_block: f32::NAN,
    splits_at: |(name, mr, ..): LhsCase, split: usize, m: usize| {
        let aligned = split % mr == 0;
        match lhs_variant(name) {
            LhsVariant::F32Neon => aligned,
            LhsVariant::F32Neon4x8sb => aligned || m - split < mr,
            LhsVariant::F32 => true,
        }
    },
    reliability: true,
);

#[test]
fn rhs_packers_match_reference_bytes() {
    let mut combos: Vec<(&str, usize, usize)> = family_kernels()
        .map(|k| (k.rhs_packers[0].name, k.tile().nr, k.tile().kr))
        .collect();
    // SME2 tiles of the ps1s0 packer (nr = 4 x VL32 at 128 to 2048 bits), and other shapes the
    // scalar packer accepts.
    for name in [RHS_PS1S0, RHS_PS4S0] {
        combos.extend([(name, 16, 4), (name, 32, 4), (name, 64, 4), (name, 5, 4)]);
    }
    combos.extend([(RHS, 16, 8), (RHS, 3, 4), (RHS, 8, 2)]);
    // The SME formats' packers leave columns past n untouched: the fill must survive.
    let cases = block_gemm::rhs_packings_equal_reference(
        combos,
        |_, _| true,
        |n, k, bl, seed| problem(1, n, k, bl, seed),
        pack_rhs,
        expected_rhs,
    );
    eprintln!("RHS packer byte comparisons: {cases}");
    eprintln!("RELIABILITY bounds_packers {cases}");
}

/// When `bl` is not a multiple of `kr`, KleidiAI's scalar walk lets source and destination
/// drift (fewer segments per block than the layout has room for); rkai reproduces the bytes.
#[test]
fn scalar_rhs_packer_follows_kleidiai_walk_for_odd_segments() {
    // k must stay a multiple of kr (KleidiAI asserts it) while bl is not.
    for (k, kr) in [(480, 10), (672, 14), (96, 12)] {
        let p = problem(1, 5, k, 96, 3);
        let nr = 4;
        let packed = pack_rhs(&p, RHS, nr, kr, Edge::End, 0xee);
        let src = p.rhs_source();
        let mut expect = vec![0xeeu8; packed.bytes().len()];
        let src_stride = p.k / p.bl * (p.bl / 2 + 2);
        let stride = nr * src_stride;
        let seg = kr / 2;
        for g in 0..p.n.div_ceil(nr) {
            let mut at = g * stride;
            let mut s = 0;
            for _ in 0..p.blocks() {
                for i in 0..nr {
                    let row = (g * nr + i).min(p.n - 1) * src_stride;
                    expect[at + 2 * i..at + 2 * i + 2].copy_from_slice(&src[row + s..row + s + 2]);
                }
                s += 2;
                at += 2 * nr;
                for _ in 0..p.bl / kr {
                    for i in 0..nr {
                        let row = (g * nr + i).min(p.n - 1) * src_stride;
                        for t in 0..seg {
                            expect[at + i * seg + t] = src[row + s + t] ^ 0x88;
                        }
                    }
                    s += seg;
                    at += seg * nr;
                }
            }
        }
        assert_eq!(packed.bytes(), &expect[..], "k={k} kr={kr}");
    }
}

/// Shapes (m, n, k, bl) of the kernel tests: KleidiAI's own, every block length from 32 to 288,
/// one and several blocks, and row and column tails of every tile.
#[rustfmt::skip]
const SHAPES: [(usize, usize, usize, usize); 22] = [
    (1, 2, 32, 32), (1, 40, 32, 32), (1, 33, 32, 32), (1, 71, 64, 32), (15, 32, 32, 32),
    (32, 64, 64, 32), (16, 32, 64, 64), (8, 32, 64, 32), (77, 99, 64, 32), (1, 1, 32, 32),
    (3, 7, 96, 32), (9, 17, 128, 64), (2, 8, 512, 256), (17, 9, 256, 128), (6, 12, 192, 96),
    (7, 14, 64, 64), (5, 13, 288, 96), (11, 6, 96, 32), (10, 4, 256, 256), (125, 40, 128, 32),
    (1, 225, 64, 32), (4, 5, 32, 32),
];

/// One kernel case: a problem and the LHS packer it is packed with (the RHS packer is the
/// kernel's).
struct KernelCase {
    p: Problem,
    lhs_packer: &'static str,
}

/// The Q4_0 family for the generic tester: results compare bit for bit, NaNs included.
struct Q4_0;

impl PackedFamily for Q4_0 {
    type Problem = KernelCase;
    const ANY_NAN: bool = false;

    fn shape(c: &KernelCase) -> (usize, usize, usize, usize) {
        (c.p.m, c.p.n, c.p.k, c.p.bl)
    }

    fn pack(k: &MatmulKernel, c: &KernelCase, edge: Edge) -> (Guarded, Guarded) {
        let t = k.tile();
        let lhs = block_lhs::pack(&c.p, (c.lhs_packer, t.mr, t.kr, t.sr), edge, 0);
        let rhs = k.rhs_packers[0].name;
        (lhs, pack_rhs(&c.p, rhs, t.nr, t.kr, edge, 0))
    }

    fn expected(k: &MatmulKernel, c: &KernelCase, clamp: (f32, f32)) -> Vec<f32> {
        expected_dst(k, &c.p, c.lhs_packer, clamp)
    }
}

/// Reference results (m x n) of `k` for `p` with activations quantized by `lhs_packer`: the
/// weights as `k`'s RHS format has it multiply them (16 x the values with the scales divided by
/// 16 and rounded to f16 for `ps4s0sf16`), finished as `k`'s epilogue says.
fn expected_dst(k: &MatmulKernel, p: &Problem, lhs_packer: &str, clamp: (f32, f32)) -> Vec<f32> {
    let (lq, ld) = p.quantized(lhs_packer);
    let (w, wd): (Vec<i8>, Vec<u16>) = match rhs_variant(k.rhs_packers[0].name) {
        RhsVariant::Scalef16 | RhsVariant::Ps1s0Scalef16Neon => (p.w.clone(), p.wd.clone()),
        RhsVariant::Ps4s0Sf16Neon => (
            p.w.iter().map(|&v| v * 16).collect(),
            p.wd.iter()
                .map(|&d| half::f16::from_f32(half::f16::from_bits(d).to_f32() / 16.0).to_bits())
                .collect(),
        ),
    };
    let mut dst = vec![0.0f32; p.m * p.n];
    reference::matmul(
        k.epilogue, p.m, p.n, p.k, p.bl, &lq, &ld, &w, &wd, clamp, &mut dst, p.n,
    );
    dst
}

/// Whether `k` takes blocks of `bl` from its packers: the 256-bit SVE kernels only 32, as
/// KleidiAI asserts; the SME kernels' RHS packers at most 256.
fn accepts_block_length(k: &MatmulKernel, bl: usize) -> bool {
    (k.columns != Columns::FixedAtSve256 || bl == 32) && rhs_packer_takes(k.rhs_packers[0].name, bl)
}

/// `k` on every shape it accepts, the LHS packers taking turns.
fn check_kernel(k: &MatmulKernel, implementations: &[Impl]) -> usize {
    let problems = SHAPES
        .iter()
        .enumerate()
        .filter(|&(_, &(.., bl))| accepts_block_length(k, bl))
        .map(|(seed, &(m, n, kk, bl))| KernelCase {
            p: problem(m, n, kk, bl, 100 + seed as u64),
            lhs_packer: k.lhs_packers[seed % k.lhs_packers.len()].name,
        });
    tester::check_kernel::<Q4_0>(k, problems, implementations)
}

reference_tests!(
    runnable: runnable(),
    all: family_kernels(),
    check: |k, which| check_kernel(k, &[which]),
    family: Q4_0,
    threads: |k, (m, n)| {
        let bl = if accepts_block_length(k, 64) { 64 } else { 32 };
        let p = problem(m, n, 192, bl, 77);
        let lhs_packer = k.lhs_packers[0].name;
        KernelCase { p, lhs_packer }
    },
    registers: |k| {
        let shapes = [(1, 8, 32, 32), (9, 17, 128, 64), (16, 32, 64, 32)];
        let accepted = shapes
            .into_iter()
            .filter(|&(.., bl)| accepts_block_length(k, bl));
        let lhs_packer = k.lhs_packers[0].name;
        let case = |(m, n, kk, bl)| KernelCase {
            p: problem(m, n, kk, bl, 5),
            lhs_packer,
        };
        accepted.map(case).collect()
    },
);

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random shapes and data: packed bytes and results equal the reference.
        #[test]
        fn random_problems_match_reference(m in 1usize..24, n in 1usize..40, (bl, kk) in block_gemm::random_block_k(), seed in any::<u64>()) {
            for k in family_kernels().filter(|k| runs_here(k) && accepts_block_length(k, bl)) {
                let t = k.tile();
                let p = problem(m, n, kk, bl, seed);
                let name = k.lhs_packers[(seed % k.lhs_packers.len() as u64) as usize].name;
                let lhs_case = (name, t.mr, t.kr, t.sr);
                let lhs = block_lhs::pack_checked(&p, lhs_case);
                let rhs_name = k.rhs_packers[0].name;
                let rhs = pack_rhs(&p, rhs_name, t.nr, t.kr, Edge::End, 0);
                let expect_rhs = expected_rhs(&p, rhs_name, t.nr, t.kr, rhs.bytes().len(), 0);
                prop_assert_eq!(rhs.bytes(), &expect_rhs[..]);
                let clamp = (-2.0, 2.5);
                let c = KernelCase { p, lhs_packer: name };
                let expect = expected_dst(k, &c.p, name, clamp);
                tester::check_portion::<Q4_0>(k, Impl::Exported, &c, (&lhs, &rhs), (0, 0, m, n), clamp, &expect, Edge::End);
            }
        }
    }
}

/// Selection never offers a 256-bit SVE kernel where the vector has another length, and offers
/// the family's best pair where it is 256 bits.
#[test]
fn selection_skips_sve256_kernels_at_other_vector_lengths() {
    use rkai_ukernels::arch::Features;
    use rkai_ukernels::select;
    // Without SME (whose kernels rank first wherever it exists; see tests/suite/selection.rs).
    let all = Features(u32::MAX).difference(Features::SME_FAMILY);
    for lanes in [4, 8, 16, 64] {
        for shape in [select::Shape::Gemv, select::Shape::Gemm] {
            let k = select::best_kernel(Family::F32Qsi8d32pQsi4c32p, shape, all, lanes).unwrap();
            assert!(k.runs_at_sve_lanes32(lanes), "{} at {lanes} lanes", k.stem);
            assert_eq!(
                k.columns == Columns::FixedAtSve256,
                lanes == 8,
                "{} at {lanes}",
                k.stem
            );
        }
    }
    // Without SVE or i8mm: the SDOT pair.
    let dotprod = Features::NEON.union(Features::DOTPROD);
    let pair = select::best_pair(Family::F32Qsi8d32pQsi4c32p, dotprod, 8).unwrap();
    assert_eq!(
        pair.gemm.stem,
        "matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod"
    );
    assert_eq!(
        pair.gemv.stem,
        "matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod"
    );
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each aborts with `rkai: <function>: assertion failed: <condition>`.

const GEMV: &str = "matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod";
const SVE_GEMV: &str = "matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod";

/// Calls the RHS packer `name` for `(n, k, nr)` columns, K and column step, `kr`, sr = 2 and
/// block length `bl`, with a bias or none.
fn run_rhs_shape(
    name: &str,
    (n, k, nr): (usize, usize, usize),
    kr: usize,
    bl: usize,
    bias: bool,
    params: Params,
) {
    let src = vec![0u8; n * k];
    let b = [0f32; 8];
    let mut out = vec![0u8; 16384];
    let operands = (
        src.as_ptr(),
        if bias { b.as_ptr() } else { std::ptr::null() },
    );
    let (shape, tile, out) = ((n, k, bl), (nr, kr, 2), out.as_mut_ptr().cast());
    // SAFETY: expected to abort before touching memory.
    unsafe { pack_q4_0_rhs(name, shape, tile, operands, out, &params) }
}

/// [`run_rhs_shape`] for 8 columns of K = 64.
fn run_rhs(name: &str, kr: usize, bl: usize, bias: bool, params: Params) {
    run_rhs_shape(name, (8, 64, 8), kr, bl, bias, params)
}

/// One violation: (case name, symbol, condition, action).
type Case = (&'static str, String, &'static str, fn());

fn cases() -> Vec<Case> {
    use support::block_gemm::run_lhs;
    let gemv: Vec<Case> = block_gemv_cases!(GEMV);
    let own: Vec<Case> = vec![
        getter_case!("sve_lhs_offset_bl", "bl == kai_bl"
            => get_lhs_packed_offset::<Getter3>(SVE_GEMV)(0, 128, 64)),
        getter_case!("sve_rhs_offset_bl", "bl == kai_bl"
            => get_rhs_packed_offset::<Getter3>(SVE_GEMV)(0, 128, 128)),
        run_case!("lhs_k_not_multiple_of_bl", "(k % bl) == 0" => run_lhs(LHS, 2, 48, 1, 8, 2, 0)),
        run_case!("lhs_block_depth", "(bl % (kr / sr)) == 0" => run_lhs(LHS, 2, 32, 1, 24, 2, 0)),
        getter_case!("lhs_size_k_odd", "(k % 2) == 0"
            => get_lhs_packed_size::<BlockLhsGetter>(LHS)(1, 33, 33, 1, 1, 1)),
        run_case!("neon_kr", "kr == 4" => run_lhs(LHS_NEON, 2, 32, 4, 8, 2, 0)),
        getter_case!("neon_offset_m_idx", "(m_idx % mr) == 0"
            => get_lhs_packed_offset::<BlockLhsGetter>(LHS_NEON)(3, 64, 32, 4, 4, 2)),
        run_case!("4x8sb_mr", "mr == 4" => run_lhs(LHS_4X8, 2, 32, 8, 16, 2, 0)),
        run_case!("4x8sb_kr", "kr == 16" => run_lhs(LHS_4X8, 2, 32, 4, 8, 2, 0)),
        run_case!("4x8sb_bl", "bl % kai_bl == 0" => run_lhs(LHS_4X8, 2, 16, 4, 16, 2, 0)),
        run_case!("4x8sb_unaligned_group", "(m < mr) || ((m_idx_start % mr) == 0)"
            => run_lhs(LHS_4X8, 4, 32, 4, 16, 2, 2)),
        run_case!("rhs_bias", "bias == NULL" => run_rhs(RHS, 8, 32, true, PARAMS)),
        run_case!("rhs_bl", "(bl % 32) == 0" => run_rhs(RHS, 8, 16, false, PARAMS)),
        run_case!("rhs_kr", "kr >= 1 && kr <= 16" => run_rhs(RHS, 32, 32, false, PARAMS)),
        run_case!("rhs_zero_point", "params->rhs_zero_point == 8"
            => run_rhs(RHS, 8, 32, false, Params { lhs_zero_point: 1, rhs_zero_point: 0 })),
        run_case!("rhs_lhs_zero_point", "params->lhs_zero_point == 1"
            => run_rhs(RHS, 8, 32, false, Params { lhs_zero_point: 0, rhs_zero_point: 8 })),
        run_case!("ps1s0_kr", "kr == 4" => run_rhs(RHS_PS1S0, 8, 32, false, PARAMS)),
        run_case!("ps4s0_kr", "kr == 4" => run_rhs(RHS_PS4S0, 8, 32, false, PARAMS)),
        run_case!("ps4s0_bias", "bias == NULL" => run_rhs(RHS_PS4S0, 4, 32, true, PARAMS)),
        // One 512-value block: longer than the SME packers take.
        run_case!("ps4s0_bl", "bl <= kai_max_bl"
            => run_rhs_shape(RHS_PS4S0, (4, 512, 4), 4, 512, false, PARAMS)),
        run_case!("ps4s0_zero_point", "params->rhs_zero_point == 8"
            => run_rhs(RHS_PS4S0, 4, 32, false, Params { lhs_zero_point: 1, rhs_zero_point: 7 })),
        getter_case!("ps4s0_stride_bl", "(bl % 32) == 0"
            => get_rhs_packed_stride::<Getter4>(RHS_PS4S0)(64, 16, 4, 16)),
        getter_case!("ps4s0_offset_n_idx", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter5>(RHS_PS4S0)(3, 64, 16, 4, 32)),
        run_case!("ps1s0_bl", "bl <= kai_max_bl"
            => run_rhs_shape(RHS_PS1S0, (4, 512, 4), 4, 512, false, PARAMS)),
        getter_case!("rhs_stride_kr", "(k % kr) == 0"
            => get_rhs_packed_stride::<Getter4>(RHS)(64, 4, 12, 32)),
    ];
    [gemv, own].concat()
}

/// [`cases`] and, for [`sve256_kernels_refuse_other_vector_lengths`], a call of a 256-bit SVE
/// kernel (which survives where the vector is 256 bits).
fn child_cases() -> Vec<Case> {
    let mut cases = cases();
    let sve256_call: fn() = || run_kernel(SVE_GEMV, 64, 32, 4, false);
    cases.push(("sve_vector_length", String::new(), "", sve256_call));
    cases
}

death_tests!(
    cases,
    "contract violations",
    "contract",
    child_cases = child_cases
);

/// KleidiAI's SVE kernels assert a 256-bit vector; rkai's abort with that condition elsewhere
/// (checked on CPUs with SVE at another length; at 256 bits the call computes).
#[test]
fn sve256_kernels_refuse_other_vector_lengths() {
    let sve = support::cpu::features().contains(rkai_ukernels::arch::Features::SVE);
    if !cfg!(target_arch = "aarch64") || !sve {
        return;
    }
    let out = death::run_child(&crate::child_test!("death_child"), "sve_vector_length");
    if arch::sve_lanes32() == 8 {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        death::expect_abort(
            &out,
            &format!("kai_run_{SVE_GEMV}"),
            "kai_get_sve_vector_length_u8() == 32 (this kernel supports 256-bit SVE only)",
        );
        eprintln!("RELIABILITY contract 1");
    }
}
