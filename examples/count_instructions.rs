//! Driver for `scripts/perf-counts.sh`: prepares one call of a catalog kernel and stops after a
//! phase, so that instruction counts of whole runs (under QEMU) can be subtracted into the cost
//! of packing and of the matmul alone.
//!
//! Usage: `count_instructions <stem> <m> <n> <k> <bl> <sizes|prepare|pack_rhs|pack_lhs|run|run_unpacked> [repeats]`
//! (`bl` 0 for per-channel kernels). Each phase includes the ones before it; `sizes` only prints
//! the packed LHS and RHS bytes and the kernel's `mr` and `nr` (at this CPU's vector lengths).
//! `run_unpacked` is `run` on zero-filled packed buffers, without sources or packing: for the SME
//! kernels, whose instruction counts do not depend on the data, it spares QEMU's log the set-up.
//! `run` first prints the addresses of the kernel's entry and of this program's `main`, from
//! which `scripts/perf-sme.sh` finds the kernel's code in QEMU's log (the program is position
//! independent). `repeats` (default 1)
//! packs the LHS that many times, so that a cost smaller than the run-to-run noise of a whole
//! process (a GEMV's LHS packing) can be measured as a difference divided by `repeats`.

use rkai_ukernels::catalog;
use rkai_ukernels::matmul::args::KernelFn;

#[path = "../benches/workload.rs"]
mod workload;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: count_instructions <stem> <m> <n> <k> <bl> <sizes|prepare|pack_rhs|pack_lhs|run|run_unpacked> [repeats]";
    assert!(args.len() == 7 || args.len() == 8, "{usage}");
    let repeats = args.get(7).map_or(1, |r| r.parse::<usize>().expect(usage));
    let kernel = catalog::kernel(&args[1]).unwrap_or_else(|| panic!("unknown stem {}", args[1]));
    let num = |i: usize| -> usize { args[i].parse().expect(usage) };
    let phase = args[6].as_str();
    let (m, n, k, bl) = (num(2), num(3), num(4), num(5));
    let mut w = if phase == "run_unpacked" {
        workload::Workload::unfilled(kernel, m, n, k, bl)
    } else {
        workload::Workload::new(kernel, m, n, k, bl)
    };
    if phase == "sizes" {
        let t = kernel.tile();
        let (lhs, rhs) = (w.packed_activation_bytes(), w.packed_weight_bytes());
        println!("{lhs} {rhs} {} {}", t.mr, t.nr);
        return;
    }
    if phase == "prepare" {
        return;
    }
    if phase != "run_unpacked" {
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
    }
    let entry = match kernel.native {
        KernelFn::Packed(f) | KernelFn::PackedOutput(f) => f as usize,
        KernelFn::UnpackedLhs(f) => f as usize,
        KernelFn::Indirect(f) => f as usize,
        KernelFn::Portable => 0,
    };
    println!("kernel {entry:x} main {:x}", main as fn() as usize);
    w.run();
}
