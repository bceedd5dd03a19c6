//! Throughput of every catalog kernel and packer runnable on this machine, on the LLM shapes of
//! the performance issue, through the exported C symbols (what a framework calls). GEMMs report
//! int8 ops (2·M·N·K) per second, GEMVs bytes of packed weights per second, packers bytes of
//! source weights per second. Benchmark ids: `matmul/<stem>/<m>x<n>x<k>[/bl<bl>]`,
//! `pack_rhs/<packer>/<n>x<k>[/bl<bl>]`, `pack_lhs/<packer>/<m>x<k>`.
//! Run: `cargo bench --bench matmul` (natively on any machine; filter with a substring).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rkai_ukernels::arch::Features;
use rkai_ukernels::catalog::KERNELS;
use std::collections::HashSet;
use std::time::Duration;

mod workload;
use workload::{Workload, block_lengths, shapes};

fn bench(c: &mut Criterion) {
    let features = Features::detect();
    let mut group = c.benchmark_group("qai8dxp");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let mut packed_once = HashSet::new();
    for &kernel in KERNELS {
        if cfg!(target_arch = "aarch64") && !features.contains(kernel.isa.features()) {
            continue;
        }
        for &(m, n, k) in shapes(kernel) {
            for &bl in block_lengths(kernel) {
                let block = if bl == 0 {
                    String::new()
                } else {
                    format!("/bl{bl}")
                };
                let mut w = Workload::new(kernel, m, n, k, bl);
                let t = kernel.tile();
                // Each packer and tile is measured once per shape, not once per kernel using it.
                let rhs_id = format!(
                    "pack_rhs/{}/{n}x{k}{block}/nr{}kr{}sr{}",
                    kernel.rhs_packers[0].name, t.nr, t.kr, t.sr
                );
                if packed_once.insert(rhs_id.clone()) {
                    group.throughput(Throughput::Bytes(w.source_weight_bytes() as u64));
                    group.bench_function(&rhs_id, |b| b.iter(|| w.pack_rhs()));
                }
                w.pack_rhs();
                // The float kernels read their LHS unpacked.
                let lhs_id = kernel
                    .lhs_packers
                    .first()
                    .map(|p| format!("pack_lhs/{}/{m}x{k}/mr{}kr{}sr{}", p.name, t.mr, t.kr, t.sr));
                if let Some(lhs_id) = lhs_id.filter(|id| packed_once.insert(id.clone())) {
                    group.throughput(Throughput::Elements((m * k) as u64));
                    group.bench_function(&lhs_id, |b| b.iter(|| w.pack_lhs()));
                }
                w.pack_lhs();
                if m == 1 {
                    group.throughput(Throughput::Bytes(w.packed_weight_bytes() as u64));
                } else {
                    group.throughput(Throughput::Elements(w.ops()));
                }
                group.bench_function(format!("matmul/{}/{m}x{n}x{k}{block}", kernel.stem), |b| {
                    b.iter(|| w.run())
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
