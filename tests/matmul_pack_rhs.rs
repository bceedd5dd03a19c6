//! KleidiAI's generic RHS-packing interface (`kai_matmul_pack_rhs.h`), through the C ABI: each
//! provider's table (function pointers called as C calls them) against KleidiAI's getter values
//! and a reference packing written from the packed layout, at the vector length of the CPU under
//! test (the SVE length for the SVE packer, the streaming length for the SME ones), with guard
//! pages, column slices and KleidiAI's assumptions.

mod support;

use rkai_capi::capi::exports::kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve as provider;
use rkai_capi::capi::exports::{
    kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme,
    kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme,
};
use rkai_ukernels::arch::Features;
use rkai_ukernels::pack_rhs_types::*;
use rkai_ukernels::pack_rhs_types::{
    kai_matmul_pack_rhs_uker_rhs_dim_args as RhsDim,
    kai_matmul_pack_rhs_uker_rhs_packed_dim_args as PackedDim,
    kai_matmul_pack_rhs_uker_rhs_packed_stride_args as PackedStride,
    kai_matmul_pack_rhs_uker_rhs_stride_args as RhsStride,
};
use std::ptr;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;

const NAME: &str = "kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve";

unsafe extern "C" {
    fn kai_get_sve_vector_length_u8() -> u64;
}

/// The packer's nr: 16 x vscale = the SVE length in bytes; 16 (128-bit) without SVE. Checked
/// against the QEMU model when the test matrix names one.
fn expected_nr() -> usize {
    let sve = cfg!(target_arch = "aarch64") && Features::detect().contains(Features::SVE);
    // SAFETY: CNTB runs only where SVE is present.
    let bytes = if sve {
        (unsafe { kai_get_sve_vector_length_u8() }) as usize
    } else {
        16
    };
    if let Ok(model) = std::env::var("RKAI_EXPECT_CPU") {
        let expected = support::cpu::expected_sve_bytes(&model);
        assert_eq!(bytes, expected, "SVE bytes under {model}");
    }
    bytes
}

const CONFIG: kai_matmul_pack_rhs_uker_config = kai_matmul_pack_rhs_uker_config {
    format: kai_matmul_pack_rhs_uker_format_config {
        nr: 0,
        kr: 0,
        sr: 0,
        bl: 0,
    },
};

/// The table's functions, called through the C function pointers.
struct Api(kai_matmul_pack_rhs_uker_api);

/// Calls getter `$f` of the table `$api` with [`CONFIG`] and `$arg`s.
macro_rules! getter {
    ($api:ident.$f:ident($($arg:expr),*)) => {
        // SAFETY: the getters read only the structs passed, which are valid.
        unsafe { ($api.0.$f.unwrap())(&CONFIG $(, $arg)*) }
    };
}

impl Api {
    fn get() -> Self {
        Api(provider())
    }

    fn step(&self) -> kai_matmul_pack_rhs_uker_dim_args {
        getter!(self.get_step())
    }

    fn rhs_stride(&self, n: usize, k: usize) -> RhsStride {
        getter!(self.get_rhs_stride(&RhsDim { n, k }))
    }

    fn rhs_offset(&self, n: usize, k: usize, stride: &RhsStride) -> usize {
        getter!(self.get_rhs_offset(&RhsDim { n, k }, stride))
    }

    fn packed_stride(&self, n: usize, k: usize) -> PackedStride {
        getter!(self.get_rhs_packed_stride(&PackedDim { n, k }))
    }

    fn packed_offset(&self, n: usize, k: usize, stride: &PackedStride) -> usize {
        getter!(self.get_rhs_packed_offset(&PackedDim { n, k }, stride))
    }

    fn packed_size(&self, n: usize, k: usize, stride: &PackedStride) -> usize {
        getter!(self.get_rhs_packed_size(&PackedDim { n, k }, stride))
    }

    fn bias_offset(&self, n: usize) -> usize {
        getter!(self.get_bias_n_offset(&kai_matmul_pack_rhs_uker_bias_n_dim_args { n }))
    }

    /// Packs `n` columns of `k` rows (`rhs_row` bytes apart) into `out` with block stride
    /// `packed_stride`.
    ///
    /// # Safety
    /// The buffers hold what the packer reads and writes.
    unsafe fn run(
        &self,
        n: usize,
        k: usize,
        rhs: *const u8,
        rhs_row: usize,
        bias: *const u8,
        out: *mut u8,
        packed_stride: usize,
    ) {
        let stride = RhsStride { n: 2, k: rhs_row };
        // SAFETY: forwarded contract.
        unsafe { self.run_strided((n, k), (rhs, stride), bias, out, packed_stride) }
    }

    /// [`Api::run`] with both source strides given.
    ///
    /// # Safety
    /// The buffers hold what the packer reads and writes.
    unsafe fn run_strided(
        &self,
        (n, k): (usize, usize),
        (rhs, stride): (*const u8, RhsStride),
        bias: *const u8,
        out: *mut u8,
        packed_stride: usize,
    ) {
        let args = kai_matmul_pack_rhs_uker_args {
            flags: 0,
            shape: kai_matmul_pack_rhs_uker_dim_args { n, k },
            operand: kai_matmul_pack_rhs_uker_operand_args {
                rhs: kai_matmul_pack_rhs_uker_rhs_args {
                    ptr: rhs.cast(),
                    stride,
                },
                rhs_packed: kai_matmul_pack_rhs_uker_rhs_packed_args {
                    ptr: out.cast(),
                    stride: PackedStride { n: packed_stride },
                },
                bias_n: kai_matmul_pack_rhs_uker_bias_n_args { ptr: bias.cast() },
                k_sum_scale_global: kai_matmul_pack_rhs_uker_k_sum_scale_global_args {
                    ptr: ptr::null(),
                },
                scale_n: kai_matmul_pack_rhs_uker_scale_n_args { ptr: ptr::null() },
                scale_global: kai_matmul_pack_rhs_uker_scale_global_args { ptr: ptr::null() },
            },
        };
        // SAFETY: forwarded contract.
        unsafe { (self.0.run.unwrap())(&CONFIG, &args) }
    }
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
    let api = Api::get();
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

/// Shapes around the block and pair edges.
fn shapes(nr: usize) -> Vec<(usize, usize)> {
    let ns = [1, 7, 8, 9, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr];
    let ks = [1, 2, 3, 7, 8, 9, 16, 17];
    ns.iter()
        .flat_map(|&n| ks.iter().map(move |&k| (n, k)))
        .collect()
}

#[test]
fn packs_equal_reference() {
    let api = Api::get();
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
                    unsafe { api.run(n, k, src.ptr(), 2 * rhs_row, bias_ptr, out.mut_ptr(), ps.n) };
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
    ps: PackedStride,
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
            api.run(cols, self.k, rhs, self.rs.k, bias, out, self.ps.n)
        }
    }
}

/// Column slices packed through the offset getters (as multi-threaded callers do) equal the
/// same blocks of one whole packing.
#[test]
fn slices_equal_whole() {
    let api = Api::get();
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
    let p = Packing::new(&Api::get(), (n, 11), &mut Rng::new(99), false);
    let mut sliced = vec![0u8; p.whole.len()];
    let out = sliced.as_mut_ptr() as usize;
    std::thread::scope(|s| {
        for t in 0..n.div_ceil(nr) {
            let p = &p;
            s.spawn(move || {
                let n0 = t * nr;
                // SAFETY: `sliced` has the whole packing's size; each thread writes its own block.
                unsafe { p.pack_columns(&Api::get(), n0, nr.min(n - n0), out as *mut u8) }
            });
        }
    });
    assert_eq!(sliced, p.whole);
}

// ---------------------------------------------------------------------------------------------
// The f32 SME packers (`kai_matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme`)

const SME_KXN: &str = "kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme";
const SME_NXK: &str = "kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme";

/// The two f32 SME providers: (C name, provider, N x K source).
const SME_PROVIDERS: [(&str, extern "C" fn() -> kai_matmul_pack_rhs_uker_api, bool); 2] = [
    (
        SME_KXN,
        kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme,
        false,
    ),
    (
        SME_NXK,
        kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme,
        true,
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

/// The SME packers' getters follow KleidiAI's formulas at the streaming length: nr = 4 x vscale,
/// a block `nr * (1 + k)` values, source strides by orientation, and no bias-offset assumption.
#[test]
fn sme_getters_have_kleidiai_values() {
    let nr = support::sme_pack::svl32();
    let mut checked = 0;
    for (name, provider, nxk) in SME_PROVIDERS {
        let api = Api(provider());
        assert_eq!((api.step().n, api.step().k), (nr, 0), "{name} get_step");
        assert!(
            api.0.get_scale_n_offset.is_none(),
            "{name} has no scale getter"
        );
        for n in [1, nr - 1, nr, nr + 1, 5 * nr + 3] {
            for k in [0, 1, 2, 3, 8, 9, 255, 4097] {
                let s = api.rhs_stride(n, k);
                let expect = if nxk { (4 * k, 4) } else { (4, 4 * n) };
                assert_eq!((s.n, s.k), expect, "{name} get_rhs_stride n {n} k {k}");
                let ps = api.packed_stride(n, k);
                assert_eq!(ps.n, nr * (4 + 4 * k), "{name} get_rhs_packed_stride k {k}");
                assert_eq!(api.packed_size(n, k, &ps), n.div_ceil(nr) * ps.n);
                let wide = PackedStride { n: ps.n + 12 };
                assert_eq!(api.packed_size(n, k, &wide), n.div_ceil(nr) * wide.n);
                checked += 4;
            }
        }
        for block in [0, 1, 2, 7] {
            let n_idx = block * nr;
            // KleidiAI's K x N packer ignores the stride here; the N x K one multiplies by it.
            let padded = RhsStride { n: 1000, k: 4 };
            let expect = if nxk { 1000 * n_idx } else { 4 * n_idx };
            assert_eq!(
                api.rhs_offset(n_idx, 0, &padded),
                expect,
                "{name} get_rhs_offset"
            );
            let ps = api.packed_stride(9 * nr, 5);
            assert_eq!(api.packed_offset(n_idx, 0, &ps), block * ps.n);
            checked += 2;
        }
        // KleidiAI's get_bias_n_offset assumes nothing about the column.
        for n_idx in [0, 1, 3, nr + 1] {
            assert_eq!(
                api.bias_offset(n_idx),
                4 * n_idx,
                "{name} get_bias_n_offset"
            );
            checked += 1;
        }
    }
    eprintln!("{checked} getter values checked (nr {nr})");
}

/// Every shape around the block edges, K x N and N x K, with and without a bias (rkai packs
/// zeros for a null one), padded source rows, against each guard edge, whole and in column
/// slices moved through the offset getters; then a caller's wider block stride.
#[test]
fn sme_packs_equal_reference() {
    use support::sme_pack::{self, FILL, le_bytes, slices};
    let nr = sme_pack::svl32();
    let specials = [
        0x7fc0_0001,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f80_0000,
    ];
    for (name, provider, nxk) in SME_PROVIDERS {
        let api = Api(provider());
        let mut cases = 0;
        for (seed, &n) in [1, 2, nr - 1, nr, nr + 1, 2 * nr + 3, 3 * nr]
            .iter()
            .enumerate()
        {
            for k in [0, 1, 2, 3, 7, 8, 9, 17] {
                for (pad, with_bias) in [(0, true), (3, false)] {
                    let (lines, len) = if nxk { (n, k) } else { (k, n) };
                    let row = len + pad;
                    let seed = (seed * 100 + k) as u64;
                    let rhs = sme_pack::bit_patterns(lines * row, seed, 32, &specials);
                    let bias = sme_pack::bit_patterns(n, seed + 1, 32, &specials);
                    let bias = with_bias.then_some(&bias[..]);
                    let expect = sme_reference((n, k, nr), (&rhs, row, nxk), bias);
                    let ps = api.packed_stride(n, k);
                    let size = api.packed_size(n, k, &ps);
                    assert_eq!(size, expect.len(), "{name} size n {n} k {k}");
                    let rs = RhsStride {
                        n: if nxk { 4 * row } else { 4 },
                        k: if nxk { 4 } else { 4 * row },
                    };
                    // The last source line ends at its last value.
                    let used = if lines == 0 {
                        0
                    } else {
                        (lines - 1) * row + len
                    };
                    for edge in EDGES {
                        let src = Guarded::from_bytes(&le_bytes(&rhs[..used]), edge);
                        let b = bias.map(|b| Guarded::from_bytes(&le_bytes(b), edge));
                        // SAFETY (closure): the source, bias and output hold the whole problem;
                        // the offsets come from the getters for columns n0..n0 + cols.
                        let pack = |out: *mut u8, (n0, cols): (usize, usize)| unsafe {
                            let source = src.ptr().add(api.rhs_offset(n0, 0, &rs));
                            let bias = b
                                .as_ref()
                                .map_or(ptr::null(), |b| b.ptr().add(api.bias_offset(n0)));
                            let out = out.add(api.packed_offset(n0, 0, &ps));
                            api.run_strided((cols, k), (source, rs), bias, out, ps.n)
                        };
                        let what = format!("{name} n={n} k={k} pad={pad} bias={with_bias}");
                        sme_pack::packs_equal(&what, size, edge, &expect, |o| pack(o, (0, n)));
                        if n > nr {
                            let cuts = slices(n, nr);
                            sme_pack::slices_equal(&what, size, edge, &expect, &cuts, pack);
                        }
                        cases += 1;
                    }
                }
            }
        }
        // A caller's wider block stride places each block there and leaves the gap alone.
        let (n, k) = (2 * nr + 1, 5);
        let rhs = sme_pack::bit_patterns(n * k, 5, 32, &specials);
        let bias = sme_pack::bit_patterns(n, 6, 32, &specials);
        let expect = sme_reference(
            (n, k, nr),
            (&rhs, if nxk { k } else { n }, nxk),
            Some(&bias),
        );
        let block = api.packed_stride(n, k).n;
        let wide = block + 20;
        let mut out = vec![FILL; 3 * wide];
        let rs = api.rhs_stride(n, k);
        let (src, b) = (le_bytes(&rhs), le_bytes(&bias));
        // SAFETY: three blocks of `wide` bytes; the source and bias hold the problem.
        unsafe {
            api.run_strided(
                (n, k),
                (src.as_ptr(), rs),
                b.as_ptr(),
                out.as_mut_ptr(),
                wide,
            )
        };
        for blk in 0..3 {
            let got = &out[blk * wide..];
            assert_eq!(
                &got[..block],
                &expect[blk * block..(blk + 1) * block],
                "{name}"
            );
            assert!(got[block..wide].iter().all(|&x| x == FILL), "{name} gap");
        }
        // No column, nothing written.
        let mut none = Guarded::from_bytes(&[FILL; 64], EDGES[0]);
        // SAFETY: nothing is read or written for n == 0.
        unsafe { api.run_strided((0, k), (src.as_ptr(), rs), b.as_ptr(), none.mut_ptr(), 0) };
        assert!(none.bytes().iter().all(|&x| x == FILL));
        eprintln!("{name}: {cases} packings equal the reference (nr {nr})");
    }
}

/// KleidiAI assumes aligned start columns and an unsplit K; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    const N: &str = "index->n % get_n_step() == 0";
    fn sme(i: usize) -> Api {
        Api((SME_PROVIDERS[i].1)())
    }
    vec![
        ("sme_kxn_rhs_offset_n", SME_KXN, N, || {
            sme(0).rhs_offset(1, 0, &sme(0).rhs_stride(64, 1));
        }),
        ("sme_kxn_packed_offset_k", SME_KXN, "index->k == 0", || {
            sme(0).packed_offset(0, 3, &sme(0).packed_stride(64, 4));
        }),
        ("sme_nxk_rhs_offset_k", SME_NXK, "index->k == 0", || {
            sme(1).rhs_offset(0, 1, &sme(1).rhs_stride(64, 4));
        }),
        ("sme_nxk_packed_offset_n", SME_NXK, N, || {
            let a = sme(1);
            a.packed_offset(a.step().n - 1, 0, &a.packed_stride(64, 4));
        }),
        ("rhs_offset_n", NAME, N, || {
            Api::get().rhs_offset(1, 0, &Api::get().rhs_stride(64, 1));
        }),
        ("rhs_offset_k", NAME, "index->k == 0", || {
            Api::get().rhs_offset(0, 2, &Api::get().rhs_stride(64, 4));
        }),
        ("packed_offset_n", NAME, N, || {
            let api = Api::get();
            api.packed_offset(api.step().n + 1, 0, &api.packed_stride(64, 4));
        }),
        ("packed_offset_k", NAME, "index->k == 0", || {
            Api::get().packed_offset(0, 1, &Api::get().packed_stride(64, 4));
        }),
        ("bias_offset_n", NAME, N, || {
            Api::get().bias_offset(3);
        }),
    ]
}

death_tests!(violations, "assumptions");
