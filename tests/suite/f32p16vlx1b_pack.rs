//! The SME f32 RHS packer `rhs_pack_kxn_f32p16vlx1b_f32_f32_sme` through its C symbols. At the
//! running streaming length (every one of `scripts/test-all.sh`'s SVL models; 128 bits where
//! there is no SME), the getters follow KleidiAI 1.30's formulas, packed bytes equal a reference
//! written from KleidiAI's layout (every byte of the packed size, padding included: a buffer
//! pre-filled with another byte shows any byte left unwritten), buffers sit against guard pages,
//! column slices packed through the offset getters equal the same bytes of a whole packing, and
//! invalid arguments abort naming the condition.

use crate::support;

use support::cabi::func as sym;
use support::cabi::{Getter1, Getter2};
use support::guard::{EDGES, Edge, Guarded};
use support::sme_pack::{self, RhsCall, RhsPacker, le_bytes, rhs_call, slices};

const KXN: &str = "rhs_pack_kxn_f32p16vlx1b_f32_f32_sme";

/// KleidiAI's `16vl` tile: 16 x the streaming length in 32-bit lanes.
fn tile() -> usize {
    16 * sme_pack::svl32()
}

fn packer() -> RhsPacker {
    RhsPacker {
        name: KXN,
        tile: (tile(), 1, 1),
        value_bytes: 4,
    }
}

/// Random 32-bit patterns, none zero (see [`sme_pack::bit_patterns`]).
fn values(len: usize, seed: u64) -> Vec<u32> {
    let specials = [
        0x7fc0_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f80_0001,
    ];
    sme_pack::bit_patterns(len, seed, 32, &specials)
}

/// Packed RHS of `n` columns, written from KleidiAI's layout: groups of `nr` columns, each `nr`
/// biases then `k` rows of `nr` values, zero past `n`. `value(kk, j)` is the source value at K
/// row `kk`, column `j`.
fn reference(n: usize, k: usize, value: impl Fn(usize, usize) -> u32, bias: &[u32]) -> Vec<u32> {
    let nr = tile();
    let group = nr * (1 + k);
    (0..n.div_ceil(nr) * group)
        .map(|i| {
            let (g, at) = (i / group, i % group);
            let j = g * nr + at % nr;
            match (at / nr, j < n) {
                (_, false) => 0,
                (0, true) => bias[j],
                (row, true) => value(row - 1, j),
            }
        })
        .collect()
}

#[test]
fn getters_follow_kleidiai_formulas() {
    let t = tile();
    assert_eq!(
        t / 4,
        rkai_ukernels::arch::sme_vector_bytes().unwrap_or(16),
        "nr is 4 x SVL bytes"
    );
    let mut checked = 0;
    for k in [0, 1, 2, 3, 8, 17, 64, 333] {
        let (ns, idxs) = ([1, t - 1, t, t + 1, 3 * t + 5], [0, t, 5 * t]);
        sme_pack::check_rhs_getters(&packer(), k, 4 * t * (1 + k), &ns, &idxs, 0);
        checked += ns.len() + 3 * idxs.len();
    }
    // KleidiAI's bias offset asserts nothing about n_idx.
    assert_eq!(sym::<Getter1>("get_bias_offset", KXN)(3), 12);
    eprintln!("f32p16vlx1b getter values checked at nr = {t}: {checked}");
}

/// Packs an `n` x `k` source with `pad` extra values per row, whole and (beyond one group) in
/// one call per group, against a guard page at `edge`.
fn case(n: usize, k: usize, pad: usize, seed: u64, edge: Edge) {
    let row = n + pad;
    let (data, bias) = (values(k * row, seed), values(n, seed ^ 0x55));
    let rhs = Guarded::from_bytes(&le_bytes(&data), edge);
    let bias_in = Guarded::from_bytes(&le_bytes(&bias), edge);
    let size = sym::<Getter2>("get_rhs_packed_size", KXN)(n, k);
    let expect = le_bytes(&reference(n, k, |kk, j| data[kk * row + j], &bias));
    // SAFETY: the source, bias and output buffers hold the whole problem.
    let pack =
        |out, cols| unsafe { packer().pack((rhs.ptr(), 4 * row), bias_in.ptr(), k, out, cols) };
    let what = format!("n={n} k={k} pad={pad}");
    sme_pack::packs_equal(&what, size, edge, &expect, |out| pack(out, (0, n)));
    // A caller's column slices: groups packed one call each, through the offset getters.
    let t = tile();
    if n > t {
        sme_pack::slices_equal(&what, size, edge, &expect, &slices(n, t), pack);
    }
}

#[test]
fn packer_matches_reference_bytes() {
    let t = tile();
    let mut cases = 0;
    let mut seed = 0;
    for n in [1, 2, t - 1, t, t + 1, 2 * t + 3] {
        for k in [0, 1, 2, 3, 9, 34] {
            for pad in [0, 3] {
                for edge in EDGES {
                    case(n, k, pad, seed, edge);
                    cases += 1;
                }
            }
            seed += 1;
        }
    }
    eprintln!("f32p16vlx1b RHS packer cases at nr = {t}: {cases}");
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

type Case = support::death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    let mut cases = sme_rhs_run_cases!(KXN, "", valid: (tile(), 1), nr: tile() / 2,
        kr: 2 => "kr == 1")
    .to_vec();
    cases.push(getter_case!("rhs_offset", "(n_idx % n_step) == 0"
        => get_rhs_offset::<Getter1>(KXN)(3)));
    cases
}

death_tests!(cases, "f32p16vlx1b packer contract violations");
