//! A Rust program that depends on the crate `rkai` gets no C symbol from it: `tests/rust_dependent/`
//! declares `links = "kleidiai"` (as a crate linking Arm's KleidiAI would) and defines one of
//! KleidiAI's functions itself. Cargo refuses two packages with one `links` value and the linker
//! two definitions of one name, so the program builds only if `rkai` brings neither. The test also
//! lists the global symbols of the `rkai` and `rkai-ukernels` libraries it built: no `kai_*` or
//! `rkai_*` name among them (the same listing of `rkai-capi` finds over a thousand).
//!
//! Runs natively only (it runs cargo); `RKAI_SKIP_RUST_DEPENDENT_TEST=1` skips it.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::host::native_run;

/// Global symbols defined in `lib` named like a C function of KleidiAI or rkai.
fn c_symbols(lib: &Path) -> Vec<String> {
    let out = Command::new("nm")
        .args(["-g", "--defined-only"])
        .arg(lib)
        .output()
        .expect("nm (binutils) runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().nth(2))
        .filter(|name| name.starts_with("kai_") || name.starts_with("rkai_"))
        .map(str::to_string)
        .collect()
}

/// The newest rlib of `crate_name` under `deps` (`lib<name>-<hash>.rlib`, or `lib<name>.rlib`
/// for a crate that is also a C library).
fn rlib(deps: &Path, crate_name: &str) -> PathBuf {
    let (hashed, plain) = (format!("lib{crate_name}-"), format!("lib{crate_name}.rlib"));
    let mut found: Vec<_> = std::fs::read_dir(deps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name == plain || (name.starts_with(&hashed) && name.ends_with(".rlib"))
        })
        .collect();
    found.sort_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap());
    found
        .pop()
        .unwrap_or_else(|| panic!("no {plain} in {}", deps.display()))
}

#[test]
fn a_rust_dependent_gets_no_c_symbol_and_may_link_kleidiai() {
    let Some(_) = native_run("rust_dependent", "RKAI_SKIP_RUST_DEPENDENT_TEST") else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rust_dependent");
    let out = Command::new(env!("CARGO"))
        .args(["run", "--offline", "--quiet", "--manifest-path"])
        .arg(root.join("tests/rust_dependent/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the dependent did not build or run:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Its own definition of the KleidiAI name answered, and rkai's selection ran.
    let line = stdout.lines().find(|l| l.starts_with("rkai-dependent: "));
    let words: Vec<&str> = line.expect("its report line").split_whitespace().collect();
    assert_eq!(words.last(), Some(&"4242"), "{stdout}");
    assert!(words[1].starts_with("matmul_clamp_f32_qai8dxp"), "{stdout}");
    let deps = target.join("debug/deps");
    for crate_name in ["rkai", "rkai_ukernels"] {
        let lib = rlib(&deps, crate_name);
        let names = c_symbols(&lib);
        assert!(names.is_empty(), "{} defines {names:?}", lib.display());
    }
}

/// The symbol listing above does see C exports: the C library's own rlib has them.
#[test]
fn the_symbol_listing_sees_the_c_librarys_exports() {
    let Some(_) = native_run("rust_dependent", "RKAI_SKIP_RUST_DEPENDENT_TEST") else {
        return;
    };
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let names = c_symbols(&rlib(deps, "rkai_capi"));
    assert!(names.len() > 1000, "{} C symbols", names.len());
}
