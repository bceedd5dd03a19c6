//! `rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon`: per-channel int8 weights packed for the
//! `qai8dxp x qsi8cxp` kernels (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`nr` columns, `k_int = roundup(k, 32)`): `nr * k_int` int8 values, element
//! (column c, k) at `(k / kr) * nr * kr + c * kr + k % kr` (zero K padding), then `nr` x `i32` row
//! sums multiplied by the LHS zero point parameter, `nr` x `f32` scales and `nr` x `f32` biases.
//! Columns past `n` repeat column `n - 1`.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qai8dxp, qsi8cxp as layout};
use crate::pack::Source;
use crate::types::kai_rhs_pack_qsi8cx_params;

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
    /// The kernel's `kr` (values per column block).
    pub kr: usize,
    /// The kernel's `sr`: must be 1.
    pub sr: usize,
    /// Unpacked int8 weights.
    pub rhs: *const i8,
    /// Optional per-channel bias (`n` floats) or null.
    pub bias: *const f32,
    /// Per-channel scales (`n` floats).
    pub scale: *const f32,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// LHS zero point folded into the row sums (`scale_multiplier` is unused).
    pub params: *const kai_rhs_pack_qsi8cx_params,
}

/// Checks what the packer requires of its arguments (KleidiAI's assertions, plus block sizes
/// that tile a 32-value chunk and size overflow).
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(a.sr == 1, "sr == 1")?;
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    contract::require(qai8dxp::K_MULTIPLE % a.kr == 0, "32 % kr == 0")?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    contract::require(a.n != 0, "n > 0")?;
    contract::require(a.k != 0, "k > 0")?;
    RhsLayout::Qsi8cxp.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold the `n` x `k` (or `k` x `n`) matrix, `scale` (and
/// `bias` when non-null) `n` floats, and `rhs_packed` must be writable for the packed size.
pub unsafe fn run(src: Source, a: &Args) {
    // SAFETY: check() verified params is non-null.
    let lhs_zero_point = unsafe { a.params.read_unaligned() }.lhs_zero_point;
    let (n, k, nr, kr) = (a.n, a.k, a.nr, a.kr);
    let k_int = qai8dxp::k_internal(k, kr, a.sr).unwrap_or(0);
    let stride = layout::stride(k, nr, kr, a.sr).unwrap_or(0);
    let value = |n_idx: usize, k_idx: usize| -> i8 {
        if k_idx >= k {
            return 0;
        }
        let at = match src {
            Source::Nxk => n_idx * k + k_idx,
            Source::Kxn => k_idx * n + n_idx,
        };
        // SAFETY: n_idx < n and k_idx < k lie inside the source matrix.
        unsafe { *a.rhs.add(at) }
    };
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(g * stride) };
        for col in 0..nr {
            let n_idx = (g * nr + col).min(n - 1);
            let mut sum = 0i32;
            for kk in 0..k_int {
                let v = value(n_idx, kk);
                sum += v as i32;
                // SAFETY: the element's address is below nr * k_int.
                unsafe {
                    dst.add((kk / kr) * nr * kr + col * kr + kk % kr)
                        .write(v as u8)
                };
            }
            // SAFETY: scale has n entries, bias too when non-null; the trailer is in the group.
            unsafe {
                let scale = a.scale.add(n_idx).read_unaligned();
                let bias = super::bias_at(a.bias, n_idx);
                let trailer = dst.add(nr * k_int);
                super::write_column_trailer(
                    trailer,
                    nr,
                    col,
                    sum.wrapping_mul(lhs_zero_point),
                    scale,
                    bias,
                );
            }
        }
    }
}
