//! `rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon` and `rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon`:
//! per-channel 2-bit weights (llama.cpp's Q2_0C) packed for the `qai8dxp x qsu2cxp` kernels,
//! KleidiAI 1.30's bytes.
//!
//! Source: N rows of `k / 4` bytes, K value `4b + s` in bits `2s..2s + 2` of byte `b`, each an
//! unsigned code 0..=3 that a 4-entry table (`lut`, default `{-2, -1, 0, 1}`: zero point 2)
//! maps to a weight. Group of `nr` columns: `nr * k / 4` data bytes, then `nr` x `i32` sums of
//! the table values, `nr` x `f32` scales, `nr` x `f32` biases (scales and biases 0 past `n`).
//!
//! * `4x4` (`nr` = 4, the NEON kernels): per 16 K values and column, 4 bytes; byte `i` holds K
//!   `16c + 4s + i` in bits `2s` (a `tbl` of each 2-bit slot gives the 4 K values an `SDOT` lane
//!   reads). Columns past `n`: code 2 everywhere (`0xAA`), sum 0.
//! * `4vlx4` (`nr` = 4 x SVL32, the SME2 kernels): per 4 K values, one source byte of each column
//!   in turn (the source byte unchanged). Columns past `n` repeat column `n - 1`, its sum too.
//!
//! Sums follow KleidiAI's arithmetic exactly, which differs from `sum(lut[code])` only for
//! tables with values outside -64..=63: the vectorised paths add the table values truncated to
//! int8 in pairs (codes of bit pairs 0/1 and 2/3 of a byte) with int8 wrap-around, then widen;
//! the `4x4` packer's scalar path (the group holding the last column, whose source ends there)
//! adds the full `i32` values.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsu2cxp as layout};
use crate::pack::args::RhsArgs as Args;
use crate::types::kai_rhs_pack_qs4cxs1s0_param;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Qsu2cxpPacker as Variant;

/// KleidiAI's table when the caller passes none: code `c` is weight `c - 2`.
pub const DEFAULT_LUT: [i32; 4] = [-2, -1, 0, 1];

/// K must be a multiple of this (KleidiAI's `kai_k_multiple_of`).
pub const K_MULTIPLE: usize = 32;

/// The table a caller's `lut` (4 x `i32`, or null) stands for.
///
/// # Safety
/// A non-null `lut` points to 4 readable `i32`.
pub unsafe fn table(lut: *const i32) -> [i32; 4] {
    if lut.is_null() {
        DEFAULT_LUT
    } else {
        // SAFETY: the caller's table has 4 entries.
        unsafe { core::array::from_fn(|i| lut.add(i).read_unaligned()) }
    }
}

/// The sum KleidiAI's vectorised paths add for one source byte: codes 0/1 and 2/3 looked up as
/// int8 and added in int8 (wrapping), the two results widened.
pub fn byte_sum(lut: &[i32; 4], byte: u8) -> i32 {
    let v = |s: u32| lut[usize::from((byte >> (2 * s)) & 3)] as i8;
    i32::from(v(0).wrapping_add(v(1))) + i32::from(v(2).wrapping_add(v(3)))
}

/// Checks what the packer requires: KleidiAI's assertions in its order, plus `nr` a multiple
/// of 8 for `4vlx4` (KleidiAI writes 8 columns at a time and would write past the group) and
/// sizes that fit.
pub fn check(v: Variant, a: &Args) -> Checked {
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    let k_int = crate::layout::qai8dxp::k_internal(a.k, a.kr, a.sr)?;
    contract::require(k_int % a.kr == 0, "(k_internal % kr) == 0")?;
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(a.kr % a.sr == 0, "(kr % sr) == 0")?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the C struct the caller passed.
    let p = unsafe {
        a.params
            .cast::<kai_rhs_pack_qs4cxs1s0_param>()
            .read_unaligned()
    };
    contract::require(p.lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    contract::require(p.rhs_zero_point == 2, "params->rhs_zero_point == 2")?;
    contract::require(a.k % K_MULTIPLE == 0, "k % kai_k_multiple_of == 0")?;
    contract::require(a.kr / a.sr == 4, "(kr / sr) == 4")?;
    match v {
        Variant::P4x4 => contract::require(a.nr == 4, "nr == 4")?,
        Variant::P4vlx4 => contract::require(a.nr % 8 == 0, "nr % 8 == 0")?,
    }
    RhsLayout::Qsu2cxp.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Packs `a.n` rows (see the module documentation).
///
/// # Safety
/// [`check`] passed; `rhs` holds `n` rows of `k / 4` bytes, `scale` (and a non-null `bias`) `n`
/// floats, a non-null `lut` 4 `i32`, and `rhs_packed` the packed size.
pub unsafe fn run(v: Variant, a: &Args) {
    let (n, k, nr) = (a.n, a.k, a.nr);
    // SAFETY: forwarded contract.
    let lut = unsafe { table(a.lut) };
    let row_bytes = k / 4;
    let stride = layout::stride(k, nr, a.kr, a.sr).unwrap_or(0);
    let (scale, bias) = (a.scale.cast::<f32>(), a.bias.cast::<f32>());
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(g * stride) };
        // Only the 4x4 packer's last group takes the scalar path (full i32 table values).
        let scalar_sums = v == Variant::P4x4 && g * nr + nr >= n;
        for col in 0..nr {
            let n_idx = g * nr + col;
            let real = n_idx < n;
            let source = match v {
                Variant::P4x4 if !real => None,
                _ => Some(n_idx.min(n - 1)),
            };
            let mut sum = 0i32;
            if let Some(row) = source {
                // SAFETY: row < n rows of row_bytes bytes.
                let src =
                    unsafe { core::slice::from_raw_parts(a.rhs.add(row * row_bytes), row_bytes) };
                for &byte in src {
                    sum = sum.wrapping_add(if scalar_sums {
                        (0..4).fold(0i32, |s, i| {
                            s.wrapping_add(lut[usize::from((byte >> (2 * i)) & 3)])
                        })
                    } else {
                        byte_sum(&lut, byte)
                    });
                }
                // SAFETY: every write below lies in the group's nr * k / 4 data bytes.
                unsafe { write_column(v, dst, nr, col, src) };
            } else {
                // SAFETY: as above (4x4 only: 4 bytes per 16 K values of this column).
                unsafe {
                    for c in 0..k / 16 {
                        dst.add(16 * c + 4 * col)
                            .cast::<u32>()
                            .write_unaligned(0xAAAA_AAAA);
                    }
                }
            }
            let (s, b) = if real {
                // SAFETY: n_idx < n entries.
                unsafe {
                    (
                        scale.add(n_idx).read_unaligned(),
                        super::bias_at(bias, n_idx),
                    )
                }
            } else {
                (0.0, 0.0)
            };
            // SAFETY: the trailer follows the group's nr * k / 4 data bytes; col < nr.
            unsafe { super::write_column_trailer(dst.add(nr * k / 4), nr, col, sum, s, b) };
        }
    }
}

/// Writes column `col`'s data from its source row `src` into the group at `dst`.
///
/// # Safety
/// `dst` holds a group of `nr` columns of `4 * src.len()` K values.
unsafe fn write_column(v: Variant, dst: *mut u8, nr: usize, col: usize, src: &[u8]) {
    match v {
        Variant::P4x4 => {
            // 4 source bytes (16 K values) become 4 bytes: output byte i gathers slot i of each
            // source byte s into bits 2s.
            for (c, chunk) in src.chunks_exact(4).enumerate() {
                let word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                let mut out = 0u32;
                for i in 0..4 {
                    for s in 0..4 {
                        let code = (word >> (8 * s + 2 * i)) & 3;
                        out |= code << (8 * i + 2 * s);
                    }
                }
                // SAFETY: byte 16c + 4col .. + 4 of the group's data.
                unsafe { dst.add(16 * c + 4 * col).cast::<u32>().write_unaligned(out) };
            }
        }
        Variant::P4vlx4 => {
            for (b, &byte) in src.iter().enumerate() {
                // SAFETY: byte b * nr + col of the group's data.
                unsafe { dst.add(b * nr + col).write(byte) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// 2-bit weights of the NEON kernels.
    rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon: Rhs(Qsu2cxp(Variant::P4x4));
    /// 2-bit weights of the SME2 kernels.
    rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon: Rhs(Qsu2cxp(Variant::P4vlx4));
}
