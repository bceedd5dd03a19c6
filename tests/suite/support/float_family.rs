//! The checks of the float GEMM families whose RHS packers put the bias in front of each column
//! group and whose LHS is not packed (`matmul_clamp_f32_f32_f32p`, `matmul_clamp_f16_f16_f16p`),
//! written once and parameterised by a [`FloatFamily`]: element type, reference, kernel and packer
//! lists and shapes; the stems the contract-violation cases call come from the catalog. The test
//! files implement the trait and hold the `#[test]` functions (each a call into this module) and
//! their own extras.

use super::cabi::func as sym;
use super::cabi::{self, Getter0, Getter2, Getter3, MatmulFloatFn};
use super::death::Case;
use super::gemm::{self, Impl, Portion};
use super::guard::{EDGES, Edge, Guarded};
use super::rng::Rng;
use super::tester;
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::float::f16;
use rkai_ukernels::kernel::{Columns, MatmulKernel, Rows};
use rkai_ukernels::matmul::args::KernelFn;
use rkai_ukernels::matmul::float_gemm as family;
use rkai_ukernels::pack::Source;
use rkai_ukernels::pack::kinds::{Packer, PackerKind, RhsPackerKind, WeightLayout};
use rkai_ukernels::pack::rhs_pack_float::Variant;
use rkai_ukernels::reference::float_gemm as pack_reference;
use std::ffi::c_void;
use std::ptr;

type Getter1 = extern "C" fn(usize) -> usize;

/// A float value as the kernels store it: f32, or f16 bits.
pub trait Elem: Copy + Send + Sync + 'static {
    /// Bytes per value.
    const BYTES: usize;
    /// A NaN no computation produces: fills unused source slots and the destination around a
    /// portion.
    const CANARY: Self;
    /// The value nearest to `x`.
    fn from_f32(x: f32) -> Self;
    fn to_f64(self) -> f64;
    /// Raw bits (zero-extended).
    fn bits(self) -> u32;
    /// The little-endian bytes of `v`.
    fn to_bytes(v: &[Self]) -> Vec<u8>;

    /// Clamp bounds the wrong way round: FMIN then FMAX leaves the lower bound everywhere.
    const INVERTED: (f32, f32);
    /// Values the non-finite checks scatter over the operands.
    const SPECIALS: &'static [Self];
    /// Clamps of the non-finite checks past the shared [`SPECIAL_CLAMPS`].
    const EXTRA_SPECIAL_CLAMPS: &'static [(f32, f32)] = &[];
    /// The clamp bound the register checks pass.
    const REGISTER_CLAMP: f32;

    /// Clamp bounds that cut off about a fifth of the results at each end, from the 20th and
    /// 80th percentiles of the unclamped results.
    fn biting((lo, hi): (f64, f64)) -> (f32, f32) {
        (lo as f32, hi as f32)
    }
}

impl Elem for f32 {
    const BYTES: usize = 4;
    const CANARY: Self = f32::from_bits(0x7fc0_dead);
    fn from_f32(x: f32) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self.into()
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
    fn to_bytes(v: &[Self]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    const INVERTED: (f32, f32) = (0.25, -0.25);
    const SPECIALS: &'static [f32] = F32_SPECIALS;
    const REGISTER_CLAMP: f32 = 1e30;
}

/// f16 bits.
impl Elem for u16 {
    const BYTES: usize = 2;
    const CANARY: Self = 0x7e5a;
    fn from_f32(x: f32) -> Self {
        f16::from_f32(x)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    fn bits(self) -> u32 {
        self.into()
    }
    fn to_bytes(v: &[Self]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    const INVERTED: (f32, f32) = (0.3, -0.3);
    const SPECIALS: &'static [u16] = F16_SPECIALS;
    const EXTRA_SPECIAL_CLAMPS: &'static [(f32, f32)] = &[
        (-1e9, 1e9),         // beyond the f16 range: infinities after rounding
        (-70000.0, 65519.0), // rounding to the largest half
    ];
    const REGISTER_CLAMP: f32 = 1e4;

    /// Bounds between halves (the kernels round them to f16), so that none equals a result.
    fn biting((lo, hi): (f64, f64)) -> (f32, f32) {
        (lo as f32 + 1e-4, hi as f32 - 1e-4)
    }
}

fn guarded<T: Elem>(v: &[T], edge: Edge) -> Guarded {
    Guarded::from_bytes(&T::to_bytes(v), edge)
}

/// `len` values uniform in [lo, hi), rounded to `T`.
pub fn random<T: Elem>(rng: &mut Rng, len: usize, lo: f32, hi: f32) -> Vec<T> {
    (0..len).map(|_| T::from_f32(rng.f32(lo, hi))).collect()
}

/// A scalar reference: (m, n, k, lhs, lhs_stride in values, weights K x N, bias, clamp, dst).
pub type Reference<T> =
    fn(usize, usize, usize, &[T], usize, &[T], Option<&[T]>, (f32, f32), &mut [T]);

/// (n, k) of every float family's packer checks: one column, K = 0, partial and whole column
/// groups, long K and long N.
pub const PACK_SHAPES: &[(usize, usize)] = &[
    (1, 1),
    (1, 0),
    (5, 3),
    (16, 4),
    (17, 5),
    (33, 17),
    (8, 64),
    (70, 9),
    (300, 2),
    (130, 33),
];

/// The clamps every float family's non-finite checks run with: none, biting, NaN bounds (the
/// other bound holds) and signed zeros.
pub const SPECIAL_CLAMPS: &[(f32, f32)] = &[
    (f32::NEG_INFINITY, f32::INFINITY),
    (-1.0, 1.0),
    (f32::NAN, 1.0),
    (-1.0, f32::NAN),
    (-0.0, 0.0),
];

/// (m, n, k) of the kernel checks: partial and whole row blocks and column groups (`F::nr()`
/// columns each), K tails of every length of the K loop's unroll (K = `F::nr() / 2 - 1`, the
/// longest), K = 0 (the result is the clamped bias) and KleidiAI's float test shapes; then the
/// family's own.
pub fn shapes<F: FloatFamily>() -> Vec<(usize, usize, usize)> {
    let nr = F::nr();
    let shared = [
        (1, 1, 1),
        (2, 5, 0),
        (1, 16, 4),
        (1, 35, 3),
        (6, nr, 8),
        (7, 17, 5),
        (5, 8, 2),
        (12, 2 * nr, 9),
        (13, 47, 31),
        (3, 70, 6),
        (18, 9, 7),
        (1, 1, 1023),
        (9, 300, nr / 2 - 1),
        (31, 64, 64),
        (1013, 1, 5),
        (25, 129, 66),
    ];
    shared
        .into_iter()
        .chain(F::EXTRA_SHAPES.iter().copied())
        .collect()
}

/// The hostile f32 values both f32 families (NEON/SVE and the streaming GEMVs) scatter over
/// their operands ([`Elem::SPECIALS`]).
pub const F32_SPECIALS: &[f32] = &[
    f32::NAN,
    f32::from_bits(0x7f80_0001), // signalling NaN
    f32::from_bits(0xffc0_1234), // negative quiet NaN with payload
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    0.0,
    f32::from_bits(1),
    f32::MAX,
    -f32::MAX,
    1e-30,
];

/// The hostile f16 values the f16 families (NEON and the streaming GEMVs) scatter over their
/// operands ([`Elem::SPECIALS`]).
pub const F16_SPECIALS: &[u16] = &[
    0x7e00, // quiet NaN
    0x7d01, // signalling NaN with payload
    0xfe33, // negative quiet NaN with payload
    0x7c00, // +inf
    0xfc00, // -inf
    0x8000, // -0
    0x0000, // +0
    0x0001, // smallest subnormal
    0x03ff, // largest subnormal
    0x83ff, // largest negative subnormal
    0x0400, // smallest normal
    0x7bff, // 65504
    0xfbff, // -65504
    0x5bff, // 255.9
];

/// How a set of kernels computes, as the value checks need it: the element type (which brings
/// the values and clamps that probe it) and the scalar reference modelling their instructions. A
/// family ([`FloatFamily`]) is one; so is each numerics of the streaming GEMVs (`support::gemv`).
pub trait FloatModel: 'static {
    type T: Elem;
    /// How the log names the kernels ("float", "f16").
    const LABEL: &'static str;
    /// The scalar reference (see `rkai_ukernels::reference`).
    const REFERENCE: Reference<Self::T>;
}

/// What one family's tests need to know about it past its model.
pub trait FloatFamily: FloatModel + Sized {
    const FAMILY: Family;
    /// The C type of one value in KleidiAI's assertions.
    const C_TYPE: &'static str;
    /// (n, k) of the packer checks past the shared [`PACK_SHAPES`].
    const EXTRA_PACK_SHAPES: &'static [(usize, usize)] = &[];
    /// (m, n, k) of the kernel checks past the shared ones of [`shapes`].
    const EXTRA_SHAPES: &'static [(usize, usize, usize)] = &[];
    /// Whether the portable path is checked next to the exported kernels in the non-finite
    /// checks and in their place in the random ones where the CPU lacks the kernels' features.
    const PORTABLE_TOO: bool;
    /// (m, n, k) of the register checks.
    const REGISTER_SHAPES: [(usize, usize, usize); 3];
    /// n of the `dst_stride_col` check.
    const STRIDE_COL_N: usize;

    // The kernels and packers the shapes and the contract-violation cases are built around, from
    // the catalog.

    /// The family's first fixed-width kernel that ignores `dst_stride_col`.
    fn gemm() -> &'static str {
        main_kernel::<Self>().stem
    }
    /// The kernel that asserts `dst_stride_col`: its packer requires the bias.
    fn gemm_bias() -> &'static str {
        bias_kernel::<Self>().stem
    }
    /// The main kernel's K x N packer.
    fn kxn() -> &'static str {
        rhs_packer(main_kernel::<Self>(), WeightLayout::Kxn)
    }
    /// The main kernel's N x K packer.
    fn nxk() -> &'static str {
        rhs_packer(main_kernel::<Self>(), WeightLayout::Nxk)
    }
    /// The bias-requiring packer, whose nr is half the main kernel's.
    fn kxn_bias() -> &'static str {
        bias_kernel::<Self>().rhs_packers[0].name
    }
    /// The main kernel's nr.
    fn nr() -> usize {
        main_kernel::<Self>().base_tile.nr
    }
}

fn main_kernel<F: FloatFamily>() -> &'static MatmulKernel {
    kernels::<F>()
        .find(|k| k.columns == Columns::Fixed && !k.asserts.dst_stride_col)
        .expect("a fixed-width kernel ignoring dst_stride_col")
}

fn bias_kernel<F: FloatFamily>() -> &'static MatmulKernel {
    kernels::<F>()
        .find(|k| k.asserts.dst_stride_col)
        .expect("a kernel asserting dst_stride_col")
}

fn rhs_packer(kernel: &MatmulKernel, layout: WeightLayout) -> &'static str {
    kernel
        .rhs_packers
        .iter()
        .find(|p| p.weight_layout() == Some(layout))
        .expect("a packer of each weight layout")
        .name
}

/// The family's multi-row kernels in the catalog (its streaming GEMVs, which take one row per
/// call, have their own test files: `tests/suite/f32_sme_gemv.rs`, `tests/suite/f16_sme_gemv.rs`).
pub fn kernels<F: FloatFamily>() -> impl Iterator<Item = &'static MatmulKernel> {
    catalog::KERNELS
        .iter()
        .copied()
        .filter(|k| k.family == F::FAMILY && k.rows == Rows::Any)
}

/// The kernels this CPU can run (all of them off aarch64, where they are portable).
pub fn runnable<F: FloatFamily>() -> Vec<&'static MatmulKernel> {
    let run: Vec<_> = kernels::<F>()
        .filter(|k| super::cpu::can_run(k.isa))
        .collect();
    eprintln!(
        "CPU features {:?}: running {} of {} {} kernels ({})",
        super::cpu::features(),
        run.len(),
        kernels::<F>().count(),
        F::LABEL,
        run.iter().map(|k| k.stem).collect::<Vec<_>>().join(", ")
    );
    run
}

/// The family's packers: those of its element size.
/// The family's element size's float RHS packers of one K value per step (the SME `kr` = 2
/// packers have their own tests, `tests/suite/x16p2vlx2_pack.rs`).
pub fn packers<F: FloatFamily>() -> impl Iterator<Item = &'static Packer> {
    catalog::PACKERS.iter().copied().filter(|p| {
        matches!(p.kind, PackerKind::Rhs(RhsPackerKind::Float(v))
            if v.bytes() == F::T::BYTES && v.kr() == 1)
    })
}

pub fn variant(p: &Packer) -> Variant {
    match p.kind {
        PackerKind::Rhs(RhsPackerKind::Float(v)) => v,
        _ => unreachable!(),
    }
}

/// Packers whose code runs on this CPU (the SVE one needs SVE for its vector length).
fn packer_runs(p: &Packer) -> bool {
    !p.name.ends_with("_sve") || super::cpu::can_run(rkai_ukernels::arch::Isa::Sve)
}

fn tsv_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

/// SVE vector length in bytes as the measured tables name it (16 where SVE is absent).
fn vl_bytes() -> String {
    (4 * rkai_ukernels::arch::sve_lanes32()).to_string()
}

/// The kernels' getters equal KleidiAI's measured values (at this vector length for SVE).
pub fn getters_equal_kleidiai_values<F: FloatFamily>() {
    let table = tsv_rows(include_str!("../data/kleidiai-1.30-getters.tsv"));
    for k in kernels::<F>() {
        let measured: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        assert!(!measured.is_empty(), "{} not in table", k.stem);
        if k.isa.is_sve() {
            // KleidiAI's n_step and nr are 4 x VL32, numerically the vector length in bytes.
            for r in &measured {
                assert_eq!([r[2], r[4]], [r[10], r[10]], "{r:?}");
            }
        }
        // The row measured at this vector length; VLs KleidiAI was not measured at (2048 bits)
        // follow the formula checked above, applied to the row of another VL.
        let row = measured
            .iter()
            .find(|r| !k.isa.is_sve() || r[10] == vl_bytes())
            .map(|r| r.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .unwrap_or_else(|| {
                let mut r: Vec<String> = measured[0].iter().map(|c| c.to_string()).collect();
                (r[2], r[4]) = (vl_bytes(), vl_bytes());
                r
            });
        let got = [
            sym::<Getter0>("get_m_step", k.stem)(),
            sym::<Getter0>("get_n_step", k.stem)(),
        ];
        assert_eq!(
            got.map(|v| v.to_string()),
            [row[1].as_str(), row[2].as_str()],
            "{}",
            k.stem
        );
        assert_eq!(row[3], "-", "KleidiAI has no get_mr for {}", k.stem);
        for (i, verb) in ["get_nr", "get_kr", "get_sr"].iter().enumerate() {
            let got = sym::<Getter0>(verb, k.stem)();
            assert_eq!(got.to_string(), row[4 + i], "{verb} of {}", k.stem);
        }
    }
}

/// Packed sizes, destination sizes and offsets equal KleidiAI's measured values, and the
/// kernels' offsets agree with their packers'.
pub fn packed_sizes_and_offsets_equal_kleidiai_values<F: FloatFamily>() {
    let es = F::T::BYTES;
    let table = tsv_rows(include_str!("../data/kleidiai-1.30-packed-sizes.tsv"));
    let mut checked = 0;
    for k in kernels::<F>() {
        let t = k.tile();
        let rows = table
            .iter()
            .filter(|r| r[0] == k.stem && (!k.isa.is_sve() || r[15] == vl_bytes()));
        for row in rows {
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
            // Kernel offsets agree with packer offsets (what consumers rely on when tiling).
            let rhs_k = sym::<Getter2>("get_rhs_packed_offset", k.stem)(t.n_step, kk);
            let rhs_p = sym::<Getter2>("get_rhs_packed_offset", packer)(t.n_step, kk);
            assert_eq!(rhs_k, rhs_p, "{row:?}");
            assert_eq!(rhs_k, es * t.n_step * (kk + 1), "{row:?}");
            assert_eq!(sym::<Getter0>("get_n_step", packer)(), t.nr);
            let v = variant(catalog::packer(packer).unwrap());
            if v.stride_per_column() {
                // The N x K packer's stride getter counts one column (KleidiAI's definition).
                assert_eq!(
                    sym::<Getter1>("get_rhs_packed_stride", packer)(kk),
                    es * (kk + 1)
                );
            } else if v.has_stride_getter() {
                assert_eq!(sym::<Getter1>("get_rhs_packed_stride", packer)(kk), rhs_p);
            }
            assert_eq!(
                sym::<Getter3>("get_dst_offset", k.stem)(t.m_step, t.n_step, es * n),
                t.m_step * es * n + es * t.n_step
            );
            assert_eq!(
                sym::<Getter2>("get_lhs_offset", k.stem)(t.m_step, es * kk + 8),
                t.m_step * (es * kk + 8)
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 3 * kernels::<F>().count(),
        "expected the measured rows of every kernel, checked {checked}"
    );
}

/// The packers' own getters.
pub fn packer_getters<F: FloatFamily>() {
    let es = F::T::BYTES;
    for p in packers::<F>() {
        let v = variant(p);
        let nr = v.nr();
        assert_eq!(sym::<Getter0>("get_n_step", p.name)(), nr);
        assert_eq!(
            sym::<Getter1>("get_bias_offset", p.name)(2 * nr),
            2 * es * nr
        );
        match v.source() {
            Source::Kxn => assert_eq!(
                sym::<Getter1>("get_rhs_offset", p.name)(3 * nr),
                3 * es * nr
            ),
            Source::Nxk => assert_eq!(sym::<Getter2>("get_rhs_offset", p.name)(nr, 100), 100 * nr),
        }
        assert_eq!(
            sym::<Getter2>("get_rhs_packed_offset", p.name)(2 * nr, 5),
            2 * nr * 6 * es
        );
        assert_eq!(
            sym::<Getter2>("get_rhs_packed_size", p.name)(nr + 1, 5),
            2 * nr * 6 * es
        );
    }
}

/// One problem: m x k activations (rows `lhs_stride` bytes apart), k x n weights, bias.
pub struct Problem<F: FloatModel> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// Bytes between LHS rows as passed to the kernel (possibly not a multiple of the element
    /// size: KleidiAI rounds it down).
    pub lhs_stride: usize,
    /// The LHS with rows `lhs_stride / BYTES` values apart, as the kernel reads it.
    pub lhs: Vec<F::T>,
    /// Weights, element (kk, j) at `w[kk * n + j]`.
    pub w: Vec<F::T>,
    pub bias: Option<Vec<F::T>>,
}

impl<F: FloatModel> Problem<F> {
    pub fn new(m: usize, n: usize, k: usize, stride_pad: usize, bias: bool, seed: u64) -> Self {
        let es = F::T::BYTES;
        let mut rng = Rng::new(seed);
        let lhs_stride = es * k + stride_pad;
        let row = lhs_stride / es;
        let lhs = random(&mut rng, m.saturating_sub(1) * row + k, -1.0, 1.0);
        let w = random(&mut rng, k * n, -1.0, 1.0);
        let bias = bias.then(|| random(&mut rng, n, -2.0, 2.0));
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

    /// The LHS bytes: exactly up to the end of the last row (so the end guard catches
    /// over-reads).
    pub fn lhs_buffer(&self, edge: Edge) -> Guarded {
        guarded(&self.lhs, edge)
    }

    /// Source bytes of the RHS for `src` with a padded row stride; returns (buffer, stride).
    fn rhs_source(&self, src: Source, edge: Edge) -> (Guarded, usize) {
        let (rows, len) = match src {
            Source::Kxn => (self.k, self.n),
            Source::Nxk => (self.n, self.k),
        };
        let stride = len + 3;
        let mut v = vec![F::T::CANARY; rows.saturating_sub(1) * stride + len];
        for r in 0..rows {
            for c in 0..len {
                let (kk, j) = match src {
                    Source::Kxn => (r, c),
                    Source::Nxk => (c, r),
                };
                v[r * stride + c] = self.w[kk * self.n + j];
            }
        }
        (guarded(&v, edge), F::T::BYTES * stride)
    }

    pub fn expected_packed(&self, nr: usize) -> Vec<u8> {
        let es = F::T::BYTES;
        let size = self.n.div_ceil(nr) * (self.k + 1) * nr * es;
        let mut out = vec![0u8; size];
        let bits = |v: &[F::T]| v.iter().map(|x| x.bits()).collect::<Vec<_>>();
        let bias = self.bias.as_deref().map(bits);
        pack_reference::pack(
            self.n,
            self.k,
            nr,
            es,
            &bits(&self.w),
            bias.as_deref(),
            &mut out,
        );
        out
    }

    pub fn expected_dst(&self, clamp: (f32, f32)) -> Vec<F::T> {
        let mut out = vec![F::T::CANARY; self.m * self.n];
        (F::REFERENCE)(
            self.m,
            self.n,
            self.k,
            &self.lhs,
            self.lhs_stride / F::T::BYTES,
            &self.w,
            self.bias.as_deref(),
            clamp,
            &mut out,
        );
        out
    }
}

/// Packs `p` with `packer` through its C symbol, into a buffer pre-filled with a pattern (so
/// unwritten padding shows) that ends (or starts) at a guard page.
pub fn pack<F: FloatModel>(p: &Problem<F>, packer: &Packer, edge: Edge) -> Guarded {
    let v = variant(packer);
    let (src, stride) = p.rhs_source(v.source(), edge);
    let bias = p.bias.as_ref().map(|b| guarded(b, edge));
    let size = sym::<Getter2>("get_rhs_packed_size", packer.name)(p.n, p.k);
    let mut out = Guarded::from_bytes(&vec![0xa5; size], edge);
    // SAFETY: source, bias and output sized for n x k; scale and params null as required.
    unsafe {
        let bias = bias.as_ref().map_or(ptr::null(), |b| b.ptr().cast());
        let (shape, tile) = ((p.n, p.k), (v.nr(), v.kr(), 1));
        cabi::pack_float_rhs(
            packer.name,
            shape,
            tile,
            (src.ptr().cast(), stride),
            bias,
            out.mut_ptr().cast(),
        )
    };
    out
}

/// Every packer that runs here, for every pack shape with and without bias, against both guard
/// edges: the packed bytes equal the reference.
pub fn packers_match_reference_bytes<F: FloatFamily>() {
    let mut cases = 0;
    for packer in packers::<F>().filter(|p| packer_runs(p)) {
        let v = variant(packer);
        for (seed, &(n, k)) in PACK_SHAPES.iter().chain(F::EXTRA_PACK_SHAPES).enumerate() {
            for with_bias in [false, true] {
                if !with_bias && v.requires_bias() {
                    continue;
                }
                let p = Problem::<F>::new(1, n, k, 0, with_bias, 40 + seed as u64);
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
    eprintln!("{} packer cases: {cases}", F::LABEL);
    eprintln!("RELIABILITY bounds_packers {cases}");
}

/// The LHS offset getter of `k`: KleidiAI's SME2 f16 GEMV names it `get_lhs_packed_offset`
/// although its LHS is not packed.
pub fn lhs_offset_verb(k: &MatmulKernel) -> &'static str {
    let packed = super::cabi::symbol("get_lhs_packed_offset", k.stem);
    match rkai_capi::capi::exports::symbol_address(&packed) {
        Some(_) => "get_lhs_packed_offset",
        None => "get_lhs_offset",
    }
}

/// Calls the kernel on one portion; `dst` is the whole m x (n + 3) destination.
#[allow(clippy::too_many_arguments)]
pub fn call<F: FloatModel>(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem<F>,
    lhs: &Guarded,
    rhs: &Guarded,
    dst: &mut Guarded,
    portion: Portion,
    clamp: (f32, f32),
    dst_stride_col: usize,
) {
    let (m0, n0, mh, nw) = portion;
    let dst_stride = F::T::BYTES * (p.n + 3);
    let lhs_off = sym::<Getter2>(lhs_offset_verb(k), k.stem)(m0, p.lhs_stride);
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
                    elem: F::T::BYTES,
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

/// Runs one portion and checks it bit for bit against `expect`, and that nothing outside the
/// portion was written.
#[allow(clippy::too_many_arguments)]
pub fn run_portion<F: FloatModel>(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem<F>,
    lhs: &Guarded,
    rhs: &Guarded,
    portion: Portion,
    clamp: (f32, f32),
    expect: &[F::T],
    edge: Edge,
) {
    let stride = p.n + 3;
    let mut dst = guarded(&vec![F::T::CANARY; p.m * stride], edge);
    call(k, which, p, lhs, rhs, &mut dst, portion, clamp, F::T::BYTES);
    gemm::check_portion_by(
        dst.bytes(),
        F::T::BYTES,
        p.m,
        p.n,
        stride,
        portion,
        |at| expect[at].bits(),
        F::T::CANARY.bits(),
        &|| {
            format!(
                "{} ({}) m={} n={} k={} lhs_stride={} clamp={clamp:?}",
                k.stem,
                which.name(),
                p.m,
                p.n,
                p.k,
                p.lhs_stride
            )
        },
    );
}

/// Runs the whole of `p` (LHS and `rhs` against the end guard) with each of `impls` and checks
/// the results against the reference; returns the number of runs.
pub fn check_whole<F: FloatModel>(
    k: &MatmulKernel,
    impls: &[Impl],
    p: &Problem<F>,
    rhs: &Guarded,
    clamp: (f32, f32),
) -> usize {
    let expect = p.expected_dst(clamp);
    let lhs = p.lhs_buffer(Edge::End);
    let whole = (0, 0, p.m, p.n);
    for &which in impls {
        run_portion(k, which, p, &lhs, rhs, whole, clamp, &expect, Edge::End);
    }
    impls.len()
}

/// Every shape, with and without bias, unclamped, with bounds that bite and with inverted
/// bounds, against both guard edges, over the portions a framework computes. Returns the cases.
pub fn check_kernel<F: FloatFamily>(k: &MatmulKernel, which: Impl) -> usize {
    let t = k.tile();
    let mut cases = 0;
    for (seed, (m, n, kk)) in shapes::<F>().into_iter().enumerate() {
        for with_bias in [false, true] {
            let packer = k.rhs_packers[(seed + with_bias as usize) % k.rhs_packers.len()];
            if !with_bias && variant(packer).requires_bias() {
                continue;
            }
            // Odd seeds pad LHS rows; every fourth uses a stride KleidiAI rounds down to values.
            let pad = [0, 12, 0, 7][seed % 4];
            let p = Problem::<F>::new(m, n, kk, pad, with_bias, 100 + seed as u64);
            let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let mut sorted: Vec<f64> = p
                .expected_dst(no_clamp)
                .iter()
                .map(|x| x.to_f64())
                .collect();
            sorted.sort_by(f64::total_cmp);
            let biting = F::T::biting((sorted[sorted.len() / 5], sorted[sorted.len() * 4 / 5]));
            for clamp in [no_clamp, biting, F::T::INVERTED] {
                let expect = p.expected_dst(clamp);
                for edge in EDGES {
                    let lhs = p.lhs_buffer(edge);
                    let rhs = pack(&p, packer, edge);
                    let parts = if pad % F::T::BYTES == 0 {
                        gemm::portions(m, n, t.m_step, t.n_step)
                    } else {
                        // Offsets of such strides do not match the rounded rows (as in KleidiAI).
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

pub fn exported_kernels_match_reference<F: FloatFamily>() {
    let exported = |k: &MatmulKernel| check_kernel::<F>(k, Impl::Exported);
    let total = tester::count_cases(runnable::<F>(), "", exported);
    eprintln!("exported {} kernel cases: {total}", F::LABEL);
    eprintln!("RELIABILITY bounds_kernels {total}");
}

pub fn portable_kernels_match_reference<F: FloatFamily>() {
    let portable = |k: &MatmulKernel| check_kernel::<F>(k, Impl::Portable);
    let total = tester::count_cases(kernels::<F>(), " (portable)", portable);
    eprintln!("RELIABILITY bounds_portable {total}");
}

/// The implementations a hostile-value check runs: the exported kernels this CPU runs, and with
/// [`FloatFamily::PORTABLE_TOO`] the portable path of every kernel.
pub fn hostile_impls<F: FloatFamily>() -> Vec<(&'static MatmulKernel, Vec<Impl>)> {
    if !F::PORTABLE_TOO {
        return runnable::<F>()
            .into_iter()
            .map(|k| (k, vec![Impl::Exported]))
            .collect();
    }
    kernels::<F>()
        .map(|k| {
            let mut which = vec![Impl::Portable];
            if super::cpu::can_run(k.isa) {
                which.push(Impl::Exported);
            }
            (k, which)
        })
        .collect()
}

/// NaNs (quiet and signalling), infinities, signed zeros, subnormals and overflowing products
/// scattered over the operands: the kernels follow Arm's FMLA/FMIN/FMAX rules, as the reference
/// models them.
pub fn non_finite_values_follow_arm_rules<F: FloatFamily>() {
    let mut cases = 0;
    for (k, impls) in hostile_impls::<F>() {
        let t = k.tile();
        let (m, n, kk) = (7, t.n_step + 3, 9);
        for seed in 0..6u64 {
            let mut p = Problem::<F>::new(m, n, kk, 0, true, 900 + seed);
            let mut rng = Rng::new(seed);
            let mut pick = |v: &mut Vec<F::T>| {
                for _ in 0..v.len() / 4 + 1 {
                    let at = rng.next_u64() as usize % v.len();
                    v[at] = F::T::SPECIALS[rng.next_u64() as usize % F::T::SPECIALS.len()];
                }
            };
            pick(&mut p.lhs);
            pick(&mut p.w);
            pick(p.bias.as_mut().unwrap());
            let packer = k.rhs_packers[0];
            for &clamp in SPECIAL_CLAMPS.iter().chain(F::T::EXTRA_SPECIAL_CLAMPS) {
                let rhs = pack(&p, packer, Edge::End);
                cases += check_whole(k, &impls, &p, &rhs, clamp);
            }
        }
    }
    eprintln!("non-finite {} cases: {cases}", F::LABEL);
    eprintln!("RELIABILITY hostile {cases}");
}

/// Only the kernel of the bias-required packer checks `dst_stride_col`; the others ignore it
/// as KleidiAI's do.
pub fn dst_stride_col_is_ignored_where_kleidiai_ignores_it<F: FloatFamily>() {
    let es = F::T::BYTES;
    let n = F::STRIDE_COL_N;
    for k in runnable::<F>() {
        if k.asserts.dst_stride_col {
            continue;
        }
        let p = Problem::<F>::new(7, n, 5, 0, true, 3);
        let (lhs, rhs) = (
            p.lhs_buffer(Edge::End),
            pack(&p, k.rhs_packers[0], Edge::End),
        );
        let mut with_zero = Guarded::new(es * 7 * (n + 3), Edge::End);
        let mut with_es = Guarded::new(es * 7 * (n + 3), Edge::End);
        let clamp = (-1.0, 1.0);
        let whole = (0, 0, 7, n);
        let run = |dst: &mut Guarded, col| {
            call(k, Impl::Exported, &p, &lhs, &rhs, dst, whole, clamp, col)
        };
        run(&mut with_zero, 0);
        run(&mut with_es, es);
        assert_eq!(with_zero.bytes(), with_es.bytes(), "{}", k.stem);
    }
}

/// Disjoint m_step x n_step portions on 8 threads sharing the operands equal one call.
pub fn threads_on_disjoint_portions_equal_one_call<F: FloatFamily>() {
    let mut threaded = 0;
    for k in runnable::<F>() {
        let t = k.tile();
        threads_on::<F>(k, (3 * t.m_step.max(6) + 1, 5 * t.n_step + 3, 77));
        threaded += 1;
    }
    eprintln!("RELIABILITY concurrency {threaded}");
}

/// One problem of (m, n, k) through `k` on 8 threads, each on its own m_step x n_step portions
/// of the shared operands, equals one call.
pub fn threads_on<F: FloatModel>(k: &MatmulKernel, (m, n, kk): (usize, usize, usize)) {
    let es = F::T::BYTES;
    let t = k.tile();
    let p = Problem::<F>::new(m, n, kk, 0, true, 77);
    let lhs = p.lhs_buffer(Edge::End);
    let rhs = pack(&p, k.rhs_packers[0], Edge::End);
    let (lhs_at, rhs_at) = (lhs.ptr() as usize, rhs.ptr() as usize);
    let lhs_stride = p.lhs_stride;
    let run_into = move |dst: usize, m0: usize, n0: usize, rows: usize, cols: usize| {
        let lhs_off = sym::<Getter2>(lhs_offset_verb(k), k.stem)(m0, lhs_stride);
        let rhs_off = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, kk);
        let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, es * n);
        // SAFETY: offsets from the getters; each thread writes only its own portion.
        unsafe {
            sym::<MatmulFloatFn>("run", k.stem)(
                rows,
                cols,
                kk,
                (lhs_at as *const u8).add(lhs_off).cast(),
                lhs_stride,
                (rhs_at as *const u8).add(rhs_off).cast(),
                (dst as *mut u8).add(dst_off).cast(),
                es * n,
                es,
                -3.0,
                3.0,
            )
        }
    };
    gemm::threads_equal_one_call(k.stem, (m, n), (t.m_step, t.n_step), es, &run_into);
}

/// Callee-saved registers survive every runnable kernel.
#[cfg(target_arch = "aarch64")]
pub fn callee_saved_registers_survive<F: FloatFamily>() {
    let mut calls = 0;
    for k in runnable::<F>() {
        calls += registers_survive::<F>(k, &F::REGISTER_SHAPES);
    }
    eprintln!("RELIABILITY registers {calls}");
}

/// Callee-saved registers survive `k` on each (m, n, k) of `shapes` (clamped to
/// `F::T::REGISTER_CLAMP`), and its results equal the reference's. Returns the calls.
#[cfg(target_arch = "aarch64")]
pub fn registers_survive<F: FloatModel>(
    k: &MatmulKernel,
    shapes: &[(usize, usize, usize)],
) -> usize {
    use super::abi::CallArgs;
    let es = F::T::BYTES;
    let clamp = (-F::T::REGISTER_CLAMP, F::T::REGISTER_CLAMP);
    for &(m, n, kk) in shapes {
        let p = Problem::<F>::new(m, n, kk, 0, true, 5);
        let lhs = p.lhs_buffer(Edge::End);
        let rhs = pack(&p, k.rhs_packers[0], Edge::End);
        let mut dst = Guarded::new(es * m * n, Edge::End);
        let mut d = [0; 8];
        d[..2].copy_from_slice(&[CallArgs::f32_bits(clamp.0), CallArgs::f32_bits(clamp.1)]);
        let x = [
            m,
            n,
            kk,
            lhs.ptr() as usize,
            p.lhs_stride,
            rhs.ptr() as usize,
        ];
        let x = x.map(|v| v as u64);
        let args = CallArgs {
            x: [
                x[0],
                x[1],
                x[2],
                x[3],
                x[4],
                x[5],
                dst.mut_ptr() as u64,
                (es * n) as u64,
            ],
            stack: [es as u64, 0, 0, 0],
            d,
        };
        // SAFETY: args describe kai_run_matmul's prototype with valid buffers.
        unsafe { gemm::assert_registers_survive(k.stem, &args) };
        let expect = F::T::to_bytes(&p.expected_dst(clamp));
        assert_eq!(dst.bytes(), &expect[..], "{} results", k.stem);
    }
    shapes.len()
}

/// Random shapes and data: packed bytes and results equal the reference (the body of a
/// proptest).
pub fn random_problem<F: FloatFamily>(
    (m, n, kk): (usize, usize, usize),
    seed: u64,
    bias: bool,
) -> Result<(), proptest::test_runner::TestCaseError> {
    for k in kernels::<F>() {
        let which = if super::cpu::can_run(k.isa) {
            Impl::Exported
        } else if F::PORTABLE_TOO {
            Impl::Portable
        } else {
            continue;
        };
        let packer = k.rhs_packers[(seed % k.rhs_packers.len() as u64) as usize];
        let bias = bias || variant(packer).requires_bias();
        let p = Problem::<F>::new(m, n, kk, F::T::BYTES * (seed % 3) as usize, bias, seed);
        let rhs = pack(&p, packer, Edge::End);
        proptest::prop_assert_eq!(rhs.bytes(), &p.expected_packed(k.tile().nr)[..]);
        check_whole(k, &[which], &p, &rhs, (-1.5, 2.0));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

/// Calls `packer` for n = 8, k = 4 with the given (num_groups, nr, kr, sr, bias, scale, extra,
/// params).
#[allow(clippy::too_many_arguments)]
fn pack_call<F: FloatFamily>(
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
    let w = F::T::to_bytes(&[F::T::from_f32(1.0); 64]);
    let bias = F::T::to_bytes(&vec![F::T::from_f32(0.5); 64 / F::T::BYTES]);
    let mut out = vec![0u8; 8192];
    let dummy = [0u8; 16];
    // SAFETY: buffers are large enough for n = 8, k = 4; the call is expected to abort.
    unsafe {
        sym::<cabi::RhsPackFloatFn>("run", packer)(
            num_groups,
            8,
            4,
            nr,
            kr,
            sr,
            8 * F::T::BYTES,
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

/// Calls `stem` for m = 2, n = 8, k = 4 with the given destination strides (in values) and LHS.
fn run_call<F: FloatFamily>(stem: &str, stride_row: usize, stride_col: usize, null_lhs: bool) {
    let es = F::T::BYTES;
    let lhs = F::T::to_bytes(&[F::T::from_f32(1.0); 16]);
    let rhs = vec![0u8; 4096];
    let mut dst = vec![0u8; 64 * es];
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
            4 * es,
            rhs.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            es * stride_row,
            es * stride_col,
            -1.0,
            1.0,
        )
    }
}

/// The family's contract violations, one per assertion of its kernels and packers.
pub fn violation_cases<F: FloatFamily>() -> Vec<Case> {
    let ty = F::C_TYPE;
    vec![
        run_case!("num_groups", "num_groups == 1"
            => pack_call::<F>(F::kxn(), 2, F::nr(), 1, 1, true, false, 0, false)),
        run_case!("nxk_nr", "nr == n_step"
            => pack_call::<F>(F::nxk(), 1, F::nr() / 2, 1, 1, true, false, 0, false)),
        run_case!("bias_nr", "nr == n_step"
            => pack_call::<F>(F::kxn_bias(), 1, F::nr(), 1, 1, true, false, 0, false)),
        run_case!("kr", "kr == 1" => pack_call::<F>(F::kxn(), 1, F::nr(), 2, 1, true, false, 0, false)),
        run_case!("sr", "sr == 1" => pack_call::<F>(F::nxk(), 1, F::nr(), 1, 2, true, false, 0, false)),
        run_case!("bias_required", "bias != NULL"
            => pack_call::<F>(F::kxn_bias(), 1, F::nr() / 2, 1, 1, false, false, 0, false)),
        run_case!("scale", "scale == NULL"
            => pack_call::<F>(F::kxn(), 1, F::nr(), 1, 1, true, true, 0, false)),
        run_case!("extra_bytes", "extra_bytes == 0"
            => pack_call::<F>(F::nxk(), 1, F::nr(), 1, 1, true, false, 4, false)),
        run_case!("params", "params == NULL"
            => pack_call::<F>(F::kxn_bias(), 1, F::nr() / 2, 1, 1, true, false, 0, true)),
        run_case!("dst_stride_col", format!("dst_stride_col == sizeof({ty})")
            => run_call::<F>(F::gemm_bias(), 8, 2, false)),
        run_case!("dst_stride_row", format!("dst_stride_row >= n * sizeof({ty})")
            => run_call::<F>(F::gemm(), 4, 1, false)),
        run_case!("null_lhs", "lhs != NULL" => run_call::<F>(F::gemm(), 8, 1, true)),
        getter_case!("lhs_offset", "(m_idx % m_step) == 0"
            => get_lhs_offset::<Getter2>(F::gemm())(3, 64)),
        getter_case!("dst_offset", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(F::gemm())(6, F::nr() / 2, 64)),
        getter_case!("rhs_packed_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(F::gemm_bias())(F::nr() / 4, 64)),
        getter_case!("rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter2>(F::nxk())(F::nr() / 2, 64)),
        getter_case!("packed_size_overflow", "packed RHS size fits in size_t"
            => get_rhs_packed_size::<Getter2>(F::kxn())(usize::MAX / 64, 1 << 20)),
    ]
}

/// One `#[test]` function per name, running the shared check of that name for `$family`.
#[macro_export]
macro_rules! shared_float_tests {
    ($family:ty: $($test:ident),+ $(,)?) => {
        $(
            #[test]
            fn $test() {
                shared::$test::<$family>();
            }
        )+
    };
}

/// The `#[test]` functions every float family runs, for the [`FloatFamily`] `$family` (a type
/// of the calling test file). `kernels` and `packers` state how many the catalog lists.
#[macro_export]
macro_rules! float_family_tests {
    ($family:ty $(, kernels = $kernels:expr, packers = $packers:expr)?) => {
        use support::float_family as shared;

        #[test]
        fn getters_equal_kleidiai_values() {
            $(assert_eq!(shared::kernels::<$family>().count(), $kernels);)?
            shared::getters_equal_kleidiai_values::<$family>();
        }

        $crate::shared_float_tests!(
            $family:
            packed_sizes_and_offsets_equal_kleidiai_values,
            packers_match_reference_bytes,
            exported_kernels_match_reference,
            portable_kernels_match_reference,
            non_finite_values_follow_arm_rules,
            dst_stride_col_is_ignored_where_kleidiai_ignores_it,
            threads_on_disjoint_portions_equal_one_call,
        );
        #[cfg(target_arch = "aarch64")]
        $crate::shared_float_tests!($family: callee_saved_registers_survive);

        #[test]
        fn packer_getters() {
            $(assert_eq!(shared::packers::<$family>().count(), $packers);)?
            shared::packer_getters::<$family>();
        }

        mod random_shapes {
            use super::*;
            use proptest::prelude::*;

            proptest! {
                #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

                /// Random shapes and data: packed bytes and results equal the reference.
                #[test]
                fn random_problems_match_reference(m in 1usize..30, n in 1usize..80, kk in 0usize..70, seed in any::<u64>(), bias in any::<bool>()) {
                    shared::random_problem::<$family>((m, n, kk), seed, bias)?;
                }
            }
        }

        $crate::death_tests!(
            shared::violation_cases::<$family>,
            "contract violations",
            "contract"
        );
    };
}
