//! `kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa` through the C ABI
//! (its table's function pointers called as C calls them), against KleidiAI's getter formulas
//! and a scalar reference in KleidiAI's order of operations, at the streaming length of the CPU
//! under test (SME2 asm where the CPU has it, the portable path otherwise): edge shapes around
//! the 8vs x 8vs tile, the four-step K loop and the RHS's K padding to 32 (every one up to SVL
//! 512 or with `RKAI_SME_CASES=all`, else a reduced set reaching each path), portions through
//! the offset getters, guard pages, register canaries, a padded destination stride, wrapping
//! int32 sums, hostile scales, zero points and bounds, both clamp settings, a pending lazy ZA
//! save and KleidiAI's assumptions. The operands are packed by this file's packing, checked
//! against `kai_run_lhs_pack_x8p2vlx4_x8_sme` (the LHS packer KleidiAI's tests pair with the
//! kernel) and the four `kai_matmul_pack_rhs_*_qsi4cxp8vsx4sf32bi32_*_sme` providers.

use super::{FILL, MopaGetters, check_guarded_portions, check_mopa_getters, violating_call};
use crate::support;
use rkai_capi::capi::exports::{
    kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa as provider,
    kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme,
    kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme,
    kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme,
    kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme,
};
use rkai_ukernels::arch;
use rkai_ukernels::matmul::uker::qai8_qsi4_mopa;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use rkai_ukernels::pack_rhs_types::*;
use std::ffi::c_void;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Nulls, Portion, Uker};

const NAME: &str = "kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa";
const KERNEL: Uker = Uker::new(NAME, provider);

/// mr = nr = 8 x vscale: twice the streaming length in 32-bit lanes (8 without SME), checked
/// against the QEMU model when the test matrix names one.
pub(crate) fn tile() -> usize {
    let lanes = support::sme_pack::svl32();
    assert_eq!(lanes, arch::sme_lanes32());
    2 * lanes
}

/// `roundup(a, b)`.
pub(crate) fn up(a: usize, b: usize) -> usize {
    a.div_ceil(b) * b
}

/// KleidiAI's getter values, from its formulas: step 8 x vscale, LHS blocks of `mr` rows of K
/// rounded up to 4 bytes, RHS groups of `nr` columns of K rounded up to 32 nibbles plus an int32
/// bias and an f32 scale, 1-byte outputs.
#[test]
fn getters_equal_kleidiai() {
    let t = tile();
    let lhs_packed_offset = support::cabi::sym::<support::cabi::Getter5>(
        "kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme",
    );
    let formulas = MopaGetters {
        tile: t,
        ks: &[0, 1, 3, 4, 5, 31, 32, 33, 1000],
        ns: &[1, t - 1, t, t + 1, 5 * t + 3],
        lhs_stride: &|k| t * up(k, 4),
        rhs_stride: &|k| t * (up(k, 32) / 2 + 8),
        // The paired LHS packer places each row block where the kernel reads it.
        packer_lhs_offset: Some(&|m_idx, k| lhs_packed_offset(m_idx, k, t, 4, 1)),
    };
    let checked = check_mopa_getters(&KERNEL, &formulas);
    eprintln!("{checked} getter values equal KleidiAI's (tile {t})");
}

/// One problem in the packed operands' terms: `m` x `k` int8 activations, `k` x `n` int4
/// weights (-8..=7), each column's packed int32 bias and f32 scale, the output zero point and
/// the clamp (None: the flag clear).
#[derive(Clone)]
pub(crate) struct Problem {
    pub(crate) m: usize,
    pub(crate) n: usize,
    pub(crate) k: usize,
    pub(crate) lhs: Vec<i8>,
    pub(crate) w: Vec<i8>,
    pub(crate) bias: Vec<i32>,
    pub(crate) scale: Vec<f32>,
    pub(crate) zp: i32,
    pub(crate) clamp: Option<(i32, i32)>,
}

impl Problem {
    pub(crate) fn random(rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> Self {
        // Extremes often: -128 / 127 and -8 / 7 meet in the products.
        let x = |rng: &mut Rng| match rng.next_u64() % 6 {
            0 => -128,
            1 => 127,
            _ => (rng.next_u64() >> 24) as i8,
        };
        let w = |rng: &mut Rng| ((rng.next_u64() >> 30) as i8) >> 4;
        Problem {
            m,
            n,
            k,
            lhs: (0..m * k).map(|_| x(rng)).collect(),
            w: (0..k * n).map(|_| w(rng)).collect(),
            bias: (0..n).map(|_| rng.range_i32(-3000, 3000)).collect(),
            // Scales that map the sums (up to about 1000 * k) over and past the int8 range.
            scale: (0..n)
                .map(|_| rng.f32(0.002, 0.05) / (k.max(1) as f32).sqrt())
                .collect(),
            zp: rng.range_i32(-20, 20),
            clamp: None,
        }
    }

    /// Output `(i, j)` in KleidiAI's order: the bias plus the products in wrapping int32, then
    /// float conversion, the product with the column's scale, rounding to nearest even,
    /// conversion to int32 (saturating; NaN to 0), the zero point added (wrapping), the lower
    /// bound then the upper one (`SCLAMP`), the low byte.
    pub(crate) fn expected(&self, i: usize, j: usize) -> u8 {
        let mut acc = self.bias[j];
        for kk in 0..self.k {
            let p = i32::from(self.lhs[i * self.k + kk]) * i32::from(self.w[kk * self.n + j]);
            acc = acc.wrapping_add(p);
        }
        let (lo, hi) = self.clamp.unwrap_or((-128, 127));
        let v = ((acc as f32) * self.scale[j]).round_ties_even() as i32;
        v.wrapping_add(self.zp).max(lo).min(hi) as u8
    }

    /// The LHS in `lhs_pack_x8p2vlx4_x8_sme`'s format: blocks of `t` rows, per step of four K
    /// values each row's four bytes in turn, zeros past `m` and `k`.
    fn packed_lhs(&self, t: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for blk in 0..self.m.div_ceil(t) {
            for s in 0..self.k.div_ceil(4) {
                for r in blk * t..blk * t + t {
                    for kk in 4 * s..4 * s + 4 {
                        let inside = r < self.m && kk < self.k;
                        out.push(if inside {
                            self.lhs[r * self.k + kk] as u8
                        } else {
                            0
                        });
                    }
                }
            }
        }
        out
    }

    /// The RHS in `qsi4cxp8vsx4sf32bi32`'s format: groups of `t` columns, each `t` biases, per
    /// step of four K values (K padded to 32) each column's two bytes (the first K value in the
    /// low nibble of the first byte), `t` scales; zeros past `n` and `k`.
    pub(crate) fn packed_rhs(&self, t: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for g in 0..self.n.div_ceil(t) {
            let cols = g * t..g * t + t;
            for j in cols.clone() {
                let b = if j < self.n { self.bias[j] } else { 0 };
                out.extend_from_slice(&b.to_le_bytes());
            }
            for s in 0..up(self.k, 32) / 4 {
                for j in cols.clone() {
                    for pair in 0..2 {
                        let nib = |kk: usize| {
                            let v = if j < self.n && kk < self.k {
                                self.w[kk * self.n + j]
                            } else {
                                0
                            };
                            (v as u8) & 0xf
                        };
                        let kk = 4 * s + 2 * pair;
                        out.push(nib(kk) | (nib(kk + 1) << 4));
                    }
                }
            }
            for j in cols {
                let sc = if j < self.n { self.scale[j] } else { 0.0 };
                out.extend_from_slice(&sc.to_le_bytes());
            }
        }
        out
    }
}

/// The run arguments of the portion rows `m0..m0 + mh`, columns `n0..n0 + nw` of `p` (starts
/// multiples of the tile), operands and destination moved there through the offset getters.
fn portion_args(
    p: &Problem,
    portion: Portion,
    (lhs, rhs, dst, dst_stride): (*const u8, *const u8, *mut u8, usize),
    bounds: &(i32, i32),
) -> kai_matmul_uker_args {
    let (ls, rs) = (KERNEL.lhs_stride(p.m, p.k), KERNEL.rhs_stride(p.n, p.k));
    let flags = if p.clamp.is_some() { CLAMP } else { 0 };
    let mut a = KERNEL.portion_args(
        (flags, portion, p.k),
        (lhs, ls, rhs, rs),
        (dst, dst_stride),
        (&bounds.0, &bounds.1),
    );
    a.operand.bias.scale_bias_global.ptr = std::ptr::from_ref(&p.zp).cast();
    a
}

/// Runs `p` with its packing: the portable path on the whole problem, then through the C table
/// the whole problem and `portions` at each guard edge with a padded destination stride; every
/// byte written equals the reference and nothing else is written. Returns the runs.
fn check_packed(
    p: &Problem,
    (lp, rp): (&[u8], &[u8]),
    portions: &[(usize, usize, usize, usize)],
) -> usize {
    let t = tile();
    // Without the flag: bounds that would change the result if they were read.
    let bounds = p.clamp.unwrap_or((5, -5));
    let expect: Vec<u8> = (0..p.m * p.n)
        .map(|idx| p.expected(idx / p.n, idx % p.n))
        .collect();
    let mut out = vec![0u8; p.m * p.n];
    let whole = portion_args(
        p,
        (0, p.m, 0, p.n),
        (lp.as_ptr(), rp.as_ptr(), out.as_mut_ptr(), p.n),
        &bounds,
    );
    // SAFETY: the arguments describe the buffers above.
    let call = unsafe { qai8_qsi4_mopa::check(&whole) }.unwrap();
    // SAFETY: as above; the packing is at this length's tile.
    unsafe { qai8_qsi4_mopa::portable(&call, t) };
    assert_eq!(out, expect, "portable {}x{}x{}", p.m, p.n, p.k);
    let row = p.n + 5;
    let mut all = vec![(0, p.m, 0, p.n)];
    all.extend_from_slice(portions);
    let label = format!("{}x{}x{} clamp {:?} zp {}", p.m, p.n, p.k, p.clamp, p.zp);
    1 + check_guarded_portions(
        &KERNEL,
        (lp, rp),
        (&expect, (p.m, p.n), row),
        (&all, &EDGES),
        &label,
        |cut, (l, r, d)| portion_args(p, cut, (l, r, d, row), &bounds),
    )
}

/// [`check_packed`] with this file's packing of `p`.
fn check(p: &Problem, portions: &[(usize, usize, usize, usize)]) -> usize {
    let t = tile();
    check_packed(p, (&p.packed_lhs(t), &p.packed_rhs(t)), portions)
}

/// The shapes of the sweep: with `full_sweep()` every edge of the tile (`t`) and, across them,
/// every count of K steps modulo the four-step loop and the eight-step padding of the RHS;
/// else a reduced set that still reaches each path of the asm once.
fn shapes(t: usize) -> Vec<(usize, usize, usize)> {
    // K steps 1 to 9 and 16: every remainder modulo 4 (the K loop) and 8 (the padding).
    const KS: [usize; 11] = [1, 5, 8, 13, 17, 21, 25, 32, 33, 3, 61];
    if support::sme_pack::full_sweep() {
        let mn = [1, t - 1, t + 1, 2 * t, 2 * t + 1, 4 * t + 3];
        let mut out = Vec::new();
        for (a, &m) in mn.iter().enumerate() {
            for (b, &n) in mn.iter().enumerate() {
                out.push((m, n, KS[(a * mn.len() + b) % KS.len()]));
            }
        }
        out
    } else {
        vec![(2 * t + 1, t + 3, 25), (t - 1, 2 * t + 1, 33), (5, 3, 61)]
    }
}

/// Portions of an `m` x `n` problem: a tile-aligned start past the first tile where there is
/// one, and one row of the columns past the first tile.
fn portions(m: usize, n: usize, t: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    if m > t && n > t {
        out.push((t, m - t, t, (n - t).min(t + 1)));
    }
    if n > t {
        out.push((0, 1, t, n - t));
    }
    out
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let t = tile();
    let mut rng = Rng::new(41);
    let mut runs = 0;
    for (idx, (m, n, k)) in shapes(t).into_iter().enumerate() {
        let mut p = Problem::random(&mut rng, (m, n, k));
        // Both clamp settings, alternately; the bounds bite.
        if idx % 2 == 1 {
            p.clamp = Some((-50, 60));
        }
        runs += check(&p, &portions(m, n, t));
    }
    support::uker::report_sme2_runs(runs, ("tile", t));
}

/// Wrapping int32 sums (biases at the limits, extreme products), `k == 0` (the requantized
/// biases), and hostile requantization: NaN, infinite, huge, subnormal and negative scales,
/// zero points at the int32 limits (the add wraps after the saturating conversion), inverted
/// bounds (SCLAMP: the upper wins) and bounds outside int8 (the low byte is stored).
#[test]
fn wrapping_sums_and_hostile_requantization() {
    let t = tile();
    let mut rng = Rng::new(7);
    let shapes = [
        (t + 1, 2 * t + 1, 13),
        (2 * t + 1, t + 2, 0),
        (t + 1, 2 * t + 1, 9),
    ];
    let runs = hostile_runs(&mut rng, shapes, |p| check(p, &[]));
    eprintln!("{runs} wrapping, k = 0 and hostile runs equal the reference");
}

/// The problems of [`wrapping_sums_and_hostile_requantization`], each checked by `check`
/// (which returns its runs): wrapping sums of `wrapping` shape, requantized biases of `empty_k`
/// shape (`k == 0`), and six rounds of hostile requantization of `hostile` shape. Returns the
/// runs.
pub(crate) fn hostile_runs(
    rng: &mut Rng,
    [wrapping, empty_k, hostile]: [(usize, usize, usize); 3],
    check: impl Fn(&Problem) -> usize,
) -> usize {
    let mut p = Problem::random(rng, wrapping);
    p.lhs.fill(-128);
    p.w.fill(-8);
    p.bias = (0..p.n).map(|j| i32::MAX - 500 * j as i32).collect();
    p.scale.fill(1.0);
    let mut runs = check(&p);
    let mut z = Problem::random(rng, empty_k);
    z.bias = (0..z.n).map(|j| 37 * j as i32 - 200).collect();
    z.scale.fill(0.75);
    runs += check(&z);
    let scales = support::uker::HOSTILE_F32;
    let requant = [
        (0, None),
        (i32::MAX, None),
        (i32::MIN, Some((-100, 100))),
        (3, Some((40, -40))),
        (-7, Some((-1000, 1000))),
        (1, Some((i32::MIN, i32::MAX))),
    ];
    for (round, &(zp, clamp)) in requant.iter().enumerate() {
        let mut q = Problem::random(rng, hostile);
        for (j, s) in q.scale.iter_mut().enumerate() {
            if (j + round) % 2 == 0 {
                *s = scales[(j + round) % scales.len()];
            }
            if j % 5 == 4 {
                *s = -*s * 300.0;
            }
        }
        q.zp = zp;
        q.clamp = clamp;
        runs += check(&q);
    }
    runs
}

/// The RHS operand of `p` from a provider (`(kxn, unsigned)` picks which of the four) with
/// `k_sum_scale` and `scale_global`, checked equal to this file's packing of the problem with
/// the biases and scales the provider folds (`bias + k_sum_scale * column sum`,
/// `scale * scale_global`): (that folded problem, the packed bytes).
pub(crate) fn provider_rhs(
    p: &Problem,
    (kxn, unsigned): (bool, bool),
    (k_sum_scale, scale_global): (i32, f32),
) -> (Problem, Vec<u8>) {
    let flip = if unsigned { 8 } else { 0 };
    let nib = |kk: usize, j: usize| (p.w[kk * p.n + j] as u8 & 0xf) ^ flip;
    // The source nibbles, two a byte (the lower index in the low nibble), rows (K x N: K rows
    // of n; N x K: N rows of k) rounded up to whole bytes.
    let (rows, cols) = if kxn { (p.k, p.n) } else { (p.n, p.k) };
    let row_bytes = cols.div_ceil(2);
    let mut src = vec![0u8; rows * row_bytes];
    for r in 0..rows {
        for c in 0..cols {
            let v = if kxn { nib(r, c) } else { nib(c, r) };
            src[r * row_bytes + c / 2] |= v << (4 * (c % 2));
        }
    }
    let rs = KERNEL.rhs_stride(p.n, p.k);
    let mut out = vec![0u8; p.n.div_ceil(tile()) * rs];
    // SAFETY: the struct is plain data; all-zero is valid.
    let mut a: kai_matmul_pack_rhs_uker_args = unsafe { std::mem::zeroed() };
    a.shape = kai_matmul_pack_rhs_uker_dim_args { n: p.n, k: p.k };
    a.operand.rhs.ptr = src.as_ptr().cast();
    a.operand.rhs.stride = if kxn {
        kai_matmul_pack_rhs_uker_rhs_stride_args { n: 0, k: row_bytes }
    } else {
        kai_matmul_pack_rhs_uker_rhs_stride_args { n: row_bytes, k: 0 }
    };
    a.operand.rhs_packed.ptr = out.as_mut_ptr().cast();
    a.operand.rhs_packed.stride.n = rs;
    a.operand.bias_n.ptr = p.bias.as_ptr().cast();
    a.operand.k_sum_scale_global.ptr = std::ptr::from_ref(&k_sum_scale).cast();
    a.operand.scale_n.ptr = p.scale.as_ptr().cast();
    a.operand.scale_global.ptr = std::ptr::from_ref(&scale_global).cast();
    let api = match (kxn, unsigned) {
        (true, false) => kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme(),
        (true, true) => kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme(),
        (false, false) => kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme(),
        (false, true) => kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme(),
    };
    // SAFETY: plain-data config (ignored); the arguments describe the buffers above.
    unsafe {
        let config: kai_matmul_pack_rhs_uker_config = std::mem::zeroed();
        (api.run.unwrap())(&config, &a);
    }
    let mut folded = p.clone();
    for j in 0..p.n {
        let sum: i32 = (0..p.k).map(|kk| i32::from(p.w[kk * p.n + j])).sum();
        folded.bias[j] = p.bias[j].wrapping_add(k_sum_scale.wrapping_mul(sum));
        folded.scale[j] = p.scale[j] * scale_global;
    }
    assert_eq!(
        out,
        folded.packed_rhs(tile()),
        "RHS provider {:?}",
        (kxn, unsigned)
    );
    (folded, out)
}

/// The operands as the providers pack them, end to end: the LHS by
/// `kai_run_lhs_pack_x8p2vlx4_x8_sme` (equal to this file's packing), the RHS by each of the
/// four RHS providers, whose folded biases (`bias + k_sum_scale * column sum`) and scales
/// (`scale_n * scale_global`) the reference takes as KleidiAI's packers define them.
#[test]
fn provider_packed_operands_give_the_reference() {
    let t = tile();
    let mut rng = Rng::new(3);
    let mut runs = 0;
    for (idx, kind) in [(true, false), (true, true), (false, false), (false, true)]
        .into_iter()
        .enumerate()
    {
        let mut p = Problem::random(&mut rng, (t + 3, 2 * t + 1, 19 + 6 * idx));
        p.clamp = Some((-90, 100)).filter(|_| idx % 2 == 0);
        let mut lp = vec![FILL; KERNEL.lhs_stride(p.m, p.k) * p.m.div_ceil(t)];
        // SAFETY: the source holds m rows of k bytes; the output the packed size.
        unsafe {
            support::cabi::pack_lhs(
                "lhs_pack_x8p2vlx4_x8_sme",
                (p.m, p.k),
                (t, 4, 1),
                0,
                (p.lhs.as_ptr().cast::<c_void>(), p.k),
                lp.as_mut_ptr().cast(),
            );
        }
        assert_eq!(lp, p.packed_lhs(t), "LHS packer");
        let (kss, sg) = (-(idx as i32) - 3, 0.5f32);
        let (folded, rp) = provider_rhs(&p, kind, (kss, sg));
        runs += check_packed(&folded, (&lp, &rp), &portions(p.m, p.n, t));
    }
    eprintln!("{runs} runs on provider-packed operands equal the reference");
}

/// A caller with a pending lazy ZA save: the kernel commits it before using ZA (and ZT0), and
/// its result is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_save_is_committed() {
    let Some(mut za) = support::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme2) else {
        return;
    };
    let t = tile();
    let mut rng = Rng::new(11);
    let p = Problem::random(&mut rng, (t + 1, t + 2, 7));
    za.arm();
    let runs = check(&p, &[]);
    za.assert_committed(NAME);
    za.finish();
    assert!(runs > 1);
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    /// A valid call but for `flags`, the pointer `nulls` names and, with `no_zp`, a null zero
    /// point.
    fn call(flags: u64, nulls: Nulls, no_zp: bool) {
        violating_call(&KERNEL, (flags, 2), nulls, !no_zp);
    }
    const FLAGS: &str = "Only supported flags are accepted!";
    const M_STEP: &str = "index->m % get_m_step() == 0";
    const N_STEP: &str = "index->n % get_n_step() == 0";
    vec![
        ("q4_flag_bit0", NAME, FLAGS, || call(1, Nulls::None, false)),
        ("q4_flag_high", NAME, FLAGS, || {
            call(CLAMP | (1 << 40), Nulls::None, false)
        }),
        ("q4_flag_next", NAME, FLAGS, || {
            call(CLAMP << 1, Nulls::None, false)
        }),
        ("q4_null_lhs", NAME, "args->operand.lhs.ptr != NULL", || {
            call(0, Nulls::Lhs, false)
        }),
        ("q4_null_rhs", NAME, "args->operand.rhs.ptr != NULL", || {
            call(CLAMP, Nulls::Rhs, false)
        }),
        ("q4_null_dst", NAME, "args->operand.dst.ptr != NULL", || {
            call(0, Nulls::Dst, false)
        }),
        (
            "q4_null_zero_point",
            NAME,
            "args->operand.bias.scale_bias_global.ptr != NULL",
            || call(0, Nulls::None, true),
        ),
        (
            "q4_null_min",
            NAME,
            "!enable_clamp || args->activation.clamp.min_ptr != NULL",
            || call(CLAMP, Nulls::Min, false),
        ),
        (
            "q4_null_max",
            NAME,
            "!enable_clamp || args->activation.clamp.max_ptr != NULL",
            || call(CLAMP, Nulls::Max, false),
        ),
        ("q4_lhs_offset_m", NAME, M_STEP, || {
            KERNEL.lhs_offset(1, 0, 4);
        }),
        ("q4_lhs_offset_k", NAME, "index->k == 0", || {
            KERNEL.lhs_offset(0, 4, 4);
        }),
        ("q4_rhs_offset_n", NAME, N_STEP, || {
            KERNEL.rhs_offset(tile() / 2, 0, 4);
        }),
        ("q4_rhs_offset_k", NAME, "index->k == 0", || {
            KERNEL.rhs_offset(0, 32, 4);
        }),
        ("q4_dst_offset_m", NAME, M_STEP, || {
            KERNEL.dst_offset(tile() + 1, 0, 4);
        }),
        ("q4_dst_offset_n", NAME, N_STEP, || {
            KERNEL.dst_offset(0, 2, 4);
        }),
    ]
}

/// Without the clamp flag the bound pointers are not read (null ones pass), and an empty
/// portion (m or n zero) writes nothing.
#[test]
fn unread_bounds_and_empty_portions() {
    let t = tile();
    let mut rng = Rng::new(2);
    let p = Problem::random(&mut rng, (3, t + 1, 6));
    let (lp, rp) = (p.packed_lhs(t), p.packed_rhs(t));
    for (m, n, nulls) in [
        (3, t + 1, Nulls::Min),
        (3, t + 1, Nulls::Max),
        (0, 4, Nulls::None),
        (2, 0, Nulls::None),
    ] {
        let mut d = Guarded::from_bytes(&vec![FILL; 3 * (t + 1)], EDGES[0]);
        let dp = d.mut_ptr();
        let mut a = portion_args(
            &p,
            (0, m, 0, n),
            (lp.as_ptr(), rp.as_ptr(), dp, t + 1),
            &(0, 0),
        );
        nulls.apply(&mut a);
        KERNEL.run(&a);
        for (idx, &b) in d.bytes().iter().enumerate() {
            let (i, j) = (idx / (t + 1), idx % (t + 1));
            let want = if i < m && j < n {
                p.expected(i, j)
            } else {
                FILL
            };
            assert_eq!(b, want, "m {m} n {n} {nulls:?} ({i}, {j})");
        }
    }
}
