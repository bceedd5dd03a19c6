//! `matmul_clamp_f32_qai8dxp_qsi4c32p`: f32 output = dynamically quantized int8 LHS (per row,
//! asymmetric) x int4 RHS with one bf16 scale per block of `bl` K values, plus bias, clamped.
//!
//! For row i and column j (`lq` packed LHS values, `w16` = 16 x int4 weight, `d` the block
//! scales widened to f32, trailers as packed), all in f32 with fused multiply-adds:
//! `acc = sum over blocks b of fma(f32(I_b) / 16, d[j][b], acc)` where
//! `I_b = sum_{k in b} lq * w16` (i32); then `acc = fma(rsum[j], f32(lhs_offset[i]), acc)`,
//! `y = acc * lhs_scale[i] + bias[j]` (multiply and add not fused), clamped with `FMAX` then
//! `FMIN`. KleidiAI's SVE sibling `..._qsi4c32p8x4_1x8_sve_dotprod` shows the same sequence.
//!
//! The SME2 kernels (`..._qsi4c32p4vlx4_...`) read the `ps1s0` data order of their own packers
//! and finish as their catalog `Epilogue` says: the `1x4vl` GEMV fuses `acc * lhs_scale + bias`
//! into one `FMLA`, the `1vlx4vl` GEMM starts each accumulator with `FMUL` by the first block's
//! scale instead of an `FMLA` into `+0`, and both clamp with `FCLAMP` (`FMAXNM`, `FMINNM`).
//!
//! # Packed operands
//!
//! A kernel's tile (catalog and getters) gives `mr`, `nr`, `kr`, `sr`; its stem names `mr` x
//! `kr / sr` and `nr` x `kr / sr` (`vl`: the 32-bit lanes of a vector, VL32 for SVE, SVL32 for
//! SME). With `nb = k / bl` blocks (K needs no padding, being a multiple of 32):
//! - LHS ([`lhs_quant_pack_qai8dxp`]): groups of `mr` rows, `mr * (k + 8)` bytes each
//!   ([`layout::qai8dxp::stride`]): the int8 values in chunks of `kr / sr` K values of each row
//!   in turn, then `lhs_offset: [i32; mr]` (negated zero points) and `lhs_scale: [f32; mr]`.
//! - RHS ([`rhs_pack_qsi4c32p_qsu4c32s1s0`]): groups of `nr` columns,
//!   `nr * (nb * (bl / 2 + 2) + 8)` bytes each ([`layout::qsi4c32p::stride`]): per block
//!   `nr * bl / 2` bytes of signed nibbles, then `d: [bf16; nr]`; after the blocks
//!   `rsum: [f32; nr]` and `bias: [f32; nr]`. In the `s16s0` order (NEON and SVE kernels), per
//!   32-value chunk, per `kr / sr`-byte segment `s`, per column, byte `t` holds K
//!   `s * kr / sr + t` of the chunk in its low nibble and K `16 + s * kr / sr + t` in its high
//!   one; in the `ps1s0` order (SME2 kernels) consecutive K values share a byte, low nibble
//!   first.
//! - dst: row `i` of `n` f32 values at byte offset `i * dst_stride_row`.
//!
//! # Safety
//!
//! Every kernel `fn(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min,
//! clamp_max)` of the family requires, besides the CPU features its own `# Safety` names:
//! * `m >= 1`, `n >= 1`; `bl` a non-zero multiple of 32 and `k` a non-zero multiple of `bl`.
//! * `lhs_packed` valid for reads of `ceil(m / mr)` LHS groups and `rhs_packed` of
//!   `ceil(n / nr)` RHS groups (the last groups are read whole, rows and columns past `m` and
//!   `n` included).
//! * `dst` valid for writes of the `4 * n` bytes of each row `i < m`, not overlapping the packed
//!   inputs; nothing else is written.
//! * No alignment of any pointer; `dst_stride_row` should be a multiple of 4 (any value works on
//!   CPUs that allow unaligned accesses, as Linux on Arm64 does).
//!
//! [`lhs_quant_pack_qai8dxp`]: crate::pack::lhs_quant_pack_qai8dxp
//! [`rhs_pack_qsi4c32p_qsu4c32s1s0`]: crate::pack::rhs_pack_qsi4c32p_qsu4c32s1s0
//! [`layout::qai8dxp::stride`]: crate::layout::qai8dxp::stride
//! [`layout::qsi4c32p::stride`]: crate::layout::qsi4c32p::stride

pub mod portable;

asm_kernel_modules! {
    matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm,
    // rkai extensions: vector-length-agnostic SVE2 kernels (nr = VL32, kr 16, sr 2).
    matmul_clamp_f32_qai8dxp1x8_qsi4c32p1vlx8_1x2vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_dotprod,
    matmul_clamp_f32_qai8dxp4x8_qsi4c32p1vlx8_8x1vl_sve2_i8mm,
}

pub use super::call::PackedArgs as Args;
