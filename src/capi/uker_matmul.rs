//! The generic matmul interface (`kai_matmul.h`): a provider function returns a table of
//! function pointers. The generated provider (`kai_<name>()` in `c_shims.rs`) names its catalog
//! entry through a [`UkerProvider`] type, and [`api`] fills the table with this module's
//! functions instantiated for it: each reads its arguments, applies KleidiAI's assumptions
//! (abort naming the provider) and forwards to `rkai_ukernels::matmul::uker`.

use super::{UkerProvider, ensure};
use rkai_ukernels::matmul::uker;
use rkai_ukernels::matmul_types::*;
use rkai_ukernels::pack::kinds::UkerKernelKind;

/// The provider's table (every member defined, as in KleidiAI's kernels).
#[inline(always)]
pub fn api<P: UkerProvider<UkerKernelKind>>() -> kai_matmul_uker_api {
    kai_matmul_uker_api {
        run: Some(run::<P>),
        get_step: Some(get_step::<P>),
        get_lhs_stride: Some(get_lhs_stride::<P>),
        get_lhs_offset: Some(get_lhs_offset::<P>),
        get_rhs_stride: Some(get_rhs_stride::<P>),
        get_rhs_offset: Some(get_rhs_offset::<P>),
        get_dst_stride: Some(get_dst_stride::<P>),
        get_dst_offset: Some(get_dst_offset::<P>),
        get_dst_size: Some(get_dst_size::<P>),
    }
}

// The functions below are called by C through the table. Their pointer arguments follow
// KleidiAI's contract (valid, readable structs); `config` is read by no kernel yet.

/// # Safety
/// `args` points to valid arguments whose buffers satisfy the kernel's contract.
unsafe extern "C" fn run<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    args: *const kai_matmul_uker_args,
) {
    // SAFETY: the caller's contract.
    ensure(P::SYMBOL, unsafe { uker::run(P::KIND, &*args) })
}

unsafe extern "C" fn get_step<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
) -> kai_matmul_uker_dim_args {
    uker::step(P::KIND)
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_lhs_stride<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    shape: *const kai_matmul_uker_lhs_dim_args,
) -> kai_matmul_uker_lhs_stride_args {
    // SAFETY: the caller's contract.
    uker::lhs_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_lhs_offset<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    index: *const kai_matmul_uker_lhs_dim_args,
    stride: *const kai_matmul_uker_lhs_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker::lhs_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_rhs_stride<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    shape: *const kai_matmul_uker_rhs_dim_args,
) -> kai_matmul_uker_rhs_stride_args {
    // SAFETY: the caller's contract.
    uker::rhs_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_rhs_offset<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    index: *const kai_matmul_uker_rhs_dim_args,
    stride: *const kai_matmul_uker_rhs_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker::rhs_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_dst_stride<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    shape: *const kai_matmul_uker_dst_dim_args,
) -> kai_matmul_uker_dst_stride_args {
    // SAFETY: the caller's contract.
    uker::dst_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_dst_offset<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    index: *const kai_matmul_uker_dst_dim_args,
    stride: *const kai_matmul_uker_dst_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker::dst_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` and `stride` point to valid structs.
unsafe extern "C" fn get_dst_size<P: UkerProvider<UkerKernelKind>>(
    _config: *const kai_matmul_uker_config,
    shape: *const kai_matmul_uker_dst_dim_args,
    stride: *const kai_matmul_uker_dst_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    uker::dst_size(P::KIND, unsafe { &*shape }, unsafe { &*stride })
}
