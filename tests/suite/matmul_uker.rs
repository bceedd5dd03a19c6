//! KleidiAI's generic matmul interface (`kai_matmul.h`), through the C ABI: the table of
//! `kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla` (function pointers called as C calls
//! them) against KleidiAI's getter values and a scalar reference in KleidiAI's order of
//! operations, at the streaming length of the CPU under test (SME2 asm where the CPU has it,
//! the portable path otherwise): edge shapes, column portions through the offset getters,
//! guard pages, register canaries, hostile floats, both clamp settings and KleidiAI's
//! assumptions.

use crate::support;

use rkai_capi::capi::exports::kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla as provider;
use rkai_ukernels::float;
use rkai_ukernels::matmul::uker;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{
    GemvCase, Getters, Nulls, Uker, check_gemv, check_getters, gemv_args, gemv_call,
    hostile_operands, sme_lanes32,
};

const NAME: &str = "kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla";
const KERNEL: Uker = Uker::new(NAME, provider);

/// KleidiAI's getter values, from its formulas: mr 1, nr 4 x vscale, kr 1, 4-byte elements.
#[test]
fn getters_equal_kleidiai() {
    let nr = sme_lanes32();
    let lhs_stride = |k: usize| k * 4;
    let rhs_stride = |k: usize| nr * (4 + 4 * k);
    check_getters(&KERNEL, &Getters::gemv(nr, (&lhs_stride, &rhs_stride), 4));
}

/// The packed RHS of the format (`x32p4vsx1bx32`): per block of `nr` columns their biases, then
/// per K row their values; zero past `n`.
fn pack(n: usize, k: usize, nr: usize, rhs: &[f32], bias: &[f32]) -> Vec<f32> {
    let mut out = Vec::new();
    for blk in 0..n.div_ceil(nr) {
        let cols = blk * nr..blk * nr + nr;
        out.extend(cols.clone().map(|c| if c < n { bias[c] } else { 0.0 }));
        for kk in 0..k {
            out.extend(
                cols.clone()
                    .map(|c| if c < n { rhs[kk * n + c] } else { 0.0 }),
            );
        }
    }
    out
}

/// KleidiAI's order of operations: the column's bias, one fused multiply-add per K value in K
/// order into ZA (default NaN), then `FCLAMP` when asked.
fn reference(
    n: usize,
    k: usize,
    lhs: &[f32],
    rhs: &[f32],
    bias: &[f32],
    clamp: Option<(f32, f32)>,
) -> Vec<u32> {
    (0..n)
        .map(|j| {
            let mut acc = bias[j];
            for kk in 0..k {
                acc = float::fmla_za(acc, rhs[kk * n + j], lhs[kk]);
            }
            if let Some((lo, hi)) = clamp {
                acc = float::clamp_num(acc, lo, hi);
            }
            acc.to_bits()
        })
        .collect()
}

/// One case: every edge of the guard pages, both clamp settings, the whole row and each
/// portion of `portion` blocks; results equal the reference and the portable path.
fn check_case(
    (n, k): (usize, usize),
    lhs: &[f32],
    rhs: &[f32],
    bias: &[f32],
    clamp: Option<(f32, f32)>,
) -> usize {
    let nr = sme_lanes32();
    let packed = pack(n, k, nr, rhs, bias);
    let expect = reference(n, k, lhs, rhs, bias, clamp);
    // The portable path gives the same bits.
    let mut portable = vec![0f32; n];
    // SAFETY: the buffers hold k, the packed blocks and n floats.
    unsafe {
        uker::gemv_portable(
            n,
            k,
            nr,
            lhs.as_ptr(),
            packed.as_ptr(),
            portable.as_mut_ptr(),
            clamp,
        )
    };
    let pb: Vec<u32> = portable.iter().map(|x| x.to_bits()).collect();
    assert_eq!(pb, expect, "portable n {n} k {k} clamp {clamp:?}");
    use support::sme_pack::le_bytes as le;
    let case = GemvCase {
        n,
        k,
        lhs: &le(lhs),
        packed: &le(&packed),
        expect: &le(&expect),
        fill: &0x7fa5_a5a5u32.to_le_bytes(),
        clamp,
    };
    check_gemv(&KERNEL, nr, &case)
}

#[test]
fn gemv_equals_reference_at_edge_shapes() {
    let nr = sme_lanes32();
    let mut rng = Rng::new(27);
    let mut runs = 0;
    let ns = support::uker::gemv_widths(nr);
    for n in ns {
        for k in [1, 2, 3, 4, 5, 7, 8, 9, 17] {
            let lhs: Vec<f32> = (0..k).map(|_| rng.f32(-2.0, 2.0)).collect();
            let rhs: Vec<f32> = (0..k * n).map(|_| rng.f32(-2.0, 2.0)).collect();
            let bias: Vec<f32> = (0..n).map(|_| rng.f32(-1.0, 1.0)).collect();
            for clamp in support::uker::CLAMPS {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    support::uker::report_sme2_runs(runs, ("nr", nr));
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals and overflowing products in
/// every operand, without clamp (they pass, NaNs as the default NaN) and with (FCLAMP's rules).
#[test]
fn hostile_floats() {
    let nr = sme_lanes32();
    let specials = support::uker::HOSTILE_F32;
    let mut rng = Rng::new(4);
    let mut runs = 0;
    for (n, k) in [(nr + 1, 3), (4 * nr + 2, 5), (2, 1)] {
        for round in 0..6 {
            let [lhs, rhs, bias] =
                hostile_operands(&specials, (1, n, k), round, || rng.f32(-3.0, 3.0));
            for clamp in support::uker::HOSTILE_CLAMPS {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// `n == 0` writes nothing; `k == 0` gives the (clamped) bias.
#[test]
fn empty_shapes() {
    let nr = sme_lanes32();
    let bias: Vec<f32> = (0..nr + 1).map(|i| i as f32 - 2.0).collect();
    assert_eq!(
        check_case((nr + 1, 0), &[], &[], &bias, Some((-1.0, 1.0))),
        8
    );
    let one = [1.0f32];
    let mut d = Guarded::from_f32(&[5.0], EDGES[0]);
    KERNEL.run(&gemv_args(
        0,
        (1, 0, 1),
        (one.as_ptr().cast(), one.as_ptr().cast(), d.mut_ptr()),
        (&0.0, &0.0),
    ));
    assert_eq!(d.f32_at(0), 5.0);
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, m: usize, nulls: Nulls) {
        gemv_call(&KERNEL, &1.0f32.to_le_bytes(), (flags, m, nulls));
    }
    uker_gemv_violations!(call)
}

death_tests!(violations, "assumptions");
