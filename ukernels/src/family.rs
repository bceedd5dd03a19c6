//! Matmul families as data.
//!
//! A KleidiAI family (one directory under `kai/ukernels/matmul`) fixes the C function set, the
//! interface struct, the formats of both operands, the argument shape of `run_matmul` and the
//! output type. [`Family::description`] states all of that in one exhaustive table; the C
//! function sets (`cabi`), the exported shims (`build.rs`), the C-ABI layer, dispatch, selection,
//! tests and benches read it from there. Adding a family means a variant and its description
//! here, its kernels and its reference.

use crate::element::Output;
use crate::layout::RhsLayout;

/// A matmul family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `matmul_clamp_f32_qai8dxp_qsi4cxp`.
    F32Qai8dxpQsi4cxp,
    /// `matmul_clamp_f32_qai8dxp_qsi8cxp`.
    F32Qai8dxpQsi8cxp,
    /// `matmul_clamp_f32_qai8dxp_qsi4c32p`.
    F32Qai8dxpQsi4c32p,
    /// `matmul_clamp_f32_qai8dxp_qsu2cxp` (llama.cpp's 2-bit weights: a LUT maps each 2-bit value
    /// to int8).
    F32Qai8dxpQsu2cxp,
    /// `matmul_clamp_f16_qai8dxp_qsi4cxp`.
    F16Qai8dxpQsi4cxp,
    /// `matmul_clamp_f16_qai8dxp_qsi8cxp`.
    F16Qai8dxpQsi8cxp,
    /// `matmul_clamp_bf16_qai8dxp_qsi4cxp`.
    Bf16Qai8dxpQsi4cxp,
    /// `matmul_clamp_bf16_qai8dxp_qsi4c32p`.
    Bf16Qai8dxpQsi4c32p,
    /// `matmul_clamp_f32_qsi8d32p_qsi4c32p` (llama.cpp's Q8_0 x Q4_0).
    F32Qsi8d32pQsi4c32p,
    /// `matmul_clamp_f32_qsi8d32p_qai4c32p` (asymmetric int4 weights per block).
    F32Qsi8d32pQai4c32p,
    /// `matmul_clamp_f16_qsi8d32p_qai4c32p` (the same with f16 output).
    F16Qsi8d32pQai4c32p,
    /// `matmul_clamp_f32_f32_f32p` (unpacked f32 LHS, f32 RHS packed with its bias).
    F32F32F32p,
    /// `matmul_clamp_f16_f16_f16p` (unpacked f16 LHS, f16 RHS packed with its bias).
    F16F16F16p,
    /// `matmul_clamp_f32_bf16p_bf16p` (bf16 LHS and RHS packed, f32 bias and output).
    F32Bf16pBf16p,
    /// `matmul_clamp_f16_bf16p_bf16p` (bf16 LHS and RHS packed, f16 bias and output).
    F16Bf16pBf16p,
    /// `matmul_clamp_fp32_bf16p_bf16p`: KleidiAI's SME bf16 GEMMs (bf16 LHS and RHS packed in
    /// streaming-length tiles, f32 bias and output); its interface header is named like
    /// `matmul_clamp_f32_bf16p_bf16p`'s ([`Family::interface_stem`]).
    Fp32Bf16pBf16p,
    /// `imatmul_clamp_f32_f32_f32p` (f32 LHS rows gathered through an indirection buffer, f32 RHS
    /// packed with its bias).
    ImatmulF32F32F32p,
    /// `matmul_clamp_f32_f16p_qsi4c32p` (f16 activations packed by pairs of K values x Q4_0
    /// weights with f16 block scales, f32 output).
    F32F16pQsi4c32p,
    /// `matmul_clamp_f32_f32p_f32p`: KleidiAI's SME f32 GEMMs (f32 LHS and RHS packed in
    /// streaming-length tiles, f32 bias and output).
    F32F32pF32p,
    /// `matmul_clamp_f16_f16p_f16p`: KleidiAI's SME f16 GEMMs (f16 LHS and RHS packed in
    /// streaming-length tiles, f16 bias and output, f32 sums).
    F16F16pF16p,
    /// `imatmul_clamp_f32_f32p_f32p`: KleidiAI's SME indirect f32 GEMMs (the LHS packed from an
    /// indirection buffer, K as chunks; otherwise `matmul_clamp_f32_f32p_f32p`).
    ImatmulF32F32pF32p,
    /// `imatmul_clamp_f16_f16p_f16p`: KleidiAI's SME indirect f16 GEMMs (the LHS packed from an
    /// indirection buffer, K as chunks padded to whole pairs; otherwise
    /// `matmul_clamp_f16_f16p_f16p`).
    ImatmulF16F16pF16p,
    /// `matmul_clamp_qai8_qai8p_qsi8cxp`: KleidiAI's SME int8-output GEMMs (int8 LHS packed in
    /// streaming-length tiles x int8 weights packed with folded biases and scales, requantized
    /// int8 output); its interface header is `kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_interface.h`
    /// ([`Family::interface_stem`]).
    Qai8Qai8pQsi8cxp,
    /// `matmul_clamp_qai8_qai8_qsi8cxp`: KleidiAI's SME2 int8-output GEMV (one int8 LHS row as
    /// it is x the GEMMs' packed int8 weights, requantized int8 output); its interface header
    /// declares `struct kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel`
    /// ([`Family::interface_struct`]).
    Qai8Qai8Qsi8cxp,
    /// `imatmul_clamp_qai8_qai8p_qsi8cxp`: KleidiAI's SME indirect int8-output GEMMs (the LHS
    /// packed from an indirection buffer, K as chunks padded to whole steps of 4; otherwise
    /// `matmul_clamp_qai8_qai8p_qsi8cxp`).
    ImatmulQai8Qai8pQsi8cxp,
}

/// The operand formats of a family: what its kernels read, and so the argument shape of
/// `run_matmul`, which C functions take `bl`, and which modules check and run its kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// int8 LHS quantized per row (`qai8dxp`) x a packed integer RHS.
    Qai8dxp(Qai8dxpRhs),
    /// int8 LHS per block with f16 scales (`qsi8d32p`) x Q4_0 weights (`qsi4c32pscalef16`).
    Qsi8d32pQsi4c32p,
    /// int8 LHS per block with f32 scales and sums (`qsi8d32pscalef32`) x asymmetric int4 per
    /// block with f32 parameters and bias (`qai4c32p`).
    Qsi8d32pQai4c32p,
    /// LHS and RHS both packed, their values of the given type (`bf16p` x `bf16p`, `f32p` x
    /// `f32p`, `f16p` x `f16p`), the bias (of the output type) in front of each RHS group; the
    /// packed-float GEMMs of `matmul::bf16_gemm`.
    PackedFloat(Output),
    /// LHS rows as they are (`lhs`, `lhs_stride`) x floats of the output type packed with the
    /// bias in front (`x32p16x1b`, `x16p32x1b`, ...).
    UnpackedFloat,
    /// LHS rows as chunks of `k_chunk_length` values reached through an indirection buffer of
    /// `k_chunk_count` pointers per row (an implicit convolution's im2col), x floats packed with
    /// the bias in front over `k_chunk_count * k_chunk_length` K values.
    IndirectFloat,
    /// The packed-float operands of [`Operands::PackedFloat`] with K given as `k_chunk_count`
    /// chunks of `k_chunk_length` values, each chunk padded to whole `kr` steps: the LHS packed
    /// from an indirection buffer by an imatmul LHS packer (`x32p2vlx1_x32p`, `x16p2vlx2_x16p`).
    ChunkedPackedFloat(Output),
    /// f16 LHS packed by pairs of K values (`f16pmrx2`) x Q4_0 weights with f16 block scales
    /// (`qsi4c32ps1s0scalef16`); no bias.
    F16pQsi4c32p,
    /// int8 LHS packed by 4 K values in streaming-length tiles (`qai8p2vlx4`) x int8 weights with
    /// folded `i32` biases and `f32` scales (`qsi8cxpsb`), int8 output requantized by a
    /// `kai_matmul_requantize32_params` (`run_matmul`'s `params`, no float bounds).
    Qai8pQsi8cxpsb,
    /// One int8 LHS row as it is (`lhs`, no stride) x the weights of [`Operands::Qai8pQsi8cxpsb`],
    /// int8 output requantized by a `kai_matmul_requantize32_params`; `run_matmul` takes the
    /// packed-operand arguments with `lhs_packed` the row.
    Qai8Qsi8cxpsb,
    /// The operands of [`Operands::Qai8pQsi8cxpsb`] with K given as `k_chunk_count` chunks of
    /// `k_chunk_length` values, each padded to whole steps of 4: the LHS packed from an
    /// indirection buffer (`x8p2vlx4_x8p`), the RHS by the chunked packer.
    ChunkedQai8pQsi8cxpsb,
}

/// The RHS formats of the `qai8dxp` families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qai8dxpRhs {
    /// int4 per channel (`qsi4cxp`).
    Qsi4cxp,
    /// int8 per channel (`qsi8cxp`).
    Qsi8cxp,
    /// int4 with bf16 scales per block of `bl` (`qsi4c32p`).
    Qsi4c32p,
    /// 2-bit per channel, decoded through a caller's 4-entry table (`qsu2cxp`): `run_matmul` and
    /// the packers take `const int32_t* lut`.
    Qsu2cxp,
}

/// Which of a family's C functions take the block length `bl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLength {
    /// None: per-channel (or unquantized) operands.
    None,
    /// `get_rhs_packed_offset` and `run_matmul`.
    Rhs,
    /// Those and `get_lhs_packed_offset`.
    LhsAndRhs,
}

/// The C type of `run_matmul`'s `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DstPointer {
    /// `float*`.
    Float,
    /// `void*`.
    Void,
}

/// Everything about a family that code outside its kernels needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// KleidiAI directory (and interface header stem).
    pub dir: &'static str,
    /// Element type of the destination.
    pub output: Output,
    /// Operand formats.
    pub operands: Operands,
}

impl Family {
    /// Every family, in the order rkai declares them: the order of `rkai_select.h` and of the
    /// interface headers it writes.
    pub const ALL: [Family; 25] = [
        Family::F32Qai8dxpQsi4cxp,
        Family::F32Qai8dxpQsi8cxp,
        Family::F32Qai8dxpQsi4c32p,
        Family::F32Qai8dxpQsu2cxp,
        Family::Bf16Qai8dxpQsi4c32p,
        Family::Bf16Qai8dxpQsi4cxp,
        Family::F16Qai8dxpQsi4cxp,
        Family::F16Qai8dxpQsi8cxp,
        Family::F32Qsi8d32pQsi4c32p,
        Family::F32Qsi8d32pQai4c32p,
        Family::F16Qsi8d32pQai4c32p,
        Family::F32F32F32p,
        Family::F16F16F16p,
        Family::F32Bf16pBf16p,
        Family::F16Bf16pBf16p,
        Family::Fp32Bf16pBf16p,
        Family::ImatmulF32F32F32p,
        Family::F32F16pQsi4c32p,
        Family::F32F32pF32p,
        Family::F16F16pF16p,
        Family::ImatmulF32F32pF32p,
        Family::ImatmulF16F16pF16p,
        Family::Qai8Qai8pQsi8cxp,
        Family::Qai8Qai8Qsi8cxp,
        Family::ImatmulQai8Qai8pQsi8cxp,
    ];

    /// The family's description: the one table every other part reads. Always inlined, so that
    /// where the family is a constant (a C shim) everything derived from it folds.
    #[inline(always)]
    pub const fn description(self) -> Description {
        use Operands::*;
        use Output::{Bf16, F16, F32, I8};
        let (dir, output, operands) = match self {
            Family::F32Qai8dxpQsi4cxp => (
                "matmul_clamp_f32_qai8dxp_qsi4cxp",
                F32,
                Qai8dxp(Qai8dxpRhs::Qsi4cxp),
            ),
            Family::F32Qai8dxpQsi8cxp => (
                "matmul_clamp_f32_qai8dxp_qsi8cxp",
                F32,
                Qai8dxp(Qai8dxpRhs::Qsi8cxp),
            ),
            Family::F32Qai8dxpQsi4c32p => (
                "matmul_clamp_f32_qai8dxp_qsi4c32p",
                F32,
                Qai8dxp(Qai8dxpRhs::Qsi4c32p),
            ),
            Family::F32Qai8dxpQsu2cxp => (
                "matmul_clamp_f32_qai8dxp_qsu2cxp",
                F32,
                Qai8dxp(Qai8dxpRhs::Qsu2cxp),
            ),
            Family::F16Qai8dxpQsi4cxp => (
                "matmul_clamp_f16_qai8dxp_qsi4cxp",
                F16,
                Qai8dxp(Qai8dxpRhs::Qsi4cxp),
            ),
            Family::F16Qai8dxpQsi8cxp => (
                "matmul_clamp_f16_qai8dxp_qsi8cxp",
                F16,
                Qai8dxp(Qai8dxpRhs::Qsi8cxp),
            ),
            Family::Bf16Qai8dxpQsi4cxp => (
                "matmul_clamp_bf16_qai8dxp_qsi4cxp",
                Bf16,
                Qai8dxp(Qai8dxpRhs::Qsi4cxp),
            ),
            Family::Bf16Qai8dxpQsi4c32p => (
                "matmul_clamp_bf16_qai8dxp_qsi4c32p",
                Bf16,
                Qai8dxp(Qai8dxpRhs::Qsi4c32p),
            ),
            Family::F32Qsi8d32pQsi4c32p => {
                ("matmul_clamp_f32_qsi8d32p_qsi4c32p", F32, Qsi8d32pQsi4c32p)
            }
            Family::F32Qsi8d32pQai4c32p => {
                ("matmul_clamp_f32_qsi8d32p_qai4c32p", F32, Qsi8d32pQai4c32p)
            }
            Family::F16Qsi8d32pQai4c32p => {
                ("matmul_clamp_f16_qsi8d32p_qai4c32p", F16, Qsi8d32pQai4c32p)
            }
            Family::F32F32F32p => ("matmul_clamp_f32_f32_f32p", F32, UnpackedFloat),
            Family::F16F16F16p => ("matmul_clamp_f16_f16_f16p", F16, UnpackedFloat),
            Family::F32Bf16pBf16p => ("matmul_clamp_f32_bf16p_bf16p", F32, PackedFloat(Bf16)),
            Family::F16Bf16pBf16p => ("matmul_clamp_f16_bf16p_bf16p", F16, PackedFloat(Bf16)),
            Family::Fp32Bf16pBf16p => ("matmul_clamp_fp32_bf16p_bf16p", F32, PackedFloat(Bf16)),
            Family::ImatmulF32F32F32p => ("imatmul_clamp_f32_f32_f32p", F32, IndirectFloat),
            Family::F32F16pQsi4c32p => ("matmul_clamp_f32_f16p_qsi4c32p", F32, F16pQsi4c32p),
            Family::F32F32pF32p => ("matmul_clamp_f32_f32p_f32p", F32, PackedFloat(F32)),
            Family::F16F16pF16p => ("matmul_clamp_f16_f16p_f16p", F16, PackedFloat(F16)),
            Family::ImatmulF32F32pF32p => {
                ("imatmul_clamp_f32_f32p_f32p", F32, ChunkedPackedFloat(F32))
            }
            Family::ImatmulF16F16pF16p => {
                ("imatmul_clamp_f16_f16p_f16p", F16, ChunkedPackedFloat(F16))
            }
            Family::Qai8Qai8pQsi8cxp => ("matmul_clamp_qai8_qai8p_qsi8cxp", I8, Qai8pQsi8cxpsb),
            Family::Qai8Qai8Qsi8cxp => ("matmul_clamp_qai8_qai8_qsi8cxp", I8, Qai8Qsi8cxpsb),
            Family::ImatmulQai8Qai8pQsi8cxp => (
                "imatmul_clamp_qai8_qai8p_qsi8cxp",
                I8,
                ChunkedQai8pQsi8cxpsb,
            ),
        };
        Description {
            dir,
            output,
            operands,
        }
    }

    /// KleidiAI directory (and interface header stem) of the family.
    #[inline(always)]
    pub const fn dir(self) -> &'static str {
        self.description().dir
    }

    /// The stem of the family's interface header and struct (`kai_<stem>_interface.h`,
    /// `struct kai_<stem>_ukernel`): its directory, except for `matmul_clamp_fp32_bf16p_bf16p`,
    /// whose header KleidiAI names `kai_matmul_clamp_f32_bf16p_bf16p_interface.h` and which
    /// declares the same struct as that family's.
    #[inline(always)]
    pub const fn interface_stem(self) -> &'static str {
        match self {
            Family::Fp32Bf16pBf16p => Family::F32Bf16pBf16p.dir(),
            Family::Qai8Qai8pQsi8cxp => "matmul_clamp_qai8_qai8p_qsi8cxpsb",
            _ => self.dir(),
        }
    }

    /// The stem of the family's interface struct (`struct kai_<stem>_ukernel`): its
    /// [`Family::interface_stem`], except for `matmul_clamp_qai8_qai8_qsi8cxp`, whose header
    /// KleidiAI names after the directory but whose struct after `..._qai8p_qsi8cxp`.
    #[inline(always)]
    pub const fn interface_struct(self) -> &'static str {
        match self {
            Family::Qai8Qai8Qsi8cxp => "matmul_clamp_qai8_qai8p_qsi8cxp",
            _ => self.interface_stem(),
        }
    }

    /// Element type of the destination.
    #[inline(always)]
    pub const fn output(self) -> Output {
        self.description().output
    }

    /// Which of the family's C functions take `bl`.
    #[inline(always)]
    pub const fn block_length(self) -> BlockLength {
        match self.description().operands {
            Operands::Qai8dxp(Qai8dxpRhs::Qsi4c32p) => BlockLength::Rhs,
            Operands::Qai8dxp(Qai8dxpRhs::Qsi4cxp | Qai8dxpRhs::Qsi8cxp | Qai8dxpRhs::Qsu2cxp) => {
                BlockLength::None
            }
            Operands::Qsi8d32pQsi4c32p | Operands::Qsi8d32pQai4c32p | Operands::F16pQsi4c32p => {
                BlockLength::LhsAndRhs
            }
            Operands::PackedFloat(_)
            | Operands::ChunkedPackedFloat(_)
            | Operands::UnpackedFloat
            | Operands::IndirectFloat
            | Operands::Qai8pQsi8cxpsb
            | Operands::Qai8Qsi8cxpsb
            | Operands::ChunkedQai8pQsi8cxpsb => BlockLength::None,
        }
    }

    /// The C type of `run_matmul`'s `dst`: KleidiAI types it `float*` only in the int8-LHS
    /// families with f32 output.
    #[inline(always)]
    pub const fn dst_pointer(self) -> DstPointer {
        match (self.description().operands, self.output()) {
            (
                Operands::PackedFloat(_)
                | Operands::ChunkedPackedFloat(_)
                | Operands::UnpackedFloat
                | Operands::IndirectFloat
                | Operands::Qai8pQsi8cxpsb
                | Operands::Qai8Qsi8cxpsb
                | Operands::ChunkedQai8pQsi8cxpsb,
                _,
            ) => DstPointer::Void,
            (
                Operands::Qai8dxp(_) | Operands::Qsi8d32pQsi4c32p | Operands::Qsi8d32pQai4c32p,
                Output::F32,
            )
            | (Operands::F16pQsi4c32p, _) => DstPointer::Float,
            (
                Operands::Qai8dxp(_) | Operands::Qsi8d32pQsi4c32p | Operands::Qsi8d32pQai4c32p,
                Output::F16 | Output::Bf16 | Output::I8,
            ) => DstPointer::Void,
        }
    }

    /// Whether `run_matmul` takes a trailing `const int32_t* lut` (the 2-bit family).
    #[inline(always)]
    pub const fn takes_lut(self) -> bool {
        matches!(
            self.description().operands,
            Operands::Qai8dxp(Qai8dxpRhs::Qsu2cxp)
        )
    }

    /// Whether the RHS has one scale per block of `bl` K values (the C functions take `bl`).
    #[inline(always)]
    pub const fn is_blockwise(self) -> bool {
        !matches!(self.block_length(), BlockLength::None)
    }

    /// Format of the packed RHS the family's kernels read; `bl` is the block length of the
    /// per-block families and is ignored by the per-channel ones.
    #[inline(always)]
    pub const fn rhs_layout(self, bl: usize) -> RhsLayout {
        let element = self.output().size();
        match self.description().operands {
            Operands::Qai8dxp(Qai8dxpRhs::Qsi4cxp) => RhsLayout::Qsi4cxp,
            Operands::Qai8dxp(Qai8dxpRhs::Qsi8cxp) => RhsLayout::Qsi8cxp,
            Operands::Qai8dxp(Qai8dxpRhs::Qsi4c32p) => RhsLayout::Qsi4c32p { bl },
            Operands::Qai8dxp(Qai8dxpRhs::Qsu2cxp) => RhsLayout::Qsu2cxp,
            Operands::Qsi8d32pQsi4c32p | Operands::F16pQsi4c32p => RhsLayout::Qsi4c32pf16 { bl },
            Operands::Qsi8d32pQai4c32p => RhsLayout::Qai4c32p { bl },
            Operands::PackedFloat(Output::Bf16) => RhsLayout::Bf16Bias {
                bias_bytes: element,
            },
            // The SME f32 and f16 formats (`f32p2vlx1biasf32`, `x16p2vlx2b`): values and biases
            // of the output type.
            // (No packed-float family has int8 values.)
            Operands::PackedFloat(Output::F32 | Output::F16 | Output::I8)
            | Operands::ChunkedPackedFloat(_) => RhsLayout::FloatBias { bytes: element },
            // K is `k_chunk_count * k_chunk_length` for the indirect family.
            Operands::UnpackedFloat | Operands::IndirectFloat => {
                RhsLayout::FloatBias { bytes: element }
            }
            Operands::Qai8pQsi8cxpsb
            | Operands::Qai8Qsi8cxpsb
            | Operands::ChunkedQai8pQsi8cxpsb => RhsLayout::Qsi8cxpsb,
        }
    }
}
