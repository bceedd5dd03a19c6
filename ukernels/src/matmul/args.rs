//! The argument shapes of a kernel call and the kernel function types by shape: what a kernel
//! entry names and every family module reads, below the dispatch of [`super::call`].

use crate::contract::{self, Checked, Violation};
use crate::element::Output;
use crate::family::Operands;

/// Arguments of `run_matmul` with both operands packed.
#[derive(Clone, Copy, Debug)]
pub struct PackedArgs {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Full reduction length.
    pub k: usize,
    /// Block length of the per-block families (ignored by the per-channel ones).
    pub bl: usize,
    /// Packed LHS at the portion's first row group.
    pub lhs_packed: *const u8,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows.
    pub dst_stride_row: usize,
    /// Bytes between destination columns: must be the element size.
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
    /// The 2-bit family's value table (4 x `i32`; null: KleidiAI's default `{-2, -1, 0, 1}`);
    /// ignored by every other family.
    pub lut: *const i32,
    /// The int8-output families' requantization (`kai_matmul_requantize32_params`, which replace
    /// the float bounds); null for every other family.
    pub params: *const crate::types::kai_matmul_requantize32_params,
}

/// The checks of a packed-LHS call, with KleidiAI's messages: `k > 0`, non-null buffers, and
/// destination rows of `n` elements of `elem_size` bytes (`size_message`: the `n * sizeof(..)`
/// overflow check, `row_condition`: the row stride check). An empty portion (`m` or `n` zero)
/// passes: the kernels return before touching a buffer.
pub(crate) fn check_packed_buffers(
    a: &PackedArgs,
    elem_size: usize,
    size_message: &'static str,
    row_condition: &'static str,
) -> Checked {
    if a.m == 0 || a.n == 0 {
        return Ok(());
    }
    contract::require(a.k != 0, "k > 0")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(!a.dst.is_null(), "dst != NULL")?;
    check_dst_rows(
        a.m,
        a.n,
        a.dst_stride_row,
        elem_size,
        size_message,
        row_condition,
    )
}

/// Destination rows of `n` elements of `elem_size` bytes fit in `dst_row_bytes` (a single row
/// needs no stride), with KleidiAI's messages.
pub(crate) fn check_dst_rows(
    m: usize,
    n: usize,
    dst_row_bytes: usize,
    elem_size: usize,
    size_message: &'static str,
    row_condition: &'static str,
) -> Checked {
    let row_bytes = contract::mul(n, elem_size, size_message)?;
    contract::require(m == 1 || dst_row_bytes >= row_bytes, row_condition)
}

/// KleidiAI's messages for f32 destination rows in the families that name `sizeof(float)`:
/// the overflow check and the row stride check.
pub(crate) const F32_ROW_MESSAGES: (&str, &str) = (
    "n * sizeof(float) fits in size_t",
    "dst_stride_row >= n * sizeof(float)",
);

/// [`check_packed_buffers`] for f32 destinations with [`F32_ROW_MESSAGES`].
#[inline(always)]
pub(crate) fn check_packed_f32_buffers(a: &PackedArgs) -> Checked {
    let (size_message, row_condition) = F32_ROW_MESSAGES;
    check_packed_buffers(a, 4, size_message, row_condition)
}

/// [`check_packed_buffers`] for a family whose destination elements are `out` (the families with
/// f32 and f16 outputs), with KleidiAI's generic `sizeof(dst)` messages.
#[inline(always)]
pub(crate) fn check_packed_output_buffers(a: &PackedArgs, out: Output) -> Checked {
    check_packed_buffers(
        a,
        out.size(),
        "n * sizeof(dst) fits in size_t",
        out.row_condition(),
    )
}

/// Arguments of `run_matmul` with the LHS as it is (rows `lhs_stride` bytes apart).
#[derive(Clone, Copy, Debug)]
pub struct UnpackedLhsArgs {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// LHS at the portion's first row.
    pub lhs: *const u8,
    /// Bytes between LHS rows (used rounded down to whole elements, as KleidiAI does).
    pub lhs_stride: usize,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows (rounded down to whole elements).
    pub dst_stride_row: usize,
    /// Bytes between destination columns (see [`super::float_gemm::check`]).
    pub dst_stride_col: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
    /// Bytes per element of the LHS, RHS and destination (4 or 2).
    pub elem: usize,
}

impl UnpackedLhsArgs {
    /// `lhs_stride` in whole elements, as bytes.
    pub fn lhs_row_bytes(&self) -> usize {
        self.lhs_stride / self.elem * self.elem
    }

    /// `dst_stride_row` in whole elements, as bytes.
    pub fn dst_row_bytes(&self) -> usize {
        self.dst_stride_row / self.elem * self.elem
    }
}

/// Arguments of `run_imatmul`: LHS rows gathered through an indirection buffer.
#[derive(Clone, Copy, Debug)]
pub struct IndirectArgs {
    /// Rows of the portion.
    pub m: usize,
    /// Columns of the portion.
    pub n: usize,
    /// LHS chunks per row (pointers per row in the indirection buffer).
    pub k_chunk_count: usize,
    /// Values per chunk.
    pub k_chunk_length: usize,
    /// Indirection buffer at the portion's first row block: for each block of `m_step` rows, for
    /// each chunk, the `m_step` rows' chunk pointers (rows past `m` are not read).
    pub indirection_buffer: *const *const u8,
    /// The chunk of padding: a pointer equal to it is used as it is.
    pub pad_ptr: *const u8,
    /// Bytes added to every other pointer of the indirection buffer.
    pub lhs_ptr_offset: usize,
    /// Packed RHS at the portion's first column group.
    pub rhs_packed: *const u8,
    /// Destination at the portion's first element.
    pub dst: *mut u8,
    /// Bytes between destination rows (used rounded down to whole elements).
    pub dst_stride_row: usize,
    /// Lower clamp bound.
    pub clamp_min: f32,
    /// Upper clamp bound.
    pub clamp_max: f32,
}

impl IndirectArgs {
    /// `dst_stride_row` in whole floats, as bytes.
    pub fn dst_row_bytes(&self) -> usize {
        self.dst_stride_row / 4 * 4
    }

    /// The chunk that pointer `p` of the indirection buffer names: the pad chunk as it is, any
    /// other `lhs_ptr_offset` bytes on (KleidiAI's rule).
    pub fn chunk(&self, p: *const u8) -> *const u8 {
        if p == self.pad_ptr {
            p
        } else {
            p.wrapping_add(self.lhs_ptr_offset)
        }
    }
}

/// An ISA-specific kernel taking both operands packed.
pub type PackedFn = unsafe fn(&PackedArgs);

/// Runs a packed-operand call: `native` where the kernel has one on this target, else
/// `portable` (the same bits); an empty portion (`m` or `n` zero) runs nothing.
///
/// # Safety
/// The family's `check` passed, and its `run` contract holds for both `native` and `portable`.
#[inline(always)]
pub(crate) unsafe fn run_packed_or(
    native: Option<PackedFn>,
    a: &PackedArgs,
    portable: impl FnOnce(),
) {
    if a.m == 0 || a.n == 0 {
        return;
    }
    match native {
        // SAFETY: forwarded contract.
        Some(f) => unsafe { f(a) },
        None => portable(),
    }
}

/// An ISA-specific kernel taking the LHS as it is.
pub type UnpackedLhsFn = unsafe fn(&UnpackedLhsArgs);

/// An ISA-specific kernel taking the LHS through an indirection buffer.
pub type IndirectFn = unsafe fn(&IndirectArgs);

/// The argument shapes of a kernel call.
#[derive(Clone, Copy)]
enum ArgShape {
    /// [`PackedArgs`].
    Packed,
    /// [`UnpackedLhsArgs`].
    UnpackedLhs,
    /// [`IndirectArgs`].
    Indirect,
}

/// A kernel's hand-written implementation on this target, by argument shape.
#[derive(Clone, Copy, Debug)]
pub enum KernelFn {
    /// No ISA-specific code on this target: the portable implementation runs.
    Portable,
    /// Takes [`PackedArgs`] (f32 output; 16-bit-output families narrow its rows, see
    /// `matmul::output`).
    Packed(PackedFn),
    /// Takes [`PackedArgs`] and writes the 16-bit output of its family itself (the SME2 kernels,
    /// whose tiles are too large to narrow through a staging tile).
    PackedOutput(PackedFn),
    /// Takes [`UnpackedLhsArgs`].
    UnpackedLhs(UnpackedLhsFn),
    /// Takes [`IndirectArgs`].
    Indirect(IndirectFn),
}

/// A `KernelFn` accessor: `Some` for its own variant, `None` for each of the others (listed, so
/// that a new variant makes the compiler ask what every accessor answers).
macro_rules! shape_accessor {
    ($(#[$doc:meta])* $name:ident: $own:ident -> $fn_ty:ty; $($other:ident),+) => {
        $(#[$doc])*
        pub const fn $name(self) -> Option<$fn_ty> {
            match self {
                KernelFn::$own(f) => Some(f),
                $(KernelFn::$other { .. })|+ => None,
            }
        }
    };
}

impl KernelFn {
    shape_accessor!(
        /// The packed-operand implementation, if this is one.
        packed: Packed -> PackedFn;
        Portable, UnpackedLhs, PackedOutput, Indirect
    );
    shape_accessor!(
        /// The unpacked-LHS implementation, if this is one.
        unpacked_lhs: UnpackedLhs -> UnpackedLhsFn;
        Portable, Packed, PackedOutput, Indirect
    );
    shape_accessor!(
        /// The indirect-LHS implementation, if this is one.
        indirect: Indirect -> IndirectFn;
        Portable, Packed, PackedOutput, UnpackedLhs
    );

    /// Whether an implementation of this shape can serve a family with `operands` writing
    /// `output` (only the qai8dxp and qsi8d32p_qai4c32p families' 16-bit outputs dispatch to
    /// kernels that write them).
    pub const fn fits(self, operands: Operands, output: Output) -> bool {
        // The argument shape each family's operands take, and whether its kernels may write a
        // 16-bit output themselves: every operand format named, so a new one is a compile error.
        let (shape, writes_16_bit_output) = match operands {
            Operands::Qai8dxp(_) | Operands::Qsi8d32pQai4c32p => (ArgShape::Packed, true),
            Operands::Qsi8d32pQsi4c32p
            | Operands::PackedFloat(_)
            | Operands::ChunkedPackedFloat(_)
            | Operands::F16pQsi4c32p
            | Operands::Qai8pQsi8cxpsb
            | Operands::Qai8Qsi8cxpsb
            | Operands::ChunkedQai8pQsi8cxpsb => (ArgShape::Packed, false),
            Operands::UnpackedFloat => (ArgShape::UnpackedLhs, false),
            Operands::IndirectFloat => (ArgShape::Indirect, false),
        };
        match self {
            KernelFn::Portable => true,
            KernelFn::Packed(_) => matches!(shape, ArgShape::Packed),
            KernelFn::PackedOutput(_) => writes_16_bit_output && output.narrowing().is_some(),
            KernelFn::UnpackedLhs(_) => matches!(shape, ArgShape::UnpackedLhs),
            KernelFn::Indirect(_) => matches!(shape, ArgShape::Indirect),
        }
    }
}

/// Refusal of a packed-LHS call or getter for a family whose LHS is not packed.
pub(crate) const NEEDS_PACKED_LHS: Violation = Violation {
    condition: "the kernel takes a packed LHS",
};
