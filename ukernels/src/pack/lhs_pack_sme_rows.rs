//! The three SME LHS packers that copy rows unchanged into groups of `mr` = 2 x SVL32 rows (twice
//! the streaming vector length in 32-bit lanes; 8 where SME is absent, the portable streaming
//! length of 128 bits):
//! - `kai_lhs_pack_f32p2vlx1_f32_sme`: f32 rows, one K value per step, the LHS of KleidiAI's
//!   `matmul_clamp_f32_f32p2vlx1_f32p2vlx1*` kernels;
//! - `kai_lhs_pack_x16p2vlx2_x16_sme`: 16-bit rows (f16 or bf16), pairs of K values per step, the
//!   SME `f16p2vlx2` and `bf16p2vlx2` LHS format;
//! - `kai_lhs_pack_x8p2vlx4_x8_sme`: 8-bit rows, four K values per step, the LHS of KleidiAI's
//!   `matmul_clamp_qai8_qai8p2vlx4_*` kernels.
//!
//! Format: group `g` holds rows `g * mr ..` as `ceil(k / kr)` steps of 4 bytes per row; step `s`
//! of the group's row `i` is 4-byte word `s * mr + i` of the group, K values `s * kr ..` in
//! order. The rows past `m` of the last group and the K values past `k` in its last step are zero, as
//! KleidiAI's packers (whose loads are zeroing) write them, so every byte of the packed size is
//! written. Values are copied bit for bit (NaN payloads kept).
//!
//! KleidiAI's packers transpose through ZA; rkai's are plain copy loops (the same bytes; no
//! streaming mode, so no ZA state to commit). The packers assert the same conditions in the same
//! order, each with its own wording, which [`RowFormat`] keeps.

use crate::arch;
use crate::contract::{self, Checked, Violation};
use core::ptr;

pub use super::args::LhsArgs as Args;

/// One of the two formats: its element size and K values per step (`elem * kr` = 4 bytes), and
/// the wording of its packer's assertions.
#[derive(Debug)]
pub struct RowFormat {
    /// Bytes per source element.
    elem: usize,
    /// K values per step (`kr`; `sr` is 1).
    kr: usize,
    /// The `mr` assertion of every getter and `run`.
    mr_condition: &'static str,
    /// `get_lhs_offset`'s `m_idx` assertion.
    row_condition: &'static str,
    /// `get_lhs_packed_offset`'s `m_idx` assertion.
    group_condition: &'static str,
}

/// `lhs_pack_f32p2vlx1_f32_sme`.
pub const F32P2VLX1: RowFormat = RowFormat {
    elem: 4,
    kr: 1,
    mr_condition: "mr == kai_get_mr_lhs_pack_f32p2vlx1_f32_sme()",
    row_condition: "m_idx % kai_get_mr_lhs_pack_f32p2vlx1_f32_sme() == 0",
    group_condition: "m_idx % kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme(mr) == 0",
};

/// `lhs_pack_x16p2vlx2_x16_sme`.
pub const X16P2VLX2: RowFormat = RowFormat {
    elem: 2,
    kr: 2,
    mr_condition: "mr == kai_mr",
    row_condition: "m_idx % kai_mr == 0",
    group_condition: "m_idx % m_step == 0",
};

/// `lhs_pack_x8p2vlx4_x8_sme`.
pub const X8P2VLX4: RowFormat = RowFormat {
    elem: 1,
    kr: 4,
    mr_condition: "mr == kai_get_mr_lhs_pack_x8p2vlx4_x8_sme()",
    row_condition: "m_idx % kai_get_mr_lhs_pack_x8p2vlx4_x8_sme() == 0",
    group_condition: "m_idx % kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme(mr) == 0",
};

/// The format `packer` writes.
pub const fn format(packer: SmeRowsPacker) -> &'static RowFormat {
    match packer {
        SmeRowsPacker::F32p2vlx1 => &F32P2VLX1,
        SmeRowsPacker::X16p2vlx2 => &X16P2VLX2,
        SmeRowsPacker::X8p2vlx4 => &X8P2VLX4,
    }
}

/// Rows per group at the running streaming length (`mr`, also the row step).
pub fn mr() -> usize {
    2 * arch::sme_lanes32()
}

impl RowFormat {
    /// `get_m_step(mr)`: KleidiAI asserts the caller's `mr` is the packer's.
    pub fn m_step(&self, mr_arg: usize) -> Result<usize, Violation> {
        contract::require(mr_arg == mr(), self.mr_condition)?;
        Ok(mr())
    }

    /// `get_lhs_offset(m_idx, lhs_stride_row)`: `m_idx` must start a group.
    pub fn lhs_offset(&self, m_idx: usize, lhs_stride: usize) -> Result<usize, Violation> {
        contract::require(m_idx % mr() == 0, self.row_condition)?;
        contract::mul(m_idx, lhs_stride, "m_idx * lhs_stride fits in size_t")
    }

    /// KleidiAI's assertions on `(mr, kr, sr)`, in its order.
    fn check_params(&self, mr_arg: usize, kr: usize, sr: usize) -> Checked {
        self.m_step(mr_arg)?;
        contract::require(kr == self.kr, "kr == KR")?;
        contract::require(sr == 1, "sr == SR")
    }

    /// Bytes of `rows` packed rows (whole steps of 4 bytes).
    fn rows_bytes(&self, rows: usize, k: usize, cond: &'static str) -> Result<usize, Violation> {
        let steps = contract::roundup(k, self.kr, cond)? / self.kr;
        contract::mul(contract::mul(rows, steps, cond)?, 4, cond)
    }

    /// `get_lhs_packed_offset(m_idx, k, mr, kr, sr)`: KleidiAI calls its `m_step` getter first
    /// (asserting `mr`), then checks `m_idx`, then the rest.
    pub fn packed_offset(
        &self,
        m_idx: usize,
        k: usize,
        mr_arg: usize,
        kr: usize,
        sr: usize,
    ) -> Result<usize, Violation> {
        self.m_step(mr_arg)?;
        contract::require(m_idx % mr() == 0, self.group_condition)?;
        self.check_params(mr_arg, kr, sr)?;
        self.rows_bytes(m_idx, k, "packed LHS offset fits in size_t")
    }

    /// `get_lhs_packed_size(m, k, mr, kr, sr)`: whole groups.
    pub fn packed_size(
        &self,
        m: usize,
        k: usize,
        mr_arg: usize,
        kr: usize,
        sr: usize,
    ) -> Result<usize, Violation> {
        self.check_params(mr_arg, kr, sr)?;
        let cond = "packed LHS size fits in size_t";
        self.rows_bytes(contract::roundup(m, mr(), cond)?, k, cond)
    }

    /// KleidiAI's assertions on `run`, in its order, then that the packed size and the source
    /// rows' extent fit in `size_t`.
    pub fn check(&self, a: &Args) -> Checked {
        self.check_params(a.mr, a.kr, a.sr)?;
        contract::require(a.m_idx_start == 0, "m_idx_start == 0")?;
        contract::require(!a.lhs.is_null(), "lhs != NULL")?;
        contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
        self.packed_size(a.m, a.k, a.mr, a.kr, a.sr)?;
        if a.m != 0 && a.k != 0 {
            let cond = "m * lhs_stride fits in size_t";
            let last = contract::mul(a.m - 1, a.lhs_stride, cond)?;
            contract::add(last, self.elem * a.k, cond)?;
        }
        Ok(())
    }

    /// Packs `m` rows of `k` elements, rows `lhs_stride` bytes apart.
    ///
    /// # Safety
    /// [`Self::check`] passed; source row `r < m` holds `k` elements at `lhs + r * lhs_stride`,
    /// and `lhs_packed` is writable for the packed size of `m` rows.
    #[inline(always)]
    pub unsafe fn run(&self, a: &Args) {
        let mr = mr();
        for group in 0..a.m.div_ceil(mr) {
            let row0 = group * mr;
            // SAFETY: the group lies inside the packed size of m rows; its rows below m hold k
            // elements each.
            unsafe {
                self.pack_group(
                    a.lhs_packed.add(self.rows_bytes_unchecked(row0, a.k)),
                    mr.min(a.m - row0),
                    a.k,
                    |i| a.lhs.wrapping_add((row0 + i) * a.lhs_stride),
                )
            };
        }
    }

    /// Bytes of `rows` packed rows of `k` values, known to fit.
    pub(crate) fn rows_bytes_unchecked(&self, rows: usize, k: usize) -> usize {
        rows * k.div_ceil(self.kr) * 4
    }

    /// Bytes per element and K values per step.
    pub(crate) const fn elem_and_kr(&self) -> (usize, usize) {
        (self.elem, self.kr)
    }

    /// Packs one group of `mr` rows of `k` values at `out`: rows `i < rows` from `row(i)`, the
    /// others zero, each step of 4 bytes padded with zeros past `k`.
    ///
    /// # Safety
    /// `row(i)` holds `k` elements for each `i < rows`; `out` is writable for `mr` packed rows of
    /// `k` values.
    #[inline(always)]
    pub(crate) unsafe fn pack_group(
        &self,
        out: *mut u8,
        rows: usize,
        k: usize,
        row: impl Fn(usize) -> *const u8,
    ) {
        // SAFETY: forwarded contract, at this format's mr.
        unsafe { self.pack_group_of(mr(), out, rows, k, row) }
    }

    /// [`Self::pack_group`] for a group of `mr` rows (the generic interface's packers group
    /// fewer rows than this module's, `pack::uker_lhs`).
    ///
    /// # Safety
    /// `rows <= mr`; `row(i)` holds `k` elements for each `i < rows`; `out` is writable for `mr`
    /// packed rows of `k` values.
    #[inline(always)]
    pub(crate) unsafe fn pack_group_of(
        &self,
        mr: usize,
        out: *mut u8,
        rows: usize,
        k: usize,
        row: impl Fn(usize) -> *const u8,
    ) {
        let steps = k.div_ceil(self.kr);
        for i in 0..mr {
            // Rows past `rows` are zero.
            let src = (i < rows).then(|| row(i));
            for s in 0..steps {
                let word = match src {
                    // A whole step: one 4-byte copy.
                    // SAFETY: row i (< rows) holds k elements.
                    Some(src) if (s + 1) * self.kr <= k => unsafe {
                        ptr::read_unaligned(src.add(4 * s).cast::<[u8; 4]>())
                    },
                    // The last step of a k that is not a multiple of kr: its values below k,
                    // then zero.
                    Some(src) => {
                        let mut word = [0; 4];
                        let bytes = (k - s * self.kr) * self.elem;
                        // SAFETY: elements s * kr .. k of the row.
                        unsafe {
                            ptr::copy_nonoverlapping(src.add(4 * s), word.as_mut_ptr(), bytes)
                        };
                        word
                    }
                    None => [0; 4],
                };
                // SAFETY: step s of row i of the group.
                unsafe { ptr::write_unaligned(out.add((s * mr + i) * 4).cast::<[u8; 4]>(), word) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::{SmeRowsPacker, packer_entries};

packer_entries! {
    /// mr = 2 x SVL32.
    lhs_pack_f32p2vlx1_f32_sme: Lhs(SmeRows(SmeRowsPacker::F32p2vlx1));
    /// mr = 2 x SVL32, kr = 2.
    lhs_pack_x16p2vlx2_x16_sme: Lhs(SmeRows(SmeRowsPacker::X16p2vlx2));
    /// mr = 2 x SVL32, kr = 4.
    lhs_pack_x8p2vlx4_x8_sme: Lhs(SmeRows(SmeRowsPacker::X8p2vlx4));
}
