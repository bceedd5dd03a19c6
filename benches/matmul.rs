//! Throughput of every catalog kernel runnable on this machine, on LLM shapes, through the
//! exported C symbols (what a framework calls). GEMM shapes report int8 ops (2·M·N·K) per second,
//! GEMV shapes weight bytes per second; packers report source bytes per second.
//! Run: `cargo bench --bench matmul` (natively on any machine).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rkai::ukernels::arch::Features;
use rkai::ukernels::catalog::{Family, KERNELS};
use rkai::ukernels::types::kai_rhs_pack_qs4cxs1s0_param as RhsParams;
use std::time::Duration;

#[path = "../tests/support/cabi.rs"]
mod cabi;
use cabi::{
    Getter5, LhsQuantPackFn as LhsPackFn, MatmulF32Fn as RunFn, RhsPackQsi4cxpFn as RhsPackFn, sym,
};

const N: usize = 4096;
const K: usize = 4096;

fn bench(c: &mut Criterion) {
    let features = Features::detect();
    let mut group = c.benchmark_group("qai8dxp_qsi4cxp");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let weights: Vec<u8> = (0..N * K / 2).map(|i| (i * 7 + 3) as u8).collect();
    let scale = vec![0.01f32; N];
    let params = RhsParams {
        lhs_zero_point: 1,
        rhs_zero_point: 8,
    };
    for k in KERNELS
        .iter()
        .filter(|k| k.family == Family::F32Qai8dxpQsi4cxp)
    {
        if cfg!(target_arch = "aarch64") && !features.contains(k.isa.features()) {
            continue;
        }
        let t = k.tile;
        let rhs_packer = format!("kai_run_{}", k.rhs_packers[0].name);
        let rhs_size = sym::<Getter5>(&format!(
            "kai_get_rhs_packed_size_{}",
            k.rhs_packers[0].name
        ))(N, K, t.nr, t.kr, t.sr);
        let mut rhs_packed = vec![0u8; rhs_size];
        let rhs_ptr = rhs_packed.as_mut_ptr();
        // SAFETY: buffers sized by the getters.
        let pack_rhs = || unsafe {
            sym::<RhsPackFn>(&rhs_packer)(
                1,
                N,
                K,
                t.nr,
                t.kr,
                t.sr,
                weights.as_ptr(),
                std::ptr::null(),
                scale.as_ptr(),
                rhs_ptr.cast(),
                0,
                &params,
            )
        };
        group.throughput(Throughput::Bytes((N * K / 2) as u64));
        group.bench_function(
            BenchmarkId::new(format!("pack_rhs/{}", k.rhs_packers[0].name), k.stem),
            |b| b.iter(&pack_rhs),
        );
        pack_rhs();
        let m = if t.m_step == 1 { 1 } else { 32 };
        let lhs: Vec<f32> = (0..m * K)
            .map(|i| ((i % 97) as f32 - 48.0) * 0.01)
            .collect();
        let lhs_packer = format!("kai_run_{}", k.lhs_packers[0].name);
        let lhs_size = sym::<Getter5>(&format!(
            "kai_get_lhs_packed_size_{}",
            k.lhs_packers[0].name
        ))(m, K, t.mr, t.kr, t.sr);
        let mut lhs_packed = vec![0u8; lhs_size];
        // SAFETY: buffers sized by the getters.
        unsafe {
            sym::<LhsPackFn>(&lhs_packer)(
                m,
                K,
                t.mr,
                t.kr,
                t.sr,
                0,
                lhs.as_ptr(),
                4 * K,
                lhs_packed.as_mut_ptr().cast(),
            )
        };
        let mut dst = vec![0f32; m * N];
        let run = sym::<RunFn>(&format!("kai_run_{}", k.stem));
        if m == 1 {
            group.throughput(Throughput::Bytes((N * K / 2) as u64));
        } else {
            group.throughput(Throughput::Elements((2 * m * N * K) as u64));
        }
        group.bench_function(
            BenchmarkId::new(format!("matmul/{m}x{N}x{K}"), k.stem),
            |b| {
                // SAFETY: buffers sized by the getters.
                b.iter(|| unsafe {
                    run(
                        m,
                        N,
                        K,
                        lhs_packed.as_ptr().cast(),
                        rhs_packed.as_ptr().cast(),
                        dst.as_mut_ptr(),
                        4 * N,
                        4,
                        f32::MIN,
                        f32::MAX,
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
