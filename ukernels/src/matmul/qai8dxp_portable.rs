//! Portable driver shared by the `qai8dxp` x per-channel RHS families (int4 and int8 weights):
//! reads the packed formats exactly as the NEON kernels do and reproduces their arithmetic, so
//! every target gets identical results.
//!
//! Work is organised like the assembly: per LHS row group and RHS column group, each 32-value K
//! chunk is decoded into small int8 arrays (weights as the kernels see them: int4 as 16 x value)
//! and reduced with plain dot products the compiler vectorizes. Each family supplies its RHS
//! chunk decoder; the trailers (row sums, scales, biases) have the same layout in both.

use super::args::PackedArgs as Args;
use super::output::Output;
use crate::kernel::{Epilogue, Tile};
use crate::layout;
use crate::matmul::passes::{MAX_COLS, MAX_ROWS, Pass, accumulate, for_each_pass};

pub(crate) use super::passes::CHUNK;

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
    for_each_pass(a, (mr, nr), (lhs_stride, rhs_stride), |p| {
        let mut acc = [[0i32; MAX_COLS]; MAX_ROWS];
        let mut lq = [[0i8; CHUNK]; MAX_ROWS];
        let mut wq = [[0i8; CHUNK]; MAX_COLS];
        for c in 0..k_int.div_ceil(CHUNK) {
            let base = c * CHUNK;
            for (cc, w) in wq.iter_mut().enumerate().take(p.cols) {
                decode(p.rhs, p.c0 + cc, c, w);
            }
            for (rr, l) in lq.iter_mut().enumerate().take(p.rows) {
                // SAFETY: decode_lhs_chunk reads values < mr * k_int of this group.
                unsafe { decode_lhs_chunk(p.lhs, mr, blen, p.r0 + rr, base, k_int, l) };
            }
            accumulate(&mut acc, &lq, &wq, &p);
        }
        // SAFETY: trailers follow the data of each group.
        unsafe { epilogue(a, tile, (finish, output), (k_int, rhs_data), &p, &acc) };
    });
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

/// Applies offsets, scales, bias and clamp to a finished tile and stores it as `output`
/// (16-bit types rounded to nearest even, as the kernels' `FCVT`/`BFCVT`).
///
/// # Safety
/// The pass lies inside the portion `a` (its `lhs`/`rhs` at their groups).
unsafe fn epilogue(
    a: &Args,
    tile: &Tile,
    (finish, output): (Epilogue, Output),
    (k_int, rhs_data): (usize, usize),
    p: &Pass,
    acc: &[[i32; MAX_COLS]; MAX_ROWS],
) {
    let (mr, nr) = (tile.mr, tile.nr);
    let read_i32 = |p: *const u8| unsafe { p.cast::<i32>().read_unaligned() };
    let read_f32 = |p: *const u8| unsafe { p.cast::<f32>().read_unaligned() };
    // SAFETY (for the reads below): trailers of mr and nr entries follow each group's data.
    let lt = unsafe { p.lhs.add(mr * k_int) };
    let rt = unsafe { p.rhs.add(rhs_data) };
    let row0 = p.group * mr + p.r0;
    for rr in 0..p.rows {
        let slot = p.r0 + rr;
        let (lhs_offset, lhs_scale) = unsafe {
            (
                read_i32(lt.add(4 * slot)),
                read_f32(lt.add(4 * (mr + slot))),
            )
        };
        for cc in 0..p.cols {
            let col = p.c0 + cc;
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
                    .add((row0 + rr) * a.dst_stride_row + output.size() * (p.j0 + col))
            };
            match output.narrowing() {
                // SAFETY: `at` holds one element of the output type.
                None => unsafe { at.cast::<f32>().write_unaligned(y) },
                Some(narrow) => unsafe { at.cast::<u16>().write_unaligned(narrow.bits(y)) },
            }
        }
    }
}
