//! `rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0`: per-channel int4 weights packed for the
//! `qai8dxp x qsi4cxp` kernels (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`nr` columns, `blen = kr / sr` bytes, `k_int` as for the LHS): `nr * k_int / 2`
//! data bytes, then `nr` x `i32` row sums (x16), `nr` x `f32` scales (/16), `nr` x `f32` biases.
//! Data byte `b`: block `b / blen` = super-block `sb` x column `col`, byte `j = b % blen`,
//! `kb = sb * blen + j`, `k0 = kb + 16 * (kb / 16)`; low nibble holds `w[col][k0]`, high nibble
//! `w[col][k0 + 16]`, both signed two's complement. Columns past `n` repeat column `n - 1`.
//! The x16 / /16 pair exists because the kernels decode nibbles as `byte << 4` and `byte & 0xf0`.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qsi4cxp as layout};
use crate::types::kai_rhs_pack_qs4cxs1s0_param;

use super::Source;

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Must be 1.
    pub num_groups: usize,
    /// Output channels.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Columns per packed group (the kernel's `nr`).
    pub nr: usize,
    /// The kernel's `kr`.
    pub kr: usize,
    /// The kernel's `sr`.
    pub sr: usize,
    /// Unpacked int4 weights.
    pub rhs: *const u8,
    /// Optional per-channel bias (`n` floats) or null.
    pub bias: *const f32,
    /// Per-channel scales (`n` floats).
    pub scale: *const f32,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// Zero points.
    pub params: *const kai_rhs_pack_qs4cxs1s0_param,
}

/// Checks what the packer requires of its arguments (KleidiAI's assertions plus size overflow).
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    // SAFETY: params is non-null and points to the C struct the caller passed.
    let p = unsafe { a.params.read_unaligned() };
    contract::require(p.lhs_zero_point == 1, "params->lhs_zero_point == 1")?;
    contract::require(
        p.rhs_zero_point == 0 || p.rhs_zero_point == 8,
        "params->rhs_zero_point == 0 || params->rhs_zero_point == 8",
    )?;
    contract::require(a.n != 0, "n > 0")?;
    contract::require(a.k != 0, "k > 0")?;
    RhsLayout::Qsi4cxp.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Reads the unsigned nibble of element (`n_idx`, `k_idx`) from the source.
///
/// # Safety
/// The element must lie inside the source matrix.
#[inline]
unsafe fn source_nibble(
    src: Source,
    rhs: *const u8,
    n: usize,
    k: usize,
    n_idx: usize,
    k_idx: usize,
) -> u8 {
    let (row, col, row_len) = match src {
        Source::Nxk => (n_idx, k_idx, k),
        Source::Kxn => (k_idx, n_idx, n),
    };
    let row_bytes = row_len.div_ceil(2);
    // SAFETY: row < rows and col / 2 < row_bytes by the caller's contract.
    let byte = unsafe { rhs.add(row * row_bytes + col / 2).read() };
    (byte >> ((col % 2) * 4)) & 0x0f
}

/// Signed value of a source nibble under the given zero point (8: unsigned with offset 8; 0:
/// two's complement).
#[inline]
pub fn signed_value(nibble: u8, rhs_zero_point: u8) -> i8 {
    if rhs_zero_point == 8 {
        nibble as i8 - 8
    } else {
        ((nibble << 4) as i8) >> 4
    }
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold the whole source matrix, `scale` (and `bias` when
/// non-null) `n` floats, and `rhs_packed` must be writable for the packed size
/// bytes.
pub unsafe fn run(src: Source, a: &Args) {
    // SAFETY: check() verified params is non-null.
    let zp = unsafe { a.params.read_unaligned() }.rhs_zero_point;
    let (n, k, nr) = (a.n, a.k, a.nr);
    let blen = a.kr / a.sr;
    let k_int = layout::k_internal(k, a.kr, a.sr).unwrap_or(0);
    let stride = layout::stride(k, nr, a.kr, a.sr).unwrap_or(0);
    let data_bytes = nr * k_int / 2;
    let value = |n_idx: usize, k_idx: usize| -> i8 {
        if k_idx < k {
            // SAFETY: n_idx < n (clamped by the caller) and k_idx < k.
            signed_value(unsafe { source_nibble(src, a.rhs, n, k, n_idx, k_idx) }, zp)
        } else {
            0
        }
    };
    const WINDOW: usize = 64;
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(g * stride) };
        // Row sums accumulate on the stack, WINDOW columns per pass over the data bytes.
        for first_col in (0..nr).step_by(WINDOW) {
            let mut sums = [0i32; WINDOW];
            for b in 0..data_bytes {
                let (block, j) = (b / blen, b % blen);
                let (sb, col) = (block / nr, block % nr);
                if col < first_col || col >= first_col + WINDOW {
                    continue;
                }
                let kb = sb * blen + j;
                let k0 = kb + 16 * (kb / 16);
                let n_idx = (g * nr + col).min(n - 1);
                let (lo, hi) = (value(n_idx, k0), value(n_idx, k0 + 16));
                sums[col - first_col] += lo as i32 + hi as i32;
                // SAFETY: b < data_bytes.
                unsafe { dst.add(b).write((lo as u8 & 0x0f) | ((hi as u8) << 4)) };
            }
            for (col, sum) in (first_col..nr.min(first_col + WINDOW)).zip(sums) {
                let n_idx = (g * nr + col).min(n - 1);
                // SAFETY: scale has n entries, bias too when non-null; the trailer is in the group.
                unsafe {
                    let scale = a.scale.add(n_idx).read_unaligned();
                    let bias = super::bias_at(a.bias, n_idx);
                    let trailer = dst.add(data_bytes);
                    super::write_column_trailer(
                        trailer,
                        nr,
                        col,
                        sum.wrapping_mul(16),
                        scale * 0.0625,
                        bias,
                    );
                }
            }
        }
    }
}
