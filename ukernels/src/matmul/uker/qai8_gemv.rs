//! `kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot`
//! ([`UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv`](crate::pack::kinds::UkerKernelKind)): one
//! raw int8 LHS row (m = 1, `k` bytes, read as it is) times the RHS packed by
//! `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme` (blocks of `nr` = 4 x vscale =
//! SVL32 columns: their `i32` biases, per step of four K values four bytes of each column, their
//! `f32` scales), requantized to int8.
//!
//! Numerics, as KleidiAI's kernel computes them: each output is its column's packed bias plus
//! the `k` products in wrapping `i32` (multi-vector `SDOT` into ZA), requantized as every SME2
//! int8-output kernel of rkai ([`crate::reference::qai8::requantize`], `SCLAMP` order: `SCVTF`,
//! `FMUL` by the column's scale, `FRINTN`, `FCVTZS`, wrapping add of the output zero point,
//! `SCLAMP`, low byte). The zero point is the `int32_t` at `operand.bias.scale_bias_global`; the
//! bounds are the `int32_t`s at `activation.clamp` with `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP`, else
//! `INT8_MIN..INT8_MAX` (the kernel always clamps). `run` ignores `config` and the three
//! strides, as KleidiAI's does.
//!
//! Where KleidiAI's behaviour is outside its contract rkai differs: a null `scale_bias_global`
//! is a violation (KleidiAI reads through it; its int4 sibling asserts it), as are null bound
//! pointers with the clamp flag; `n == 0` writes and reads nothing; `k == 0` gives the
//! requantized biases (KleidiAI still runs one K step and then reads its scales one vector too
//! far, past the last block).
//!
//! Tiling, as KleidiAI's kernel: 8 blocks per step (two four-vector ZA groups, one vector of
//! each block, a block stride apart) while more than four remain, then one step of 4 (the f32
//! generic GEMV's pointers, `super::sme2_gemv`); a step's pointers to blocks past the last one
//! point at its first block. Each four K steps read each block's four rows with one strided
//! four-vector load (`four_block_quads!`), four blocks at a time, so that a row of four blocks
//! is one `SDOT` operand group. The K loop is the streaming int8 GEMVs' `int8_k_loop!` (the last
//! `k % 4` LHS bytes under a byte predicate: nothing past the row is read) and the finish
//! `sme2_i8_finish!`. Without SME2 [`portable`] gives the same bits with the blocks of a 128-bit
//! streaming length.

use crate::arch;
use crate::contract::{self, Violation};
use crate::matmul::matmul_clamp_qai8_qai8p_qsi8cxp::column;
use crate::matmul_types::*;
use crate::reference::qai8::{ClampOrder, Requantize};

/// K values per packed step.
pub const KR: usize = 4;

/// Bytes of one column's bias and of its scale in an RHS block.
pub const BIAS_AND_SCALE: usize = 8;

/// One checked call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Columns.
    pub n: usize,
    /// K values.
    pub k: usize,
    /// The LHS row (`k` bytes).
    pub lhs: *const i8,
    /// The first packed RHS block.
    pub rhs: *const u8,
    /// The destination row (`n` bytes).
    pub dst: *mut u8,
    /// Bounds and output zero point, in `kai_matmul_requantize32_params`' order.
    pub quant: Requantize,
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the values the call reads
/// (see the module documentation for where rkai asks more).
///
/// # Safety
/// A non-null `scale_bias_global` and, with the clamp flag, non-null bound pointers point to
/// readable 32-bit values.
pub unsafe fn check(args: &kai_matmul_uker_args) -> Result<Call, Violation> {
    let clamp = super::FLAG_CLAMP;
    contract::require(
        args.flags & !clamp == 0,
        "Only supported flags are accepted!",
    )?;
    contract::require(args.shape.m == 1, "args->shape.m == 1")?;
    let o = &args.operand;
    contract::require(!o.lhs.ptr.is_null(), "args->operand.lhs.ptr != NULL")?;
    contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
    contract::require(!o.dst.ptr.is_null(), "args->operand.dst.ptr != NULL")?;
    // SAFETY (reads): the caller's contract; KleidiAI reads `int32_t`s.
    let read = |p: *const core::ffi::c_void| unsafe { p.cast::<i32>().read_unaligned() };
    let zp = o.bias.scale_bias_global.ptr;
    contract::require(
        !zp.is_null(),
        "args->operand.bias.scale_bias_global.ptr != NULL",
    )?;
    let output_zero_point = read(zp);
    let (min_value, max_value) = if args.flags & clamp != 0 {
        let c = &args.activation.clamp;
        contract::require(
            !c.min_ptr.is_null(),
            "args->activation.clamp.min_ptr != NULL",
        )?;
        contract::require(
            !c.max_ptr.is_null(),
            "args->activation.clamp.max_ptr != NULL",
        )?;
        (read(c.min_ptr), read(c.max_ptr))
    } else {
        (i32::from(i8::MIN), i32::from(i8::MAX))
    };
    Ok(Call {
        n: args.shape.n,
        k: args.shape.k,
        lhs: o.lhs.ptr.cast(),
        rhs: o.rhs.ptr.cast(),
        dst: o.dst.ptr.cast(),
        quant: Requantize {
            min_value,
            max_value,
            output_zero_point,
        },
    })
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has SME2.
///
/// # Safety
/// `args` satisfies KleidiAI's contract (see [`portable`] with `nr` = `arch::sme_lanes32()`);
/// a pending lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { check(args) }?;
    if c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { sme2::gemv(&c) };
        return Ok(());
    }
    // SAFETY: the caller's contract.
    unsafe { portable(&c, arch::sme_lanes32()) };
    Ok(())
}

/// The GEMV in scalar code, the same bits as the asm: blocks of `nr` columns at `c.rhs`, each
/// `nr` biases, `roundup(k, 4) / 4` steps of `4 * nr` bytes and `nr` scales.
///
/// # Safety
/// `c.n >= 1`; `c.k` readable bytes at `c.lhs`, `ceil(n / nr)` blocks of `nr * (roundup(k, 4)
/// + 8)` bytes at `c.rhs`, `n` writable bytes at `c.dst`.
pub unsafe fn portable(c: &Call, nr: usize) {
    let kp = c.k.div_ceil(KR) * KR;
    // The K values past the row are zeros (the asm loads them under a byte predicate).
    // SAFETY: kk < k lies in the row.
    let x = |kk: usize| {
        if kk < c.k {
            unsafe { *c.lhs.add(kk) }
        } else {
            0
        }
    };
    for j in 0..c.n {
        let block = c.rhs.wrapping_add(j / nr * nr * (kp + BIAS_AND_SCALE));
        // SAFETY: column j's block lies in the packed RHS, output j in the destination.
        unsafe {
            let v = column(block, (nr, j % nr), kp, x, c.quant, ClampOrder::LowerFirst);
            c.dst.add(j).write(v as u8);
        }
    }
}

/// The SME2 asm.
#[cfg(target_arch = "aarch64")]
mod sme2 {
    use super::Call;

    /// Four K steps (units 0-3 of z0: sixteen K values) of the four blocks at `$p..`: each
    /// block's four rows by one strided load (`four_block_quads!`: row r of the blocks in
    /// z(16 + 4r)..z(19 + 4r)), `SDOT`'d into ZA vector group `$g`, the pointers moved past them.
    macro_rules! four_steps {
        ($g:literal; $($p:literal),+) => {
            concat!(
                four_block_quads!(hi "ld1w", "s", "#0, mul vl"; $($p),+),
                sme2_za_step4!(sdot "0"; ""; ("16", "19", $g)),
                sme2_za_step4!(sdot "1"; ""; ("20", "23", $g)),
                sme2_za_step4!(sdot "2"; ""; ("24", "27", $g)),
                sme2_za_step4!(sdot "3"; ""; ("28", "31", $g)),
                sme2_block_advance!("4"; $($p),+),
            )
        };
    }

    /// One K step (unit 0 of z0) of the four blocks at `$p..`: their rows into z4-z7, `SDOT`'d
    /// into ZA vector group `$g`, the pointers moved past them.
    macro_rules! one_step {
        ($g:literal; $($p:literal),+) => {
            concat!(
                sme2_za_step4!(sdot "0";
                    four_block_rows!("ld1w", "s", "p0", "#0, mul vl"; ("4", "5", "6", "7"); $($p),+);
                    ("4", "7", $g)),
                sme2_block_advance!("1"; $($p),+),
            )
        };
    }

    /// Eight blocks (while more than four remain, x12 = SVL32): x14, x9, x15, x10 the first
    /// four at x3 on, x16 the fifth, x13, x17, x22 the next ones where columns remain for them,
    /// else x3's again. Uses x11.
    macro_rules! eight_block_pointers {
        () => {
            concat!(
                "mov x14, x3\n",
                "add x9, x3, x5\n",
                "add x15, x9, x5\n",
                "add x10, x15, x5\n",
                "add x16, x10, x5\n",
                "add x13, x16, x5\n",
                "add x11, x12, x12, lsl #2\n",
                "cmp x0, x11\n",
                "csel x13, x13, x3, gt\n",
                "add x17, x16, x5, lsl #1\n",
                "add x11, x11, x12\n",
                "cmp x0, x11\n",
                "csel x17, x17, x3, gt\n",
                "add x22, x16, x5\n",
                "add x22, x22, x5, lsl #1\n",
                "add x11, x11, x12\n",
                "cmp x0, x11\n",
                "csel x22, x22, x3, gt\n",
            )
        };
    }

    /// The call on SME2 (see `super`), eight or four blocks of SVL32 columns per step: their
    /// biases moved into ZA vector groups, the K loop, the requantizing finish and predicated
    /// stores.
    ///
    /// # Safety
    /// The CPU implements SME2; the buffers as [`super::portable`]'s with `nr` = SVL32 and
    /// `n >= 1`; a pending lazy ZA save follows the AAPCS64 SME ABI.
    pub unsafe fn gemv(c: &Call) {
        // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
        unsafe { crate::matmul::streaming::commit_lazy_za_save() };
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        // A block: SVL32 columns (SVL / 4) of a bias, roundup(k, 4) bytes and a scale each.
        let block = svl / 4 * (c.k.div_ceil(super::KR) * super::KR + super::BIAS_AND_SCALE);
        // `kai_matmul_requantize32_params`' layout, as `sme2_i8_setup!` reads it.
        let params = [
            c.quant.min_value,
            c.quant.max_value,
            c.quant.output_zero_point,
        ];
        // SAFETY: the caller guarantees (see `# Safety`) SME2, k readable bytes at `lhs` (the
        // last k % 4 read under a byte predicate), ceil(n / SVL32) whole blocks at `rhs` (a
        // step's pointers to blocks past the last one point at its first block, so every load
        // reads a row of an existing block), and n writable bytes at `dst`, which the stores
        // cover under whilelt predicates (columns below n only). Streaming mode and registers:
        // `streaming_gemv_asm!`.
        unsafe {
            streaming_gemv_asm!("sme2"; [
                "ptrue p0.b",
                "ptrue pn8.b",
                "mov x8, #0",
                sme2_i8_setup!(),
                "cntw x12",
                // ---- eight blocks per step while more than four remain ----
                "1:",
                "cmp x0, x12, lsl #2",
                "b.le 2f",
                eight_block_pointers!(),
                four_block_rows!("ld1w", "s", "p0", "#0, mul vl"),
                four_block_rows!("ld1w", "s", "p0", "#0, mul vl"; ("8", "9", "10", "11");
                    "x16", "x13", "x17", "x22"),
                sme2_block_advance!("1"),
                sme2_f32_into_za!(("4", "7", "0") ("8", "11", "1")),
                int8_k_loop!(
                    concat!(four_steps!("0"; "x14", "x9", "x15", "x10"),
                        four_steps!("1"; "x16", "x13", "x17", "x22"));
                    concat!(one_step!("0"; "x14", "x9", "x15", "x10"),
                        one_step!("1"; "x16", "x13", "x17", "x22"))),
                "mov x11, #0",
                sme2_i8_finish!(4 single; "0"; "x14", "x9", "x15", "x10"),
                sme2_i8_finish!(4 single; "1"; "x16", "x13", "x17", "x22"),
                "add x3, x3, x5, lsl #3",
                "sub x0, x0, x12, lsl #3",
                "b 1b",
                // ---- then four (one to four blocks left) ----
                "2:",
                "cmp x0, #0",
                "b.le 9f",
                four_block_pointers!(),
                four_block_rows!("ld1w", "s", "p0", "#0, mul vl"),
                sme2_block_advance!("1"; "x14", "x9", "x15", "x10"),
                sme2_f32_into_za!(("4", "7", "0")),
                int8_k_loop!(
                    four_steps!("0"; "x14", "x9", "x15", "x10");
                    one_step!("0"; "x14", "x9", "x15", "x10")),
                "mov x11, #0",
                sme2_i8_finish!(4 single; "0"; "x14", "x9", "x15", "x10"),
                "add x3, x3, x5, lsl #2",
                "sub x0, x0, x12, lsl #2",
                "9:",
            ];
                c.n, c.k, c.lhs, c.rhs, c.dst, block, params.as_ptr() as usize, 0usize)
        }
    }
}
