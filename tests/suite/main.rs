//! rkai's integration tests, one test binary: one module per file, each the tests of one family,
//! packer group or contract, and `support`, what they share.
//!
//! One binary rather than a binary per file: every binary links the whole library and compiles
//! `support` again, which made building the tests (natively and for aarch64) most of CI's time.
//! Select a file's tests by its module path: `cargo test --test suite -- qai8dxp::` (the
//! scripts' test matrix does so; see scripts/test-matrix.sh).

#[macro_use]
mod support;

mod bf16_gemm;
mod bf16_pack;
mod bf16_sme;
mod c_abi_surface;
mod c_cmake;
mod c_integration;
mod c_size;
mod contract_violations;
mod cpu;
mod dwconv;
mod examples;
mod f16_sme_gemv;
mod f16p_f16p_sme;
mod f16p_qsi4c32p;
mod f32_sme_gemv;
mod f32_sme_pack;
mod f32p16vlx1b_pack;
mod f32p_f32p_sme;
mod float_gemm;
mod getters_grid;
mod getters_grid_sme;
mod half_gemm;
mod imatmul;
mod imatmul_sme;
mod lhs_pack_f16;
mod matmul_pack_lhs;
mod matmul_pack_rhs;
mod matmul_uker;
mod matmul_uker_f16;
mod matmul_uker_mopa;
mod matmul_uker_qai8;
mod matmul_uker_sve2p1;
mod matmul_uker_u8;
mod overflow;
mod packer_slices;
mod plan;
mod qai4c32p;
mod qai8_requantize;
mod qai8_sme;
mod qai8dxp;
mod qai8dxp_qsu2cxp;
mod qsi8d32p;
mod rust_dependent;
mod safe_api;
mod safe_api_families;
mod safe_api_imatmul;
mod safe_api_int8;
mod safe_api_ranges;
mod selection;
mod x16p2vlx2_pack;
mod x8p2vlx4_pack;
