//! `kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot`
//! ([`UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv`](crate::pack::kinds::UkerKernelKind)): one raw int8
//! LHS row (m = 1, `k` bytes, read as it is) times the int4 RHS of
//! `matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme` (the format of the
//! int4 GEMM, [`super::qai8_qsi4_mopa`]: groups of `nr` = 8 x vscale = 2 x SVL32 columns, each
//! `nr` int32 biases, `roundup(k, 32) / 4` steps of `nr` columns x four signed nibbles, `nr` f32
//! scales), requantized to int8.
//!
//! Getters, as KleidiAI's: the step is 1 x 64 vscale (16 x SVL32: eight groups), while `nr`
//! stays one group, so `get_rhs_offset` asserts `n % n_step == 0` and returns `n / nr` group
//! strides; the LHS stride is `k` bytes (not rounded); `get_lhs_offset` and `get_dst_offset`
//! assert `m == 0`.
//!
//! Numerics: the int4 GEMM's per output ([`super::qai8_qsi4_mopa::output`]: the column's bias
//! plus the `k` products in wrapping int32, then `SCVTF`, `FMUL` by the column's scale,
//! `FRINTN`, `FCVTZS`, wrapping add of the zero point at `operand.bias.scale_bias_global`,
//! `SCLAMP` to the int32 bounds at `activation.clamp` with `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP`,
//! else -128..127, low byte). Its assumptions are the GEMM's with `m == 1` after the flags.
//! `run` ignores `config` and the three strides, as KleidiAI's does. `n == 0` writes and reads
//! nothing; `k == 0` gives the requantized biases (KleidiAI still runs one K step and then
//! reads its scales four vectors past them).
//!
//! The asm: eight groups per step (four ZA vector groups of two groups each, KleidiAI's width)
//! while more than twelve SVL32 columns remain, then one ZA vector group (two groups) per step;
//! a step's pointer to a group past the last one points at an earlier group of the step. The K
//! loop is the streaming int8 GEMVs' `int8_k_loop!` (four K values a unit, the last `k % 4` LHS
//! bytes under a byte predicate: nothing past the row is read) whose units widen each group's
//! vector of nibbles by `LUTI4` (ZT0: `INT4_TO_INT8`) before the `SDOT`; after it the pointers
//! skip the units that pad K to 32, and the finish is `sme2_i8_finish!`. Without SME2 the
//! portable path gives the same bits with the groups of a 128-bit streaming length.

use super::qai8_qsi4_mopa::{self as mopa, Call};
use crate::contract::Violation;
use crate::matmul_types::*;

/// Groups of `nr` columns per `n_step`.
pub const GROUPS_PER_STEP: usize = 8;

/// Columns of one packed RHS group (`nr`, 8 x vscale).
pub fn nr() -> usize {
    mopa::tile()
}

/// `get_step`'s `n`: 64 x vscale.
pub fn n_step() -> usize {
    GROUPS_PER_STEP * nr()
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the call.
///
/// # Safety
/// Non-null zero-point and (with the clamp flag) bound pointers point to readable int32 values.
pub unsafe fn check(args: &kai_matmul_uker_args) -> Result<Call, Violation> {
    // SAFETY: forwarded contract.
    unsafe { mopa::check_rows(args, true) }
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has SME2.
///
/// # Safety
/// `args` satisfies KleidiAI's contract (see [`portable`] with `nr` = [`nr`]); a pending lazy
/// ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { check(args) }?;
    if c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if crate::arch::Features::detect().contains(crate::arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { sme2::gemv(&c) };
        return Ok(());
    }
    // SAFETY: the caller's contract.
    unsafe { portable(&c, nr()) };
    Ok(())
}

/// The GEMV in scalar code, the same bits as the asm: groups of `nr` columns at `c.rhs`.
///
/// # Safety
/// `c.n >= 1`; `c.k` readable bytes at `c.lhs`, `ceil(n / nr)` groups of
/// `nr * (roundup(k, 32) / 2 + 8)` bytes at `c.rhs`, `n` writable bytes at `c.dst`.
pub unsafe fn portable(c: &Call, nr: usize) {
    // SAFETY: kk < k lies in the row.
    let x = |kk: usize| unsafe { *c.lhs.add(kk) as i8 };
    for j in 0..c.n {
        // SAFETY: column j's group lies in the packed RHS, output j in the destination.
        unsafe {
            c.dst
                .add(j)
                .write(mopa::output(c.rhs, (nr, j), c.k, x, c.q))
        };
    }
}

/// The SME2 asm.
#[cfg(target_arch = "aarch64")]
mod sme2 {
    use super::Call;

    /// One unit (four K values) of ZA vector group `$o`: the nibble vectors z$a (its first
    /// group) and z$b (its second) widened by `LUTI4` into z$d0-z$d3 and `SDOT`'d by the unit's
    /// four LHS bytes, `z0.b[$i]`.
    macro_rules! nibble_unit {
        ($i:literal, $o:literal; $a:literal, $b:literal; $d0:literal, $d1:literal, $d2:literal,
         $d3:literal) => {
            sme2_za_step4!(sdot $i;
                concat!(
                    "luti4 {{z", $d0, ".b-z", $d1, ".b}}, zt0, z", $a, "[0]\n",
                    "luti4 {{z", $d2, ".b-z", $d3, ".b}}, zt0, z", $b, "[0]\n",
                );
                ($d0, $d3, $o))
        };
    }

    /// Four units of ZA vector group `$o`, whose groups' pointers are `$pa` and `$pb`: four
    /// vectors of nibbles of each (into z$a.. and z$b.., each a multiple of four), their units
    /// widened alternately into z4-z7 and z24-z27; the pointers advanced past them.
    macro_rules! four_units {
        ($o:literal; $pa:literal, $pb:literal; ($a0:literal, $a1:literal, $a2:literal,
         $a3:literal), ($b0:literal, $b1:literal, $b2:literal, $b3:literal)) => {
            concat!(
                "ld1b {{z", $a0, ".b-z", $a3, ".b}}, pn8/z, [", $pa, "]\n",
                "ld1b {{z", $b0, ".b-z", $b3, ".b}}, pn8/z, [", $pb, "]\n",
                nibble_unit!("0", $o; $a0, $b0; "4", "5", "6", "7"),
                nibble_unit!("1", $o; $a1, $b1; "24", "25", "26", "27"),
                nibble_unit!("2", $o; $a2, $b2; "4", "5", "6", "7"),
                nibble_unit!("3", $o; $a3, $b3; "24", "25", "26", "27"),
                sme2_block_advance!("4"; $pa, $pb),
            )
        };
    }

    /// One unit of ZA vector group `$o` (pointers `$pa`, `$pb`), the pointers advanced past it.
    macro_rules! one_unit {
        ($o:literal; $pa:literal, $pb:literal) => {
            concat!(
                "ld1b {{z8.b}}, p0/z, [", $pa, "]\n",
                "ld1b {{z12.b}}, p0/z, [", $pb, "]\n",
                nibble_unit!("0", $o; "8", "12"; "4", "5", "6", "7"),
                sme2_block_advance!("1"; $pa, $pb),
            )
        };
    }

    /// The pointers past the K loop skip the units that pad K to a multiple of 32 (x12 bytes).
    macro_rules! skip_padding {
        ($($p:literal),+) => {
            concat!($("add ", $p, ", ", $p, ", x12\n",)+)
        };
    }

    /// The call on SME2 (see `super`).
    ///
    /// # Safety
    /// The CPU implements SME2; the buffers as [`super::portable`]'s with `nr` = 2 x SVL32 and
    /// `n >= 1`; a pending lazy ZA save follows the AAPCS64 SME ABI.
    pub unsafe fn gemv(c: &Call) {
        // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
        unsafe { crate::matmul::streaming::commit_lazy_za_save() };
        let group = super::mopa::rhs_group(c.k);
        // `kai_matmul_requantize32_params`' layout, as `sme2_i8_setup!` reads it.
        let params = [c.q.min_value, c.q.max_value, c.q.output_zero_point];
        let table = crate::matmul::streaming::INT4_TO_INT8.as_ptr();
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable bytes at `lhs` (the
        // last k % 4 read under a byte predicate), ceil(n / nr) whole groups at `rhs` (a step's
        // pointer to a group past the last one points at an earlier group of the step, so every
        // load reads a group that exists), 64 bytes of table, and n writable bytes at `dst`,
        // which the stores cover under whilelt predicates (columns below n only). Streaming
        // mode and registers: `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.b",
                "ptrue pn8.b",
                "mov x8, #0",
                "ldr zt0, [x7]",
                sme2_i8_setup!(),
                // x12: the bytes of the units padding K to 32, (-ceil(k / 4) mod 8) vectors.
                "add x12, x1, #3",
                "lsr x12, x12, #2",
                "neg x12, x12",
                "and x12, x12, #7",
                "rdvl x11, #1",
                "mul x12, x12, x11",
                // ---- eight groups per step while more than 12 x SVL32 columns remain ----
                "1:",
                "cntw x11, all, mul #12",
                "cmp x0, x11",
                "b.le 2f",
                eight_group_pointers!(),
                "cntw x11, all, mul #14",
                "cmp x0, x11",
                "csel x22, x22, x14, gt",
                sme2_block_rows!("0"),
                sme2_block_advance!("2"),
                sme2_f32_into_za!(("4", "7", "0") ("8", "11", "1") ("12", "15", "2")
                    ("16", "19", "3")),
                int8_k_loop!(
                    concat!(
                        four_units!("0"; "x14", "x9"; ("8", "9", "10", "11"),
                            ("12", "13", "14", "15")),
                        four_units!("1"; "x15", "x10"; ("16", "17", "18", "19"),
                            ("20", "21", "22", "23")),
                        four_units!("2"; "x16", "x13"; ("8", "9", "10", "11"),
                            ("12", "13", "14", "15")),
                        four_units!("3"; "x17", "x22"; ("16", "17", "18", "19"),
                            ("20", "21", "22", "23")),
                    );
                    concat!(
                        one_unit!("0"; "x14", "x9"),
                        one_unit!("1"; "x15", "x10"),
                        one_unit!("2"; "x16", "x13"),
                        one_unit!("3"; "x17", "x22"),
                    )),
                skip_padding!("x14", "x9", "x15", "x10", "x16", "x13", "x17", "x22"),
                "mov x11, #0",
                sme2_i8_finish!(4; ("0", "x14", "x9") ("1", "x15", "x10") ("2", "x16", "x13")
                    ("3", "x17", "x22")),
                "add x3, x3, x5, lsl #3",
                "cntw x11, all, mul #16",
                "sub x0, x0, x11",
                "b 1b",
                // ---- then two groups (one ZA vector group) per step ----
                "2:",
                "cmp x0, #0",
                "b.le 9f",
                "mov x14, x3",
                "add x9, x3, x5",
                "cntw x11, all, mul #2",
                "cmp x0, x11",
                "csel x9, x9, x14, gt",
                "ld1w {{z4.s-z5.s}}, pn8/z, [x14]",
                "ld1w {{z6.s-z7.s}}, pn8/z, [x9]",
                sme2_block_advance!("2"; "x14", "x9"),
                sme2_f32_into_za!(("4", "7", "0")),
                int8_k_loop!(
                    four_units!("0"; "x14", "x9"; ("8", "9", "10", "11"),
                        ("12", "13", "14", "15"));
                    one_unit!("0"; "x14", "x9")),
                skip_padding!("x14", "x9"),
                "mov x11, #0",
                sme2_i8_finish!(4; ("0", "x14", "x9")),
                "add x3, x3, x5, lsl #1",
                "cntb x11",
                "sub x0, x0, x11",
                "b 2b",
                "9:",
            ];
                c.n, c.k, c.lhs, c.rhs, c.dst, group, params.as_ptr() as usize, table as usize)
        }
    }
}
