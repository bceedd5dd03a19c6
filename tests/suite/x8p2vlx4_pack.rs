//! The packers of KleidiAI's SME int8-output kernels through their C symbols:
//! `lhs_pack_x8p2vlx4_x8_sme`, `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` and its chunked
//! form `rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` (K as chunks of consecutive rows,
//! each padded on its own to whole steps of 4). At the running
//! streaming length (every one of `scripts/test-all.sh`'s SVL models; 128 bits where there is no
//! SME), the getters follow KleidiAI 1.30's formulas, packed bytes equal a reference written from
//! KleidiAI's layout (every byte of the packed size: a buffer pre-filled with another byte shows
//! any byte left unwritten), buffers sit against guard pages, slices packed through the offset
//! getters equal the same bytes of a whole packing, hostile parameters (zero points at the ends of
//! `i32`, biases that wrap, non-finite and huge scale multipliers) give KleidiAI's bits, and
//! invalid arguments abort naming the condition.

use crate::support;

use std::ffi::c_void;
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter1, Getter2, Getter3, ImatmulPackQsi8Fn, RhsPackFloatFn};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{self, LhsPacker, lhs_call, roundup, slices, two_vl};

const LHS: &str = "lhs_pack_x8p2vlx4_x8_sme";
const RHS: &str = "rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";
const RHS_CHUNKED: &str = "rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";

/// Random int8 values, never zero (padding must stand out), one in eight an extreme.
fn values(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..len)
        .map(|_| {
            let r = rng.next_u64();
            match r % 8 {
                0 => [0x80, 0x7f, 0xff, 0x01][(r >> 8) as usize % 4],
                _ => ((r >> 16) % 255 + 1) as u8,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// References, written from KleidiAI's layouts: each output byte computed from its index.

/// One lane of Arm's `FMUL` (FPCR.DN = 0): a signalling NaN operand wins, then the first NaN,
/// quieted; an invalid product is the default NaN.
fn arm_fmul(a: f32, b: f32) -> f32 {
    let snan = |x: f32| x.is_nan() && x.to_bits() & 0x0040_0000 == 0;
    let quiet = |x: f32| f32::from_bits(x.to_bits() | 0x0040_0000);
    match () {
        _ if snan(a) => quiet(a),
        _ if snan(b) => quiet(b),
        _ if a.is_nan() => a,
        _ if b.is_nan() => b,
        _ if (a * b).is_nan() => f32::from_bits(0x7fc0_0000),
        _ => a * b,
    }
}

/// An RHS problem: `k` rows of `n` int8 values `row` bytes apart, biases, scales, parameters;
/// for the chunked packer the rows are `chunk` = (`k_chunk_count`, `k_chunk_length`).
struct RhsSource {
    n: usize,
    k: usize,
    chunk: Option<(usize, usize)>,
    row: usize,
    data: Vec<u8>,
    bias: Vec<i32>,
    scale: Vec<f32>,
    zero_point: i32,
    multiplier: f32,
}

impl RhsSource {
    /// Hostile values: `zero_point` and `multiplier`, biases cycling through the ends of i32 (the
    /// fold wraps), -1 and 0, and every scale but each `1 + scales.len()`-th replaced by
    /// `scales` in turn (NaNs, infinities).
    fn make_hostile(&mut self, zero_point: i32, multiplier: f32, scales: &[f32]) {
        self.zero_point = zero_point;
        self.multiplier = multiplier;
        for (j, b) in self.bias.iter_mut().enumerate() {
            *b = [i32::MIN, i32::MAX, -1, 0][j % 4];
        }
        for (j, s) in self.scale.iter_mut().enumerate() {
            if let Some(j) = (j % (scales.len() + 1)).checked_sub(1) {
                *s = scales[j];
            }
        }
    }

    fn new(n: usize, k: usize, pad: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed ^ 0x77);
        let row = n + pad;
        RhsSource {
            n,
            k,
            chunk: None,
            row,
            data: values(k * row, seed),
            bias: (0..n).map(|_| rng.next_u64() as i32 >> 8).collect(),
            scale: rng.vec_f32(n, -2.0, 2.0),
            zero_point: rng.range_i32(-128, 127),
            multiplier: rng.f32(1e-4, 1.0),
        }
    }

    /// `count` chunks of `length` rows, for the chunked packer.
    fn chunked(n: usize, (count, length): (usize, usize), pad: usize, seed: u64) -> Self {
        RhsSource {
            chunk: Some((count, length)),
            ..RhsSource::new(n, count * length, pad, seed)
        }
    }

    /// (`k_chunk_count`, `k_chunk_length`): one chunk of `k` rows for the plain packer.
    fn chunks(&self) -> (usize, usize) {
        self.chunk.unwrap_or((1, self.k))
    }

    /// The packer's name.
    fn packer(&self) -> &'static str {
        if self.chunk.is_some() {
            RHS_CHUNKED
        } else {
            RHS
        }
    }

    fn value(&self, kk: usize, j: usize) -> i8 {
        self.data[kk * self.row + j] as i8
    }

    /// Packed row `p` of column `j`: row `t` of chunk `p / roundup(length, 4)` when `t` is inside
    /// the chunk, else a zero padding row; 0 past `n`.
    fn packed_value(&self, p: usize, j: usize) -> i8 {
        let (_, length) = self.chunks();
        let per_chunk = roundup(length, 4);
        let t = p % per_chunk;
        match j < self.n && t < length {
            true => self.value(p / per_chunk * length + t, j),
            false => 0,
        }
    }

    /// The packed bytes, from KleidiAI's layout: per group of nr columns, nr `i32` biases (the
    /// bias minus the zero point times the sum of the column's packed values, wrapping), the
    /// packed values by steps of 4 K rows (each chunk padded with zero rows to whole steps), nr
    /// `f32` scales (times the multiplier; a padding column's scale is 0 times it).
    fn reference(&self) -> Vec<u8> {
        let nr = two_vl();
        let (count, length) = self.chunks();
        let kp = count * roundup(length, 4);
        let mut out = Vec::new();
        for g in 0..self.n.div_ceil(nr) {
            let cols = g * nr..(g + 1) * nr;
            for j in cols.clone() {
                let bias = match j < self.n {
                    true => {
                        let sum: i64 = (0..kp).map(|p| i64::from(self.packed_value(p, j))).sum();
                        let folded = i64::from(self.bias[j]) - i64::from(self.zero_point) * sum;
                        folded as i32 // wrapping, as the kernels' 32-bit arithmetic
                    }
                    false => 0,
                };
                out.extend_from_slice(&bias.to_le_bytes());
            }
            for step in 0..kp / 4 {
                for j in cols.clone() {
                    for p in 4 * step..4 * step + 4 {
                        out.push(self.packed_value(p, j) as u8);
                    }
                }
            }
            for j in cols {
                let scale = if j < self.n { self.scale[j] } else { 0.0 };
                out.extend_from_slice(&arm_fmul(scale, self.multiplier).to_bits().to_le_bytes());
            }
        }
        out
    }
}

/// Packs columns `n0..n0 + cols` of `src` with every pointer moved through the packer's offset
/// getters, as a framework packing on threads does (`(0, n)` is the whole packing).
///
/// # Safety
/// `rhs`, `bias` and `scale` hold `src`'s operands, `out` its packed size.
unsafe fn pack_rhs(
    src: &RhsSource,
    (rhs, bias, scale): (*const u8, *const u8, *const u8),
    out: *mut u8,
    (n0, cols): (usize, usize),
) {
    let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: src.zero_point,
        scale_multiplier: src.multiplier,
    };
    let name = src.packer();
    let rhs_offset = sym::<Getter1>("get_rhs_offset", name)(n0);
    let bias_offset = sym::<Getter1>("get_bias_offset", name)(n0);
    let scale_offset = sym::<Getter1>("get_scale_offset", name)(n0);
    let (rhs, bias, scale) = (
        // SAFETY: the offsets stay inside the caller's buffers for this slice.
        unsafe { rhs.add(rhs_offset).cast() },
        unsafe { bias.add(bias_offset).cast() },
        unsafe { scale.add(scale_offset).cast() },
    );
    let params = (&raw const params).cast::<c_void>();
    if src.chunk.is_some() {
        let (count, length) = src.chunks();
        let packed_offset = sym::<Getter3>("get_rhs_packed_offset", name)(n0, count, length);
        let run = sym::<ImatmulPackQsi8Fn>("run", name);
        // SAFETY: the offsets stay inside the caller's buffers for this slice.
        unsafe {
            let out = out.add(packed_offset).cast();
            run(cols, count, length, src.row, rhs, bias, scale, out, params)
        };
        return;
    }
    let packed_offset = sym::<Getter2>("get_rhs_packed_offset", RHS)(n0, src.k);
    let run = sym::<RhsPackFloatFn>("run", RHS);
    // SAFETY: the offsets stay inside the caller's buffers for this slice.
    unsafe {
        run(
            1,
            cols,
            src.k,
            two_vl(),
            4,
            1,
            src.row,
            rhs,
            bias,
            scale,
            out.add(packed_offset).cast(),
            0,
            params,
        )
    }
}

fn rhs_case(src: &RhsSource, edge: Edge) {
    let rhs = Guarded::from_bytes(&src.data, edge);
    let bias_bytes: Vec<u8> = src.bias.iter().flat_map(|b| b.to_le_bytes()).collect();
    let scale_bytes: Vec<u8> = src
        .scale
        .iter()
        .flat_map(|s| s.to_bits().to_le_bytes())
        .collect();
    let bias = Guarded::from_bytes(&bias_bytes, edge);
    let scale = Guarded::from_bytes(&scale_bytes, edge);
    let size = match src.chunk {
        Some(_) => {
            let (count, length) = src.chunks();
            sym::<Getter3>("get_rhs_packed_size", RHS_CHUNKED)(src.n, count, length)
        }
        None => sym::<Getter2>("get_rhs_packed_size", RHS)(src.n, src.k),
    };
    let expect = src.reference();
    let ptrs = (rhs.ptr(), bias.ptr(), scale.ptr());
    // SAFETY: the source, bias, scale and output buffers hold the whole problem.
    let pack = |out, cols| unsafe { pack_rhs(src, ptrs, out, cols) };
    let what = format!(
        "{} n={} chunks={:?} row={} zp={} mult={:e}",
        src.packer(),
        src.n,
        src.chunks(),
        src.row,
        src.zero_point,
        src.multiplier
    );
    sme_pack::packs_equal(&what, size, edge, &expect, |out| pack(out, (0, src.n)));
    let t = two_vl();
    if src.n > t {
        sme_pack::slices_equal(&what, size, edge, &expect, &slices(src.n, 2 * t), pack);
    }
}

/// Shapes by multiples of the tile, so that every streaming length sees its own edges.
fn shapes() -> Vec<(usize, usize)> {
    let t = two_vl();
    let mut out = Vec::new();
    for n in [1, 2, t - 1, t, t + 1, 2 * t + 3, 3 * t] {
        for k in [1, 2, 3, 4, 5, 8, 9, 34] {
            out.push((n, k));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Getters

#[test]
fn getters_follow_kleidiai_formulas() {
    let t = sme_pack::two_vl_is_half_svl_bytes();
    assert_eq!(sym::<Getter0>("get_n_step", RHS)(), t);
    let mut checked = 1;
    for k in [1, 2, 3, 4, 5, 8, 17, 64, 333] {
        let kp = roundup(k, 4);
        let group = t * (4 + kp + 4);
        assert_eq!(sym::<Getter1>("get_rhs_packed_stride", RHS)(k), group);
        for n in [1, t - 1, t, t + 1, 3 * t + 5] {
            let size = sym::<Getter2>("get_rhs_packed_size", RHS)(n, k);
            assert_eq!(size, n.div_ceil(t) * group, "n={n} k={k}");
        }
        for n_idx in [0, t, 5 * t] {
            let packed = sym::<Getter2>("get_rhs_packed_offset", RHS)(n_idx, k);
            assert_eq!(packed, n_idx / t * group, "n_idx={n_idx} k={k}");
            assert_eq!(sym::<Getter1>("get_rhs_offset", RHS)(n_idx), n_idx);
            assert_eq!(sym::<Getter1>("get_bias_offset", RHS)(n_idx), 4 * n_idx);
            assert_eq!(sym::<Getter1>("get_scale_offset", RHS)(n_idx), 4 * n_idx);
            checked += 4;
        }
        checked += 6;
        let (ms, idxs) = ([1, t - 1, t, t + 1, 4 * t + 3], [0, t, 3 * t]);
        sme_pack::check_lhs_getters(&LhsPacker::two_vl(LHS, 4), k, kp, &ms, &idxs, k + 3);
        checked += 2 * idxs.len() + ms.len() + 1;
    }
    // KleidiAI's bias and scale offsets assert nothing about n_idx.
    assert_eq!(sym::<Getter1>("get_bias_offset", RHS)(3), 12);
    assert_eq!(sym::<Getter1>("get_scale_offset", RHS)(5), 20);
    eprintln!(
        "x8p2vlx4 getter values checked at nr = {t}: {}",
        checked + 2
    );
}

// ---------------------------------------------------------------------------------------------
// Packed bytes

#[test]
fn rhs_packer_matches_reference_bytes() {
    let mut cases = 0;
    for (seed, &(n, k)) in shapes().iter().enumerate() {
        for pad in [0, 3] {
            let src = RhsSource::new(n, k, pad, seed as u64);
            for edge in EDGES {
                rhs_case(&src, edge);
                cases += 1;
            }
        }
    }
    eprintln!(
        "qsi8cxp2vlx4sb RHS packer cases at nr = {}: {cases}",
        two_vl()
    );
}

#[test]
fn rhs_packer_hostile_parameters() {
    let t = two_vl();
    let snan = f32::from_bits(0x7f80_0001);
    let qnan = f32::from_bits(0xffc0_1234);
    let multipliers = [
        f32::INFINITY,
        f32::NEG_INFINITY,
        snan,
        qnan,
        -0.0,
        f32::MAX,
        f32::from_bits(1),
    ];
    let zero_points = [i32::MIN, i32::MAX, -128, 127, 0, -1];
    let mut cases = 0;
    for (i, &(n, k)) in [(t + 1, 9), (1, 34), (2 * t + 3, 5)].iter().enumerate() {
        for (z, &zero_point) in zero_points.iter().enumerate() {
            let multiplier = multipliers[(i + z) % multipliers.len()];
            let mut src = RhsSource::new(n, k, 1, (i * 16 + z) as u64);
            src.make_hostile(
                zero_point,
                multiplier,
                &[f32::INFINITY, 0.0, snan, qnan, -f32::MAX],
            );
            for edge in EDGES {
                rhs_case(&src, edge);
                cases += 1;
            }
        }
    }
    eprintln!("qsi8cxp2vlx4sb RHS packer hostile cases at nr = {t}: {cases}");
}

/// Chunk (count, length) pairs: lengths 1..9 (multiples of 4 and not), single and several chunks.
fn chunkings() -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for length in 1..=9 {
        out.push((1 + length % 3, length));
    }
    out.extend([(1, 4), (5, 1), (3, 7), (2, 16)]);
    out
}

#[test]
fn chunked_rhs_packer_getters() {
    let t = two_vl();
    let g = |verb| sym::<Getter1>(verb, RHS_CHUNKED);
    assert_eq!(sym::<Getter0>("get_n_step", RHS_CHUNKED)(), t);
    let mut checked = 1;
    for (count, length) in chunkings().into_iter().chain([(0, 5), (3, 0), (7, 333)]) {
        let group = t * (4 + count * roundup(length, 4) + 4);
        let stride = sym::<Getter2>("get_rhs_packed_stride", RHS_CHUNKED)(count, length);
        assert_eq!(stride, group, "count={count} length={length}");
        for n in [1, t - 1, t, t + 1, 3 * t + 5] {
            let size = sym::<Getter3>("get_rhs_packed_size", RHS_CHUNKED)(n, count, length);
            assert_eq!(
                size,
                n.div_ceil(t) * group,
                "n={n} count={count} length={length}"
            );
            checked += 1;
        }
        for n_idx in [0, t, 5 * t] {
            let packed = sym::<Getter3>("get_rhs_packed_offset", RHS_CHUNKED)(n_idx, count, length);
            assert_eq!(packed, n_idx / t * group, "n_idx={n_idx}");
            assert_eq!(g("get_rhs_offset")(n_idx), n_idx);
            assert_eq!(g("get_bias_offset")(n_idx), 4 * n_idx);
            assert_eq!(g("get_scale_offset")(n_idx), 4 * n_idx);
            checked += 4;
        }
        checked += 1;
    }
    // KleidiAI's bias and scale offsets assert nothing about n_idx.
    assert_eq!(g("get_bias_offset")(3), 12);
    assert_eq!(g("get_scale_offset")(5), 20);
    eprintln!(
        "chunked qsi8cxp2vlx4sb getter values checked at nr = {t}: {}",
        checked + 2
    );
}

#[test]
fn chunked_rhs_packer_matches_reference_bytes() {
    let t = two_vl();
    let mut cases = 0;
    let chunkings = chunkings();
    for (i, &n) in [1, t - 1, t, t + 1, 2 * t + 3].iter().enumerate() {
        for (c, &chunks) in chunkings.iter().enumerate() {
            let pad = (i + c) % 2 * 3;
            let src = RhsSource::chunked(n, chunks, pad, (i * 32 + c) as u64);
            for edge in EDGES {
                rhs_case(&src, edge);
                cases += 1;
            }
        }
    }
    // No rows: biases unchanged (KleidiAI leaves them unwritten, see the packer's module) and
    // scales; no chunk: the same.
    for chunks in [(3, 0), (0, 5)] {
        let src = RhsSource::chunked(t + 1, chunks, 0, 99);
        for edge in EDGES {
            rhs_case(&src, edge);
            cases += 1;
        }
    }
    eprintln!("chunked qsi8cxp2vlx4sb RHS packer cases at nr = {t}: {cases}");
}

#[test]
fn chunked_rhs_packer_hostile_parameters() {
    let t = two_vl();
    let mut cases = 0;
    for (i, (zero_point, multiplier)) in [
        (i32::MIN, f32::INFINITY),
        (i32::MAX, f32::from_bits(0x7f80_0001)),
        (-128, -0.0),
    ]
    .into_iter()
    .enumerate()
    {
        let mut src = RhsSource::chunked(t + 3, (3, 5), 1, 200 + i as u64);
        let qnan = f32::from_bits(0xffc0_1234);
        src.make_hostile(zero_point, multiplier, &[f32::INFINITY, 0.0, qnan]);
        for edge in EDGES {
            rhs_case(&src, edge);
            cases += 1;
        }
    }
    eprintln!("chunked qsi8cxp2vlx4sb RHS packer hostile cases at nr = {t}: {cases}");
}

/// The test's model of `FMUL` agrees with the CPU's on the values the hostile cases use (where
/// the test runs on Arm).
#[test]
#[cfg(target_arch = "aarch64")]
fn fmul_model_matches_the_cpu() {
    use std::hint::black_box;
    let specials = [
        0.0,
        -0.0,
        1.5,
        -3.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xff80_0002),
        f32::from_bits(0x7fc0_0003),
        f32::from_bits(0xffc0_1234),
        f32::MAX,
        f32::from_bits(1),
    ];
    for a in specials {
        for b in specials {
            let cpu = black_box(a) * black_box(b);
            assert_eq!(arm_fmul(a, b).to_bits(), cpu.to_bits(), "{a:e} * {b:e}");
        }
    }
}

#[test]
fn lhs_packer_matches_reference_bytes() {
    LhsPacker::two_vl(LHS, 4).rows_cases(&shapes(), 1, values);
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

type Case = support::death::Case<String, &'static str>;

/// What a death case's RHS call changes from a valid one (n = 4, k = 8, rows 16 bytes apart).
#[derive(Clone, Copy, Default)]
struct Call {
    groups: Option<usize>,
    nr: Option<usize>,
    kr: Option<usize>,
    sr: Option<usize>,
    null: [bool; 5],
    extra: usize,
}

/// The buffers of a refused RHS-packer call: a zero source (also the bias and scales), an
/// output and the parameters.
struct RefusedRhsArgs {
    w: [u8; 256],
    out: Vec<u8>,
    params: rkai_ukernels::types::kai_rhs_pack_qsi8cx_params,
}

impl RefusedRhsArgs {
    fn new() -> Self {
        let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: 0,
            scale_multiplier: 1.0,
        };
        let out = vec![0u8; 4 * 40 * 64];
        RefusedRhsArgs {
            w: [0; 256],
            out,
            params,
        }
    }

    /// (rhs, bias, scale, rhs_packed, params), each null where `null(i)` holds.
    fn ptrs(&mut self, null: impl Fn(usize) -> bool) -> [*const c_void; 5] {
        let some = self.w.as_ptr().cast::<c_void>();
        let all = [
            some,
            some,
            some,
            self.out.as_mut_ptr().cast_const().cast(),
            (&raw const self.params).cast(),
        ];
        std::array::from_fn(|i| if null(i) { std::ptr::null() } else { all[i] })
    }
}

/// Calls the RHS packer as `o` says (null: rhs, bias, scale, rhs_packed, params).
fn rhs_call(name: &str, o: Call) {
    let mut args = RefusedRhsArgs::new();
    let [rhs, bias, scale, dst, params] = args.ptrs(|i| o.null[i]);
    // SAFETY: buffers cover n = 4, k = 8 at any tile; the call is expected to abort.
    unsafe {
        sym::<RhsPackFloatFn>("run", name)(
            o.groups.unwrap_or(1),
            4,
            8,
            o.nr.unwrap_or(two_vl()),
            o.kr.unwrap_or(4),
            o.sr.unwrap_or(1),
            16,
            rhs,
            bias,
            scale,
            dst.cast_mut(),
            o.extra,
            params,
        )
    }
}

/// Calls the chunked RHS packer (n = 4, 2 chunks of 3 rows) with argument `i` of (rhs, bias,
/// scale, rhs_packed, params) null.
fn chunked_rhs_call(name: &str, i: usize) {
    let mut args = RefusedRhsArgs::new();
    let [rhs, bias, scale, dst, params] = args.ptrs(|j| j == i);
    // SAFETY: buffers cover the call at any tile; the call is expected to abort.
    unsafe {
        sym::<ImatmulPackQsi8Fn>("run", name)(4, 2, 3, 16, rhs, bias, scale, dst.cast_mut(), params)
    }
}

/// A call with argument `i` of (rhs, bias, scale, rhs_packed, params) null.
fn null(i: usize) -> Call {
    let mut call = Call::default();
    call.null[i] = true;
    call
}

const GROUP_START: &str =
    "n_idx % kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme() == 0";
const CHUNKED_GROUP_START: &str =
    "n_idx % kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme() == 0";
const LHS_MR: &str = "mr == kai_get_mr_lhs_pack_x8p2vlx4_x8_sme()";

fn cases() -> Vec<Case> {
    let mut cases = Vec::from(
        two_vl_lhs_getter_cases!(LHS, kr: 4, wrong_kr: 2, mr: LHS_MR,
        m_idx: "m_idx % kai_get_mr_lhs_pack_x8p2vlx4_x8_sme() == 0",
        m_step: "m_idx % kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme(mr) == 0"),
    );
    cases.extend([
        run_case!("rhs_groups", "num_groups == 1"
            => rhs_call(RHS, Call { groups: Some(2), ..Call::default() })),
        run_case!("rhs_nr", "nr == kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme()"
            => rhs_call(RHS, Call { nr: Some(two_vl() + 4), ..Call::default() })),
        run_case!("rhs_kr", "kr == KR" => rhs_call(RHS, Call { kr: Some(8), ..Call::default() })),
        run_case!("rhs_sr", "sr == 1" => rhs_call(RHS, Call { sr: Some(2), ..Call::default() })),
        run_case!("rhs_null", "rhs != NULL" => rhs_call(RHS, null(0))),
        run_case!("rhs_bias", "bias != NULL" => rhs_call(RHS, null(1))),
        run_case!("rhs_scale", "scale != NULL" => rhs_call(RHS, null(2))),
        run_case!("rhs_out", "rhs_packed != NULL" => rhs_call(RHS, null(3))),
        run_case!("rhs_extra", "extra_bytes == 0"
            => rhs_call(RHS, Call { extra: 4, ..Call::default() })),
        run_case!("rhs_params", "params != NULL" => rhs_call(RHS, null(4))),
        getter_case!("rhs_offset", GROUP_START => get_rhs_offset::<Getter1>(RHS)(3)),
        getter_case!("rhs_packed_offset", GROUP_START
            => get_rhs_packed_offset::<Getter2>(RHS)(two_vl() / 2, 8)),
        run_case!("chunked_rhs_null", "rhs != NULL" => chunked_rhs_call(RHS_CHUNKED, 0)),
        run_case!("chunked_rhs_bias", "bias != NULL" => chunked_rhs_call(RHS_CHUNKED, 1)),
        run_case!("chunked_rhs_scale", "scale != NULL" => chunked_rhs_call(RHS_CHUNKED, 2)),
        run_case!("chunked_rhs_out", "rhs_packed != NULL" => chunked_rhs_call(RHS_CHUNKED, 3)),
        run_case!("chunked_rhs_params", "params != NULL" => chunked_rhs_call(RHS_CHUNKED, 4)),
        getter_case!("chunked_rhs_offset", CHUNKED_GROUP_START
            => get_rhs_offset::<Getter1>(RHS_CHUNKED)(3)),
        getter_case!("chunked_rhs_packed_offset", CHUNKED_GROUP_START
            => get_rhs_packed_offset::<Getter3>(RHS_CHUNKED)(two_vl() / 2, 2, 3)),
    ]);
    cases.extend(sme_lhs_run_cases!(LHS, "lhs_", kr: 4, bad_kr: 2, mr: LHS_MR));
    cases
}

death_tests!(cases, "x8p2vlx4 packer contract violations");
