//! Portable implementation of the bf16 GEMM families (bit-identical to the BFMMLA, BFDOT and
//! BFMOPA kernels).

use super::{Accumulation, Args};
use crate::element::Output;
use crate::float::{self, bf16};
use crate::kernel::MatmulKernel;

/// `acc` plus the `steps` outer-product steps of one output: `kr` values of `values` type at
/// `lhs` and `rhs`, the next step `mr` (`nr`) such groups further on; `BFMOPA`
/// ([`bf16::dot_step`]), `FMOPA` on f32 ([`float::fmopa`]) or widening `FMOPA` on halves
/// ([`float::f16::dot_add`]).
///
/// # Safety
/// `lhs` and `rhs` are valid for reads of the `steps` groups.
#[allow(clippy::too_many_arguments)]
unsafe fn outer_products(
    values: Output,
    kr: usize,
    mut acc: f32,
    lhs: *const u8,
    rhs: *const u8,
    steps: usize,
    mr: usize,
    nr: usize,
) -> f32 {
    let vb = values.size();
    for g in 0..steps {
        // SAFETY: step g of both operands (the caller's contract).
        let (x, w) = unsafe { (lhs.add(g * mr * kr * vb), rhs.add(g * nr * kr * vb)) };
        acc = match values {
            Output::F32 => {
                // SAFETY: as above.
                let (x, w) = unsafe {
                    (
                        x.cast::<u32>().read_unaligned(),
                        w.cast::<u32>().read_unaligned(),
                    )
                };
                float::fmopa(
                    acc,
                    f32::from_bits(u32::from_le(x)),
                    f32::from_bits(u32::from_le(w)),
                )
            }
            Output::F16 | Output::Bf16 => {
                // SAFETY: as above.
                let (x, w) = unsafe {
                    (
                        x.cast::<[u16; 2]>().read_unaligned().map(u16::from_le),
                        w.cast::<[u16; 2]>().read_unaligned().map(u16::from_le),
                    )
                };
                if values == Output::F16 {
                    float::f16::dot_add(acc, x, w)
                } else {
                    bf16::dot_step(acc, x, w)
                }
            }
            // No packed-float family has int8 values.
            Output::I8 => acc,
        };
    }
    acc
}

/// Computes the portion `a` of `kernel` in `mr`-row blocks and `nr`-column groups, accumulating
/// in the kernel's order.
///
/// # Safety
/// As for [`super::run`].
pub unsafe fn run(kernel: &MatmulKernel, a: &Args) {
    let (family, t) = (kernel.family, kernel.tile());
    let (mr, nr, kr) = (t.mr, t.nr, t.kr);
    let order = super::accumulation(kernel);
    let kp = a.k.div_ceil(kr) * kr;
    let values = super::values(family);
    let vb = values.size();
    let bias_bytes = family.output().size();
    let out_bytes = family.output().size();
    let group_bytes = nr * (bias_bytes + kp * vb);
    let block_bytes = mr * kp * vb;
    let dst_row = a.dst_stride_row / out_bytes * out_bytes;
    for i in 0..a.m {
        // SAFETY (reads): row i of block i / mr lies in the packed LHS; column j's group in the
        // packed RHS (the caller's contract).
        let lhs = unsafe { a.lhs_packed.add(i / mr * block_bytes + i % mr * kr * vb) };
        for j in 0..a.n {
            let group = unsafe { a.rhs_packed.add(j / nr * group_bytes) };
            let c = j % nr;
            let mut acc = unsafe {
                if bias_bytes == 4 {
                    f32::from_bits(group.add(c * 4).cast::<u32>().read_unaligned())
                } else {
                    f32::from_bits(float::f16::to_f32_bits(
                        group.add(c * 2).cast::<u16>().read_unaligned(),
                    ))
                }
            };
            let rhs = unsafe { group.add(nr * bias_bytes + c * kr * vb) };
            if order == Accumulation::OuterProducts {
                acc = super::za_bias(acc);
                // SAFETY: the steps of row i and column j (caller's contract).
                acc = unsafe { outer_products(values, kr, acc, lhs, rhs, kp / kr, mr, nr) };
            }
            // Second partial sum of the BFDOT kernel (K values 2-3 of each group).
            let mut odd = 0.0f32;
            let groups = if order == Accumulation::OuterProducts {
                0
            } else {
                kp / 4
            };
            for g in 0..groups {
                let (x, w) = unsafe {
                    (
                        lhs.add(g * mr * 8).cast::<[u16; 4]>().read_unaligned(),
                        rhs.add(g * nr * 8).cast::<[u16; 4]>().read_unaligned(),
                    )
                };
                let x = x.map(u16::from_le);
                let w = w.map(u16::from_le);
                acc = bf16::dot_step(acc, [x[0], x[1]], [w[0], w[1]]);
                let (a23, w23) = ([x[2], x[3]], [w[2], w[3]]);
                match order {
                    Accumulation::Chain | Accumulation::OuterProducts => {
                        acc = bf16::dot_step(acc, a23, w23)
                    }
                    Accumulation::SplitPairs => odd = bf16::dot_step(odd, a23, w23),
                }
            }
            if order == Accumulation::SplitPairs {
                acc = float::fadd(acc, odd);
            }
            let y = super::clamp(kernel, acc, a.clamp_min, a.clamp_max);
            // SAFETY: element (i, j) of the destination (caller's contract).
            unsafe {
                let p = a.dst.add(i * dst_row + j * out_bytes);
                if out_bytes == 4 {
                    p.cast::<u32>().write_unaligned(y.to_bits().to_le());
                } else if order == Accumulation::OuterProducts {
                    // The SME f16 kernels narrow first, then clamp halves.
                    let h = super::narrow_then_clamp(kernel, acc, a.clamp_min, a.clamp_max);
                    p.cast::<u16>().write_unaligned(h.to_le());
                } else {
                    p.cast::<u16>()
                        .write_unaligned(float::f16::from_f32(y).to_le());
                }
            }
        }
    }
}
