//! Portable implementation of the families for any tile and output type: per LHS row group and
//! RHS column group, each block's integer dot products are formed from 32-value sub-blocks
//! decoded into small int8 arrays (weights as the kernel sees them: `16 x (u - 8)` in the NEON
//! form, `u - 8` in the SME2 `ps1s0` form), then folded into f32 accumulators with the block's
//! parameters in the order the module documentation gives, and stored in the output type.

use super::Args;
use crate::kernel::Tile;
use crate::layout;
use crate::matmul::passes::{CHUNK, MAX_COLS, MAX_ROWS, accumulate, for_each_pass};
use crate::reference::qai4c32p::Arithmetic;

/// Values per decoded sub-block (the NEON form's unit: packed bytes `16s..16s + 16` of a column
/// hold values `32s..32s + 16` in their low nibbles and `32s + 16..32s + 32` in their high ones).
const SUB: usize = CHUNK;

/// f32 at `p`.
///
/// # Safety
/// `p` is readable for 4 bytes.
#[inline]
unsafe fn read_f32(p: *const u8) -> f32 {
    // SAFETY: forwarded.
    unsafe { p.cast::<f32>().read_unaligned() }
}

/// One block's contribution to an accumulator, in `how`'s order: `dot` with the weights as
/// decoded and `rs` the scale as packed; `first` for the row's first block.
#[inline]
#[allow(clippy::too_many_arguments)]
fn fold_block(
    how: &Arithmetic,
    first: bool,
    acc: f32,
    dot: i32,
    rs: f32,
    rz: f32,
    ls: f32,
    lsum: f32,
) -> f32 {
    let acc = how.finish.block_fold.apply(first, rz, lsum, acc);
    let acc = libm::fmaf(dot as f32, rs * ls, acc);
    how.finish.partials.keep(acc, how.output)
}

/// Decodes K values `32 s .. 32 s + 32` of column `col` from a block's data (`nr` columns,
/// `kbl = kr / sr` bytes per column chunk in the NEON form).
///
/// # Safety
/// `data` holds the block's `nr * bl / 2` data bytes, which include these.
#[inline]
unsafe fn decode_sub_block(
    data: *const u8,
    sequential: bool,
    (nr, kbl): (usize, usize),
    col: usize,
    s: usize,
    w: &mut [i8; SUB],
) {
    for t in 0..SUB / 2 {
        if sequential {
            // ps1s0: per 4-value K step, nr columns x 2 bytes, each byte two consecutive values
            // (the first in its low nibble), unsigned.
            let kk = SUB * s + 2 * t;
            let at = (kk / 4) * nr * 2 + col * 2 + (kk % 4) / 2;
            // SAFETY: byte of value kk < bl of the column in this block.
            let byte = unsafe { *data.add(at) };
            w[2 * t] = (byte & 0x0f) as i8 - 8;
            w[2 * t + 1] = (byte >> 4) as i8 - 8;
        } else {
            // NEON: byte 16 s + t holds values 32 s + t (low) and 32 s + 16 + t (high), signed;
            // the kernels take them times 16 (the scales are / 16).
            let i = 16 * s + t;
            let at = (i / kbl) * nr * kbl + col * kbl + i % kbl;
            // SAFETY: byte i < bl / 2 of the column in this block.
            let byte = unsafe { *data.add(at) };
            w[t] = (byte << 4) as i8;
            w[SUB / 2 + t] = (byte & 0xf0) as i8;
        }
    }
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`super::run`]; `tile` must be the tile the buffers were packed for and `how` the
/// kernel's arithmetic; `a.dst` rows hold `a.n` elements of `how.output`.
pub unsafe fn run(tile: &Tile, how: &Arithmetic, a: &Args) {
    let (mr, nr, bl) = (tile.mr, tile.nr, a.bl);
    let kbl = tile.kr / tile.sr;
    let blocks = a.k / bl;
    let lhs_stride = layout::qsi8d32pscalef32::stride(a.k, bl, mr).unwrap_or(0);
    let rhs_stride = layout::qai4c32p::stride(a.k, nr, bl).unwrap_or(0);
    let lhs_block = mr * (bl + layout::qsi8d32pscalef32::PARAM_BYTES);
    let rhs_block = nr * (bl / 2 + layout::qai4c32p::PARAM_BYTES);
    for_each_pass(a, (mr, nr), (lhs_stride, rhs_stride), |p| {
        let mut acc = [[0.0f32; MAX_COLS]; MAX_ROWS];
        let mut lq = [[0i8; CHUNK]; MAX_ROWS];
        let mut wq = [[0i8; CHUNK]; MAX_COLS];
        for b in 0..blocks {
            // SAFETY: block b of both groups.
            let (lb, rb) = unsafe { (p.lhs.add(b * lhs_block), p.rhs.add(b * rhs_block)) };
            let mut dots = [[0i32; MAX_COLS]; MAX_ROWS];
            for s in 0..bl / SUB {
                for (cc, w) in wq.iter_mut().enumerate().take(p.cols) {
                    // SAFETY: sub-block s lies inside the block's data.
                    unsafe { decode_sub_block(rb, how.sequential, (nr, kbl), p.c0 + cc, s, w) };
                }
                for (rr, l) in lq.iter_mut().enumerate().take(p.rows) {
                    let slot = p.r0 + rr;
                    for (t, v) in l.iter_mut().enumerate() {
                        let kk = SUB * s + t;
                        let at = (kk / kbl) * mr * kbl + slot * kbl + kk % kbl;
                        // SAFETY: value kk < bl of the row in this block.
                        *v = unsafe { *lb.add(at) } as i8;
                    }
                }
                accumulate(&mut dots, &lq, &wq, &p);
            }
            // SAFETY: the block's parameters follow its values: LHS sums then
            // scales, RHS zero offsets then scales.
            let (lp, rp) = unsafe { (lb.add(mr * bl), rb.add(nr * bl / 2)) };
            for rr in 0..p.rows {
                let slot = p.r0 + rr;
                // SAFETY: see above.
                let (lsum, ls) = unsafe {
                    (
                        read_f32(lp.add(4 * slot)),
                        read_f32(lp.add(4 * (mr + slot))),
                    )
                };
                for cc in 0..p.cols {
                    let col = p.c0 + cc;
                    // SAFETY: see above.
                    let (rz, rs) =
                        unsafe { (read_f32(rp.add(4 * col)), read_f32(rp.add(4 * (nr + col)))) };
                    let (dot, acc) = (dots[rr][cc], &mut acc[rr][cc]);
                    *acc = fold_block(how, b == 0, *acc, dot, rs, rz, ls, lsum);
                }
            }
        }
        // SAFETY: the biases follow the group's blocks.
        let biases = unsafe { p.rhs.add(blocks * rhs_block) };
        for (rr, acc_row) in acc.iter().enumerate().take(p.rows) {
            let row = p.group * mr + p.r0 + rr;
            for (cc, &v) in acc_row.iter().enumerate().take(p.cols) {
                // SAFETY: bias of column p.c0 + cc of the group.
                let bias = unsafe { read_f32(biases.add(4 * (p.c0 + cc))) };
                let y = how.finish.clamp.apply(v + bias, a.clamp_min, a.clamp_max);
                let es = how.output.size();
                // SAFETY: (row, p.j0 + p.c0 + cc) lies inside the m x n portion.
                let at = unsafe { a.dst.add(row * a.dst_stride_row + es * (p.j0 + p.c0 + cc)) };
                // SAFETY: as above; the element has the output's size.
                unsafe {
                    match how.output.narrowing() {
                        None => at.cast::<f32>().write_unaligned(y),
                        Some(narrow) => at.cast::<u16>().write_unaligned(narrow.bits(y)),
                    }
                };
            }
        }
    });
}
