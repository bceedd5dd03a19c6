//! `matmul_clamp_fp32_bf16p_bf16p`: KleidiAI's SME bf16 GEMMs. f32 output = bf16 LHS x bf16 RHS
//! (both packed in streaming-length tiles) + f32 bias, clamped. KleidiAI keeps them in a directory
//! of their own (`fp32`), whose interface header is nevertheless named
//! `kai_matmul_clamp_f32_bf16p_bf16p_interface.h` and declares the same struct as the NEON bf16
//! family's; rkai's includes that family's header. Checks, dispatch and the portable path are the
//! bf16 families' ([`crate::matmul::bf16_gemm`]).
//!
//! # Packed operands
//!
//! With `vl` = SVL32 (32-bit lanes of the streaming vector), `mr = nr = 2 vl`, `kr = 2` and
//! `kp = roundup(k, 2)`:
//! - LHS ([`lhs_pack_bf16p2vlx2_f32_sme`] or `_sme2`, the same bytes): blocks of `mr` rows,
//!   `mr * kp * 2` bytes each: per pair of K values, the pair of each row in turn (one 32-bit
//!   word per row). K and the rows past `m` are padded with zeros.
//! - RHS ([`rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`]): groups of `nr` columns, `nr * (4 + kp * 2)`
//!   bytes each: the `nr` f32 biases, then per pair of K values the pair of each column in turn.
//!   An odd K's last pair takes its second value from the source's first row; columns past `n`
//!   are zeros.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`.
//!
//! # Numerics ([`Accumulation::OuterProducts`])
//!
//! Each `mr` x `nr` tile is four ZA tiles. They are zeroed, then `FMOPA` adds `1.0 x bias` (so a
//! `-0` bias becomes `+0` and a NaN the default NaN, ZA-targeting instructions producing default
//! NaNs; [`za_bias`]); then each pair of K values adds `BFMOPA`'s widening step
//! `acc + (a0 * b0 + a1 * b1)`, pairs in K order. Last the clamp: `FMIN` with `clamp_max`, then
//! `FMAX` with `clamp_min` for the SME kernel (a NaN stays NaN; `clamp_min` wins when the bounds
//! are inverted), SME2's `FCLAMP` (`FMAXNM` with `clamp_min`, then `FMINNM` with `clamp_max`: a
//! quiet NaN becomes a bound) for the SME2 kernel; see [`clamp`].
//!
//! What `BFMOPA` computes depends on FPCR.EBF (FEAT_EBF16). With FPCR.EBF = 0 (the reset value,
//! what Linux gives a process, and the only behaviour without FEAT_EBF16) every product and sum of
//! the step is rounded to odd, subnormal inputs and results are flushed to zero and NaNs are the
//! default NaN: [`crate::float::bf16::dot_step`], which is also what QEMU 11 executes
//! (`is_ebf`: EBF = 0 takes its round-to-odd, flush-to-zero path; checked by this family's tests
//! at every streaming length). Hardware with FPCR.EBF = 1 fuses the two products and rounds to
//! nearest even with FPCR.FZ honoured; the Arm ARM also leaves some intermediate precision of the
//! EBF = 0 pair sum to the implementation. There, last bits may differ from the reference: rkai
//! follows the instruction as KleidiAI does, and its portable path follows QEMU's model.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1` (`k` may be 0: the result is the clamped bias).
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS blocks and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (read whole, rows and columns past `m` and `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer.
//!
//! [`lhs_pack_bf16p2vlx2_f32_sme`]: crate::pack::lhs_pack_bf16::lhs_pack_bf16p2vlx2_f32_sme
//! [`rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`]: crate::pack::rhs_pack_bf16::rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme
//! [`Accumulation::OuterProducts`]: crate::matmul::bf16_gemm::Accumulation::OuterProducts
//! [`za_bias`]: crate::matmul::bf16_gemm::za_bias
//! [`clamp`]: crate::matmul::bf16_gemm::clamp

/// One SME bf16 GEMM kernel: `$ext` the assembler extension (`sme` or `sme2`), `$load` the asm
/// loading two pairs of K values (LHS into z0-z3, RHS into z4-z7, one vector each in that order),
/// `$setup` what `$load` needs set once (the SME2 kernel: the predicate-as-counter pn8, all true)
/// and `$clamp` the asm clamping z4 and z5 between z30 (`clamp_min`) and z31 (`clamp_max`).
///
/// Registers: x0 m, x1 n, x2 pairs of K, x3 the LHS block, x4 the first RHS group, x5 dst, x6 the
/// row stride, x7 SVL32, x8 2 x SVL32 (the tile), x9 the RHS read pointer, x10 the tile's first
/// row, x11 its first column, w12 the ZA slice, x13 the LHS read pointer, x14 the K count, x15
/// and x17 row counts, x16 the destination row; z29 ones, z28/z27 biases, z0-z3 LHS, z4-z7 RHS,
/// p0 and pn8 all true, p2/p3 the tile's two column halves.
#[cfg(target_arch = "aarch64")]
macro_rules! bf16_mopa_kernel {
    ($(#[$doc:meta])* fn $name:ident; $ext:literal; setup [$($setup:literal),* $(,)?];
        load [$($load:literal),+ $(,)?]; clamp [$($clamp:literal),+ $(,)?]) => {
        streaming_kernel! {
            $(#[$doc])*
            fn $name(
                m, n, k, lhs_packed, rhs_packed, dst: f32, dst_stride_row, clamp_min, clamp_max,
            ) {
                // SAFETY: the caller guarantees (see `# Safety`) the kernel's ISA and that the
                // packed buffers cover the blocks and groups read here, whole; stores are
                // predicated to the n columns of each of the m rows. Only the declared registers
                // change; streaming mode starts and ends in the block.
                unsafe {
                    streaming_asm!($ext;
                        "cntw x7",
                        "lsl x8, x7, #1",
                        "add x2, x2, #1",
                        "lsr x2, x2, #1",
                        "ptrue p0.b",
                        $($setup,)*
                        "fmov z29.s, #1.0",
                        "dup z30.s, {lo:w}",
                        "dup z31.s, {hi:w}",
                        "mov x10, #0",
                        // ---- M loop: one block of 2 x SVL32 rows ----
                        "1:",
                        "mov x9, x4",
                        "mov x11, #0",
                        // ---- N loop: one group of 2 x SVL32 columns ----
                        "2:",
                        "zero {{za}}",
                        "ld1w {{z28.s}}, p0/z, [x9]",
                        "ld1w {{z27.s}}, p0/z, [x9, #1, mul vl]",
                        "addvl x9, x9, #2",
                        "fmopa za0.s, p0/m, p0/m, z29.s, z28.s",
                        "fmopa za1.s, p0/m, p0/m, z29.s, z27.s",
                        "fmopa za2.s, p0/m, p0/m, z29.s, z28.s",
                        "fmopa za3.s, p0/m, p0/m, z29.s, z27.s",
                        "mov x13, x3",
                        "lsr x14, x2, #1",
                        "cbz x14, 8f",
                        // ---- K loop: two pairs of K values, in K order per tile ----
                        "3:",
                        $($load,)+
                        "addvl x13, x13, #4",
                        "addvl x9, x9, #4",
                        "bfmopa za0.s, p0/m, p0/m, z0.h, z4.h",
                        "bfmopa za1.s, p0/m, p0/m, z0.h, z5.h",
                        "bfmopa za2.s, p0/m, p0/m, z1.h, z4.h",
                        "bfmopa za3.s, p0/m, p0/m, z1.h, z5.h",
                        "bfmopa za0.s, p0/m, p0/m, z2.h, z6.h",
                        "bfmopa za1.s, p0/m, p0/m, z2.h, z7.h",
                        "bfmopa za2.s, p0/m, p0/m, z3.h, z6.h",
                        "bfmopa za3.s, p0/m, p0/m, z3.h, z7.h",
                        "subs x14, x14, #1",
                        "b.ne 3b",
                        // ---- An odd number of pairs: the last one ----
                        "8:",
                        "tbz x2, #0, 4f",
                        "ld1h {{z0.h}}, p0/z, [x13]",
                        "ld1h {{z1.h}}, p0/z, [x13, #1, mul vl]",
                        "ld1h {{z4.h}}, p0/z, [x9]",
                        "ld1h {{z5.h}}, p0/z, [x9, #1, mul vl]",
                        "addvl x13, x13, #2",
                        "addvl x9, x9, #2",
                        "bfmopa za0.s, p0/m, p0/m, z0.h, z4.h",
                        "bfmopa za1.s, p0/m, p0/m, z0.h, z5.h",
                        "bfmopa za2.s, p0/m, p0/m, z1.h, z4.h",
                        "bfmopa za3.s, p0/m, p0/m, z1.h, z5.h",
                        // ---- Store: the rows of za0/za1, then of za2/za3 ----
                        "4:",
                        "sub x15, x1, x11",
                        "whilelt p2.s, xzr, x15",
                        "whilelt p3.s, x7, x15",
                        "madd x16, x10, x6, x5",
                        "add x16, x16, x11, lsl #2",
                        "sub x17, x0, x10",
                        "cmp x17, x7",
                        "csel x15, x17, x7, lt",
                        "mov w12, #0",
                        "5:",
                        "mova z4.s, p0/m, za0h.s[w12, 0]",
                        "mova z5.s, p0/m, za1h.s[w12, 0]",
                        $($clamp,)+
                        "st1w {{z4.s}}, p2, [x16]",
                        "st1w {{z5.s}}, p3, [x16, #1, mul vl]",
                        "add x16, x16, x6",
                        "add w12, w12, #1",
                        "cmp x12, x15",
                        "b.lt 5b",
                        "subs x17, x17, x7",
                        "b.le 7f",
                        "cmp x17, x7",
                        "csel x15, x17, x7, lt",
                        "mov w12, #0",
                        "6:",
                        "mova z4.s, p0/m, za2h.s[w12, 0]",
                        "mova z5.s, p0/m, za3h.s[w12, 0]",
                        $($clamp,)+
                        "st1w {{z4.s}}, p2, [x16]",
                        "st1w {{z5.s}}, p3, [x16, #1, mul vl]",
                        "add x16, x16, x6",
                        "add w12, w12, #1",
                        "cmp x12, x15",
                        "b.lt 6b",
                        "7:",
                        "add x11, x11, x8",
                        "cmp x11, x1",
                        "b.lo 2b",
                        // The next LHS block follows this one's last pair.
                        "mov x3, x13",
                        "add x10, x10, x8",
                        "cmp x10, x0",
                        "b.lo 1b";
                        inout("x0") m => _,
                        inout("x1") n => _,
                        inout("x2") k => _,
                        inout("x3") lhs_packed => _,
                        inout("x4") rhs_packed => _,
                        inout("x5") dst => _,
                        inout("x6") dst_stride_row => _,
                        lo = in(reg) clamp_min.to_bits(),
                        hi = in(reg) clamp_max.to_bits(),
                        out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _,
                        out("x12") _, out("x13") _, out("x14") _, out("x15") _, out("x16") _,
                        out("x17") _,
                    );
                }
            }
        }
    };
}

asm_kernel_modules! {
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa,
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa,
}

pub use super::args::PackedArgs as Args;

// ---------------------------------------------------------------------------------------------
// Kernel entries: the packers each kernel pairs with, and the kernels

use crate::kernel::{Asserts, Epilogue, SME2_MOPA, kernel_entries, streaming_entry};
use crate::pack::kinds::Packer;
use crate::pack::lhs_pack_bf16::{lhs_pack_bf16p2vlx2_f32_sme, lhs_pack_bf16p2vlx2_f32_sme2};
use crate::pack::rhs_pack_bf16::rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme;

/// LHS packers of the SME2 kernel (KleidiAI pairs it with the SME2 packer; both write the same
/// bytes).
const SME2_LHS: &[&Packer] = &[&lhs_pack_bf16p2vlx2_f32_sme2, &lhs_pack_bf16p2vlx2_f32_sme];
/// LHS packers of the SME kernel.
const SME_LHS: &[&Packer] = &[&lhs_pack_bf16p2vlx2_f32_sme, &lhs_pack_bf16p2vlx2_f32_sme2];
/// The RHS packer of both kernels.
const RHS: &[&Packer] = &[&rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme];

kernel_entries! {
    /// bf16 GEMM to f32, 2 x SVL32 rows x 2 x SVL32 columns per step, `BFMOPA` into four ZA
    /// tiles, `FCLAMP`. Its `run` ignores `dst_stride_col`, as KleidiAI's does.
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa: streaming_entry!(
        Fp32Bf16pBf16p, SME2_LHS, RHS, Sme2, [2, 2, 2, 2, 2, 1], RowsAndColumnsPerSmeLane32,
        SME2_MOPA, self::matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa,
        Asserts::IGNORING_DST_STRIDE_COL);
    /// bf16 GEMM to f32, 2 x SVL32 rows x 2 x SVL32 columns per step, `BFMOPA` into four ZA
    /// tiles, `FMIN`/`FMAX`.
    matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa: streaming_entry!(
        Fp32Bf16pBf16p, SME_LHS, RHS, Sme, [2, 2, 2, 2, 2, 1], RowsAndColumnsPerSmeLane32,
        Epilogue::VECTOR, self::matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa);
}
