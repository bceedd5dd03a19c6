//! The safe API's layer examples (`examples/*.rs`) run as a user runs them, natively and under
//! every QEMU CPU model of the full suite: each exits 0 after checking its layer against f32
//! arithmetic, or says SKIP on a CPU without its family's features. `cargo test --workspace`
//! builds them beside this binary; `--test suite` alone does not, and this test then says so.

use crate::support::host::run_target_program;
use std::path::PathBuf;

/// One example per kind of layer (README: "Using it from Rust").
const EXAMPLES: [&str; 6] = [
    "int4_linear",
    "int8_linear",
    "q4_0_linear",
    "f16_gemm",
    "bf16_gemm",
    "conv2d",
];

/// Where Cargo put the example `name` of this build: `<profile dir>/examples/`, beside the
/// `deps/` folder holding this test binary.
fn example_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("a profile dir");
    profile_dir.join("examples").join(name)
}

#[test]
fn layer_examples_run() {
    for name in EXAMPLES {
        let exe = example_binary(name);
        assert!(
            exe.is_file(),
            "{} is missing: `cargo test --workspace` (or `cargo build --examples`) builds it",
            exe.display()
        );
        let out = run_target_program(&exe, &[], &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        println!("{name}:\n{stdout}");
        assert!(
            out.status.success(),
            "example {name} failed ({}):\n{stdout}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
