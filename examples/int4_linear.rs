//! An int4 linear layer `y = x W^T + b` through rkai's safe Rust API: the best GEMV/GEMM pair
//! for this CPU, weights packed once, activations quantized per call, the GEMM spread over
//! threads. Checks the result against plain f32 arithmetic and prints what ran.
//!
//! `cargo run --release --example int4_linear`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example int4_linear`.

use rkai::{Activations, Clamp, Family, Kernel, PackedActivations, PackedWeights, Weights};
use std::time::Instant;

const N: usize = 1024;
const K: usize = 1024;

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // int4 weights as unsigned nibbles with zero point 8, one scale per output channel.
    let nibbles: Vec<u8> = (0..N * K / 2).map(|_| rng.next() as u8).collect();
    let scales: Vec<f32> = (0..N).map(|_| rng.uniform(0.005, 0.02)).collect();
    let bias: Vec<f32> = (0..N).map(|_| rng.uniform(-0.5, 0.5)).collect();
    let weights = Weights::Int4PerChannel {
        data: &nibbles,
        scales: &scales,
    };

    println!("int4_linear (Rust): N={N} K={K}");
    let (gemv, gemm) = match Kernel::select_pair(Family::F32Qai8dxpQsi4cxp) {
        Ok(pair) => pair,
        Err(e @ rkai::Error::NotSupportedByCpu(_)) => {
            // An Arm CPU without dotprod (e.g. Cortex-A53): no integer kernel applies.
            println!("  SKIP: {e}");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    println!(
        "  GEMV kernel: {} ({})",
        gemv.entry().stem,
        gemv.entry().isa.name()
    );
    println!(
        "  GEMM kernel: {} ({})",
        gemm.entry().stem,
        gemm.entry().isa.name()
    );

    // One packing serves both kernels of the pair.
    let size = gemm.packed_weights_size(N, K, 0)?;
    let packed = PackedWeights::pack(&gemm, N, K, weights, Some(&bias), vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let mut worst = 0.0f32;
    for (kernel, m) in [(gemv, 1), (gemm, 32)] {
        let x: Vec<f32> = (0..m * K).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let start = Instant::now();
        let lhs_size = kernel.packed_activations_size(m, K, 0)?;
        let lhs = PackedActivations::pack(
            &kernel,
            m,
            K,
            0,
            Activations::F32 {
                data: &x,
                stride: K,
            },
            vec![0u8; lhs_size],
        )?;
        let mut y = vec![0.0f32; m * N];
        rkai::parallel::matmul(&kernel, &lhs, &packed, &mut y, N, Clamp::NONE, 0)?;
        let elapsed = start.elapsed();

        // Plain f32 reference; int8 activations cost about 1e-2 of relative accuracy.
        let mut max_ref = 0.0f32;
        let mut max_err = 0.0f32;
        for i in 0..m {
            for j in 0..N {
                let mut acc = 0.0f32;
                for kk in 0..K {
                    let byte = nibbles[(j * K + kk) / 2];
                    let nibble = if kk % 2 == 0 { byte & 15 } else { byte >> 4 };
                    acc += x[i * K + kk] * (nibble as f32 - 8.0) * scales[j];
                }
                let r = acc + bias[j];
                max_ref = max_ref.max(r.abs());
                max_err = max_err.max((y[i * N + j] - r).abs());
            }
        }
        let relative = max_err / max_ref;
        worst = worst.max(relative);
        println!("  M={m:>2}: {elapsed:?} (quantize + matmul), max relative error {relative:.2e}");
    }
    if worst > 5e-2 {
        return Err(format!("error {worst} above tolerance").into());
    }
    println!("int4_linear (Rust): OK");
    Ok(())
}
