//! The functions of every RHS packer, by kind: the getters' values and KleidiAI's assertions, and
//! one checked `pack` over arguments every RHS packer shares (the C ABI calls these; the packers
//! themselves live in the sibling modules).

use super::Source;
use super::rhs_pack_bf16::{self as bf16, KR as BF16_KR, NR as BF16_NR, Variant as Bf16};
use super::rhs_pack_float as float;
use super::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme as qsi8cxpsb;
use super::rhs_pack_nxk_qai4c32p as qai4c32p;
use super::rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 as qsi4c32pf16;
use super::rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0 as qsi4cxps1s0;
use super::rhs_pack_nxk_qsu2cxp as qsu2cxp;
use super::rhs_pack_qsi4c32p_qsu4c32s1s0 as qsi4c32p;
use super::rhs_pack_qsi4cxp_qs4cxs1s0 as qsi4cxp;
use super::rhs_pack_qsi8cxp_qsi8cx as qsi8cxp;
use crate::contract::{self, Checked, Violation};
use crate::pack::kinds::RhsPackerKind;

pub use super::args::RhsArgs as Args;

/// The packing parameters an RHS getter receives (those a packer's getter does not take are 0).
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// Reduction length.
    pub k: usize,
    /// Columns per packed group.
    pub nr: usize,
    /// K values per inner step.
    pub kr: usize,
    /// Splits of `kr`.
    pub sr: usize,
    /// Block length.
    pub bl: usize,
    /// `enum kai_datatype` of the block scales.
    pub scale_dt: u32,
}

/// `get_n_step`: the column step of the packer.
#[inline(always)]
pub fn n_step(kind: RhsPackerKind, nr: usize) -> usize {
    match kind {
        RhsPackerKind::Qsi4cxp(_)
        | RhsPackerKind::Qsi4cxps1s0
        | RhsPackerKind::Qsi8cxp(_)
        | RhsPackerKind::Qsu2cxp(_)
        | RhsPackerKind::Qsi4c32p(_)
        | RhsPackerKind::Qsi4c32pf16(_)
        | RhsPackerKind::Qai4c32p(_) => nr,
        RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v) => v.nr(),
        RhsPackerKind::Bf16(v) => v.nr(),
        RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb => qsi8cxpsb::nr(),
    }
}

/// `n_idx` starts a group of the bf16 packer `v` (12 columns; 2 x SVL32 for the SME packer).
fn bf16_group_start(v: Bf16, n_idx: usize) -> Checked {
    contract::require(n_idx % v.nr() == 0, "n_idx % kai_nr == 0")
}

/// `n_idx` starts a group of the float packer `v`.
fn float_group_start(v: float::Variant, n_idx: usize) -> Checked {
    contract::require(n_idx % v.nr() == 0, "(n_idx % n_step) == 0")
}

/// `get_rhs_offset`: where column (K x N) or row (N x K) `n_idx` of the source starts.
#[inline(always)]
pub fn offset(kind: RhsPackerKind, n_idx: usize, rhs_stride: usize) -> Result<usize, Violation> {
    match kind {
        RhsPackerKind::Qsi4cxp(source) => source.integer_rhs_offset(4, n_idx, rhs_stride),
        RhsPackerKind::Qsi8cxp(source) => source.integer_rhs_offset(8, n_idx, rhs_stride),
        RhsPackerKind::Qsu2cxp(_) => {
            contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t")
        }
        RhsPackerKind::Qsi4c32p(v) => v.source().integer_rhs_offset(4, n_idx, rhs_stride),
        RhsPackerKind::Qsi4cxps1s0 | RhsPackerKind::Qsi4c32pf16(_) | RhsPackerKind::Qai4c32p(_) => {
            Source::Nxk.integer_rhs_offset(4, n_idx, rhs_stride)
        }
        RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v) => {
            float_group_start(v, n_idx)?;
            match v.source() {
                Source::Kxn => {
                    contract::mul(n_idx, v.bytes(), "n_idx * sizeof(value) fits in size_t")
                }
                Source::Nxk => {
                    contract::mul(n_idx, rhs_stride, "n_idx * rhs_stride fits in size_t")
                }
            }
        }
        RhsPackerKind::Bf16(v) => {
            bf16_group_start(v, n_idx)?;
            contract::mul(
                n_idx,
                v.source_bytes(),
                "n_idx * sizeof(value) fits in size_t",
            )
        }
        RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb => {
            qsi8cxpsb::group_start(n_idx, kind == RhsPackerKind::ChunkedQsi8cxpsb)?;
            Ok(n_idx)
        }
    }
}

/// `get_bias_offset`: where the bias of column `n_idx` starts (the integer packers export no such
/// getter; their biases are f32).
#[inline(always)]
pub fn bias_offset(kind: RhsPackerKind, n_idx: usize) -> Result<usize, Violation> {
    let bytes = match kind {
        RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v) => {
            if v.bias_offset_aligned() {
                float_group_start(v, n_idx)?;
            }
            v.bytes()
        }
        RhsPackerKind::Bf16(v) => {
            if v == Bf16::QuantF32 {
                bf16_group_start(v, n_idx)?;
            }
            v.bias_bytes()
        }
        RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb => size_of::<i32>(),
        RhsPackerKind::Qsi4cxp(_)
        | RhsPackerKind::Qsi4cxps1s0
        | RhsPackerKind::Qsi8cxp(_)
        | RhsPackerKind::Qsu2cxp(_)
        | RhsPackerKind::Qsi4c32p(_)
        | RhsPackerKind::Qsi4c32pf16(_)
        | RhsPackerKind::Qai4c32p(_) => size_of::<f32>(),
    };
    contract::mul(n_idx, bytes, "bias offset fits in size_t")
}

/// `get_scale_offset` (only `rhs_{,imatmul_}pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme` have it): where the
/// `f32` scale of column `n_idx` starts; KleidiAI asserts nothing about `n_idx`.
#[inline(always)]
pub fn scale_offset(n_idx: usize) -> Result<usize, Violation> {
    contract::mul(n_idx, size_of::<f32>(), "scale offset fits in size_t")
}

/// KleidiAI's assertions on the packing parameters of the stride, offset and size getters; the
/// `(nr, kr, sr)` the packed layout is computed with.
#[inline(always)]
fn geometry(kind: RhsPackerKind, d: &Dims) -> Result<(usize, usize, usize), Violation> {
    match kind {
        RhsPackerKind::Qsi4cxp(_) | RhsPackerKind::Qsi4cxps1s0 | RhsPackerKind::Qsi8cxp(_) => {
            contract::packing_params(d.nr, "nr > 0", d.kr, d.sr)?;
            Ok((d.nr, d.kr, d.sr))
        }
        // KleidiAI asserts nothing but the offset's alignment; rkai refuses what would divide
        // by zero.
        RhsPackerKind::Qsu2cxp(_) => {
            contract::require(d.nr != 0, "nr > 0")?;
            Ok((d.nr, 4, 1))
        }
        RhsPackerKind::Qsi4c32p(_) => {
            qsi4c32p::check_getter(d.k, d.nr, d.kr, d.sr, d.bl, d.scale_dt)?;
            Ok((d.nr, d.kr, d.sr))
        }
        // Two values per byte, whatever `sr` the caller has.
        RhsPackerKind::Qsi4c32pf16(_) => {
            qsi4c32pf16::check_getter(d.k, d.nr, d.kr, d.bl)?;
            Ok((d.nr, d.kr, 2))
        }
        RhsPackerKind::Qai4c32p(_) => {
            qai4c32p::check_getter(d.k, d.nr, d.kr, d.bl)?;
            Ok((d.nr, d.kr, 2))
        }
        RhsPackerKind::Float(v) | RhsPackerKind::ChunkedFloat(v) => Ok((v.nr(), v.kr(), 1)),
        // Only the quantizing packer's getters take `nr` and `kr`, and must get its own.
        RhsPackerKind::Bf16(Bf16::QuantF32) => {
            contract::require(d.nr == BF16_NR, "kai_nr == nr")?;
            contract::require(d.kr == BF16_KR, "kai_kr == kr")?;
            Ok((BF16_NR, BF16_KR, 1))
        }
        RhsPackerKind::Bf16(v @ (Bf16::F16BiasF32 | Bf16::F16BiasF16 | Bf16::KxnF32Sme)) => {
            Ok((v.nr(), v.kr(), 1))
        }
        RhsPackerKind::Qsi8cxpsb | RhsPackerKind::ChunkedQsi8cxpsb => {
            Ok((qsi8cxpsb::nr(), qsi8cxpsb::KR, 1))
        }
    }
}

/// `get_rhs_packed_stride`: bytes of one packed group (or, for some float packers, column).
#[inline(always)]
pub fn packed_stride(kind: RhsPackerKind, d: &Dims) -> Result<usize, Violation> {
    let (nr, kr, sr) = geometry(kind, d)?;
    let per_column = matches!(kind, RhsPackerKind::Float(v) if v.stride_per_column());
    let nr = if per_column { 1 } else { nr };
    kind.layout(d.bl).stride(d.k, nr, kr, sr)
}

/// `get_rhs_packed_offset`: where the packed group holding column `n_idx` starts.
#[inline(always)]
pub fn packed_offset(kind: RhsPackerKind, n_idx: usize, d: &Dims) -> Result<usize, Violation> {
    match kind {
        RhsPackerKind::Bf16(Bf16::QuantF32) => {
            contract::require(d.nr != 0 && n_idx % d.nr == 0, "n_idx % nr == 0")?
        }
        RhsPackerKind::Bf16(v @ (Bf16::F16BiasF32 | Bf16::F16BiasF16 | Bf16::KxnF32Sme)) => {
            bf16_group_start(v, n_idx)?
        }
        RhsPackerKind::Qsi8cxpsb => qsi8cxpsb::group_start(n_idx, false)?,
        RhsPackerKind::ChunkedQsi8cxpsb => qsi8cxpsb::group_start(n_idx, true)?,
        RhsPackerKind::Qsi4cxp(_)
        | RhsPackerKind::Qsi4cxps1s0
        | RhsPackerKind::Qsi8cxp(_)
        | RhsPackerKind::Qsu2cxp(_)
        | RhsPackerKind::Qsi4c32p(_)
        | RhsPackerKind::Qsi4c32pf16(_)
        | RhsPackerKind::Qai4c32p(_)
        | RhsPackerKind::Float(_)
        | RhsPackerKind::ChunkedFloat(_) => {}
    }
    let (nr, kr, sr) = geometry(kind, d)?;
    kind.layout(d.bl).offset(n_idx, d.k, nr, kr, sr)
}

/// `get_rhs_packed_size`: bytes of `n` packed columns.
#[inline(always)]
pub fn packed_size(kind: RhsPackerKind, n: usize, d: &Dims) -> Result<usize, Violation> {
    let (nr, kr, sr) = geometry(kind, d)?;
    kind.layout(d.bl).size(n, d.k, nr, kr, sr)
}

/// The `Args` of a per-channel integer packer (per-channel scales, no block length).
macro_rules! per_channel_args {
    ($a:ident => $($ty:ident)::+) => {
        packer_args!($a => $($ty)::+ {
            num_groups, n, k, nr, kr, sr, extra_bytes; rhs, bias, scale, rhs_packed, params
        })
    };
}

/// Checks `a` as the packer of `kind` requires and packs, or returns the first violated
/// condition before writing anything.
///
/// # Safety
/// KleidiAI's contract of the packer: `rhs`, `bias`, `scale` and `zero` hold what it reads,
/// `rhs_packed` its packed size.
#[inline(always)]
pub unsafe fn pack(kind: RhsPackerKind, a: &Args) -> Checked {
    // SAFETY (every arm): arguments checked first; extents are the caller's contract.
    match kind {
        RhsPackerKind::Qsi4cxp(source) => {
            let args = per_channel_args!(a => qsi4cxp::Args);
            qsi4cxp::check(&args)?;
            unsafe { qsi4cxp::run(source, &args) }
        }
        RhsPackerKind::Qsi4cxps1s0 => {
            let args = per_channel_args!(a => qsi4cxp::Args);
            qsi4cxps1s0::check(&args)?;
            unsafe { qsi4cxps1s0::run(&args) }
        }
        RhsPackerKind::Qsi8cxp(source) => {
            let args = per_channel_args!(a => qsi8cxp::Args);
            qsi8cxp::check(&args)?;
            unsafe { qsi8cxp::run(source, &args) }
        }
        RhsPackerKind::Qsu2cxp(v) => {
            qsu2cxp::check(v, a)?;
            unsafe { qsu2cxp::run(v, a) }
        }
        RhsPackerKind::Qsi4c32p(v) => {
            let args = packer_args!(a => qsi4c32p::Args {
                num_groups, n, k, nr, kr, sr, bl, rhs_stride, scale_stride, extra_bytes;
                rhs, bias, scale, rhs_packed, params
            });
            qsi4c32p::check(v, &args)?;
            unsafe { qsi4c32p::run(v, &args) }
        }
        // These packers take the shared arguments as they are.
        RhsPackerKind::Qsi4c32pf16(v) => {
            qsi4c32pf16::check(v, a)?;
            unsafe { qsi4c32pf16::run(v, a) }
        }
        RhsPackerKind::Qai4c32p(v) => {
            qai4c32p::check(v, a)?;
            unsafe { qai4c32p::run(v, a) }
        }
        RhsPackerKind::Float(v) => {
            float::check(v, a)?;
            unsafe { float::run(v, a) }
        }
        RhsPackerKind::Bf16(v) => {
            bf16::check(v, a)?;
            unsafe { bf16::run(v, a) }
        }
        RhsPackerKind::Qsi8cxpsb => {
            qsi8cxpsb::check(a)?;
            unsafe { qsi8cxpsb::run(a) }
        }
        // `run(n, k_chunk_count, k_chunk_length, rhs_stride_row, rhs, bias, rhs_packed)`: the
        // float packer's run over the chunks' rows, with the parameters it fixes itself.
        RhsPackerKind::ChunkedFloat(v) => {
            float::check_chunked(v, a)?;
            unsafe { float::run_chunked(v, a) }
        }
        // `run(n, k_chunk_count, k_chunk_length, rhs_stride_row, rhs, bias, scale, rhs_packed,
        // params)`.
        RhsPackerKind::ChunkedQsi8cxpsb => {
            qsi8cxpsb::check_chunked(a)?;
            unsafe { qsi8cxpsb::run_chunked(a) }
        }
    }
    Ok(())
}
