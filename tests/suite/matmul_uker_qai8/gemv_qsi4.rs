//! `kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot` through the C ABI (its
//! table's function pointers called as C calls them), against KleidiAI's getter formulas and the
//! int4 GEMM's reference with one row (`mopa_qsi4::Problem`: the same RHS format and order of
//! operations), at the streaming length of the CPU under test (SME2 asm where the CPU has it,
//! the portable path otherwise): widths around the group (`nr` = 2 x SVL32), the two-group and
//! eight-group steps and `n_step` (16 x SVL32), K around the four-value units, the sixteen-value
//! loop and the RHS's padding to 32 (all where `full_sweep()` says so, else a reduced set
//! reaching each path), column portions at whole steps through the offset getters, guard pages,
//! register canaries, hostile strides (ignored), wrapping sums, `k == 0`, hostile scales, zero
//! points and bounds with and without the clamp flag, operands from the four RHS providers, a
//! pending lazy ZA save and KleidiAI's assumptions (death cases prefixed `gemv4_`).

use super::mopa_qsi4::{Problem, hostile_runs, provider_rhs, tile, up};
use super::{FILL, GemvCalls, violating_call};
use crate::support;
use rkai_capi::capi::exports::kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot as provider;
use rkai_ukernels::matmul::uker::qai8_qsi4_gemv;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, Nulls, Uker};

const NAME: &str = "kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot";
const KERNEL: Uker = Uker::new(NAME, provider);

/// `n_step`: eight groups.
fn step() -> usize {
    8 * tile()
}

/// KleidiAI's getter values, from its formulas: step 1 x 64 vscale, LHS rows of `k` bytes, RHS
/// groups of `nr` = 8 vscale columns (K rounded up to 32 nibbles, an int32 bias and an f32
/// scale each), RHS offsets counting groups of whole steps, 1-byte outputs.
#[test]
fn gemv4_getters_equal_kleidiai() {
    let (t, s) = (tile(), step());
    assert_eq!(qai8_qsi4_gemv::n_step(), s);
    let st = KERNEL.step();
    assert_eq!((st.m, st.n, st.k), (1, s, 0));
    let mut checked = 1;
    for k in [0usize, 1, 3, 4, 5, 31, 32, 33, 1000, 1001] {
        for n in [1, t - 1, t, s - 1, s, s + 1, 3 * s + 5] {
            let ls = KERNEL.lhs_stride(1, k);
            assert_eq!(ls, k, "lhs stride k {k}");
            let rs = KERNEL.rhs_stride(n, k);
            assert_eq!(rs, t * (up(k, 32) / 2 + 8), "rhs stride k {k}");
            let ds = KERNEL.dst_stride(1, n);
            assert_eq!(ds, n);
            assert_eq!(KERNEL.lhs_offset(0, 0, ls + 3), 0);
            for blk in [0, 1, 3] {
                // Whole steps, counted in groups of the caller's stride.
                assert_eq!(KERNEL.rhs_offset(blk * s, 0, rs + 8), blk * 8 * (rs + 8));
                assert_eq!(KERNEL.dst_offset(0, blk * s, ds + 8), blk * s);
                checked += 2;
            }
            for m in [0, 1, 7] {
                assert_eq!(KERNEL.dst_size(m, n, ds + 4), m * (ds + 4));
                checked += 1;
            }
            checked += 4;
        }
    }
    eprintln!("{checked} getter values of {NAME} equal KleidiAI's (nr {t}, n_step {s})");
    eprintln!("RELIABILITY getters {checked}");
}

/// The GEMV's calls on `p`.
fn calls(p: &Problem) -> GemvCalls<'static> {
    GemvCalls::new(&KERNEL, (p.n, p.k), p.clamp, p.zp)
}

/// Runs the one-row problem `p` on the packed RHS `rp`: the portable path once, then through the
/// C table the whole row and the portions (every whole step past the first, widths 1, a group,
/// a step less one and the rest) at each guard edge; every byte written equals the reference
/// and nothing else is written. Returns the runs.
fn check_packed(p: &Problem, rp: &[u8]) -> usize {
    assert_eq!(p.m, 1);
    let (t, s) = (tile(), step());
    let expect: Vec<u8> = (0..p.n).map(|j| p.expected(0, j)).collect();
    let lhs: Vec<u8> = p.lhs.iter().map(|&v| v as u8).collect();
    let calls = calls(p);
    let label = format!("n {} k {} clamp {:?} zp {}", p.n, p.k, p.clamp, p.zp);
    calls.check_portable((&lhs, rp), &expect, &label, |whole| {
        // SAFETY: the arguments describe the buffers of `check_portable`.
        let call = unsafe { qai8_qsi4_gemv::check(whole) }.unwrap();
        // SAFETY: as above; the packing is at this length's groups.
        unsafe { qai8_qsi4_gemv::portable(&call, t) };
    });
    let mut cuts = vec![(0, p.n)];
    for start in (s..p.n).step_by(s) {
        for width in [1, t, s - 1, p.n] {
            cuts.push((start, width.min(p.n - start)));
        }
    }
    let edges = if support::sme_pack::full_sweep() {
        &EDGES[..]
    } else {
        &EDGES[..1]
    };
    1 + calls.check_portions((&lhs, rp), &expect, (&cuts, edges), &label)
}

/// [`check_packed`] with the reference packing of `p`.
fn check(p: &Problem) -> usize {
    check_packed(p, &p.packed_rhs(tile()))
}

/// Widths: around a group, the two-group step, the eight-group step's threshold (more than six
/// groups) and its last group present or not, `n_step` and several steps with a tail. K: every
/// remainder modulo 4 (the byte tail), around the sixteen-value loop, odd and even counts of
/// sixteen (the padding skip) and across 32.
fn shapes(t: usize) -> Vec<(usize, usize)> {
    const KS: [usize; 12] = [1, 3, 4, 5, 15, 16, 17, 20, 31, 32, 33, 69];
    if support::sme_pack::full_sweep() {
        let ns = [
            1,
            2,
            t - 1,
            t + 1,
            2 * t,
            2 * t + 1,
            6 * t,
            6 * t + 1,
            7 * t + 1,
            8 * t,
            8 * t + 1,
            17 * t + 3,
        ];
        ns.iter()
            .enumerate()
            .flat_map(|(a, &n)| [(n, KS[a % KS.len()]), (n, KS[(a + 5) % KS.len()])])
            .collect()
    } else {
        vec![
            (t + 1, 21),
            (6 * t + 1, 33),
            (8 * t + 1, 5),
            (17 * t + 3, 48),
        ]
    }
}

#[test]
fn gemv4_equals_reference_at_edge_shapes() {
    let t = tile();
    let mut rng = Rng::new(43);
    let mut runs = 0;
    for (idx, (n, k)) in shapes(t).into_iter().enumerate() {
        let mut p = Problem::random(&mut rng, (1, n, k));
        // Both clamp settings, alternately; the bounds bite.
        if idx % 2 == 1 {
            p.clamp = Some((-50, 60));
        }
        runs += check(&p);
    }
    support::uker::report_sme2_runs(runs, ("nr", t));
}

/// Wrapping int32 sums (biases at the limit, extreme products), `k == 0` (the requantized
/// biases), and hostile requantization: NaN, infinite, huge, subnormal and negative scales,
/// zero points at the int32 limits, inverted bounds (`SCLAMP`: the upper wins) and bounds
/// outside int8 (the low byte is stored).
#[test]
fn gemv4_wrapping_sums_and_hostile_requantization() {
    let t = tile();
    let mut rng = Rng::new(8);
    let shapes = [(1, 6 * t + 3, 45), (1, 2 * t + 2, 0), (1, 2 * t + 1, 9)];
    let runs = hostile_runs(&mut rng, shapes, check);
    eprintln!("{runs} wrapping, k = 0 and hostile runs equal the reference");
}

/// The RHS from each of the four providers (K x N and N x K, signed and unsigned): the bytes
/// equal the reference packing of the folded biases and scales, and the GEMV on them gives the
/// reference.
#[test]
fn gemv4_provider_packed_rhs_gives_the_reference() {
    let t = tile();
    let mut rng = Rng::new(5);
    let mut runs = 0;
    for (idx, kind) in [(true, false), (true, true), (false, false), (false, true)]
        .into_iter()
        .enumerate()
    {
        let mut p = Problem::random(&mut rng, (1, 8 * t + 2 * idx + 1, 19 + 6 * idx));
        p.clamp = Some((-90, 100)).filter(|_| idx % 2 == 0);
        let (kss, sg) = (-(idx as i32) - 3, 0.5f32);
        let (folded, rp) = provider_rhs(&p, kind, (kss, sg));
        runs += check_packed(&folded, &rp);
    }
    eprintln!("{runs} runs on provider-packed weights equal the reference");
}

/// A caller with a pending lazy ZA save: the kernel commits it before using ZA (and ZT0), and
/// its result is still the reference's.
#[cfg(target_arch = "aarch64")]
#[test]
fn gemv4_lazy_za_save_is_committed() {
    let Some(mut za) = support::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme2) else {
        return;
    };
    let mut rng = Rng::new(12);
    let p = Problem::random(&mut rng, (1, tile() + 2, 7));
    za.arm();
    let runs = check(&p);
    za.assert_committed(NAME);
    za.finish();
    assert!(runs > 1);
}

/// Without the clamp flag the bound pointers are not read (null ones pass), and `n == 0` writes
/// nothing.
#[test]
fn gemv4_unread_bounds_and_empty_row() {
    let t = tile();
    let mut rng = Rng::new(4);
    let p = Problem::random(&mut rng, (1, t + 1, 6));
    let rp = p.packed_rhs(t);
    let lhs: Vec<u8> = p.lhs.iter().map(|&v| v as u8).collect();
    let calls = calls(&p);
    for (n, nulls) in [(t + 1, Nulls::Min), (t + 1, Nulls::Max), (0, Nulls::None)] {
        let mut d = Guarded::from_bytes(&vec![FILL; t + 1], EDGES[0]);
        let dp = d.mut_ptr();
        let mut a = calls.portion_args((0, n), (lhs.as_ptr(), rp.as_ptr(), dp), &(0, 0));
        nulls.apply(&mut a);
        KERNEL.run(&a);
        for (j, &b) in d.bytes().iter().enumerate() {
            let want = if j < n { p.expected(0, j) } else { FILL };
            assert_eq!(b, want, "n {n} {nulls:?} column {j}");
        }
    }
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    /// A valid call but for `flags`, `m`, the pointer `nulls` names and, with `no_zp`, a null
    /// zero point.
    fn call(flags: u64, m: usize, nulls: Nulls, no_zp: bool) {
        violating_call(&KERNEL, (flags, m), nulls, !no_zp);
    }
    const FLAGS: &str = "Only supported flags are accepted!";
    const ONE_ROW: &str = "args->shape.m == 1";
    const M_ZERO: &str = "index->m == 0";
    const N_STEP: &str = "index->n % get_n_step() == 0";
    vec![
        ("gemv4_flag_bit0", NAME, FLAGS, || {
            call(1, 1, Nulls::None, false)
        }),
        ("gemv4_flag_high", NAME, FLAGS, || {
            call(CLAMP | (1 << 40), 1, Nulls::None, false)
        }),
        ("gemv4_flag_next", NAME, FLAGS, || {
            call(CLAMP << 1, 1, Nulls::None, false)
        }),
        ("gemv4_m_zero", NAME, ONE_ROW, || {
            call(0, 0, Nulls::None, false)
        }),
        ("gemv4_m_two", NAME, ONE_ROW, || {
            call(CLAMP, 2, Nulls::None, false)
        }),
        (
            "gemv4_null_lhs",
            NAME,
            "args->operand.lhs.ptr != NULL",
            || call(0, 1, Nulls::Lhs, false),
        ),
        (
            "gemv4_null_rhs",
            NAME,
            "args->operand.rhs.ptr != NULL",
            || call(CLAMP, 1, Nulls::Rhs, false),
        ),
        (
            "gemv4_null_dst",
            NAME,
            "args->operand.dst.ptr != NULL",
            || call(0, 1, Nulls::Dst, false),
        ),
        (
            "gemv4_null_zero_point",
            NAME,
            "args->operand.bias.scale_bias_global.ptr != NULL",
            || call(0, 1, Nulls::None, true),
        ),
        (
            "gemv4_null_min",
            NAME,
            "!enable_clamp || args->activation.clamp.min_ptr != NULL",
            || call(CLAMP, 1, Nulls::Min, false),
        ),
        (
            "gemv4_null_max",
            NAME,
            "!enable_clamp || args->activation.clamp.max_ptr != NULL",
            || call(CLAMP, 1, Nulls::Max, false),
        ),
        ("gemv4_lhs_offset_m", NAME, M_ZERO, || {
            KERNEL.lhs_offset(1, 0, 4);
        }),
        ("gemv4_lhs_offset_k", NAME, "index->k == 0", || {
            KERNEL.lhs_offset(0, 4, 4);
        }),
        // A whole group but not a whole step.
        ("gemv4_rhs_offset_n", NAME, N_STEP, || {
            KERNEL.rhs_offset(tile(), 0, 4);
        }),
        ("gemv4_rhs_offset_k", NAME, "index->k == 0", || {
            KERNEL.rhs_offset(0, 32, 4);
        }),
        ("gemv4_dst_offset_m", NAME, M_ZERO, || {
            KERNEL.dst_offset(1, 0, 4);
        }),
        ("gemv4_dst_offset_n", NAME, N_STEP, || {
            KERNEL.dst_offset(0, tile(), 4);
        }),
    ]
}
