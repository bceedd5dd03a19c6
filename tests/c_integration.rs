//! The framework recipes of docs/INTEGRATION.md: `scripts/check-integration.sh` builds and
//! installs rkai with CMake once, then configures, builds and runs each stand-in project under
//! `tests/integration/` (each reproduces how one framework's CMake code takes KleidiAI) against
//! this tree, its build tree or its install prefix. This test runs the script into
//! `target/tmp/c_integration/` and checks that every stand-in ran and printed its OK line.
//!
//! Natively only. About 30 seconds once rkai is compiled (one cargo build, shared by every
//! stand-in); minutes on a cold cache. Filter it with `--skip framework_integration_recipes`, or set
//! `RKAI_SKIP_INTEGRATION_TEST=1`.

use std::path::PathBuf;
use std::process::Command;

/// Every stand-in the script runs: the label prefix of its summary line and the name its program
/// prints before `: OK` (some print two lines).
const STANDINS: &[(&str, &[&str])] = &[
    (
        "pytorch: ",
        &["pytorch (add_subdirectory of the submodule, C++17)"],
    ),
    (
        "torchao: -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI",
        &["torchao (FetchContent kleidiai, C++20 -Wall -Werror)"],
    ),
    (
        "torchao: FETCHCONTENT_SOURCE_DIR_KLEIDIAI from",
        &["torchao (FetchContent kleidiai, C++20 -Wall -Werror)"],
    ),
    (
        "onnxruntime: ",
        &["onnxruntime (deps.txt + FetchContent wrapper, C++17)"],
    ),
    (
        "xnnpack: KLEIDIAI_SOURCE_DIR",
        &[
            "xnnpack (C micro-kernel wrapper)",
            "xnnpack (C++ weight packing)",
        ],
    ),
    (
        "xnnpack: XNNPACK_USE_SYSTEM_LIBS",
        &[
            "xnnpack (C micro-kernel wrapper)",
            "xnnpack (C++ weight packing)",
        ],
    ),
    (
        "onednn: KAI_ROOT_DIR",
        &["onednn (find_path/find_library, linked by path)"],
    ),
    (
        "onednn: CMAKE_PREFIX_PATH",
        &["onednn (find_path/find_library, linked by path)"],
    ),
    (
        "onednn: KAI_LIBRARY",
        &["onednn (find_path/find_library, linked by path)"],
    ),
    (
        "llama.cpp (edited): ",
        &["llama.cpp (KleidiAI_Download + flat includes, linked)"],
    ),
    (
        "mnn (edited): ",
        &["mnn (KLEIDIAI_SRC_DIR + flat includes, linked)"],
    ),
    (
        "executorch: ",
        &["executorch (XNNPACK subdirectory, kleidiai installed and exported)"],
    ),
    ("glue: ", &["glue (installed rkai, kleidiai-target.cmake)"]),
];

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Architecture of the machine, from a host program (see tests/c_cmake.rs: under user-mode
/// emulation child processes are host programs).
fn host_arch() -> Option<String> {
    let out = Command::new("uname").arg("-m").output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn framework_integration_recipes() {
    if std::env::var_os("RKAI_SKIP_INTEGRATION_TEST").is_some_and(|v| v != "0") {
        eprintln!("framework_integration_recipes: skipped (RKAI_SKIP_INTEGRATION_TEST is set)");
        return;
    }
    let arch = host_arch().expect("uname -m");
    if arch != std::env::consts::ARCH {
        eprintln!(
            "framework_integration_recipes: skipped: this {} test binary runs emulated on a \
             {arch} host; the native run of the test covers the recipes",
            std::env::consts::ARCH
        );
        return;
    }
    for tool in ["cmake", "ninja", "cc", "c++", "bash"] {
        assert!(
            have(tool),
            "{tool} is missing: run scripts/setup-toolchain.sh (or set RKAI_SKIP_INTEGRATION_TEST=1)"
        );
    }

    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_integration");
    let out = Command::new("bash")
        .arg(root.join("scripts/check-integration.sh"))
        .current_dir(&root)
        .env("RKAI_INTEGRATION_DIR", &dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .expect("run scripts/check-integration.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "scripts/check-integration.sh failed ({})",
        out.status
    );
    assert!(
        stdout.lines().any(|l| l == "check-integration: OK"),
        "the script did not report success"
    );

    let summary: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("==> Summary"))
        .map(str::trim)
        .collect();
    for (label, names) in STANDINS {
        assert!(
            summary.iter().any(|l| l
                .strip_prefix("PASS  ")
                .is_some_and(|l| l.starts_with(label))),
            "stand-in `{label}` did not pass (or did not run)"
        );
        for name in *names {
            let ok = format!("{name}: OK");
            assert!(
                stdout.lines().any(|l| l.trim_start_matches("    | ") == ok),
                "stand-in `{label}`: no `{ok}` line"
            );
        }
    }
    assert_eq!(
        summary.iter().filter(|l| l.starts_with("PASS  ")).count(),
        STANDINS.len(),
        "the script ran stand-ins this test does not know"
    );
    assert!(
        !summary.iter().any(|l| l.starts_with("FAIL  ")),
        "a stand-in failed"
    );
}
