//! [`matmul`]: one call of a kernel over packed operands, checked; [`parallel`] spreads it over
//! threads (`std` feature).

use super::activations::{self, PackedActivations};
use super::error::{Error, Result, need, same};
use super::kernel::Kernel;
use super::weights::PackedWeights;
use crate::element::Output;
use crate::matmul::args::PackedArgs;
use crate::matmul::call;
use crate::pack::lhs;

/// Clamp bounds of the output (`f32::NEG_INFINITY..=f32::INFINITY` for none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clamp {
    /// Lower bound.
    pub min: f32,
    /// Upper bound.
    pub max: f32,
}

impl Clamp {
    /// No clamping.
    pub const NONE: Clamp = Clamp {
        min: f32::NEG_INFINITY,
        max: f32::INFINITY,
    };
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// An element type a kernel can write: `f32`, [`half::f16`] or [`half::bf16`] (the kernel's
/// family fixes which).
pub trait OutputElement: sealed::Sealed + Copy {
    /// The family output this type is.
    const OUTPUT: Output;
}

impl OutputElement for f32 {
    const OUTPUT: Output = Output::F32;
}

impl OutputElement for half::f16 {
    const OUTPUT: Output = Output::F16;
}

impl OutputElement for half::bf16 {
    const OUTPUT: Output = Output::Bf16;
}

/// Checks that `kernel` reads `lhs` and `rhs`, writes `T`, and that `dst` (rows of
/// `dst_stride` elements) holds the `m x n` result.
fn check_operands<T: OutputElement, A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &PackedActivations<A>,
    rhs: &PackedWeights<B>,
    dst_len: usize,
    dst_stride: usize,
) -> Result<()> {
    if kernel.kernel.family.output() != T::OUTPUT {
        return Err(Error::FormatMismatch("dst element type"));
    }
    if !rhs.is_read_by(kernel) {
        return Err(Error::FormatMismatch("packed weights"));
    }
    if !lhs.is_read_by(kernel) {
        return Err(Error::FormatMismatch("packed activations"));
    }
    same("k", rhs.k, lhs.k)?;
    if activations::blockwise(lhs.kind) {
        same("bl", rhs.bl, lhs.bl)?;
    }
    if dst_stride < rhs.n {
        return Err(Error::Precondition("dst_stride >= n"));
    }
    let needed = match lhs.m {
        0 => 0,
        m => (m - 1).saturating_mul(dst_stride).saturating_add(rhs.n),
    };
    need("dst", needed, dst_len)
}

/// `dst[i * dst_stride + j] = clamp(sum_k lhs[i][k] * rhs[j][k] + bias[j])` for every row of
/// `lhs` and column of `rhs`, with `kernel` (which must read both operands' formats and write
/// `T`).
pub fn matmul<T: OutputElement, A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &PackedActivations<A>,
    rhs: &PackedWeights<B>,
    dst: &mut [T],
    dst_stride: usize,
    clamp: Clamp,
) -> Result<()> {
    check_operands::<T, _, _>(kernel, lhs, rhs, dst.len(), dst_stride)?;
    // SAFETY: the whole problem is one portion; operands and dst were checked above.
    unsafe {
        run_portion(
            kernel,
            lhs,
            rhs,
            dst.as_mut_ptr(),
            dst_stride,
            clamp,
            (0, lhs.m),
            (0, rhs.n),
        )
    }
}

/// Runs rows `rows.0..rows.1` and columns `cols.0..cols.1` (starting at multiples of the
/// kernel's steps) into `dst` (the whole output, row stride `dst_stride` elements).
///
/// # Safety
/// [`check_operands`] passed for these operands and `dst`; no other thread writes this portion.
#[allow(clippy::too_many_arguments)]
unsafe fn run_portion<T: OutputElement, A: AsRef<[u8]>, B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: &PackedActivations<A>,
    rhs: &PackedWeights<B>,
    dst: *mut T,
    dst_stride: usize,
    clamp: Clamp,
    rows: (usize, usize),
    cols: (usize, usize),
) -> Result<()> {
    let f = kernel.rhs_format(rhs.bl);
    let lhs_dims = kernel.lhs_dims(lhs.k, lhs.bl);
    let lhs_offset = lhs::packed_offset(lhs.kind, rows.0, &lhs_dims)?;
    let rhs_offset = f.layout.offset(cols.0, rhs.k, f.nr, f.kr, f.sr)?;
    let size = T::OUTPUT.size();
    let args = PackedArgs {
        m: rows.1 - rows.0,
        n: cols.1 - cols.0,
        k: lhs.k,
        bl: rhs.bl,
        // SAFETY (both): offsets of a start within the packed buffers (checked arithmetic).
        lhs_packed: unsafe { lhs.storage.as_ref().as_ptr().add(lhs_offset) },
        rhs_packed: unsafe { rhs.storage.as_ref().as_ptr().add(rhs_offset) },
        // SAFETY: within dst, which holds the whole output.
        dst: unsafe { dst.add(rows.0 * dst_stride + cols.0) }.cast(),
        dst_stride_row: dst_stride * size,
        dst_stride_col: size,
        clamp_min: clamp.min,
        clamp_max: clamp.max,
        lut: core::ptr::null(),
        params: core::ptr::null(),
    };
    let checked = call::check_packed(kernel.kernel, &args)?;
    // SAFETY: checked arguments; the caller guarantees buffers and exclusivity.
    unsafe { call::run_packed(kernel.kernel, checked, &args) };
    Ok(())
}

/// Multi-threaded [`matmul`] (`std` feature): splits the output into tiles aligned to the
/// kernel's steps and runs them on scoped threads.
#[cfg(feature = "std")]
pub mod parallel {
    use super::*;

    /// [`super::matmul`] on up to `threads` threads (0: one per available core). Columns are
    /// split first (weights dominate memory traffic, and each thread then streams its own
    /// slice), rows when there are more threads than column steps.
    pub fn matmul<T: OutputElement + Send, A: AsRef<[u8]> + Sync, B: AsRef<[u8]> + Sync>(
        kernel: &Kernel,
        lhs: &PackedActivations<A>,
        rhs: &PackedWeights<B>,
        dst: &mut [T],
        dst_stride: usize,
        clamp: Clamp,
        threads: usize,
    ) -> Result<()> {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let side = Side {
            kernel,
            lhs,
            rhs,
            threads,
            columns: (0, rhs.n),
        };
        run_sides(&[side], dst, dst_stride, clamp)
    }

    /// One side of a [`crate::plan::Plan`] ready to run: its kernel with the activations and
    /// weights packed for it (each side reads its own formats), its threads and its columns
    /// `columns.0..columns.1` of the output (`columns.0` a multiple of the kernel's `n_step`).
    pub struct Side<'a, A, B> {
        /// The side's kernel.
        pub kernel: &'a Kernel,
        /// Activations packed for it.
        pub lhs: &'a PackedActivations<A>,
        /// Weights packed for it (all columns, or at least the side's).
        pub rhs: &'a PackedWeights<B>,
        /// Threads that run it.
        pub threads: usize,
        /// The output columns it computes.
        pub columns: (usize, usize),
    }

    /// Runs the sides of a plan at once on scoped threads (each side's columns split into tiles
    /// of its kernel's steps over its own threads) into `dst`, row stride `dst_stride`: what a
    /// framework's pool does with [`crate::plan::plan`]'s output.
    pub fn run_sides<T: OutputElement + Send, A: AsRef<[u8]> + Sync, B: AsRef<[u8]> + Sync>(
        sides: &[Side<'_, A, B>],
        dst: &mut [T],
        dst_stride: usize,
        clamp: Clamp,
    ) -> Result<()> {
        for (i, side) in sides.iter().enumerate() {
            check_operands::<T, _, _>(side.kernel, side.lhs, side.rhs, dst.len(), dst_stride)?;
            let (lo, hi) = side.columns;
            let step = side.kernel.kernel.tile().n_step;
            if lo > hi || hi > side.rhs.n || lo % step != 0 {
                return Err(Error::Precondition("columns within n, starting on a step"));
            }
            let overlaps = |o: &Side<'_, A, B>| o.columns.0 < hi && lo < o.columns.1;
            if sides[..i].iter().any(overlaps) {
                return Err(Error::Precondition("sides on disjoint columns"));
            }
        }
        let dst_addr = dst.as_mut_ptr() as usize;
        std::thread::scope(|s| -> Result<()> {
            let mut handles = std::vec::Vec::new();
            for side in sides {
                for (rows, cols) in tiles(side) {
                    handles.push(s.spawn(move || {
                        // SAFETY: operands checked above; sides and their tiles are disjoint,
                        // so no two threads write the same dst element.
                        unsafe {
                            run_portion(
                                side.kernel,
                                side.lhs,
                                side.rhs,
                                dst_addr as *mut T,
                                dst_stride,
                                clamp,
                                rows,
                                cols,
                            )
                        }
                    }));
                }
            }
            for h in handles {
                // A worker's panic is a bug, not a refused argument: it continues here.
                h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            }
            Ok(())
        })
    }

    /// The (rows, columns) tiles of one side for its threads: columns first, then rows.
    fn tiles<A: AsRef<[u8]>, B: AsRef<[u8]>>(
        side: &Side<'_, A, B>,
    ) -> std::vec::Vec<((usize, usize), (usize, usize))> {
        let t = side.kernel.kernel.tile();
        let threads = side.threads.max(1);
        let (m, (c0, c1)) = (side.lhs.m, side.columns);
        let n = c1 - c0;
        let col_steps = n.div_ceil(t.n_step).max(1);
        let col_parts = threads.min(col_steps);
        let row_parts = (threads / col_parts).clamp(1, m.div_ceil(t.m_step).max(1));
        let split = |len: usize, step: usize, parts: usize, i: usize| {
            let steps = len.div_ceil(step);
            let lo = (steps * i / parts * step).min(len);
            let hi = (steps * (i + 1) / parts * step).min(len);
            (lo, hi)
        };
        let mut out = std::vec::Vec::new();
        for r in 0..row_parts {
            for c in 0..col_parts {
                let rows = split(m, t.m_step, row_parts, r);
                let cols = split(n, t.n_step, col_parts, c);
                if rows.0 != rows.1 && cols.0 != cols.1 {
                    out.push((rows, (c0 + cols.0, c0 + cols.1)));
                }
            }
        }
        out
    }
}
