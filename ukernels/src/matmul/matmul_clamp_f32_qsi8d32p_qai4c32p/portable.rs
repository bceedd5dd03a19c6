//! Portable implementation of the families for any tile (f32 output): per LHS row group and RHS
//! column group, each block's integer dot products are formed from 32-value sub-blocks decoded
//! into small int8 arrays (weights as the kernels see them: 16 x value), then folded into f32
//! accumulators with the block's parameters in the order the module documentation gives.

use super::Args;
use crate::catalog::Tile;
use crate::float;
use crate::layout;

/// Largest `mr` and `nr` handled with on-stack tiles per pass; wider groups take several passes.
const MAX_ROWS: usize = 16;
const MAX_COLS: usize = 16;
/// Values per decoded sub-block: packed bytes `16s..16s + 16` of a column hold values
/// `32s..32s + 16` (low nibbles) and `32s + 16..32s + 32` (high nibbles).
const SUB: usize = 32;

/// f32 at `p`.
///
/// # Safety
/// `p` is readable for 4 bytes.
#[inline]
unsafe fn read_f32(p: *const u8) -> f32 {
    // SAFETY: forwarded.
    unsafe { p.cast::<f32>().read_unaligned() }
}

/// One block's contribution to an accumulator, in the kernels' order.
#[inline]
pub fn fold_block(acc: f32, dot: i32, rs16: f32, rz: f32, ls: f32, lsum: f32) -> f32 {
    let acc = libm::fmaf(rz, lsum, acc);
    libm::fmaf(dot as f32, rs16 * ls, acc)
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`super::run`]; `tile` must be the tile the buffers were packed for.
pub unsafe fn run(tile: &Tile, a: &Args) {
    let (mr, nr, bl) = (tile.mr, tile.nr, a.bl);
    let kbl = tile.kr / tile.sr;
    let blocks = a.k / bl;
    let lhs_stride = layout::qsi8d32pscalef32::stride(a.k, bl, mr).unwrap_or(0);
    let rhs_stride = layout::qai4c32p::stride(a.k, nr, bl).unwrap_or(0);
    let lhs_block = mr * (bl + layout::qsi8d32pscalef32::PARAM_BYTES);
    let rhs_block = nr * (bl / 2 + layout::qai4c32p::PARAM_BYTES);
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
                        let mut dots = [[0i32; MAX_COLS]; MAX_ROWS];
                        for s in 0..bl / SUB {
                            for (cc, w) in wq.iter_mut().enumerate().take(cols) {
                                let col = c0 + cc;
                                for t in 0..SUB / 2 {
                                    let i = 16 * s + t;
                                    let at = (i / kbl) * nr * kbl + col * kbl + i % kbl;
                                    // SAFETY: byte i < bl / 2 of the column in this block.
                                    let byte = unsafe { *rb.add(at) };
                                    w[t] = (byte << 4) as i8;
                                    w[SUB / 2 + t] = (byte & 0xf0) as i8;
                                }
                            }
                            for (rr, l) in lq.iter_mut().enumerate().take(rows) {
                                let slot = r0 + rr;
                                for (t, v) in l.iter_mut().enumerate() {
                                    let kk = SUB * s + t;
                                    let at = (kk / kbl) * mr * kbl + slot * kbl + kk % kbl;
                                    // SAFETY: value kk < bl of the row in this block.
                                    *v = unsafe { *lb.add(at) } as i8;
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
                        // SAFETY: the block's parameters follow its values: LHS sums then
                        // scales, RHS zero offsets then scales.
                        let (lp, rp) = unsafe { (lb.add(mr * bl), rb.add(nr * bl / 2)) };
                        for rr in 0..rows {
                            let slot = r0 + rr;
                            // SAFETY: see above.
                            let (lsum, ls) = unsafe {
                                (
                                    read_f32(lp.add(4 * slot)),
                                    read_f32(lp.add(4 * (mr + slot))),
                                )
                            };
                            for cc in 0..cols {
                                let col = c0 + cc;
                                // SAFETY: see above.
                                let (rz, rs16) = unsafe {
                                    (read_f32(rp.add(4 * col)), read_f32(rp.add(4 * (nr + col))))
                                };
                                acc[rr][cc] =
                                    fold_block(acc[rr][cc], dots[rr][cc], rs16, rz, ls, lsum);
                            }
                        }
                    }
                    // SAFETY: the biases follow the group's blocks.
                    let biases = unsafe { rhs.add(blocks * rhs_block) };
                    for (rr, acc_row) in acc.iter().enumerate().take(rows) {
                        let row = gm * mr + r0 + rr;
                        for (cc, &v) in acc_row.iter().enumerate().take(cols) {
                            // SAFETY: bias of column c0 + cc of the group.
                            let bias = unsafe { read_f32(biases.add(4 * (c0 + cc))) };
                            let y = float::clamp(v + bias, a.clamp_min, a.clamp_max);
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
