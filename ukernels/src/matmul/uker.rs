//! The kernels of KleidiAI's generic matmul interface (`kai_matmul.h`, `kai_matmul_uker_api`):
//! their catalog entries ([`KERNELS`]), and every table function by kernel kind over the
//! interface's C structs (`crate::matmul_types`): the getters' values and KleidiAI's assumptions
//! (as [`Violation`]s), and `run`. The C table of function pointers is
//! `rkai_capi::capi::uker_matmul` (the C library crate).
//!
//! `kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla` ([`UkerKernelKind::F32F32F32p4vsx1bf32Gemv`]):
//! one f32 LHS row (m = 1) times the RHS packed by
//! `matmul_pack_rhs_{kxn,nxk}_x32p4vsx1bx32_x32_x32_sme` (blocks of `nr` = 4 x vscale = SVL32
//! columns: their biases, then one row of them per K value). Every output starts from its
//! column's bias and takes one fused multiply-add per K value in K order, accumulated in ZA (a
//! NaN result is the default NaN, [`crate::float::fmla_za`]); with
//! `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP` it is then clamped as `FCLAMP` does
//! ([`crate::float::clamp_num`]) to the bounds read as 32-bit values at `activation.clamp`;
//! without it the kernel does not clamp (infinities and NaNs pass). `run` ignores `config`, the
//! three strides and the bias/scale operands, as KleidiAI's does. Where KleidiAI's behaviour is
//! outside its contract rkai differs: with `k == 0` it gives the bias (KleidiAI still runs one K
//! step on bytes past the block's biases), and with the clamp flag set, null bound pointers are
//! a violation (KleidiAI dereferences them). Without SME2 the portable path gives the same bits
//! with the blocks of a 128-bit streaming length.
//!
//! `kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot`
//! ([`UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1`]): f16 rows (`lhs.stride.m` bytes apart) times
//! the RHS of `rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`, f16 rows out (`dst.stride.m` bytes
//! apart); an SVE2.1 kernel outside streaming mode whose blocks follow the SVE length. Its
//! numerics, tiling and portable path: [`sve2p1_dot`].

#[cfg(target_arch = "aarch64")]
mod sme2_gemv;
pub mod sve2p1_dot;

use crate::arch::{self, Isa};
use crate::contract::{self, Violation};
use crate::float;
use crate::matmul_types::*;
use crate::pack::kinds::{UkerKernel, UkerKernelKind};

/// The f32 SME2 GEMV of the generic interface (see the module documentation).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla: UkerKernel = UkerKernel {
    name: "matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla",
    isa: Isa::Sme2,
    kind: UkerKernelKind::F32F32F32p4vsx1bf32Gemv,
};

/// The f16 SVE2.1 GEMM of the generic interface ([`sve2p1_dot`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot: UkerKernel = UkerKernel {
    name: "matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot",
    isa: Isa::Sve2p1,
    kind: UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1,
};

/// The kernels of the generic interface this module defines.
pub const KERNELS: &[&UkerKernel] = &[
    &matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla,
    &matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot,
];

/// Bytes of an f32 value (LHS, RHS, bias, destination).
const BYTES: usize = 4;

/// Bytes of one LHS, RHS, bias and destination value.
fn bytes(kind: UkerKernelKind) -> usize {
    match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv => BYTES,
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => sve2p1_dot::BYTES,
    }
}

/// The only `flags` bit the kernels accept.
pub const FLAG_CLAMP: u64 = kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u64;

/// `(mr, nr)`: rows and columns of one step.
fn tile(kind: UkerKernelKind) -> (usize, usize) {
    match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv => (1, arch::sme_lanes32()),
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => (1, 4 * arch::sve_lanes32()),
    }
}

/// `get_step`: M and N granularity of a split; K is not splittable (0).
pub fn step(kind: UkerKernelKind) -> kai_matmul_uker_dim_args {
    let (m, n) = tile(kind);
    kai_matmul_uker_dim_args { m, n, k: 0 }
}

/// `get_lhs_stride` of an LHS of `shape`: one row of `k` values.
pub fn lhs_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_lhs_dim_args,
) -> kai_matmul_uker_lhs_stride_args {
    let (mr, _) = tile(kind);
    kai_matmul_uker_lhs_stride_args {
        m: mr.wrapping_mul(shape.k).wrapping_mul(bytes(kind)),
    }
}

/// `get_lhs_offset` of the start coordinate `index`.
pub fn lhs_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_lhs_dim_args,
    stride: &kai_matmul_uker_lhs_stride_args,
) -> Result<usize, Violation> {
    let (mr, _) = tile(kind);
    contract::require(index.m % mr == 0, "index->m % get_m_step() == 0")?;
    contract::require(index.k == 0, "index->k == 0")?;
    Ok((index.m / mr).wrapping_mul(stride.m))
}

/// `get_rhs_stride` of a packed RHS of `shape`: one block of `nr` biases and `k` rows.
pub fn rhs_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_rhs_dim_args,
) -> kai_matmul_uker_rhs_stride_args {
    let (_, nr) = tile(kind);
    // K rounded up to whole packed pairs (KleidiAI's kai_roundup) for the f16 kernel.
    let k = match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv => shape.k,
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => shape.k.wrapping_add(1) & !1,
    };
    let b = bytes(kind);
    kai_matmul_uker_rhs_stride_args {
        n: nr.wrapping_mul(k.wrapping_mul(b).wrapping_add(b)),
    }
}

/// `get_rhs_offset` of the start coordinate `index`.
pub fn rhs_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_rhs_dim_args,
    stride: &kai_matmul_uker_rhs_stride_args,
) -> Result<usize, Violation> {
    let (_, nr) = tile(kind);
    contract::require(index.n % nr == 0, "index->n % get_n_step() == 0")?;
    contract::require(index.k == 0, "index->k == 0")?;
    Ok((index.n / nr).wrapping_mul(stride.n))
}

/// `get_dst_stride` of a destination of `shape`: rows of `n` values.
pub fn dst_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_dst_dim_args,
) -> kai_matmul_uker_dst_stride_args {
    kai_matmul_uker_dst_stride_args {
        m: shape.n.wrapping_mul(bytes(kind)),
    }
}

/// `get_dst_offset` of the start coordinate `index`.
pub fn dst_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_dst_dim_args,
    stride: &kai_matmul_uker_dst_stride_args,
) -> Result<usize, Violation> {
    let (mr, nr) = tile(kind);
    contract::require(index.m % mr == 0, "index->m % get_m_step() == 0")?;
    contract::require(index.n % nr == 0, "index->n % get_n_step() == 0")?;
    Ok(index
        .m
        .wrapping_mul(stride.m)
        .wrapping_add(index.n.wrapping_mul(bytes(kind))))
}

/// `get_dst_size` of a destination of `shape`.
pub fn dst_size(
    _kind: UkerKernelKind,
    shape: &kai_matmul_uker_dst_dim_args,
    stride: &kai_matmul_uker_dst_stride_args,
) -> usize {
    shape.m.wrapping_mul(stride.m)
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the clamp bounds the call
/// asks for (`None`: no clamp).
///
/// # Safety
/// With the clamp flag set, non-null bound pointers point to readable 32-bit values.
pub unsafe fn check(
    kind: UkerKernelKind,
    args: &kai_matmul_uker_args,
) -> Result<Option<(f32, f32)>, Violation> {
    contract::require(
        args.flags & !FLAG_CLAMP == 0,
        "Only supported flags are accepted!",
    )?;
    if kind == UkerKernelKind::F32F32F32p4vsx1bf32Gemv {
        contract::require(args.shape.m == 1, "args->shape.m == 1")?;
    }
    let o = &args.operand;
    contract::require(!o.lhs.ptr.is_null(), "args->operand.lhs.ptr != NULL")?;
    contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
    contract::require(!o.dst.ptr.is_null(), "args->operand.dst.ptr != NULL")?;
    if kind == UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 {
        contract::require(
            o.lhs.stride.m % sve2p1_dot::BYTES == 0,
            "args->operand.lhs.stride.m % LHS_ELEM_BYTES == 0",
        )?;
        contract::require(
            o.dst.stride.m % sve2p1_dot::BYTES == 0,
            "args->operand.dst.stride.m % DST_ELEM_BYTES == 0",
        )?;
        contract::require(
            args.shape.k <= u32::MAX as usize,
            "args->shape.k <= UINT32_MAX",
        )?;
    }
    if args.flags & FLAG_CLAMP == 0 {
        return Ok(None);
    }
    let c = &args.activation.clamp;
    contract::require(
        !c.min_ptr.is_null(),
        "args->activation.clamp.min_ptr != NULL",
    )?;
    contract::require(
        !c.max_ptr.is_null(),
        "args->activation.clamp.max_ptr != NULL",
    )?;
    // SAFETY: the caller's contract; read as the 32-bit words KleidiAI reads.
    let (lo, hi) = unsafe {
        (
            c.min_ptr.cast::<u32>().read_unaligned(),
            c.max_ptr.cast::<u32>().read_unaligned(),
        )
    };
    Ok(Some((f32::from_bits(lo), f32::from_bits(hi))))
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has the
/// kernel's ISA.
///
/// # Safety
/// `args` satisfies KleidiAI's contract: the LHS rows (`k` values each, `lhs.stride.m` bytes
/// apart for the f16 GEMM; one row for the GEMV), `ceil(n / nr)` contiguous packed blocks at the
/// RHS (`get_rhs_stride` bytes each), `m` rows of `n` writable values at the destination
/// (`dst.stride.m` bytes apart for the f16 GEMM) overlapping neither input, and the clamp
/// bounds readable when the flag is set. A pending lazy ZA save must follow the AAPCS64 SME ABI.
pub unsafe fn run(kind: UkerKernelKind, args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY: forwarded contract.
    let clamp = unsafe { check(kind, args) }?;
    match kind {
        // SAFETY: forwarded contract.
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv => unsafe { run_gemv(args, clamp) },
        // SAFETY: forwarded contract.
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => unsafe { run_f16_gemm(args, clamp) },
    }
    Ok(())
}

/// The f32 SME2 GEMV's call.
///
/// # Safety
/// As [`run`]'s, after [`check`].
unsafe fn run_gemv(args: &kai_matmul_uker_args, clamp: Option<(f32, f32)>) {
    let o = &args.operand;
    let (n, k) = (args.shape.n, args.shape.k);
    let (lhs, rhs, dst) = (
        o.lhs.ptr.cast::<f32>(),
        o.rhs.ptr.cast::<f32>(),
        o.dst.ptr.cast::<f32>(),
    );
    if n == 0 {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { sme2_gemv::gemv(n, k, lhs, rhs, dst, clamp) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { gemv_portable(n, k, arch::sme_lanes32(), lhs, rhs, dst, clamp) };
}

/// The f16 SVE2.1 GEMM's call: groups of six rows through the asm where the CPU has SVE2.1,
/// else the portable path. `m == 0` or `n == 0` writes nothing (KleidiAI's asm computes a row
/// for `m == 0`), and `k == 0` gives the biases (KleidiAI's runs one K pair on the bytes past
/// the block's biases).
///
/// # Safety
/// As [`run`]'s, after [`check`].
unsafe fn run_f16_gemm(args: &kai_matmul_uker_args, clamp: Option<(f32, f32)>) {
    let o = &args.operand;
    let c = sve2p1_dot::Call {
        m: args.shape.m,
        n: args.shape.n,
        k: args.shape.k,
        lhs: o.lhs.ptr.cast(),
        lhs_row: o.lhs.stride.m,
        rhs: o.rhs.ptr.cast(),
        dst: o.dst.ptr.cast(),
        dst_row: o.dst.stride.m,
    };
    if c.m == 0 || c.n == 0 {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(Isa::Sve2p1.features()) {
        let bounds = sve2p1_dot::half_bounds(clamp);
        for i in (0..c.m).step_by(sve2p1_dot::ROWS) {
            let group = sve2p1_dot::Call {
                m: (c.m - i).min(sve2p1_dot::ROWS),
                lhs: c.lhs.wrapping_add(i.wrapping_mul(c.lhs_row)),
                dst: c.dst.wrapping_add(i.wrapping_mul(c.dst_row)),
                ..c
            };
            // SAFETY: SVE2.1 was detected (its blocks follow the SVE length, as nr does); the
            // group's rows are rows of the caller's buffers.
            unsafe { sve2p1_dot::rows(&group, bounds) };
        }
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { sve2p1_dot::portable(&c, 4 * arch::sve_lanes32(), clamp) };
}

/// The GEMV in scalar code, the same bits as the asm: blocks of `nr` columns at `rhs`, each
/// `nr` biases then `k` rows of `nr` values.
///
/// # Safety
/// As [`run`]'s, with `n >= 1` and blocks of `nr` columns.
pub unsafe fn gemv_portable(
    n: usize,
    k: usize,
    nr: usize,
    lhs: *const f32,
    rhs: *const f32,
    dst: *mut f32,
    clamp: Option<(f32, f32)>,
) {
    for j in 0..n {
        let block = rhs.wrapping_add((j / nr) * nr * (k + 1));
        let col = j % nr;
        // SAFETY: column j's bias and values lie in its block; lhs holds k values, dst n.
        unsafe {
            let mut acc = block.add(col).read_unaligned();
            for kk in 0..k {
                let w = block.add(nr * (kk + 1) + col).read_unaligned();
                acc = float::fmla_za(acc, w, lhs.add(kk).read_unaligned());
            }
            if let Some((lo, hi)) = clamp {
                acc = float::clamp_num(acc, lo, hi);
            }
            dst.add(j).write_unaligned(acc);
        }
    }
}
