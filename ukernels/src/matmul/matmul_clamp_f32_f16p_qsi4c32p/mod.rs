//! `matmul_clamp_f32_f16p_qsi4c32p`: f32 output = f16 activations (converted from f32 and packed
//! by pairs of K values, `lhs_pack_f16pmrx2_f32_neon`) x Q4_0 weights (int4 with one f16 scale
//! per column and block of `bl` K values, `rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon`),
//! clamped. No bias, no LHS scales: the weights are dequantized to f16 and multiplied in floating
//! point.
//!
//! KleidiAI 1.30's one kernel (`..._1vlx4vl_sme2_mopa`) computes, for row i and column j
//! ([`reference::f16p_qsi4c32p`] has it step by step): each weight widened by `LUTI4` to the f16
//! value `u - 8` of its unsigned nibble, times its block's f16 scale with an f16 `FMUL` (one
//! rounding to f16); then widening `FMOPA`s over pairs of K values, in K order, into a ZA
//! accumulator zeroed once for the whole of K: per pair, both products and their sum rounded once
//! to f32, then added to the accumulator (a second rounding); finally `FCLAMP`. The block scale
//! is applied to the weights before any product, so there is no per-block partial sum.
//!
//! QEMU and hardware: the Arm ARM defines widening `FMOPA` through `FPDotAdd_ZA` (the pair of
//! products summed and rounded once to f32, then added to the accumulator with a second rounding;
//! ZA-targeting instructions treat FPCR.DN as 1, so every NaN in ZA is the default NaN), and QEMU
//! 11 implements exactly that (its `f16_dotadd`, with the ZA float status in default-NaN mode);
//! rkai's reference follows it and the tests run under QEMU. Hardware following the Arm ARM gives
//! the same bits; the one place an implementation could differ (a core that chained two fused
//! multiply-adds instead of rounding the pair once) would change the last bit of some sums, not
//! NaN or clamp behaviour. After `FCLAMP` (`FMAXNM`, `FMINNM`) a NaN sum becomes the lower bound
//! (or the upper one, or the default NaN where the bounds are NaN).
//!
//! Packed formats: LHS groups of `mr` rows, pair `p` of row `r` at halves `2 (p mr + r)` (rows past
//! `m` of the last group are whatever the caller's buffer held; they reach only ZA rows that are
//! not stored); RHS groups of `nr` columns, all nibbles first (K step `s` of 4 values of column
//! `c`: 2 bytes at `2 (s nr + c)`, values `4s`, `4s + 1` in the first byte's low and high nibbles,
//! `4s + 2`, `4s + 3` in the second's, unsigned with zero point 8), then the scales `[blocks][nr]`.
//!
//! KleidiAI's `run` and getters assert `bl % 32`, `k % 32` and `k % bl` (`kai_bl` = 32); rkai
//! also refuses `bl == 0` and `k == 0`, as the other per-block families do. It ignores
//! `dst_stride_col`, as KleidiAI does.
//!
//! [`reference::f16p_qsi4c32p`]: crate::reference::f16p_qsi4c32p
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names (with
//! the tile's `mr` and `nr`):
//! * `m >= 1`, `n >= 1`; `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups of `2 * mr * k` bytes and
//!   `rhs_packed` of `ceil(n / nr)` RHS groups of `nr * (k / bl) * (bl / 2 + 2)` bytes, in the
//!   formats above (the last groups are read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m` at byte offset
//!   `i * dst_stride_row`, not overlapping the packed inputs; nothing else is written.
//! * No alignment of any pointer.

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa,
}

pub use super::args::PackedArgs as Args;
use crate::contract::{self, Checked, Violation};
use crate::kernel::MatmulKernel;
use crate::layout;
use crate::matmul::args::{check_packed_f32_buffers, run_packed_or};

/// KleidiAI's block checks (`kai_bl` = 32), in its order, after `bl > 0`.
pub fn check_block(k: usize, bl: usize) -> Checked {
    contract::require(bl != 0, "bl > 0")?;
    contract::require(bl % 32 == 0, "(bl % kai_bl) == 0")?;
    contract::require(k % 32 == 0, "(k % kai_bl) == 0")?;
    contract::require(k % bl == 0, "(k % bl) == 0")
}

/// Bytes of one packed LHS group of `mr` rows: `mr * k` halves.
pub fn lhs_stride(k: usize, mr: usize) -> Result<usize, Violation> {
    let halves = contract::mul(mr, k, "mr * k fits in size_t")?;
    contract::mul(halves, 2, "packed LHS stride fits in size_t")
}

/// `get_lhs_packed_offset(m_idx, k, bl)` once `m_idx` is checked against `mr`.
pub fn lhs_offset(m_idx: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
    check_block(k, bl)?;
    contract::mul(
        m_idx / mr.max(1),
        lhs_stride(k, mr)?,
        "packed LHS offset fits in size_t",
    )
}

/// Checks what `kernel` requires of its arguments: KleidiAI's assertions plus non-null buffers,
/// a destination stride that holds a row, and packed sizes that do not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let tile = &kernel.tile();
    check_block(a.k, a.bl)?;
    lhs_stride(a.k, tile.mr)?;
    layout::qsi4c32pf16::stride(a.k, tile.nr, a.bl)?;
    check_packed_f32_buffers(a)
}

/// Runs `kernel` on this target: its hand-written ISA implementation on aarch64, the portable
/// implementation (same bits) elsewhere.
///
/// # Safety
/// [`check`] must have passed; the buffers must hold the portion described by `a` in the layouts
/// of `kernel.tile()`; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    // SAFETY (both callees): forwarded contract.
    unsafe {
        run_packed_or(kernel.native.packed(), a, || {
            portable::run(&kernel.tile(), a)
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, SME2_MOPA, kernel_entries, streaming_entry};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_f16pmrx2_f32::lhs_pack_f16pmrx2_f32_neon;
use crate::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon;

const F16PMRX2_LHS: &[&Packer] = &[&lhs_pack_f16pmrx2_f32_neon];
const QSI4C32PS1S0F16_RHS: &[&Packer] = &[&rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon];

/// What KleidiAI's functions assert: every index against its getter, whole blocks; `run` ignores
/// `dst_stride_col`.
const ASSERTS: Asserts = Asserts::IGNORING_DST_STRIDE_COL;

kernel_entries! {
    /// f16 x Q4_0 GEMM, SVL32 rows x 4 x SVL32 columns per step: weights widened to f16 with
    /// `LUTI4` and scaled with `FMUL`, widening `FMOPA` into the four ZA tiles over all of K,
    /// `FCLAMP`.
    matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa: streaming_entry!(
        F32F16pQsi4c32p, F16PMRX2_LHS, QSI4C32PS1S0F16_RHS, Sme2, [1, 4, 1, 4, 4, 2],
        RowsAndColumnsPerSmeLane32, SME2_MOPA,
        self::matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa, ASSERTS);
}
