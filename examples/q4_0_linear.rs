//! A llama.cpp-style Q4_0 linear layer `y = x W^T` through rkai's safe Rust API: weights as
//! GGUF stores them (blocks of an f16 scale and 16 bytes of nibbles), packed once for the best
//! GEMV/GEMM pair of this CPU; activations quantized per call to int8 per block of 32 (Q8_0's
//! format). Checks the result against f32 arithmetic on the dequantized weights and prints what ran.
//!
//! `cargo run --release --example q4_0_linear`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example q4_0_linear`.

mod common;

use common::Rng;
use rkai::{Family, PackedWeights, Q4_0_BLOCK, Weights};

const N: usize = 512;
const K: usize = 1024;
/// Bytes of one Q4_0 block: the f16 scale, then 32 nibbles.
const BLOCK_BYTES: usize = 2 + Q4_0_BLOCK / 2;

/// Weight `kk` of channel `j`, dequantized as llama.cpp does: `d * (nibble - 8)`, byte `i` of a
/// block holding value `i` (low nibble) and value `i + 16` (high nibble).
fn dequantized(blocks: &[u8], j: usize, kk: usize) -> f32 {
    let block = &blocks[(j * K + kk) / Q4_0_BLOCK * BLOCK_BYTES..][..BLOCK_BYTES];
    let d = rkai::half::f16::from_le_bytes([block[0], block[1]]).to_f32();
    let i = kk % Q4_0_BLOCK;
    let byte = block[2 + i % 16];
    let nibble = if i < 16 { byte & 15 } else { byte >> 4 };
    d * (f32::from(nibble) - 8.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let blocks: Vec<u8> = (0..N * K / Q4_0_BLOCK)
        .flat_map(|_| {
            let d = rkai::half::f16::from_f32(rng.uniform(0.005, 0.02));
            let nibbles: Vec<u8> = (0..Q4_0_BLOCK / 2).map(|_| rng.next() as u8).collect();
            d.to_le_bytes().into_iter().chain(nibbles)
        })
        .collect();

    println!("q4_0_linear (Rust): N={N} K={K}");
    let Some((gemv, gemm)) = common::pair(Family::F32Qsi8d32pQsi4c32p)? else {
        return Ok(());
    };
    // One packing serves both kernels; the Q4_0 format carries no bias.
    let size = gemm.packed_weights_size(N, K, Q4_0_BLOCK)?;
    let weights = Weights::Q4_0 { blocks: &blocks };
    let packed = PackedWeights::pack(&gemm, N, K, weights, None, vec![0u8; size])?;
    println!(
        "  packed weights: {size} bytes from {} bytes of Q4_0",
        blocks.len()
    );

    // Activations quantized per block of 32 (Q8_0's format): about 1e-2 of relative accuracy.
    let weight = |j: usize, kk: usize| dequantized(&blocks, j, kk);
    let dims = (N, K, Q4_0_BLOCK);
    common::check_layer::<f32, f32, _>((gemv, gemm), &packed, dims, weight, None, &mut rng, 5e-2)?;
    println!("q4_0_linear (Rust): OK");
    Ok(())
}
