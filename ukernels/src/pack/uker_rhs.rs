//! The functions of KleidiAI's generic RHS-packing interface (`kai_matmul_pack_rhs_uker_api`) by
//! packer kind, over the interface's C structs: the values and KleidiAI's assumptions of each
//! getter, and the packing call. The C table of function pointers is `rkai_capi::capi::uker_rhs_pack` (the C library crate).
//!
//! Every packer of this interface ignores `config` and `flags` unless its module says otherwise.

use super::matmul_pack_rhs_qsi4cxp8vsx4 as qsi4p8vs;
use super::matmul_pack_rhs_qsi8cxp4vsx4bi32sf32 as qsi8p4vs;
use super::matmul_pack_rhs_x8p4vsx4 as x8p4vs;
use super::matmul_pack_rhs_x32p4vsx1bx32 as x32p4vs;
use super::rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve as x16;
use crate::contract::Violation;
use crate::pack::Source;
use crate::pack::kinds::UkerRhsKind;
use crate::pack_rhs_types::*;

/// The block width of a 16-bit K x N kind (called only for those two).
fn x16w(kind: UkerRhsKind) -> x16::Width {
    if kind == UkerRhsKind::KxnX16p4vsx2bx16Sme {
        x16::Width::Sme4vs
    } else {
        x16::Width::Sve16vs
    }
}

/// `get_step`: the N and K granularity of a split (0: not splittable).
#[inline(always)]
pub fn step(kind: UkerRhsKind) -> kai_matmul_pack_rhs_uker_dim_args {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            kai_matmul_pack_rhs_uker_dim_args {
                n: x16w(kind).nr(),
                k: 0,
            }
        }
        UkerRhsKind::X32p4vsx1bx32Sme(_) => kai_matmul_pack_rhs_uker_dim_args {
            n: x32p4vs::nr(),
            k: 0,
        },
        UkerRhsKind::X8p4vsx4Sme(_) => kai_matmul_pack_rhs_uker_dim_args {
            n: x8p4vs::nr(),
            k: 0,
        },
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => kai_matmul_pack_rhs_uker_dim_args {
            n: qsi8p4vs::nr(),
            k: 0,
        },
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => kai_matmul_pack_rhs_uker_dim_args {
            n: qsi4p8vs::nr(),
            k: 0,
        },
    }
}

/// `get_rhs_stride` of an unpacked RHS of `shape`.
#[inline(always)]
pub fn rhs_stride(
    kind: UkerRhsKind,
    shape: &kai_matmul_pack_rhs_uker_rhs_dim_args,
) -> kai_matmul_pack_rhs_uker_rhs_stride_args {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            let (n, k) = x16::rhs_stride(shape.n);
            kai_matmul_pack_rhs_uker_rhs_stride_args { n, k }
        }
        UkerRhsKind::X32p4vsx1bx32Sme(source) => {
            let (n, k) = x32p4vs::rhs_stride(source, (shape.n, shape.k));
            kai_matmul_pack_rhs_uker_rhs_stride_args { n, k }
        }
        UkerRhsKind::X8p4vsx4Sme(source) => {
            let (n, k) = x8p4vs::rhs_stride(source, (shape.n, shape.k));
            kai_matmul_pack_rhs_uker_rhs_stride_args { n, k }
        }
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => {
            let (n, k) = qsi8p4vs::rhs_stride(shape.n);
            kai_matmul_pack_rhs_uker_rhs_stride_args { n, k }
        }
        UkerRhsKind::Qsi4cxp8vsx4Sme(source, _) => {
            let (n, k) = qsi4p8vs::rhs_stride(source, (shape.n, shape.k));
            kai_matmul_pack_rhs_uker_rhs_stride_args { n, k }
        }
    }
}

/// `get_rhs_offset` of the start coordinate `index`.
#[inline(always)]
pub fn rhs_offset(
    kind: UkerRhsKind,
    index: &kai_matmul_pack_rhs_uker_rhs_dim_args,
    stride: &kai_matmul_pack_rhs_uker_rhs_stride_args,
) -> Result<usize, Violation> {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            x16::rhs_offset(x16w(kind), index.n, index.k)
        }
        UkerRhsKind::X32p4vsx1bx32Sme(source) => {
            x32p4vs::rhs_offset(source, index.n, index.k, stride.n)
        }
        UkerRhsKind::X8p4vsx4Sme(source) => x8p4vs::rhs_offset(source, index.n, index.k, stride.n),
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => qsi8p4vs::rhs_offset(index.n, index.k),
        UkerRhsKind::Qsi4cxp8vsx4Sme(source, _) => {
            qsi4p8vs::rhs_offset(source, index.n, index.k, stride.n)
        }
    }
}

/// `get_rhs_packed_stride` of a packed RHS of `shape`.
#[inline(always)]
pub fn packed_stride(
    kind: UkerRhsKind,
    shape: &kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
) -> kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
                n: x16::packed_stride(x16w(kind), shape.k),
            }
        }
        UkerRhsKind::X32p4vsx1bx32Sme(_) => kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
            n: x32p4vs::packed_stride(shape.k),
        },
        UkerRhsKind::X8p4vsx4Sme(_) => kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
            n: x8p4vs::packed_stride(shape.k),
        },
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => {
            kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
                n: qsi8p4vs::packed_stride(shape.k),
            }
        }
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
            n: qsi4p8vs::packed_stride(shape.k),
        },
    }
}

/// `get_rhs_packed_offset` of the start coordinate `index`.
#[inline(always)]
pub fn packed_offset(
    kind: UkerRhsKind,
    index: &kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
    stride: &kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
) -> Result<usize, Violation> {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            x16::packed_offset(x16w(kind), index.n, index.k, stride.n)
        }
        UkerRhsKind::X32p4vsx1bx32Sme(_) => x32p4vs::packed_offset(index.n, index.k, stride.n),
        UkerRhsKind::X8p4vsx4Sme(_) => x8p4vs::packed_offset(index.n, index.k, stride.n),
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => {
            qsi8p4vs::packed_offset(index.n, index.k, stride.n)
        }
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => qsi4p8vs::packed_offset(index.n, index.k, stride.n),
    }
}

/// `get_rhs_packed_size` of a packed RHS of `shape`.
#[inline(always)]
pub fn packed_size(
    kind: UkerRhsKind,
    shape: &kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
    stride: &kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
) -> usize {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            x16::packed_size(x16w(kind), shape.n, stride.n)
        }
        UkerRhsKind::X32p4vsx1bx32Sme(_) => x32p4vs::packed_size(shape.n, stride.n),
        UkerRhsKind::X8p4vsx4Sme(_) => x8p4vs::packed_size(shape.n, stride.n),
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => qsi8p4vs::packed_size(shape.n, stride.n),
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => qsi4p8vs::packed_size(shape.n, stride.n),
    }
}

/// `get_bias_n_offset` of the start column `index`.
#[inline(always)]
pub fn bias_n_offset(
    kind: UkerRhsKind,
    index: &kai_matmul_pack_rhs_uker_bias_n_dim_args,
) -> Result<usize, Violation> {
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            x16::bias_offset(x16w(kind), index.n)
        }
        UkerRhsKind::X32p4vsx1bx32Sme(_) => Ok(x32p4vs::bias_offset(index.n)),
        // No bias: KleidiAI returns 0 for every column.
        UkerRhsKind::X8p4vsx4Sme(_) => Ok(0),
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => Ok(qsi8p4vs::bias_or_scale_offset(index.n)),
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => Ok(qsi4p8vs::bias_offset(index.n)),
    }
}

/// `get_scale_n_offset` of the start column `index`, for the kinds with per-column scales
/// (`None`: the table's member is null, as in KleidiAI's tables without scales; KleidiAI asserts
/// nothing about the column).
#[inline(always)]
pub fn scale_n_offset(
    kind: UkerRhsKind,
    index: &kai_matmul_pack_rhs_uker_scale_n_dim_args,
) -> Option<usize> {
    match kind {
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => Some(qsi8p4vs::bias_or_scale_offset(index.n)),
        UkerRhsKind::Qsi4cxp8vsx4Sme(..) => Some(qsi4p8vs::scale_offset(index.n)),
        UkerRhsKind::KxnX16p16vsx2bx16Sve
        | UkerRhsKind::KxnX16p4vsx2bx16Sme
        | UkerRhsKind::X32p4vsx1bx32Sme(_)
        | UkerRhsKind::X8p4vsx4Sme(_) => None,
    }
}

/// `run`: packs `args`.
///
/// # Safety
/// The buffers of `args.operand` hold what the packer reads and writes for `args.shape` with the
/// strides given there (see the kind's module).
#[inline(always)]
pub unsafe fn run(
    kind: UkerRhsKind,
    args: &kai_matmul_pack_rhs_uker_args,
) -> Result<(), Violation> {
    let o = &args.operand;
    match kind {
        UkerRhsKind::KxnX16p16vsx2bx16Sve | UkerRhsKind::KxnX16p4vsx2bx16Sme => {
            let a = x16::Args {
                n: args.shape.n,
                k: args.shape.k,
                rhs: o.rhs.ptr.cast(),
                rhs_stride: o.rhs.stride.k,
                bias: o.bias_n.ptr.cast(),
                rhs_packed: o.rhs_packed.ptr.cast(),
                packed_stride: o.rhs_packed.stride.n,
            };
            // SAFETY: forwarded contract.
            unsafe { x16::run(x16w(kind), &a) };
            Ok(())
        }
        UkerRhsKind::X32p4vsx1bx32Sme(source) => {
            // SAFETY: forwarded contract.
            unsafe { x32p4vs::run(source, &oriented(args, source)) };
            Ok(())
        }
        UkerRhsKind::X8p4vsx4Sme(source) => {
            // SAFETY: forwarded contract (the packer reads no bias).
            unsafe { x8p4vs::run(source, &oriented(args, source)) };
            Ok(())
        }
        UkerRhsKind::KxnQsi8cxp4vsx4bi32sf32Sme => {
            let a = qsi8p4vs::Args {
                n: args.shape.n,
                k: args.shape.k,
                rhs: o.rhs.ptr.cast(),
                rhs_stride: o.rhs.stride.k,
                bias: o.bias_n.ptr.cast(),
                rhs_packed: o.rhs_packed.ptr.cast(),
                packed_stride: o.rhs_packed.stride.n,
            };
            let s = qsi8p4vs::Scales {
                scale: o.scale_n.ptr,
                k_sum_scale_global: o.k_sum_scale_global.ptr,
                scale_global: o.scale_global.ptr,
            };
            // SAFETY: forwarded contract.
            unsafe { qsi8p4vs::run(&a, &s) }
        }
        // SAFETY: forwarded contract.
        UkerRhsKind::Qsi4cxp8vsx4Sme(source, unsigned) => unsafe {
            qsi4p8vs::run(source, unsigned, args)
        },
    }
}

/// The call of a packer whose source is K x N or N x K (`source`): the source's row stride is
/// that orientation's (`stride.k` or `stride.n`).
fn oriented(args: &kai_matmul_pack_rhs_uker_args, source: Source) -> super::args::UkerRhsArgs {
    let o = &args.operand;
    super::args::UkerRhsArgs {
        n: args.shape.n,
        k: args.shape.k,
        rhs: o.rhs.ptr.cast(),
        rhs_stride: match source {
            Source::Kxn => o.rhs.stride.k,
            Source::Nxk => o.rhs.stride.n,
        },
        bias: o.bias_n.ptr.cast(),
        rhs_packed: o.rhs_packed.ptr.cast(),
        packed_stride: o.rhs_packed.stride.n,
    }
}
