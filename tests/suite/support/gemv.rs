//! The checks of KleidiAI's streaming GEMVs (`1xNvl`: one unpacked LHS row a call, RHS packed
//! by the SME packers), for any reference model of them ([`FloatModel`]): what
//! `tests/suite/f32_sme_gemv.rs` and `tests/suite/f16_sme_gemv.rs` share. Each file names its kernels' models
//! (two each: the SME kernel's and the SME2 kernels' numerics) and its shapes; the problems,
//! packing, calls and portion checks are [`float_family`](super::float_family)'s.

use super::float_family::{self as shared, Elem, FloatModel, Problem};
use super::gemm::{self, Impl};
use super::guard::{EDGES, Edge, Guarded};
use super::rng::Rng;
use super::tester;
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::{MatmulKernel, Rows};

/// The streaming GEMVs of `family` (one row per call), narrowed by `RKAI_TEST_KERNEL`.
pub fn kernels(family: Family) -> Vec<&'static MatmulKernel> {
    let all = catalog::KERNELS.iter().copied();
    tester::narrowed(all.filter(|k| k.family == family && k.rows == Rows::One)).collect()
}

/// Those of [`kernels`] this CPU runs.
pub fn runnable(family: Family, what: &str) -> Vec<&'static MatmulKernel> {
    let run_here = |k: &MatmulKernel| super::cpu::can_run(k.isa);
    tester::runnable(kernels(family).into_iter(), run_here, what)
}

/// Each kernel with the implementations its value checks run: its portable path, and the
/// exported kernel where the CPU runs it.
pub fn implementations(family: Family) -> Vec<(&'static MatmulKernel, Vec<Impl>)> {
    let with_impls = |k: &'static MatmulKernel| {
        let mut which = vec![Impl::Portable];
        if super::cpu::can_run(k.isa) {
            which.push(Impl::Exported);
        }
        (k, which)
    };
    kernels(family).into_iter().map(with_impls).collect()
}

/// Clamp bounds cutting about a fifth of `p`'s unclamped results at each end.
fn biting<F: FloatModel>(p: &Problem<F>) -> (f32, f32) {
    let unclamped = p.expected_dst((f32::NEG_INFINITY, f32::INFINITY));
    let mut sorted: Vec<f64> = unclamped.iter().map(|x| x.to_f64()).collect();
    sorted.retain(|x| !x.is_nan());
    if sorted.is_empty() {
        return (-1.0, 1.0);
    }
    sorted.sort_by(f64::total_cmp);
    F::T::biting((sorted[sorted.len() / 5], sorted[sorted.len() * 4 / 5]))
}

/// Every (n, k) of `shapes` (bias always: the SME packers require it, LHS strides padded or not:
/// the kernels ignore them), unclamped, with bounds that bite and inverted, against both guard
/// edges, over the column portions a framework computes; the kernel's RHS packers in turn.
/// Above 512-bit streaming lengths ([`tester::every_case_here`]) each shape once: the biting
/// clamp, one edge, the whole row and the last step. Returns the cases.
pub fn check_kernel<F: FloatModel>(
    k: &MatmulKernel,
    which: Impl,
    shapes: &[(usize, usize)],
) -> usize {
    let every = tester::every_case_here(k);
    let t = k.tile();
    let mut cases = 0;
    for (i, &(n, kk)) in shapes.iter().enumerate() {
        let packer = k.rhs_packers[i % k.rhs_packers.len()];
        let pad = [0, 12, 0, 7][i % 4];
        let p = Problem::<F>::new(1, n, kk, pad, true, 100 + i as u64);
        let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
        let clamps = match every {
            true => vec![no_clamp, biting(&p), F::T::INVERTED],
            false => vec![biting(&p)],
        };
        let edges: &[Edge] = if every { &EDGES } else { &[Edge::End] };
        for clamp in clamps {
            let expect = p.expected_dst(clamp);
            for &edge in edges {
                let (lhs, rhs) = (p.lhs_buffer(edge), shared::pack(&p, packer, edge));
                let mut parts = gemm::portions(1, n, 1, t.n_step);
                if !every {
                    parts = vec![parts[0], parts[2]];
                }
                for portion in parts {
                    shared::run_portion(k, which, &p, &lhs, &rhs, portion, clamp, &expect, edge);
                    cases += 1;
                }
            }
        }
    }
    cases
}

/// `F::T::SPECIALS` (NaNs, infinities, signed zeros, subnormals...) scattered over a quarter of the
/// LHS, the weights and the biases, `rounds` times for each (n, k) of `shapes`, under each of
/// `clamps`: each implementation follows the reference's model of its instructions bit for bit.
/// Returns the runs.
pub fn hostile<F: FloatModel>(
    k: &MatmulKernel,
    impls: &[Impl],
    shapes: &[(usize, usize)],
    rounds: u64,
    clamps: &[(f32, f32)],
) -> usize {
    let mut cases = 0;
    for (s, &(n, kk)) in shapes.iter().enumerate() {
        for round in 0..rounds {
            let mut p = Problem::<F>::new(1, n, kk, 0, true, 900 + round + 10 * s as u64);
            let mut rng = Rng::new(round + 7 * s as u64);
            let mut pick = |v: &mut Vec<F::T>| {
                for _ in 0..v.len() / 4 + 1 {
                    let at = rng.next_u64() as usize % v.len().max(1);
                    if let Some(x) = v.get_mut(at) {
                        *x = F::T::SPECIALS[rng.next_u64() as usize % F::T::SPECIALS.len()];
                    }
                }
            };
            pick(&mut p.lhs);
            pick(&mut p.w);
            pick(p.bias.as_mut().expect("GEMV problems have biases"));
            let rhs = shared::pack(&p, k.rhs_packers[0], Edge::End);
            for &clamp in clamps {
                cases += shared::check_whole(k, impls, &p, &rhs, clamp);
            }
        }
    }
    cases
}

/// KleidiAI's GEMVs ignore `lhs_stride`, `dst_stride_row` and `dst_stride_col` (one row): any
/// values give the bytes of the usual ones.
pub fn strides_are_ignored<F: FloatModel>(k: &MatmulKernel) {
    let es = F::T::BYTES;
    let (n, kk) = (k.tile().n_step + 5, 7);
    let p = Problem::<F>::new(1, n, kk, 0, true, 3);
    let lhs = p.lhs_buffer(Edge::End);
    let rhs = shared::pack(&p, k.rhs_packers[0], Edge::End);
    let run = |lhs_stride: usize, row: usize, col: usize| {
        let mut dst = Guarded::new(es * n, Edge::End);
        // SAFETY: operands for p; dst holds one row against a guard page.
        unsafe {
            super::cabi::func::<super::cabi::MatmulFloatFn>("run", k.stem)(
                1,
                n,
                kk,
                lhs.ptr().cast(),
                lhs_stride,
                rhs.ptr().cast(),
                dst.mut_ptr().cast(),
                row,
                col,
                -1.0,
                1.0,
            )
        };
        dst.bytes().to_vec()
    };
    let usual = run(es * kk, es * n, es);
    assert_eq!(run(0, 0, 0), usual, "{}", k.stem);
    assert_eq!(run(3, 5, 12345), usual, "{}", k.stem);
}

/// A caller with a pending lazy ZA save calls `k` on (n, k): the save is committed first, and
/// the result is still the reference's.
#[cfg(target_arch = "aarch64")]
pub fn lazy_za_save_is_committed<F: FloatModel>(
    k: &MatmulKernel,
    (n, kk): (usize, usize),
    za: &mut super::abi::PendingZaSave,
) {
    let clamp = (-3.0, 3.0);
    let p = Problem::<F>::new(1, n, kk, 0, true, 12);
    let expect = p.expected_dst(clamp);
    let (lhs, rhs) = (
        p.lhs_buffer(Edge::End),
        shared::pack(&p, k.rhs_packers[0], Edge::End),
    );
    za.arm();
    let whole = (0, 0, 1, n);
    shared::run_portion(
        k,
        Impl::Exported,
        &p,
        &lhs,
        &rhs,
        whole,
        clamp,
        &expect,
        Edge::End,
    );
    za.assert_committed(k.stem);
}

/// The `#[test]` functions every streaming GEMV file runs, for its kernels (the calling file's
/// `kernels()` and `runnable()`): results against the reference, exported and portable, over
/// `shapes(k)` ([`check_kernel`]); ignored strides; 8 threads on `(1, 5 n_step + 3,
/// thread_depth)`; callee-saved registers on `register_shapes(k)`; a pending lazy ZA save on
/// `lazy_za_shape(k)`. A kernel runs under the model `$if_model` where `pick(k)` holds, else
/// under `$else_model`.
#[macro_export]
macro_rules! gemv_tests {
    (
        models: $pick:expr => $if_model:ty, $else_model:ty;
        shapes: $shapes:expr,
        thread_depth: $thread_depth:expr,
        register_shapes: $register_shapes:expr,
        lazy_za_shape: $lazy_za_shape:expr $(,)?
    ) => {
        mod gemv_checks {
            use super::*;
            use support::float_family as shared;
            use support::gemm::Impl;
            use support::gemv;

            fn cases(k: &MatmulKernel, which: Impl) -> usize {
                let shapes = ($shapes)(k);
                match ($pick)(k) {
                    true => gemv::check_kernel::<$if_model>(k, which, &shapes),
                    false => gemv::check_kernel::<$else_model>(k, which, &shapes),
                }
            }

            #[test]
            fn exported_kernels_match_reference() {
                let check = |k: &MatmulKernel| cases(k, Impl::Exported);
                let total = support::tester::count_cases(runnable(), "", check);
                eprintln!("RELIABILITY bounds_kernels {total}");
            }

            #[test]
            fn portable_kernels_match_reference() {
                let check = |k: &MatmulKernel| cases(k, Impl::Portable);
                let total = support::tester::count_cases(kernels(), " (portable)", check);
                eprintln!("RELIABILITY bounds_portable {total}");
            }

            #[test]
            fn strides_are_ignored() {
                for k in runnable() {
                    match ($pick)(k) {
                        true => gemv::strides_are_ignored::<$if_model>(k),
                        false => gemv::strides_are_ignored::<$else_model>(k),
                    }
                }
            }

            #[test]
            fn threads_on_disjoint_portions_equal_one_call() {
                let mut threaded = 0;
                for k in runnable() {
                    let shape = (1, 5 * k.tile().n_step + 3, $thread_depth);
                    match ($pick)(k) {
                        true => shared::threads_on::<$if_model>(k, shape),
                        false => shared::threads_on::<$else_model>(k, shape),
                    }
                    threaded += 1;
                }
                eprintln!("RELIABILITY concurrency {threaded}");
            }

            #[cfg(target_arch = "aarch64")]
            #[test]
            fn callee_saved_registers_survive() {
                let mut calls = 0;
                for k in runnable() {
                    let shapes = ($register_shapes)(k);
                    calls += match ($pick)(k) {
                        true => shared::registers_survive::<$if_model>(k, &shapes),
                        false => shared::registers_survive::<$else_model>(k, &shapes),
                    };
                }
                eprintln!("RELIABILITY registers {calls}");
            }

            #[cfg(target_arch = "aarch64")]
            #[test]
            fn lazy_za_saves_are_committed() {
                let Some(mut za) =
                    support::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme)
                else {
                    return;
                };
                let mut ran = 0;
                for k in runnable() {
                    let shape = ($lazy_za_shape)(k);
                    match ($pick)(k) {
                        true => gemv::lazy_za_save_is_committed::<$if_model>(k, shape, &mut za),
                        false => gemv::lazy_za_save_is_committed::<$else_model>(k, shape, &mut za),
                    }
                    ran += 1;
                }
                za.finish();
                eprintln!("RELIABILITY lazy_za {ran}");
            }
        }
    };
}
