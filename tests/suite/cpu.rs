//! The CPU under test is the QEMU model the test matrix asked for (a mismatch would silently
//! skip kernels), and the run-time vector lengths that VL-scaled kernels read (SVE and the
//! streaming SME length, two separate quantities) are the model's.

use crate::support;

use rkai_capi::rkai_ffi;
use rkai_ukernels::arch::{self, Features};

use support::cpu::{kai_get_sme_vector_length_u8, kai_get_sve_vector_length_u8};

/// The value of QEMU CPU property `name` (e.g. `sve-default-vector-length`) in `model`.
fn property(model: &str, name: &str) -> Option<usize> {
    model
        .split(',')
        .find_map(|opt| opt.strip_prefix(name)?.strip_prefix('='))
        .map(|v| v.parse::<usize>().expect("a number of bytes"))
}

#[test]
fn cpu_matches_requested_qemu_model() {
    let Ok(model) = std::env::var("RKAI_EXPECT_CPU") else {
        return;
    };
    if let Some(expected) = support::cpu::expected_for_model(&model) {
        let got = support::cpu::features();
        // FP16 is left out: the table of DESIGN §4 does not list it.
        let relevant = |f: Features| f.0 & !Features::FP16.0;
        assert_eq!(
            relevant(got),
            relevant(expected),
            "QEMU model {model}: features {got:?}, expected {expected:?}"
        );
    }
}

#[test]
fn sve_lanes_follow_the_model_vector_length() {
    let lanes = arch::sve_lanes32();
    assert!((4..=64).contains(&lanes) && lanes % 4 == 0, "{lanes} lanes");
    let Ok(model) = std::env::var("RKAI_EXPECT_CPU") else {
        return;
    };
    // QEMU user mode: `sve-default-vector-length` in bytes, else 64 bytes capped by the model.
    let bytes = property(&model, "sve-default-vector-length");
    let expected = match (model.split(',').next().unwrap(), bytes) {
        _ if model.split(',').any(|o| o == "sve=off") => 4,
        ("max", Some(b)) => b / 4,
        ("max", None) => 16,
        ("neoverse-v1", _) => 8,
        ("neoverse-n2" | "cortex-a710", _) => 4,
        _ => 4, // no SVE: the 128-bit value the portable paths use
    };
    assert_eq!(lanes, expected, "32-bit SVE lanes under {model}");
}

#[test]
fn streaming_vector_length_follows_the_model() {
    let f = Features::detect();
    let svl = arch::sme_vector_bytes();
    eprintln!(
        "features {f:?}; SVE {:?} bytes, SVL {svl:?} bytes",
        arch::sve_vector_bytes()
    );
    assert_eq!(
        svl.is_some(),
        f.contains(Features::SME),
        "{svl:?} with {f:?}"
    );
    assert_eq!(arch::sme_lanes32(), svl.map_or(4, |b| b / 4));
    if let Some(bytes) = svl {
        assert!(
            (16..=256).contains(&bytes) && bytes.is_power_of_two(),
            "{bytes} bytes"
        );
        // The cached value is the one KleidiAI's own helper reads from RDSVL.
        // SAFETY: SME is present, as the helper requires.
        assert_eq!(bytes as u64, kai_get_sme_vector_length_u8());
    }
    if let Some(bytes) = arch::sve_vector_bytes() {
        // SAFETY: SVE is present, as the helper requires.
        assert_eq!(bytes as u64, kai_get_sve_vector_length_u8());
        assert_eq!(arch::sve_lanes32(), bytes / 4);
    }
    let Ok(model) = std::env::var("RKAI_EXPECT_CPU") else {
        return;
    };
    // QEMU user mode: `sme-default-vector-length` in bytes, else 32 bytes, on models with SME.
    let sme_off = model.split(',').any(|o| o == "sme=off");
    let expected = match model.split(',').next().unwrap() {
        "max" if !sme_off => Some(property(&model, "sme-default-vector-length").unwrap_or(32)),
        _ => None,
    };
    assert_eq!(svl, expected, "streaming vector length under {model}");
}

/// The C feature bits are the Rust ones, and `rkai_get_cpu_features()` reports the detected set
/// (SME and its extensions included).
#[test]
fn c_feature_bits_match() {
    for (bit, feature) in [
        (rkai_ffi::RKAI_FEATURE_NEON, Features::NEON),
        (rkai_ffi::RKAI_FEATURE_DOTPROD, Features::DOTPROD),
        (rkai_ffi::RKAI_FEATURE_I8MM, Features::I8MM),
        (rkai_ffi::RKAI_FEATURE_BF16, Features::BF16),
        (rkai_ffi::RKAI_FEATURE_FP16, Features::FP16),
        (rkai_ffi::RKAI_FEATURE_SVE, Features::SVE),
        (rkai_ffi::RKAI_FEATURE_SVE2, Features::SVE2),
        (rkai_ffi::RKAI_FEATURE_SME, Features::SME),
        (rkai_ffi::RKAI_FEATURE_SME2, Features::SME2),
        (rkai_ffi::RKAI_FEATURE_IN_ORDER, Features::IN_ORDER),
        (rkai_ffi::RKAI_FEATURE_SME2P1, Features::SME2P1),
        (rkai_ffi::RKAI_FEATURE_SME_I8I32, Features::SME_I8I32),
        (rkai_ffi::RKAI_FEATURE_SME_F16F32, Features::SME_F16F32),
        (rkai_ffi::RKAI_FEATURE_SME_B16F32, Features::SME_B16F32),
        (rkai_ffi::RKAI_FEATURE_SME_F32F32, Features::SME_F32F32),
        (rkai_ffi::RKAI_FEATURE_SME_FA64, Features::SME_FA64),
        (rkai_ffi::RKAI_FEATURE_SVE2P1, Features::SVE2P1),
    ] {
        assert_eq!(bit, feature.0, "{feature:?}");
    }
    assert_eq!(Features::ALL.0.count_ones() as usize, Features::NAMES.len());
    let detected = rkai_ffi::rkai_get_cpu_features();
    assert_eq!(
        detected & !Features::IN_ORDER.0,
        Features::detect().0,
        "{:?}",
        Features(detected)
    );
}
