//! The mixed SME/NEON work planner (`rkai_ukernels::plan`, C `rkai_plan_matmul` and
//! `rkai_sme_units`): for every family, shape, column count, thread count and unit count on a
//! CPU with every feature, the plan gives SME at most one thread per unit, splits the columns
//! into `[0, a)` for SME and `[a, n)` for the other side on both kernels' column steps, uses the
//! pairs selection returns, and degrades to one side at the extremes (no unit, a unit per
//! thread, no SME kernel, a cost model that favours one side). The C entry point writes the same
//! plan, and running a plan gives, on each side's columns, the bytes of one call of its kernel.

use rkai_capi::plan_ffi::{RKAI_LAYOUT_ANY, RKAI_LAYOUT_KXN, RKAI_LAYOUT_NXK};
use rkai_capi::plan_ffi::{rkai_plan, rkai_plan_matmul, rkai_sme_units};
use rkai_capi::rkai_ffi::{RKAI_FEATURES_ALL, RKAI_SHAPE_GEMM, RKAI_SHAPE_GEMV};
use rkai_ukernels::arch::Features;
use rkai_ukernels::pack::kinds::WeightLayout;
use rkai_ukernels::plan::{self, CostModel, Plan, Request};
use rkai_ukernels::select::{self, Shape, families};
use std::ffi::{CStr, CString};

/// Every feature a CPU can have (the pure planner, whatever runs this test).
fn everything() -> Features {
    Features::ALL.difference(Features::IN_ORDER)
}

fn request(family: rkai_ukernels::family::Family, shape: Shape, n: usize) -> Request {
    Request {
        family,
        shape,
        n,
        threads: 8,
        sme_units: 2,
        features: everything(),
        sve_lanes32: 4,
        model: CostModel::DEFAULT,
        layout: None,
    }
}

/// The weight layouts a request may name (`None`: any pair).
const LAYOUTS: [Option<WeightLayout>; 3] = [None, Some(WeightLayout::Nxk), Some(WeightLayout::Kxn)];

/// Whether `pair` has an RHS packer for the request's weight layout.
fn packs_layout(r: &Request, pair: &select::Pair) -> bool {
    r.layout.is_none_or(|l| pair.rhs_packer_for(l).is_some())
}

/// The invariants every plan keeps; returns whether both sides are present.
fn check(r: &Request, p: &Plan) -> bool {
    let what = format!(
        "{} {:?} n={} t={} u={} {:?}",
        r.family.dir(),
        r.shape,
        r.n,
        r.threads,
        r.sme_units,
        r.layout
    );
    for side in [p.sme, p.neon].into_iter().flatten() {
        assert!(
            packs_layout(r, &side.pair),
            "{what}: a packer for the layout"
        );
    }
    let threads = r.threads.max(1);
    let mut end = 0;
    if let Some(s) = p.sme {
        assert!(s.kernel.isa.is_streaming(), "{what}");
        assert!(
            s.threads >= 1 && s.threads <= threads.min(r.sme_units.max(1)),
            "{what}"
        );
        assert_eq!(s.n_start, 0, "{what}");
        assert!(std::ptr::eq(s.kernel, s.pair.kernel(r.shape)), "{what}");
        end = s.n_len;
    }
    if let Some(v) = p.neon {
        assert!(!v.kernel.isa.is_streaming(), "{what}");
        assert_eq!(v.n_start, end, "{what}: contiguous columns");
        assert_eq!(
            v.n_start % v.kernel.tile().n_step,
            0,
            "{what}: NEON side on its own step"
        );
        let neon_features = r.features.difference(Features::SME_FAMILY);
        let best = select::best_pair_where(r.family, neon_features, 4, |p| packs_layout(r, p));
        assert!(
            std::ptr::eq(best.unwrap().gemm, v.pair.gemm),
            "{what}: selection's pair"
        );
        end += v.n_len;
        if let Some(s) = p.sme {
            assert_eq!(s.threads + v.threads, threads, "{what}: every thread used");
            assert!(s.n_len > 0 && v.n_len > 0, "{what}");
            assert_eq!(
                s.n_len % s.kernel.tile().n_step,
                0,
                "{what}: SME side in whole steps"
            );
        } else {
            assert_eq!(v.threads, threads, "{what}");
        }
    }
    assert_eq!(end, r.n, "{what}: every column planned once");
    p.sme.is_some() && p.neon.is_some()
}

#[test]
fn plans_keep_their_invariants_for_every_family() {
    let (mut plans, mut mixed) = (0, 0);
    for family in families() {
        for shape in [Shape::Gemv, Shape::Gemm] {
            for n in [1, 7, 64, 100, 1000, 4096] {
                for threads in [1, 2, 3, 8, 12] {
                    for (sme_units, layout) in (0..4).flat_map(|u| LAYOUTS.map(|l| (u, l))) {
                        let r = Request {
                            threads,
                            sme_units,
                            layout,
                            ..request(family, shape, n)
                        };
                        let Some(p) = plan::plan(&r) else {
                            let any = |p: &select::Pair| packs_layout(&r, p);
                            assert!(
                                select::best_pair_where(family, everything(), 4, any).is_none()
                            );
                            continue;
                        };
                        mixed += usize::from(check(&r, &p));
                        plans += 1;
                    }
                }
            }
        }
    }
    assert!(mixed > 100, "{mixed} of {plans} plans mix SME and NEON");
    eprintln!("RELIABILITY plans {plans} ({mixed} mixed)");
}

#[test]
fn plans_degrade_to_one_side_at_the_extremes() {
    let family = rkai_ukernels::family::Family::F32Qai8dxpQsi8cxp;
    let base = request(family, Shape::Gemm, 4096);
    let sides = |r: &Request| {
        let p = plan::plan(r).unwrap();
        check(r, &p);
        (p.sme.map(|s| s.threads), p.neon.map(|v| v.threads))
    };
    assert_eq!(
        sides(&base),
        (Some(2), Some(6)),
        "two units beside six NEON threads"
    );
    assert_eq!(
        sides(&Request {
            sme_units: 0,
            ..base
        }),
        (None, Some(8)),
        "no unit"
    );
    assert_eq!(
        sides(&Request { threads: 2, ..base }),
        (Some(2), None),
        "a unit per thread"
    );
    let no_sme = Request {
        features: everything().difference(Features::SME_FAMILY),
        ..base
    };
    assert_eq!(sides(&no_sme), (None, Some(8)), "no SME kernel");
    let slow = Request {
        model: CostModel {
            sme_unit_in_cores: 0.0,
        },
        ..base
    };
    assert_eq!(sides(&slow), (None, Some(8)), "SME worth nothing");
    let fast = Request {
        model: CostModel {
            sme_unit_in_cores: 1e9,
        },
        ..base
    };
    assert_eq!(sides(&fast), (Some(2), None), "NEON worth nothing");
    // The split follows the model: 2 units of 4 cores against 6 cores, 8/14 of the columns.
    let p = plan::plan(&base).unwrap();
    let share = p.sme.unwrap().n_len as f64 / 4096.0;
    assert!((share - 8.0 / 14.0).abs() < 0.02, "{share}");
    // Only SME kernels in the family (f16 x int4): SME alone, one thread per unit at most.
    let sme_only = rkai_ukernels::family::Family::F32F16pQsi4c32p;
    let r = request(sme_only, Shape::Gemm, 300);
    assert_eq!(sides(&r), (Some(2), None));
    assert_eq!(sides(&Request { sme_units: 0, ..r }), (Some(1), None));
}

#[test]
fn c_plan_equals_the_planner_and_names_the_units() {
    let mut source = std::ptr::null();
    // SAFETY: a writable pointer.
    let units = unsafe { rkai_sme_units(&mut source) };
    // SAFETY: a static NUL-terminated string.
    let source = unsafe { CStr::from_ptr(source) }.to_str().unwrap();
    let sme_here =
        rkai_capi::select::allowed_features(Features(RKAI_FEATURES_ALL)).contains(Features::SME);
    match std::env::var("RKAI_SME_UNITS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        Some(n) => assert_eq!((units, source), (n, "RKAI_SME_UNITS")),
        None if sme_here => assert_eq!((units, source), (1, "default")),
        None => assert_eq!((units, source), (0, "no SME")),
    }
    let mut checked = 0;
    for family in families() {
        let name = CString::new(family.dir()).unwrap();
        let shapes = [
            (RKAI_SHAPE_GEMV, Shape::Gemv),
            (RKAI_SHAPE_GEMM, Shape::Gemm),
        ];
        let layouts = [RKAI_LAYOUT_ANY, RKAI_LAYOUT_NXK, RKAI_LAYOUT_KXN]
            .into_iter()
            .zip(LAYOUTS);
        for ((shape, class), (c_layout, layout)) in shapes
            .into_iter()
            .flat_map(|s| layouts.clone().map(move |l| (s, l)))
        {
            let mut out = std::mem::MaybeUninit::<rkai_plan>::zeroed();
            // SAFETY: a NUL-terminated family name and a writable plan.
            let status = unsafe {
                rkai_plan_matmul(
                    name.as_ptr(),
                    shape,
                    1000,
                    8,
                    RKAI_FEATURES_ALL,
                    c_layout,
                    0.0,
                    out.as_mut_ptr(),
                )
            };
            let features = rkai_capi::select::allowed_features(Features(RKAI_FEATURES_ALL));
            let r = Request {
                sme_units: units,
                features,
                sve_lanes32: rkai_ukernels::arch::sve_lanes32(),
                layout,
                ..request(family, class, 1000)
            };
            let Some(want) = plan::plan(&r) else {
                assert_eq!(status, -1, "{}", family.dir());
                continue;
            };
            assert_eq!(status, 0);
            // SAFETY: written by the entry point.
            let got = unsafe { out.assume_init() };
            let name_of = |p: *const std::ffi::c_char| match p.is_null() {
                true => None,
                // SAFETY: a static NUL-terminated name.
                false => Some(unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()),
            };
            let side =
                |part: &rkai_capi::plan_ffi::rkai_plan_part, want: Option<plan::Part>| match want {
                    Some(w) => {
                        assert_eq!(
                            name_of(part.kernel),
                            Some(format!("{}_{}", w.kernel.prefix(), w.kernel.stem))
                        );
                        assert_eq!(
                            name_of(part.gemv),
                            Some(format!("{}_{}", w.pair.gemv.prefix(), w.pair.gemv.stem))
                        );
                        assert_eq!(
                            (part.threads, part.n_start, part.n_len),
                            (w.threads, w.n_start, w.n_len)
                        );
                    }
                    None => assert!(part.kernel.is_null() && part.threads == 0 && part.n_len == 0),
                };
            side(&got.sme, want.sme);
            side(&got.neon, want.neon);
            assert_eq!(got.shared_packing, u32::from(want.shared_packing));
            assert_eq!(got.sme_units, units);
            checked += 1;
        }
    }
    let bad = CString::new("matmul_clamp_no_such_family").unwrap();
    let good = CString::new(families().next().unwrap().dir()).unwrap();
    // An unknown family, an unknown layout.
    for (family, layout) in [(&bad, RKAI_LAYOUT_ANY), (&good, 3)] {
        let mut out = std::mem::MaybeUninit::<rkai_plan>::zeroed();
        // SAFETY: as above.
        let status = unsafe {
            rkai_plan_matmul(
                family.as_ptr(),
                RKAI_SHAPE_GEMM,
                8,
                8,
                RKAI_FEATURES_ALL,
                layout,
                0.0,
                out.as_mut_ptr(),
            )
        };
        assert_eq!(status, -1);
    }
    assert!(checked > 0);
}

/// Running a plan (`api::parallel::run_sides`: both sides at once, each on its threads) writes
/// every output column, and each side's columns hold the bytes one call of that side's kernel
/// gives (int4 and int8 weights, GEMV and GEMM; SME beside NEON where the CPU has SME, and
/// everywhere off Arm, where every kernel runs through its portable path).
#[test]
fn running_a_plan_gives_each_sides_one_call_bytes() {
    use rkai_capi::rkai_ffi::RKAI_SELECT_EMULATE;
    use rkai_ukernels::api::{
        self, Activations, Clamp, Kernel, PackedActivations, PackedWeights, Weights,
    };
    use rkai_ukernels::family::Family;
    let (n, k) = (300, 128);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let nibbles: Vec<u8> = (0..n * k / 2).map(|_| next() as u8).collect();
    let int8: Vec<i8> = (0..n * k).map(|_| next() as i8).collect();
    let scales: Vec<f32> = (0..n)
        .map(|_| (next() % 1000) as f32 * 1e-5 + 1e-3)
        .collect();
    let bias: Vec<f32> = (0..n).map(|_| (next() % 200) as f32 * 0.01 - 1.0).collect();
    let clamp = Clamp {
        min: -30.0,
        max: 30.0,
    };
    let features =
        rkai_capi::select::allowed_features(Features(RKAI_FEATURES_ALL | RKAI_SELECT_EMULATE));
    let (mut runs, mut mixed) = (0, 0);
    for family in [Family::F32Qai8dxpQsi4cxp, Family::F32Qai8dxpQsi8cxp] {
        let weights = match family {
            Family::F32Qai8dxpQsi4cxp => Weights::Int4PerChannel {
                data: &nibbles,
                scales: &scales,
            },
            _ => Weights::Int8PerChannel {
                data: &int8,
                scales: &scales,
            },
        };
        for (shape, m) in [(Shape::Gemv, 1), (Shape::Gemm, 13)] {
            let x: Vec<f32> = (0..m * k)
                .map(|_| (next() % 4000) as f32 * 1e-3 - 2.0)
                .collect();
            for (threads, sme_units) in [(8, 2), (3, 1), (1, 1), (4, 0)] {
                let r = Request {
                    family,
                    shape,
                    n,
                    threads,
                    sme_units,
                    features,
                    sve_lanes32: rkai_ukernels::arch::sve_lanes32(),
                    model: CostModel::DEFAULT,
                    layout: Some(WeightLayout::Nxk),
                };
                let Some(p) = plan::plan(&r) else {
                    // No kernel of the family runs here (no dotprod, as on a Cortex-A53).
                    assert!(select::best_pair(family, features, r.sve_lanes32).is_none());
                    continue;
                };
                let parts: Vec<plan::Part> = p.sme.into_iter().chain(p.neon).collect();
                let kernels: Vec<Kernel> = parts
                    .iter()
                    .map(|s| Kernel::new(s.kernel).unwrap())
                    .collect();
                let packed: Vec<PackedWeights<Vec<u8>>> = kernels
                    .iter()
                    .map(|kernel| {
                        let size = kernel.packed_weights_size(n, k, 0).unwrap();
                        PackedWeights::pack(kernel, n, k, weights, Some(&bias), vec![0u8; size])
                            .unwrap()
                    })
                    .collect();
                let lhs: Vec<PackedActivations<Vec<u8>>> = kernels
                    .iter()
                    .map(|kernel| {
                        let size = kernel.packed_activations_size(m, k, 0).unwrap();
                        PackedActivations::pack(
                            kernel,
                            m,
                            k,
                            0,
                            Activations::F32 {
                                data: &x,
                                stride: k,
                            },
                            vec![0; size],
                        )
                        .unwrap()
                    })
                    .collect();
                let sides: Vec<api::parallel::Side<'_, Vec<u8>, Vec<u8>>> = (0..parts.len())
                    .map(|i| api::parallel::Side {
                        kernel: &kernels[i],
                        lhs: &lhs[i],
                        rhs: &packed[i],
                        threads: parts[i].threads,
                        columns: (parts[i].n_start, parts[i].n_start + parts[i].n_len),
                    })
                    .collect();
                let mut dst = vec![f32::NAN; m * n];
                api::parallel::run_sides(&sides, &mut dst, n, clamp).unwrap();
                for (i, part) in parts.iter().enumerate() {
                    let mut one = vec![f32::NAN; m * n];
                    api::matmul(&kernels[i], &lhs[i], &packed[i], &mut one, n, clamp).unwrap();
                    for row in 0..m {
                        let cols = row * n + part.n_start..row * n + part.n_start + part.n_len;
                        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        assert_eq!(
                            bits(&dst[cols.clone()]),
                            bits(&one[cols]),
                            "{}",
                            part.kernel.stem
                        );
                    }
                }
                assert!(dst.iter().all(|x| !x.is_nan()), "every column written");
                mixed += usize::from(parts.len() == 2);
                runs += 1;
            }
        }
    }
    eprintln!("RELIABILITY plans run {runs} ({mixed} with both sides)");
}
