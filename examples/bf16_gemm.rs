//! A bf16 linear layer `y = x W^T + b` through rkai's safe Rust API: f32 weights held K x N,
//! rounded to bf16 as they are packed once for the best GEMV/GEMM pair of this CPU
//! (`matmul_clamp_f32_bf16p_bf16p`), f32 activations rounded to bf16 as they are packed per
//! call, f32 bias and outputs. Checks the result against f32 arithmetic and prints what ran.
//!
//! `cargo run --release --example bf16_gemm`; under QEMU:
//! `QEMU_CPU=neoverse-n2 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example bf16_gemm`.

mod common;

use common::Rng;
use rkai::{Bias, Family, PackedWeights, WeightLayout, Weights};

const N: usize = 512;
const K: usize = 384;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    // K rows of N values.
    let values: Vec<f32> = (0..K * N).map(|_| rng.uniform(-0.1, 0.1)).collect();
    let bias: Vec<f32> = (0..N).map(|_| rng.uniform(-0.5, 0.5)).collect();

    println!("bf16_gemm (Rust): N={N} K={K}");
    let Some((gemv, gemm)) = common::pair(Family::F32Bf16pBf16p)? else {
        return Ok(());
    };
    let size = gemm.packed_weights_size(N, K, 0)?;
    let weights = Weights::F32 {
        data: &values,
        layout: WeightLayout::Kxn,
        bias: Some(Bias::F32(&bias)),
    };
    let packed = PackedWeights::pack(&gemm, N, K, weights, None, vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let weight = |j: usize, kk: usize| values[kk * N + j];
    // bf16 operands (8 significant bits) with f32 sums: about 1e-2 relative.
    common::check_layer::<f32, f32, _>(
        (gemv, gemm),
        &packed,
        (N, K, 0),
        weight,
        Some(&bias),
        &mut rng,
        5e-2,
    )?;
    println!("bf16_gemm (Rust): OK");
    Ok(())
}
