//! The SME f32 RHS packer `rhs_pack_kxn_f32p16vlx1b_f32_f32_sme` through its C symbols. At the
//! running streaming length (every one of `scripts/test-all.sh`'s SVL models; 128 bits where
//! there is no SME), the getters follow KleidiAI 1.30's formulas, packed bytes equal a reference
//! written from KleidiAI's layout (every byte of the packed size, padding included: a buffer
//! pre-filled with another byte shows any byte left unwritten), buffers sit against guard pages,
//! column slices packed through the offset getters equal the same bytes of a whole packing, and
//! invalid arguments abort naming the condition.

mod support;

use rkai::ukernels::arch;
use std::ffi::c_void;
use std::ptr;
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter1, Getter2, RhsPackFloatFn, pack_float_rhs};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;

const KXN: &str = "rhs_pack_kxn_f32p16vlx1b_f32_f32_sme";

/// Byte that pre-fills every output buffer (the test values are never zero, and padding must be).
const FILL: u8 = 0xa5;

/// KleidiAI's `16vl` tile: 16 x the streaming length in 32-bit lanes.
fn tile() -> usize {
    16 * arch::sme_lanes32()
}

/// Random 32-bit patterns (the packer copies bits: NaNs, infinities, subnormals and signed zeros
/// travel as any other value), none zero so that padding stands out.
fn values(len: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..len)
        .map(|_| {
            let r = rng.next_u64();
            match r % 8 {
                0 => [
                    0x7fc0_0000,
                    0xff80_0000,
                    0x8000_0000,
                    0x0000_0001,
                    0x7f80_0001,
                ][(r >> 8) as usize % 5],
                _ => ((r >> 16) % 0xffff_fffe + 1) as u32,
            }
        })
        .collect()
}

fn le_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
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
        arch::sme_vector_bytes().unwrap_or(16),
        "nr is 4 x SVL bytes"
    );
    let mut checked = 0;
    for k in [0, 1, 2, 3, 8, 17, 64, 333] {
        let group = 4 * t * (1 + k);
        assert_eq!(sym::<Getter0>("get_n_step", KXN)(), t);
        assert_eq!(sym::<Getter1>("get_rhs_packed_stride", KXN)(k), group);
        for n in [1, t - 1, t, t + 1, 3 * t + 5] {
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_size", KXN)(n, k),
                n.div_ceil(t) * group,
                "n={n} k={k}"
            );
            checked += 1;
        }
        for n_idx in [0, t, 5 * t] {
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", KXN)(n_idx, k),
                n_idx / t * group,
                "n_idx={n_idx} k={k}"
            );
            assert_eq!(sym::<Getter1>("get_bias_offset", KXN)(n_idx), 4 * n_idx);
            assert_eq!(sym::<Getter1>("get_rhs_offset", KXN)(n_idx), 4 * n_idx);
            checked += 3;
        }
    }
    // KleidiAI's bias offset asserts nothing about n_idx.
    assert_eq!(sym::<Getter1>("get_bias_offset", KXN)(3), 12);
    eprintln!("f32p16vlx1b getter values checked at nr = {t}: {checked}");
}

/// One K x N source with `pad` extra values per row, and biases.
struct Source {
    k: usize,
    row: usize,
    data: Vec<u32>,
    bias: Vec<u32>,
}

/// Packs columns `n0..n0 + cols` of `src` through the offset getters into `out`.
fn pack(src: &Source, rhs: &Guarded, bias: &Guarded, out: *mut u8, n0: usize, cols: usize) {
    let stride = 4 * src.row;
    let rhs_offset = sym::<Getter1>("get_rhs_offset", KXN)(n0);
    let bias_offset = sym::<Getter1>("get_bias_offset", KXN)(n0);
    let packed_offset = sym::<Getter2>("get_rhs_packed_offset", KXN)(n0, src.k);
    // SAFETY: the offsets stay inside the source, bias and output buffers for this slice.
    unsafe {
        pack_float_rhs(
            KXN,
            (cols, src.k),
            (tile(), 1, 1),
            (rhs.ptr().add(rhs_offset).cast(), stride),
            bias.ptr().add(bias_offset).cast(),
            out.add(packed_offset).cast(),
        )
    }
}

fn case(n: usize, k: usize, pad: usize, seed: u64, edge: Edge) {
    let row = n + pad;
    let src = Source {
        k,
        row,
        data: values(k * row, seed),
        bias: values(n, seed ^ 0x55),
    };
    let rhs = Guarded::from_bytes(&le_bytes(&src.data), edge);
    let bias = Guarded::from_bytes(&le_bytes(&src.bias), edge);
    let size = sym::<Getter2>("get_rhs_packed_size", KXN)(n, k);
    let mut out = Guarded::from_bytes(&vec![FILL; size], edge);
    pack(&src, &rhs, &bias, out.mut_ptr(), 0, n);
    let expect = le_bytes(&reference(n, k, |kk, j| src.data[kk * row + j], &src.bias));
    assert_eq!(out.bytes(), &expect[..], "n={n} k={k} pad={pad} {edge:?}");

    // A caller's column slices: groups packed one call each, through the offset getters.
    let t = tile();
    if n > t {
        let mut sliced = Guarded::from_bytes(&vec![FILL; size], edge);
        let mut n0 = 0;
        while n0 < n {
            let cols = t.min(n - n0);
            pack(&src, &rhs, &bias, sliced.mut_ptr(), n0, cols);
            n0 += cols;
        }
        assert_eq!(sliced.bytes(), &expect[..], "slices n={n} k={k} {edge:?}");
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

/// What a call changes from a valid one.
#[derive(Clone, Copy, Default)]
struct Call {
    groups: Option<usize>,
    nr: Option<usize>,
    kr: Option<usize>,
    sr: Option<usize>,
    null_rhs: bool,
    null_bias: bool,
    scale: bool,
    null_out: bool,
    extra: usize,
    params: bool,
}

/// Calls the packer for n = 4, k = 8 with the overrides of `o`.
fn call(name: &str, o: Call) {
    let w = [0u8; 256];
    let mut out = vec![0u8; 4 * 9 * 16 * 64];
    let some = w.as_ptr().cast::<c_void>();
    let pick = |null: bool| if null { ptr::null() } else { some };
    let opt = |set: bool| if set { some } else { ptr::null() };
    let dst: *mut c_void = if o.null_out {
        ptr::null_mut()
    } else {
        out.as_mut_ptr().cast()
    };
    // SAFETY: buffers cover n = 4, k = 8 at any tile; the call is expected to abort.
    unsafe {
        sym::<RhsPackFloatFn>("run", name)(
            o.groups.unwrap_or(1),
            4,
            8,
            o.nr.unwrap_or(tile()),
            o.kr.unwrap_or(1),
            o.sr.unwrap_or(1),
            16,
            pick(o.null_rhs),
            pick(o.null_bias),
            opt(o.scale),
            dst,
            o.extra,
            opt(o.params),
        )
    }
}

type Case = support::death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    vec![
        run_case!("groups", "num_groups == 1" => call(KXN, Call { groups: Some(2), ..Call::default() })),
        run_case!("nr", "nr == n_step" => call(KXN, Call { nr: Some(tile() / 2), ..Call::default() })),
        run_case!("kr", "kr == 1" => call(KXN, Call { kr: Some(2), ..Call::default() })),
        run_case!("sr", "sr == 1" => call(KXN, Call { sr: Some(2), ..Call::default() })),
        run_case!("null", "rhs != NULL" => call(KXN, Call { null_rhs: true, ..Call::default() })),
        run_case!("bias", "bias != NULL" => call(KXN, Call { null_bias: true, ..Call::default() })),
        run_case!("scale", "scale == NULL" => call(KXN, Call { scale: true, ..Call::default() })),
        run_case!("out", "rhs_packed != NULL" => call(KXN, Call { null_out: true, ..Call::default() })),
        run_case!("extra", "extra_bytes == 0" => call(KXN, Call { extra: 4, ..Call::default() })),
        run_case!("params", "params == NULL" => call(KXN, Call { params: true, ..Call::default() })),
        getter_case!("packed_offset", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(KXN)(tile() / 2, 8)),
        getter_case!("rhs_offset", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter1>(KXN)(3)),
    ]
}

death_tests!(cases, "f32p16vlx1b packer contract violations");
