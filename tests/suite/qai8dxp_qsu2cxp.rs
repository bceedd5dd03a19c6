//! `matmul_clamp_f32_qai8dxp_qsu2cxp` (int8 activations x 2-bit weights through a 4-entry value
//! table, llama.cpp's Q2_0C) and its two RHS packers, through the exported C symbols, against the
//! scalar reference (`reference::qsu2cxp`): getters and packed sizes equal KleidiAI 1.30's,
//! packed bytes equal the reference's (and KleidiAI's layout facts, stated by hand below) for
//! the default table, a null table and tables whose entries overflow int8 pair sums or int8
//! itself; results equal the reference bit for bit on edge shapes, portions, both guard-page
//! edges, 8 threads and (on aarch64) with callee-saved registers checked.

use crate::support;

use rkai_ukernels::family::Family;

use rkai_ukernels::kernel::MatmulKernel;

use rkai_ukernels::matmul::call;
use rkai_ukernels::pack::kinds::{PackerKind, RhsPackerKind};
use rkai_ukernels::pack::rhs_pack_nxk_qsu2cxp::{DEFAULT_LUT, Variant};
use rkai_ukernels::reference::{qai8dx, qsu2cxp};
use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param as Params;
use support::cabi::func as sym;
use support::cabi::{Getter2, Getter4, Getter5, RhsPackQsu2cxpFn};
use support::guard::{Edge, Guarded};
use support::rng::Rng;
use support::tester::{self, PackedFamily};

const LHS_PACKER: &str = "lhs_quant_pack_qai8dxp_f32";
const P4X4: &str = "rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon";
const P4VLX4: &str = "rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon";

/// Tables the tests pass: none (null: the default), the default spelled out, one whose pair
/// sums overflow int8, one with entries outside int8 (the kernels read their low bytes; the
/// `4x4` packer's scalar path adds them whole).
const LUTS: [Option<[i32; 4]>; 4] = [
    None,
    Some(DEFAULT_LUT),
    Some([-128, 127, 100, -100]),
    Some([300, -7, 1000, -129]),
];

fn family_kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    tester::family_kernels(Family::F32Qai8dxpQsu2cxp)
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(
        family_kernels(),
        |k| support::cpu::can_run(k.isa),
        "qsu2cxp",
    )
}

/// The packer `k` pairs with and its interleave.
fn packer(k: &MatmulKernel) -> (&'static str, Variant) {
    match k.rhs_packers[0].kind {
        PackerKind::Rhs(RhsPackerKind::Qsu2cxp(v)) => (k.rhs_packers[0].name, v),
        _ => unreachable!("2-bit kernels pair with 2-bit packers"),
    }
}

fn variant_of(name: &str) -> Variant {
    if name == P4X4 {
        Variant::P4x4
    } else {
        Variant::P4vlx4
    }
}

/// One problem: f32 activations, 2-bit codes, per-channel scales, optional bias, a table.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    lhs: Vec<f32>,
    codes: Vec<u8>,
    scale: Vec<f32>,
    bias: Option<Vec<f32>>,
    lut: Option<[i32; 4]>,
}

impl Problem {
    fn new(m: usize, n: usize, k: usize, bias: bool, lut: Option<[i32; 4]>, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut lhs = rng.vec_f32(m * k, -3.0, 5.0);
        if m > 1 {
            // An all-positive row and a constant row (both zero-point branches).
            for v in &mut lhs[..k] {
                *v = v.abs() + 0.5;
            }
            lhs[(m - 1) * k..].fill(1.25);
        }
        Problem {
            m,
            n,
            k,
            lhs,
            codes: (0..n * k).map(|_| rng.range_i32(0, 3) as u8).collect(),
            scale: rng.vec_f32(n, 0.001, 0.1),
            bias: bias.then(|| rng.vec_f32(n, -1.0, 1.0)),
            lut,
        }
    }

    fn table(&self) -> [i32; 4] {
        self.lut.unwrap_or(DEFAULT_LUT)
    }

    /// Source rows of `k / 4` bytes, K value `4b + s` in bits `2s` of byte `b`.
    fn source(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.n * self.k / 4];
        for (i, &c) in self.codes.iter().enumerate() {
            out[i / 4] |= c << (2 * (i % 4));
        }
        out
    }

    fn quantized(&self) -> (Vec<i8>, Vec<qai8dx::Row>) {
        let mut lq = vec![0i8; self.m * self.k];
        let rows = (0..self.m)
            .map(|i| {
                let r = i * self.k..(i + 1) * self.k;
                qai8dx::quantize_row(&self.lhs[r.clone()], &mut lq[r])
            })
            .collect();
        (lq, rows)
    }
}

fn pack_lhs(p: &Problem, mr: usize, kr: usize, sr: usize, edge: Edge) -> Guarded {
    let bytes: Vec<u8> = p.lhs.iter().flat_map(|v| v.to_le_bytes()).collect();
    tester::pack_qai8dxp_lhs(
        LHS_PACKER,
        (p.m, p.k),
        (mr, kr, sr),
        (&bytes, 4 * p.k),
        edge,
    )
}

/// Packs `p`'s weights with `name` for `nr` columns per group (kr 4, sr 1).
fn pack_rhs(p: &Problem, name: &str, nr: usize, edge: Edge) -> Guarded {
    let size = sym::<Getter5>("get_rhs_packed_size", name)(p.n, p.k, nr, 4, 1);
    let src = Guarded::from_bytes(&p.source(), edge);
    let scale = Guarded::from_f32(&p.scale, edge);
    let bias = p.bias.as_ref().map(|b| Guarded::from_f32(b, edge));
    let lut = p.lut.map(|t| {
        let bytes: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
        Guarded::from_bytes(&bytes, edge)
    });
    let params = Params {
        lhs_zero_point: 1,
        rhs_zero_point: 2,
    };
    let mut packed = Guarded::new(size, edge);
    // SAFETY: buffers sized from the getters; the table (guarded) holds 4 i32.
    unsafe {
        sym::<RhsPackQsu2cxpFn>("run", name)(
            1,
            p.n,
            p.k,
            nr,
            4,
            1,
            src.ptr(),
            bias.as_ref().map_or(std::ptr::null(), |b| b.ptr().cast()),
            scale.ptr().cast(),
            packed.mut_ptr().cast(),
            0,
            &params,
            lut.as_ref().map_or(std::ptr::null(), |t| t.ptr().cast()),
        )
    };
    packed
}

fn expected_rhs(p: &Problem, name: &str, nr: usize, size: usize) -> Vec<u8> {
    let mut out = vec![0u8; size];
    qsu2cxp::pack(
        variant_of(name),
        p.n,
        p.k,
        nr,
        &p.codes,
        &p.table(),
        &p.scale,
        p.bias.as_deref(),
        &mut out,
    );
    out
}

struct Qsu2cxp;

impl PackedFamily for Qsu2cxp {
    type Problem = Problem;

    fn shape(p: &Problem) -> (usize, usize, usize, usize) {
        (p.m, p.n, p.k, 0)
    }

    fn pack(k: &MatmulKernel, p: &Problem, edge: Edge) -> (Guarded, Guarded) {
        let t = k.tile();
        (
            pack_lhs(p, t.mr, t.kr, t.sr, edge),
            pack_rhs(p, packer(k).0, t.nr, edge),
        )
    }

    fn expected(k: &MatmulKernel, p: &Problem, clamp: (f32, f32)) -> Vec<f32> {
        let t = k.tile();
        let (lq, rows) = p.quantized();
        let rsum: Vec<i32> =
            qsu2cxp::row_sums(packer(k).1, p.n, p.k, t.nr, &p.codes, &p.table()).collect();
        let mut dst = vec![0.0; p.m * p.n];
        qsu2cxp::matmul(
            k.epilogue,
            (p.m, p.n, p.k),
            &lq,
            &rows,
            &p.codes,
            &p.table(),
            &rsum,
            &p.scale,
            p.bias.as_deref(),
            clamp,
            &mut dst,
            p.n,
        );
        dst
    }

    fn lut(p: &Problem) -> Option<[i32; 4]> {
        p.lut
    }
}

#[test]
fn getters_equal_kleidiai_values() {
    let rows = tester::getters_equal_kleidiai_values(family_kernels());
    eprintln!("getter rows: {rows}");
}

/// KleidiAI's measured sizes of the NEON pairs, and its formulas (LHS groups of mr rows of
/// k + 8 bytes, RHS groups of nr columns of k / 4 + 12 bytes) for every kernel at this
/// streaming length; kernel offsets equal the packers'.
#[test]
fn packed_sizes_and_offsets_equal_kleidiai() {
    let mut checked = tester::packed_sizes_equal_measured(family_kernels(), |r| {
        let (kk, t) = (r.k, r.kernel.tile());
        (
            sym::<Getter5>("get_lhs_packed_size", r.lhs_packer)(r.m, kk, t.mr, t.kr, t.sr),
            sym::<Getter5>("get_rhs_packed_size", r.rhs_packer)(r.n, kk, t.nr, t.kr, t.sr),
        )
    });
    for k in family_kernels() {
        let t = k.tile();
        let rhs = packer(k).0;
        for (m, n, kk) in [(1, 1, 32), (7, 33, 128), (16, 300, 512)] {
            let lhs_size =
                sym::<Getter5>("get_lhs_packed_size", LHS_PACKER)(m, kk, t.mr, t.kr, t.sr);
            assert_eq!(lhs_size, m.div_ceil(t.mr) * t.mr * (kk + 8), "{}", k.stem);
            let stride = t.nr * (kk / 4 + 12);
            let rhs_size = sym::<Getter5>("get_rhs_packed_size", rhs)(n, kk, t.nr, t.kr, t.sr);
            assert_eq!(rhs_size, n.div_ceil(t.nr) * stride, "{}", k.stem);
            assert_eq!(
                sym::<Getter4>("get_rhs_packed_stride", rhs)(kk, t.nr, t.kr, t.sr),
                stride
            );
            assert_eq!(
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(t.n_step, kk),
                sym::<Getter5>("get_rhs_packed_offset", rhs)(t.n_step, kk, t.nr, t.kr, t.sr),
            );
            assert_eq!(
                sym::<Getter2>("get_lhs_packed_offset", k.stem)(t.m_step, kk),
                sym::<Getter5>("get_lhs_packed_offset", LHS_PACKER)(t.m_step, kk, t.mr, 4, 1),
            );
            checked += 1;
        }
    }
    eprintln!("size checks: {checked}");
}

const PACK_SHAPES: [(usize, usize); 9] = [
    (1, 32),
    (3, 32),
    (4, 64),
    (5, 32),
    (8, 96),
    (9, 64),
    (17, 128),
    (33, 32),
    (71, 256),
];

/// Both packers, at every `nr` they take that matters (4x4: 4; 4vlx4: 8 to 64 and this CPU's
/// SME tile), every table, with and without bias, at both guard-page edges: the bytes equal the
/// reference's.
#[test]
fn packers_match_reference_bytes() {
    let mut cases = 0;
    let sme_nr = rkai_ukernels::arch::sme_vector_bytes();
    let configs: Vec<(&str, usize)> = [(P4X4, 4), (P4VLX4, 8), (P4VLX4, 16), (P4VLX4, 64)]
        .into_iter()
        .chain(sme_nr.map(|nr| (P4VLX4, nr)))
        .collect();
    for (name, nr) in configs {
        for (seed, &(n, kk)) in PACK_SHAPES.iter().enumerate() {
            for lut in LUTS {
                for bias in [false, true] {
                    let p = Problem::new(1, n, kk, bias, lut, 40 + seed as u64);
                    cases += tester::packs_equal_reference(
                        || format!("{name} nr={nr} n={n} k={kk} lut={lut:?} bias={bias}"),
                        |edge| pack_rhs(&p, name, nr, edge),
                        |size| expected_rhs(&p, name, nr, size),
                    );
                }
            }
        }
    }
    eprintln!("RELIABILITY bounds_packers {cases}");
}

fn i32_at(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// KleidiAI's layout, stated by hand: where K values land, what padding holds, and which sums
/// each path writes (independent of the reference module).
#[test]
fn packers_follow_kleidiai_layout_facts() {
    // Column j's code at K kk: (j + kk / 3) % 4, so every position is distinguishable.
    let code = |j: usize, kk: usize| ((j + kk / 3) % 4) as u8;
    let (n, kk) = (5, 32);
    let mut p = Problem::new(1, n, kk, true, None, 1);
    p.codes = (0..n * kk).map(|i| code(i / kk, i % kk)).collect();
    // 4x4: byte i of column c in 16-value block b holds K 16b + 4s + i in bits 2s.
    let packed = pack_rhs(&p, P4X4, 4, Edge::End);
    let bytes = packed.bytes();
    let stride = 4 * (kk / 4 + 12);
    for j in 0..8 {
        let (g, c) = (j / 4, j % 4);
        for k_idx in 0..kk {
            let (b, s, i) = (k_idx / 16, (k_idx % 16) / 4, k_idx % 4);
            let got = (bytes[g * stride + 16 * b + 4 * c + i] >> (2 * s)) & 3;
            let want = if j < n { code(j, k_idx) } else { 2 };
            assert_eq!(got, want, "4x4 column {j} K {k_idx}");
        }
        let sum = i32_at(bytes, g * stride + 32 + 4 * c);
        let plain: i32 = (0..kk)
            .map(|k_idx| DEFAULT_LUT[code(j, k_idx) as usize])
            .sum();
        assert_eq!(sum, if j < n { plain } else { 0 }, "4x4 sum {j}");
    }
    // 4vlx4 (nr 8): per 4 K values, one source byte per column; columns past n repeat n - 1.
    let packed = pack_rhs(&p, P4VLX4, 8, Edge::End);
    let bytes = packed.bytes();
    let src = p.source();
    for col in 0..8 {
        for b in 0..kk / 4 {
            assert_eq!(
                bytes[b * 8 + col],
                src[col.min(n - 1) * kk / 4 + b],
                "4vlx4 column {col} byte {b}"
            );
        }
        let trailer = 8 * kk / 4;
        let plain: i32 = (0..kk)
            .map(|k_idx| DEFAULT_LUT[code(col.min(n - 1), k_idx) as usize])
            .sum();
        assert_eq!(i32_at(bytes, trailer + 4 * col), plain, "4vlx4 sum {col}");
        let scale = f32::from_le_bytes(bytes[trailer + 32 + 4 * col..][..4].try_into().unwrap());
        assert_eq!(scale, if col < n { p.scale[col] } else { 0.0 });
    }
    // Sums with a table of 100s and every code 0: the vectorised paths add pairs in int8
    // (100 + 100 wraps to -56, two pairs a byte), the 4x4 packer's last group adds whole values.
    let mut p = Problem::new(1, 9, 32, false, Some([100; 4]), 2);
    p.codes.fill(0);
    let packed = pack_rhs(&p, P4X4, 4, Edge::End);
    let stride = 4 * (32 / 4 + 12);
    for g in 0..3 {
        let sum = i32_at(packed.bytes(), g * stride + 32);
        let want = if g < 2 { -56 * 2 * 8 } else { 100 * 32 };
        assert_eq!(sum, want, "4x4 group {g}");
    }
    let packed = pack_rhs(&p, P4VLX4, 16, Edge::End);
    assert_eq!(i32_at(packed.bytes(), 16 * 8), -56 * 2 * 8, "4vlx4");
}

/// Shapes (m, n, k): KleidiAI's test shapes plus row and column tails of every tile.
#[rustfmt::skip]
const SHAPES: [(usize, usize, usize); 16] = [
    (8, 4, 32), (16, 8, 64), (7, 3, 32), (9, 5, 32), (3, 3, 32), (15, 63, 32),
    (17, 65, 32), (19, 129, 64), (1, 128, 32), (1, 225, 64), (1, 71, 32), (6, 13, 96),
    (5, 6, 128), (33, 17, 32), (2, 2, 256), (12, 70, 64),
];

fn problems(k: &MatmulKernel) -> impl Iterator<Item = Problem> + '_ {
    let one_row = k.rows == rkai_ukernels::kernel::Rows::One;
    SHAPES.iter().enumerate().map(move |(seed, &(m, n, kk))| {
        // The GEMV takes one row a call; the tester calls it row by row.
        let m = if one_row { m.min(3) } else { m };
        Problem::new(
            m,
            n,
            kk,
            seed % 2 == 0,
            LUTS[seed % LUTS.len()],
            100 + seed as u64,
        )
    })
}

reference_tests!(
    runnable: runnable(),
    all: family_kernels(),
    check: |k, which| tester::check_kernel::<Qsu2cxp>(k, problems(k), &[which]),
);

#[test]
fn threads_on_disjoint_portions_equal_one_call() {
    let kernels = runnable();
    let tiles = tester::threads_equal_one_call_on::<Qsu2cxp>(&kernels, |k, (m, n)| {
        let m = if k.rows == rkai_ukernels::kernel::Rows::One {
            1
        } else {
            m
        };
        Problem::new(m, n, 96, true, LUTS[2], 77)
    });
    eprintln!("RELIABILITY concurrency {tiles}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn callee_saved_registers_survive() {
    let calls = tester::registers_survive_on::<Qsu2cxp>(&runnable(), |k| {
        let m = if k.rows == rkai_ukernels::kernel::Rows::One {
            1
        } else {
            9
        };
        vec![
            Problem::new(1, 8, 32, true, None, 5),
            Problem::new(m, 17, 64, true, Some([3, -1, 7, 0]), 6),
        ]
    });
    eprintln!("RELIABILITY registers {calls}");
}

/// KleidiAI's assertions, refused before anything runs (the C entry points abort with these
/// conditions: `capi::ensure`).
#[test]
fn contract_violations_are_refused() {
    let mut refused = 0;
    for k in family_kernels() {
        let (lhs, rhs, mut dst) = ([0u8; 64], [0u8; 64], [0f32; 8]);
        let dst = dst.as_mut_ptr();
        let args = |m: usize, kk: usize| call::PackedArgs {
            m,
            n: 1,
            k: kk,
            bl: 0,
            lhs_packed: lhs.as_ptr(),
            rhs_packed: rhs.as_ptr(),
            dst: dst.cast(),
            dst_stride_row: 4,
            dst_stride_col: 4,
            clamp_min: 0.0,
            clamp_max: 1.0,
            lut: std::ptr::null(),
            params: std::ptr::null(),
        };
        let refuse = |a: call::PackedArgs, condition: &str| {
            let v = call::check_packed(k, &a).expect_err(condition);
            assert_eq!(v.condition, condition, "{}", k.stem);
        };
        refuse(args(1, 48), "k % kai_k_multiple_of == 0");
        refuse(args(0, 32), "m > 0");
        if k.rows == rkai_ukernels::kernel::Rows::One {
            refuse(args(2, 32), "m == 1");
        }
        refused += 3;
    }
    // Packers: table-independent assertions in KleidiAI's order.
    use rkai_ukernels::pack::rhs::{self, Args};
    let (src, scale, mut out) = ([0u8; 64], [1f32; 8], [0u8; 4096]);
    let params = Params {
        lhs_zero_point: 1,
        rhs_zero_point: 2,
    };
    let bad_zp = Params {
        lhs_zero_point: 1,
        rhs_zero_point: 8,
    };
    for (v, nr) in [(Variant::P4x4, 4), (Variant::P4vlx4, 16)] {
        let base = Args {
            num_groups: 1,
            n: 3,
            k: 32,
            nr,
            kr: 4,
            sr: 1,
            bl: 0,
            rhs: src.as_ptr(),
            rhs_stride: 0,
            bias: std::ptr::null(),
            scale: scale.as_ptr().cast(),
            scale_stride: 0,
            zero: std::ptr::null(),
            rhs_packed: out.as_mut_ptr(),
            extra_bytes: 0,
            params: (&raw const params).cast(),
            lut: std::ptr::null(),
        };
        let kind = RhsPackerKind::Qsu2cxp(v);
        for (a, condition) in [
            (Args { k: 48, ..base }, "k % kai_k_multiple_of == 0"),
            (Args { kr: 8, ..base }, "(kr / sr) == 4"),
            (
                Args {
                    params: (&raw const bad_zp).cast(),
                    ..base
                },
                "params->rhs_zero_point == 2",
            ),
            (
                Args { nr: nr + 4, ..base },
                if v == Variant::P4x4 {
                    "nr == 4"
                } else {
                    "nr % 8 == 0"
                },
            ),
            (
                Args {
                    num_groups: 2,
                    ..base
                },
                "num_groups == 1",
            ),
        ] {
            // SAFETY: refused before any access.
            let got = unsafe { rhs::pack(kind, &a) }.expect_err(condition);
            assert_eq!(got.condition, condition);
            refused += 1;
        }
    }
    eprintln!("RELIABILITY contract {refused}");
}

/// Each SME kernel commits a caller's pending lazy ZA save before using ZA
/// ([`tester::lazy_za_saves_committed`]).
#[cfg(target_arch = "aarch64")]
#[test]
fn streaming_kernels_commit_a_pending_lazy_za_save() {
    tester::lazy_za_saves_committed::<Qsu2cxp>(&runnable(), |k| {
        Problem::new(3, k.tile().n_step + 1, 64, true, LUTS[3], 9)
    });
}

/// The reference's own pieces agree: the default table is code - 2, and the sums of the
/// vectorised and scalar paths agree whenever no int8 pair sum overflows.
#[test]
fn reference_sums_agree_without_overflow() {
    let codes: Vec<u8> = (0..64).map(|i| (i * 7 % 4) as u8).collect();
    for lut in [DEFAULT_LUT, [-64, 63, 0, 1], [5, 6, 7, 8]] {
        assert_eq!(
            qsu2cxp::row_sum(&codes, &lut, false),
            qsu2cxp::row_sum(&codes, &lut, true)
        );
    }
}
