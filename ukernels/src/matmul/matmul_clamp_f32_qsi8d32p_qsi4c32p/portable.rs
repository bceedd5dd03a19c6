//! Portable implementation of the family for any tile and any of its packed formats: per LHS row
//! group and RHS column group, each block's integer dot products are formed from 32-value
//! sub-blocks decoded into small int8 arrays (weights as the kernel reading the format sees them),
//! then folded into f32 accumulators with the block's scales exactly as that kernel does
//! (its catalog `Epilogue`).

use super::Args;
use crate::kernel::{Epilogue, Tile};
use crate::layout;
use crate::matmul::passes::{CHUNK, MAX_COLS, MAX_ROWS, accumulate, for_each_pass};
use crate::pack::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0::Variant as Rhs;

/// Values per decoded sub-block.
const SUB: usize = CHUNK;

/// The packed formats a kernel reads: the RHS packer's, and whether the LHS group holds all its
/// values first and the scales at the end (`lhs_quant_pack_qsi8d32p_f32_neon`) or each block's
/// scales before its values.
#[derive(Clone, Copy, Debug)]
pub struct Formats {
    /// The RHS format.
    pub rhs: Rhs,
    /// Whether the LHS scales follow all values of the group.
    pub lhs_scales_at_end: bool,
}

/// Where the values and scales of one packed LHS group lie.
struct LhsGroup {
    base: *const u8,
    mr: usize,
    k: usize,
    bl: usize,
    /// Values per chunk of the scales-first layout (`kr / sr`).
    kbl: usize,
    scales_at_end: bool,
}

impl LhsGroup {
    /// Value (`slot`, `kk`) of the group.
    ///
    /// # Safety
    /// `slot < mr`, `kk < k`, and the group is readable.
    #[inline]
    unsafe fn value(&self, slot: usize, kk: usize) -> i8 {
        let (mr, kbl) = (self.mr, self.kbl);
        let at = if self.scales_at_end {
            (kk / 4) * mr * 4 + slot * 4 + kk % 4
        } else {
            let (b, i) = (kk / self.bl, kk % self.bl);
            b * mr * (self.bl + 2) + 2 * mr + (i / kbl) * mr * kbl + slot * kbl + i % kbl
        };
        // SAFETY: forwarded; the address formula stays inside the group.
        unsafe { *self.base.add(at) as i8 }
    }

    /// Scale (`slot`, block `b`) widened to f32.
    ///
    /// # Safety
    /// As for [`LhsGroup::value`], `b < k / bl`.
    #[inline]
    unsafe fn scale(&self, slot: usize, b: usize) -> f32 {
        let at = if self.scales_at_end {
            self.mr * self.k + 2 * (b * self.mr + slot)
        } else {
            b * self.mr * (self.bl + 2) + 2 * slot
        };
        // SAFETY: forwarded.
        unsafe { read_f16(self.base.add(at)) }
    }
}

/// Where the nibbles and scales of one packed RHS group lie.
struct RhsGroup {
    base: *const u8,
    nr: usize,
    k: usize,
    bl: usize,
    /// Bytes per column and segment of the `Scalef16` layout (`kr / 2`).
    seg: usize,
    format: Rhs,
}

impl RhsGroup {
    /// Weight (`col`, `kk`) as the kernel reading the format multiplies it: 16 times the value
    /// for the formats decoded by shifting, the value for the one decoded through a table.
    ///
    /// # Safety
    /// `col < nr`, `kk < k`, and the group is readable.
    #[inline]
    unsafe fn weight(&self, col: usize, kk: usize) -> i8 {
        let (nr, bl) = (self.nr, self.bl);
        let (b, i) = (kk / bl, kk % bl);
        // SAFETY (all arms): the address formulas stay inside the group.
        unsafe {
            match self.format {
                Rhs::Scalef16 => {
                    let (j, high) = if i < bl / 2 {
                        (i, false)
                    } else {
                        (i - bl / 2, true)
                    };
                    let seg = self.seg;
                    let at =
                        b * nr * (bl / 2 + 2) + 2 * nr + (j / seg) * nr * seg + col * seg + j % seg;
                    shifted_nibble(*self.base.add(at), high)
                }
                Rhs::Ps1s0Scalef16Neon => {
                    let at = 2 * ((b * bl / 4 + i / 4) * nr + col) + (i % 4) / 2;
                    let byte = *self.base.add(at);
                    let u = if i % 2 == 0 { byte & 0x0f } else { byte >> 4 };
                    u as i8 - 8
                }
                Rhs::Ps4s0Sf16Neon => {
                    let at = 4 * ((b * bl / 8 + i / 8) * nr + col) + i % 4;
                    shifted_nibble(*self.base.add(at), i % 8 >= 4)
                }
            }
        }
    }

    /// Scale (`col`, block `b`) widened to f32.
    ///
    /// # Safety
    /// As for [`RhsGroup::weight`], `b < k / bl`.
    #[inline]
    unsafe fn scale(&self, col: usize, b: usize) -> f32 {
        let at = match self.format {
            Rhs::Scalef16 => b * self.nr * (self.bl / 2 + 2) + 2 * col,
            Rhs::Ps1s0Scalef16Neon | Rhs::Ps4s0Sf16Neon => {
                self.nr * self.k / 2 + 2 * (b * self.nr + col)
            }
        };
        // SAFETY: forwarded.
        unsafe { read_f16(self.base.add(at)) }
    }
}

/// The low (`high == false`) or high signed nibble of `byte`, times 16 (`SHL #4` / `AND #0xf0`).
#[inline]
fn shifted_nibble(byte: u8, high: bool) -> i8 {
    if high {
        (byte & 0xf0) as i8
    } else {
        (byte << 4) as i8
    }
}

/// f16 bits at `p` widened to f32 (exact, like `FCVTL`).
///
/// # Safety
/// `p` is readable for 2 bytes.
#[inline]
unsafe fn read_f16(p: *const u8) -> f32 {
    // SAFETY: forwarded.
    half::f16::from_bits(unsafe { p.cast::<u16>().read_unaligned() }).to_f32()
}

/// Computes the portion described by `a`.
///
/// # Safety
/// See [`super::run`]; `tile` must be the tile the buffers were packed for in `formats`, and
/// `finish` the epilogue of the kernel reading them.
pub unsafe fn run(tile: &Tile, formats: Formats, finish: Epilogue, a: &Args) {
    let (mr, nr, bl) = (tile.mr, tile.nr, a.bl);
    let blocks = a.k / bl;
    let lhs_stride = layout::qsi8d32p::stride(a.k, bl, mr).unwrap_or(0);
    let rhs_stride = layout::qsi4c32pf16::stride(a.k, nr, bl).unwrap_or(0);
    // The NEON kernels see 16 x the weights and undo it with `SCVTF #4` (exact); the SME ones
    // see the values (table) or 16 x them with scales already divided by 16 (shifts).
    let unit = if formats.rhs == Rhs::Scalef16 {
        0.0625
    } else {
        1.0
    };
    for_each_pass(a, (mr, nr), (lhs_stride, rhs_stride), |p| {
        let lhs = LhsGroup {
            base: p.lhs,
            mr,
            k: a.k,
            bl,
            kbl: tile.kr / tile.sr,
            scales_at_end: formats.lhs_scales_at_end,
        };
        let rhs = RhsGroup {
            base: p.rhs,
            nr,
            k: a.k,
            bl,
            seg: tile.kr / 2,
            format: formats.rhs,
        };
        let mut acc = [[0.0f32; MAX_COLS]; MAX_ROWS];
        let mut lq = [[0i8; CHUNK]; MAX_ROWS];
        let mut wq = [[0i8; CHUNK]; MAX_COLS];
        for b in 0..blocks {
            let mut dots = [[0i32; MAX_COLS]; MAX_ROWS];
            for c in 0..bl / SUB {
                let k0 = b * bl + c * SUB;
                for (cc, w) in wq.iter_mut().enumerate().take(p.cols) {
                    for (t, v) in w.iter_mut().enumerate() {
                        // SAFETY: column p.c0 + cc < nr, value k0 + t < k.
                        *v = unsafe { rhs.weight(p.c0 + cc, k0 + t) };
                    }
                }
                for (rr, l) in lq.iter_mut().enumerate().take(p.rows) {
                    for (t, v) in l.iter_mut().enumerate() {
                        // SAFETY: slot p.r0 + rr < mr, value k0 + t < k.
                        *v = unsafe { lhs.value(p.r0 + rr, k0 + t) };
                    }
                }
                accumulate(&mut dots, &lq, &wq, &p);
            }
            for rr in 0..p.rows {
                // SAFETY: slot p.r0 + rr < mr, block b < k / bl.
                let dl = unsafe { lhs.scale(p.r0 + rr, b) };
                for cc in 0..p.cols {
                    // SAFETY: column p.c0 + cc < nr, block b < k / bl.
                    let dr = unsafe { rhs.scale(p.c0 + cc, b) };
                    let scale = finish.block_scale.apply(dl, dr);
                    let f = dots[rr][cc] as f32 * unit;
                    acc[rr][cc] = finish.block_fold.apply(b == 0, f, scale, acc[rr][cc]);
                }
            }
        }
        for (rr, acc_row) in acc.iter().enumerate().take(p.rows) {
            let row = p.group * mr + p.r0 + rr;
            for (cc, &v) in acc_row.iter().enumerate().take(p.cols) {
                let y = finish.clamp.apply(v, a.clamp_min, a.clamp_max);
                // SAFETY: (row, p.j0 + p.c0 + cc) lies inside the m x n portion.
                unsafe {
                    a.dst
                        .add(row * a.dst_stride_row + 4 * (p.j0 + p.c0 + cc))
                        .cast::<f32>()
                        .write_unaligned(y)
                };
            }
        }
    });
}
