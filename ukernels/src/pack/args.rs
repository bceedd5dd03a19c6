//! The arguments of a packer's `run`, one struct per side: what the verb dispatch
//! ([`super::lhs`], [`super::rhs`]) passes and every packer module reads, below both.

use crate::contract::{self, Checked};

/// Arguments of an LHS packer's `run` (`bl` is 0 for per-row formats).
#[derive(Clone, Copy, Debug)]
pub struct LhsArgs {
    /// Rows to pack.
    pub m: usize,
    /// Reduction length.
    pub k: usize,
    /// Block length.
    pub bl: usize,
    /// Rows per packed group.
    pub mr: usize,
    /// K values per inner step.
    pub kr: usize,
    /// Splits of `kr`.
    pub sr: usize,
    /// Index of the first row (where it lands in its group).
    pub m_idx_start: usize,
    /// Source rows.
    pub lhs: *const u8,
    /// Bytes between source rows.
    pub lhs_stride: usize,
    /// Packed output.
    pub lhs_packed: *mut u8,
}

/// Arguments of an RHS packer's `run` (those a packer does not take are 0 or null; `k` of a
/// [`RhsPackerKind::ChunkedFloat`](super::kinds::RhsPackerKind::ChunkedFloat) packer is `k_chunk_count * k_chunk_length`,
/// its `bl` is `k_chunk_length`).
#[derive(Clone, Copy, Debug)]
pub struct RhsArgs {
    /// Must be 1.
    pub num_groups: usize,
    /// Columns.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Columns per packed group.
    pub nr: usize,
    /// K values per inner step.
    pub kr: usize,
    /// Splits of `kr`.
    pub sr: usize,
    /// Block length.
    pub bl: usize,
    /// Source matrix.
    pub rhs: *const u8,
    /// Bytes between source rows.
    pub rhs_stride: usize,
    /// Per-column biases.
    pub bias: *const u8,
    /// Scales (per column or per block).
    pub scale: *const u8,
    /// Bytes between rows of block scales.
    pub scale_stride: usize,
    /// Per-block zero offsets.
    pub zero: *const u8,
    /// Packed output.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// The packer's parameter struct.
    pub params: *const u8,
    /// The 2-bit packers' value table (4 x `i32`, or null for KleidiAI's default).
    pub lut: *const i32,
}

impl RhsArgs {
    /// KleidiAI's buffer assertions of the float RHS packers, in their order: the source, the
    /// bias where the packer requires one, no scales, the output, no extra bytes, no params.
    pub(crate) fn check_float_buffers(&self, requires_bias: bool) -> Checked {
        contract::require(!self.rhs.is_null(), "rhs != NULL")?;
        if requires_bias {
            contract::require(!self.bias.is_null(), "bias != NULL")?;
        }
        contract::require(self.scale.is_null(), "scale == NULL")?;
        contract::require(!self.rhs_packed.is_null(), "rhs_packed != NULL")?;
        contract::require(self.extra_bytes == 0, "extra_bytes == 0")?;
        contract::require(self.params.is_null(), "params == NULL")
    }
}

/// Arguments of a generic-interface RHS packer's `run`, from `kai_matmul_pack_rhs_uker_args`
/// (`pack::uker_rhs`): the block-strided form every such packer rkai defines takes.
#[derive(Clone, Copy, Debug)]
pub struct UkerRhsArgs {
    /// Columns.
    pub n: usize,
    /// Rows (values per column).
    pub k: usize,
    /// Source, K x N or N x K by the packer.
    pub rhs: *const u8,
    /// Bytes from one source row to the next (`stride.k` of a K x N source, `stride.n` of an
    /// N x K one; the other stride is the value size by format).
    pub rhs_stride: usize,
    /// `n` biases, or null for zeros.
    pub bias: *const u8,
    /// Destination: one block per `nr` columns, `packed_stride` bytes apart.
    pub rhs_packed: *mut u8,
    /// Bytes from one packed block to the next.
    pub packed_stride: usize,
}
