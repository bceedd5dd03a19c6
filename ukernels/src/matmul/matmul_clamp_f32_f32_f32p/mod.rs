//! `matmul_clamp_f32_f32_f32p`: f32 output = f32 LHS (unpacked, rows `lhs_stride` bytes apart)
//! x f32 RHS packed with its bias in front ([`RhsLayout::FloatBias`]), clamped.
//!
//! Numerics (KleidiAI's kernels, which come from Arm's "hybrid" GEMM generator): every output
//! starts from its column's packed bias and takes one fused multiply-add per K value in K order
//! (`acc = fma(b[k][j], a[i][k], acc)`, `FMLA` by element), then `FMIN` with the upper bound and
//! `FMAX` with the lower. The order is fully determined, so every implementation (NEON, SVE,
//! portable) gives the same bits, NaNs included (see [`crate::float::fmla`]).
//!
//! Like KleidiAI, `run` reads `lhs_stride / 4` and `dst_stride_row / 4` as element strides, and
//! ignores `dst_stride_col` except in the `6x8x4` kernel, which asserts it is `sizeof(float)`.

/// Clamps the accumulators `v$r...`: `FMIN` with the upper bound in `v0`, then `FMAX` with the
/// lower bound in `v1` (KleidiAI's order).
#[cfg(target_arch = "aarch64")]
macro_rules! clamp_accumulators {
    ($($r:literal),*) => {
        concat!(
            $(concat!("fmin v", $r, ".4s, v", $r, ".4s, v0.4s\n"),)*
            $(concat!("fmax v", $r, ".4s, v", $r, ".4s, v1.4s\n"),)*
        )
    };
}

/// Stores the first `x25` (1..=16) columns of a tile row held in `v$a`..`v$d` at `x23`.
/// Clobbers `x26` and the four registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row16 {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            "cmp x25, #16\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            concat!("stp q", $c, ", q", $d, ", [x23, #32]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            "tbz x25, #3, 2f\n",
            concat!("stp q", $a, ", q", $b, ", [x26], #32\n"),
            concat!("mov v", $a, ".16b, v", $c, ".16b\n"),
            concat!("mov v", $b, ".16b, v", $d, ".16b\n"),
            "2:\n",
            store_tail8!($a, $b),
            "9:\n",
        )
    };
}

/// Stores the first `x25` (1..=8) columns of a tile row held in `v$a`, `v$b` at `x23`.
/// Clobbers `x26` and both registers.
#[cfg(target_arch = "aarch64")]
macro_rules! store_row8 {
    ($a:literal, $b:literal) => {
        concat!(
            "cmp x25, #8\n",
            "b.lt 1f\n",
            concat!("stp q", $a, ", q", $b, ", [x23]\n"),
            "b 9f\n",
            "1:\n",
            "mov x26, x23\n",
            store_tail8!($a, $b),
            "9:\n",
        )
    };
}

/// The last `x25 % 8` columns of a row whose next values are in `v$a`, `v$b`, at `x26`.
#[cfg(target_arch = "aarch64")]
macro_rules! store_tail8 {
    ($a:literal, $b:literal) => {
        concat!(
            "tbz x25, #2, 3f\n",
            concat!("str q", $a, ", [x26], #16\n"),
            concat!("mov v", $a, ".16b, v", $b, ".16b\n"),
            "3:\n",
            "tbz x25, #1, 4f\n",
            concat!("str d", $a, ", [x26], #8\n"),
            concat!("ext v", $a, ".16b, v", $a, ".16b, v", $a, ".16b, #8\n"),
            "4:\n",
            "tbz x25, #0, 9f\n",
            concat!("str s", $a, ", [x26]\n"),
        )
    };
}

/// Defines the variant's `run(&Args)`, which forwards the portion to the asm function `$kernel`
/// (m, n, k, lhs, lhs row bytes, rhs_packed, dst, dst row bytes, clamp_min, clamp_max).
#[cfg(target_arch = "aarch64")]
macro_rules! float_kernel_entry {
    ($kernel:ident) => {
        /// Runs the kernel on the portion described by `a` (the entry point the catalog
        /// registers).
        ///
        /// # Safety
        /// The family's `check` passed, `m`, `n` >= 1, the buffers cover the portion, and the
        /// CPU implements the kernel's ISA.
        pub unsafe fn run(a: &super::Args) {
            // SAFETY: forwarded contract.
            unsafe {
                $kernel(
                    a.m,
                    a.n,
                    a.k,
                    a.lhs,
                    a.lhs_row_bytes(),
                    a.rhs_packed,
                    a.dst,
                    a.dst_row_bytes(),
                    a.clamp_min,
                    a.clamp_max,
                )
            }
        }
    };
}

pub mod portable;

#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla;
#[cfg(target_arch = "aarch64")]
pub mod matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla;

use crate::catalog::{MatmulKernel, NativeFn};
use crate::contract::{self, Checked};
use crate::layout::RhsLayout;

/// Arguments of one `kai_run_matmul_*` call.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// LHS at the portion's first row.
    pub lhs: *const u8,
    /// Bytes between LHS rows (used rounded down to whole floats, as KleidiAI does).
    pub lhs_stride: usize,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows (rounded down to whole floats).
    pub dst_stride_row: usize,
    /// Bytes between destination columns (see [`check`]).
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
}

impl Args {
    /// `lhs_stride` in whole floats, as bytes.
    pub fn lhs_row_bytes(&self) -> usize {
        self.lhs_stride & !3
    }

    /// `dst_stride_row` in whole floats, as bytes.
    pub fn dst_row_bytes(&self) -> usize {
        self.dst_stride_row & !3
    }
}

/// Signature of an ISA-specific implementation.
pub type RunFn = unsafe fn(&Args);

/// Kernels that assert `dst_stride_col == sizeof(float)`; the others ignore it, as KleidiAI's do.
const CHECKS_DST_STRIDE_COL: &[&str] = &["matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla"];

/// The packed RHS format of the family.
pub const RHS_LAYOUT: RhsLayout = RhsLayout::FloatBias { bytes: 4 };

/// Checks what `kernel` requires of its arguments: KleidiAI's assertion, non-null buffers, a
/// destination row stride that holds a row, and a packed size that does not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    if CHECKS_DST_STRIDE_COL.contains(&kernel.stem) {
        contract::require(a.dst_stride_col == 4, "dst_stride_col == sizeof(float)")?;
    }
    RHS_LAYOUT.stride(a.k, kernel.tile().nr, 1, 1)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k == 0 || !a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let row_bytes = contract::mul(a.n, 4, "n * sizeof(float) fits in size_t")?;
    contract::require(
        a.m == 1 || a.dst_row_bytes() >= row_bytes,
        "dst_stride_row >= n * sizeof(float)",
    )?;
    Ok(())
}

/// Runs `kernel`: its hand-written implementation on aarch64, the portable one (same bits)
/// elsewhere.
///
/// # Safety
/// [`check`] must have passed; the LHS must hold `m` rows of `k` floats, the packed RHS the
/// portion's column groups in the layout of `kernel.tile()`, and the destination `m` rows of `n`
/// floats; on aarch64 the CPU must implement `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match kernel.native {
        // SAFETY: forwarded contract.
        NativeFn::F32p(f) => unsafe { f(a) },
        // SAFETY: forwarded contract.
        _ => unsafe { portable::run(kernel.tile().nr, a) },
    }
}
