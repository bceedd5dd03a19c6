//! The f16 GEMM family `matmul_clamp_f16_f16_f16p` and its RHS packers, through the exported C
//! symbols: getters and packed sizes equal KleidiAI's measured values, packed bytes equal the
//! reference, results equal the per-step-rounded f16 reference bit for bit, portions write only
//! themselves, buffers sit against guard pages, callee-saved registers survive, and invalid
//! arguments abort naming the condition. On CPUs without FEAT_FP16 the kernels are skipped
//! (the catalog refuses them); the portable implementation runs everywhere.

mod support;

use rkai::ukernels::catalog::{self, Family, MatmulKernel, NativeFn, Packer, PackerKind};
use rkai::ukernels::float::f16;
use rkai::ukernels::matmul::float_gemm as family;
use rkai::ukernels::pack::Source;
use rkai::ukernels::pack::rhs_pack_float::Variant;
use rkai::ukernels::reference::{float_gemm as pack_reference, half_gemm as reference};
use std::ffi::c_void;
use std::ptr;
use support::cabi::{Getter0, Getter2, Getter3, MatmulFloatFn, RhsPackFloatFn};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;

type Getter1 = extern "C" fn(usize) -> usize;

fn sym<F: Copy>(verb: &str, name: &str) -> F {
    support::cabi::func(verb, name)
}

fn kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    catalog::KERNELS
        .iter()
        .copied()
        .filter(|k| k.family == Family::F16F16F16p)
}

fn runnable() -> Vec<&'static MatmulKernel> {
    let run: Vec<_> = kernels().filter(|k| support::cpu::can_run(k.isa)).collect();
    eprintln!(
        "CPU features {:?}: running {} of {} f16 kernels ({})",
        support::cpu::features(),
        run.len(),
        kernels().count(),
        run.iter().map(|k| k.stem).collect::<Vec<_>>().join(", ")
    );
    run
}

/// The 16-bit float packers of the catalog (plain byte copies: they run on any CPU).
fn packers() -> impl Iterator<Item = &'static Packer> {
    catalog::PACKERS
        .iter()
        .copied()
        .filter(|p| matches!(p.kind, PackerKind::RhsFloat(v) if v.bytes() == 2))
}

fn variant(p: &Packer) -> Variant {
    match p.kind {
        PackerKind::RhsFloat(v) => v,
        _ => unreachable!(),
    }
}

fn tsv_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

fn halves_to_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn guarded_halves(v: &[u16], edge: Edge) -> Guarded {
    Guarded::from_bytes(&halves_to_bytes(v), edge)
}

fn half_at(g: &Guarded, index: usize) -> u16 {
    u16::from_le_bytes(g.bytes()[2 * index..2 * index + 2].try_into().unwrap())
}

fn random_halves(rng: &mut Rng, len: usize, lo: f32, hi: f32) -> Vec<u16> {
    (0..len).map(|_| f16::from_f32(rng.f32(lo, hi))).collect()
}

#[test]
fn getters_equal_kleidiai_values() {
    let table = tsv_rows(include_str!("data/kleidiai-1.30-getters.tsv"));
    assert_eq!(kernels().count(), 3);
    for k in kernels() {
        let row = table
            .iter()
            .find(|r| r[0] == k.stem)
            .unwrap_or_else(|| panic!("{} not in table", k.stem));
        let got = [
            sym::<Getter0>("get_m_step", k.stem)(),
            sym::<Getter0>("get_n_step", k.stem)(),
        ];
        assert_eq!(got.map(|v| v.to_string()), [row[1], row[2]], "{}", k.stem);
        assert_eq!(row[3], "-", "KleidiAI has no get_mr for {}", k.stem);
        for (i, verb) in ["get_nr", "get_kr", "get_sr"].iter().enumerate() {
            let got = sym::<Getter0>(verb, k.stem)();
            assert_eq!(got.to_string(), row[4 + i], "{verb} of {}", k.stem);
        }
    }
}

#[test]
fn packed_sizes_and_offsets_equal_kleidiai_values() {
    let table = tsv_rows(include_str!("data/kleidiai-1.30-packed-sizes.tsv"));
    let mut checked = 0;
    for k in kernels() {
        let t = k.tile();
        for row in table.iter().filter(|r| r[0] == k.stem) {
            let (m, n, kk): (usize, usize, usize) = (
                row[4].parse().unwrap(),
                row[5].parse().unwrap(),
                row[6].parse().unwrap(),
            );
            let packer = row[2];
            let rhs = sym::<Getter2>("get_rhs_packed_size", packer)(n, kk);
            let dst = sym::<Getter2>("get_dst_size", k.stem)(m, n);
            assert_eq!(
                [rhs, dst].map(|v| v.to_string()),
                [row[9], row[10]],
                "{row:?}"
            );
            let rhs_k = sym::<Getter2>("get_rhs_packed_offset", k.stem)(t.n_step, kk);
            let rhs_p = sym::<Getter2>("get_rhs_packed_offset", packer)(t.n_step, kk);
            assert_eq!(rhs_k, rhs_p, "{row:?}");
            assert_eq!(rhs_k, 2 * t.n_step * (kk + 1), "{row:?}");
            assert_eq!(sym::<Getter0>("get_n_step", packer)(), t.nr);
            let v = variant(catalog::packer(packer).unwrap());
            if v.stride_per_column() {
                assert_eq!(
                    sym::<Getter1>("get_rhs_packed_stride", packer)(kk),
                    2 * (kk + 1)
                );
            } else if v.has_stride_getter() {
                assert_eq!(sym::<Getter1>("get_rhs_packed_stride", packer)(kk), rhs_p);
            }
            assert_eq!(
                sym::<Getter3>("get_dst_offset", k.stem)(t.m_step, t.n_step, 2 * n),
                t.m_step * 2 * n + 2 * t.n_step
            );
            assert_eq!(
                sym::<Getter2>("get_lhs_offset", k.stem)(t.m_step, 2 * kk + 8),
                t.m_step * (2 * kk + 8)
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 3 * kernels().count(),
        "expected the measured rows of every kernel, checked {checked}"
    );
}

#[test]
fn packer_getters() {
    assert_eq!(packers().count(), 3);
    for p in packers() {
        let nr = variant(p).nr();
        assert_eq!(sym::<Getter0>("get_n_step", p.name)(), nr);
        assert_eq!(sym::<Getter1>("get_bias_offset", p.name)(2 * nr), 4 * nr);
        match variant(p).source() {
            Source::Kxn => assert_eq!(sym::<Getter1>("get_rhs_offset", p.name)(3 * nr), 6 * nr),
            Source::Nxk => assert_eq!(sym::<Getter2>("get_rhs_offset", p.name)(nr, 100), 100 * nr),
        }
        assert_eq!(
            sym::<Getter2>("get_rhs_packed_offset", p.name)(2 * nr, 5),
            2 * nr * 6 * 2
        );
        assert_eq!(
            sym::<Getter2>("get_rhs_packed_size", p.name)(nr + 1, 5),
            2 * nr * 6 * 2
        );
    }
}

/// One problem on half bits: m x k activations (rows `lhs_stride` bytes apart), k x n weights,
/// bias.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    /// Bytes between LHS rows as passed to the kernel (possibly odd).
    lhs_stride: usize,
    /// The LHS with rows `lhs_stride / 2` halves apart, as the kernel reads it.
    lhs: Vec<u16>,
    /// Weights, element (kk, j) at `w[kk * n + j]`.
    w: Vec<u16>,
    bias: Option<Vec<u16>>,
}

impl Problem {
    fn new(m: usize, n: usize, k: usize, stride_pad: usize, bias: bool, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let lhs_stride = 2 * k + stride_pad;
        let row = lhs_stride / 2;
        let lhs = random_halves(&mut rng, m.saturating_sub(1) * row + k, -1.0, 1.0);
        let w = random_halves(&mut rng, k * n, -1.0, 1.0);
        let bias = bias.then(|| random_halves(&mut rng, n, -2.0, 2.0));
        Problem {
            m,
            n,
            k,
            lhs_stride,
            lhs,
            w,
            bias,
        }
    }

    fn lhs_buffer(&self, edge: Edge) -> Guarded {
        guarded_halves(&self.lhs, edge)
    }

    /// Source bytes of the RHS for `src` with a padded row stride; returns (buffer, stride).
    fn rhs_source(&self, src: Source, edge: Edge) -> (Guarded, usize) {
        let (rows, len) = match src {
            Source::Kxn => (self.k, self.n),
            Source::Nxk => (self.n, self.k),
        };
        let stride = len + 3;
        let mut v = vec![0x7e5a_u16; rows.saturating_sub(1) * stride + len];
        for r in 0..rows {
            for c in 0..len {
                let (kk, j) = match src {
                    Source::Kxn => (r, c),
                    Source::Nxk => (c, r),
                };
                v[r * stride + c] = self.w[kk * self.n + j];
            }
        }
        (guarded_halves(&v, edge), 2 * stride)
    }

    fn expected_packed(&self, nr: usize) -> Vec<u8> {
        let size = self.n.div_ceil(nr) * (self.k + 1) * nr * 2;
        let mut out = vec![0u8; size];
        let wide = |v: &[u16]| v.iter().map(|&x| x as u32).collect::<Vec<_>>();
        let bias = self.bias.as_deref().map(wide);
        pack_reference::pack(
            self.n,
            self.k,
            nr,
            2,
            &wide(&self.w),
            bias.as_deref(),
            &mut out,
        );
        out
    }

    fn expected_dst(&self, clamp: (f32, f32)) -> Vec<u16> {
        let mut out = vec![0u16; self.m * self.n];
        reference::matmul(
            self.m,
            self.n,
            self.k,
            &self.lhs,
            self.lhs_stride / 2,
            &self.w,
            self.bias.as_deref(),
            clamp,
            &mut out,
        );
        out
    }
}

/// Packs `p` with `packer` through its C symbol into a pattern-filled buffer at a guard page.
fn pack(p: &Problem, packer: &Packer, edge: Edge) -> Guarded {
    let v = variant(packer);
    let (src, stride) = p.rhs_source(v.source(), edge);
    let bias = p.bias.as_ref().map(|b| guarded_halves(b, edge));
    let size = sym::<Getter2>("get_rhs_packed_size", packer.name)(p.n, p.k);
    let mut out = Guarded::from_bytes(&vec![0xa5; size], edge);
    // SAFETY: source, bias and output sized for n x k; scale and params null as required.
    unsafe {
        sym::<RhsPackFloatFn>("run", packer.name)(
            1,
            p.n,
            p.k,
            v.nr(),
            1,
            1,
            stride,
            src.ptr().cast(),
            bias.as_ref().map_or(ptr::null(), |b| b.ptr().cast()),
            ptr::null(),
            out.mut_ptr().cast(),
            0,
            ptr::null(),
        )
    };
    out
}

const PACK_SHAPES: [(usize, usize); 11] = [
    (1, 1),
    (1, 0),
    (5, 3),
    (16, 4),
    (17, 5),
    (32, 8),
    (33, 17),
    (8, 64),
    (70, 9),
    (300, 2),
    (130, 33),
];

#[test]
fn packers_match_reference_bytes() {
    let mut cases = 0;
    for packer in packers() {
        let v = variant(packer);
        for (seed, &(n, k)) in PACK_SHAPES.iter().enumerate() {
            for with_bias in [false, true] {
                if !with_bias && v.requires_bias() {
                    continue;
                }
                let p = Problem::new(1, n, k, 0, with_bias, 40 + seed as u64);
                let expect = p.expected_packed(v.nr());
                for edge in EDGES {
                    let got = pack(&p, packer, edge);
                    assert_eq!(
                        got.bytes(),
                        &expect[..],
                        "{} n={n} k={k} bias={with_bias} {edge:?}",
                        packer.name
                    );
                    cases += 1;
                }
            }
        }
    }
    eprintln!("f16 packer cases: {cases}");
    eprintln!("RELIABILITY bounds_packers {cases}");
}

#[derive(Clone, Copy)]
enum Impl {
    Exported,
    Portable,
}

/// Portions (row start, col start, rows, cols) the way a threaded framework splits work.
fn portions(m: usize, n: usize, m_step: usize, n_step: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = vec![(0, 0, m, n)];
    let last_m = (m - 1) / m_step * m_step;
    let last_n = (n - 1) / n_step * n_step;
    out.push((0, 0, m.min(m_step), n.min(n_step)));
    out.push((last_m, last_n, m - last_m, n - last_n));
    let mid_m = (m / 2) / m_step * m_step;
    let mid_n = (n / 2) / n_step * n_step;
    out.push((
        mid_m,
        mid_n,
        (m - mid_m).min(m_step + 1),
        (n - mid_n).min(2 * n_step + 3),
    ));
    out
}

const CANARY: u16 = 0x7e5a;

/// Calls the kernel on one portion; `dst` is the whole m x (n + 3) destination.
#[allow(clippy::too_many_arguments)]
fn call(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    lhs: &Guarded,
    rhs: &Guarded,
    dst: &mut Guarded,
    portion: (usize, usize, usize, usize),
    clamp: (f32, f32),
    dst_stride_col: usize,
) {
    let (m0, n0, mh, nw) = portion;
    let dst_stride = 2 * (p.n + 3);
    let lhs_off = sym::<Getter2>("get_lhs_offset", k.stem)(m0, p.lhs_stride);
    let rhs_off = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, p.k);
    let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, dst_stride);
    // SAFETY: offsets from the kernel's getters; buffers sized for the problem.
    unsafe {
        let (l, r, d) = (
            lhs.ptr().wrapping_add(lhs_off),
            rhs.ptr().add(rhs_off),
            dst.mut_ptr().add(dst_off),
        );
        match which {
            Impl::Exported => sym::<MatmulFloatFn>("run", k.stem)(
                mh,
                nw,
                p.k,
                l.cast(),
                p.lhs_stride,
                r.cast(),
                d.cast(),
                dst_stride,
                dst_stride_col,
                clamp.0,
                clamp.1,
            ),
            Impl::Portable => {
                let args = family::Args {
                    m: mh,
                    n: nw,
                    k: p.k,
                    lhs: l,
                    lhs_stride: p.lhs_stride,
                    rhs_packed: r,
                    dst: d,
                    dst_stride_row: dst_stride,
                    dst_stride_col,
                    clamp_min: clamp.0,
                    clamp_max: clamp.1,
                    elem: 2,
                };
                let portable = MatmulKernel {
                    native: NativeFn::Portable,
                    ..*k
                };
                assert_eq!(family::check(&portable, &args), Ok(()));
                family::run(&portable, &args)
            }
        }
    }
}

/// Runs one portion and checks it bit for bit against `expect`, and that nothing outside the
/// portion was written.
#[allow(clippy::too_many_arguments)]
fn run_portion(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    lhs: &Guarded,
    rhs: &Guarded,
    portion: (usize, usize, usize, usize),
    clamp: (f32, f32),
    expect: &[u16],
    edge: Edge,
) {
    let (m0, n0, mh, nw) = portion;
    let stride = p.n + 3;
    let mut dst = guarded_halves(&vec![CANARY; p.m * stride], edge);
    call(k, which, p, lhs, rhs, &mut dst, portion, clamp, 2);
    for i in 0..p.m {
        for j in 0..stride {
            let got = half_at(&dst, i * stride + j);
            let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
            let want = if inside { expect[i * p.n + j] } else { CANARY };
            assert_eq!(
                got,
                want,
                "{} ({}) m={} n={} k={} lhs_stride={} portion={portion:?} at ({i},{j}) clamp={clamp:?}: {got:#06x} vs {want:#06x}",
                k.stem,
                match which {
                    Impl::Exported => "exported",
                    Impl::Portable => "portable",
                },
                p.m,
                p.n,
                p.k,
                p.lhs_stride,
            );
        }
    }
}

/// (m, n, k): partial and whole row blocks and column groups (16 and 32), K tails of every
/// length mod 8, K = 0 (the clamped bias).
const SHAPES: [(usize, usize, usize); 17] = [
    (1, 1, 1),
    (2, 5, 0),
    (1, 16, 4),
    (1, 35, 3),
    (6, 32, 8),
    (7, 17, 5),
    (5, 8, 2),
    (12, 64, 9),
    (13, 47, 31),
    (3, 70, 6),
    (18, 9, 7),
    (1, 1, 1023),
    (9, 300, 15),
    (31, 64, 64),
    (1013, 1, 5),
    (25, 129, 66),
    (6, 48, 12),
];

fn check_kernel(k: &MatmulKernel, which: Impl) -> usize {
    let t = k.tile();
    let mut cases = 0;
    for (seed, &(m, n, kk)) in SHAPES.iter().enumerate() {
        for with_bias in [false, true] {
            let packer = k.rhs_packers[(seed + with_bias as usize) % k.rhs_packers.len()];
            if !with_bias && variant(packer).requires_bias() {
                continue;
            }
            // Some seeds pad LHS rows; every fourth uses an odd stride KleidiAI rounds down.
            let pad = [0, 12, 0, 7][seed % 4];
            let p = Problem::new(m, n, kk, pad, with_bias, 100 + seed as u64);
            let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let mut sorted: Vec<f64> = p
                .expected_dst(no_clamp)
                .iter()
                .map(|&h| f16::to_f64(h))
                .collect();
            sorted.sort_by(f64::total_cmp);
            // Bounds between halves (rounded by the kernel) that cut off a fifth at each end.
            let biting = (
                sorted[sorted.len() / 5] as f32 + 1e-4,
                sorted[sorted.len() * 4 / 5] as f32 - 1e-4,
            );
            // Bounds the wrong way round: FMIN then FMAX leaves the lower bound everywhere.
            let inverted = (0.3, -0.3);
            for clamp in [no_clamp, biting, inverted] {
                let expect = p.expected_dst(clamp);
                for edge in EDGES {
                    let lhs = p.lhs_buffer(edge);
                    let rhs = pack(&p, packer, edge);
                    let parts = if pad % 2 == 0 {
                        portions(m, n, t.m_step, t.n_step)
                    } else {
                        vec![(0, 0, m, n)]
                    };
                    for portion in parts {
                        run_portion(k, which, &p, &lhs, &rhs, portion, clamp, &expect, edge);
                        cases += 1;
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn exported_kernels_match_reference() {
    let mut total = 0;
    for k in runnable() {
        let cases = check_kernel(k, Impl::Exported);
        eprintln!("{}: {cases} cases", k.stem);
        total += cases;
    }
    eprintln!("exported f16 kernel cases: {total}");
    eprintln!("RELIABILITY bounds_kernels {total}");
}

#[test]
fn portable_kernels_match_reference() {
    let mut total = 0;
    for k in kernels() {
        let cases = check_kernel(k, Impl::Portable);
        eprintln!("{} (portable): {cases} cases", k.stem);
        total += cases;
    }
    eprintln!("RELIABILITY bounds_portable {total}");
}

/// Where FEAT_FP16 is missing the exported kernels must not run: the catalog marks them as
/// needing it, and the selection never offers them.
#[test]
fn kernels_need_fp16() {
    for k in kernels() {
        assert_eq!(k.isa, rkai::ukernels::arch::Isa::NeonFp16, "{}", k.stem);
    }
    if cfg!(target_arch = "aarch64")
        && !support::cpu::features().contains(rkai::ukernels::arch::Isa::NeonFp16.features())
    {
        assert!(runnable().is_empty());
    }
}

/// NaNs (quiet and signalling), infinities, signed zeros, subnormals and overflowing products:
/// the kernels follow Arm's FMLA/FMIN/FMAX rules on halves, as the reference models them.
#[test]
fn non_finite_values_follow_arm_rules() {
    let specials: [u16; 12] = [
        0x7e00, // quiet NaN
        0x7d01, // signalling NaN with payload
        0xfe33, // negative quiet NaN with payload
        0x7c00, // +inf
        0xfc00, // -inf
        0x8000, // -0
        0x0000, // +0
        0x0001, // smallest subnormal
        0x7bff, // 65504
        0xfbff, // -65504
        0x03ff, // largest subnormal
        0x5bff, // 255.9
    ];
    let mut cases = 0;
    let all: Vec<&MatmulKernel> = kernels().collect();
    for k in all {
        let t = k.tile();
        let (m, n, kk) = (7, t.n_step + 3, 9);
        for seed in 0..6u64 {
            let mut p = Problem::new(m, n, kk, 0, true, 900 + seed);
            let mut rng = Rng::new(seed);
            let mut pick = |v: &mut Vec<u16>| {
                for _ in 0..v.len() / 4 + 1 {
                    let at = rng.next_u64() as usize % v.len();
                    v[at] = specials[rng.next_u64() as usize % specials.len()];
                }
            };
            pick(&mut p.lhs);
            pick(&mut p.w);
            pick(p.bias.as_mut().unwrap());
            let packer = k.rhs_packers[0];
            for clamp in [
                (f32::NEG_INFINITY, f32::INFINITY),
                (-1.0, 1.0),
                (f32::NAN, 1.0),
                (-1.0, f32::NAN),
                (-0.0, 0.0),
                (-1e9, 1e9), // beyond the f16 range: infinities after rounding
                (-70000.0, 65519.0),
            ] {
                let expect = p.expected_dst(clamp);
                let lhs = p.lhs_buffer(Edge::End);
                let rhs = pack(&p, packer, Edge::End);
                let mut which = vec![Impl::Portable];
                if support::cpu::can_run(k.isa) {
                    which.push(Impl::Exported);
                }
                for w in which {
                    run_portion(
                        k,
                        w,
                        &p,
                        &lhs,
                        &rhs,
                        (0, 0, m, n),
                        clamp,
                        &expect,
                        Edge::End,
                    );
                    cases += 1;
                }
            }
        }
    }
    eprintln!("non-finite f16 cases: {cases}");
    eprintln!("RELIABILITY hostile {cases}");
}

/// Long sums that overflow and cancel: the per-step rounding is what the kernels do.
#[test]
fn large_values_round_at_every_step() {
    let mut cases = 0;
    for k in kernels() {
        let t = k.tile();
        let (m, n, kk) = (6, t.n_step, 200);
        let mut p = Problem::new(m, n, kk, 0, true, 31);
        let mut rng = Rng::new(32);
        p.lhs = random_halves(&mut rng, p.lhs.len(), -40.0, 40.0);
        p.w = random_halves(&mut rng, p.w.len(), -30.0, 30.0);
        let clamp = (f32::NEG_INFINITY, f32::INFINITY);
        let expect = p.expected_dst(clamp);
        let lhs = p.lhs_buffer(Edge::End);
        let rhs = pack(&p, k.rhs_packers[0], Edge::End);
        let mut which = vec![Impl::Portable];
        if support::cpu::can_run(k.isa) {
            which.push(Impl::Exported);
        }
        for w in which {
            run_portion(
                k,
                w,
                &p,
                &lhs,
                &rhs,
                (0, 0, m, n),
                clamp,
                &expect,
                Edge::End,
            );
            cases += 1;
        }
    }
    eprintln!("large-value f16 cases: {cases}");
    eprintln!("RELIABILITY hostile {cases}");
}

/// Only the `6x16x8` kernel checks `dst_stride_col`; the others ignore it as KleidiAI's do.
#[test]
fn dst_stride_col_is_ignored_where_kleidiai_ignores_it() {
    for k in runnable() {
        if k.stem.contains("6x16x8") {
            continue;
        }
        let p = Problem::new(7, 40, 5, 0, true, 3);
        let (lhs, rhs) = (
            p.lhs_buffer(Edge::End),
            pack(&p, k.rhs_packers[0], Edge::End),
        );
        let mut with_zero = Guarded::new(2 * 7 * 43, Edge::End);
        let mut with_two = Guarded::new(2 * 7 * 43, Edge::End);
        let clamp = (-1.0, 1.0);
        let whole = (0, 0, 7, 40);
        call(
            k,
            Impl::Exported,
            &p,
            &lhs,
            &rhs,
            &mut with_zero,
            whole,
            clamp,
            0,
        );
        call(
            k,
            Impl::Exported,
            &p,
            &lhs,
            &rhs,
            &mut with_two,
            whole,
            clamp,
            2,
        );
        assert_eq!(with_zero.bytes(), with_two.bytes(), "{}", k.stem);
    }
}

/// Disjoint m_step x n_step portions on 8 threads sharing the operands equal one call.
#[test]
fn threads_on_disjoint_portions_equal_one_call() {
    let threads = 8;
    let mut threaded = 0;
    for k in runnable() {
        let t = k.tile();
        let (m, n) = (3 * t.m_step + 1, 5 * t.n_step + 3);
        let p = Problem::new(m, n, 77, 0, true, 77);
        let lhs = p.lhs_buffer(Edge::End);
        let rhs = pack(&p, k.rhs_packers[0], Edge::End);
        let (lhs_at, rhs_at) = (lhs.ptr() as usize, rhs.ptr() as usize);
        let run_into = move |dst: usize, m0: usize, n0: usize, rows: usize, cols: usize| {
            let lhs_off = sym::<Getter2>("get_lhs_offset", k.stem)(m0, p.lhs_stride);
            let rhs_off = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, p.k);
            let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, 2 * n);
            // SAFETY: offsets from the getters; each thread writes only its own portion.
            unsafe {
                sym::<MatmulFloatFn>("run", k.stem)(
                    rows,
                    cols,
                    p.k,
                    (lhs_at as *const u8).add(lhs_off).cast(),
                    p.lhs_stride,
                    (rhs_at as *const u8).add(rhs_off).cast(),
                    (dst as *mut u8).add(dst_off).cast(),
                    2 * n,
                    2,
                    -3.0,
                    3.0,
                )
            }
        };
        let mut single = vec![0u8; 2 * m * n];
        run_into(single.as_mut_ptr() as usize, 0, 0, m, n);
        let tiles: Vec<(usize, usize)> = (0..m)
            .step_by(t.m_step)
            .flat_map(|m0| (0..n).step_by(t.n_step).map(move |n0| (m0, n0)))
            .collect();
        let mut shared = vec![0u8; 2 * m * n];
        let base = shared.as_mut_ptr() as usize;
        std::thread::scope(|scope| {
            for worker in 0..threads {
                let tiles = &tiles;
                let run_into = &run_into;
                scope.spawn(move || {
                    for &(m0, n0) in tiles.iter().skip(worker).step_by(threads) {
                        let (rows, cols) = (t.m_step.min(m - m0), t.n_step.min(n - n0));
                        run_into(base, m0, n0, rows, cols);
                    }
                });
            }
        });
        assert_eq!(shared, single, "{}: threaded portions differ", k.stem);
        threaded += 1;
    }
    eprintln!("RELIABILITY concurrency {threaded}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn callee_saved_registers_survive() {
    use support::abi::{CallArgs, call, describe};
    let mut calls = 0;
    for k in runnable() {
        for &(m, n, kk) in &[(1, 8, 3), (7, 33, 9), (12, 40, 64)] {
            let p = Problem::new(m, n, kk, 0, true, 5);
            let lhs = p.lhs_buffer(Edge::End);
            let rhs = pack(&p, k.rhs_packers[0], Edge::End);
            let mut dst = Guarded::new(2 * m * n, Edge::End);
            let args = CallArgs {
                x: [
                    m as u64,
                    n as u64,
                    kk as u64,
                    lhs.ptr() as u64,
                    p.lhs_stride as u64,
                    rhs.ptr() as u64,
                    dst.mut_ptr() as u64,
                    2 * n as u64,
                ],
                stack: [2, 0],
                d: [
                    CallArgs::f32_bits(-1e4),
                    CallArgs::f32_bits(1e4),
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                ],
            };
            let f =
                rkai::capi::exports::symbol_address(&support::cabi::symbol("run", k.stem)).unwrap();
            // SAFETY: args describe kai_run_matmul's prototype with valid buffers.
            let clobbered = unsafe { call(f, &args) };
            assert_eq!(clobbered, 0, "{} clobbered {}", k.stem, describe(clobbered));
            calls += 1;
        }
    }
    eprintln!("RELIABILITY registers {calls}");
}

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random shapes and data: packed bytes and results equal the reference.
        #[test]
        fn random_problems_match_reference(m in 1usize..30, n in 1usize..80, kk in 0usize..70, seed in any::<u64>(), bias in any::<bool>()) {
            for k in kernels() {
                let packer = k.rhs_packers[(seed % k.rhs_packers.len() as u64) as usize];
                let bias = bias || variant(packer).requires_bias();
                let p = Problem::new(m, n, kk, 2 * (seed % 3) as usize, bias, seed);
                let rhs = pack(&p, packer, Edge::End);
                prop_assert_eq!(rhs.bytes(), &p.expected_packed(k.tile().nr)[..]);
                let clamp = (-1.5, 2.0);
                let expect = p.expected_dst(clamp);
                let lhs = p.lhs_buffer(Edge::End);
                let which = if support::cpu::can_run(k.isa) { Impl::Exported } else { Impl::Portable };
                run_portion(k, which, &p, &lhs, &rhs, (0, 0, m, n), clamp, &expect, Edge::End);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

const GEMM: &str = "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla";
const GEMM_6X16: &str = "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla";
const KXN: &str = "rhs_pack_kxn_x16p32x1b_x16_x16_neon";
const NXK: &str = "rhs_pack_nxk_x16p32x1bx16_x16_x16_neon";
const KXN_16: &str = "rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon";

/// Calls `packer` for n = 8, k = 4 with the given (num_groups, nr, kr, sr, bias, scale, extra,
/// params).
#[allow(clippy::too_many_arguments)]
fn pack_call(
    packer: &str,
    num_groups: usize,
    nr: usize,
    kr: usize,
    sr: usize,
    with_bias: bool,
    scale: bool,
    extra: usize,
    params: bool,
) {
    let w = [0x3c00u16; 64];
    let bias = [0x3800u16; 32];
    let mut out = vec![0u8; 8192];
    let dummy = [0u8; 16];
    // SAFETY: buffers are large enough for n = 8, k = 4; the call is expected to abort.
    unsafe {
        sym::<RhsPackFloatFn>("run", packer)(
            num_groups,
            8,
            4,
            nr,
            kr,
            sr,
            16,
            w.as_ptr().cast(),
            if with_bias {
                bias.as_ptr().cast()
            } else {
                ptr::null()
            },
            if scale {
                dummy.as_ptr().cast()
            } else {
                ptr::null()
            },
            out.as_mut_ptr().cast(),
            extra,
            if params {
                dummy.as_ptr().cast::<c_void>()
            } else {
                ptr::null()
            },
        )
    }
}

/// Calls `stem` for m = 2, n = 8, k = 4 with the given destination strides and LHS.
fn run_call(stem: &str, dst_stride_row: usize, dst_stride_col: usize, null_lhs: bool) {
    let lhs = [0x3c00u16; 16];
    let rhs = vec![0u8; 4096];
    let mut dst = [0u16; 64];
    // SAFETY: buffers cover the call; it is expected to abort.
    unsafe {
        sym::<MatmulFloatFn>("run", stem)(
            2,
            8,
            4,
            if null_lhs {
                ptr::null()
            } else {
                lhs.as_ptr().cast()
            },
            8,
            rhs.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            dst_stride_row,
            dst_stride_col,
            -1.0,
            1.0,
        )
    }
}

type Case = (&'static str, String, &'static str, fn());

fn cases() -> Vec<Case> {
    let run = |s: &str| format!("kai_run_{s}");
    vec![
        ("num_groups", run(KXN), "num_groups == 1", || {
            pack_call(KXN, 2, 32, 1, 1, true, false, 0, false)
        }),
        ("nxk_nr", run(NXK), "nr == n_step", || {
            pack_call(NXK, 1, 16, 1, 1, true, false, 0, false)
        }),
        ("bias_nr", run(KXN_16), "nr == n_step", || {
            pack_call(KXN_16, 1, 32, 1, 1, true, false, 0, false)
        }),
        ("kr", run(KXN), "kr == 1", || {
            pack_call(KXN, 1, 32, 2, 1, true, false, 0, false)
        }),
        ("sr", run(NXK), "sr == 1", || {
            pack_call(NXK, 1, 32, 1, 2, true, false, 0, false)
        }),
        ("bias_required", run(KXN_16), "bias != NULL", || {
            pack_call(KXN_16, 1, 16, 1, 1, false, false, 0, false)
        }),
        ("scale", run(KXN), "scale == NULL", || {
            pack_call(KXN, 1, 32, 1, 1, true, true, 0, false)
        }),
        ("extra_bytes", run(NXK), "extra_bytes == 0", || {
            pack_call(NXK, 1, 32, 1, 1, true, false, 4, false)
        }),
        ("params", run(KXN_16), "params == NULL", || {
            pack_call(KXN_16, 1, 16, 1, 1, true, false, 0, true)
        }),
        (
            "dst_stride_col",
            run(GEMM_6X16),
            "dst_stride_col == sizeof(uint16_t)",
            || run_call(GEMM_6X16, 16, 4, false),
        ),
        (
            "dst_stride_row",
            run(GEMM),
            "dst_stride_row >= n * sizeof(uint16_t)",
            || run_call(GEMM, 8, 2, false),
        ),
        ("null_lhs", run(GEMM), "lhs != NULL", || {
            run_call(GEMM, 16, 2, true)
        }),
        (
            "lhs_offset",
            format!("kai_get_lhs_offset_{GEMM}"),
            "(m_idx % m_step) == 0",
            || {
                sym::<Getter2>("get_lhs_offset", GEMM)(3, 64);
            },
        ),
        (
            "dst_offset",
            format!("kai_get_dst_offset_{GEMM}"),
            "(n_idx % n_step) == 0",
            || {
                sym::<Getter3>("get_dst_offset", GEMM)(6, 16, 64);
            },
        ),
        (
            "rhs_packed_offset",
            format!("kai_get_rhs_packed_offset_{GEMM_6X16}"),
            "(n_idx % nr) == 0",
            || {
                sym::<Getter2>("get_rhs_packed_offset", GEMM_6X16)(8, 64);
            },
        ),
        (
            "rhs_offset",
            format!("kai_get_rhs_offset_{NXK}"),
            "(n_idx % n_step) == 0",
            || {
                sym::<Getter2>("get_rhs_offset", NXK)(16, 64);
            },
        ),
        (
            "packed_size_overflow",
            format!("kai_get_rhs_packed_size_{KXN}"),
            "packed RHS size fits in size_t",
            || {
                sym::<Getter2>("get_rhs_packed_size", KXN)(usize::MAX / 64, 1 << 20);
            },
        ),
    ]
}

#[test]
#[ignore = "child process of the death tests"]
fn death_child() {
    let name = std::env::var(support::death::CASE_ENV).expect("death case");
    let (_, _, _, action) = cases()
        .into_iter()
        .find(|c| c.0 == name)
        .expect("known case");
    action();
    println!("survived");
}

#[test]
fn violations_abort_with_function_and_condition() {
    let cases = cases();
    for (name, symbol, condition, _) in &cases {
        let out = support::death::run_child("death_child", name);
        support::death::expect_abort(&out, symbol, condition);
    }
    eprintln!("{} f16 contract violations checked", cases.len());
    eprintln!("RELIABILITY contract {}", cases.len());
}
