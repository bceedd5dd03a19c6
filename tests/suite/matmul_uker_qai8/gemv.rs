//! `kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot` (function pointers called
//! as C calls them) against KleidiAI's getter values and the requantized int8 reference
//! (`reference::qai8::matmul` with one row, `SCLAMP` order), at the streaming length of the CPU
//! under test (SME2 asm where the CPU has it, the portable path otherwise). The LHS is one raw
//! int8 row; the RHS is packed by `kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`.
//! Edge widths around the block and the four-block step, K around the four-step loop and its
//! byte tail (all of them where `full_sweep()` says so, else a few), column portions through the
//! offset getters, guard pages, register canaries, hostile strides (the kernel ignores them),
//! wrapping sums, hostile scales, zero points and bounds with and without the clamp flag, a
//! pending lazy ZA save, and KleidiAI's assumptions.

use crate::support;
use rkai_capi::capi::exports::{
    kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot as provider,
    kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme,
};
use rkai_ukernels::arch::Isa;
use rkai_ukernels::matmul::uker::qai8_gemv;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use rkai_ukernels::pack_rhs_types::*;
use rkai_ukernels::reference::qai8::{self, ClampOrder, Requantize};
use std::ptr;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Getters, Nulls, Uker, args, check_getters, sme_lanes32};

const NAME: &str = "kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot";
const KERNEL: Uker = Uker::new(NAME, provider);

/// A destination byte the kernel never writes.
const FILL: u8 = 0xa5;

/// KleidiAI's getter values, from its formulas: step 1 x 4 vscale (SVL32), LHS rows of
/// `roundup(k, 4)` bytes, RHS blocks of `nr * (4 + roundup(k, 4) + 4)`, 1-byte outputs.
#[test]
fn getters_equal_kleidiai() {
    let nr = sme_lanes32();
    let formulas = Getters {
        step: (1, nr),
        lhs_rows: 1,
        rhs_cols: nr,
        lhs_stride: &|k| k.div_ceil(4) * 4,
        rhs_stride: &|k| nr * (k.div_ceil(4) * 4 + 8),
        dst_bytes: 1,
    };
    check_getters(&KERNEL, &formulas);
}

/// One problem: the int8 row and weights, the RHS packer's biases, scales and globals (the LHS
/// zero point folded in as `k_sum_scale_global = -zero_point`), and the kernel's zero point
/// and bounds (None: no clamp flag, `INT8_MIN..INT8_MAX`).
#[derive(Clone)]
struct Problem {
    n: usize,
    k: usize,
    lhs: Vec<i8>,
    rhs: Vec<i8>,
    bias: Vec<i32>,
    scale: Vec<f32>,
    lhs_zero_point: i32,
    scale_global: f32,
    out_zero_point: i32,
    clamp: Option<(i32, i32)>,
}

impl Problem {
    fn random(rng: &mut Rng, (n, k): (usize, usize)) -> Self {
        let byte = |rng: &mut Rng| match rng.next_u64() % 8 {
            0 => -128,
            1 => 127,
            r => (rng.next_u64() >> (8 * r)) as i8,
        };
        Problem {
            n,
            k,
            lhs: (0..k).map(|_| byte(rng)).collect(),
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

    /// The reference row.
    fn expected(&self) -> Vec<u8> {
        let o = qai8::Operands {
            lhs: &self.lhs,
            rhs: &self.rhs,
            bias: &self.bias,
            scale: &self.scale,
            lhs_zero_point: self.lhs_zero_point,
            scale_multiplier: self.scale_global,
        };
        qai8::matmul(
            (1, self.n, self.k),
            &o,
            self.quant(),
            ClampOrder::LowerFirst,
        )
        .map(|v| v as u8)
        .collect()
    }

    /// The RHS packed by the provider, blocks at the kernel's stride (the GEMV reads them
    /// there).
    fn packed(&self) -> Vec<u8> {
        let (n, k) = (self.n, self.k);
        let rs = KERNEL.rhs_stride(n, k);
        let mut rp = vec![0u8; n.div_ceil(sme_lanes32()) * rs];
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

    /// The run arguments of columns `n0..n0 + nw` (`n0` a multiple of the step), RHS and
    /// destination moved there through the offset getters; the strides the GEMV ignores are
    /// hostile.
    fn portion_args(
        &self,
        (n0, nw): (usize, usize),
        (lhs, rhs, dst): (*const u8, *const u8, *mut u8),
        bounds: &(i32, i32),
    ) -> kai_matmul_uker_args {
        let flags = if self.clamp.is_some() { CLAMP } else { 0 };
        let rs = KERNEL.rhs_stride(self.n, self.k);
        let ds = KERNEL.dst_stride(1, self.n);
        let (r, d) = (
            rhs.wrapping_add(KERNEL.rhs_offset(n0, 0, rs)),
            dst.wrapping_add(KERNEL.dst_offset(0, n0, ds)),
        );
        let mut a = args(flags, (1, nw, self.k), (lhs, r, d), (&bounds.0, &bounds.1));
        a.operand.lhs.stride.m = usize::MAX;
        a.operand.rhs.stride.n = 3;
        a.operand.dst.stride.m = 1;
        a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&self.out_zero_point).cast();
        a
    }

    /// Runs the whole row and column portions (starts every block, widths 1, a block and
    /// three blocks less one) at each guard edge, and the portable path once: every written
    /// byte equals the reference and nothing else is written. Returns the runs.
    fn check(&self) -> usize {
        let expect = self.expected();
        let rp = self.packed();
        let lhs: Vec<u8> = self.lhs.iter().map(|&v| v as u8).collect();
        // Bounds that would change the result if they were read without the flag.
        let bounds = self.clamp.unwrap_or((5, -5));
        let label = format!("n {} k {} clamp {:?}", self.n, self.k, self.clamp);
        let mut out = vec![0u8; self.n];
        let whole = self.portion_args(
            (0, self.n),
            (lhs.as_ptr(), rp.as_ptr(), out.as_mut_ptr()),
            &bounds,
        );
        // SAFETY: the arguments describe the buffers above.
        let call = unsafe { qai8_gemv::check(&whole) }.unwrap();
        // SAFETY: as above.
        unsafe { qai8_gemv::portable(&call, sme_lanes32()) };
        assert_eq!(out, expect, "portable {label}");
        let nr = sme_lanes32();
        let mut cuts = vec![(0, self.n)];
        for start in (nr..self.n).step_by(nr) {
            for width in [1, nr, 3 * nr - 1] {
                cuts.push((start, width.min(self.n - start)));
            }
        }
        let mut runs = 1;
        for edge in EDGES {
            let l = Guarded::from_bytes(&lhs, edge);
            let r = Guarded::from_bytes(&rp, edge);
            for &(n0, nw) in &cuts {
                let mut d = Guarded::from_bytes(&vec![FILL; self.n], edge);
                let dp = d.mut_ptr();
                KERNEL.run(&self.portion_args((n0, nw), (l.ptr(), r.ptr(), dp), &bounds));
                for (j, &got) in d.bytes().iter().enumerate() {
                    let want = if (n0..n0 + nw).contains(&j) {
                        expect[j]
                    } else {
                        FILL
                    };
                    assert_eq!(got, want, "{label} portion {n0}+{nw} column {j} {edge:?}");
                }
                runs += 1;
            }
        }
        runs
    }
}

/// Edge widths (every one of `gemv_widths` where `full_sweep()` says so, else a partial step and
/// several steps with a tail) times K around the four-step loop and its byte tail.
#[test]
fn gemv_equals_reference_at_edge_shapes() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(31);
    let mut runs = 0;
    let (ns, ks): (Vec<usize>, &[usize]) = if support::sme_pack::full_sweep() {
        (
            support::uker::gemv_widths(nr).to_vec(),
            &[1, 3, 4, 5, 8, 15, 16, 17, 33],
        )
    } else {
        (vec![nr - 1, 5 * nr + 3], &[3, 21])
    };
    for (i, &n) in ns.iter().enumerate() {
        for (j, &k) in ks.iter().enumerate() {
            let mut p = Problem::random(&mut rng, (n, k));
            // Both clamp settings across the shapes.
            if (i + j) % 2 == 1 {
                p.clamp = None;
            }
            runs += p.check();
        }
    }
    eprintln!(
        "{runs} runs equal the reference (nr {nr}, SME2 asm: {})",
        support::uker::asm_runs(Isa::Sme2)
    );
}

/// Wrapping int32 sums (biases near the limit, extreme bytes), hostile scales (infinities,
/// NaNs, signed zeros, subnormals, huge values: `FCVTZS` saturates and maps NaN to 0), zero
/// points that wrap the rounded value, and bounds that cross (`SCLAMP` applies the upper one
/// last) or lie outside int8 (the low byte is stored).
#[test]
fn hostile_values() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(6);
    let mut runs = 0;
    let mut p = Problem::random(&mut rng, (4 * nr + 1, 13));
    p.lhs.fill(-128);
    p.rhs.fill(-128);
    p.lhs_zero_point = 0;
    p.bias = (0..p.n).map(|j| i32::MAX - 3 * j as i32).collect();
    p.scale.fill(1.0);
    p.scale_global = 1.0;
    p.clamp = Some((i32::MIN, i32::MAX));
    runs += p.check();
    let specials = support::uker::HOSTILE_F32;
    let rounds = if support::sme_pack::full_sweep() {
        4
    } else {
        2
    };
    for round in 0..rounds {
        let mut q = Problem::random(&mut rng, (nr + 3, 5));
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
        runs += q.check();
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// `n == 0` writes nothing; `k == 0` (blocks of biases and scales only, built by hand: the
/// packer's layout with no K step) gives the requantized biases.
#[test]
fn empty_shapes() {
    let nr = sme_lanes32();
    let n = nr + 2;
    let bias: Vec<i32> = (0..n as i32).map(|j| 40 * j - 300).collect();
    let scale: Vec<f32> = (0..n).map(|j| 0.25 + j as f32 / 16.0).collect();
    let mut packed = Vec::new();
    for b in 0..n.div_ceil(nr) {
        let cols = b * nr..(b + 1) * nr;
        packed.extend(
            cols.clone()
                .flat_map(|j| bias.get(j).unwrap_or(&0).to_le_bytes()),
        );
        packed.extend(cols.flat_map(|j| scale.get(j).unwrap_or(&0.0).to_le_bytes()));
    }
    assert_eq!(packed.len(), n.div_ceil(nr) * KERNEL.rhs_stride(n, 0));
    let zero_point = 3i32;
    let p = Requantize {
        min_value: -128,
        max_value: 127,
        output_zero_point: zero_point,
    };
    let expect: Vec<u8> = (0..n)
        .map(|j| qai8::requantize(bias[j], scale[j], p, ClampOrder::LowerFirst) as u8)
        .collect();
    for edge in EDGES {
        let r = Guarded::from_bytes(&packed, edge);
        let mut d = Guarded::from_bytes(&vec![FILL; n], edge);
        let lhs = [0u8; 1];
        let mut a = args(
            0,
            (1, n, 0),
            (lhs.as_ptr(), r.ptr(), d.mut_ptr()),
            (&0i32, &0i32),
        );
        a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&zero_point).cast();
        KERNEL.run(&a);
        assert_eq!(d.bytes(), expect, "k 0 {edge:?}");
        let mut e = Guarded::from_bytes(&[FILL], edge);
        a.shape.n = 0;
        a.operand.dst.ptr = e.mut_ptr().cast();
        KERNEL.run(&a);
        assert_eq!(e.bytes(), [FILL], "n 0 {edge:?}");
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
    let nr = sme_lanes32();
    let mut rng = Rng::new(10);
    let p = Problem::random(&mut rng, (nr + 2, 7));
    let (expect, rp) = (p.expected(), p.packed());
    let lhs: Vec<u8> = p.lhs.iter().map(|&v| v as u8).collect();
    let mut out = vec![0u8; p.n];
    let mut za = support::abi::PendingZaSave::new(svl);
    za.arm();
    let bounds = p.clamp.unwrap();
    KERNEL.run(&p.portion_args(
        (0, p.n),
        (lhs.as_ptr(), rp.as_ptr(), out.as_mut_ptr()),
        &bounds,
    ));
    za.assert_committed(NAME);
    za.finish();
    assert_eq!(out, expect);
}

/// KleidiAI's assumptions; rkai aborts naming the provider (a null zero point is rkai's own:
/// KleidiAI reads through it).
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call_with(flags: u64, m: usize, nulls: Nulls, zero_point: bool) {
        let x = [1u8; 4096];
        let mut d = [0u8; 64];
        let zp = 0i32;
        let mut a = args(
            flags,
            (m, 3, 4),
            (x.as_ptr(), x.as_ptr(), d.as_mut_ptr()),
            (&-128i32, &127i32),
        );
        if zero_point {
            a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&zp).cast();
        }
        nulls.apply(&mut a);
        KERNEL.run(&a);
    }
    fn call(flags: u64, nulls: Nulls) {
        call_with(flags, 1, nulls, true);
    }
    const ONE_ROW: &str = "args->shape.m == 1";
    let mut cases = uker_float_violations!(call);
    let own: [support::death::Case<&'static str, &'static str>; 3] = [
        ("m_zero", NAME, ONE_ROW, || {
            call_with(0, 0, Nulls::None, true)
        }),
        ("m_two", NAME, ONE_ROW, || {
            call_with(CLAMP, 2, Nulls::None, true)
        }),
        (
            "null_zero_point",
            NAME,
            "args->operand.bias.scale_bias_global.ptr != NULL",
            || call_with(CLAMP, 1, Nulls::None, false),
        ),
    ];
    cases.extend(own);
    // Named apart from the other modules' cases, which share this binary's one list.
    cases
        .into_iter()
        .map(|(name, symbol, condition, run)| {
            let name: &'static str = format!("gemv_{name}").leak();
            (name, symbol, condition, run)
        })
        .collect()
}
