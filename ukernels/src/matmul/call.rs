//! The check and dispatch of a kernel call by the family's operands (see [`crate::family`]); the
//! argument shapes and kernel function types are [`super::args`].

use super::args::NEEDS_PACKED_LHS;
// The argument types of the functions below, for callers of the dispatch.
pub use super::args::{IndirectArgs, PackedArgs, UnpackedLhsArgs};
use super::{
    bf16_gemm, float_gemm, imatmul_clamp_f32_f32_f32p as imatmul,
    matmul_clamp_f32_f16p_qsi4c32p as f16p_qsi4c32p,
    matmul_clamp_f32_qsi8d32p_qai4c32p as qsi8d32p_qai4c32p,
    matmul_clamp_f32_qsi8d32p_qsi4c32p as qsi8d32p_qsi4c32p,
    matmul_clamp_qai8_qai8_qsi8cxp as qai8_gemv, matmul_clamp_qai8_qai8p_qsi8cxp as qai8p, qai8dxp,
};
use crate::contract::{Checked, Violation};
use crate::family::{Operands, Qai8dxpRhs};
use crate::kernel::MatmulKernel;

/// Refusal of an unpacked-LHS call for a family whose LHS is packed.
const NEEDS_UNPACKED_LHS: Violation = Violation {
    condition: "the kernel takes an unpacked LHS",
};

/// A packed-operand call that [`check_packed`] accepted, naming the family's packed operands:
/// only `check_packed` makes one, so [`run_packed`] dispatches over exactly the families whose
/// LHS is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckedPacked(PackedOperands);

/// The operand formats of the families whose LHS is packed (every [`Operands`] but
/// `UnpackedFloat` and `IndirectFloat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PackedOperands {
    Qai8dxp(Qai8dxpRhs),
    Qsi8d32pQsi4c32p,
    Qsi8d32pQai4c32p,
    PackedFloat,
    F16pQsi4c32p,
    Qai8pQsi8cxpsb,
    Qai8Qsi8cxpsb,
}

/// Checks a packed-operand call of `kernel`: KleidiAI's assertions plus non-null buffers, a
/// destination stride that holds a row, and packed sizes that do not overflow.
#[inline(always)]
pub fn check_packed(kernel: &MatmulKernel, a: &PackedArgs) -> Result<CheckedPacked, Violation> {
    let operands = match kernel.family.description().operands {
        Operands::Qai8dxp(rhs) => {
            qai8dxp::check(kernel, a)?;
            PackedOperands::Qai8dxp(rhs)
        }
        Operands::Qsi8d32pQsi4c32p => {
            qsi8d32p_qsi4c32p::check(kernel, a)?;
            PackedOperands::Qsi8d32pQsi4c32p
        }
        Operands::Qsi8d32pQai4c32p => {
            qsi8d32p_qai4c32p::check(kernel, a)?;
            PackedOperands::Qsi8d32pQai4c32p
        }
        // The chunked form's arguments are the packed ones over the chunks' K.
        Operands::PackedFloat(_) | Operands::ChunkedPackedFloat(_) => {
            bf16_gemm::check(kernel, a)?;
            PackedOperands::PackedFloat
        }
        Operands::F16pQsi4c32p => {
            f16p_qsi4c32p::check(kernel, a)?;
            PackedOperands::F16pQsi4c32p
        }
        Operands::Qai8pQsi8cxpsb | Operands::ChunkedQai8pQsi8cxpsb => {
            qai8p::check(kernel, a)?;
            PackedOperands::Qai8pQsi8cxpsb
        }
        // One LHS row as it is, in `lhs_packed`.
        Operands::Qai8Qsi8cxpsb => {
            qai8_gemv::check(kernel, a)?;
            PackedOperands::Qai8Qsi8cxpsb
        }
        Operands::UnpackedFloat | Operands::IndirectFloat => return Err(NEEDS_PACKED_LHS),
    };
    Ok(CheckedPacked(operands))
}

/// Runs a packed-operand call of `kernel`: its hand-written implementation on aarch64, the
/// portable one (same bits) elsewhere.
///
/// # Safety
/// `checked` is what [`check_packed`] returned for `kernel` and `a`; the buffers hold the portion
/// described by `a` in the layouts of `kernel.tile()`; on aarch64 the CPU implements
/// `kernel.isa`.
#[inline(always)]
pub unsafe fn run_packed(kernel: &MatmulKernel, checked: CheckedPacked, a: &PackedArgs) {
    // SAFETY (every arm): forwarded contract.
    match checked.0 {
        PackedOperands::Qai8dxp(rhs) => unsafe { qai8dxp::run(kernel, rhs, a) },
        PackedOperands::Qsi8d32pQsi4c32p => unsafe { qsi8d32p_qsi4c32p::run(kernel, a) },
        PackedOperands::Qsi8d32pQai4c32p => unsafe { qsi8d32p_qai4c32p::run(kernel, a) },
        PackedOperands::PackedFloat => unsafe { bf16_gemm::run(kernel, a) },
        PackedOperands::F16pQsi4c32p => unsafe { f16p_qsi4c32p::run(kernel, a) },
        PackedOperands::Qai8pQsi8cxpsb => unsafe { qai8p::run(kernel, a) },
        PackedOperands::Qai8Qsi8cxpsb => unsafe { qai8_gemv::run(kernel, a) },
    }
}

/// Checks an unpacked-LHS call of `kernel` (see [`check_packed`]).
#[inline(always)]
pub fn check_unpacked_lhs(kernel: &MatmulKernel, a: &UnpackedLhsArgs) -> Checked {
    match kernel.family.description().operands {
        Operands::UnpackedFloat => float_gemm::check(kernel, a),
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::ChunkedPackedFloat(_)
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb
        | Operands::IndirectFloat => Err(NEEDS_UNPACKED_LHS),
    }
}

/// Runs an unpacked-LHS call of `kernel`.
///
/// # Safety
/// [`check_unpacked_lhs`] passed; the LHS holds `m` rows of `k` elements, the packed RHS the
/// portion's column groups, the destination `m` rows of `n` elements; on aarch64 the CPU
/// implements `kernel.isa`.
#[inline(always)]
pub unsafe fn run_unpacked_lhs(kernel: &MatmulKernel, a: &UnpackedLhsArgs) {
    // SAFETY: forwarded contract (`check_unpacked_lhs` admits only the float families).
    unsafe { float_gemm::run(kernel, a) }
}

/// Refusal of an indirect call for a family that does not gather its LHS.
const NEEDS_INDIRECT_LHS: Violation = Violation {
    condition: "the kernel takes an indirection buffer",
};

/// Checks an indirect-LHS call of `kernel` (see [`check_packed`]).
pub fn check_indirect(kernel: &MatmulKernel, a: &IndirectArgs) -> Checked {
    match kernel.family.description().operands {
        Operands::IndirectFloat => imatmul::check(kernel, a),
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::ChunkedPackedFloat(_)
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb
        | Operands::UnpackedFloat => Err(NEEDS_INDIRECT_LHS),
    }
}

/// Runs an indirect-LHS call of `kernel`.
///
/// # Safety
/// [`check_indirect`] passed; the indirection buffer holds the portion's pointers, each (after
/// the offset rule) to `k_chunk_length` readable floats; the packed RHS holds the portion's
/// column groups, the destination `m` rows of `n` floats; on aarch64 the CPU implements
/// `kernel.isa`.
pub unsafe fn run_indirect(kernel: &MatmulKernel, a: &IndirectArgs) {
    // SAFETY: forwarded contract (`check_indirect` admits only the indirect family).
    unsafe { imatmul::run(kernel, a) }
}
