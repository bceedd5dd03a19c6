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

use super::mopa_qsi8::{Problem, hostile_runs};
use super::{FILL, GemvCalls, violating_call};
use crate::support;
use rkai_capi::capi::exports::kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot as provider;
use rkai_ukernels::matmul::uker::qai8_gemv;
use rkai_ukernels::reference::qai8::{self, ClampOrder, Requantize};
use std::ptr;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Getters, Nulls, Uker, args, check_getters, sme_lanes32};

const NAME: &str = "kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot";
const KERNEL: Uker = Uker::new(NAME, provider);

/// KleidiAI's getter values, from its formulas: step 1 x 4 vscale (SVL32), LHS rows of
/// `roundup(k, 4)` bytes, RHS blocks of `nr * (4 + roundup(k, 4) + 4)`, 1-byte outputs.
#[test]
fn getters_equal_kleidiai() {
    let nr = sme_lanes32();
    let lhs_stride = |k: usize| k.div_ceil(4) * 4;
    let rhs_stride = |k: usize| nr * (k.div_ceil(4) * 4 + 8);
    check_getters(&KERNEL, &Getters::gemv(nr, (&lhs_stride, &rhs_stride), 1));
}

/// The RHS of `p` (one row: `m == 1`) packed by the provider, blocks at the kernel's stride (the
/// GEMV reads them there).
fn packed(p: &Problem) -> Vec<u8> {
    p.packed_rhs(KERNEL.rhs_stride(p.n, p.k))
}

/// The GEMV's calls on `p`.
fn calls(p: &Problem) -> GemvCalls<'static> {
    GemvCalls::new(&KERNEL, (p.n, p.k), p.clamp, p.out_zero_point)
}

/// Runs the whole row of `p` and column portions (starts every block, widths 1, a block and
/// three blocks less one) at each guard edge, and the portable path once: every written byte
/// equals the reference and nothing else is written. Returns the runs.
fn check(p: &Problem) -> usize {
    let expect = p.expected();
    let rp = packed(p);
    let lhs: Vec<u8> = p.lhs.iter().map(|&v| v as u8).collect();
    let calls = calls(p);
    let label = format!("n {} k {} clamp {:?}", p.n, p.k, p.clamp);
    calls.check_portable((&lhs, &rp), &expect, &label, |whole| {
        // SAFETY: the arguments describe the buffers of `check_portable`.
        let call = unsafe { qai8_gemv::check(whole) }.unwrap();
        // SAFETY: as above.
        unsafe { qai8_gemv::portable(&call, sme_lanes32()) };
    });
    let nr = sme_lanes32();
    let mut cuts = vec![(0, p.n)];
    cuts.extend(support::uker::gemv_portions(p.n, nr));
    1 + calls.check_portions((&lhs, &rp), &expect, (&cuts, &EDGES), &label)
}

/// Edge widths (every one of `gemv_widths` where `full_sweep()` says so, else a partial step and
/// several steps with a tail) times K around the four-step loop and its byte tail.
#[test]
fn gemv_equals_reference_at_edge_shapes() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(31);
    let mut runs = 0;
    let (ns, ks) = support::uker::gemv_sweep(nr, (&[1, 3, 4, 5, 8, 15, 16, 17, 33], &[3, 21]));
    for (i, &n) in ns.iter().enumerate() {
        for (j, &k) in ks.iter().enumerate() {
            let mut p = Problem::random(&mut rng, (1, n, k));
            // Both clamp settings across the shapes.
            if (i + j) % 2 == 1 {
                p.clamp = None;
            }
            runs += check(&p);
        }
    }
    support::uker::report_sme2_runs(runs, ("nr", nr));
}

/// Wrapping int32 sums (biases near the limit, extreme bytes), hostile scales (infinities,
/// NaNs, signed zeros, subnormals, huge values: `FCVTZS` saturates and maps NaN to 0), zero
/// points that wrap the rounded value, and bounds that cross (`SCLAMP` applies the upper one
/// last) or lie outside int8 (the low byte is stored).
#[test]
fn hostile_values() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(6);
    let rounds = if support::sme_pack::full_sweep() {
        4
    } else {
        2
    };
    let shapes = ((1, 4 * nr + 1, 13), (1, nr + 3, 5));
    let runs = hostile_runs(&mut rng, shapes, rounds, check);
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
    let Some(mut za) = support::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme2) else {
        return;
    };
    let mut rng = Rng::new(10);
    let p = Problem::random(&mut rng, (1, sme_lanes32() + 2, 7));
    za.arm();
    let runs = check(&p);
    za.assert_committed(NAME);
    za.finish();
    assert!(runs > 1);
}

/// KleidiAI's assumptions; rkai aborts naming the provider (a null zero point is rkai's own:
/// KleidiAI reads through it).
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call_with(flags: u64, m: usize, nulls: Nulls, zero_point: bool) {
        violating_call(&KERNEL, (flags, m), nulls, zero_point);
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
