//! The float GEMM families with an unpacked LHS, `matmul_clamp_f32_f32_f32p` and
//! `matmul_clamp_f16_f16_f16p`: their shared arguments, precondition checks and dispatch.
//!
//! Numerics (KleidiAI's kernels, which come from Arm's "hybrid" GEMM generator): every output
//! starts from its column's packed bias and takes one fused multiply-add per K value in K order
//! (`acc = fma(b[k][j], a[i][k], acc)`, `FMLA` by element, rounded to the element type at every
//! step), then `FMIN` with the upper bound and `FMAX` with the lower (for f16 both bounds are
//! first rounded to f16). The order is fully determined, so every implementation (NEON, SVE,
//! portable) gives the same bits, NaNs included (see [`crate::float`]).
//!
//! Like KleidiAI, `run` reads `lhs_stride` and `dst_stride_row` in whole elements (rounding down),
//! and ignores `dst_stride_col` except in the kernels whose entry says it asserts it
//! ([`Asserts::dst_stride_col`](crate::kernel::Asserts::dst_stride_col)).
//!
//! The streaming GEMVs (KleidiAI's `_sme_mla` / `_sme2_mla` f32 kernels, [`Rows::One`]) take one
//! row per call (KleidiAI asserts `m == 1`) in the same chain; the SME2 ones accumulate in ZA
//! array vectors (multi-vector `FMLA`, whose NaN results are the default NaN) and clamp with
//! `FCLAMP` ([`Clamp::MaxNumThenMinNum`] in their entry's epilogue: `FMAXNM` with the lower
//! bound, then `FMINNM` with the upper), which the portable path follows.

pub use super::args::UnpackedLhsArgs as Args;
use super::matmul_clamp_f16_f16_f16p as f16_pairs;
use super::output::Output;
use crate::contract::{self, Checked};
use crate::float;
use crate::kernel::{Clamp, MatmulKernel, Rows};

/// Checks what `kernel` requires of its arguments: KleidiAI's assertion, non-null buffers, a
/// destination row stride that holds a row, and a packed size that does not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let out = kernel.family.output();
    if kernel.rows == Rows::One {
        // KleidiAI's first assertion, before anything else is looked at.
        contract::require(a.m == 1, "m == 1")?;
    }
    contract::require(a.elem == out.size(), "element size of the family")?;
    if kernel.asserts.dst_stride_col {
        contract::require(a.dst_stride_col == a.elem, out.size_condition())?;
    }
    kernel
        .family
        .rhs_layout(0)
        .stride(a.k, kernel.tile().nr, 1, 1)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k == 0 || !a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, a.elem, "n * sizeof(dst) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_row_bytes() >= row_bytes,
        out.row_condition(),
    )?;
    Ok(())
}

/// Runs `kernel`: its hand-written implementation on aarch64, the portable one (same bits)
/// elsewhere.
///
/// # Safety
/// [`check`] must have passed; the LHS must hold `m` rows of `k` elements, the packed RHS the
/// portion's column groups in the layout of `kernel.tile()`, and the destination `m` rows of `n`
/// elements; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    let nr = kernel.tile().nr;
    match (kernel.native.unpacked_lhs(), f16_pairs::Pairs::of(kernel)) {
        // SAFETY (every arm): forwarded contract.
        (Some(f), _) => unsafe { f(a) },
        (None, Some(pairs)) => unsafe { f16_pairs::portable(pairs, nr, a) },
        (None, None) if kernel.family.output() == Output::F16 => unsafe {
            portable::<u16>(nr, a, Element::fmla, Element::clamp_upper_first)
        },
        (None, None) if kernel.epilogue.clamp == Clamp::MaxNumThenMinNum => unsafe {
            portable::<f32>(nr, a, float::fmla_za, float::clamp_num)
        },
        (None, None) => unsafe {
            portable::<f32>(nr, a, Element::fmla, Element::clamp_upper_first)
        },
    }
}

/// The element arithmetic of the portable path: the asm kernels' per-step rounding.
trait Element: Copy {
    /// Bytes per element.
    const BYTES: usize;
    /// A clamp bound given as f32, in this type (f16 bounds round first, as in the kernels).
    fn bound(x: f32) -> Self;
    /// `acc + b * a`, fused, rounded once to this type.
    fn fmla(acc: Self, b: Self, a: Self) -> Self;
    /// `FMIN` with `hi`, then `FMAX` with `lo`.
    fn clamp_upper_first(y: Self, lo: Self, hi: Self) -> Self;
}

impl Element for f32 {
    const BYTES: usize = 4;
    fn bound(x: f32) -> f32 {
        x
    }
    fn fmla(acc: f32, b: f32, a: f32) -> f32 {
        float::fmla(acc, b, a)
    }
    fn clamp_upper_first(y: f32, lo: f32, hi: f32) -> f32 {
        float::clamp_upper_first(y, lo, hi)
    }
}

/// f16, as its bits (see [`float::f16`]).
impl Element for u16 {
    const BYTES: usize = 2;
    fn bound(x: f32) -> u16 {
        float::f16::from_f32(x)
    }
    fn fmla(acc: u16, b: u16, a: u16) -> u16 {
        float::f16::fmla(acc, b, a)
    }
    fn clamp_upper_first(y: u16, lo: u16, hi: u16) -> u16 {
        float::f16::clamp_upper_first(y, lo, hi)
    }
}

/// The portable implementation of both families (any `nr`): per output the bias, then one fused
/// multiply-add per K value in K order (`step`), then the clamp (`clamp(y, lo, hi)`), each
/// rounded as the asm kernels round, so results are bit-identical.
///
/// # Safety
/// As for [`run`]; `m`, `n` >= 1.
unsafe fn portable<E: Element>(
    nr: usize,
    a: &Args,
    step: fn(E, E, E) -> E,
    clamp: fn(E, E, E) -> E,
) {
    let group = (a.k + 1) * nr * E::BYTES;
    let (lhs_row, dst_row) = (a.lhs_row_bytes(), a.dst_row_bytes());
    let (lo, hi) = (E::bound(a.clamp_min), E::bound(a.clamp_max));
    let load = |p: *const u8, i: usize| -> E {
        // SAFETY: callers pass offsets inside the buffers of the function contract.
        unsafe { p.add(E::BYTES * i).cast::<E>().read_unaligned() }
    };
    for j in 0..a.n {
        // SAFETY: column j lies in group j / nr of the portion's packed RHS.
        let col = unsafe { a.rhs_packed.add(j / nr * group + E::BYTES * (j % nr)) };
        for i in 0..a.m {
            // Not dereferenced when k is 0 (the LHS may then be null).
            let row = a.lhs.wrapping_add(i * lhs_row);
            let mut acc = load(col, 0);
            for kk in 0..a.k {
                acc = step(acc, load(col, nr * (kk + 1)), load(row, kk));
            }
            let y = clamp(acc, lo, hi);
            // SAFETY: element (i, j) of the destination is writable.
            unsafe {
                a.dst
                    .add(i * dst_row + E::BYTES * j)
                    .cast::<E>()
                    .write_unaligned(y)
            };
        }
    }
}
