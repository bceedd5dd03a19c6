//! A 3x3 convolution (stride 1, one pixel of zero padding: the output keeps the input's size)
//! through rkai's safe Rust API and an indirect matmul, no im2col: f32 HWIO weights with a bias
//! packed once for the best `imatmul` kernel of this CPU (SME `imatmul_clamp_f32_f32p_f32p`, else
//! SVE `imatmul_clamp_f32_f32_f32p`), then per image an indirection table of the image's pixels,
//! read by the kernel as it is (SVE) or packed first (SME). Checks the result against a direct
//! convolution in f32 and prints what ran; SKIP on a CPU without SVE or SME (every CPU off
//! AArch64: these formats follow the vector length).
//!
//! `cargo run --release --example conv2d`; under QEMU:
//! `QEMU_CPU=neoverse-v1 scripts/cross-cargo run --release --target aarch64-unknown-linux-gnu --example conv2d`.

// The layer examples' helpers; a convolution uses their random numbers only.
#[allow(dead_code)]
mod common;

use common::Rng;
use rkai::{
    Bias, Clamp, Conv2d, Family, Indirection, Kernel, Lhs, PackedActivations, PackedWeights, Shape,
    WeightLayout, Weights,
};
use std::error::Error;
use std::time::Instant;

const HEIGHT: usize = 28;
const WIDTH: usize = 28;
const C_IN: usize = 32;
const C_OUT: usize = 64;

/// The best indirect f32 matmul of this CPU, printed; `None` (printed as a skip) without one.
fn kernel() -> Result<Option<Kernel>, Box<dyn Error>> {
    for family in [Family::ImatmulF32F32pF32p, Family::ImatmulF32F32F32p] {
        match Kernel::select(family, Shape::Gemm) {
            Ok(k) => {
                let (stem, isa) = (k.entry().stem, k.entry().isa.name());
                println!("  kernel: {stem} ({isa})");
                return Ok(Some(k));
            }
            Err(rkai::Error::NotSupportedByCpu(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    println!("  SKIP: this CPU runs no indirect f32 matmul (SVE or SME)");
    Ok(None)
}

fn main() -> Result<(), Box<dyn Error>> {
    let conv = Conv2d::square(HEIGHT, WIDTH, C_IN, 3, 1, 1);
    let chunks = conv.chunks();
    let (m, k) = (conv.output_pixels()?, chunks.k()?);
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let image: Vec<f32> = (0..HEIGHT * WIDTH * C_IN)
        .map(|_| rng.uniform(-1.0, 1.0))
        .collect();
    // HWIO: k = (ky, kx, c_in) rows of C_OUT values.
    let weights: Vec<f32> = (0..k * C_OUT).map(|_| rng.uniform(-0.1, 0.1)).collect();
    let bias: Vec<f32> = (0..C_OUT).map(|_| rng.uniform(-0.5, 0.5)).collect();
    let pad = [0.0f32; C_IN];

    println!("conv2d (Rust): {HEIGHT}x{WIDTH}x{C_IN} -> {C_OUT} channels, 3x3, stride 1, pad 1");
    let Some(kernel) = kernel()? else {
        return Ok(());
    };
    let size = kernel.packed_chunked_weights_size(C_OUT, chunks)?;
    let form = Weights::F32 {
        data: &weights,
        layout: WeightLayout::Kxn,
        bias: Some(Bias::F32(&bias)),
    };
    let packed = PackedWeights::pack_chunked(&kernel, C_OUT, chunks, form, vec![0u8; size])?;
    println!("  packed weights: {size} bytes");

    let start = Instant::now();
    let mut table = vec![0usize; kernel.indirection_len(&conv)?];
    let indirection = Indirection::new(&kernel, &conv, &image, &pad, &mut table)?;
    let packed_image;
    let lhs = if kernel.reads_packed_lhs() {
        let size = kernel.packed_indirect_activations_size(&conv)?;
        packed_image = PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; size])?;
        Lhs::from(&packed_image)
    } else {
        Lhs::from(&indirection)
    };
    let mut y = vec![0f32; m * C_OUT];
    rkai::parallel::matmul(&kernel, lhs, &packed, &mut y, C_OUT, Clamp::NONE, 0)?;
    let elapsed = start.elapsed();
    let what = if kernel.reads_packed_lhs() {
        "table + pack activations + matmul"
    } else {
        "table + matmul"
    };
    println!("  {m} output pixels: {elapsed:?} ({what})");

    let (mut max_ref, mut max_err) = (0.0f32, 0.0f32);
    for oy in 0..HEIGHT {
        for ox in 0..WIDTH {
            for j in 0..C_OUT {
                let mut r = bias[j];
                for ky in 0..3 {
                    for kx in 0..3 {
                        // The tap's input pixel, or zero padding.
                        let (Some(iy), Some(ix)) =
                            ((oy + ky).checked_sub(1), (ox + kx).checked_sub(1))
                        else {
                            continue;
                        };
                        if iy >= HEIGHT || ix >= WIDTH {
                            continue;
                        }
                        for c in 0..C_IN {
                            let x = image[(iy * WIDTH + ix) * C_IN + c];
                            r += x * weights[((ky * 3 + kx) * C_IN + c) * C_OUT + j];
                        }
                    }
                }
                max_ref = max_ref.max(r.abs());
                max_err = max_err.max((y[(oy * WIDTH + ox) * C_OUT + j] - r).abs());
            }
        }
    }
    let relative = max_err / max_ref;
    println!("  max relative error against a direct convolution: {relative:.2e}");
    if relative > 1e-5 {
        return Err(format!("error {relative} above tolerance 1e-5").into());
    }
    println!("conv2d (Rust): OK");
    Ok(())
}
