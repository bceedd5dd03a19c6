//! Invalid arguments end the process with `rkai: <function>: assertion failed: <condition>`
//! (KleidiAI asserts the same conditions), checked in child processes.

mod support;

use rkai::ukernels::types::kai_rhs_pack_qs4cxs1s0_param as RhsParams;
use std::ptr;
use support::cabi::{
    Getter2, Getter3, Getter5, LhsQuantPackFn as LhsPackFn, MatmulF32Fn as RunFn,
    RhsPackQsi4cxpFn as RhsPackFn, sym,
};
use support::death;

const GEMV: &str = "matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod";
const GEMM: &str = "matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm";
const NXK: &str = "rhs_pack_nxk_qsi4cxp_qs4cxs1s0";
const KXN: &str = "rhs_pack_kxn_qsi4cxp_qs4cxs1s0";
const LHS: &str = "lhs_quant_pack_qai8dxp_f32";

/// One violation: (case name, symbol, condition, action).
type Case = (&'static str, String, &'static str, fn());

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

fn ok_params() -> Option<RhsParams> {
    Some(RhsParams {
        lhs_zero_point: 1,
        rhs_zero_point: 8,
    })
}

fn run_gemv(dst_stride_col: usize, null_lhs: bool, dst_stride_row: usize) {
    let lhs = vec![0u8; 4096];
    let rhs = vec![0u8; 4096];
    let mut dst = vec![0f32; 64];
    // SAFETY: expected to abort before touching memory.
    unsafe {
        sym::<RunFn>(&format!("kai_run_{GEMV}"))(
            2,
            8,
            32,
            if null_lhs {
                ptr::null()
            } else {
                lhs.as_ptr().cast()
            },
            rhs.as_ptr().cast(),
            dst.as_mut_ptr(),
            dst_stride_row,
            dst_stride_col,
            -1.0,
            1.0,
        )
    }
}

fn cases() -> Vec<Case> {
    let run = |s: &str| format!("kai_run_{s}");
    vec![
        (
            "rhs_zero_point",
            run(NXK),
            "params->rhs_zero_point == 0 || params->rhs_zero_point == 8",
            || {
                rhs_pack(
                    NXK,
                    Some(RhsParams {
                        lhs_zero_point: 1,
                        rhs_zero_point: 7,
                    }),
                    1,
                    0,
                    false,
                )
            },
        ),
        (
            "lhs_zero_point",
            run(KXN),
            "params->lhs_zero_point == 1",
            || {
                rhs_pack(
                    KXN,
                    Some(RhsParams {
                        lhs_zero_point: 0,
                        rhs_zero_point: 8,
                    }),
                    1,
                    0,
                    false,
                )
            },
        ),
        (
            "qsi8_sr",
            "kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon".to_string(),
            "sr == 1",
            || {
                let w = [0i8; 64];
                let scale = [1.0f32; 4];
                let mut out = vec![0u8; 4096];
                let params = rkai::ukernels::types::kai_rhs_pack_qsi8cx_params {
                    lhs_zero_point: 1,
                    scale_multiplier: 1.0,
                };
                // SAFETY: expected to abort before touching memory.
                unsafe {
                    sym::<support::cabi::RhsPackQsi8cxpFn>(
                        "kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon",
                    )(
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
            },
        ),
        (
            "bf16_block_depth",
            "kai_run_lhs_quant_pack_qai8dxp_bf16_neon".to_string(),
            "kr / sr == 8",
            || {
                let x = [0u16; 16];
                let mut out = [0u8; 256];
                // SAFETY: expected to abort first.
                unsafe {
                    sym::<support::cabi::LhsQuantPackHalfFn>(
                        "kai_run_lhs_quant_pack_qai8dxp_bf16_neon",
                    )(
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
            },
        ),
        ("null_params", run(NXK), "params != NULL", || {
            rhs_pack(NXK, None, 1, 0, false)
        }),
        ("null_scale", run(NXK), "scale != NULL", || {
            rhs_pack(NXK, ok_params(), 1, 0, true)
        }),
        ("num_groups", run(KXN), "num_groups == 1", || {
            rhs_pack(KXN, ok_params(), 2, 0, false)
        }),
        ("extra_bytes", run(NXK), "extra_bytes == 0", || {
            rhs_pack(NXK, ok_params(), 1, 4, false)
        }),
        ("kr_sr", run(LHS), "(kr % sr) == 0", || {
            let x = [0f32; 16];
            let mut out = [0u8; 256];
            // SAFETY: expected to abort first.
            unsafe {
                sym::<LhsPackFn>("kai_run_lhs_quant_pack_qai8dxp_f32")(
                    1,
                    16,
                    1,
                    16,
                    3,
                    0,
                    x.as_ptr(),
                    64,
                    out.as_mut_ptr().cast(),
                )
            }
        }),
        ("lhs_null", run(LHS), "lhs != NULL", || {
            let mut out = [0u8; 256];
            // SAFETY: expected to abort first.
            unsafe {
                sym::<LhsPackFn>("kai_run_lhs_quant_pack_qai8dxp_f32")(
                    1,
                    16,
                    1,
                    16,
                    2,
                    0,
                    ptr::null(),
                    64,
                    out.as_mut_ptr().cast(),
                )
            }
        }),
        (
            "lhs_stride",
            run(LHS),
            "lhs_stride >= k * sizeof(element)",
            || {
                let x = [0f32; 64];
                let mut out = [0u8; 512];
                // SAFETY: expected to abort first.
                unsafe {
                    sym::<LhsPackFn>("kai_run_lhs_quant_pack_qai8dxp_f32")(
                        2,
                        16,
                        1,
                        16,
                        2,
                        0,
                        x.as_ptr(),
                        32,
                        out.as_mut_ptr().cast(),
                    )
                }
            },
        ),
        (
            "dst_stride_col",
            format!("kai_run_{GEMV}"),
            "dst_stride_col == sizeof(float)",
            || run_gemv(8, false, 32),
        ),
        (
            "dst_stride_row",
            format!("kai_run_{GEMV}"),
            "dst_stride_row >= n * sizeof(float)",
            || run_gemv(4, false, 16),
        ),
        (
            "lhs_packed_null",
            format!("kai_run_{GEMV}"),
            "lhs_packed != NULL",
            || run_gemv(4, true, 32),
        ),
        (
            "dst_offset_step",
            format!("kai_get_dst_offset_{GEMM}"),
            "(m_idx % m_step) == 0",
            || {
                sym::<Getter3>(&format!("kai_get_dst_offset_{GEMM}"))(4, 0, 64);
            },
        ),
        (
            "rhs_offset_step",
            format!("kai_get_rhs_packed_offset_{GEMM}"),
            "(n_idx % nr) == 0",
            || {
                sym::<Getter2>(&format!("kai_get_rhs_packed_offset_{GEMM}"))(3, 64);
            },
        ),
        (
            "size_overflow",
            format!("kai_get_lhs_packed_size_{LHS}"),
            "packed LHS size fits in size_t",
            || {
                sym::<Getter5>(&format!("kai_get_lhs_packed_size_{LHS}"))(
                    usize::MAX / 2,
                    1 << 20,
                    4,
                    16,
                    2,
                );
            },
        ),
    ]
}

#[test]
#[ignore = "child process of the death tests"]
fn death_child() {
    let name = std::env::var(death::CASE_ENV).expect("death case");
    let (_, _, _, action) = cases()
        .into_iter()
        .find(|c| c.0 == name)
        .expect("known case");
    action();
    println!("survived");
}

#[test]
fn violations_abort_with_function_and_condition() {
    let cases = cases();
    for (name, symbol, condition, _) in &cases {
        let out = death::run_child("death_child", name);
        death::expect_abort(&out, symbol, condition);
    }
    eprintln!("{} contract violations checked", cases.len());
}
