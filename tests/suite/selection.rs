//! Run-time kernel selection: on every CPU model the choice is the best legal pair, the GEMV and
//! GEMM read one packed RHS format, masks and `RKAI_FEATURES` restrict the choice, and the C entry
//! points hand out the chosen kernel's own functions. (The chosen kernels' results are checked
//! against the reference with every other kernel in `tests/suite/qai8dxp.rs`.)

use crate::support;

use rkai_capi::cabi::CSurface;
use rkai_capi::rkai_ffi::{
    RKAI_FEATURES_ALL, RKAI_SELECT_EMULATE, RKAI_SHAPE_GEMM, RKAI_SHAPE_GEMV,
};
use rkai_capi::select::{self, ShapeClass};
use rkai_ukernels::arch::{Features, Isa};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::select::{self as rank, families};
use std::ffi::CStr;

const ALL: Features = Features(RKAI_FEATURES_ALL);
/// Every feature, and off AArch64 the request to choose kernels needing SVE or SME too.
const EMULATE: Features = Features(RKAI_FEATURES_ALL | RKAI_SELECT_EMULATE);

/// Features selection sees in this process without a mask.
fn present() -> Features {
    select::allowed_features(ALL)
}

fn chosen(family: Family, shape: ShapeClass) -> Option<&'static MatmulKernel> {
    select::best_kernel(family, shape, ALL)
}

fn stem(k: Option<&MatmulKernel>) -> Option<&'static str> {
    k.map(|k| k.stem)
}

/// Instruction tier of a GEMM, as the ranking orders them.
fn tier(isa: Isa) -> u8 {
    match isa {
        Isa::Sme2 => 4,
        Isa::Sme => 3,
        Isa::NeonI8mm | Isa::NeonFp16I8mm | Isa::SveI8mm | Isa::Sve2I8mm => 2,
        Isa::NeonDotprod | Isa::NeonFp16Dotprod | Isa::SveDotprod | Isa::Sve2Dotprod => 1,
        _ => 0,
    }
}

/// Whether every GEMM of `family` is built on SDOT or SMMLA (the integer families). A family
/// whose kernels all run in streaming mode (f16 x int4 on SME2) has no NEON or SVE tier at all.
fn integer(family: Family) -> bool {
    !needs_sme(family) && rank::pairs(family).all(|p| tier(p.gemm.isa) > 0)
}

/// Families whose every kernel runs in streaming mode (the SME bf16 GEMMs, f16 x int4).
fn needs_sme(family: Family) -> bool {
    rank::pairs(family).all(|p| p.gemm.isa.is_streaming() && p.gemv.isa.is_streaming())
}

#[test]
fn choice_runs_here_and_pairs_share_one_rhs_format() {
    for family in families() {
        let gemv = chosen(family, ShapeClass::Gemv);
        let gemm = chosen(family, ShapeClass::Gemm);
        if rank::pairs(family).next().is_none() {
            // One-row GEMVs only: the GEMV where one runs here, never a kernel for several rows.
            assert!(gemm.is_none(), "{}", family.dir());
            let runs_here = |k: &&MatmulKernel| present().contains(k.isa.features());
            let lone = KERNELS
                .iter()
                .copied()
                .filter(|k| k.family == family)
                .find(runs_here);
            assert_eq!(gemv.is_some(), lone.is_some(), "{}", family.dir());
            assert!(gemv.is_none_or(|k| k.steps_one_row() && k.family == family));
            continue;
        }
        assert_eq!(gemv.is_some(), gemm.is_some(), "{}", family.dir());
        let (Some(gemv), Some(gemm)) = (gemv, gemm) else {
            continue;
        };
        // A GEMV has m_step 1, unless the family has none for this format (the float GEMMs):
        // then the GEMM runs m = 1 too.
        assert!(
            gemv.tile().m_step == 1 || std::ptr::eq(gemv, gemm),
            "{}: GEMV {}",
            family.dir(),
            gemv.stem
        );
        for k in [gemv, gemm] {
            assert!(
                present().contains(k.isa.features()),
                "{} cannot run here",
                k.stem
            );
        }
        let (a, b) = (gemv.tile(), gemm.tile());
        assert_eq!(
            (a.nr, a.kr, a.sr),
            (b.nr, b.kr, b.sr),
            "{} / {}",
            gemv.stem,
            gemm.stem
        );
        assert!(rank::share_rhs_format(gemv, gemm));
    }
}

#[test]
fn no_legal_pair_ranks_above_the_choice() {
    // Brute force over every pair the CPU runs: none has a better GEMM instruction tier, and
    // among pairs of the chosen tier none has a larger GEMM tile.
    for family in families() {
        let Some(best) = select::best_pair(family, ALL) else {
            assert!(rank::pairs(family).all(|p| !p.runs_with(present())));
            continue;
        };
        for p in rank::pairs(family).filter(|p| p.runs_with(present())) {
            assert!(tier(p.gemm.isa) <= tier(best.gemm.isa), "{}", p.gemm.stem);
            let same_vectors = p.gemm.isa.is_sve() == best.gemm.isa.is_sve();
            let single_row = |q: &rank::Pair| q.gemv.steps_one_row();
            if !single_row(&best) && tier(p.gemm.isa) == tier(best.gemm.isa) && same_vectors {
                assert!(!single_row(&p), "{}", p.gemm.stem);
            }
            if tier(p.gemm.isa) == tier(best.gemm.isa)
                && same_vectors
                && single_row(&p) == single_row(&best)
            {
                let area = |k: &MatmulKernel| k.tile().m_step * k.tile().n_step;
                assert!(area(p.gemm) <= area(best.gemm), "{}", p.gemm.stem);
            }
        }
    }
}

/// The bf16 GEMM families, whose every kernel needs FEAT_BF16.
fn needs_bf16(family: Family) -> bool {
    matches!(family, Family::F32Bf16pBf16p | Family::F16Bf16pBf16p)
}

/// Families whose every kernel needs SVE (the indirect f32 GEMM).
fn needs_sve(family: Family) -> bool {
    rank::pairs(family).all(|p| p.gemm.isa.is_sve())
}

/// The family's GEMM choice: none where the CPU `lacks` what the family needs or the family has
/// no kernel computing more than one row (KleidiAI's int8-output GEMV is its family's only
/// kernel; selection offers no pair there) (asserted), one otherwise.
fn gemm_unless(family: Family, lacks: bool) -> Option<&'static MatmulKernel> {
    let k = chosen(family, ShapeClass::Gemm);
    if lacks || rank::pairs(family).next().is_none() {
        assert!(k.is_none(), "{}", family.dir());
        return None;
    }
    Some(k.unwrap_or_else(|| panic!("{}: no kernel", family.dir())))
}

#[test]
fn choices_on_each_cpu_model() {
    let f = present();
    let int4 = Family::F32Qai8dxpQsi4cxp;
    let gemv = stem(chosen(int4, ShapeClass::Gemv));
    let gemm = stem(chosen(int4, ShapeClass::Gemm));
    if !f.contains(Features::DOTPROD) {
        // cortex-a53: no integer kernel runs, and none may be offered; the f32 GEMM runs.
        for family in families() {
            assert_eq!(
                chosen(family, ShapeClass::Gemm).is_none(),
                integer(family)
                    || family == Family::F16F16F16p
                    || needs_bf16(family)
                    || needs_sve(family)
                    || needs_sme(family),
                "{}",
                family.dir()
            );
        }
        assert_eq!(
            stem(chosen(Family::F32F32F32p, ShapeClass::Gemv)),
            Some("matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla")
        );
    } else if !f.contains(Features::I8MM) {
        // neoverse-n1: the SDOT 16x4 GEMM and the 1x4 GEMV that reads its format.
        assert_eq!(
            gemm,
            Some("matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod")
        );
        assert_eq!(
            gemv,
            Some("matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod")
        );
        for family in families() {
            // neoverse-n1 has neither FEAT_BF16 nor SVE: those families have no kernel.
            let lacks = needs_bf16(family) || needs_sve(family) || needs_sme(family);
            let Some(k) = gemm_unless(family, lacks) else {
                continue;
            };
            assert!(!k.isa.features().contains(Features::I8MM), "{}", k.stem);
        }
    } else {
        // i8mm: the SMMLA 8x8 GEMM; its format's GEMV is the 1x8 SDOT kernel.
        // (With SME the int4 family runs streaming kernels: checked below and in
        // `sme_kernels_are_chosen_where_they_run`.)
        let gemm = chosen(int4, ShapeClass::Gemm).unwrap();
        assert!(
            gemm.isa.features().contains(Features::I8MM) || gemm.isa.is_streaming(),
            "{}",
            gemm.stem
        );
        if !gemm.isa.is_sve() && !gemm.isa.is_streaming() {
            assert_eq!(
                gemm.stem,
                "matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm"
            );
            assert_eq!(
                gemv,
                Some("matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod")
            );
        }
        if f.contains(Features::BF16) {
            // bf16: the BFDOT GEMV for one row, the BFMMLA GEMM for more (both read one packed
            // RHS; each needs its own LHS packer).
            assert_eq!(
                stem(chosen(Family::F32Bf16pBf16p, ShapeClass::Gemv)),
                Some("matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot")
            );
            assert_eq!(
                stem(chosen(Family::F32Bf16pBf16p, ShapeClass::Gemm)),
                Some("matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla")
            );
        }
        for family in families() {
            // SME without SVE (`sve=off`): the SVE-only families have no kernel.
            let lacks = (needs_sve(family) && !f.contains(Features::SVE))
                || (needs_sme(family) && !f.contains(Features::SME));
            let Some(k) = gemm_unless(family, lacks) else {
                continue;
            };
            let streaming =
                rank::pairs(family).any(|p| p.runs_with(f) && p.gemm.isa.is_streaming());
            if streaming {
                // SME: an outer-product GEMM, SME2's where the CPU has SME2.
                assert!(k.isa.is_streaming(), "{}", k.stem);
                assert_eq!(k.isa == Isa::Sme2, f.contains(Features::SME2), "{}", k.stem);
                continue;
            }
            let has_i8mm =
                rank::pairs(family).any(|p| p.gemm.isa.features().contains(Features::I8MM));
            assert_eq!(
                k.isa.features().contains(Features::I8MM),
                has_i8mm,
                "{}",
                k.stem
            );
        }
    }
}

/// Cores with vectors wider than 128 bits get SVE kernels for every family whose best tier has
/// one that runs here (max at 256+ bits: rkai's vector-length-agnostic SVE2 kernels, the SVE f32
/// GEMM; neoverse-v1: KleidiAI's 256-bit Q4_0 kernels, never the SVE2 ones); at 128 bits
/// (neoverse-n2, max at 128) the NEON kernels keep the first rank.
#[test]
fn sve_kernels_are_chosen_where_they_rank_first() {
    let f = present();
    let lanes = rkai_ukernels::arch::sve_lanes32();
    for family in families() {
        let runnable: Vec<_> = rank::pairs(family)
            .filter(|p| p.runs_with(f))
            .filter(|p| p.gemv.runs_at_sve_lanes32(lanes) && p.gemm.runs_at_sve_lanes32(lanes))
            .collect();
        let (Some(gemv), Some(gemm)) = (
            chosen(family, ShapeClass::Gemv),
            chosen(family, ShapeClass::Gemm),
        ) else {
            assert!(runnable.is_empty(), "{}", family.dir());
            continue;
        };
        let best_tier = runnable.iter().map(|p| tier(p.gemm.isa)).max().unwrap();
        let sve_at_best_tier = runnable
            .iter()
            .any(|p| p.gemm.isa.is_sve() && tier(p.gemm.isa) == best_tier);
        // A family with SVE kernels only (the imatmul one) gets one at any length.
        let only_sve = runnable.iter().all(|p| p.gemm.isa.is_sve());
        let want_sve = only_sve || (lanes > 4 && sve_at_best_tier);
        assert_eq!(
            gemm.isa.is_sve(),
            want_sve,
            "{} with {lanes} lanes, features {f:?}",
            gemm.stem
        );
        assert_eq!(tier(gemm.isa), best_tier, "{}", gemm.stem);
        if !f.contains(Features::SVE2) {
            assert!(
                !gemv.isa.features().contains(Features::SVE2),
                "{}",
                gemv.stem
            );
        }
        eprintln!("{}: {} / {}", family.dir(), gemv.stem, gemm.stem);
    }
}

#[test]
fn mask_restricts_the_choice() {
    // FP16 comes with dotprod on every core that has it; the f16-output families of
    // `qsi8d32p_qai4c32p` need both.
    let dotprod_only = Features::NEON
        .union(Features::DOTPROD)
        .union(Features::FP16);
    for family in families() {
        let restricted = select::best_kernel(family, ShapeClass::Gemm, dotprod_only);
        if let Some(k) = restricted {
            assert!(dotprod_only.contains(k.isa.features()), "{}", k.stem);
        }
        // Whenever the CPU has dotprod, every integer family has a dotprod pair.
        if integer(family) {
            assert_eq!(
                restricted.is_some(),
                present().contains(Features::DOTPROD),
                "{}",
                family.dir()
            );
        }
        let neon_only = select::best_kernel(family, ShapeClass::Gemv, Features::NEON);
        assert_eq!(
            neon_only.map(|k| k.isa),
            (family == Family::F32F32F32p).then_some(Isa::Neon),
            "{}",
            family.dir()
        );
    }
}

/// In-order little cores get KleidiAI's `_cortexa55` schedules, every other core the generic
/// ones (the kernels read the same packed RHS, so only the schedule changes).
#[test]
fn in_order_cores_get_the_cortexa55_schedules() {
    let big = ALL.difference(Features::IN_ORDER);
    let little = Features::NEON
        .union(Features::FP16)
        .union(Features::DOTPROD)
        .union(Features::IN_ORDER);
    for (family, generic) in [
        (
            Family::F32F32F32p,
            "matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla",
        ),
        (
            Family::F16F16F16p,
            "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla",
        ),
    ] {
        for shape in [ShapeClass::Gemv, ShapeClass::Gemm] {
            let on_little = rank::best_kernel(family, shape, little, 4).unwrap();
            assert_eq!(on_little.stem, format!("{generic}_cortexa55"));
            assert!(rank::tuned_for_in_order(on_little));
            let on_big = rank::best_kernel(family, shape, little.difference(Features::IN_ORDER), 4);
            assert_eq!(on_big.unwrap().stem, generic);
            assert!(!rank::tuned_for_in_order(
                rank::best_kernel(family, shape, big, 4).unwrap()
            ));
        }
    }
    // Families without in-order variants choose as before.
    let int4 = Family::F32Qai8dxpQsi4cxp;
    assert_eq!(
        rank::best_kernel(int4, ShapeClass::Gemm, little, 4).map(|k| k.stem),
        rank::best_kernel(
            int4,
            ShapeClass::Gemm,
            little.difference(Features::IN_ORDER),
            4
        )
        .map(|k| k.stem)
    );
    // This process (x86_64 or QEMU user mode, where sysfs shows no Arm MIDR) is not in-order.
    assert!(!present().contains(Features::IN_ORDER));
}

#[test]
fn feature_names_parse() {
    assert_eq!(
        select::parse_features("neon, DotProd,i8mm"),
        Features::NEON
            .union(Features::DOTPROD)
            .union(Features::I8MM)
    );
    assert_eq!(select::parse_features(""), Features::empty());
    assert_eq!(select::parse_features("sve2,bogus"), Features::SVE2);
    assert_eq!(select::parse_features("in_order"), Features::IN_ORDER);
    assert_eq!(
        select::parse_features(
            "sme,SME2,sme2p1,sme_i8i32,sme_f16f32,sme_b16f32,sme_f32f32,sme_fa64"
        ),
        Features::SME_FAMILY
    );
}

#[test]
fn sme_extensions_need_sme() {
    let extensions = Features::SME_FAMILY.difference(Features::SME);
    assert_eq!(extensions.consistent(), Features::empty());
    assert_eq!(Features::SME_FAMILY.consistent(), Features::SME_FAMILY);
    let no_sme2 = Features::SME_FAMILY.difference(Features::SME2);
    assert_eq!(no_sme2.consistent(), no_sme2.difference(Features::SME2P1));
    // Detection never reports an extension without its base.
    assert_eq!(Features::detect().consistent(), Features::detect());
}

/// Child of [`environment_override_turns_sme_off`]: prints the features selection may use.
#[test]
#[ignore = "run as a child process by environment_override_turns_sme_off"]
fn features_child() {
    if std::env::var_os(support::death::CASE_ENV).is_none() {
        return;
    }
    println!("allowed: {}", present().0);
}

/// `RKAI_FEATURES` listing everything but `sme` leaves no SME feature for selection, even the
/// SME2 and type bits it names; listing everything leaves the CPU's own set.
#[test]
fn environment_override_turns_sme_off() {
    let names: Vec<&str> = Features::NAMES.iter().map(|(n, _)| *n).collect();
    let without_sme: Vec<&str> = names.iter().copied().filter(|n| *n != "sme").collect();
    let allowed = |list: &str| {
        let out = support::death::run_child_with_env(
            &crate::child_test!("features_child"),
            "features",
            &[("RKAI_FEATURES", list)],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let bits = stdout
            .lines()
            .find_map(|l| l.split("allowed: ").nth(1))
            .unwrap_or_else(|| panic!("no features printed: {stdout}"));
        Features(bits.parse().unwrap())
    };
    assert_eq!(allowed(&names.join(",")), present());
    assert_eq!(
        allowed(&without_sme.join(",")),
        present().difference(Features::SME_FAMILY)
    );
}

/// Child of [`environment_override_restricts_and_logs`]: prints the choice under its environment.
#[test]
#[ignore = "run as a child process by environment_override_restricts_and_logs"]
fn selection_child() {
    if std::env::var_os(support::death::CASE_ENV).is_none() {
        return;
    }
    let k = chosen(Family::F32Qai8dxpQsi4cxp, ShapeClass::Gemm);
    println!("chosen: {}", k.map_or("none", |k| k.isa.name()));
    // The Rust API chooses under the same environment.
    let (_, gemm) = rkai::Kernel::select_pair(Family::F32Qai8dxpQsi4cxp).unwrap();
    println!("rust chose: {}", gemm.entry().isa.name());
}

/// `RKAI_FEATURES` and `RKAI_LOG_SELECTION` act on the C selection and on the Rust API's
/// `Kernel::select_pair` alike.
#[test]
fn environment_override_restricts_and_logs() {
    if !present().contains(Features::DOTPROD) {
        return;
    }
    let out = support::death::run_child_with_env(
        &crate::child_test!("selection_child"),
        "select",
        &[
            ("RKAI_FEATURES", "neon,dotprod"),
            ("RKAI_LOG_SELECTION", "1"),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("chosen: neon_dotprod") && stdout.contains("rust chose: neon_dotprod"),
        "{stdout}\n{stderr}"
    );
    // One log line from the C selection, one from the Rust API's.
    let line = "rkai: matmul_clamp_f32_qai8dxp_qsi4cxp Gemm: kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod (neon_dotprod)";
    assert_eq!(stderr.matches(line).count(), 2, "{stderr}");
}

#[test]
fn c_entry_point_hands_out_the_kernel_functions() {
    for family in families() {
        for (shape, class) in [
            (RKAI_SHAPE_GEMV, ShapeClass::Gemv),
            (RKAI_SHAPE_GEMM, ShapeClass::Gemm),
        ] {
            // The interface struct's members (the imatmul one lacks `get_lhs_offset`).
            let members: Vec<_> = family
                .c_functions()
                .iter()
                .filter(|f| rkai_capi::cabi::interface_member(family, f.field).is_some())
                .collect();
            let n = members.len();
            let mut choice = vec![std::ptr::null::<std::ffi::c_void>(); n + 5];
            let entry = rkai_capi::capi::exports::select_function(family).unwrap();
            // SAFETY: `choice` has room for the family's functions, four names and a size.
            let status = unsafe { entry(shape, RKAI_FEATURES_ALL, choice.as_mut_ptr().cast()) };
            let Some(k) = chosen(family, class) else {
                assert_eq!(status, -1);
                assert!(choice.iter().all(|p| p.is_null()), "untouched on failure");
                continue;
            };
            assert_eq!(status, 0);
            for (i, f) in members.iter().enumerate() {
                // The kernel's own name of the member's function (one f16 GEMV renames one).
                let functions = rkai_capi::cabi::kernel_c_functions(k);
                let verb = functions.iter().find(|g| g.field == f.field).unwrap().verb;
                let sym = support::cabi::symbol(verb, k.stem);
                let addr = rkai_capi::capi::exports::symbol_address(&sym).unwrap();
                assert_eq!(choice[i] as usize, addr, "{} field {}", k.stem, f.field);
            }
            // SAFETY: the names are static NUL-terminated strings.
            let text = |p: *const std::ffi::c_void| unsafe {
                CStr::from_ptr(p.cast()).to_str().unwrap().to_string()
            };
            assert_eq!(text(choice[n]), format!("{}_{}", k.prefix(), k.stem));
            assert_eq!(text(choice[n + 1]), k.isa.name());
            assert_eq!(
                text(choice[n + 2]),
                format!("kai_{}", k.rhs_packers[0].name)
            );
            match k.lhs_packers.first() {
                Some(p) => assert_eq!(text(choice[n + 3]), format!("kai_{}", p.name)),
                None => assert!(choice[n + 3].is_null(), "{}: no LHS packer", k.stem),
            }
            assert_eq!(
                choice[n + 4] as usize,
                k.packed_vector_bytes(),
                "{}",
                k.stem
            );
        }
    }
}

/// On a CPU with SME2 the int8 and int4 families (per channel and per block, symmetric and
/// asymmetric, Q4_0, f32 and f16 output) run SME2: the `SMOPA` GEMM and the `SDOT`-into-ZA GEMV
/// that reads its packed format; SME without SME2 (a feature mask) gives the SME pair of the same
/// shapes where the family has one; without SME all go back to i8mm/dotprod; on a CPU without
/// SME no streaming kernel is ever offered.
#[test]
fn sme_kernels_are_chosen_where_they_run() {
    // Off AArch64 the SME kernels are chosen only on request (portable paths).
    let mask = EMULATE;
    let f = select::allowed_features(mask);
    let chosen = |family, shape| select::best_kernel(family, shape, mask);
    let choices = [
        (
            Family::F32Qai8dxpQsi8cxp,
            [
                "matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa",
                "matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot",
            ],
            Some([
                "matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa",
                "matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot",
            ]),
        ),
        (
            Family::F32Qai8dxpQsi4cxp,
            [
                "matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa",
                "matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot",
            ],
            Some([
                "matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa",
                "matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot",
            ]),
        ),
        (
            Family::F32Qai8dxpQsi4c32p,
            [
                "matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa",
                "matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot",
            ],
            None,
        ),
        (
            Family::F32Qsi8d32pQai4c32p,
            [
                "matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa",
                "matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot",
            ],
            None,
        ),
        (
            Family::F16Qsi8d32pQai4c32p,
            [
                "matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa",
                "matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot",
            ],
            None,
        ),
        (
            Family::F32Qsi8d32pQsi4c32p,
            [
                "matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa",
                "matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot",
            ],
            Some([
                "matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa",
                "matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot",
            ]),
        ),
    ];
    if f.contains(Features::SME2) {
        for (family, [gemm, gemv], sme_pair) in choices {
            assert_eq!(stem(chosen(family, ShapeClass::Gemm)), Some(gemm));
            assert_eq!(stem(chosen(family, ShapeClass::Gemv)), Some(gemv));
            if let Some([sme_gemm, sme_gemv]) = sme_pair {
                let sme_only = mask.difference(Features::SME2).difference(Features::SME2P1);
                let best = |shape| select::best_kernel(family, shape, sme_only).map(|k| k.stem);
                assert_eq!(best(ShapeClass::Gemm), Some(sme_gemm));
                assert_eq!(best(ShapeClass::Gemv), Some(sme_gemv));
            }
            let without_sme = mask.difference(Features::SME_FAMILY);
            for shape in [ShapeClass::Gemv, ShapeClass::Gemm] {
                let k = select::best_kernel(family, shape, without_sme).unwrap();
                assert!(!k.isa.is_streaming(), "{}", k.stem);
            }
        }
    }
    if !f.contains(Features::SME) {
        for family in families() {
            for shape in [ShapeClass::Gemv, ShapeClass::Gemm] {
                if let Some(k) = chosen(family, shape) {
                    assert!(!k.isa.is_streaming(), "{}", k.stem);
                }
            }
        }
    }
}

/// Off AArch64 every kernel runs through its portable path. Without a request selection offers
/// only kernels whose packed formats tie to no vector length (NEON), for every family and
/// shape, and the C entry point does the same; with `RKAI_SELECT_EMULATE` it chooses as on a
/// CPU with every feature (the SME2 pair of the int8 family).
#[cfg(not(target_arch = "aarch64"))]
#[test]
fn sve_and_sme_kernels_need_an_explicit_request_off_arm() {
    assert_eq!(present(), Features::WITHOUT_VECTOR_LENGTH);
    let mut offered = 0;
    for family in families() {
        for shape in [ShapeClass::Gemv, ShapeClass::Gemm] {
            if let Some(k) = chosen(family, shape) {
                let needs = k.isa.features();
                assert!(
                    Features::WITHOUT_VECTOR_LENGTH.contains(needs),
                    "{}",
                    k.stem
                );
                offered += 1;
            }
        }
    }
    assert!(offered > 20, "{offered} choices");
    let family = Family::F32Qai8dxpQsi8cxp;
    let emulated = select::best_kernel(family, ShapeClass::Gemm, EMULATE).unwrap();
    assert_eq!(emulated.isa, Isa::Sme2, "{}", emulated.stem);
    let n = family.c_functions().len();
    let entry = rkai_capi::capi::exports::select_function(family).unwrap();
    for (mask, sme) in [(RKAI_FEATURES_ALL, false), (EMULATE.0, true)] {
        let mut choice = vec![std::ptr::null::<std::ffi::c_void>(); n + 5];
        // SAFETY: `choice` has room for the family's functions, four names and a size.
        assert_eq!(
            unsafe { entry(RKAI_SHAPE_GEMM, mask, choice.as_mut_ptr().cast()) },
            0
        );
        // SAFETY: the ISA name is a static NUL-terminated string.
        let isa = unsafe { CStr::from_ptr(choice[n + 1].cast()) }
            .to_str()
            .unwrap();
        assert_eq!(isa.starts_with("sme"), sme, "{isa}");
    }
}

/// `rkai_packed_vector_bytes` names the vector length each kernel's packed data follows: the
/// streaming length for SME kernels, the SVE length for SVE kernels whose tile follows it, 0 for
/// the NEON kernels (and SVE ones that run at one length only); unknown names give SIZE_MAX.
#[test]
fn packed_data_names_its_vector_length() {
    use rkai_capi::rkai_ffi::rkai_packed_vector_bytes;
    use rkai_ukernels::arch;
    use std::ffi::CString;
    let query = |name: &str| {
        let name = CString::new(name).unwrap();
        // SAFETY: a NUL-terminated string.
        unsafe { rkai_packed_vector_bytes(name.as_ptr()) }
    };
    let (mut sme, mut sve, mut none) = (0, 0, 0);
    for k in rkai_ukernels::catalog::KERNELS {
        let want = if k.isa.is_streaming() {
            sme += 1;
            4 * arch::sme_lanes32()
        } else if k.tile() != k.base_tile
            || k.stem.contains("vl") && k.isa.features().contains(Features::SVE)
        {
            sve += 1;
            4 * arch::sve_lanes32()
        } else {
            none += 1;
            0
        };
        assert_eq!(query(k.stem), want, "{}", k.stem);
        assert_eq!(
            query(&format!("{}_{}", k.prefix(), k.stem)),
            want,
            "{}",
            k.stem
        );
    }
    assert!(
        sme > 30 && sve > 0 && none > 30,
        "{sme} SME, {sve} SVE, {none} other"
    );
    assert_eq!(query("matmul_clamp_f32_no_such_kernel"), usize::MAX);
    // SAFETY: NULL is allowed.
    assert_eq!(
        unsafe { rkai_packed_vector_bytes(std::ptr::null()) },
        usize::MAX
    );
}

/// `rkai_select_<family>_<layout>` for every family and weight layout: a layout has an entry
/// point exactly where a packer of the family reads it; the pair written is the best pair that
/// has such a packer (the plain choice when the best pair has one), both kernels read what the
/// written RHS packer writes, every packer member is that packer's own function of the member's
/// name or NULL where it has none, and each kernel's LHS packer is its own (all NULL for an
/// unpacked LHS). Run with every feature, and off AArch64 also with emulation.
#[test]
fn typed_selection_hands_out_the_pair_and_its_packers() {
    type Words = Vec<*const std::ffi::c_void>;
    // SAFETY: the names are static NUL-terminated strings.
    let text = |p: *const std::ffi::c_void| unsafe { CStr::from_ptr(p.cast()).to_str().unwrap() };
    let address = |verb: &str, packer: &str| {
        rkai_capi::capi::exports::symbol_address(&format!("kai_{verb}_{packer}")).unwrap()
    };
    // Checks a packer struct at `words`: returns the packer's catalog name, if any.
    let packer_struct = |words: &[*const std::ffi::c_void], members: &[&str]| {
        if words[0].is_null() {
            assert!(
                words.iter().all(|w| w.is_null()),
                "an absent packer is all NULL"
            );
            return None;
        }
        let name = text(words[0]).strip_prefix("kai_").unwrap();
        let packer = rkai_ukernels::catalog::PACKERS
            .iter()
            .find(|p| p.name == name)
            .unwrap();
        for (member, &word) in members.iter().zip(&words[1..]) {
            let has = packer.kind.c_functions().iter().any(|f| f.field == *member);
            let want = if has { address(member, name) } else { 0 };
            assert_eq!(word as usize, want, "{name}: {member}");
        }
        Some(name)
    };
    let mut checked = 0;
    for family in families() {
        // The interface struct's members (the imatmul one lacks `get_lhs_offset`), four names
        // and the packed vector length.
        let interface = family.c_functions().iter();
        let members =
            interface.filter(|f| rkai_capi::cabi::interface_member(family, f.field).is_some());
        let choice_words = members.count() + 5;
        for layout in ["nxk", "kxn"] {
            let reads = |k: &MatmulKernel| {
                (k.rhs_packers.iter()).any(|p| p.name.contains(&format!("_{layout}_")))
            };
            let has_layout = rank::pairs(family).any(|p| reads(p.gemm));
            let Some((entry, rhs, lhs)) =
                rkai_capi::capi::exports::typed_select_function(family, layout)
            else {
                assert!(!has_layout, "{} {layout}: no entry point", family.dir());
                continue;
            };
            for mask in [ALL, EMULATE] {
                let width = if lhs.is_empty() { 0 } else { 1 + lhs.len() };
                let sentinel = 0x5a5a as *const std::ffi::c_void;
                let mut words: Words =
                    vec![sentinel; 2 * choice_words + 1 + rhs.len() + 2 * width + 1];
                // SAFETY: `words` is larger than the selection struct.
                let status = unsafe { entry(mask.0, words.as_mut_ptr().cast()) };
                if status != 0 {
                    assert_eq!(status, -1);
                    assert!(words.iter().all(|w| *w == sentinel), "untouched on failure");
                    assert!(select::best_pair(family, mask).is_none_or(|p| !reads(p.gemm)));
                    continue;
                }
                assert_eq!(*words.last().unwrap(), sentinel, "nothing past the struct");
                let kernel = |at: usize| {
                    let name = text(words[at + choice_words - 5]);
                    let stem = name.split_once('_').unwrap().1;
                    rkai_ukernels::catalog::kernel(stem).unwrap()
                };
                let (gemv, gemm) = (kernel(0), kernel(choice_words));
                if let Some(best) = select::best_pair(family, mask) {
                    if reads(best.gemm) {
                        assert!(std::ptr::eq(best.gemm, gemm), "{}", gemm.stem);
                        assert!(std::ptr::eq(best.gemv, gemv), "{}", gemv.stem);
                    }
                }
                let at = 2 * choice_words;
                let packer = packer_struct(&words[at..at + 1 + rhs.len()], rhs).unwrap();
                assert!(packer.contains(&format!("_{layout}_")), "{packer}");
                for k in [gemv, gemm] {
                    assert!(k.rhs_packers.iter().any(|p| p.name == packer), "{}", k.stem);
                }
                let lhs_at = at + 1 + rhs.len();
                for (i, k) in [gemv, gemm].into_iter().enumerate() {
                    let words = &words[lhs_at + i * width..lhs_at + (i + 1) * width];
                    let got = if width == 0 {
                        None
                    } else {
                        packer_struct(words, lhs)
                    };
                    assert_eq!(got, k.lhs_packers.first().map(|p| p.name), "{}", k.stem);
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "{checked} selections checked");
    eprintln!("{checked} typed selections checked");
}
