//! Portable implementation of the family (any `nr`): the same fused chain per output as the asm
//! kernels, so results are bit-identical.

use super::Args;
use crate::float;

/// Computes the portion described by `a` from groups of `nr` packed columns.
///
/// # Safety
/// As for [`crate::matmul::float_gemm::run`]; `m`, `n` >= 1.
pub unsafe fn run(nr: usize, a: &Args) {
    let group = (a.k + 1) * nr * 4;
    let (lhs_row, dst_row) = (a.lhs_row_bytes(), a.dst_row_bytes());
    let load = |p: *const u8, i: usize| -> f32 {
        // SAFETY: callers pass offsets inside the buffers of the function contract.
        unsafe { p.add(4 * i).cast::<f32>().read_unaligned() }
    };
    for j in 0..a.n {
        // SAFETY: column j lies in group j / nr of the portion's packed RHS.
        let col = unsafe { a.rhs_packed.add(j / nr * group + 4 * (j % nr)) };
        for i in 0..a.m {
            // Not dereferenced when k is 0 (the LHS may then be null).
            let row = a.lhs.wrapping_add(i * lhs_row);
            let mut acc = load(col, 0);
            for kk in 0..a.k {
                acc = float::fmla(acc, load(col, nr * (kk + 1)), load(row, kk));
            }
            let y = float::clamp_upper_first(acc, a.clamp_min, a.clamp_max);
            // SAFETY: element (i, j) of the destination is writable.
            unsafe {
                a.dst
                    .add(i * dst_row + 4 * j)
                    .cast::<f32>()
                    .write_unaligned(y)
            };
        }
    }
}
