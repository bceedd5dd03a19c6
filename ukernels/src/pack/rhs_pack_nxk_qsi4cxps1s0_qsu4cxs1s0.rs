//! `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon`: per-channel int4 weights with sequential nibbles,
//! the format KleidiAI's SME2 `qsi4cxp` kernels read (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`nr` columns, `k_int = roundup(k, 32)`): for each block of `kr` K values, for
//! each column, `kr / 2` bytes holding K values `2i` (low nibble) and `2i + 1` (high nibble) as
//! signed int4; then `nr` x `i32` plain sums (no x16), `nr` x `f32` scales and `nr` x `f32`
//! biases (both unscaled). Padding K values are 0; columns past `n` are all zero (data, sums,
//! scales and biases), unlike the `s16s0` packer which repeats the last column.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qai8dxp, qsi4cxp as layout};
use crate::pack::rhs_pack_qsi4cxp_qs4cxs1s0::{Args, signed_value};

/// Checks what the packer requires (KleidiAI's assertions, plus an even `kr`: two values per
/// byte).
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    contract::require(a.kr % 2 == 0, "(kr % 2) == 0")?;
    let k_int = qai8dxp::k_internal(a.k, a.kr, a.sr)?;
    contract::require(k_int % a.kr == 0, "(k_internal % kr) == 0")?;
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

/// Packs an N x K source (row stride `roundup(k, 2) / 2`, low nibble = even k).
///
/// # Safety
/// [`check`] must have passed; `rhs` holds the matrix, `scale` (and `bias` when non-null) `n`
/// floats, and `rhs_packed` is writable for the packed size.
pub unsafe fn run(a: &Args) {
    // SAFETY: check() verified params is non-null.
    let zp = unsafe { a.params.read_unaligned() }.rhs_zero_point;
    let (n, k, nr, kr) = (a.n, a.k, a.nr, a.kr);
    let k_int = qai8dxp::k_internal(k, kr, a.sr).unwrap_or(0);
    let stride = layout::stride(k, nr, kr, a.sr).unwrap_or(0);
    let row_bytes = k.div_ceil(2);
    for g in 0..n.div_ceil(nr) {
        // SAFETY: group g lies inside the packed buffer.
        let dst = unsafe { a.rhs_packed.add(g * stride) };
        for col in 0..nr {
            let n_idx = g * nr + col;
            let real = n_idx < n;
            let mut sum = 0i32;
            for kk in (0..k_int).step_by(2) {
                let value = |k_idx: usize| -> i8 {
                    if !real || k_idx >= k {
                        return 0;
                    }
                    // SAFETY: n_idx < n and k_idx < k lie inside the source.
                    let byte = unsafe { *a.rhs.add(n_idx * row_bytes + k_idx / 2) };
                    signed_value((byte >> (4 * (k_idx % 2))) & 0x0f, zp)
                };
                let (lo, hi) = (value(kk), value(kk + 1));
                sum += lo as i32 + hi as i32;
                let at = (kk / kr) * nr * (kr / 2) + col * (kr / 2) + (kk % kr) / 2;
                // SAFETY: at < nr * k_int / 2.
                unsafe { dst.add(at).write((lo as u8 & 0x0f) | ((hi as u8) << 4)) };
            }
            let (scale, bias) = if real {
                // SAFETY: n_idx < n entries of scale and bias.
                unsafe {
                    (
                        a.scale.add(n_idx).read_unaligned(),
                        super::bias_at(a.bias, n_idx),
                    )
                }
            } else {
                (0.0, 0.0)
            };
            // SAFETY: the trailer follows the group's nr * k_int / 2 data bytes; col < nr.
            unsafe {
                super::write_column_trailer(dst.add(nr * k_int / 2), nr, col, sum, scale, bias)
            };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// the format of KleidiAI's SME2 int4 kernels.
    rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon: Rhs(Qsi4cxps1s0);
}
