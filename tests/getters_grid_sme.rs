//! Every size_t getter of rkai's SME and SME2 stems (the integer SME kernels, their packers and
//! the NEON packers that feed them) returns KleidiAI 1.30's value over KleidiAI's argument grid
//! at the streaming vector length this process runs at, and aborts exactly where KleidiAI's debug
//! build asserts (`data/kleidiai-1.30-getters-grid-sme.tsv`, measured by calling KleidiAI's
//! library at streaming lengths of 128, 512 and 2048 bits).
//!
//! KleidiAI checks some indices against compile-time constants and others against values that
//! scale with the streaming length, so which calls it accepts changes with the length: the grid
//! holds both.

mod support;

use support::cpu;
use support::getter_grid::Grid;

use rkai::ukernels::arch::Features;

unsafe extern "C" {
    safe fn kai_get_sme_vector_length_u8() -> u64;
}

/// The grid over streaming vector lengths. Its column applies by the CPU's streaming length, or
/// the 128-bit one where SME is absent (the length rkai's portable SME kernels run with).
const SME_GRID: Grid = Grid {
    text: include_str!("data/kleidiai-1.30-getters-grid-sme.tsv"),
    column_bytes: &[16, 64, 256],
    length: sme_length,
    functions: 248,
};

fn sme_length() -> usize {
    // KleidiAI's `kai_get_sme_vector_length_u8` is `RDSVL`, undefined without SME.
    if cfg!(target_arch = "aarch64") && cpu::features().contains(Features::SME) {
        kai_get_sme_vector_length_u8() as usize
    } else {
        16
    }
}

grid_tests!(SME_GRID, 1_000);
