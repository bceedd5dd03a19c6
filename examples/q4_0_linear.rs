//! A llama.cpp-style Q4_0 linear layer `y = x W^T` through rkai's safe Rust API: weights as
//! GGUF stores them (blocks of an f16 scale and 16 bytes of nibbles), packed once for the best
//! GEMV/GEMM pair of this CPU; activations quantized per call to int8 per block of 32 (Q8_0's
//! format). Checks the result against f32 arithmetic on the dequantized weights and prints what ran.
//!
//! `cargo run --release --example q4_0_linear`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example q4_0_linear`.

use rkai::{
    Activations, Clamp, Family, Kernel, PackedActivations, PackedWeights, Q4_0_BLOCK, Weights,
};

const N: usize = 512;
const K: usize = 1024;
/// Bytes of one Q4_0 block: the f16 scale, then 32 nibbles.
const BLOCK_BYTES: usize = 2 + Q4_0_BLOCK / 2;

/// Deterministic pseudo-random numbers (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

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
    let (gemv, gemm) = match Kernel::select_pair(Family::F32Qsi8d32pQsi4c32p) {
        Ok(pair) => pair,
        Err(e @ rkai::Error::NotSupportedByCpu(_)) => {
            // An Arm CPU without dotprod (e.g. Cortex-A53): no integer kernel applies.
            println!("  SKIP: {e}");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    for (what, k) in [("GEMV", gemv), ("GEMM", gemm)] {
        println!(
            "  {what} kernel: {} ({})",
            k.entry().stem,
            k.entry().isa.name()
        );
    }

    // One packing serves both kernels; the Q4_0 format carries no bias.
    let size = gemm.packed_weights_size(N, K, Q4_0_BLOCK)?;
    let weights = Weights::Q4_0 { blocks: &blocks };
    let packed = PackedWeights::pack(&gemm, N, K, weights, None, vec![0u8; size])?;
    println!(
        "  packed weights: {size} bytes from {} bytes of Q4_0",
        blocks.len()
    );

    let mut worst = 0.0f32;
    for (kernel, m) in [(gemv, 1), (gemm, 16)] {
        let x: Vec<f32> = (0..m * K).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let lhs_size = kernel.packed_activations_size(m, K, Q4_0_BLOCK)?;
        let rows = Activations::F32 {
            data: &x,
            stride: K,
        };
        let lhs = PackedActivations::pack(&kernel, m, K, Q4_0_BLOCK, rows, vec![0u8; lhs_size])?;
        let mut y = vec![0.0f32; m * N];
        rkai::parallel::matmul(&kernel, &lhs, &packed, &mut y, N, Clamp::NONE, 0)?;

        // f32 on the dequantized weights; int8 activations cost about 1e-2 of relative accuracy.
        let (mut max_ref, mut max_err) = (0.0f32, 0.0f32);
        for i in 0..m {
            for j in 0..N {
                let r: f32 = (0..K)
                    .map(|kk| x[i * K + kk] * dequantized(&blocks, j, kk))
                    .sum();
                max_ref = max_ref.max(r.abs());
                max_err = max_err.max((y[i * N + j] - r).abs());
            }
        }
        let relative = max_err / max_ref;
        worst = worst.max(relative);
        println!("  M={m:>2}: max relative error {relative:.2e}");
    }
    if worst > 5e-2 {
        return Err(format!("error {worst} above tolerance").into());
    }
    println!("q4_0_linear (Rust): OK");
    Ok(())
}
