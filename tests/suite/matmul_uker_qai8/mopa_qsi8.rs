//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa` (function pointers
//! called as C calls them) against KleidiAI's getter values and the requantized int8 reference
//! (`reference::qai8::matmul`, `SCLAMP` order), at the streaming length of the CPU under test
//! (SME2 asm where the CPU has it, the portable path otherwise). The operands are packed by the
//! providers `kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` and
//! `kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme` with packed strides wider than
//! the getters' (the kernel reads the caller's). Edge shapes around the 8vs x 8vs tile and the
//! four-step K loop (all of them where `full_sweep()` says so, else a few), portions through the
//! offset getters, guard pages, register canaries, wrapping sums, hostile scales, zero points
//! and bounds, with and without the clamp flag, a pending lazy ZA save, and KleidiAI's
//! assumptions.

use super::{MopaGetters, check_guarded_portions, check_mopa_getters, violating_call};
use crate::support;
use rkai_capi::capi::exports::{
    kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa as provider,
    kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme,
    kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme,
};
use rkai_ukernels::arch;
use rkai_ukernels::matmul::uker::qai8_mopa;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use rkai_ukernels::pack_lhs_types::*;
use rkai_ukernels::pack_rhs_types::*;
use rkai_ukernels::reference::qai8::{self, ClampOrder, Requantize};
use std::ptr;
use support::guard::EDGES;
use support::rng::Rng;
use support::uker::{CLAMP, Nulls, Portion, Uker, mopa_portions, mopa_shapes};

const NAME: &str = "kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa";
const KERNEL: Uker = Uker::new(NAME, provider);

/// Bytes added to the packed strides beyond the getters' values.
const PAD: usize = 12;

/// mr = nr = m_step = n_step = 4 x vscale: the streaming length in 32-bit lanes (4 without
/// SME), checked against the QEMU model when the test matrix names one.
pub(crate) fn vl() -> usize {
    let nr = support::sme_pack::svl32();
    assert_eq!(nr, arch::sme_lanes32());
    nr
}

/// KleidiAI's getter values, from its formulas: step SVL32 x SVL32, LHS blocks of
/// `mr * roundup(k, 4)` bytes, RHS blocks of `nr * (4 + roundup(k, 4) + 4)`, 1-byte outputs.
#[test]
fn getters_equal_kleidiai() {
    let checked = check_getters(&KERNEL);
    eprintln!("{checked} getter values equal KleidiAI's (nr {})", vl());
}

/// The getter checks of [`getters_equal_kleidiai`] on `kernel` (this kernel's or one with its
/// getters); returns the values checked.
pub(crate) fn check_getters(kernel: &Uker) -> usize {
    let nr = vl();
    let kp = |k: usize| k.div_ceil(4) * 4;
    let formulas = MopaGetters {
        tile: nr,
        ks: &[0, 1, 3, 4, 5, 9, 1000],
        ns: &[1, nr - 1, nr, nr + 1, 5 * nr + 3, 9 * nr],
        lhs_stride: &|k| nr * kp(k),
        rhs_stride: &|k| nr * (kp(k) + 8),
        packer_lhs_offset: None,
    };
    check_mopa_getters(kernel, &formulas)
}

/// One problem: int8 operands, the RHS packer's biases, scales and globals (the LHS zero
/// point folded in as `k_sum_scale_global = -zero_point`), and the kernel's zero point and
/// bounds (None: no clamp flag, `INT8_MIN..INT8_MAX`).
#[derive(Clone)]
pub(crate) struct Problem {
    pub(crate) m: usize,
    pub(crate) n: usize,
    pub(crate) k: usize,
    pub(crate) lhs: Vec<i8>,
    pub(crate) rhs: Vec<i8>,
    pub(crate) bias: Vec<i32>,
    pub(crate) scale: Vec<f32>,
    pub(crate) lhs_zero_point: i32,
    pub(crate) scale_global: f32,
    pub(crate) out_zero_point: i32,
    pub(crate) clamp: Option<(i32, i32)>,
}

impl Problem {
    pub(crate) fn random(rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> Self {
        let byte = |rng: &mut Rng| match rng.next_u64() % 8 {
            0 => -128,
            1 => 127,
            r => (rng.next_u64() >> (8 * r)) as i8,
        };
        Problem {
            m,
            n,
            k,
            lhs: (0..m * k).map(|_| byte(rng)).collect(),
            rhs: (0..k * n).map(|_| byte(rng)).collect(),
            bias: (0..n).map(|_| rng.next_u64() as i32 >> 16).collect(),
            scale: (0..n).map(|_| rng.f32(0.0005, 0.02)).collect(),
            lhs_zero_point: (rng.next_u64() % 256) as i32 - 128,
            scale_global: rng.f32(0.5, 1.5),
            out_zero_point: (rng.next_u64() % 64) as i32 - 32,
            clamp: Some((-100, 90)),
        }
    }

    fn quant(&self) -> Requantize {
        let (min_value, max_value) = self.clamp.unwrap_or((-128, 127));
        Requantize {
            min_value,
            max_value,
            output_zero_point: self.out_zero_point,
        }
    }

    /// The reference bytes, rows `n` apart.
    pub(crate) fn expected(&self) -> Vec<u8> {
        let o = qai8::Operands {
            lhs: &self.lhs,
            rhs: &self.rhs,
            bias: &self.bias,
            scale: &self.scale,
            lhs_zero_point: self.lhs_zero_point,
            scale_multiplier: self.scale_global,
        };
        qai8::matmul(
            (self.m, self.n, self.k),
            &o,
            self.quant(),
            ClampOrder::LowerFirst,
        )
        .map(|v| v as u8)
        .collect()
    }

    /// Both operands packed by the providers, block strides [`PAD`] bytes wider than the
    /// getters': (LHS, its stride, RHS, its stride).
    pub(crate) fn packed(&self) -> (Vec<u8>, usize, Vec<u8>, usize) {
        let ls = KERNEL.lhs_stride(self.m, self.k) + PAD;
        let rs = KERNEL.rhs_stride(self.n, self.k) + PAD;
        (self.packed_lhs(ls), ls, self.packed_rhs(rs), rs)
    }

    /// The LHS packed by its provider, row blocks `ls` bytes apart.
    fn packed_lhs(&self, ls: usize) -> Vec<u8> {
        let mut lp = vec![0u8; self.m.div_ceil(vl()) * ls];
        // SAFETY: the structs are plain data; all-zero is valid for each.
        let (mut la, lc): (
            kai_matmul_pack_lhs_uker_args,
            kai_matmul_pack_lhs_uker_config,
        ) = unsafe { std::mem::zeroed() };
        la.shape.m = self.m;
        la.shape.k = self.k;
        la.operand.lhs.ptr = self.lhs.as_ptr().cast();
        la.operand.lhs.stride.m = self.k;
        la.operand.lhs_packed.ptr = lp.as_mut_ptr().cast();
        la.operand.lhs_packed.stride.m = ls;
        let api = kai_matmul_pack_lhs_mxk_x8p4vsx4_x8_sme();
        // SAFETY: the arguments describe the buffers above.
        unsafe { (api.run.unwrap())(&lc, &la) };
        lp
    }

    /// The RHS packed by its provider, column blocks `rs` bytes apart.
    pub(crate) fn packed_rhs(&self, rs: usize) -> Vec<u8> {
        let (n, k) = (self.n, self.k);
        let mut rp = vec![0u8; n.div_ceil(vl()) * rs];
        // SAFETY: the structs are plain data; all-zero is valid for each.
        let (mut ra, rc): (
            kai_matmul_pack_rhs_uker_args,
            kai_matmul_pack_rhs_uker_config,
        ) = unsafe { std::mem::zeroed() };
        let ksum = self.lhs_zero_point.wrapping_neg();
        ra.shape = kai_matmul_pack_rhs_uker_dim_args { n, k };
        ra.operand.rhs.ptr = self.rhs.as_ptr().cast();
        ra.operand.rhs.stride = kai_matmul_pack_rhs_uker_rhs_stride_args { n: 1, k: n };
        ra.operand.rhs_packed.ptr = rp.as_mut_ptr().cast();
        ra.operand.rhs_packed.stride.n = rs;
        ra.operand.bias_n.ptr = self.bias.as_ptr().cast();
        ra.operand.scale_n.ptr = self.scale.as_ptr().cast();
        ra.operand.k_sum_scale_global.ptr = ptr::from_ref(&ksum).cast();
        ra.operand.scale_global.ptr = ptr::from_ref(&self.scale_global).cast();
        let api = kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme();
        // SAFETY: the arguments describe the buffers above.
        unsafe { (api.run.unwrap())(&rc, &ra) };
        rp
    }

    /// The run arguments of a portion: rows `m0..m0 + mh`, columns `n0..n0 + nw` (starts
    /// multiples of the step), operands and destination moved there through the offset getters.
    pub(crate) fn portion_args(
        &self,
        portion: Portion,
        operands: (*const u8, usize, *const u8, usize),
        destination: (*mut u8, usize),
        bounds: &(i32, i32),
    ) -> kai_matmul_uker_args {
        let flags = if self.clamp.is_some() { CLAMP } else { 0 };
        let mut a = KERNEL.portion_args(
            (flags, portion, self.k),
            operands,
            destination,
            (&bounds.0, &bounds.1),
        );
        a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&self.out_zero_point).cast();
        a
    }

    /// Runs the whole problem and `portions` at each guard edge (destination rows [`PAD`]
    /// bytes wider than `n`), and the portable path once: every written byte equals the
    /// reference and nothing else is written. Returns the runs.
    fn check(&self, portions: &[(usize, usize, usize, usize)]) -> usize {
        self.check_with(&KERNEL, portions)
    }

    /// [`Problem::check`] through `kernel`'s `run` (a kernel with this one's getters).
    pub(crate) fn check_with(
        &self,
        kernel: &Uker,
        portions: &[(usize, usize, usize, usize)],
    ) -> usize {
        let expect = self.expected();
        let (lp, ls, rp, rs) = self.packed();
        // Bounds that would change the result if they were read without the flag.
        let bounds = self.clamp.unwrap_or((5, -5));
        let label = format!("{}x{}x{} clamp {:?}", self.m, self.n, self.k, self.clamp);
        let mut out = vec![0u8; self.m * self.n];
        let whole = self.portion_args(
            (0, self.m, 0, self.n),
            (lp.as_ptr(), ls, rp.as_ptr(), rs),
            (out.as_mut_ptr(), self.n),
            &bounds,
        );
        // SAFETY: the arguments describe the buffers above.
        let call = unsafe { qai8_mopa::check(&whole) }.unwrap();
        // SAFETY: as above.
        unsafe { qai8_mopa::portable(&call, vl()) };
        assert_eq!(out, expect, "portable {label}");
        let mut all = vec![(0, self.m, 0, self.n)];
        all.extend_from_slice(portions);
        1 + check_guarded_portions(
            kernel,
            (&lp, &rp),
            (&expect, (self.m, self.n), self.n + PAD),
            (&all, &EDGES),
            &label,
            |cut, (l, r, d)| self.portion_args(cut, (l, ls, r, rs), (d, self.n + PAD), &bounds),
        )
    }
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let nr = vl();
    let mut rng = Rng::new(88);
    let mut runs = 0;
    for (idx, (m, n, k)) in mopa_shapes(nr).into_iter().enumerate() {
        let mut p = Problem::random(&mut rng, (m, n, k));
        // Both clamp settings across the shapes.
        if idx % 2 == 1 {
            p.clamp = None;
        }
        runs += p.check(&mopa_portions(m, n, nr));
    }
    support::uker::report_sme2_runs(runs, ("nr", nr));
}

/// Wrapping int32 sums (biases near the limits, extreme bytes), `k == 1` (the RHS packer writes
/// nothing for `k == 0`, so no packed operand exists to run on), hostile scales (infinities, NaNs, signed zeros, subnormals, huge values: `FCVTZS` saturates
/// and maps NaN to 0), zero points that wrap the rounded value, and bounds that cross
/// (`SCLAMP` applies the upper one last) or lie outside int8 (the low byte is stored).
#[test]
fn hostile_values() {
    let nr = vl();
    let mut rng = Rng::new(5);
    let shapes = ((nr + 1, 2 * nr + 1, 13), (nr + 1, 2 * nr + 1, 5));
    let mut runs = hostile_runs(&mut rng, shapes, 4, |p| p.check(&[]));
    // k = 1: one step, three of its four K values padding.
    let mut z = Problem::random(&mut rng, (2 * nr + 1, nr + 2, 1));
    z.clamp = None;
    runs += z.check(&[]);
    eprintln!("{runs} hostile runs equal the reference");
}

/// The hostile problems of [`hostile_values`], each checked by `check` (which returns its
/// runs): one of `wrapping` shape with wrapping sums, `rounds` (at most four) of `hostile` shape
/// with hostile scales, zero points and bounds. Returns the runs.
pub(crate) fn hostile_runs(
    rng: &mut Rng,
    (wrapping, hostile): ((usize, usize, usize), (usize, usize, usize)),
    rounds: usize,
    check: impl Fn(&Problem) -> usize,
) -> usize {
    let mut p = Problem::random(rng, wrapping);
    p.lhs.fill(-128);
    p.rhs.fill(-128);
    p.lhs_zero_point = 0;
    p.bias = (0..p.n).map(|j| i32::MAX - 3 * j as i32).collect();
    p.scale.fill(1.0);
    p.scale_global = 1.0;
    p.clamp = Some((i32::MIN, i32::MAX));
    let mut runs = check(&p);
    let specials = support::uker::HOSTILE_F32;
    for round in 0..rounds {
        let mut q = Problem::random(rng, hostile);
        for (j, s) in q.scale.iter_mut().enumerate() {
            *s = specials[(j + round) % specials.len()];
        }
        q.scale_global = [1.0, -1.0, 1.0e-30, f32::INFINITY][round];
        q.out_zero_point = [i32::MAX, i32::MIN, 200, -7][round];
        q.clamp = [
            None,
            Some((50, -50)),
            Some((i32::MIN, i32::MAX)),
            Some((-300, 300)),
        ][round];
        runs += check(&q);
    }
    runs
}

/// A caller with a pending lazy ZA save: the kernel commits it before using ZA, and its result
/// is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_save_is_committed() {
    if support::cpu::can_run(rkai_ukernels::arch::Isa::Sme2) {
        let nr = vl();
        lazy_za_committed_by(&KERNEL, (nr + 1, nr + 2, 3), 9);
    } else {
        eprintln!("no SME2 on this CPU: no ZA state to protect");
    }
}

/// `kernel` run on a random problem of `shape` (from `seed`) by a caller with a pending lazy ZA
/// save commits the save and still computes the reference result. The caller checks that the
/// CPU runs `kernel`'s asm.
#[cfg(target_arch = "aarch64")]
pub(crate) fn lazy_za_committed_by(kernel: &Uker, shape: (usize, usize, usize), seed: u64) {
    let svl = arch::sme_vector_bytes().expect("an SME CPU");
    let p = Problem::random(&mut Rng::new(seed), shape);
    let mut za = support::abi::PendingZaSave::new(svl);
    za.arm();
    let expect = p.expected();
    let (lp, ls, rp, rs) = p.packed();
    let mut out = vec![0u8; p.m * p.n];
    let bounds = p.clamp.unwrap();
    kernel.run(&p.portion_args(
        (0, p.m, 0, p.n),
        (lp.as_ptr(), ls, rp.as_ptr(), rs),
        (out.as_mut_ptr(), p.n),
        &bounds,
    ));
    za.assert_committed(kernel.name);
    za.finish();
    assert_eq!(out, expect);
}

/// KleidiAI's assumptions; rkai aborts naming the provider (a null zero point is rkai's own:
/// KleidiAI reads through it).
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call_with(flags: u64, nulls: Nulls, zero_point: bool) {
        violating_call(&KERNEL, (flags, 2), nulls, zero_point);
    }
    fn call(flags: u64, nulls: Nulls) {
        call_with(flags, nulls, true);
    }
    let mut cases = uker_float_violations!(call);
    let own: [support::death::Case<&'static str, &'static str>; 3] = [
        ("lhs_offset_m", NAME, "index->m % get_m_step() == 0", || {
            KERNEL.lhs_offset(1, 0, 4);
        }),
        ("dst_offset_m", NAME, "index->m % get_m_step() == 0", || {
            KERNEL.dst_offset(vl() + 1, 0, 4);
        }),
        (
            "null_zero_point",
            NAME,
            "args->operand.bias.scale_bias_global.ptr != NULL",
            || call_with(CLAMP, Nulls::None, false),
        ),
    ];
    cases.extend(own);
    cases
}
