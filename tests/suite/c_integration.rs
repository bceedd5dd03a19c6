//! The framework recipes of docs/INTEGRATION.md: `scripts/check-integration.sh` builds and
//! installs rkai with CMake once, then configures, builds and runs each stand-in project under
//! `tests/integration/` (each reproduces how one framework's CMake code takes KleidiAI) against
//! this tree, its build tree or its install prefix. This test runs the script into
//! `target/tmp/c_integration/` and checks that every stand-in ran and printed its OK line.
//!
//! Natively only. About 30 seconds once rkai is compiled (one cargo build, shared by every
//! stand-in); minutes on a cold cache. Filter it with `--skip framework_integration_recipes`, or set
//! `RKAI_SKIP_INTEGRATION_TEST=1`.

use crate::support;

use support::host::{c_library_cargo_dir, native_run, require_tools, run_script, script};

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

#[test]
fn framework_integration_recipes() {
    if native_run(
        "framework_integration_recipes",
        "RKAI_SKIP_INTEGRATION_TEST",
    )
    .is_none()
    {
        return;
    }
    require_tools(
        &["cmake", "ninja", "cc", "c++", "bash"],
        "RKAI_SKIP_INTEGRATION_TEST",
    );

    let (mut cmd, dir) = script("check-integration.sh", "c_integration");
    cmd.env("RKAI_INTEGRATION_DIR", &dir)
        .env("RKAI_CARGO_TARGET_DIR", c_library_cargo_dir())
        .env_remove("CARGO_TARGET_DIR");
    let stdout = run_script(
        cmd,
        "scripts/check-integration.sh",
        Some("check-integration: OK"),
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
