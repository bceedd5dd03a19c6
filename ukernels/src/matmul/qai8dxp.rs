//! The `qai8dxp` matmul families (dynamically quantized int8 LHS x int4 or int8 RHS with
//! per-channel or per-block scales; f32, f16 or bf16 output): their shared arguments,
//! precondition checks and dispatch. Families differ in the packed RHS format and the output
//! type, both of which the kernel's family names.

use super::call::PackedArgs as Args;
use super::output::run_narrowed;
use super::{
    matmul_clamp_f32_qai8dxp_qsi4c32p as int4_blockwise, matmul_clamp_f32_qai8dxp_qsi4cxp as int4,
    matmul_clamp_f32_qai8dxp_qsi8cxp as int8,
};
use crate::catalog::{Clamp, MatmulKernel, PackerKind, RhsPackerKind};
use crate::contract::{self, Checked};
use crate::family::Qai8dxpRhs;
use crate::float;
use crate::layout::{self, RhsLayout};

/// Packed RHS format `kernel` reads for block length `bl`.
fn rhs_layout(kernel: &MatmulKernel, bl: usize) -> RhsLayout {
    kernel.family.rhs_layout(bl)
}

/// Whether `kernel` reads int4 weights in the sequential-nibble layout of
/// `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (KleidiAI's SME2 `qsi4cxp` kernels) rather than
/// `s16s0`: the packers it pairs with say.
pub fn reads_sequential_nibbles(kernel: &MatmulKernel) -> bool {
    kernel
        .rhs_packers
        .iter()
        .any(|p| p.kind == PackerKind::Rhs(RhsPackerKind::Qsi4cxps1s0))
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    let out = kernel.family.output();
    contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr)?;
    rhs_layout(kernel, a.bl).stride(a.k, tile.nr, tile.kr, tile.sr)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k != 0, "k > 0")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, out.size(), "n * sizeof(dst) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_stride_row >= row_bytes,
        out.row_condition(),
    )?;
    Ok(())
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bytes, same results) elsewhere; 16-bit outputs go through the f32
/// implementation of the same tile (see `matmul::output`).
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, rhs: Qai8dxpRhs, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let tile = &kernel.tile();
    // Kernels that clamp after narrowing ignore signalling NaN bounds (see the `Clamp`); the f32
    // implementations they run get the bounds quieted.
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
        _ => a,
    };
    let run_f32 = |a: &Args| match (kernel.native.packed(), rhs) {
        // SAFETY (every arm): forwarded contract.
        (Some(f), _) => unsafe { f(a) },
        (None, Qai8dxpRhs::Qsi4cxp) => unsafe {
            int4::portable::run(tile, kernel.epilogue, reads_sequential_nibbles(kernel), a)
        },
        (None, Qai8dxpRhs::Qsi8cxp) => unsafe { int8::portable::run(tile, kernel.epilogue, a) },
        (None, Qai8dxpRhs::Qsi4c32p) => unsafe { int4_blockwise::portable::run(tile, a) },
    };
    match kernel.family.output().narrowing() {
        None => run_f32(a),
        // SAFETY: forwarded contract; dst rows hold n 16-bit elements.
        Some(narrow) => unsafe { run_narrowed(tile, rhs_layout(kernel, a.bl), narrow, a, run_f32) },
    }
}
