//! KleidiAI's generic matmul interface (`kai_matmul.h`), through the C ABI: the table of
//! `kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla` (function pointers called as C calls
//! them) against KleidiAI's getter values and a scalar reference in KleidiAI's order of
//! operations, at the streaming length of the CPU under test (SME2 asm where the CPU has it,
//! the portable path otherwise): edge shapes, column portions through the offset getters,
//! guard pages, register canaries, hostile floats, both clamp settings and KleidiAI's
//! assumptions.

mod support;

use rkai_capi::capi::exports::kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla as provider;
use rkai_ukernels::arch::{self, Isa};
use rkai_ukernels::float;
use rkai_ukernels::matmul::uker;
use rkai_ukernels::matmul_types::*;
use std::ptr;
use support::guard::{EDGES, Guarded};
use support::rng::Rng;

const NAME: &str = "kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla";
const CLAMP: u64 = kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u64;
const CONFIG: kai_matmul_uker_config = kai_matmul_uker_config {
    format: kai_matmul_uker_format_config { bl: 0 },
};

/// nr = 4 x vscale: the streaming length in 32-bit lanes (4 without SME). Checked against the
/// QEMU model when the test matrix names one.
fn expected_nr() -> usize {
    let nr = arch::sme_lanes32();
    if let Ok(model) = std::env::var("RKAI_EXPECT_CPU") {
        let bytes = model
            .split(',')
            .find_map(|o| o.strip_prefix("sme-default-vector-length="))
            .map(|v| v.parse::<usize>().unwrap());
        if let Some(b) = bytes {
            assert_eq!(nr, b / 4, "SVL32 under {model}");
        }
    }
    nr
}

/// Calls getter `$f` of the table with [`CONFIG`] and `$arg`s.
macro_rules! getter {
    ($f:ident($($arg:expr),*)) => {
        // SAFETY: the getters read only the structs passed, which are valid.
        unsafe { (provider().$f.unwrap())(&CONFIG $(, $arg)*) }
    };
}

fn lhs_offset(m: usize, k: usize, stride: usize) -> usize {
    getter!(get_lhs_offset(
        &kai_matmul_uker_lhs_dim_args { m, k },
        &kai_matmul_uker_lhs_stride_args { m: stride }
    ))
}

fn rhs_offset(n: usize, k: usize, stride: usize) -> usize {
    getter!(get_rhs_offset(
        &kai_matmul_uker_rhs_dim_args { n, k },
        &kai_matmul_uker_rhs_stride_args { n: stride }
    ))
}

fn dst_offset(m: usize, n: usize, stride: usize) -> usize {
    getter!(get_dst_offset(
        &kai_matmul_uker_dst_dim_args { m, n },
        &kai_matmul_uker_dst_stride_args { m: stride }
    ))
}

/// KleidiAI's getter values, from its formulas: mr 1, nr 4 x vscale, kr 1, 4-byte elements.
#[test]
fn getters_equal_kleidiai() {
    let nr = expected_nr();
    let api = provider();
    assert!(api.run.is_some() && api.get_dst_size.is_some());
    let step = getter!(get_step());
    assert_eq!((step.m, step.n, step.k), (1, nr, 0));
    let mut checked = 0;
    for k in [0, 1, 2, 3, 7, 64, 1000] {
        for n in [1, nr - 1, nr, nr + 1, 5 * nr + 3] {
            let ls = getter!(get_lhs_stride(&kai_matmul_uker_lhs_dim_args { m: 3, k })).m;
            assert_eq!(ls, k * 4);
            let rs = getter!(get_rhs_stride(&kai_matmul_uker_rhs_dim_args { n, k })).n;
            assert_eq!(rs, nr * (4 + 4 * k));
            let ds = getter!(get_dst_stride(&kai_matmul_uker_dst_dim_args { m: 2, n })).m;
            assert_eq!(ds, n * 4);
            for m in [0, 1, 2, 5] {
                assert_eq!(lhs_offset(m, 0, ls), m * ls);
                assert_eq!(dst_offset(m, 2 * nr, ds), m * ds + 2 * nr * 4);
                let size = getter!(get_dst_size(
                    &kai_matmul_uker_dst_dim_args { m, n },
                    &kai_matmul_uker_dst_stride_args { m: ds }
                ));
                assert_eq!(size, m * ds);
                checked += 3;
            }
            for blk in [0, 1, 3] {
                assert_eq!(rhs_offset(blk * nr, 0, rs), blk * rs);
                checked += 1;
            }
            checked += 3;
        }
    }
    eprintln!("{checked} getter values equal KleidiAI's (nr {nr})");
}

/// The packed RHS of the format (`x32p4vsx1bx32`): per block of `nr` columns their biases, then
/// per K row their values; zero past `n`.
fn pack(n: usize, k: usize, nr: usize, rhs: &[f32], bias: &[f32]) -> Vec<f32> {
    let mut out = Vec::new();
    for blk in 0..n.div_ceil(nr) {
        let cols = blk * nr..blk * nr + nr;
        out.extend(cols.clone().map(|c| if c < n { bias[c] } else { 0.0 }));
        for kk in 0..k {
            out.extend(
                cols.clone()
                    .map(|c| if c < n { rhs[kk * n + c] } else { 0.0 }),
            );
        }
    }
    out
}

/// KleidiAI's order of operations: the column's bias, one fused multiply-add per K value in K
/// order into ZA (default NaN), then `FCLAMP` when asked.
fn reference(
    n: usize,
    k: usize,
    lhs: &[f32],
    rhs: &[f32],
    bias: &[f32],
    clamp: Option<(f32, f32)>,
) -> Vec<u32> {
    (0..n)
        .map(|j| {
            let mut acc = bias[j];
            for kk in 0..k {
                acc = float::fmla_za(acc, rhs[kk * n + j], lhs[kk]);
            }
            if let Some((lo, hi)) = clamp {
                acc = float::clamp_num(acc, lo, hi);
            }
            acc.to_bits()
        })
        .collect()
}

/// The run arguments for `n` columns.
#[allow(clippy::too_many_arguments)]
fn args(
    flags: u64,
    (m, n, k): (usize, usize, usize),
    lhs: *const u8,
    rhs: *const u8,
    dst: *mut u8,
    bounds: (&f32, &f32),
) -> kai_matmul_uker_args {
    let mut a: kai_matmul_uker_args = unsafe { std::mem::zeroed() };
    a.flags = flags;
    a.shape = kai_matmul_uker_dim_args { m, n, k };
    a.operand.lhs.ptr = lhs.cast();
    // Strides KleidiAI ignores: hostile values.
    a.operand.lhs.stride.m = usize::MAX;
    a.operand.rhs.ptr = rhs.cast();
    a.operand.rhs.stride.n = 3;
    a.operand.dst.ptr = dst.cast();
    a.operand.dst.stride.m = 1;
    a.activation.clamp.min_ptr = ptr::from_ref(bounds.0).cast();
    a.activation.clamp.max_ptr = ptr::from_ref(bounds.1).cast();
    a
}

/// Runs the table's `run` on `a`, through the register-canary frame on aarch64.
fn run(a: &kai_matmul_uker_args) {
    let f = provider().run.unwrap();
    #[cfg(target_arch = "aarch64")]
    {
        let mut c = support::abi::CallArgs::default();
        c.x[0] = ptr::from_ref(&CONFIG) as u64;
        c.x[1] = ptr::from_ref(a) as u64;
        // SAFETY: `run(config, args)` takes two pointers; the buffers are the caller's.
        let mask = unsafe { support::abi::call(f as usize, &c) };
        assert_eq!(mask, 0, "{NAME} clobbered {}", support::abi::describe(mask));
    }
    #[cfg(not(target_arch = "aarch64"))]
    // SAFETY: valid arguments whose buffers the caller sized.
    unsafe {
        f(&CONFIG, a)
    };
}

fn bits(v: &Guarded, n: usize) -> Vec<u32> {
    (0..n).map(|i| v.f32_at(i).to_bits()).collect()
}

/// One case: every edge of the guard pages, both clamp settings, the whole row and each
/// portion of `portion` blocks; results equal the reference and the portable path.
fn check_case(
    (n, k): (usize, usize),
    lhs: &[f32],
    rhs: &[f32],
    bias: &[f32],
    clamp: Option<(f32, f32)>,
) -> usize {
    let nr = expected_nr();
    let packed = pack(n, k, nr, rhs, bias);
    let expect = reference(n, k, lhs, rhs, bias, clamp);
    // The portable path gives the same bits.
    let mut portable = vec![0f32; n];
    // SAFETY: the buffers hold k, the packed blocks and n floats.
    unsafe {
        uker::gemv_portable(
            n,
            k,
            nr,
            lhs.as_ptr(),
            packed.as_ptr(),
            portable.as_mut_ptr(),
            clamp,
        )
    };
    let pb: Vec<u32> = portable.iter().map(|x| x.to_bits()).collect();
    assert_eq!(pb, expect, "portable n {n} k {k} clamp {clamp:?}");
    let (flags, lo, hi) = match clamp {
        Some((lo, hi)) => (CLAMP, lo, hi),
        // Bounds that would change the result if they were read.
        None => (0, 1.0, -1.0),
    };
    let mut runs = 0;
    for edge in EDGES {
        let l = Guarded::from_f32(lhs, edge);
        let r = Guarded::from_f32(&packed, edge);
        let mut d = Guarded::from_f32(&vec![f32::from_bits(0x7fa5_a5a5); n], edge);
        run(&args(
            flags,
            (1, n, k),
            l.ptr(),
            r.ptr(),
            d.mut_ptr(),
            (&lo, &hi),
        ));
        assert_eq!(bits(&d, n), expect, "n {n} k {k} clamp {clamp:?} {edge:?}");
        runs += 1;
        // Portions: start columns every block, widths up to three blocks, through the getters.
        let rs = getter!(get_rhs_stride(&kai_matmul_uker_rhs_dim_args { n, k })).n;
        let ds = getter!(get_dst_stride(&kai_matmul_uker_dst_dim_args { m: 1, n })).m;
        for start in (nr..n).step_by(nr) {
            for width in [1, nr, 3 * nr - 1] {
                let width = width.min(n - start);
                let mut out = Guarded::from_f32(&vec![f32::from_bits(0x7fa5_a5a5); n], edge);
                let (ro, doff) = (rhs_offset(start, 0, rs), dst_offset(0, start, ds));
                assert_eq!(lhs_offset(0, 0, k * 4), 0);
                // SAFETY: the offsets stay inside the buffers (start < n, start % nr == 0).
                let (rp, dp) = unsafe { (r.ptr().add(ro), out.mut_ptr().add(doff)) };
                run(&args(flags, (1, width, k), l.ptr(), rp, dp, (&lo, &hi)));
                let got = bits(&out, n);
                assert_eq!(&got[start..start + width], &expect[start..start + width]);
                assert!(
                    got[..start]
                        .iter()
                        .chain(&got[start + width..])
                        .all(|&x| x == 0x7fa5_a5a5),
                    "portion {start}+{width} of n {n} wrote outside"
                );
                runs += 1;
            }
        }
    }
    runs
}

#[test]
fn gemv_equals_reference_at_edge_shapes() {
    let nr = expected_nr();
    let mut rng = Rng::new(27);
    let mut runs = 0;
    let ns = [
        1,
        2,
        nr - 1,
        nr,
        nr + 1,
        2 * nr,
        3 * nr + 1,
        4 * nr,
        4 * nr + 1,
        5 * nr - 1,
        9 * nr + 3,
    ];
    for n in ns {
        for k in [1, 2, 3, 4, 5, 7, 8, 9, 17] {
            let lhs: Vec<f32> = (0..k).map(|_| rng.f32(-2.0, 2.0)).collect();
            let rhs: Vec<f32> = (0..k * n).map(|_| rng.f32(-2.0, 2.0)).collect();
            let bias: Vec<f32> = (0..n).map(|_| rng.f32(-1.0, 1.0)).collect();
            for clamp in [None, Some((-0.75f32, 0.5f32)), Some((f32::MIN, f32::MAX))] {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    eprintln!(
        "{runs} runs equal the reference (nr {nr}, SME2 asm: {})",
        support::cpu::can_run(Isa::Sme2) && cfg!(target_arch = "aarch64")
    );
}

/// Infinities, NaNs (quiet and signalling), signed zeros, subnormals and overflowing products in
/// every operand, without clamp (they pass, NaNs as the default NaN) and with (FCLAMP's rules).
#[test]
fn hostile_floats() {
    let nr = expected_nr();
    let specials = [
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffc0_1234),
        -0.0,
        0.0,
        f32::from_bits(1),
        f32::MAX,
        -f32::MAX,
        1.0e30,
    ];
    let mut rng = Rng::new(4);
    let mut runs = 0;
    for (n, k) in [(nr + 1, 3), (4 * nr + 2, 5), (2, 1)] {
        for round in 0..6 {
            let mut pick = |i: usize| {
                if (i + round) % 3 == 0 {
                    specials[(i * 7 + round) % specials.len()]
                } else {
                    rng.f32(-3.0, 3.0)
                }
            };
            let lhs: Vec<f32> = (0..k).map(&mut pick).collect();
            let rhs: Vec<f32> = (0..k * n).map(|i| pick(i + 1)).collect();
            let bias: Vec<f32> = (0..n).map(|i| pick(i + 2)).collect();
            for clamp in [
                None,
                Some((-1.0, 1.0)),
                Some((f32::NEG_INFINITY, f32::INFINITY)),
                Some((2.0, -2.0)),
                Some((f32::NAN, 1.0)),
            ] {
                runs += check_case((n, k), &lhs, &rhs, &bias, clamp);
            }
        }
    }
    eprintln!("{runs} hostile runs equal the reference");
}

/// `n == 0` writes nothing; `k == 0` gives the (clamped) bias.
#[test]
fn empty_shapes() {
    let nr = expected_nr();
    let bias: Vec<f32> = (0..nr + 1).map(|i| i as f32 - 2.0).collect();
    assert_eq!(
        check_case((nr + 1, 0), &[], &[], &bias, Some((-1.0, 1.0))),
        8
    );
    let one = [1.0f32];
    let mut d = Guarded::from_f32(&[5.0], EDGES[0]);
    run(&args(
        0,
        (1, 0, 1),
        one.as_ptr().cast(),
        one.as_ptr().cast(),
        d.mut_ptr(),
        (&0.0, &0.0),
    ));
    assert_eq!(d.f32_at(0), 5.0);
}

/// KleidiAI's assumptions; rkai aborts naming the provider.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    fn call(flags: u64, m: usize, nulls: [bool; 5]) {
        let x = [1.0f32; 64];
        let mut d = [0f32; 64];
        let mut a = args(
            flags,
            (m, 4, 1),
            x.as_ptr().cast(),
            x.as_ptr().cast(),
            d.as_mut_ptr().cast(),
            (&0.0, &1.0),
        );
        let o = &mut a.operand;
        if nulls[0] {
            o.lhs.ptr = ptr::null();
        }
        if nulls[1] {
            o.rhs.ptr = ptr::null();
        }
        if nulls[2] {
            o.dst.ptr = ptr::null_mut();
        }
        if nulls[3] {
            a.activation.clamp.min_ptr = ptr::null();
        }
        if nulls[4] {
            a.activation.clamp.max_ptr = ptr::null();
        }
        run(&a);
    }
    const FLAGS: &str = "Only supported flags are accepted!";
    const NO: [bool; 5] = [false; 5];
    vec![
        ("flag_bit0", NAME, FLAGS, || call(1, 1, NO)),
        ("flag_high", NAME, FLAGS, || call(CLAMP | (1 << 40), 1, NO)),
        ("flag_next", NAME, FLAGS, || call(CLAMP << 1, 1, NO)),
        ("m_zero", NAME, "args->shape.m == 1", || call(0, 0, NO)),
        ("m_two", NAME, "args->shape.m == 1", || call(CLAMP, 2, NO)),
        ("null_lhs", NAME, "args->operand.lhs.ptr != NULL", || {
            call(0, 1, [true, false, false, false, false])
        }),
        ("null_rhs", NAME, "args->operand.rhs.ptr != NULL", || {
            call(0, 1, [false, true, false, false, false])
        }),
        ("null_dst", NAME, "args->operand.dst.ptr != NULL", || {
            call(0, 1, [false, false, true, false, false])
        }),
        (
            "null_min",
            NAME,
            "args->activation.clamp.min_ptr != NULL",
            || call(CLAMP, 1, [false, false, false, true, false]),
        ),
        (
            "null_max",
            NAME,
            "args->activation.clamp.max_ptr != NULL",
            || call(CLAMP, 1, [false, false, false, false, true]),
        ),
        ("lhs_offset_k", NAME, "index->k == 0", || {
            lhs_offset(0, 1, 4);
        }),
        ("rhs_offset_n", NAME, "index->n % get_n_step() == 0", || {
            rhs_offset(1, 0, 4);
        }),
        ("rhs_offset_k", NAME, "index->k == 0", || {
            rhs_offset(0, 2, 4);
        }),
        ("dst_offset_n", NAME, "index->n % get_n_step() == 0", || {
            dst_offset(0, expected_nr() + 1, 4);
        }),
    ]
}

death_tests!(violations, "assumptions");
