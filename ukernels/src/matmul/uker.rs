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
//! `kai_matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot`
//! ([`UkerKernelKind::F16F16F16p4vsx2bf16Gemv`]): the f16 GEMV of [`sme2_gemv_f16`] (same
//! getters with 2-byte values and K rounded up to pairs, same assumptions and bounds).
//!
//! `kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa`
//! ([`UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa`]): an f32 GEMM of the LHS packed by
//! `matmul_pack_lhs_mxk_x32p4vsx1_x32_sme` (blocks of `mr` = SVL32 rows, one column of them per
//! K value; `operand.lhs.stride.m` bytes from block to block) times the RHS of the GEMV's
//! packers (`operand.rhs.stride.n` bytes from block to block), rows of the destination
//! `operand.dst.stride.m` bytes apart: `run` reads these three strides, as KleidiAI's does.
//! Every output starts from its column's bias bits (KleidiAI adds it to zeroed ZA as an
//! integer) and takes one `FMOPA` per K value in K order (a NaN result is the default NaN,
//! [`crate::float::fmopa`]); it is ALWAYS clamped as `FCLAMP` does, to the bounds at
//! `activation.clamp` with the clamp flag and to `-FLT_MAX`/`FLT_MAX` without it (so an
//! infinity becomes a finite bound without the flag too). KleidiAI splits a call into
//! sub-kernels by shape (2 x 2 blocks in the middle, narrower ones at the right and bottom
//! edges); rkai's asm (`sme2_mopa`) runs 2 x 2-block tiles everywhere, which changes no
//! result: each output is the same `FMOPA` chain. `k == 0` gives the clamped bias, as in
//! KleidiAI. Without SME2 the portable path gives the same bits with the blocks of a 128-bit
//! streaming length.
//!
//! `kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot`
//! ([`UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv`]): one raw int8 row times the RHS of
//! `matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme` (blocks of SVL32 columns), each
//! output requantized to int8 with the zero point at `operand.bias.scale_bias_global` and
//! `int32_t` bounds (`INT8_MIN..INT8_MAX` without the clamp flag); its checks, numerics, asm and
//! portable path: [`qai8_gemv`].
//!
//! `kai_matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa`
//! ([`UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa`]): the same GEMM on halves, the LHS packed by
//! `matmul_pack_lhs_mxk_x16p4vsx2_x16_sme` (blocks of SVL32 rows, per pair of K values the pair
//! of each row) and the RHS by `matmul_pack_rhs_kxn_x16p4vsx2bx16_x16_x16_sme` (blocks of SVL32
//! columns: their f16 biases, then per pair of K values the pair of each column), K rounded up
//! to pairs in both strides, the same three strides read, f16 output ([`mopa_f16_portable`]).
//! Numerics, from KleidiAI's asm (all six sub-kernels agree): each output starts from its
//! column's f16 bias widened to f32 by `FCVT` (exact; a signalling NaN quieted, payload kept)
//! and added to zeroed ZA as an integer (so a `-0` bias stays `-0`, unlike the
//! `matmul_clamp_f16_f16p_f16p` GEMMs' outer product with ones); then one widening `FMOPA` per
//! pair of K values in K order, [`float::f16::dot_add`] (the two products and their sum rounded
//! once to f32, then added to the sum with a second rounding; any NaN the default NaN); an odd
//! K's last pair meets the packers' zeros on both sides. The f32 sum is narrowed to f16 once, at
//! the end, by `FCVT` (ties to even, overflow to infinity, the default NaN to `0x7e00`), then
//! clamped by `FCLAMP` on halves ([`float::f16::clamp_num`]) to bounds that KleidiAI's `run`
//! reads as f32 and converts to f16 (ties to even): with the clamp flag the values at
//! `activation.clamp`, without it `(float16_t)-FLT_MAX` and `(float16_t)FLT_MAX`, which are
//! -infinity and +infinity. So without the flag no finite value or infinity is changed, but
//! `FCLAMP` still makes a NaN the lower bound: a NaN sum (a NaN operand, infinity x 0, opposite
//! infinities) comes out as -infinity, and with `k == 0` a NaN bias too. `k == 0` gives the
//! bias narrowed back and clamped. KleidiAI's sub-kernels cover the edges; rkai runs the f32
//! kernel's 2 x 2-block frame with f16 loads, the bias widening and f16 stores.
//!
//! `kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot`
//! ([`UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1`]): f16 rows (`lhs.stride.m` bytes apart) times
//! the RHS of `rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve`, f16 rows out (`dst.stride.m` bytes
//! apart); an SVE2.1 kernel outside streaming mode whose blocks follow the SVE length. Its
//! numerics, tiling and portable path: [`sve2p1_dot`].
//!
//! `kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa`
//! ([`UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa`]): int8 rows times int4 weights, requantized
//! to int8 ([`qai8_qsi4_mopa`]).
//! `kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot`
//! ([`UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv`]): one raw int8 row times the same int4 weights,
//! requantized to int8, step 1 x 16 SVL32 over groups of 2 x SVL32 columns ([`qai8_qsi4_gemv`]).
//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa`
//! ([`UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa`]): int8 x int8 requantized to int8,
//! step SVL32 x SVL32, on the u8 GEMMs' 8-bit MOPA core; its numerics, assumptions and portable
//! path: [`qai8_mopa`].
//! `kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa`
//! ([`UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4`]): the same GEMM, its short bottom
//! edges by SME2.1 `SMOP4A` where the CPU has them: [`qai8_mop4`].

#[cfg(target_arch = "aarch64")]
#[macro_use]
mod sme2_gemv;
pub mod qai8_gemv;
pub mod qai8_mopa;
pub mod qai8_qsi4_gemv;
pub mod qai8_qsi4_mopa;
pub mod sme2_gemv_f16;
#[cfg(target_arch = "aarch64")]
mod sme2_mopa;
pub mod sve2p1_dot;
#[macro_use]
pub mod u8_mopa;
pub mod qai8_mop4;

use crate::arch::{self, Isa};
use crate::contract::{self, Violation};
use crate::float;
use crate::matmul_types::*;
use crate::pack::kinds::{U8Output, UkerKernel, UkerKernelKind};

/// The f32 SME2 GEMV of the generic interface (see the module documentation).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla: UkerKernel = UkerKernel {
    name: "matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla",
    isa: Isa::Sme2,
    kind: UkerKernelKind::F32F32F32p4vsx1bf32Gemv,
};

/// The u8 GEMM of the generic interface with int32 output (`u8_mopa`).
#[allow(non_upper_case_globals)]
pub static matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa: UkerKernel = UkerKernel {
    name: "matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa",
    isa: Isa::Sme2,
    kind: UkerKernelKind::U8p4vsx4Mopa(U8Output::I32),
};

/// The f32 SME2 GEMM of the generic interface (see the module documentation).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa: UkerKernel = UkerKernel {
    name: "matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa",
    isa: Isa::Sme2,
    kind: UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa,
};

/// The f16 SME2 GEMM of the generic interface (see the module documentation).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa: UkerKernel = UkerKernel {
    name: "matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa",
    isa: Isa::Sme2,
    kind: UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa,
};

/// The u8 GEMM of the generic interface with f32 output (`u8_mopa`).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa: UkerKernel =
    UkerKernel {
        name: "matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa",
        isa: Isa::Sme2,
        kind: UkerKernelKind::U8p4vsx4Mopa(U8Output::F32),
    };

/// The f16 SME2 GEMV of the generic interface ([`sme2_gemv_f16`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot: UkerKernel = UkerKernel {
    name: "matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot",
    isa: Isa::Sme2,
    kind: UkerKernelKind::F16F16F16p4vsx2bf16Gemv,
};

/// The f16 SVE2.1 GEMM of the generic interface ([`sve2p1_dot`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot: UkerKernel = UkerKernel {
    name: "matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot",
    isa: Isa::Sve2p1,
    kind: UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1,
};

/// The int8-output SME2 GEMV of the generic interface ([`qai8_gemv`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot: UkerKernel = UkerKernel {
    name: "matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot",
    isa: Isa::Sme2,
    kind: UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv,
};
/// The int4-weight int8-output SME2 GEMM of the generic interface ([`qai8_qsi4_mopa`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa: UkerKernel =
    UkerKernel {
        name: "matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa",
        isa: Isa::Sme2,
        kind: UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa,
    };

/// The int4-weight int8-output SME2 GEMV of the generic interface ([`qai8_qsi4_gemv`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot: UkerKernel = UkerKernel {
    name: "matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot",
    isa: Isa::Sme2,
    kind: UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv,
};

/// The int8-output SME2 GEMM of the generic interface ([`qai8_mopa`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa: UkerKernel =
    UkerKernel {
        name: "matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa",
        isa: Isa::Sme2,
        kind: UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa,
    };

/// The int8-output GEMM with the SME2.1 quarter-tile sub-kernel ([`qai8_mop4`]).
#[allow(non_upper_case_globals)]
pub static matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa: UkerKernel =
    UkerKernel {
        name: "matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa",
        isa: Isa::Sme2p1,
        kind: UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4,
    };

/// The kernels of the generic interface this module defines.
pub const KERNELS: &[&UkerKernel] = &[
    &matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla,
    &matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot,
    &matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa,
    &matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa,
    &matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa,
    &matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa,
    &matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot,
    &matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot,
    &matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa,
    &matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa,
    &matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot,
    &matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa,
];

/// Whose formulas a kernel's getters follow.
#[derive(Clone, Copy)]
enum Formulas {
    /// KleidiAI's float and int8-output kernels: values of `bytes` bytes; the LHS stride rounds
    /// K up to `lhs_kr`, the RHS stride to `rhs_kr`; `rhs_extra` bytes more per column in each
    /// RHS block (a float bias; an int8 kernel's `i32` bias and `f32` scale).
    Float {
        bytes: usize,
        lhs_kr: usize,
        rhs_kr: usize,
        rhs_extra: usize,
    },
    /// The u8 GEMMs' ([`u8_mopa`]).
    U8,
    /// The int4-weight GEMM's ([`qai8_qsi4_mopa`]): 1-byte LHS values and outputs, K rounded up
    /// to 4 in the LHS, RHS groups of `nr` biases, nibbles (K rounded up to 32) and scales.
    Qsi4,
    /// The int4-weight GEMV's ([`qai8_qsi4_gemv`]): the GEMM's RHS groups, an LHS row of `k`
    /// bytes, the row index asserted 0, and a step of eight groups (RHS offsets in groups).
    Qsi4Gemv,
}

/// The getter formulas of `kind`: the one match a new kernel kind must add an arm to (beside
/// [`tile`], [`check`] and [`run`]).
fn formulas(kind: UkerKernelKind) -> Formulas {
    match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv | UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa => {
            Formulas::Float {
                bytes: 4,
                lhs_kr: 1,
                rhs_kr: 1,
                rhs_extra: 4,
            }
        }
        UkerKernelKind::F16F16F16p4vsx2bf16Gemv | UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa => {
            Formulas::Float {
                bytes: sme2_gemv_f16::BYTES,
                lhs_kr: sme2_gemv_f16::KR,
                rhs_kr: sme2_gemv_f16::KR,
                rhs_extra: sme2_gemv_f16::BYTES,
            }
        }
        // The LHS stride does not round K; the packed RHS holds whole pairs.
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => Formulas::Float {
            bytes: sve2p1_dot::BYTES,
            lhs_kr: 1,
            rhs_kr: 2,
            rhs_extra: sve2p1_dot::BYTES,
        },
        UkerKernelKind::U8p4vsx4Mopa(_) => Formulas::U8,
        UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv => Formulas::Float {
            bytes: 1,
            lhs_kr: qai8_gemv::KR,
            rhs_kr: qai8_gemv::KR,
            rhs_extra: qai8_gemv::BIAS_AND_SCALE,
        },
        UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa => Formulas::Qsi4,
        UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv => Formulas::Qsi4Gemv,
        UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa
        | UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4 => Formulas::Float {
            bytes: 1,
            lhs_kr: 4,
            rhs_kr: 4,
            rhs_extra: 8,
        },
    }
}

/// Whether KleidiAI's kernel asserts `m == 1` (the GEMVs).
fn one_row(kind: UkerKernelKind) -> bool {
    match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv
        | UkerKernelKind::F16F16F16p4vsx2bf16Gemv
        | UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv
        | UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv => true,
        UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa
        | UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa
        | UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1
        | UkerKernelKind::U8p4vsx4Mopa(_)
        | UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa
        | UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa
        | UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4 => false,
    }
}

/// `k` rounded up to a multiple of `kr` (wrapping, as KleidiAI's unchecked arithmetic).
fn k_padded(k: usize, kr: usize) -> usize {
    k.wrapping_add(kr - 1) / kr * kr
}

/// The only `flags` bit the kernels accept.
pub const FLAG_CLAMP: u64 = kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u64;

/// `(mr, nr)`: rows and columns of one step.
fn tile(kind: UkerKernelKind) -> (usize, usize) {
    match kind {
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv
        | UkerKernelKind::F16F16F16p4vsx2bf16Gemv
        | UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv => (1, arch::sme_lanes32()),
        UkerKernelKind::U8p4vsx4Mopa(_) => (2 * arch::sme_lanes32(), 2 * arch::sme_lanes32()),
        UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa => {
            (qai8_qsi4_mopa::tile(), qai8_qsi4_mopa::tile())
        }
        UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa | UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa => {
            (arch::sme_lanes32(), arch::sme_lanes32())
        }
        UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa
        | UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4 => qai8_mopa::tile(),
        UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv => (1, qai8_qsi4_gemv::n_step()),
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => (1, 4 * arch::sve_lanes32()),
    }
}

/// `get_step`: M and N granularity of a split; K is not splittable (0).
pub fn step(kind: UkerKernelKind) -> kai_matmul_uker_dim_args {
    let (m, n) = tile(kind);
    kai_matmul_uker_dim_args { m, n, k: 0 }
}

/// `get_lhs_stride` of an LHS of `shape`: `mr` rows of `k` values (rounded up to `lhs_kr`).
pub fn lhs_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_lhs_dim_args,
) -> kai_matmul_uker_lhs_stride_args {
    match formulas(kind) {
        Formulas::U8 => u8_mopa::lhs_stride(shape),
        Formulas::Qsi4 => kai_matmul_uker_lhs_stride_args {
            m: qai8_qsi4_mopa::lhs_block(shape.k),
        },
        Formulas::Qsi4Gemv => kai_matmul_uker_lhs_stride_args { m: shape.k },
        Formulas::Float { bytes, lhs_kr, .. } => kai_matmul_uker_lhs_stride_args {
            m: (tile(kind).0)
                .wrapping_mul(k_padded(shape.k, lhs_kr))
                .wrapping_mul(bytes),
        },
    }
}

/// `get_lhs_offset` of the start coordinate `index`.
pub fn lhs_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_lhs_dim_args,
    stride: &kai_matmul_uker_lhs_stride_args,
) -> Result<usize, Violation> {
    match formulas(kind) {
        Formulas::U8 => u8_mopa::lhs_offset(index, stride),
        Formulas::Qsi4Gemv => {
            contract::require(index.m == 0, "index->m == 0")?;
            contract::require(index.k == 0, "index->k == 0")?;
            Ok(index.m.wrapping_mul(stride.m))
        }
        Formulas::Float { .. } | Formulas::Qsi4 => {
            let (mr, _) = tile(kind);
            contract::require(index.m % mr == 0, "index->m % get_m_step() == 0")?;
            contract::require(index.k == 0, "index->k == 0")?;
            Ok((index.m / mr).wrapping_mul(stride.m))
        }
    }
}

/// `get_rhs_stride` of a packed RHS of `shape`: one block of `nr` biases and `k` rows (rounded
/// up to `rhs_kr`).
pub fn rhs_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_rhs_dim_args,
) -> kai_matmul_uker_rhs_stride_args {
    match formulas(kind) {
        Formulas::U8 => u8_mopa::rhs_stride(shape),
        Formulas::Qsi4 | Formulas::Qsi4Gemv => kai_matmul_uker_rhs_stride_args {
            n: qai8_qsi4_mopa::rhs_group(shape.k),
        },
        Formulas::Float {
            bytes,
            rhs_kr,
            rhs_extra,
            ..
        } => {
            let k = k_padded(shape.k, rhs_kr);
            kai_matmul_uker_rhs_stride_args {
                n: (tile(kind).1).wrapping_mul(k.wrapping_mul(bytes).wrapping_add(rhs_extra)),
            }
        }
    }
}

/// `get_rhs_offset` of the start coordinate `index`.
pub fn rhs_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_rhs_dim_args,
    stride: &kai_matmul_uker_rhs_stride_args,
) -> Result<usize, Violation> {
    match formulas(kind) {
        Formulas::U8 => u8_mopa::rhs_offset(index, stride),
        // KleidiAI asserts whole steps but counts groups.
        Formulas::Qsi4Gemv => {
            contract::require(
                index.n % qai8_qsi4_gemv::n_step() == 0,
                "index->n % get_n_step() == 0",
            )?;
            contract::require(index.k == 0, "index->k == 0")?;
            Ok((index.n / qai8_qsi4_gemv::nr()).wrapping_mul(stride.n))
        }
        Formulas::Float { .. } | Formulas::Qsi4 => {
            let (_, nr) = tile(kind);
            contract::require(index.n % nr == 0, "index->n % get_n_step() == 0")?;
            contract::require(index.k == 0, "index->k == 0")?;
            Ok((index.n / nr).wrapping_mul(stride.n))
        }
    }
}

/// Bytes of a destination value.
fn dst_bytes(kind: UkerKernelKind) -> usize {
    match formulas(kind) {
        // int32 or f32.
        Formulas::U8 => 4,
        // int8.
        Formulas::Qsi4 | Formulas::Qsi4Gemv => 1,
        Formulas::Float { bytes, .. } => bytes,
    }
}

/// `get_dst_stride` of a destination of `shape`: rows of `n` values.
pub fn dst_stride(
    kind: UkerKernelKind,
    shape: &kai_matmul_uker_dst_dim_args,
) -> kai_matmul_uker_dst_stride_args {
    kai_matmul_uker_dst_stride_args {
        m: shape.n.wrapping_mul(dst_bytes(kind)),
    }
}

/// `get_dst_offset` of the start coordinate `index`.
pub fn dst_offset(
    kind: UkerKernelKind,
    index: &kai_matmul_uker_dst_dim_args,
    stride: &kai_matmul_uker_dst_stride_args,
) -> Result<usize, Violation> {
    match formulas(kind) {
        Formulas::U8 => u8_mopa::dst_offset(index, stride),
        Formulas::Qsi4Gemv => {
            contract::require(index.m == 0, "index->m == 0")?;
            contract::require(
                index.n % qai8_qsi4_gemv::n_step() == 0,
                "index->n % get_n_step() == 0",
            )?;
            Ok(index.m.wrapping_mul(stride.m).wrapping_add(index.n))
        }
        Formulas::Float { .. } | Formulas::Qsi4 => {
            let (bytes, (mr, nr)) = (dst_bytes(kind), tile(kind));
            contract::require(index.m % mr == 0, "index->m % get_m_step() == 0")?;
            contract::require(index.n % nr == 0, "index->n % get_n_step() == 0")?;
            Ok(index
                .m
                .wrapping_mul(stride.m)
                .wrapping_add(index.n.wrapping_mul(bytes)))
        }
    }
}

/// `get_dst_size` of a destination of `shape`.
pub fn dst_size(
    _kind: UkerKernelKind,
    shape: &kai_matmul_uker_dst_dim_args,
    stride: &kai_matmul_uker_dst_stride_args,
) -> usize {
    shape.m.wrapping_mul(stride.m)
}

/// KleidiAI's assumptions on a `run`'s arguments, in its order, then the float clamp bounds the
/// call asks for (`None`: no clamp, or the int8-output kernel's integer ones, see
/// [`qai8_qsi4_mopa::check`]).
///
/// # Safety
/// With the clamp flag set, non-null bound pointers point to readable 32-bit values; for the
/// int8-output kernel a non-null `scale_bias_global` too.
pub unsafe fn check(
    kind: UkerKernelKind,
    args: &kai_matmul_uker_args,
) -> Result<Option<(f32, f32)>, Violation> {
    match kind {
        UkerKernelKind::U8p4vsx4Mopa(out) => {
            // SAFETY: forwarded contract.
            let call = unsafe { u8_mopa::check(args, out == U8Output::F32) }?;
            Ok(match call.finish {
                u8_mopa::Finish::F32 { lo, hi, .. } => Some((lo, hi)),
                u8_mopa::Finish::I32 => None,
            })
        }
        // Its bounds are `int32_t`s, always applied: `qai8_gemv::check` returns them.
        UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv => {
            // SAFETY: forwarded contract.
            unsafe { qai8_gemv::check(args) }?;
            Ok(None)
        }
        UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa => {
            // SAFETY: forwarded contract. The bounds are integers: none to report as floats.
            unsafe { qai8_qsi4_mopa::check(args) }.map(|_| None)
        }
        UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv => {
            // SAFETY: forwarded contract. The bounds are integers: none to report as floats.
            unsafe { qai8_qsi4_gemv::check(args) }.map(|_| None)
        }
        // Its bounds are `int32_t`s, always applied: `qai8_mopa::check` returns them.
        UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa
        | UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4 => {
            // SAFETY: forwarded contract.
            unsafe { qai8_mopa::check(args) }?;
            Ok(None)
        }
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv
        | UkerKernelKind::F16F16F16p4vsx2bf16Gemv
        | UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa
        | UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa
        | UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => {
            contract::require(
                args.flags & !FLAG_CLAMP == 0,
                "Only supported flags are accepted!",
            )?;
            if one_row(kind) {
                contract::require(args.shape.m == 1, "args->shape.m == 1")?;
            }
            let o = &args.operand;
            contract::require(!o.lhs.ptr.is_null(), "args->operand.lhs.ptr != NULL")?;
            contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
            contract::require(!o.dst.ptr.is_null(), "args->operand.dst.ptr != NULL")?;
            if kind == UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 {
                sve2p1_dot::check_strides(args)?;
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
    }
}

/// `run`: checks `args` ([`check`]) and computes the call, natively where the CPU has the
/// kernel's ISA.
///
/// # Safety
/// `args` satisfies KleidiAI's contract. The GEMV: `k` readable floats at the LHS,
/// `ceil(n / nr)` packed blocks at the RHS (`get_rhs_stride` bytes each), `n` writable floats
/// at the destination. The GEMMs: `ceil(m / mr)` packed LHS blocks and `ceil(n / nr)` packed RHS
/// blocks readable at the arguments' strides, `m` rows of `n` writable values at the
/// destination's. The destination overlaps neither input, and the clamp bounds are readable
/// when the flag is set. A pending lazy ZA save must follow the AAPCS64 SME ABI.
pub unsafe fn run(kind: UkerKernelKind, args: &kai_matmul_uker_args) -> Result<(), Violation> {
    // SAFETY (every arm): forwarded contract.
    match kind {
        // Checks its arguments itself.
        UkerKernelKind::U8p4vsx4Mopa(out) => unsafe { u8_mopa::run(args, out == U8Output::F32) },
        UkerKernelKind::Qai8Qsi8cxp4vsx4bi32sf32Gemv => unsafe { qai8_gemv::run(args) },
        UkerKernelKind::Qai8p8vsx4Qsi4cxp8vsx4Mopa => unsafe { qai8_qsi4_mopa::run(args) },
        UkerKernelKind::Qai8Qsi4cxp8vsx4Gemv => unsafe { qai8_qsi4_gemv::run(args) },
        UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4bi32sf32Mopa => unsafe { qai8_mopa::run(args) },
        UkerKernelKind::Qai8p4vsx4Qsi8cxp4vsx4sf32bi32Mop4 => unsafe { qai8_mop4::run(args) },
        UkerKernelKind::F32F32F32p4vsx1bf32Gemv => {
            let clamp = unsafe { check(kind, args) }?;
            unsafe { run_gemv(args, clamp) };
            Ok(())
        }
        UkerKernelKind::F16F16F16p4vsx2bf16Gemv => {
            let clamp = unsafe { check(kind, args) }?;
            let (o, n, k) = (&args.operand, args.shape.n, args.shape.k);
            unsafe { sme2_gemv_f16::run(n, k, (o.lhs.ptr, o.rhs.ptr, o.dst.ptr), clamp) };
            Ok(())
        }
        UkerKernelKind::F32p4vsx1F32p4vsx1bf32Mopa => {
            let clamp = unsafe { check(kind, args) }?;
            unsafe { run_mopa(args, Mopa::F32, mopa_bounds(clamp)) };
            Ok(())
        }
        UkerKernelKind::F16p4vsx2F16p4vsx2bf16Mopa => {
            let clamp = unsafe { check(kind, args) }?;
            unsafe { run_mopa(args, Mopa::F16, mopa_bounds(clamp)) };
            Ok(())
        }
        UkerKernelKind::F16F16F16p16vsx2bf16Sve2p1 => {
            let clamp = unsafe { check(kind, args) }?;
            unsafe { run_f16_gemm(args, clamp) };
            Ok(())
        }
    }
}

/// The f32 SME2 GEMV's call after its checks.
///
/// # Safety
/// As [`run`]'s for the GEMV.
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

/// The element type of a generic-interface float GEMM.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mopa {
    /// f32 values, one K value per `FMOPA`
    /// (`matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa`).
    F32,
    /// f16 values, one pair of K values per widening `FMOPA`, f16 biases and output
    /// (`matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa`).
    F16,
}

/// The bounds a float GEMM clamps to: KleidiAI's GEMMs always clamp, without the flag to
/// `-FLT_MAX`/`FLT_MAX` (which the f16 one rounds to infinities).
pub fn mopa_bounds(clamp: Option<(f32, f32)>) -> (f32, f32) {
    clamp.unwrap_or((-f32::MAX, f32::MAX))
}

/// A float GEMM's `run` after its checks, with the clamp bounds it applies (f32, as read; the
/// f16 GEMM rounds them to halves, as KleidiAI's `run` does).
///
/// # Safety
/// As [`run`]'s: `ceil(m / SVL32)` LHS blocks and `ceil(n / SVL32)` RHS blocks readable at the
/// arguments' strides, `m` rows of `n` writable values at the destination.
unsafe fn run_mopa(args: &kai_matmul_uker_args, elem: Mopa, (lo, hi): (f32, f32)) {
    let o = &args.operand;
    let (m, n, k) = (args.shape.m, args.shape.n, args.shape.k);
    if m == 0 || n == 0 {
        return;
    }
    let lhs = (o.lhs.ptr.cast::<u8>(), o.lhs.stride.m);
    let rhs = (o.rhs.ptr.cast::<u8>(), o.rhs.stride.n);
    let dst = (o.dst.ptr.cast::<u8>(), o.dst.stride.m);
    let half_bounds = (float::f16::from_f32(lo), float::f16::from_f32(hi));
    #[cfg(target_arch = "aarch64")]
    if arch::Features::detect().contains(arch::Features::SME2) {
        type Gemm = unsafe fn(
            (usize, usize, usize),
            (*const u8, usize),
            (*const u8, usize),
            (*mut u8, usize),
            (u32, u32),
        );
        let (gemm, steps, bounds): (Gemm, _, _) = match elem {
            Mopa::F32 => (sme2_mopa::gemm_f32, k, (lo.to_bits(), hi.to_bits())),
            Mopa::F16 => (
                sme2_mopa::gemm_f16,
                k.div_ceil(2),
                (u32::from(half_bounds.0), u32::from(half_bounds.1)),
            ),
        };
        // SAFETY: SME2 was detected; the buffers are the caller's contract.
        unsafe { gemm((m, n, steps), lhs, rhs, dst, bounds) };
        return;
    }
    let vl = arch::sme_lanes32();
    // SAFETY (both): the caller's contract.
    match elem {
        Mopa::F32 => unsafe {
            mopa_portable(
                (m, n, k),
                vl,
                (lhs.0.cast(), lhs.1),
                (rhs.0.cast(), rhs.1),
                (dst.0.cast(), dst.1),
                (lo, hi),
            )
        },
        Mopa::F16 => unsafe {
            mopa_f16_portable(
                (m, n, k),
                vl,
                (lhs.0.cast(), lhs.1),
                (rhs.0.cast(), rhs.1),
                (dst.0.cast(), dst.1),
                half_bounds,
            )
        },
    }
}

/// Output `(i, j)` of a float GEMM's blocks of `vl` rows and columns (strides in bytes) is
/// `value(LHS block of row i, RHS block of column j, i % vl, j % vl)`.
///
/// # Safety
/// `value` reads only its row's and column's values in the blocks it is given; `m` rows of `n`
/// writable values at `dst`.
unsafe fn each_output<T>(
    (m, n): (usize, usize),
    vl: usize,
    (lhs, lhs_stride): (*const T, usize),
    (rhs, rhs_stride): (*const T, usize),
    (dst, dst_stride): (*mut T, usize),
    value: impl Fn(*const T, *const T, usize, usize) -> T,
) {
    for i in 0..m {
        let lblock = lhs
            .cast::<u8>()
            .wrapping_add((i / vl) * lhs_stride)
            .cast::<T>();
        let row = dst.cast::<u8>().wrapping_add(i * dst_stride).cast::<T>();
        for j in 0..n {
            let rblock = rhs
                .cast::<u8>()
                .wrapping_add((j / vl) * rhs_stride)
                .cast::<T>();
            // SAFETY: (i, j) lies in the destination (the caller's contract).
            unsafe {
                row.add(j)
                    .write_unaligned(value(lblock, rblock, i % vl, j % vl))
            };
        }
    }
}

/// The f32 GEMM in scalar code, the same bits as the asm: output `(i, j)` is column `j`'s bias,
/// then one fused multiply-add per K value of row `i` of LHS block `i / vl` (`vl` values per K
/// step) and column `j` of RHS block `j / vl` (`vl` biases, then `vl` values per K step), in K
/// order, then clamped as `FCLAMP` does. Strides in bytes.
///
/// # Safety
/// As [`run`]'s for the f32 GEMM, with blocks of `vl` rows and columns.
pub unsafe fn mopa_portable(
    (m, n, k): (usize, usize, usize),
    vl: usize,
    lhs: (*const f32, usize),
    rhs: (*const f32, usize),
    dst: (*mut f32, usize),
    (lo, hi): (f32, f32),
) {
    // SAFETY: row r's values and column c's bias and values lie in their blocks (the caller's
    // contract).
    let value = |lblock: *const f32, rblock: *const f32, r: usize, c: usize| unsafe {
        let mut acc = rblock.add(c).read_unaligned();
        for kk in 0..k {
            let a = lblock.add(kk * vl + r).read_unaligned();
            let b = rblock.add(vl * (kk + 1) + c).read_unaligned();
            acc = float::fmopa(acc, a, b);
        }
        float::clamp_num(acc, lo, hi)
    };
    // SAFETY: the caller's contract.
    unsafe { each_output((m, n), vl, lhs, rhs, dst, value) };
}

/// The f16 GEMM in scalar code, the same bits as the asm: output `(i, j)` starts from column
/// `j`'s f16 bias widened to f32 (`FCVT`: exact, a signalling NaN quieted), takes one widening
/// `FMOPA` ([`float::f16::dot_add`]) per pair of K values of row `i` of LHS block `i / vl` (`vl`
/// pairs per step) and column `j` of RHS block `j / vl` (`vl` biases, then `vl` pairs per
/// step), in K order (an odd K's last pair holds the packers' zero), is narrowed to f16 (`FCVT`)
/// and clamped by `FCLAMP` on halves to `(lo, hi)` (f16 bits). Strides in bytes.
///
/// # Safety
/// As [`run`]'s for the f16 GEMM, with blocks of `vl` rows and columns.
pub unsafe fn mopa_f16_portable(
    (m, n, k): (usize, usize, usize),
    vl: usize,
    lhs: (*const u16, usize),
    rhs: (*const u16, usize),
    dst: (*mut u16, usize),
    (lo, hi): (u16, u16),
) {
    // SAFETY: row r's pairs and column c's bias and pairs lie in their blocks (the caller's
    // contract).
    let value = |lblock: *const u16, rblock: *const u16, r: usize, c: usize| unsafe {
        let mut acc = f32::from_bits(float::f16::to_f32_bits(rblock.add(c).read_unaligned()));
        for p in 0..k.div_ceil(2) {
            let a = lblock.add(2 * (p * vl + r));
            let b = rblock.add(vl + 2 * (p * vl + c));
            acc = float::f16::dot_add(
                acc,
                [a.read_unaligned(), a.add(1).read_unaligned()],
                [b.read_unaligned(), b.add(1).read_unaligned()],
            );
        }
        float::f16::clamp_num(float::f16::from_f32(acc), lo, hi)
    };
    // SAFETY: the caller's contract.
    unsafe { each_output((m, n), vl, lhs, rhs, dst, value) };
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
