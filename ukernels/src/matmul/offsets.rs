//! The offset and size getters of every matmul family (`get_lhs_packed_offset`,
//! `get_rhs_packed_offset`, ...), by the family's operands: KleidiAI's values and assertions.

use super::{
    bf16_gemm, matmul_clamp_f32_f16p_qsi4c32p as f16p_qsi4c32p,
    matmul_clamp_f32_qsi8d32p_qsi4c32p as qsi8d32p_qsi4c32p,
};
use crate::contract::{self, Violation};
use crate::family::{Operands, Qai8dxpRhs};
use crate::kernel::{BlockDepth, IndexMultiple, MatmulKernel, Rows};
use crate::layout;

/// Checks `index` is a multiple of what `kernel`'s getter asserts (`multiple`, given the
/// `tile_value` the getter is named after), with KleidiAI's condition for each case.
fn require_multiple(
    index: usize,
    multiple: IndexMultiple,
    tile_value: usize,
    tile_condition: &'static str,
    constant_condition: &'static str,
) -> Result<(), Violation> {
    let condition = match multiple {
        IndexMultiple::Tile => tile_condition,
        IndexMultiple::Constant(_) => constant_condition,
    };
    contract::require(
        index.checked_rem(multiple.of(tile_value)) == Some(0),
        condition,
    )
}

/// Byte offset of row `m_idx` in the packed LHS `kernel` reads.
pub fn lhs_packed(
    kernel: &MatmulKernel,
    m_idx: usize,
    k: usize,
    bl: usize,
) -> Result<usize, Violation> {
    let t = kernel.tile();
    let rows_of_mr = || {
        require_multiple(
            m_idx,
            kernel.asserts.lhs_packed_m_idx,
            t.mr,
            "(m_idx % mr) == 0",
            "(m_idx % kai_mr) == 0",
        )
    };
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
        Operands::Qsi8d32pQai4c32p => {
            rows_of_mr()?;
            layout::qsi8d32pscalef32::kernel_offset(m_idx, k, bl, t.mr)
        }
        Operands::PackedFloat(_) | Operands::ChunkedPackedFloat(_) => {
            match kernel.rows {
                Rows::One => contract::require(m_idx == 0, "m_idx == 0")?,
                Rows::Any => contract::require(m_idx % t.mr == 0, "m_idx % kai_mr == 0")?,
            }
            contract::mul(
                m_idx,
                bf16_gemm::lhs_row_bytes(kernel.family, k, t.kr)?,
                "packed LHS offset fits in size_t",
            )
        }
        Operands::F16pQsi4c32p => {
            rows_of_mr()?;
            f16p_qsi4c32p::lhs_offset(m_idx, k, bl, t.mr)
        }
        // The chunked form's K is the chunks' padded K.
        Operands::Qai8pQsi8cxpsb | Operands::ChunkedQai8pQsi8cxpsb => {
            rows_of_mr()?;
            let cond = "packed LHS offset fits in size_t";
            contract::mul(m_idx, contract::roundup(k, t.kr, cond)?, cond)
        }
        Operands::UnpackedFloat | Operands::IndirectFloat | Operands::Qai8Qsi8cxpsb => {
            Err(super::args::NEEDS_PACKED_LHS)
        }
    }
}

/// KleidiAI's one-row kernels with an unpacked LHS (the SME GEMVs) assert `m_idx == 0` in their
/// LHS and destination offsets.
fn one_row(kernel: &MatmulKernel, m_idx: usize) -> Result<(), Violation> {
    match (kernel.rows, kernel.family.description().operands) {
        (Rows::One, Operands::UnpackedFloat | Operands::Qai8Qsi8cxpsb) => {
            contract::require(m_idx == 0, "m_idx == 0")
        }
        _ => Ok(()),
    }
}

/// Byte offset of row `m_idx` in an unpacked LHS with rows `stride` bytes apart.
pub fn lhs(kernel: &MatmulKernel, m_idx: usize, stride: usize) -> Result<usize, Violation> {
    one_row(kernel, m_idx)?;
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
    let operands = kernel.family.description().operands;
    // KleidiAI's order: the Q4_0 kernels' block checks, then the column, then the stride's.
    match operands {
        Operands::Qsi8d32pQsi4c32p => qsi8d32p_qsi4c32p::check_block(kernel, k, bl)?,
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::ChunkedPackedFloat(_)
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb
        | Operands::UnpackedFloat
        | Operands::IndirectFloat => {}
    }
    require_multiple(
        n_idx,
        kernel.asserts.rhs_packed_n_idx,
        t.nr,
        "(n_idx % nr) == 0",
        "(n_idx % kai_nr) == 0",
    )?;
    let stride = match operands {
        Operands::Qai8dxp(Qai8dxpRhs::Qsi4c32p) => {
            blocks_stride(kernel.asserts.block_depth, k, t.nr, bl)?
        }
        Operands::F16pQsi4c32p => {
            f16p_qsi4c32p::check_block(k, bl)?;
            kernel.family.rhs_layout(bl).stride(k, t.nr, t.kr, t.sr)?
        }
        Operands::Qai8dxp(Qai8dxpRhs::Qsi4cxp | Qai8dxpRhs::Qsi8cxp | Qai8dxpRhs::Qsu2cxp)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::ChunkedPackedFloat(_)
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb
        | Operands::UnpackedFloat
        | Operands::IndirectFloat => kernel.family.rhs_layout(bl).stride(k, t.nr, t.kr, t.sr)?,
    };
    contract::mul(n_idx / t.nr, stride, "packed RHS offset fits in size_t")
}

/// The stride of a `qsi4c32p` packed RHS group as a kernel's `get_rhs_packed_offset` computes
/// it, with the K check `depth` says its KleidiAI source makes.
fn blocks_stride(depth: BlockDepth, k: usize, nr: usize, bl: usize) -> Result<usize, Violation> {
    match depth {
        BlockDepth::WholeBlocks => layout::qsi4c32p::check_block(k, bl)?,
        BlockDepth::MultipleOf32 => contract::require(k % 32 == 0, "(k % kai_bl) == 0")?,
        BlockDepth::Any => {}
    }
    layout::qsi4c32p::stride_of_whole_blocks(k, nr, bl)
}

/// Byte offset of element (`m_idx`, `n_idx`) in a destination with rows `stride` bytes apart.
pub fn dst(
    kernel: &MatmulKernel,
    m_idx: usize,
    n_idx: usize,
    stride: usize,
) -> Result<usize, Violation> {
    let t = kernel.tile();
    let checks = kernel.asserts;
    one_row(kernel, m_idx)?;
    require_multiple(
        m_idx,
        checks.dst_m_idx,
        t.m_step,
        "(m_idx % m_step) == 0",
        "(m_idx % kai_m_step) == 0",
    )?;
    require_multiple(
        n_idx,
        checks.dst_n_idx,
        t.n_step,
        "(n_idx % n_step) == 0",
        "(n_idx % kai_n_step) == 0",
    )?;
    layout::dst::offset(m_idx, n_idx, stride, kernel.family.output().size())
}

/// Bytes of an `m` x `n` destination.
pub fn dst_size(kernel: &MatmulKernel, m: usize, n: usize) -> Result<usize, Violation> {
    layout::dst::size(m, n, kernel.family.output().size())
}

/// The K of a call of a [`Operands::ChunkedPackedFloat`] kernel: `k_chunk_count` chunks of
/// `k_chunk_length` values, each rounded up to whole steps of the kernel's `kr`.
pub fn chunked_packed_k(
    kernel: &MatmulKernel,
    k_chunk_count: usize,
    k_chunk_length: usize,
) -> Result<usize, Violation> {
    crate::pack::lhs_imatmul_pack_sme::packed_k(kernel.tile().kr, k_chunk_count, k_chunk_length)
}

/// The K of an indirect call: `k_chunk_count * k_chunk_length`, if it fits.
pub fn chunked_k(k_chunk_count: usize, k_chunk_length: usize) -> Result<usize, Violation> {
    contract::mul(
        k_chunk_count,
        k_chunk_length,
        "k_chunk_count * k_chunk_length fits in size_t",
    )
}
