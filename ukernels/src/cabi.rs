//! The C function set of each family and packer kind, as data.
//!
//! One description yields both the C prototype in the generated header and the Rust signature of
//! the exported shim, so the two cannot disagree. `{name}` in a type stands for the stem or
//! packer name. Symbols are `kai_<verb>_<name>`.

use crate::catalog::{Family, PackerKind};
use crate::pack::lhs_quant_pack_qai8dxp::LhsType;

/// One parameter: its C spelling, its Rust FFI spelling, its name.
#[derive(Clone, Copy, Debug)]
pub struct CParam {
    /// C type, e.g. `const void*`.
    pub c: &'static str,
    /// Rust type of the shim parameter, e.g. `*const core::ffi::c_void`.
    pub rust: &'static str,
    /// Parameter name (identical in C and Rust).
    pub name: &'static str,
}

/// One exported function.
#[derive(Clone, Copy, Debug)]
pub struct CFunction {
    /// Verb between `kai_` and the name, e.g. `get_m_step` or `run`.
    pub verb: &'static str,
    /// Field of the family's interface struct holding this function (`run_matmul` for `run`).
    pub field: &'static str,
    /// C return type.
    pub ret_c: &'static str,
    /// Rust return type (`()` for void).
    pub ret_rust: &'static str,
    /// Parameters in order.
    pub params: &'static [CParam],
    /// One-line documentation for the header.
    pub doc: &'static str,
}

const fn p(c: &'static str, rust: &'static str, name: &'static str) -> CParam {
    CParam { c, rust, name }
}

const fn size(name: &'static str) -> CParam {
    p("size_t", "usize", name)
}

const fn getter(verb: &'static str, params: &'static [CParam], doc: &'static str) -> CFunction {
    CFunction {
        verb,
        field: verb,
        ret_c: "size_t",
        ret_rust: "usize",
        params,
        doc,
    }
}

const NO_PARAMS: &[CParam] = &[];

const QUANT_MATMUL_F32: &[CFunction] = &[
    getter(
        "get_m_step",
        NO_PARAMS,
        "Row step: portions must start at a multiple of it.",
    ),
    getter(
        "get_n_step",
        NO_PARAMS,
        "Column step: portions must start at a multiple of it.",
    ),
    getter(
        "get_mr",
        NO_PARAMS,
        "LHS rows interleaved per packed group (pass to the LHS packer).",
    ),
    getter(
        "get_nr",
        NO_PARAMS,
        "RHS columns interleaved per packed group (pass to the RHS packer).",
    ),
    getter(
        "get_kr",
        NO_PARAMS,
        "K values per inner step (pass to both packers).",
    ),
    getter("get_sr", NO_PARAMS, "Splits of kr (pass to both packers)."),
    getter(
        "get_lhs_packed_offset",
        &[size("m_idx"), size("k")],
        "Byte offset of row m_idx (a multiple of m_step) in the packed LHS.",
    ),
    getter(
        "get_rhs_packed_offset",
        &[size("n_idx"), size("k")],
        "Byte offset of column n_idx (a multiple of n_step) in the packed RHS.",
    ),
    getter(
        "get_dst_offset",
        &[size("m_idx"), size("n_idx"), size("dst_stride")],
        "Byte offset of element (m_idx, n_idx) in the destination.",
    ),
    getter(
        "get_dst_size",
        &[size("m"), size("n")],
        "Bytes of an m x n destination.",
    ),
    CFunction {
        verb: "run",
        field: "run_matmul",
        ret_c: "void",
        ret_rust: "()",
        params: &[
            size("m"),
            size("n"),
            size("k"),
            p("const void*", "*const core::ffi::c_void", "lhs_packed"),
            p("const void*", "*const core::ffi::c_void", "rhs_packed"),
            p("float*", "*mut f32", "dst"),
            size("dst_stride_row"),
            size("dst_stride_col"),
            p("float", "f32", "scalar_min"),
            p("float", "f32", "scalar_max"),
        ],
        doc: "Computes the m x n portion; writes nothing else.",
    },
];

/// The function set of the `qai8dxp` LHS packers, which differ only in the type of `lhs`.
macro_rules! lhs_quant_pack_functions {
    ($lhs_c:literal, $lhs_rust:literal) => {
        &[
            getter("get_m_step", &[size("mr")], "Row step of the packer."),
            getter(
                "get_lhs_offset",
                &[size("m_idx"), size("lhs_stride")],
                "Byte offset of row m_idx in the source.",
            ),
            getter(
                "get_lhs_packed_offset",
                &[size("m_idx"), size("k"), size("mr"), size("kr"), size("sr")],
                "Byte offset of the packed group holding row m_idx.",
            ),
            getter(
                "get_lhs_packed_size",
                &[size("m"), size("k"), size("mr"), size("kr"), size("sr")],
                "Bytes of the packed LHS.",
            ),
            CFunction {
                verb: "run",
                field: "run",
                ret_c: "void",
                ret_rust: "()",
                params: &[
                    size("m"),
                    size("k"),
                    size("mr"),
                    size("kr"),
                    size("sr"),
                    size("m_idx_start"),
                    p($lhs_c, $lhs_rust, "lhs"),
                    size("lhs_stride"),
                    p("void*", "*mut core::ffi::c_void", "lhs_packed"),
                ],
                doc: "Quantizes m rows to int8 (per-row asymmetric) and packs them.",
            },
        ]
    };
}

const LHS_QUANT_PACK_F32: &[CFunction] = lhs_quant_pack_functions!("const float*", "*const f32");
const LHS_QUANT_PACK_HALF: &[CFunction] =
    lhs_quant_pack_functions!("const void*", "*const core::ffi::c_void");

/// The function set of the per-channel RHS packers, which differ only in the element type of the
/// source and the type of their parameter struct.
macro_rules! rhs_pack_functions {
    ($rhs_c:literal, $rhs_rust:literal, $params_c:literal, $params_rust:literal, $doc:literal) => {
        &[
            getter("get_n_step", &[size("nr")], "Column step of the packer."),
            getter(
                "get_rhs_offset",
                &[size("n_idx"), size("rhs_stride")],
                "Byte offset of column n_idx in the source.",
            ),
            getter(
                "get_rhs_packed_stride",
                &[size("k"), size("nr"), size("kr"), size("sr")],
                "Bytes of one packed group of nr columns.",
            ),
            getter(
                "get_rhs_packed_offset",
                &[size("n_idx"), size("k"), size("nr"), size("kr"), size("sr")],
                "Byte offset of the packed group holding column n_idx.",
            ),
            getter(
                "get_rhs_packed_size",
                &[size("n"), size("k"), size("nr"), size("kr"), size("sr")],
                "Bytes of the packed RHS.",
            ),
            CFunction {
                verb: "run",
                field: "run",
                ret_c: "void",
                ret_rust: "()",
                params: &[
                    size("num_groups"),
                    size("n"),
                    size("k"),
                    size("nr"),
                    size("kr"),
                    size("sr"),
                    p($rhs_c, $rhs_rust, "rhs"),
                    p("const float*", "*const f32", "bias"),
                    p("const float*", "*const f32", "scale"),
                    p("void*", "*mut core::ffi::c_void", "rhs_packed"),
                    size("extra_bytes"),
                    p($params_c, $params_rust, "params"),
                ],
                doc: $doc,
            },
        ]
    };
}

const RHS_PACK_QSI4CXP: &[CFunction] = rhs_pack_functions!(
    "const uint8_t*",
    "*const u8",
    "const struct kai_{name}_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param",
    "Packs int4 weights with per-channel scales and optional bias."
);

const RHS_PACK_QSI8CXP: &[CFunction] = rhs_pack_functions!(
    "const int8_t*",
    "*const i8",
    "const struct kai_rhs_pack_qsi8cx_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qsi8cx_params",
    "Packs int8 weights with per-channel scales and optional bias."
);

impl Family {
    /// The C functions every kernel of the family exports, in interface-struct order.
    pub const fn c_functions(self) -> &'static [CFunction] {
        match self {
            Family::F32Qai8dxpQsi4cxp | Family::F32Qai8dxpQsi8cxp => QUANT_MATMUL_F32,
        }
    }

    /// Module of the `rkai` crate holding the family's C-facing functions.
    pub const fn capi_module(self) -> &'static str {
        match self {
            Family::F32Qai8dxpQsi4cxp | Family::F32Qai8dxpQsi8cxp => "matmul_clamp_f32_qai8dxp",
        }
    }
}

impl PackerKind {
    /// The C functions the packer exports.
    pub const fn c_functions(self) -> &'static [CFunction] {
        match self {
            PackerKind::LhsQuantQai8dxp(LhsType::F32) => LHS_QUANT_PACK_F32,
            PackerKind::LhsQuantQai8dxp(_) => LHS_QUANT_PACK_HALF,
            PackerKind::RhsQsi4cxp(_) | PackerKind::RhsQsi4cxps1s0 => RHS_PACK_QSI4CXP,
            PackerKind::RhsQsi8cxp(_) => RHS_PACK_QSI8CXP,
        }
    }

    /// `#define` aliases the packer's header declares (`{name}` substituted).
    pub const fn c_defines(self) -> &'static [(&'static str, &'static str)] {
        match self {
            PackerKind::LhsQuantQai8dxp(_) => &[],
            PackerKind::RhsQsi4cxp(_) | PackerKind::RhsQsi4cxps1s0 => {
                &[("kai_{name}_params", "kai_rhs_pack_qs4cxs1s0_param")]
            }
            PackerKind::RhsQsi8cxp(_) => &[],
        }
    }

    /// Module of the `rkai` crate holding the packer's C-facing functions.
    pub const fn capi_module(self) -> &'static str {
        match self {
            PackerKind::LhsQuantQai8dxp(LhsType::F32) => "lhs_quant_pack_qai8dxp",
            PackerKind::LhsQuantQai8dxp(_) => "lhs_quant_pack_qai8dxp_half",
            PackerKind::RhsQsi4cxp(_) | PackerKind::RhsQsi4cxps1s0 => "rhs_pack_qsi4cxp_qs4cxs1s0",
            PackerKind::RhsQsi8cxp(_) => "rhs_pack_qsi8cxp_qsi8cx",
        }
    }
}
