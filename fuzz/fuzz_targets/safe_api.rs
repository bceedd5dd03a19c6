//! The safe API's constructors and matmul on arbitrary shapes, block lengths, slice lengths and
//! data (portable path): every input is either an `Err` or a run that stays inside its buffers
//! (AddressSanitizer checks every access) and writes exactly the `m x n` outputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rkai_ukernels::api::{
    self, Activations, Clamp, Kernel, PackedActivations, PackedWeights, Weights,
};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (head, body) = data.split_at(8);
    let kernels: Vec<_> = KERNELS.iter().filter_map(|k| Kernel::new(k).ok()).collect();
    let kernel = kernels[head[0] as usize % kernels.len()];
    let n = head[1] as usize % 40;
    let k = (head[2] as usize % 5) * 32 + head[3] as usize % 3 * 7; // multiples of 32, or not
    let m = head[4] as usize % 20;
    let bl = [0, 32, 48, 64, 128][head[5] as usize % 5];
    let slack = head[6] as usize % 3; // 0: exact lengths, 1: one short, 2: one long
    let stride_extra = head[7] as usize % 3;
    let len = |exact: usize| match slack {
        1 => exact.saturating_sub(1),
        2 => exact + 1,
        _ => exact,
    };
    let byte = |i: usize| body.get(i % body.len().max(1)).copied().unwrap_or(0x5a);
    let nibbles: Vec<u8> = (0..len(n * k.div_ceil(2))).map(byte).collect();
    let int8: Vec<i8> = (0..len(n * k)).map(|i| byte(i) as i8).collect();
    let scales: Vec<f32> = (0..len(n)).map(|i| f32::from(byte(i)) / 4096.0).collect();
    let block_scales: Vec<half::bf16> = (0..len(n * k / bl.max(1)))
        .map(|i| half::bf16::from_bits(0x3c00 | u16::from(byte(i))))
        .collect();
    let bias: Vec<f32> = (0..len(n)).map(|i| f32::from(byte(i)) - 128.0).collect();
    let weights = match kernel.entry().family {
        Family::F32Qai8dxpQsi4cxp => Weights::Int4PerChannel {
            data: &nibbles,
            scales: &scales,
        },
        Family::F32Qai8dxpQsi8cxp => Weights::Int8PerChannel {
            data: &int8,
            scales: &scales,
        },
        _ => Weights::Int4PerBlock {
            bl,
            data: &nibbles,
            scales: &block_scales,
        },
    };
    let Ok(size) = kernel.packed_weights_size(n, k, bl) else {
        return;
    };
    if size > 1 << 22 {
        return;
    }
    let Ok(packed) = PackedWeights::pack(&kernel, n, k, weights, Some(&bias), vec![0u8; len(size)])
    else {
        return;
    };
    let x: Vec<f32> = (0..len(m * k))
        .map(|i| f32::from(byte(i)) - 100.0)
        .collect();
    let Ok(lhs_size) = kernel.packed_activations_size(m, k, 0) else {
        return;
    };
    let Ok(lhs) = PackedActivations::pack(
        &kernel,
        m,
        k,
        0,
        Activations::F32 {
            data: &x,
            stride: k,
        },
        vec![0u8; len(lhs_size)],
    ) else {
        return;
    };
    let dst_stride = n + stride_extra;
    let canary = f32::from_bits(0x7fc0_dead);
    let mut dst = vec![canary; len(m.saturating_sub(1) * dst_stride + n)];
    if api::matmul(&kernel, &lhs, &packed, &mut dst, dst_stride, Clamp::NONE).is_ok() {
        for (i, v) in dst.iter().enumerate() {
            let (row, col) = (i / dst_stride, i % dst_stride);
            let inside = row < m && col < n;
            assert_eq!(
                v.to_bits() == canary.to_bits(),
                !inside,
                "dst[{i}] (m {m}, n {n})"
            );
        }
    }
});
