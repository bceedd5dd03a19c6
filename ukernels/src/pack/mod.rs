//! Packing routines: turn framework tensors into the interleaved formats the kernels read.

pub mod lhs_quant_pack_qai8dxp;
pub mod rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0;
pub mod rhs_pack_qsi4cxp_qs4cxs1s0;
pub mod rhs_pack_qsi8cxp_qsi8cx;

/// Orientation of an unpacked RHS source matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// N rows of K values (int4: row stride `roundup(k, 2) / 2` bytes, low nibble = even k).
    Nxk,
    /// K rows of N values (int4: row stride `roundup(n, 2) / 2` bytes, low nibble = even n).
    Kxn,
}
