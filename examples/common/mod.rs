//! What the safe API's layer examples share: deterministic data, the kernel pair of a family
//! (or a skip on a CPU without its features), and running one layer at M = 1 (the GEMV) and
//! M = 16 (the GEMM) against f32 arithmetic on the dequantized weights.

use rkai::{Activations, Clamp, Family, Kernel, PackedActivations, PackedWeights};
use std::error::Error;
use std::time::Instant;

/// Deterministic pseudo-random numbers (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `lo..hi`.
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// The best GEMV/GEMM pair of `family` for this CPU, printed; `None` (printed as a skip) on a
/// CPU without the features of any of its kernels (e.g. Cortex-A53: no dotprod).
pub fn pair(family: Family) -> Result<Option<(Kernel, Kernel)>, Box<dyn Error>> {
    match Kernel::select_pair(family) {
        Ok((gemv, gemm)) => {
            for (what, k) in [("GEMV", gemv), ("GEMM", gemm)] {
                println!(
                    "  {what} kernel: {} ({})",
                    k.entry().stem,
                    k.entry().isa.name()
                );
            }
            Ok(Some((gemv, gemm)))
        }
        Err(e @ rkai::Error::NotSupportedByCpu(_)) => {
            println!("  SKIP: {e}");
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Runs the `n x k` layer packed in `packed` (block length `bl`) on random f32 activations with
/// the GEMV at M = 1 and the GEMM at M = 16 (activations quantized per call, the matmul over
/// threads), compares with f32 arithmetic on `weight(j, kk)` plus `bias`, prints each error and
/// fails above `tolerance` (relative to the largest output).
#[allow(clippy::too_many_arguments)]
pub fn check_layer<S: AsRef<[u8]> + Sync>(
    (gemv, gemm): (Kernel, Kernel),
    packed: &PackedWeights<S>,
    (n, k, bl): (usize, usize, usize),
    weight: impl Fn(usize, usize) -> f32,
    bias: Option<&[f32]>,
    rng: &mut Rng,
    tolerance: f32,
) -> Result<(), Box<dyn Error>> {
    for (kernel, m) in [(gemv, 1), (gemm, 16)] {
        let x: Vec<f32> = (0..m * k).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let start = Instant::now();
        let lhs_size = kernel.packed_activations_size(m, k, bl)?;
        let rows = Activations::F32 {
            data: &x,
            stride: k,
        };
        let lhs = PackedActivations::pack(&kernel, m, k, bl, rows, vec![0u8; lhs_size])?;
        let mut y = vec![0.0f32; m * n];
        rkai::parallel::matmul(&kernel, &lhs, packed, &mut y, n, Clamp::NONE, 0)?;
        let elapsed = start.elapsed();
        let (mut max_ref, mut max_err) = (0.0f32, 0.0f32);
        for i in 0..m {
            for j in 0..n {
                let dot: f32 = (0..k).map(|kk| x[i * k + kk] * weight(j, kk)).sum();
                let r = dot + bias.map_or(0.0, |b| b[j]);
                max_ref = max_ref.max(r.abs());
                max_err = max_err.max((y[i * n + j] - r).abs());
            }
        }
        let relative = max_err / max_ref;
        println!(
            "  M={m:>2}: {elapsed:?} (pack activations + matmul), max relative error {relative:.2e}"
        );
        if relative > tolerance {
            return Err(format!("error {relative} above tolerance {tolerance}").into());
        }
    }
    Ok(())
}
