//! The float GEMM family `matmul_clamp_f32_f32_f32p` and its RHS packers, through the exported C
//! symbols: getters and packed sizes equal KleidiAI's measured values, packed bytes equal the
//! reference, results equal the reference bit for bit (the fused chain from the bias is fully
//! determined), portions write only themselves, buffers sit against guard pages, callee-saved
//! registers survive, and invalid arguments abort naming the condition. The checks themselves
//! are shared with the f16 family (`support::float_family`).

use crate::support;

use rkai_ukernels::family::Family;
use rkai_ukernels::reference::float_gemm as reference;
use support::float_family::{FloatFamily, FloatModel, Reference};

/// `matmul_clamp_f32_f32_f32p`: f32 values, the f32 reference.
struct F32;

impl FloatModel for F32 {
    type T = f32;
    const LABEL: &'static str = "float";
    const REFERENCE: Reference<f32> = reference::matmul;
}

impl FloatFamily for F32 {
    const FAMILY: Family = Family::F32F32F32p;
    const C_TYPE: &'static str = "float";
    const PORTABLE_TOO: bool = false;
    const REGISTER_SHAPES: [(usize, usize, usize); 3] = [(1, 8, 3), (7, 17, 9), (12, 40, 64)];
    const STRIDE_COL_N: usize = 20;
}

float_family_tests!(F32);
