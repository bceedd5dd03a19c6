//! KleidiAI's two generic-interface packers of 16-bit K x N weights with a 16-bit bias per column:
//! `kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve` (the RHS of the f16 SVE2.1 dot kernel) and
//! `kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme` (the RHS of the generic f16 SME2 kernels,
//! `f16p4vsx2bf16`). They share one format and differ in its block width ([`Width`]) and in one
//! assumption (the SME one's `get_bias_n_offset` asserts nothing).
//!
//! Format: column blocks of `nr` columns (SVE: 16 x vscale with vscale = SVE bytes / 16, the SVE
//! vector length in bytes; SME: 4 x vscale with vscale = SVL / 128, the streaming length in
//! 32-bit lanes), each `stride.n` bytes after the previous. A block holds `nr` biases, then for
//! each pair of K rows (`kr` = 2, K rounded up to even) `nr` pairs: value `2 * j + t` is row
//! `2 * p + t` of column `j`. Columns past `n`, the missing row of an odd K and the biases of a
//! null bias are zero. The values are copied as bits (no conversion).
//!
//! Without SVE (SME) on the CPU the format is the one of a 128-bit length, as for rkai's other
//! SVE (SME) packers; KleidiAI's packers need the extension. The pair interleave is NEON on
//! AArch64 (`ZIP1`/`ZIP2`, stable intrinsics: the packer copies and so needs nothing of SVE or
//! SME but the length, and so no streaming mode and no ZA state to commit), portable elsewhere
//! and for the last few columns of a block. Where KleidiAI's SME code differs on arguments
//! outside its contract, rkai writes only inside the blocks: its bias loop stores a whole
//! streaming vector (2 x `nr` values) per block, which the rows overwrite but which, for
//! `k == 0`, runs `nr` values past the packed size; a null bias faults there, rkai packs zeros.

use crate::arch;
use crate::contract::{self, Violation};
use core::ptr;

/// Bytes of one value and of one bias.
const BYTES: usize = 2;
/// K values interleaved per column.
const KR: usize = 2;

/// Which of the two providers: the block width follows the SVE or the streaming length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// nr = 16 x vscale of SVE (`rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`).
    Sve16vs,
    /// nr = 4 x vscale of SME (`matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme`).
    Sme4vs,
}

impl Width {
    /// Columns per block and N step (128-bit lengths without the extension).
    pub fn nr(self) -> usize {
        match self {
            Width::Sve16vs => 4 * arch::sve_lanes32(),
            Width::Sme4vs => arch::sme_lanes32(),
        }
    }
}

/// Strides of the unpacked source of `n` columns: along N 2 bytes, along K one row.
pub const fn rhs_stride(n: usize) -> (usize, usize) {
    (BYTES, n.wrapping_mul(BYTES))
}

/// Bytes of one packed column block for `k` rows (wrapping, as KleidiAI's unchecked sum does).
pub fn packed_stride(w: Width, k: usize) -> usize {
    let k_even = k.wrapping_add(KR - 1) / KR * KR;
    w.nr()
        .wrapping_mul(BYTES.wrapping_add(k_even.wrapping_mul(BYTES)))
}

/// KleidiAI's assumptions on a start column (`n_idx`) and start row (`k_idx`).
fn aligned(w: Width, n_idx: usize, k_idx: usize) -> Result<(), Violation> {
    contract::require(n_idx % w.nr() == 0, "index->n % get_n_step() == 0")?;
    contract::require(k_idx == 0, "index->k == 0")
}

/// Byte offset of column `n_idx` in the source (K must not be split).
pub fn rhs_offset(w: Width, n_idx: usize, k_idx: usize) -> Result<usize, Violation> {
    aligned(w, n_idx, k_idx)?;
    Ok(n_idx.wrapping_mul(BYTES))
}

/// Byte offset of the block of column `n_idx` in the packed RHS with block stride `stride`.
pub fn packed_offset(
    w: Width,
    n_idx: usize,
    k_idx: usize,
    stride: usize,
) -> Result<usize, Violation> {
    aligned(w, n_idx, k_idx)?;
    Ok((n_idx / w.nr()).wrapping_mul(stride))
}

/// Bytes of the packed RHS of `n` columns with block stride `stride`.
pub fn packed_size(w: Width, n: usize, stride: usize) -> usize {
    n.div_ceil(w.nr()).wrapping_mul(stride)
}

/// Byte offset of column `n_idx` in the bias (only the SVE provider assumes a block start).
pub fn bias_offset(w: Width, n_idx: usize) -> Result<usize, Violation> {
    if w == Width::Sve16vs {
        contract::require(n_idx % w.nr() == 0, "index->n % get_n_step() == 0")?;
    }
    Ok(n_idx.wrapping_mul(BYTES))
}

/// One packing call, from `kai_matmul_pack_rhs_uker_args`.
pub use super::args::UkerRhsArgs as Args;

/// Packs the weights. KleidiAI asserts nothing here; `n == 0` writes nothing and `k == 0` only
/// the biases (KleidiAI's loops run once in both cases and write past the packed size).
///
/// # Safety
/// `rhs` holds `k` rows of `n` values `rhs_stride` bytes apart, `bias` is null or holds `n`
/// values, and each of the `n.div_ceil(w.nr())` blocks at `rhs_packed + b * packed_stride` is
/// writable for `packed_stride(w, k)` bytes.
pub unsafe fn run(w: Width, a: &Args) {
    let nr = w.nr();
    let row_bytes = nr * BYTES;
    let pair_bytes = KR * row_bytes;
    for block in 0..a.n.div_ceil(nr) {
        let col0 = block * nr;
        let cols = nr.min(a.n - col0);
        // SAFETY (whole block): the function contract; every write below stays in the block's
        // `packed_stride(k)` bytes and every read in columns col0..col0 + cols of a row.
        unsafe {
            let out = a.rhs_packed.add(block * a.packed_stride);
            let used = if a.bias.is_null() { 0 } else { cols * BYTES };
            if used != 0 {
                ptr::copy_nonoverlapping(a.bias.add(col0 * BYTES), out, used);
            }
            ptr::write_bytes(out.add(used), 0, row_bytes - used);
            let src = a.rhs.add(col0 * BYTES);
            for pair in 0..a.k.div_ceil(KR) {
                let row0 = src.add(KR * pair * a.rhs_stride);
                // The odd last row pairs with zeros.
                let row1 = (KR * pair + 1 < a.k).then(|| row0.add(a.rhs_stride));
                interleave(out.add(row_bytes + pair * pair_bytes), row0, row1, cols, nr);
            }
        }
    }
}

/// Writes `nr` pairs: `(row0[j], row1[j])` for `j < cols` (`row1` none: zeros), then zeros.
///
/// # Safety
/// `out` is writable for `2 * nr` values; `row0` and `row1` hold `cols` values.
unsafe fn interleave(
    out: *mut u8,
    row0: *const u8,
    row1: Option<*const u8>,
    cols: usize,
    nr: usize,
) {
    // SAFETY: forwarded contract.
    let done = unsafe { interleave_fast(out, row0, row1, cols) };
    for j in done..cols {
        // SAFETY: j < cols; the pair lies inside the 2 * nr values of `out`.
        unsafe {
            ptr::copy_nonoverlapping(row0.add(j * BYTES), out.add(2 * j * BYTES), BYTES);
            match row1 {
                Some(r) => {
                    ptr::copy_nonoverlapping(r.add(j * BYTES), out.add((2 * j + 1) * BYTES), BYTES)
                }
                None => ptr::write_bytes(out.add((2 * j + 1) * BYTES), 0, BYTES),
            }
        }
    }
    // SAFETY: the tail of the 2 * nr values.
    unsafe { ptr::write_bytes(out.add(2 * cols * BYTES), 0, 2 * (nr - cols) * BYTES) };
}

/// The first `8 * floor(cols / 8)` columns of [`interleave`] with NEON; returns how many.
///
/// # Safety
/// As for [`interleave`].
#[cfg(target_arch = "aarch64")]
unsafe fn interleave_fast(
    out: *mut u8,
    row0: *const u8,
    row1: Option<*const u8>,
    cols: usize,
) -> usize {
    use core::arch::aarch64::*;
    let chunks = cols / 8;
    for c in 0..chunks {
        let at = c * 8 * BYTES;
        // SAFETY: chunk c covers columns 8c..8c + 8 <= cols of both rows and values 16c..16c + 16
        // of `out`; byte loads and stores need no alignment. NEON is part of AArch64.
        unsafe {
            let a = vreinterpretq_u16_u8(vld1q_u8(row0.add(at)));
            let b = match row1 {
                Some(r) => vreinterpretq_u16_u8(vld1q_u8(r.add(at))),
                None => vdupq_n_u16(0),
            };
            let dst = out.add(2 * at);
            vst1q_u8(dst, vreinterpretq_u8_u16(vzip1q_u16(a, b)));
            vst1q_u8(dst.add(16), vreinterpretq_u8_u16(vzip2q_u16(a, b)));
        }
    }
    chunks * 8
}

#[cfg(not(target_arch = "aarch64"))]
unsafe fn interleave_fast(_: *mut u8, _: *const u8, _: Option<*const u8>, _: usize) -> usize {
    0
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::{UkerRhsKind, UkerRhsPacker};

/// `kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve()` (nr = 16 x vscale), named by its C name as
/// every catalog entry is.
#[allow(non_upper_case_globals)]
pub static rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve: UkerRhsPacker = UkerRhsPacker {
    name: "rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve",
    isa: Isa::Sve,
    kind: UkerRhsKind::KxnX16p16vsx2bx16Sve,
};

/// `kai_matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme()` (nr = 4 x vscale of SME).
#[allow(non_upper_case_globals)]
pub static matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme: UkerRhsPacker = UkerRhsPacker {
    name: "matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme",
    isa: Isa::Sme,
    kind: UkerRhsKind::KxnX16p4vsx2bx16Sme,
};

/// The providers this module implements.
pub const PACKERS: &[&UkerRhsPacker] = &[
    &rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve,
    &matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme,
];
