//! rkai: Arm matmul micro-kernels with KleidiAI 1.30's C ABI.
//!
//! Linking this crate's static or shared library (`libkleidiai.a` / `libkleidiai.so` once
//! installed) gives every `kai_*` function of the stems listed in the catalog
//! ([`rkai_ukernels::catalog`]), with KleidiAI's headers (`include/kai/...`), getter values,
//! packed formats and results. On non-Arm targets the same functions run a portable
//! implementation that produces identical bytes.
//!
//! Rust callers can use the kernels directly through [`rkai_ukernels`], re-exported as
//! [`ukernels`].
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[path = "../build/cabi.rs"]
pub mod cabi;
pub mod capi;
pub mod core_kind;
pub mod rkai_ffi;
pub mod select;

pub use rkai_ukernels as ukernels;
