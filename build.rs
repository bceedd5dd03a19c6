//! Generates rkai's C surface from the kernel catalog (`rkai_ukernels::catalog`):
//! - `$OUT_DIR/c_shims.rs`: one `#[no_mangle]` function per KleidiAI symbol, included by
//!   `src/capi/mod.rs`;
//! - `$OUT_DIR/include/`: the `kai/...` header tree and `rkai.h`. The committed copy in
//!   `include/` must equal it (a test checks); `RKAI_BLESS_HEADERS=1` rewrites the committed copy.
//!   The C types come from Rust through cbindgen.

#[path = "build/cabi.rs"]
mod cabi;
#[path = "build/dwconv.rs"]
mod dwconv;
#[path = "build/headers.rs"]
mod headers;
#[path = "build/select_api.rs"]
mod select_api;
#[path = "build/shims.rs"]
mod shims;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));

    for watched in [
        "build",
        "ukernels/src",
        "src/rkai_ffi.rs",
        "src/plan_ffi.rs",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            manifest_dir.join(watched).display()
        );
    }
    println!("cargo:rerun-if-env-changed=RKAI_BLESS_HEADERS");

    fs::write(out_dir.join("c_shims.rs"), shims::generate()).expect("write c_shims.rs");

    // Generated once; written to OUT_DIR always and over the committed copy when blessing. A
    // packaged crate (`cargo package`) has no `ukernels/` sources for cbindgen to read: it
    // ships the committed headers, which the repository's drift test keeps equal to these.
    let include = if manifest_dir.join("ukernels/src").is_dir() {
        let headers = headers::generate(&manifest_dir);
        let include = out_dir.join("include");
        write_tree(&include, &headers);
        if env::var_os("RKAI_BLESS_HEADERS").is_some_and(|v| v == "1") {
            write_tree(&manifest_dir.join("include"), &headers);
        }
        include
    } else {
        manifest_dir.join("include")
    };
    println!(
        "cargo:rustc-env=RKAI_GENERATED_INCLUDE={}",
        include.display()
    );

    // Give the shared library the name consumers link against.
    if env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux" || os == "android") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libkleidiai.so");
    }
}

/// Replaces the directory `root` with the given files.
fn write_tree(root: &Path, files: &[(PathBuf, String)]) {
    if root.exists() {
        fs::remove_dir_all(root).expect("clear header directory");
    }
    for (rel, text) in files {
        write_file(&root.join(rel), text);
    }
}

fn write_file(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("header path has a parent"))
        .expect("create header dir");
    fs::write(path, text).expect("write header");
}
