//! The indirect float GEMM family `imatmul_clamp_f32_f32_f32p` and its RHS packer, through the
//! exported C symbols: getters equal KleidiAI's formulas at this SVE length, packed bytes equal
//! a scalar packing (whole and sliced through the offset getters), and convolutions computed
//! through indirection buffers (3x3 and 1x1, stride 1 and 2, padded) equal a direct convolution
//! bit for bit (the fused chain from the bias is fully determined), over portions at the
//! getters' steps, with every buffer against guard pages, callee-saved registers intact, and
//! KleidiAI's pad-pointer and pointer-offset rules.

use crate::support;

use rkai_ukernels::arch::{self, Isa};
use rkai_ukernels::catalog::{self, KERNELS};
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::call::IndirectArgs;
use rkai_ukernels::matmul::imatmul_clamp_f32_f32_f32p::portable;
use std::ffi::c_void;
use support::cabi::{Getter0, Getter1, Getter2, Getter3, ImatmulFn, ImatmulPackFn, func};
use support::conv::{self, Conv, Pointers};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;

const STEM: &str = "imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla";
const PACKER: &str = "rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve";
/// Rows per block of the indirection buffer.
const MR: usize = 6;
const CANARY: f32 = f32::from_bits(0x7fc0_dead);

fn kernel() -> &'static MatmulKernel {
    catalog::kernel(STEM).expect("catalog entry")
}

fn runs() -> bool {
    support::cpu::can_run(kernel().isa)
}

fn n_step() -> usize {
    4 * arch::sve_lanes32()
}

/// KleidiAI's packed layout written out: per group of `n_step` columns, the biases, then every
/// one of the `k` rows; columns past `n` zero.
fn reference_pack(n: usize, k: usize, rhs: &[f32], stride: usize, bias: &[f32]) -> Vec<u8> {
    let nr = n_step();
    let mut out = Vec::new();
    for g in 0..n.div_ceil(nr) {
        let col = |j: usize| g * nr + j;
        for j in 0..nr {
            let v = if col(j) < n { bias[col(j)] } else { 0.0 };
            out.extend_from_slice(&v.to_le_bytes());
        }
        for kk in 0..k {
            for j in 0..nr {
                let v = if col(j) < n {
                    rhs[kk * stride + col(j)]
                } else {
                    0.0
                };
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

/// Packs through the C packer into a guarded buffer of exactly the packed size.
fn pack(
    n: usize,
    kcc: usize,
    kcl: usize,
    rhs: &[f32],
    stride: usize,
    bias: &[f32],
    edge: Edge,
) -> Guarded {
    let size: Getter3 = func("get_rhs_packed_size", PACKER);
    let run: ImatmulPackFn = func("run", PACKER);
    let rhs_g = Guarded::from_f32(rhs, edge);
    let bias_g = Guarded::from_f32(bias, edge);
    let mut out = Guarded::new(size(n, kcc, kcl), edge);
    // SAFETY: buffers sized for the call.
    unsafe {
        run(
            n,
            kcc,
            kcl,
            4 * stride,
            rhs_g.ptr().cast(),
            bias_g.ptr().cast(),
            out.mut_ptr().cast(),
        )
    };
    out
}

#[test]
fn getters_follow_kleidiai_formulas() {
    let ns = n_step();
    let m_step: Getter0 = func("get_m_step", STEM);
    let n_step_k: Getter0 = func("get_n_step", STEM);
    let lhs_offset: Getter2 = func("get_lhs_offset", STEM);
    let rhs_offset: Getter3 = func("get_rhs_packed_offset", STEM);
    let dst_offset: Getter3 = func("get_dst_offset", STEM);
    let dst_size: Getter2 = func("get_dst_size", STEM);
    assert_eq!(m_step(), 6);
    assert_eq!(n_step_k(), ns);
    let p_n_step: Getter0 = func("get_n_step", PACKER);
    let p_rhs_offset: Getter1 = func("get_rhs_offset", PACKER);
    let p_bias_offset: Getter1 = func("get_bias_offset", PACKER);
    let p_stride: Getter2 = func("get_rhs_packed_stride", PACKER);
    let p_offset: Getter3 = func("get_rhs_packed_offset", PACKER);
    let p_size: Getter3 = func("get_rhs_packed_size", PACKER);
    assert_eq!(p_n_step(), ns);
    let mut checked = 0;
    for (kcc, kcl) in [(1, 1), (9, 3), (1, 64), (4, 31), (25, 17)] {
        let stride = ns * (4 + kcc * kcl * 4);
        assert_eq!(p_stride(kcc, kcl), stride);
        for blocks in 0..4 {
            let n_idx = blocks * ns;
            assert_eq!(rhs_offset(n_idx, kcc, kcl), blocks * stride);
            assert_eq!(p_offset(n_idx, kcc, kcl), blocks * stride);
            assert_eq!(p_rhs_offset(n_idx), 4 * n_idx);
            for n in [n_idx + 1, n_idx + ns] {
                assert_eq!(p_size(n, kcc, kcl), n.div_ceil(ns) * stride);
            }
            checked += 1;
        }
        assert_eq!(p_bias_offset(3), 12);
        assert_eq!(lhs_offset(12, kcc * 8), 12 * kcc * 8);
        assert_eq!(dst_offset(6, ns, 400), 6 * 400 + 4 * ns);
        assert_eq!(dst_size(7, 9), 7 * 9 * 4);
    }
    println!("RELIABILITY getters: {checked} cases at n_step {ns}");
}

#[test]
fn packed_bytes_equal_reference_whole_and_sliced() {
    let ns = n_step();
    let mut rng = Rng::new(7);
    let mut cases = 0;
    for (n, kcc, kcl) in conv::chunked_edges(ns, 3) {
        let k = kcc * kcl;
        let stride = n + 3;
        let rhs = rng.vec_f32(k * stride, -2.0, 2.0);
        let bias = rng.vec_f32(n, -1.0, 1.0);
        let want = reference_pack(n, k, &rhs, stride, &bias);
        for edge in EDGES {
            let got = pack(n, kcc, kcl, &rhs, stride, &bias, edge);
            assert_eq!(got.bytes(), &want[..], "n {n} kcc {kcc} kcl {kcl} {edge:?}");
            cases += 1;
        }
        // Column slices packed through the offset getters, as threaded callers do.
        let rhs_off: Getter1 = func("get_rhs_offset", PACKER);
        let bias_off: Getter1 = func("get_bias_offset", PACKER);
        let packed_off: Getter3 = func("get_rhs_packed_offset", PACKER);
        let run: ImatmulPackFn = func("run", PACKER);
        let mut sliced = vec![0u8; want.len()];
        for n_idx in (0..n).step_by(ns) {
            let cols = ns.min(n - n_idx);
            // SAFETY: offsets from the getters stay inside the buffers.
            unsafe {
                run(
                    cols,
                    kcc,
                    kcl,
                    4 * stride,
                    rhs.as_ptr().cast::<u8>().add(rhs_off(n_idx)).cast(),
                    bias.as_ptr().cast::<u8>().add(bias_off(n_idx)).cast(),
                    sliced.as_mut_ptr().add(packed_off(n_idx, kcc, kcl)).cast(),
                )
            };
        }
        assert_eq!(sliced, want, "sliced n {n} kcc {kcc} kcl {kcl}");
        cases += 1;
    }
    println!("RELIABILITY packed bytes: {cases} cases at n_step {ns}");
}

/// The direct convolution: bias, then one fused multiply-add per tap; then the clamp.
fn direct_conv(
    conv: &Conv,
    input: &[f32],
    pad: &[f32],
    weights: &[f32],
    bias: &[f32],
    lo: f32,
    hi: f32,
) -> Vec<f32> {
    let sums = conv::direct_sums(conv, input, pad, weights, |j| bias[j]);
    sums.iter().map(|acc| acc.min(hi).max(lo)).collect()
}

/// The indirection buffer of `conv` in the kernel's block layout (see [`conv::indirection`]).
fn indirection(conv: &Conv, input: *const u8, pad: *const u8, mode: Pointers) -> Vec<usize> {
    conv::indirection(conv, (input, 4), pad, mode, MR)
}

/// One convolution ready to run with absolute indirection pointers: random input, weights and
/// bias from `seed`, a zero pad chunk, the packed RHS (at the end of its guard page) and the
/// direct convolution clamped to +-`clamp`.
struct ConvProblem {
    /// What `entries` point into: kept alive with them.
    _input: Vec<f32>,
    pad: Vec<f32>,
    entries: Vec<usize>,
    packed: Guarded,
    want: Vec<f32>,
}

impl ConvProblem {
    fn new(conv: &Conv, seed: u64, clamp: f32) -> Self {
        let (n, kcc, kcl) = (conv.c_out, conv.kcc(), conv.c_in);
        let mut rng = Rng::new(seed);
        let input = rng.vec_f32(conv.h * conv.w * kcl, -1.0, 1.0);
        let weights = rng.vec_f32(kcc * kcl * n, -1.0, 1.0);
        let bias = rng.vec_f32(n, -0.5, 0.5);
        let pad = vec![0.0f32; kcl];
        let entries = indirection(
            conv,
            input.as_ptr().cast(),
            pad.as_ptr().cast(),
            Pointers::Absolute,
        );
        let packed = pack(n, kcc, kcl, &weights, n, &bias, Edge::End);
        let want = direct_conv(conv, &input, &pad, &weights, &bias, -clamp, clamp);
        Self {
            _input: input,
            pad,
            entries,
            packed,
            want,
        }
    }
}

fn portions(m: usize, n: usize) -> Vec<(usize, usize, usize, usize)> {
    conv::portions(m, n, MR, n_step())
}

fn conv_cases() -> Vec<Conv> {
    conv::conv_cases(n_step())
}

#[test]
fn convolutions_through_indirection_equal_direct_convolution() {
    if !runs() {
        println!(
            "RELIABILITY convolutions: 0 cases (no {:?} on this CPU)",
            kernel().isa
        );
        return;
    }
    let run: ImatmulFn = func("run", STEM);
    let lhs_offset: Getter2 = func("get_lhs_offset", STEM);
    let rhs_offset: Getter3 = func("get_rhs_packed_offset", STEM);
    let dst_offset: Getter3 = func("get_dst_offset", STEM);
    let nr = n_step();
    let mut rng = Rng::new(11);
    let (mut calls, mut portable_calls) = (0, 0);
    for (ci, conv) in conv_cases().iter().enumerate() {
        let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let input = rng.vec_f32(conv.h * conv.w * kcl, -1.0, 1.0);
        let weights = rng.vec_f32(kcc * kcl * n, -1.0, 1.0);
        let bias = rng.vec_f32(n, -0.5, 0.5);
        // Zero padding, and a pad chunk of other values to show it is read as it is.
        let pad_values = if ci % 2 == 0 {
            vec![0.0; kcl]
        } else {
            rng.vec_f32(kcl, -3.0, 3.0)
        };
        let edge = EDGES[ci % 2];
        let mode = if ci % 3 == 0 {
            Pointers::Absolute
        } else {
            Pointers::Offsets
        };
        let input_g = Guarded::from_f32(&input, edge);
        let pad_g = Guarded::from_f32(&pad_values, edge);
        let entries = indirection(conv, input_g.ptr(), pad_g.ptr(), mode);
        let ibuf = Guarded::from_bytes(
            &entries
                .iter()
                .flat_map(|e| e.to_le_bytes())
                .collect::<Vec<u8>>(),
            edge,
        );
        let offset = match mode {
            Pointers::Offsets => input_g.ptr() as usize,
            Pointers::Absolute => 0,
        };
        let packed = pack(n, kcc, kcl, &weights, n, &bias, edge);
        for (lo, hi) in [(f32::NEG_INFINITY, f32::INFINITY), (-0.3, 0.4)] {
            let want = direct_conv(conv, &input, &pad_values, &weights, &bias, lo, hi);
            for (m_idx, n_idx, rows, cols) in portions(m, n) {
                let mut dst = Guarded::from_f32(&vec![CANARY; m * n], edge);
                let i_off = lhs_offset(m_idx, kcc * 8);
                let r_off = rhs_offset(n_idx, kcc, kcl);
                let d_off = dst_offset(m_idx, n_idx, 4 * n);
                // SAFETY: offsets from the getters; buffers cover the portion.
                unsafe {
                    run(
                        rows,
                        cols,
                        kcc,
                        kcl,
                        ibuf.ptr().add(i_off).cast(),
                        pad_g.ptr().cast(),
                        offset,
                        packed.ptr().add(r_off).cast(),
                        dst.mut_ptr().add(d_off).cast(),
                        4 * n,
                        lo,
                        hi,
                    )
                };
                calls += 1;
                let check = |dst: &Guarded, what: &str| {
                    for i in 0..m {
                        for j in 0..n {
                            let inside = (m_idx..m_idx + rows).contains(&i)
                                && (n_idx..n_idx + cols).contains(&j);
                            let expect = if inside { want[i * n + j] } else { CANARY };
                            let got = dst.f32_at(i * n + j);
                            assert_eq!(
                                got.to_bits(),
                                expect.to_bits(),
                                "{what} {conv:?} {mode:?} clamp ({lo}, {hi}) portion ({m_idx}, {n_idx}, {rows}, {cols}) at ({i}, {j}): {got} vs {expect}"
                            );
                        }
                    }
                };
                check(&dst, "C symbol");
                // The portable implementation gives the same bits.
                let mut dst_p = Guarded::from_f32(&vec![CANARY; m * n], edge);
                let args = IndirectArgs {
                    m: rows,
                    n: cols,
                    k_chunk_count: kcc,
                    k_chunk_length: kcl,
                    // SAFETY: as above.
                    indirection_buffer: unsafe { ibuf.ptr().add(i_off) }.cast(),
                    pad_ptr: pad_g.ptr(),
                    lhs_ptr_offset: offset,
                    rhs_packed: unsafe { packed.ptr().add(r_off) },
                    dst: unsafe { dst_p.mut_ptr().add(d_off) },
                    dst_stride_row: 4 * n,
                    clamp_min: lo,
                    clamp_max: hi,
                };
                // SAFETY: as above.
                unsafe { portable::run(nr, &args) };
                check(&dst_p, "portable");
                portable_calls += 1;
            }
        }
    }
    println!(
        "RELIABILITY convolutions: {calls} kernel calls, {portable_calls} portable calls at n_step {nr}"
    );
}

/// Threads computing disjoint row blocks of one convolution at once equal one whole call.
#[test]
fn threads_on_disjoint_row_blocks_equal_one_call() {
    if !runs() {
        return;
    }
    let conv = Conv::square((12, 11, 7), 3, 1, 1, n_step() + 5);
    let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
    let p = ConvProblem::new(&conv, 5, 0.5);
    let mut dst = vec![CANARY; m * n];
    let run: ImatmulFn = func("run", STEM);
    let (ib, pp, rp, dp) = (
        p.entries.as_ptr() as usize,
        p.pad.as_ptr() as usize,
        p.packed.ptr() as usize,
        dst.as_mut_ptr() as usize,
    );
    let blocks = conv::row_blocks_on_threads(m, MR, |m_idx, rows| {
        // SAFETY: each thread writes its own rows; the inputs are shared read-only.
        unsafe {
            run(
                rows,
                n,
                kcc,
                kcl,
                (ib as *const usize).add(m_idx * kcc).cast(),
                pp as *const c_void,
                0,
                rp as *const c_void,
                (dp as *mut f32).add(m_idx * n).cast(),
                4 * n,
                -0.5,
                0.5,
            )
        };
    });
    assert_eq!(
        dst.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        p.want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    println!("RELIABILITY threads: {blocks} row blocks");
}

#[test]
fn registers_survive() {
    #[cfg(target_arch = "aarch64")]
    {
        use support::abi::{call, describe};
        if !runs() {
            return;
        }
        let mut calls = 0;
        for conv in [
            Conv::square((3, 3, 5), 3, 1, 1, 9),
            Conv::square((6, 5, 13), 1, 1, 0, 2 * n_step() + 1),
        ] {
            let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
            let p = ConvProblem::new(&conv, 3, 1e30);
            let mut dst = vec![0.0f32; m * n];
            let args = call_args!(m, n, kcc, kcl, p.entries.as_ptr(), p.pad.as_ptr(), 0,
                p.packed.ptr(), dst.as_mut_ptr(), 4 * n; -1e30, 1e30);
            let f = rkai_capi::capi::exports::symbol_address(&format!("kai_run_{STEM}")).unwrap();
            // SAFETY: the arguments describe run_imatmul's prototype and valid buffers.
            let mask = unsafe { call(f, &args.args) };
            assert_eq!(mask, 0, "{STEM} clobbered {}", describe(mask));
            assert_eq!(dst, p.want);
            calls += 1;
        }
        println!("RELIABILITY registers: {calls} calls");
    }
}

/// Where SVE is missing the kernel is never selected, and the getters still answer.
#[test]
fn selection_follows_sve() {
    let family = kernel().family;
    let chosen = rkai_capi::select::best_kernel(
        family,
        rkai_capi::select::ShapeClass::Gemm,
        rkai_ukernels::arch::Features(u32::MAX),
    );
    if cfg!(target_arch = "aarch64") && !support::cpu::features().contains(Isa::Sve.features()) {
        assert!(chosen.is_none(), "an SVE kernel selected without SVE");
    } else {
        assert_eq!(chosen.map(|k| k.stem), Some(STEM));
    }
    assert!(KERNELS.iter().any(|k| k.stem == STEM));
    let n_step_k: Getter0 = func("get_n_step", STEM);
    assert_eq!(n_step_k(), n_step());
}

/// Kernel `stem` called with `m` x `n`, `chunks` chunks of `len` values and an indirection
/// buffer of `entries` pointers (null for 0): a call its checks refuse before any access
/// (`dst_stride_row` 4 bytes, an 8-value packed RHS and destination).
fn refused_run(stem: &str, m: usize, n: usize, chunks: usize, len: usize, entries: usize) {
    let indirection = vec![0usize; entries];
    let indirection = if entries == 0 {
        std::ptr::null()
    } else {
        indirection.as_ptr()
    };
    let rhs = [0.0f32; 8];
    let d = Box::leak(Box::new([0.0f32; 8]));
    // SAFETY: refused before any access.
    unsafe {
        func::<ImatmulFn>("run", stem)(
            m,
            n,
            chunks,
            len,
            indirection.cast(),
            std::ptr::null(),
            0,
            rhs.as_ptr().cast(),
            d.as_mut_ptr().cast(),
            4,
            0.0,
            1.0,
        )
    }
}

/// Packer `name` called without a bias (one column, k = 1), which it refuses before any access.
fn pack_without_bias(name: &str) {
    let mut out = vec![0u8; 4096];
    // SAFETY: refused before any access.
    unsafe {
        func::<ImatmulPackFn>("run", name)(
            1,
            1,
            1,
            4,
            [0.0f32; 1].as_ptr().cast(),
            std::ptr::null(),
            out.as_mut_ptr().cast(),
        )
    }
}

fn cases() -> Vec<support::death::Case<String, String>> {
    vec![
        run_case!("zero_chunks", "k_chunk_count > 0" => refused_run(STEM, 1, 1, 0, 3, 1)),
        run_case!("empty_chunks", "k_chunk_length > 0" => refused_run(STEM, 1, 1, 2, 0, 12)),
        run_case!("null_indirection", "indirection_buffer != NULL"
            => refused_run(STEM, 1, 1, 1, 1, 0)),
        run_case!("short_dst_stride", "dst_stride_row >= n * sizeof(float)"
            => refused_run(STEM, 2, 2, 1, 1, 12)),
        getter_case!("lhs_offset_misaligned", "(m_idx % m_step) == 0"
            => get_lhs_offset::<Getter2>(STEM)(3, 8)),
        getter_case!("rhs_offset_misaligned", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter3>(STEM)(1, 1, 1)),
        run_case!("packer_null_bias", "bias != NULL" => pack_without_bias(PACKER)),
    ]
}

death_tests!(cases, "imatmul contract violations");
