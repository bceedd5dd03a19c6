//! The generic-interface u8 GEMMs: `kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa`
//! (int32 output) and `kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa`
//! (f32 output): one core, `gemm` in asm (aarch64) and [`gemm_portable`] in scalar code, for
//! both. The int8-output GEMM ([`super::qai8_mopa`]) runs the same asm core (`x8_mopa_asm!`)
//! with `SMOPA` and its own bias entry and store.
//!
//! Operands: the LHS packed by `matmul_pack_lhs_mxk_x8p4vsx4_x8_sme` (blocks of `mr` = SVL32
//! rows, `lhs.stride.m` bytes apart; per step of four K values each row's four bytes), the RHS by
//! `matmul_pack_rhs_{kxn,nxk}_x8p4vsx4_x8_sme` (the same format over columns, blocks
//! `rhs.stride.n` bytes apart). Every output is the exact int32 sum (wrapping, as `UMOPA`
//! accumulates) of its row's bias `acc_bias_m[i]`, its column's bias `acc_bias_n[j]` and the
//! `k` unsigned byte products. Integer sums do not depend on their order, so the tiling is free:
//! rkai's asm walks tiles of 2 x SVL32 rows by 2 x SVL32 columns (`8vsx8vs`, four ZA tiles: the
//! rows of two LHS blocks by the columns of two RHS blocks; where the second block is missing
//! the tile reads the first one again and stores only what lies inside `m` x `n`), four K steps
//! per loop iteration with SME2's four-vector loads, then one at a time.
//!
//! The f32 kernel then computes, per output, KleidiAI's finish in its order: the sum converted
//! to f32 (`SCVTF`, ties to even), one fused multiply-add with the global scale and the column's
//! f32 bias (`FMAD`: `bias[j] + float(sum) * scale`, Arm's NaN rules, [`float::fmla`]), clamped as
//! `FCLAMP` does ([`float::clamp_num`]) to the bounds read as 32-bit values at
//! `activation.clamp` with `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP`, else to `-FLT_MAX..FLT_MAX`, as
//! KleidiAI's does (so an infinity becomes `±FLT_MAX` and a quiet NaN `-FLT_MAX`).
//!
//! Where KleidiAI's behaviour is outside its contract rkai differs: a null `acc_bias_m` or
//! `acc_bias_n` adds zeros (KleidiAI reads through it). Without SME2 the portable path gives the
//! same results with the blocks of a 128-bit streaming length.

use crate::float;

/// Bytes per packed step of one row or column (four u8 K values).
const KR: usize = 4;

/// What the core computes after the integer sums.
#[derive(Clone, Copy, Debug)]
pub enum Finish {
    /// Store the int32 sums.
    I32,
    /// `bias[j] + float(sum) * scale`, clamped to `lo..hi`, stored as f32: (scale, column
    /// biases (n floats), lo, hi).
    F32 {
        /// The global scale (`acc_scale_global`).
        scale: f32,
        /// `n` f32 column biases (`scale_bias_n`).
        bias: *const f32,
        /// Lower bound.
        lo: f32,
        /// Upper bound.
        hi: f32,
    },
}

/// One call of the core.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// K values.
    pub k: usize,
    /// First LHS block.
    pub lhs: *const u8,
    /// Bytes from one LHS block to the next.
    pub lhs_stride: usize,
    /// First RHS block.
    pub rhs: *const u8,
    /// Bytes from one RHS block to the next.
    pub rhs_stride: usize,
    /// Destination (int32 or f32 by [`Finish`]).
    pub dst: *mut u8,
    /// Bytes from one destination row to the next.
    pub dst_stride: usize,
    /// `m` int32 row biases, or null for zeros.
    pub bias_m: *const i32,
    /// `n` int32 column biases, or null for zeros.
    pub bias_n: *const i32,
    /// The finish.
    pub finish: Finish,
}

/// The core in scalar code, the same results as the asm, with blocks of `mr` = `nr` = `lanes`
/// rows or columns.
///
/// # Safety
/// `c.m` and `c.n` are at least 1; `ceil(m / lanes)` LHS blocks and `ceil(n / lanes)` RHS blocks
/// of `lanes * roundup(k, 4)` bytes at their strides; the biases hold `m` / `n` values where
/// non-null; `m` destination rows of `n` values writable, overlapping no input.
pub unsafe fn gemm_portable(c: &Call, lanes: usize) {
    let steps = c.k.div_ceil(KR);
    for i in 0..c.m {
        let lhs = c
            .lhs
            .wrapping_add((i / lanes) * c.lhs_stride + (i % lanes) * KR);
        for j in 0..c.n {
            let rhs = c
                .rhs
                .wrapping_add((j / lanes) * c.rhs_stride + (j % lanes) * KR);
            // SAFETY: the biases hold m and n values where non-null.
            let mut acc = unsafe {
                let bm = if c.bias_m.is_null() {
                    0
                } else {
                    c.bias_m.add(i).read_unaligned()
                };
                let bn = if c.bias_n.is_null() {
                    0
                } else {
                    c.bias_n.add(j).read_unaligned()
                };
                bm.wrapping_add(bn)
            };
            for s in 0..steps {
                for b in 0..KR {
                    // SAFETY: step s of row i and of column j lie in their blocks.
                    let (x, w) = unsafe {
                        (
                            lhs.add(s * lanes * KR + b).read(),
                            rhs.add(s * lanes * KR + b).read(),
                        )
                    };
                    acc = acc.wrapping_add((u32::from(x) * u32::from(w)) as i32);
                }
            }
            let out = c.dst.wrapping_add(i * c.dst_stride + j * 4);
            // SAFETY: output (i, j) is writable; the column bias holds n floats.
            unsafe {
                match c.finish {
                    Finish::I32 => out.cast::<i32>().write_unaligned(acc),
                    Finish::F32 {
                        scale,
                        bias,
                        lo,
                        hi,
                    } => {
                        let v = float::fmla(bias.add(j).read_unaligned(), acc as f32, scale);
                        out.cast::<f32>()
                            .write_unaligned(float::clamp_num(v, lo, hi));
                    }
                }
            }
        }
    }
}

/// The asm's argument block (`x0` points at it; byte offsets in the asm): the core's fields
/// (0..72), then each finish's.
#[cfg(target_arch = "aarch64")]
#[repr(C)]
pub(super) struct Params {
    pub m: usize,           // 0
    pub n: usize,           // 8
    pub steps: usize,       // 16
    pub lhs: *const u8,     // 24
    pub lhs_stride: usize,  // 32
    pub rhs: *const u8,     // 40
    pub rhs_stride: usize,  // 48
    pub dst: *mut u8,       // 56
    pub dst_stride: usize,  // 64
    pub bias_m: *const i32, // 72
    pub bias_n: *const i32, // 80
    pub float: usize,       // 88: 0 for int32 output
    pub consts: *const f32, // 96: scale, lo, hi
    pub fbias: *const f32,  // 104
    pub quant: *const i32,  // 112: int8 output's lower and upper bounds, output zero point
}

/// One half of a tile's output rows: slices `w12` of ZA tiles `$ta` (columns 0..SVL32) and `$tb`
/// (the next ones), x23 rows, to x20 on (x6 apart); f32 output (x26 non-zero) converted, scaled,
/// biased and clamped first. `$row`, `$int` are the half's local labels.
#[cfg(target_arch = "aarch64")]
macro_rules! u8_rows {
    ($ta:literal, $tb:literal, $row:literal, $int:literal) => {
        concat!(
            "mov w12, #0\n",
            $row,
            ":\n",
            "mova z16.s, p0/m, ",
            $ta,
            ".s[w12, 0]\n",
            "mova z17.s, p0/m, ",
            $tb,
            ".s[w12, 0]\n",
            "cbz x26, ",
            $int,
            "f\n",
            "scvtf z16.s, p0/m, z16.s\n",
            "scvtf z17.s, p0/m, z17.s\n",
            "fmad z16.s, p0/m, z23.s, z28.s\n",
            "fmad z17.s, p0/m, z23.s, z29.s\n",
            "fclamp {{z16.s-z17.s}}, z30.s, z31.s\n",
            $int,
            ":\n",
            "st1w {{z16.s}}, p2, [x20]\n",
            "st1w {{z17.s}}, p3, [x20, #1, mul vl]\n",
            "add x20, x20, x6\n",
            "add w12, w12, #1\n",
            "cmp x12, x23\n",
            "b.lt ",
            $row,
            "b",
        )
    };
}

/// One K step of the tile: LHS vectors `$a` (rows of za0/za1), `$b` (za2/za3), RHS `$c`
/// (columns of za0/za2), `$d` (za1/za3), multiplied by `$mopa` (`umopa` or `smopa`).
#[cfg(target_arch = "aarch64")]
macro_rules! x8_step {
    ($mopa:literal, $a:literal, $b:literal, $c:literal, $d:literal) => {
        concat!(
            $mopa, " za0.s, p0/m, p0/m, z", $a, ".b, z", $c, ".b\n",
            $mopa, " za1.s, p0/m, p0/m, z", $a, ".b, z", $d, ".b\n",
            $mopa, " za2.s, p0/m, p0/m, z", $b, ".b, z", $c, ".b\n",
            $mopa, " za3.s, p0/m, p0/m, z", $b, ".b, z", $d, ".b\n",
        )
    };
}

/// The 8vs x 8vs tile walk of the 8-bit GEMMs, one asm block around three pieces of a kernel's
/// own: `setup` (once, after the core's registers), `bias` (per tile, ZA zeroed, before the K
/// loop; the RHS read pointers x15/x16 at each block's start, which it may move past a bias
/// header) and `finish` (per tile, after the K loop, x15/x16 past each block's K steps; stores
/// rows x8.. below m (x1) and columns x9.. below n (x2) from za0/za1 (first LHS block) and
/// za2/za3 (second)). The core uses labels 2, 3 and 6 to 9; the pieces may use any other.
///
/// Registers: x0 [`Params`], x1 m, x2 n, x3 K steps, x4 LHS block stride, x5 RHS block stride,
/// x6 dst row stride, x7 SVL32, x8 the tile's first row, x9 its first column, x10/x14 the two
/// LHS blocks (x14 = x10 where the second lies past m), x11 the first RHS block, x13/x15/x16
/// the read pointers (x16 the second RHS block, x11 again past n), x17 the K count; z0-z15 the
/// K steps; p0 and pn8 all true, p2/p3 the columns' and p4/p5 the rows' predicates (32-bit).
/// A kernel's pieces may use x12, x15-x17, x20-x27, z16-z31 and p1-p3 as they like.
#[cfg(target_arch = "aarch64")]
macro_rules! x8_mopa_asm {
    ($mopa:literal; $p:expr; setup [$($setup:expr),*]; bias [$($bias:expr),*];
     finish [$($finish:expr),*]) => {
        streaming_asm!("sme2";
            "ldr x1, [x0]",
            "ldr x2, [x0, #8]",
            "ldr x3, [x0, #16]",
            "ldr x10, [x0, #24]",
            "ldr x4, [x0, #32]",
            "ldr x5, [x0, #48]",
            "ldr x6, [x0, #64]",
            "cntw x7",
            "ptrue p0.b",
            "ptrue pn8.b",
            $($setup,)*
            "mov x8, #0",
            // ---- M loop: rows x8.., LHS blocks x10 and x14 ----
            "2:",
            "ldr x11, [x0, #40]",
            "mov x9, #0",
            "add x22, x8, x7",
            "whilelt p4.s, x8, x1",
            "whilelt p5.s, x22, x1",
            // ---- N loop: columns x9.., RHS blocks x11 and x16 (x11 again past n) ----
            "3:",
            "zero {{za}}",
            "add x22, x8, x7",
            "cmp x22, x1",
            "add x14, x10, x4",
            "csel x14, x14, x10, lo",
            "add x21, x9, x7",
            "cmp x21, x2",
            "add x16, x11, x5",
            "csel x16, x16, x11, lo",
            "whilelt p2.s, x9, x2",
            "whilelt p3.s, x21, x2",
            "mov x13, x10",
            "mov x15, x11",
            $($bias,)*
            // ---- K loop: four steps per iteration, then one at a time ----
            "lsr x17, x3, #2",
            "cbz x17, 7f",
            "6:",
            "ld1b {{z0.b-z3.b}}, pn8/z, [x13]",
            "ld1b {{z4.b-z7.b}}, pn8/z, [x14]",
            "ld1b {{z8.b-z11.b}}, pn8/z, [x15]",
            "ld1b {{z12.b-z15.b}}, pn8/z, [x16]",
            "addvl x13, x13, #4",
            "addvl x14, x14, #4",
            "addvl x15, x15, #4",
            "addvl x16, x16, #4",
            x8_step!($mopa, "0", "4", "8", "12"),
            x8_step!($mopa, "1", "5", "9", "13"),
            x8_step!($mopa, "2", "6", "10", "14"),
            x8_step!($mopa, "3", "7", "11", "15"),
            "subs x17, x17, #1",
            "b.ne 6b",
            "7:",
            "ands x17, x3, #3",
            "b.eq 9f",
            "8:",
            "ld1b {{z0.b}}, p0/z, [x13]",
            "ld1b {{z4.b}}, p0/z, [x14]",
            "ld1b {{z8.b}}, p0/z, [x15]",
            "ld1b {{z12.b}}, p0/z, [x16]",
            "addvl x13, x13, #1",
            "addvl x14, x14, #1",
            "addvl x15, x15, #1",
            "addvl x16, x16, #1",
            x8_step!($mopa, "0", "4", "8", "12"),
            "subs x17, x17, #1",
            "b.ne 8b",
            "9:",
            $($finish,)*
            "add x9, x9, x7, lsl #1",
            "add x11, x11, x5, lsl #1",
            "cmp x9, x2",
            "b.lo 3b",
            "add x8, x8, x7, lsl #1",
            "add x10, x10, x4, lsl #1",
            "cmp x8, x1",
            "b.lo 2b";
            in("x0") $p,
            out("x1") _, out("x2") _, out("x3") _, out("x4") _, out("x5") _, out("x6") _,
            out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _, out("x12") _,
            out("x13") _, out("x14") _, out("x15") _, out("x16") _, out("x17") _,
            out("x20") _, out("x21") _, out("x22") _, out("x23") _, out("x24") _,
            out("x25") _, out("x26") _, out("x27") _,
        )
    };
}

/// The core in SME2 asm (see the module documentation).
///
/// # Safety
/// The CPU implements SME2; the arguments as for [`gemm_portable`] at the streaming length
/// (`lanes` = SVL32); a pending lazy ZA save follows the AAPCS64 SME ABI.
#[cfg(target_arch = "aarch64")]
pub unsafe fn gemm(c: &Call) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let (float, consts, fbias) = match c.finish {
        Finish::I32 => (0, [0.0; 3], core::ptr::null()),
        Finish::F32 {
            scale,
            bias,
            lo,
            hi,
        } => (1, [scale, lo, hi], bias),
    };
    let p = Params {
        m: c.m,
        n: c.n,
        steps: c.k.div_ceil(KR),
        lhs: c.lhs,
        lhs_stride: c.lhs_stride,
        rhs: c.rhs,
        rhs_stride: c.rhs_stride,
        dst: c.dst,
        dst_stride: c.dst_stride,
        bias_m: c.bias_m,
        bias_n: c.bias_n,
        float,
        consts: consts.as_ptr(),
        fbias,
        quant: core::ptr::null(),
    };
    // SAFETY: the caller guarantees SME2 and the buffers: each tile reads whole LHS and RHS
    // blocks that exist (a missing second block is replaced by the first), biases under
    // predicates below m / n, and stores under predicates inside m x n. Only the declared
    // registers change; streaming mode starts and ends in the block.
    unsafe {
        x8_mopa_asm!("umopa"; &p;
            setup [
                "ldr x26, [x0, #88]",
                "cbz x26, 1f",
                "ldr x21, [x0, #96]",
                "ld1rw {{z23.s}}, p0/z, [x21]",
                "ld1rw {{z30.s}}, p0/z, [x21, #4]",
                "ld1rw {{z31.s}}, p0/z, [x21, #8]",
                "1:"
            ];
            // The row biases down each column, the column biases along each row.
            bias [
                "ldr x24, [x0, #72]",
                "cbz x24, 4f",
                "add x24, x24, x8, lsl #2",
                "ld1w {{z24.s}}, p4/z, [x24]",
                "ld1w {{z25.s}}, p5/z, [x24, x7, lsl #2]",
                "addva za0.s, p0/m, p0/m, z24.s",
                "addva za1.s, p0/m, p0/m, z24.s",
                "addva za2.s, p0/m, p0/m, z25.s",
                "addva za3.s, p0/m, p0/m, z25.s",
                "4:",
                "ldr x25, [x0, #80]",
                "cbz x25, 5f",
                "add x25, x25, x9, lsl #2",
                "ld1w {{z26.s}}, p2/z, [x25]",
                "ld1w {{z27.s}}, p3/z, [x25, x7, lsl #2]",
                "addha za0.s, p0/m, p0/m, z26.s",
                "addha za1.s, p0/m, p0/m, z27.s",
                "addha za2.s, p0/m, p0/m, z26.s",
                "addha za3.s, p0/m, p0/m, z27.s",
                "5:"
            ];
            // f32 output reads its column biases first.
            finish [
                "cbz x26, 10f",
                "ldr x27, [x0, #104]",
                "add x27, x27, x9, lsl #2",
                "ld1w {{z28.s}}, p2/z, [x27]",
                "ld1w {{z29.s}}, p3/z, [x27, x7, lsl #2]",
                "10:",
                "ldr x20, [x0, #56]",
                "madd x20, x8, x6, x20",
                "add x20, x20, x9, lsl #2",
                "sub x23, x1, x8",
                "cmp x23, x7",
                "csel x23, x23, x7, lt",
                u8_rows!("za0h", "za1h", "11", "12"),
                "sub x23, x1, x8",
                "subs x23, x23, x7",
                "b.le 15f",
                "cmp x23, x7",
                "csel x23, x23, x7, lt",
                u8_rows!("za2h", "za3h", "13", "14"),
                "15:"
            ]
        );
    }
}

/// The int8-output GEMM (`qai8_mopa`) in SME2 asm: the core with `SMOPA`, each RHS block's
/// `i32` biases added to every row of its tiles (`ADDHA`), and the requantizing store of the
/// family's SME2 GEMM (`float_mopa_kernel!`'s int8 rows: `SCLAMP`, four rows at a time).
///
/// # Safety
/// The CPU implements SME2; `m`, `n` >= 1; `ceil(m / SVL32)` LHS blocks and `ceil(n / SVL32)`
/// RHS blocks (biases, K steps, scales) readable at their strides; `m` destination rows of `n`
/// bytes writable, overlapping no input; a pending lazy ZA save follows the AAPCS64 SME ABI.
/// `quant`: lower bound, upper bound, output zero point.
#[cfg(target_arch = "aarch64")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_qai8(
    (m, n, k): (usize, usize, usize),
    (lhs, lhs_stride): (*const u8, usize),
    (rhs, rhs_stride): (*const u8, usize),
    (dst, dst_stride): (*mut u8, usize),
    quant: [i32; 3],
) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let p = Params {
        m,
        n,
        steps: k.div_ceil(KR),
        lhs,
        lhs_stride,
        rhs,
        rhs_stride,
        dst,
        dst_stride,
        bias_m: core::ptr::null(),
        bias_n: core::ptr::null(),
        float: 0,
        consts: core::ptr::null(),
        fbias: core::ptr::null(),
        quant: quant.as_ptr(),
    };
    // SAFETY: as for `gemm`: whole blocks that exist are read (biases and scales under p0 in
    // their blocks), stores are predicated inside m x n.
    unsafe {
        x8_mopa_asm!("smopa"; &p;
            setup [
                "ldr x21, [x0, #112]",
                "ld1rw {{z30.s}}, p0/z, [x21]",
                "ld1rw {{z31.s}}, p0/z, [x21, #4]",
                "ld1rw {{z26.s}}, p0/z, [x21, #8]"
            ];
            bias [
                "ld1w {{z24.s}}, p0/z, [x15]",
                "ld1w {{z25.s}}, p0/z, [x16]",
                "addvl x15, x15, #1",
                "addvl x16, x16, #1",
                "addha za0.s, p0/m, p0/m, z24.s",
                "addha za1.s, p0/m, p0/m, z25.s",
                "addha za2.s, p0/m, p0/m, z24.s",
                "addha za3.s, p0/m, p0/m, z25.s"
            ];
            // The column scales follow the K steps; rows to x16 on, bytes under p2.h.
            finish [
                "ld1w {{z27.s}}, p0/z, [x15]",
                "ld1w {{z28.s}}, p0/z, [x16]",
                "whilelt p2.h, x9, x2",
                "ldr x16, [x0, #56]",
                "madd x16, x8, x6, x16",
                "add x16, x16, x9",
                "sub x17, x1, x8",
                "cmp x17, x7",
                "csel x15, x17, x7, lt",
                float_mopa_kernel!(@rows "sme2" i8, "za0h", "za1h", "16", "17", "18", "19"),
                "subs x17, x17, x7",
                "b.le 24f",
                "cmp x17, x7",
                "csel x15, x17, x7, lt",
                float_mopa_kernel!(@rows "sme2" i8, "za2h", "za3h", "20", "21", "22", "23"),
                "24:"
            ]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The table's functions for the two kernels (`super` dispatches here by kind)

use crate::arch;
use crate::contract::{self, Violation};
use crate::matmul_types::*;
use core::ffi::c_void;

/// Rows of an LHS block and columns of an RHS block: 4 x vscale = SVL32.
fn lanes() -> usize {
    arch::sme_lanes32()
}

/// Bytes of one packed block of `k` values a row or column.
fn block(k: usize) -> usize {
    lanes().wrapping_mul(k.wrapping_add(KR - 1) / KR * KR)
}

/// `get_lhs_stride`: one packed LHS block.
pub fn lhs_stride(shape: &kai_matmul_uker_lhs_dim_args) -> kai_matmul_uker_lhs_stride_args {
    kai_matmul_uker_lhs_stride_args { m: block(shape.k) }
}

/// `get_lhs_offset` of the start coordinate `index`.
pub fn lhs_offset(
    index: &kai_matmul_uker_lhs_dim_args,
    stride: &kai_matmul_uker_lhs_stride_args,
) -> Result<usize, Violation> {
    contract::require(index.m % lanes() == 0, "index->m % get_mr() == 0")?;
    contract::require(index.k == 0, "index->k == 0")?;
    Ok((index.m / lanes()).wrapping_mul(stride.m))
}

/// `get_rhs_stride`: one packed RHS block.
pub fn rhs_stride(shape: &kai_matmul_uker_rhs_dim_args) -> kai_matmul_uker_rhs_stride_args {
    kai_matmul_uker_rhs_stride_args { n: block(shape.k) }
}

/// `get_rhs_offset` of the start coordinate `index`.
pub fn rhs_offset(
    index: &kai_matmul_uker_rhs_dim_args,
    stride: &kai_matmul_uker_rhs_stride_args,
) -> Result<usize, Violation> {
    contract::require(index.n % lanes() == 0, "index->n % get_nr() == 0")?;
    contract::require(index.k == 0, "index->k == 0")?;
    Ok((index.n / lanes()).wrapping_mul(stride.n))
}

/// `get_dst_offset` of the start coordinate `index` (4-byte outputs).
pub fn dst_offset(
    index: &kai_matmul_uker_dst_dim_args,
    stride: &kai_matmul_uker_dst_stride_args,
) -> Result<usize, Violation> {
    contract::require(index.m % lanes() == 0, "index->m % get_mr() == 0")?;
    contract::require(index.n % lanes() == 0, "index->n % get_nr() == 0")?;
    Ok(index
        .m
        .wrapping_mul(stride.m)
        .wrapping_add(index.n.wrapping_mul(4)))
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the call. `float`: the f32
/// kernel (which accepts the clamp flag and reads its scale, column biases and bounds).
///
/// # Safety
/// With `float`, the non-null scale and bound pointers point to readable 32-bit values.
pub unsafe fn check(args: &kai_matmul_uker_args, float: bool) -> Result<Call, Violation> {
    let clamp_flag = super::FLAG_CLAMP;
    let supported = if float { clamp_flag } else { 0 };
    contract::require(
        args.flags & !supported == 0,
        "Only supported flags are accepted!",
    )?;
    let o = &args.operand;
    contract::require(!o.lhs.ptr.is_null(), "run_args->operand.lhs.ptr != NULL")?;
    contract::require(!o.rhs.ptr.is_null(), "run_args->operand.rhs.ptr != NULL")?;
    contract::require(!o.dst.ptr.is_null(), "run_args->operand.dst.ptr != NULL")?;
    let finish = if float {
        let scale = o.scale.acc_scale_global.ptr.cast::<u32>();
        let bias = o.bias.scale_bias_n.ptr.cast::<f32>();
        contract::require(
            !scale.is_null(),
            "run_args->operand.scale.acc_scale_global.ptr != NULL",
        )?;
        contract::require(
            !bias.is_null(),
            "run_args->operand.bias.scale_bias_n.ptr != NULL",
        )?;
        let clamp = args.flags & clamp_flag != 0;
        let c = &args.activation.clamp;
        contract::require(
            !clamp || !c.min_ptr.is_null(),
            "!enable_clamp || run_args->activation.clamp.min_ptr != NULL",
        )?;
        contract::require(
            !clamp || !c.max_ptr.is_null(),
            "!enable_clamp || run_args->activation.clamp.max_ptr != NULL",
        )?;
        // SAFETY: the caller's contract; read as the 32-bit words KleidiAI reads.
        let read = |p: *const c_void| f32::from_bits(unsafe { p.cast::<u32>().read_unaligned() });
        let (lo, hi) = match clamp {
            true => (read(c.min_ptr), read(c.max_ptr)),
            false => (-f32::MAX, f32::MAX),
        };
        Finish::F32 {
            scale: read(scale.cast()),
            bias,
            lo,
            hi,
        }
    } else {
        Finish::I32
    };
    Ok(Call {
        m: args.shape.m,
        n: args.shape.n,
        k: args.shape.k,
        lhs: o.lhs.ptr.cast(),
        lhs_stride: o.lhs.stride.m,
        rhs: o.rhs.ptr.cast(),
        rhs_stride: o.rhs.stride.n,
        dst: o.dst.ptr.cast(),
        dst_stride: o.dst.stride.m,
        bias_m: o.bias.acc_bias_m.ptr.cast(),
        bias_n: o.bias.acc_bias_n.ptr.cast(),
        finish,
    })
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has SME2.
///
/// # Safety
/// `args` satisfies KleidiAI's contract (see [`gemm_portable`], at the caller's strides); a
/// pending lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(args: &kai_matmul_uker_args, float: bool) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { check(args, float) }?;
    if c.m == 0 || c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { gemm(&c) };
        return Ok(());
    }
    // SAFETY: the caller's contract, at the blocks of this CPU's (or the 128-bit) length.
    unsafe { gemm_portable(&c, lanes()) };
    Ok(())
}
