//! KleidiAI's generic int8-output GEMMs (`kai_matmul.h`) through the C ABI: one module per
//! kernel, one test binary (one link, one QEMU start per configuration).

#[path = "../support/mod.rs"]
mod support;

mod mopa_qsi4;
