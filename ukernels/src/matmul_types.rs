//! C types of KleidiAI's generic matmul kernel interface (`kai_matmul_types.h`): a provider
//! function returns a table of function pointers (`kai_matmul_uker_api`) that take their
//! arguments as small structs, as on the packing sides (`pack_lhs_types`, `pack_rhs_types`).
//!
//! cbindgen turns this file into that header, so the names, field order and layouts here are
//! KleidiAI 1.30's ABI: a caller compiled against KleidiAI's header passes the same bytes.
#![allow(non_camel_case_types, missing_docs)]

use core::ffi::c_void;

/// Data format of a configurable kernel (`bl`: block length of blocked formats).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_format_config {
    pub bl: usize,
}

/// Kernel configuration, passed to every function of the table.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_config {
    pub format: kai_matmul_uker_format_config,
}

/// Extent or start coordinate of a call in M, N and K.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_dim_args {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

/// Extent or coordinate in the LHS operand.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_lhs_dim_args {
    pub m: usize,
    pub k: usize,
}

/// Bytes from one LHS row (or packed row block) to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_lhs_stride_args {
    pub m: usize,
}

/// The LHS operand and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_lhs_args {
    pub ptr: *const c_void,
    pub stride: kai_matmul_uker_lhs_stride_args,
}

/// Extent or coordinate in the RHS operand.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_rhs_dim_args {
    pub n: usize,
    pub k: usize,
}

/// Bytes from one RHS column block to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_rhs_stride_args {
    pub n: usize,
}

/// The RHS operand and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_rhs_args {
    pub ptr: *const c_void,
    pub stride: kai_matmul_uker_rhs_stride_args,
}

/// Extent or coordinate in the output.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_dst_dim_args {
    pub m: usize,
    pub n: usize,
}

/// Bytes from one output row to the next.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct kai_matmul_uker_dst_stride_args {
    pub m: usize,
}

/// The output and its stride.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_dst_args {
    pub ptr: *mut c_void,
    pub stride: kai_matmul_uker_dst_stride_args,
}

/// One accumulation bias for the whole output.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_bias_global_args {
    pub ptr: *const c_void,
}

/// Per-row accumulation biases.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_bias_m_args {
    pub ptr: *const c_void,
}

/// Per-column accumulation biases.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_bias_n_args {
    pub ptr: *const c_void,
}

/// One scaling bias for the whole output.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_scale_bias_global_args {
    pub ptr: *const c_void,
}

/// Per-row scaling biases.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_scale_bias_m_args {
    pub ptr: *const c_void,
}

/// Per-column scaling biases.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_scale_bias_n_args {
    pub ptr: *const c_void,
}

/// Every bias a kernel may read; each kernel documents which it uses.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_bias_args {
    pub acc_bias_global: kai_matmul_uker_acc_bias_global_args,
    pub acc_bias_m: kai_matmul_uker_acc_bias_m_args,
    pub acc_bias_n: kai_matmul_uker_acc_bias_n_args,
    pub scale_bias_global: kai_matmul_uker_scale_bias_global_args,
    pub scale_bias_m: kai_matmul_uker_scale_bias_m_args,
    pub scale_bias_n: kai_matmul_uker_scale_bias_n_args,
}

/// One accumulation scale for the whole output.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_scale_global_args {
    pub ptr: *const c_void,
}

/// Per-row accumulation scales.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_scale_m_args {
    pub ptr: *const c_void,
}

/// Per-column accumulation scales.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_acc_scale_n_args {
    pub ptr: *const c_void,
}

/// Every scale a kernel may read; each kernel documents which it uses.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_scale_args {
    pub acc_scale_global: kai_matmul_uker_acc_scale_global_args,
    pub acc_scale_m: kai_matmul_uker_acc_scale_m_args,
    pub acc_scale_n: kai_matmul_uker_acc_scale_n_args,
}

/// Bounds of the output clamp, read when the call's flags ask for it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_clamp_args {
    pub min_ptr: *const c_void,
    pub max_ptr: *const c_void,
}

/// The fused activation.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_activation_args {
    pub clamp: kai_matmul_uker_clamp_args,
}

/// Every buffer of a call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_operand_args {
    pub dst: kai_matmul_uker_dst_args,
    pub lhs: kai_matmul_uker_lhs_args,
    pub rhs: kai_matmul_uker_rhs_args,
    pub bias: kai_matmul_uker_bias_args,
    pub scale: kai_matmul_uker_scale_args,
}

/// Arguments of one kernel call.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_uker_args {
    pub flags: u64,
    pub shape: kai_matmul_uker_dim_args,
    pub operand: kai_matmul_uker_operand_args,
    pub activation: kai_matmul_uker_activation_args,
}

/// Bits of `kai_matmul_uker_args::flags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum kai_matmul_uker_flags_args {
    /// Clamp the output to `activation.clamp`'s bounds; without it the kernel does not clamp.
    KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP = 0x10000,
}

/// The function table a kernel provider (`kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla()`,
/// ...) returns. `get_step` gives the granularity a caller may split M, N and K at (0: do not
/// split); the stride getters give the strides the offset, size and run functions then take.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct kai_matmul_uker_api {
    pub run: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            args: *const kai_matmul_uker_args,
        ),
    >,
    pub get_step: Option<
        unsafe extern "C" fn(config: *const kai_matmul_uker_config) -> kai_matmul_uker_dim_args,
    >,
    pub get_lhs_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            shape: *const kai_matmul_uker_lhs_dim_args,
        ) -> kai_matmul_uker_lhs_stride_args,
    >,
    pub get_lhs_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            index: *const kai_matmul_uker_lhs_dim_args,
            stride: *const kai_matmul_uker_lhs_stride_args,
        ) -> usize,
    >,
    pub get_rhs_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            shape: *const kai_matmul_uker_rhs_dim_args,
        ) -> kai_matmul_uker_rhs_stride_args,
    >,
    pub get_rhs_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            index: *const kai_matmul_uker_rhs_dim_args,
            stride: *const kai_matmul_uker_rhs_stride_args,
        ) -> usize,
    >,
    pub get_dst_stride: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            shape: *const kai_matmul_uker_dst_dim_args,
        ) -> kai_matmul_uker_dst_stride_args,
    >,
    pub get_dst_offset: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            index: *const kai_matmul_uker_dst_dim_args,
            stride: *const kai_matmul_uker_dst_stride_args,
        ) -> usize,
    >,
    pub get_dst_size: Option<
        unsafe extern "C" fn(
            config: *const kai_matmul_uker_config,
            shape: *const kai_matmul_uker_dst_dim_args,
            stride: *const kai_matmul_uker_dst_stride_args,
        ) -> usize,
    >,
}
