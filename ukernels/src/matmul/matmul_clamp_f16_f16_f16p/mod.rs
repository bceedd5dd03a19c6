//! `matmul_clamp_f16_f16_f16p`: f16 output = f16 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f16 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`]), clamped;
//! FEAT_FP16 arithmetic with f16 accumulators.
//!
//! Every multiply-add rounds to f16 (`FMLA .8h` by element), so the result depends on the order
//! and is fully determined by it: from the packed bias, K values in order, then `FMIN` with the
//! upper bound and `FMAX` with the lower, both bounds rounded to f16 first (`FCVT`). Arguments,
//! checks and dispatch are shared with the f32 family (`super::float_gemm`).
//!
//! # The SME GEMVs (`f16p2vlx2b`: [`Pairs`])
//!
//! KleidiAI's two streaming GEMVs compute one LHS row (`m == 1`, asserted; `m_idx == 0` in the
//! offset getters) against an RHS packed by `rhs_pack_kxn_x16p2vlx2b_x16_x16_sme`: groups of
//! `nr` = 2 x SVL32 columns, each its `nr` f16 biases, then per pair of K values the pair of each
//! column (K padded with a zero row to an even count). They accumulate in f32, not f16: the
//! bias widened exactly, then the pairs of K values in order, then one rounding to f16 and the
//! clamp with bounds rounded to f16. The `1x8vl_sme_mla` kernel adds each pair with `FMLALB` then
//! `FMLALT` (two fused steps, two roundings, Arm NaN rules: [`fmlal`]) and clamps with `FMIN`
//! by the upper bound then `FMAX` by the lower; the `1x16vl_sme2_dot` kernel adds each pair with
//! `FDOT` into ZA (the two products summed and rounded to f32, then added with a second rounding;
//! any NaN is the default NaN: [`dot_add`]) and clamps with `FCLAMP` on halves ([`clamp_num`]: a
//! NaN becomes a bound). An odd K's last pair adds `+0 x +0` (the LHS value past K is not read,
//! the packer's zero pads the RHS), which makes a `-0` sum `+0`. With `k == 0` both compute one
//! such pair of zeros from the bias (KleidiAI's kernels do the same arithmetic on RHS bytes read
//! past the group's biases; rkai's read nothing there).
//!
//! [`fmlal`]: crate::reference::f16p_qsi4c32p::fmlal
//! [`dot_add`]: crate::reference::f16p_qsi4c32p::dot_add
//! [`clamp_num`]: crate::float::f16::clamp_num
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min,
//! clamp_max)` of the family, with `nr` its tile's, requires, besides the CPU features its own
//! `# Safety` names (FEAT_FP16 among them):
//! * `m >= 1`, `n >= 1`; `lhs_stride` and `dst_stride` (bytes) are even.
//! * `clamp_min` and `clamp_max` are f16 bits.
//! * LHS row `i < m` is readable for `k` halves at `lhs + i * lhs_stride` (unaligned is fine).
//! * `rhs_packed` is readable for `ceil(n / nr)` groups of `2 * nr * (k + 1)` bytes (`nr`
//!   biases, then `nr` values per K value).
//! * For every `i < m`, `j < n`, the 2 bytes at `dst + i * dst_stride + 2 * j` are writable and
//!   overlap neither input. Nothing else is written.

asm_kernel_modules! {
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla,
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55,
    matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla,
    matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot,
}

pub use super::args::UnpackedLhsArgs as Args;

use crate::float::f16;
use crate::kernel::MatmulKernel;
use crate::reference::f16p_qsi4c32p::{dot_add, fmlal};

/// How an SME GEMV of the family adds a pair of K values and clamps (see the module
/// documentation); the NEON kernels, one K value per step in f16, have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairs {
    /// `FMLALB`, `FMLALT`; `FMIN`, `FMAX` (`1x8vl_sme_mla`).
    Fmlal,
    /// `FDOT` into ZA; `FCLAMP` (`1x16vl_sme2_dot`).
    Fdot,
}

impl Pairs {
    /// The pair arithmetic of `kernel`: the family's `kr = 2` kernels, by ISA.
    pub fn of(kernel: &MatmulKernel) -> Option<Pairs> {
        match (kernel.family, kernel.base_tile.kr, kernel.isa) {
            (crate::family::Family::F16F16F16p, 2, crate::arch::Isa::Sme2) => Some(Pairs::Fdot),
            (crate::family::Family::F16F16F16p, 2, _) => Some(Pairs::Fmlal),
            _ => None,
        }
    }

    /// `acc` plus the pair of LHS values `a` times the pair of RHS values `b`.
    pub fn add(self, acc: f32, a: [u16; 2], b: [u16; 2]) -> f32 {
        match self {
            Pairs::Fmlal => fmlal(fmlal(acc, b[0], a[0]), b[1], a[1]),
            Pairs::Fdot => dot_add(acc, a, b),
        }
    }

    /// The f16 result of the sum `acc`, clamped between the f16 bounds `lo` and `hi`.
    pub fn finish(self, acc: f32, lo: u16, hi: u16) -> u16 {
        let y = f16::from_f32(acc);
        match self {
            Pairs::Fmlal => f16::clamp_upper_first(y, lo, hi),
            Pairs::Fdot => f16::clamp_num(y, lo, hi),
        }
    }

    /// The sum of one output from its f16 bias and its `k` pairs of halves (`pair(p)`: the LHS
    /// and the RHS pair `p`, zeros past `k`), an empty K counting as one pair of zeros.
    pub fn sum(self, bias: u16, k: usize, pair: impl Fn(usize) -> ([u16; 2], [u16; 2])) -> f32 {
        let mut acc = f32::from_bits(f16::to_f32_bits(bias));
        if k == 0 {
            return self.add(acc, [0; 2], [0; 2]);
        }
        for p in 0..k.div_ceil(2) {
            let (a, b) = pair(p);
            acc = self.add(acc, a, b);
        }
        acc
    }
}

/// The portable implementation of the SME GEMVs (any `nr`): [`Pairs::sum`] over the packed RHS,
/// then [`Pairs::finish`], as the kernels round (same bits). Reads the LHS values `0..k` and the
/// packed pairs (the zero past an odd K included), writes the `n` halves of row 0.
///
/// # Safety
/// As for [`super::float_gemm::run`], with `m == 1`.
pub unsafe fn portable(pairs: Pairs, nr: usize, a: &Args) {
    let pairs_k = a.k.div_ceil(2);
    let group = 2 * nr * (1 + 2 * pairs_k);
    let (lo, hi) = (f16::from_f32(a.clamp_min), f16::from_f32(a.clamp_max));
    // SAFETY: callers pass offsets inside the buffers of the function contract.
    let load = |p: *const u8, i: usize| unsafe { p.add(2 * i).cast::<u16>().read_unaligned() };
    let lhs = |kk: usize| if kk < a.k { load(a.lhs, kk) } else { 0 };
    for j in 0..a.n {
        // SAFETY: column j lies in group j / nr of the portion's packed RHS.
        let group_at = unsafe { a.rhs_packed.add(j / nr * group) };
        let (c, bias) = (j % nr, load(group_at, j % nr));
        let pair = |p: usize| {
            let at = nr + 2 * (p * nr + c);
            (
                [lhs(2 * p), lhs(2 * p + 1)],
                [load(group_at, at), load(group_at, at + 1)],
            )
        };
        let y = pairs.finish(pairs.sum(bias, a.k, pair), lo, hi);
        // SAFETY: element j of the destination row is writable.
        unsafe { a.dst.add(2 * j).cast::<u16>().write_unaligned(y) };
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, Epilogue, kernel_entries, kernel_entry, native, streaming_entry};
use crate::pack::kinds::Packer;
use crate::pack::rhs_pack_float::{
    rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon, rhs_pack_kxn_x16p2vlx2b_x16_x16_sme,
    rhs_pack_kxn_x16p32x1b_x16_x16_neon, rhs_pack_nxk_x16p32x1bx16_x16_x16_neon,
};

const NO_LHS_PACKER: &[&Packer] = &[];
const X16P32X1B_RHS: &[&Packer] = &[
    &rhs_pack_kxn_x16p32x1b_x16_x16_neon,
    &rhs_pack_nxk_x16p32x1bx16_x16_x16_neon,
];
const F16P16X1BIASF16_RHS: &[&Packer] = &[&rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon];
const X16P2VLX2B_RHS: &[&Packer] = &[&rhs_pack_kxn_x16p2vlx2b_x16_x16_sme];

/// A kernel of `matmul_clamp_f16_f16_f16p` (no LHS packer): RHS packer list and the module
/// holding its asm.
macro_rules! f16_f16_f16p_kernel {
    (
        $(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt, $rhs:ident,
        $asserts:expr
    ) => {
        kernel_entry!($(#[$doc])* $stem, F16F16F16p, NO_LHS_PACKER, $rhs, $isa, $tile,
            native!(unpacked self::$stem), KleidiAi, Fixed, Any, Epilogue::VECTOR, $asserts);
    };
}

/// An SME GEMV of the family: one row per call, columns in streaming units (see the module
/// documentation).
macro_rules! f16_sme_gemv {
    ($(#[$doc:meta])* $stem:ident, $isa:ident, $tile:tt) => {
        streaming_entry!($(#[$doc])* $stem, F16F16F16p, NO_LHS_PACKER, X16P2VLX2B_RHS, $isa,
            $tile, PerSmeLane32, Epilogue::VECTOR, unpacked self::$stem, One,
            Asserts::IGNORING_DST_STRIDE_COL);
    };
}

kernel_entries! {
    /// f16 GEMM, 6 rows x 32 columns per step, FMLA by element on halves (out-of-order cores).
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla: f16_f16_f16p_kernel!(
        NeonFp16, [6, 32, 1, 32, 1, 1], X16P32X1B_RHS, Asserts::IGNORING_DST_STRIDE_COL);
    /// f16 GEMM, 6 rows x 32 columns per step, scheduled for in-order Cortex-A55.
    matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55: f16_f16_f16p_kernel!(
        NeonFp16, [6, 32, 1, 32, 1, 1], X16P32X1B_RHS, Asserts::IGNORING_DST_STRIDE_COL);
    /// f16 GEMM, 6 rows x 16 columns per step, FMLA by element over 8 K values per iteration.
    matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla: f16_f16_f16p_kernel!(
        NeonFp16, [6, 16, 1, 16, 1, 1], F16P16X1BIASF16_RHS, Asserts::USUAL);
    /// f16 GEMV (SME): one row, 4 groups of 2 x SVL32 columns per step, `FMLALB`/`FMLALT` into
    /// f32.
    matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla: f16_sme_gemv!(Sme, [1, 8, 1, 2, 2, 1]);
    /// f16 GEMV (SME2): one row, 8 groups of 2 x SVL32 columns per step, `FDOT` into ZA.
    matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot: f16_sme_gemv!(Sme2, [1, 16, 1, 2, 2, 1]);
}
