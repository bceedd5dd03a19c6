//! The C functions of every RHS packer: one Rust function per verb over the packer's kind (the
//! kind's semantics are in `rkai_ukernels::pack::rhs`).

use super::{CArgs, ensure};
use rkai_ukernels::matmul::offsets;
use rkai_ukernels::pack::kinds::RhsPackerKind;
use rkai_ukernels::pack::lhs_imatmul_pack_sme::packed_k;
use rkai_ukernels::pack::rhs::{self, Dims};

/// The K of a packer call: `k`, or the chunks' `k_chunk_count * k_chunk_length` (`run`'s, with
/// `bl` the chunk length) or their packed K, each chunk rounded up to whole `kr` steps (the
/// getters').
fn k(kind: RhsPackerKind, symbol: &str, a: &CArgs, packed: bool) -> usize {
    match kind {
        RhsPackerKind::ChunkedFloat(v) if packed => {
            ensure(symbol, packed_k(v.kr(), a.k_chunk_count, a.k_chunk_length))
        }
        RhsPackerKind::ChunkedQsi8cxpsb if packed => ensure(
            symbol,
            packed_k(
                rkai_ukernels::pack::rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme::KR,
                a.k_chunk_count,
                a.k_chunk_length,
            ),
        ),
        RhsPackerKind::ChunkedFloat(_) | RhsPackerKind::ChunkedQsi8cxpsb => ensure(
            symbol,
            offsets::chunked_k(a.k_chunk_count, a.k_chunk_length),
        ),
        RhsPackerKind::Qsi4cxp(_)
        | RhsPackerKind::Qsi4cxps1s0
        | RhsPackerKind::Qsi8cxp(_)
        | RhsPackerKind::Qsu2cxp(_)
        | RhsPackerKind::Qsi4c32p(_)
        | RhsPackerKind::Qsi4c32pf16(_)
        | RhsPackerKind::Qai4c32p(_)
        | RhsPackerKind::Float(_)
        | RhsPackerKind::Bf16(_)
        | RhsPackerKind::Qsi8cxpsb => a.k,
    }
}

fn dims(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> Dims {
    Dims {
        k: k(kind, symbol, a, true),
        nr: a.nr,
        kr: a.kr,
        sr: a.sr,
        bl: a.bl,
        scale_dt: a.scale_dt,
    }
}

#[inline(always)]
pub fn get_n_step(kind: RhsPackerKind, _: &str, a: &CArgs) -> usize {
    rhs::n_step(kind, a.nr)
}

#[inline(always)]
pub fn get_rhs_offset(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, rhs::offset(kind, a.n_idx, a.rhs_stride))
}

#[inline(always)]
pub fn get_bias_offset(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, rhs::bias_offset(kind, a.n_idx))
}

#[inline(always)]
pub fn get_scale_offset(_: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, rhs::scale_offset(a.n_idx))
}

#[inline(always)]
pub fn get_rhs_packed_stride(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, rhs::packed_stride(kind, &dims(kind, symbol, a)))
}

#[inline(always)]
pub fn get_rhs_packed_offset(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(
        symbol,
        rhs::packed_offset(kind, a.n_idx, &dims(kind, symbol, a)),
    )
}

#[inline(always)]
pub fn get_rhs_packed_size(kind: RhsPackerKind, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, rhs::packed_size(kind, a.n, &dims(kind, symbol, a)))
}

/// # Safety
/// KleidiAI's contract of the packer: `rhs`, `bias`, `scale` and `zero` hold what it reads,
/// `rhs_packed` its packed size.
#[inline(always)]
pub unsafe fn run(kind: RhsPackerKind, symbol: &str, a: &CArgs) {
    let args = rhs::Args {
        num_groups: a.num_groups,
        n: a.n,
        k: k(kind, symbol, a, false),
        nr: a.nr,
        kr: a.kr,
        sr: a.sr,
        bl: match kind {
            RhsPackerKind::ChunkedFloat(_) | RhsPackerKind::ChunkedQsi8cxpsb => a.k_chunk_length,
            _ => a.bl,
        },
        rhs: a.rhs.cast(),
        rhs_stride: a.rhs_stride,
        bias: a.bias.cast(),
        scale: a.scale.cast(),
        scale_stride: a.scale_stride,
        zero: a.zero.cast(),
        rhs_packed: a.rhs_packed.cast_mut().cast(),
        extra_bytes: a.extra_bytes,
        params: a.params.cast(),
        lut: a.lut.cast(),
    };
    // SAFETY: the packer checks the arguments first; extents are the caller's contract.
    ensure(symbol, unsafe { rhs::pack(kind, &args) })
}
