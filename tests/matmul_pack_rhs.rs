//! KleidiAI's generic RHS-packing interface (`kai_matmul_pack_rhs.h`), through the C ABI: each
//! provider's table (function pointers called as C calls them) against KleidiAI's getter values
//! and a reference packing written from the packed layout, at the vector length of the CPU under
//! test, with guard pages, column slices and KleidiAI's assumptions.

mod support;

use rkai_capi::capi::exports::kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve as provider;
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
        let vl = model
            .split(',')
            .find_map(|o| o.strip_prefix("sve-default-vector-length="))
            .map(|v| v.parse::<usize>().unwrap());
        let base = model.split(',').next().unwrap();
        let expected = match (base, vl) {
            _ if model.split(',').any(|o| o == "sve=off") => 16,
            ("max", Some(b)) => b,
            ("max", None) => 64,
            ("neoverse-v1", _) => 32,
            _ => 16,
        };
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
        let args = kai_matmul_pack_rhs_uker_args {
            flags: 0,
            shape: kai_matmul_pack_rhs_uker_dim_args { n, k },
            operand: kai_matmul_pack_rhs_uker_operand_args {
                rhs: kai_matmul_pack_rhs_uker_rhs_args {
                    ptr: rhs.cast(),
                    stride: RhsStride { n: 2, k: rhs_row },
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

/// KleidiAI assumes aligned start columns and an unsplit K; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    const N: &str = "index->n % get_n_step() == 0";
    vec![
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
