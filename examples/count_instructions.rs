//! Driver for `scripts/perf-counts.sh`: prepares one call of a catalog kernel and stops after a
//! phase, so that instruction counts of whole runs (under QEMU) can be subtracted into the cost
//! of packing and of the matmul alone.
//!
//! Usage: `count_instructions <stem> <m> <n> <k> <bl> <prepare|pack_rhs|pack_lhs|run> [repeats]`
//! (`bl` 0 for per-channel kernels). Each phase includes the ones before it. `repeats` (default 1)
//! packs the LHS that many times, so that a cost smaller than the run-to-run noise of a whole
//! process (a GEMV's LHS packing) can be measured as a difference divided by `repeats`.

use rkai::ukernels::catalog;

#[path = "../benches/workload.rs"]
mod workload;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: count_instructions <stem> <m> <n> <k> <bl> <prepare|pack_rhs|pack_lhs|run> [repeats]";
    assert!(args.len() == 7 || args.len() == 8, "{usage}");
    let repeats = args.get(7).map_or(1, |r| r.parse::<usize>().expect(usage));
    let kernel = catalog::kernel(&args[1]).unwrap_or_else(|| panic!("unknown stem {}", args[1]));
    let num = |i: usize| -> usize { args[i].parse().expect(usage) };
    let mut w = workload::Workload::new(kernel, num(2), num(3), num(4), num(5));
    let phase = args[6].as_str();
    if phase == "prepare" {
        return;
    }
    w.pack_rhs();
    if phase == "pack_rhs" {
        return;
    }
    for _ in 0..repeats {
        w.pack_lhs();
    }
    if phase == "pack_lhs" {
        return;
    }
    assert_eq!(phase, "run", "{usage}");
    w.run();
}
