//! The loop nest of the portable integer drivers, in the asm kernels' order: LHS row groups of
//! `mr` outside, RHS column groups of `nr` inside, and within each pair of groups passes of at
//! most [`MAX_ROWS`] x [`MAX_COLS`] (the drivers' on-stack tiles).

use super::args::PackedArgs;

/// Most rows of one pass; taller groups take several passes.
pub(crate) const MAX_ROWS: usize = 16;
/// Most columns of one pass; wider groups take several passes.
pub(crate) const MAX_COLS: usize = 16;

/// One pass: rows `r0..r0 + rows` of LHS row group `group` (rows `group * mr ..` of the
/// portion, packed at `lhs`) times columns `c0..c0 + cols` of the RHS column group that starts
/// at column `j0` (packed at `rhs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass {
    pub lhs: *const u8,
    pub rhs: *const u8,
    pub group: usize,
    pub j0: usize,
    pub r0: usize,
    pub rows: usize,
    pub c0: usize,
    pub cols: usize,
}

/// Calls `pass` for every pass of the portion `a`, packed in LHS groups of `mr` rows every
/// `lhs_stride` bytes and RHS groups of `nr` columns every `rhs_stride` bytes.
#[inline(always)]
pub(crate) fn for_each_pass(
    a: &PackedArgs,
    (mr, nr): (usize, usize),
    (lhs_stride, rhs_stride): (usize, usize),
    mut pass: impl FnMut(Pass),
) {
    let (m, n) = (a.m, a.n);
    for group in 0..m.div_ceil(mr) {
        let group_rows = mr.min(m - group * mr);
        for j0 in (0..n).step_by(nr) {
            let group_cols = nr.min(n - j0);
            for r0 in (0..group_rows).step_by(MAX_ROWS) {
                let rows = MAX_ROWS.min(group_rows - r0);
                for c0 in (0..group_cols).step_by(MAX_COLS) {
                    pass(Pass {
                        // Addresses only; the driver's caller guarantees the groups exist.
                        lhs: a.lhs_packed.wrapping_add(group * lhs_stride),
                        rhs: a.rhs_packed.wrapping_add(j0 / nr * rhs_stride),
                        group,
                        j0,
                        r0,
                        rows,
                        c0,
                        cols: MAX_COLS.min(group_cols - c0),
                    });
                }
            }
        }
    }
}

/// K values of the int8 vectors [`accumulate`] multiplies.
pub(crate) const CHUNK: usize = 32;

/// `sums[r][c] += lq[r] . wq[c]` (int32, wrapping as the kernels' `SDOT`/`SMMLA` sums do) for
/// the pass's `rows` x `cols`.
#[inline(always)]
pub(crate) fn accumulate(
    sums: &mut [[i32; MAX_COLS]; MAX_ROWS],
    lq: &[[i8; CHUNK]; MAX_ROWS],
    wq: &[[i8; CHUNK]; MAX_COLS],
    pass: &Pass,
) {
    for (sum_row, l) in sums.iter_mut().zip(lq).take(pass.rows) {
        for (sum, w) in sum_row.iter_mut().zip(wq).take(pass.cols) {
            let dot: i32 = l.iter().zip(w).map(|(&x, &y)| x as i32 * y as i32).sum();
            *sum = sum.wrapping_add(dot);
        }
    }
}
