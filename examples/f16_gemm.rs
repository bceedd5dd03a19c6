//! An f16 linear layer `y = x W^T + b` through rkai's safe Rust API: f16 weights held N x K
//! (a PyTorch `Linear` weight) with an f16 bias, packed once for the best GEMV/GEMM pair of this
//! CPU (`matmul_clamp_f16_f16_f16p`: the activations are read as rows, no packing per call), f16
//! outputs. Checks the result against f32 arithmetic and prints what ran.
//!
//! `cargo run --release --example f16_gemm`; under QEMU:
//! `QEMU_CPU=neoverse-n2 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example f16_gemm`.

mod common;

use common::Rng;
use rkai::half::f16;
use rkai::{Bias, Family, PackedWeights, WeightLayout, Weights};

const N: usize = 512;
const K: usize = 384;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    let values: Vec<f16> = (0..N * K)
        .map(|_| f16::from_f32(rng.uniform(-0.1, 0.1)))
        .collect();
    let bias: Vec<f16> = (0..N)
        .map(|_| f16::from_f32(rng.uniform(-0.5, 0.5)))
        .collect();

    println!("f16_gemm (Rust): N={N} K={K}");
    let Some((gemv, gemm)) = common::pair(Family::F16F16F16p)? else {
        return Ok(());
    };
    let size = gemm.packed_weights_size(N, K, 0)?;
    let weights = Weights::F16 {
        data: &values,
        layout: WeightLayout::Nxk,
        bias: Some(Bias::F16(&bias)),
    };
    let packed = PackedWeights::pack(&gemm, N, K, weights, None, vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let weight = |j: usize, kk: usize| values[j * K + kk].to_f32();
    let bias: Vec<f32> = bias.iter().map(|b| b.to_f32()).collect();
    // f16 activations, outputs and (on NEON) sums: a few 1e-3 relative.
    common::check_layer::<f16, f16, _>(
        (gemv, gemm),
        &packed,
        (N, K, 0),
        weight,
        Some(&bias),
        &mut rng,
        2e-2,
    )?;
    println!("f16_gemm (Rust): OK");
    Ok(())
}
