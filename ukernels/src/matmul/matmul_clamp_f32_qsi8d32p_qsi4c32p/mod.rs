//! `matmul_clamp_f32_qsi8d32p_qsi4c32p` (llama.cpp's Q8_0 activations x Q4_0 weights): f32
//! output = int8 LHS with one f16 scale per row and block of `bl` K values x int4 RHS with one
//! f16 scale per column and block, clamped. No zero points, no bias.
//!
//! For row i and column j (`lq` packed LHS values, `w` the signed weights, `ld`/`wd` the f16
//! scales widened to f32), KleidiAI 1.30's kernels compute in f32 with fused multiply-adds:
//! `acc = 0; for every block b: acc = fma(f32(I_b), wd[j][b] * ld[i][b], acc)` where
//! `I_b = sum_{k in b} lq * w` (i32; the kernels form `16 * w` by shifting nibbles and divide by
//! 16 with `SCVTF #4`, which is exact), the scale product rounded to f32 first; then `FMAX` with
//! the lower bound and `FMIN` with the upper one.
//!
//! Packed formats (see `pack`): LHS groups of `mr` rows, per block `mr` f16 scales then
//! `mr x kr/sr` chunks of values; RHS groups of `nr` columns, per block `nr` f16 scales then
//! `bl / kr` segments of `nr x kr/2` bytes, byte `t` of segment `s` of a column holding values
//! `s * kr/2 + t` (low nibble) and `bl/2 + s * kr/2 + t` (high nibble) of the block.
//!
//! Departures from KleidiAI 1.30: every kernel accepts any `bl` that is a multiple of 32 (the
//! SVE ones assert `bl == 32`) and any `m` (the `1x4` NEON and the SVE GEMVs assert `m == 1` in
//! debug builds); rkai checks its preconditions in release builds too. KleidiAI's SVE kernels
//! are written for 256-bit vectors only and assert it; rkai's keep that contract, reporting other
//! vector lengths through the usual assertion message instead of computing garbage.
//!
//! Implementations on aarch64: one `asm!` module per stem, except the two NEON i8mm stems (`16x4`
//! and `8x4x32`: same packed formats), which run one 8 x 4 `SMMLA` loop. The SVE modules assume
//! 256-bit vectors (guaranteed by [`check`]); having no fixed-point `SCVTF`, they multiply the
//! integer sum by `wd * ld / 16` instead of `I / 16` by `wd * ld`: the scale product of two
//! widened f16 values and its sixteenth are exact in f32, so the fused result has the same bits.

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p1x4_qsi4c32p8x4_1x8_sve_dotprod,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod,
    matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm,
    matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm,
}

pub use super::call::PackedArgs as Args;
use crate::catalog::{Columns, MatmulKernel};
use crate::contract::{self, Checked};
use crate::layout;
use crate::matmul::call::check_packed_buffers;

/// The block lengths `kernel` accepts with this K: multiples of 32 dividing K, and exactly 32
/// for the 256-bit SVE kernels (KleidiAI's `bl == kai_bl`, asserted by all their getters).
pub fn check_block(kernel: &MatmulKernel, k: usize, bl: usize) -> Checked {
    layout::qsi4c32pf16::check_block(k, bl)?;
    if kernel.columns == Columns::FixedAtSve256 {
        contract::require(bl == layout::qsi4c32pf16::BL_MULTIPLE, "bl == kai_bl")?;
    }
    Ok(())
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    contract::require(a.dst_stride_col == 4, "dst_stride_col == sizeof(float)")?;
    check_block(kernel, a.k, a.bl)?;
    layout::qsi8d32p::stride(a.k, a.bl, tile.mr)?;
    layout::qsi4c32pf16::stride(a.k, tile.nr, a.bl)?;
    if kernel.columns == Columns::FixedAtSve256 && kernel.native.packed().is_some() {
        contract::require(
            crate::arch::sve_lanes32() == 8,
            "kai_get_sve_vector_length_u8() == 32 (this kernel supports 256-bit SVE only)",
        )?;
    }
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    check_packed_buffers(
        a,
        4,
        "n * sizeof(float) fits in size_t",
        "dst_stride_row >= n * sizeof(float)",
    )
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bits) elsewhere.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match kernel.native.packed() {
        // SAFETY (both arms): forwarded contract.
        Some(f) => unsafe { f(a) },
        None => unsafe { portable::run(&kernel.tile(), a) },
    }
}
