//! Portable driver shared by the `qai8dxp` x per-channel RHS families (int4 and int8 weights):
//! reads the packed formats exactly as the NEON kernels do and reproduces their arithmetic, so
//! every target gets identical results.
//!
//! Work is organised like the assembly: per LHS row group and RHS column group, each 32-value K
//! chunk is decoded into small int8 arrays (weights as the kernels see them: int4 as 16 x value)
//! and reduced with plain dot products the compiler vectorizes. Each family supplies its RHS
//! chunk decoder; the trailers (row sums, scales, biases) have the same layout in both.

use super::call::PackedArgs as Args;
use super::output::Output;
use crate::catalog::{Epilogue, Tile};
use crate::layout;

/// Largest `mr` and `nr` handled with on-stack tiles per pass; wider groups take several passes.
const MAX_ROWS: usize = 16;
const MAX_COLS: usize = 16;
/// K values per decoded chunk.
pub(crate) const CHUNK: usize = 32;

/// Computes the portion described by `a`. `rhs_stride` and `rhs_data` are the byte sizes of one
/// packed RHS group and of its data part; `decode(rhs_group, col, chunk, out)` writes the 32
/// weights of column `col` for K chunk `chunk` as int8.
///
/// # Safety
/// See the families' `run`; `tile` must be the tile the buffers were packed for, `finish` the
/// kernel's epilogue, and `decode`
/// must read only inside the group's data.
pub(crate) unsafe fn run(
    tile: &Tile,
    finish: Epilogue,
    output: Output,
    a: &Args,
    rhs_stride: usize,
    rhs_data: usize,
    decode: impl Fn(*const u8, usize, usize, &mut [i8; CHUNK]),
) {
    let (mr, nr) = (tile.mr, tile.nr);
    let blen = tile.kr / tile.sr;
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let lhs_stride = layout::qai8dxp::stride(a.k, mr, tile.kr, tile.sr).unwrap_or(0);
    let groups_m = a.m.div_ceil(mr);
    for gm in 0..groups_m {
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
                    let mut acc = [[0i32; MAX_COLS]; MAX_ROWS];
                    let mut lq = [[0i8; CHUNK]; MAX_ROWS];
                    let mut wq = [[0i8; CHUNK]; MAX_COLS];
                    for c in 0..k_int.div_ceil(CHUNK) {
                        let base = c * CHUNK;
                        for (cc, w) in wq.iter_mut().enumerate().take(cols) {
                            decode(rhs, c0 + cc, c, w);
                        }
                        for (rr, l) in lq.iter_mut().enumerate().take(rows) {
                            // SAFETY: decode_lhs_chunk reads values < mr * k_int of this group.
                            unsafe { decode_lhs_chunk(lhs, mr, blen, r0 + rr, base, k_int, l) };
                        }
                        for rr in 0..rows {
                            for cc in 0..cols {
                                acc[rr][cc] = acc[rr][cc].wrapping_add(dot32(&lq[rr], &wq[cc]));
                            }
                        }
                    }
                    // SAFETY: trailers follow the data of each group.
                    unsafe {
                        epilogue(
                            a,
                            tile,
                            finish,
                            output,
                            lhs,
                            rhs,
                            k_int,
                            rhs_data,
                            gm * mr + r0,
                            r0,
                            rows,
                            j0,
                            c0,
                            cols,
                            &acc,
                        )
                    };
                }
            }
        }
    }
}

/// Gathers the 32 LHS values of row `slot` starting at K `base` (zero past `k_int`).
///
/// # Safety
/// `lhs` points at a packed group of `mr * k_int` data bytes.
#[inline]
pub(crate) unsafe fn decode_lhs_chunk(
    lhs: *const u8,
    mr: usize,
    blen: usize,
    slot: usize,
    base: usize,
    k_int: usize,
    l: &mut [i8; CHUNK],
) {
    let end = CHUNK.min(k_int - base);
    let mut i = 0;
    while i < end {
        let kk = base + i;
        let run_start = ((kk / blen) * mr + slot) * blen + kk % blen;
        let run = (blen - kk % blen).min(end - i);
        for t in 0..run {
            // SAFETY: run_start + t < mr * k_int.
            l[i + t] = unsafe { *lhs.add(run_start + t) } as i8;
        }
        i += run;
    }
    l[end..].fill(0);
}

/// Dot product of two 32-value int8 vectors in i32 (no overflow: |sum| <= 32 * 128 * 128).
#[inline]
pub(crate) fn dot32(l: &[i8; CHUNK], w: &[i8; CHUNK]) -> i32 {
    l.iter().zip(w).map(|(&x, &y)| x as i32 * y as i32).sum()
}

/// Applies offsets, scales, bias and clamp to a finished tile and stores it as `output`
/// (16-bit types rounded to nearest even, as the kernels' `FCVT`/`BFCVT`).
///
/// # Safety
/// `lhs`/`rhs` point at their groups; the tile lies inside the portion.
#[allow(clippy::too_many_arguments)]
unsafe fn epilogue(
    a: &Args,
    tile: &Tile,
    finish: Epilogue,
    output: Output,
    lhs: *const u8,
    rhs: *const u8,
    k_int: usize,
    rhs_data: usize,
    row0: usize,
    slot0: usize,
    rows: usize,
    j0: usize,
    c0: usize,
    cols: usize,
    acc: &[[i32; MAX_COLS]; MAX_ROWS],
) {
    let (mr, nr) = (tile.mr, tile.nr);
    let read_i32 = |p: *const u8| unsafe { p.cast::<i32>().read_unaligned() };
    let read_f32 = |p: *const u8| unsafe { p.cast::<f32>().read_unaligned() };
    // SAFETY (for the reads below): trailers of mr and nr entries follow each group's data.
    let lt = unsafe { lhs.add(mr * k_int) };
    let rt = unsafe { rhs.add(rhs_data) };
    for rr in 0..rows {
        let slot = slot0 + rr;
        let (lhs_offset, lhs_scale) = unsafe {
            (
                read_i32(lt.add(4 * slot)),
                read_f32(lt.add(4 * (mr + slot))),
            )
        };
        for cc in 0..cols {
            let col = c0 + cc;
            let (rsum, rscale, bias) = unsafe {
                (
                    read_i32(rt.add(4 * col)),
                    read_f32(rt.add(4 * (nr + col))),
                    read_f32(rt.add(4 * (2 * nr + col))),
                )
            };
            let acc = acc[rr][cc].wrapping_add(lhs_offset.wrapping_mul(rsum));
            let y = finish
                .scale_bias
                .apply_each(acc as f32, rscale, lhs_scale, bias);
            let y = finish.clamp.apply(y, a.clamp_min, a.clamp_max);
            // SAFETY: (row0 + rr, j0 + col) lies inside the m x n portion.
            let at = unsafe {
                a.dst
                    .add((row0 + rr) * a.dst_stride_row + output.size() * (j0 + col))
            };
            match output.narrowing() {
                // SAFETY: `at` holds one element of the output type.
                None => unsafe { at.cast::<f32>().write_unaligned(y) },
                Some(narrow) => unsafe { at.cast::<u16>().write_unaligned(narrow.bits(y)) },
            }
        }
    }
}
