//! KleidiAI's generic matmul interface (`kai_matmul.h`), through the C ABI: the table of
//! `kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa` (function pointers called as
//! C calls them) against KleidiAI's getter formulas and a scalar reference in KleidiAI's order of
//! operations, at the streaming length of the CPU under test (SME2 asm where the CPU has it, the
//! portable path otherwise): edge shapes in M and N (one block, two, the 2 x 2-block tile and
//! past it), K over the four-, two- and one-step paths, portions through the offset getters,
//! caller strides wider than the getters', guard pages, register canaries, a pending lazy ZA
//! save, hostile floats, both clamp settings and KleidiAI's assumptions. At streaming lengths
//! above 512 bits a reduced set reaches each path once (`support::sme_pack::full_sweep`).

mod support;

use rkai_capi::capi::exports::kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa as provider;
use rkai_ukernels::arch::Isa;
use rkai_ukernels::float;
use rkai_ukernels::matmul::uker;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Getters, Nulls, Uker, args, check_getters, sme_lanes32};

const NAME: &str = "kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa";
const KERNEL: Uker = Uker::new(NAME, provider);

/// What a destination element holds before a call (a NaN no result equals).
const FILL: u32 = 0x7fa5_a5a5;

/// KleidiAI's getter values, from its formulas: mr = nr = 4 x vscale, kr 1, 4-byte elements.
#[test]
fn getters_equal_kleidiai() {
    let vl = sme_lanes32();
    let formulas = Getters {
        step: (vl, vl),
        lhs_rows: vl,
        rhs_cols: vl,
        lhs_stride: &|k| vl * k * 4,
        rhs_stride: &|k| vl * (4 * k + 4),
        dst_bytes: 4,
    };
    check_getters(&KERNEL, &formulas);
}

/// The LHS as `matmul_pack_lhs_mxk_x32p4vsx1_x32_sme` packs it: per block of `vl` rows, per K
/// value the block's rows (zero past `m`); blocks `lhs_stride` floats apart (the gap filled with
/// a NaN pattern that would show if read).
fn pack_lhs(m: usize, k: usize, vl: usize, lhs: &[f32], stride: usize) -> Vec<f32> {
    let blocks = m.div_ceil(vl);
    let mut out = vec![f32::from_bits(0x7fc0_dead); (blocks - 1) * stride + vl * k];
    for b in 0..blocks {
        for kk in 0..k {
            for r in 0..vl {
                let i = b * vl + r;
                out[b * stride + kk * vl + r] = if i < m { lhs[i * k + kk] } else { 0.0 };
            }
        }
    }
    out
}

/// The RHS as `matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme` pack it: per block of `vl`
/// columns their biases, then per K value the block's columns (zero past `n`); blocks `stride`
/// floats apart (the gap filled as in [`pack_lhs`]).
fn pack_rhs(n: usize, k: usize, vl: usize, rhs: &[f32], bias: &[f32], stride: usize) -> Vec<f32> {
    let blocks = n.div_ceil(vl);
    let mut out = vec![f32::from_bits(0x7fc0_beef); (blocks - 1) * stride + vl * (k + 1)];
    for b in 0..blocks {
        for c in 0..vl {
            let j = b * vl + c;
            out[b * stride + c] = if j < n { bias[j] } else { 0.0 };
            for kk in 0..k {
                out[b * stride + vl * (kk + 1) + c] = if j < n { rhs[kk * n + j] } else { 0.0 };
            }
        }
    }
    out
}

/// KleidiAI's order of operations: the column's bias, one `FMOPA` per K value in K order (a NaN
/// result the default NaN), then `FCLAMP` to the bounds (`-FLT_MAX`, `FLT_MAX` without the
/// clamp flag). Row-major `m` x `n` bits.
fn reference(
    (m, n, k): (usize, usize, usize),
    lhs: &[f32],
    rhs: &[f32],
    bias: &[f32],
    (lo, hi): (f32, f32),
) -> Vec<u32> {
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            let mut acc = bias[j];
            for kk in 0..k {
                acc = float::fmopa(acc, lhs[i * k + kk], rhs[kk * n + j]);
            }
            out.push(float::clamp_num(acc, lo, hi).to_bits());
        }
    }
    out
}

/// One problem's operands and its packed buffers at given strides (in floats).
struct Case<'a> {
    shape: (usize, usize, usize),
    lhs: &'a [f32],
    rhs: &'a [f32],
    bias: &'a [f32],
    clamp: Option<(f32, f32)>,
}

impl Case<'_> {
    fn bounds(&self) -> (f32, f32) {
        self.clamp.unwrap_or((-f32::MAX, f32::MAX))
    }

    /// Runs the portable path and the table's `run` (whole and in portions, strides `gaps`
    /// floats wider than the getters', at each guard edge); every result equals the reference.
    /// Returns the number of `run` calls checked.
    fn check(&self, gaps: (usize, usize, usize), portions: bool) -> usize {
        let vl = sme_lanes32();
        let (m, n, k) = self.shape;
        let expect = reference(self.shape, self.lhs, self.rhs, self.bias, self.bounds());
        let (ls, rs, ds) = (
            KERNEL.lhs_stride(m, k) / 4 + gaps.0,
            KERNEL.rhs_stride(n, k) / 4 + gaps.1,
            KERNEL.dst_stride(m, n) / 4 + gaps.2,
        );
        let lp = pack_lhs(m, k, vl, self.lhs, ls);
        let rp = pack_rhs(n, k, vl, self.rhs, self.bias, rs);
        let what = format!("m {m} n {n} k {k} clamp {:?} gaps {gaps:?}", self.clamp);
        // The portable path gives the same bits.
        let mut portable = vec![f32::from_bits(FILL); (m - 1) * ds + n];
        // SAFETY: the buffers hold the packed blocks and the m rows at the strides given.
        unsafe {
            uker::mopa_portable(
                self.shape,
                vl,
                (lp.as_ptr(), ls * 4),
                (rp.as_ptr(), rs * 4),
                (portable.as_mut_ptr(), ds * 4),
                self.bounds(),
            )
        };
        let pb: Vec<u32> = (0..m * n)
            .map(|e| portable[e / n * ds + e % n].to_bits())
            .collect();
        assert_eq!(pb, expect, "portable {what}");
        let (flags, lo, hi) = match self.clamp {
            Some((lo, hi)) => (CLAMP, lo, hi),
            // Bounds that would change every result if they were read.
            None => (0, 1.0, -1.0),
        };
        let mut runs = 0;
        let edges: &[Edge] = if portions { &EDGES } else { &EDGES[..1] };
        for &edge in edges {
            let l = Guarded::from_f32(&lp, edge);
            let r = Guarded::from_f32(&rp, edge);
            let call = |(m0, mlen): (usize, usize), (n0, nlen): (usize, usize)| {
                let mut d = Guarded::from_f32(&vec![f32::from_bits(FILL); (m - 1) * ds + n], edge);
                let (lo_off, ro_off, do_off) = (
                    KERNEL.lhs_offset(m0, 0, ls * 4),
                    KERNEL.rhs_offset(n0, 0, rs * 4),
                    KERNEL.dst_offset(m0, n0, ds * 4),
                );
                // SAFETY: the offsets stay inside the buffers (m0 < m, n0 < n, both multiples
                // of the steps).
                let ops = unsafe {
                    (
                        l.ptr().add(lo_off),
                        r.ptr().add(ro_off),
                        d.mut_ptr().add(do_off),
                    )
                };
                let mut a = args(flags, (mlen, nlen, k), ops, (&lo, &hi));
                a.operand.lhs.stride.m = ls * 4;
                a.operand.rhs.stride.n = rs * 4;
                a.operand.dst.stride.m = ds * 4;
                KERNEL.run(&a);
                for i in 0..m {
                    for j in 0..n {
                        let got = d.f32_at(i * ds + j).to_bits();
                        let inside = (m0..m0 + mlen).contains(&i) && (n0..n0 + nlen).contains(&j);
                        let want = if inside { expect[i * n + j] } else { FILL };
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
fn operands(rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> [Vec<f32>; 3] {
    [
        rng.vec_f32(m * k, -2.0, 2.0),
        rng.vec_f32(k * n, -2.0, 2.0),
        rng.vec_f32(n, -1.0, 1.0),
    ]
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let vl = sme_lanes32();
    let mut rng = Rng::new(28);
    let mut runs = 0;
    let full = support::sme_pack::full_sweep();
    // Rows and columns: part of a block, one, past it by one, two (one 2 x 2-block tile), past
    // it by one (a second tile of one block: its second block is the first again), and a second
    // tile of two blocks.
    let mns: Vec<usize> = if full {
        vec![1, vl - 1, vl, vl + 1, 2 * vl, 2 * vl + 1, 3 * vl + 2]
    } else {
        vec![vl + 1, 2 * vl + 1]
    };
    // K: none, one, two and four steps, and all three paths (7).
    let ks: &[usize] = if full {
        &[0, 1, 2, 3, 4, 7, 9]
    } else {
        &[1, 7]
    };
    for &m in &mns {
        for &n in &mns {
            for &k in ks {
                let [lhs, rhs, bias] = operands(&mut rng, (m, n, k));
                for clamp in [None, Some((-0.75f32, 0.5f32))] {
                    let case = Case {
                        shape: (m, n, k),
                        lhs: &lhs,
                        rhs: &rhs,
                        bias: &bias,
                        clamp,
                    };
                    let portions = full && k == 7 && clamp.is_some();
                    runs += case.check((0, 0, 0), portions);
                }
            }
        }
    }
    // A full tile and a partial one.
    let reduced_extra = if full {
        vec![]
    } else {
        vec![(2 * vl, 2 * vl, 4)]
    };
    for (m, n, k) in reduced_extra {
        let [lhs, rhs, bias] = operands(&mut rng, (m, n, k));
        let case = Case {
            shape: (m, n, k),
            lhs: &lhs,
            rhs: &rhs,
            bias: &bias,
            clamp: None,
        };
        runs += case.check((0, 0, 0), true);
    }
    eprintln!(
        "{runs} runs equal the reference (vl {vl}, full sweep {full}, SME2 asm: {})",
        support::uker::asm_runs(Isa::Sme2)
    );
}

/// The kernel reads the three strides of the arguments, as KleidiAI's does: packed blocks
/// further apart than the getters say and destination rows with a gap between them.
#[test]
fn caller_strides() {
    let vl = sme_lanes32();
    let mut rng = Rng::new(5);
    let mut runs = 0;
    for (m, n, k) in [(3 * vl + 2, 2 * vl + 1, 5), (vl + 1, 3 * vl - 1, 2)] {
        let [lhs, rhs, bias] = operands(&mut rng, (m, n, k));
        let case = Case {
            shape: (m, n, k),
            lhs: &lhs,
            rhs: &rhs,
            bias: &bias,
            clamp: Some((-1.0, 1.0)),
        };
        for gaps in [(1, 3, 5), (vl, 0, 1)] {
            runs += case.check(gaps, m < 2 * vl);
        }
    }
    eprintln!("{runs} runs with caller strides equal the reference");
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals and overflowing products in
/// every operand, with and without the clamp flag (without it the bounds are +-FLT_MAX: an
/// infinity becomes a finite bound, NaNs as FCLAMP treats them).
#[test]
fn hostile_floats() {
    let vl = sme_lanes32();
    let specials = support::uker::HOSTILE_F32;
    let mut rng = Rng::new(4);
    let mut runs = 0;
    let shapes = if support::sme_pack::full_sweep() {
        vec![(vl + 1, 2 * vl + 3, 3), (2, 1, 1), (2 * vl + 1, vl, 0)]
    } else {
        vec![(vl + 1, 2 * vl + 3, 3), (2, 1, 0)]
    };
    for (m, n, k) in shapes {
        for round in 0..4 {
            let mut pick = |i: usize| {
                if (i + round) % 3 == 0 {
                    specials[(i * 7 + round) % specials.len()]
                } else {
                    rng.f32(-3.0, 3.0)
                }
            };
            let lhs: Vec<f32> = (0..m * k).map(&mut pick).collect();
            let rhs: Vec<f32> = (0..k * n).map(|i| pick(i + 1)).collect();
            let bias: Vec<f32> = (0..n).map(|i| pick(i + 2)).collect();
            for clamp in support::uker::HOSTILE_CLAMPS {
                let case = Case {
                    shape: (m, n, k),
                    lhs: &lhs,
                    rhs: &rhs,
                    bias: &bias,
                    clamp,
                };
                runs += case.check((0, 0, 0), false);
            }
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// The operands packed by KleidiAI's providers of the pairing (the LHS by
/// `kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme`, the RHS by
/// `kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme`, sizes and strides from their getters)
/// give the reference's results.
#[test]
fn packed_by_the_providers() {
    use rkai_capi::capi::exports::{
        kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme as lhs_provider,
        kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme as rhs_provider,
    };
    use support::uker_pack::{LhsPackApi, RhsOperands, RhsPackApi};
    let vl = sme_lanes32();
    let mut rng = Rng::new(31);
    let (m, n, k) = (2 * vl + 3, 3 * vl - 1, 6);
    let [lhs, rhs, bias] = operands(&mut rng, (m, n, k));
    let (lapi, rapi) = (LhsPackApi(lhs_provider()), RhsPackApi(rhs_provider()));
    let (ls, rs) = (lapi.packed_stride(m, k).m, rapi.packed_stride(n, k).n);
    let source = RhsOperands::source(
        rhs.as_ptr().cast(),
        rapi.rhs_stride(n, k),
        bias.as_ptr().cast(),
    );
    // SAFETY: the sources hold the problem at the strides the getters give.
    let (lp, rp) = unsafe {
        let row = lapi.lhs_stride(m, k).m;
        (
            lapi.pack((m, k), lhs.as_ptr().cast(), row),
            rapi.pack((n, k), &source),
        )
    };
    assert_eq!((ls, rs), (KERNEL.lhs_stride(m, k), KERNEL.rhs_stride(n, k)));
    let expect = reference((m, n, k), &lhs, &rhs, &bias, (-1.5, 1.5));
    let mut d = Guarded::from_f32(&vec![f32::from_bits(FILL); m * n], Edge::End);
    let mut a = args(
        CLAMP,
        (m, n, k),
        (lp.as_ptr().cast(), rp.as_ptr().cast(), d.mut_ptr()),
        (&-1.5f32, &1.5f32),
    );
    a.operand.lhs.stride.m = ls;
    a.operand.rhs.stride.n = rs;
    a.operand.dst.stride.m = KERNEL.dst_stride(m, n);
    KERNEL.run(&a);
    let got: Vec<u32> = (0..m * n).map(|i| d.f32_at(i).to_bits()).collect();
    assert_eq!(got, expect);
}

/// `m == 0` or `n == 0` writes nothing.
#[test]
fn empty_shapes() {
    let one = [1.0f32; 8];
    for (m, n) in [(0, 1), (1, 0), (0, 0)] {
        let mut d = Guarded::from_f32(&[5.0], EDGES[0]);
        let mut a = args(
            0,
            (m, n, 1),
            (one.as_ptr().cast(), one.as_ptr().cast(), d.mut_ptr()),
            (&0.0f32, &0.0f32),
        );
        a.operand.dst.stride.m = 4;
        KERNEL.run(&a);
        assert_eq!(d.f32_at(0), 5.0, "m {m} n {n}");
    }
}

/// A caller with a pending lazy ZA save: the kernel commits it before using ZA, and its result
/// is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_save_is_committed() {
    let Some(svl) = rkai_ukernels::arch::sme_vector_bytes() else {
        eprintln!("no SME on this CPU: no ZA state to protect");
        return;
    };
    if !support::cpu::can_run(Isa::Sme2) {
        return;
    }
    let vl = sme_lanes32();
    let mut rng = Rng::new(9);
    let (m, n, k) = (vl + 1, vl + 2, 3);
    let [lhs, rhs, bias] = operands(&mut rng, (m, n, k));
    let case = Case {
        shape: (m, n, k),
        lhs: &lhs,
        rhs: &rhs,
        bias: &bias,
        clamp: None,
    };
    let mut za = support::abi::PendingZaSave::new(svl);
    za.arm();
    assert_eq!(case.check((0, 0, 0), false), 1);
    za.assert_committed(NAME);
    za.finish();
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, nulls: Nulls) {
        let x = [1.0f32; 64];
        let mut d = [0f32; 64];
        let operands = (x.as_ptr().cast(), x.as_ptr().cast(), d.as_mut_ptr().cast());
        let mut a: kai_matmul_uker_args = args(flags, (1, 1, 1), operands, (&0.0f32, &1.0f32));
        a.operand.lhs.stride.m = 16;
        a.operand.rhs.stride.n = 32;
        a.operand.dst.stride.m = 4;
        nulls.apply(&mut a);
        KERNEL.run(&a);
    }
    let mut cases = uker_float_violations!(call);
    let own: Vec<support::death::Case<&'static str, &'static str>> = vec![
        ("lhs_offset_m", NAME, "index->m % get_m_step() == 0", || {
            KERNEL.lhs_offset(1, 0, 4);
        }),
        ("dst_offset_m", NAME, "index->m % get_m_step() == 0", || {
            KERNEL.dst_offset(sme_lanes32() + 1, 0, 4);
        }),
    ];
    cases.extend(own);
    cases
}

death_tests!(violations, "assumptions");
