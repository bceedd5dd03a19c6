//! Portable implementation of the family for any tile (the shared driver in `matmul::qai8dxp_portable`):
//! decodes the `s16s0` int4 layout into the 16 x value int8 weights the kernels compute with.

use super::Args;
use crate::catalog::{Epilogue, Tile};
use crate::layout;
use crate::matmul::output::Output;
use crate::matmul::qai8dxp_portable::{self, CHUNK};

/// Decodes the 32 weights of column `col` in 32-value chunk `c` of `s16s0` int4 data (`nr`
/// columns, `blen`-byte runs) as `16 x value`: column bytes `16c .. 16c + 16` hold K = `32c + i`
/// (low nibble) and `32c + 16 + i` (high), in runs of `blen` bytes (one block per super-block).
///
/// # Safety
/// `data` holds the chunk (the bytes of chunks `0..=c` of the group).
#[inline]
pub(crate) unsafe fn decode_chunk(
    data: *const u8,
    nr: usize,
    blen: usize,
    col: usize,
    c: usize,
    w: &mut [i8; CHUNK],
) {
    let mut i = 0;
    while i < CHUNK / 2 {
        let kb = 16 * c + i;
        let run_start = ((kb / blen) * nr + col) * blen + kb % blen;
        let run = (blen - kb % blen).min(CHUNK / 2 - i);
        for t in 0..run {
            // SAFETY: run_start + t lies inside chunk c of the data.
            let byte = unsafe { *data.add(run_start + t) };
            w[i + t] = (byte << 4) as i8;
            w[CHUNK / 2 + i + t] = (byte & 0xf0) as i8;
        }
        i += run;
    }
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`crate::matmul::qai8dxp::run`]; `tile` must be the tile the buffers were packed for and
/// `finish` the kernel's epilogue; results are written as `output`.
pub unsafe fn run(tile: &Tile, finish: Epilogue, output: Output, a: &Args) {
    let nr = tile.nr;
    let blen = tile.kr / tile.sr;
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsi4cxp::stride(a.k, nr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_data = nr * k_int / 2;
    let decode = |rhs: *const u8, col: usize, c: usize, w: &mut [i8; CHUNK]| {
        // SAFETY: chunk c lies inside the group's data.
        unsafe { decode_chunk(rhs, nr, blen, col, c, w) }
    };
    // SAFETY: forwarded contract; the decoder stays inside the group's data.
    unsafe { qai8dxp_portable::run(tile, finish, output, a, rhs_stride, rhs_data, decode) }
}
