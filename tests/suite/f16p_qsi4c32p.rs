//! `matmul_clamp_f32_f16p_qsi4c32p` (f16 activations x Q4_0 weights, SME2) through the exported C
//! symbols with its paired packers (`lhs_pack_f16pmrx2_f32_neon`,
//! `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon` at bl = 32, 64, 128 and more), against
//! the scalar reference (`reference::f16p_qsi4c32p`, from unpacked operands): tile getters equal
//! KleidiAI 1.30's, the offset getters equal the packers' own, packed bytes equal the reference
//! layouts at the kernel's tile, results equal the reference bit for bit on edge shapes built from
//! the tile (m, n of 1, tile - 1, tile, tile + 1 and more; several blocks), clamps that bite,
//! portions, guard-page placements (the packed buffers start filled with NaN bytes, which rows
//! and columns past m and n keep), hostile floats, threads, callee-saved registers and a pending
//! lazy ZA save; every KleidiAI assertion aborts with its condition.

use crate::support;

use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::reference::f16p_qsi4c32p as reference;
use rkai_ukernels::reference::qsi8d32p::pack_rhs_ps1s0;
use support::block_gemm::Q4_0Problem;
use support::cabi::func as sym;
use support::cabi::{BlockLhsGetter, Getter3, Getter5, MatmulBlockFn, pack_block_lhs};
use support::gemm::Impl;
use support::guard::{EDGES, Edge, Guarded};
use support::tester::{self, PackedFamily};

const STEM: &str = "matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa";
const LHS: &str = "lhs_pack_f16pmrx2_f32_neon";
const RHS: &str = "rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon";
/// What the packed buffers hold before packing: 0xffff is an f16 NaN, 0xf a nibble of 7.
const FILL: u8 = 0xff;

/// The family's kernels; `RKAI_TEST_KERNEL=<substring>` narrows them.
fn family_kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    tester::family_kernels(Family::F32F16pQsi4c32p)
}

fn runs_here(k: &MatmulKernel) -> bool {
    support::cpu::can_run(k.isa)
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(family_kernels(), runs_here, "f16 x Q4_0")
}

/// The exported kernel where it runs here, else the portable implementation (which the native
/// runs and `portable_kernels_match_reference` check everywhere).
fn one_impl(k: &MatmulKernel) -> Vec<Impl> {
    if runs_here(k) {
        vec![Impl::Exported]
    } else {
        vec![Impl::Portable]
    }
}

/// A test problem: f32 activations, int4 weights (-8..=7) with f16 block scales.
type Problem = Q4_0Problem;

/// `m` x `k` activations in [-3, 5) (row 1 negative zeros when m > 2) times Q4_0 weights.
fn problem(m: usize, n: usize, k: usize, bl: usize, seed: u64) -> Problem {
    Q4_0Problem::new((m, n, k, bl), seed, |rng, m, k| {
        let mut lhs = rng.vec_f32(m * k, -3.0, 5.0);
        if m > 2 {
            lhs[k..2 * k].fill(-0.0); // a row of negative zeros
        }
        lhs
    })
}

/// The activations as the LHS packer rounds them (`half`'s conversion: ties to even).
fn lhs_f16(p: &Problem) -> Vec<u16> {
    p.lhs
        .iter()
        .map(|&x| half::f16::from_f32(x).to_bits())
        .collect()
}

/// Packs `p`'s activations for a kernel of tile (mr, kr, sr) against a guard page at `edge`.
fn pack_lhs(p: &Problem, (mr, kr, sr): (usize, usize, usize), edge: Edge) -> Guarded {
    let size = sym::<BlockLhsGetter>("get_lhs_packed_size", LHS)(p.m, p.k, p.bl, mr, kr, sr);
    let src = Guarded::from_f32(&p.lhs, edge);
    let mut out = Guarded::from_bytes(&vec![FILL; size], edge);
    let (shape, tile) = ((p.m, p.k, p.bl), (mr, kr, sr));
    // SAFETY: buffers sized from the getters.
    unsafe {
        pack_block_lhs(
            LHS,
            shape,
            tile,
            0,
            (src.ptr().cast(), 4 * p.k),
            out.mut_ptr().cast(),
        )
    };
    out
}

/// Packs `p`'s weights for a kernel of tile (nr, kr, sr) against a guard page at `edge`.
fn pack_rhs(p: &Problem, tile: (usize, usize, usize), edge: Edge) -> Guarded {
    p.pack_rhs(RHS, tile, edge, FILL)
}

/// The packed LHS as the kernel reads it: group `g` of `mr` rows, pair `p` of row `r` at halves
/// `g mr k + 2 (p mr + r)`; rows past m keep the fill.
fn expected_lhs(p: &Problem, mr: usize, size: usize) -> Vec<u8> {
    let mut out = vec![FILL; size];
    let halves = lhs_f16(p);
    for i in 0..p.m {
        let (g, r) = (i / mr, i % mr);
        for v in 0..p.k {
            let at = 2 * (g * mr * p.k + 2 * ((v / 2) * mr + r) + v % 2);
            out[at..at + 2].copy_from_slice(&halves[i * p.k + v].to_le_bytes());
        }
    }
    out
}

/// The f16 x Q4_0 family for the generic tester: results compare bit for bit, NaNs included.
struct F16Q4;

impl PackedFamily for F16Q4 {
    type Problem = Problem;
    const ANY_NAN: bool = false;

    fn shape(p: &Problem) -> (usize, usize, usize, usize) {
        (p.m, p.n, p.k, p.bl)
    }

    fn pack(k: &MatmulKernel, p: &Problem, edge: Edge) -> (Guarded, Guarded) {
        let t = k.tile();
        (
            pack_lhs(p, (t.mr, t.kr, t.sr), edge),
            pack_rhs(p, (t.nr, t.kr, t.sr), edge),
        )
    }

    fn expected(_: &MatmulKernel, p: &Problem, clamp: (f32, f32)) -> Vec<f32> {
        let mut dst = vec![0.0f32; p.m * p.n];
        let (m, n, k, bl) = (p.m, p.n, p.k, p.bl);
        reference::matmul(m, n, k, bl, &lhs_f16(p), &p.w, &p.wd, clamp, &mut dst);
        dst
    }
}

/// Shapes (m, n, k, bl) from the tile: m and n of 1, tile - 1, tile, tile + 1 and beyond; one
/// block and several of 32, 64, 128 and 256 values. Under QEMU a call costs about its tiles times
/// K times SVL squared, whatever m and n, so the shapes spanning several tiles keep K short and
/// the long-K shapes take one tile.
fn shapes(k: &MatmulKernel) -> Vec<(usize, usize, usize, usize)> {
    let t = k.tile();
    let (mr, nr) = (t.mr, t.nr);
    vec![
        (1, 1, 32, 32),
        (1, nr + 1, 64, 32),
        (mr - 1, nr - 1, 64, 32),
        (mr, nr, 32, 32),
        (mr + 1, nr + 3, 64, 64),
        (2 * mr + 3, 5, 128, 128),
        (3, 7, 192, 64),
        (5, 9, 256, 256),
    ]
}

#[test]
fn getters_equal_kleidiai_values() {
    let rows = tester::getters_equal_kleidiai_values(family_kernels());
    eprintln!("RELIABILITY getters {rows}");
}

/// The kernel's offset getters equal its packers' (what callers slicing the operands rely on):
/// LHS offsets of whole row groups, RHS offsets of whole column groups, for every block length.
#[test]
fn offsets_equal_the_packers() {
    let mut cases = 0;
    for kernel in family_kernels() {
        let t = kernel.tile();
        for (kk, bl) in [(32, 32), (64, 32), (128, 64), (384, 128), (512, 256)] {
            for g in 0..4 {
                let lhs = sym::<Getter3>("get_lhs_packed_offset", kernel.stem)(g * t.mr, kk, bl);
                let packer = sym::<BlockLhsGetter>("get_lhs_packed_offset", LHS)(
                    g * t.mr,
                    kk,
                    bl,
                    t.mr,
                    t.kr,
                    t.sr,
                );
                assert_eq!(lhs, packer, "lhs offset g={g} k={kk} bl={bl}");
                assert_eq!(lhs, g * t.mr * kk * 2);
                let rhs = sym::<Getter3>("get_rhs_packed_offset", kernel.stem)(g * t.nr, kk, bl);
                let packer =
                    sym::<Getter5>("get_rhs_packed_offset", RHS)(g * t.nr, kk, t.nr, t.kr, bl);
                assert_eq!(rhs, packer, "rhs offset g={g} k={kk} bl={bl}");
                assert_eq!(rhs, g * t.nr * (kk / bl) * (bl / 2 + 2));
                cases += 1;
            }
            let dst = sym::<Getter3>("get_dst_offset", kernel.stem)(t.m_step, t.n_step, 4000);
            assert_eq!(dst, t.m_step * 4000 + 4 * t.n_step);
            let size = sym::<support::cabi::Getter2>("get_dst_size", kernel.stem)(7, 9);
            assert_eq!(size, 7 * 9 * 4);
        }
    }
    eprintln!("RELIABILITY getters {cases}");
}

/// Both packers at the kernel's tile write the layouts the kernel reads (the reference places
/// every value by its address), against both guard edges; rows and columns past m and n keep
/// the buffer's contents.
#[test]
fn paired_packers_write_the_kernel_layouts() {
    let mut cases = 0;
    for kernel in family_kernels() {
        let t = kernel.tile();
        for (seed, &(m, n, kk, bl)) in shapes(kernel).iter().enumerate() {
            let p = problem(m, n, kk, bl, 300 + seed as u64);
            for edge in EDGES {
                let lhs = pack_lhs(&p, (t.mr, t.kr, t.sr), edge);
                let want = expected_lhs(&p, t.mr, lhs.bytes().len());
                assert_eq!(lhs.bytes(), &want[..], "lhs m={m} k={kk} mr={}", t.mr);
                let rhs = pack_rhs(&p, (t.nr, t.kr, t.sr), edge);
                let mut want = vec![FILL; rhs.bytes().len()];
                pack_rhs_ps1s0(p.n, p.k, p.bl, t.nr, &p.w, &p.wd, &mut want);
                assert_eq!(
                    rhs.bytes(),
                    &want[..],
                    "rhs n={n} k={kk} bl={bl} nr={}",
                    t.nr
                );
                cases += 2;
            }
        }
    }
    eprintln!("RELIABILITY bounds_packers {cases}");
}

fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let problems = shapes(k)
        .into_iter()
        .enumerate()
        .map(|(seed, (m, n, kk, bl))| problem(m, n, kk, bl, 100 + seed as u64));
    tester::check_kernel::<F16Q4>(k, problems, &[which])
}

reference_tests!(
    runnable: runnable(),
    all: family_kernels(),
    check: check_kernel,
    family: F16Q4,
    threads: |_, (m, n)| problem(m, n, 64, 32, 77),
    registers: |k| {
        let t = k.tile();
        vec![
            problem(1, 8, 32, 32, 5),
            problem(t.mr + 1, t.nr + 1, 128, 64, 6),
        ]
    },
);

/// The kernel commits a caller's pending lazy ZA save before using ZA.
#[cfg(target_arch = "aarch64")]
#[test]
fn streaming_kernels_commit_a_pending_lazy_za_save() {
    let ran = tester::lazy_za_saves_committed::<F16Q4>(&runnable(), |k| {
        problem(3, k.tile().n_step + 1, 128, 64, 77)
    });
    if let Some(kernels) = ran {
        let sme2 = support::cpu::can_run(rkai_ukernels::arch::Isa::Sme2);
        assert_eq!(kernels > 0, sme2, "the SME2 kernel runs where SME2 is");
        eprintln!("RELIABILITY lazy_za {kernels}");
    }
}

/// Hostile values in the activations and the scales (in problems of up to 11 rows and 37
/// columns: two row and column groups at SVL 128): NaNs, infinities, f16 subnormals, signed zeros, f32 values that overflow
/// f16, scales that make the f16 weights overflow, an infinite sum against a zero.
fn hostile(name: &str, p: &mut Problem) {
    let (k, blocks) = (p.k, p.k / p.bl);
    match name {
        "lhs_nan" => p.lhs[k / 2] = f32::NAN,
        "lhs_signalling_nan" => p.lhs[k + 3] = f32::from_bits(0x7fa0_0001),
        "lhs_inf" => p.lhs[k - 1] = f32::INFINITY,
        "lhs_neg_inf" => p.lhs[2 * k + 5] = f32::NEG_INFINITY,
        "lhs_inf_times_zero_weight" => {
            p.lhs[4] = f32::INFINITY;
            for j in 0..p.n {
                p.w[j * k + 4] = 0;
            }
        }
        "lhs_f16_subnormal" => {
            for (i, v) in p.lhs.iter_mut().enumerate().take(3 * k) {
                *v = (i % 7) as f32 * -3.0e-7; // below 2^-14: f16 subnormals
            }
        }
        "lhs_f32_subnormal" => p.lhs[..k].fill(f32::from_bits(0x0000_0101)),
        "lhs_signed_zeros" => {
            for (i, v) in p.lhs.iter_mut().enumerate() {
                *v = if i % 2 == 0 { -0.0 } else { 0.0 };
            }
        }
        "lhs_huge" => {
            p.lhs[1] = 65504.0;
            p.lhs[2] = -70000.0; // f16 infinity
            p.lhs[k + 1] = 65519.0; // rounds to 65504
        }
        "scale_zero" => p.wd[1] = 0x0000,
        "scale_negative_zero" => p.wd[blocks] = 0x8000,
        "scale_subnormal" => {
            for d in p.wd.iter_mut().step_by(2) {
                *d = 0x0003;
            }
        }
        "scale_huge" => {
            // 8 x 65504 overflows f16: the weights become infinities of either sign.
            for d in p.wd.iter_mut().step_by(3) {
                *d = 0x7bff;
            }
        }
        "scale_inf" => p.wd[0] = 0x7c00,
        "scale_neg_inf" => *p.wd.last_mut().unwrap() = 0xfc00,
        "scale_nan" => p.wd[blocks + 1] = 0x7e01,
        "scale_signalling_nan" => p.wd[2] = 0xfc01,
        "large_sums" => {
            // f16 products near 2^32, summed over K: large f32 accumulators, cancellation.
            for (i, v) in p.lhs.iter_mut().enumerate() {
                *v = if i % 2 == 0 { 60000.0 } else { -59000.0 };
            }
            p.wd.fill(half::f16::from_f32(8000.0).to_bits());
        }
        _ => panic!("unknown scenario {name}"),
    }
}

const HOSTILE: [&str; 20] = [
    "lhs_nan",
    "lhs_signalling_nan",
    "lhs_inf",
    "lhs_neg_inf",
    "lhs_inf_times_zero_weight",
    "lhs_f16_subnormal",
    "lhs_f32_subnormal",
    "lhs_signed_zeros",
    "lhs_huge",
    "scale_zero",
    "scale_negative_zero",
    "scale_subnormal",
    "scale_huge",
    "scale_inf",
    "scale_neg_inf",
    "scale_nan",
    "scale_signalling_nan",
    "large_sums",
    "lhs_nan",
    "scale_inf",
];

/// Hostile data through both implementations; the clamps: none, biting, and NaN bounds (which
/// `FCLAMP` ignores, so NaN sums come out as the default NaN).
#[test]
fn hostile_values_match_reference() {
    let mut cases = 0;
    for k in family_kernels() {
        let t = k.tile();
        for (i, name) in HOSTILE.iter().enumerate() {
            // Numerics do not depend on the length: above 512 bits a third of the scenarios.
            if !tester::every_case_here(k) && i % 3 != 0 {
                continue;
            }
            // The last two repeat a scenario at one block of 128 values.
            let (kk, bl) = if i >= 18 { (128, 128) } else { (64, 32) };
            // Two row and column groups at the smaller lengths, partial groups at the larger
            // ones (the reference runs under QEMU there).
            let (m, n) = ((t.mr + 3).min(11), (t.nr + 5).min(37));
            let mut p = problem(m, n, kk, bl, 900 + i as u64);
            hostile(name, &mut p);
            let mut clamps = tester::clamps::<F16Q4>(k, &p).to_vec();
            clamps.push((f32::NAN, 1.0));
            clamps.push((f32::NEG_INFINITY, f32::NAN));
            // The whole problem in one call (the shapes above cover portions and both edges).
            let (lhs, rhs) = F16Q4::pack(k, &p, EDGES[i % 2]);
            for clamp in clamps {
                let expect = F16Q4::expected(k, &p, clamp);
                for which in one_impl(k) {
                    let (operands, whole) = ((&lhs, &rhs), (0, 0, p.m, p.n));
                    tester::check_portion::<F16Q4>(
                        k,
                        which,
                        &p,
                        operands,
                        whole,
                        clamp,
                        &expect,
                        EDGES[i % 2],
                    );
                    cases += 1;
                }
            }
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// KleidiAI's kernel ignores `dst_stride_col`; so does rkai's.
#[test]
fn dst_stride_col_is_ignored() {
    for k in runnable() {
        let t = k.tile();
        let p = problem(2, 3, 64, 32, 11);
        let (lhs, rhs) = F16Q4::pack(k, &p, Edge::End);
        let mut dst = vec![0f32; 2 * 3];
        // SAFETY: packed operands of the problem; dst holds 2 rows of 3 floats.
        unsafe {
            sym::<MatmulBlockFn>("run", k.stem)(
                2,
                3,
                64,
                32,
                lhs.ptr().cast(),
                rhs.ptr().cast(),
                dst.as_mut_ptr().cast(),
                12,
                7,
                f32::NEG_INFINITY,
                f32::INFINITY,
            )
        };
        let want = F16Q4::expected(k, &p, (f32::NEG_INFINITY, f32::INFINITY));
        assert_eq!(dst, want, "{} (mr {})", k.stem, t.mr);
    }
}

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random shapes and data: results equal the reference.
        #[test]
        fn random_problems_match_reference(m in 1usize..40, n in 1usize..90, blocks in 1usize..4, bl_i in 0usize..2, seed in any::<u64>()) {
            let bl = [32, 64][bl_i];
            let kk = blocks * bl;
            for k in family_kernels() {
                let p = problem(m, n, kk, bl, seed);
                let (lhs, rhs) = F16Q4::pack(k, &p, Edge::End);
                let clamp = (-2.0, 2.5);
                let expect = F16Q4::expected(k, &p, clamp);
                for which in one_impl(k) {
                    tester::check_portion::<F16Q4>(k, which, &p, (&lhs, &rhs), (0, 0, m, n), clamp, &expect, Edge::End);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each aborts with `rkai: <function>: assertion failed: <condition>`.

/// One violation: (case name, symbol, condition, action).
type Case = (&'static str, String, &'static str, fn());

/// Calls the kernel for m = 1, n = 4 with `k` and `bl` (refused before any access).
fn run_refused(stem: &str, k: usize, bl: usize, null_rhs: bool) {
    let buffer = [0u8; 64];
    let mut dst = [0f32; 4];
    let rhs = if null_rhs {
        std::ptr::null()
    } else {
        buffer.as_ptr().cast()
    };
    // SAFETY: refused before any access.
    unsafe {
        sym::<MatmulBlockFn>("run", stem)(
            1,
            4,
            k,
            bl,
            buffer.as_ptr().cast(),
            rhs,
            dst.as_mut_ptr().cast(),
            16,
            4,
            -1.0,
            1.0,
        )
    }
}

fn cases() -> Vec<Case> {
    vec![
        run_case!("bl_not_multiple_of_32", "(bl % kai_bl) == 0" => run_refused(STEM, 96, 48, false)),
        run_case!("k_not_multiple_of_32", "(k % kai_bl) == 0" => run_refused(STEM, 48, 32, false)),
        run_case!("k_not_multiple_of_bl", "(k % bl) == 0" => run_refused(STEM, 96, 64, false)),
        run_case!("zero_bl", "bl > 0" => run_refused(STEM, 64, 0, false)),
        run_case!("zero_k", "k > 0" => run_refused(STEM, 0, 32, false)),
        run_case!("null_rhs", "rhs_packed != NULL" => run_refused(STEM, 64, 32, true)),
        getter_case!("lhs_offset_m_idx", "(m_idx % mr) == 0"
            => get_lhs_packed_offset::<Getter3>(STEM)(1, 64, 32)),
        getter_case!("lhs_offset_bl", "(bl % kai_bl) == 0"
            => get_lhs_packed_offset::<Getter3>(STEM)(0, 64, 48)),
        getter_case!("lhs_offset_k", "(k % kai_bl) == 0"
            => get_lhs_packed_offset::<Getter3>(STEM)(0, 48, 32)),
        getter_case!("rhs_offset_n_idx", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter3>(STEM)(1, 64, 32)),
        getter_case!("rhs_offset_k_bl", "(k % bl) == 0"
            => get_rhs_packed_offset::<Getter3>(STEM)(0, 96, 64)),
        getter_case!("dst_offset_m_idx", "(m_idx % m_step) == 0"
            => get_dst_offset::<Getter3>(STEM)(1, 0, 64)),
        getter_case!("dst_offset_n_idx", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(STEM)(0, 1, 64)),
    ]
}

death_tests!(cases, "contract violations", "contract");
