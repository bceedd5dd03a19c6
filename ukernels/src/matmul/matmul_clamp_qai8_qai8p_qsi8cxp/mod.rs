//! `matmul_clamp_qai8_qai8p_qsi8cxp`: KleidiAI's SME int8-output GEMMs (XNNPACK's `pqs8`
//! GEMMs). int8 output = int8 LHS (packed in streaming-length tiles) x int8 weights (packed with
//! folded biases and scales), requantized by `kai_matmul_requantize32_params`
//! ([`Operands::Qai8pQsi8cxpsb`]). KleidiAI names the interface header of this directory
//! `kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_interface.h`.
//!
//! # Packed operands
//!
//! With `vl` = SVL32 (32-bit lanes of the streaming vector), `mr = nr = 2 vl` and `kr = 4`:
//! - LHS ([`lhs_pack_x8p2vlx4_x8_sme`]): blocks of `mr` rows, `mr * roundup(k, 4)` bytes each:
//!   per step of 4 K values, those 4 bytes of each row in turn; rows past `m` and K values past
//!   `k` are zeros.
//! - RHS ([`rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`], [`RhsLayout::Qsi8cxpsb`]): groups of
//!   `nr` columns: `nr` `i32` biases (the LHS zero point folded in), per step of 4 K values 4
//!   bytes of each column in turn, `nr` `f32` scales.
//! - dst: row `i` of `n` `int8_t` at byte offset `i * dst_stride_row`; `dst_stride_col` is
//!   ignored (KleidiAI's `run` does not read it).
//!
//! # Numerics
//!
//! Each `mr` x `nr` tile is four ZA tiles, zeroed, then the biases added to every row (`ADDHA`),
//! then one `SMOPA` per step of 4 K values: all in wrapping `i32`. Each sum is then requantized
//! as [`reference::qai8::requantize`] describes (`SCVTF`, `FMUL` by the column's scale, `FRINTN`,
//! `FCVTZS`, wrapping add of the output zero point, clamp, low byte). The clamp is the one
//! difference between the kernels: `SMIN` with `max_value` then `SMAX` with `min_value` (SME),
//! `SCLAMP` (SME2); they differ only when `min_value > max_value`, which KleidiAI does not
//! reject ([`clamp_order`]). The portable path computes the same from the packed operands.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, params)` of the family
//! requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`;
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS blocks and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (read whole);
//! * `dst` valid for writes of the `n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written;
//! * `params` valid for a read of one `kai_matmul_requantize32_params`;
//! * no alignment of any pointer.
//!
//! [`Operands::Qai8pQsi8cxpsb`]: crate::family::Operands::Qai8pQsi8cxpsb
//! [`lhs_pack_x8p2vlx4_x8_sme`]: crate::pack::lhs_pack_sme_rows::lhs_pack_x8p2vlx4_x8_sme
//! [`rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`]: crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
//! [`RhsLayout::Qsi8cxpsb`]: crate::layout::RhsLayout::Qsi8cxpsb
//! [`reference::qai8::requantize`]: crate::reference::qai8::requantize

asm_kernel_modules! {
    matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa,
    matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa,
}

pub use super::args::PackedArgs as Args;
use crate::contract::{self, Checked};
use crate::kernel::{Clamp, MatmulKernel};
use crate::reference::qai8::{self, ClampOrder, Requantize};

/// K values per packed step.
pub const KR: usize = 4;

/// The order in which `kernel` applies the two bounds: `SCLAMP` for an SME2 kernel (its
/// epilogue's [`Clamp::MaxNumThenMinNum`]), `SMIN` then `SMAX` otherwise.
pub fn clamp_order(kernel: &MatmulKernel) -> ClampOrder {
    match kernel.epilogue.clamp {
        Clamp::MaxNumThenMinNum => ClampOrder::LowerFirst,
        Clamp::MaxThenMin | Clamp::NarrowedMaxNumThenMinNum => ClampOrder::UpperFirst,
    }
}

/// Checks a call of `kernel`. KleidiAI's `run` asserts nothing; rkai refuses what would make
/// it read or write out of bounds: null buffers or parameters, a destination row stride that
/// does not hold a row, packed sizes that do not fit. An empty portion passes (nothing runs).
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let t = kernel.tile();
    let cond = "packed LHS size fits in size_t";
    let lhs_row = contract::roundup(a.k, t.kr, cond)?;
    kernel.family.rhs_layout(0).stride(a.k, t.nr, t.kr, 1)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::mul(contract::roundup(a.m, t.mr, cond)?, lhs_row, cond)?;
    contract::require(a.k == 0 || !a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    contract::require(
        a.m == 1 || a.dst_stride_row >= a.n,
        "dst_stride_row >= n * sizeof(int8_t)",
    )
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

/// The portable path: the kernels' bits from the packed operands, in their order (bias, then
/// the wrapping products in K order, then the requantization).
///
/// # Safety
/// As [`run`], with `m`, `n` >= 1.
pub unsafe fn portable(kernel: &MatmulKernel, a: &Args) {
    let t = kernel.tile();
    let kp = a.k.div_ceil(KR) * KR;
    // SAFETY: `params` is non-null (checked) and points at the caller's struct.
    let p = unsafe { requantize_params(a) };
    let order = clamp_order(kernel);
    let group = t.nr * (kp + 8);
    for i in 0..a.m {
        let (block, r) = (i / t.mr, i % t.mr);
        // SAFETY: row i's block lies in the packed LHS.
        let lhs = unsafe { a.lhs_packed.add(block * t.mr * kp) };
        for j in 0..a.n {
            // SAFETY: column j's group lies in the packed RHS, and K value kk of row r at its
            // step's place in row i's block.
            let v = unsafe {
                let rhs = a.rhs_packed.add(j / t.nr * group);
                let x = |kk: usize| *lhs.add(kk / KR * t.mr * KR + r * KR + kk % KR) as i8;
                column(rhs, (t.nr, j % t.nr), kp, x, p, order)
            };
            // SAFETY: element (i, j) of the portion's destination.
            unsafe { a.dst.add(i * a.dst_stride_row + j).write(v as u8) };
        }
    }
}

/// The call's `kai_matmul_requantize32_params` as values.
///
/// # Safety
/// `a.params` points at a readable struct.
pub(crate) unsafe fn requantize_params(a: &Args) -> Requantize {
    // SAFETY: the caller's guarantee.
    let q = unsafe { a.params.read_unaligned() };
    Requantize {
        min_value: q.min_value,
        max_value: q.max_value,
        output_zero_point: q.output_zero_point,
    }
}

/// The output of column `c` of the `nr` columns of the packed group at `rhs` (`(nr, c)`), whose
/// K steps hold `kp` values, for the LHS values `x(kk)` (`kk < kp`): the packed bias plus the
/// wrapping products in K order, requantized.
///
/// # Safety
/// `rhs` points at a whole group of `nr` columns over `kp` K values.
pub(crate) unsafe fn column(
    rhs: *const u8,
    (nr, c): (usize, usize),
    kp: usize,
    x: impl Fn(usize) -> i8,
    p: Requantize,
    order: ClampOrder,
) -> i8 {
    // SAFETY: bias c and scale c of the group.
    let (mut acc, scale) = unsafe {
        (
            rhs.add(4 * c).cast::<i32>().read_unaligned(),
            rhs.add(4 * nr + kp * nr + 4 * c)
                .cast::<f32>()
                .read_unaligned(),
        )
    };
    for kk in 0..kp {
        // SAFETY: K value kk of column c, in its step.
        let w = unsafe { *rhs.add(4 * nr + kk / KR * nr * KR + c * KR + kk % KR) as i8 };
        acc = acc.wrapping_add(i32::from(x(kk)) * i32::from(w));
    }
    qai8::requantize(acc, scale, p, order)
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{float_mopa_entry, kernel_entries};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_sme_rows::lhs_pack_x8p2vlx4_x8_sme;
use crate::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme;

/// The LHS packer of both kernels.
const LHS: &[&Packer] = &[&lhs_pack_x8p2vlx4_x8_sme];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme];

kernel_entries! {
    /// int8-output GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `SMOPA` into four ZA
    /// tiles, `SMIN`/`SMAX`.
    matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa: float_mopa_entry!(
        Qai8Qai8pQsi8cxp, LHS, RHS, Sme, kr 4,
        self::matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa);
    /// int8-output GEMM, 2 x SVL32 rows x 2 x SVL32 columns per step, `SMOPA` into four ZA
    /// tiles, SME2's four-vector loads, `SCLAMP`.
    matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa: float_mopa_entry!(
        Qai8Qai8pQsi8cxp, LHS, RHS, Sme2, kr 4,
        self::matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa);
}
