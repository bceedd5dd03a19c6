//! `rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon`: per-channel int8 weights packed for the
//! `qai8dxp x qsi8cxp` kernels (KleidiAI 1.30 format, byte for byte).
//!
//! Group layout (`nr` columns, `k_int = roundup(k, 32)`): `nr * k_int` int8 values, element
//! (column c, k) at `(k / kr) * nr * kr + c * kr + k % kr` (zero K padding), then `nr` x `i32` row
//! sums multiplied by the LHS zero point parameter, `nr` x `f32` scales and `nr` x `f32` biases.
//! Columns past `n` repeat column `n - 1`.
//!
//! Paths: on AArch64, NEON for `nr == 4` with `kr` 4 or 8 (every NEON kernel): Nxk loads 16
//! values of each of the 4 columns and interleaves them with one `ST4` (4-byte or 8-byte
//! elements = `kr`); Kxn loads `kr` K rows of 16 columns (4 groups) and transposes them with
//! `ZIP1`/`ZIP2`. Row sums come from `SADALP` into 16-bit lanes, widened to 32 bits every 128
//! steps. Everything else (other tiles, such as the SVE and SME kernels' `nr`, Kxn columns after
//! the last whole 16, other targets) is portable:
//! Nxk copies a column block by block and sums its row as a slice (vectorized); Kxn walks the K
//! rows, scattering each row's `nr` values of the group and summing them per column.

use crate::contract::{self, Checked};
use crate::layout::{RhsLayout, qai8dxp, qsi8cxp as layout};
use crate::pack::Source;
use crate::types::kai_rhs_pack_qsi8cx_params;

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Must be 1.
    pub num_groups: usize,
    /// Output channels.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Columns per packed group (the kernel's `nr`).
    pub nr: usize,
    /// The kernel's `kr` (values per column block).
    pub kr: usize,
    /// The kernel's `sr`: must be 1.
    pub sr: usize,
    /// Unpacked int8 weights.
    pub rhs: *const i8,
    /// Optional per-channel bias (`n` floats) or null.
    pub bias: *const f32,
    /// Per-channel scales (`n` floats).
    pub scale: *const f32,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// LHS zero point folded into the row sums (`scale_multiplier` is unused).
    pub params: *const kai_rhs_pack_qsi8cx_params,
}

/// Checks what the packer requires of its arguments (KleidiAI's assertions, plus block sizes
/// that tile a 32-value chunk and size overflow).
pub fn check(a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(a.sr == 1, "sr == 1")?;
    contract::packing_params(a.nr, "nr > 0", a.kr, a.sr)?;
    contract::require(qai8dxp::K_MULTIPLE % a.kr == 0, "32 % kr == 0")?;
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(!a.scale.is_null(), "scale != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.params.is_null(), "params != NULL")?;
    contract::require(a.n != 0, "n > 0")?;
    contract::require(a.k != 0, "k > 0")?;
    RhsLayout::Qsi8cxp.size(a.n, a.k, a.nr, a.kr, a.sr)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold the `n` x `k` (or `k` x `n`) matrix, `scale` (and
/// `bias` when non-null) `n` floats, and `rhs_packed` must be writable for the packed size.
pub unsafe fn run(src: Source, a: &Args) {
    // SAFETY: check() verified params is non-null.
    let lhs_zero_point = unsafe { a.params.read_unaligned() }.lhs_zero_point;
    let g = Geometry {
        n: a.n,
        k: a.k,
        nr: a.nr,
        kr: a.kr,
        k_int: qai8dxp::k_internal(a.k, a.kr, a.sr).unwrap_or(0),
        stride: layout::stride(a.k, a.nr, a.kr, a.sr).unwrap_or(0),
        lhs_zero_point,
    };
    let groups = a.n.div_ceil(a.nr);
    #[cfg(target_arch = "aarch64")]
    // SAFETY: forwarded contract.
    let first = unsafe { neon::pack(src, &g, a) };
    #[cfg(not(target_arch = "aarch64"))]
    let first = 0;
    for group in first..groups {
        // SAFETY: forwarded contract; group < groups.
        unsafe {
            match src {
                Source::Nxk => pack_group_nxk(&g, a, group),
                Source::Kxn => pack_group_kxn(&g, a, group),
            }
        }
    }
}

/// Sizes shared by every group of one call.
struct Geometry {
    n: usize,
    k: usize,
    nr: usize,
    kr: usize,
    /// `roundup(k, 32)`.
    k_int: usize,
    /// Bytes per group.
    stride: usize,
    lhs_zero_point: i32,
}

impl Geometry {
    /// The channel column `col` of `group` reads (columns past `n` repeat `n - 1`).
    #[inline(always)]
    fn channel(&self, group: usize, col: usize) -> usize {
        (group * self.nr + col).min(self.n - 1)
    }

    /// Writes column `col`'s trailer of the group at `dst` for channel `n_idx`.
    ///
    /// # Safety
    /// As for [`run`]; `dst` is a group's start, `col < nr`, `n_idx < n`.
    #[inline(always)]
    unsafe fn trailer(&self, a: &Args, dst: *mut u8, col: usize, n_idx: usize, sum: i32) {
        // SAFETY: scale has n entries, bias too when non-null; the trailer is in the group.
        unsafe {
            super::write_column_trailer(
                dst.add(self.nr * self.k_int),
                self.nr,
                col,
                sum.wrapping_mul(self.lhs_zero_point),
                a.scale.add(n_idx).read_unaligned(),
                super::bias_at(a.bias, n_idx),
            );
        }
    }
}

/// Copies `len` bytes (at most `kr`) of one column block and zero-fills it to `kr` bytes.
/// `KR` is `kr` when it is 4, 8 or 16 (fixed-size copies), else 0 (`kr` at run time).
///
/// # Safety
/// `from` readable for `len` bytes, `to` writable for `kr` bytes.
#[inline(always)]
unsafe fn copy_block<const KR: usize>(from: *const i8, to: *mut u8, len: usize, kr: usize) {
    // SAFETY: as documented.
    unsafe {
        if KR != 0 && len == KR {
            to.cast::<[u8; KR]>()
                .write_unaligned(from.cast::<[u8; KR]>().read_unaligned());
        } else {
            core::ptr::copy_nonoverlapping(from.cast::<u8>(), to, len);
            core::ptr::write_bytes(to.add(len), 0, kr - len);
        }
    }
}

/// One Nxk group, column by column: the column's row copied block by block, summed as a slice
/// (which LLVM vectorizes), then zero blocks up to `k_int`.
///
/// # Safety
/// As for [`run`]; `group < ceil(n / nr)`.
unsafe fn pack_group_nxk(g: &Geometry, a: &Args, group: usize) {
    // SAFETY: forwarded.
    unsafe {
        match g.kr {
            4 => pack_group_nxk_kr::<4>(g, a, group),
            8 => pack_group_nxk_kr::<8>(g, a, group),
            16 => pack_group_nxk_kr::<16>(g, a, group),
            _ => pack_group_nxk_kr::<0>(g, a, group),
        }
    }
}

/// [`pack_group_nxk`] for `KR` (see [`copy_block`]).
///
/// # Safety
/// As for [`pack_group_nxk`].
#[inline(always)]
unsafe fn pack_group_nxk_kr<const KR: usize>(g: &Geometry, a: &Args, group: usize) {
    let (k, kr) = (g.k, g.kr);
    let block_step = g.nr * kr;
    // SAFETY: the group lies inside the packed buffer.
    let dst = unsafe { a.rhs_packed.add(group * g.stride) };
    for col in 0..g.nr {
        let n_idx = g.channel(group, col);
        // SAFETY: row n_idx < n of k values.
        let row = unsafe { core::slice::from_raw_parts(a.rhs.add(n_idx * k), k) };
        let sum = row.iter().fold(0i32, |s, &v| s.wrapping_add(i32::from(v)));
        for b in 0..g.k_int / kr {
            let start = (b * kr).min(k);
            let len = (k - start).min(kr);
            // SAFETY: len values from start lie in the row; the block lies in the group.
            unsafe {
                copy_block::<KR>(
                    row.as_ptr().add(start),
                    dst.add(b * block_step + col * kr),
                    len,
                    kr,
                )
            };
        }
        // SAFETY: forwarded; col < nr, n_idx < n.
        unsafe { g.trailer(a, dst, col, n_idx, sum) };
    }
}

/// One Kxn group: `K` row by row, the group's values of each row scattered to the columns'
/// blocks (a strided gather per column would touch a cache line per value), summed per column on
/// the way. Padding columns then copy the last real column. Groups wider than 16 columns (no
/// kernel) go column by column.
///
/// # Safety
/// As for [`run`]; `group < ceil(n / nr)`.
unsafe fn pack_group_kxn(g: &Geometry, a: &Args, group: usize) {
    let (n, k, nr, kr) = (g.n, g.k, g.nr, g.kr);
    // SAFETY: the group lies inside the packed buffer.
    let dst = unsafe { a.rhs_packed.add(group * g.stride) };
    let first = group * nr;
    let real = nr.min(n - first);
    let mut sums = [0i32; 16];
    let Some(sums) = sums.get_mut(..real).filter(|_| nr <= 16) else {
        // SAFETY: forwarded.
        return unsafe { pack_group_kxn_columns(g, a, group) };
    };
    for kk in 0..g.k_int {
        // SAFETY: the row's block lies in the group.
        let out = unsafe { dst.add((kk / kr) * nr * kr + kk % kr) };
        for (col, s) in sums.iter_mut().enumerate() {
            let v = if kk < k {
                // SAFETY: kk < k and first + col < n.
                unsafe { *a.rhs.add(kk * n + first + col) }
            } else {
                0
            };
            *s = s.wrapping_add(i32::from(v));
            // SAFETY: below nr * k_int.
            unsafe { out.add(col * kr).write(v as u8) };
        }
    }
    let last = sums.last().copied().unwrap_or(0);
    for col in 0..nr {
        let sum = if let Some(&s) = sums.get(col) {
            s
        } else {
            for b in 0..g.k_int / kr {
                let block = b * nr * kr;
                // SAFETY: both blocks lie in the group; real >= 1 and col >= real.
                unsafe {
                    core::ptr::copy_nonoverlapping(
                        dst.add(block + (real - 1) * kr),
                        dst.add(block + col * kr),
                        kr,
                    )
                };
            }
            last
        };
        // SAFETY: forwarded; col < nr.
        unsafe { g.trailer(a, dst, col, g.channel(group, col), sum) };
    }
}

/// [`pack_group_kxn`] one column at a time (groups wider than its sum array).
///
/// # Safety
/// As for [`pack_group_kxn`].
unsafe fn pack_group_kxn_columns(g: &Geometry, a: &Args, group: usize) {
    let (n, k, nr, kr) = (g.n, g.k, g.nr, g.kr);
    // SAFETY: the group lies inside the packed buffer.
    let dst = unsafe { a.rhs_packed.add(group * g.stride) };
    for col in 0..nr {
        let n_idx = g.channel(group, col);
        let mut sum = 0i32;
        for kk in 0..g.k_int {
            let v = if kk < k {
                // SAFETY: kk < k, n_idx < n.
                unsafe { *a.rhs.add(kk * n + n_idx) }
            } else {
                0
            };
            sum = sum.wrapping_add(i32::from(v));
            // SAFETY: below nr * k_int.
            unsafe {
                dst.add((kk / kr) * nr * kr + col * kr + kk % kr)
                    .write(v as u8)
            };
        }
        // SAFETY: forwarded; col < nr, n_idx < n.
        unsafe { g.trailer(a, dst, col, n_idx, sum) };
    }
}

/// NEON forms for `nr == 4`, `kr` 4 or 8.
///
/// Sums: `SADALP` adds byte pairs into 16-bit lanes, at most 2 x 128 in magnitude per step, so
/// 128 steps stay within `i16`; then `SADALP` (or `SADDLP` + `ADDP`) widens them into 32-bit lanes,
/// which wrap like the scalar `i32` sum.
#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::*;
    use core::arch::asm;

    use super::{Args, Geometry};
    use crate::pack::Source;

    /// Steps (16-value chunks or K blocks) between widenings of the 16-bit sums.
    const STRIP: usize = 128;

    /// Packs the groups it has a form for, from group 0 on; returns the first group left.
    ///
    /// # Safety
    /// As for [`super::run`].
    pub(super) unsafe fn pack(src: Source, g: &Geometry, a: &Args) -> usize {
        if g.nr != 4 {
            return 0;
        }
        // SAFETY (every arm): forwarded.
        unsafe {
            match (src, g.kr) {
                (Source::Nxk, 4) => nxk::<4>(g, a),
                (Source::Nxk, 8) => nxk::<8>(g, a),
                (Source::Kxn, 4) => kxn::<4>(g, a),
                (Source::Kxn, 8) => kxn::<8>(g, a),
                _ => 0,
            }
        }
    }

    /// Every Nxk group: per 16-value chunk, one load per column and an `ST4` of 4-byte (`KR` 4)
    /// or 8-byte (`KR` 8) elements, which writes the chunk's `16 / KR` blocks of the 4 columns
    /// in the packed order (64 contiguous bytes).
    ///
    /// # Safety
    /// As for [`super::run`], with `nr == 4`.
    unsafe fn nxk<const KR: usize>(g: &Geometry, a: &Args) -> usize {
        let groups = g.n.div_ceil(4);
        let full = g.k / 16;
        for group in 0..groups {
            // SAFETY: the group lies in the packed buffer; rows are channels below n.
            unsafe {
                let dst = a.rhs_packed.add(group * g.stride);
                let rows: [*const i8; 4] =
                    core::array::from_fn(|col| a.rhs.add(g.channel(group, col) * g.k));
                let mut acc32 = [vdupq_n_s32(0); 4];
                let mut out = dst;
                // Stepped pointers and a count-down loop: post-indexed loads, no index math.
                let mut p = rows;
                let mut left = full;
                while left > 0 {
                    let steps = left.min(STRIP);
                    left -= steps;
                    let mut acc16 = [vdupq_n_s16(0); 4];
                    // Two chunks per iteration: one 32-byte load (LDP) per column.
                    for _ in 0..steps / 2 {
                        let v: [[int8x16_t; 2]; 4] = core::array::from_fn(|i| {
                            p[i].cast::<[int8x16_t; 2]>().read_unaligned()
                        });
                        for i in 0..4 {
                            p[i] = p[i].add(32);
                            acc16[i] = vpadalq_s8(acc16[i], v[i][0]);
                            acc16[i] = vpadalq_s8(acc16[i], v[i][1]);
                        }
                        store4::<KR>(out, [v[0][0], v[1][0], v[2][0], v[3][0]]);
                        store4::<KR>(out.add(64), [v[0][1], v[1][1], v[2][1], v[3][1]]);
                        out = out.add(128);
                    }
                    if steps % 2 == 1 {
                        let v: [int8x16_t; 4] =
                            core::array::from_fn(|i| p[i].cast::<int8x16_t>().read_unaligned());
                        for i in 0..4 {
                            p[i] = p[i].add(16);
                            acc16[i] = vpadalq_s8(acc16[i], v[i]);
                        }
                        store4::<KR>(out, v);
                        out = out.add(64);
                    }
                    for i in 0..4 {
                        acc32[i] = vpadalq_s16(acc32[i], acc16[i]);
                    }
                }
                // Chunks reaching past k: the values below k, then zeros.
                for c in full..g.k_int / 16 {
                    let start = (16 * c).min(g.k);
                    let len = (g.k - start).min(16);
                    let v: [int8x16_t; 4] = core::array::from_fn(|i| {
                        let mut b = [0i8; 16];
                        core::ptr::copy_nonoverlapping(rows[i].add(start), b.as_mut_ptr(), len);
                        core::mem::transmute::<[i8; 16], int8x16_t>(b)
                    });
                    for i in 0..4 {
                        acc32[i] = vpadalq_s16(acc32[i], vpaddlq_s8(v[i]));
                    }
                    store4::<KR>(out, v);
                    out = out.add(64);
                }
                for (col, acc) in acc32.into_iter().enumerate() {
                    g.trailer(a, dst, col, g.channel(group, col), vaddvq_s32(acc));
                }
            }
        }
        groups
    }

    /// `ST4` of 4 registers holding 16 values of 4 columns: `KR`-byte elements interleaved.
    ///
    /// # Safety
    /// `out` writable for 64 bytes.
    #[inline(always)]
    unsafe fn store4<const KR: usize>(out: *mut u8, v: [int8x16_t; 4]) {
        // SAFETY: ST4 writes 64 bytes and needs no alignment.
        unsafe {
            if KR == 4 {
                vst4q_s32(
                    out.cast(),
                    int32x4x4_t(
                        vreinterpretq_s32_s8(v[0]),
                        vreinterpretq_s32_s8(v[1]),
                        vreinterpretq_s32_s8(v[2]),
                        vreinterpretq_s32_s8(v[3]),
                    ),
                );
            } else {
                vst4q_s64(
                    out.cast(),
                    int64x2x4_t(
                        vreinterpretq_s64_s8(v[0]),
                        vreinterpretq_s64_s8(v[1]),
                        vreinterpretq_s64_s8(v[2]),
                        vreinterpretq_s64_s8(v[3]),
                    ),
                );
            }
        }
    }

    /// Kxn in strips of 16 columns (4 whole groups): per block, `KR` row loads of 16 columns,
    /// a `ZIP1`/`ZIP2` transpose into each group's `4 * KR` bytes, one store per 16 bytes.
    /// Returns the first group of the columns left (fewer than 16, or the padded last group).
    ///
    /// # Safety
    /// As for [`super::run`], with `nr == 4`.
    unsafe fn kxn<const KR: usize>(g: &Geometry, a: &Args) -> usize {
        let strips = g.n / 16;
        let full = g.k / KR;
        for strip in 0..strips {
            // SAFETY: the four groups lie in the packed buffer; loads read rows below k and
            // columns 16 * strip .. + 16 <= n.
            unsafe {
                let dst = a.rhs_packed.add(4 * strip * g.stride);
                let mut s = Strip::<KR> {
                    out: core::array::from_fn(|j| dst.add(j * g.stride)),
                    acc16: [vdupq_n_s16(0); 8],
                    acc32: [vdupq_n_s32(0); 4],
                };
                // Blocks of KR rows below k, stepping one pointer down the rows.
                let mut p = a.rhs.add(16 * strip);
                let mut left = full;
                while left > 0 {
                    let steps = left.min(STRIP);
                    left -= steps;
                    for _ in 0..steps {
                        let r = load_rows::<KR>(&mut p, g.n);
                        s.block(r);
                    }
                    s.flush();
                }
                // The blocks reaching past k (at most 32 / KR + 1): rows below k, then zeros.
                for b in full..g.k_int / KR {
                    let mut r = [vdupq_n_s8(0); 8];
                    for (j, rj) in r.iter_mut().enumerate().take(KR) {
                        if b * KR + j < g.k {
                            let row = a.rhs.add((b * KR + j) * g.n + 16 * strip);
                            *rj = row.cast::<int8x16_t>().read_unaligned();
                        }
                    }
                    s.block(r);
                }
                s.flush();
                for (j, acc) in s.acc32.into_iter().enumerate() {
                    let group = 4 * strip + j;
                    let sums: [i32; 4] = core::mem::transmute(acc);
                    for (col, sum) in sums.into_iter().enumerate() {
                        g.trailer(a, dst.add(j * g.stride), col, group * 4 + col, sum);
                    }
                }
            }
        }
        4 * strips
    }

    /// Loads 16 bytes from each of `KR` rows `n` bytes apart from `*p` and steps `*p` past
    /// them: `LD1` with a register post-increment, one instruction per row (LLVM computes each
    /// row's address with an extra `ADD` instead).
    ///
    /// # Safety
    /// The `KR` rows are readable for 16 bytes; `*p + KR * n` stays in (or one past) the
    /// source.
    #[inline(always)]
    unsafe fn load_rows<const KR: usize>(p: &mut *const i8, n: usize) -> [int8x16_t; 8] {
        // SAFETY: NEON is baseline on AArch64.
        let mut r = [unsafe { vdupq_n_s8(0) }; 8];
        for rj in r.iter_mut().take(KR) {
            // SAFETY: reads 16 readable bytes at *p, then adds n to it.
            unsafe {
                asm!(
                    "ld1 {{{v:v}.16b}}, [{p}], {n}",
                    v = lateout(vreg) *rj,
                    p = inout(reg) *p,
                    n = in(reg) n,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
        }
        r
    }

    /// The state of a 16-column Kxn strip: the 4 groups' write pointers and column sums.
    struct Strip<const KR: usize> {
        out: [*mut u8; 4],
        /// 16-bit sums of the transposed registers (`KR / 4` per group).
        acc16: [int16x8_t; 8],
        /// Group `j`'s 4 column sums.
        acc32: [int32x4_t; 4],
    }

    impl<const KR: usize> Strip<KR> {
        /// Transposes, stores and sums one block of `KR` rows (rows `KR..` of `r` unused).
        ///
        /// # Safety
        /// Each group has `4 * KR` writable bytes left at its pointer.
        #[inline(always)]
        unsafe fn block(&mut self, r: [int8x16_t; 8]) {
            let t = transpose::<KR>(r);
            // SAFETY: forwarded.
            unsafe {
                for j in 0..4 {
                    if KR == 4 {
                        self.acc16[j] = vpadalq_s8(self.acc16[j], t[j]);
                        self.out[j].cast::<int8x16_t>().write_unaligned(t[j]);
                        self.out[j] = self.out[j].add(16);
                    } else {
                        self.acc16[2 * j] = vpadalq_s8(self.acc16[2 * j], t[2 * j]);
                        self.acc16[2 * j + 1] = vpadalq_s8(self.acc16[2 * j + 1], t[2 * j + 1]);
                        self.out[j]
                            .cast::<[int8x16_t; 2]>()
                            .write_unaligned([t[2 * j], t[2 * j + 1]]);
                        self.out[j] = self.out[j].add(32);
                    }
                }
            }
        }

        /// Widens the 16-bit sums into the 32-bit column sums and clears them (at most
        /// [`STRIP`] blocks after the previous flush).
        #[inline(always)]
        fn flush(&mut self) {
            // SAFETY: NEON is baseline on AArch64; register operations only.
            unsafe {
                for j in 0..4 {
                    self.acc32[j] = if KR == 4 {
                        vpadalq_s16(self.acc32[j], self.acc16[j])
                    } else {
                        // Lanes 0..4 / 4..8 of a register are its two columns.
                        let pair = vpaddq_s32(
                            vpaddlq_s16(self.acc16[2 * j]),
                            vpaddlq_s16(self.acc16[2 * j + 1]),
                        );
                        vaddq_s32(self.acc32[j], pair)
                    };
                }
                self.acc16 = [vdupq_n_s16(0); 8];
            }
        }
    }

    /// Transposes `KR` rows of 16 columns into the 4 groups' blocks: `KR == 4`, register `j`
    /// is group `j` (`[col][k]` 4 x 4); `KR == 8`, registers `2j`, `2j + 1` are group `j`
    /// `[col][k]` 4 x 8.
    #[inline(always)]
    fn transpose<const KR: usize>(r: [int8x16_t; 8]) -> [int8x16_t; 8] {
        // SAFETY: NEON is baseline on AArch64; only register operations.
        unsafe {
            // Byte pairs (k 2i, 2i + 1) per column: low = columns 0..8, high = 8..16.
            let z = |x: int8x16_t, y: int8x16_t| {
                (
                    vreinterpretq_s16_s8(vzip1q_s8(x, y)),
                    vreinterpretq_s16_s8(vzip2q_s8(x, y)),
                )
            };
            let (p01l, p01h) = z(r[0], r[1]);
            let (p23l, p23h) = z(r[2], r[3]);
            // 4-byte words (k 0..4) per column, 4 columns per register.
            let w = |x: int16x8_t, y: int16x8_t| {
                (
                    vreinterpretq_s32_s16(vzip1q_s16(x, y)),
                    vreinterpretq_s32_s16(vzip2q_s16(x, y)),
                )
            };
            let (a0, a1) = w(p01l, p23l);
            let (a2, a3) = w(p01h, p23h);
            if KR == 4 {
                let s = vreinterpretq_s8_s32;
                return [s(a0), s(a1), s(a2), s(a3), r[4], r[5], r[6], r[7]];
            }
            let (p45l, p45h) = z(r[4], r[5]);
            let (p67l, p67h) = z(r[6], r[7]);
            let (b0, b1) = w(p45l, p67l);
            let (b2, b3) = w(p45h, p67h);
            // Words k 0..4 and k 4..8 of a column side by side.
            let d = |x: int32x4_t, y: int32x4_t| {
                (
                    vreinterpretq_s8_s32(vzip1q_s32(x, y)),
                    vreinterpretq_s8_s32(vzip2q_s32(x, y)),
                )
            };
            let (g0a, g0b) = d(a0, b0);
            let (g1a, g1b) = d(a1, b1);
            let (g2a, g2b) = d(a2, b2);
            let (g3a, g3b) = d(a3, b3);
            [g0a, g0b, g1a, g1b, g2a, g2b, g3a, g3b]
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    rhs_pack_nxk_qsi8cxp_qsi8cx_neon: Rhs(Qsi8cxp(Source::Nxk));
    rhs_pack_kxn_qsi8cxp_qsi8cx_neon: Rhs(Qsi8cxp(Source::Kxn));
}
