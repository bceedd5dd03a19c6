//! The SME 16-bit packers through their C symbols: `lhs_pack_x16p2vlx2_x16_sme` and
//! `rhs_pack_{kxn,nxk}_x16p2vlx2b_x16_x16_sme`. At the running streaming length (every one of
//! `scripts/test-all.sh`'s SVL models; 128 bits where there is no SME), the getters follow
//! KleidiAI 1.30's formulas, packed bytes equal a reference written from KleidiAI's layout (every
//! byte of the packed size, padding included: a buffer pre-filled with another byte shows any
//! byte left unwritten), buffers sit against guard pages, slices packed through the offset
//! getters equal the same bytes of a whole packing, and invalid arguments abort naming the
//! condition.

use crate::support;

use support::cabi::func as sym;
use support::cabi::{Getter1, Getter2};
use support::guard::{EDGES, Edge, Guarded};
use support::sme_pack::{
    self, LhsPacker, RhsCall, RhsPacker, le_bytes, lhs_call, rhs_call, roundup, slices, two_vl,
};

const LHS: &str = "lhs_pack_x16p2vlx2_x16_sme";
const KXN: &str = "rhs_pack_kxn_x16p2vlx2b_x16_x16_sme";
const NXK: &str = "rhs_pack_nxk_x16p2vlx2b_x16_x16_sme";
const RHS: [&str; 2] = [KXN, NXK];

/// Random 16-bit patterns, none zero (see [`sme_pack::bit_patterns`]).
fn values(len: usize, seed: u64) -> Vec<u16> {
    let specials = [0x7e00, 0xfc00, 0x8000, 0x0001, 0x7c01];
    let patterns = sme_pack::bit_patterns(len, seed, 16, &specials);
    patterns.into_iter().map(|v| v as u16).collect()
}

// ---------------------------------------------------------------------------------------------
// References, written from KleidiAI's layouts: each output value computed from its index.

/// Packed RHS of `n` columns: `value(kk, j)` is the source value at K row `kk`, column `j`.
fn reference_rhs(
    n: usize,
    k: usize,
    value: impl Fn(usize, usize) -> u16,
    bias: &[u16],
) -> Vec<u16> {
    let nr = two_vl();
    let kp = roundup(k, 2);
    let group = nr * (1 + kp);
    (0..n.div_ceil(nr) * group)
        .map(|i| {
            let (g, at) = (i / group, i % group);
            if at < nr {
                let j = g * nr + at;
                return if j < n { bias[j] } else { 0 };
            }
            // Past the biases: pairs of K rows of 2 * nr values, each column's pair in turn.
            let q = at - nr;
            let (pair, within) = (q / (2 * nr), q % (2 * nr));
            let (j, kk) = (g * nr + within / 2, 2 * pair + within % 2);
            if j < n && kk < k { value(kk, j) } else { 0 }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Getters

#[test]
fn getters_follow_kleidiai_formulas() {
    let t = sme_pack::two_vl_is_half_svl_bytes();
    let mut checked = 0;
    for k in [1, 2, 3, 8, 17, 64, 333] {
        let kp = roundup(k, 2);
        let (ns, idxs) = ([1, t - 1, t, t + 1, 3 * t + 5], [0, t, 5 * t]);
        for name in RHS {
            let group = t * (2 + 2 * kp);
            sme_pack::check_rhs_getters(
                &RhsPacker::two_vl(name, 2, 2),
                k,
                group,
                &ns,
                &idxs,
                2 * k + 6,
            );
            checked += 4 * idxs.len();
        }
        let (ms, idxs) = ([1, t - 1, t, t + 1, 4 * t + 3], [0, t, 3 * t]);
        sme_pack::check_lhs_getters(&LhsPacker::two_vl(LHS, 2), k, kp * 2, &ms, &idxs, 2 * k);
        checked += 2 * idxs.len();
    }
    // KleidiAI's kxn bias offset asserts nothing about n_idx.
    assert_eq!(sym::<Getter1>("get_bias_offset", KXN)(3), 6);
    eprintln!("x16p2vlx2 getter values checked at nr = {t}: {checked}");
}

// ---------------------------------------------------------------------------------------------
// Packed bytes

/// One RHS source: `n` columns of `k` values with `pad` extra values per source row, and biases.
struct RhsSource {
    /// Values per source row (`n + pad` for K x N, `k + pad` for N x K).
    row: usize,
    data: Vec<u16>,
    bias: Vec<u16>,
    nxk: bool,
}

impl RhsSource {
    fn new(name: &str, n: usize, k: usize, pad: usize, seed: u64) -> Self {
        let nxk = name == NXK;
        let (rows, row) = if nxk { (n, k + pad) } else { (k, n + pad) };
        RhsSource {
            row,
            data: values(rows * row, seed),
            bias: values(n, seed ^ 0x55),
            nxk,
        }
    }

    fn value(&self, kk: usize, j: usize) -> u16 {
        match self.nxk {
            true => self.data[j * self.row + kk],
            false => self.data[kk * self.row + j],
        }
    }
}

fn rhs_case(name: &'static str, n: usize, k: usize, pad: usize, seed: u64, edge: Edge) {
    let src = RhsSource::new(name, n, k, pad, seed);
    let rhs = Guarded::from_bytes(&le_bytes(&src.data), edge);
    let bias = Guarded::from_bytes(&le_bytes(&src.bias), edge);
    let size = sym::<Getter2>("get_rhs_packed_size", name)(n, k);
    let expect = le_bytes(&reference_rhs(n, k, |kk, j| src.value(kk, j), &src.bias));
    let packer = RhsPacker::two_vl(name, 2, 2);
    let source = (rhs.ptr(), 2 * src.row);
    // SAFETY: the source, bias and output buffers hold the whole problem.
    let pack = |out, cols| unsafe { packer.pack(source, bias.ptr(), k, out, cols) };
    let what = format!("{name} n={n} k={k} pad={pad}");
    sme_pack::packs_equal(&what, size, edge, &expect, |out| pack(out, (0, n)));
    // A caller's column slices: groups packed one call each, through the offset getters.
    let t = two_vl();
    if n > t {
        sme_pack::slices_equal(&what, size, edge, &expect, &slices(n, 2 * t), pack);
    }
}

/// Shapes by multiples of the tile, so that every streaming length sees its own edges.
fn shapes() -> Vec<(usize, usize)> {
    let t = two_vl();
    let mut out = Vec::new();
    for n in [1, 2, t - 1, t, t + 1, 2 * t + 3, 3 * t] {
        for k in [1, 2, 3, 8, 9, 34] {
            out.push((n, k));
        }
    }
    out
}

#[test]
fn rhs_packers_match_reference_bytes() {
    let mut cases = 0;
    for name in RHS {
        for (seed, &(n, k)) in shapes().iter().enumerate() {
            for pad in [0, 3] {
                for edge in EDGES {
                    rhs_case(name, n, k, pad, seed as u64, edge);
                    cases += 1;
                }
            }
        }
    }
    eprintln!("x16p2vlx2b RHS packer cases at nr = {}: {cases}", two_vl());
}

#[test]
fn lhs_packer_matches_reference_bytes() {
    LhsPacker::two_vl(LHS, 2).rows_cases(&shapes(), 2, |len, seed| le_bytes(&values(len, seed)));
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

type Case = support::death::Case<String, &'static str>;

/// The RHS cases, the same for both packers.
macro_rules! rhs_cases {
    ($name:expr, $prefix:literal) => {
        sme_rhs_run_cases!($name, $prefix, valid: (two_vl(), 2), nr: two_vl() + 2, kr: 1 => "kr == KR")
    };
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::from(two_vl_lhs_getter_cases!(LHS, kr: 2, wrong_kr: 4,
        mr: "mr == kai_mr", m_idx: "m_idx % kai_mr == 0", m_step: "m_idx % m_step == 0"));
    cases.extend([
        getter_case!("nxk_bias_offset", "(n_idx % n_step) == 0"
            => get_bias_offset::<Getter1>(NXK)(1)),
        getter_case!("nxk_rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter2>(NXK)(two_vl() / 2, 16)),
        getter_case!("kxn_rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter1>(KXN)(3)),
    ]);
    cases.extend(sme_lhs_run_cases!(LHS, "lhs_", kr: 2, bad_kr: 1, mr: "mr == kai_mr"));
    cases.extend(rhs_cases!(KXN, "kxn_"));
    cases.extend(rhs_cases!(NXK, "nxk_"));
    cases
}

death_tests!(cases, "x16p2vlx2 packer contract violations");
