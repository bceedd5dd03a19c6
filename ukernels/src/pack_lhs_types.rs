//! C types of KleidiAI's generic LHS-packing interface (`kai_matmul_pack_lhs_types.h`): a
//! provider function returns a table of function pointers (`kai_matmul_pack_lhs_uker_api`) that
//! take their arguments as small structs, as on the RHS side (`pack_rhs_types`).
//!
//! cbindgen turns this file into that header, so the names, field order and layouts here are
//! KleidiAI 1.30's ABI: a caller compiled against KleidiAI's header passes the same bytes.
#![allow(non_camel_case_types, missing_docs)]

use core::ffi::c_void;

/// Data format a configurable packer is asked for (the SME row packers ignore it).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_format_config {
    pub mr: usize,
    pub kr: usize,
    pub sr: usize,
}

/// Packer configuration, passed to every function of the table.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_config {
    pub format: kai_matmul_pack_lhs_uker_format_config,
}

/// Extent or start coordinate of a packing call in M and K.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_dim_args {
    pub m: usize,
    pub k: usize,
}

/// Extent or coordinate in the unpacked LHS.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_dim_args {
    pub m: usize,
    pub k: usize,
}

/// Bytes from one unpacked LHS row to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_stride_args {
    pub m: usize,
}

/// The unpacked LHS and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_args {
    pub ptr: *const c_void,
    pub stride: kai_matmul_pack_lhs_uker_lhs_stride_args,
}

/// Extent or coordinate in the packed LHS.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_packed_dim_args {
    pub m: usize,
    pub k: usize,
}

/// Bytes from one packed row block to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args {
    pub m: usize,
}

/// The packed LHS and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_lhs_packed_args {
    pub ptr: *mut c_void,
    pub stride: kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
}

/// The buffers of a packing call (the packed one first, as in KleidiAI's header).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_operand_args {
    pub lhs_packed: kai_matmul_pack_lhs_uker_lhs_packed_args,
    pub lhs: kai_matmul_pack_lhs_uker_lhs_args,
}

/// Arguments of one packing call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_pack_lhs_uker_args {
    pub flags: u64,
    pub shape: kai_matmul_pack_lhs_uker_dim_args,
    pub operand: kai_matmul_pack_lhs_uker_operand_args,
}

/// The function table a provider (`kai_matmul_pack_lhs_mxk_x32p4vsx1_x32_sme()`, ...) returns.
/// `get_step` gives the granularity a caller may split M and K at (0: do not split); the stride
/// getters give the strides the offset, size and run functions then take.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct kai_matmul_pack_lhs_uker_api {
    pub run: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            args: *const kai_matmul_pack_lhs_uker_args,
        ),
    >,
    pub get_step: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
        ) -> kai_matmul_pack_lhs_uker_dim_args,
    >,
    pub get_lhs_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            shape: *const kai_matmul_pack_lhs_uker_lhs_dim_args,
        ) -> kai_matmul_pack_lhs_uker_lhs_stride_args,
    >,
    pub get_lhs_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            index: *const kai_matmul_pack_lhs_uker_lhs_dim_args,
            stride: *const kai_matmul_pack_lhs_uker_lhs_stride_args,
        ) -> usize,
    >,
    pub get_lhs_packed_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            shape: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
        ) -> kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
    >,
    pub get_lhs_packed_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            index: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
            stride: *const kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
        ) -> usize,
    >,
    pub get_lhs_packed_size: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_pack_lhs_uker_config,
            shape: *const kai_matmul_pack_lhs_uker_lhs_packed_dim_args,
            stride: *const kai_matmul_pack_lhs_uker_lhs_packed_stride_args,
        ) -> usize,
    >,
}
