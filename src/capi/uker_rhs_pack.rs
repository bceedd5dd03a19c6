//! The generic RHS-packing interface (`kai_matmul_pack_rhs.h`): a provider function returns a
//! table of function pointers. The generated provider (`kai_<name>()` in `c_shims.rs`) names its
//! catalog entry through a [`UkerProvider`] type, and [`api`] fills the table with this module's
//! functions instantiated for it: each reads its arguments, applies KleidiAI's assumptions
//! (abort naming the provider) and forwards to `rkai_ukernels::pack::uker_rhs`.

use super::{UkerProvider, ensure};
use rkai_ukernels::pack::kinds::UkerRhsKind;
use rkai_ukernels::pack::uker_rhs;
use rkai_ukernels::pack_rhs_types::*;

/// The provider's table; members the packer has no use for are null, as in KleidiAI.
#[inline(always)]
pub fn api<P: UkerProvider<UkerRhsKind>>() -> kai_matmul_pack_rhs_uker_api {
    kai_matmul_pack_rhs_uker_api {
        run: Some(run::<P>),
        get_step: Some(get_step::<P>),
        get_rhs_stride: Some(get_rhs_stride::<P>),
        get_rhs_offset: Some(get_rhs_offset::<P>),
        get_rhs_packed_stride: Some(get_rhs_packed_stride::<P>),
        get_rhs_packed_offset: Some(get_rhs_packed_offset::<P>),
        get_rhs_packed_size: Some(get_rhs_packed_size::<P>),
        get_bias_n_offset: Some(get_bias_n_offset::<P>),
        // Only the packers with per-column scales have this member.
        get_scale_n_offset: uker_rhs::scale_n_offset(P::KIND, &Default::default())
            .map(|_| get_scale_n_offset::<P> as _),
    }
}

// The functions below are called by C through the table. Their pointer arguments follow
// KleidiAI's contract (valid, readable structs); `config` is read by no packer yet.

/// # Safety
/// `args` points to valid arguments whose buffers satisfy the packer's contract.
unsafe extern "C" fn run<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    args: *const kai_matmul_pack_rhs_uker_args,
) {
    // SAFETY: the caller's contract.
    ensure(P::SYMBOL, unsafe { uker_rhs::run(P::KIND, &*args) })
}

unsafe extern "C" fn get_step<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
) -> kai_matmul_pack_rhs_uker_dim_args {
    uker_rhs::step(P::KIND)
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_rhs_stride<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    shape: *const kai_matmul_pack_rhs_uker_rhs_dim_args,
) -> kai_matmul_pack_rhs_uker_rhs_stride_args {
    // SAFETY: the caller's contract.
    uker_rhs::rhs_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` points to a valid struct; `stride` too when the kind reads it.
unsafe extern "C" fn get_rhs_offset<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    index: *const kai_matmul_pack_rhs_uker_rhs_dim_args,
    stride: *const kai_matmul_pack_rhs_uker_rhs_stride_args,
) -> usize {
    // KleidiAI's SVE packer does not read `stride`: a null one must not be dereferenced.
    let stride = if stride.is_null() {
        &kai_matmul_pack_rhs_uker_rhs_stride_args::default()
    } else {
        // SAFETY: the caller's contract.
        unsafe { &*stride }
    };
    // SAFETY: the caller's contract.
    ensure(
        P::SYMBOL,
        uker_rhs::rhs_offset(P::KIND, unsafe { &*index }, stride),
    )
}

/// # Safety
/// `shape` points to a valid struct.
unsafe extern "C" fn get_rhs_packed_stride<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    shape: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
) -> kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
    // SAFETY: the caller's contract.
    uker_rhs::packed_stride(P::KIND, unsafe { &*shape })
}

/// # Safety
/// `index` and `stride` point to valid structs.
unsafe extern "C" fn get_rhs_packed_offset<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    index: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
    stride: *const kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    let (index, stride) = unsafe { (&*index, &*stride) };
    ensure(P::SYMBOL, uker_rhs::packed_offset(P::KIND, index, stride))
}

/// # Safety
/// `shape` and `stride` point to valid structs.
unsafe extern "C" fn get_rhs_packed_size<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    shape: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
    stride: *const kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
) -> usize {
    // SAFETY: the caller's contract.
    uker_rhs::packed_size(P::KIND, unsafe { &*shape }, unsafe { &*stride })
}

/// # Safety
/// `index` points to a valid struct.
unsafe extern "C" fn get_bias_n_offset<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    index: *const kai_matmul_pack_rhs_uker_bias_n_dim_args,
) -> usize {
    // SAFETY: the caller's contract.
    ensure(
        P::SYMBOL,
        uker_rhs::bias_n_offset(P::KIND, unsafe { &*index }),
    )
}

/// # Safety
/// `index` points to a valid struct.
unsafe extern "C" fn get_scale_n_offset<P: UkerProvider<UkerRhsKind>>(
    _config: *const kai_matmul_pack_rhs_uker_config,
    index: *const kai_matmul_pack_rhs_uker_scale_n_dim_args,
) -> usize {
    // SAFETY: the caller's contract. The table holds this function only for kinds with scales.
    uker_rhs::scale_n_offset(P::KIND, unsafe { &*index }).unwrap_or(0)
}
