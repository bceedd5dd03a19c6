//! rkai: Arm matmul micro-kernels with KleidiAI 1.30's packed formats and results, through a
//! safe API.
//!
//! One linear layer `y = x W^T + b` with int4 weights and dynamically quantized activations:
//!
//! ```
//! use rkai::{Activations, Clamp, Family, Kernel, PackedActivations, PackedWeights, Weights};
//!
//! let (n, k, m) = (64, 32, 3);
//! // Signed int4 weights as unsigned nibbles (zero point 8), one f32 scale per channel.
//! let nibbles = vec![0x9a_u8; n * k / 2];
//! let scales = vec![0.01_f32; n];
//! let bias = vec![0.5_f32; n];
//! let x: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
//!
//! // The best GEMV/GEMM pair for this CPU; both read the same packed weights.
//! let (_gemv, gemm) = match Kernel::select_pair(Family::F32Qai8dxpQsi4cxp) {
//!     Ok(pair) => pair,
//!     // A CPU without dotprod (Cortex-A53) has no kernel of this family.
//!     Err(rkai::Error::NotSupportedByCpu(_)) => return Ok(()),
//!     Err(e) => return Err(e),
//! };
//! let weights = Weights::Int4PerChannel { data: &nibbles, scales: &scales };
//! let storage = vec![0u8; gemm.packed_weights_size(n, k, 0)?];
//! let packed = PackedWeights::pack(&gemm, n, k, weights, Some(&bias), storage)?;
//!
//! // Activations quantized to int8 per row (the kernel's format); bl 0: per-channel weights.
//! let lhs_storage = vec![0u8; gemm.packed_activations_size(m, k, 0)?];
//! let rows = Activations::F32 { data: &x, stride: k };
//! let lhs = PackedActivations::pack(&gemm, m, k, 0, rows, lhs_storage)?;
//! let mut y = vec![0f32; m * n];
//! rkai::matmul(&gemm, &lhs, &packed, &mut y, n, Clamp::NONE)?;
//! // Each weight is 0x9a's nibbles: 0xa - 8 = 2 (even k), 0x9 - 8 = 1 (odd k).
//! let exact: f32 = (0..k).map(|j| x[j] * if j % 2 == 0 { 2.0 } else { 1.0 }).sum::<f32>() * 0.01 + 0.5;
//! assert!((y[0] - exact).abs() < 0.05, "{} vs {exact}", y[0]);
//! # Ok::<(), rkai::Error>(())
//! ```
//!
//! # What is here
//! - The safe API ([`Kernel`], [`Weights`], [`PackedWeights`], [`Activations`],
//!   [`PackedActivations`], [`Lhs`], [`matmul`], for int8 outputs [`matmul_requantized`] with
//!   [`Requantize`] and [`InputQuantization`], and with the `std` feature [`parallel`]), from
//!   `rkai_ukernels::api`; convolutions through the indirect matmuls ([`Conv2d`],
//!   [`Indirection`], [`PackedWeights::pack_chunked`]).
//! - Kernel selection and planning: [`Family`], [`Shape`], [`Features`], [`plan`].
//!
//! This crate exports no C symbol and links no native library, so it sits beside a crate that
//! links Arm's KleidiAI. The C library is the repository's `rkai-capi` crate. The kernels
//! themselves, their catalog and scalar references are the `no_std` crate `rkai-ukernels`.
//!
//! # Features
//! - `std` (default): [`parallel`], matmul over scoped threads. Without it the crate is
//!   `no_std`; nothing in it allocates either way.
#![no_std]
#![deny(missing_docs)]

pub use rkai_ukernels::api::{
    Activations, Bias, Chunks, Clamp, Conv2d, Error, IndirectElement, IndirectLhs, Indirection,
    InputQuantization, Kernel, Lhs, NibbleOrder, OutputElement, OutputStage, PackedActivations,
    PackedWeights, Q4_0_BLOCK, Requantize, Result, WeightLayout, Weights,
    is_vector_length_dependent, matmul, matmul_columns, matmul_requantized,
};
pub use rkai_ukernels::arch::Features;
pub use rkai_ukernels::family::Family;
pub use rkai_ukernels::select::Shape;

#[cfg(feature = "std")]
pub use rkai_ukernels::api::parallel;

/// The `half` crate, whose `bf16` and `f16` the API's signatures use.
pub use half;

/// Work planning for mixed SME and NEON execution (see [`plan::plan`]).
pub mod plan {
    pub use rkai_ukernels::plan::{CostModel, Part, Plan, Request, plan};
}
