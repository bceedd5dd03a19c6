//! rkai's C library: Arm matmul micro-kernels with KleidiAI 1.30's C ABI.
//!
//! Linking this crate's static or shared library (`libkleidiai.a` / `libkleidiai.so` once
//! installed) gives every `kai_*` function of the stems listed in the catalog
//! ([`rkai_ukernels::catalog`]), with KleidiAI's headers (`include/kai/...`), getter values,
//! packed formats and results. On non-Arm targets the same functions run a portable
//! implementation that produces identical bytes.
//!
//! This crate is the C library and nothing else: Rust programs depend on the crate `rkai`
//! (the safe API, no C symbol). Its modules are public for its own tests and benches.
//!
//! The crate is `no_std`: the C ABI reaches the operating system through the C library only
//! ([`sys`]), so a C program linking the static library pays only for the functions it calls.
//! The `std` feature (default) is for this crate's own tests, examples and benches. Without it
//! the crate brings its own panic handler (print a static message, abort), which is how the C
//! library is built (`cargo build --release --no-default-features`, what CMake runs): no Rust
//! standard library in `libkleidiai.a` at all.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

#[path = "../build/cabi.rs"]
pub mod cabi;
pub mod capi;
pub mod plan_ffi;
pub mod rkai_ffi;
pub mod select;
pub use rkai_ukernels::core_kind;
pub mod sys;

/// A panic is a bug in rkai (preconditions are checked and reported before any work): report it
/// and abort, without the formatting machinery a message would pull into every C program.
#[cfg(not(any(feature = "std", test)))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let mut line = sys::Line::new();
    line.str("rkai: internal error (panic)");
    if let Some(at) = info.location() {
        let mut digits = [0u8; 10];
        line.str(" at ")
            .str(at.file())
            .str(":")
            .push(sys::decimal(at.line(), &mut digits));
    }
    line.str("\n").flush();
    sys::abort()
}

// The precompiled `core` is built to unwind, so its unwind tables name `rust_eh_personality`,
// which only `std` defines; some linkers (lld) require it even when nothing unwinds. With
// `panic = "abort"` it is never called: a weak do-nothing definition satisfies the reference and
// yields to std's where a Rust program with std is linked in too.
#[cfg(all(
    not(any(feature = "std", test)),
    any(target_os = "linux", target_os = "android"),
    any(target_arch = "aarch64", target_arch = "x86_64")
))]
core::arch::global_asm!(
    ".pushsection .text.rust_eh_personality,\"ax\",%progbits",
    ".weak rust_eh_personality",
    "rust_eh_personality:",
    "ret",
    ".popsection",
);

#[cfg(all(
    not(any(feature = "std", test)),
    not(all(
        any(target_os = "linux", target_os = "android"),
        any(target_arch = "aarch64", target_arch = "x86_64")
    ))
))]
#[unsafe(no_mangle)]
extern "C" fn rust_eh_personality() {}

pub use rkai_ukernels as ukernels;
