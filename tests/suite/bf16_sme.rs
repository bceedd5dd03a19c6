//! KleidiAI's SME bf16 GEMMs (`matmul_clamp_fp32_bf16p_bf16p`: the `2vlx2vl_sme_mopa` and
//! `_sme2_mopa` kernels) and their packers (`lhs_pack_bf16p2vlx2_f32_{sme,sme2}`,
//! `rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`) through their C symbols, at the streaming vector
//! length of the CPU running the test (`scripts/test-all.sh` runs it at every one): getters equal
//! KleidiAI's formulas and measured tiles; packed bytes equal a reference written from KleidiAI's
//! layout (values converted with the `half` crate); every kernel (exported, and the portable
//! path) equals the scalar reference bit for bit (BFMOPA as QEMU models it with FPCR.EBF = 0:
//! round to odd, flushed subnormals, default NaN) for edge shapes around the tile, portions,
//! guard pages, canaries, hostile values and inverted clamps; threads, callee-saved registers and
//! a caller's pending lazy ZA save; invalid arguments abort naming KleidiAI's assertion.

use crate::support;

use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::float;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::lhs_pack_bf16::Variant as LhsVariant;
use rkai_ukernels::pack::rhs_pack_bf16::Variant as RhsVariant;
use support::bf16;
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter2, Getter3, MatmulFn};
use support::gemm::{Impl, run_call};
use support::guard::{EDGES, Edge, Guarded};
use support::packed_float::{self as pf, Problem, Sme, Values, shapes, tile};
use support::rng::Rng;
use support::sme_pack::{self, LhsPacker, RhsCall, RhsPacker, le_bytes, lhs_call, rhs_call};
use support::tester::{self, Depth, PackedFamily};

type Getter1 = extern "C" fn(usize) -> usize;
type Getter5 = extern "C" fn(usize, usize, usize, usize, usize) -> usize;

const LHS_SME: &str = "lhs_pack_bf16p2vlx2_f32_sme";
const LHS_SME2: &str = "lhs_pack_bf16p2vlx2_f32_sme2";
const RHS: &str = "rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme";
const SME2: &str = "matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa";
const SME: &str = "matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa";

const FAMILY: Family = Family::Fp32Bf16pBf16p;

fn kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    pf::kernels(FAMILY)
}

fn lhs_variant(p: &Packer) -> LhsVariant {
    match p.kind {
        PackerKind::Lhs(LhsPackerKind::Bf16(v)) => v,
        _ => unreachable!("{}", p.name),
    }
}

fn rhs_variant(p: &Packer) -> RhsVariant {
    match p.kind {
        PackerKind::Rhs(RhsPackerKind::Bf16(v)) => v,
        _ => unreachable!("{}", p.name),
    }
}

// ---------------------------------------------------------------------------------------------
// Getters

#[test]
fn kernel_getters_equal_kleidiai_values() {
    assert_eq!(kernels().count(), 2);
    let checked = tester::getters_equal_kleidiai_values(kernels());
    let t = tile();
    for k in kernels() {
        // The kernels pair with the SME LHS packers only.
        assert!(
            k.lhs_packers.iter().all(|p| lhs_variant(p).is_sme()),
            "{}",
            k.stem
        );
        for kk in [0usize, 1, 2, 3, 64, 77] {
            let kp = kk.div_ceil(2) * 2;
            assert_eq!(
                sym::<Getter2>("get_lhs_packed_offset", k.stem)(2 * t, kk),
                2 * t * kp * 2
            );
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(3 * t, kk),
                3 * t * (4 + kp * 2)
            );
            // The kernel's offsets are the packers'.
            assert_eq!(
                sym::<Getter5>("get_lhs_packed_offset", LHS_SME)(2 * t, kk, 0, 0, 0),
                2 * t * kp * 2
            );
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", RHS)(3 * t, kk),
                3 * t * (4 + kp * 2)
            );
        }
        assert_eq!(
            sym::<Getter3>("get_dst_offset", k.stem)(t, 2 * t, 1000),
            t * 1000 + 2 * t * 4
        );
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(5, 7), 35 * 4);
    }
    eprintln!("{checked} measured tile rows checked");
}

#[test]
fn lhs_packer_getters_follow_kleidiai_formulas() {
    let t = tile();
    for name in [LHS_SME, LHS_SME2] {
        // The getters ignore mr, kr and sr.
        for mr in [0, 1, t] {
            assert_eq!(sym::<Getter1>("get_m_step", name)(mr), t, "{name}");
        }
        assert_eq!(sym::<Getter2>("get_lhs_offset", name)(3 * t, 100), 300 * t);
        for (m, k) in [(1, 0), (1, 1), (t - 1, 2), (t, 3), (t + 1, 17), (3 * t, 64)] {
            let size = sym::<Getter5>("get_lhs_packed_size", name)(m, k, 7, 5, 3);
            assert_eq!(
                size,
                m.div_ceil(t) * t * k.div_ceil(2) * 4,
                "{name} {m} {k}"
            );
        }
        assert_eq!(
            sym::<Getter5>("get_lhs_packed_offset", name)(2 * t, 11, 0, 0, 0),
            2 * t * 12 * 2
        );
    }
}

#[test]
fn rhs_packer_getters_follow_kleidiai_formulas() {
    let t = tile();
    let packer = catalog::packer(RHS).unwrap();
    assert_eq!(rhs_variant(packer), RhsVariant::KxnF32Sme);
    assert_eq!(sym::<Getter0>("get_n_step", RHS)(), t);
    assert_eq!(sym::<Getter1>("get_rhs_offset", RHS)(2 * t), 2 * t * 4);
    // The bias offset asserts nothing.
    assert_eq!(sym::<Getter1>("get_bias_offset", RHS)(5), 20);
    for k in [0usize, 1, 2, 3, 10, 33] {
        let stride = t * (4 + k.div_ceil(2) * 4);
        assert_eq!(sym::<Getter1>("get_rhs_packed_stride", RHS)(k), stride);
        assert_eq!(
            sym::<Getter2>("get_rhs_packed_offset", RHS)(2 * t, k),
            2 * stride
        );
        for n in [1, t - 1, t, t + 1, 3 * t + 2] {
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_size", RHS)(n, k),
                n.div_ceil(t) * stride
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Packers: bytes against a reference written from KleidiAI's layout

/// f32 source bits: ordinary numbers, exact ties of the bf16 rounding, and (for `specials`)
/// NaNs (quiet and signalling), infinities, signed zeros, subnormals and values rounding to
/// infinity.
fn source_bits(len: usize, seed: u64, specials: bool) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let pool: [u32; 11] = [
        0x7fc0_0000,
        0x7f80_0001,
        0xffc1_2345,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x807f_ffff,
        0x7f7f_ffff,
        0x3f80_8000,
        0x3f81_8000,
    ];
    (0..len)
        .map(|i| {
            if specials && rng.next_u64() % 4 == 0 {
                pool[i % pool.len()]
            } else {
                rng.f32(-3.0, 3.0).to_bits()
            }
        })
        .collect()
}

/// bf16 bits of an f32, computed with the `half` crate (NaNs: quieted, upper payload kept).
fn expected_bf16(bits: u32) -> u16 {
    bf16::bf16_bits(bits)
}

/// KleidiAI's `bf16p2vlx2` LHS layout: blocks of `mr` rows; per pair of K values, the pair of
/// each row (zeros past `m` and past `k`).
fn expected_lhs(m: usize, k: usize, mr: usize, value: impl Fn(usize, usize) -> u16) -> Vec<u8> {
    let kp = k.div_ceil(2) * 2;
    let mut out = Vec::new();
    for block in 0..m.div_ceil(mr) {
        for pair in 0..kp / 2 {
            for r in 0..mr {
                for e in 0..2 {
                    let (i, kk) = (block * mr + r, 2 * pair + e);
                    let v = if i < m && kk < k { value(i, kk) } else { 0 };
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    out
}

fn lhs_pack_case(
    name: &'static str,
    m: usize,
    k: usize,
    pad: usize,
    seed: u64,
    specials: bool,
    edge: Edge,
) {
    let mr = tile();
    let row = k + pad;
    let src = source_bits(m.saturating_sub(1) * row + k, seed, specials);
    let bytes = le_bytes(&src);
    let lhs = bf16::source(&bytes, edge);
    let size = sym::<Getter5>("get_lhs_packed_size", name)(m, k, mr, 2, 1);
    let expect = expected_lhs(m, k, mr, |i, kk| expected_bf16(src[i * row + kk]));
    let packer = LhsPacker {
        name,
        tile: (mr, 2, 1),
    };
    let what = format!("{name} m={m} k={k} pad={pad} specials={specials} tile={mr}");
    // SAFETY: source rows and output sized for m x k.
    let pack = |out| unsafe { packer.pack((lhs.ptr(), 4 * row), k, out, (0, m)) };
    sme_pack::packs_equal(&what, size, edge, &expect, pack);
}

#[test]
fn lhs_packers_match_reference_bytes() {
    let t = tile();
    let shapes = [
        (1, 1),
        (1, 2),
        (2, 3),
        (t - 1, 4),
        (t, 5),
        (t + 1, 16),
        (2 * t + 3, 7),
        (3, 2 * t + 1),
        (t, 0),
    ];
    let mut cases = 0;
    for name in [LHS_SME, LHS_SME2] {
        for (seed, &(m, k)) in shapes.iter().enumerate() {
            for (pad, specials) in [(0, false), (3, true)] {
                for edge in EDGES {
                    lhs_pack_case(name, m, k, pad, seed as u64, specials, edge);
                    cases += 1;
                }
            }
        }
    }
    eprintln!("RELIABILITY packers {cases}");
}

/// KleidiAI's `bf16p2vlx2b` RHS layout: groups of `nr` columns; the `nr` f32 biases (zeros past
/// `n`), then per pair of K values the pair of each column (zeros past `n`; the second value of
/// an odd K's last pair taken from source row 0).
fn expected_rhs(n: usize, k: usize, nr: usize, w: &[u32], bias: &[u32]) -> Vec<u8> {
    let bias = |j: usize| if j < n { bias[j] } else { 0 }.to_le_bytes().to_vec();
    // K padding repeats source row 0.
    let value = |kk: usize, j: usize| expected_bf16(w[if kk < k { kk * n + j } else { j }]);
    bf16::rhs_layout((n, k), (nr, 2), bias, value)
}

fn rhs_pack_case(n: usize, k: usize, seed: u64, specials: bool, edge: Edge) {
    let nr = tile();
    let stride = n + 2;
    let src = source_bits(k.saturating_sub(1) * stride + n, seed, specials);
    let w = bf16::kxn_values(&src, (k, n), stride);
    let bias = source_bits(n, seed ^ 0x55, specials);
    let src_bytes = le_bytes(&src);
    let rhs = bf16::source(&src_bytes, edge);
    let bias_buf = Guarded::from_bytes(&le_bytes(&bias), edge);
    let size = sym::<Getter2>("get_rhs_packed_size", RHS)(n, k);
    let expect = expected_rhs(n, k, nr, &w, &bias);
    let packer = RhsPacker {
        name: RHS,
        tile: (nr, 2, 1),
        value_bytes: 4,
    };
    let what = format!("{RHS} n={n} k={k} specials={specials} tile={nr}");
    // SAFETY: source, bias and output sized for k x n; scale and params null.
    let pack =
        |out| unsafe { packer.pack((rhs.ptr(), 4 * stride), bias_buf.ptr(), k, out, (0, n)) };
    sme_pack::packs_equal(&what, size, edge, &expect, pack);
}

#[test]
fn rhs_packer_matches_reference_bytes() {
    let t = tile();
    let shapes = [
        (1, 1),
        (t - 1, 2),
        (t, 3),
        (t + 1, 8),
        (2 * t + 5, 17),
        (3, 2 * t + 1),
        (t, 0),
    ];
    let mut cases = 0;
    for (seed, &(n, k)) in shapes.iter().enumerate() {
        for specials in [false, true] {
            for edge in EDGES {
                rhs_pack_case(n, k, 40 + seed as u64, specials, edge);
                cases += 1;
            }
        }
    }
    eprintln!("RELIABILITY packers {cases}");
}

/// The conversion of the packers equals the streaming `BFCVT` instruction (the one KleidiAI's
/// packers execute) on this CPU, or its model in QEMU.
#[cfg(target_arch = "aarch64")]
#[test]
fn conversion_matches_streaming_bfcvt() {
    if rkai_ukernels::arch::sme_vector_bytes().is_none() {
        eprintln!("no SME: streaming BFCVT not compared");
        return;
    }
    let mut checked = 0;
    for b in bf16::conversion_inputs(20_000, &bf16::CONVERSION_SPECIALS) {
        let mut got = 0u32;
        // SAFETY: SME present (checked above); streaming mode starts and ends in the block, which
        // writes 4 bytes at `got` and declares every vector and predicate register clobbered
        // (SMSTART and SMSTOP zero them).
        unsafe {
            std::arch::asm!(
                ".arch_extension sme",
                "smstart sm",
                "ptrue p0.s",
                "ptrue p1.s, vl1",
                "dup z0.s, {x:w}",
                "bfcvt z0.h, p0/m, z0.s",
                "st1w {{z0.s}}, p1, [{y}]",
                "smstop sm",
                x = in(reg) b,
                y = in(reg) &mut got as *mut u32,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _, out("v5") _,
                out("v6") _, out("v7") _, out("v8") _, out("v9") _, out("v10") _, out("v11") _,
                out("v12") _, out("v13") _, out("v14") _, out("v15") _, out("v16") _,
                out("v17") _, out("v18") _, out("v19") _, out("v20") _, out("v21") _,
                out("v22") _, out("v23") _, out("v24") _, out("v25") _, out("v26") _,
                out("v27") _, out("v28") _, out("v29") _, out("v30") _, out("v31") _,
                out("p0") _, out("p1") _, out("p2") _, out("p3") _, out("p4") _, out("p5") _,
                out("p6") _, out("p7") _, out("p8") _, out("p9") _, out("p10") _, out("p11") _,
                out("p12") _, out("p13") _, out("p14") _, out("p15") _, out("ffr") _,
                options(nostack),
            )
        };
        assert_eq!(
            u32::from(float::bf16_from_f32_bits(b)),
            got & 0xffff,
            "{b:#010x}"
        );
        checked += 1;
    }
    eprintln!("{checked} streaming BFCVT conversions compared");
}

// ---------------------------------------------------------------------------------------------
// Kernels

fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let depth = Depth::of(k);
    let mut cases = 0;
    for (seed, shape) in shapes(tile()).into_iter().enumerate() {
        let p = Problem {
            // Alternate the two LHS packers (same bytes).
            lhs_packer: k.lhs_packers[seed % k.lhs_packers.len()],
            ..Problem::new(k, shape, 0, Values::Normal, 300 + seed as u64)
        };
        for clamp in tester::clamps::<Sme>(k, &p)
            .into_iter()
            .chain([(0.3, -0.3)])
        {
            let expect = Sme::expected(k, &p, clamp);
            cases += tester::check_problem::<Sme>(depth, k, &p, clamp, &expect, &[which]);
        }
    }
    cases
}

reference_tests!(
    runnable: pf::runnable(FAMILY),
    all: kernels(),
    check: check_kernel,
    family: Sme,
    threads: |k, (m, n)| Problem::normal(k, (m, n, 7), 77),
    registers: |k| {
        let t = tile();
        [(1, 1, 1), (t + 1, 2 * t + 3, 9)].map(|s| Problem::normal(k, s, 5)).into()
    },
);

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals, overflowing and flushed
/// products in the LHS, the RHS and the bias: every result equals the model bit for bit (NaNs
/// included: the default NaN, or a bound after `FCLAMP`). Every shape at every length.
#[test]
fn non_finite_values_follow_the_model() {
    let cases =
        pf::check_implementations(FAMILY, &pf::HOSTILE_CLAMPS, |k| pf::hostile_problems(k, 3));
    eprintln!("RELIABILITY hostile {cases}");
}

/// Values whose sums lose bits at every step: the kernels equal the round-to-odd model, which
/// the data tells apart from rounding to nearest.
#[test]
fn wide_exponent_ranges_round_to_odd() {
    let cases = pf::check_implementations(FAMILY, &[pf::NO_CLAMP], |k| {
        let p = pf::wide_problem(k);
        let expect = Sme::expected(k, &p, pf::NO_CLAMP);
        let v = |x: u32| f32::from_bits(u32::from(float::bf16_from_f32_bits(x)) << 16);
        let nearest_differs = (0..p.m * p.n).any(|e| {
            let (i, j) = (e / p.n, e % p.n);
            let mut acc = f32::from_bits(p.bias[j]);
            for kk in (0..p.k).step_by(2) {
                let a = |d: usize| v(p.lhs[i * p.k + kk + d]) * v(p.rhs[(kk + d) * p.n + j]);
                acc += a(0) + a(1);
            }
            acc.to_bits() != expect[e].to_bits()
        });
        assert!(nearest_differs, "wide values too tame");
        vec![p]
    });
    eprintln!("RELIABILITY hostile {cases}");
}

/// A bias of `-0` becomes `+0` in ZA (`FMOPA` into zeros) and stays so when every product is
/// `-0`; a NaN bias becomes the default NaN (then, under `FCLAMP`, the lower bound); K = 0
/// stores a subnormal bias unchanged.
#[test]
fn bias_enters_through_fmopa() {
    let cases = pf::check_implementations(FAMILY, &[pf::NO_CLAMP], |k| {
        let problems = pf::bias_problems(k);
        let y = pf::zero_k_subnormal(k, &problems);
        assert_eq!(y.to_bits(), 3, "k = 0 keeps a subnormal bias");
        problems
    });
    assert!(cases > 0);
}

#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_saves_are_committed() {
    let ran = tester::lazy_za_saves_committed::<Sme>(&pf::runnable(FAMILY), |k| {
        Problem::normal(k, (tile() + 1, tile() + 2, 5), 8)
    });
    eprintln!("RELIABILITY lazy_za {}", ran.unwrap_or(0));
}

/// The SME2 kernel ignores `dst_stride_col`, as KleidiAI's does (its SME sibling asserts it).
#[test]
fn sme2_kernel_ignores_dst_stride_col() {
    let k = catalog::kernel(SME2).unwrap();
    if !support::cpu::can_run(k.isa) {
        eprintln!("no SME2: {SME2} not called");
        return;
    }
    let p = Problem::normal(k, (3, 5, 4), 11);
    let (lhs, rhs) = Sme::pack(k, &p, Edge::End);
    let mut dst = vec![0f32; 15];
    let expect = p.results(k, (-1.0, 1.0));
    let run = sym::<MatmulFn>("run", SME2);
    // SAFETY: operands packed for p; dst holds 3 rows of 5 floats.
    unsafe {
        run(
            3,
            5,
            4,
            lhs.ptr().cast(),
            rhs.ptr().cast(),
            dst.as_mut_ptr().cast(),
            20,
            8,
            -1.0,
            1.0,
        )
    };
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&dst), bits(&expect));
}

// ---------------------------------------------------------------------------------------------
// Contract violations

type Case = support::death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = vec![
        run_case!("dst_stride_col", "dst_stride_col == sizeof(float)" => run_call(SME, 64, 8, 0)),
        run_case!("dst_stride_row", "dst_stride_row >= n * sizeof(float)"
            => run_call(SME2, 30, 4, 0)),
        run_case!("null_lhs", "lhs_packed != NULL" => run_call(SME2, 64, 4, 1)),
        run_case!("null_rhs", "rhs_packed != NULL" => run_call(SME, 64, 4, 2)),
        run_case!("null_dst", "dst != NULL" => run_call(SME2, 64, 4, 3)),
        run_case!("lhs_mr", "mr == kai_mr" => lhs_call(LHS_SME, (4, 8, 32), (8 * tile(), 2, 1), 0, (false, false))),
        run_case!("lhs_kr", "kr == kai_kr" => lhs_call(LHS_SME2, (4, 8, 32), (tile(), 4, 1), 0, (false, false))),
        run_case!("lhs_sr", "sr == kai_sr" => lhs_call(LHS_SME, (4, 8, 32), (tile(), 2, 2), 0, (false, false))),
        run_case!("lhs_null", "lhs != NULL" => lhs_call(LHS_SME2, (4, 8, 32), (tile(), 2, 1), 0, (true, false))),
        getter_case!("lhs_source_offset", "m_idx % kai_mr == 0"
            => get_lhs_offset::<Getter2>(LHS_SME)(1, 64)),
        getter_case!("lhs_packed_offset", "m_idx % kai_mr == 0"
            => get_lhs_packed_offset::<Getter5>(LHS_SME2)(tile() / 2, 8, tile(), 2, 1)),
        run_case!("rhs_num_groups", "num_groups == 1" => rhs_call(RHS, (tile(), 2), RhsCall { groups: Some(2), ..RhsCall::default() })),
        run_case!("rhs_nr", "nr == kai_nr" => rhs_call(RHS, (tile(), 2), RhsCall { nr: Some(12), ..RhsCall::default() })),
        run_case!("rhs_kr", "kr == kai_kr" => rhs_call(RHS, (tile(), 2), RhsCall { kr: Some(4), ..RhsCall::default() })),
        run_case!("rhs_bias", "bias != NULL" => rhs_call(RHS, (tile(), 2), RhsCall { null_bias: true, ..RhsCall::default() })),
        run_case!("rhs_scale", "scale == NULL" => rhs_call(RHS, (tile(), 2), RhsCall { scale: true, ..RhsCall::default() })),
        getter_case!("rhs_source_offset", "n_idx % kai_nr == 0"
            => get_rhs_offset::<Getter1>(RHS)(3)),
        getter_case!("rhs_packed_offset", "n_idx % kai_nr == 0"
            => get_rhs_packed_offset::<Getter2>(RHS)(tile() + 2, 8)),
    ];
    cases.extend(sme_kernel_getter_cases!(SME, SME2));
    cases
}

death_tests!(cases, "SME bf16 contract violations", "contract");
