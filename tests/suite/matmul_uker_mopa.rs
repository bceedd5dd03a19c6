//! KleidiAI's generic-interface float GEMMs (`kai_matmul.h`), through the C ABI: the tables of
//! `kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa` and
//! `kai_matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa` (function pointers called as
//! C calls them) against KleidiAI's getter formulas and a scalar reference in KleidiAI's order of
//! operations, at the streaming length of the CPU under test (SME2 asm where the CPU has it, the
//! portable path otherwise): edge shapes in M and N (one block, two, the 2 x 2-block tile and
//! past it), K over the four-, two- and one-step paths (odd K for the f16 pairs), portions
//! through the offset getters, caller strides wider than the getters', guard pages, register
//! canaries, a pending lazy ZA save, hostile values, both clamp settings and KleidiAI's
//! assumptions. Both kernels run one harness over values held as bits ([`Gemm`] says how wide
//! and how they combine). At streaming lengths above 512 bits a reduced set reaches each path
//! once (`support::sme_pack::full_sweep`).

use crate::support;

use rkai_capi::capi::exports::{
    kai_matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa as f16_provider,
    kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa as f32_provider,
};
use rkai_ukernels::arch::Isa;
use rkai_ukernels::float::{self, f16};
use rkai_ukernels::matmul::uker::{self, Mopa};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Getters, Uker, args, check_getters, hostile_operands, sme_lanes32};

/// One of the two GEMMs: its table, element type and the element's constants.
#[derive(Clone, Copy)]
struct Gemm {
    kernel: Uker,
    elem: Mopa,
    /// Bytes of a value.
    bytes: usize,
    /// K values per outer-product step (`kr`).
    kr: usize,
    /// What a destination element holds before a call (a signalling NaN no result equals).
    fill: u32,
    /// A quiet NaN with a payload, in the gaps of the packed buffers (would show if read).
    gap: u32,
}

const F32: Gemm = Gemm {
    kernel: Uker::new(
        "kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa",
        f32_provider,
    ),
    elem: Mopa::F32,
    bytes: 4,
    kr: 1,
    fill: 0x7fa5_a5a5,
    gap: 0x7fc0_dead,
};
const F16: Gemm = Gemm {
    kernel: Uker::new(
        "kai_matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa",
        f16_provider,
    ),
    elem: Mopa::F16,
    bytes: 2,
    kr: 2,
    fill: 0x7d5a,
    gap: 0x7e5d,
};
const GEMMS: [Gemm; 2] = [F32, F16];

impl Gemm {
    /// The bits of `x` in the element type (f16: rounded to nearest even).
    fn value(self, x: f32) -> u32 {
        match self.elem {
            Mopa::F32 => x.to_bits(),
            Mopa::F16 => u32::from(f16::from_f32(x)),
        }
    }

    /// Values as little-endian bytes of the element width.
    fn le(self, values: &[u32]) -> Vec<u8> {
        values
            .iter()
            .flat_map(|v| v.to_le_bytes().into_iter().take(self.bytes))
            .collect()
    }

    /// Value `index` of `bytes`.
    fn at(self, bytes: &[u8], index: usize) -> u32 {
        let w = self.bytes;
        let mut b = [0u8; 4];
        b[..w].copy_from_slice(&bytes[index * w..index * w + w]);
        u32::from_le_bytes(b)
    }

    /// `len` random values in `[lo, hi)`.
    fn random(self, rng: &mut Rng, len: usize, lo: f32, hi: f32) -> Vec<u32> {
        (0..len).map(|_| self.value(rng.f32(lo, hi))).collect()
    }

    /// The hostile values: infinities, NaNs (quiet with a payload, signalling), signed zeros, the
    /// smallest subnormal, the largest finite values and one whose products overflow.
    fn specials(self) -> Vec<u32> {
        match self.elem {
            Mopa::F32 => support::uker::HOSTILE_F32
                .iter()
                .map(|x| x.to_bits())
                .collect(),
            Mopa::F16 => vec![
                0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe34, 0x8000, 0x0000, 0x0001, 0x7bff, 0xfbff,
                0x7800,
            ],
        }
    }

    /// The bounds the kernel clamps to, in its element type: KleidiAI's f16 `run` rounds the
    /// f32 bounds to halves; without the flag they are `-FLT_MAX`/`FLT_MAX` (infinities in f16).
    fn bounds(self, clamp: Option<(f32, f32)>) -> (u32, u32) {
        let (lo, hi) = clamp.unwrap_or((-f32::MAX, f32::MAX));
        (self.value(lo), self.value(hi))
    }

    /// KleidiAI's order of operations, row-major `m` x `n` bits. f32: the column's bias, one
    /// `FMOPA` per K value in K order (a NaN result the default NaN), `FCLAMP`. f16: the bias
    /// widened to f32, one widening `FMOPA` per pair of K values in K order (zeros past `k`), one
    /// rounding to f16, `FCLAMP` on halves.
    fn reference(
        self,
        (m, n, k): (usize, usize, usize),
        lhs: &[u32],
        rhs: &[u32],
        bias: &[u32],
        clamp: Option<(f32, f32)>,
    ) -> Vec<u32> {
        let (lo, hi) = self.bounds(clamp);
        let mut out = Vec::with_capacity(m * n);
        for i in 0..m {
            let l = |kk: usize| if kk < k { lhs[i * k + kk] } else { 0 };
            for j in 0..n {
                let r = |kk: usize| if kk < k { rhs[kk * n + j] } else { 0 };
                out.push(match self.elem {
                    Mopa::F32 => {
                        let mut acc = f32::from_bits(bias[j]);
                        for kk in 0..k {
                            let (a, b) = (f32::from_bits(l(kk)), f32::from_bits(r(kk)));
                            acc = float::fmopa(acc, a, b);
                        }
                        float::clamp_num(acc, f32::from_bits(lo), f32::from_bits(hi)).to_bits()
                    }
                    Mopa::F16 => {
                        let h = |x: u32| x as u16;
                        let mut acc = f32::from_bits(f16::to_f32_bits(h(bias[j])));
                        for p in 0..k.div_ceil(2) {
                            let a = [h(l(2 * p)), h(l(2 * p + 1))];
                            let b = [h(r(2 * p)), h(r(2 * p + 1))];
                            acc = f16::dot_add(acc, a, b);
                        }
                        u32::from(f16::clamp_num(f16::from_f32(acc), h(lo), h(hi)))
                    }
                });
            }
        }
        out
    }

    /// The LHS as `matmul_pack_lhs_mxk_x{32p4vsx1_x32,16p4vsx2_x16}_sme` pack it: per block of
    /// `vl` rows, per step of `kr` K values the block's rows' `kr` values (zero past `m` and
    /// `k`); blocks `stride` values apart (the gap filled with [`Gemm::gap`]).
    fn pack_lhs(self, (m, k): (usize, usize), vl: usize, lhs: &[u32], stride: usize) -> Vec<u32> {
        let (kr, blocks) = (self.kr, m.div_ceil(vl));
        let kp = k.div_ceil(kr) * kr;
        let mut out = vec![self.gap; (blocks - 1) * stride + vl * kp];
        for b in 0..blocks {
            for kk in 0..kp {
                for r in 0..vl {
                    let i = b * vl + r;
                    let v = if i < m && kk < k { lhs[i * k + kk] } else { 0 };
                    out[b * stride + (kk / kr * vl + r) * kr + kk % kr] = v;
                }
            }
        }
        out
    }

    /// The RHS as the paired packers pack it: per block of `vl` columns their biases, then per
    /// step of `kr` K values the block's columns' `kr` values (zero past `n` and `k`); blocks
    /// `stride` values apart (the gap filled as in [`Gemm::pack_lhs`]).
    fn pack_rhs(
        self,
        (n, k): (usize, usize),
        vl: usize,
        rhs: &[u32],
        bias: &[u32],
        stride: usize,
    ) -> Vec<u32> {
        let (kr, blocks) = (self.kr, n.div_ceil(vl));
        let kp = k.div_ceil(kr) * kr;
        let mut out = vec![self.gap; (blocks - 1) * stride + vl * (kp + 1)];
        for b in 0..blocks {
            for c in 0..vl {
                let j = b * vl + c;
                out[b * stride + c] = if j < n { bias[j] } else { 0 };
                for kk in 0..kp {
                    let v = if j < n && kk < k { rhs[kk * n + j] } else { 0 };
                    out[b * stride + vl + (kk / kr * vl + c) * kr + kk % kr] = v;
                }
            }
        }
        out
    }

    /// The portable path on packed buffers (strides in values), row-major bits at `ds`.
    fn portable(
        self,
        shape: (usize, usize, usize),
        (lp, ls): (&[u32], usize),
        (rp, rs): (&[u32], usize),
        ds: usize,
        clamp: Option<(f32, f32)>,
    ) -> Vec<u32> {
        let (m, n, _) = shape;
        let (vl, w) = (sme_lanes32(), self.bytes);
        let (lb, rb) = (self.le(lp), self.le(rp));
        let mut out = self.le(&vec![self.fill; (m - 1) * ds + n]);
        let (lo, hi) = self.bounds(clamp);
        let (l, r, d) = (lb.as_ptr(), rb.as_ptr(), out.as_mut_ptr());
        // SAFETY: the buffers hold the packed blocks and the m rows at the strides given.
        unsafe {
            match self.elem {
                Mopa::F32 => uker::mopa_portable(
                    shape,
                    vl,
                    (l.cast(), ls * w),
                    (r.cast(), rs * w),
                    (d.cast(), ds * w),
                    (f32::from_bits(lo), f32::from_bits(hi)),
                ),
                Mopa::F16 => uker::mopa_f16_portable(
                    shape,
                    vl,
                    (l.cast(), ls * w),
                    (r.cast(), rs * w),
                    (d.cast(), ds * w),
                    (lo as u16, hi as u16),
                ),
            }
        };
        (0..m * n)
            .map(|e| self.at(&out, e / n * ds + e % n))
            .collect()
    }
}

/// KleidiAI's getter values, from its formulas: mr = nr = 4 x vscale; f32: kr 1, 4-byte
/// values; f16: kr 2 (K rounded up to pairs), 2-byte values.
#[test]
fn getters_equal_kleidiai() {
    let vl = sme_lanes32();
    for g in GEMMS {
        let (w, kr) = (g.bytes, g.kr);
        let formulas = Getters {
            step: (vl, vl),
            lhs_rows: vl,
            rhs_cols: vl,
            lhs_stride: &|k| vl * k.div_ceil(kr) * kr * w,
            rhs_stride: &|k| vl * (k.div_ceil(kr) * kr * w + w),
            dst_bytes: w,
        };
        check_getters(&g.kernel, &formulas);
    }
}

/// One problem: its GEMM, shape, operands (bits of the kernel's element type) and clamp.
struct Case {
    gemm: Gemm,
    shape: (usize, usize, usize),
    lhs: Vec<u32>,
    rhs: Vec<u32>,
    bias: Vec<u32>,
    clamp: Option<(f32, f32)>,
}

impl Case {
    /// Random operands of `shape` for `gemm`.
    fn random(
        gemm: Gemm,
        rng: &mut Rng,
        shape: (usize, usize, usize),
        clamp: Option<(f32, f32)>,
    ) -> Self {
        let [lhs, rhs, bias] = operands(gemm, rng, shape);
        Case {
            gemm,
            shape,
            lhs,
            rhs,
            bias,
            clamp,
        }
    }

    /// Runs the portable path and the table's `run` (whole and in portions, strides `gaps`
    /// values wider than the getters', at each guard edge); every result equals the reference.
    /// Returns the number of `run` calls checked.
    fn check(&self, gaps: (usize, usize, usize), portions: bool) -> usize {
        let (g, vl) = (self.gemm, sme_lanes32());
        let (kernel, w, fill) = (g.kernel, g.bytes, g.fill);
        let (m, n, k) = self.shape;
        let expect = g.reference(self.shape, &self.lhs, &self.rhs, &self.bias, self.clamp);
        let (ls, rs, ds) = (
            kernel.lhs_stride(m, k) / w + gaps.0,
            kernel.rhs_stride(n, k) / w + gaps.1,
            kernel.dst_stride(m, n) / w + gaps.2,
        );
        let lp = g.pack_lhs((m, k), vl, &self.lhs, ls);
        let rp = g.pack_rhs((n, k), vl, &self.rhs, &self.bias, rs);
        let what = format!(
            "{} m {m} n {n} k {k} clamp {:?} gaps {gaps:?}",
            kernel.name, self.clamp
        );
        let portable = g.portable(self.shape, (&lp, ls), (&rp, rs), ds, self.clamp);
        assert_eq!(portable, expect, "portable {what}");
        let (flags, lo, hi) = match self.clamp {
            Some((lo, hi)) => (CLAMP, lo, hi),
            // Bounds that would change every result if they were read.
            None => (0, 1.0f32, -1.0f32),
        };
        let mut runs = 0;
        let edges: &[Edge] = if portions { &EDGES } else { &EDGES[..1] };
        for &edge in edges {
            let l = Guarded::from_bytes(&g.le(&lp), edge);
            let r = Guarded::from_bytes(&g.le(&rp), edge);
            let call = |(m0, mlen): (usize, usize), (n0, nlen): (usize, usize)| {
                let mut d = Guarded::from_bytes(&g.le(&vec![fill; (m - 1) * ds + n]), edge);
                kernel.run(&kernel.portion_args(
                    (flags, (m0, mlen, n0, nlen), k),
                    (l.ptr(), ls * w, r.ptr(), rs * w),
                    (d.mut_ptr(), ds * w),
                    (&lo, &hi),
                ));
                for i in 0..m {
                    for j in 0..n {
                        let got = g.at(d.bytes(), i * ds + j);
                        let inside = (m0..m0 + mlen).contains(&i) && (n0..n0 + nlen).contains(&j);
                        let want = if inside { expect[i * n + j] } else { fill };
                        assert_eq!(
                            got, want,
                            "{what} portion rows {m0}+{mlen} cols {n0}+{nlen} at ({i}, {j}) {edge:?}"
                        );
                    }
                }
            };
            call((0, m), (0, n));
            runs += 1;
            if !portions {
                continue;
            }
            // Portions: a block-aligned start in M and N, through the getters, to the end or
            // one block (a sub-tile) wide.
            for m0 in [vl, 2 * vl, 3 * vl].into_iter().filter(|&s| s < m) {
                for n0 in [0, vl, 2 * vl].into_iter().filter(|&s| s < n) {
                    for (mlen, nlen) in [(m - m0, n - n0), (vl.min(m - m0), vl.min(n - n0))] {
                        call((m0, mlen), (n0, nlen));
                        runs += 1;
                    }
                }
            }
        }
        runs
    }
}

/// Random operands of `(m, n, k)`.
fn operands(g: Gemm, rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> [Vec<u32>; 3] {
    [
        g.random(rng, m * k, -2.0, 2.0),
        g.random(rng, k * n, -2.0, 2.0),
        g.random(rng, n, -1.0, 1.0),
    ]
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let vl = sme_lanes32();
    let full = support::sme_pack::full_sweep();
    for g in GEMMS {
        let mut rng = Rng::new(28);
        let mut runs = 0;
        // Rows and columns: part of a block, one, past it by one, two (one 2 x 2-block tile),
        // past it by one (a second tile of one block: its second block is the first again),
        // and a second tile of two blocks.
        let mns: Vec<usize> = if full {
            vec![1, vl - 1, vl, vl + 1, 2 * vl, 2 * vl + 1, 3 * vl + 2]
        } else {
            vec![vl + 1, 2 * vl + 1]
        };
        // K: none; one step (f16: a pair half padding); f32: two steps (the two-step path
        // only), seven (four, two and one) and nine (the four-step loop twice, then one); f16:
        // two pairs, seven (all three paths) and eight with the last pair half padding.
        let ks: &[usize] = match (full, g.elem) {
            (true, Mopa::F32) => &[0, 1, 2, 7, 9],
            (true, Mopa::F16) => &[0, 1, 4, 14, 15],
            (false, Mopa::F32) => &[1, 7],
            (false, Mopa::F16) => &[1, 13],
        };
        let portions_k = if g.elem == Mopa::F32 { 7 } else { 14 };
        // Each row count with two column counts (its own and one three places on), so every
        // count meets others on both sides; the clamp alternates over K.
        for (a, &m) in mns.iter().enumerate() {
            for n in [mns[a], mns[(a + 3) % mns.len()]] {
                for (b, &k) in ks.iter().enumerate() {
                    let clamp = ((a + b) % 2 == 0).then_some((-0.75f32, 0.5f32));
                    let case = Case::random(g, &mut rng, (m, n, k), clamp);
                    // Portions where rows reach a third block.
                    let portions = full && k == portions_k && m > 2 * vl;
                    runs += case.check((0, 0, 0), portions);
                }
            }
        }
        // A full tile and a partial one.
        if !full {
            let shape = (2 * vl, 2 * vl, 4);
            let case = Case::random(g, &mut rng, shape, None);
            runs += case.check((0, 0, 0), true);
        }
        eprintln!(
            "{runs} runs of {} equal the reference (vl {vl}, full sweep {full}, SME2 asm: {})",
            g.kernel.name,
            support::uker::asm_runs(Isa::Sme2)
        );
    }
}

/// The kernels read the three strides of the arguments, as KleidiAI's do: packed blocks
/// further apart than the getters say and destination rows with a gap between them.
#[test]
fn caller_strides() {
    let vl = sme_lanes32();
    for g in GEMMS {
        let mut rng = Rng::new(5);
        let mut runs = 0;
        for (m, n, k) in [(3 * vl + 2, 2 * vl + 1, 5), (vl + 1, 3 * vl - 1, 2)] {
            let case = Case::random(g, &mut rng, (m, n, k), Some((-1.0, 1.0)));
            for gaps in [(1, 3, 5), (vl, 0, 1)] {
                runs += case.check(gaps, m < 2 * vl && support::sme_pack::full_sweep());
            }
        }
        eprintln!(
            "{runs} runs of {} with caller strides equal the reference",
            g.kernel.name
        );
    }
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals and overflowing products in
/// every operand, with and without the clamp flag (without it the bounds are +-FLT_MAX: for
/// f32 an infinity becomes a finite bound, for f16 they are infinities; a NaN becomes the lower
/// bound, as FCLAMP treats it), and bounds past the f16 range.
#[test]
fn hostile_values() {
    let vl = sme_lanes32();
    for g in GEMMS {
        let specials = g.specials();
        let mut rng = Rng::new(4);
        let mut runs = 0;
        let full = support::sme_pack::full_sweep();
        let shapes = if full {
            vec![(vl + 1, 2 * vl + 3, 3), (2, 1, 1), (2 * vl + 1, vl, 0)]
        } else {
            vec![(vl + 1, vl + 3, 3), (2, 1, 0)]
        };
        // Three rounds put a special value at every position of an operand.
        let rounds = if full { 4 } else { 3 };
        for (m, n, k) in shapes {
            for round in 0..rounds {
                let random = || g.value(rng.f32(-3.0, 3.0));
                let [lhs, rhs, bias] = hostile_operands(&specials, (m, n, k), round, random);
                let mut case = Case {
                    gemm: g,
                    shape: (m, n, k),
                    lhs,
                    rhs,
                    bias,
                    clamp: None,
                };
                // The shared set, and bounds past the f16 range (infinities for f16).
                let clamps = support::uker::HOSTILE_CLAMPS.into_iter();
                for clamp in clamps.chain([Some((-1.0e6, 70000.0))]) {
                    case.clamp = clamp;
                    runs += case.check((0, 0, 0), false);
                }
            }
        }
        eprintln!(
            "{runs} hostile runs of {} equal the reference",
            g.kernel.name
        );
    }
}

/// The operands packed by KleidiAI's providers of each kernel's pairing (sizes and strides from
/// their getters) give the reference's results.
#[test]
fn packed_by_the_providers() {
    use rkai_capi::capi::exports::{
        kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme, kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme,
        kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme,
        kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme,
    };
    use support::uker_pack::{LhsPackApi, RhsOperands, RhsPackApi};
    let vl = sme_lanes32();
    for g in GEMMS {
        let (lapi, rapi) = match g.elem {
            Mopa::F32 => (
                LhsPackApi(kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme()),
                RhsPackApi(kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme()),
            ),
            Mopa::F16 => (
                LhsPackApi(kai_matmul_pack_lhs_mxk_x16p4vsx2_x16_sme()),
                RhsPackApi(kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme()),
            ),
        };
        let mut rng = Rng::new(31);
        let (m, n, k) = (2 * vl + 3, 3 * vl - 1, 7);
        let [lhs, rhs, bias] = operands(g, &mut rng, (m, n, k));
        let (lsrc, rsrc, bsrc) = (g.le(&lhs), g.le(&rhs), g.le(&bias));
        let (ls, rs) = (lapi.packed_stride(m, k).m, rapi.packed_stride(n, k).n);
        let source = RhsOperands::source(rsrc.as_ptr(), rapi.rhs_stride(n, k), bsrc.as_ptr());
        // SAFETY: the sources hold the problem at the strides the getters give.
        let (lp, rp) = unsafe {
            let row = lapi.lhs_stride(m, k).m;
            (
                lapi.pack((m, k), lsrc.as_ptr(), row),
                rapi.pack((n, k), &source),
            )
        };
        let kernel = g.kernel;
        assert_eq!((ls, rs), (kernel.lhs_stride(m, k), kernel.rhs_stride(n, k)));
        let clamp = Some((-1.5f32, 1.5f32));
        let expect = g.reference((m, n, k), &lhs, &rhs, &bias, clamp);
        let mut d = Guarded::from_bytes(&g.le(&vec![g.fill; m * n]), Edge::End);
        let mut a = args(
            CLAMP,
            (m, n, k),
            (lp.as_ptr(), rp.as_ptr(), d.mut_ptr()),
            (&-1.5f32, &1.5f32),
        );
        a.operand.lhs.stride.m = ls;
        a.operand.rhs.stride.n = rs;
        a.operand.dst.stride.m = kernel.dst_stride(m, n);
        kernel.run(&a);
        let got: Vec<u32> = (0..m * n).map(|i| g.at(d.bytes(), i)).collect();
        assert_eq!(got, expect, "{}", kernel.name);
    }
}

/// `m == 0` or `n == 0` writes nothing.
#[test]
fn empty_shapes() {
    for g in GEMMS {
        let one = g.le(&[g.value(1.0); 8]);
        for (m, n) in [(0, 1), (1, 0), (0, 0)] {
            let mut d = Guarded::from_bytes(&g.le(&[g.fill]), EDGES[0]);
            let mut a = args(
                0,
                (m, n, 1),
                (one.as_ptr(), one.as_ptr(), d.mut_ptr()),
                (&0.0f32, &0.0f32),
            );
            a.operand.dst.stride.m = g.bytes;
            g.kernel.run(&a);
            assert_eq!(g.at(d.bytes(), 0), g.fill, "{} m {m} n {n}", g.kernel.name);
        }
    }
}

/// A caller with a pending lazy ZA save: each kernel commits it before using ZA, and its
/// result is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_save_is_committed() {
    let Some(mut za) = support::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme2) else {
        return;
    };
    let vl = sme_lanes32();
    for g in GEMMS {
        let mut rng = Rng::new(9);
        let (m, n, k) = (vl + 1, vl + 2, 3);
        let case = Case::random(g, &mut rng, (m, n, k), None);
        za.arm();
        assert_eq!(case.check((0, 0, 0), false), 1);
        za.assert_committed(g.kernel.name);
    }
    za.finish();
}

/// The death cases of one kernel (its `NAME` and `KERNEL`, which `uker_float_violations!`
/// names), each case name prefixed by the module's, so both kernels' cases live in one list.
macro_rules! kernel_violations {
    ($module:ident, $gemm:expr) => {
        mod $module {
            use super::support;
            use rkai_ukernels::matmul_types::kai_matmul_uker_args;
            use support::uker::{Nulls, Uker, args, sme_lanes32};

            const KERNEL: Uker = $gemm.kernel;
            const NAME: &str = KERNEL.name;

            fn call(flags: u64, nulls: Nulls) {
                let x = [0x3f80_3c00u32; 64];
                let mut d = [0u32; 64];
                let operands = (x.as_ptr().cast(), x.as_ptr().cast(), d.as_mut_ptr().cast());
                let mut a: kai_matmul_uker_args =
                    args(flags, (1, 1, 1), operands, (&0.0f32, &1.0f32));
                a.operand.lhs.stride.m = 16;
                a.operand.rhs.stride.n = 32;
                a.operand.dst.stride.m = 4;
                nulls.apply(&mut a);
                KERNEL.run(&a);
            }

            /// KleidiAI's assumptions; rkai aborts naming the provider.
            pub fn cases() -> Vec<support::death::Case<&'static str, &'static str>> {
                let mut cases = crate::uker_float_violations!(call);
                let own: Vec<support::death::Case<&'static str, &'static str>> = vec![
                    ("lhs_offset_m", NAME, "index->m % get_m_step() == 0", || {
                        KERNEL.lhs_offset(1, 0, 4);
                    }),
                    ("dst_offset_m", NAME, "index->m % get_m_step() == 0", || {
                        KERNEL.dst_offset(sme_lanes32() + 1, 0, 4);
                    }),
                ];
                cases.extend(own);
                for case in &mut cases {
                    case.0 =
                        Box::leak(format!("{}_{}", stringify!($module), case.0).into_boxed_str());
                }
                cases
            }
        }
    };
}

kernel_violations!(f32_gemm, super::F32);
kernel_violations!(f16_gemm, super::F16);

fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    let mut cases = f32_gemm::cases();
    cases.extend(f16_gemm::cases());
    cases
}

death_tests!(violations, "assumptions");
