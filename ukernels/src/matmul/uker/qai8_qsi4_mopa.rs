//! `kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa`: the generic
//! interface's int8-output GEMM on int4 weights.
//!
//! Operands: the LHS packed by `lhs_pack_x8p2vlx4_x8_sme` (KleidiAI's own tests pair it with
//! this kernel): blocks of `mr` = 8 x vscale = 2 x SVL32 rows, per step of four K values each
//! row's four int8 values; the blocks follow one another (`mr * roundup(k, 4)` bytes each). The
//! RHS packed by `matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`
//! (`pack::matmul_pack_rhs_qsi4cxp8vsx4`): groups of `nr` = 8 x vscale columns, one after the
//! other, each `nr` int32 biases, `roundup(k, 32) / 4` steps of `nr` columns x four signed
//! nibbles, `nr` f32 scales. KleidiAI's `run` reads neither operand stride (only
//! `dst.stride.m`, the bytes between destination rows), and neither does rkai's.
//!
//! Numerics, per output: the column's bias plus the K products in wrapping int32 (the order does
//! not matter), then KleidiAI's requantization ([`qai8::requantize`]): `SCVTF`, `FMUL` by the
//! column's scale, `FRINTN`, `FCVTZS` (saturating), wrapping add of the output zero point (the
//! int32 at `operand.bias.scale_bias_global`), `SCLAMP` to the int32 bounds at
//! `activation.clamp` with `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP` (else -128..127), low byte.
//!
//! The asm is the int8 SME2 GEMM's (`float_mopa_kernel!` with `rhs nibbles`: each step's
//! nibbles widened by `LUTI4`), 2 x 2 SVL32 blocks per tile as KleidiAI's. Without SME2 the
//! portable path gives the same bits with the blocks of a 128-bit streaming length.

use crate::arch;
use crate::contract::{self, Violation};
use crate::matmul_types::*;
use crate::reference::qai8::{self, ClampOrder, Requantize};

/// K values per LHS step (LHS blocks round K up to it).
pub const KR: usize = 4;

/// The RHS rounds K up to this in every group.
pub const K_MULTIPLE: usize = 32;

/// Rows of an LHS block and columns of an RHS group: 8 x vscale.
pub fn tile() -> usize {
    2 * arch::sme_lanes32()
}

/// `roundup(a, b)` wrapping, as KleidiAI's unchecked arithmetic.
fn roundup(a: usize, b: usize) -> usize {
    a.wrapping_add(b - 1) / b * b
}

/// Bytes of one LHS block for `k` values a row (`get_lhs_stride`).
pub fn lhs_block(k: usize) -> usize {
    tile().wrapping_mul(roundup(k, KR))
}

/// Bytes of one RHS group for `k` values a column (`get_rhs_stride`): nibbles, bias, scale.
pub fn rhs_group(k: usize) -> usize {
    tile().wrapping_mul((roundup(k, K_MULTIPLE) / 2).wrapping_add(8))
}

/// One checked call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// K values.
    pub k: usize,
    /// The first LHS block.
    pub lhs: *const u8,
    /// The first RHS group.
    pub rhs: *const u8,
    /// The destination.
    pub dst: *mut i8,
    /// Bytes between destination rows.
    pub dst_stride: usize,
    /// Bounds and output zero point.
    pub q: Requantize,
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the call.
///
/// # Safety
/// Non-null zero-point and (with the clamp flag) bound pointers point to readable int32 values.
pub unsafe fn check(args: &kai_matmul_uker_args) -> Result<Call, Violation> {
    // SAFETY: forwarded contract.
    unsafe { check_rows(args, false) }
}

/// [`check`], and with `one_row` KleidiAI's GEMV assumption `m == 1` after the flags (the int4
/// GEMV's order, `super::qai8_qsi4_gemv`).
///
/// # Safety
/// As [`check`]'s.
pub unsafe fn check_rows(args: &kai_matmul_uker_args, one_row: bool) -> Result<Call, Violation> {
    let clamp_flag = super::FLAG_CLAMP;
    contract::require(
        args.flags & !clamp_flag == 0,
        "Only supported flags are accepted!",
    )?;
    if one_row {
        contract::require(args.shape.m == 1, "args->shape.m == 1")?;
    }
    let o = &args.operand;
    contract::require(!o.lhs.ptr.is_null(), "args->operand.lhs.ptr != NULL")?;
    contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
    contract::require(!o.dst.ptr.is_null(), "args->operand.dst.ptr != NULL")?;
    let zp = o.bias.scale_bias_global.ptr.cast::<i32>();
    contract::require(
        !zp.is_null(),
        "args->operand.bias.scale_bias_global.ptr != NULL",
    )?;
    let clamp = args.flags & clamp_flag != 0;
    let c = &args.activation.clamp;
    contract::require(
        !clamp || !c.min_ptr.is_null(),
        "!enable_clamp || args->activation.clamp.min_ptr != NULL",
    )?;
    contract::require(
        !clamp || !c.max_ptr.is_null(),
        "!enable_clamp || args->activation.clamp.max_ptr != NULL",
    )?;
    // SAFETY: the caller's contract; int32 values as KleidiAI reads them.
    let (min_value, max_value, output_zero_point) = unsafe {
        let (lo, hi) = match clamp {
            true => (
                c.min_ptr.cast::<i32>().read_unaligned(),
                c.max_ptr.cast::<i32>().read_unaligned(),
            ),
            false => (i32::from(i8::MIN), i32::from(i8::MAX)),
        };
        (lo, hi, zp.read_unaligned())
    };
    Ok(Call {
        m: args.shape.m,
        n: args.shape.n,
        k: args.shape.k,
        lhs: o.lhs.ptr.cast(),
        rhs: o.rhs.ptr.cast(),
        dst: o.dst.ptr.cast(),
        dst_stride: o.dst.stride.m,
        q: Requantize {
            min_value,
            max_value,
            output_zero_point,
        },
    })
}

/// The GEMM in scalar code, the same bits as the asm, with blocks of `tile` rows and columns.
///
/// # Safety
/// `ceil(m / tile)` LHS blocks and `ceil(n / tile)` RHS groups readable, one after the other;
/// `m` destination rows of `n` bytes writable, overlapping no input.
pub unsafe fn portable(c: &Call, tile: usize) {
    let kp = c.k.div_ceil(KR) * KR;
    for i in 0..c.m {
        let (block, r) = (i / tile, i % tile);
        let lhs = c.lhs.wrapping_add(block * tile * kp + r * KR);
        // SAFETY: row `r`'s values lie in its block (the caller's contract).
        let x = |kk: usize| unsafe { *lhs.add(kk / KR * tile * KR + kk % KR) as i8 };
        for j in 0..c.n {
            // SAFETY: column j's group is readable, element (i, j) of the destination writable.
            unsafe {
                let v = output(c.rhs, (tile, j), kp, x, c.q);
                c.dst.wrapping_add(i * c.dst_stride + j).write(v);
            }
        }
    }
}

/// One output of the int4 RHS format (groups of `tile` columns at `rhs`, each `tile` biases,
/// `roundup(k, 32) / 4` steps of `tile` columns x four nibbles, `tile` scales): column `j`'s
/// bias plus its first `kp` products with `x(kk)` in wrapping int32, requantized.
///
/// # Safety
/// Column `j`'s group is readable; `kp <= roundup(k, 32)`.
pub unsafe fn output(
    rhs: *const u8,
    (tile, j): (usize, usize),
    kp: usize,
    x: impl Fn(usize) -> i8,
    q: Requantize,
) -> i8 {
    let k32 = kp.div_ceil(K_MULTIPLE) * K_MULTIPLE;
    let (rhs, col) = (rhs.wrapping_add(j / tile * tile * (k32 / 2 + 8)), j % tile);
    // SAFETY: column `col`'s bias, nibbles and scale lie in its group (the caller's contract).
    let (mut acc, scale) = unsafe {
        (
            rhs.add(4 * col).cast::<i32>().read_unaligned(),
            rhs.add(4 * tile + k32 / 2 * tile + 4 * col)
                .cast::<f32>()
                .read_unaligned(),
        )
    };
    for kk in 0..kp {
        // SAFETY: as above; two nibbles a byte, the even K value in the low one.
        let byte = unsafe { *rhs.add(4 * tile + kk / KR * tile * 2 + col * 2 + kk % KR / 2) };
        let nibble = if kk % 2 == 0 { byte << 4 } else { byte & 0xf0 };
        let w = (nibble as i8) >> 4;
        acc = acc.wrapping_add(i32::from(x(kk)) * i32::from(w));
    }
    qai8::requantize(acc, scale, q, ClampOrder::LowerFirst)
}

#[cfg(target_arch = "aarch64")]
float_mopa_kernel! {
    /// The GEMM in SME2 asm (see the module documentation).
    ///
    /// # Safety
    /// The CPU implements SME2; `m`, `n` >= 1 and the buffers as for [`portable`] at the
    /// streaming length; a pending lazy ZA save follows the AAPCS64 SME ABI.
    fn gemm; "sme2"; output i8; kr 4; rhs nibbles;
    mopa "smopa", ".b", "ld1b";
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has SME2.
///
/// # Safety
/// `args` satisfies KleidiAI's contract (see [`portable`]; rows of the destination
/// `dst.stride.m` bytes apart); a pending lazy ZA save follows the AAPCS64 SME ABI.
pub unsafe fn run(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let c = unsafe { check(args) }?;
    if c.m == 0 || c.n == 0 {
        return Ok(());
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { gemm(c.m, c.n, c.k, c.lhs, c.rhs, c.dst, c.dst_stride, c.q) };
        return Ok(());
    }
    // SAFETY: the caller's contract, at the blocks of this CPU's (or the 128-bit) length.
    unsafe { portable(&c, tile()) };
    Ok(())
}
