//! The f32 packers of KleidiAI's `matmul_clamp_f32_f32p2vlx1_f32p2vlx1*` SME kernels through their
//! exported C symbols: `lhs_pack_f32p2vlx1_f32_sme`, `rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme`
//! and `rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme`. The group size (2 x the streaming vector
//! length in 32-bit lanes) is checked against the QEMU model the run was asked for, getters follow
//! KleidiAI's formulas, packed bytes equal a reference written from KleidiAI's layout (padding
//! rows and columns +0.0, values copied bit for bit, NaN payloads included) with buffers against
//! guard pages, and every KleidiAI assertion aborts naming it. Run at every streaming length.

use crate::support;

use support::cabi::{Getter0, Getter1, Getter2, Getter5, func, pack_lhs};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{
    self, FILL, LhsPacker, RhsCall, RhsPacker, le_bytes, lhs_call, rhs_call, slices, two_vl,
};

const LHS: &str = "lhs_pack_f32p2vlx1_f32_sme";
const KXN: &str = "rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme";
const NXK: &str = "rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme";

/// The streaming vector length in 32-bit lanes, checked against the QEMU model the run asked
/// for ([`sme_pack::svl32`]).
fn svl32() -> usize {
    sme_pack::svl32()
}

/// Values where a conversion or a float copy would show: NaNs with payloads (quiet and
/// signalling), infinities, signed zeros, subnormals, extremes.
fn specials() -> Vec<f32> {
    vec![
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffa0_1234),
        f32::from_bits(0x7fc0_5678),
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        f32::from_bits(1),
        -f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
    ]
}

/// `len` random values with every third (from `phase`) a special one.
fn values(rng: &mut Rng, len: usize, phase: usize) -> Vec<f32> {
    let specials = specials();
    let mut v = rng.vec_f32(len, -8.0, 8.0);
    for (i, x) in v.iter_mut().enumerate() {
        if i % 3 == phase % 3 {
            *x = specials[(i / 3 + phase) % specials.len()];
        }
    }
    v
}

/// KleidiAI's packed RHS of both SME packers: groups of `nr` columns, each `nr` biases then `k`
/// rows of `nr` values, columns past `n` zero. `value(kk, col)` is the source.
fn rhs_reference(
    n: usize,
    k: usize,
    nr: usize,
    bias: &[f32],
    value: impl Fn(usize, usize) -> f32,
) -> Vec<u8> {
    let groups = n.div_ceil(nr);
    let stride = nr * (k + 1);
    let mut out = vec![0.0f32; groups * stride];
    for (col, &b) in bias.iter().enumerate().take(n) {
        let (g, c) = (col / nr, col % nr);
        out[g * stride + c] = b;
        for kk in 0..k {
            out[g * stride + (kk + 1) * nr + c] = value(kk, col);
        }
    }
    le_bytes(&out)
}

/// Sizes around the group `t`: one, just below, at and above it, and a few groups and a part.
fn extents(t: usize) -> Vec<usize> {
    let mut v = vec![1, t - 1, t, t + 1, 2 * t + 3];
    v.sort_unstable();
    v.dedup();
    v.retain(|&x| x > 0);
    v
}

#[test]
fn group_size_is_twice_the_streaming_length() {
    let g = two_vl();
    assert_eq!(func::<Getter1>("get_m_step", LHS)(g), g);
    assert_eq!(func::<Getter0>("get_n_step", KXN)(), g);
    assert_eq!(func::<Getter0>("get_n_step", NXK)(), g);
    println!(
        "RELIABILITY getters: group {g} at SVL {} bits",
        32 * svl32()
    );
}

#[test]
fn getters_follow_kleidiai_formulas() {
    let g = two_vl();
    let sizes: Vec<usize> = extents(g).into_iter().chain([0]).collect();
    let idxs = [0, g, 3 * g];
    let mut cases = 0;
    for k in [1, 2, 3, 7, 16, 33, 256] {
        sme_pack::check_lhs_getters(
            &LhsPacker::two_vl(LHS, 1),
            k,
            4 * k,
            &sizes,
            &idxs,
            4 * k + 12,
        );
        cases += sizes.len() + 2 * idxs.len();
    }
    for p in [KXN, NXK] {
        for k in [1, 2, 3, 7, 16, 33, 256] {
            // The N x K packer's stride is of one column, the K x N one's of a group.
            let group_bytes = g * 4 * (k + 1);
            sme_pack::check_rhs_getters(
                &RhsPacker::two_vl(p, 1, 4),
                k,
                group_bytes,
                &sizes,
                &idxs,
                4 * k + 8,
            );
            cases += sizes.len() + 3 * idxs.len();
        }
    }
    // The K x N packer's bias offset takes any column.
    assert_eq!(func::<Getter1>("get_bias_offset", KXN)(3), 12);
    println!("RELIABILITY getters: {} cases", cases + 1);
}

#[test]
fn lhs_packed_bytes_equal_reference() {
    let g = two_vl();
    let size: Getter5 = func("get_lhs_packed_size", LHS);
    let mut rng = Rng::new(31);
    let mut cases = 0;
    for k in [1, 2, 3, 7, 16, 33] {
        for m in extents(g) {
            for pad in [0, 3] {
                let row = k + pad;
                let lhs = values(&mut rng, m * row, cases);
                let want =
                    LhsPacker::two_vl(LHS, 1).rows_reference(&le_bytes(&lhs), 4, (m, k, row));
                let edge = EDGES[cases % 2];
                let src = Guarded::from_f32(&lhs, edge);
                let what = format!("m {m} k {k} pad {pad}");
                // SAFETY: m rows of `row` floats, the packed size of m rows.
                let pack = |out| unsafe {
                    LhsPacker::two_vl(LHS, 1).pack((src.ptr(), 4 * row), k, out, (0, m))
                };
                sme_pack::packs_equal(&what, size(m, k, g, 1, 1), edge, &want, pack);
                cases += 1;
            }
        }
    }
    println!("RELIABILITY packed bytes: {cases} LHS cases");
}

#[test]
fn lhs_row_groups_pack_as_slices_of_the_whole() {
    // Callers pack row groups on threads: each group through the offset getters (m_idx_start
    // stays 0, the pointers move) equals the same bytes of one whole packing.
    let g = two_vl();
    let (m, k, row) = (2 * g + 3, 9, 11);
    let lhs = values(&mut Rng::new(5), m * row, 1);
    let want = LhsPacker::two_vl(LHS, 1).rows_reference(&le_bytes(&lhs), 4, (m, k, row));
    let cuts = slices(m, g);
    // SAFETY: each slice's rows lie in the source; their groups in the output.
    let pack = |out, rows| unsafe {
        LhsPacker::two_vl(LHS, 1).pack((lhs.as_ptr().cast(), 4 * row), k, out, rows)
    };
    sme_pack::slices_equal("LHS", want.len(), Edge::End, &want, &cuts, pack);
    println!("RELIABILITY slices: {} LHS row groups", cuts.len());
}

/// Packs with `p` through its exported `run` and returns the bytes (buffer against `edge`).
fn pack_rhs(
    p: &'static str,
    (n, k): (usize, usize),
    (src, stride): (&[f32], usize),
    bias: &[f32],
    edge: Edge,
) -> Vec<u8> {
    let bytes = func::<Getter2>("get_rhs_packed_size", p)(n, k);
    let src = Guarded::from_f32(src, edge);
    let bias = Guarded::from_f32(bias, edge);
    let mut out = sme_pack::prefilled(bytes, edge);
    // SAFETY: the source holds its rows `stride` bytes apart, n biases, the packed size.
    unsafe {
        RhsPacker::two_vl(p, 1, 4).pack((src.ptr(), stride), bias.ptr(), k, out.mut_ptr(), (0, n))
    };
    out.bytes().to_vec()
}

#[test]
fn rhs_packed_bytes_equal_reference() {
    let g = two_vl();
    let mut rng = Rng::new(77);
    let mut cases = 0;
    for k in [1, 2, 3, 5, 8, 17] {
        for n in extents(g) {
            for pad in [0, 2] {
                let bias = values(&mut rng, n, cases + 1);
                let edge = EDGES[cases % 2];
                // K x N: k rows of n (+ pad) values.
                let row = n + pad;
                let src = values(&mut rng, k * row, cases);
                let want = rhs_reference(n, k, g, &bias, |kk, c| src[kk * row + c]);
                let got = pack_rhs(KXN, (n, k), (&src, 4 * row), &bias, edge);
                assert_eq!(got, want, "kxn n {n} k {k} pad {pad}");
                // N x K: n rows of k (+ pad) values.
                let row = k + pad;
                let src = values(&mut rng, n * row, cases + 2);
                let want = rhs_reference(n, k, g, &bias, |kk, c| src[c * row + kk]);
                let got = pack_rhs(NXK, (n, k), (&src, 4 * row), &bias, edge);
                assert_eq!(got, want, "nxk n {n} k {k} pad {pad}");
                cases += 2;
            }
        }
    }
    println!("RELIABILITY packed bytes: {cases} RHS cases");
}

#[test]
fn rhs_column_groups_pack_as_slices_of_the_whole() {
    // Frameworks pack weights in column groups: source, bias and packed pointers offset through
    // the getters.
    let g = two_vl();
    let (n, k) = (3 * g + 1, 7);
    let mut rng = Rng::new(9);
    let bias = values(&mut rng, n, 0);
    let mut slices_packed = 0;
    for p in [KXN, NXK] {
        let nxk = p == NXK;
        let (rows, row) = if nxk { (n, k + 1) } else { (k, n + 2) };
        let src = values(&mut rng, rows * row, 2);
        let want = if nxk {
            rhs_reference(n, k, g, &bias, |kk, c| src[c * row + kk])
        } else {
            rhs_reference(n, k, g, &bias, |kk, c| src[kk * row + c])
        };
        let cuts = slices(n, g);
        let (source, biases) = ((src.as_ptr().cast(), 4 * row), bias.as_ptr().cast());
        // SAFETY: the slice's source columns/rows, biases and packed groups lie in the buffers
        // (a K x N slice reads its rows' first `cols` values from its offset).
        let pack =
            |out, cols| unsafe { RhsPacker::two_vl(p, 1, 4).pack(source, biases, k, out, cols) };
        sme_pack::slices_equal(p, want.len(), Edge::End, &want, &cuts, pack);
        slices_packed += cuts.len();
    }
    println!("RELIABILITY slices: {slices_packed} RHS column groups");
}

#[test]
fn empty_shapes_write_nothing_outside_the_packed_size() {
    // KleidiAI's K x N packer writes a whole group for n == 0 and a row past the biases for
    // k == 0; rkai keeps to the packed size (see rhs_pack_float.rs).
    let g = two_vl();
    let bias = vec![1.5f32; g + 1];
    for p in [KXN, NXK] {
        for edge in EDGES {
            assert!(pack_rhs(p, (0, 4), (&[0.0; 8], 16), &bias, edge).is_empty());
            let got = pack_rhs(p, (g + 1, 0), (&[0.0; 4], 4), &bias, edge);
            assert_eq!(got, rhs_reference(g + 1, 0, g, &bias, |_, _| 0.0), "{p}");
        }
    }
    let mut out = [FILL; 4];
    // SAFETY: nothing to read or write for m == 0.
    unsafe {
        pack_lhs(
            LHS,
            (0, 5),
            (g, 1, 1),
            0,
            (out.as_ptr().cast(), 20),
            out.as_mut_ptr().cast(),
        )
    };
    assert_eq!(out, [FILL; 4]);
}

fn cases() -> Vec<support::death::Case<String, String>> {
    // The children compute the group themselves: a case's call captures nothing.
    let mut cases = vec![
        getter_case!("lhs_m_step_mr", "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()"
            => get_m_step::<Getter1>(LHS)(two_vl() + 1)),
        getter_case!("lhs_offset_m_idx", "m_idx % kai_get_mr_lhs_pack_f32p2vlx1_f32_sme() == 0"
            => get_lhs_offset::<Getter2>(LHS)(1, 64)),
        getter_case!("lhs_packed_offset_m_idx",
            "m_idx % kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme(mr) == 0"
            => get_lhs_packed_offset::<Getter5>(LHS)(two_vl() / 2, 8, two_vl(), 1, 1)),
        getter_case!("lhs_packed_offset_mr", "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()"
            => get_lhs_packed_offset::<Getter5>(LHS)(0, 8, 3, 1, 1)),
        getter_case!("lhs_packed_offset_kr", "kr == KR"
            => get_lhs_packed_offset::<Getter5>(LHS)(0, 8, two_vl(), 2, 1)),
        getter_case!("lhs_packed_size_mr", "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()"
            => get_lhs_packed_size::<Getter5>(LHS)(4, 8, two_vl() / 2, 1, 1)),
        getter_case!("lhs_packed_size_sr", "sr == SR"
            => get_lhs_packed_size::<Getter5>(LHS)(4, 8, two_vl(), 1, 2)),
        getter_case!("nxk_bias_offset", "(n_idx % n_step) == 0"
            => get_bias_offset::<Getter1>(NXK)(1)),
        getter_case!("nxk_rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter2>(NXK)(two_vl() + 1, 16)),
        getter_case!("kxn_rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter1>(KXN)(two_vl() / 2)),
        getter_case!("kxn_packed_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(KXN)(1, 8)),
        getter_case!("nxk_packed_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(NXK)(two_vl() - 1, 8)),
        run_case!("kxn_nr", "nr == n_step"
            => rhs_call(KXN, (two_vl(), 1), RhsCall { nr: Some(two_vl() + 4), ..RhsCall::default() })),
        run_case!("nxk_nr", "nr == n_step"
            => rhs_call(NXK, (two_vl(), 1), RhsCall { nr: Some(two_vl() / 2), ..RhsCall::default() })),
        run_case!("kxn_bias", "bias != NULL"
            => rhs_call(KXN, (two_vl(), 1), RhsCall { null_bias: true, ..RhsCall::default() })),
        run_case!("nxk_bias", "bias != NULL"
            => rhs_call(NXK, (two_vl(), 1), RhsCall { null_bias: true, ..RhsCall::default() })),
    ];
    let mr = "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()";
    cases.extend(sme_lhs_run_cases!(LHS, "lhs_run_", kr: 1, bad_kr: 4, mr: mr));
    cases
}

death_tests!(cases, "f32 SME packer contract violations");
