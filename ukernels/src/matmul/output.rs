//! Output element types, and the f16 / bf16 forms of the f32 kernels.
//!
//! KleidiAI's f16- and bf16-output kernels compute exactly as their f32 siblings, clamp in f32
//! (the bounds are `float`), then convert with round-to-nearest-even (`FCVT`/`FCVTN`,
//! `BFCVTN`). rkai runs the f32 implementation of the same tile on blocks of the portion into an
//! on-stack f32 tile and narrows it: identical numerics, one hot loop per tile, and the extra cost
//! is one store and reload per output value against `k` multiply-accumulates.
//!
//! KleidiAI's f16 `qsi4cxp` SME2 kernels narrow first and clamp the f16 values (`FCLAMP` with
//! narrowed bounds). Narrowing is monotonic, so that equals narrowing the f32 clamp, except for a
//! signalling NaN bound, which the narrowing quiets: those kernels' `Clamp` says so, and
//! `qai8dxp::run` quiets the bounds before the f32 kernel runs.

use super::call::PackedArgs as Args;
use crate::catalog::Tile;
use crate::layout::{self, RhsLayout};

/// Element type a family writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl Output {
    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Output::F32 => 4,
            Output::F16 | Output::Bf16 => 2,
        }
    }

    /// C spelling of `sizeof` the element, for contract messages.
    pub const fn size_condition(self) -> &'static str {
        match self {
            Output::F32 => "dst_stride_col == sizeof(float)",
            Output::F16 | Output::Bf16 => "dst_stride_col == sizeof(uint16_t)",
        }
    }

    /// C spelling of the destination row check, for contract messages.
    pub const fn row_condition(self) -> &'static str {
        match self {
            Output::F32 => "dst_stride_row >= n * sizeof(float)",
            Output::F16 | Output::Bf16 => "dst_stride_row >= n * sizeof(uint16_t)",
        }
    }

    /// The 16-bit type results are narrowed to, if any.
    pub const fn narrowing(self) -> Option<Narrow> {
        match self {
            Output::F32 => None,
            Output::F16 => Some(Narrow::F16),
            Output::Bf16 => Some(Narrow::Bf16),
        }
    }
}

/// A 16-bit output type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl Narrow {
    /// Rounds `v` to this type (nearest, ties to even; NaNs stay quiet NaNs).
    #[inline]
    pub fn bits(self, v: f32) -> u16 {
        match self {
            Narrow::F16 => half::f16::from_f32(v).to_bits(),
            Narrow::Bf16 => half::bf16::from_f32(v).to_bits(),
        }
    }
}

/// Rows and columns of the staging tile: multiples of every `mr` and `nr` in the catalog except
/// the SME tiles of streaming vectors wider than 512 bits.
const STAGE_ROWS: usize = 16;
const STAGE_COLS: usize = 64;
/// The staging tile for those: multiples of the largest SME tiles (2048-bit streaming vectors:
/// `mr` up to 64, `nr` up to 256), 64 KiB of stack, used only where a tile needs it.
const LARGE_STAGE_ROWS: usize = 64;
const LARGE_STAGE_COLS: usize = 256;

/// Computes the portion `a` with `run_f32` (an f32-output implementation of `tile`) through an
/// f32 staging tile, storing the results narrowed to `out`. Blocks of the portion start at
/// packed groups, so the stage's rows and columns are multiples of the tile's `mr` and `nr`.
///
/// # Safety
/// As for `run_f32` on the whole portion; `a.dst` rows hold `a.n` elements of `out`.
pub(crate) unsafe fn run_narrowed(
    tile: &Tile,
    rhs: RhsLayout,
    out: Narrow,
    a: &Args,
    run_f32: impl Fn(&Args),
) {
    if STAGE_ROWS % tile.mr == 0 && STAGE_COLS % tile.nr == 0 {
        // SAFETY: forwarded contract; the stage's shape is a multiple of the tile's.
        unsafe {
            run_staged::<{ STAGE_ROWS * STAGE_COLS }>(
                STAGE_ROWS, STAGE_COLS, tile, rhs, out, a, run_f32,
            )
        }
    } else {
        debug_assert!(LARGE_STAGE_ROWS % tile.mr == 0 && LARGE_STAGE_COLS % tile.nr == 0);
        // SAFETY: as above.
        unsafe {
            run_staged::<{ LARGE_STAGE_ROWS * LARGE_STAGE_COLS }>(
                LARGE_STAGE_ROWS,
                LARGE_STAGE_COLS,
                tile,
                rhs,
                out,
                a,
                run_f32,
            )
        }
    }
}

/// [`run_narrowed`] through a stage of `N = stage_rows * stage_cols` floats.
///
/// # Safety
/// As for [`run_narrowed`]; `stage_rows` and `stage_cols` are multiples of `tile.mr` and
/// `tile.nr` with product `N`.
unsafe fn run_staged<const N: usize>(
    stage_rows: usize,
    stage_cols: usize,
    tile: &Tile,
    rhs: RhsLayout,
    out: Narrow,
    a: &Args,
    run_f32: impl Fn(&Args),
) {
    let lhs_stride = layout::qai8dxp::stride(a.k, tile.mr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = rhs.stride(a.k, tile.nr, tile.kr, tile.sr).unwrap_or(0);
    let mut stage = [0.0f32; N];
    for r0 in (0..a.m).step_by(stage_rows) {
        let rows = stage_rows.min(a.m - r0);
        for c0 in (0..a.n).step_by(stage_cols) {
            let cols = stage_cols.min(a.n - c0);
            let block = Args {
                m: rows,
                n: cols,
                // SAFETY: r0 and c0 start packed groups inside the portion's operands.
                lhs_packed: unsafe { a.lhs_packed.add(r0 / tile.mr * lhs_stride) },
                rhs_packed: unsafe { a.rhs_packed.add(c0 / tile.nr * rhs_stride) },
                dst: stage.as_mut_ptr().cast(),
                dst_stride_row: stage_cols * 4,
                dst_stride_col: 4,
                ..*a
            };
            run_f32(&block);
            for r in 0..rows {
                // SAFETY: row r0 + r of the portion holds a.n elements of 2 bytes.
                let row = unsafe { a.dst.add((r0 + r) * a.dst_stride_row + 2 * c0) };
                for (c, &v) in stage[r * stage_cols..][..cols].iter().enumerate() {
                    // SAFETY: c < cols, inside the row.
                    unsafe { row.add(2 * c).cast::<u16>().write_unaligned(out.bits(v)) };
                }
            }
        }
    }
}
