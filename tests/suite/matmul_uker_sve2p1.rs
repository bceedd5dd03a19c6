//! KleidiAI's generic matmul interface (`kai_matmul.h`): the table of
//! `kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot` (function pointers called as C
//! calls them) on weights packed by `kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`, against
//! KleidiAI's getter formulas and a scalar reference in KleidiAI's order of operations, at the
//! SVE length of the CPU under test (SVE2.1 asm where the CPU has it, the portable path
//! otherwise): edge shapes (m around the 6-row step, n around nr, odd and even k), row and
//! column portions through the offset getters, padded row strides, guard pages, register
//! canaries, hostile halves, both clamp settings and KleidiAI's assumptions.

use crate::support;

use rkai_capi::capi::exports::kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot as provider;
use rkai_ukernels::arch::{self, Features, Isa};
use rkai_ukernels::float::f16;
use rkai_ukernels::matmul::uker::sve2p1_dot;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use rkai_ukernels::pack::rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve as packer;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;
use support::uker::{CLAMP, CLAMPS, Getters, Nulls, Uker, args, check_getters};

const NAME: &str = "kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot";
const KERNEL: Uker = Uker::new(NAME, provider);

/// nr = 16 x vscale: the SVE length in bytes (16 without SVE), checked against the QEMU model
/// when the test matrix names one.
fn expected_nr() -> usize {
    let nr = arch::sve_vector_bytes().unwrap_or(16);
    assert_eq!(nr, 4 * arch::sve_lanes32());
    if let Ok(model) = std::env::var("RKAI_EXPECT_CPU") {
        let expected = support::cpu::expected_sve_bytes(&model);
        assert_eq!(nr, expected, "SVE bytes under {model}");
    }
    nr
}

/// Whether the asm runs here (else the portable path answers through the table).
fn native() -> bool {
    support::uker::asm_runs(Isa::Sve2p1)
}

/// Every edge shape up to 512-bit SVE (or with `RKAI_SME_CASES=all`); above, a reduced set that
/// still reaches each path (full and partial row groups, blocks and K steps).
fn full_sweep() -> bool {
    arch::sve_vector_bytes().unwrap_or(0) <= support::tester::EVERY_CASE_UP_TO_SVL_BYTES
        || support::tester::every_sme_case_asked()
}

/// KleidiAI's getter values, from its formulas: m_step 1, n_step = nr = 16 x vscale, 2-byte
/// values, K rounded up to pairs in the RHS stride (as the SVE packer computes it).
#[test]
fn getters_equal_kleidiai() {
    let nr = expected_nr();
    let rhs_stride = |k: usize| {
        let stride = nr * (2 + k.div_ceil(2) * 2 * 2);
        assert_eq!(stride, packer::packed_stride(packer::Width::Sve16vs, k));
        stride
    };
    let lhs_stride = |k: usize| k * 2;
    check_getters(&KERNEL, &Getters::gemv(nr, (&lhs_stride, &rhs_stride), 2));
}

/// One problem: `m` x `k` LHS, `k` x `n` RHS and `n` biases, all f16 bits.
struct Problem {
    m: usize,
    n: usize,
    k: usize,
    lhs: Vec<u16>,
    rhs: Vec<u16>,
    bias: Vec<u16>,
}

fn le_bytes(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

impl Problem {
    fn random(rng: &mut Rng, (m, n, k): (usize, usize, usize)) -> Self {
        let mut h = |len: usize, lo: f32, hi: f32| -> Vec<u16> {
            (0..len).map(|_| f16::from_f32(rng.f32(lo, hi))).collect()
        };
        let lhs = h(m * k, -2.0, 2.0);
        let rhs = h(k * n, -2.0, 2.0);
        let bias = h(n, -1.0, 1.0);
        Problem {
            m,
            n,
            k,
            lhs,
            rhs,
            bias,
        }
    }

    /// The RHS packed by rkai's packer (its bytes are checked in `tests/suite/matmul_pack_rhs.rs`).
    fn packed(&self) -> Vec<u8> {
        let stride = packer::packed_stride(packer::Width::Sve16vs, self.k);
        let mut out = vec![0xa5u8; packer::packed_size(packer::Width::Sve16vs, self.n, stride)];
        let (rhs, bias) = (le_bytes(&self.rhs), le_bytes(&self.bias));
        let a = packer::Args {
            n: self.n,
            k: self.k,
            rhs: rhs.as_ptr(),
            rhs_stride: self.n * 2,
            bias: bias.as_ptr(),
            rhs_packed: out.as_mut_ptr(),
            packed_stride: stride,
        };
        // SAFETY: the buffers hold the source rows, n biases and the packed size.
        unsafe { packer::run(packer::Width::Sve16vs, &a) };
        out
    }

    /// KleidiAI's order of operations without the clamp ([`clamped`] is its last step): the
    /// column's bias widened to f32, one 2-way `FDOT` step per K pair in K order (an odd K's
    /// last value paired with zeros), then `FCVT` to f16.
    fn reference(&self) -> Vec<u16> {
        let (n, k) = (self.n, self.k);
        let mut out = Vec::with_capacity(self.m * n);
        for i in 0..self.m {
            let x = |kk: usize| if kk < k { self.lhs[i * k + kk] } else { 0 };
            let w = |kk: usize, j: usize| if kk < k { self.rhs[kk * n + j] } else { 0 };
            for j in 0..n {
                let mut acc = f32::from_bits(f16::to_f32_bits(self.bias[j]));
                for p in 0..k.div_ceil(2) {
                    let (k0, k1) = (2 * p, 2 * p + 1);
                    acc = f16::fdot(acc, [w(k0, j), w(k1, j)], [x(k0), x(k1)]);
                }
                out.push(f16::from_f32(acc));
            }
        }
        out
    }
}

/// Fill of every output a call must not write (a NaN no result has).
const FILL: u16 = 0x7d5a;

fn halves(g: &Guarded, len: usize) -> Vec<u16> {
    g.bytes()[..2 * len]
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// The run arguments of a call, with the strides the caller chose.
fn call_args(
    flags: u64,
    shape: (usize, usize, usize),
    (lhs, lhs_row): (*const u8, usize),
    rhs: *const u8,
    (dst, dst_row): (*mut u8, usize),
    bounds: (&f32, &f32),
) -> kai_matmul_uker_args {
    let mut a = args(flags, shape, (lhs, rhs, dst), bounds);
    a.operand.lhs.stride.m = lhs_row;
    a.operand.dst.stride.m = dst_row;
    // KleidiAI reads no RHS stride: the blocks are contiguous.
    a.operand.rhs.stride.n = 3;
    a
}

/// `y` clamped to the f16 bounds (`FCLAMP`) when asked: the reference's last step.
fn clamped(y: &[u16], clamp: Option<(f32, f32)>) -> Vec<u16> {
    match clamp {
        None => y.to_vec(),
        Some((lo, hi)) => {
            let (lo, hi) = (f16::from_f32(lo), f16::from_f32(hi));
            y.iter().map(|&v| f16::clamp_num(v, lo, hi)).collect()
        }
    }
}

/// The portable path on `lhs` (rows `lrow` values apart) into rows `drow` values apart equals
/// `expect`.
fn portable_equals(
    p: &Problem,
    (lhs, lrow): (&[u16], usize),
    packed: &[u8],
    drow: usize,
    clamp: Option<(f32, f32)>,
    expect: &[u16],
) {
    let (m, n, k) = (p.m, p.n, p.k);
    let mut out = vec![FILL; m * drow];
    let c = sve2p1_dot::Call {
        m,
        n,
        k,
        lhs: lhs.as_ptr().cast(),
        lhs_row: 2 * lrow,
        rhs: packed.as_ptr(),
        dst: out.as_mut_ptr().cast(),
        dst_row: 2 * drow,
    };
    // SAFETY: the buffers hold m rows of lrow / drow values and the packed blocks.
    unsafe { sve2p1_dot::portable(&c, expected_nr(), clamp) };
    for i in 0..m {
        assert_eq!(
            &out[i * drow..i * drow + n],
            &expect[i * n..i * n + n],
            "portable row {i} of {m}x{n}x{k} {clamp:?}"
        );
    }
}

/// One problem: the portable path, then every guard edge with both clamp settings, LHS and
/// destination rows padded by `pad` values, the whole call and (with `portions`) row and column
/// portions through the offset getters; returns the runs.
fn check(p: &Problem, clamps: &[Option<(f32, f32)>], pad: usize, portions: bool) -> usize {
    let nr = expected_nr();
    let (m, n, k) = (p.m, p.n, p.k);
    let packed = p.packed();
    let (lrow, drow) = (k + pad, n + pad);
    let mut lhs = vec![0x7e11u16; m * lrow];
    for i in 0..m {
        lhs[i * lrow..i * lrow + k].copy_from_slice(&p.lhs[i * k..i * k + k]);
    }
    let mut runs = 0;
    let unclamped = p.reference();
    for (ci, &clamp) in clamps.iter().enumerate() {
        let expect = clamped(&unclamped, clamp);
        let (flags, lo, hi) = match clamp {
            Some((lo, hi)) => (CLAMP, lo, hi),
            // Bounds that would change the result if they were read.
            None => (0, 1.0, -1.0),
        };
        // The portable path gives the same bits (blocks of this CPU's SVE length): without
        // clamp and with the first one.
        if ci < 2 {
            portable_equals(p, (&lhs, lrow), &packed, drow, clamp, &expect);
        }
        // Both guard edges once (full sweep), else the end one.
        let edges: &[_] = if ci == 0 && full_sweep() {
            &EDGES
        } else {
            &EDGES[..1]
        };
        for &edge in edges {
            let l = Guarded::from_bytes(&le_bytes(&lhs), edge);
            let r = Guarded::from_bytes(&packed, edge);
            // Row portions: [0, m) whole, then a split at a row (m_step 1) and a column block.
            let row_splits: Vec<(usize, usize)> = if portions && m > 1 {
                vec![(0, m), (0, m / 2), (m / 2, m)]
            } else {
                vec![(0, m)]
            };
            let col_splits: Vec<(usize, usize)> = if portions && n > nr {
                vec![(0, n), (nr, n), (0, nr)]
            } else {
                vec![(0, n)]
            };
            for &(m0, m1) in &row_splits {
                for &(n0, n1) in &col_splits {
                    let mut d = Guarded::from_bytes(&le_bytes(&vec![FILL; m * drow]), edge);
                    let (ls, ds) = (2 * lrow, 2 * drow);
                    let lo_off = KERNEL.lhs_offset(m0, 0, ls);
                    let r_off = KERNEL.rhs_offset(n0, 0, KERNEL.rhs_stride(n, k));
                    let d_off = KERNEL.dst_offset(m0, n0, ds);
                    // SAFETY: the offsets of a start row below m and a block start below n.
                    let (lp, rp, dp) = unsafe {
                        (
                            l.ptr().add(lo_off),
                            r.ptr().add(r_off),
                            d.mut_ptr().add(d_off),
                        )
                    };
                    KERNEL.run(&call_args(
                        flags,
                        (m1 - m0, n1 - n0, k),
                        (lp, ls),
                        rp,
                        (dp, ds),
                        (&lo, &hi),
                    ));
                    let got = halves(&d, m * drow);
                    for i in 0..m {
                        for j in 0..drow {
                            let inside = (m0..m1).contains(&i) && (n0..n1).contains(&j);
                            let want = if inside { expect[i * n + j] } else { FILL };
                            assert_eq!(
                                got[i * drow + j],
                                want,
                                "({i}, {j}) of {m}x{n}x{k} portion rows {m0}..{m1} columns \
                                 {n0}..{n1} {clamp:?} {edge:?} (asm: {})",
                                native()
                            );
                        }
                    }
                    runs += 1;
                }
            }
        }
    }
    runs
}

#[test]
fn gemm_equals_reference_at_edge_shapes() {
    let nr = expected_nr();
    let mut rng = Rng::new(2711);
    let mut runs = 0;
    let (ms, ns, ks): (Vec<usize>, Vec<usize>, Vec<usize>) = if full_sweep() {
        (
            vec![1, 5, 6, 7, 13],
            vec![1, nr - 1, nr, nr + 1, 3 * nr + 5],
            vec![1, 2, 3, 9, 17],
        )
    } else {
        (vec![1, 7], vec![nr - 1, 2 * nr + 1], vec![3, 17])
    };
    for &m in &ms {
        for &n in &ns {
            for &k in &ks {
                let p = Problem::random(&mut rng, (m, n, k));
                let portions = m == 7 || (m == ms[0] && n == ns[ns.len() - 1]);
                runs += check(&p, &CLAMPS, (m + k) % 3, portions);
            }
        }
    }
    eprintln!(
        "{runs} runs equal the reference (nr {nr}, SVE2.1 asm: {})",
        native()
    );
    eprintln!("RELIABILITY reference {runs}");
}

/// Longer K (several 8-value steps) and more rows than one asm call takes.
#[test]
fn longer_k_and_many_rows() {
    let nr = expected_nr();
    let mut rng = Rng::new(99);
    let mut runs = 0;
    for (m, n, k) in [(19, nr + 3, 40), (6, 2 * nr, 33)] {
        let p = Problem::random(&mut rng, (m, n, k));
        runs += check(&p, &CLAMPS[..2], 1, false);
    }
    eprintln!("{runs} runs equal the reference");
}

/// Infinities, NaNs (the quiet default NaN and one signalling NaN), signed zeros, subnormals
/// and overflowing sums in every operand, without clamp (they pass) and with (`FCLAMP`'s
/// rules, NaN bounds too). One quiet and one signalling NaN value only: QEMU and the
/// architecture pick among several NaNs differently (`float::f16::fdot`).
#[test]
fn hostile_halves() {
    let nr = expected_nr();
    let specials: [u16; 10] = [
        0x7c00, // +inf
        0xfc00, // -inf
        0x7e00, // quiet NaN (the default NaN)
        0x7d00, // signalling NaN
        0x8000, // -0
        0x0000, // +0
        0x0001, // smallest subnormal
        0x7bff, // 65504
        0xfbff, // -65504
        0x5a00, // 192
    ];
    let mut rng = Rng::new(5);
    let mut runs = 0;
    let shapes: &[(usize, usize, usize)] = if full_sweep() {
        &[(7, nr + 1, 3), (2, 2 * nr + 2, 5), (1, 2, 1)]
    } else {
        &[(7, nr + 1, 3)]
    };
    for &(m, n, k) in shapes {
        for round in 0..4 {
            let mut p = Problem::random(&mut rng, (m, n, k));
            let spice = |v: &mut Vec<u16>, salt: usize| {
                for (i, x) in v.iter_mut().enumerate() {
                    if (i + round + salt) % 3 == 0 {
                        *x = specials[(i * 7 + round + salt) % specials.len()];
                    }
                }
            };
            spice(&mut p.lhs, 0);
            spice(&mut p.rhs, 1);
            spice(&mut p.bias, 2);
            let clamps = [&support::uker::HOSTILE_CLAMPS[..], &[Some((1.0e6, 1.0e9))]].concat();
            runs += check(&p, &clamps, 0, false);
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
    eprintln!("RELIABILITY hostile {runs}");
}

/// `m == 0` and `n == 0` write nothing; `k == 0` gives the (clamped) biases.
#[test]
fn empty_shapes() {
    let nr = expected_nr();
    let mut rng = Rng::new(8);
    let p = Problem::random(&mut rng, (3, nr + 1, 0));
    assert!(check(&p, &CLAMPS[..2], 0, false) >= 2);
    let one = [0x3c00u16; 4];
    for (m, n) in [(0, 1), (1, 0)] {
        let mut d = Guarded::from_bytes(&le_bytes(&[FILL]), EDGES[0]);
        KERNEL.run(&call_args(
            0,
            (m, n, 1),
            (one.as_ptr().cast(), 2),
            one.as_ptr().cast(),
            (d.mut_ptr(), 2),
            (&0.0, &0.0),
        ));
        assert_eq!(halves(&d, 1), [FILL]);
    }
}

/// The feature the kernel needs follows the model: QEMU's `max` has SVE2.1, no model without
/// SVE2 reports it.
#[test]
fn sve2p1_follows_the_model() {
    let f = Features::detect();
    assert!(!f.contains(Features::SVE2P1) || f.contains(Features::SVE2));
    if let Ok(model) = std::env::var("RKAI_EXPECT_CPU") {
        let expected = model.starts_with("max") && !model.split(',').any(|o| o == "sve=off");
        assert_eq!(f.contains(Features::SVE2P1), expected, "{model}");
        assert_eq!(native(), expected);
    }
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, strides: (usize, usize), k: usize, nulls: Nulls) {
        let x = [0x3c00u16; 256];
        let mut d = [0u16; 256];
        let mut a = call_args(
            flags,
            (2, 4, k),
            (x.as_ptr().cast(), strides.0),
            x.as_ptr().cast(),
            (d.as_mut_ptr().cast(), strides.1),
            (&0.0, &1.0),
        );
        nulls.apply(&mut a);
        KERNEL.run(&a);
    }
    fn valid(flags: u64, nulls: Nulls) {
        call(flags, (4, 8), 2, nulls)
    }
    let mut cases = uker_float_violations!(valid);
    let own: Vec<support::death::Case<&'static str, &'static str>> = vec![
        (
            "lhs_stride_odd",
            NAME,
            "args->operand.lhs.stride.m % LHS_ELEM_BYTES == 0",
            || call(0, (5, 8), 2, Nulls::None),
        ),
        (
            "dst_stride_odd",
            NAME,
            "args->operand.dst.stride.m % DST_ELEM_BYTES == 0",
            || call(CLAMP, (4, 9), 2, Nulls::None),
        ),
        ("k_above_u32", NAME, "args->shape.k <= UINT32_MAX", || {
            call(0, (4, 8), 1 << 32, Nulls::None)
        }),
    ];
    cases.extend(own);
    cases
}

death_tests!(violations, "assumptions", "contract");
