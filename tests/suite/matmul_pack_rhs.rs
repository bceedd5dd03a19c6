//! KleidiAI's generic RHS-packing interface (`kai_matmul_pack_rhs.h`), through the C ABI: each
//! provider's table (function pointers called as C calls them) against KleidiAI's getter values
//! and a reference packing written from the packed layout, at the vector length of the CPU under
//! test (the SVE length for the SVE packer, the streaming length for the SME ones), with guard
//! pages, column slices and KleidiAI's assumptions.

use crate::support;

use rkai_capi::capi::exports::kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve as provider;
use rkai_capi::capi::exports::{
    kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme,
    kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme, kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme,
    kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme, kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme,
    kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme,
};
use rkai_ukernels::arch::Features;
use rkai_ukernels::pack_rhs_types::*;
use std::ptr;
use support::guard::{EDGES, Guarded};
use support::hostile::F32_SPECIALS;
use support::rng::Rng;
use support::uker_pack::{RhsOperands, RhsPackApi as Api, RhsPackedStride, RhsStride};

const NAME: &str = "kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve";

use support::cpu::kai_get_sve_vector_length_u8;

/// The packer's nr: 16 x vscale = the SVE length in bytes; 16 (128-bit) without SVE. Checked
/// against the QEMU model when the test matrix names one.
fn expected_nr() -> usize {
    let sve = cfg!(target_arch = "aarch64") && Features::detect().contains(Features::SVE);
    // SAFETY: CNTB runs only where SVE is present.
    let bytes = if sve {
        kai_get_sve_vector_length_u8() as usize
    } else {
        16
    };
    if let Ok(model) = std::env::var("RKAI_EXPECT_CPU") {
        let expected = support::cpu::expected_sve_bytes(&model);
        assert_eq!(bytes, expected, "SVE bytes under {model}");
    }
    bytes
}

/// The SVE packer's table.
fn api() -> Api {
    Api(provider())
}

/// The packed layout, from its description: per block of `nr` columns, `nr` biases, then per
/// pair of rows `(2p, 2p + 1)` the pairs `(rhs[2p][j], rhs[2p + 1][j])` of its columns; what
/// lies past `n`, past `k` or in a missing bias is zero.
fn reference(
    n: usize,
    k: usize,
    nr: usize,
    rhs: &[u16],
    rhs_row: usize,
    bias: Option<&[u16]>,
) -> Vec<u8> {
    let k_even = k.div_ceil(2) * 2;
    let mut out: Vec<u16> = Vec::new();
    for block in 0..n.div_ceil(nr) {
        let column = |j: usize| block * nr + j;
        for j in 0..nr {
            let c = column(j);
            out.push(if c < n { bias.map_or(0, |b| b[c]) } else { 0 });
        }
        for pair in 0..k_even / 2 {
            for j in 0..nr {
                for row in [2 * pair, 2 * pair + 1] {
                    let c = column(j);
                    out.push(if c < n && row < k {
                        rhs[row * rhs_row + c]
                    } else {
                        0
                    });
                }
            }
        }
    }
    out.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn words(rng: &mut Rng, len: usize) -> Vec<u16> {
    // Never zero, so a zero where a value belongs shows.
    (0..len).map(|_| (rng.next_u64() as u16) | 1).collect()
}

fn bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn getters_have_kleidiai_values() {
    let api = api();
    let nr = expected_nr();
    let step = api.step();
    assert_eq!((step.n, step.k), (nr, 0), "get_step");
    assert!(
        api.0.get_scale_n_offset.is_none(),
        "get_scale_n_offset is NULL in KleidiAI's table"
    );
    let mut checked = 1;
    for n in [1, 2, 15, 16, 17, nr - 1, nr, nr + 1, 3 * nr + 5, 4096] {
        let s = api.rhs_stride(n, 7);
        assert_eq!((s.n, s.k), (2, 2 * n), "get_rhs_stride n {n}");
        for k in [1, 2, 3, 8, 9, 255, 256] {
            let ps = api.packed_stride(n, k);
            assert_eq!(
                ps.n,
                nr * (2 + k.div_ceil(2) * 4),
                "get_rhs_packed_stride k {k}"
            );
            assert_eq!(
                api.packed_size(n, k, &ps),
                n.div_ceil(nr) * ps.n,
                "size n {n} k {k}"
            );
            checked += 2;
        }
        checked += 1;
    }
    for block in [0, 1, 2, 7] {
        let n_idx = block * nr;
        let stride = api.rhs_stride(9 * nr, 3);
        assert_eq!(
            api.rhs_offset(n_idx, 0, &stride),
            2 * n_idx,
            "get_rhs_offset"
        );
        let ps = api.packed_stride(9 * nr, 5);
        assert_eq!(
            api.packed_offset(n_idx, 0, &ps),
            block * ps.n,
            "get_rhs_packed_offset"
        );
        assert_eq!(api.bias_offset(n_idx), 2 * n_idx, "get_bias_n_offset");
        checked += 3;
    }
    // KleidiAI's packer does not read the RHS stride in get_rhs_offset.
    assert_eq!(api.rhs_offset(nr, 0, &api.rhs_stride(0, 0)), 2 * nr);
    // Sizes measured with KleidiAI 1.30 under QEMU.
    let table = include_str!("data/kleidiai-1.30-packed-sizes.tsv");
    let mut measured = 0;
    for row in table.lines().map(|l| l.split('\t').collect::<Vec<_>>()) {
        if row[2] != &NAME[4..] {
            continue;
        }
        let (n, k, size): (usize, usize, usize) = (
            row[5].parse().unwrap(),
            row[6].parse().unwrap(),
            row[9].parse().unwrap(),
        );
        // A row measured at another vector length holds where N fills whole blocks at both.
        if row[15].parse::<usize>() != Ok(nr) && (row[16] != "no" || n % nr != 0) {
            continue;
        }
        assert_eq!(
            api.packed_size(n, k, &api.packed_stride(n, k)),
            size,
            "{row:?}"
        );
        measured += 1;
    }
    assert!(
        measured >= 1 || nr > 128,
        "measured sizes of {NAME} in the table"
    );
    eprintln!(
        "{} getter values checked (nr {nr}), {measured} measured sizes",
        checked + measured
    );
}

/// Every `(n, k)` of `ns` x `ks`, `n` the outer loop.
fn pairs(ns: &[usize], ks: &[usize]) -> Vec<(usize, usize)> {
    ns.iter()
        .flat_map(|&n| ks.iter().map(move |&k| (n, k)))
        .collect()
}

/// KleidiAI's getter formulas for one provider, which [`getters_follow`] checks.
struct Formulas<'a> {
    /// The source strides `(n, k)` of `n` columns of `k` rows.
    source_strides: &'a dyn Fn(usize, usize) -> (usize, usize),
    /// The bytes of a packed block of `k` rows.
    block: &'a dyn Fn(usize) -> usize,
    /// A padded source's strides, and the source offset of column `n_idx` through them.
    padded: RhsStride,
    rhs_offset: &'a dyn Fn(usize) -> usize,
    /// The bias offset of column `n_idx`.
    bias_offset: &'a dyn Fn(usize) -> usize,
    /// Whether the table has a scale getter (4 bytes a column).
    scales: bool,
}

/// Provider `name`'s getters follow `f` at block width `nr`: its step; the strides and sizes of
/// the sources `ns` x `ks`, with a caller's wider packed stride too; the offsets of whole blocks;
/// the bias (and scale) offsets of `columns`. Returns how many values it checked.
fn getters_follow(
    api: &Api,
    name: &str,
    nr: usize,
    (ns, ks): (&[usize], &[usize]),
    columns: &[usize],
    f: Formulas,
) -> usize {
    assert_eq!((api.step().n, api.step().k), (nr, 0), "{name} get_step");
    let mut checked = 0;
    for (n, k) in pairs(ns, ks) {
        let s = api.rhs_stride(n, k);
        let strides = (f.source_strides)(n, k);
        assert_eq!((s.n, s.k), strides, "{name} get_rhs_stride n {n} k {k}");
        let ps = api.packed_stride(n, k);
        assert_eq!(ps.n, (f.block)(k), "{name} get_rhs_packed_stride k {k}");
        let size = |ps: &RhsPackedStride| api.packed_size(n, k, ps);
        assert_eq!(size(&ps), n.div_ceil(nr) * ps.n, "{name} size n {n} k {k}");
        let wide = RhsPackedStride { n: ps.n + 12 };
        assert_eq!(
            size(&wide),
            n.div_ceil(nr) * wide.n,
            "{name} wide n {n} k {k}"
        );
        checked += 4;
    }
    for block in [0, 1, 2, 7] {
        let n_idx = block * nr;
        let at = api.rhs_offset(n_idx, 0, &f.padded);
        assert_eq!(at, (f.rhs_offset)(n_idx), "{name} get_rhs_offset");
        let ps = api.packed_stride(9 * nr, 5);
        let at = api.packed_offset(n_idx, 0, &ps);
        assert_eq!(at, block * ps.n, "{name} get_rhs_packed_offset");
        checked += 2;
    }
    let has_scales = api.0.get_scale_n_offset.is_some();
    assert_eq!(has_scales, f.scales, "{name} get_scale_n_offset");
    for &n_idx in columns {
        let at = api.bias_offset(n_idx);
        assert_eq!(at, (f.bias_offset)(n_idx), "{name} get_bias_n_offset");
        checked += 1;
        if f.scales {
            let at = api.scale_offset(n_idx);
            assert_eq!(at, 4 * n_idx, "{name} get_scale_n_offset");
            checked += 1;
        }
    }
    checked
}

/// Shapes around the block and pair edges.
fn shapes(nr: usize) -> Vec<(usize, usize)> {
    let ns = [1, 7, 8, 9, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr];
    let ks = [1, 2, 3, 7, 8, 9, 16, 17];
    pairs(&ns, &ks)
}

#[test]
fn packs_equal_reference() {
    let api = api();
    let nr = expected_nr();
    let mut rng = Rng::new(0x51ed);
    let mut cases = 0;
    for (n, k) in shapes(nr) {
        for with_bias in [true, false] {
            for extra_row in [0, 3] {
                let rhs_row = n + extra_row;
                let rhs = words(&mut rng, k * rhs_row);
                let bias = words(&mut rng, n);
                let expected = reference(n, k, nr, &rhs, rhs_row, with_bias.then_some(&bias[..]));
                let ps = api.packed_stride(n, k);
                let size = api.packed_size(n, k, &ps);
                assert_eq!(size, expected.len(), "size n {n} k {k}");
                for edge in EDGES {
                    // The last row ends at its last column: no read past it is allowed.
                    let src = Guarded::from_bytes(&bytes(&rhs[..(k - 1) * rhs_row + n]), edge);
                    let b = Guarded::from_bytes(&bytes(&bias), edge);
                    let mut out = Guarded::from_bytes(&vec![0xa5; size], edge);
                    let bias_ptr = if with_bias { b.ptr() } else { ptr::null() };
                    // SAFETY: the buffers have the sizes the getters give.
                    unsafe {
                        api.run_strided(
                            (n, k),
                            (
                                src.ptr(),
                                RhsStride {
                                    n: 2,
                                    k: 2 * rhs_row,
                                },
                            ),
                            bias_ptr,
                            out.mut_ptr(),
                            ps.n,
                        )
                    };
                    assert!(
                        out.bytes() == &expected[..],
                        "n {n} k {k} bias {with_bias} row {rhs_row} edge {edge:?} (nr {nr})"
                    );
                    cases += 1;
                }
            }
        }
    }
    eprintln!("{cases} packings equal the reference (nr {nr})");
}

/// A random `n` x `k` source (rows `n` values apart) and bias, with its strides and whole packing.
struct Packing {
    n: usize,
    k: usize,
    rhs: Vec<u8>,
    bias: Option<Vec<u8>>,
    rs: RhsStride,
    ps: RhsPackedStride,
    whole: Vec<u8>,
}

impl Packing {
    fn new(api: &Api, (n, k): (usize, usize), rng: &mut Rng, with_bias: bool) -> Self {
        let rhs = bytes(&words(rng, k * n));
        let bias = with_bias.then(|| bytes(&words(rng, n)));
        let (ps, rs) = (api.packed_stride(n, k), api.rhs_stride(n, k));
        let mut p = Packing {
            n,
            k,
            rhs,
            bias,
            rs,
            ps,
            whole: Vec::new(),
        };
        let mut whole = vec![0u8; api.packed_size(n, k, &p.ps)];
        // SAFETY: `whole` has the packed size.
        unsafe { p.pack_columns(api, 0, n, whole.as_mut_ptr()) };
        p.whole = whole;
        p
    }

    /// Packs columns `n0..n0 + cols` into `out`, each pointer offset by the table's getters (as
    /// multi-threaded callers do).
    ///
    /// # Safety
    /// `out` holds the whole packing's size.
    unsafe fn pack_columns(&self, api: &Api, n0: usize, cols: usize, out: *mut u8) {
        assert!(n0 + cols <= self.n);
        let rhs = self.rhs[api.rhs_offset(n0, 0, &self.rs)..].as_ptr();
        let bias = self
            .bias
            .as_ref()
            .map_or(ptr::null(), |b| b[api.bias_offset(n0)..].as_ptr());
        // SAFETY: the source's offset columns are in `rhs`, their blocks fit in the rest of `out`.
        unsafe {
            let out = out.add(api.packed_offset(n0, 0, &self.ps));
            api.run_strided(
                (cols, self.k),
                (rhs, RhsStride { n: 2, k: self.rs.k }),
                bias,
                out,
                self.ps.n,
            )
        }
    }
}

/// Column slices packed through the offset getters (as multi-threaded callers do) equal the
/// same blocks of one whole packing.
#[test]
fn slices_equal_whole() {
    let api = api();
    let nr = expected_nr();
    let step = api.step().n;
    let mut rng = Rng::new(7);
    let mut cases = 0;
    for (n, k) in [(3 * nr + 5, 9), (4 * nr, 4), (nr + 1, 1)] {
        let p = Packing::new(&api, (n, k), &mut rng, true);
        for width in [step, 2 * step] {
            let mut sliced = vec![0u8; p.whole.len()];
            for n0 in (0..n).step_by(width) {
                // SAFETY: `sliced` has the whole packing's size.
                unsafe { p.pack_columns(&api, n0, width.min(n - n0), sliced.as_mut_ptr()) };
            }
            assert_eq!(sliced, p.whole, "n {n} k {k} slices of {width}");
            cases += 1;
        }
    }
    eprintln!("{cases} slicings equal the whole packing (nr {nr})");
}

/// Threads packing disjoint slices at once produce the whole packing (no shared state).
#[test]
fn threads_pack_disjoint_slices() {
    let nr = expected_nr();
    let n = 8 * nr + 3;
    let p = Packing::new(&api(), (n, 11), &mut Rng::new(99), false);
    let mut sliced = vec![0u8; p.whole.len()];
    let out = sliced.as_mut_ptr() as usize;
    std::thread::scope(|s| {
        for t in 0..n.div_ceil(nr) {
            let p = &p;
            s.spawn(move || {
                let n0 = t * nr;
                // SAFETY: `sliced` has the whole packing's size; each thread writes its own block.
                unsafe { p.pack_columns(&api(), n0, nr.min(n - n0), out as *mut u8) }
            });
        }
    });
    assert_eq!(sliced, p.whole);
}

// ---------------------------------------------------------------------------------------------
// The SME packers: f32 (`kai_matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme`) and 16-bit
// (`kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`, the format of [`reference`] with nr =
// 4 x vscale of SME)

const SME_KXN: &str = "kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme";
const SME_NXK: &str = "kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme";
const SME_X16: &str = "kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme";

/// A provider: C name, provider, N x K source, and what sets it apart in its group.
type Provider<T> = (
    &'static str,
    extern "C" fn() -> kai_matmul_pack_rhs_uker_api,
    bool,
    T,
);

/// The SME providers, each with the bytes of a value (and of a bias).
const SME_PROVIDERS: [Provider<usize>; 3] = [
    (
        SME_KXN,
        kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme,
        false,
        4,
    ),
    (
        SME_NXK,
        kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme,
        true,
        4,
    ),
    (
        SME_X16,
        kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme,
        false,
        2,
    ),
];

/// The f32 SME format, from its description: per block of `nr` columns, `nr` biases, then per
/// K row the `nr` values of its columns; what lies past `n` or in a missing bias is zero. The
/// source holds `rhs[kk * row + c]` (K x N) or `rhs[c * row + kk]` (N x K).
fn sme_reference(
    (n, k, nr): (usize, usize, usize),
    (rhs, row, nxk): (&[u32], usize, bool),
    bias: Option<&[u32]>,
) -> Vec<u8> {
    let mut out: Vec<u32> = Vec::new();
    for block in 0..n.div_ceil(nr) {
        let cols = (block * nr..block * nr + nr).map(|c| (c < n).then_some(c));
        out.extend(
            cols.clone()
                .map(|c| c.and_then(|c| bias.map(|b| b[c])).unwrap_or(0)),
        );
        for kk in 0..k {
            out.extend(cols.clone().map(|c| {
                c.map_or(0, |c| {
                    if nxk {
                        rhs[c * row + kk]
                    } else {
                        rhs[kk * row + c]
                    }
                })
            }));
        }
    }
    support::sme_pack::le_bytes(&out)
}

/// The expected packing of an SME provider of value size `bytes` (bit patterns in `u32`s).
fn sme_expected(
    (n, k, nr): (usize, usize, usize),
    (rhs, row, nxk, bytes): (&[u32], usize, bool, usize),
    bias: Option<&[u32]>,
) -> Vec<u8> {
    if bytes == 4 {
        return sme_reference((n, k, nr), (rhs, row, nxk), bias);
    }
    let half = |v: &[u32]| v.iter().map(|&x| x as u16).collect::<Vec<_>>();
    let bias = bias.map(half);
    reference(n, k, nr, &half(rhs), row, bias.as_deref())
}

/// The SME packers' getters follow KleidiAI's formulas at the streaming length: nr = 4 x vscale,
/// a block `nr * (1 + roundup(k, kr))` values (kr = 4 / value bytes), source strides by
/// orientation, and no bias-offset assumption.
#[test]
fn sme_getters_have_kleidiai_values() {
    let nr = support::sme_pack::svl32();
    let mut checked = 0;
    for (name, provider, nxk, b) in SME_PROVIDERS {
        let kr = 4 / b;
        let f = Formulas {
            source_strides: &|n, k| if nxk { (b * k, b) } else { (b, b * n) },
            block: &|k| nr * (b + b * k.div_ceil(kr) * kr),
            padded: RhsStride { n: 1000, k: 4 },
            rhs_offset: &|n_idx| if nxk { 1000 * n_idx } else { b * n_idx },
            // KleidiAI's get_bias_n_offset assumes nothing about the column.
            bias_offset: &|n_idx| b * n_idx,
            scales: false,
        };
        let ns = [1, nr - 1, nr, nr + 1, 5 * nr + 3];
        let ks = [0, 1, 2, 3, 8, 9, 255, 4097];
        let columns = [0, 1, 3, nr + 1];
        checked += getters_follow(&Api(provider()), name, nr, (&ns, &ks), &columns, f);
    }
    eprintln!("{checked} getter values checked (nr {nr})");
}

/// Every shape around the block (and, for 16-bit values, pair) edges, K x N and N x K, with and
/// without a bias (rkai packs zeros for a null one), padded source rows, against each guard
/// edge, whole and in column slices moved through the offset getters; then a caller's wider
/// block stride. Above 512-bit streaming lengths (unless `RKAI_SME_CASES=all`) a reduced set
/// reaching a partial block, several blocks, odd and even K.
#[test]
fn sme_packs_equal_reference() {
    use support::sme_pack::{self, le_bytes};
    let nr = sme_pack::svl32();
    let (ns, ks): (Vec<usize>, &[usize]) = if sme_pack::full_sweep() {
        (
            vec![1, 2, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr],
            &[0, 1, 2, 3, 7, 8, 9, 17],
        )
    } else {
        (vec![nr - 1, 2 * nr + 3], &[0, 3, 8])
    };
    let specials16 = [0x7e01, 0xfc00, 0x8000, 0x0001, 0x7c00];
    for (name, provider, nxk, b) in SME_PROVIDERS {
        let api = Api(provider());
        let specials = if b == 4 { &F32_SPECIALS } else { &specials16 };
        let bits = 8 * b as u32;
        // The source and bias as the packer reads them.
        let raw = |v: &[u32]| -> Vec<u8> {
            if b == 4 {
                le_bytes(v)
            } else {
                le_bytes(&v.iter().map(|&x| x as u16).collect::<Vec<_>>())
            }
        };
        let mut cases = 0;
        for (seed, &n) in ns.iter().enumerate() {
            for &k in ks {
                for (pad, with_bias) in [(0, true), (3, false)] {
                    let (lines, len) = if nxk { (n, k) } else { (k, n) };
                    let row = len + pad;
                    let seed = (seed * 100 + k) as u64;
                    let rhs = sme_pack::bit_patterns(lines * row, seed, bits, specials);
                    let bias = sme_pack::bit_patterns(n, seed + 1, bits, specials);
                    let bias = with_bias.then_some(&bias[..]);
                    let expect = sme_expected((n, k, nr), (&rhs, row, nxk, b), bias);
                    let what = format!("{name} n={n} k={k} pad={pad} bias={with_bias}");
                    let bias = match bias {
                        Some(v) => SweepBias::Values(raw(v)),
                        None => SweepBias::Null,
                    };
                    let source = Source {
                        shape: (n, k),
                        row,
                        nxk,
                        value_bytes: b,
                    };
                    cases +=
                        packs_equal_at_every_edge(&what, &api, &source, &raw(&rhs), &bias, &expect);
                }
            }
        }
        // A caller's wider block stride places each block there and leaves the gap alone.
        let (n, k) = (2 * nr + 1, 5);
        let rhs = sme_pack::bit_patterns(n * k, 5, bits, specials);
        let bias = sme_pack::bit_patterns(n, 6, bits, specials);
        let expect = sme_expected(
            (n, k, nr),
            (&rhs, if nxk { k } else { n }, nxk, b),
            Some(&bias),
        );
        let (src, bb, rs) = (raw(&rhs), raw(&bias), api.rhs_stride(n, k));
        let pack = |shape: Option<(usize, usize)>, out: *mut u8, stride: usize| {
            let shape = shape.unwrap_or((n, k));
            // SAFETY: three blocks of `stride` bytes (nothing for n == 0); the source and bias
            // hold the problem.
            unsafe { api.run_strided(shape, (src.as_ptr(), rs), bb.as_ptr(), out, stride) };
        };
        let block = api.packed_stride(n, k).n;
        wide_stride_and_empty(name, (block, &expect), &[(0, k)], pack);
        eprintln!("{name}: {cases} packings equal the reference (nr {nr})");
    }
}

// ---------------------------------------------------------------------------------------------
// The 8-bit SME packers (`kai_matmul_pack_rhs_{kxn,nxk}_x8p4vsx4_x8_sme`)

const X8_KXN: &str = "kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme";
const X8_NXK: &str = "kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme";

/// The two 8-bit SME providers: (C name, provider, N x K source).
const X8_PROVIDERS: [(&str, extern "C" fn() -> kai_matmul_pack_rhs_uker_api, bool); 2] = [
    (X8_KXN, kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme, false),
    (X8_NXK, kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme, true),
];

/// The 8-bit SME format, from its description: per block of `nr` columns, per step of four K
/// values, the step's four bytes of each column in turn; what lies past `n` or `k` is zero. The
/// source holds `rhs[kk * row + c]` (K x N) or `rhs[c * row + kk]` (N x K).
fn x8_reference(
    (n, k, nr): (usize, usize, usize),
    (rhs, row, nxk): (&[u8], usize, bool),
) -> Vec<u8> {
    let mut out = Vec::new();
    for block in 0..n.div_ceil(nr) {
        for step in 0..k.div_ceil(4) {
            for c in block * nr..block * nr + nr {
                for kk in 4 * step..4 * step + 4 {
                    out.push(match (c < n, kk < k) {
                        (true, true) if nxk => rhs[c * row + kk],
                        (true, true) => rhs[kk * row + c],
                        _ => 0,
                    });
                }
            }
        }
    }
    out
}

/// The 8-bit packers' getters follow KleidiAI's formulas at the streaming length: nr = 4 x
/// vscale, a block `nr * roundup(k, 4)` bytes, source strides by orientation, no scale getter and
/// a bias offset of 0 for every column (there is no bias).
#[test]
fn x8_getters_have_kleidiai_values() {
    let nr = support::sme_pack::svl32();
    let mut checked = 0;
    for (name, provider, nxk) in X8_PROVIDERS {
        let f = Formulas {
            source_strides: &|n, k| if nxk { (k, 1) } else { (1, n) },
            block: &|k| nr * k.div_ceil(4) * 4,
            padded: RhsStride { n: 1000, k: 4 },
            rhs_offset: &|n_idx| if nxk { 1000 * n_idx } else { n_idx },
            bias_offset: &|_| 0,
            scales: false,
        };
        let ns = [1, nr - 1, nr, nr + 1, 5 * nr + 3];
        let ks = [0, 1, 2, 3, 4, 5, 8, 9, 255, 4097];
        let columns = [0, 1, 3, nr + 1];
        checked += getters_follow(&Api(provider()), name, nr, (&ns, &ks), &columns, f);
    }
    eprintln!("{checked} getter values checked (nr {nr})");
}

/// Every shape around the block and step edges, K x N and N x K, padded source rows, against
/// each guard edge, whole and in column slices moved through the offset getters (a bias pointer
/// is ignored); then a caller's wider block stride, and `n == 0` writing nothing.
#[test]
fn x8_packs_equal_reference() {
    use support::sme_pack;
    let nr = sme_pack::svl32();
    let specials = [0x00, 0xff, 0x80, 0x7f, 0x01];
    for (name, provider, nxk) in X8_PROVIDERS {
        let api = Api(provider());
        let mut cases = 0;
        for (seed, &n) in [1, 2, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr]
            .iter()
            .enumerate()
        {
            for k in [0, 1, 2, 3, 4, 5, 7, 8, 9, 17] {
                for pad in [0, 3] {
                    let (lines, len) = if nxk { (n, k) } else { (k, n) };
                    let row = len + pad;
                    let seed = (seed * 100 + k) as u64;
                    let rhs: Vec<u8> = sme_pack::bit_patterns(lines * row, seed, 8, &specials)
                        .iter()
                        .map(|&v| v as u8)
                        .collect();
                    let expect = x8_reference((n, k, nr), (&rhs, row, nxk));
                    let what = format!("{name} n={n} k={k} pad={pad}");
                    let source = Source {
                        shape: (n, k),
                        row,
                        nxk,
                        value_bytes: 1,
                    };
                    let bias = SweepBias::NeverRead;
                    cases += packs_equal_at_every_edge(&what, &api, &source, &rhs, &bias, &expect);
                }
            }
        }
        // A caller's wider block stride places each block there and leaves the gap alone.
        let (n, k) = (2 * nr + 1, 5);
        let rhs: Vec<u8> = (0..n * k).map(|i| (i * 37 + 11) as u8).collect();
        let expect = x8_reference((n, k, nr), (&rhs, if nxk { k } else { n }, nxk));
        let rs = api.rhs_stride(n, k);
        let pack = |shape: Option<(usize, usize)>, out: *mut u8, stride: usize| {
            let shape = shape.unwrap_or((n, k));
            // SAFETY: three blocks of `stride` bytes (nothing for n == 0); the source holds the
            // problem.
            unsafe { api.run_strided(shape, (rhs.as_ptr(), rs), ptr::null(), out, stride) };
        };
        let block = api.packed_stride(n, k).n;
        wide_stride_and_empty(name, (block, &expect), &[(0, k)], pack);
        eprintln!("{name}: {cases} packings equal the reference (nr {nr})");
    }
}

/// The bias a packing of [`packs_equal_at_every_edge`] is given.
enum SweepBias {
    /// `n` values, as the packer reads them.
    Values(Vec<u8>),
    /// A null pointer (no bias: zeros).
    Null,
    /// A pointer that must never be read (a packer without a bias).
    NeverRead,
}

/// A packer's source: `shape` (n, k) held as lines of `row` values (`n` lines of K values for
/// N x K, `k` lines of N values for K x N) of `value_bytes` bytes each.
struct Source {
    shape: (usize, usize),
    row: usize,
    nxk: bool,
    value_bytes: usize,
}

/// `api` packs `source` (its bytes `values`, at least the used lines) with `bias` into exactly
/// `expect`, against each guard edge, whole and (when there is more than one block) in column
/// slices moved through the offset getters. Returns the cases (edges) checked.
fn packs_equal_at_every_edge(
    what: &str,
    api: &Api,
    source: &Source,
    values: &[u8],
    bias: &SweepBias,
    expect: &[u8],
) -> usize {
    use support::sme_pack::{self, slices};
    let nr = sme_pack::svl32();
    let Source {
        shape: (n, k),
        row,
        nxk,
        value_bytes: b,
    } = *source;
    let ps = api.packed_stride(n, k);
    let size = api.packed_size(n, k, &ps);
    assert_eq!(size, expect.len(), "{what}: size");
    let rs = RhsStride {
        n: if nxk { b * row } else { b },
        k: if nxk { b } else { b * row },
    };
    // The last source line ends at its last value.
    let (lines, len) = if nxk { (n, k) } else { (k, n) };
    let used = if lines == 0 {
        0
    } else {
        b * ((lines - 1) * row + len)
    };
    for edge in EDGES {
        let src = Guarded::from_bytes(&values[..used], edge);
        let bias_values = match bias {
            SweepBias::Values(v) => Some(Guarded::from_bytes(v, edge)),
            SweepBias::Null | SweepBias::NeverRead => None,
        };
        // SAFETY (closure): the source, bias and output hold the whole problem; the offsets
        // come from the getters for columns n0..n0 + cols; a `NeverRead` bias is not read.
        let pack = |out: *mut u8, (n0, cols): (usize, usize)| unsafe {
            let source = src.ptr().add(api.rhs_offset(n0, 0, &rs));
            let bias = match (&bias_values, bias) {
                (Some(g), _) => g.ptr().add(api.bias_offset(n0)),
                (None, SweepBias::NeverRead) => 16 as *const u8,
                (None, _) => ptr::null(),
            };
            let out = out.add(api.packed_offset(n0, 0, &ps));
            api.run_strided((cols, k), (source, rs), bias, out, ps.n)
        };
        sme_pack::packs_equal(what, size, edge, expect, |o| pack(o, (0, n)));
        if n > nr {
            let cuts = slices(n, nr);
            sme_pack::slices_equal(what, size, edge, expect, &cuts, pack);
        }
    }
    EDGES.len()
}

/// A caller's wider block stride places each of the three blocks of a packing at its place and
/// leaves the gaps alone; then the empty `shapes` write nothing. `pack(shape, out, stride)` packs
/// `shape` (the three blocks' or an empty one) into `out` with block stride `stride`; `expect`
/// is the three blocks packed at the getters' stride `block`.
fn wide_stride_and_empty(
    name: &str,
    (block, expect): (usize, &[u8]),
    shapes: &[(usize, usize)],
    pack: impl Fn(Option<(usize, usize)>, *mut u8, usize),
) {
    use support::sme_pack::FILL;
    let wide = block + 20;
    let mut out = vec![FILL; 3 * wide];
    pack(None, out.as_mut_ptr(), wide);
    for blk in 0..3 {
        let got = &out[blk * wide..];
        let want = &expect[blk * block..(blk + 1) * block];
        assert_eq!(&got[..block], want, "{name} block {blk}");
        assert!(got[block..wide].iter().all(|&x| x == FILL), "{name} gap");
    }
    for &shape in shapes {
        let mut none = Guarded::from_bytes(&[FILL; 64], EDGES[0]);
        pack(Some(shape), none.mut_ptr(), block);
        let untouched = none.bytes().iter().all(|&x| x == FILL);
        assert!(untouched, "{name} wrote for the empty shape {shape:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The int8 SME packer (`kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme`)

const QSI8: &str = "kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme";

fn qsi8_api() -> Api {
    Api(kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme())
}

/// The operands of one int8 packing: the source (`k` rows of `row` bytes), biases, scales and
/// the two globals (`k_sum_scale_global`, `scale_global`); `None` passes a null pointer.
struct Qsi8Problem {
    n: usize,
    k: usize,
    row: usize,
    rhs: Vec<u8>,
    bias: Option<Vec<i32>>,
    scale: Option<Vec<f32>>,
    k_sum_scale: Option<i32>,
    scale_global: Option<f32>,
}

impl Qsi8Problem {
    fn new(rng: &mut Rng, (n, k, pad): (usize, usize, usize)) -> Self {
        let row = n + pad;
        Qsi8Problem {
            n,
            k,
            row,
            rhs: (0..k * row).map(|_| rng.next_u64() as u8).collect(),
            bias: Some((0..n).map(|_| rng.next_u64() as i32).collect()),
            scale: Some((0..n).map(|_| rng.f32(-4.0, 4.0)).collect()),
            k_sum_scale: Some(rng.range_i32(-300, 300)),
            scale_global: Some(rng.f32(0.01, 2.0)),
        }
    }

    /// The format, from its description: per block of `nr` columns, `nr` biases
    /// `bias[j] + k_sum_scale * sum_k rhs[k][j]` (wrapping), per step of 4 K rows the 4 values
    /// of each column in turn (zero past `k` and past `n`), `nr` scales
    /// `scale[j] * scale_global`; a null bias is zeros, a null scale leaves [`FILL`] bytes.
    fn reference(&self, nr: usize) -> Vec<u8> {
        use support::sme_pack::FILL;
        let kp = self.k.div_ceil(4) * 4;
        let value = |kk: usize, j: usize| match kk < self.k && j < self.n {
            true => self.rhs[kk * self.row + j] as i8,
            false => 0,
        };
        let mut out = Vec::new();
        for block in 0..self.n.div_ceil(nr) {
            let cols = block * nr..block * nr + nr;
            for j in cols.clone() {
                let sum = (0..self.k).map(|kk| i32::from(value(kk, j))).sum::<i32>();
                let bias = match (j < self.n, &self.bias) {
                    (true, Some(b)) => b[j],
                    _ => 0,
                };
                let mul = self.k_sum_scale.unwrap();
                out.extend(bias.wrapping_add(sum.wrapping_mul(mul)).to_le_bytes());
            }
            for step in 0..kp / 4 {
                for j in cols.clone() {
                    out.extend((0..4).map(|r| value(4 * step + r, j) as u8));
                }
            }
            for j in cols {
                match &self.scale {
                    Some(s) => {
                        let v = if j < self.n { s[j] } else { 0.0 };
                        let g = self.scale_global.unwrap();
                        out.extend(rkai_ukernels::float::fmul(v, g).to_bits().to_le_bytes());
                    }
                    None => out.extend([FILL; 4]),
                }
            }
        }
        out
    }

    /// Packs columns `n0..n0 + cols` (the pointers moved by the table's offset getters) into the
    /// packed buffer `out` with block stride `packed_stride`.
    ///
    /// # Safety
    /// The source pointer holds `k` rows of `row` bytes, the bias and scale (when given) `n`
    /// values, and `out` the blocks of the columns.
    #[allow(clippy::too_many_arguments)]
    unsafe fn pack(
        &self,
        api: &Api,
        (rhs, bias, scale): (*const u8, *const u8, *const u8),
        out: *mut u8,
        packed_stride: usize,
        (n0, cols): (usize, usize),
    ) {
        let rs = api.rhs_stride(self.n, self.k);
        let rs = RhsStride {
            n: rs.n,
            k: self.row,
        };
        let ps = RhsPackedStride { n: packed_stride };
        let ksum = self
            .k_sum_scale
            .as_ref()
            .map_or(ptr::null(), |v| ptr::from_ref(v).cast());
        let sg = self
            .scale_global
            .as_ref()
            .map_or(ptr::null(), |v| ptr::from_ref(v).cast());
        let moved = |p: *const u8, off: usize| if p.is_null() { p } else { p.wrapping_add(off) };
        let o = RhsOperands {
            rhs: moved(rhs, api.rhs_offset(n0, 0, &rs)),
            stride: rs,
            bias: moved(bias, api.bias_offset(n0)),
            k_sum_scale: ksum,
            scale: moved(scale, api.scale_offset(n0)),
            scale_global: sg,
        };
        let out = out.wrapping_add(api.packed_offset(n0, 0, &ps));
        // SAFETY: forwarded contract.
        unsafe { api.run_with((cols, self.k, 0), &o, out, packed_stride) }
    }
}

/// The int8 packer's getters follow KleidiAI's formulas at the streaming length: nr = 4 x
/// vscale, a block `nr * (4 + roundup(k, 4) + 4)` bytes, a K x N byte source, bias and scale
/// offsets with no assumption.
#[test]
fn qsi8_getters_have_kleidiai_values() {
    let nr = support::sme_pack::svl32();
    let api = qsi8_api();
    let f = Formulas {
        source_strides: &|n, _| (1, n),
        block: &|k| nr * (8 + k.div_ceil(4) * 4),
        // KleidiAI ignores the stride here.
        padded: RhsStride { n: 1000, k: 4 },
        rhs_offset: &|n_idx| n_idx,
        // KleidiAI's bias and scale offsets assume nothing about the column.
        bias_offset: &|n_idx| 4 * n_idx,
        scales: true,
    };
    let ns = [1, nr - 1, nr, nr + 1, 5 * nr + 3];
    let ks = [0, 1, 2, 3, 4, 5, 8, 9, 255, 4097];
    let columns = [0, 1, 3, nr + 1, 9 * nr];
    // The step and the scale getter's presence count too, as this test always counted them.
    let checked = 2 + getters_follow(&api, QSI8, nr, (&ns, &ks), &columns, f);
    // KleidiAI's roundup of K wraps in size_t.
    assert_eq!(api.packed_stride(1, usize::MAX - 1).n, 8 * nr, "wrapped K");
    eprintln!("{QSI8}: {checked} getter values checked (nr {nr})");
}

/// Shapes around the block and K-step edges (every one up to SVL 512 or with
/// `RKAI_SME_CASES=all`, else one full block, a partial one and a slice), padded source rows and
/// the extremes of the globals, against each guard edge, whole and in column slices moved
/// through the offset getters; a null bias packs zero biases, a null scale leaves the scales
/// unwritten.
#[test]
fn qsi8_packs_equal_reference() {
    use support::sme_pack::{self, slices};
    let nr = sme_pack::svl32();
    let api = qsi8_api();
    let (ns, ks): (Vec<usize>, Vec<usize>) = if sme_pack::full_sweep() {
        (
            vec![1, 2, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr],
            vec![1, 2, 3, 4, 5, 7, 8, 9, 17],
        )
    } else {
        (vec![nr, 2 * nr + 3], vec![1, 5, 8])
    };
    let mut rng = Rng::new(0x9518);
    let mut cases = 0;
    for (i, &n) in ns.iter().enumerate() {
        for (j, &k) in ks.iter().enumerate() {
            let variant = i + j;
            let mut p = Qsi8Problem::new(&mut rng, (n, k, [0, 3][variant % 2]));
            match variant % 4 {
                1 => p.bias = None,
                2 => p.scale = None,
                _ => {}
            }
            match variant % 5 {
                1 => p.k_sum_scale = Some(i32::MIN),
                2 => p.scale_global = Some(f32::INFINITY),
                3 => p.scale_global = Some(f32::NAN),
                4 => p.k_sum_scale = Some(i32::MAX),
                _ => {}
            }
            let expect = p.reference(nr);
            let ps = api.packed_stride(n, k);
            let size = api.packed_size(n, k, &ps);
            assert_eq!(size, expect.len(), "size n {n} k {k}");
            // The last source row ends at its last column.
            let used = (k - 1) * p.row + n;
            for edge in EDGES {
                let src = Guarded::from_bytes(&p.rhs[..used], edge);
                let b = p.bias.as_ref().map(|b| {
                    Guarded::from_bytes(
                        &sme_pack::le_bytes(&b.iter().map(|&v| v as u32).collect::<Vec<_>>()),
                        edge,
                    )
                });
                let s = p
                    .scale
                    .as_ref()
                    .map(|s| Guarded::from_bytes(&sme_pack::le_bytes(s), edge));
                let ptrs = (
                    src.ptr(),
                    b.as_ref().map_or(ptr::null(), |b| b.ptr()),
                    s.as_ref().map_or(ptr::null(), |s| s.ptr()),
                );
                // SAFETY (closure): the buffers hold the whole problem and its packing.
                let pack = |out: *mut u8, cols: (usize, usize)| unsafe {
                    p.pack(&api, ptrs, out, ps.n, cols)
                };
                let what = format!("{QSI8} n={n} k={k} row={} variant={variant}", p.row);
                sme_pack::packs_equal(&what, size, edge, &expect, |o| pack(o, (0, n)));
                if n > nr {
                    sme_pack::slices_equal(&what, size, edge, &expect, &slices(n, nr), pack);
                }
                cases += 1;
            }
        }
    }
    // A caller's wider block stride places each block there and leaves the gap alone; no
    // column or no row: nothing read or written, as in KleidiAI (null globals included).
    let p = Qsi8Problem::new(&mut rng, (2 * nr + 1, 6, 0));
    let (b, sc) = (p.bias.as_ref().unwrap(), p.scale.as_ref().unwrap());
    let pack = |shape: Option<(usize, usize)>, out: *mut u8, stride: usize| match shape {
        // SAFETY: three blocks of `stride` bytes; the source, bias and scales hold the problem.
        None => unsafe {
            let ptrs = (p.rhs.as_ptr(), b.as_ptr().cast(), sc.as_ptr().cast());
            p.pack(&api, ptrs, out, stride, (0, p.n))
        },
        Some((n, k)) => {
            let mut empty = Qsi8Problem::new(&mut Rng::new(1), (n, k, 0));
            (empty.k_sum_scale, empty.scale_global) = (None, None);
            let nulls = (ptr::null(), ptr::null(), ptr::null());
            // SAFETY: nothing is read or written for an empty shape.
            unsafe { empty.pack(&api, nulls, out, stride, (0, n)) }
        }
    };
    let block = api.packed_stride(p.n, p.k).n;
    wide_stride_and_empty(QSI8, (block, &p.reference(nr)), &[(0, 4), (nr, 0)], pack);
    eprintln!("{QSI8}: {cases} packings equal the reference (nr {nr})");
}

/// A run of the int8 packer with one global operand null.
fn qsi8_null_global(k_sum_scale: bool) {
    let api = qsi8_api();
    let mut p = Qsi8Problem::new(&mut Rng::new(3), (3, 4, 0));
    if k_sum_scale {
        p.k_sum_scale = None;
    } else {
        p.scale_global = None;
    }
    let mut out = vec![0u8; api.packed_size(3, 4, &api.packed_stride(3, 4))];
    let (b, s) = (p.bias.as_ref().unwrap(), p.scale.as_ref().unwrap());
    let ptrs = (p.rhs.as_ptr(), b.as_ptr().cast(), s.as_ptr().cast());
    let ps = api.packed_stride(3, 4).n;
    // SAFETY: the buffers hold the problem; the null global aborts first.
    unsafe { p.pack(&api, ptrs, out.as_mut_ptr(), ps, (0, 3)) };
}

/// The offset getter a death case calls: the source offset with the strides of 64 columns of
/// that many rows, or the packed offset (64 columns of 4 rows).
#[derive(Clone, Copy)]
enum At {
    Rhs(usize),
    Packed,
}

/// Calls `api`'s offset getter `at` at column `n_idx(n step)` and row `k_idx`, a start KleidiAI
/// assumes away.
fn offset_off_step(api: Api, at: At, n_idx: fn(usize) -> usize, k_idx: usize) {
    let n_idx = n_idx(api.step().n);
    match at {
        At::Rhs(k) => api.rhs_offset(n_idx, k_idx, &api.rhs_stride(64, k)),
        At::Packed => api.packed_offset(n_idx, k_idx, &api.packed_stride(64, 4)),
    };
}

/// Death cases of the offset getters, a row each: `case name, C name, condition => provider's
/// table, getter, start column from the n step, start row;` (the closures capture nothing, so
/// each row becomes a `fn()`).
macro_rules! offset_cases {
    ($($name:literal, $stem:expr, $condition:expr => $api:expr, $at:expr, $n:expr, $k:expr;)*) => {
        vec![$(
            ($name, $stem, $condition, (|| offset_off_step($api, $at, $n, $k)) as fn()),
        )*]
    };
}

/// KleidiAI assumes aligned start columns and an unsplit K; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    const N: &str = "index->n % get_n_step() == 0";
    const NR: &str = "index->n % get_nr() == 0";
    const K: &str = "index->k == 0";
    fn sme(i: usize) -> Api {
        Api((SME_PROVIDERS[i].1)())
    }
    fn x8(i: usize) -> Api {
        Api((X8_PROVIDERS[i].1)())
    }
    let mut cases = offset_cases![
        "x8_kxn_rhs_offset_n", X8_KXN, NR => x8(0), At::Rhs(1), |_| 1, 0;
        "x8_kxn_rhs_offset_k", X8_KXN, K => x8(0), At::Rhs(8), |_| 0, 4;
        "x8_kxn_packed_offset_n", X8_KXN, NR => x8(0), At::Packed, |s| s + 1, 0;
        "x8_kxn_packed_offset_k", X8_KXN, K => x8(0), At::Packed, |_| 0, 3;
        "x8_nxk_rhs_offset_n", X8_NXK, NR => x8(1), At::Rhs(4), |s| s - 1, 0;
        "x8_nxk_rhs_offset_k", X8_NXK, K => x8(1), At::Rhs(4), |_| 0, 1;
        "x8_nxk_packed_offset_n", X8_NXK, NR => x8(1), At::Packed, |s| s - 1, 0;
        "x8_nxk_packed_offset_k", X8_NXK, K => x8(1), At::Packed, |_| 0, 4;
        "sme_kxn_rhs_offset_n", SME_KXN, N => sme(0), At::Rhs(1), |_| 1, 0;
        "sme_kxn_packed_offset_k", SME_KXN, K => sme(0), At::Packed, |_| 0, 3;
        "sme_nxk_rhs_offset_k", SME_NXK, K => sme(1), At::Rhs(4), |_| 0, 1;
        "sme_nxk_packed_offset_n", SME_NXK, N => sme(1), At::Packed, |s| s - 1, 0;
        "sme_x16_rhs_offset_n", SME_X16, N => sme(2), At::Rhs(1), |_| 2, 0;
        "sme_x16_rhs_offset_k", SME_X16, K => sme(2), At::Rhs(4), |_| 0, 2;
        "sme_x16_packed_offset_n", SME_X16, N => sme(2), At::Packed, |s| s + 1, 0;
        "sme_x16_packed_offset_k", SME_X16, K => sme(2), At::Packed, |_| 0, 1;
        "rhs_offset_n", NAME, N => api(), At::Rhs(1), |_| 1, 0;
        "rhs_offset_k", NAME, K => api(), At::Rhs(4), |_| 0, 2;
        "packed_offset_n", NAME, N => api(), At::Packed, |s| s + 1, 0;
        "packed_offset_k", NAME, K => api(), At::Packed, |_| 0, 1;
        "qsi8_rhs_offset_n", QSI8, N => qsi8_api(), At::Rhs(1), |_| 1, 0;
        "qsi8_rhs_offset_k", QSI8, K => qsi8_api(), At::Rhs(8), |_| 0, 4;
        "qsi8_packed_offset_n", QSI8, N => qsi8_api(), At::Packed, |s| s + 1, 0;
        "qsi8_packed_offset_k", QSI8, K => qsi8_api(), At::Packed, |_| 0, 1;
    ];
    let others: [support::death::Case<&str, &str>; 3] = [
        ("bias_offset_n", NAME, N, || {
            api().bias_offset(3);
        }),
        (
            "qsi8_null_k_sum_scale_global",
            QSI8,
            "args->operand.k_sum_scale_global.ptr != NULL",
            || qsi8_null_global(true),
        ),
        (
            "qsi8_null_scale_global",
            QSI8,
            "args->operand.scale_global.ptr != NULL",
            || qsi8_null_global(false),
        ),
    ];
    cases.extend(others);
    cases.extend(q4_violations());
    cases
}

death_tests!(violations, "assumptions");

// ---------------------------------------------------------------------------------------------
// The int4 SME packers (`kai_matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`)

const Q4_KXN_S: &str = "kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme";
const Q4_KXN_U: &str = "kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme";
const Q4_NXK_S: &str = "kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme";
const Q4_NXK_U: &str = "kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme";

/// The int4 providers, each with whether its source is unsigned (zero point 8).
const Q4_PROVIDERS: [Provider<bool>; 4] = {
    use rkai_capi::capi::exports::*;
    [
        (
            Q4_KXN_S,
            kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme,
            false,
            false,
        ),
        (
            Q4_KXN_U,
            kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme,
            false,
            true,
        ),
        (
            Q4_NXK_S,
            kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme,
            true,
            false,
        ),
        (
            Q4_NXK_U,
            kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme,
            true,
            true,
        ),
    ]
};

/// The int4 packers' nr: 8 x vscale, twice the streaming length in 32-bit lanes.
fn q4_nr() -> usize {
    2 * support::sme_pack::svl32()
}

/// An int4 RHS problem: `n` columns of `k` values as signed integers `w[c][kk]` (-8..=7), stored
/// K x N or N x K with `pad` spare bytes a source row (garbage, as is the unused nibble of a row
/// of odd length), biases, scales and the two global parameters.
struct Q4Problem {
    n: usize,
    k: usize,
    w: Vec<Vec<i8>>,
    bias: Vec<i32>,
    scale: Vec<f32>,
    k_sum_scale: i32,
    scale_global: f32,
}

impl Q4Problem {
    fn new((n, k): (usize, usize), rng: &mut Rng) -> Self {
        let w = (0..n)
            .map(|_| (0..k).map(|_| (rng.next_u64() % 16) as i8 - 8).collect())
            .collect();
        let bias = (0..n)
            .map(|i| match i % 5 {
                0 => i32::MAX - (rng.next_u64() % 4) as i32,
                1 => i32::MIN + (rng.next_u64() % 4) as i32,
                _ => rng.next_u64() as i32,
            })
            .collect();
        let scale = support::sme_pack::bit_patterns(n, rng.next_u64(), 32, &F32_SPECIALS)
            .into_iter()
            .map(f32::from_bits)
            .collect();
        // Large enough that the folded sums wrap now and then.
        let k_sum_scale = match rng.next_u64() % 3 {
            0 => -((rng.next_u64() % 200) as i32),
            1 => 0x3fff_fff1,
            _ => rng.next_u64() as i32,
        };
        Q4Problem {
            n,
            k,
            w,
            bias,
            scale,
            k_sum_scale,
            scale_global: rng.f32(-4.0, 4.0),
        }
    }

    /// The stored nibble of `v`: two's complement, or `v + 8` with a zero point of 8.
    fn stored(v: i8, unsigned: bool) -> u8 {
        if unsigned {
            (v + 8) as u8
        } else {
            v as u8 & 0x0f
        }
    }

    /// The source bytes: `lines` rows of `row` bytes (`row` at least the packed nibbles), every
    /// byte outside a value random.
    fn source(&self, nxk: bool, unsigned: bool, pad: usize, rng: &mut Rng) -> (Vec<u8>, usize) {
        let (lines, len) = if nxk {
            (self.n, self.k)
        } else {
            (self.k, self.n)
        };
        let row = len.div_ceil(2) + pad;
        let mut src: Vec<u8> = (0..lines * row).map(|_| rng.next_u64() as u8).collect();
        for line in 0..lines {
            for j in 0..len {
                let v = if nxk {
                    self.w[line][j]
                } else {
                    self.w[j][line]
                };
                let byte = &mut src[line * row + j / 2];
                let shift = 4 * (j % 2);
                *byte = (*byte & !(0x0f << shift)) | (Self::stored(v, unsigned) << shift);
            }
        }
        (src, row)
    }

    /// The packed bytes, from the format: per block of `nr` columns the biases plus
    /// `k_sum_scale` times the column sums (wrapping), the values by 4 K rows and column (two
    /// bytes: rows 0 and 1, then 2 and 3, low nibble first), K padded to 32, then the scales
    /// times `scale_global`; zeros past `n` and `k`.
    fn reference(&self, nr: usize) -> Vec<u8> {
        let rounded_k = self.k.div_ceil(32) * 32;
        let mut out = Vec::new();
        for block in 0..self.n.div_ceil(nr) {
            let cols: Vec<Option<usize>> = (block * nr..(block + 1) * nr)
                .map(|c| (c < self.n).then_some(c))
                .collect();
            for c in &cols {
                let b = c.map_or(0, |c| {
                    let sum: i32 = self.w[c].iter().map(|&v| i32::from(v)).sum();
                    self.bias[c].wrapping_add(self.k_sum_scale.wrapping_mul(sum))
                });
                out.extend_from_slice(&b.to_le_bytes());
            }
            for g in 0..rounded_k / 4 {
                for c in &cols {
                    let nib = |kk: usize| {
                        c.filter(|_| kk < self.k)
                            .map_or(0, |c| self.w[c][kk] as u8 & 0x0f)
                    };
                    out.push(nib(4 * g) | nib(4 * g + 1) << 4);
                    out.push(nib(4 * g + 2) | nib(4 * g + 3) << 4);
                }
            }
            // Arm's FMUL NaN rules, as KleidiAI's NEON multiply gives them.
            for c in &cols {
                let s = c.map_or(0.0, |c| {
                    rkai_ukernels::float::fmul(self.scale[c], self.scale_global)
                });
                out.extend_from_slice(&s.to_bits().to_le_bytes());
            }
        }
        out
    }
}

/// The int4 packers' getters follow KleidiAI's formulas at the streaming length: nr = 8 x
/// vscale, a block `nr * (4 + roundup(k, 32) / 2 + 4)` bytes, half-byte source strides by
/// orientation, and no assumption on the bias and scale offsets.
#[test]
fn qsi4_getters_have_kleidiai_values() {
    let nr = q4_nr();
    let mut checked = 0;
    for (name, provider, nxk, _) in Q4_PROVIDERS {
        let f = Formulas {
            source_strides: &|n, k| {
                if nxk {
                    (k.div_ceil(2), 0)
                } else {
                    (0, n.div_ceil(2))
                }
            },
            block: &|k| nr * (8 + k.div_ceil(32) * 16),
            padded: RhsStride { n: 1000, k: 3 },
            rhs_offset: &|n_idx| if nxk { 1000 * n_idx } else { n_idx / 2 },
            bias_offset: &|n_idx| 4 * n_idx,
            scales: true,
        };
        let ns = [1, 2, 3, nr - 1, nr, nr + 1, 5 * nr + 3];
        let ks = [0, 1, 2, 3, 31, 32, 33, 255, 4097];
        let columns = [0, 1, 3, nr + 1];
        checked += getters_follow(&Api(provider()), name, nr, (&ns, &ks), &columns, f);
    }
    eprintln!("{checked} getter values checked (nr {nr})");
}

/// Shapes around the block, 4-row group and 32-row padding edges: every one where the sweep is
/// full, else one full block, a partial one and a slice, with K over 2 padded blocks.
fn q4_shapes(nr: usize) -> Vec<(usize, usize)> {
    if !support::sme_pack::full_sweep() {
        return vec![(nr, 33), (2 * nr + 3, 7), (1, 64)];
    }
    let ns = [1, 2, 3, 5, 15, 16, 17, nr - 1, nr, nr + 1, 2 * nr + 3];
    let ks = [1, 2, 3, 4, 5, 31, 32, 33, 64, 67];
    pairs(&ns, &ks)
}

/// Every shape, each provider, with and without padded source rows, against each guard edge,
/// whole and in column slices moved through the offset getters; then a caller's wider block
/// stride, and no write for `n == 0` or `k == 0`.
#[test]
fn qsi4_packs_equal_reference() {
    use support::sme_pack::{self, le_bytes, slices};
    let nr = q4_nr();
    let mut rng = Rng::new(0x0951_4c8b);
    for (name, provider, nxk, unsigned) in Q4_PROVIDERS {
        let api = Api(provider());
        let mut cases = 0;
        for (n, k) in q4_shapes(nr) {
            for pad in [0, 3] {
                let p = Q4Problem::new((n, k), &mut rng);
                let (src, row) = p.source(nxk, unsigned, pad, &mut rng);
                let expect = p.reference(nr);
                let ps = api.packed_stride(n, k);
                let size = api.packed_size(n, k, &ps);
                assert_eq!(size, expect.len(), "{name} size n {n} k {k}");
                let rs = RhsStride {
                    n: if nxk { row } else { 0 },
                    k: if nxk { 0 } else { row },
                };
                // The last source line ends at its last value's byte.
                let len = if nxk { k } else { n };
                let used = src.len() - row + len.div_ceil(2);
                let params = [p.k_sum_scale.to_le_bytes(), p.scale_global.to_le_bytes()];
                for edge in EDGES {
                    let s = Guarded::from_bytes(&src[..used], edge);
                    let b = Guarded::from_bytes(
                        &le_bytes(&p.bias.iter().map(|&x| x as u32).collect::<Vec<_>>()),
                        edge,
                    );
                    let sc = Guarded::from_bytes(&le_bytes(&p.scale), edge);
                    let ks = Guarded::from_bytes(&params[0], edge);
                    let sg = Guarded::from_bytes(&params[1], edge);
                    // SAFETY (closure): the operands and output hold the whole problem; the
                    // offsets come from the getters for columns n0..n0 + cols.
                    let pack = |out: *mut u8, (n0, cols): (usize, usize)| unsafe {
                        let o = RhsOperands {
                            rhs: s.ptr().add(api.rhs_offset(n0, 0, &rs)),
                            stride: rs,
                            bias: b.ptr().add(api.bias_offset(n0)),
                            k_sum_scale: ks.ptr(),
                            scale: sc.ptr().add(api.scale_offset(n0)),
                            scale_global: sg.ptr(),
                        };
                        let out = out.add(api.packed_offset(n0, 0, &ps));
                        api.run_with((cols, k, 0), &o, out, ps.n)
                    };
                    let what = format!("{name} n={n} k={k} pad={pad}");
                    sme_pack::packs_equal(&what, size, edge, &expect, |o| pack(o, (0, n)));
                    if n > nr {
                        let cuts = slices(n, nr);
                        sme_pack::slices_equal(&what, size, edge, &expect, &cuts, pack);
                    }
                    cases += 1;
                }
            }
        }
        // A caller's wider block stride places each block there and leaves the gap alone.
        let (n, k) = (2 * nr + 1, 5);
        let p = Q4Problem::new((n, k), &mut rng);
        let (src, row) = p.source(nxk, unsigned, 0, &mut rng);
        let expect = p.reference(nr);
        let bias = le_bytes(&p.bias.iter().map(|&x| x as u32).collect::<Vec<_>>());
        let scale = le_bytes(&p.scale);
        let (kss, sg) = (p.k_sum_scale.to_le_bytes(), p.scale_global.to_le_bytes());
        let o = RhsOperands {
            rhs: src.as_ptr(),
            stride: RhsStride {
                n: if nxk { row } else { 0 },
                k: if nxk { 0 } else { row },
            },
            bias: bias.as_ptr(),
            k_sum_scale: kss.as_ptr(),
            scale: scale.as_ptr(),
            scale_global: sg.as_ptr(),
        };
        // No column or no row: nothing written (KleidiAI returns before packing).
        let pack = |shape: Option<(usize, usize)>, out: *mut u8, stride: usize| {
            let (n, k) = shape.unwrap_or((n, k));
            // SAFETY: three blocks of `stride` bytes (nothing for n == 0 or k == 0); the operands
            // hold the problem.
            unsafe { api.run_with((n, k, 0), &o, out, stride) };
        };
        let block = api.packed_stride(n, k).n;
        wide_stride_and_empty(name, (block, &expect), &[(0, k), (n, 0)], pack);
        eprintln!("{name}: {cases} packings equal the reference (nr {nr})");
    }
}

/// Which operand a death case of `run` breaks.
#[derive(Clone, Copy)]
enum Q4Break {
    Flags,
    Rhs,
    Packed,
    Bias,
    KSumScale,
    Scale,
    ScaleGlobal,
}

impl Q4Break {
    /// KleidiAI's assertion that fails.
    const fn condition(self) -> &'static str {
        match self {
            Q4Break::Flags => "args->flags == 0",
            Q4Break::Rhs => "args->operand.rhs.ptr != NULL",
            Q4Break::Packed => "args->operand.rhs_packed.ptr != NULL",
            Q4Break::Bias => "args->operand.bias_n.ptr != NULL",
            Q4Break::KSumScale => "args->operand.k_sum_scale_global.ptr != NULL",
            Q4Break::Scale => "args->operand.scale_n.ptr != NULL",
            Q4Break::ScaleGlobal => "args->operand.scale_global.ptr != NULL",
        }
    }
}

/// The death cases of `run` with one thing broken, each through provider `i`:
/// `(case name, i, Q4Break variant)`.
macro_rules! q4_broken_runs {
    ($(($name:literal, $i:literal, $what:ident)),* $(,)?) => {
        [$(
            ($name, Q4_PROVIDERS[$i].0, Q4Break::$what.condition(), (|| {
                q4_run_broken($i, Q4Break::$what)
            }) as fn()),
        )*]
    };
}

/// Calls provider `i`'s `run` on a small valid problem with `what` broken.
fn q4_run_broken(i: usize, what: Q4Break) {
    let api = Api((Q4_PROVIDERS[i].1)());
    let (n, k) = (3, 5);
    let src = [0x5au8; 16];
    let vals = [0u8; 16];
    let mut out = vec![0u8; api.packed_size(n, k, &api.packed_stride(n, k))];
    let nul = |b: bool, p: *const u8| if b { ptr::null() } else { p };
    let o = RhsOperands {
        rhs: nul(matches!(what, Q4Break::Rhs), src.as_ptr()),
        stride: api.rhs_stride(n, k),
        bias: nul(matches!(what, Q4Break::Bias), vals.as_ptr()),
        k_sum_scale: nul(matches!(what, Q4Break::KSumScale), vals.as_ptr()),
        scale: nul(matches!(what, Q4Break::Scale), vals.as_ptr()),
        scale_global: nul(matches!(what, Q4Break::ScaleGlobal), vals.as_ptr()),
    };
    let dst = if matches!(what, Q4Break::Packed) {
        ptr::null_mut()
    } else {
        out.as_mut_ptr()
    };
    let flags = u64::from(matches!(what, Q4Break::Flags));
    let stride = api.packed_stride(n, k).n;
    // SAFETY: the valid operands hold the problem; the broken one aborts before any access.
    unsafe { api.run_with((n, k, flags), &o, dst, stride) };
}

/// KleidiAI's assumptions of the int4 packers: aligned start columns, an unsplit K, zero flags
/// and every operand pointer non-null.
fn q4_violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    const N: &str = "index->n % nr == 0";
    const K: &str = "index->k == 0";
    fn q4(i: usize) -> Api {
        Api((Q4_PROVIDERS[i].1)())
    }
    let mut cases = offset_cases![
        "q4_kxn_rhs_offset_n", Q4_KXN_S, N => q4(0), At::Rhs(4), |_| 2, 0;
        "q4_kxn_rhs_offset_k", Q4_KXN_U, K => q4(1), At::Rhs(4), |_| 0, 4;
        "q4_nxk_rhs_offset_n", Q4_NXK_S, N => q4(2), At::Rhs(4), |s| s / 2, 0;
        "q4_nxk_rhs_offset_k", Q4_NXK_U, K => q4(3), At::Rhs(64), |_| 0, 32;
        "q4_kxn_packed_offset_n", Q4_KXN_U, N => q4(1), At::Packed, |s| s + 2, 0;
        "q4_nxk_packed_offset_k", Q4_NXK_S, K => q4(2), At::Packed, |_| 0, 1;
    ];
    cases.extend(q4_broken_runs![
        ("q4_run_flags", 0, Flags),
        ("q4_run_rhs", 3, Rhs),
        ("q4_run_packed", 1, Packed),
        ("q4_run_bias", 2, Bias),
        ("q4_run_k_sum_scale", 0, KSumScale),
        ("q4_run_scale", 3, Scale),
        ("q4_run_scale_global", 1, ScaleGlobal),
    ]);
    cases
}
