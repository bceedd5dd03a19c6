//! Portable implementation of the family for any tile: reads the packed formats exactly as the
//! NEON kernels do and reproduces their arithmetic, so every target gets identical results.

use super::Args;
use crate::catalog::Tile;
use crate::float;
use crate::layout;

/// Largest `nr` handled with on-stack accumulators per pass.
const MAX_COLS: usize = 64;

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`super::run`]; `tile` must be the tile the buffers were packed for.
pub unsafe fn run(tile: &Tile, a: &Args) {
    let (mr, nr) = (tile.mr, tile.nr);
    let blen = tile.kr / tile.sr;
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let lhs_stride = layout::qai8dxp::stride(a.k, mr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsi4cxp::stride(a.k, nr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_data = nr * k_int / 2;
    for i in 0..a.m {
        // SAFETY: row i is in group i / mr of the packed LHS.
        let lhs = unsafe { a.lhs_packed.add((i / mr) * lhs_stride) };
        let slot = i % mr;
        let lhs_at = |kk: usize| -> i32 {
            let at = ((kk / blen) * mr + slot) * blen + kk % blen;
            // SAFETY: at < mr * k_int.
            unsafe { *lhs.add(at) as i8 as i32 }
        };
        // SAFETY: the trailer follows the group's mr * k_int data bytes.
        let (lhs_offset, lhs_scale) = unsafe {
            let t = lhs.add(mr * k_int);
            (
                t.add(4 * slot).cast::<i32>().read_unaligned(),
                t.add(4 * (mr + slot)).cast::<f32>().read_unaligned(),
            )
        };
        for j0 in (0..a.n).step_by(nr) {
            // SAFETY: column group j0 / nr of the packed RHS.
            let rhs = unsafe { a.rhs_packed.add((j0 / nr) * rhs_stride) };
            let cols = nr.min(a.n - j0);
            for first in (0..cols).step_by(MAX_COLS) {
                let width = MAX_COLS.min(cols - first);
                let mut acc = [0i32; MAX_COLS];
                for sb in 0..rhs_data.div_ceil(nr * blen) {
                    for col in first..first + width {
                        for j in 0..blen {
                            let b = (sb * nr + col) * blen + j;
                            if b >= rhs_data {
                                break;
                            }
                            let kb = sb * blen + j;
                            let k0 = kb + 16 * (kb / 16);
                            // SAFETY: b < rhs_data.
                            let byte = unsafe { *rhs.add(b) };
                            let lo = ((byte << 4) as i8) as i32;
                            let hi = ((byte & 0xf0) as i8) as i32;
                            let mut dot = lhs_at(k0).wrapping_mul(lo);
                            if k0 + 16 < k_int {
                                dot = dot.wrapping_add(lhs_at(k0 + 16).wrapping_mul(hi));
                            }
                            acc[col - first] = acc[col - first].wrapping_add(dot);
                        }
                    }
                }
                for (c, &sum) in acc.iter().enumerate().take(width) {
                    let col = first + c;
                    // SAFETY: the group's trailer holds nr sums, scales and biases.
                    let (rsum, rscale, bias) = unsafe {
                        let t = rhs.add(rhs_data);
                        (
                            t.add(4 * col).cast::<i32>().read_unaligned(),
                            t.add(4 * (nr + col)).cast::<f32>().read_unaligned(),
                            t.add(4 * (2 * nr + col)).cast::<f32>().read_unaligned(),
                        )
                    };
                    let acc = sum.wrapping_add(lhs_offset.wrapping_mul(rsum));
                    let y = acc as f32 * (rscale * lhs_scale) + bias;
                    let y = float::clamp(y, a.clamp_min, a.clamp_max);
                    // SAFETY: (i, j0 + col) lies inside the m x n portion.
                    unsafe {
                        a.dst
                            .cast::<u8>()
                            .add(i * a.dst_stride_row + 4 * (j0 + col))
                            .cast::<f32>()
                            .write_unaligned(y)
                    };
                }
            }
        }
    }
}
