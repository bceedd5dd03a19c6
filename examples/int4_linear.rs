//! An int4 linear layer `y = x W^T + b` through rkai's safe Rust API: the best GEMV/GEMM pair
//! for this CPU, weights (one f32 scale per channel) packed once, activations quantized per
//! call, the GEMM spread over threads. Checks the result against f32 arithmetic and prints what
//! ran.
//!
//! `cargo run --release --example int4_linear`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example int4_linear`.

mod common;

use common::Rng;
use rkai::{Family, PackedWeights, Weights};

const N: usize = 1024;
const K: usize = 1024;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // int4 weights as unsigned nibbles with zero point 8 (even k in the low nibble).
    let nibbles: Vec<u8> = (0..N * K / 2).map(|_| rng.next() as u8).collect();
    let scales: Vec<f32> = (0..N).map(|_| rng.uniform(0.005, 0.02)).collect();
    let bias: Vec<f32> = (0..N).map(|_| rng.uniform(-0.5, 0.5)).collect();

    println!("int4_linear (Rust): N={N} K={K}");
    let Some((gemv, gemm)) = common::pair(Family::F32Qai8dxpQsi4cxp)? else {
        return Ok(());
    };
    // One packing serves both kernels of the pair.
    let size = gemm.packed_weights_size(N, K, 0)?;
    let weights = Weights::Int4PerChannel {
        data: &nibbles,
        scales: &scales,
    };
    let packed = PackedWeights::pack(&gemm, N, K, weights, Some(&bias), vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let weight = |j: usize, kk: usize| {
        let byte = nibbles[(j * K + kk) / 2];
        let nibble = if kk % 2 == 0 { byte & 15 } else { byte >> 4 };
        (f32::from(nibble) - 8.0) * scales[j]
    };
    // int8 activations cost about 1e-2 of relative accuracy.
    common::check_layer::<f32, f32, _>(
        (gemv, gemm),
        &packed,
        (N, K, 0),
        weight,
        Some(&bias),
        &mut rng,
        5e-2,
    )?;
    println!("int4_linear (Rust): OK");
    Ok(())
}
