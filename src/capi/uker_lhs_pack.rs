//! The generic LHS-packing interface (`kai_matmul_pack_lhs.h`), the RHS side's twin
//! (`uker_rhs_pack`): the generated provider (`kai_<name>()` in `c_shims.rs`) names its catalog
//! entry through a [`UkerProvider`] type, and [`api`] fills the table with this module's
//! functions instantiated for it: each reads its arguments, applies KleidiAI's assumptions
//! (abort naming the provider) and forwards to `rkai_ukernels::pack::uker_lhs`.

use super::{UkerProvider, ensure};
use rkai_ukernels::pack::kinds::UkerLhsKind;
use rkai_ukernels::pack::uker_lhs;
use rkai_ukernels::pack_lhs_types::*;

/// The provider's table (every member is set, as in KleidiAI's).
#[inline(always)]
pub fn api<P: UkerProvider<UkerLhsKind>>() -> kai_matmul_pack_lhs_uker_api {
    kai_matmul_pack_lhs_uker_api {
        run: Some(run::<P>),
        get_step: Some(get_step::<P>),
        get_lhs_stride: Some(get_lhs_stride::<P>),
        get_lhs_offset: Some(get_lhs_offset::<P>),
        get_lhs_packed_stride: Some(get_lhs_packed_stride::<P>),
        get_lhs_packed_offset: Some(get_lhs_packed_offset::<P>),
        get_lhs_packed_size: Some(get_lhs_packed_size::<P>),
    }
}

// The functions below are called by C through the table. Their pointer arguments follow
// KleidiAI's contract (valid, readable structs); `config` is read by no packer.

/// # Safety
/// `args` points to valid arguments whose buffers satisfy the packer's contract.
unsafe extern "C" fn run<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    args: *const kai_matmul_pack_lhs_uker_args,
) {
    // SAFETY: the caller's contract.
    unsafe { uker_lhs::run(P::KIND, &*args) }
}

unsafe extern "C" fn get_step<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
) -> kai_matmul_pack_lhs_uker_dim_args {
    uker_lhs::step(P::KIND)
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_lhs_stride<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    shape: *const kai_matmul_pack_lhs_uker_lhs_dim_args,
) -> kai_matmul_pack_lhs_uker_lhs_stride_args {
    // SAFETY: the caller's contract.
    uker_lhs::lhs_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_lhs_offset<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    index: *const kai_matmul_pack_lhs_uker_lhs_dim_args,
    stride: *const kai_matmul_pack_lhs_uker_lhs_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker_lhs::lhs_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_lhs_packed_stride<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    shape: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
) -> kai_matmul_pack_lhs_uker_lhs_packed_stride_args {
    // SAFETY: the caller's contract.
    uker_lhs::packed_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_lhs_packed_offset<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    index: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
    stride: *const kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker_lhs::packed_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` and `stride` point to valid structs.
unsafe extern "C" fn get_lhs_packed_size<P: UkerProvider<UkerLhsKind>>(
    _config: *const kai_matmul_pack_lhs_uker_config,
    shape: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
    stride: *const kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    uker_lhs::packed_size(P::KIND, unsafe { &*shape }, unsafe { &*stride })
}
