//! Packing routines: turn framework tensors into the interleaved formats the kernels read.

/// A packer's own `Args` from the shared ones of its side ([`args::LhsArgs`], [`args::RhsArgs`]): `$copy`
/// fields as they are, `$ptr` fields cast to the packer's pointer types.
macro_rules! packer_args {
    ($a:ident => $($ty:ident)::+ { $($copy:ident),* ; $($ptr:ident),* $(,)? }) => {
        $($ty)::+ { $($copy: $a.$copy,)* $($ptr: $a.$ptr.cast(),)* }
    };
}

#[cfg(target_arch = "aarch64")]
#[macro_use]
mod bf16_asm;
pub mod args;
pub mod kinds;
pub mod lhs;
pub mod lhs_imatmul_pack_sme;
pub mod lhs_pack_bf16;
pub mod lhs_pack_f16pmrx2_f32;
pub mod lhs_pack_sme_rows;
pub mod lhs_quant_pack_qai8dxp;
pub mod lhs_quant_pack_qsi8d32p;
pub mod lhs_quant_pack_qsi8d32pscalef32;
pub mod matmul_pack_lhs_mxk;
pub mod matmul_pack_rhs_qsi4cxp8vsx4;
pub mod matmul_pack_rhs_qsi8cxp4vsx4bi32sf32;
pub mod matmul_pack_rhs_x32p4vsx1bx32;
pub mod matmul_pack_rhs_x8p4vsx4;
pub mod rhs;
pub mod rhs_pack_bf16;
pub mod rhs_pack_float;
pub mod rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme;
pub mod rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve;
pub mod rhs_pack_nxk_qai4c32p;
pub mod rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0;
pub mod rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0;
pub mod rhs_pack_nxk_qsu2cxp;
pub mod rhs_pack_qsi4c32p_qsu4c32s1s0;
pub mod rhs_pack_qsi4cxp_qs4cxs1s0;
pub mod rhs_pack_qsi8cxp_qsi8cx;
pub mod uker_lhs;
pub mod uker_rhs;

use crate::contract::{self, Violation};

pub use kinds::Source;

impl Source {
    /// `kai_get_rhs_offset_*` of an integer RHS packer whose source values are `bits` wide (4 or
    /// 8): where column (K x N) or row (N x K) `n_idx` starts. A K x N source is offset within its
    /// first row, so `rhs_stride` is unused there, and an int4 column must start a byte.
    pub fn integer_rhs_offset(
        self,
        bits: usize,
        n_idx: usize,
        rhs_stride: usize,
    ) -> Result<usize, Violation> {
        match (self, bits) {
            (Source::Nxk, _) => {
                contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t")
            }
            (Source::Kxn, 4) => {
                contract::require(n_idx % 2 == 0, "(n_idx % 2) == 0")?;
                Ok(n_idx / 2)
            }
            (Source::Kxn, _) => Ok(n_idx * bits / 8),
        }
    }
}

/// Writes column `col` of a per-channel RHS group trailer: `nr` x `i32` sums, then `nr` x `f32`
/// scales, then `nr` x `f32` biases.
///
/// # Safety
/// `trailer` points at the trailer of a packed group of `nr` columns, and `col < nr`.
#[inline]
pub(crate) unsafe fn write_column_trailer(
    trailer: *mut u8,
    nr: usize,
    col: usize,
    sum: i32,
    scale: f32,
    bias: f32,
) {
    // SAFETY: the three arrays of nr entries lie inside the trailer.
    unsafe {
        trailer.add(4 * col).cast::<i32>().write_unaligned(sum);
        trailer
            .add(4 * (nr + col))
            .cast::<f32>()
            .write_unaligned(scale);
        trailer
            .add(4 * (2 * nr + col))
            .cast::<f32>()
            .write_unaligned(bias);
    }
}

/// Bias of column `n_idx`, or 0 when the caller passed no bias.
///
/// # Safety
/// `bias` is null or readable for more than `n_idx` floats.
#[inline]
pub(crate) unsafe fn bias_at(bias: *const f32, n_idx: usize) -> f32 {
    if bias.is_null() {
        0.0
    } else {
        // SAFETY: non-null bias has an entry per column.
        unsafe { bias.add(n_idx).read_unaligned() }
    }
}
