//! `kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot`: GEMV (1 row x 4 x SVL32
//! columns per step) on asymmetric int4 weights with an f32 scale and zero offset per block of
//! `bl` K values, in streaming mode. Operands: the `qsi8d32pscalef32` LHS (one row per group)
//! and the `ps1s0nrx4` RHS of `rhs_pack_nxk_qai4c32ps1s0nrx4_*` with `nr = 4 x SVL32` (the
//! streaming vector length in bytes) columns per group.
//!
//! One 4-value K step of a group is two vectors of unsigned nibbles (2 bytes per column, K
//! order inside); `LUTI4` through a ZT0 table of `u - 8` turns each into two vectors of int8,
//! and an indexed multi-vector `SDOT` multiplies the 4-vector group by one 4-value block of the
//! 16 activations `LD1RQB` broadcasts.
//!
//! Loop order: column groups outside, rows inside (KleidiAI's wrapper passes one row; the loop
//! costs nothing), then the blocks, then K in 16-value steps. Each block's integer sums
//! accumulate in one ZA vector group, zeroed per block, and are folded into four f32 vectors
//! in registers, from `+0`.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

/// The kernel writing `$elem` elements (`f32`, or `u16` for f16; see `sme2_output!`).
macro_rules! sme2_dot_kernel {
    ($(#[$doc:meta])* $name:ident, $elem:tt) => {
    streaming_kernel! {
        $(#[$doc])*
        blockwise fn $name(
            m, n, k, bl, lhs_packed, rhs_packed, dst: $elem, dst_stride_row, clamp_min, clamp_max,
        ) {
            let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
            let nb = k / bl;

            // Register map: the frame's (`sme2_block_dot_frame!`), and
            //   z0      16 activations in every 128-bit segment; then the block's LHS sum
            //   z1      the block's LHS scale
            //   z16-z23 packed RHS: four 4-value K steps (two vectors each); then the block's
            //           zero offsets (z16-z19) and integer sums (z20-z23)
            //   z4-z15, z28-z31  the steps widened to int8 (four 4-vector groups); then
            //           z28-z31 the block's scales times the LHS scale
            //   ZT0     the uint4 -> int8 table (u - 8)
            //
            // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover
            // the bytes read here (m LHS rows of nb * (bl + 8) bytes; ceil(n / nr) whole RHS
            // groups); the table holds 64 bytes. The frame covers dst, streaming mode and registers
            // (see `streaming_frames`).
            unsafe {
                sme2_block_dot_frame!($elem;
                    m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row,
                    nr * (nb * (bl / 2 + 8) + 4), bl,
                    crate::matmul::streaming::UINT4_TO_INT8.as_ptr(), clamp_min, clamp_max;
                    row_setup: [];
                    k_loop: [luti4_sdot_k16_loop!()];
                    // x13 -> the block's LHS sum and scale, x14 -> its nr zero offsets then nr
                    // scales: acc += rz * lsum, then the scales rs * ls in z28-z31
                    fold: [
                        "ld1rw {{z0.s}}, p0/z, [x13]",
                        "ld1rw {{z1.s}}, p0/z, [x13, #4]",
                        "add x13, x13, #8",
                        "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
                        "ld1w {{z28.s-z31.s}}, pn8/z, [x14, #4, mul vl]",
                        "addvl x14, x14, #8",
                        "fmla z24.s, p0/m, z16.s, z0.s",
                        "fmla z25.s, p0/m, z17.s, z0.s",
                        "fmla z26.s, p0/m, z18.s, z0.s",
                        "fmla z27.s, p0/m, z19.s, z0.s",
                        "fmul z28.s, z28.s, z1.s",
                        "fmul z29.s, z29.s, z1.s",
                        "fmul z30.s, z30.s, z1.s",
                        "fmul z31.s, z31.s, z1.s",
                    ] => 28, 29, 30, 31;
                    // x14 -> the group's biases; x13 is already the next row
                    row_end: [
                        "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
                        "fadd z24.s, z24.s, z16.s",
                        "fadd z25.s, z25.s, z17.s",
                        "fadd z26.s, z26.s, z18.s",
                        "fadd z27.s, z27.s, z19.s",
                    ] => 24, 25, 26, 27; 28, 29;
                    next_lhs: "";
                    extra: []
                );
            }
        }
    }
    };
}

sme2_dot_kernel!(
    /// The family's computation (SME2 order, `I` from `u - 8` and the scales as given) and
    /// [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr / sr = 4` and the
    /// `ps1s0nrx4` RHS.
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    matmul_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
    f32
);

/// The f16-output form, `kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot`: the
/// same computation, each clamped f32 result rounded to f16 (nearest, ties to even) by `FCVT`
/// before the store.
pub mod f16 {
    sme2_dot_kernel!(
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes).
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        matmul_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot,
        u16
    );
}
