//! The functions of KleidiAI's generic LHS-packing interface (`kai_matmul_pack_lhs_uker_api`) by
//! packer kind, over the interface's C structs: the values and KleidiAI's assumptions of each
//! getter, and the packing call. The C table of function pointers is `rkai_capi::capi::uker_lhs_pack` (the C library crate)
//! (the RHS side's twin is `uker_rhs`).
//!
//! Every packer of this interface ignores `config` and `flags`.

use super::matmul_pack_lhs_mxk as mxk;
use crate::contract::Violation;
use crate::pack::kinds::UkerLhsKind;
use crate::pack_lhs_types::*;

/// `get_step`: the M and K granularity of a split (0: not splittable).
#[inline(always)]
pub fn step(kind: UkerLhsKind) -> kai_matmul_pack_lhs_uker_dim_args {
    match kind {
        UkerLhsKind::MxkX32p4vsx1Sme
        | UkerLhsKind::MxkX16p4vsx2Sme
        | UkerLhsKind::MxkX8p4vsx4Sme => kai_matmul_pack_lhs_uker_dim_args { m: mxk::mr(), k: 0 },
    }
}

/// `get_lhs_stride` of an unpacked LHS of `shape`.
#[inline(always)]
pub fn lhs_stride(
    kind: UkerLhsKind,
    shape: &kai_matmul_pack_lhs_uker_lhs_dim_args,
) -> kai_matmul_pack_lhs_uker_lhs_stride_args {
    kai_matmul_pack_lhs_uker_lhs_stride_args {
        m: mxk::lhs_stride(kind, shape.k),
    }
}

/// `get_lhs_offset` of the start coordinate `index`.
#[inline(always)]
pub fn lhs_offset(
    kind: UkerLhsKind,
    index: &kai_matmul_pack_lhs_uker_lhs_dim_args,
    stride: &kai_matmul_pack_lhs_uker_lhs_stride_args,
) -> Result<usize, Violation> {
    mxk::lhs_offset(kind, index.m, index.k, stride.m)
}

/// `get_lhs_packed_stride` of a packed LHS of `shape`.
#[inline(always)]
pub fn packed_stride(
    kind: UkerLhsKind,
    shape: &kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
) -> kai_matmul_pack_lhs_uker_lhs_packed_stride_args {
    kai_matmul_pack_lhs_uker_lhs_packed_stride_args {
        m: mxk::packed_stride(kind, shape.k),
    }
}

/// `get_lhs_packed_offset` of the start coordinate `index`.
#[inline(always)]
pub fn packed_offset(
    kind: UkerLhsKind,
    index: &kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
    stride: &kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
) -> Result<usize, Violation> {
    mxk::packed_offset(kind, index.m, index.k, stride.m)
}

/// `get_lhs_packed_size` of a packed LHS of `shape`.
#[inline(always)]
pub fn packed_size(
    _kind: UkerLhsKind,
    shape: &kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
    stride: &kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
) -> usize {
    mxk::packed_size(shape.m, stride.m)
}

/// `run`: packs `args`.
///
/// # Safety
/// The buffers of `args.operand` hold what the packer reads and writes for `args.shape` with the
/// strides given there (see the kind's module).
#[inline(always)]
pub unsafe fn run(kind: UkerLhsKind, args: &kai_matmul_pack_lhs_uker_args) {
    let o = &args.operand;
    let a = mxk::Args {
        m: args.shape.m,
        k: args.shape.k,
        lhs: o.lhs.ptr.cast(),
        lhs_stride: o.lhs.stride.m,
        lhs_packed: o.lhs_packed.ptr.cast(),
        packed_stride: o.lhs_packed.stride.m,
    };
    // SAFETY: forwarded contract.
    unsafe { mxk::run(kind, &a) }
}
