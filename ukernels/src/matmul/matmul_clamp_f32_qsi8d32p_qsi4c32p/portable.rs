//! Portable implementation of the family for any tile: per LHS row group and RHS column group,
//! each block's integer dot products are formed from 32-value sub-blocks decoded into small int8
//! arrays (weights as the kernels see them: 16 x value), then folded into f32 accumulators with
//! the block's scales exactly as the NEON code does.

use super::Args;
use crate::catalog::Tile;
use crate::float;
use crate::layout;

/// Largest `mr` and `nr` handled with on-stack tiles per pass; wider groups take several passes.
const MAX_ROWS: usize = 16;
const MAX_COLS: usize = 16;
/// Values per decoded sub-block: 16 low nibbles (block values `16c..`) and 16 high nibbles
/// (block values `bl/2 + 16c..`).
const SUB: usize = 32;

/// f16 bits at `p` widened to f32 (exact, like `FCVTL`).
///
/// # Safety
/// `p` is readable for 2 bytes.
#[inline]
unsafe fn read_f16(p: *const u8) -> f32 {
    // SAFETY: forwarded.
    half::f16::from_bits(unsafe { p.cast::<u16>().read_unaligned() }).to_f32()
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`super::run`]; `tile` must be the tile the buffers were packed for.
pub unsafe fn run(tile: &Tile, a: &Args) {
    let (mr, nr, bl) = (tile.mr, tile.nr, a.bl);
    let kbl = tile.kr / tile.sr;
    let seg = tile.kr / 2;
    let blocks = a.k / bl;
    let lhs_stride = layout::qsi8d32p::stride(a.k, bl, mr).unwrap_or(0);
    let rhs_stride = layout::qsi4c32pf16::stride(a.k, nr, bl).unwrap_or(0);
    let lhs_block = mr * (bl + 2);
    let rhs_block = nr * (bl / 2 + 2);
    for gm in 0..a.m.div_ceil(mr) {
        // SAFETY: group gm of the packed LHS.
        let lhs = unsafe { a.lhs_packed.add(gm * lhs_stride) };
        let group_rows = mr.min(a.m - gm * mr);
        for j0 in (0..a.n).step_by(nr) {
            // SAFETY: column group j0 / nr of the packed RHS.
            let rhs = unsafe { a.rhs_packed.add((j0 / nr) * rhs_stride) };
            let group_cols = nr.min(a.n - j0);
            for r0 in (0..group_rows).step_by(MAX_ROWS) {
                let rows = MAX_ROWS.min(group_rows - r0);
                for c0 in (0..group_cols).step_by(MAX_COLS) {
                    let cols = MAX_COLS.min(group_cols - c0);
                    let mut acc = [[0.0f32; MAX_COLS]; MAX_ROWS];
                    let mut lq = [[0i8; SUB]; MAX_ROWS];
                    let mut wq = [[0i8; SUB]; MAX_COLS];
                    for b in 0..blocks {
                        // SAFETY: block b of both groups.
                        let (lb, rb) = unsafe { (lhs.add(b * lhs_block), rhs.add(b * rhs_block)) };
                        let (lvals, rvals) = unsafe { (lb.add(2 * mr), rb.add(2 * nr)) };
                        let mut dots = [[0i32; MAX_COLS]; MAX_ROWS];
                        for c in 0..bl / SUB {
                            for (cc, w) in wq.iter_mut().enumerate().take(cols) {
                                let col = c0 + cc;
                                for t in 0..SUB / 2 {
                                    let j = 16 * c + t;
                                    let at = (j / seg) * nr * seg + col * seg + j % seg;
                                    // SAFETY: byte j < bl / 2 of the column in this block.
                                    let byte = unsafe { *rvals.add(at) };
                                    w[t] = (byte << 4) as i8;
                                    w[SUB / 2 + t] = (byte & 0xf0) as i8;
                                }
                            }
                            for (rr, l) in lq.iter_mut().enumerate().take(rows) {
                                let slot = r0 + rr;
                                for (t, v) in l.iter_mut().enumerate() {
                                    let kk = if t < SUB / 2 {
                                        16 * c + t
                                    } else {
                                        bl / 2 + 16 * c + t - SUB / 2
                                    };
                                    let at = (kk / kbl) * mr * kbl + slot * kbl + kk % kbl;
                                    // SAFETY: value kk < bl of the row in this block.
                                    *v = unsafe { *lvals.add(at) } as i8;
                                }
                            }
                            for rr in 0..rows {
                                for cc in 0..cols {
                                    let d: i32 = lq[rr]
                                        .iter()
                                        .zip(&wq[cc])
                                        .map(|(&x, &y)| x as i32 * y as i32)
                                        .sum();
                                    dots[rr][cc] = dots[rr][cc].wrapping_add(d);
                                }
                            }
                        }
                        for rr in 0..rows {
                            // SAFETY: the block's mr LHS scales come first.
                            let dl = unsafe { read_f16(lb.add(2 * (r0 + rr))) };
                            for cc in 0..cols {
                                // SAFETY: the block's nr RHS scales come first.
                                let dr = unsafe { read_f16(rb.add(2 * (c0 + cc))) };
                                // SCVTF #4: the weights were 16x their value; /16 is exact.
                                let f = dots[rr][cc] as f32 * 0.0625;
                                acc[rr][cc] = libm::fmaf(f, dr * dl, acc[rr][cc]);
                            }
                        }
                    }
                    for (rr, acc_row) in acc.iter().enumerate().take(rows) {
                        let row = gm * mr + r0 + rr;
                        for (cc, &v) in acc_row.iter().enumerate().take(cols) {
                            let y = float::clamp(v, a.clamp_min, a.clamp_max);
                            // SAFETY: (row, j0 + c0 + cc) lies inside the m x n portion.
                            unsafe {
                                a.dst
                                    .add(row * a.dst_stride_row + 4 * (j0 + c0 + cc))
                                    .cast::<f32>()
                                    .write_unaligned(y)
                            };
                        }
                    }
                }
            }
        }
    }
}
