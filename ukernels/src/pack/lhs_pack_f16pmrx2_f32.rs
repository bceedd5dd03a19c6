//! `kai_lhs_pack_f16pmrx2_f32_neon`: f32 rows converted to f16 and packed in blocks of `mr` rows
//! by pairs of K values (block depth `kr / sr` = 2), the LHS format of KleidiAI's
//! `matmul_clamp_f32_f16p_qsi4c32p` SME2 kernel (`mr` = the streaming vector length in 32-bit
//! lanes; see that family's module).
//!
//! Format: block `b` (rows `b * mr ..`) takes `mr * k` halves; within it, pair `p` of row `i` is
//! at halves `2 * (p * mr + i)` and `+ 1`, holding row values `2p` and `2p + 1`. Rows past `m` in
//! the last block are not written (KleidiAI leaves them as they were). Values are rounded as
//! `FCVTN` does ([`crate::float::f16::from_f32`]: ties to even, overflow to infinity, NaNs quieted
//! with their top payload bits).
//!
//! KleidiAI's `run` asserts only `sr == 2`, reads rows `k` floats apart whatever `lhs_stride` is,
//! and ignores `bl`, `kr` and `m_idx_start`; rkai does the same. Its loop moves by 16 values and
//! overruns both buffers when `k` is not a multiple of 16; rkai packs exactly the `k / 2` pairs
//! there (the same bytes inside the buffer), and refuses an odd `k`, whose last pair has no
//! second value.

use crate::contract::{self, Checked, Violation};
use crate::float::f16;

/// KleidiAI's getter assertions: `k` even and a multiple of `kr` and of `bl` (a zero divisor is
/// refused with the same condition).
pub fn check_getter(k: usize, bl: usize, kr: usize) -> Checked {
    contract::require(k % 2 == 0, "(k % 2) == 0")?;
    contract::require(kr != 0 && k % kr == 0, "(k % kr) == 0")?;
    contract::require(bl != 0 && k % bl == 0, "(k % bl) == 0")
}

/// Bytes of one block of `mr` rows.
fn block_bytes(k: usize, mr: usize) -> Result<usize, Violation> {
    let halves = contract::mul(mr, k, "mr * k fits in size_t")?;
    contract::mul(halves, 2, "packed LHS size fits in size_t")
}

/// `get_lhs_packed_offset(m_idx, k, bl, mr, kr, sr)`.
pub fn packed_offset(
    m_idx: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kr: usize,
) -> Result<usize, Violation> {
    check_getter(k, bl, kr)?;
    contract::require(mr != 0 && m_idx % mr == 0, "(m_idx % mr) == 0")?;
    contract::mul(
        m_idx / mr,
        block_bytes(k, mr)?,
        "packed LHS offset fits in size_t",
    )
}

/// `get_lhs_packed_size(m, k, bl, mr, kr, sr)`.
pub fn packed_size(
    m: usize,
    k: usize,
    bl: usize,
    mr: usize,
    kr: usize,
) -> Result<usize, Violation> {
    check_getter(k, bl, kr)?;
    contract::require(mr != 0, "mr > 0")?;
    contract::mul(
        m.div_ceil(mr),
        block_bytes(k, mr)?,
        "packed LHS size fits in size_t",
    )
}

pub use super::args::LhsArgs as Args;

/// Checks what `run` requires: KleidiAI's `sr == 2`, then what keeps it inside the buffers.
pub fn check(a: &Args) -> Checked {
    contract::require(a.sr == 2, "sr == 2")?;
    contract::require(a.mr != 0, "mr > 0")?;
    contract::require(a.k % 2 == 0, "(k % 2) == 0")?;
    contract::mul(a.m, a.k, "m * k fits in size_t")?;
    contract::mul(
        a.m.div_ceil(a.mr),
        block_bytes(a.k, a.mr)?,
        "packed LHS size fits in size_t",
    )?;
    if a.m != 0 && a.k != 0 {
        contract::require(!a.lhs.is_null(), "lhs != NULL")?;
        contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    }
    Ok(())
}

/// Packs `m` rows of `k` floats (rows `k` floats apart).
///
/// # Safety
/// [`check`] passed; `lhs` holds `m * k` floats, `lhs_packed` the packed size of `m` rows.
pub unsafe fn run(a: &Args) {
    let (k, mr) = (a.k, a.mr);
    for row in 0..a.m {
        let (block, i) = (row / mr, row % mr);
        // SAFETY: row `row` of the source and block `block` of the output are in the buffers.
        let (src, out) = unsafe {
            (
                a.lhs.add(4 * row * k).cast::<f32>(),
                a.lhs_packed.add(2 * block * mr * k).cast::<u16>(),
            )
        };
        for p in 0..k / 2 {
            for t in 0..2 {
                // SAFETY: value 2p + t < k of the row; half 2 (p mr + i) + t < mr k of the block.
                unsafe {
                    let x = src.add(2 * p + t).read_unaligned();
                    out.add(2 * (p * mr + i) + t)
                        .write_unaligned(f16::from_f32(x));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// (the LHS of KleidiAI's `matmul_clamp_f32_f16p_qsi4c32p`
    /// SME2 kernel).
    lhs_pack_f16pmrx2_f32_neon: Lhs(F16pmrx2);
}
