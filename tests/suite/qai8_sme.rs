//! KleidiAI's SME int8-output GEMMs (`matmul_clamp_qai8_qai8p_qsi8cxp`: `_2vlx2vl_sme_mopa` and
//! `_2vlx2vl_sme2_mopa`) and its SME2 int8-output GEMV (`matmul_clamp_qai8_qai8_qsi8cxp`:
//! `_1x16vl_sme2_dot`, one unpacked LHS row, `m == 1`) through their C symbols, at the streaming vector length of the CPU
//! running the test (`scripts/test-matrix.sh` runs it at every one; the portable paths run
//! everywhere). Operands are packed by the paired packers' C symbols
//! (`lhs_pack_x8p2vlx4_x8_sme`, `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`); every kernel
//! (exported, and the portable path) equals `reference::qai8::matmul` on the unpacked operands
//! byte for byte: row and column counts around the tile (1, tile - 1, tile, tile + 1, more than
//! two tiles), K of 0, 1, odd and multiples of the K loop, the portions a threaded framework
//! computes (pointers through the offset getters), destinations against guard pages with a
//! canary byte everywhere outside the portion, hostile data (sums at the ends of `i32` and
//! wrapping, zero points at the ends of `i32`, scales that saturate or are not finite, bounds
//! outside `int8_t`, `min_value > max_value`, whose result differs between the SME and SME2
//! kernels as in KleidiAI); `dst_stride_col` is ignored; callee-saved registers and a caller's
//! pending lazy ZA save survive; invalid arguments abort naming the condition. The GEMV runs the
//! same problems with one row (its LHS the row's bytes against a guard page), over columns
//! around its group and its step (1, nr + 1, n_step - 1, n_step, n_step + 1, 3 n_step + 5), K
//! past its 16-value loop (odd, above 64), portions at multiples of n_step, and ignores both
//! destination strides.

use crate::support;

use rkai_capi::capi::exports::symbol_address;
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::args::PackedArgs;
use rkai_ukernels::matmul::matmul_clamp_qai8_qai8_qsi8cxp as gemv_family;
use rkai_ukernels::matmul::matmul_clamp_qai8_qai8p_qsi8cxp as family;
use rkai_ukernels::reference::qai8::{self, ClampOrder, Requantize};
use rkai_ukernels::types::{kai_matmul_requantize32_params, kai_rhs_pack_qsi8cx_params};
use std::ptr;
use support::cabi::func as sym;
use support::cabi::{
    Getter0, Getter2, Getter3, LhsQuantPackHalfFn, MatmulQai8Fn, RhsPackFloatFn, TILE_GETTERS,
};
use support::gemm::{Impl, Portion, portions};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{roundup, two_vl};
use support::{sme_pack, tester};

const SME: &str = "matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa";
const SME2: &str = "matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa";
const LHS: &str = "lhs_pack_x8p2vlx4_x8_sme";
const RHS: &str = "rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";
const GEMV: &str = "matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot";

/// The byte every destination holds before a call.
const CANARY: u8 = 0xa5;

fn family_kernels(family: Family) -> Vec<&'static MatmulKernel> {
    let all = catalog::KERNELS.iter().copied();
    tester::narrowed(all.filter(|k| k.family == family)).collect()
}

/// The GEMMs.
fn kernels() -> Vec<&'static MatmulKernel> {
    family_kernels(Family::Qai8Qai8pQsi8cxp)
}

/// The GEMV.
fn gemv_kernels() -> Vec<&'static MatmulKernel> {
    family_kernels(Family::Qai8Qai8Qsi8cxp)
}

fn runnable_of(kernels: Vec<&'static MatmulKernel>) -> Vec<&'static MatmulKernel> {
    tester::runnable(
        kernels.into_iter(),
        |k| support::cpu::can_run(k.isa),
        "SME int8-output",
    )
}

fn runnable() -> Vec<&'static MatmulKernel> {
    runnable_of(kernels())
}

fn gemv_runnable() -> Vec<&'static MatmulKernel> {
    runnable_of(gemv_kernels())
}

/// The GEMMs through the portable path, then those this CPU runs through their symbols.
fn implementations() -> Vec<(&'static MatmulKernel, Impl)> {
    tester::implementations(kernels().into_iter(), runnable())
}

/// The GEMV through the portable path, then through its symbol where this CPU runs it.
fn gemv_implementations() -> Vec<(&'static MatmulKernel, Impl)> {
    tester::implementations(gemv_kernels().into_iter(), gemv_runnable())
}

/// Whether `k` is the GEMV (an unpacked LHS row, `m == 1`).
fn is_gemv(k: &MatmulKernel) -> bool {
    k.family == Family::Qai8Qai8Qsi8cxp
}

/// The GEMV's `nr` and `n_step`: 2 and 16 x the streaming length in 32-bit lanes.
fn gemv_tile() -> (usize, usize) {
    (2 * sme_pack::svl32(), 16 * sme_pack::svl32())
}

/// One problem on unpacked operands (`safe_api_int8` runs them through the safe API too).
#[derive(Clone)]
pub(crate) struct Problem {
    pub(crate) m: usize,
    pub(crate) n: usize,
    pub(crate) k: usize,
    /// `m` rows of `k`.
    pub(crate) lhs: Vec<i8>,
    /// `k` rows of `n`.
    pub(crate) rhs: Vec<i8>,
    pub(crate) bias: Vec<i32>,
    pub(crate) scale: Vec<f32>,
    pub(crate) lhs_zero_point: i32,
    pub(crate) scale_multiplier: f32,
    pub(crate) params: kai_matmul_requantize32_params,
}

impl Problem {
    /// Random values of every int8 value (extremes often), biases of any size, scales that
    /// bring the sums near the int8 range, bounds that bite.
    pub(crate) fn random(m: usize, n: usize, k: usize, seed: u64) -> Problem {
        let mut rng = Rng::new(seed);
        let mut byte = || {
            let r = rng.next_u64();
            match r % 8 {
                0 => [-128i8, 127, -1, 1][(r >> 8) as usize % 4],
                _ => (r >> 16) as i8,
            }
        };
        let lhs = (0..m * k).map(|_| byte()).collect();
        let rhs = (0..k * n).map(|_| byte()).collect();
        let mut rng = Rng::new(seed ^ 0x5eed);
        let bias = (0..n).map(|_| rng.range_i32(-40_000, 40_000)).collect();
        let scale = (0..n)
            .map(|_| (rng.range_i32(1, 1000) as f32) / (1000.0 * 64.0 * (k as f32 + 1.0)))
            .collect();
        Problem {
            m,
            n,
            k,
            lhs,
            rhs,
            bias,
            scale,
            lhs_zero_point: rng.range_i32(-128, 127),
            scale_multiplier: 0.75,
            params: kai_matmul_requantize32_params {
                min_value: -100,
                max_value: 90,
                output_zero_point: rng.range_i32(-20, 20),
            },
        }
    }

    /// The expected `m` x `n` bytes for a kernel clamping in `order`.
    pub(crate) fn reference(&self, order: ClampOrder) -> Vec<u8> {
        let operands = qai8::Operands {
            lhs: &self.lhs,
            rhs: &self.rhs,
            bias: &self.bias,
            scale: &self.scale,
            lhs_zero_point: self.lhs_zero_point,
            scale_multiplier: self.scale_multiplier,
        };
        let p = Requantize {
            min_value: self.params.min_value,
            max_value: self.params.max_value,
            output_zero_point: self.params.output_zero_point,
        };
        qai8::matmul((self.m, self.n, self.k), &operands, p, order)
            .map(|v| v as u8)
            .collect()
    }

    /// The LHS `kernel` reads (packed by its packer's C symbol; the GEMV's: the row's bytes) and
    /// the packed RHS, in guarded buffers of exactly their sizes.
    pub(crate) fn pack(&self, kernel: &MatmulKernel, edge: Edge) -> (Guarded, Guarded) {
        let src: Vec<u8> = self.lhs.iter().map(|&v| v as u8).collect();
        let src = Guarded::from_bytes(&src, edge);
        if is_gemv(kernel) {
            return (src, self.pack_rhs(edge));
        }
        let t = two_vl();
        let lhs_size = sym::<Getter5>("get_lhs_packed_size", LHS)(self.m, self.k, t, 4, 1);
        assert_eq!(lhs_size, roundup(self.m, t) * roundup(self.k, 4));
        let mut lhs = Guarded::new(lhs_size, edge);
        // SAFETY: the source holds m rows of k bytes, the output the packed size.
        unsafe {
            sym::<LhsQuantPackHalfFn>("run", LHS)(
                self.m,
                self.k,
                t,
                4,
                1,
                0,
                src.ptr().cast(),
                self.k,
                lhs.mut_ptr().cast(),
            )
        };
        (lhs, self.pack_rhs(edge))
    }

    /// The packed RHS (of both families), by the packer's C symbol, in a guarded buffer of
    /// exactly the packed size.
    fn pack_rhs(&self, edge: Edge) -> Guarded {
        let t = two_vl();
        let rhs_size = sym::<Getter2>("get_rhs_packed_size", RHS)(self.n, self.k);
        let mut rhs = Guarded::new(rhs_size, edge);
        let src: Vec<u8> = self.rhs.iter().map(|&v| v as u8).collect();
        let src = Guarded::from_bytes(&src, edge);
        let bias: Vec<u8> = self.bias.iter().flat_map(|b| b.to_le_bytes()).collect();
        let scale: Vec<u8> = self.scale.iter().flat_map(|s| s.to_le_bytes()).collect();
        let params = kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: self.lhs_zero_point,
            scale_multiplier: self.scale_multiplier,
        };
        // SAFETY: the sources hold the problem's k x n values, n biases and n scales.
        unsafe {
            sym::<RhsPackFloatFn>("run", RHS)(
                1,
                self.n,
                self.k,
                t,
                4,
                1,
                self.n,
                src.ptr().cast(),
                bias.as_ptr().cast(),
                scale.as_ptr().cast(),
                rhs.mut_ptr().cast(),
                0,
                (&raw const params).cast(),
            )
        };
        rhs
    }
}

type Getter5 = support::cabi::Getter5;

/// Runs `portion` of a problem through `which`, every pointer offset through `k`'s getters as a
/// framework does (the GEMV's LHS offset through `get_lhs_offset`), into `dst` (rows `stride` bytes apart); `dst_stride_col` as given.
///
/// # Safety
/// The buffers hold the packed operands and the destination of the whole problem.
#[allow(clippy::too_many_arguments)]
unsafe fn run_portion(
    k: &MatmulKernel,
    which: Impl,
    kk: usize,
    (lhs, rhs, dst): (*const u8, *const u8, *mut u8),
    stride: usize,
    portion: Portion,
    params: &kai_matmul_requantize32_params,
    dst_stride_col: usize,
) {
    let (m0, n0, mh, nw) = portion;
    let lhs_offset = if is_gemv(k) {
        "get_lhs_offset"
    } else {
        "get_lhs_packed_offset"
    };
    let lo = sym::<Getter2>(lhs_offset, k.stem)(m0, kk);
    let ro = sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, kk);
    let d = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, stride);
    // SAFETY: offsets from the getters stay inside the caller's buffers.
    unsafe {
        let (lhs, rhs, dst) = (lhs.add(lo), rhs.add(ro), dst.add(d));
        match which {
            Impl::Exported => sym::<MatmulQai8Fn>("run", k.stem)(
                mh,
                nw,
                kk,
                lhs.cast(),
                rhs.cast(),
                dst.cast(),
                stride,
                dst_stride_col,
                params,
            ),
            Impl::Portable => {
                let args = PackedArgs {
                    m: mh,
                    n: nw,
                    k: kk,
                    bl: 0,
                    lhs_packed: lhs,
                    rhs_packed: rhs,
                    dst,
                    dst_stride_row: stride,
                    dst_stride_col,
                    clamp_min: 0.0,
                    clamp_max: 0.0,
                    lut: ptr::null(),
                    params,
                };
                if is_gemv(k) {
                    gemv_family::check(k, &args).expect("valid call");
                    gemv_family::portable(k, &args)
                } else {
                    family::check(k, &args).expect("valid call");
                    family::portable(k, &args)
                }
            }
        }
    }
}

/// Runs `portion` of `p` through `which` into a guarded destination of `m` rows of `stride`
/// bytes filled with [`CANARY`], and checks it: the reference inside the portion, the canary
/// elsewhere. Returns the number of checked bytes.
fn check_call(
    k: &MatmulKernel,
    which: Impl,
    p: &Problem,
    packed: &(Guarded, Guarded),
    expect: &[u8],
    (edge, stride, portion): (Edge, usize, Portion),
    dst_stride_col: usize,
) {
    let len = if p.m == 0 {
        0
    } else {
        (p.m - 1) * stride + p.n
    };
    let mut dst = Guarded::new(len, edge);
    dst.bytes_mut().fill(CANARY);
    let ptrs = (packed.0.ptr(), packed.1.ptr(), dst.mut_ptr());
    // SAFETY: the packed buffers and the destination hold the whole problem.
    unsafe {
        run_portion(
            k,
            which,
            p.k,
            ptrs,
            stride,
            portion,
            &p.params,
            dst_stride_col,
        )
    };
    let (m0, n0, mh, nw) = portion;
    let got = dst.bytes();
    for i in 0..p.m {
        for j in 0..p.n {
            let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
            let want = if inside { expect[i * p.n + j] } else { CANARY };
            assert_eq!(
                got[i * stride + j],
                want,
                "{} {}: m={} n={} k={} portion {portion:?} edge {edge:?} stride {stride}: \
                 element ({i}, {j}) {}",
                k.stem,
                which.name(),
                p.m,
                p.n,
                p.k,
                if inside {
                    "wrong"
                } else {
                    "written outside the portion"
                },
            );
        }
    }
}

/// Counts around the tile: 1, tile - 1, tile, tile + 1 and more than two tiles.
fn counts() -> Vec<usize> {
    let t = two_vl();
    let mut v = vec![1, t - 1, t, t + 1, 2 * t + 3];
    v.sort_unstable();
    v.dedup();
    v
}

/// K values: none, one, fewer than a step, odd, the K loop's 4-step blocks and their tails.
const DEPTHS: [usize; 8] = [0, 1, 3, 4, 5, 16, 29, 33];

#[test]
fn getters_follow_kleidiai() {
    let t = two_vl();
    let ks = kernels();
    assert_eq!(ks.len(), 2);
    for k in &ks {
        let got = TILE_GETTERS.map(|verb| sym::<Getter0>(verb, k.stem)());
        assert_eq!(got, [t, t, t, t, 4, 1], "{}", k.stem);
        for kk in [0, 1, 4, 7, 100] {
            let kp = roundup(kk, 4);
            for idx in [0, t, 3 * t] {
                let lhs = sym::<Getter2>("get_lhs_packed_offset", k.stem)(idx, kk);
                assert_eq!(lhs, idx * kp, "{}", k.stem);
                let rhs = sym::<Getter2>("get_rhs_packed_offset", k.stem)(idx, kk);
                assert_eq!(rhs, idx / t * t * (4 + kp + 4), "{}", k.stem);
                assert_eq!(rhs, sym::<Getter2>("get_rhs_packed_offset", RHS)(idx, kk));
                assert_eq!(
                    lhs,
                    sym::<Getter5>("get_lhs_packed_offset", LHS)(idx, kk, t, 4, 1)
                );
            }
        }
        assert_eq!(
            sym::<Getter3>("get_dst_offset", k.stem)(t, 2 * t, 1000),
            t * 1000 + 2 * t
        );
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(3, 5), 15);
    }
    eprintln!("RELIABILITY getters {}", ks.len());
}

/// Every row count with every column count and depth, against both guard edges (one above
/// 512-bit streaming lengths, [`tester::every_case_here`]), over the portions a framework
/// computes (the whole call and the last tile above 512 bits).
#[test]
fn kernels_equal_reference() {
    let mut cases = 0;
    for (k, which) in implementations() {
        let order = family::clamp_order(k);
        let all = tester::every_case_here(k);
        let t = two_vl();
        for (i, &m) in counts().iter().enumerate() {
            for (j, &n) in counts().iter().enumerate() {
                for (d, &kk) in DEPTHS.iter().enumerate() {
                    let seed = (1000 * i + 100 * j + d) as u64;
                    let p = Problem::random(m, n, kk, seed);
                    let expect = p.reference(order);
                    let edges: Vec<Edge> = match all {
                        true => EDGES.to_vec(),
                        false => vec![EDGES[(i + j + d) % 2]],
                    };
                    for edge in edges {
                        let packed = p.pack(k, edge);
                        let mut ps = portions(m, n, t, t);
                        if !all {
                            ps = vec![ps[0], ps[2]];
                        }
                        for portion in ps {
                            let stride = n + (i + d) % 3;
                            check_call(k, which, &p, &packed, &expect, (edge, stride, portion), 1);
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("{cases} int8-output cases equal the reference");
    eprintln!("RELIABILITY reference {cases}");
}

/// The hostile scenarios of an int8-output problem of `m` x `n` x `k`.
fn hostile(m: usize, n: usize, k: usize) -> Vec<(&'static str, Problem)> {
    let base = Problem::random(m, n, k, 77);
    let with = |f: &dyn Fn(&mut Problem)| {
        let mut p = base.clone();
        f(&mut p);
        p
    };
    let params = |min_value, max_value, output_zero_point| kai_matmul_requantize32_params {
        min_value,
        max_value,
        output_zero_point,
    };
    vec![
        // Every product (-128) x (-128) and biases near the top: the i32 sums wrap.
        (
            "sums wrap past i32::MAX",
            with(&|p| {
                p.lhs.fill(-128);
                p.rhs.fill(-128);
                p.bias.fill(i32::MAX - 1000);
                p.lhs_zero_point = 0;
                p.scale.fill(1.0);
                p.scale_multiplier = 1e-9;
            }),
        ),
        (
            "biases at i32::MIN, LHS zero point folds in",
            with(&|p| {
                p.bias.fill(i32::MIN);
                p.lhs_zero_point = i32::MAX;
            }),
        ),
        (
            "LHS zero point i32::MIN",
            with(&|p| p.lhs_zero_point = i32::MIN),
        ),
        (
            "output zero point i32::MAX (a saturated result wraps)",
            with(&|p| {
                p.params = params(i32::MIN, i32::MAX, i32::MAX);
                p.scale.fill(1e30);
            }),
        ),
        (
            "output zero point i32::MIN",
            with(&|p| p.params = params(i32::MIN, i32::MAX, i32::MIN)),
        ),
        (
            "scales that saturate both ways",
            with(&|p| {
                for (j, s) in p.scale.iter_mut().enumerate() {
                    *s = [1e30, -1e30, f32::MAX, f32::MIN_POSITIVE / 4.0][j % 4];
                }
                p.scale_multiplier = 3.0;
                p.params = params(-128, 127, 0);
            }),
        ),
        (
            "non-finite scales (NaN gives 0, infinities saturate)",
            with(&|p| {
                for (j, s) in p.scale.iter_mut().enumerate() {
                    *s = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0][j % 5];
                }
            }),
        ),
        (
            "infinite multiplier",
            with(&|p| p.scale_multiplier = f32::INFINITY),
        ),
        ("NaN multiplier", with(&|p| p.scale_multiplier = f32::NAN)),
        (
            "ties round to even",
            with(&|p| {
                p.lhs.fill(1);
                p.rhs.fill(1);
                p.lhs_zero_point = 0;
                for (j, b) in p.bias.iter_mut().enumerate() {
                    *b = j as i32 % 9 - 4;
                }
                p.scale.fill(0.5);
                p.scale_multiplier = 1.0;
            }),
        ),
        (
            "bounds outside int8 (the low byte is stored)",
            with(&|p| {
                p.params = params(-1000, 1000, 3);
                p.scale.iter_mut().for_each(|s| *s *= 64.0);
            }),
        ),
        (
            "min_value > max_value",
            with(&|p| p.params = params(20, -20, 0)),
        ),
        (
            "min_value > max_value, far apart",
            with(&|p| p.params = params(i32::MAX, i32::MIN, 5)),
        ),
        (
            "unclamped",
            with(&|p| p.params = params(i32::MIN, i32::MAX, 0)),
        ),
    ]
}

#[test]
fn hostile_data_gives_kleidiai_bits() {
    let t = two_vl();
    let mut cases = 0;
    let mut inverted_differ = false;
    for (k, which) in implementations() {
        let order = family::clamp_order(k);
        let all = tester::every_case_here(k);
        let shapes = match all {
            true => vec![(t + 1, t + 3, 37), (1, 2 * t + 1, 8)],
            false => vec![(t + 1, t + 3, 37)],
        };
        for (m, n, kk) in shapes {
            for (what, p) in hostile(m, n, kk) {
                let expect = p.reference(order);
                let other = match order {
                    ClampOrder::LowerFirst => ClampOrder::UpperFirst,
                    ClampOrder::UpperFirst => ClampOrder::LowerFirst,
                };
                if p.params.min_value > p.params.max_value {
                    inverted_differ |= expect != p.reference(other);
                }
                let packed = p.pack(k, Edge::End);
                let portion = (0, 0, m, n);
                let call =
                    || check_call(k, which, &p, &packed, &expect, (Edge::End, n, portion), 1);
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(call))
                    .unwrap_or_else(|e| panic!("scenario {what:?}: {e:?}"));
                cases += 1;
            }
        }
    }
    assert!(
        inverted_differ,
        "an inverted range must tell the two clamps apart"
    );
    eprintln!("RELIABILITY hostile {cases}");
}

/// `dst_stride_col` is ignored (KleidiAI's `run` does not read it): 0, 1 and 7 give one result.
#[test]
fn dst_stride_col_is_ignored() {
    let t = two_vl();
    let mut cases = 0;
    for (k, which) in implementations() {
        let p = Problem::random(t + 2, t + 5, 9, 5);
        let expect = p.reference(family::clamp_order(k));
        let packed = p.pack(k, Edge::End);
        for col in [0, 1, 7] {
            let portion = (0, 0, p.m, p.n);
            check_call(
                k,
                which,
                &p,
                &packed,
                &expect,
                (Edge::End, p.n + 1, portion),
                col,
            );
            cases += 1;
        }
    }
    eprintln!("RELIABILITY strides {cases}");
}

/// Disjoint tiles on several threads equal one call.
#[test]
fn threads_equal_one_call() {
    let t = two_vl();
    for k in runnable() {
        let p = Problem::random(3 * t + 1, 2 * t + 3, 21, 9);
        let expect = p.reference(family::clamp_order(k));
        let packed = p.pack(k, Edge::End);
        let mut dst = vec![CANARY; p.m * p.n];
        let (lhs, rhs) = (packed.0.ptr() as usize, packed.1.ptr() as usize);
        let out = dst.as_mut_ptr() as usize;
        std::thread::scope(|s| {
            for m0 in (0..p.m).step_by(t) {
                for n0 in (0..p.n).step_by(t) {
                    let p = &p;
                    s.spawn(move || {
                        let portion = (m0, n0, t.min(p.m - m0), t.min(p.n - n0));
                        let ptrs = (lhs as *const u8, rhs as *const u8, out as *mut u8);
                        // SAFETY: the buffers hold the whole problem; portions are disjoint.
                        unsafe {
                            run_portion(k, Impl::Exported, p.k, ptrs, p.n, portion, &p.params, 1)
                        };
                    });
                }
            }
        });
        assert_eq!(dst, expect, "{}", k.stem);
    }
}

// ---------------------------------------------------------------------------------------------
// The GEMV

/// Column counts of the GEMV: one, around its group (`nr`) and its step (`n_step`), and more
/// than three steps.
fn gemv_counts() -> Vec<usize> {
    let (nr, ns) = gemv_tile();
    let mut v = vec![1, nr - 1, nr + 1, ns - 1, ns, ns + 1, 3 * ns + 5];
    v.sort_unstable();
    v.dedup();
    v
}

/// K values of the GEMV: none, one, fewer than a step, odd, its loop of 16 values and the tails
/// after it, odd above 64.
const GEMV_DEPTHS: [usize; 9] = [0, 1, 3, 4, 5, 16, 17, 33, 67];

#[test]
fn gemv_getters_follow_kleidiai() {
    let (nr, ns) = gemv_tile();
    let ks = gemv_kernels();
    assert_eq!(ks.len(), 1);
    for k in &ks {
        let got = ["get_m_step", "get_n_step", "get_nr", "get_kr", "get_sr"]
            .map(|verb| sym::<Getter0>(verb, k.stem)());
        assert_eq!(got, [1, ns, nr, 4, 1], "{}", k.stem);
        // KleidiAI's measured values (streaming lengths 16, 32 and 64 bytes), scaled from the
        // 16-byte row; no `get_mr`.
        let table = tester::tsv_rows(include_str!("data/kleidiai-1.30-getters.tsv"));
        let measured: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        assert_eq!(measured.len(), 3, "{}", k.stem);
        let svl = 4 * sme_pack::svl32();
        for r in measured {
            let bytes: usize = r[11].parse().unwrap();
            let value = |i: usize| r[i].parse::<usize>().unwrap();
            let at_svl = [value(1), value(2) * svl / bytes, value(4) * svl / bytes];
            assert_eq!(at_svl, [1, ns, nr], "{} from the {bytes}-byte row", k.stem);
            assert_eq!([r[3], r[5], r[6]], ["-", "4", "1"], "{}", k.stem);
        }
        for kk in [0, 1, 4, 7, 100] {
            assert_eq!(sym::<Getter2>("get_lhs_offset", k.stem)(0, kk), 0);
            let kp = roundup(kk, 4);
            for idx in [0, nr, ns, 3 * ns + nr] {
                let rhs = sym::<Getter2>("get_rhs_packed_offset", k.stem)(idx, kk);
                assert_eq!(rhs, idx / nr * nr * (4 + kp + 4), "{}", k.stem);
                // The packer of the GEMMs writes the GEMV's RHS (its nr is the same).
                assert_eq!(rhs, sym::<Getter2>("get_rhs_packed_offset", RHS)(idx, kk));
            }
        }
        assert_eq!(
            sym::<Getter3>("get_dst_offset", k.stem)(0, 2 * ns, 1000),
            2 * ns
        );
        assert_eq!(sym::<Getter2>("get_dst_size", k.stem)(1, 5), 5);
        // KleidiAI's GEMV has no `get_mr`.
        assert!(symbol_address(&format!("kai_get_mr_{}", k.stem)).is_none());
    }
    eprintln!("RELIABILITY getters {}", ks.len());
}

/// One row against every column count and depth, both guard edges (one above 512-bit
/// streaming lengths), over the portions a framework computes (at multiples of n_step), with
/// destination strides the GEMV ignores.
#[test]
fn gemv_equals_reference() {
    let (_, ns) = gemv_tile();
    let mut cases = 0;
    for (k, which) in gemv_implementations() {
        let order = family::clamp_order(k);
        assert_eq!(order, ClampOrder::LowerFirst, "SCLAMP");
        let all = tester::every_case_here(k);
        for (j, &n) in gemv_counts().iter().enumerate() {
            for (d, &kk) in GEMV_DEPTHS.iter().enumerate() {
                let p = Problem::random(1, n, kk, (100 * j + d) as u64);
                let expect = p.reference(order);
                let edges: Vec<Edge> = match all {
                    true => EDGES.to_vec(),
                    false => vec![EDGES[(j + d) % 2]],
                };
                for edge in edges {
                    let packed = p.pack(k, edge);
                    let mut ps = portions(1, n, 1, ns);
                    if !all {
                        ps = vec![ps[0], ps[2]];
                    }
                    for portion in ps {
                        let stride = [0, n, n + 3][(j + d) % 3];
                        let col = [1, 0, 5][d % 3];
                        check_call(k, which, &p, &packed, &expect, (edge, stride, portion), col);
                        cases += 1;
                    }
                }
            }
        }
    }
    eprintln!("{cases} int8-output GEMV cases equal the reference");
    eprintln!("RELIABILITY reference {cases}");
}

#[test]
fn gemv_hostile_data_gives_kleidiai_bits() {
    let (nr, ns) = gemv_tile();
    let mut cases = 0;
    for (k, which) in gemv_implementations() {
        let order = family::clamp_order(k);
        let shapes = match tester::every_case_here(k) {
            true => vec![(ns + nr + 3, 37), (2 * nr + 1, 67)],
            false => vec![(ns + nr + 3, 37)],
        };
        for (n, kk) in shapes {
            for (what, p) in hostile(1, n, kk) {
                let expect = p.reference(order);
                let packed = p.pack(k, Edge::End);
                let portion = (0, 0, 1, n);
                let call =
                    || check_call(k, which, &p, &packed, &expect, (Edge::End, n, portion), 1);
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(call))
                    .unwrap_or_else(|e| panic!("scenario {what:?}: {e:?}"));
                cases += 1;
            }
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}

/// Column portions of one n_step each on several threads equal one call.
#[test]
fn gemv_threads_equal_one_call() {
    let (_, ns) = gemv_tile();
    for k in gemv_runnable() {
        let p = Problem::random(1, 3 * ns + 5, 21, 9);
        let expect = p.reference(family::clamp_order(k));
        let packed = p.pack(k, Edge::End);
        let mut dst = vec![CANARY; p.n];
        let (lhs, rhs) = (packed.0.ptr() as usize, packed.1.ptr() as usize);
        let out = dst.as_mut_ptr() as usize;
        std::thread::scope(|s| {
            for n0 in (0..p.n).step_by(ns) {
                let p = &p;
                s.spawn(move || {
                    let portion = (0, n0, 1, ns.min(p.n - n0));
                    let ptrs = (lhs as *const u8, rhs as *const u8, out as *mut u8);
                    // SAFETY: the buffers hold the whole problem; portions are disjoint.
                    unsafe {
                        run_portion(k, Impl::Exported, p.k, ptrs, p.n, portion, &p.params, 1)
                    };
                });
            }
        });
        assert_eq!(dst, expect, "{}", k.stem);
    }
}

#[cfg(target_arch = "aarch64")]
#[test]
fn registers_and_lazy_za_save_survive() {
    use support::abi::{self, PendingZaSave};
    let t = two_vl();
    let kernels = [runnable(), gemv_runnable()].concat();
    for &k in &kernels {
        let m = if is_gemv(k) { 1 } else { t + 1 };
        let p = Problem::random(m, 2 * t + 1, 7, 3);
        let expect = p.reference(family::clamp_order(k));
        let packed = p.pack(k, Edge::End);
        let mut dst = vec![0u8; p.m * p.n];
        let args = call_args!(p.m, p.n, p.k, packed.0.ptr(), packed.1.ptr(),
            dst.as_mut_ptr(), p.n, 1, &raw const p.params; );
        let f = sym::<MatmulQai8Fn>("run", k.stem) as usize;
        // SAFETY: the arguments describe the kernel's nine parameters over valid buffers.
        let clobbered = unsafe { abi::call(f, &args.args) };
        assert_eq!(clobbered, 0, "{}: {}", k.stem, abi::describe(clobbered));
        assert_eq!(dst, expect, "{}", k.stem);
        let mut save = PendingZaSave::new(4 * sme_pack::svl32());
        save.arm();
        dst.fill(0);
        // SAFETY: as above.
        unsafe {
            sym::<MatmulQai8Fn>("run", k.stem)(
                p.m,
                p.n,
                p.k,
                packed.0.ptr().cast(),
                packed.1.ptr().cast(),
                dst.as_mut_ptr().cast(),
                p.n,
                1,
                &p.params,
            )
        };
        save.assert_committed(k.stem);
        save.finish();
        assert_eq!(dst, expect, "{} after a lazy save", k.stem);
    }
    eprintln!("RELIABILITY registers {}", kernels.len());
}

// ---------------------------------------------------------------------------------------------
// Contract violations

/// Calls `run_matmul` of `stem` on a small valid problem of `m` rows with one argument broken:
/// `null` 1 nulls the (packed) LHS, 2 the packed RHS, 3 the destination, 4 the parameters;
/// `stride` is the destination row stride (rows of 5 columns).
fn run_call(stem: &str, m: usize, stride: usize, null: usize) {
    let lhs = vec![0u8; 1 << 16];
    let rhs = vec![0u8; 1 << 16];
    let mut dst = vec![0u8; 1 << 10];
    let params = kai_matmul_requantize32_params {
        min_value: -128,
        max_value: 127,
        output_zero_point: 0,
    };
    let pick = |i: usize, p: *const u8| if null == i { ptr::null() } else { p };
    // SAFETY: the buffers cover an m x 5 x 8 problem (m <= 2) at any streaming length.
    unsafe {
        sym::<MatmulQai8Fn>("run", stem)(
            m,
            5,
            8,
            pick(1, lhs.as_ptr()).cast(),
            pick(2, rhs.as_ptr()).cast(),
            pick(3, dst.as_mut_ptr()).cast_mut().cast(),
            stride,
            1,
            if null == 4 { ptr::null() } else { &params },
        )
    };
}

fn violations() -> Vec<support::death::Case> {
    macro_rules! run_cases {
        ($stem:expr, $p:literal) => {
            [
                run_case!(concat!($p, "null_lhs"), "lhs_packed != NULL" => run_call($stem, 2, 5, 1)),
                run_case!(concat!($p, "null_rhs"), "rhs_packed != NULL" => run_call($stem, 2, 5, 2)),
                run_case!(concat!($p, "null_dst"), "dst != NULL" => run_call($stem, 2, 5, 3)),
                run_case!(concat!($p, "null_params"), "params != NULL" => run_call($stem, 2, 5, 4)),
                run_case!(concat!($p, "short_rows"), "dst_stride_row >= n * sizeof(int8_t)"
                    => run_call($stem, 2, 4, 0)),
            ]
        };
    }
    let mut cases = Vec::new();
    cases.extend(run_cases!(SME, "sme_"));
    cases.extend(run_cases!(SME2, "sme2_"));
    // The GEMV: KleidiAI's `m == 1` first, then rkai's null checks (its LHS is `lhs`); it
    // ignores the destination strides.
    cases.extend([
        run_case!("gemv_two_rows", "m == 1" => run_call(GEMV, 2, 5, 0)),
        run_case!("gemv_no_row", "m == 1" => run_call(GEMV, 0, 5, 0)),
        run_case!("gemv_null_lhs", "lhs != NULL" => run_call(GEMV, 1, 0, 1)),
        run_case!("gemv_null_rhs", "rhs_packed != NULL" => run_call(GEMV, 1, 0, 2)),
        run_case!("gemv_null_dst", "dst != NULL" => run_call(GEMV, 1, 0, 3)),
        run_case!("gemv_null_params", "params != NULL" => run_call(GEMV, 1, 0, 4)),
        getter_case!("gemv_lhs_m_idx", "m_idx == 0"
            => get_lhs_offset::<Getter2>(GEMV)(1, 16)),
        getter_case!("gemv_rhs_n_idx", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(GEMV)(1, 16)),
        getter_case!("gemv_dst_m_idx", "m_idx == 0"
            => get_dst_offset::<Getter3>(GEMV)(1, 0, 64)),
        getter_case!("gemv_dst_n_idx", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(GEMV)(0, gemv_tile().0, 64)),
    ]);
    cases.extend([
        getter_case!("lhs_m_idx", "(m_idx % mr) == 0"
            => get_lhs_packed_offset::<Getter2>(SME)(two_vl() / 2, 16)),
        getter_case!("rhs_n_idx", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(SME2)(1, 16)),
        getter_case!("dst_m_idx", "(m_idx % m_step) == 0"
            => get_dst_offset::<Getter3>(SME2)(3, 0, 64)),
        getter_case!("dst_n_idx", "(n_idx % n_step) == 0"
            => get_dst_offset::<Getter3>(SME)(0, two_vl() + 1, 64)),
    ]);
    cases
}

death_tests!(violations, "int8-output contract violations", "death");
