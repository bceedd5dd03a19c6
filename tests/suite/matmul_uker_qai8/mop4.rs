//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa` (function
//! pointers called as C calls them) against the same reference, packers and checks as
//! [`super::mopa_qsi8`] (its getters are that kernel's): shapes whose bottom edge (the rows
//! below the last whole 2 x SVL32 tile, at most SVL32 / 2 of them) with at least 8 x SVL32
//! columns reaches the `SMOP4A` sub-kernel, where the CPU has SME_MOP4 (QEMU 11's `max` has it),
//! and shapes beside them that do not; portions, guard pages and register canaries (through
//! `check_with`), hostile values, both clamp settings, a pending lazy ZA save, and KleidiAI's
//! assumptions.

use super::mopa_qsi8::{self, Problem, vl};
use super::violating_call;
use crate::support;
use rkai_capi::capi::exports::kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa as provider;
use rkai_ukernels::arch::{self, Isa};
use rkai_ukernels::matmul::uker::qai8_mop4;
use support::rng::Rng;
use support::uker::{CLAMP, Nulls, Uker};

const NAME: &str = "kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa";
const KERNEL: Uker = Uker::new(NAME, provider);

/// Whether this CPU runs the `SMOP4A` sub-kernel.
fn mop4_runs() -> bool {
    cfg!(target_arch = "aarch64") && support::cpu::can_run(Isa::Sme2) && arch::sme_mop4()
}

/// The getters are the SME2 MOPA's, from KleidiAI's formulas.
#[test]
fn mop4_getters_equal_kleidiai() {
    let checked = mopa_qsi8::check_getters(&KERNEL);
    eprintln!("{checked} getter values equal KleidiAI's (nr {})", vl());
}

/// KleidiAI's split: the `SMOP4A` columns of a shape.
#[test]
fn mop4_split_follows_kleidiai() {
    let v = 16;
    assert_eq!(qai8_mop4::split(1, 8 * v, v), (0, 8 * v));
    assert_eq!(qai8_mop4::split(v / 2, 17 * v + 3, v), (0, 16 * v));
    assert_eq!(qai8_mop4::split(v / 2 + 1, 8 * v, v), (0, 0));
    assert_eq!(qai8_mop4::split(v + 1, 8 * v, v), (v + 1, 0));
    assert_eq!(qai8_mop4::split(2 * v + 1, 8 * v, v), (2 * v, 8 * v));
    assert_eq!(qai8_mop4::split(2 * v + v / 2, 9 * v, v), (2 * v, 8 * v));
    assert_eq!(qai8_mop4::split(2 * v, 8 * v, v), (2 * v, 0));
    assert_eq!(qai8_mop4::split(1, 8 * v - 1, v), (0, 0));
}

/// Shapes that reach the `SMOP4A` sub-kernel (bottom edge <= SVL32/2 rows, >= 8 x SVL32
/// columns: one panel, two, one with columns after it; K of one step, of the four-step loop
/// with and without a remainder), and shapes beside them that do not.
fn shapes(nr: usize) -> Vec<(usize, usize, usize, bool)> {
    let h = nr / 2;
    let mut out = vec![
        (1, 8 * nr, 1, true),
        (h, 8 * nr + 3, 9, true),
        (2 * nr + 1, 16 * nr + nr + 1, 4, true),
        (2 * nr + h, 8 * nr, 5, true),
        (h + 1, 8 * nr, 3, false),
        (1, 8 * nr - 1, 2, false),
        (2 * nr, 8 * nr, 1, false),
    ];
    if nr <= 16 {
        out.push((h.max(1), 8 * nr + 1, 17, true));
        out.push((3 * nr, 8 * nr + 2, 6, false));
    }
    out
}

#[test]
fn mop4_gemm_equals_reference() {
    let nr = vl();
    let mut rng = Rng::new(404);
    let (mut runs, mut reached) = (0, 0);
    for (idx, (m, n, k, mop4)) in shapes(nr).into_iter().enumerate() {
        assert_eq!(qai8_mop4::split(m, n, nr).1 > 0, mop4, "{m}x{n}");
        let mut p = Problem::random(&mut rng, (m, n, k));
        if idx % 2 == 1 {
            p.clamp = None;
        }
        let cuts = if idx < 3 {
            support::uker::mopa_portions(m, n, nr)
        } else {
            vec![]
        };
        runs += p.check_with(&KERNEL, &cuts);
        reached += usize::from(mop4);
    }
    eprintln!(
        "{runs} runs equal the reference (nr {nr}; {reached} shapes reach SMOP4A, run: {})",
        mop4_runs()
    );
}

/// Wrapping sums, hostile scales, zero points and bounds on the `SMOP4A` path.
#[test]
fn mop4_hostile_values() {
    let nr = vl();
    let mut rng = Rng::new(47);
    let shapes = ((1, 8 * nr, 7), ((nr / 2).max(1), 8 * nr, 5));
    let runs = mopa_qsi8::hostile_runs(&mut rng, shapes, 4, |p| p.check_with(&KERNEL, &[]));
    eprintln!("{runs} hostile runs equal the reference");
}

/// A pending lazy ZA save is committed before the `SMOP4A` path uses ZA.
#[cfg(target_arch = "aarch64")]
#[test]
fn mop4_lazy_za_save_is_committed() {
    if mop4_runs() {
        mopa_qsi8::lazy_za_committed_by(&KERNEL, (1, 8 * vl(), 3), 10);
    }
}

/// KleidiAI's assumptions (the SME2 MOPA's), and rkai's null zero point.
pub fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, nulls: Nulls, zero_point: bool) {
        violating_call(&KERNEL, (flags, 2), nulls, zero_point);
    }
    const FLAGS: &str = "Only supported flags are accepted!";
    const M_STEP: &str = "index->m % get_m_step() == 0";
    const N_STEP: &str = "index->n % get_n_step() == 0";
    vec![
        ("mop4_flag_bit0", NAME, FLAGS, || call(1, Nulls::None, true)),
        ("mop4_flag_next", NAME, FLAGS, || {
            call(CLAMP << 1, Nulls::None, true)
        }),
        ("mop4_null_lhs", NAME, Nulls::Lhs.condition(), || {
            call(0, Nulls::Lhs, true)
        }),
        ("mop4_null_rhs", NAME, Nulls::Rhs.condition(), || {
            call(0, Nulls::Rhs, true)
        }),
        ("mop4_null_dst", NAME, Nulls::Dst.condition(), || {
            call(0, Nulls::Dst, true)
        }),
        ("mop4_null_min", NAME, Nulls::Min.condition(), || {
            call(CLAMP, Nulls::Min, true)
        }),
        ("mop4_null_max", NAME, Nulls::Max.condition(), || {
            call(CLAMP, Nulls::Max, true)
        }),
        (
            "mop4_null_zero_point",
            NAME,
            "args->operand.bias.scale_bias_global.ptr != NULL",
            || call(CLAMP, Nulls::None, false),
        ),
        ("mop4_lhs_offset_m", NAME, M_STEP, || {
            KERNEL.lhs_offset(1, 0, 4);
        }),
        ("mop4_lhs_offset_k", NAME, "index->k == 0", || {
            KERNEL.lhs_offset(0, 1, 4);
        }),
        ("mop4_rhs_offset_n", NAME, N_STEP, || {
            KERNEL.rhs_offset(1, 0, 4);
        }),
        ("mop4_dst_offset_m", NAME, M_STEP, || {
            KERNEL.dst_offset(vl() + 1, 0, 4);
        }),
        ("mop4_dst_offset_n", NAME, N_STEP, || {
            KERNEL.dst_offset(0, 1, 4);
        }),
    ]
}
