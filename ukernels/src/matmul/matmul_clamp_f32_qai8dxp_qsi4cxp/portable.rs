//! Portable implementation of the family for any tile (the shared driver in `matmul::qai8dxp_portable`):
//! decodes the `s16s0` int4 layout into the 16 x value int8 weights the kernels compute with, or
//! the sequential-nibble layout of KleidiAI's SME2 kernels into plain int8 values (its row sums
//! and scales are unscaled to match).

use super::Args;
use crate::kernel::{Epilogue, Tile};
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

/// Decodes the 32 weights of column `col` in 32-value chunk `c` of sequential-nibble int4 data
/// (`rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon`: per `kr`-value K block, `nr` columns x `kr / 2`
/// bytes, K value `2i` in the low nibble and `2i + 1` in the high one) as plain int8 values.
///
/// # Safety
/// `data` holds the chunk (the bytes of chunks `0..=c` of the group).
#[inline]
pub(crate) unsafe fn decode_chunk_sequential(
    data: *const u8,
    nr: usize,
    kr: usize,
    col: usize,
    c: usize,
    w: &mut [i8; CHUNK],
) {
    for (t, v) in w.iter_mut().enumerate() {
        let kk = CHUNK * c + t;
        let at = (kk / kr) * nr * (kr / 2) + col * (kr / 2) + (kk % kr) / 2;
        // SAFETY: byte `at` lies inside chunk c of the data.
        let byte = unsafe { *data.add(at) };
        *v = ((byte >> (4 * (kk % 2))) << 4) as i8 >> 4;
    }
}

/// Computes the portion described by `a`; `sequential` says the RHS has the sequential-nibble
/// layout (else `s16s0`).
///
/// # Safety
/// See [`crate::matmul::qai8dxp::run`]; `tile` must be the tile the buffers were packed for and
/// `finish` the kernel's epilogue; `sequential` says whether the weights are in the
/// sequential-nibble layout; results are written as `output`.
pub unsafe fn run(tile: &Tile, finish: Epilogue, output: Output, sequential: bool, a: &Args) {
    let nr = tile.nr;
    let blen = tile.kr / tile.sr;
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsi4cxp::stride(a.k, nr, tile.kr, tile.sr).unwrap_or(0);
    let rhs_data = nr * k_int / 2;
    let decode = |rhs: *const u8, col: usize, c: usize, w: &mut [i8; CHUNK]| {
        // SAFETY: chunk c lies inside the group's data.
        unsafe {
            match sequential {
                true => decode_chunk_sequential(rhs, nr, tile.kr, col, c, w),
                false => decode_chunk(rhs, nr, blen, col, c, w),
            }
        }
    };
    // SAFETY: forwarded contract; the decoder stays inside the group's data.
    unsafe { qai8dxp_portable::run(tile, finish, output, a, rhs_stride, rhs_data, decode) }
}
