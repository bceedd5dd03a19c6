//! `matmul_clamp_f32_qsi8d32p_qai4c32p` and `matmul_clamp_f16_qsi8d32p_qai4c32p`: f32 or f16
//! output = int8 LHS with an f32 scale and block sum per row and block of `bl` K values x
//! asymmetric int4 RHS with an f32 scale and zero offset per column and block, plus an f32 bias
//! per column, clamped.
//!
//! For row i and column j (`lq` packed LHS values with scale `ls` and block sum `lsum`, `u` the
//! packed nibbles, `w = u - 8`, `rs16` the packed scale (the user's scale / 16), `rz` the zero
//! offset), the kernels compute in f32:
//!
//! ```text
//! acc = 0
//! for every block b:
//!     I   = sum_{k in b} lq * (16 * w)          (i32; 16 * w is the nibble shifted to the top)
//!     acc = fma(rz[j][b], lsum[i][b], acc)
//!     acc = fma((float)I, rs16[j][b] * ls[i][b], acc)   (scale product rounded to f32 first)
//! y = clamp(acc + bias[j])                       (FMAX with the lower bound, then FMIN)
//! ```
//!
//! and the f16 family rounds the clamped f32 result to f16 (nearest even, like `FCVT`; equal to
//! clamping in f16 with the rounded bounds, since the rounding is monotonic).
//!
//! KleidiAI 1.30 ships the NEON kernels of these families as assembly whose per-block
//! epilogue rkai could not read; the order above is the one of KleidiAI's SME2 kernel of the same
//! formats (zero-offset term first, then the scaled dot product, fused). Results are exact
//! against rkai's reference; against KleidiAI they agree to rounding of the f32 accumulation.
//! The f16 kernels keep the accumulator in f32 across blocks and round once at the end
//! (KleidiAI's SME2 f16 kernel rounds its partial sums to f16 after every block; whether its
//! NEON f16 kernels do is not known here), so they are at least as accurate.
//!
//! Each f32 asm kernel (one per tile, the f16 stems of the same tile narrow its results) runs
//! column groups of 4 outside and rows inside; the GEMMs take 8 rows per pass (the i8mm one
//! shares each decoded weight register between two LHS groups) or 4 (dotprod, and the i8mm tail).
//!
//! Departures from KleidiAI 1.30: every kernel accepts any `m` (KleidiAI's f32 `1x8` GEMV
//! asserts `m == 1` in debug builds); rkai checks its preconditions in release builds too.

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm;

use super::output::Narrow;
pub use super::qai8dxp::{Args, RunFn};
use crate::catalog::{MatmulKernel, NativeFn, Tile};
use crate::contract::{self, Checked};
use crate::layout;

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    let out = kernel.family.output();
    contract::require(a.dst_stride_col == out.size(), out.size_condition())?;
    layout::qai4c32p::check_block(a.k, a.bl)?;
    layout::qsi8d32pscalef32::stride(a.k, a.bl, tile.mr)?;
    layout::qai4c32p::stride(a.k, tile.nr, a.bl)?;
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

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64 where it has one,
/// the portable implementation (same bits) elsewhere; f16 output goes through the f32
/// implementation of the same tile and is narrowed.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let tile = kernel.tile();
    let run_f32 = |a: &Args| match kernel.native {
        // SAFETY (both arms): forwarded contract.
        NativeFn::Qai8dxp(f) => unsafe { f(a) },
        // A bf16 GEMM kernel is never catalogued in this family.
        NativeFn::Bf16Gemm(_) => {}
        NativeFn::Portable | NativeFn::FloatGemm(_) => unsafe { portable::run(&tile, a) },
    };
    match kernel.family.output().narrowing() {
        None => run_f32(a),
        // SAFETY: forwarded contract; dst rows hold n 16-bit elements.
        Some(narrow) => unsafe { run_narrowed(&tile, narrow, a, run_f32) },
    }
}

/// Rows and columns of the staging tile: multiples of the families' `mr` and `nr`.
const STAGE_ROWS: usize = 16;
const STAGE_COLS: usize = 64;

/// Computes the portion `a` with `run_f32` through an f32 staging tile, storing the results
/// narrowed to `out`.
///
/// # Safety
/// As for `run_f32` on the whole portion; `a.dst` rows hold `a.n` 16-bit elements.
unsafe fn run_narrowed(tile: &Tile, out: Narrow, a: &Args, run_f32: impl Fn(&Args)) {
    debug_assert!(STAGE_ROWS % tile.mr == 0 && STAGE_COLS % tile.nr == 0);
    let lhs_stride = layout::qsi8d32pscalef32::stride(a.k, a.bl, tile.mr).unwrap_or(0);
    let rhs_stride = layout::qai4c32p::stride(a.k, tile.nr, a.bl).unwrap_or(0);
    let mut stage = [0.0f32; STAGE_ROWS * STAGE_COLS];
    for r0 in (0..a.m).step_by(STAGE_ROWS) {
        let rows = STAGE_ROWS.min(a.m - r0);
        for c0 in (0..a.n).step_by(STAGE_COLS) {
            let cols = STAGE_COLS.min(a.n - c0);
            let block = Args {
                m: rows,
                n: cols,
                // SAFETY: r0 and c0 start packed groups inside the portion's operands.
                lhs_packed: unsafe { a.lhs_packed.add(r0 / tile.mr * lhs_stride) },
                rhs_packed: unsafe { a.rhs_packed.add(c0 / tile.nr * rhs_stride) },
                dst: stage.as_mut_ptr().cast(),
                dst_stride_row: STAGE_COLS * 4,
                dst_stride_col: 4,
                ..*a
            };
            run_f32(&block);
            for r in 0..rows {
                // SAFETY: row r0 + r of the portion holds a.n elements of 2 bytes.
                let row = unsafe { a.dst.add((r0 + r) * a.dst_stride_row + 2 * c0) };
                for (c, &v) in stage[r * STAGE_COLS..][..cols].iter().enumerate() {
                    // SAFETY: c < cols, inside the row.
                    unsafe { row.add(2 * c).cast::<u16>().write_unaligned(out.bits(v)) };
                }
            }
        }
    }
}
