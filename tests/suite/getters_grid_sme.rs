//! Every size_t getter of rkai's SME and SME2 stems (the integer SME kernels, their packers and
//! the NEON packers that feed them) returns KleidiAI 1.30's value over KleidiAI's argument grid
//! at the streaming vector length this process runs at, and aborts exactly where KleidiAI's debug
//! build asserts (`data/kleidiai-1.30-getters-grid-sme.tsv`, measured by calling KleidiAI's
//! library at streaming lengths of 128, 512 and 2048 bits).
//!
//! KleidiAI checks some indices against compile-time constants and others against values that
//! scale with the streaming length, so which calls it accepts changes with the length: the grid
//! holds both.

use crate::support;

use support::getter_grid::{Grid, VectorLength};

/// The grid over streaming vector lengths.
const SME_GRID: Grid = Grid {
    text: include_str!("data/kleidiai-1.30-getters-grid-sme.tsv"),
    column_bytes: &[16, 64, 256],
    length: VectorLength::Streaming,
    functions: 248,
};

grid_tests!(SME_GRID, 1_000);
