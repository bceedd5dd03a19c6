//! KleidiAI's generic int8-output kernels (`kai_matmul.h`, `matmul_clamp_qai8_*`) through the C
//! ABI: one module per kernel group, and what they share. Each module gives its `violations()`
//! (KleidiAI's assumptions as death cases), which this file's one `death_tests!` runs: the child
//! test of a binary is found by its exact name, so there is one pair per binary.

use crate::support;
use rkai_ukernels::matmul_types::kai_matmul_uker_args;
use std::ptr;
use support::guard::{Edge, Guarded};
use support::uker::{CLAMP, Uker, args};

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
        (lhs, rp): (&[u8], &[u8]),
        expect: &[u8],
        (cuts, edges): (&[(usize, usize)], &[Edge]),
        label: &str,
    ) -> usize {
        let bounds = self.bounds();
        let mut runs = 0;
        for &edge in edges {
            let l = Guarded::from_bytes(lhs, edge);
            let r = Guarded::from_bytes(rp, edge);
            for &(n0, nw) in cuts {
                let mut d = Guarded::from_bytes(&vec![FILL; self.n], edge);
                let dp = d.mut_ptr();
                let a = self.portion_args((n0, nw), (l.ptr(), r.ptr(), dp), &bounds);
                self.kernel.run(&a);
                for (j, &got) in d.bytes().iter().enumerate() {
                    let want = if (n0..n0 + nw).contains(&j) {
                        expect[j]
                    } else {
                        FILL
                    };
                    assert_eq!(got, want, "{label} portion {n0}+{nw} column {j} {edge:?}");
                }
                runs += 1;
            }
        }
        runs
    }
}
