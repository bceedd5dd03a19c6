//! C types of KleidiAI's generic RHS-packing interface (`kai_matmul_pack_rhs_types.h`): a
//! provider function returns a table of function pointers (`kai_matmul_pack_rhs_uker_api`) that
//! take their arguments as small structs.
//!
//! cbindgen turns this file into that header, so the names, field order and layouts here are
//! KleidiAI 1.30's ABI: a caller compiled against KleidiAI's header passes the same bytes.
#![allow(non_camel_case_types, missing_docs)]

use core::ffi::c_void;

/// Data format a configurable packer is asked for (the SVE packer ignores it).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_format_config {
    pub nr: usize,
    pub kr: usize,
    pub sr: usize,
    pub bl: usize,
}

/// Packer configuration, passed to every function of the table.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_config {
    pub format: kai_matmul_pack_rhs_uker_format_config,
}

/// Extent or start coordinate of a packing call in N and K.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_dim_args {
    pub n: usize,
    pub k: usize,
}

/// Extent or coordinate in the unpacked RHS.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_dim_args {
    pub n: usize,
    pub k: usize,
}

/// Byte distance between neighbouring values of the unpacked RHS along N and along K.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_stride_args {
    pub n: usize,
    pub k: usize,
}

/// The unpacked RHS and its strides.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_args {
    pub ptr: *const c_void,
    pub stride: kai_matmul_pack_rhs_uker_rhs_stride_args,
}

/// Extent or coordinate in the packed RHS.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_packed_dim_args {
    pub n: usize,
    pub k: usize,
}

/// Bytes from one packed column block to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
    pub n: usize,
}

/// The packed RHS and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_rhs_packed_args {
    pub ptr: *mut c_void,
    pub stride: kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
}

/// Coordinate in the per-column bias.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_bias_n_dim_args {
    pub n: usize,
}

/// Per-column bias (may be null where a packer allows it).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_bias_n_args {
    pub ptr: *const c_void,
}

/// One scale applied to the K sums of the whole matrix.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_k_sum_scale_global_args {
    pub ptr: *const c_void,
}

/// Coordinate in the per-column scales.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_scale_n_dim_args {
    pub n: usize,
}

/// Per-column scales.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_scale_n_args {
    pub ptr: *const c_void,
}

/// One scale for the whole matrix.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_scale_global_args {
    pub ptr: *const c_void,
}

/// Every buffer a packer may read or write; each packer documents which it uses.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_operand_args {
    pub rhs: kai_matmul_pack_rhs_uker_rhs_args,
    pub rhs_packed: kai_matmul_pack_rhs_uker_rhs_packed_args,
    pub bias_n: kai_matmul_pack_rhs_uker_bias_n_args,
    pub k_sum_scale_global: kai_matmul_pack_rhs_uker_k_sum_scale_global_args,
    pub scale_n: kai_matmul_pack_rhs_uker_scale_n_args,
    pub scale_global: kai_matmul_pack_rhs_uker_scale_global_args,
}

/// Arguments of one packing call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_rhs_uker_args {
    pub flags: u64,
    pub shape: kai_matmul_pack_rhs_uker_dim_args,
    pub operand: kai_matmul_pack_rhs_uker_operand_args,
}

/// The function table a provider (`kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve()`, ...) returns.
/// `get_step` gives the granularity a caller may split N and K at (0: do not split); the stride
/// getters give the strides the offset, size and run functions then take. Members a packer has
/// no use for are null.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct kai_matmul_pack_rhs_uker_api {
    pub run: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            args: *const kai_matmul_pack_rhs_uker_args,
        ),
    >,
    pub get_step: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
        ) -> kai_matmul_pack_rhs_uker_dim_args,
    >,
    pub get_rhs_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            shape: *const kai_matmul_pack_rhs_uker_rhs_dim_args,
        ) -> kai_matmul_pack_rhs_uker_rhs_stride_args,
    >,
    pub get_rhs_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            index: *const kai_matmul_pack_rhs_uker_rhs_dim_args,
            stride: *const kai_matmul_pack_rhs_uker_rhs_stride_args,
        ) -> usize,
    >,
    pub get_rhs_packed_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            shape: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
        ) -> kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
    >,
    pub get_rhs_packed_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            index: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
            stride: *const kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
        ) -> usize,
    >,
    pub get_rhs_packed_size: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            shape: *const kai_matmul_pack_rhs_uker_rhs_packed_dim_args,
            stride: *const kai_matmul_pack_rhs_uker_rhs_packed_stride_args,
        ) -> usize,
    >,
    pub get_bias_n_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            index: *const kai_matmul_pack_rhs_uker_bias_n_dim_args,
        ) -> usize,
    >,
    pub get_scale_n_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_rhs_uker_config,
            index: *const kai_matmul_pack_rhs_uker_scale_n_dim_args,
        ) -> usize,
    >,
}
