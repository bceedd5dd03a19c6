//! The offset and size getters of every matmul family (`get_lhs_packed_offset`,
//! `get_rhs_packed_offset`, ...), by the family's operands: KleidiAI's values and assertions.

use super::{bf16_gemm, matmul_clamp_f32_qsi8d32p_qsi4c32p as qsi8d32p_qsi4c32p};
use crate::catalog::{MatmulKernel, Rows};
use crate::contract::{self, Violation};
use crate::family::Operands;
use crate::layout;

/// Byte offset of row `m_idx` in the packed LHS `kernel` reads.
pub fn lhs_packed(
    kernel: &MatmulKernel,
    m_idx: usize,
    k: usize,
    bl: usize,
) -> Result<usize, Violation> {
    let t = kernel.tile();
    let rows_of_mr = || contract::require(m_idx % t.mr == 0, "(m_idx % mr) == 0");
    match kernel.family.description().operands {
        Operands::Qai8dxp(_) => {
            rows_of_mr()?;
            layout::qai8dxp::offset(m_idx, k, t.mr, t.kr, t.sr)
        }
        Operands::Qsi8d32pQsi4c32p => {
            rows_of_mr()?;
            qsi8d32p_qsi4c32p::check_block(kernel, k, bl)?;
            layout::qsi8d32p::offset(m_idx, k, bl, t.mr)
        }
        Operands::Qsi8d32pQai4c32p => layout::qsi8d32pscalef32::kernel_offset(m_idx, k, bl, t.mr),
        Operands::Bf16pBf16p => {
            match kernel.rows {
                Rows::One => contract::require(m_idx == 0, "m_idx == 0")?,
                Rows::Any => contract::require(m_idx % t.mr == 0, "m_idx % kai_mr == 0")?,
            }
            contract::mul(
                m_idx,
                bf16_gemm::lhs_row_bytes(k)?,
                "packed LHS offset fits in size_t",
            )
        }
        Operands::UnpackedFloat | Operands::IndirectFloat => Err(super::call::NEEDS_PACKED_LHS),
    }
}

/// Byte offset of row `m_idx` in an unpacked LHS with rows `stride` bytes apart.
pub fn lhs(kernel: &MatmulKernel, m_idx: usize, stride: usize) -> Result<usize, Violation> {
    contract::require(m_idx % kernel.tile().m_step == 0, "(m_idx % m_step) == 0")?;
    contract::mul(m_idx, stride, "m_idx * stride fits in size_t")
}

/// Byte offset of column `n_idx` in the packed RHS `kernel` reads (`k`: for the indirect family,
/// `k_chunk_count * k_chunk_length`, see [`chunked_k`]).
pub fn rhs_packed(
    kernel: &MatmulKernel,
    n_idx: usize,
    k: usize,
    bl: usize,
) -> Result<usize, Violation> {
    let t = kernel.tile();
    match kernel.family.description().operands {
        Operands::Qsi8d32pQsi4c32p => qsi8d32p_qsi4c32p::check_block(kernel, k, bl)?,
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQai4c32p
        | Operands::Bf16pBf16p
        | Operands::UnpackedFloat
        | Operands::IndirectFloat => {}
    }
    kernel
        .family
        .rhs_layout(bl)
        .offset(n_idx, k, t.nr, t.kr, t.sr)
}

/// Byte offset of element (`m_idx`, `n_idx`) in a destination with rows `stride` bytes apart.
pub fn dst(
    kernel: &MatmulKernel,
    m_idx: usize,
    n_idx: usize,
    stride: usize,
) -> Result<usize, Violation> {
    let t = kernel.tile();
    contract::require(m_idx % t.m_step == 0, "(m_idx % m_step) == 0")?;
    contract::require(n_idx % t.n_step == 0, "(n_idx % n_step) == 0")?;
    layout::dst::offset(m_idx, n_idx, stride, kernel.family.output().size())
}

/// Bytes of an `m` x `n` destination.
pub fn dst_size(kernel: &MatmulKernel, m: usize, n: usize) -> Result<usize, Violation> {
    layout::dst::size(m, n, kernel.family.output().size())
}

/// The K of an indirect call: `k_chunk_count * k_chunk_length`, if it fits.
pub fn chunked_k(k_chunk_count: usize, k_chunk_length: usize) -> Result<usize, Violation> {
    contract::mul(
        k_chunk_count,
        k_chunk_length,
        "k_chunk_count * k_chunk_length fits in size_t",
    )
}
