//! Packing routines: turn framework tensors into the interleaved formats the kernels read.

pub mod lhs_quant_pack_qai8dxp;
pub mod rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0;
pub mod rhs_pack_qsi4cxp_qs4cxs1s0;
pub mod rhs_pack_qsi8cxp_qsi8cx;
