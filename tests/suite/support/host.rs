//! What the script-driven tests (`c_cmake`, `c_integration`, `c_size`) ask of the machine that
//! runs them: tools, the host architecture, opt-out variables, and running a script; and running
//! a program built for the target (death-test children, the examples), through QEMU if need be.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Whether `tool args` runs and succeeds.
pub fn have(tool: &str, args: &[&str]) -> bool {
    Command::new(tool)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Architecture of the machine, from a host program: under user-mode emulation (the aarch64 test
/// binary run by qemu-aarch64 on an x86_64 host) child processes are host programs, so this
/// differs from the architecture the test was compiled for.
pub fn host_arch() -> String {
    let out = Command::new("uname").arg("-m").output().expect("uname -m");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The host architecture when `test` should run: `None` (after saying why) when `skip_var` is set
/// to anything but `0`, or when this test binary runs emulated (its native run covers the
/// scripts, which build for both architectures).
pub fn native_run(test: &str, skip_var: &str) -> Option<String> {
    if std::env::var_os(skip_var).is_some_and(|v| v != "0") {
        eprintln!("{test}: skipped ({skip_var} is set)");
        return None;
    }
    let arch = host_arch();
    if arch != std::env::consts::ARCH {
        eprintln!(
            "{test}: skipped: this {} test binary runs emulated on a {arch} host; the native run \
             of the test covers it",
            std::env::consts::ARCH
        );
        return None;
    }
    Some(arch)
}

/// Whether the aarch64 cross tools (C compiler and the Rust toolchain with the aarch64 std) are
/// installed, and with `runner`, the emulator too.
pub fn cross_tools_present(runner: bool) -> bool {
    have("aarch64-linux-gnu-gcc", &["--version"])
        && (!runner || have("qemu-aarch64", &["--version"]))
        && Path::new("/usr/lib/rustlib/aarch64-unknown-linux-gnu").is_dir()
        && have(
            concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/cross-cargo"),
            &["--version"],
        )
}

/// Runs `cmd` (a script), echoes its output, and asserts that it succeeded and printed
/// `ok_line`; returns its standard output.
pub fn run_script(mut cmd: Command, what: &str, ok_line: Option<&str>) -> String {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().unwrap_or_else(|e| panic!("run {what}: {e}"));
    let stdout = String::from_utf8_lossy(&stdout).into_owned();
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&stderr));
    assert!(status.success(), "{what} failed ({status})");
    if let Some(ok) = ok_line {
        assert!(
            stdout.lines().any(|l| l == ok),
            "{what} did not report success (`{ok}`)"
        );
    }
    stdout
}

/// Asserts that every one of `tools` answers `--version`, naming the setup script and `skip_var`
/// where one is missing.
pub fn require_tools(tools: &[&str], skip_var: &str) {
    for tool in tools {
        assert!(
            have(tool, &["--version"]),
            "{tool} is missing: run scripts/setup-toolchain.sh (or set {skip_var}=1)"
        );
    }
}

/// The cargo target directory of the C library's release builds, shared by the script-driven
/// tests: each builds the same library (`cargo build --release -p rkai-capi
/// --no-default-features`, as CMake does), so only the first build of each architecture compiles
/// (cargo locks the directory while another test builds).
pub fn c_library_cargo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c-library-cargo")
}

/// `bash scripts/<script>` from the repository root, without the caller's `CARGO_BUILD_TARGET`
/// (each script picks its targets), and the folder `name` of the test's temporary directory for
/// its output.
pub fn script(script: &str, name: &str) -> (Command, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts").join(script))
        .current_dir(&root)
        .env_remove("CARGO_BUILD_TARGET");
    (cmd, PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name))
}

/// Runs `exe`, a program built for the target this test binary was built for, with `args` and
/// `env`. Under QEMU user mode (an aarch64 test binary on an x86_64 host) the host cannot exec
/// it, so it is started through the aarch64 runner (`RKAI_AARCH64_RUNNER`, else
/// scripts/cargo-aarch64-runner.sh; `QEMU_CPU` is inherited).
pub fn run_target_program(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let direct = Command::new(exe)
        .args(args)
        .envs(env.iter().copied())
        .output();
    // Spawning fails outright, or the forked child exits 127 before running anything.
    let needs_runner = match &direct {
        Err(_) => true,
        Ok(out) => out.status.code() == Some(127) && out.stdout.is_empty() && out.stderr.is_empty(),
    };
    if !needs_runner || !cfg!(target_arch = "aarch64") {
        return direct.unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    }
    let runner = std::env::var("RKAI_AARCH64_RUNNER").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/cargo-aarch64-runner.sh"
        )
        .to_string()
    });
    let mut parts = runner.split_whitespace();
    let prog = parts.next().expect("runner program");
    Command::new(prog)
        .args(parts)
        .arg(exe)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} through `{runner}`: {e}", exe.display()))
}
