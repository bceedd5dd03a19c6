//! Test infrastructure shared by the integration tests: guarded buffers, deterministic data,
//! register-canary calls, death tests and CPU-model expectations.
#![allow(dead_code)]

pub mod abi;
pub mod bf16;
pub mod block_gemm;
pub mod block_lhs;
pub mod cabi;
pub mod conv;
pub mod cpu;
pub mod death;
pub mod float_family;
pub mod gemm;
pub mod gemv;
pub mod getter_grid;
pub mod guard;
pub mod host;
pub mod hostile;
pub mod packed_float;
pub mod rng;
pub mod sme_pack;
pub mod tester;
pub mod uker;
pub mod uker_pack;
