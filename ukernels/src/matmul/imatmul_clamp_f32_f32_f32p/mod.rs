//! `imatmul_clamp_f32_f32_f32p`: f32 output = f32 LHS gathered through an indirection buffer x
//! f32 RHS packed with its bias in front ([`crate::layout::RhsLayout::FloatBias`] over
//! `K = k_chunk_count * k_chunk_length`), clamped. The LHS of a convolution without im2col: row
//! `i`'s K values are `k_chunk_count` chunks of `k_chunk_length` floats, each anywhere in memory.
//!
//! The indirection buffer (KleidiAI's layout, which its kernel reads): rows in blocks of
//! `m_step` (6); for each block, for each chunk `c`, the 6 rows' pointers to chunk `c`. Pointer
//! `r` of chunk `c` of the block starting at row `b` is entry `b * k_chunk_count + 6 * c + r`,
//! so a portion starting at row `m_idx` (a multiple of 6) starts at entry
//! `m_idx * k_chunk_count` (`get_lhs_offset(m_idx, k_chunk_count * sizeof(void*))`). Entries of
//! rows past `m` in the last block are never read. A pointer equal to `pad_ptr` is used as it is;
//! every other gets `lhs_ptr_offset` added (so entries may be offsets into one input tensor).
//!
//! Numerics: as `matmul_clamp_f32_f32_f32p` — each output starts from its column's bias, takes
//! one `FMLA` per K value in chunk order, then `FMIN` with the upper bound and `FMAX` with the
//! lower; every implementation gives the same bits.

pub mod portable;

asm_kernel_modules! {
    imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla,
}

pub use super::args::IndirectArgs as Args;
use crate::contract::{self, Checked};
use crate::kernel::MatmulKernel;
use crate::matmul::args::{F32_ROW_MESSAGES, check_dst_rows};

/// Rows per block of the indirection buffer (every kernel of the family has this `m_step`).
pub const ROWS: usize = 6;

/// Checks a call: non-empty chunks (KleidiAI's kernel loops forever on zero chunks and reads a
/// packed row that does not exist on empty ones), non-null buffers, a destination row stride
/// that holds a row, and a packed size that does not overflow.
pub fn check(kernel: &MatmulKernel, a: &Args) -> Checked {
    let k = super::offsets::chunked_k(a.k_chunk_count, a.k_chunk_length)?;
    kernel
        .family
        .rhs_layout(0)
        .stride(k, kernel.tile().nr, 1, 1)?;
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k_chunk_count > 0, "k_chunk_count > 0")?;
    contract::require(a.k_chunk_length > 0, "k_chunk_length > 0")?;
    contract::require(
        !a.indirection_buffer.is_null(),
        "indirection_buffer != NULL",
    )?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    let (size_message, row_condition) = F32_ROW_MESSAGES;
    check_dst_rows(a.m, a.n, a.dst_row_bytes(), 4, size_message, row_condition)
}

/// Runs `kernel`: its hand-written implementation on aarch64, the portable one (same bits)
/// elsewhere.
///
/// # Safety
/// [`check`] passed; see [`super::call::run_indirect`].
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match kernel.native.indirect() {
        // SAFETY (both arms): forwarded contract.
        Some(f) => unsafe { f(a) },
        None => unsafe { portable::run(kernel.tile().nr, a) },
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{kernel_entries, kernel_entry, native};
use crate::pack::kinds::Packer;
use crate::pack::rhs_pack_float::rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve;

const NO_LHS_PACKER: &[&Packer] = &[];
const IMATMUL_X32P4VLX1B_RHS: &[&Packer] = &[&rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve];

kernel_entries! {
    /// Indirect f32 GEMM (convolution without im2col), 6-row blocks x 4 SVE vectors of columns,
    /// vector-length agnostic.
    imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla: kernel_entry!(
        ImatmulF32F32F32p, NO_LHS_PACKER, IMATMUL_X32P4VLX1B_RHS, Sve, [6, 4, 6, 4, 1, 1],
        native!(indirect self::imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla), KleidiAi,
        PerSveLane32);
}
