//! Safe Rust API: typed sources, packed buffers that know their format and shape, constructors
//! that check every precondition and return [`Error`] instead of aborting, and a [`matmul`] that
//! refuses buffers packed for another format.
//!
//! The flow of one linear layer `y = x W^T + b`:
//! 1. choose kernels once: [`Kernel::select`] (best for this CPU) or [`Kernel::new`];
//! 2. pack the weights once: [`PackedWeights::pack`] from a [`Weights`] source form into storage
//!    you provide (any `AsMut<[u8]>`: a `Vec<u8>`, an arena slice) of
//!    [`Kernel::packed_weights_size`] bytes; with the GEMV/GEMM pair of [`Kernel::select_pair`],
//!    one packing serves both;
//! 3. per call, pack the activations: [`PackedActivations::pack`] from an [`Activations`] form
//!    (quantized to int8, or rounded to bf16, where the kernel's format asks), or, for the
//!    kernels that read rows as they are ([`Kernel::reads_packed_lhs`]), give them as
//!    [`Lhs::Rows`];
//! 4. run [`matmul`] into `f32`, `half::f16` or `half::bf16` rows (the family fixes which) with
//!    a [`Clamp`], or, for the int8-output families, [`matmul_requantized`] into `i8` rows with a
//!    [`Requantize`]; with the `std` feature, [`parallel::matmul`] and
//!    [`parallel::matmul_requantized`] over threads.
//!
//! A convolution goes the same way through the indirect matmuls (no im2col): the weights as
//! K x N rows over K in [`Chunks`] (one per kernel tap) packed once by
//! [`PackedWeights::pack_chunked`]; per image an [`Indirection`] table of the [`Conv2d`]'s
//! pixels, given to [`matmul`] as it is or packed by [`PackedActivations::pack_indirect`].
//!
//! Nothing here allocates. Every family of the catalog is covered: the families whose weights come as per-channel int4,
//! int8 or 2-bit codes with a value table (`qsu2cxp`), per-block int4 with bf16 scales or
//! asymmetric with f32 scales and zero offsets (`qsi8d32p_qai4c32p`), llama.cpp's Q4_0 blocks,
//! or f32 or f16 values (N x K or K x N, with their bias), and whose activations come as f32,
//! f16 or bf16 rows: the integer families with float output and the float GEMMs
//! `matmul_clamp_{f32_f32_f32p, f16_f16_f16p, f32_f32p_f32p, f16_f16p_f16p, f32_bf16p_bf16p,
//! fp32_bf16p_bf16p, f16_bf16p_bf16p}`; the int8-output families
//! `matmul_clamp_qai8_qai8p_qsi8cxp` (SME GEMMs, activations packed) and
//! `matmul_clamp_qai8_qai8_qsi8cxp` (SME2 GEMV, one row as it is), whose weights come as
//! [`Weights::Int8Requantized`] (K x N int8 with per-channel scales, `i32` biases and the
//! [`InputQuantization`] they fold in) and whose activations come as [`Activations::Int8`] rows;
//! the float indirect matmuls `imatmul_clamp_{f32_f32_f32p, f32_f32p_f32p, f16_f16p_f16p}` over
//! f32 or f16 images; and the int8 indirect matmuls `imatmul_clamp_qai8_qai8p_qsi8cxp` over int8
//! images (their pad chunk the input zero point), their weights [`Weights::Int8Requantized`]
//! packed by [`PackedWeights::pack_chunked`], run by [`matmul_requantized`].

mod activations;
mod choice;
mod chunks;
mod conv;
mod error;
mod kernel;
mod requantize;
mod run;
mod weights;

pub use crate::pack::kinds::WeightLayout;
pub use activations::{Activations, PackedActivations};
pub use chunks::Chunks;
pub use conv::{Conv2d, IndirectElement, IndirectLhs, Indirection};
pub use error::{Error, Result};
pub use kernel::{Kernel, is_vector_length_dependent};
pub use requantize::{InputQuantization, Requantize};
#[cfg(feature = "std")]
pub use run::parallel;
pub use run::{Clamp, Lhs, OutputElement, OutputStage, matmul, matmul_columns, matmul_requantized};
pub use weights::{Bias, NibbleOrder, PackedWeights, Q4_0_BLOCK, Weights};
