//! What the safe API's layer examples share: deterministic data, the kernel pair of a family
//! (or a skip on a CPU without its features), and running one layer at M = 1 (the GEMV) and
//! M = 16 (the GEMM) against f32 arithmetic on the (dequantized) weights.

use rkai::half::f16;
use rkai::{
    Activations, Clamp, Family, Kernel, Lhs, OutputElement, PackedActivations, PackedWeights,
};
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

/// A float type of the layers' activations and outputs: f32 or IEEE half precision.
pub trait Float: OutputElement + Send + Sync {
    /// The nearest value of this type.
    fn from_f32(v: f32) -> Self;
    /// The value as f32.
    fn to_f32(self) -> f32;
    /// `data` as activation rows `stride` elements apart.
    fn rows(data: &[Self], stride: usize) -> Activations<'_>;
}

impl Float for f32 {
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn rows(data: &[Self], stride: usize) -> Activations<'_> {
        Activations::F32 { data, stride }
    }
}

impl Float for f16 {
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn rows(data: &[Self], stride: usize) -> Activations<'_> {
        Activations::F16 { data, stride }
    }
}

/// Runs the `n x k` layer packed in `packed` (block length `bl`) on random activations of type
/// `X` with the GEMV at M = 1 and the GEMM at M = 16 (activations packed per call where the
/// kernel reads them packed, given as rows otherwise; the matmul over threads) into outputs of
/// type `Y`, compares with f32 arithmetic on `weight(j, kk)` plus `bias`, prints each error and
/// fails above `tolerance` (relative to the largest output).
#[allow(clippy::too_many_arguments)]
pub fn check_layer<X: Float, Y: Float, S: AsRef<[u8]> + Sync>(
    (gemv, gemm): (Kernel, Kernel),
    packed: &PackedWeights<S>,
    (n, k, bl): (usize, usize, usize),
    weight: impl Fn(usize, usize) -> f32,
    bias: Option<&[f32]>,
    rng: &mut Rng,
    tolerance: f32,
) -> Result<(), Box<dyn Error>> {
    for (kernel, m) in [(gemv, 1), (gemm, 16)] {
        let x: Vec<X> = (0..m * k)
            .map(|_| X::from_f32(rng.uniform(-1.0, 1.0)))
            .collect();
        let rows = X::rows(&x, k);
        let start = Instant::now();
        let packed_x;
        let lhs = if kernel.reads_packed_lhs() {
            let lhs_size = kernel.packed_activations_size(m, k, bl)?;
            packed_x = PackedActivations::pack(&kernel, m, k, bl, rows, vec![0u8; lhs_size])?;
            Lhs::from(&packed_x)
        } else {
            Lhs::Rows { m, k, rows }
        };
        let mut y = vec![Y::from_f32(0.0); m * n];
        rkai::parallel::matmul(&kernel, lhs, packed, &mut y, n, Clamp::NONE, 0)?;
        let elapsed = start.elapsed();
        let (mut max_ref, mut max_err) = (0.0f32, 0.0f32);
        for i in 0..m {
            for j in 0..n {
                let dot: f32 = (0..k)
                    .map(|kk| x[i * k + kk].to_f32() * weight(j, kk))
                    .sum();
                let r = dot + bias.map_or(0.0, |b| b[j]);
                max_ref = max_ref.max(r.abs());
                max_err = max_err.max((y[i * n + j].to_f32() - r).abs());
            }
        }
        let relative = max_err / max_ref;
        let what = if kernel.reads_packed_lhs() {
            "pack activations + matmul"
        } else {
            "matmul on the rows"
        };
        println!("  M={m:>2}: {elapsed:?} ({what}), max relative error {relative:.2e}");
        if relative > tolerance {
            return Err(format!("error {relative} above tolerance {tolerance}").into());
        }
    }
    Ok(())
}
