//! Portable implementation of the family: every output of the portion from the packed operands,
//! with the kernel's arithmetic step for step ([`scaled_weight`], [`dot_add`] in K order from
//! `+0`, then `FCLAMP`), so it gives the kernel's bits.

use super::Args;
use crate::kernel::{Clamp, Tile};
use crate::reference::f16p_qsi4c32p::{dot_add, scaled_weight};

/// Reads the little-endian half at `p`.
///
/// # Safety
/// `p` is readable for 2 bytes.
unsafe fn half(p: *const u8) -> u16 {
    // SAFETY: forwarded.
    unsafe { u16::from_le_bytes([*p, *p.add(1)]) }
}

/// Runs the portion `a` for a kernel of tile `t`.
///
/// # Safety
/// The family's `check` passed and the buffers hold the portion in the layouts of `t` (see the
/// family's `# Safety`).
pub unsafe fn run(t: &Tile, a: &Args) {
    let (mr, nr, k, bl) = (t.mr, t.nr, a.k, a.bl);
    let blocks = k / bl;
    let lhs_stride = 2 * mr * k;
    let rhs_stride = nr * blocks * (bl / 2 + 2);
    let mut weights = [0u16; 2];
    for i in 0..a.m {
        let (g, r) = (i / mr, i % mr);
        // SAFETY: group g < ceil(m / mr) lies in the packed LHS.
        let lhs = unsafe { a.lhs_packed.add(g * lhs_stride) };
        for j in 0..a.n {
            let (h, c) = (j / nr, j % nr);
            // SAFETY: group h < ceil(n / nr) lies in the packed RHS.
            let rhs = unsafe { a.rhs_packed.add(h * rhs_stride) };
            let mut acc = 0.0f32;
            for p in 0..k / 2 {
                let v = 2 * p;
                // SAFETY (all reads): pair p < k / 2 of slot r < mr in the LHS group; K step
                // v / 4 < k / 4 and block v / bl of column c < nr in the RHS group.
                let (pair, byte, scale) = unsafe {
                    let at = lhs.add(4 * (p * mr + r));
                    let pair = [half(at), half(at.add(2))];
                    let byte = *rhs.add(2 * ((v / 4) * nr + c) + (v % 4) / 2);
                    let scale = half(rhs.add(nr * k / 2 + 2 * ((v / bl) * nr + c)));
                    (pair, byte, scale)
                };
                for (t, w) in weights.iter_mut().enumerate() {
                    let u = (byte >> (4 * t)) & 0x0f;
                    *w = scaled_weight(u as i8 - 8, scale);
                }
                acc = dot_add(acc, pair, weights);
            }
            let y = Clamp::MaxNumThenMinNum.apply(acc, a.clamp_min, a.clamp_max);
            // SAFETY: row i < m, column j < n of the destination.
            unsafe {
                a.dst
                    .add(i * a.dst_stride_row + 4 * j)
                    .cast::<f32>()
                    .write_unaligned(y)
            };
        }
    }
}
