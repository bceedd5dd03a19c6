//! Output element types, and the f16 / bf16 forms of the f32 kernels.
//!
//! KleidiAI's f16- and bf16-output kernels compute exactly as their f32 siblings, clamp in f32
//! (the bounds are `float`), then convert with round-to-nearest-even (`FCVT`/`FCVTN`,
//! `BFCVTN`). rkai runs the f32 implementation of the same tile on blocks of the portion into an
//! on-stack f32 tile and narrows it: identical numerics, one hot loop per tile, and the extra cost
//! is one store and reload per output value against `k` multiply-accumulates.

use super::args::PackedArgs as Args;
use crate::kernel::Tile;

pub use crate::element::{Narrow, Output};

/// Rows and columns of the staging tile: multiples of every `mr` and `nr` in the catalog.
const STAGE_ROWS: usize = 16;
const STAGE_COLS: usize = 64;

/// Computes the portion `a` with `run_f32` (an f32-output implementation of `tile`) through an
/// f32 staging tile, storing the results narrowed to `out`. `strides` are the bytes of one packed
/// LHS group of `tile.mr` rows and of one packed RHS group of `tile.nr` columns.
///
/// # Safety
/// As for `run_f32` on the whole portion; `a.dst` rows hold `a.n` elements of `out`.
pub(crate) unsafe fn run_narrowed(
    tile: &Tile,
    (lhs_stride, rhs_stride): (usize, usize),
    out: Narrow,
    a: &Args,
    run_f32: impl Fn(&Args),
) {
    debug_assert!(STAGE_ROWS % tile.mr == 0 && STAGE_COLS % tile.nr == 0);
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
