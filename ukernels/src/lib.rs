//! rkai's micro-kernels: `#![no_std]`, allocation-free, panic-free.
//!
//! Every kernel and packer is declared once in [`catalog`]; the `rkai` crate derives its C ABI
//! (`kai_*` symbols), headers, tests and benches from that declaration. Modules mirror
//! KleidiAI's tree so a reader can find a stem: [`matmul`] holds one module per family with one
//! file per variant, [`pack`] the packers, [`mod@reference`] the scalar oracle written from the
//! format specification.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod api;
pub mod arch;
pub mod catalog;
pub mod contract;
pub mod core_kind;
pub mod element;
pub mod family;
pub mod float;
pub mod kernel;
pub mod layout;
#[macro_use]
pub mod matmul;
pub mod dwconv;
pub mod matmul_types;
pub mod pack;
pub mod pack_lhs_types;
pub mod pack_rhs_types;
pub mod plan;
pub mod reference;
pub mod select;
pub mod select_env;
pub mod sys;
pub mod types;
