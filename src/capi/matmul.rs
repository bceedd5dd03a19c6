//! The C functions of every matmul family: one Rust function per verb, which reads what the
//! family's description says about its operands (see `rkai_ukernels::family`).

use super::{CArgs, ensure};
use rkai_ukernels::family::Operands;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::args::{IndirectArgs, PackedArgs, UnpackedLhsArgs};
use rkai_ukernels::matmul::call;
use rkai_ukernels::matmul::offsets;

#[inline(always)]
pub fn get_m_step(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().m_step
}

#[inline(always)]
pub fn get_n_step(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().n_step
}

#[inline(always)]
pub fn get_mr(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().mr
}

#[inline(always)]
pub fn get_nr(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().nr
}

#[inline(always)]
pub fn get_kr(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().kr
}

#[inline(always)]
pub fn get_sr(kernel: &MatmulKernel, _: &str, _: &CArgs) -> usize {
    kernel.tile().sr
}

#[inline(always)]
pub fn get_lhs_packed_offset(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    let k = k(kernel, symbol, a);
    ensure(symbol, offsets::lhs_packed(kernel, a.m_idx, k, a.bl))
}

#[inline(always)]
pub fn get_lhs_offset(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, offsets::lhs(kernel, a.m_idx, a.stride))
}

/// The K of a call: `k`, or the chunks' `k_chunk_count * k_chunk_length` of the indirect family
/// (each chunk rounded up to whole `kr` steps where the LHS is packed).
#[inline(always)]
fn k(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    match kernel.family.description().operands {
        Operands::IndirectFloat => ensure(
            symbol,
            offsets::chunked_k(a.k_chunk_count, a.k_chunk_length),
        ),
        Operands::ChunkedPackedFloat(_) | Operands::ChunkedQai8pQsi8cxpsb => ensure(
            symbol,
            offsets::chunked_packed_k(kernel, a.k_chunk_count, a.k_chunk_length),
        ),
        Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::Qai8Qsi8cxpsb
        | Operands::UnpackedFloat => a.k,
    }
}

#[inline(always)]
pub fn get_rhs_packed_offset(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    let k = k(kernel, symbol, a);
    ensure(symbol, offsets::rhs_packed(kernel, a.n_idx, k, a.bl))
}

#[inline(always)]
pub fn get_dst_offset(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, offsets::dst(kernel, a.m_idx, a.n_idx, a.stride))
}

#[inline(always)]
pub fn get_dst_size(kernel: &MatmulKernel, symbol: &str, a: &CArgs) -> usize {
    ensure(symbol, offsets::dst_size(kernel, a.m, a.n))
}

/// # Safety
/// KleidiAI's contract for `kai_run_imatmul_*`: the indirection buffer, the chunks it points to,
/// the packed RHS and `dst` cover the portion.
pub unsafe fn run_imatmul(kernel: &MatmulKernel, symbol: &str, a: &CArgs) {
    if let Operands::ChunkedPackedFloat(_) | Operands::ChunkedQai8pQsi8cxpsb =
        kernel.family.description().operands
    {
        // The packed call over the chunks' K (`dst_stride_col`: the element, which these
        // kernels do not take).
        let args = PackedArgs {
            k: k(kernel, symbol, a),
            dst_stride_col: kernel.family.output().size(),
            ..packed_args(a)
        };
        let checked = ensure(symbol, call::check_packed(kernel, &args));
        // SAFETY: arguments checked; buffer extents are the caller's contract.
        unsafe { call::run_packed(kernel, checked, &args) };
        return;
    }
    let args = IndirectArgs {
        m: a.m,
        n: a.n,
        k_chunk_count: a.k_chunk_count,
        k_chunk_length: a.k_chunk_length,
        indirection_buffer: a.lhs.cast(),
        pad_ptr: a.pad_ptr.cast(),
        lhs_ptr_offset: a.lhs_ptr_offset,
        rhs_packed: a.rhs_packed.cast(),
        dst: a.dst.cast(),
        dst_stride_row: a.dst_stride_row,
        clamp_min: a.clamp_min,
        clamp_max: a.clamp_max,
    };
    ensure(symbol, call::check_indirect(kernel, &args));
    // SAFETY: arguments checked; buffer extents are the caller's contract.
    unsafe { call::run_indirect(kernel, &args) }
}

/// # Safety
/// KleidiAI's contract for `kai_run_matmul_*`: the operands and `dst` cover the portion.
#[inline(always)]
pub unsafe fn run_matmul(kernel: &MatmulKernel, symbol: &str, a: &CArgs) {
    match kernel.family.description().operands {
        Operands::UnpackedFloat => {
            let args = UnpackedLhsArgs {
                m: a.m,
                n: a.n,
                k: a.k,
                lhs: a.lhs.cast(),
                lhs_stride: a.lhs_stride,
                rhs_packed: a.rhs_packed.cast(),
                dst: a.dst.cast(),
                dst_stride_row: a.dst_stride_row,
                dst_stride_col: a.dst_stride_col,
                clamp_min: a.clamp_min,
                clamp_max: a.clamp_max,
                elem: kernel.family.output().size(),
            };
            ensure(symbol, call::check_unpacked_lhs(kernel, &args));
            // SAFETY: arguments checked; buffer extents are the caller's contract.
            unsafe { call::run_unpacked_lhs(kernel, &args) }
        }
        // The int8-output GEMV: the packed-operand arguments, its LHS row as `lhs_packed`.
        Operands::Qai8Qsi8cxpsb => {
            let args = PackedArgs {
                lhs_packed: a.lhs.cast(),
                ..packed_args(a)
            };
            let checked = ensure(symbol, call::check_packed(kernel, &args));
            // SAFETY: arguments checked; buffer extents are the caller's contract.
            unsafe { call::run_packed(kernel, checked, &args) }
        }
        // No `run_matmul` is generated for the indirect family (its verb is `run_imatmul`);
        // `check_packed` refuses it.
        Operands::IndirectFloat
        | Operands::ChunkedPackedFloat(_)
        | Operands::Qai8dxp(_)
        | Operands::Qsi8d32pQsi4c32p
        | Operands::Qsi8d32pQai4c32p
        | Operands::PackedFloat(_)
        | Operands::F16pQsi4c32p
        | Operands::Qai8pQsi8cxpsb
        | Operands::ChunkedQai8pQsi8cxpsb => {
            let args = packed_args(a);
            let checked = ensure(symbol, call::check_packed(kernel, &args));
            // SAFETY: arguments checked; buffer extents are the caller's contract.
            unsafe { call::run_packed(kernel, checked, &args) }
        }
    }
}

/// The packed-operand arguments of a call, as the C caller gave them.
#[inline(always)]
fn packed_args(a: &CArgs) -> PackedArgs {
    PackedArgs {
        m: a.m,
        n: a.n,
        k: a.k,
        bl: a.bl,
        lhs_packed: a.lhs_packed.cast(),
        rhs_packed: a.rhs_packed.cast(),
        dst: a.dst.cast(),
        dst_stride_row: a.dst_stride_row,
        dst_stride_col: a.dst_stride_col,
        clamp_min: a.clamp_min,
        clamp_max: a.clamp_max,
        lut: a.lut.cast(),
        params: a.params.cast(),
    }
}
