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
    /// Unpacked LHS.
    pub lhs: *const c_void,
    /// Bytes between unpacked LHS rows.
    pub lhs_stride: usize,
    /// Packed LHS.
    pub lhs_packed: *const c_void,
    /// Packed RHS.
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
    };
}
