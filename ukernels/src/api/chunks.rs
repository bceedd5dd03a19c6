//! [`Chunks`]: K split into a convolution's taps, as the indirect matmuls read it, and what a
//! kernel's operands make of it. Below the operand modules (weights, activations, kernel), which
//! record their chunks; the convolution front end (`conv`) sits above them.

use super::error::{Result, same};
use crate::family::Operands;
use crate::kernel::MatmulKernel;
use crate::matmul::offsets;

/// K as `count` chunks of `length` values (KleidiAI's `k_chunk_count`, `k_chunk_length`): a
/// convolution's taps of `channels` values each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// Chunks per row (`k_chunk_count`).
    pub count: usize,
    /// Values per chunk (`k_chunk_length`).
    pub length: usize,
}

impl Chunks {
    /// `count * length`.
    ///
    /// ```
    /// use rkai_ukernels::api::Chunks;
    ///
    /// assert_eq!(Chunks { count: 9, length: 16 }.k(), Ok(144));
    /// assert!(Chunks { count: usize::MAX, length: 2 }.k().is_err());
    /// ```
    pub fn k(&self) -> Result<usize> {
        Ok(offsets::chunked_k(self.count, self.length)?)
    }
}

/// Whether `kernel` reads the indirection table itself (the SVE kernel).
pub(super) fn reads_table(kernel: &MatmulKernel) -> bool {
    kernel.family.description().operands == Operands::IndirectFloat
}

/// The K `kernel` reads for `k` values that are `chunks` (each chunk rounded up to the
/// kernel's `kr`), or `k` for unchunked operands.
pub(super) fn read_k(kernel: &MatmulKernel, k: usize, chunks: Option<Chunks>) -> Result<usize> {
    match chunks {
        Some(c) => Ok(offsets::chunked_packed_k(kernel, c.count, c.length)?),
        None => Ok(k),
    }
}

/// [`Error::ShapeMismatch`] unless two operands split K into the same chunks.
pub(super) fn same_chunks(packed: Option<Chunks>, given: Option<Chunks>) -> Result<()> {
    let length = |c: Option<Chunks>| c.map_or(0, |c| c.length);
    let count = |c: Option<Chunks>| c.map_or(0, |c| c.count);
    same("k_chunk_count", count(packed), count(given))?;
    same("k_chunk_length", length(packed), length(given))
}
