//! Invalid arguments end the process with `rkai: <function>: assertion failed: <condition>`
//! (KleidiAI asserts the same conditions), checked in child processes.

use crate::support;

use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param as RhsParams;
use std::ptr;
use support::block_gemm::run_kernel;
use support::cabi::{
    Getter2, Getter3, Getter5, Getter7, MatmulFn, RhsPackQsi4c32pFn, RhsPackQsi4cxpFn as RhsPackFn,
    pack_lhs, sym,
};
use support::death;

const GEMV: &str = "matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod";
const GEMM: &str = "matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm";
const NXK: &str = "rhs_pack_nxk_qsi4cxp_qs4cxs1s0";
const KXN: &str = "rhs_pack_kxn_qsi4cxp_qs4cxs1s0";
const LHS: &str = "lhs_quant_pack_qai8dxp_f32";
const BLOCK_GEMV: &str = "matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod";
const F16_GEMV: &str = "matmul_clamp_f16_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod";
const BLOCK_NXK: &str = "rhs_pack_nxk_qsi4c32p_qsu4c32s1s0";
const BLOCK_NRX8: &str = "rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon";
const BF16: u32 = 0x0213;

/// Calls a per-block int4 packer for n = 8, k = 64 with the given block shape and parameters
/// `(lhs_zero_point, rhs_zero_point, scale_dt)`.
fn block_pack(name: &str, kr: usize, bl: usize, params: (i8, u8, u32)) {
    let src = [0x88u8; 8 * 32];
    let scales = [0x3f80u16; 8 * 2];
    let mut out = vec![0u8; 8192];
    let mut raw = [0u8; 8];
    raw[0] = params.0 as u8;
    raw[1] = params.1;
    raw[4..].copy_from_slice(&params.2.to_ne_bytes());
    // SAFETY: the call is expected to abort before touching memory.
    unsafe {
        sym::<RhsPackQsi4c32pFn>(&format!("kai_run_{name}"))(
            1,
            8,
            64,
            8,
            kr,
            2,
            bl,
            src.as_ptr(),
            32,
            ptr::null(),
            scales.as_ptr().cast(),
            4,
            out.as_mut_ptr().cast(),
            0,
            raw.as_ptr().cast(),
        )
    }
}

/// One violation: (case name, symbol, condition, action).
type Case = death::Case<String, &'static str>;

fn rhs_pack(
    name: &str,
    params: Option<RhsParams>,
    num_groups: usize,
    extra: usize,
    null_scale: bool,
) {
    let src = [0x88u8; 64];
    let scale = [1.0f32; 8];
    let mut out = vec![0u8; 4096];
    let p = params.map(Box::new);
    // SAFETY: the call is expected to abort before touching memory.
    unsafe {
        sym::<RhsPackFn>(&format!("kai_run_{name}"))(
            num_groups,
            8,
            16,
            8,
            16,
            2,
            src.as_ptr(),
            ptr::null(),
            if null_scale {
                ptr::null()
            } else {
                scale.as_ptr()
            },
            out.as_mut_ptr().cast(),
            extra,
            p.as_deref().map_or(ptr::null(), |p| p as *const RhsParams),
        )
    }
}

/// Calls the qai8dxp LHS packer `name` for `m` rows of k = 16 (mr = 1, kr = 16) with `sr`, the
/// source (or null) and its row stride.
fn lhs_pack(name: &str, m: usize, sr: usize, null_lhs: bool, lhs_stride: usize) {
    let x = [0f32; 64];
    let mut out = [0u8; 512];
    let lhs = if null_lhs { ptr::null() } else { x.as_ptr() };
    let src = (lhs.cast(), lhs_stride);
    // SAFETY: expected to abort before touching memory.
    unsafe { pack_lhs(name, (m, 16), (1, 16, sr), 0, src, out.as_mut_ptr().cast()) }
}

/// The packer parameters with these zero points (1 and 8 are the accepted ones).
fn params(lhs_zero_point: i8, rhs_zero_point: u8) -> Option<RhsParams> {
    Some(RhsParams {
        lhs_zero_point,
        rhs_zero_point,
    })
}

/// Calls per-channel kernel `stem` for m rows, n = 8, k = 32 (its dst type does not matter: the
/// call is expected to abort first).
fn run_gemv(
    stem: &str,
    m: usize,
    (dst_stride_col, dst_stride_row): (usize, usize),
    null_lhs: bool,
) {
    let lhs = vec![0u8; 4096];
    let rhs = vec![0u8; 4096];
    let mut dst = vec![0f32; 64];
    // SAFETY: expected to abort before touching memory.
    unsafe {
        sym::<MatmulFn>(&format!("kai_run_{stem}"))(
            m,
            8,
            32,
            if null_lhs {
                ptr::null()
            } else {
                lhs.as_ptr().cast()
            },
            rhs.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            dst_stride_row,
            dst_stride_col,
            -1.0,
            1.0,
        )
    }
}

/// Calls the qsi8cxp RHS packer `name` with sr = 2 (n = 4, k = 16, nr = 4, kr = 8).
fn qsi8cxp_pack(name: &str) {
    let w = [0i8; 64];
    let scale = [1.0f32; 4];
    let mut out = vec![0u8; 4096];
    let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: 1,
        scale_multiplier: 1.0,
    };
    // SAFETY: expected to abort before touching memory.
    unsafe {
        sym::<support::cabi::RhsPackQsi8cxpFn>(&format!("kai_run_{name}"))(
            1,
            4,
            16,
            4,
            8,
            2,
            w.as_ptr(),
            ptr::null(),
            scale.as_ptr(),
            out.as_mut_ptr().cast(),
            0,
            &params,
        )
    }
}

/// Calls the bf16 qai8dxp LHS packer `name` with kr = 8, sr = 2 (one row, k = 16).
fn bf16_lhs_pack(name: &str) {
    let x = [0u16; 16];
    let mut out = [0u8; 256];
    // SAFETY: expected to abort first.
    unsafe {
        sym::<support::cabi::LhsQuantPackHalfFn>(&format!("kai_run_{name}"))(
            1,
            16,
            1,
            8,
            2,
            0,
            x.as_ptr().cast(),
            32,
            out.as_mut_ptr().cast(),
        )
    }
}

const QSI8_NXK: &str = "rhs_pack_nxk_qsi8cxp_qsi8cx_neon";
const BF16_LHS: &str = "lhs_quant_pack_qai8dxp_bf16_neon";

fn cases() -> Vec<Case> {
    vec![
        run_case!("rhs_zero_point", "params->rhs_zero_point == 0 || params->rhs_zero_point == 8"
            => rhs_pack(NXK, params(1, 7), 1, 0, false)),
        run_case!("lhs_zero_point", "params->lhs_zero_point == 1"
            => rhs_pack(KXN, params(0, 8), 1, 0, false)),
        run_case!("qsi8_sr", "sr == 1" => qsi8cxp_pack(QSI8_NXK)),
        run_case!("bf16_block_depth", "kr / sr == 8" => bf16_lhs_pack(BF16_LHS)),
        run_case!("null_params", "params != NULL" => rhs_pack(NXK, None, 1, 0, false)),
        run_case!("null_scale", "scale != NULL" => rhs_pack(NXK, params(1, 8), 1, 0, true)),
        run_case!("num_groups", "num_groups == 1" => rhs_pack(KXN, params(1, 8), 2, 0, false)),
        run_case!("extra_bytes", "extra_bytes == 0" => rhs_pack(NXK, params(1, 8), 1, 4, false)),
        run_case!("kr_sr", "(kr % sr) == 0" => lhs_pack(LHS, 1, 3, false, 64)),
        run_case!("lhs_null", "lhs != NULL" => lhs_pack(LHS, 1, 2, true, 64)),
        run_case!("lhs_stride", "lhs_stride >= k * sizeof(element)"
            => lhs_pack(LHS, 2, 2, false, 32)),
        run_case!("dst_stride_col", "dst_stride_col == sizeof(float)"
            => run_gemv(GEMV, 2, (8, 32), false)),
        run_case!("dst_stride_row", "dst_stride_row >= n * sizeof(float)"
            => run_gemv(GEMV, 2, (4, 16), false)),
        run_case!("lhs_packed_null", "lhs_packed != NULL" => run_gemv(GEMV, 2, (4, 32), true)),
        getter_case!("dst_offset_step", "(m_idx % m_step) == 0"
            => get_dst_offset::<Getter3>(GEMM)(4, 0, 64)),
        getter_case!("rhs_offset_step", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter2>(GEMM)(3, 64)),
        run_case!("block_rhs_zero_point", "params->rhs_zero_point == 8"
            => block_pack(BLOCK_NXK, 16, 32, (1, 0, BF16))),
        run_case!("block_scale_dt", "scale_dt == kai_dt_bf16"
            => block_pack(BLOCK_NXK, 16, 32, (1, 8, 0x0411))),
        run_case!("block_length_multiple_of_32", "(bl % 32) == 0"
            => block_pack(BLOCK_NXK, 16, 48, (1, 8, BF16))),
        run_case!("neon_block_depth", "block_length_in_bytes == 8"
            => block_pack(BLOCK_NRX8, 8, 32, (1, 8, BF16))),
        getter_case!("block_k_multiple_of_bl", "(k % bl) == 0"
            => get_rhs_packed_size::<Getter7>(BLOCK_NXK)(8, 96, 8, 16, 2, 64, BF16)),
        run_case!("block_kernel_k_multiple_of_bl", "(k % bl) == 0"
            => run_kernel(BLOCK_GEMV, 96, 64, 4, false)),
        run_case!("f16_dst_stride_col", "dst_stride_col == sizeof(uint16_t)"
            => run_gemv(F16_GEMV, 1, (4, 32), false)),
        getter_case!("size_overflow", "packed LHS size fits in size_t"
            => get_lhs_packed_size::<Getter5>(LHS)(usize::MAX / 2, 1 << 20, 4, 16, 2)),
    ]
}

death_tests!(cases, "contract violations", "contract");
