//! The CPU under test is the QEMU model the test matrix asked for (a mismatch would silently
//! skip kernels), and the run-time vector length that VL-scaled kernels read is the model's.

mod support;

use rkai::ukernels::arch::{self, Features};

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
    let bytes = model
        .split(',')
        .find_map(|opt| opt.strip_prefix("sve-default-vector-length="))
        .map(|v| v.parse::<usize>().expect("vector length in bytes"));
    let expected = match (model.split(',').next().unwrap(), bytes) {
        ("max", Some(b)) => b / 4,
        ("max", None) => 16,
        ("neoverse-v1", _) => 8,
        ("neoverse-n2" | "cortex-a710", _) => 4,
        _ => 4, // no SVE: the 128-bit value the portable paths use
    };
    assert_eq!(lanes, expected, "32-bit SVE lanes under {model}");
}
