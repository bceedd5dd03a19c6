//! What the CPU (or QEMU model) under test offers, and a check that it is the model the test
//! matrix asked for, so a misconfigured runner cannot silently skip kernels.

use rkai_ukernels::arch::{Features, Isa};

// KleidiAI's helpers, exported by rkai: they read RDSVL / CNTB on every call (without SME or
// SVE on aarch64 that is SIGILL, a crash rather than undefined behaviour; 0 elsewhere).
unsafe extern "C" {
    pub safe fn kai_get_sme_vector_length_u8() -> u64;
    pub safe fn kai_get_sve_vector_length_u8() -> u64;
}

pub fn features() -> Features {
    Features::detect()
}

/// Whether this process can execute kernels of `isa` (always on non-aarch64: portable path).
pub fn can_run(isa: Isa) -> bool {
    !cfg!(target_arch = "aarch64") || features().contains(isa.features())
}

/// Features QEMU reports for the models of DESIGN §4 (read from HWCAP/HWCAP2 under the emulator
/// `scripts/qemu-aarch64.sh` picks for the model: QEMU 11.1.3, and QEMU 10.0.2 for neoverse-v1).
pub fn expected_for_model(model: &str) -> Option<Features> {
    let mut options = model.split(',');
    let base = options.next().unwrap_or(model);
    let options: Vec<&str> = options.collect();
    let (sve_off, sme_off) = (options.contains(&"sve=off"), options.contains(&"sme=off"));
    let f = |list: &[Features]| list.iter().fold(Features::NEON, |acc, x| acc.union(*x));
    Some(match base {
        "cortex-a53" => f(&[]),
        "cortex-a76" | "neoverse-n1" => f(&[Features::DOTPROD]),
        "neoverse-v1" => f(&[
            Features::DOTPROD,
            Features::I8MM,
            Features::BF16,
            Features::SVE,
        ]),
        "neoverse-n2" | "cortex-a710" => f(&[
            Features::DOTPROD,
            Features::I8MM,
            Features::BF16,
            Features::SVE,
            Features::SVE2,
        ]),
        "max" => {
            let sme = [
                Features::SME,
                Features::SME2,
                Features::SME2P1,
                Features::SME_I8I32,
                Features::SME_F16F32,
                Features::SME_B16F32,
                Features::SME_F32F32,
                Features::SME_FA64,
            ];
            let base = [
                Features::DOTPROD,
                Features::I8MM,
                Features::BF16,
                Features::SVE,
                Features::SVE2,
                Features::SVE2P1,
            ];
            let all = f(&base).union(f(&sme));
            match (sve_off, sme_off) {
                // SME without SVE (like Apple M4): no non-streaming SVE, so no FA64 either.
                (true, false) => all
                    .difference(Features::SVE)
                    .difference(Features::SVE2)
                    .difference(Features::SVE2P1)
                    .difference(Features::SME_FA64),
                // SVE without SME (the full suite's SVE run; SME has its own runs).
                (false, true) => f(&base),
                (true, true) => return None,
                (false, false) => all,
            }
        }
        _ => return None,
    })
}

/// The SVE length in bytes QEMU gives `model` (`sve-default-vector-length=N` on `max`, else 64
/// there; 32 on neoverse-v1), or 16 where it has no SVE: what rkai's SVE formats then follow.
pub fn expected_sve_bytes(model: &str) -> usize {
    let opts: Vec<&str> = model.split(',').collect();
    let vl = opts
        .iter()
        .find_map(|o| o.strip_prefix("sve-default-vector-length="))
        .map(|v| v.parse::<usize>().unwrap());
    match (opts[0], vl) {
        _ if opts.contains(&"sve=off") => 16,
        ("max", Some(b)) => b,
        ("max", None) => 64,
        ("neoverse-v1", _) => 32,
        _ => 16,
    }
}
