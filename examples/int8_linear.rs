//! An int8 linear layer `y = x W^T + b` through rkai's safe Rust API: weights quantized to
//! int8 with one f32 scale per output channel, packed once for the best GEMV/GEMM pair of this
//! CPU; activations quantized per row per call. Checks the result against f32 arithmetic and
//! prints what ran.
//!
//! `cargo run --release --example int8_linear`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example int8_linear`.

mod common;

use common::Rng;
use rkai::{Family, PackedWeights, Weights};

const N: usize = 768;
const K: usize = 1024;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x51_7cc1_b727_220a);
    let values: Vec<i8> = (0..N * K).map(|_| rng.next() as i8).collect();
    let scales: Vec<f32> = (0..N).map(|_| rng.uniform(0.0005, 0.002)).collect();
    let bias: Vec<f32> = (0..N).map(|_| rng.uniform(-0.5, 0.5)).collect();

    println!("int8_linear (Rust): N={N} K={K}");
    let Some((gemv, gemm)) = common::pair(Family::F32Qai8dxpQsi8cxp)? else {
        return Ok(());
    };
    let size = gemm.packed_weights_size(N, K, 0)?;
    let weights = Weights::Int8PerChannel {
        data: &values,
        scales: &scales,
    };
    let packed = PackedWeights::pack(&gemm, N, K, weights, Some(&bias), vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let weight = |j: usize, kk: usize| f32::from(values[j * K + kk]) * scales[j];
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
    println!("int8_linear (Rust): OK");
    Ok(())
}
