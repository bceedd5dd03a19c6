//! Portable implementation of the f16 family (any `nr`): the same per-step-rounded chain per
//! output as the asm kernels (see [`crate::float::f16`]), so results are bit-identical.

use super::Args;
use crate::float::f16;

/// Computes the portion described by `a` from groups of `nr` packed columns.
///
/// # Safety
/// As for [`super::super::float_gemm::run`]; `m`, `n` >= 1.
pub unsafe fn run(nr: usize, a: &Args) {
    let group = (a.k + 1) * nr * 2;
    let (lhs_row, dst_row) = (a.lhs_row_bytes(), a.dst_row_bytes());
    let (lo, hi) = (f16::from_f32(a.clamp_min), f16::from_f32(a.clamp_max));
    let load = |p: *const u8, i: usize| -> u16 {
        // SAFETY: callers pass offsets inside the buffers of the function contract.
        unsafe { p.add(2 * i).cast::<u16>().read_unaligned() }
    };
    for j in 0..a.n {
        // SAFETY: column j lies in group j / nr of the portion's packed RHS.
        let col = unsafe { a.rhs_packed.add(j / nr * group + 2 * (j % nr)) };
        for i in 0..a.m {
            // Not dereferenced when k is 0 (the LHS may then be null).
            let row = a.lhs.wrapping_add(i * lhs_row);
            let mut acc = load(col, 0);
            for kk in 0..a.k {
                acc = f16::fmla(acc, load(col, nr * (kk + 1)), load(row, kk));
            }
            let y = f16::clamp_upper_first(acc, lo, hi);
            // SAFETY: element (i, j) of the destination is writable.
            unsafe {
                a.dst
                    .add(i * dst_row + 2 * j)
                    .cast::<u16>()
                    .write_unaligned(y)
            };
        }
    }
}
