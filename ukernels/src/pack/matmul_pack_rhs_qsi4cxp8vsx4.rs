//! KleidiAI's four int4 SME RHS packers of the generic interface (`kai_matmul_pack_rhs.h`):
//! `kai_matmul_pack_rhs_{kxn,nxk}_qsi4cxp8vsx4sf32bi32_{qsi4cx,qsu4cx}_f32_i32_sme`, the RHS of
//! the generic int8-output kernels (`qsi4cxp8vsx4sf32bi32`). One implementation; the source
//! orientation (K x N or N x K) and the source signedness (`qsi4cx`: two's-complement nibbles;
//! `qsu4cx`: unsigned nibbles with zero point 8) are its parameters.
//!
//! Format: blocks of `nr` = 8 x vscale columns (vscale = SVL / 128, so `nr` is twice the
//! streaming length in 32-bit lanes), each
//! - `nr` int32 biases: `bias[c] + k_sum_scale * sum_k(w[k][c])` (wrapping), with `w` the
//!   signed int4 values and `k_sum_scale` the int32 at `k_sum_scale_global`;
//! - `roundup(k, 32) / 4` groups of 4 K rows, each `nr` columns of 2 bytes: rows `4g` and `4g + 1`
//!   in the low and high nibble of the first byte, `4g + 2` and `4g + 3` in the second, as
//!   signed nibbles (an unsigned source is moved to signed by flipping bit 3);
//! - `nr` f32 scales: `scale[c] * scale_global`, one `FMUL` each ([`float::fmul`]: Arm's NaN
//!   rules on every target).
//!
//! Everything past `n` or past `k` is zero. Blocks lie `stride.n` bytes apart (the caller's
//! stride, normally `get_rhs_packed_stride`). With `n == 0` or `k == 0` nothing is written, as
//! in KleidiAI. Every operand pointer must be non-null and `flags` zero (KleidiAI's assumptions,
//! checked before anything is read). rkai packs with plain loads and stores (no streaming mode);
//! without SME the blocks are those of a 128-bit streaming length.

use crate::arch;
use crate::contract::{self, Violation};
use crate::float;
use crate::pack::Source;
use crate::pack_rhs_types::kai_matmul_pack_rhs_uker_args;

/// Bytes of one packed bias (int32) and of one packed scale (f32).
const BIAS_BYTES: usize = 4;
const SCALE_BYTES: usize = 4;

/// K rows per packed group (2 bytes per column).
const KR: usize = 4;

/// K is padded to a multiple of this in every block.
const K_MULTIPLE: usize = 32;

/// Columns per block and N step: 8 x vscale.
pub fn nr() -> usize {
    2 * arch::sme_lanes32()
}

/// `roundup(a, b)` as KleidiAI's `kai_roundup` computes it (wrapping on overflow).
const fn roundup(a: usize, b: usize) -> usize {
    a.wrapping_add(b - 1) / b * b
}

/// Strides `(n, k)` of an unpacked source of `shape = (n, k)`: K x N rows hold `n` nibbles, N x K
/// rows `k` nibbles, each rounded up to whole bytes; the other stride is 0 (half a byte).
pub const fn rhs_stride(source: Source, (n, k): (usize, usize)) -> (usize, usize) {
    match source {
        Source::Kxn => (0, roundup(n, 2) / 2),
        Source::Nxk => (roundup(k, 2) / 2, 0),
    }
}

/// KleidiAI's assumptions on a start column (`n_idx`) and start row (`k_idx`).
fn aligned(n_idx: usize, k_idx: usize) -> Result<(), Violation> {
    contract::require(n_idx % nr() == 0, "index->n % nr == 0")?;
    contract::require(k_idx == 0, "index->k == 0")
}

/// Byte offset of column `n_idx` in the source: half a byte a column in K x N (the stride is not
/// read), a row of `stride_n` bytes a column in N x K.
pub fn rhs_offset(
    source: Source,
    n_idx: usize,
    k_idx: usize,
    stride_n: usize,
) -> Result<usize, Violation> {
    aligned(n_idx, k_idx)?;
    Ok(match source {
        Source::Kxn => n_idx / 2,
        Source::Nxk => n_idx.wrapping_mul(stride_n),
    })
}

/// Bytes of one packed block for `k` rows: biases, `roundup(k, 32)` nibbles a column, scales.
pub fn packed_stride(k: usize) -> usize {
    let per_column = BIAS_BYTES
        .wrapping_add(roundup(k, K_MULTIPLE) / 2)
        .wrapping_add(SCALE_BYTES);
    nr().wrapping_mul(per_column)
}

/// Byte offset of the block of column `n_idx` in a packed RHS of block stride `stride`.
pub fn packed_offset(n_idx: usize, k_idx: usize, stride: usize) -> Result<usize, Violation> {
    aligned(n_idx, k_idx)?;
    Ok((n_idx / nr()).wrapping_mul(stride))
}

/// Bytes of a packed RHS of `n` columns with block stride `stride`.
pub fn packed_size(n: usize, stride: usize) -> usize {
    let nr = nr();
    (roundup(n, nr) / nr).wrapping_mul(stride)
}

/// Byte offset of column `n_idx` in the bias (KleidiAI asserts nothing about it).
pub const fn bias_offset(n_idx: usize) -> usize {
    n_idx.wrapping_mul(BIAS_BYTES)
}

/// Byte offset of column `n_idx` in the scales (KleidiAI asserts nothing about it).
pub const fn scale_offset(n_idx: usize) -> usize {
    n_idx.wrapping_mul(SCALE_BYTES)
}

/// KleidiAI's assumptions on a packing call's arguments, in its order.
fn check(args: &kai_matmul_pack_rhs_uker_args) -> Result<(), Violation> {
    let o = &args.operand;
    contract::require(args.flags == 0, "args->flags == 0")?;
    contract::require(!o.rhs.ptr.is_null(), "args->operand.rhs.ptr != NULL")?;
    contract::require(
        !o.rhs_packed.ptr.is_null(),
        "args->operand.rhs_packed.ptr != NULL",
    )?;
    contract::require(!o.bias_n.ptr.is_null(), "args->operand.bias_n.ptr != NULL")?;
    contract::require(
        !o.k_sum_scale_global.ptr.is_null(),
        "args->operand.k_sum_scale_global.ptr != NULL",
    )?;
    contract::require(
        !o.scale_n.ptr.is_null(),
        "args->operand.scale_n.ptr != NULL",
    )?;
    contract::require(
        !o.scale_global.ptr.is_null(),
        "args->operand.scale_global.ptr != NULL",
    )
}

/// Packs the weights of `args` (`unsigned`: the source nibbles have zero point 8).
///
/// # Safety
/// The source holds `args.shape` (orientation `source`, rows `stride.k` (K x N) or `stride.n`
/// (N x K) bytes apart), `bias_n` and `scale_n` hold `n` values, `k_sum_scale_global` one int32,
/// `scale_global` one f32, and each block at `rhs_packed + b * stride.n`
/// (`b < n.div_ceil(nr())`) is writable for `packed_stride(k)` bytes.
pub unsafe fn run(
    source: Source,
    unsigned: bool,
    args: &kai_matmul_pack_rhs_uker_args,
) -> Result<(), Violation> {
    check(args)?;
    let o = &args.operand;
    // SAFETY: checked non-null; the caller's contract makes them readable.
    let (k_sum_scale, scale_global) = unsafe {
        (
            o.k_sum_scale_global.ptr.cast::<i32>().read_unaligned(),
            o.scale_global.ptr.cast::<f32>().read_unaligned(),
        )
    };
    let (n, k) = (args.shape.n, args.shape.k);
    if n == 0 || k == 0 {
        return Ok(());
    }
    let rhs = o.rhs.ptr.cast::<u8>();
    let row = match source {
        Source::Kxn => o.rhs.stride.k,
        Source::Nxk => o.rhs.stride.n,
    };
    let flip = if unsigned { 8 } else { 0 };
    // The signed nibble (4 bits, two's complement) of column `c`, row `kk` of the source.
    let nibble = |c: usize, kk: usize| -> u8 {
        let (at, high) = match source {
            Source::Kxn => (kk * row + c / 2, c % 2 == 1),
            Source::Nxk => (c * row + kk / 2, kk % 2 == 1),
        };
        // SAFETY: called for c < n and kk < k only: a byte of the source.
        let byte = unsafe { rhs.add(at).read() };
        (if high { byte >> 4 } else { byte & 0x0f }) ^ flip
    };
    let nr = nr();
    let groups = roundup(k, K_MULTIPLE) / KR;
    let data_bytes = groups * nr * 2;
    for block in 0..n.div_ceil(nr) {
        let n0 = block * nr;
        let width = nr.min(n - n0);
        // SAFETY: the caller's contract: the block is writable for packed_stride(k) bytes, the
        // biases, `data_bytes` of values and the scales.
        let (out, data, scales) = unsafe {
            let out = o.rhs_packed.ptr.cast::<u8>();
            let out = out.add(block * o.rhs_packed.stride.n);
            let data = out.add(nr * BIAS_BYTES);
            (out, data, data.add(data_bytes))
        };
        for c in 0..nr {
            let mut sum = 0i32;
            for g in 0..groups {
                let mut pair = [0u8; 2];
                if c < width {
                    for j in (0..KR).filter(|j| g * KR + j < k) {
                        let v = nibble(n0 + c, g * KR + j);
                        sum += i32::from((v ^ 8) as i8 - 8);
                        pair[j / 2] |= v << (4 * (j % 2));
                    }
                }
                // SAFETY: inside the block's data.
                unsafe {
                    data.add((g * nr + c) * 2)
                        .cast::<[u8; 2]>()
                        .write_unaligned(pair)
                };
            }
            let (bias, scale) = if c < width {
                // SAFETY: column n0 + c < n of the bias and scales (caller's contract).
                let (b, s) = unsafe {
                    (
                        o.bias_n.ptr.cast::<i32>().add(n0 + c).read_unaligned(),
                        o.scale_n.ptr.cast::<f32>().add(n0 + c).read_unaligned(),
                    )
                };
                (
                    b.wrapping_add(k_sum_scale.wrapping_mul(sum)),
                    float::fmul(s, scale_global),
                )
            } else {
                (0, 0.0)
            };
            // SAFETY: inside the block's biases and scales.
            unsafe {
                out.cast::<i32>().add(c).write_unaligned(bias);
                scales.cast::<f32>().add(c).write_unaligned(scale);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::arch::Isa;
use crate::pack::kinds::{UkerRhsKind, UkerRhsPacker};

macro_rules! entries {
    ($($(#[$doc:meta])* $name:ident: $source:ident, $unsigned:expr;)+) => {
        $(
            $(#[$doc])*
            #[allow(non_upper_case_globals)]
            pub static $name: UkerRhsPacker = UkerRhsPacker {
                name: stringify!($name),
                isa: Isa::Sme,
                kind: UkerRhsKind::Qsi4cxp8vsx4Sme(Source::$source, $unsigned),
            };
        )+
        /// This module's packers, in KleidiAI's header order.
        pub const PACKERS: &[&UkerRhsPacker] = &[$(&$name),+];
    };
}

entries! {
    /// `kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme`: K x N signed int4.
    matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme: Kxn, false;
    /// `kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme`: K x N unsigned int4.
    matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme: Kxn, true;
    /// `kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme`: N x K signed int4.
    matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme: Nxk, false;
    /// `kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme`: N x K unsigned int4.
    matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme: Nxk, true;
}
