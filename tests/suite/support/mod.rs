//! Test infrastructure shared by the integration tests: guarded buffers, deterministic data,
//! register-canary calls, death tests and CPU-model expectations.
#![allow(dead_code)]

#[macro_use]
pub mod abi;
pub mod api;
pub mod bf16;
#[macro_use]
pub mod block_gemm;
#[macro_use]
pub mod block_lhs;
#[macro_use]
pub mod cabi;
pub mod conv;
pub mod cpu;
#[macro_use]
pub mod death;
#[macro_use]
pub mod float_family;
pub mod gemm;
#[macro_use]
pub mod gemv;
#[macro_use]
pub mod getter_grid;
pub mod guard;
pub mod host;
pub mod hostile;
#[macro_use]
pub mod packed_float;
pub mod rng;
#[macro_use]
pub mod sme_pack;
#[macro_use]
pub mod tester;
#[macro_use]
pub mod uker;
#[macro_use]
pub mod uker_pack;
