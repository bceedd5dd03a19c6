//! Checks shared by the per-block quantized GEMM families whose kernels take a packed LHS, a
//! packed RHS and the block length (`kai_run_matmul_*(m, n, k, bl, lhs_packed, rhs_packed, dst,
//! dst_stride_row, dst_stride_col, min, max)`): `matmul_clamp_f32_qsi8d32p_qsi4c32p` and
//! `matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p`.

use super::cabi::{Getter0, Getter3, MatmulBlockFn};
use super::gemm::{self, Impl, Portion};
use super::guard::Guarded;
use super::rng::Rng;
use rkai::ukernels::catalog::{KernelFn, MatmulKernel};
use rkai::ukernels::contract::Checked;
use rkai::ukernels::matmul::call::PackedArgs as Args;

fn sym<F: Copy>(verb: &str, name: &str) -> F {
    super::cabi::func(verb, name)
}

/// A family's portable implementation (its module's `check` and `run`).
#[derive(Clone, Copy)]
pub struct Portable {
    pub check: fn(&MatmulKernel, &Args) -> Checked,
    pub run: unsafe fn(&MatmulKernel, &Args),
}

/// The six getters of every kernel equal each of its rows in KleidiAI's measured table (the SVE
/// kernels report one tile at every vector length measured). Returns the rows checked.
pub fn getters_equal_kleidiai_values<'a>(kernels: impl Iterator<Item = &'a MatmulKernel>) -> usize {
    let table: Vec<Vec<&str>> = include_str!("../data/kleidiai-1.30-getters.tsv")
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    let verbs = [
        "get_m_step",
        "get_n_step",
        "get_mr",
        "get_nr",
        "get_kr",
        "get_sr",
    ];
    let mut checked = 0;
    for k in kernels {
        let rows: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        assert!(!rows.is_empty(), "{} not in table", k.stem);
        for row in rows {
            for (i, verb) in verbs.iter().enumerate() {
                let got = sym::<Getter0>(verb, k.stem)();
                assert_eq!(got.to_string(), row[1 + i], "{verb} of {}", k.stem);
            }
            checked += 1;
        }
    }
    checked
}

/// m x k activations uniform in [-3, 5); with more than two rows, row 1 is zero (scale 0) and
/// row 2 holds halves whose blocks have maximum 127 (scale 1, so the packers' rounding ties
/// show).
pub fn activations(rng: &mut Rng, m: usize, k: usize, bl: usize) -> Vec<f32> {
    let mut lhs = rng.vec_f32(m * k, -3.0, 5.0);
    if m > 2 {
        lhs[k..2 * k].fill(0.0);
        for (i, v) in lhs[2 * k..3 * k].iter_mut().enumerate() {
            *v = if i % bl == 0 {
                127.0
            } else {
                (rng.range_i32(-250, 250) as f32) * 0.5
            };
        }
    }
    lhs
}

/// Runs `portion` of `k` (k values `kk`, block length `bl`) through `which` into `dst`, whose
/// rows are `stride` elements of `es` bytes apart; offsets come from the kernel's getters.
#[allow(clippy::too_many_arguments)]
pub fn call(
    k: &MatmulKernel,
    which: &Impl,
    portable: Portable,
    (kk, bl): (usize, usize),
    lhs: &Guarded,
    rhs: &Guarded,
    dst: &mut Guarded,
    portion: Portion,
    (es, stride): (usize, usize),
    clamp: (f32, f32),
) {
    let (m0, n0, mh, nw) = portion;
    let lhs_off = sym::<Getter3>("get_lhs_packed_offset", k.stem)(m0, kk, bl);
    let rhs_off = sym::<Getter3>("get_rhs_packed_offset", k.stem)(n0, kk, bl);
    let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, es * stride);
    // SAFETY: offsets from the kernel's getters; buffers sized by the packers' getters.
    unsafe {
        let (l, r, d) = (
            lhs.ptr().add(lhs_off),
            rhs.ptr().add(rhs_off),
            dst.mut_ptr().add(dst_off),
        );
        match which {
            Impl::Exported => sym::<MatmulBlockFn>("run", k.stem)(
                mh,
                nw,
                kk,
                bl,
                l.cast(),
                r.cast(),
                d.cast(),
                es * stride,
                es,
                clamp.0,
                clamp.1,
            ),
            Impl::Portable => {
                let args = Args {
                    m: mh,
                    n: nw,
                    k: kk,
                    bl,
                    lhs_packed: l,
                    rhs_packed: r,
                    dst: d,
                    dst_stride_row: es * stride,
                    dst_stride_col: es,
                    clamp_min: clamp.0,
                    clamp_max: clamp.1,
                };
                let kernel = MatmulKernel {
                    native: KernelFn::Portable,
                    ..*k
                };
                assert_eq!((portable.check)(&kernel, &args), Ok(()));
                (portable.run)(&kernel, &args)
            }
        }
    }
}

/// Disjoint m_step x n_step portions of an `m` x `n` problem (k `kk`, block length `bl`) on 8
/// threads sharing the packed operands equal one call (see [`gemm::threads_equal_one_call`]).
#[allow(clippy::too_many_arguments)]
pub fn threads_equal_one_call(
    k: &MatmulKernel,
    (m, n): (usize, usize),
    (kk, bl): (usize, usize),
    lhs: &Guarded,
    rhs: &Guarded,
    es: usize,
) {
    let t = k.tile();
    let (lhs_at, rhs_at) = (lhs.ptr() as usize, rhs.ptr() as usize);
    let run_into = move |dst: usize, m0: usize, n0: usize, rows: usize, cols: usize| {
        let lhs_off = sym::<Getter3>("get_lhs_packed_offset", k.stem)(m0, kk, bl);
        let rhs_off = sym::<Getter3>("get_rhs_packed_offset", k.stem)(n0, kk, bl);
        let dst_off = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, es * n);
        // SAFETY: offsets from the getters; each thread writes only its own portion.
        unsafe {
            sym::<MatmulBlockFn>("run", k.stem)(
                rows,
                cols,
                kk,
                bl,
                (lhs_at as *const u8).add(lhs_off).cast(),
                (rhs_at as *const u8).add(rhs_off).cast(),
                (dst as *mut u8).add(dst_off).cast(),
                es * n,
                es,
                -3.0,
                3.0,
            )
        }
    };
    gemm::threads_equal_one_call(k.stem, (m, n), (t.m_step, t.n_step), es, &run_into);
}

/// Calls `k` on an `m` x `n` problem (k `kk`, block length `bl`) from packed operands with the
/// callee-saved registers seeded; asserts they survive.
#[cfg(target_arch = "aarch64")]
pub fn registers_survive(
    k: &MatmulKernel,
    (m, n, kk, bl): (usize, usize, usize, usize),
    lhs: &Guarded,
    rhs: &Guarded,
    es: usize,
) {
    use super::abi::CallArgs;
    let mut dst = Guarded::new(4 * m * n, super::guard::Edge::End);
    let (lhs, rhs, dst) = (lhs.ptr() as u64, rhs.ptr() as u64, dst.mut_ptr() as u64);
    let (m, n, kk, bl, es) = (m as u64, n as u64, kk as u64, bl as u64, es as u64);
    // `bl` after k pushes dst_stride_col onto the stack.
    let args = CallArgs {
        x: [m, n, kk, bl, lhs, rhs, dst, es * n],
        stack: [es, 0],
        d: [
            CallArgs::f32_bits(-1e30),
            CallArgs::f32_bits(1e30),
            0,
            0,
            0,
            0,
            0,
            0,
        ],
    };
    // SAFETY: args describe kai_run_matmul's prototype with valid buffers.
    unsafe { gemm::assert_registers_survive(k.stem, &args) };
}

/// Calls `stem` for m = 1, n = 4 with the given k, block length, `dst_stride_col` and RHS (for
/// the contract-violation cases).
pub fn run_kernel(stem: &str, k: usize, bl: usize, dst_stride_col: usize, null_rhs: bool) {
    run_rows(stem, 1, k, bl, dst_stride_col, null_rhs)
}

/// [`run_kernel`] for `m` rows.
pub fn run_rows(stem: &str, m: usize, k: usize, bl: usize, dst_stride_col: usize, null_rhs: bool) {
    let lhs = vec![0u8; 4096];
    let rhs = vec![0u8; 4096];
    let mut dst = vec![0f32; 64];
    // SAFETY: expected to abort before touching memory (or to compute within the buffers).
    unsafe {
        sym::<MatmulBlockFn>("run", stem)(
            m,
            4,
            k,
            bl,
            lhs.as_ptr().cast(),
            if null_rhs {
                std::ptr::null()
            } else {
                rhs.as_ptr().cast()
            },
            dst.as_mut_ptr().cast(),
            16,
            dst_stride_col,
            -1.0,
            1.0,
        )
    }
}
