//! Portable implementation of the family for any tile (the shared driver in `matmul::qai8dxp_portable`):
//! gathers the int8 weights of the `qsi8cxp` layout.

use super::Args;
use crate::kernel::{Epilogue, Tile};
use crate::layout;
use crate::matmul::output::Output;
use crate::matmul::qai8dxp_portable::{self, CHUNK};

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`crate::matmul::qai8dxp::run`]; `tile` must be the tile the buffers were packed for and
/// `finish` the kernel's epilogue; results are written as `output`.
pub unsafe fn run(tile: &Tile, finish: Epilogue, output: Output, a: &Args) {
    let (nr, kr) = (tile.nr, tile.kr);
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsi8cxp::stride(a.k, nr, tile.kr, tile.sr).unwrap_or(0);
    // Element (col, k) sits at (k / kr) * nr * kr + col * kr + k % kr: runs of kr values.
    let decode = |rhs: *const u8, col: usize, c: usize, w: &mut [i8; CHUNK]| {
        for (b, run) in w.chunks_mut(kr).enumerate() {
            let kk = CHUNK * c + b * kr;
            let at = (kk / kr) * nr * kr + col * kr;
            for (t, v) in run.iter_mut().enumerate() {
                // SAFETY: at + t < nr * k_int: the chunk lies inside the group's data.
                *v = unsafe { *rhs.add(at + t) } as i8;
            }
        }
    };
    // SAFETY: forwarded contract; the decoder stays inside the group's data.
    unsafe { qai8dxp_portable::run(tile, finish, output, a, rhs_stride, nr * k_int, decode) }
}
