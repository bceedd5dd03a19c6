//! Portable implementation of the family (the shared per-channel driver in
//! `matmul::qai8dxp_portable`): decodes either 2-bit interleave into the int8 weights the kernels
//! compute with (the table's low bytes).

use super::Args;
use crate::kernel::{Epilogue, Tile};
use crate::layout;
use crate::matmul::output::Output;
use crate::matmul::qai8dxp_portable::{self, CHUNK};
use crate::pack::rhs_pack_nxk_qsu2cxp::{Variant, table};

/// Computes the portion `a` from an RHS packed as `variant`.
///
/// # Safety
/// As for the family's kernels: `a` passed the family's check, the buffers hold the portion in
/// the layouts of `tile`, and a non-null `a.lut` points to 4 `i32`.
pub unsafe fn run(tile: &Tile, finish: Epilogue, variant: Variant, a: &Args) {
    let nr = tile.nr;
    let k_int = layout::qai8dxp::k_internal(a.k, tile.kr, tile.sr).unwrap_or(0);
    let rhs_stride = layout::qsu2cxp::stride(a.k, nr, tile.kr, tile.sr).unwrap_or(0);
    // SAFETY: forwarded contract.
    let w8 = unsafe { table(a.lut) }.map(|v| v as i8);
    let decode = |data: *const u8, col: usize, c: usize, w: &mut [i8; CHUNK]| {
        for (t, v) in w.iter_mut().enumerate() {
            let kk = CHUNK * c + t;
            let (at, shift) = match variant {
                Variant::P4x4 => (16 * (kk / 16) + 4 * col + kk % 4, 2 * ((kk % 16) / 4)),
                Variant::P4vlx4 => ((kk / 4) * nr + col, 2 * (kk % 4)),
            };
            // SAFETY: byte `at` lies inside the group's nr * k_int / 4 data bytes.
            let code = (unsafe { *data.add(at) } >> shift) & 3;
            *v = w8[usize::from(code)];
        }
    };
    // SAFETY: forwarded contract; `decode` reads only the group's data.
    unsafe {
        qai8dxp_portable::run(
            tile,
            finish,
            Output::F32,
            a,
            rhs_stride,
            nr * k_int / 4,
            decode,
        )
    }
}
