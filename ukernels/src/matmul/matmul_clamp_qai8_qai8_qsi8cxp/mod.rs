//! `matmul_clamp_qai8_qai8_qsi8cxp`: KleidiAI's SME2 int8-output GEMV (XNNPACK's `pqs8` GEMV).
//! One int8 LHS row as it is (`k` bytes) x the int8 weights of
//! [`rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`] (the GEMMs' packed RHS,
//! [`RhsLayout::Qsi8cxpsb`]), requantized to int8 by `kai_matmul_requantize32_params`
//! ([`Operands::Qai8Qsi8cxpsb`]). KleidiAI's interface header of this directory,
//! `kai_matmul_clamp_qai8_qai8_qsi8cxp_interface.h`, names its struct
//! `kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel` and has no `get_mr`.
//!
//! # Numerics
//!
//! As the GEMMs' (`super::matmul_clamp_qai8_qai8p_qsi8cxp`): every output starts from its
//! column's packed bias (the packer folded the LHS zero point in; the kernel does not subtract
//! it again), adds the products of the row and the column in wrapping `i32`, and is requantized
//! as [`reference::qai8::requantize`] describes, clamped by `SCLAMP` ([`ClampOrder::LowerFirst`]:
//! `max_value` wins when `min_value > max_value`). With `k = 0` the result is the requantized
//! bias; KleidiAI's kernel then still runs one K step, reading the group's scales as weights and
//! the next group's biases as scales (past the packed RHS for the last group).
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs, rhs_packed, dst, dst_stride_row, params)` of the family
//! requires, besides the CPU features its own `# Safety` names:
//! * `m == 1`, `n >= 1`;
//! * `lhs` valid for reads of `k` bytes, `rhs_packed` of `ceil(n / nr)` RHS groups (read
//!   whole);
//! * `dst` valid for writes of `n` bytes, not overlapping the inputs; nothing else is written;
//! * `params` valid for a read of one `kai_matmul_requantize32_params`;
//! * no alignment of any pointer.
//!
//! [`Operands::Qai8Qsi8cxpsb`]: crate::family::Operands::Qai8Qsi8cxpsb
//! [`rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`]: crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
//! [`RhsLayout::Qsi8cxpsb`]: crate::layout::RhsLayout::Qsi8cxpsb
//! [`reference::qai8::requantize`]: crate::reference::qai8::requantize
//! [`ClampOrder::LowerFirst`]: crate::reference::qai8::ClampOrder::LowerFirst

asm_kernel_modules! {
    matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
}

pub use super::args::PackedArgs as Args;
use super::matmul_clamp_qai8_qai8p_qsi8cxp::{self as gemm, KR};
use crate::contract::{self, Checked};
use crate::kernel::MatmulKernel;

/// Checks a call of `kernel` (its `lhs_packed` is the unpacked LHS row): KleidiAI's one
/// assertion, `m == 1`, first; then what would make it read or write out of bounds: null
/// buffers or parameters, packed sizes that do not fit. `dst_stride_row` and `dst_stride_col`
/// are ignored, as KleidiAI's `run` ignores them. An empty portion (`n == 0`) passes.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    contract::require(a.m == 1, "m == 1")?;
    let t = kernel.tile();
    kernel.family.rhs_layout(0).stride(a.k, t.nr, t.kr, 1)?;
    if a.n == 0 {
        return Ok(());
    }
    contract::require(a.k == 0 || !a.lhs_packed.is_null(), "lhs != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")
}

/// Runs a checked call: the kernel's asm on aarch64, [`portable`] elsewhere.
///
/// # Safety
/// [`check`] passed; the buffers hold the portion (see the module's `# Safety`); on aarch64 the
/// CPU implements `kernel.isa`.
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    // SAFETY: forwarded contract.
    unsafe { super::args::run_packed_or(kernel.native.packed(), a, || portable(kernel, a)) }
}

/// The portable path: the kernel's bits from the LHS row and the packed RHS, in its order (bias,
/// then the wrapping products in K order, then the requantization).
///
/// # Safety
/// As [`run`], with `n >= 1`.
pub unsafe fn portable(kernel: &MatmulKernel, a: &Args) {
    let nr = kernel.tile().nr;
    let kp = a.k.div_ceil(KR) * KR;
    // SAFETY: `params` is non-null (checked) and points at the caller's struct.
    let p = unsafe { gemm::requantize_params(a) };
    let order = gemm::clamp_order(kernel);
    for j in 0..a.n {
        // SAFETY: column j's group lies in the packed RHS; the row holds k bytes (the packed
        // K values past k are zero, so the row reads as zero there).
        let v = unsafe {
            let rhs = a.rhs_packed.add(j / nr * nr * (kp + 8));
            let x = |kk: usize| {
                if kk < a.k {
                    *a.lhs_packed.add(kk) as i8
                } else {
                    0
                }
            };
            gemm::column(rhs, (nr, j % nr), kp, x, p, order)
        };
        // SAFETY: element j of the destination row.
        unsafe { a.dst.add(j).write(v as u8) };
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, SME2_MOPA, kernel_entries, kernel_entry, native};
use crate::pack::kinds::Packer;
use crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme;

/// No LHS packer: the kernel reads the row as it is.
const NO_LHS_PACKER: &[&Packer] = &[];
/// The RHS packer (the GEMMs').
const RHS: &[&Packer] = &[&rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme];

/// The entry of the family's GEMV: one row, `16 x SVL32` columns per step in groups of
/// `2 x SVL32`, 4 K values per packed step, `SCLAMP`, both destination strides ignored.
macro_rules! qai8_gemv_entry {
    ($(#[$doc:meta])* $stem:ident, $module:ident) => {
        kernel_entry!($(#[$doc])* $stem, Qai8Qai8Qsi8cxp, NO_LHS_PACKER, RHS, Sme2,
            [1, 16, 1, 2, KR, 1], native!(self::$module), KleidiAi, PerSmeLane32, One,
            SME2_MOPA, Asserts::IGNORING_DST_STRIDE_COL);
    };
}

kernel_entries! {
    /// int8-output GEMV, one row x 16 x SVL32 columns per step, multi-vector `SDOT` into ZA
    /// vector groups (SME2), `SCLAMP`.
    matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot: qai8_gemv_entry!(
        matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot);
}
