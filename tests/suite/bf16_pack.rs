//! The bf16 packers of the bf16 GEMM families through their C symbols: the LHS packers
//! (`lhs_quant_pack_bf16p8x4_f32_neon`, `lhs_quant_pack_bf16p1x4_f32_neon`,
//! `lhs_pack_bf16p8x4_f16_neon`) and the RHS packers (`rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`,
//! `rhs_pack_kxn_bf16p12x4bias{f32,f16}_f16_neon`). Getters follow KleidiAI's formulas and
//! measured sizes, packed bytes equal the reference (values converted by the `half` crate, round
//! to nearest even as `BFCVT`), buffers sit against guard pages, and invalid arguments abort
//! naming KleidiAI's assertion.

use crate::support;

use rkai_ukernels::catalog;

use rkai_ukernels::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::lhs_pack_bf16::Variant;
use rkai_ukernels::pack::rhs_pack_bf16::Variant as RhsVariant;
use rkai_ukernels::reference::lhs_bf16 as reference;
use std::ptr;
use support::bf16;
use support::cabi::func as sym;
use support::cabi::{Getter0, Getter2, RhsPackFloatFn, pack_float_rhs, pack_lhs};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;

type Getter1 = extern "C" fn(usize) -> usize;
type Getter4 = extern "C" fn(usize, usize, usize, usize) -> usize;
type Getter5 = extern "C" fn(usize, usize, usize, usize, usize) -> usize;

/// The NEON bf16 LHS packer variant of `p`, if it is one (the SME packers: `tests/suite/bf16_sme.rs`).
fn lhs_kind(p: &Packer) -> Option<Variant> {
    match p.kind {
        PackerKind::Lhs(LhsPackerKind::Bf16(v)) if !v.is_sme() => Some(v),
        _ => None,
    }
}

/// The NEON bf16 RHS packer variant of `p`, if it is one.
fn rhs_kind(p: &Packer) -> Option<RhsVariant> {
    match p.kind {
        PackerKind::Rhs(RhsPackerKind::Bf16(v)) if !v.is_sme() => Some(v),
        _ => None,
    }
}

/// The catalog's packers of one kind.
fn packers_of<V>(kind: fn(&Packer) -> Option<V>) -> Vec<&'static Packer> {
    let all = catalog::PACKERS.iter().copied();
    all.filter(|p| kind(p).is_some()).collect()
}

fn packers() -> Vec<&'static Packer> {
    packers_of(lhs_kind)
}

fn variant(p: &Packer) -> Variant {
    lhs_kind(p).expect("a bf16 LHS packer")
}

#[test]
fn getters_follow_kleidiai_formulas() {
    assert_eq!(packers().len(), 3);
    for p in packers() {
        let mr = variant(p).mr();
        assert_eq!(sym::<Getter1>("get_m_step", p.name)(mr), mr);
        assert_eq!(sym::<Getter2>("get_lhs_offset", p.name)(mr, 100), 100 * mr);
        for (m, k) in [(1, 1), (1, 4), (8, 5), (9, 17), (17, 64)] {
            let m = if mr == 1 { 1 } else { m };
            let size = sym::<Getter5>("get_lhs_packed_size", p.name)(m, k, mr, 4, 1);
            assert_eq!(
                size,
                m.div_ceil(mr) * mr * k.div_ceil(4) * 4 * 2,
                "{}",
                p.name
            );
        }
        let m_idx = if mr == 1 { 0 } else { 16 };
        assert_eq!(
            sym::<Getter5>("get_lhs_packed_offset", p.name)(m_idx, 10, mr, 4, 1),
            m_idx * 12 * 2
        );
    }
}

/// Source values: mostly ordinary numbers, some exact ties of the bf16 rounding, and (for
/// `specials`) NaNs, infinities, signed zeros, subnormals and overflowing values.
fn source_bits(v: Variant, len: usize, seed: u64, specials: bool) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let pool32: [u32; 10] = [
        0x7fc0_0000,
        0x7f80_0001, // signalling NaN
        0xffc1_2345,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f7f_ffff, // rounds up to infinity
        0x3f80_8000, // tie, even below
        0x3f81_8000, // tie, even above
    ];
    let pool16: [u32; 8] = [
        0x7e00, 0x7d01, 0xfe33, 0x7c00, 0xfc00, 0x8000, 0x0001, 0x7bff,
    ];
    (0..len)
        .map(|i| {
            let special = specials && rng.next_u64() % 4 == 0;
            match v {
                Variant::Bf16p8x4F16 if special => pool16[i % pool16.len()],
                Variant::Bf16p8x4F16 => {
                    u32::from(half::f16::from_f32(rng.f32(-3.0, 3.0)).to_bits())
                }
                _ if special => pool32[i % pool32.len()],
                _ => rng.f32(-3.0, 3.0).to_bits(),
            }
        })
        .collect()
}

/// bf16 bits of one source element, computed with the `half` crate.
fn expected_bf16(v: Variant, bits: u32) -> u16 {
    let wide = match v {
        Variant::Bf16p8x4F16 => half::f16::from_bits(bits as u16).to_f32().to_bits(),
        _ => bits,
    };
    bf16::bf16_bits(wide)
}

fn pack_case(p: &Packer, m: usize, k: usize, pad: usize, seed: u64, specials: bool, edge: Edge) {
    let v = variant(p);
    let es = v.source_bytes();
    let row = k + pad;
    let src = source_bits(v, m.saturating_sub(1) * row + k, seed, specials);
    let bytes: Vec<u8> = src
        .iter()
        .flat_map(|&b| b.to_le_bytes()[..es].to_vec())
        .collect();
    // A one-byte placeholder keeps the pointer valid when there is nothing to read.
    let lhs = bf16::source(&bytes, edge);
    let size = sym::<Getter5>("get_lhs_packed_size", p.name)(m, k, v.mr(), 4, 1);
    let mut out = Guarded::from_bytes(&vec![0xa5; size.max(1)], edge);
    // SAFETY: source rows and output sized for m x k.
    unsafe {
        pack_lhs(
            p.name,
            (m, k),
            (v.mr(), 4, 1),
            0,
            (lhs.ptr().cast(), es * row),
            out.mut_ptr().cast(),
        )
    };
    let values: Vec<u16> = (0..m)
        .flat_map(|i| (0..k).map(move |kk| (i, kk)))
        .map(|(i, kk)| expected_bf16(v, src[i * row + kk]))
        .collect();
    let mut expect = vec![0u16; size / 2];
    reference::pack(m, k, v.mr(), &values, &mut expect);
    let expect: Vec<u8> = expect.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(
        &out.bytes()[..size],
        &expect[..],
        "{} m={m} k={k} pad={pad} specials={specials} {edge:?}",
        p.name
    );
}

/// Runs `case(packer, seed, shape, option, edge)` for every packer of `packers`, every shape of
/// `shapes` (its index the seed), every option of `options` and both guard-page edges; returns
/// the cases run.
fn each_case<S: Copy, O: Copy>(
    packers: Vec<&'static Packer>,
    shapes: &[S],
    options: &[O],
    case: impl Fn(&Packer, u64, S, O, Edge),
) -> usize {
    let mut cases = 0;
    for p in packers {
        for (seed, &shape) in shapes.iter().enumerate() {
            for &option in options {
                for edge in EDGES {
                    case(p, seed as u64, shape, option, edge);
                    cases += 1;
                }
            }
        }
    }
    cases
}

#[test]
fn packers_match_reference_bytes() {
    let shapes = [
        (1, 1),
        (1, 3),
        (1, 4),
        (2, 5),
        (7, 8),
        (8, 9),
        (9, 16),
        (15, 2),
        (16, 33),
        (23, 70),
        (1, 0),
    ];
    // (source row padding, special values)
    let options = [(0, false), (0, true), (3, false), (3, true)];
    let cases = each_case(
        packers(),
        &shapes,
        &options,
        |p, seed, (m, k), (pad, specials), edge| {
            let m = if variant(p).mr() == 1 { 1 } else { m };
            pack_case(p, m, k, pad, seed, specials, edge)
        },
    );
    eprintln!("bf16 LHS packer cases: {cases}");
}

fn rhs_packers() -> Vec<&'static Packer> {
    packers_of(rhs_kind)
}

fn rhs_variant(p: &Packer) -> RhsVariant {
    rhs_kind(p).expect("a bf16 RHS packer")
}

fn rhs_packed_size(p: &Packer, n: usize, k: usize) -> usize {
    match rhs_variant(p) {
        RhsVariant::QuantF32 => sym::<Getter4>("get_rhs_packed_size", p.name)(n, k, 12, 4),
        _ => sym::<Getter2>("get_rhs_packed_size", p.name)(n, k),
    }
}

/// Packed sizes of the LHS and RHS packers equal the values measured on KleidiAI 1.30 for the
/// bf16 kernels' pairs.
#[test]
fn packed_sizes_equal_kleidiai_values() {
    let table = include_str!("data/kleidiai-1.30-packed-sizes.tsv");
    let mut checked = 0;
    for row in table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
    {
        let (Some(lhs), Some(rhs)) = (catalog::packer(row[1]), catalog::packer(row[2])) else {
            continue;
        };
        if !matches!(lhs.kind, PackerKind::Lhs(LhsPackerKind::Bf16(_))) {
            continue;
        }
        let num = |i: usize| -> usize { row[i].parse().unwrap() };
        let (m, n, k) = (num(4), num(5), num(6));
        let mr = variant(lhs).mr();
        assert_eq!(
            sym::<Getter5>("get_lhs_packed_size", lhs.name)(m, k, mr, 4, 1),
            num(8),
            "{row:?}"
        );
        assert_eq!(rhs_packed_size(rhs, n, k), num(9), "{row:?}");
        checked += 1;
    }
    assert!(checked >= 12, "measured rows checked: {checked}");
}

#[test]
fn rhs_getters_follow_kleidiai_formulas() {
    assert_eq!(rhs_packers().len(), 3);
    for p in rhs_packers() {
        let v = rhs_variant(p);
        let (sb, bb) = (v.source_bytes(), v.bias_bytes());
        assert_eq!(sym::<Getter0>("get_n_step", p.name)(), 12);
        assert_eq!(sym::<Getter1>("get_rhs_offset", p.name)(24), 24 * sb);
        assert_eq!(sym::<Getter1>("get_bias_offset", p.name)(24), 24 * bb);
        let group = |k: usize| 12 * (bb + 2 * k.div_ceil(4) * 4);
        let offset = match v {
            RhsVariant::QuantF32 => sym::<Getter4>("get_rhs_packed_offset", p.name)(24, 10, 12, 4),
            _ => sym::<Getter2>("get_rhs_packed_offset", p.name)(24, 10),
        };
        assert_eq!(offset, 2 * group(10));
        assert_eq!(rhs_packed_size(p, 13, 10), 2 * group(10));
        if v.has_stride_getter() {
            assert_eq!(
                sym::<Getter1>("get_rhs_packed_stride", p.name)(10),
                group(10)
            );
        }
    }
}

const RHS_FILL: u8 = 0xa5;

/// Expected packed bytes: see `rkai_ukernels::pack::rhs_pack_bf16` for the two reproduced
/// behaviours (K padding repeats source row 0; the missing biases of the last group are left as
/// the destination held them, `RHS_FILL` here).
fn expected_rhs(v: RhsVariant, n: usize, k: usize, w: &[u32], bias: Option<&[u32]>) -> Vec<u8> {
    let bb = v.bias_bytes();
    let conv = |b: u32| match v {
        RhsVariant::QuantF32 => expected_bf16(Variant::Bf16p8x4F32, b),
        _ => expected_bf16(Variant::Bf16p8x4F16, b),
    };
    let bias = |j: usize| match (j < n, bias) {
        (true, Some(b)) => b[j].to_le_bytes()[..bb].to_vec(),
        (true, None) => vec![0; bb],
        (false, _) => vec![RHS_FILL; bb],
    };
    let value = |kk: usize, j: usize| conv(w[if kk < k { kk * n + j } else { j }]);
    bf16::rhs_layout((n, k), (12, 4), bias, value)
}

fn rhs_pack_case(p: &Packer, n: usize, k: usize, with_bias: bool, seed: u64, edge: Edge) {
    let v = rhs_variant(p);
    let lv = match v {
        RhsVariant::QuantF32 => Variant::Bf16p8x4F32,
        _ => Variant::Bf16p8x4F16,
    };
    let (sb, bb) = (v.source_bytes(), v.bias_bytes());
    let stride = n + 2;
    let src = source_bits(lv, k.saturating_sub(1) * stride + n, seed, seed % 2 == 1);
    let w = bf16::kxn_values(&src, (k, n), stride);
    let bias: Option<Vec<u32>> = with_bias.then(|| {
        let mut rng = Rng::new(seed ^ 7);
        (0..n)
            .map(|_| match bb {
                4 => rng.f32(-2.0, 2.0).to_bits(),
                _ => u32::from(half::f16::from_f32(rng.f32(-2.0, 2.0)).to_bits()),
            })
            .collect()
    });
    let bytes = |v: &[u32], b: usize| -> Vec<u8> {
        v.iter()
            .flat_map(|x| x.to_le_bytes()[..b].to_vec())
            .collect()
    };
    let src_bytes = bytes(&src, sb);
    let rhs = bf16::source(&src_bytes, edge);
    let bias_buf = bias
        .as_ref()
        .map(|b| Guarded::from_bytes(&bytes(b, bb), edge));
    let size = rhs_packed_size(p, n, k);
    let mut out = Guarded::from_bytes(&vec![RHS_FILL; size], edge);
    // SAFETY: source, bias and output sized for k x n; scale and params null.
    unsafe {
        pack_float_rhs(
            p.name,
            (n, k),
            (12, 4, 1),
            (rhs.ptr().cast(), sb * stride),
            bias_buf.as_ref().map_or(ptr::null(), |b| b.ptr().cast()),
            out.mut_ptr().cast(),
        )
    };
    let expect = expected_rhs(v, n, k, &w, bias.as_deref());
    assert_eq!(
        out.bytes(),
        &expect[..],
        "{} n={n} k={k} bias={with_bias} {edge:?}",
        p.name
    );
}

#[test]
fn rhs_packers_match_reference_bytes() {
    let shapes = [
        (1, 1),
        (12, 4),
        (13, 5),
        (5, 3),
        (24, 8),
        (25, 9),
        (36, 14),
        (40, 7),
        (7, 33),
        (100, 2),
        (3, 0),
    ];
    let cases = each_case(
        rhs_packers(),
        &shapes,
        &[false, true],
        |p, seed, (n, k), bias, edge| rhs_pack_case(p, n, k, bias, seed, edge),
    );
    eprintln!("bf16 RHS packer cases: {cases}");
}

/// The conversion the portable packers use equals the `BFCVT` instruction (and `FCVT` for the
/// f16 widening) on CPUs with FEAT_BF16.
#[cfg(target_arch = "aarch64")]
#[test]
fn conversions_match_the_instructions() {
    use rkai_ukernels::arch::Features;
    use rkai_ukernels::float;
    if !support::cpu::features().contains(Features::BF16) {
        eprintln!("no FEAT_BF16: BFCVT not compared");
        return;
    }
    /// The 32 bits of `s0` after conversion `$insn` of `$x` (moved into `s0`).
    macro_rules! convert {
        ($insn:literal, $x:expr) => {{
            let out: u32;
            // SAFETY: register-only conversion; the function's caller has the instruction's
            // feature (BFCVT: checked FEAT_BF16; FCVT: the FEAT_FP baseline).
            unsafe {
                std::arch::asm!(
                    "fmov s0, {x:w}",
                    $insn,
                    "fmov {y:w}, s0",
                    x = in(reg) $x,
                    y = out(reg) out,
                    out("v0") _,
                    options(pure, nomem, nostack),
                )
            };
            out
        }};
    }
    #[target_feature(enable = "bf16")]
    fn bfcvt(bits: u32) -> u16 {
        convert!("bfcvt h0, s0", bits) as u16
    }
    fn fcvt(h: u16) -> u32 {
        convert!("fcvt s0, h0", u32::from(h))
    }
    let specials = [&bf16::CONVERSION_SPECIALS[..], &[0x8000_8000]].concat();
    let mut checked = 0;
    for b in bf16::conversion_inputs(100_000, &specials) {
        // SAFETY: FEAT_BF16 checked above.
        assert_eq!(
            float::bf16_from_f32_bits(b),
            unsafe { bfcvt(b) },
            "{b:#010x}"
        );
        checked += 1;
    }
    for h in 0..=0xffffu16 {
        assert_eq!(float::f16::to_f32_bits(h), fcvt(h), "{h:#06x}");
    }
    eprintln!("{checked} BFCVT and 65536 FCVT conversions compared");
}

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn random_rows_match_reference(m in 1usize..40, k in 0usize..80, pad in 0usize..5, seed in any::<u64>()) {
            for p in packers() {
                let m = if variant(p).mr() == 1 { 1 } else { m };
                pack_case(p, m, k, pad, seed, seed % 2 == 0, Edge::End);
            }
        }

        #[test]
        fn random_weights_match_reference(n in 1usize..60, k in 0usize..40, seed in any::<u64>()) {
            for p in rhs_packers() {
                rhs_pack_case(p, n, k, seed % 3 != 0, seed, Edge::End);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Contract violations: each case runs in a child process and must abort naming the condition.

const P8: &str = "lhs_quant_pack_bf16p8x4_f32_neon";
const P1: &str = "lhs_quant_pack_bf16p1x4_f32_neon";
const H8: &str = "lhs_pack_bf16p8x4_f16_neon";

/// Calls `packer` with the given arguments on small valid buffers.
#[allow(clippy::too_many_arguments)]
fn run_call(packer: &str, m: usize, mr: usize, kr: usize, sr: usize, start: usize, null_lhs: bool) {
    let lhs = [0u8; 1024];
    let mut out = [0u8; 1024];
    let src = if null_lhs {
        ptr::null()
    } else {
        lhs.as_ptr().cast()
    };
    // SAFETY: buffers cover m <= 8, k = 8; the call is expected to abort.
    unsafe {
        pack_lhs(
            packer,
            (m, 8),
            (mr, kr, sr),
            start,
            (src, 32),
            out.as_mut_ptr().cast(),
        )
    }
}

const RQ: &str = "rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon";
const RF: &str = "rhs_pack_kxn_bf16p12x4biasf32_f16_neon";
const RH: &str = "rhs_pack_kxn_bf16p12x4biasf16_f16_neon";

/// Calls an RHS `packer` for n = 12, k = 8 with the given overrides.
fn rhs_call(packer: &str, num_groups: usize, nr: usize, kr: usize, scale: bool) {
    let w = [0u8; 1024];
    let mut out = vec![0u8; 4096];
    // SAFETY: buffers cover n = 12, k = 8; the call is expected to abort.
    unsafe {
        sym::<RhsPackFloatFn>("run", packer)(
            num_groups,
            12,
            8,
            nr,
            kr,
            1,
            48,
            w.as_ptr().cast(),
            ptr::null(),
            if scale {
                w.as_ptr().cast()
            } else {
                ptr::null()
            },
            out.as_mut_ptr().cast(),
            0,
            ptr::null(),
        )
    }
}

type Case = support::death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    vec![
        run_case!("mr", "mr == kai_mr" => run_call(P8, 4, 4, 4, 1, 0, false)),
        run_case!("kr", "kr == kai_kr" => run_call(H8, 4, 8, 2, 1, 0, false)),
        run_case!("sr", "sr == kai_sr" => run_call(P1, 1, 1, 4, 2, 0, false)),
        run_case!("one_row", "m == 1" => run_call(P1, 2, 1, 4, 1, 0, false)),
        run_case!("m_idx_start", "m_idx_start == 0" => run_call(P8, 4, 8, 4, 1, 8, false)),
        run_case!("null_lhs", "lhs != NULL" => run_call(H8, 4, 8, 4, 1, 0, true)),
        getter_case!("m_step", "mr == kai_mr" => get_m_step::<Getter1>(P1)(8)),
        getter_case!("packed_offset", "m_idx % mr == 0"
            => get_lhs_packed_offset::<Getter5>(P8)(4, 8, 8, 4, 1)),
        getter_case!("packed_offset_one_row", "m_idx == 0"
            => get_lhs_packed_offset::<Getter5>(P1)(1, 8, 1, 4, 1)),
        getter_case!("lhs_offset", "m_idx % (kai_mr) == 0"
            => get_lhs_offset::<Getter2>(H8)(4, 64)),
        run_case!("rhs_nr", "kai_nr == nr" => rhs_call(RQ, 1, 8, 4, false)),
        run_case!("rhs_kr", "kr == kai_kr" => rhs_call(RH, 1, 12, 2, false)),
        run_case!("rhs_num_groups", "num_groups == 1" => rhs_call(RF, 2, 12, 4, false)),
        run_case!("rhs_scale", "scale == NULL" => rhs_call(RQ, 1, 12, 4, true)),
        getter_case!("rhs_offset", "n_idx % kai_nr == 0" => get_rhs_offset::<Getter1>(RH)(6)),
        getter_case!("rhs_packed_size_nr", "kai_nr == nr"
            => get_rhs_packed_size::<Getter4>(RQ)(24, 8, 16, 4)),
        getter_case!("packed_size_kr", "kr == kai_kr"
            => get_lhs_packed_size::<Getter5>(H8)(8, 8, 8, 8, 1)),
    ]
}

death_tests!(cases, "bf16 packer contract violations");
