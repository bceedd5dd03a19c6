//! Generates rkai's C surface from the kernel catalog (`rkai_ukernels::catalog`):
//! - `$OUT_DIR/c_shims.rs`: one `#[no_mangle]` function per KleidiAI symbol, included by
//!   `src/capi/mod.rs`;
//! - `$OUT_DIR/include/`: the `kai/...` header tree and `rkai.h`. The committed copy in
//!   `include/` must equal it (a test checks); `RKAI_BLESS_HEADERS=1` rewrites the committed copy.
//!   The C types come from Rust through cbindgen.

#[path = "build/headers.rs"]
mod headers;
#[path = "build/shims.rs"]
mod shims;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));

    for watched in ["build", "ukernels/src", "src/rkai_ffi.rs", "cbindgen.toml"] {
        println!(
            "cargo:rerun-if-changed={}",
            manifest_dir.join(watched).display()
        );
    }
    println!("cargo:rerun-if-env-changed=RKAI_BLESS_HEADERS");

    fs::write(out_dir.join("c_shims.rs"), shims::generate()).expect("write c_shims.rs");

    let include = out_dir.join("include");
    if include.exists() {
        fs::remove_dir_all(&include).expect("clear generated include dir");
    }
    for (rel, text) in headers::generate(&manifest_dir) {
        write_file(&include.join(&rel), &text);
    }
    println!(
        "cargo:rustc-env=RKAI_GENERATED_INCLUDE={}",
        include.display()
    );

    if env::var_os("RKAI_BLESS_HEADERS").is_some_and(|v| v == "1") {
        let committed = manifest_dir.join("include");
        if committed.exists() {
            fs::remove_dir_all(&committed).expect("clear include/");
        }
        for (rel, text) in headers::generate(&manifest_dir) {
            write_file(&committed.join(&rel), &text);
        }
    }

    // Give the shared library the name consumers link against.
    if env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux" || os == "android") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libkleidiai.so");
    }
}

fn write_file(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("header path has a parent"))
        .expect("create header dir");
    fs::write(path, text).expect("write header");
}
