//! The arguments of one C call, by name.
//!
//! Every generated shim passes its parameters to the C-ABI layer as one [`CArgs`], each under
//! its C name (a few spellings KleidiAI varies between families map to one field, see
//! `build/shims.rs`); parameters the function does not have stay zero or null. One Rust function
//! per verb then serves every family, whatever subset of arguments its prototype has.

use core::ffi::c_void;
use core::ptr;

/// Named arguments of a `kai_*` call.
#[derive(Clone, Copy, Debug)]
pub struct CArgs {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Block length (0 in functions without one).
    pub bl: usize,
    /// First row of a portion.
    pub m_idx: usize,
    /// First column of a portion.
    pub n_idx: usize,
    /// Row stride of an offset getter (`stride`, `dst_stride`).
    pub stride: usize,
    /// Unpacked LHS (or an imatmul's indirection buffer).
    pub lhs: *const c_void,
    /// Bytes between unpacked LHS rows.
    pub lhs_stride: usize,
    /// Packed LHS (a packer's output: the shim's `void*`, made const here).
    pub lhs_packed: *const c_void,
    /// Packed RHS (a packer's output: the shim's `void*`, made const here).
    pub rhs_packed: *const c_void,
    /// Destination.
    pub dst: *mut c_void,
    /// Bytes between destination rows.
    pub dst_stride_row: usize,
    /// Bytes between destination columns.
    pub dst_stride_col: usize,
    /// Lower clamp bound (`clamp_min`, `scalar_min`).
    pub clamp_min: f32,
    /// Upper clamp bound (`clamp_max`, `scalar_max`).
    pub clamp_max: f32,
    /// Groups of an RHS packer (must be 1).
    pub num_groups: usize,
    /// LHS rows per packed group.
    pub mr: usize,
    /// RHS columns per packed group.
    pub nr: usize,
    /// K values per inner step.
    pub kr: usize,
    /// Splits of `kr`.
    pub sr: usize,
    /// First row an LHS packer packs.
    pub m_idx_start: usize,
    /// Unpacked RHS.
    pub rhs: *const c_void,
    /// Bytes between unpacked RHS rows (`rhs_stride`, `rhs_stride_row`).
    pub rhs_stride: usize,
    /// Per-column biases.
    pub bias: *const c_void,
    /// Scales.
    pub scale: *const c_void,
    /// Bytes between rows of block scales.
    pub scale_stride: usize,
    /// Per-block zero offsets.
    pub zero: *const c_void,
    /// Extra bytes per packed group (must be 0).
    pub extra_bytes: usize,
    /// A packer's parameter struct.
    pub params: *const c_void,
    /// `enum kai_datatype` of block scales.
    pub scale_dt: u32,
    /// The 2-bit family's value table (`lut`, `lut_arg`).
    pub lut: *const c_void,
    /// LHS chunks per row of an imatmul.
    pub k_chunk_count: usize,
    /// Values per chunk of an imatmul.
    pub k_chunk_length: usize,
    /// The padding chunk of an imatmul's indirection buffer.
    pub pad_ptr: *const c_void,
    /// Bytes added to an imatmul's other chunk pointers.
    pub lhs_ptr_offset: usize,
}

impl CArgs {
    /// No arguments: every field zero or null.
    pub const NONE: CArgs = CArgs {
        m: 0,
        n: 0,
        k: 0,
        bl: 0,
        m_idx: 0,
        n_idx: 0,
        stride: 0,
        lhs: ptr::null(),
        lhs_stride: 0,
        lhs_packed: ptr::null(),
        rhs_packed: ptr::null(),
        dst: ptr::null_mut(),
        dst_stride_row: 0,
        dst_stride_col: 0,
        clamp_min: 0.0,
        clamp_max: 0.0,
        num_groups: 0,
        mr: 0,
        nr: 0,
        kr: 0,
        sr: 0,
        m_idx_start: 0,
        rhs: ptr::null(),
        rhs_stride: 0,
        bias: ptr::null(),
        scale: ptr::null(),
        scale_stride: 0,
        zero: ptr::null(),
        extra_bytes: 0,
        params: ptr::null(),
        scale_dt: 0,
        lut: ptr::null(),
        k_chunk_count: 0,
        k_chunk_length: 0,
        pad_ptr: ptr::null(),
        lhs_ptr_offset: 0,
    };
}
