//! Portable implementation of the family for any tile: per LHS row group and RHS column group,
//! each block's integer dot products are formed from 32-value chunks decoded like the
//! per-channel format, then folded into f32 accumulators with the block scales.

use super::Args;
use crate::kernel::{Epilogue, Tile};
use crate::layout;
use crate::matmul::matmul_clamp_f32_qai8dxp_qsi4cxp::portable::{
    decode_chunk, decode_chunk_sequential,
};
use crate::matmul::passes::{MAX_COLS, MAX_ROWS, accumulate, for_each_pass};
use crate::matmul::qai8dxp_portable::{CHUNK, decode_lhs_chunk};

/// Chunk `c` (K `32c .. 32c + 32` of a block) of column `col` from a block's data in the
/// sequential-nibble (`ps1s0`) order with `kr = 4`, the per-channel decoder's layout. Values
/// come out times 16, like [`decode_chunk`]'s.
///
/// # Safety
/// `data` holds the block's data (at least chunks `0..=c`).
#[inline]
unsafe fn decode_sequential_chunk(
    data: *const u8,
    nr: usize,
    col: usize,
    c: usize,
    w: &mut [i8; CHUNK],
) {
    // SAFETY: forwarded contract.
    unsafe { decode_chunk_sequential(data, nr, 4, col, c, w) };
    for v in w.iter_mut() {
        *v = ((*v as u8) << 4) as i8;
    }
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`crate::matmul::qai8dxp::run`]; `tile` must be the tile the buffers were packed for,
/// `finish` the kernel's epilogue and `sequential` whether its data is in the `ps1s0` order.
pub unsafe fn run(tile: &Tile, finish: Epilogue, sequential: bool, a: &Args) {
    let (mr, nr, bl) = (tile.mr, tile.nr, a.bl);
    let blen = tile.kr / tile.sr;
    let blocks = a.k / bl;
    let lhs_stride = layout::qai8dxp::stride(a.k, mr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsi4c32p::stride(a.k, nr, bl).unwrap_or(0);
    let block_stride = layout::qsi4c32p::block_stride(nr, bl).unwrap_or(0);
    let read_i32 = |p: *const u8| unsafe { p.cast::<i32>().read_unaligned() };
    let read_f32 = |p: *const u8| unsafe { p.cast::<f32>().read_unaligned() };
    for_each_pass(a, (mr, nr), (lhs_stride, rhs_stride), |p| {
        // SAFETY: the LHS group's trailer follows its mr * k data bytes.
        let lhs_trailer = unsafe { p.lhs.add(mr * a.k) };
        // SAFETY: the RHS group's sums and biases follow its blocks.
        let rhs_trailer = unsafe { p.rhs.add(blocks * block_stride) };
        let mut acc = [[0.0f32; MAX_COLS]; MAX_ROWS];
        let mut lq = [[0i8; CHUNK]; MAX_ROWS];
        let mut wq = [[0i8; CHUNK]; MAX_COLS];
        for b in 0..blocks {
            // SAFETY: block b of the group: data, then nr bf16 scales.
            let block = unsafe { p.rhs.add(b * block_stride) };
            let mut dots = [[0i32; MAX_COLS]; MAX_ROWS];
            for c in 0..bl / CHUNK {
                for (cc, w) in wq.iter_mut().enumerate().take(p.cols) {
                    // SAFETY: chunk c lies inside the block's data.
                    unsafe {
                        if sequential {
                            decode_sequential_chunk(block, nr, p.c0 + cc, c, w)
                        } else {
                            decode_chunk(block, nr, blen, p.c0 + cc, c, w)
                        }
                    };
                }
                for (rr, l) in lq.iter_mut().enumerate().take(p.rows) {
                    // SAFETY: reads values < mr * k of this LHS group.
                    unsafe {
                        decode_lhs_chunk(p.lhs, mr, blen, p.r0 + rr, b * bl + c * CHUNK, a.k, l)
                    };
                }
                accumulate(&mut dots, &lq, &wq, &p);
            }
            for cc in 0..p.cols {
                // SAFETY: the block's nr scales follow its nr * bl / 2 data bytes.
                let raw = unsafe {
                    block
                        .add(nr * bl / 2 + 2 * (p.c0 + cc))
                        .cast::<u16>()
                        .read_unaligned()
                };
                let d = f32::from_bits((raw as u32) << 16);
                for rr in 0..p.rows {
                    // SCVTF #4: the weights were 16x their value; /16 is exact.
                    let f = dots[rr][cc] as f32 * 0.0625;
                    acc[rr][cc] = finish.block_fold.apply(b == 0, f, d, acc[rr][cc]);
                }
            }
        }
        for (rr, acc_row) in acc.iter().enumerate().take(p.rows) {
            let slot = p.r0 + rr;
            // SAFETY: the LHS trailer holds mr offsets then mr scales.
            let lhs_offset = read_i32(unsafe { lhs_trailer.add(4 * slot) });
            let lhs_scale = read_f32(unsafe { lhs_trailer.add(4 * (mr + slot)) });
            for (cc, &acc) in acc_row.iter().enumerate().take(p.cols) {
                let col = p.c0 + cc;
                // SAFETY: the RHS trailer holds nr sums then nr biases.
                let rsum = read_f32(unsafe { rhs_trailer.add(4 * col) });
                let bias = read_f32(unsafe { rhs_trailer.add(4 * (nr + col)) });
                let v = libm::fmaf(rsum, lhs_offset as f32, acc);
                let y = finish.scale_bias.apply(v, lhs_scale, bias);
                let y = finish.clamp.apply(y, a.clamp_min, a.clamp_max);
                // SAFETY: (p.group * mr + slot, p.j0 + col) lies inside the m x n portion.
                unsafe {
                    a.dst
                        .add((p.group * mr + slot) * a.dst_stride_row + 4 * (p.j0 + col))
                        .cast::<f32>()
                        .write_unaligned(y)
                };
            }
        }
    });
}
