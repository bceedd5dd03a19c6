//! `matmul_clamp_f32_qai8dxp_qsi8cxp`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int8 RHS (per channel, symmetric), plus bias, clamped.
//!
//! Same arguments and arithmetic as the int4 family (`acc = sum(lq * w) + lhs_offset * rsum`,
//! then `f32(acc) * (rscale * lhs_scale) + bias`, FMAX/FMIN), with plain int8 weights.
//!
//! # Packed operands
//!
//! In terms of a kernel's tile (`mr`, `nr`, `kr`; `sr = 1` throughout; `4vl` is 4 x SVL32, `2vl`
//! 2 x VL32) and `k_int = roundup(k, 32)` (the packers pad K with zeros):
//! - LHS ([`lhs_quant_pack_qai8dxp`]): groups of `mr` rows, `mr * (k_int + 8)` bytes each
//!   ([`layout::qai8dxp::stride`]): the int8 values in chunks of `kr / sr` K values of each row
//!   in turn, then `lhs_offset: [i32; mr]` (negated zero points) and `lhs_scale: [f32; mr]`.
//! - RHS ([`rhs_pack_qsi8cxp_qsi8cx`]): groups of `nr` columns, `nr * (k_int + 12)` bytes each
//!   ([`layout::qsi8cxp::stride`]): per `kr`-value chunk of K, the chunk of each column in turn,
//!   then `rsum: [i32; nr]`, `rscale: [f32; nr]`, `bias: [f32; nr]`.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row` (`n` f16 values for the
//!   `f16` forms of the SME2 kernels).
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`, `k >= 1`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer; `dst_stride_row` should be a multiple of 4 (any value works on
//!   CPUs that allow unaligned accesses, as Linux on Arm64 does).
//!
//! [`lhs_quant_pack_qai8dxp`]: crate::pack::lhs_quant_pack_qai8dxp
//! [`rhs_pack_qsi8cxp_qsi8cx`]: crate::pack::rhs_pack_qsi8cxp_qsi8cx
//! [`layout::qai8dxp::stride`]: crate::layout::qai8dxp::stride
//! [`layout::qsi8cxp::stride`]: crate::layout::qsi8cxp::stride

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp2vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_4x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp2vlx8_8x2vl_sve2_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm,
}

pub use super::call::PackedArgs as Args;
