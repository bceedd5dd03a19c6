//! KleidiAI's generic int8-output kernels (`kai_matmul.h`, `matmul_clamp_qai8_*`) through the C
//! ABI: one module per kernel group, and what they share. Each module gives its `violations()`
//! (KleidiAI's assumptions as death cases), which this file's one `death_tests!` runs: the child
//! test of a binary is found by its exact name, so there is one pair per binary.

use crate::support;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use std::ptr;
use support::guard::{Edge, Guarded};
use support::uker::{CLAMP, Nulls, Portion, Uker, args};

mod gemv;
mod gemv_qsi4;
mod mop4;
mod mopa_qsi4;
mod mopa_qsi8;

/// Every module's death cases.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    [
        gemv::violations(),
        mopa_qsi8::violations(),
        mopa_qsi4::violations(),
        gemv_qsi4::violations(),
        mop4::violations(),
    ]
    .concat()
}

death_tests!(violations, "assumptions");

/// A destination byte the kernels never write.
const FILL: u8 = 0xa5;

/// A call of `kernel` on an `m` x 3 x 4 problem (operands of ones with room for any of these
/// kernels' blocks, the strides its getters give) with `flags`, the operand `nulls` names set
/// to null, and the zero point null unless `zero_point`: it breaks KleidiAI's assumptions only
/// where these say.
fn violating_call(kernel: &Uker, (flags, m): (u64, usize), nulls: Nulls, zero_point: bool) {
    let x = [1u8; 8192];
    let mut d = [0u8; 64];
    let zp = 0i32;
    let mut a = args(
        flags,
        (m, 3, 4),
        (x.as_ptr(), x.as_ptr(), d.as_mut_ptr()),
        (&-128i32, &127i32),
    );
    a.operand.lhs.stride.m = kernel.lhs_stride(m, 4);
    a.operand.rhs.stride.n = kernel.rhs_stride(3, 4);
    a.operand.dst.stride.m = 3;
    if zero_point {
        a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&zp).cast();
    }
    nulls.apply(&mut a);
    kernel.run(&a);
}

/// KleidiAI's getter formulas of an int8-output MOPA kernel, as its test file states them.
struct MopaGetters<'a> {
    /// `mr` = `nr` = `m_step` = `n_step`.
    tile: usize,
    /// The K and N values the strides are checked at.
    ks: &'a [usize],
    ns: &'a [usize],
    /// `get_lhs_stride` and `get_rhs_stride` for `k` (bytes from block to block).
    lhs_stride: &'a dyn Fn(usize) -> usize,
    rhs_stride: &'a dyn Fn(usize) -> usize,
    /// The paired LHS packer's offset of row `m_idx` at `k`, where the kernel must read that
    /// block, if the test checks it.
    packer_lhs_offset: Option<&'a dyn Fn(usize, usize) -> usize>,
}

/// Checks `kernel`'s getters against `formulas`: the strides at each K and N, the offsets of
/// blocks 0, 1 and 3 with strides wider than the getters' (the offsets follow the caller's),
/// and the destination sizes. Returns the values checked.
fn check_mopa_getters(kernel: &Uker, formulas: &MopaGetters) -> usize {
    let t = formulas.tile;
    let api = kernel.api();
    assert!(api.run.is_some() && api.get_dst_size.is_some());
    let step = kernel.step();
    assert_eq!((step.m, step.n, step.k), (t, t, 0));
    let mut checked = 1;
    for &k in formulas.ks {
        for &n in formulas.ns {
            let ls = kernel.lhs_stride(n, k);
            assert_eq!(ls, (formulas.lhs_stride)(k), "lhs stride k {k}");
            let rs = kernel.rhs_stride(n, k);
            assert_eq!(rs, (formulas.rhs_stride)(k), "rhs stride k {k}");
            let ds = kernel.dst_stride(3, n);
            assert_eq!(ds, n);
            for blk in [0, 1, 3] {
                assert_eq!(kernel.lhs_offset(blk * t, 0, ls + 4), blk * (ls + 4));
                if let Some(packer_offset) = formulas.packer_lhs_offset {
                    assert_eq!(packer_offset(blk * t, k), blk * ls, "k {k}");
                }
                assert_eq!(kernel.rhs_offset(blk * t, 0, rs + 8), blk * (rs + 8));
                assert_eq!(
                    kernel.dst_offset(blk * t, 2 * t, ds + 8),
                    blk * t * (ds + 8) + 2 * t
                );
                checked += 3;
            }
            for m in [0, 1, 7] {
                assert_eq!(kernel.dst_size(m, n, ds + 4), m * (ds + 4));
                checked += 1;
            }
            checked += 3;
        }
    }
    checked
}

/// The calls of a one-row int8-output GEMV (`kernel`) on one `n` x `k` problem: its clamp
/// (None: the flag clear) and its output zero point.
struct GemvCalls<'a> {
    kernel: &'a Uker,
    n: usize,
    k: usize,
    clamp: Option<(i32, i32)>,
    zero_point: i32,
}

impl<'a> GemvCalls<'a> {
    fn new(
        kernel: &'a Uker,
        (n, k): (usize, usize),
        clamp: Option<(i32, i32)>,
        zero_point: i32,
    ) -> Self {
        GemvCalls {
            kernel,
            n,
            k,
            clamp,
            zero_point,
        }
    }

    /// The bounds to pass: the clamp's, else bounds that would change the result if they were
    /// read without the flag.
    fn bounds(&self) -> (i32, i32) {
        self.clamp.unwrap_or((5, -5))
    }

    /// The run arguments of columns `n0..n0 + nw` (`n0` a whole step), RHS and destination
    /// moved there through the offset getters; the strides a GEMV ignores are hostile.
    fn portion_args(
        &self,
        (n0, nw): (usize, usize),
        (lhs, rhs, dst): (*const u8, *const u8, *mut u8),
        bounds: &(i32, i32),
    ) -> kai_matmul_uker_args {
        let flags = if self.clamp.is_some() { CLAMP } else { 0 };
        let kernel = self.kernel;
        let (rs, ds) = (
            kernel.rhs_stride(self.n, self.k),
            kernel.dst_stride(1, self.n),
        );
        let (r, d) = (
            rhs.wrapping_add(kernel.rhs_offset(n0, 0, rs)),
            dst.wrapping_add(kernel.dst_offset(0, n0, ds)),
        );
        let mut a = args(flags, (1, nw, self.k), (lhs, r, d), (&bounds.0, &bounds.1));
        a.operand.lhs.stride.m = usize::MAX;
        a.operand.rhs.stride.n = 3;
        a.operand.dst.stride.m = 1;
        a.operand.bias.scale_bias_global.ptr = ptr::from_ref(&self.zero_point).cast();
        a
    }

    /// Runs the whole row once through `portable` (given the run arguments: the kernel module's
    /// check and portable path, called directly): the row equals `expect`.
    fn check_portable(
        &self,
        (lhs, rp): (&[u8], &[u8]),
        expect: &[u8],
        label: &str,
        portable: impl FnOnce(&kai_matmul_uker_args),
    ) {
        let mut out = vec![0u8; self.n];
        let dst = out.as_mut_ptr();
        portable(&self.portion_args(
            (0, self.n),
            (lhs.as_ptr(), rp.as_ptr(), dst),
            &self.bounds(),
        ));
        assert_eq!(out, expect, "portable {label}");
    }

    /// Runs the portions `cuts` (`(n0, nw)`) of the row through the C table with the LHS row,
    /// the packed RHS and the destination against each guard edge of `edges`: every written
    /// byte equals `expect` and nothing else is written (`label` names the problem). Returns
    /// the runs.
    fn check_portions(
        &self,
        operands: (&[u8], &[u8]),
        expect: &[u8],
        (cuts, edges): (&[(usize, usize)], &[Edge]),
        label: &str,
    ) -> usize {
        let bounds = self.bounds();
        let rows: Vec<_> = cuts.iter().map(|&(n0, nw)| (0, 1, n0, nw)).collect();
        check_guarded_portions(
            self.kernel,
            operands,
            (expect, (1, self.n), self.n),
            (&rows, edges),
            label,
            |(_, _, n0, nw), (l, r, d)| self.portion_args((n0, nw), (l, r, d), &bounds),
        )
    }
}

/// Runs `kernel` on the portions `cuts` (`(m0, mh, n0, nw)`) of an `m` x `n` problem with the
/// packed operands and a destination of `m` rows `ds` bytes apart (filled with [`FILL`])
/// against each guard edge of `edges`; `portion_args` gives a portion's run arguments from the
/// guarded LHS, RHS and destination. Every written byte equals `expect` (rows `n` apart) and
/// nothing else is written (`label` names the problem). Returns the runs.
fn check_guarded_portions(
    kernel: &Uker,
    (lhs, rhs): (&[u8], &[u8]),
    (expect, (m, n), ds): (&[u8], (usize, usize), usize),
    (cuts, edges): (&[Portion], &[Edge]),
    label: &str,
    portion_args: impl Fn(Portion, (*const u8, *const u8, *mut u8)) -> kai_matmul_uker_args,
) -> usize {
    let mut runs = 0;
    for &edge in edges {
        let l = Guarded::from_bytes(lhs, edge);
        let r = Guarded::from_bytes(rhs, edge);
        for &cut in cuts {
            let (m0, mh, n0, nw) = cut;
            let mut d = Guarded::from_bytes(&vec![FILL; m * ds], edge);
            kernel.run(&portion_args(cut, (l.ptr(), r.ptr(), d.mut_ptr())));
            let bytes = d.bytes();
            for i in 0..m {
                for j in 0..ds {
                    let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
                    let want = if inside { expect[i * n + j] } else { FILL };
                    assert_eq!(
                        bytes[i * ds + j],
                        want,
                        "{label} portion {cut:?} ({i}, {j}) {edge:?}"
                    );
                }
            }
            runs += 1;
        }
    }
    runs
}
