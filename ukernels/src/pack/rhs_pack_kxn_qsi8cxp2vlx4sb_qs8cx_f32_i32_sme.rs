//! `kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` and its chunked form
//! `kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`: int8 K x N weights, `i32` biases
//! and `f32` per-channel scales into the format of KleidiAI's SME int8-output kernels
//! ([`RhsLayout::Qsi8cxpsb`](crate::layout::RhsLayout::Qsi8cxpsb)).
//!
//! Format: groups of `nr` = 2 x SVL32 columns (column `j` in group `j / nr`), each
//! - `nr` `i32` biases: `bias[j] - lhs_zero_point * sum_k rhs[k][j]`, wrapping (the LHS zero
//!   point correction the kernels would otherwise compute per row);
//! - per step of 4 K rows (K padded with zero rows to a multiple of 4), 4 bytes for each column
//!   in turn: its values at those rows;
//! - `nr` `f32` scales: `scale[j] * scale_multiplier`, one `FMUL` each ([`float::fmul`]).
//!
//! The chunked form reads `k_chunk_count` chunks of `k_chunk_length` consecutive source rows and
//! pads each chunk on its own to whole steps of 4 ([`Chunks`]), so the packed K is
//! `k_chunk_count * roundup(k_chunk_length, 4)`; the plain form is one chunk of `k` rows. The
//! column sums run over the packed (zero-padded) values, the same sums.
//!
//! Columns past `n` in the last group are zero, their scale `0 * scale_multiplier` (a NaN when
//! the multiplier is infinite or NaN, as KleidiAI's zero-filled lanes give).
//!
//! KleidiAI's packers transpose through streaming-mode vectors; rkai's is a plain loop (the same
//! bytes; no streaming mode, so no ZA state to commit). Where KleidiAI's packers misbehave rkai
//! keeps to the format: with `n == 0` KleidiAI writes one group's scales into a buffer of packed
//! size 0 (rkai writes nothing); with `k == 0` the plain packer reads source row 0, writes the
//! zero values of a step over the scales and the scales one group further on, and leaves the
//! biases unwritten, and the chunked one with a chunk length of 0 likewise packs one step per
//! chunk (a source row and three zero rows) where the scales belong, the scales after them, and
//! leaves the biases unwritten (rkai writes each group's biases, unchanged since the column sums
//! are 0, and scales); with `k_chunk_count == 0` KleidiAI's chunk loop runs with a wrapped counter
//! (rkai packs a K of 0: biases and scales).

use crate::arch;
use crate::contract::{self, Checked, Violation};
use crate::float;
use crate::pack::rhs_pack_float::Chunks;
use crate::types::kai_rhs_pack_qsi8cx_params;

pub use super::args::RhsArgs as Args;

/// K values per step.
pub const KR: usize = 4;

/// The KleidiAI condition on `n_idx` of `get_rhs_offset` and `get_rhs_packed_offset`.
const GROUP_START: &str =
    "n_idx % kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme() == 0";
/// The same condition of the chunked packer.
const CHUNKED_GROUP_START: &str =
    "n_idx % kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme() == 0";

/// Columns per group at the running streaming length (`get_n_step`).
pub fn nr() -> usize {
    2 * arch::sme_lanes32()
}

/// `n_idx` starts a group (the condition named as the plain or the `chunked` packer does).
pub fn group_start(n_idx: usize, chunked: bool) -> Checked {
    let cond = if chunked {
        CHUNKED_GROUP_START
    } else {
        GROUP_START
    };
    contract::require(n_idx % nr() == 0, cond)
}

/// KleidiAI's assertions on `run`, in its order, then that the source extent and the packed size
/// fit in `size_t`.
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(
        a.nr == nr(),
        "nr == kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme()",
    )?;
    contract::require(a.kr == KR, "kr == KR")?;
    contract::require(a.sr == 1, "sr == 1")?;
    check_pointers(a, true)?;
    fits(a, whole(a.k))
}

/// [`check`] for the chunked packer (`a.k` is `k_chunk_count * k_chunk_length`, `a.bl` the chunk
/// length; it takes no `num_groups`, `nr`, `kr`, `sr` or `extra_bytes`).
pub fn check_chunked(a: &Args) -> Checked {
    check_pointers(a, false)?;
    fits(a, Chunks::of(a))
}

/// KleidiAI's pointer assertions (and, for the plain packer, `extra_bytes`), in its order.
fn check_pointers(a: &Args, extra_bytes: bool) -> Checked {
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.bias.is_null(), "bias != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    if extra_bytes {
        contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    }
    contract::require(!a.params.is_null(), "params != NULL")
}

/// The plain packer's K as one chunk.
fn whole(k: usize) -> Chunks {
    Chunks {
        count: 1,
        length: k,
    }
}

/// The packed size and the source extent (`count * length` rows) fit in `size_t`.
fn fits(a: &Args, chunks: Chunks) -> Checked {
    crate::layout::RhsLayout::Qsi8cxpsb.size(a.n, chunks.packed_k(KR)?, nr(), KR, 1)?;
    let rows = chunks.count * chunks.length; // at most `a.k`
    if a.n != 0 && rows != 0 {
        let cond = "k * rhs_stride_row fits in size_t";
        contract::add(contract::mul(rows - 1, a.rhs_stride, cond)?, a.n, cond)?;
    }
    Ok(())
}

/// Bytes of one packed group at K = `k`.
pub fn stride(k: usize) -> Result<usize, Violation> {
    crate::layout::RhsLayout::Qsi8cxpsb.stride(k, nr(), KR, 1)
}

/// Packs `n` columns of `k` rows.
///
/// # Safety
/// [`check`] passed; `rhs` holds `k` rows of `n` int8 values `rhs_stride` bytes apart, `bias`
/// `n` `i32`, `scale` `n` `f32`, `params` one `kai_rhs_pack_qsi8cx_params`, and `rhs_packed` is
/// writable for the packed size of `n` columns.
pub unsafe fn run(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe { run_chunks(a, whole(a.k)) }
}

/// Packs `n` columns of the chunks' rows.
///
/// # Safety
/// [`check_chunked`] passed; otherwise as for [`run`] with `k` rows the chunks'
/// `k_chunk_count * k_chunk_length`.
pub unsafe fn run_chunked(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe { run_chunks(a, Chunks::of(a)) }
}

/// Packs `n` columns of `chunks`, each chunk's rows padded to whole steps.
///
/// # Safety
/// As for [`run_chunked`].
unsafe fn run_chunks(a: &Args, chunks: Chunks) {
    let nr = nr();
    let Ok(kp) = chunks.packed_k(KR) else {
        return;
    };
    // SAFETY: params is non-null (checked) and points at the caller's struct.
    let params = unsafe {
        a.params
            .cast::<kai_rhs_pack_qsi8cx_params>()
            .read_unaligned()
    };
    for g in 0..a.n.div_ceil(nr) {
        let col0 = g * nr;
        let group = Group {
            nr,
            cols: nr.min(a.n - col0),
            // SAFETY: column col0 < n of the source.
            rhs: unsafe { a.rhs.add(col0) },
            rhs_stride: a.rhs_stride,
            // SAFETY: bias col0 < n.
            bias: unsafe { a.bias.add(4 * col0) },
            // SAFETY: scale col0 < n.
            scale: unsafe { a.scale.add(4 * col0) },
            sum_multiplier: params.lhs_zero_point.wrapping_neg(),
            scale_multiplier: params.scale_multiplier,
        };
        // SAFETY: group g lies inside the packed size of n columns.
        unsafe { pack_group(&group, chunks, kp, a.rhs_packed.add(g * nr * (kp + 8))) };
    }
}

/// The source and parameters of one packed group of the format (shared with the generic
/// interface's `pack::matmul_pack_rhs_qsi8cxp4vsx4bi32sf32`).
pub(crate) struct Group {
    /// Columns of a group.
    pub nr: usize,
    /// Columns read from the source (at most `nr`); the rest are zero.
    pub cols: usize,
    /// The group's first column in source row 0.
    pub rhs: *const u8,
    /// Bytes from one source row to the next.
    pub rhs_stride: usize,
    /// The group's first bias (`i32`), or null for zeros.
    pub bias: *const u8,
    /// The group's first scale (`f32`), or null to leave the group's scales unwritten.
    pub scale: *const u8,
    /// Multiplies each column sum added to its bias (wrapping).
    pub sum_multiplier: i32,
    /// Multiplies each scale.
    pub scale_multiplier: f32,
}

/// Packs one group of `chunks` (packed K `kp`) at `out`: biases, values, scales.
///
/// # Safety
/// `g`'s pointers hold `g.cols` columns of the chunks' rows, biases and scales where non-null;
/// `out` is writable for `g.nr * (kp + 8)` bytes.
pub(crate) unsafe fn pack_group(g: &Group, chunks: Chunks, kp: usize, out: *mut u8) {
    let nr = g.nr;
    // Packed rows per chunk (a chunk length of 0 packs nothing).
    let per_chunk = chunks.length.div_ceil(KR) * KR;
    for c in 0..nr {
        let mut sum = 0i32;
        for kk in 0..kp {
            // Row t of chunk kk / per_chunk (kp > 0 means per_chunk > 0).
            let t = kk % per_chunk;
            let v = match c < g.cols && t < chunks.length {
                // SAFETY: the row is one of the chunks' rows, column c < cols of the source.
                true => unsafe {
                    let row = kk / per_chunk * chunks.length + t;
                    g.rhs.add(row * g.rhs_stride + c).read() as i8
                },
                false => 0,
            };
            sum = sum.wrapping_add(i32::from(v));
            // SAFETY: step kk / 4 of column c in the group's values.
            unsafe {
                out.add(4 * nr + (kk / KR) * KR * nr + c * KR + kk % KR)
                    .write(v as u8)
            };
        }
        let bias = match c < g.cols && !g.bias.is_null() {
            // SAFETY: the bias holds cols entries.
            true => unsafe { g.bias.cast::<i32>().add(c).read_unaligned() },
            false => 0,
        };
        let packed_bias = bias.wrapping_add(sum.wrapping_mul(g.sum_multiplier));
        // SAFETY: entry c of the group's biases.
        unsafe { out.add(4 * c).cast::<i32>().write_unaligned(packed_bias) };
        if !g.scale.is_null() {
            let scale = match c < g.cols {
                // SAFETY: the scale holds cols entries.
                true => unsafe { g.scale.cast::<f32>().add(c).read_unaligned() },
                false => 0.0,
            };
            // SAFETY: entry c of the group's scales.
            unsafe {
                out.add(4 * nr + kp * nr + 4 * c)
                    .cast::<f32>()
                    .write_unaligned(float::fmul(scale, g.scale_multiplier))
            };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    /// nr = 2 x SVL32, kr = 4.
    rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme: Rhs(Qsi8cxpsb);
    /// nr = 2 x SVL32, kr = 4; K as chunks, each padded to whole steps of 4 with zero rows.
    rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme: Rhs(ChunkedQsi8cxpsb);
}
