//! The C surface from CMake and pkg-config: `scripts/build-and-run-example.sh` builds and installs
//! rkai with CMake, builds `c_examples/int4_linear.c` through `add_subdirectory`, through
//! `find_package(KleidiAI)` / `find_package(rkai)` and through pkg-config, and runs every build
//! (natively; and on x86_64 hosts with the cross tools, for aarch64 under QEMU). This test runs
//! that script into `target/tmp/c_cmake/` and checks that every variant printed `int4_linear: OK`
//! and that each installed `libkleidiai.a` defines every function KleidiAI 1.30 declares (`nm`).
//!
//! It takes minutes on a cold cache (two release builds of rkai by cargo). Filter it with
//! `--skip cmake_consumers_build_and_run`, or set `RKAI_SKIP_CMAKE_TEST=1`.

use crate::c_abi_surface::{kleidiai_functions, kleidiai_sections};
use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;
use support::host::{
    c_library_cargo_dir, cross_tools_present, native_run, require_tools, run_script, script,
};

/// Logs the script writes for every architecture, one per run of the example.
const RUNS: &[&str] = &[
    "run-subdirectory-static.log",
    "run-subdirectory-shared.log",
    "run-package-kleidiai.log",
    "run-package-rkai.log",
    "run-package-rkai-shared.log",
    "run-pkgconfig-shared.log",
    "run-pkgconfig-static.log",
];

fn check_logs(dir: &Path, arch: &str, extra: &[&str]) {
    for name in RUNS.iter().chain(extra) {
        let path = dir.join(arch).join("logs").join(name);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{arch}: missing log {}: {e}", path.display()));
        assert!(
            text.lines().any(|l| l == "int4_linear: OK"),
            "{arch}: {} did not print `int4_linear: OK`:\n{text}",
            path.display()
        );
    }
}

/// The installed static library of `arch` defines (`nm`, type `T`) every function KleidiAI
/// 1.30's kernel and packer headers declare.
fn check_library_defines_kleidiai(dir: &Path, arch: &str, nm: &str) {
    let lib = dir.join(arch).join("prefix/lib/libkleidiai.a");
    let out = Command::new(nm)
        .args(["-g", "--defined-only"])
        .arg(&lib)
        .output()
        .unwrap_or_else(|e| panic!("{nm} {}: {e}", lib.display()));
    assert!(out.status.success(), "{nm} {} failed", lib.display());
    let listing = String::from_utf8_lossy(&out.stdout);
    let defined: BTreeSet<&str> = listing
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [_, "T", name] => Some(name),
            _ => None,
        })
        .collect();
    let sections = kleidiai_sections();
    let declared: Vec<&str> = sections
        .iter()
        .flat_map(|(path, lines)| kleidiai_functions(path, lines))
        .collect();
    let missing: Vec<&&str> = declared.iter().filter(|f| !defined.contains(**f)).collect();
    assert!(
        missing.is_empty(),
        "{arch}: {} does not define {} of KleidiAI's functions: {missing:?}",
        lib.display(),
        missing.len()
    );
    eprintln!(
        "{arch}: {} defines all {} functions KleidiAI 1.30 declares",
        lib.display(),
        declared.len()
    );
}

#[test]
fn cmake_consumers_build_and_run() {
    let Some(arch) = native_run("cmake_consumers_build_and_run", "RKAI_SKIP_CMAKE_TEST") else {
        return;
    };
    require_tools(
        &["cmake", "ninja", "pkg-config", "cc", "bash"],
        "RKAI_SKIP_CMAKE_TEST",
    );

    let cross = arch == "x86_64" && cross_tools_present(true);
    if arch == "x86_64" && !cross {
        eprintln!(
            "cmake_consumers_build_and_run: aarch64 flow skipped: aarch64-linux-gnu-gcc, \
             qemu-aarch64 or the deb-web toolchain with the aarch64 std is missing \
             (scripts/setup-toolchain.sh installs them)"
        );
    }

    let (mut cmd, dir) = script("build-and-run-example.sh", "c_cmake");
    cmd.env("RKAI_BUILD_DIR", &dir)
        .env("RKAI_CARGO_TARGET_DIR", c_library_cargo_dir())
        .env("RKAI_SKIP_SETUP", "1")
        .env("RKAI_CROSS", if cross { "1" } else { "0" })
        .env_remove("CARGO_TARGET_DIR");
    let stdout = run_script(
        cmd,
        "scripts/build-and-run-example.sh",
        Some("build-and-run-example: OK"),
    );
    assert!(
        !stdout.lines().any(|l| l.trim_start().starts_with("FAIL ")),
        "a variant failed"
    );

    check_logs(&dir, &arch, &[]);
    check_library_defines_kleidiai(&dir, &arch, "nm");
    if cross {
        check_logs(&dir, "aarch64", &["run-neoverse-n1.log"]);
        check_library_defines_kleidiai(&dir, "aarch64", "aarch64-linux-gnu-nm");
        let n1 = fs::read_to_string(dir.join("aarch64/logs/run-neoverse-n1.log")).unwrap();
        assert!(
            n1.contains("SKIP: this CPU has no i8mm"),
            "neoverse-n1 has no i8mm, the GEMM kernel must be skipped:\n{n1}"
        );
    }
}
