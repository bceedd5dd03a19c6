//! Typed pointers to the exported C functions, looked up by symbol name in the table build.rs
//! generates from the catalog. Shared by the tests and the benches.
#![allow(dead_code)]

use core::ffi::c_void;
use rkai_capi::capi::exports::symbol_address;
use rkai_ukernels::types::{kai_rhs_pack_qs4cxs1s0_param, kai_rhs_pack_qsi8cx_params};

pub type Getter0 = extern "C" fn() -> usize;
pub type Getter2 = extern "C" fn(usize, usize) -> usize;
pub type Getter3 = extern "C" fn(usize, usize, usize) -> usize;
pub type Getter4 = extern "C" fn(usize, usize, usize, usize) -> usize;
pub type Getter5 = extern "C" fn(usize, usize, usize, usize, usize) -> usize;

/// A `kai_run_lhs_*pack_*` prototype: the sizes `$dim`, then the parameters every LHS packer
/// ends with, its source of `$lhs` pointer type.
macro_rules! lhs_pack_fn {
    ($($dim:ident),+; $lhs:ty) => {
        unsafe extern "C" fn(
            $($dim: usize,)+
            m_idx_start: usize,
            lhs: $lhs,
            lhs_stride: usize,
            lhs_packed: *mut c_void
        )
    };
}

/// A `kai_run_rhs_pack_*` prototype: the parameters every RHS packer starts with, then its own.
macro_rules! rhs_pack_fn {
    ($($own:ident: $ty:ty),* $(,)?) => {
        unsafe extern "C" fn(
            num_groups: usize,
            n: usize,
            k: usize,
            nr: usize,
            kr: usize,
            sr: usize,
            $($own: $ty),*
        )
    };
}

/// A `kai_run_matmul_clamp_*` prototype: the sizes `$dim`, the LHS (`lhs_packed`, or the
/// parameters `[$lhs]` of an unpacked one), the RHS, destination and clamp bounds all of them
/// take, then the kernel's own trailing parameters.
macro_rules! matmul_fn {
    ($($dim:ident),+ [$($lhs:ident: $lty:ty),+] $(; $($own:ident: $ty:ty),*)?) => {
        unsafe extern "C" fn(
            $($dim: usize,)+
            $($lhs: $lty,)+
            rhs_packed: *const c_void,
            dst: *mut c_void,
            dst_stride_row: usize,
            dst_stride_col: usize,
            scalar_min: f32,
            scalar_max: f32
            $($(, $own: $ty)*)?
        )
    };
    ($($dim:ident),+ $(; $($own:ident: $ty:ty),*)?) => {
        matmul_fn!($($dim),+ [lhs_packed: *const c_void] $(; $($own: $ty),*)?)
    };
}

/// A `kai_run_rhs_pack_*_qs4cxs1s0`-style prototype: the int4 per-channel packers' parameters
/// (`kai_rhs_pack_qs4cxs1s0_param`), then `$own`.
macro_rules! qs4cx_pack_fn {
    ($($own:ident: $ty:ty),* $(,)?) => {
        rhs_pack_fn!(
            rhs: *const u8,
            bias: *const f32,
            scale: *const f32,
            rhs_packed: *mut c_void,
            extra_bytes: usize,
            params: *const kai_rhs_pack_qs4cxs1s0_param,
            $($own: $ty),*
        )
    };
}

/// `kai_run_lhs_quant_pack_qai8dxp_f32`.
pub type LhsQuantPackFn = lhs_pack_fn!(m, k, mr, kr, sr; *const f32);
/// `kai_run_lhs_quant_pack_qai8dxp_{f16,bf16}_neon`.
pub type LhsQuantPackHalfFn = lhs_pack_fn!(m, k, mr, kr, sr; *const c_void);
/// `kai_run_rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0`.
pub type RhsPackQsi4cxpFn = qs4cx_pack_fn!();
/// `kai_run_rhs_pack_nxk_qsu2cxp*_qsu2cx_neon` (the int4 prototype and a trailing `lut_arg`).
pub type RhsPackQsu2cxpFn = qs4cx_pack_fn!(lut_arg: *const i32);
/// `kai_run_rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon`.
pub type RhsPackQsi8cxpFn = rhs_pack_fn!(
    rhs: *const i8,
    bias: *const f32,
    scale: *const f32,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const kai_rhs_pack_qsi8cx_params,
);
/// The exported C function `symbol` as the function-pointer type `F`.
pub fn sym<F: Copy>(symbol: &str) -> F {
    let addr = symbol_address(symbol).unwrap_or_else(|| panic!("{symbol} is not exported"));
    assert_eq!(size_of::<F>(), size_of::<usize>());
    // SAFETY: F is the function-pointer type of this symbol's C prototype (caller's choice).
    unsafe { std::mem::transmute_copy(&addr) }
}

/// `<prefix>_<verb>_<name>` as `F`: the prefix is the kernel's (`kai` or `rkai`), `kai` for
/// packers.
pub fn func<F: Copy>(verb: &str, name: &str) -> F {
    sym(&symbol(verb, name))
}

/// Exported name of function `verb` of the kernel or packer `name`.
pub fn symbol(verb: &str, name: &str) -> String {
    let prefix = rkai_ukernels::catalog::kernel(name).map_or("kai", |k| k.prefix());
    format!("{prefix}_{verb}_{name}")
}

pub type Getter6 = extern "C" fn(usize, usize, usize, usize, usize, u32) -> usize;
pub type Getter7 = extern "C" fn(usize, usize, usize, usize, usize, usize, u32) -> usize;
/// `kai_run_rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0` and the NEON `nrx4` / `nrx8` forms (the two
/// parameter structs have one layout).
pub type RhsPackQsi4c32pFn = rhs_pack_fn!(
    bl: usize,
    rhs: *const u8,
    rhs_stride: usize,
    bias: *const f32,
    scale: *const c_void,
    scale_stride: usize,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const c_void,
);
/// `kai_run_matmul_clamp_*_qai8dxp*` with a per-channel RHS (`dst` is `float*` for f32 output,
/// `void*` otherwise: one ABI).
pub type MatmulFn = matmul_fn!(m, n, k);
/// `kai_run_matmul_clamp_f32_qai8dxp*_qsu2cxp*` (2-bit RHS: a trailing `lut`).
pub type MatmulLutFn = matmul_fn!(m, n, k; lut: *const i32);
/// `kai_run_matmul_clamp_{f32,bf16}_qai8dxp*_qsi4c32p*` (per-block RHS: takes `bl`).
pub type MatmulBlockFn = matmul_fn!(m, n, k, bl);
/// `kai_run_rhs_pack_*` of the float packers (`x32p16x1b`, `f32p8x1biasf32`, `x32p4vlx1b`, ...).
pub type RhsPackFloatFn = rhs_pack_fn!(
    rhs_stride: usize,
    rhs: *const c_void,
    bias: *const c_void,
    scale: *const c_void,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const c_void,
);

/// Calls the float RHS packer `name` ([`RhsPackFloatFn`]) as every caller does: one group, no
/// scale, no extra bytes, no parameters.
///
/// # Safety
/// `src` (k rows `stride` bytes apart), `bias` (n values, or null) and `out` (the packed size)
/// are valid for the shape and the tile.
pub unsafe fn pack_float_rhs(
    name: &str,
    (n, k): (usize, usize),
    (nr, kr, sr): (usize, usize, usize),
    (src, stride): (*const c_void, usize),
    bias: *const c_void,
    out: *mut c_void,
) {
    let pack = func::<RhsPackFloatFn>("run", name);
    let none = core::ptr::null();
    // SAFETY: forwarded contract.
    unsafe { pack(1, n, k, nr, kr, sr, stride, src, bias, none, out, 0, none) }
}
/// `kai_run_matmul_clamp_qai8_qai8p*` and `kai_run_matmul_clamp_qai8_qai8_*` (int8 output,
/// requantized: `params` instead of float bounds; the GEMV's `lhs_packed` is its row).
pub type MatmulQai8Fn = unsafe extern "C" fn(
    m: usize,
    n: usize,
    k: usize,
    lhs_packed: *const c_void,
    rhs_packed: *const c_void,
    dst: *mut c_void,
    dst_stride_row: usize,
    dst_stride_col: usize,
    params: *const rkai_ukernels::types::kai_matmul_requantize32_params,
);
/// `kai_run_matmul_clamp_f32_f32_f32p*` (an unpacked LHS and its row stride).
pub type MatmulFloatFn = matmul_fn!(m, n, k [lhs: *const c_void, lhs_stride: usize]);

/// `kai_get_*` getters of one `size_t` (`get_n_step(nr)`, `get_m_step(mr)`, `get_bias_offset`).
pub type Getter1 = extern "C" fn(usize) -> usize;
/// `kai_get_lhs_packed_{offset,size}` of the per-block LHS packers and of
/// `lhs_pack_f16pmrx2_f32_neon`: (m, k, bl, mr, kr, sr).
pub type BlockLhsGetter = extern "C" fn(usize, usize, usize, usize, usize, usize) -> usize;
/// `kai_run_lhs_quant_pack_qsi8d32p*` and `kai_run_lhs_pack_f16pmrx2_f32_neon`.
pub type LhsBlockPackFn = lhs_pack_fn!(m, k, bl, mr, kr, sr; *const c_void);
/// `kai_run_rhs_pack_nxk_qsi4c32p*scalef16_qsu4c32s16s0*`.
pub type RhsPackQ4_0Fn = rhs_pack_fn!(
    bl: usize,
    rhs: *const u8,
    bias: *const f32,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const kai_rhs_pack_qs4cxs1s0_param,
);
/// `kai_run_rhs_pack_nxk_qai4c32p*`.
pub type RhsPackQai4c32pFn = rhs_pack_fn!(
    bl: usize,
    rhs: *const u8,
    zero: *const c_void,
    bias: *const c_void,
    scale: *const c_void,
    rhs_packed: *mut c_void,
    extra_bytes: usize,
    params: *const kai_rhs_pack_qs4cxs1s0_param,
);
/// The tile getters of a matmul kernel, in the order of KleidiAI's interface structs.
pub const TILE_GETTERS: [&str; 6] = [
    "get_m_step",
    "get_n_step",
    "get_mr",
    "get_nr",
    "get_kr",
    "get_sr",
];

/// `kai_run_imatmul_clamp_{f32_f32p,f16_f16p}*`: (m, n, k_chunk_count, k_chunk_length, lhs_packed,
/// rhs_packed, dst, dst_stride_row, clamp_min, clamp_max).
pub type ImatmulPackedFn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    *mut c_void,
    usize,
    f32,
    f32,
);
/// `kai_run_imatmul_clamp_f32_f32_f32p*`: (m, n, k_chunk_count, k_chunk_length, indirection,
/// pad, lhs_ptr_offset, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max).
pub type ImatmulFn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    usize,
    *const c_void,
    *mut c_void,
    usize,
    f32,
    f32,
);
/// `kai_run_lhs_imatmul_pack_*`: (m, k_chunk_count, k_chunk_length, lhs_ptrs, lhs_ptr_offset,
/// pad_ptr, lhs_packed).
pub type ImatmulLhsPackFn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    *const *const c_void,
    usize,
    *const c_void,
    *mut c_void,
);
/// `kai_run_rhs_imatmul_pack_kxn_*`: (n, k_chunk_count, k_chunk_length, rhs_stride_row, rhs,
/// bias, rhs_packed).
pub type ImatmulPackFn =
    unsafe extern "C" fn(usize, usize, usize, usize, *const c_void, *const c_void, *mut c_void);
/// `kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`: (n, k_chunk_count,
/// k_chunk_length, rhs_stride_row, rhs, bias, scale, rhs_packed, params).
pub type ImatmulPackQsi8Fn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    *const c_void,
    *mut c_void,
    *const c_void,
);

/// Calls the LHS packer `name` of the `(m, k, mr, kr, sr, m_idx_start, lhs, lhs_stride,
/// lhs_packed)` prototype ([`LhsQuantPackHalfFn`]: the `qai8dxp` and bf16 packers).
///
/// # Safety
/// `src` (rows `stride` bytes apart) and `out` (the packed size) are valid for the call, or the
/// call aborts before touching them.
pub unsafe fn pack_lhs(
    name: &str,
    (m, k): (usize, usize),
    (mr, kr, sr): (usize, usize, usize),
    m_idx_start: usize,
    (src, stride): (*const c_void, usize),
    out: *mut c_void,
) {
    let pack = func::<LhsQuantPackHalfFn>("run", name);
    // SAFETY: forwarded contract.
    unsafe { pack(m, k, mr, kr, sr, m_idx_start, src, stride, out) }
}

/// Calls the per-block LHS packer `name` ([`LhsBlockPackFn`]: `qsi8d32p` and
/// `f16pmrx2`), which takes the block length after K.
///
/// # Safety
/// As [`pack_lhs`].
pub unsafe fn pack_block_lhs(
    name: &str,
    (m, k, bl): (usize, usize, usize),
    (mr, kr, sr): (usize, usize, usize),
    m_idx_start: usize,
    (src, stride): (*const c_void, usize),
    out: *mut c_void,
) {
    let pack = func::<LhsBlockPackFn>("run", name);
    // SAFETY: forwarded contract.
    unsafe { pack(m, k, bl, mr, kr, sr, m_idx_start, src, stride, out) }
}

/// Calls the per-channel RHS packer `name` with one group and no extra bytes: the int4
/// ([`RhsPackQsi4cxpFn`]) and int8 ([`RhsPackQsi8cxpFn`]) prototypes differ only in the type of
/// the source and of `params`.
///
/// # Safety
/// `src` (n x k weights of the packer's form), `bias` and `scales` (n values) and `out` (the
/// packed size) are valid for the call.
pub unsafe fn pack_per_channel_rhs<P>(
    name: &str,
    (n, k): (usize, usize),
    (nr, kr, sr): (usize, usize, usize),
    src: *const c_void,
    (bias, scales): (*const f32, *const f32),
    out: *mut c_void,
    params: &P,
) {
    type PerChannelFn<P> = rhs_pack_fn!(
        rhs: *const c_void,
        bias: *const f32,
        scale: *const f32,
        rhs_packed: *mut c_void,
        extra_bytes: usize,
        params: *const P,
    );
    let pack = func::<PerChannelFn<P>>("run", name);
    // SAFETY: forwarded contract.
    unsafe { pack(1, n, k, nr, kr, sr, src, bias, scales, out, 0, params) }
}

/// Calls the Q4_0 RHS packer `name` ([`RhsPackQ4_0Fn`]) with one group and no extra bytes.
///
/// # Safety
/// `src` (n rows of Q4_0 blocks), `bias` and `out` (the packed size) are valid for the call, or
/// the call aborts before touching them.
pub unsafe fn pack_q4_0_rhs(
    name: &str,
    (n, k, bl): (usize, usize, usize),
    (nr, kr, sr): (usize, usize, usize),
    (src, bias): (*const u8, *const f32),
    out: *mut c_void,
    params: &kai_rhs_pack_qs4cxs1s0_param,
) {
    let pack = func::<RhsPackQ4_0Fn>("run", name);
    // SAFETY: forwarded contract.
    unsafe { pack(1, n, k, nr, kr, sr, bl, src, bias, out, 0, params) }
}

/// Calls the asymmetric int4 RHS packer `name` ([`RhsPackQai4c32pFn`]) with one group and no
/// extra bytes; `floats` are its zero, bias and scale pointers.
///
/// # Safety
/// `src`, `floats` and `out` (the packed size) are valid for the call, or the call aborts before
/// touching them.
pub unsafe fn pack_qai4c32p_rhs(
    name: &str,
    (n, k, bl): (usize, usize, usize),
    (nr, kr, sr): (usize, usize, usize),
    src: *const u8,
    (zero, bias, scale): (*const c_void, *const c_void, *const c_void),
    out: *mut c_void,
    params: &kai_rhs_pack_qs4cxs1s0_param,
) {
    let pack = func::<RhsPackQai4c32pFn>("run", name);
    // SAFETY: forwarded contract.
    unsafe {
        pack(
            1, n, k, nr, kr, sr, bl, src, zero, bias, scale, out, 0, params,
        )
    }
}
