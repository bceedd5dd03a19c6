//! The verbs of the depthwise convolution kernels and packers (`kai_*dwconv*`): KleidiAI's
//! assertions (abort naming the symbol), then the kernel or the packer.

use rkai_ukernels::dwconv::pack::{self, DwconvPacker, PackArgs};
use rkai_ukernels::dwconv::{self, DepthfirstArgs, DwconvKernel, PlanarArgs, Run};

/// `kai_get_dst_offset_<stem>`.
#[inline(always)]
pub(crate) fn dst_offset(k: &DwconvKernel, symbol: &str, row: usize, stride: usize) -> usize {
    super::ensure(symbol, dwconv::dst_offset(k, row, stride))
}

/// `kai_run_dwconv_<stem>` of a planar kernel: the native kernel on aarch64 (which needs the
/// kernel's ISA, as KleidiAI's does), the portable one elsewhere.
///
/// # Safety
/// The buffers follow KleidiAI's contract of the call.
#[inline(always)]
pub(crate) unsafe fn run_planar(k: &DwconvKernel, symbol: &str, a: &PlanarArgs) {
    super::ensure(symbol, a.check());
    let Run::Planar { native, portable } = k.run else {
        unreachable!("{symbol}: a planar symbol of a kernel of another interface")
    };
    // SAFETY: checked arguments, buffers by the caller's contract.
    unsafe { native.unwrap_or(portable)(a) }
}

/// `kai_run_dwconv_<stem>` of a depthfirst kernel (KleidiAI asserts nothing): the native kernel
/// on aarch64, the portable one elsewhere.
///
/// # Safety
/// The buffers follow KleidiAI's contract of the call.
#[inline(always)]
pub(crate) unsafe fn run_depthfirst(k: &DwconvKernel, symbol: &str, a: &DepthfirstArgs) {
    let Run::Depthfirst { native, portable } = k.run else {
        unreachable!("{symbol}: a depthfirst symbol of a kernel of another interface")
    };
    // SAFETY: buffers by the caller's contract.
    unsafe { native.unwrap_or(portable)(a) }
}

/// `kai_run_rhs_<packer>`.
///
/// # Safety
/// The buffers follow KleidiAI's contract of the call.
#[inline(always)]
pub(crate) unsafe fn pack(p: &DwconvPacker, symbol: &str, a: &PackArgs) {
    super::ensure(symbol, a.check(p));
    // SAFETY: checked arguments, buffers by the caller's contract.
    unsafe { pack::run(p, a) }
}
