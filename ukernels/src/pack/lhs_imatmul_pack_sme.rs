//! The three SME LHS packers of the indirect GEMMs (`imatmul_clamp_*_sme*_mopa`): they gather
//! each row's K values through an indirection buffer of chunk pointers and write the format of
//! the row-copying SME packers ([`super::lhs_pack_sme_rows`]), one chunk after the other:
//! - `kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme`: f32 values, one K value per step;
//! - `kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme`: 16-bit values, pairs of K values per step;
//! - `kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme`: 8-bit values, four K values per step.
//!
//! The indirection buffer, as KleidiAI's packers read it: rows in blocks of `mr` = 2 x SVL32; for
//! the block starting at row `b` and chunk `c`, entry `b * k_chunk_count + c * mr + r` points to
//! chunk `c` of row `b + r` (`k_chunk_length` values). Entries of rows past `m` in the last block
//! are not read, but the last block keeps the stride `mr` between chunks, so a caller's buffer
//! spans whole blocks (up to the last entry read). A pointer equal to `pad_ptr` is read as it is;
//! every other has `lhs_ptr_offset` added first.
//!
//! Packed: per block, per chunk, a group of `mr` rows of `k_chunk_length` values in the
//! row-copying format (steps of 4 bytes; rows past `m` zero, the value past an odd chunk length
//! zero), `mr * roundup(k_chunk_length, kr) * elem` bytes; so the block is the row-copying format
//! of `K = k_chunk_count * roundup(k_chunk_length, kr)` values.
//!
//! KleidiAI's packers transpose through ZA after committing a pending lazy ZA save; rkai's copy
//! the same bytes without streaming mode.

use super::lhs_pack_sme_rows::{self as rows, RowFormat};
use crate::contract::{self, Checked, Violation};
use crate::pack::kinds::SmeRowsPacker;

/// Arguments of `run(m, k_chunk_count, k_chunk_length, lhs_ptrs, lhs_ptr_offset, pad_ptr,
/// lhs_packed)`.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Rows to pack.
    pub m: usize,
    /// Chunks per row.
    pub k_chunk_count: usize,
    /// Values per chunk.
    pub k_chunk_length: usize,
    /// The indirection buffer (see the module documentation).
    pub lhs_ptrs: *const *const u8,
    /// Bytes added to every pointer but `pad_ptr`.
    pub lhs_ptr_offset: usize,
    /// The padding chunk.
    pub pad_ptr: *const u8,
    /// Packed output.
    pub lhs_packed: *mut u8,
}

/// One of the three packers: its format and the wording of its assertion on `m_idx`.
#[derive(Debug)]
pub struct Packer {
    format: &'static RowFormat,
    group_condition: &'static str,
}

/// `lhs_imatmul_pack_x32p2vlx1_x32p_sme`.
const X32P2VLX1: Packer = Packer {
    format: &rows::F32P2VLX1,
    group_condition: "m_idx % kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme() == 0",
};

/// `lhs_imatmul_pack_x16p2vlx2_x16p_sme`.
const X16P2VLX2: Packer = Packer {
    format: &rows::X16P2VLX2,
    group_condition: "m_idx % kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme() == 0",
};

/// `lhs_imatmul_pack_x8p2vlx4_x8p_sme` (the int8 indirect GEMMs').
const X8P2VLX4: Packer = Packer {
    format: &rows::X8P2VLX4,
    group_condition: "m_idx % kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme() == 0",
};

/// The packer of format `v`.
pub const fn packer(v: SmeRowsPacker) -> &'static Packer {
    match v {
        SmeRowsPacker::F32p2vlx1 => &X32P2VLX1,
        SmeRowsPacker::X16p2vlx2 => &X16P2VLX2,
        SmeRowsPacker::X8p2vlx4 => &X8P2VLX4,
    }
}

/// The K the packed rows hold: `k_chunk_count` chunks of `k_chunk_length` values rounded up to
/// whole steps of `kr`.
pub fn packed_k(
    kr: usize,
    k_chunk_count: usize,
    k_chunk_length: usize,
) -> Result<usize, Violation> {
    let cond = "k_chunk_count * roundup(k_chunk_length, kr) fits in size_t";
    contract::mul(
        k_chunk_count,
        contract::roundup(k_chunk_length, kr, cond)?,
        cond,
    )
}

impl Packer {
    /// Rows per block (`get_m_step`).
    pub fn m_step(&self) -> usize {
        rows::mr()
    }

    /// K values per step.
    pub fn kr(&self) -> usize {
        self.format.elem_and_kr().1
    }

    /// Bytes of `rows` packed rows of the chunks' `k` ([`packed_k`]).
    fn rows_bytes(&self, rows: usize, k: usize, cond: &'static str) -> Result<usize, Violation> {
        let elem = self.format.elem_and_kr().0;
        contract::mul(contract::mul(rows, k, cond)?, elem, cond)
    }

    /// `get_lhs_packed_offset(m_idx, k_chunk_count, k_chunk_length)`, `k` from [`packed_k`].
    pub fn packed_offset(&self, m_idx: usize, k: usize) -> Result<usize, Violation> {
        contract::require(m_idx % self.m_step() == 0, self.group_condition)?;
        self.rows_bytes(m_idx, k, "packed LHS offset fits in size_t")
    }

    /// `get_lhs_packed_size(m, k_chunk_count, k_chunk_length)`: whole blocks.
    pub fn packed_size(&self, m: usize, k: usize) -> Result<usize, Violation> {
        let cond = "packed LHS size fits in size_t";
        self.rows_bytes(contract::roundup(m, self.m_step(), cond)?, k, cond)
    }

    /// KleidiAI's assertions on `run`, in its order, then that the packed size and the
    /// indirection buffer's extent fit in `size_t`.
    pub fn check(&self, a: &Args) -> Checked {
        contract::require(!a.lhs_ptrs.is_null(), "lhs_ptrs != NULL")?;
        contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
        let k = packed_k(self.kr(), a.k_chunk_count, a.k_chunk_length)?;
        self.packed_size(a.m, k)?;
        let cond = "indirection buffer size fits in size_t";
        let blocks = contract::roundup(a.m, self.m_step(), cond)?;
        contract::mul(blocks, a.k_chunk_count, cond)?;
        contract::mul(a.k_chunk_length, self.format.elem_and_kr().0, cond)?;
        Ok(())
    }

    /// Packs `m` rows.
    ///
    /// # Safety
    /// [`Self::check`] passed; the indirection buffer holds the entries the module documentation
    /// says are read, each (after the offset rule) pointing to `k_chunk_length` readable values;
    /// `lhs_packed` is writable for the packed size of `m` rows.
    pub unsafe fn run(&self, a: &Args) {
        let mr = self.m_step();
        let kcl = a.k_chunk_length;
        let group_bytes = self.format.rows_bytes_unchecked(mr, kcl);
        let mut out = a.lhs_packed;
        for block in (0..a.m).step_by(mr) {
            let height = mr.min(a.m - block);
            for c in 0..a.k_chunk_count {
                let first = block * a.k_chunk_count + c * mr;
                let chunk = |r: usize| {
                    // SAFETY: entry `first + r` of a row below m is part of the buffer.
                    let p = unsafe { *a.lhs_ptrs.add(first + r) };
                    if p == a.pad_ptr {
                        p
                    } else {
                        p.wrapping_add(a.lhs_ptr_offset)
                    }
                };
                // SAFETY: the group lies inside the packed size; each chunk holds kcl values.
                unsafe { self.format.pack_group(out, height, kcl, chunk) };
                // SAFETY: the next group follows (or the packed size ends).
                out = unsafe { out.add(group_bytes) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// mr = 2 x SVL32, K as chunks through an indirection buffer.
    lhs_imatmul_pack_x32p2vlx1_x32p_sme: Lhs(IndirectSmeRows(SmeRowsPacker::F32p2vlx1));
    /// mr = 2 x SVL32, kr = 2, K as chunks (each padded to whole pairs) through an
    /// indirection buffer.
    lhs_imatmul_pack_x16p2vlx2_x16p_sme: Lhs(IndirectSmeRows(SmeRowsPacker::X16p2vlx2));
    /// mr = 2 x SVL32, kr = 4, K as chunks (each padded to whole steps of four) through an
    /// indirection buffer.
    lhs_imatmul_pack_x8p2vlx4_x8p_sme: Lhs(IndirectSmeRows(SmeRowsPacker::X8p2vlx4));
}
