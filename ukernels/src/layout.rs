//! Size, stride and offset formulas of KleidiAI's packed formats, with overflow checks.
//!
//! Each function returns a [`Violation`] instead of wrapping, so a consumer asking for the size of
//! an absurd shape gets a diagnosed error rather than a small buffer and a heap overflow.

use crate::contract::{self, Violation};

/// Packed int8 LHS with per-row dynamic asymmetric quantization (`qai8dxp`).
pub mod qai8dxp {
    use super::*;

    /// Bytes per row after the int8 data: one `i32` offset and one `f32` scale.
    pub const ROW_TRAILER_BYTES: usize = 8;

    /// K rounded up to whole 32-value chunks, the unit in which LHS and RHS blocks pair up (the
    /// int4 formats pair k with k + 16). KleidiAI 1.30 rounds to 32 whatever `kr` and `sr` are;
    /// `kr` and `sr` are still validated.
    pub fn k_internal(k: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        contract::mul(kr, sr, "kr * sr fits in size_t")?;
        contract::roundup(k, K_MULTIPLE, "roundup(k, 32) fits in size_t")
    }

    /// The K granularity of the packed formats.
    pub const K_MULTIPLE: usize = 32;

    /// Bytes of one group of `mr` packed rows.
    pub fn stride(k: usize, mr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        let k_int = k_internal(k, kr, sr)?;
        let row = contract::add(
            k_int,
            ROW_TRAILER_BYTES,
            "packed LHS row size fits in size_t",
        )?;
        contract::mul(mr, row, "packed LHS stride fits in size_t")
    }

    /// Byte offset of the group holding row `m_idx`.
    pub fn offset(
        m_idx: usize,
        k: usize,
        mr: usize,
        kr: usize,
        sr: usize,
    ) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        contract::mul(
            m_idx / mr,
            stride(k, mr, kr, sr)?,
            "packed LHS offset fits in size_t",
        )
    }

    /// Bytes of a packed LHS of `m` rows.
    pub fn size(m: usize, k: usize, mr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        let groups = contract::roundup(m, mr, "roundup(m, mr) fits in size_t")? / mr;
        contract::mul(
            groups,
            stride(k, mr, kr, sr)?,
            "packed LHS size fits in size_t",
        )
    }
}

/// Packed int4 RHS with per-channel symmetric quantization (`qsi4cxp`, the `s16s0` interleave).
pub mod qsi4cxp {
    use super::*;

    /// Bytes per column after the int4 data: `i32` row sum, `f32` scale, `f32` bias.
    pub const COL_TRAILER_BYTES: usize = 12;

    /// Same K rounding as the LHS, so LHS and RHS blocks line up.
    pub fn k_internal(k: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        qai8dxp::k_internal(k, kr, sr)
    }

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        let k_int = k_internal(k, kr, sr)?;
        let col = contract::add(
            k_int / 2,
            COL_TRAILER_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// Packed int4 RHS with one bf16 scale per block of `bl` K values (`qsi4c32p`).
///
/// Group of `nr` columns: for each block, `nr * bl / 2` data bytes (the `qsi4cxp` nibble layout
/// restarted per block) then `nr` x bf16 scales; after all blocks `nr` x `f32` row sums and `nr`
/// x `f32` biases.
pub mod qsi4c32p {
    use super::*;

    /// Block lengths must be multiples of this.
    pub const BL_MULTIPLE: usize = 32;
    /// Bytes per column after all blocks: `f32` row sum, `f32` bias.
    pub const COL_TRAILER_BYTES: usize = 8;
    /// Bytes of one block scale (bf16).
    pub const SCALE_BYTES: usize = 2;

    /// Checks the block length against K: KleidiAI's `(bl % 32) == 0` and `(k % bl) == 0`.
    pub fn check_block(k: usize, bl: usize) -> Result<(), Violation> {
        check_block_length(bl)?;
        contract::require(k % bl == 0, "(k % bl) == 0")
    }

    /// Checks the block length alone: KleidiAI's `(bl % 32) == 0`, and `bl > 0` (KleidiAI
    /// would divide by it).
    pub fn check_block_length(bl: usize) -> Result<(), Violation> {
        contract::require(bl != 0, "bl > 0")?;
        contract::require(bl % BL_MULTIPLE == 0, "(bl % 32) == 0")
    }

    /// Bytes of one block of `nr` columns: data then scales.
    pub fn block_stride(nr: usize, bl: usize) -> Result<usize, Violation> {
        contract::mul(
            nr,
            bl / 2 + SCALE_BYTES,
            "packed RHS block size fits in size_t",
        )
    }

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, bl: usize) -> Result<usize, Violation> {
        check_block(k, bl)?;
        stride_of_whole_blocks(k, nr, bl)
    }

    /// [`stride`] with a partial last block counted whole (KleidiAI's `roundup(k, bl) / bl`
    /// blocks, as the SME kernels' getters compute it for any K); the same where `bl` divides K.
    pub fn stride_of_whole_blocks(k: usize, nr: usize, bl: usize) -> Result<usize, Violation> {
        check_block_length(bl)?;
        let blocks = contract::mul(
            k.div_ceil(bl),
            bl / 2 + SCALE_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        let col = contract::add(
            blocks,
            COL_TRAILER_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// Packed int8 LHS with symmetric per-block quantization and f16 block scales (`qsi8d32p`,
/// llama.cpp's Q8_0 activations).
///
/// A group of `mr` rows holds, for each block of `bl` K values, `bl + 2` bytes per row: the
/// scalar and `4x8sb` packers put each block's `mr` f16 scales first, then its int8 values; the
/// `_neon` packer (KleidiAI's SME kernels) puts every block's values first and all scales at the
/// end of the group. Both formats have this size.
pub mod qsi8d32p {
    use super::*;

    /// Bytes per row and block after the int8 values: one f16 scale.
    pub const SCALE_BYTES: usize = 2;

    /// Checks the block length against K (`bl > 0`, KleidiAI's `(k % bl) == 0`).
    pub fn check_block(k: usize, bl: usize) -> Result<(), Violation> {
        contract::require(bl != 0, "bl > 0")?;
        contract::require(k % bl == 0, "(k % bl) == 0")
    }

    /// Bytes of one group of `mr` packed rows.
    pub fn stride(k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        check_block(k, bl)?;
        let block = contract::add(bl, SCALE_BYTES, "packed LHS block size fits in size_t")?;
        let row = contract::mul(k / bl, block, "packed LHS row size fits in size_t")?;
        contract::mul(mr, row, "packed LHS stride fits in size_t")
    }

    /// Byte offset of the group holding row `m_idx`.
    pub fn offset(m_idx: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        contract::mul(
            m_idx / mr,
            stride(k, bl, mr)?,
            "packed LHS offset fits in size_t",
        )
    }

    /// Bytes of a packed LHS of `m` rows.
    pub fn size(m: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        let groups = contract::roundup(m, mr, "roundup(m, mr) fits in size_t")? / mr;
        contract::mul(groups, stride(k, bl, mr)?, "packed LHS size fits in size_t")
    }
}

/// Packed int4 RHS with one f16 scale per block of `bl` K values (`qsi4c32pscalef16`, llama.cpp's
/// Q4_0 weights): per group of `nr` columns and per block, `nr * (bl / 2 + 2)` bytes (the
/// scalar packer: `nr` f16 scales then the nibbles; the `ps1s0` NEON packer: all nibbles first,
/// all scales at the end of the group). No row sums, no bias.
pub mod qsi4c32pf16 {
    use super::*;

    /// Block lengths the kernels accept must be multiples of this.
    pub const BL_MULTIPLE: usize = 32;
    /// Bytes of one block scale (f16).
    pub const SCALE_BYTES: usize = 2;

    /// Checks the block length against K: `bl > 0`, KleidiAI's `(bl % 32) == 0` and
    /// `(k % bl) == 0`.
    pub fn check_block(k: usize, bl: usize) -> Result<(), Violation> {
        contract::require(bl != 0, "bl > 0")?;
        contract::require(bl % BL_MULTIPLE == 0, "(bl % 32) == 0")?;
        contract::require(k % bl == 0, "(k % bl) == 0")
    }

    /// Bytes of one block of `nr` columns: scales and nibbles.
    pub fn block_stride(nr: usize, bl: usize) -> Result<usize, Violation> {
        contract::mul(
            nr,
            bl / 2 + SCALE_BYTES,
            "packed RHS block size fits in size_t",
        )
    }

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, bl: usize) -> Result<usize, Violation> {
        check_block(k, bl)?;
        let col = contract::mul(
            k / bl,
            bl / 2 + SCALE_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// Packed int8 LHS with symmetric per-block quantization and f32 block parameters
/// (`qsi8d32pscalef32`, the activations of the asymmetric int4 `qai4c32p` kernels).
///
/// A group of `mr` rows holds, for each block of `bl` K values, `bl + 8` bytes per row: the
/// `mr x bl` int8 values in chunks of `kr / sr` values per row, then `mr` f32 block sums
/// (`sum(q) * scale`), then `mr` f32 scales.
pub mod qsi8d32pscalef32 {
    use super::*;

    /// Bytes per row and block after the int8 values: an f32 sum and an f32 scale.
    pub const PARAM_BYTES: usize = 8;

    /// Checks the block length against K (`bl > 0`, KleidiAI's `(k % bl) == 0`).
    pub fn check_block(k: usize, bl: usize) -> Result<(), Violation> {
        contract::require(bl != 0, "bl > 0")?;
        contract::require(k % bl == 0, "(k % bl) == 0")
    }

    /// Bytes of one block of `mr` rows.
    pub fn block_stride(bl: usize, mr: usize) -> Result<usize, Violation> {
        let block = contract::add(bl, PARAM_BYTES, "packed LHS block size fits in size_t")?;
        contract::mul(mr, block, "packed LHS block stride fits in size_t")
    }

    /// Bytes of one group of `mr` packed rows.
    pub fn stride(k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        check_block(k, bl)?;
        contract::mul(
            k / bl,
            block_stride(bl, mr)?,
            "packed LHS stride fits in size_t",
        )
    }

    /// Byte offset of the group holding row `m_idx`.
    pub fn offset(m_idx: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        contract::mul(
            m_idx / mr,
            stride(k, bl, mr)?,
            "packed LHS offset fits in size_t",
        )
    }

    /// Bytes of a packed LHS of `m` rows.
    pub fn size(m: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        let groups = contract::roundup(m, mr, "roundup(m, mr) fits in size_t")? / mr;
        contract::mul(groups, stride(k, bl, mr)?, "packed LHS size fits in size_t")
    }

    /// The offset as the `qai4c32p` matmul kernels' `get_lhs_packed_offset` computes it: unlike
    /// the packer, KleidiAI's kernels round K up to whole blocks and require only `(bl % 32) == 0`
    /// (and `m_idx` a multiple of `mr`, which the caller checks).
    pub fn kernel_offset(m_idx: usize, k: usize, bl: usize, mr: usize) -> Result<usize, Violation> {
        contract::require(mr != 0, "mr > 0")?;
        contract::require(bl != 0, "bl > 0")?;
        contract::require(bl % qai4c32p::BL_MULTIPLE == 0, "(bl % 32) == 0")?;
        let blocks = contract::roundup(k, bl, "roundup(k, bl) fits in size_t")? / bl;
        let group = contract::mul(
            blocks,
            block_stride(bl, mr)?,
            "packed LHS stride fits in size_t",
        )?;
        contract::mul(m_idx / mr, group, "packed LHS offset fits in size_t")
    }
}

/// Packed asymmetric int4 RHS with f32 parameters per block of `bl` K values (`qai4c32p`):
/// per group of `nr` columns and per block, `nr * bl / 2` bytes of nibbles, then `nr` f32 zero
/// offsets, then `nr` f32 scales; after all blocks, `nr` f32 biases.
pub mod qai4c32p {
    use super::*;

    /// Block lengths must be multiples of this.
    pub const BL_MULTIPLE: usize = 32;
    /// Bytes per column and block after the nibbles: f32 zero offset and f32 scale.
    pub const PARAM_BYTES: usize = 8;
    /// Bytes per column after all blocks: the f32 bias.
    pub const BIAS_BYTES: usize = 4;

    /// Checks the block length against K: `bl > 0`, KleidiAI's `(bl % 32) == 0` and
    /// `(k % bl) == 0`.
    pub fn check_block(k: usize, bl: usize) -> Result<(), Violation> {
        contract::require(bl != 0, "bl > 0")?;
        contract::require(bl % BL_MULTIPLE == 0, "(bl % 32) == 0")?;
        contract::require(k % bl == 0, "(k % bl) == 0")
    }

    /// Bytes of one block of `nr` columns: nibbles and parameters.
    pub fn block_stride(nr: usize, bl: usize) -> Result<usize, Violation> {
        contract::mul(
            nr,
            bl / 2 + PARAM_BYTES,
            "packed RHS block size fits in size_t",
        )
    }

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, bl: usize) -> Result<usize, Violation> {
        check_block(k, bl)?;
        let col = contract::mul(
            k / bl,
            bl / 2 + PARAM_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        let col = contract::add(col, BIAS_BYTES, "packed RHS column size fits in size_t")?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// Packed 2-bit RHS with per-channel scales (`qsu2cxp`): per group of `nr` columns,
/// `nr * k_int / 4` data bytes, then `nr` x `i32` sums (of the table values), `nr` x `f32`
/// scales and `nr` x `f32` biases.
pub mod qsu2cxp {
    use super::*;

    /// Bytes per column after the 2-bit data: `i32` row sum, `f32` scale, `f32` bias.
    pub const COL_TRAILER_BYTES: usize = 12;

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        let k_int = qai8dxp::k_internal(k, kr, sr)?;
        let col = contract::add(
            k_int / 4,
            COL_TRAILER_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// The packed RHS formats of every family and RHS packer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RhsLayout {
    /// int4 per channel, nibble-pair layouts (`qsi4cxp`, both the `s16s0` and the sequential
    /// packer).
    Qsi4cxp,
    /// int8 per channel (`qsi8cxp`).
    Qsi8cxp,
    /// int4 with bf16 scales per block of `bl` K values (`qsi4c32p`).
    Qsi4c32p {
        /// Block length.
        bl: usize,
    },
    /// int4 with f16 scales per block of `bl` K values and no trailer (`qsi4c32pscalef16`, and
    /// the same-sized `ps1s0scalef16` format of KleidiAI's SME2 kernels).
    Qsi4c32pf16 {
        /// Block length.
        bl: usize,
    },
    /// 2-bit per channel, four values a byte (`qsu2cxp`, both the `4x4` and the `4vlx4`
    /// packer's interleave).
    Qsu2cxp,
    /// Asymmetric int4 with f32 zero offsets and scales per block of `bl` K values and an f32
    /// bias per column (`qai4c32p`, and the same-sized `ps1s0nrx4` format of KleidiAI's SME2
    /// kernels).
    Qai4c32p {
        /// Block length.
        bl: usize,
    },
    /// Plain floats with the bias in front (`x32p16x1b`, `f32p8x1biasf32`, `x16p32x1b`, ...),
    /// `bytes` per value; see [`float_bias`].
    FloatBias {
        /// Bytes per value and per bias (4 for f32, 2 for f16).
        bytes: usize,
    },
    /// bf16 values in groups of `kr` K values with the bias in front (`bf16p12x4biasf32`,
    /// `bf16p12x4biasf16`); see [`bf16_bias`].
    Bf16Bias {
        /// Bytes per bias (4 for f32, 2 for f16).
        bias_bytes: usize,
    },
    /// int8 per channel with `i32` biases in front and `f32` scales behind (`qsi8cxp2vlx4sb`, the
    /// SME int8-output format); see [`qsi8cxpsb`].
    Qsi8cxpsb,
}

impl RhsLayout {
    /// Bytes of one group of `nr` packed columns.
    #[inline(always)]
    pub fn stride(self, k: usize, nr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        match self {
            RhsLayout::Qsi4cxp => qsi4cxp::stride(k, nr, kr, sr),
            RhsLayout::Qsi8cxp => qsi8cxp::stride(k, nr, kr, sr),
            RhsLayout::Qsu2cxp => qsu2cxp::stride(k, nr, kr, sr),
            RhsLayout::Qsi4c32p { bl } => qsi4c32p::stride(k, nr, bl),
            RhsLayout::Qsi4c32pf16 { bl } => qsi4c32pf16::stride(k, nr, bl),
            RhsLayout::Qai4c32p { bl } => qai4c32p::stride(k, nr, bl),
            RhsLayout::FloatBias { bytes } => float_bias::stride(k, nr, kr, bytes),
            RhsLayout::Bf16Bias { bias_bytes } => bf16_bias::stride(k, nr, kr, bias_bytes),
            RhsLayout::Qsi8cxpsb => qsi8cxpsb::stride(k, nr, kr),
        }
    }

    /// Byte offset of the group holding column `n_idx` (which must start a group).
    ///
    /// A zero `nr` (which the getters of packers that assert nothing about it pass through, as
    /// KleidiAI's do) leaves only column 0 at offset 0, and [`RhsLayout::size`] 0: what KleidiAI's
    /// getters return on Arm, whose unsigned division by zero yields zero.
    #[inline(always)]
    pub fn offset(
        self,
        n_idx: usize,
        k: usize,
        nr: usize,
        kr: usize,
        sr: usize,
    ) -> Result<usize, Violation> {
        contract::require(
            n_idx.checked_rem(nr).unwrap_or(n_idx) == 0,
            "(n_idx % nr) == 0",
        )?;
        contract::mul(
            n_idx.checked_div(nr).unwrap_or(0),
            self.stride(k, nr, kr, sr)?,
            "packed RHS offset fits in size_t",
        )
    }

    /// Bytes of a packed RHS of `n` columns.
    #[inline(always)]
    pub fn size(
        self,
        n: usize,
        k: usize,
        nr: usize,
        kr: usize,
        sr: usize,
    ) -> Result<usize, Violation> {
        let groups = match nr {
            0 => 0,
            _ => contract::roundup(n, nr, "roundup(n, nr) fits in size_t")? / nr,
        };
        contract::mul(
            groups,
            self.stride(k, nr, kr, sr)?,
            "packed RHS size fits in size_t",
        )
    }
}

/// Plain row-major destination of `elem_size`-byte elements.
pub mod dst {
    use super::*;

    /// Byte offset of element (`m_idx`, `n_idx`).
    pub fn offset(
        m_idx: usize,
        n_idx: usize,
        stride: usize,
        elem_size: usize,
    ) -> Result<usize, Violation> {
        let row = contract::mul(m_idx, stride, "dst offset fits in size_t")?;
        let col = contract::mul(n_idx, elem_size, "dst offset fits in size_t")?;
        contract::add(row, col, "dst offset fits in size_t")
    }

    /// Bytes of an `m` x `n` destination.
    pub fn size(m: usize, n: usize, elem_size: usize) -> Result<usize, Violation> {
        let count = contract::mul(m, n, "dst size fits in size_t")?;
        contract::mul(count, elem_size, "dst size fits in size_t")
    }
}

/// Packed int8 RHS with per-channel symmetric quantization (`qsi8cxp`).
pub mod qsi8cxp {
    use super::*;

    /// Bytes per column after the int8 data: `i32` row sum, `f32` scale, `f32` bias.
    pub const COL_TRAILER_BYTES: usize = 12;

    /// Bytes of one group of `nr` packed columns.
    pub fn stride(k: usize, nr: usize, kr: usize, sr: usize) -> Result<usize, Violation> {
        let k_int = qai8dxp::k_internal(k, kr, sr)?;
        let col = contract::add(
            k_int,
            COL_TRAILER_BYTES,
            "packed RHS column size fits in size_t",
        )?;
        contract::mul(nr, col, "packed RHS stride fits in size_t")
    }
}

/// Packed int8 RHS of KleidiAI's SME int8-output kernels (`qsi8cxp2vlx4sb`): groups of `nr`
/// columns, each holding `nr` `i32` biases, then per `kr` K values (K padded with zeros to a
/// multiple of `kr`) `kr` int8 values of each column in turn, then `nr` `f32` scales.
pub mod qsi8cxpsb {
    use super::*;

    /// Bytes of one group of `nr` packed columns: `nr * (4 + roundup(k, kr) + 4)`.
    pub fn stride(k: usize, nr: usize, kr: usize) -> Result<usize, Violation> {
        let cond = "packed RHS stride fits in size_t";
        let kp = contract::roundup(k, kr.max(1), cond)?;
        contract::mul(nr, contract::add(kp, 8, cond)?, cond)
    }
}

/// Packed bf16 RHS with the bias in front, the format of the bf16 GEMM families
/// (`matmul_clamp_{f32,f16}_bf16p_bf16p`): groups of `nr` columns, each holding `nr` biases then,
/// per `kr` K values, `kr` bf16 values of each column in turn.
pub mod bf16_bias {
    use super::*;

    /// Bytes of one group of `nr` packed columns: `nr` biases of `bias_bytes` bytes, then
    /// `nr * roundup(k, kr)` bf16 values.
    pub fn stride(k: usize, nr: usize, kr: usize, bias_bytes: usize) -> Result<usize, Violation> {
        let cond = "packed RHS stride fits in size_t";
        let kp = contract::roundup(k, kr, cond)?;
        let per_column = contract::add(bias_bytes, contract::mul(kp, 2, cond)?, cond)?;
        contract::mul(nr, per_column, cond)
    }
}

/// Packed float RHS with the bias in front, the format of the float GEMM families
/// (`matmul_clamp_f32_f32_f32p`, `matmul_clamp_f16_f16_f16p`): groups of `nr` columns, each holding
/// `nr` biases then, per `kr` K values, `kr` values of each column in turn, K padded with zeros to
/// a multiple of `kr` (1 for the NEON and SVE formats: `k` rows of `nr` values; 2 for the SME
/// `x16p2vlx2b` format).
pub mod float_bias {
    use super::*;

    /// Bytes of one group of `nr` packed columns: `nr * (roundup(k, kr) + 1)` values of `bytes`
    /// bytes.
    pub fn stride(k: usize, nr: usize, kr: usize, bytes: usize) -> Result<usize, Violation> {
        let k = contract::roundup(k, kr.max(1), "packed RHS stride fits in size_t")?;
        let rows = contract::add(k, 1, "packed RHS stride fits in size_t")?;
        let row = contract::mul(nr, bytes, "packed RHS stride fits in size_t")?;
        contract::mul(rows, row, "packed RHS stride fits in size_t")
    }
}
