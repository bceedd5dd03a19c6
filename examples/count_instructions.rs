//! Driver for `scripts/perf-counts.sh`: prepares one call of a catalog kernel and stops after a
//! phase, so that instruction counts of whole runs (under QEMU) can be subtracted into the cost
//! of packing and of the matmul alone.
//!
//! Usage: `count_instructions <stem> <m> <n> <k> <bl> <sizes|prepare|pack_rhs|pack_lhs|run|run_unpacked> [repeats]`
//! (`bl` 0 for per-channel kernels). Each phase includes the ones before it; `sizes` only prints
//! the packed LHS and RHS bytes and the kernel's `mr` and `nr` (at this CPU's vector lengths).
//! `run_unpacked` is `run` on zero-filled packed buffers, without sources or packing: for the SME
//! kernels, whose instruction counts do not depend on the data, it spares QEMU's log the set-up.
//! The int8-output kernels (`qai8` output, a `kai_matmul_requantize32_params`) and the indirect
//! (`imatmul`) ones have `sizes` and `run_unpacked` only; for an imatmul, `bl` is the
//! `k_chunk_length` and `k` must be a multiple of it (`k / bl` chunks).
//! The depthwise convolutions (`dwconv_*` stems) have `sizes` and `run_unpacked` only, on an
//! `m x n` image of `k` channels with one pixel of padding on each side (`bl` ignored): a
//! depthfirst kernel's call computes the whole output image, a planar kernel's call its first
//! `m_step` rows (its first band). Their `sizes` prints the input image's and the packed weights'
//! bytes, `m_step` and 1.
//! `run` first prints the addresses of the kernel's entry and of this program's `main`, from
//! which `scripts/perf-sme.sh` finds the kernel's code in QEMU's log (the program is position
//! independent). `repeats` (default 1)
//! packs the LHS that many times, so that a cost smaller than the run-to-run noise of a whole
//! process (a GEMV's LHS packing) can be measured as a difference divided by `repeats`.

use core::ffi::c_void;
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::args::KernelFn;
use rkai_ukernels::matmul::uker;
use rkai_ukernels::types::kai_matmul_requantize32_params;

#[path = "../benches/workload.rs"]
mod workload;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: count_instructions <stem> <m> <n> <k> <bl> <sizes|prepare|pack_rhs|pack_lhs|run|run_unpacked> [repeats]";
    assert!(args.len() == 7 || args.len() == 8, "{usage}");
    let repeats = args.get(7).map_or(1, |r| r.parse::<usize>().expect(usage));
    if args[1].starts_with("dwconv_") {
        let num = |i: usize| -> usize { args[i].parse().expect(usage) };
        dwconv(&args[1], num(2), num(3), num(4), &args[6]);
        return;
    }
    if let Some(kernel) = uker::KERNELS.iter().find(|k| k.name == args[1]) {
        let num = |i: usize| -> usize { args[i].parse().expect(usage) };
        generic(kernel, (num(2), num(3), num(4)), &args[6]);
        return;
    }
    let kernel = catalog::kernel(&args[1]).unwrap_or_else(|| panic!("unknown stem {}", args[1]));
    let num = |i: usize| -> usize { args[i].parse().expect(usage) };
    let phase = args[6].as_str();
    let (m, n, k, bl) = (num(2), num(3), num(4), num(5));
    if requantized_or_indirect(kernel, m, n, k, bl, phase) {
        return;
    }
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
    print_addresses(kernel);
    w.run();
}

/// Prints the addresses of `kernel`'s entry and of `main` (for `scripts/qemu_count.py`).
fn print_addresses(kernel: &MatmulKernel) {
    let entry = match kernel.native {
        KernelFn::Packed(f) | KernelFn::PackedOutput(f) => f as usize,
        KernelFn::UnpackedLhs(f) => f as usize,
        KernelFn::Indirect(f) => f as usize,
        KernelFn::Portable => 0,
    };
    println!("kernel {entry:x} main {:x}", main as fn() as usize);
}

/// `sizes` and `run_unpacked` of the kernels whose run takes requantization parameters or
/// K chunks (which `workload::Workload` does not set up); false for the other kernels.
fn requantized_or_indirect(
    kernel: &'static MatmulKernel,
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    phase: &str,
) -> bool {
    use workload::cabi::{Getter2, Getter3, Getter5, sym};
    let t = kernel.tile();
    let (lhs_packer, rhs_packer) = (
        kernel.lhs_packers.first().map(|p| p.name),
        kernel.rhs_packers[0].name,
    );
    let lhs_size = |getter: &dyn Fn(&str) -> usize| lhs_packer.map_or(m * k, getter);
    let indirect = matches!(
        kernel.family,
        Family::ImatmulF32F32pF32p | Family::ImatmulF16F16pF16p | Family::ImatmulQai8Qai8pQsi8cxp
    );
    let (lhs_bytes, rhs_bytes) = match kernel.family {
        _ if indirect => {
            assert!(
                bl > 0 && k % bl == 0,
                "an imatmul takes bl = k_chunk_length dividing k"
            );
            let lhs = lhs_size(&|p| {
                sym::<Getter3>(&format!("kai_get_lhs_packed_size_{p}"))(m, k / bl, bl)
            });
            let rhs =
                sym::<Getter3>(&format!("kai_get_rhs_packed_size_{rhs_packer}"))(n, k / bl, bl);
            (lhs, rhs)
        }
        Family::Qai8Qai8pQsi8cxp | Family::Qai8Qai8Qsi8cxp => {
            let lhs = lhs_size(&|p| {
                sym::<Getter5>(&format!("kai_get_lhs_packed_size_{p}"))(m, k, t.mr, t.kr, t.sr)
            });
            (
                lhs,
                sym::<Getter2>(&format!("kai_get_rhs_packed_size_{rhs_packer}"))(n, k),
            )
        }
        _ => return false,
    };
    if phase == "sizes" {
        // An unpacked LHS counts as 0 bytes, as `Workload` counts the float GEMVs' LHS.
        let packed_lhs = if lhs_packer.is_some() { lhs_bytes } else { 0 };
        println!("{packed_lhs} {rhs_bytes} {} {}", t.mr, t.nr);
        return true;
    }
    assert_eq!(
        phase, "run_unpacked",
        "these kernels have sizes and run_unpacked only"
    );
    let es = kernel.family.output().size();
    let (lhs, rhs, mut dst) = (
        vec![0u8; lhs_bytes],
        vec![0u8; rhs_bytes],
        vec![0u8; m * n * es],
    );
    let (lhs, rhs, dst) = (
        lhs.as_ptr().cast::<c_void>(),
        rhs.as_ptr().cast::<c_void>(),
        dst.as_mut_ptr().cast::<c_void>(),
    );
    let params = kai_matmul_requantize32_params {
        min_value: -128,
        max_value: 127,
        output_zero_point: 0,
    };
    let name = format!("{}_run_{}", kernel.prefix(), kernel.stem);
    type Requantized = unsafe extern "C" fn(
        usize,
        usize,
        usize,
        *const c_void,
        *const c_void,
        *mut c_void,
        usize,
        usize,
        *const kai_matmul_requantize32_params,
    );
    type IndirectFloat = unsafe extern "C" fn(
        usize,
        usize,
        usize,
        usize,
        *const c_void,
        *const c_void,
        *mut c_void,
        usize,
        f32,
        f32,
    );
    type IndirectRequantized = unsafe extern "C" fn(
        usize,
        usize,
        usize,
        usize,
        *const c_void,
        *const c_void,
        *mut c_void,
        usize,
        *const kai_matmul_requantize32_params,
    );
    print_addresses(kernel);
    // SAFETY (every arm): the exported prototypes (api.txt), buffers sized by the getters.
    unsafe {
        match kernel.family {
            Family::ImatmulQai8Qai8pQsi8cxp => {
                sym::<IndirectRequantized>(&name)(m, n, k / bl, bl, lhs, rhs, dst, n, &params)
            }
            _ if indirect => sym::<IndirectFloat>(&name)(
                m,
                n,
                k / bl,
                bl,
                lhs,
                rhs,
                dst,
                n * es,
                f32::MIN,
                f32::MAX,
            ),
            _ => sym::<Requantized>(&name)(m, n, k, lhs, rhs, dst, n, 1, &params),
        }
    }
    true
}

/// `sizes` and `run_unpacked` of a depthwise convolution kernel (module documentation), through
/// its exported `run` symbol.
fn dwconv(stem: &str, rows: usize, cols: usize, channels: usize, phase: &str) {
    use rkai_ukernels::dwconv::{DepthfirstArgs, DepthfirstCFn, PlanarArgs, PlanarCFn, Run, pack};
    let kernel = catalog::DWCONV_KERNELS
        .iter()
        .find(|k| k.stem == stem)
        .unwrap_or_else(|| panic!("unknown stem {stem}"));
    let es = kernel.element_bytes;
    let (fh, fw) = kernel.filter();
    let image = rows * cols * channels * es;
    let packed = pack::packed_size(kernel.packer, fh, fw, channels);
    if phase == "sizes" {
        println!("{image} {packed} {} 1", kernel.m_step());
        return;
    }
    assert_eq!(
        phase, "run_unpacked",
        "dwconv kernels have sizes and run_unpacked only"
    );
    let (src, rhs, mut dst) = (vec![0u8; image], vec![0u8; packed], vec![0u8; image]);
    let (row, col) = (cols * channels * es, channels * es);
    let name = format!("kai_run_{stem}");
    let entry = match kernel.run {
        Run::Planar { native, .. } => native.map_or(0, |f| f as usize),
        Run::Depthfirst { native, .. } => native.map_or(0, |f| f as usize),
    };
    println!("kernel {entry:x} main {:x}", main as fn() as usize);
    let (src, rhs_packed, dst) = (src.as_ptr(), rhs.as_ptr(), dst.as_mut_ptr());
    // SAFETY (both arms): the exported functions of these prototypes; the images and packed
    // weights are sized above, the planar call's window rows lie inside the input image.
    unsafe {
        match kernel.run {
            Run::Depthfirst { .. } => DepthfirstArgs {
                src,
                rhs_packed,
                dst,
                num_channels: channels,
                src_rows: rows,
                src_cols: cols,
                dst_rows: rows,
                dst_cols: cols,
                pad_left: 1,
                pad_top: 1,
                in_stride_row: row,
                in_stride_col: col,
                out_stride_row: row,
                out_stride_col: col,
                clamp_min: f32::MIN,
                clamp_max: f32::MAX,
            }
            .call_c(workload::cabi::sym::<DepthfirstCFn>(&name)),
            // The first band: window rows from -1, so `pad_top` 1 and m_step + 1 valid rows.
            Run::Planar { .. } => PlanarArgs {
                src,
                rhs_packed,
                dst,
                in_stride_row: row,
                in_stride_col: col,
                dst_stride_row: row,
                dst_stride_col: col,
                valid_input_rows: (kernel.m_step() + 1).min(rows),
                valid_dst_rows: kernel.m_step(),
                pad_left: 1,
                pad_top: 1,
                pad_value: 0.0,
                clamp_min: f32::MIN,
                clamp_max: f32::MAX,
            }
            .call_c(workload::cabi::sym::<PlanarCFn>(&name)),
        }
    }
}

/// `sizes` and `run_unpacked` of a kernel of the generic interface (`kai_matmul.h`), through the
/// table its exported provider returns, as a C caller calls it: sizes from the table's getters;
/// `run` (with the clamp flag where the kernel has one) on zero-filled operands, every bias,
/// scale and clamp pointer at zeros.
fn generic(
    kernel: &rkai_ukernels::pack::kinds::UkerKernel,
    (m, n, k): (usize, usize, usize),
    phase: &str,
) {
    use rkai_ukernels::matmul_types::*;
    let provider = workload::cabi::sym::<extern "C" fn() -> kai_matmul_uker_api>(&format!(
        "kai_{}",
        kernel.name
    ));
    let api = provider();
    let config = kai_matmul_uker_config {
        format: kai_matmul_uker_format_config { bl: 0 },
    };
    // SAFETY (the getters): they read only the structs passed.
    let step = unsafe { api.get_step.unwrap()(&config) };
    let (ls, rs, ds) = unsafe {
        (
            api.get_lhs_stride.unwrap()(&config, &kai_matmul_uker_lhs_dim_args { m, k }),
            api.get_rhs_stride.unwrap()(&config, &kai_matmul_uker_rhs_dim_args { n, k }),
            api.get_dst_stride.unwrap()(&config, &kai_matmul_uker_dst_dim_args { m, n }),
        )
    };
    // The operands span whole steps: the offset of the first row or column past them. A GEMV's
    // LHS is its rows (the int4 GEMV's offset getter asserts row 0, as KleidiAI's does).
    let (m_all, n_all) = (m.next_multiple_of(step.m), n.next_multiple_of(step.n));
    let (lhs_bytes, rhs_bytes, dst_bytes) = unsafe {
        (
            match step.m {
                1 => m * ls.m,
                _ => api.get_lhs_offset.unwrap()(
                    &config,
                    &kai_matmul_uker_lhs_dim_args { m: m_all, k: 0 },
                    &ls,
                ),
            },
            api.get_rhs_offset.unwrap()(
                &config,
                &kai_matmul_uker_rhs_dim_args { n: n_all, k: 0 },
                &rs,
            ),
            api.get_dst_size.unwrap()(&config, &kai_matmul_uker_dst_dim_args { m, n }, &ds),
        )
    };
    if phase == "sizes" {
        println!("{lhs_bytes} {rhs_bytes} {} {}", step.m, step.n);
        return;
    }
    assert_eq!(
        phase, "run_unpacked",
        "generic kernels have sizes and run_unpacked only"
    );
    let (lhs, rhs, mut dst) = (
        vec![0u8; lhs_bytes],
        vec![0u8; rhs_bytes],
        vec![0u8; dst_bytes],
    );
    let zeros = vec![0u64; 2 * (m + n) + 16];
    let z = zeros.as_ptr().cast::<c_void>();
    let run = api.run.unwrap();
    println!("kernel {:x} main {:x}", run as usize, main as fn() as usize);
    // SAFETY: the struct is plain data (pointers, sizes); every pointer is set below.
    let mut a: kai_matmul_uker_args = unsafe { core::mem::zeroed() };
    // The clamp flag where the kernel has one (`matmul_clamp_*`; KleidiAI refuses it elsewhere).
    if kernel.name.starts_with("matmul_clamp_") {
        a.flags = kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u64;
    }
    a.shape = kai_matmul_uker_dim_args { m, n, k };
    (a.operand.lhs.ptr, a.operand.lhs.stride.m) = (lhs.as_ptr().cast(), ls.m);
    (a.operand.rhs.ptr, a.operand.rhs.stride.n) = (rhs.as_ptr().cast(), rs.n);
    (a.operand.dst.ptr, a.operand.dst.stride.m) = (dst.as_mut_ptr().cast(), ds.m);
    let b = &mut a.operand.bias;
    (b.acc_bias_global.ptr, b.acc_bias_m.ptr, b.acc_bias_n.ptr) = (z, z, z);
    (
        b.scale_bias_global.ptr,
        b.scale_bias_m.ptr,
        b.scale_bias_n.ptr,
    ) = (z, z, z);
    let sc = &mut a.operand.scale;
    (
        sc.acc_scale_global.ptr,
        sc.acc_scale_m.ptr,
        sc.acc_scale_n.ptr,
    ) = (z, z, z);
    (a.activation.clamp.min_ptr, a.activation.clamp.max_ptr) = (z, z);
    // SAFETY: buffers of the getters' sizes; the per-row and per-column operands hold zeros for
    // every row and column.
    unsafe { run(&config, &a) };
}
