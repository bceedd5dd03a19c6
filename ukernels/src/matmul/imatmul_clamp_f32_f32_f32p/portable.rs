//! Portable implementation of the family (any `nr`): the same fused chain per output as the asm
//! kernel, so results are bit-identical.

use super::{Args, ROWS};
use crate::float;

/// Computes the portion described by `a` from groups of `nr` packed columns.
///
/// # Safety
/// As for [`crate::matmul::call::run_indirect`]; `m`, `n`, `k_chunk_count`, `k_chunk_length`
/// >= 1.
pub unsafe fn run(nr: usize, a: &Args) {
    let (kcc, kcl) = (a.k_chunk_count, a.k_chunk_length);
    let group = (kcc * kcl + 1) * nr * 4;
    let load = |p: *const u8, i: usize| -> f32 {
        // SAFETY: callers pass offsets inside the buffers of the function contract.
        unsafe { p.add(4 * i).cast::<f32>().read_unaligned() }
    };
    for i in 0..a.m {
        let (block, r) = (i / ROWS * ROWS, i % ROWS);
        // SAFETY: entry `block * kcc + ROWS * c + r` of a row below m is in the buffer.
        let chunk =
            |c: usize| a.chunk(unsafe { *a.indirection_buffer.add(block * kcc + ROWS * c + r) });
        for j in 0..a.n {
            // SAFETY: column j lies in group j / nr of the portion's packed RHS.
            let col = unsafe { a.rhs_packed.add(j / nr * group + 4 * (j % nr)) };
            let mut acc = load(col, 0);
            for c in 0..kcc {
                let src = chunk(c);
                for t in 0..kcl {
                    acc = float::fmla(acc, load(col, nr * (c * kcl + t + 1)), load(src, t));
                }
            }
            let y = float::clamp_upper_first(acc, a.clamp_min, a.clamp_max);
            // SAFETY: element (i, j) of the destination is writable.
            unsafe {
                a.dst
                    .add(i * a.dst_row_bytes() + 4 * j)
                    .cast::<f32>()
                    .write_unaligned(y)
            };
        }
    }
}
