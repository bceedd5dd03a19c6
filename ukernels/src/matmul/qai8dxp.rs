//! The `qai8dxp` matmul families (dynamically quantized int8 LHS x int4 or int8 RHS with
//! per-channel or per-block scales; f32, f16 or bf16 output): their shared arguments,
//! precondition checks and dispatch. Families differ in the packed RHS format and the output
//! type, both of which the kernel's family names.

use super::args::PackedArgs as Args;
use super::args::check_packed_output_buffers;
use super::output::run_narrowed;
use super::{
    matmul_clamp_f32_qai8dxp_qsi4c32p as int4_blockwise, matmul_clamp_f32_qai8dxp_qsi4cxp as int4,
    matmul_clamp_f32_qai8dxp_qsi8cxp as int8, matmul_clamp_f32_qai8dxp_qsu2cxp as int2,
};
use crate::contract::{self, Checked};
use crate::family::Qai8dxpRhs;
use crate::float;
use crate::kernel::{Clamp, MatmulKernel};
use crate::layout::{self, RhsLayout};
use crate::matmul::args::KernelFn;
use crate::pack::kinds::{PackerKind, RhsPackerKind};

/// Packed RHS format `kernel` reads for block length `bl`.
#[inline(always)]
fn rhs_layout(kernel: &MatmulKernel, bl: usize) -> RhsLayout {
    kernel.family.rhs_layout(bl)
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
#[inline(always)]
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    let out = kernel.family.output();
    contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    if kernel.family.takes_lut() {
        int2::check(kernel, a)?;
    }
    layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr)?;
    rhs_layout(kernel, a.bl).stride(a.k, tile.nr, tile.kr, tile.sr)?;
    check_packed_output_buffers(a, out)
}

/// Whether `kernel` reads int4 weights in the sequential-nibble (`ps1s0`) order rather than
/// `s16s0` (KleidiAI's SME2 int4 kernels): the packers it pairs with say.
#[inline(always)]
pub(crate) fn sequential_nibbles(kernel: &MatmulKernel) -> bool {
    kernel.rhs_packers.iter().any(|p| match p.kind {
        PackerKind::Rhs(RhsPackerKind::Qsi4c32p(v)) => v.sequential_nibbles(),
        PackerKind::Rhs(RhsPackerKind::Qsi4cxps1s0) => true,
        _ => false,
    })
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bytes, same results) elsewhere. For 16-bit outputs, kernels that write
/// them (`KernelFn::PackedOutput`, the SME2 ones) run as they are, f32 kernels of the same tile
/// are narrowed through a staging tile (see `matmul::output`), and the portable path narrows as
/// it stores.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
#[inline(always)]
pub unsafe fn run(kernel: &MatmulKernel, rhs: Qai8dxpRhs, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let tile = &kernel.tile();
    let output = kernel.family.output();
    // Kernels that clamp narrowed values ignore signalling NaN bounds (see the `Clamp`): their
    // asm clamps in f32 before narrowing, with the bounds quieted here.
    let quieted;
    let a = match kernel.epilogue.clamp {
        Clamp::NarrowedMaxNumThenMinNum => {
            quieted = Args {
                clamp_min: float::quiet(a.clamp_min),
                clamp_max: float::quiet(a.clamp_max),
                ..*a
            };
            &quieted
        }
        Clamp::MaxThenMin | Clamp::MaxNumThenMinNum => a,
    };
    match (kernel.native, output.narrowing()) {
        // SAFETY (every arm): forwarded contract.
        (KernelFn::PackedOutput(f), _) | (KernelFn::Packed(f), None) => unsafe { f(a) },
        (KernelFn::Packed(f), Some(narrow)) => unsafe {
            run_narrowed(tile, group_strides(kernel, a), narrow, a, |a: &Args| f(a))
        },
        (KernelFn::Portable | KernelFn::UnpackedLhs(_) | KernelFn::Indirect(_), _) => unsafe {
            run_portable(kernel, rhs, a)
        },
    }
}

/// Bytes of one packed LHS group and one packed RHS group of `kernel` for the call `a`.
fn group_strides(kernel: &MatmulKernel, a: &Args) -> (usize, usize) {
    let tile = kernel.tile();
    (
        layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr).unwrap_or(0),
        rhs_layout(kernel, a.bl)
            .stride(a.k, tile.nr, tile.kr, tile.sr)
            .unwrap_or(0),
    )
}

/// The portable implementation of `kernel` (same bytes, same results as its asm), writing the
/// family's output type.
///
/// # Safety
/// As for [`run`].
#[inline(always)]
unsafe fn run_portable(kernel: &MatmulKernel, rhs: Qai8dxpRhs, a: &Args) {
    let tile = &kernel.tile();
    let output = kernel.family.output();
    let finish = kernel.epilogue;
    let nibbles = sequential_nibbles(kernel);
    match rhs {
        // SAFETY (every arm): forwarded contract; for 16-bit outputs dst rows hold n 16-bit
        // elements and the strides are the packed groups' sizes.
        Qai8dxpRhs::Qsi4cxp => unsafe { int4::portable::run(tile, finish, output, nibbles, a) },
        Qai8dxpRhs::Qsi8cxp => unsafe { int8::portable::run(tile, finish, output, a) },
        Qai8dxpRhs::Qsu2cxp => unsafe {
            int2::portable::run(tile, finish, int2::variant(kernel), a)
        },
        Qai8dxpRhs::Qsi4c32p => match output.narrowing() {
            None => unsafe { int4_blockwise::portable::run(tile, finish, nibbles, a) },
            Some(narrow) => unsafe {
                run_narrowed(tile, group_strides(kernel, a), narrow, a, |a: &Args| {
                    int4_blockwise::portable::run(tile, finish, nibbles, a)
                })
            },
        },
    }
}
