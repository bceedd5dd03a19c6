//! Matrix-multiplication families, one module per KleidiAI directory.

pub mod matmul_clamp_f32_qai8dxp_qsi4cxp;
pub mod matmul_clamp_f32_qai8dxp_qsi8cxp;
pub(crate) mod qai8dxp_portable;
