//! The C function set of each family and packer kind, as data.
//!
//! One description yields both the C prototype in the generated header and the Rust signature of
//! the exported shim, so the two cannot disagree. `{name}` in a type stands for the stem or
//! packer name. Symbols are `kai_<verb>_<name>`.
//!
//! Used by the build script (headers and shims) and by the `rkai` crate (selection fills
//! interface structs in this order); C text stays out of the `no_std` kernel crate.

use rkai_ukernels::family::Family;

use rkai_ukernels::family::{BlockLength, DstPointer, Operands, Qai8dxpRhs};
use rkai_ukernels::pack::Source;
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind, SmeRowsPacker};
use rkai_ukernels::pack::lhs_quant_pack_qai8dxp::LhsType;
use rkai_ukernels::pack::lhs_quant_pack_qsi8d32pscalef32::Variant as Qsi8d32pscalef32Packer;
use rkai_ukernels::pack::rhs_pack_bf16::Variant as Bf16RhsPacker;

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
    /// Field of the family's interface struct holding this function (`run_matmul` for a
    /// kernel's `run`); for packers, the verb.
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

/// A `const void*` parameter.
const fn void_in(name: &'static str) -> CParam {
    p("const void*", "*const core::ffi::c_void", name)
}

/// A `void*` parameter.
const fn void_out(name: &'static str) -> CParam {
    p("void*", "*mut core::ffi::c_void", name)
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

/// `run` (field `field` of the interface struct), returning nothing.
const fn run(field: &'static str, params: &'static [CParam], doc: &'static str) -> CFunction {
    CFunction {
        verb: "run",
        field,
        ret_c: "void",
        ret_rust: "()",
        params,
        doc,
    }
}

const NO_PARAMS: &[CParam] = &[];

/// Getters every matmul family has.
const M_STEP: CFunction = getter(
    "get_m_step",
    NO_PARAMS,
    "Row step: portions must start at a multiple of it.",
);
const N_STEP: CFunction = getter(
    "get_n_step",
    NO_PARAMS,
    "Column step: portions must start at a multiple of it.",
);
const DST_SIZE: CFunction = getter(
    "get_dst_size",
    &[size("m"), size("n")],
    "Bytes of an m x n destination.",
);

/// The function set of the `qai8dxp` matmul families: `$bl` is empty for per-channel RHS and
/// `size("bl")` for per-block RHS (an extra argument of `get_rhs_packed_offset` and `run`);
/// `dst` is `float*` for f32 output and `void*` for 16-bit outputs. An optional trailing
/// `lhs_bl: size("bl")` also gives `get_lhs_packed_offset` the block length (per-block LHS).
macro_rules! quant_matmul_functions {
    ([$($bl:expr)?], $dst_c:literal, $dst_rust:literal $(, lhs_bl: $lhs_bl:expr)?
     $(, lut: $lut:expr)?) => {
        &[
            M_STEP,
            N_STEP,
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
                &[size("m_idx"), size("k") $(, $lhs_bl)?],
                "Byte offset of row m_idx (a multiple of m_step) in the packed LHS.",
            ),
            getter(
                "get_rhs_packed_offset",
                &[size("n_idx"), size("k") $(, $bl)?],
                "Byte offset of column n_idx (a multiple of n_step) in the packed RHS.",
            ),
            getter(
                "get_dst_offset",
                &[size("m_idx"), size("n_idx"), size("dst_stride")],
                "Byte offset of element (m_idx, n_idx) in the destination.",
            ),
            DST_SIZE,
            run(
                "run_matmul",
                &[
                    size("m"),
                    size("n"),
                    size("k"),
                    $($bl,)?
                    void_in("lhs_packed"),
                    void_in("rhs_packed"),
                    p($dst_c, $dst_rust, "dst"),
                    size("dst_stride_row"),
                    size("dst_stride_col"),
                    p("float", "f32", "scalar_min"),
                    p("float", "f32", "scalar_max"),
                    $($lut,)?
                ],
                "Computes the m x n portion; writes nothing else.",
            ),
        ]
    };
}

const QUANT_MATMUL_F32: &[CFunction] = quant_matmul_functions!([], "float*", "*mut f32");
const QUANT_MATMUL_HALF: &[CFunction] = &QUANT_MATMUL_HALF_SET;
const QUANT_MATMUL_HALF_SET: [CFunction; 11] =
    *quant_matmul_functions!([], "void*", "*mut core::ffi::c_void");

/// `params` of the int8-output kernels' `run_matmul`.
const REQUANTIZE_PARAMS: CParam = p(
    "const struct kai_matmul_requantize32_params*",
    "*const rkai_ukernels::types::kai_matmul_requantize32_params",
    "params",
);

/// The SME int8-output GEMMs (`matmul_clamp_qai8_qai8p_qsi8cxp`): the per-channel set with a
/// `void*` destination, `run_matmul` ending with the requantization parameters instead of float
/// bounds.
const QAI8_MATMUL: &[CFunction] = &{
    let mut set = QUANT_MATMUL_HALF_SET;
    set[10] = run(
        "run_matmul",
        &[
            size("m"),
            size("n"),
            size("k"),
            void_in("lhs_packed"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            size("dst_stride_col"),
            REQUANTIZE_PARAMS,
        ],
        "Computes the m x n portion, requantized to int8 by params; writes nothing else.",
    );
    set
};
/// The SME2 int8-output GEMV (`matmul_clamp_qai8_qai8_qsi8cxp`): the unpacked-LHS set (no
/// `get_mr`) with the LHS offset taking `k`, and the int8-output `run_matmul` over one LHS row.
const QAI8_GEMV: &[CFunction] = &{
    let mut set = FLOAT_MATMUL_SET;
    set[3] = getter("get_kr", NO_PARAMS, "K values per packed step (4).");
    set[5] = CFunction {
        params: &[size("m_idx"), size("k")],
        doc: "Byte offset of LHS row m_idx (0: one row per call).",
        ..set[5]
    };
    set[7] = CFunction {
        params: &[size("m_idx"), size("n_idx"), size("dst_stride")],
        ..set[7]
    };
    set[9] = run(
        "run_matmul",
        &[
            size("m"),
            size("n"),
            size("k"),
            void_in("lhs"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            size("dst_stride_col"),
            REQUANTIZE_PARAMS,
        ],
        "Computes one row (m == 1) of n columns, requantized to int8 by params; writes nothing else.",
    );
    set
};
const BLOCK_MATMUL_F32: &[CFunction] = quant_matmul_functions!([size("bl")], "float*", "*mut f32");
const BLOCK_MATMUL_HALF: &[CFunction] =
    quant_matmul_functions!([size("bl")], "void*", "*mut core::ffi::c_void");
/// Per-block LHS and RHS (`matmul_clamp_f32_qsi8d32p_qsi4c32p`): `bl` in both offsets and `run`.
const BLOCK_LHS_MATMUL_F32: &[CFunction] =
    quant_matmul_functions!([size("bl")], "float*", "*mut f32", lhs_bl: size("bl"));

/// The 2-bit family (`matmul_clamp_f32_qai8dxp_qsu2cxp`): `run` ends with the value table.
const QUANT_MATMUL_F32_LUT: &[CFunction] = quant_matmul_functions!(
    [],
    "float*",
    "*mut f32",
    lut: p("const int32_t*", "*const i32", "lut")
);

/// Per-block LHS and RHS with f16 output (`matmul_clamp_f16_qsi8d32p_qai4c32p`).
const BLOCK_LHS_MATMUL_HALF: &[CFunction] = quant_matmul_functions!(
    [size("bl")],
    "void*",
    "*mut core::ffi::c_void",
    lhs_bl: size("bl")
);

/// The function set of the LHS packers (`qai8dxp`, `qsi8d32p`, `qsi8d32pscalef32`, bf16), which
/// differ only in the type of `lhs`, the documentation of `run`, and `$bl`: `size("bl")` after
/// `k` in the packed offset and size getters and in `run` for per-block formats, empty for
/// per-row ones.
macro_rules! lhs_pack_functions {
    ([$($bl:expr)?], $lhs_c:literal, $lhs_rust:literal, $run_doc:expr) => {
        &[
            getter("get_m_step", &[size("mr")], "Row step of the packer."),
            getter(
                "get_lhs_offset",
                &[size("m_idx"), size("lhs_stride")],
                "Byte offset of row m_idx in the source.",
            ),
            getter(
                "get_lhs_packed_offset",
                &[size("m_idx"), size("k"), $($bl,)? size("mr"), size("kr"), size("sr")],
                "Byte offset of the packed group holding row m_idx.",
            ),
            getter(
                "get_lhs_packed_size",
                &[size("m"), size("k"), $($bl,)? size("mr"), size("kr"), size("sr")],
                "Bytes of the packed LHS.",
            ),
            run(
                "run",
                &[
                    size("m"),
                    size("k"),
                    $($bl,)?
                    size("mr"),
                    size("kr"),
                    size("sr"),
                    size("m_idx_start"),
                    p($lhs_c, $lhs_rust, "lhs"),
                    size("lhs_stride"),
                    void_out("lhs_packed"),
                ],
                $run_doc,
            ),
        ]
    };
}

const QAI8DXP_RUN_DOC: &str = "Quantizes m rows to int8 (per-row asymmetric) and packs them.";
const LHS_QUANT_PACK_F32: &[CFunction] =
    lhs_pack_functions!([], "const float*", "*const f32", QAI8DXP_RUN_DOC);
const LHS_QUANT_PACK_HALF: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    QAI8DXP_RUN_DOC
);
/// The bf16 LHS packers: the same prototypes as the `qai8dxp` LHS packers with `const void*` rows.
const LHS_PACK_BF16: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    "Converts m rows to bf16 and packs them in blocks of mr rows by 4 K values."
);
/// The SME bf16 LHS packers (`bf16p2vlx2`): the same functions, 2 K values per step.
const LHS_PACK_BF16_SME: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    "Converts m rows to bf16 and packs them in blocks of mr rows by 2 K values."
);
/// `lhs_pack_f32p2vlx1_f32_sme`: the usual LHS packer prototypes with `const void*` rows.
const LHS_PACK_F32P2VLX1: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    "Packs m f32 rows in groups of mr rows, one K value per step."
);
/// The `qsi8d32p` LHS packers (their getters and `run` take `bl`).
const LHS_QUANT_PACK_QSI8D32P: &[CFunction] = lhs_pack_functions!(
    [size("bl")],
    "const float*",
    "*const f32",
    "Quantizes m rows to int8 with one f16 scale per block of bl values and packs them."
);
const LHS_QUANT_PACK_QSI8D32PSCALEF32_F32: &[CFunction] = lhs_pack_functions!(
    [size("bl")],
    "const float*",
    "*const f32",
    "Quantizes m f32 rows to int8 with an f32 scale and block sum per block of bl values and packs them."
);
const LHS_QUANT_PACK_QSI8D32PSCALEF32_F16: &[CFunction] = lhs_pack_functions!(
    [size("bl")],
    "const void*",
    "*const core::ffi::c_void",
    "Quantizes m f16 rows to int8 with an f32 scale and block sum per block of bl values and packs them."
);

/// `lhs_pack_f16pmrx2_f32_neon` (its getters and `run` take `bl`, which it ignores in `run`).
const LHS_PACK_F16PMRX2: &[CFunction] = lhs_pack_functions!(
    [size("bl")],
    "const void*",
    "*const core::ffi::c_void",
    "Converts m f32 rows (k values apart) to f16 and packs them in blocks of mr rows by pairs of K values."
);

/// `lhs_pack_x16p2vlx2_x16_sme`: 16-bit rows copied in blocks of mr rows by pairs of K values.
const LHS_PACK_X16P2VLX2: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    "Packs m 16-bit rows in blocks of mr rows by pairs of K values."
);

/// `lhs_pack_x8p2vlx4_x8_sme`: 8-bit rows copied in blocks of mr rows by 4 K values.
const LHS_PACK_X8P2VLX4: &[CFunction] = lhs_pack_functions!(
    [],
    "const void*",
    "*const core::ffi::c_void",
    "Packs m 8-bit rows in blocks of mr rows by 4 K values."
);

/// `&[$a..., $b...]`: two parameter lists joined.
macro_rules! params {
    ([$($a:expr),*], [$($b:expr),* $(,)?]) => {
        &[$($a,)* $($b),*]
    };
}

/// One leading getter of an RHS packer: `stride` stands for `get_rhs_packed_stride(k,
/// $layout...)`, any other name for that `CFunction` constant.
macro_rules! rhs_pack_head {
    (stride, $layout:tt) => {
        getter(
            "get_rhs_packed_stride",
            params!([size("k")], $layout),
            "Bytes of one packed group of nr columns.",
        )
    };
    ($getter:ident, $layout:tt) => {
        $getter
    };
}

/// The function set of an RHS packer: the getters `$head` (see `rhs_pack_head`) in header order,
/// `get_rhs_packed_offset(n_idx, k, $layout...)`, `get_rhs_packed_size(n, k, $layout...)`, and
/// `run(num_groups, n, k, nr, kr, sr, $run..., rhs_packed, extra_bytes, params)` with `params` of
/// the C type `$params_c` (Rust `$params_rust`).
macro_rules! rhs_pack_functions {
    (
        [$($head:ident),*],
        $layout:tt,
        [$($run:expr),* $(,)?],
        $params_c:literal,
        $params_rust:literal,
        $doc:literal
        $(, tail: [$($tail:expr),*])?
    ) => {
        &[
            $(rhs_pack_head!($head, $layout),)*
            getter(
                "get_rhs_packed_offset",
                params!([size("n_idx"), size("k")], $layout),
                "Byte offset of the packed group holding column n_idx.",
            ),
            getter(
                "get_rhs_packed_size",
                params!([size("n"), size("k")], $layout),
                "Bytes of the packed RHS.",
            ),
            run(
                "run",
                &[
                    size("num_groups"),
                    size("n"),
                    size("k"),
                    size("nr"),
                    size("kr"),
                    size("sr"),
                    $($run,)*
                    void_out("rhs_packed"),
                    size("extra_bytes"),
                    p($params_c, $params_rust, "params"),
                    $($($tail,)*)?
                ],
                $doc,
            ),
        ]
    };
}

const RHS_N_STEP: CFunction = getter("get_n_step", &[size("nr")], "Column step of the packer.");
const RHS_OFFSET: CFunction = getter(
    "get_rhs_offset",
    &[size("n_idx"), size("rhs_stride")],
    "Byte offset of column n_idx in the source.",
);

/// The function set of the `qai4c32p` RHS packers (per-block f32 zero offsets and scales).
const RHS_PACK_QAI4C32P: &[CFunction] = rhs_pack_functions!(
    [RHS_OFFSET],
    [size("nr"), size("kr"), size("bl")],
    [
        size("bl"),
        p("const uint8_t*", "*const u8", "rhs"),
        void_in("zero"),
        void_in("bias"),
        void_in("scale"),
    ],
    "const struct kai_rhs_pack_nxk_qai4c32p_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param",
    "Packs asymmetric int4 weights with f32 zero offsets and scales per block and an f32 bias."
);

/// The function set of the Q4_0 RHS packers (`qsu4c32s16s0` source with interleaved f16 scales).
const RHS_PACK_QSI4C32PF16: &[CFunction] = rhs_pack_functions!(
    [stride, RHS_OFFSET],
    [size("nr"), size("kr"), size("bl")],
    [
        size("bl"),
        p("const uint8_t*", "*const u8", "rhs"),
        p("const float*", "*const f32", "bias"),
    ],
    "const struct kai_rhs_pack_qs4cxs1s0_param*",
    "*const rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param",
    "Packs Q4_0 weights (uint4 with zero point 8, f16 scale per block; no bias)."
);

/// The function set of the per-channel RHS packers, which differ only in the element type of the
/// source and the type of their parameter struct.
macro_rules! rhs_pack_per_channel_functions {
    ($rhs_c:literal, $rhs_rust:literal, $params_c:literal, $params_rust:literal, $doc:literal) => {
        rhs_pack_functions!(
            [RHS_N_STEP, RHS_OFFSET, stride],
            [size("nr"), size("kr"), size("sr")],
            [
                p($rhs_c, $rhs_rust, "rhs"),
                p("const float*", "*const f32", "bias"),
                p("const float*", "*const f32", "scale"),
            ],
            $params_c,
            $params_rust,
            $doc
        )
    };
}

const RHS_PACK_QSI4CXP: &[CFunction] = rhs_pack_per_channel_functions!(
    "const uint8_t*",
    "*const u8",
    "const struct kai_{name}_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param",
    "Packs int4 weights with per-channel scales and optional bias."
);

const RHS_PACK_QSI8CXP: &[CFunction] = rhs_pack_per_channel_functions!(
    "const int8_t*",
    "*const i8",
    "const struct kai_rhs_pack_qsi8cx_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qsi8cx_params",
    "Packs int8 weights with per-channel scales and optional bias."
);

/// The function set of the 2-bit RHS packers: the int4 per-channel set with a trailing
/// `lut_arg` (the value of each 2-bit code; NULL: `{-2, -1, 0, 1}`).
const RHS_PACK_QSU2CXP: &[CFunction] = rhs_pack_functions!(
    [RHS_N_STEP, RHS_OFFSET, stride],
    [size("nr"), size("kr"), size("sr")],
    [
        p("const uint8_t*", "*const u8", "rhs"),
        p("const float*", "*const f32", "bias"),
        p("const float*", "*const f32", "scale"),
    ],
    "const struct kai_{name}_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param",
    "Packs 2-bit weights (four a byte) with per-channel scales, optional bias and the sums of their table values.",
    tail: [p("const int32_t*", "*const i32", "lut_arg")]
);

/// The function set of the per-block int4 RHS packers, which differ only in their parameter
/// struct (the NEON forms take the `nxk` one).
macro_rules! rhs_pack_qsi4c32p_functions {
    ($params_c:literal, $params_rust:literal) => {
        rhs_pack_functions!(
            [RHS_N_STEP, RHS_OFFSET, stride],
            [size("nr"), size("kr"), size("sr"), size("bl"), SCALE_DT],
            [
                size("bl"),
                p("const uint8_t*", "*const u8", "rhs"),
                size("rhs_stride"),
                p("const float*", "*const f32", "bias"),
                void_in("scale"),
                size("scale_stride"),
            ],
            $params_c,
            $params_rust,
            "Packs uint4 weights (zero point 8) with bf16 scales per block and optional bias."
        )
    };
}

/// `enum kai_datatype` arrives as its 32-bit value (an unknown value is then an error, not UB).
const SCALE_DT: CParam = p("enum kai_datatype", "u32", "scale_dt");

const RHS_PACK_QSI4C32P_NXK: &[CFunction] = rhs_pack_qsi4c32p_functions!(
    "const struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params"
);
const RHS_PACK_QSI4C32P_KXN: &[CFunction] = rhs_pack_qsi4c32p_functions!(
    "const struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params"
);

/// KleidiAI's SME2 f16 GEMV (`matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot`): the float
/// family's set, but its LHS offset getter is exported as `get_lhs_packed_offset(m_idx, k)` (the
/// name of its interface struct's member), though its LHS is not packed.
const FLOAT_GEMV_LHS_PACKED_OFFSET: &[CFunction] = &{
    let mut set = FLOAT_MATMUL_SET;
    set[5] = CFunction {
        verb: "get_lhs_packed_offset",
        params: &[size("m_idx"), size("k")],
        doc: "Byte offset of LHS row m_idx (0: one row per call).",
        ..set[5]
    };
    set
};

/// The C functions kernel `k` exports, in interface-struct order: its family's, but where one
/// KleidiAI kernel names a function differently from its siblings.
pub fn kernel_c_functions(k: &rkai_ukernels::kernel::MatmulKernel) -> &'static [CFunction] {
    match k.stem {
        "matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot" => FLOAT_GEMV_LHS_PACKED_OFFSET,
        _ => k.family.c_functions(),
    }
}

/// The function set of the float GEMM families with an unpacked LHS (`matmul_clamp_f32_f32_f32p`,
/// `matmul_clamp_f16_f16_f16p`):
/// no `get_mr`, an LHS row offset instead of a packed one, `void*` destination.
const FLOAT_MATMUL: &[CFunction] = &FLOAT_MATMUL_SET;
const FLOAT_MATMUL_SET: [CFunction; 10] = [
    M_STEP,
    N_STEP,
    getter(
        "get_nr",
        NO_PARAMS,
        "RHS columns per packed group (pass to the RHS packer).",
    ),
    getter("get_kr", NO_PARAMS, "K values per packed step (1)."),
    getter("get_sr", NO_PARAMS, "Splits of kr (1)."),
    getter(
        "get_lhs_offset",
        &[size("m_idx"), size("stride")],
        "Byte offset of LHS row m_idx (a multiple of m_step) for rows stride bytes apart.",
    ),
    getter(
        "get_rhs_packed_offset",
        &[size("n_idx"), size("k")],
        "Byte offset of column n_idx (a multiple of n_step) in the packed RHS.",
    ),
    getter(
        "get_dst_offset",
        &[size("m_idx"), size("n_idx"), size("stride")],
        "Byte offset of element (m_idx, n_idx) in the destination.",
    ),
    DST_SIZE,
    run(
        "run_matmul",
        &[
            size("m"),
            size("n"),
            size("k"),
            void_in("lhs"),
            size("lhs_stride"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            size("dst_stride_col"),
            p("float", "f32", "clamp_min"),
            p("float", "f32", "clamp_max"),
        ],
        "Computes the m x n portion from m LHS rows; writes nothing else.",
    ),
];

/// The function set of the indirect float GEMM family (`imatmul_clamp_f32_f32_f32p`): K as
/// chunks, the LHS as an indirection buffer; `get_lhs_offset` is exported but not in the
/// interface struct (see [`interface_member`]).
const IMATMUL_FLOAT: &[CFunction] = &[
    M_STEP,
    N_STEP,
    getter(
        "get_lhs_offset",
        &[size("m_idx"), size("stride")],
        "Byte offset of row m_idx (a multiple of m_step) in an indirection buffer with stride bytes per row (k_chunk_count pointers).",
    ),
    getter(
        "get_rhs_packed_offset",
        &[size("n_idx"), size("k_chunk_count"), size("k_chunk_length")],
        "Byte offset of column n_idx (a multiple of n_step) in the packed RHS.",
    ),
    getter(
        "get_dst_offset",
        &[size("m_idx"), size("n_idx"), size("stride")],
        "Byte offset of element (m_idx, n_idx) in the destination.",
    ),
    DST_SIZE,
    run(
        "run_imatmul",
        &[
            size("m"),
            size("n"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            void_in("indirection_buffer"),
            void_in("pad_ptr"),
            size("lhs_ptr_offset"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            p("float", "f32", "clamp_min"),
            p("float", "f32", "clamp_max"),
        ],
        "Computes the m x n portion from the chunks the indirection buffer points to (pad_ptr as it is, every other pointer plus lhs_ptr_offset); writes nothing else.",
    ),
];

/// The function set of the SME indirect float GEMM families (`imatmul_clamp_f32_f32p_f32p`,
/// `imatmul_clamp_f16_f16p_f16p`): K as chunks, the LHS packed by an imatmul LHS packer.
const IMATMUL_PACKED_FLOAT: &[CFunction] = &[
    M_STEP,
    N_STEP,
    getter(
        "get_lhs_packed_offset",
        &[size("m_idx"), size("k_chunk_count"), size("k_chunk_length")],
        "Byte offset of row m_idx (a multiple of m_step) in the packed LHS.",
    ),
    IMATMUL_FLOAT[3],
    getter(
        "get_dst_offset",
        &[size("m_idx"), size("n_idx"), size("dst_stride")],
        "Byte offset of element (m_idx, n_idx) in the destination.",
    ),
    DST_SIZE,
    run(
        "run_imatmul",
        &[
            size("m"),
            size("n"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            void_in("lhs_packed"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            p("float", "f32", "clamp_min"),
            p("float", "f32", "clamp_max"),
        ],
        "Computes the m x n portion from the packed LHS rows (K as k_chunk_count chunks of k_chunk_length values); writes nothing else.",
    ),
];

/// The function set of the SME indirect int8-output GEMMs (`imatmul_clamp_qai8_qai8p_qsi8cxp`):
/// the getters of the indirect float ones, `run_imatmul` requantizing by `params`.
const IMATMUL_QAI8: &[CFunction] = &{
    let mut set = [
        IMATMUL_PACKED_FLOAT[0],
        IMATMUL_PACKED_FLOAT[1],
        IMATMUL_PACKED_FLOAT[2],
        IMATMUL_PACKED_FLOAT[3],
        IMATMUL_PACKED_FLOAT[4],
        IMATMUL_PACKED_FLOAT[5],
        IMATMUL_PACKED_FLOAT[6],
    ];
    set[6] = run(
        "run_imatmul",
        &[
            size("m"),
            size("n"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            void_in("lhs_packed"),
            void_in("rhs_packed"),
            void_out("dst"),
            size("dst_stride_row"),
            p(
                "const struct kai_matmul_requantize32_params*",
                "*const rkai_ukernels::types::kai_matmul_requantize32_params",
                "params",
            ),
        ],
        "Computes the m x n portion from the packed LHS rows (K as k_chunk_count chunks of k_chunk_length values), requantized to int8 by params; writes nothing else.",
    );
    set
};

/// The function set of the SME LHS packers gathering rows through an indirection buffer
/// (`lhs_imatmul_pack_x32p2vlx1_x32p_sme`, `lhs_imatmul_pack_x16p2vlx2_x16p_sme`).
const LHS_IMATMUL_PACK: &[CFunction] = &[
    getter("get_m_step", NO_PARAMS, "Rows per packed block."),
    getter(
        "get_lhs_packed_offset",
        &[size("m_idx"), size("k_chunk_count"), size("k_chunk_length")],
        "Byte offset of the packed block holding row m_idx (a multiple of m_step).",
    ),
    getter(
        "get_lhs_packed_size",
        &[size("m"), size("k_chunk_count"), size("k_chunk_length")],
        "Bytes of m packed rows.",
    ),
    run(
        "run",
        &[
            size("m"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            p(
                "const void* const*",
                "*const *const core::ffi::c_void",
                "lhs_ptrs",
            ),
            size("lhs_ptr_offset"),
            void_in("pad_ptr"),
            void_out("lhs_packed"),
        ],
        "Packs m rows gathered through the indirection buffer (per block of m_step rows, per chunk, the rows' pointers; pad_ptr as it is, every other pointer plus lhs_ptr_offset).",
    ),
];

/// The function set of the float RHS packers taking K as chunks
/// (`rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve`).
const RHS_IMATMUL_PACK_FLOAT: &[CFunction] = &[
    FLOAT_N_STEP,
    RHS_OFFSET_KXN,
    BIAS_OFFSET,
    getter(
        "get_rhs_packed_stride",
        &[size("k_chunk_count"), size("k_chunk_length")],
        "Bytes of one packed group of n_step columns.",
    ),
    getter(
        "get_rhs_packed_offset",
        &[size("n_idx"), size("k_chunk_count"), size("k_chunk_length")],
        "Byte offset of the packed group holding column n_idx.",
    ),
    getter(
        "get_rhs_packed_size",
        &[size("n"), size("k_chunk_count"), size("k_chunk_length")],
        "Bytes of the packed RHS.",
    ),
    run(
        "run",
        &[
            size("n"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            size("rhs_stride_row"),
            void_in("rhs"),
            void_in("bias"),
            void_out("rhs_packed"),
        ],
        "Packs the biases and the k_chunk_count * k_chunk_length weight rows (bias required).",
    ),
];

/// The function set of the float RHS packers. `$offset` is the `get_rhs_offset` getter, `$stride`
/// the `get_rhs_packed_stride` getter if the packer has one, `$rhs_stride` the name of the source
/// stride parameter.
macro_rules! rhs_pack_float_functions {
    ($offset:ident, [$($stride:ident)?], $rhs_stride:literal) => {
        rhs_pack_functions!(
            [FLOAT_N_STEP, $offset, BIAS_OFFSET $(, $stride)?],
            [],
            [
                size($rhs_stride),
                void_in("rhs"),
                void_in("bias"),
                void_in("scale"),
            ],
            "const void*",
            "*const core::ffi::c_void",
            "Packs the biases and the weights (scale and params must be NULL)."
        )
    };
}

const FLOAT_N_STEP: CFunction = getter("get_n_step", NO_PARAMS, "Columns per packed group.");
const BIAS_OFFSET: CFunction = getter(
    "get_bias_offset",
    &[size("n_idx")],
    "Byte offset of the bias of column n_idx.",
);

const PACKED_STRIDE_GROUP: CFunction = getter(
    "get_rhs_packed_stride",
    &[size("k")],
    "Bytes of one packed group of n_step columns.",
);
const PACKED_STRIDE_COLUMN: CFunction = getter(
    "get_rhs_packed_stride",
    &[size("k")],
    "Bytes of one packed column (bias and k values).",
);
const RHS_OFFSET_KXN: CFunction = getter(
    "get_rhs_offset",
    &[size("n_idx")],
    "Byte offset of column n_idx in a K row of the source.",
);
const RHS_OFFSET_NXK: CFunction = getter(
    "get_rhs_offset",
    &[size("n_idx"), size("rhs_stride")],
    "Byte offset of source row n_idx.",
);
const RHS_PACK_FLOAT_KXN: &[CFunction] =
    rhs_pack_float_functions!(RHS_OFFSET_KXN, [PACKED_STRIDE_GROUP], "rhs_stride_row");
const RHS_PACK_FLOAT_KXN_NO_STRIDE: &[CFunction] =
    rhs_pack_float_functions!(RHS_OFFSET_KXN, [], "rhs_stride");
const RHS_PACK_FLOAT_NXK: &[CFunction] =
    rhs_pack_float_functions!(RHS_OFFSET_NXK, [PACKED_STRIDE_COLUMN], "rhs_stride");
/// `rhs_pack_kxn_bf16p12x4biasf16_f16_neon` (a stride getter, `rhs_stride`).
const RHS_PACK_BF16_KXN_STRIDE: &[CFunction] =
    rhs_pack_float_functions!(RHS_OFFSET_KXN, [PACKED_STRIDE_GROUP], "rhs_stride");
/// `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`: the float K x N set with a scale offset getter
/// after the stride getter, and the per-channel parameters.
const RHS_PACK_QSI8CXPSB: &[CFunction] = rhs_pack_functions!(
    [
        FLOAT_N_STEP,
        RHS_OFFSET_KXN,
        BIAS_OFFSET,
        PACKED_STRIDE_GROUP,
        SCALE_OFFSET
    ],
    [],
    [
        size("rhs_stride_row"),
        void_in("rhs"),
        void_in("bias"),
        void_in("scale"),
    ],
    "const struct kai_rhs_pack_qsi8cx_params*",
    "*const rkai_ukernels::types::kai_rhs_pack_qsi8cx_params",
    "Packs int8 weights with int32 biases (the LHS zero point folded in) and f32 scales (times the multiplier); bias and scale required."
);
/// `rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`: the getters of the chunked float
/// packers with the scale offset, and `run` of the plain packer over chunks.
const RHS_IMATMUL_PACK_QSI8CXPSB: &[CFunction] = &[
    FLOAT_N_STEP,
    RHS_OFFSET_KXN,
    BIAS_OFFSET,
    RHS_IMATMUL_PACK_FLOAT[3],
    SCALE_OFFSET,
    RHS_IMATMUL_PACK_FLOAT[4],
    RHS_IMATMUL_PACK_FLOAT[5],
    run(
        "run",
        &[
            size("n"),
            size("k_chunk_count"),
            size("k_chunk_length"),
            size("rhs_stride_row"),
            void_in("rhs"),
            void_in("bias"),
            void_in("scale"),
            void_out("rhs_packed"),
            p(
                "const struct kai_rhs_pack_qsi8cx_params*",
                "*const rkai_ukernels::types::kai_rhs_pack_qsi8cx_params",
                "params",
            ),
        ],
        "Packs int8 weights (k_chunk_count chunks of k_chunk_length rows, each padded to whole steps of 4) with int32 biases (the LHS zero point folded in) and f32 scales (times the multiplier); bias and scale required.",
    ),
];
const SCALE_OFFSET: CFunction = getter(
    "get_scale_offset",
    &[size("n_idx")],
    "Byte offset of the scale of column n_idx.",
);

/// `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`: its offset and size getters also take `nr` and
/// `kr`.
const RHS_QUANT_PACK_BF16_KXN: &[CFunction] = &[
    FLOAT_N_STEP,
    RHS_OFFSET_KXN,
    BIAS_OFFSET,
    getter(
        "get_rhs_packed_offset",
        &[size("n_idx"), size("k"), size("nr"), size("kr")],
        "Byte offset of the packed group holding column n_idx.",
    ),
    getter(
        "get_rhs_packed_size",
        &[size("n"), size("k"), size("nr"), size("kr")],
        "Bytes of the packed RHS.",
    ),
    RHS_PACK_FLOAT_KXN_NO_STRIDE[5],
];

/// The C functions a family's kernels or a packer export, in interface-struct (header) order.
pub trait CSurface: Copy {
    /// The function set.
    fn c_functions(self) -> &'static [CFunction];
}

impl CSurface for Family {
    fn c_functions(self) -> &'static [CFunction] {
        use BlockLength as B;
        use DstPointer as D;
        match self.description().operands {
            Operands::UnpackedFloat => FLOAT_MATMUL,
            Operands::IndirectFloat => IMATMUL_FLOAT,
            Operands::ChunkedPackedFloat(_) => IMATMUL_PACKED_FLOAT,
            Operands::Qai8dxp(Qai8dxpRhs::Qsu2cxp) => QUANT_MATMUL_F32_LUT,
            Operands::Qai8pQsi8cxpsb => QAI8_MATMUL,
            Operands::Qai8Qsi8cxpsb => QAI8_GEMV,
            Operands::ChunkedQai8pQsi8cxpsb => IMATMUL_QAI8,
            // The packed-operand families whose C functions follow from where `bl` goes and the
            // type of `dst`.
            Operands::Qai8dxp(Qai8dxpRhs::Qsi4cxp | Qai8dxpRhs::Qsi8cxp | Qai8dxpRhs::Qsi4c32p)
            | Operands::Qsi8d32pQsi4c32p
            | Operands::Qsi8d32pQai4c32p
            | Operands::PackedFloat(_)
            | Operands::F16pQsi4c32p => match (self.block_length(), self.dst_pointer()) {
                (B::None, D::Float) => QUANT_MATMUL_F32,
                (B::None, D::Void) => QUANT_MATMUL_HALF,
                (B::Rhs, D::Float) => BLOCK_MATMUL_F32,
                (B::Rhs, D::Void) => BLOCK_MATMUL_HALF,
                (B::LhsAndRhs, D::Float) => BLOCK_LHS_MATMUL_F32,
                (B::LhsAndRhs, D::Void) => BLOCK_LHS_MATMUL_HALF,
            },
        }
    }
}

/// Name of the interface-struct member holding the function whose typedef is `field`: the
/// field itself, except where KleidiAI's struct spells the member differently (the f16 float
/// GEMM interface names its `get_lhs_offset_func_t` member `get_lhs_packed_offset`), or `None`
/// where the struct has no such member (the imatmul interface has no `get_lhs_offset`).
pub const fn interface_member(family: Family, field: &'static str) -> Option<&'static str> {
    match (family, field.as_bytes()) {
        (Family::F16F16F16p, b"get_lhs_offset") => Some("get_lhs_packed_offset"),
        (Family::ImatmulF32F32F32p, b"get_lhs_offset") => None,
        _ => Some(field),
    }
}

impl CSurface for PackerKind {
    fn c_functions(self) -> &'static [CFunction] {
        match self {
            PackerKind::Lhs(kind) => kind.c_functions(),
            PackerKind::Rhs(kind) => kind.c_functions(),
        }
    }
}

impl CSurface for LhsPackerKind {
    fn c_functions(self) -> &'static [CFunction] {
        match self {
            LhsPackerKind::Qai8dxp(LhsType::F32) => LHS_QUANT_PACK_F32,
            LhsPackerKind::Qai8dxp(LhsType::F16 | LhsType::Bf16) => LHS_QUANT_PACK_HALF,
            LhsPackerKind::Bf16(v) if v.is_sme() => LHS_PACK_BF16_SME,
            LhsPackerKind::Bf16(_) => LHS_PACK_BF16,
            LhsPackerKind::F16pmrx2 => LHS_PACK_F16PMRX2,
            LhsPackerKind::SmeRows(SmeRowsPacker::X16p2vlx2) => LHS_PACK_X16P2VLX2,
            LhsPackerKind::SmeRows(SmeRowsPacker::F32p2vlx1) => LHS_PACK_F32P2VLX1,
            LhsPackerKind::IndirectSmeRows(_) => LHS_IMATMUL_PACK,
            LhsPackerKind::SmeRows(SmeRowsPacker::X8p2vlx4) => LHS_PACK_X8P2VLX4,
            LhsPackerKind::Qsi8d32p(_) => LHS_QUANT_PACK_QSI8D32P,
            LhsPackerKind::Qsi8d32pscalef32(Qsi8d32pscalef32Packer::F32) => {
                LHS_QUANT_PACK_QSI8D32PSCALEF32_F32
            }
            LhsPackerKind::Qsi8d32pscalef32(Qsi8d32pscalef32Packer::F16) => {
                LHS_QUANT_PACK_QSI8D32PSCALEF32_F16
            }
        }
    }
}

impl CSurface for RhsPackerKind {
    fn c_functions(self) -> &'static [CFunction] {
        match self {
            RhsPackerKind::Bf16(Bf16RhsPacker::QuantF32) => RHS_QUANT_PACK_BF16_KXN,
            RhsPackerKind::Bf16(Bf16RhsPacker::F16BiasF16 | Bf16RhsPacker::KxnF32Sme) => {
                RHS_PACK_BF16_KXN_STRIDE
            }
            RhsPackerKind::Bf16(Bf16RhsPacker::F16BiasF32) => RHS_PACK_FLOAT_KXN_NO_STRIDE,
            RhsPackerKind::Qsi4cxp(_) | RhsPackerKind::Qsi4cxps1s0 => RHS_PACK_QSI4CXP,
            RhsPackerKind::Qsi8cxp(_) => RHS_PACK_QSI8CXP,
            RhsPackerKind::Qsu2cxp(_) => RHS_PACK_QSU2CXP,
            RhsPackerKind::Qsi4c32p(v) => match v.source() {
                Source::Kxn => RHS_PACK_QSI4C32P_KXN,
                Source::Nxk => RHS_PACK_QSI4C32P_NXK,
            },
            RhsPackerKind::Qsi4c32pf16(_) => RHS_PACK_QSI4C32PF16,
            RhsPackerKind::Qai4c32p(_) => RHS_PACK_QAI4C32P,
            RhsPackerKind::ChunkedFloat(_) => RHS_IMATMUL_PACK_FLOAT,
            RhsPackerKind::Qsi8cxpsb => RHS_PACK_QSI8CXPSB,
            RhsPackerKind::ChunkedQsi8cxpsb => RHS_IMATMUL_PACK_QSI8CXPSB,
            RhsPackerKind::Float(v) => match (v.source(), v.has_stride_getter()) {
                (Source::Nxk, _) => RHS_PACK_FLOAT_NXK,
                (Source::Kxn, false) => RHS_PACK_FLOAT_KXN_NO_STRIDE,
                (Source::Kxn, true) => RHS_PACK_FLOAT_KXN,
            },
        }
    }
}

/// `#define` aliases the packer's header declares (`{name}` substituted).
pub const fn c_defines(kind: PackerKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        PackerKind::Rhs(
            RhsPackerKind::Qsi4cxp(_) | RhsPackerKind::Qsi4cxps1s0 | RhsPackerKind::Qsu2cxp(_),
        ) => &[("kai_{name}_params", "kai_rhs_pack_qs4cxs1s0_param")],
        PackerKind::Rhs(RhsPackerKind::Qai4c32p(_)) => &[(
            "kai_rhs_pack_nxk_qai4c32p_params",
            "kai_rhs_pack_qs4cxs1s0_param",
        )],
        PackerKind::Lhs(_)
        | PackerKind::Rhs(
            RhsPackerKind::Qsi8cxp(_)
            | RhsPackerKind::Qsi4c32p(_)
            | RhsPackerKind::Qsi4c32pf16(_)
            | RhsPackerKind::Float(_)
            | RhsPackerKind::ChunkedFloat(_)
            | RhsPackerKind::Bf16(_)
            | RhsPackerKind::Qsi8cxpsb
            | RhsPackerKind::ChunkedQsi8cxpsb,
        ) => &[],
    }
}
