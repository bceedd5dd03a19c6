//! Size and offset arithmetic at the edge of `size_t`: for every kernel's tile and every packed
//! layout, the largest shape that fits gives the exact size and one more column, row or K value
//! is refused with a "fits in size_t" condition, never a wrapped value. Through the C functions
//! the refusal is the usual abort with `rkai: <function>: assertion failed: <condition>`.

use crate::support;

use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::layout::{dst, qai8dxp};
use support::cabi::{Getter2, Getter3, Getter4, Getter5, Getter7, sym};
use support::death;

/// Largest count whose groups of `step` times `stride` fit in `usize`, and its exact size.
fn largest_fitting(step: usize, stride: usize) -> (usize, usize) {
    let groups = usize::MAX / stride;
    (groups * step, groups * stride)
}

#[test]
fn every_kernel_layout_is_exact_up_to_the_boundary_and_refuses_past_it() {
    let mut checked = 0;
    for kernel in KERNELS {
        let t = kernel.tile();
        for bl in [0, 32, 256] {
            let layout = kernel.family.rhs_layout(bl);
            let k = if bl == 0 { 4096 } else { 8 * bl };
            let Ok(stride) = layout.stride(k, t.nr, t.kr, t.sr) else {
                continue; // a block length this family does not take
            };
            let (n_max, size) = largest_fitting(t.nr, stride);
            assert_eq!(
                layout.size(n_max, k, t.nr, t.kr, t.sr),
                Ok(size),
                "{}",
                kernel.stem
            );
            let past = layout.size(n_max + 1, k, t.nr, t.kr, t.sr).unwrap_err();
            assert!(
                past.condition.ends_with("fits in size_t"),
                "{}: {past:?}",
                kernel.stem
            );
            // The last group's offset is exact too; the one after it is refused.
            let last = n_max - t.nr;
            assert_eq!(layout.offset(last, k, t.nr, t.kr, t.sr), Ok(size - stride));
            // K so large that the packed column cannot be represented.
            let huge_k = layout.stride(usize::MAX - 3, t.nr, t.kr, t.sr).unwrap_err();
            assert!(huge_k.condition.ends_with("fits in size_t") || huge_k.condition.contains('%'));
            checked += 1;
        }
        let lhs_stride = qai8dxp::stride(4096, t.mr, t.kr, t.sr).unwrap();
        let (m_max, size) = largest_fitting(t.mr, lhs_stride);
        assert_eq!(qai8dxp::size(m_max, 4096, t.mr, t.kr, t.sr), Ok(size));
        assert!(qai8dxp::size(m_max + 1, 4096, t.mr, t.kr, t.sr).is_err());
        assert_eq!(
            qai8dxp::offset(m_max - t.mr, 4096, t.mr, t.kr, t.sr),
            Ok(size - lhs_stride)
        );
    }
    // dst: m x n x 4 bytes.
    let n = 1000;
    let m_max = usize::MAX / (4 * n);
    assert_eq!(dst::size(m_max, n, 4), Ok(m_max * n * 4));
    assert!(dst::size(m_max + 1, n, 4).is_err());
    assert!(dst::offset(usize::MAX / 8, 8, 16, 4).is_err());
    eprintln!("{checked} kernel x block-length layouts checked at the size_t boundary");
    eprintln!("RELIABILITY overflow_layouts {checked}");
}

const GEMM: &str = "matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm";
const BLOCK_GEMM: &str = "matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm";
const BF16: u32 = 0x0213;

const QSI4CXP_NXK: &str = "rhs_pack_nxk_qsi4cxp_qs4cxs1s0";
const QSI4CXP_KXN: &str = "rhs_pack_kxn_qsi4cxp_qs4cxs1s0";
const QSI8CXP_NXK: &str = "rhs_pack_nxk_qsi8cxp_qsi8cx_neon";
const QSI4C32P_NXK: &str = "rhs_pack_nxk_qsi4c32p_qsu4c32s1s0";
const QAI8DXP_LHS: &str = "lhs_quant_pack_qai8dxp_f32";

type Case = death::Case<String, &'static str>;

fn cases() -> Vec<Case> {
    vec![
        getter_case!("rhs_size_n", "roundup(n, nr) fits in size_t"
            => get_rhs_packed_size::<Getter5>(QSI4CXP_NXK)(usize::MAX, 64, 8, 16, 2)),
        getter_case!("rhs_size_product", "packed RHS size fits in size_t"
            => get_rhs_packed_size::<Getter5>(QSI8CXP_NXK)(usize::MAX / 64, 4096, 4, 8, 1)),
        getter_case!("rhs_stride_k", "roundup(k, 32) fits in size_t"
            => get_rhs_packed_stride::<Getter4>(QSI4CXP_KXN)(usize::MAX - 5, 8, 16, 2)),
        getter_case!("block_size", "packed RHS size fits in size_t"
            => get_rhs_packed_size::<Getter7>(QSI4C32P_NXK)(
                usize::MAX / 1024, 4096, 4, 16, 2, 32, BF16)),
        getter_case!("lhs_size", "packed LHS size fits in size_t"
            => get_lhs_packed_size::<Getter5>(QAI8DXP_LHS)(usize::MAX / 1024, 4096, 4, 16, 2)),
        getter_case!("kernel_rhs_offset", "packed RHS offset fits in size_t"
            => get_rhs_packed_offset::<Getter2>(GEMM)(usize::MAX / 8 * 8, 4096)),
        getter_case!("kernel_block_rhs_offset", "packed RHS offset fits in size_t"
            => get_rhs_packed_offset::<Getter3>(BLOCK_GEMM)(usize::MAX / 4 * 4, 4096, 32)),
        getter_case!("kernel_dst_size", "dst size fits in size_t"
            => get_dst_size::<Getter2>(GEMM)(usize::MAX / 2, 3)),
        getter_case!("kernel_dst_offset", "dst offset fits in size_t"
            => get_dst_offset::<Getter3>(GEMM)(usize::MAX / 64 * 8, 8, 4096)),
    ]
}

/// Child of [`overflowing_c_calls_abort_with_the_condition`] (does nothing unless a case is named).
#[test]
#[ignore = "run as a child process"]
fn overflow_child() {
    if std::env::var(death::CASE_ENV).is_ok() {
        death::child(&cases());
    }
}

#[test]
fn overflowing_c_calls_abort_with_the_condition() {
    let cases = cases();
    death::expect_aborts_in(&crate::child_test!("overflow_child"), &cases);
    eprintln!("RELIABILITY overflow_c_aborts {}", cases.len());
}

#[test]
fn largest_fitting_c_sizes_are_exact() {
    // The boundary seen through C: the largest n that fits returns its exact size.
    let getter = sym::<Getter5>("kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon");
    let stride = 4 * (4096 + 12);
    let (n_max, size) = largest_fitting(4, stride);
    assert_eq!(getter(n_max, 4096, 4, 8, 1), size);
    let lhs = sym::<Getter5>("kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32");
    let lhs_stride = 4 * (4096 + 8);
    let (m_max, size) = largest_fitting(4, lhs_stride);
    assert_eq!(lhs(m_max, 4096, 4, 16, 2), size);
}
