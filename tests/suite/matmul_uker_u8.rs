//! KleidiAI's generic u8 GEMMs (`kai_matmul.h`) through the C ABI:
//! `kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa` and
//! `kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa` (function pointers
//! called as C calls them), against KleidiAI's getter values and a scalar reference in
//! KleidiAI's order of operations, at the streaming length of the CPU under test (SME2 asm where
//! the CPU has it, the portable path otherwise): edge shapes around the 8vs x 8vs tile and the
//! four-step K loop (every one at SVL 128 to 512 or with `RKAI_SME_CASES=all`, else a full tile,
//! a partial tile and a portion), portions through the offset getters, guard pages, register
//! canaries, padded strides, wrapping int32 sums, hostile floats, both clamp settings, null
//! biases and KleidiAI's assumptions. The operands are packed by the providers
//! `kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` and `kai_matmul_pack_rhs_{kxn,nxk}_x8p4vsx4_x8_sme`
//! (checked against this file's packing once per run).

use crate::support;

use rkai_capi::capi::exports::{
    kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa as f32_provider,
    kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa as i32_provider,
    kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme, kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme,
};
use rkai_ukernels::float;
use rkai_ukernels::matmul::uker::u8_mopa;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{
    CLAMP, Getters, Nulls, Portion, Uker, args, check_getters, mopa_portions, mopa_shapes,
    sme_lanes32,
};

const I32_NAME: &str = "kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa";
const F32_NAME: &str = "kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa";
const I32_KERNEL: Uker = Uker::new(I32_NAME, i32_provider);
const F32_KERNEL: Uker = Uker::new(F32_NAME, f32_provider);

/// A destination byte the kernels never write.
const FILL: u8 = 0xa5;

/// KleidiAI's getter values, from its formulas: step 8 x vscale, mr = nr = 4 x vscale, kr 4,
/// 1-byte operands and 4-byte outputs.
#[test]
fn getters_equal_kleidiai() {
    let nr = sme_lanes32();
    for kernel in [I32_KERNEL, F32_KERNEL] {
        let block = |k: usize| nr * k.div_ceil(4) * 4;
        let formulas = Getters {
            step: (2 * nr, 2 * nr),
            lhs_rows: nr,
            rhs_cols: nr,
            lhs_stride: &block,
            rhs_stride: &block,
            dst_bytes: 4,
        };
        check_getters(&kernel, &formulas);
    }
}

/// The packed format of both operands: blocks of `lanes` rows (LHS) or columns (RHS), per step
/// of four K values each one's four bytes in turn; zero past the rows or K. `at(r, kk)` is the
/// value of row or column `r` at `kk`.
fn pack(rows: usize, k: usize, lanes: usize, at: impl Fn(usize, usize) -> u8) -> Vec<u8> {
    let mut out = Vec::new();
    for blk in 0..rows.div_ceil(lanes) {
        for s in 0..k.div_ceil(4) {
            for r in blk * lanes..blk * lanes + lanes {
                for kk in 4 * s..4 * s + 4 {
                    out.push(if r < rows && kk < k { at(r, kk) } else { 0 });
                }
            }
        }
    }
    out
}

/// One problem: `m` x `k` LHS and `k` x `n` RHS bytes, int32 row and column biases (None:
/// null pointers), and for the f32 kernel the scale, f32 column biases and clamp.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    lhs: Vec<u8>,
    rhs: Vec<u8>,
    bias_m: Option<Vec<i32>>,
    bias_n: Option<Vec<i32>>,
    scale: f32,
    fbias: Vec<f32>,
}

impl Problem {
    fn random(rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> Self {
        let byte = |rng: &mut Rng| match rng.next_u64() % 8 {
            0 => 255,
            1 => 0,
            r => (rng.next_u64() >> (8 * r)) as u8,
        };
        Problem {
            m,
            n,
            k,
            lhs: (0..m * k).map(|_| byte(rng)).collect(),
            rhs: (0..k * n).map(|_| byte(rng)).collect(),
            bias_m: Some((0..m).map(|_| rng.next_u64() as i32 >> 8).collect()),
            bias_n: Some((0..n).map(|_| rng.next_u64() as i32 >> 8).collect()),
            scale: rng.f32(-0.01, 0.01),
            fbias: (0..n).map(|_| rng.f32(-100.0, 100.0)).collect(),
        }
    }

    /// KleidiAI's order: the exact int32 sum (wrapping) of both biases and the products.
    fn sums(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(self.m * self.n);
        for i in 0..self.m {
            for j in 0..self.n {
                let mut acc = self.bias_m.as_ref().map_or(0, |b| b[i]);
                acc = acc.wrapping_add(self.bias_n.as_ref().map_or(0, |b| b[j]));
                for kk in 0..self.k {
                    let p =
                        u32::from(self.lhs[i * self.k + kk]) * u32::from(self.rhs[kk * self.n + j]);
                    acc = acc.wrapping_add(p as i32);
                }
                out.push(acc);
            }
        }
        out
    }

    /// The f32 kernel's result bits: `SCVTF`, `FMAD` (bias + sum * scale, fused), `FCLAMP` to
    /// the bounds (KleidiAI's `±FLT_MAX` without the clamp flag).
    fn floats(&self, clamp: Option<(f32, f32)>) -> Vec<u32> {
        let (lo, hi) = clamp.unwrap_or((-f32::MAX, f32::MAX));
        self.sums()
            .iter()
            .enumerate()
            .map(|(idx, &s)| {
                let v = float::fmla(self.fbias[idx % self.n], s as f32, self.scale);
                float::clamp_num(v, lo, hi).to_bits()
            })
            .collect()
    }

    fn packed(&self, lanes: usize) -> (Vec<u8>, Vec<u8>) {
        (
            pack(self.m, self.k, lanes, |i, kk| self.lhs[i * self.k + kk]),
            pack(self.n, self.k, lanes, |j, kk| self.rhs[kk * self.n + j]),
        )
    }
}

/// The kernels under test: (kernel, f32 output).
const KERNELS: [(Uker, bool); 2] = [(I32_KERNEL, false), (F32_KERNEL, true)];

/// The expected output words of `p` for a kernel.
fn expected(p: &Problem, f32_out: bool, clamp: Option<(f32, f32)>) -> Vec<u32> {
    match f32_out {
        true => p.floats(clamp),
        false => p.sums().iter().map(|&s| s as u32).collect(),
    }
}

/// The run arguments of a portion: rows `m0..m0 + mh`, columns `n0..n0 + nw` of `p` (starts
/// multiples of the block), operands and destination moved there through the offset getters.
#[allow(clippy::too_many_arguments)]
fn portion_args(
    kernel: &Uker,
    p: &Problem,
    (m0, mh, n0, nw): Portion,
    (lhs, rhs, dst, dst_stride): (*const u8, *const u8, *mut u8, usize),
    flags: u64,
    bounds: &(f32, f32),
) -> kai_matmul_uker_args {
    let (ls, rs) = (kernel.lhs_stride(p.m, p.k), kernel.rhs_stride(p.n, p.k));
    let mut a = kernel.portion_args(
        (flags, (m0, mh, n0, nw), p.k),
        (lhs, ls, rhs, rs),
        (dst, dst_stride),
        (&bounds.0, &bounds.1),
    );
    a.operand.bias.acc_bias_m.ptr = p
        .bias_m
        .as_ref()
        .map_or(std::ptr::null(), |b| b[m0..].as_ptr().cast());
    a.operand.bias.acc_bias_n.ptr = p
        .bias_n
        .as_ref()
        .map_or(std::ptr::null(), |b| b[n0..].as_ptr().cast());
    a.operand.bias.scale_bias_n.ptr = p.fbias[n0..].as_ptr().cast();
    a.operand.scale.acc_scale_global.ptr = std::ptr::from_ref(&p.scale).cast();
    a
}

/// Runs `p` on both kernels: the whole problem at each guard edge with a padded destination
/// stride, then `portions` (row start, rows, column start, columns); every written word equals
/// the reference and nothing else is written. Also the portable path. Returns the runs.
fn check(
    p: &Problem,
    clamp: Option<(f32, f32)>,
    portions: &[(usize, usize, usize, usize)],
) -> usize {
    let nr = sme_lanes32();
    let (lp, rp) = p.packed(nr);
    let (flags, bounds) = match clamp {
        Some(b) => (CLAMP, b),
        // Bounds that would change the result if they were read.
        None => (0, (1.0, -1.0)),
    };
    let mut runs = 0;
    for (kernel, f32_out) in KERNELS {
        let expect = expected(p, f32_out, clamp);
        let flags = if f32_out { flags } else { 0 };
        if !f32_out && clamp.is_some() {
            continue;
        }
        // The portable path at this length gives the same words.
        let mut out = vec![0u32; p.m * p.n];
        let whole = portion_args(
            &kernel,
            p,
            (0, p.m, 0, p.n),
            (lp.as_ptr(), rp.as_ptr(), out.as_mut_ptr().cast(), 4 * p.n),
            flags,
            &bounds,
        );
        // SAFETY: the arguments describe the buffers above.
        let call = unsafe { u8_mopa::check(&whole, f32_out) }.unwrap();
        // SAFETY: as above.
        unsafe { u8_mopa::gemm_portable(&call, nr) };
        assert_eq!(
            out, expect,
            "{} portable {}x{}x{}",
            kernel.name, p.m, p.n, p.k
        );
        let row = 4 * p.n + 12;
        let mut all = vec![(0, p.m, 0, p.n)];
        all.extend_from_slice(portions);
        for edge in EDGES {
            let l = Guarded::from_bytes(&lp, edge);
            let r = Guarded::from_bytes(&rp, edge);
            for &(m0, mh, n0, nw) in &all {
                let mut d = Guarded::from_bytes(&vec![FILL; p.m * row], edge);
                let dp = d.mut_ptr();
                kernel.run(&portion_args(
                    &kernel,
                    p,
                    (m0, mh, n0, nw),
                    (l.ptr(), r.ptr(), dp, row),
                    flags,
                    &bounds,
                ));
                let bytes = d.bytes();
                for i in 0..p.m {
                    for j in 0..row / 4 {
                        let word =
                            u32::from_le_bytes(bytes[i * row + 4 * j..][..4].try_into().unwrap());
                        let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
                        let want = if inside {
                            expect[i * p.n + j]
                        } else {
                            u32::from_le_bytes([FILL; 4])
                        };
                        assert_eq!(
                            word,
                            want,
                            "{} {}x{}x{} portion {:?} ({i}, {j}) clamp {clamp:?} {edge:?}",
                            kernel.name,
                            p.m,
                            p.n,
                            p.k,
                            (m0, mh, n0, nw)
                        );
                    }
                }
                runs += 1;
            }
        }
    }
    runs
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(88);
    let mut runs = 0;
    for (m, n, k) in mopa_shapes(nr) {
        let p = Problem::random(&mut rng, (m, n, k));
        let cuts = mopa_portions(m, n, nr);
        for clamp in [None, Some((-30.0f32, 20.0f32))] {
            runs += check(&p, clamp, &cuts);
        }
    }
    support::uker::report_sme2_runs(runs, ("nr", nr));
}

/// Int32 wrapping: the biases near the limits and all-255 bytes; null bias pointers add zeros;
/// `k == 0` gives the biases alone.
#[test]
fn sums_wrap_and_null_biases_add_zeros() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(5);
    let mut runs = 0;
    let (m, n, k) = (nr + 1, 2 * nr + 1, 13);
    let mut p = Problem::random(&mut rng, (m, n, k));
    p.lhs.fill(255);
    p.rhs.fill(255);
    p.bias_m = Some((0..m).map(|i| i32::MAX - i as i32).collect());
    p.bias_n = Some((0..n).map(|j| i32::MAX - 3 * j as i32).collect());
    runs += check(&p, None, &[]);
    for (bm, bn) in [(false, true), (true, false), (false, false)] {
        let mut q = Problem::random(&mut rng, (m, n, 6));
        if !bm {
            q.bias_m = None;
        }
        if !bn {
            q.bias_n = None;
        }
        runs += check(&q, None, &mopa_portions(m, n, nr));
    }
    let mut z = Problem::random(&mut rng, (2 * nr + 1, nr + 2, 0));
    z.scale = 0.5;
    runs += check(&z, Some((-1.0e6, 1.0e6)), &[]);
    eprintln!("{runs} wrapping, null-bias and k = 0 runs equal the reference");
}

/// Hostile floats in the f32 kernel's scale, column biases and bounds: infinities, NaNs (quiet
/// and signalling), signed zeros, subnormals, huge scales; with and without the clamp flag.
#[test]
fn hostile_floats() {
    let nr = sme_lanes32();
    let specials = support::uker::HOSTILE_F32;
    let mut rng = Rng::new(9);
    let mut runs = 0;
    for round in 0..specials.len() {
        let mut p = Problem::random(&mut rng, (nr + 1, 2 * nr + 1, 5));
        p.scale = specials[round];
        for (j, b) in p.fbias.iter_mut().enumerate() {
            if (j + round) % 3 == 0 {
                *b = specials[(j * 7 + round) % specials.len()];
            }
        }
        for clamp in [
            None,
            Some((-1.0, 1.0)),
            Some((f32::NAN, 1.0)),
            Some((2.0, -2.0)),
        ] {
            runs += check(&p, clamp, &[]);
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// The providers of the operands pack what this file's reference packing describes (their own
/// tests cover every shape; this ties the kernels to them).
#[test]
fn providers_pack_the_operands() {
    use support::uker_pack::{LhsPackApi, RhsOperands, RhsPackApi, RhsStride};
    let nr = sme_lanes32();
    let mut rng = Rng::new(3);
    let p = Problem::random(&mut rng, (2 * nr + 1, nr + 3, 9));
    let (lapi, rapi) = (
        LhsPackApi(kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme()),
        RhsPackApi(kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme()),
    );
    assert_eq!(
        lapi.packed_stride(p.m, p.k).m,
        I32_KERNEL.lhs_stride(p.m, p.k)
    );
    assert_eq!(
        rapi.packed_stride(p.n, p.k).n,
        I32_KERNEL.rhs_stride(p.n, p.k)
    );
    let source = RhsOperands::source(p.rhs.as_ptr(), RhsStride { n: 1, k: p.n }, std::ptr::null());
    // SAFETY: the sources hold the problem at the strides given.
    let packed = unsafe {
        (
            lapi.pack((p.m, p.k), p.lhs.as_ptr(), p.k),
            rapi.pack((p.n, p.k), &source),
        )
    };
    assert_eq!(packed, p.packed(nr));
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    /// What a death case breaks.
    #[derive(Clone, Copy)]
    enum Break {
        Ptr(Nulls),
        Scale,
        ScaleBias,
    }
    fn call(kernel: Uker, flags: u64, what: Break) {
        let x = [1u8; 4096];
        let mut d = [0u32; 1024];
        let (scale, fbias) = (1.0f32, [0f32; 64]);
        let mut a = args(
            flags,
            (2, 3, 4),
            (x.as_ptr(), x.as_ptr(), d.as_mut_ptr().cast()),
            (&0.0f32, &1.0f32),
        );
        a.operand.lhs.stride.m = kernel.lhs_stride(2, 4);
        a.operand.rhs.stride.n = kernel.rhs_stride(3, 4);
        a.operand.dst.stride.m = 12;
        a.operand.scale.acc_scale_global.ptr = std::ptr::from_ref(&scale).cast();
        a.operand.bias.scale_bias_n.ptr = fbias.as_ptr().cast();
        match what {
            Break::Ptr(n) => n.apply(&mut a),
            Break::Scale => a.operand.scale.acc_scale_global.ptr = std::ptr::null(),
            Break::ScaleBias => a.operand.bias.scale_bias_n.ptr = std::ptr::null(),
        }
        kernel.run(&a);
    }
    const FLAGS: &str = "Only supported flags are accepted!";
    vec![
        ("i32_flag_clamp", I32_NAME, FLAGS, || {
            call(I32_KERNEL, CLAMP, Break::Ptr(Nulls::None))
        }),
        ("i32_flag_high", I32_NAME, FLAGS, || {
            call(I32_KERNEL, 1 << 40, Break::Ptr(Nulls::None))
        }),
        ("f32_flag_bit0", F32_NAME, FLAGS, || {
            call(F32_KERNEL, 1, Break::Ptr(Nulls::None))
        }),
        ("f32_flag_next", F32_NAME, FLAGS, || {
            call(F32_KERNEL, CLAMP << 1, Break::Ptr(Nulls::None))
        }),
        (
            "i32_null_lhs",
            I32_NAME,
            "run_args->operand.lhs.ptr != NULL",
            || call(I32_KERNEL, 0, Break::Ptr(Nulls::Lhs)),
        ),
        (
            "i32_null_rhs",
            I32_NAME,
            "run_args->operand.rhs.ptr != NULL",
            || call(I32_KERNEL, 0, Break::Ptr(Nulls::Rhs)),
        ),
        (
            "i32_null_dst",
            I32_NAME,
            "run_args->operand.dst.ptr != NULL",
            || call(I32_KERNEL, 0, Break::Ptr(Nulls::Dst)),
        ),
        (
            "f32_null_lhs",
            F32_NAME,
            "run_args->operand.lhs.ptr != NULL",
            || call(F32_KERNEL, 0, Break::Ptr(Nulls::Lhs)),
        ),
        (
            "f32_null_rhs",
            F32_NAME,
            "run_args->operand.rhs.ptr != NULL",
            || call(F32_KERNEL, CLAMP, Break::Ptr(Nulls::Rhs)),
        ),
        (
            "f32_null_dst",
            F32_NAME,
            "run_args->operand.dst.ptr != NULL",
            || call(F32_KERNEL, 0, Break::Ptr(Nulls::Dst)),
        ),
        (
            "f32_null_scale",
            F32_NAME,
            "run_args->operand.scale.acc_scale_global.ptr != NULL",
            || call(F32_KERNEL, 0, Break::Scale),
        ),
        (
            "f32_null_scale_bias",
            F32_NAME,
            "run_args->operand.bias.scale_bias_n.ptr != NULL",
            || call(F32_KERNEL, CLAMP, Break::ScaleBias),
        ),
        (
            "f32_null_min",
            F32_NAME,
            "!enable_clamp || run_args->activation.clamp.min_ptr != NULL",
            || call(F32_KERNEL, CLAMP, Break::Ptr(Nulls::Min)),
        ),
        (
            "f32_null_max",
            F32_NAME,
            "!enable_clamp || run_args->activation.clamp.max_ptr != NULL",
            || call(F32_KERNEL, CLAMP, Break::Ptr(Nulls::Max)),
        ),
        (
            "i32_lhs_offset_m",
            I32_NAME,
            "index->m % get_mr() == 0",
            || {
                I32_KERNEL.lhs_offset(1, 0, 16);
            },
        ),
        ("i32_lhs_offset_k", I32_NAME, "index->k == 0", || {
            I32_KERNEL.lhs_offset(0, 4, 16);
        }),
        (
            "f32_rhs_offset_n",
            F32_NAME,
            "index->n % get_nr() == 0",
            || {
                F32_KERNEL.rhs_offset(sme_lanes32() + 1, 0, 16);
            },
        ),
        ("f32_rhs_offset_k", F32_NAME, "index->k == 0", || {
            F32_KERNEL.rhs_offset(0, 1, 16);
        }),
        (
            "i32_dst_offset_m",
            I32_NAME,
            "index->m % get_mr() == 0",
            || {
                I32_KERNEL.dst_offset(sme_lanes32() - 1, 0, 16);
            },
        ),
        (
            "f32_dst_offset_n",
            F32_NAME,
            "index->n % get_nr() == 0",
            || {
                F32_KERNEL.dst_offset(0, 2, 16);
            },
        ),
    ]
}

death_tests!(violations, "assumptions");
