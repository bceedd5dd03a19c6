//! A C program pays only for the `kai_*` functions it calls (issue 17 part 3).
//! `scripts/size-report.sh` builds the static library as CMake does (no_std), links
//! `c_examples/size_probe.c` (one GEMV, one GEMM and their two packers) against it with
//! `-Wl,--gc-sections`, for aarch64 (with the cross tools on x86_64 hosts) and for the host, and
//! prints each program's `.text` size. This test runs it, checks the sizes against the bounds
//! below and runs the programs.
//!
//! The bounds are facts about the binaries, not timings: the measured sizes (docs/PERFORMANCE.md,
//! "Code size") plus 3-4%, so that growth is a decision (raise the bound in the same commit,
//! with the reason) rather than an accident. On aarch64 the bound may not exceed twice what the
//! same program links from KleidiAI 1.30.
//!
//! It builds the library for aarch64 and the host in the target directory the C build tests
//! share (`host::c_library_cargo_dir`).
//! Filter it with `--skip c_program_pays_only_for_what_it_calls`, or set `RKAI_SKIP_SIZE_TEST=1`.

use crate::support;

use std::path::Path;
use std::process::Command;
use support::host::{
    c_library_cargo_dir, cross_tools_present, have, native_run, run_script, script,
};

/// `.text` bytes of the probe linked against KleidiAI 1.30 for aarch64 (docs/PERFORMANCE.md).
const KLEIDIAI_AARCH64_TEXT: u64 = 9_132;
/// Bound on the probe's `.text` with rkai for aarch64: measured 16,904 bytes.
const AARCH64_TEXT_BOUND: u64 = 17_408;
/// Bound on the probe's `.text` with rkai for x86_64 (the portable code): measured 32,460 bytes.
const X86_64_TEXT_BOUND: u64 = 33_792;

const _: () = assert!(AARCH64_TEXT_BOUND <= 2 * KLEIDIAI_AARCH64_TEXT);

/// The `.text` size the report prints for `what` (`aarch64 rkai`, `x86_64 rkai`).
fn reported(stdout: &str, what: &str) -> Option<u64> {
    let prefix = format!("size-report: {what} .text ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
}

/// Runs the probe (through `runner` when given) and checks that it computed.
fn run_probe(runner: Option<&Path>, exe: &Path) {
    let mut cmd = match runner {
        Some(r) => {
            let mut c = Command::new(r);
            c.arg(exe).env("QEMU_CPU", "neoverse-n2");
            c
        }
        None => Command::new(exe),
    };
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.lines().any(|l| l == "size_probe: OK"),
        "{} did not print `size_probe: OK` ({}):\n{stdout}{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn c_program_pays_only_for_what_it_calls() {
    let Some(arch) = native_run(
        "c_program_pays_only_for_what_it_calls",
        "RKAI_SKIP_SIZE_TEST",
    ) else {
        return;
    };
    if arch != "x86_64" && arch != "aarch64" {
        eprintln!("c_program_pays_only_for_what_it_calls: skipped: no bound for a {arch} host");
        return;
    }
    let cross = arch == "x86_64" && cross_tools_present(false);
    let (mut cmd, _) = script("size-report.sh", "c_size");
    let target = c_library_cargo_dir();
    cmd.env("CARGO_TARGET_DIR", &target)
        .env_remove("RKAI_SIZE_KLEIDIAI");
    if arch == "x86_64" && !cross {
        eprintln!(
            "c_program_pays_only_for_what_it_calls: aarch64 skipped: aarch64-linux-gnu-gcc or the \
             deb-web toolchain with the aarch64 std is missing (scripts/setup-toolchain.sh)"
        );
        cmd.arg("--host-only");
    }
    let stdout = run_script(cmd, "scripts/size-report.sh", None);

    let work = target.join("size-report");
    if arch == "aarch64" || cross {
        let text = reported(&stdout, "aarch64 rkai").expect("an aarch64 size");
        assert!(
            text <= AARCH64_TEXT_BOUND,
            "the probe's aarch64 .text is {text} bytes, above the bound of {AARCH64_TEXT_BOUND} \
             (KleidiAI 1.30: {KLEIDIAI_AARCH64_TEXT}); see `nm --size-sort -S` of {}",
            work.join("size_probe-aarch64").display()
        );
        // The probe runs a dotprod and an i8mm kernel: under QEMU's neoverse-n2 model, or on
        // this machine if it has both.
        let exe = work.join("size_probe-aarch64");
        if arch == "aarch64" {
            let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
            let has = |f: &str| {
                cpuinfo
                    .lines()
                    .any(|l| l.starts_with("Features") && l.split_whitespace().any(|w| w == f))
            };
            if has("asimddp") && has("i8mm") {
                run_probe(None, &exe);
            }
        } else if have("qemu-aarch64", &["--version"]) {
            let runner = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/cargo-aarch64-runner.sh"
            );
            run_probe(Some(Path::new(runner)), &exe);
        }
    }
    if arch == "x86_64" {
        let text = reported(&stdout, "x86_64 rkai").expect("an x86_64 size");
        assert!(
            text <= X86_64_TEXT_BOUND,
            "the probe's x86_64 .text is {text} bytes, above the bound of {X86_64_TEXT_BOUND}; \
             see `nm --size-sort -S` of {}",
            work.join("size_probe-x86_64").display()
        );
        run_probe(None, &work.join("size_probe-x86_64"));
    }
}
