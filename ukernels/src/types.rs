//! C-compatible parameter types shared with `kai/kai_common.h`.
//!
//! These definitions are the source cbindgen turns into the type section of `kai_common.h`; their
//! names, field order and layout are KleidiAI 1.30's, so packers receive the same bytes whether a
//! caller was compiled against KleidiAI's header or rkai's.
#![allow(non_camel_case_types, missing_docs)]

/// Element type tags (`enum kai_datatype`): byte 1 is the size in bytes, byte 0 the type class.
// Values arriving from C are read as `u32` and converted with `from_raw`, never reinterpreted
// directly, since an unknown value would not be a valid Rust enum.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum kai_datatype {
    kai_dt_unknown = 0x0000,
    kai_dt_f32 = 0x0411,
    kai_dt_f16 = 0x0212,
    kai_dt_bf16 = 0x0213,
    kai_dt_int32 = 0x0421,
    kai_dt_int16 = 0x0222,
    kai_dt_int8 = 0x0124,
    kai_dt_uint32 = 0x0431,
    kai_dt_uint16 = 0x0232,
    kai_dt_uint8 = 0x0134,
    kai_dt_bool = 0x0441,
}

impl kai_datatype {
    /// Every defined tag, for conversions and tests.
    /// cbindgen:ignore
    pub const ALL: [kai_datatype; 11] = [
        Self::kai_dt_unknown,
        Self::kai_dt_f32,
        Self::kai_dt_f16,
        Self::kai_dt_bf16,
        Self::kai_dt_int32,
        Self::kai_dt_int16,
        Self::kai_dt_int8,
        Self::kai_dt_uint32,
        Self::kai_dt_uint16,
        Self::kai_dt_uint8,
        Self::kai_dt_bool,
    ];

    /// Converts a raw tag read from C memory.
    pub fn from_raw(raw: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|dt| *dt as u32 == raw)
    }

    /// Size of one element in bytes (`kai_get_datatype_size_in_bytes`).
    pub const fn size_in_bytes(self) -> usize {
        (self as u32 >> 8) as usize
    }
}

/// Parameters of the int8 per-channel RHS packers.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct kai_rhs_pack_qsi8cx_params {
    pub lhs_zero_point: i32,
    pub scale_multiplier: f32,
}

/// Parameters of `kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
    pub lhs_zero_point: i8,
    pub rhs_zero_point: u8,
    pub scale_dt: kai_datatype,
}

/// Parameters of `kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params {
    pub lhs_zero_point: i8,
    pub rhs_zero_point: u8,
    pub scale_dt: kai_datatype,
}

/// Parameters of the per-channel int4 RHS packers (`kai_rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_rhs_pack_qs4cxs1s0_param {
    pub lhs_zero_point: i8,
    pub rhs_zero_point: u8,
}

/// Requantization parameters of the int8-output kernels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct kai_matmul_requantize32_params {
    pub min_value: i32,
    pub max_value: i32,
    pub output_zero_point: i32,
}
