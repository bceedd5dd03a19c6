//! `kai_matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) on asymmetric int4 weights with an f32 scale and zero offset per
//! block of `bl` K values: `SMOPA` outer products into the four 32-bit ZA tiles, in streaming
//! mode. Operands: the `qsi8d32pscalef32` LHS in groups of `mr = SVL32` rows (one vector per
//! 4-value K step: row `r` in lane `r`) and the `ps1s0nrx4` RHS of the family's `1x4vl` GEMV.
//!
//! One 4-value K step of a column group is two vectors of unsigned nibbles; `LUTI4` through a
//! ZT0 table of `u - 8` widens each to two vectors of int8, one per ZA tile (tile `t` holds
//! columns `[t x SVL32, (t + 1) x SVL32)` of the group).
//!
//! Loop order: row groups outside, column groups inside, then the blocks, then K in 8-value
//! steps. ZA holds one block's integer sums; after each block every output row is read from ZA
//! (row `r` of the four tiles is ZA array rows `4r .. 4r + 4`, one multi-vector `MOVA` of
//! byte-tile slices) and folded into its accumulators, which wait in the destination rows
//! between blocks (only columns below `n` and rows below `m`), in the destination's type: the
//! f16 form rounds them to f16 after every block, as KleidiAI's kernel does.

// The f16 form's `run` names the family's arguments through this module.
use super::Args;

/// The kernel writing `$dst` elements: `$columns` sets the predicate of a column group's
/// outputs below n, `$load` reads an output row's accumulators under it into z20-z23 (f32;
/// z12/z13 free), `$store` writes z20-z23 back (z12/z13 free), `$next_dst` moves the
/// destination by one column group.
/// The kernel writing `$elem` elements (`f32`, or `u16` for f16; see `sme2_output!`).
macro_rules! sme2_mopa_kernel {
    ($(#[$doc:meta])* $name:ident, $elem:tt) => {
    streaming_kernel! {
        $(#[$doc])*
        blockwise fn $name(
            m, n, k, bl, lhs_packed, rhs_packed, dst: $elem, dst_stride_row, clamp_min, clamp_max,
        ) {
            let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
            let mr = svl / 4;
            let nb = k / bl;

            // Register map: the frame's (`sme2_block_mopa_frame!`), and
            //   x12 ZA slice of the output row (4 x row)  x22 dst pointer of the output row
            //   x21 after the K loop: the row's LHS scale pointer
            //   x26 rows left to fold or store            x27 the row's LHS sum pointer
            //
            //   z4/z5   LHS: two 4-value K steps of mr rows
            //   z0-z3   packed RHS: two K steps (two vectors each); z8-z15 widened to int8
            //   z0/z1   in the fold: the row's LHS sum / scale in every lane
            //   z8-z11  in the fold: the block's scales times the row's LHS scale
            //   z16-z19 one output row from ZA; z20-z23 its accumulators
            //   z24-z27 the block's zero offsets, then the column group's biases
            //   z28-z31 the block's scales; z6/z7 clamp_min / clamp_max in every lane
            //   ZT0     the uint4 -> int8 table
            //   p0/pn8  all lanes; pn9 the group's columns below n
            //
            // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover
            // the bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read
            // exactly, including rows and columns past m and n); the table holds 64 bytes. The
            // frame covers dst, streaming mode and registers (see `streaming_frames`).
            unsafe {
                sme2_block_mopa_frame!($elem;
                    m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, mr * nb * (bl + 8),
                    svl * (nb * (bl / 2 + 8) + 4), bl,
                    crate::matmul::streaming::UINT4_TO_INT8.as_ptr(),
                    clamp_min, clamp_max => 6, 7;
                    group_setup: [];
                    k_loop: [luti4_smopa_k8_loop!()];
                    // ---- fold the block into every row: x23 -> its mr LHS sums then mr
                    // scales, x20 -> its nr zero offsets then nr scales ----
                    fold: [
                        "ld1w {{z24.s-z27.s}}, pn8/z, [x20]",
                        "ld1w {{z28.s-z31.s}}, pn8/z, [x20, #4, mul vl]",
                        "addvl x20, x20, #8",
                        "mov x12, #0",
                        "mov x22, x14",
                        "mov x26, x15",
                        "mov x27, x23",
                        "addvl x21, x23, #1",
                        "5:",
                        "mova {{z16.b-z19.b}}, za0h.b[w12, 0:3]",
                        "scvtf {{z16.s-z19.s}}, {{z16.s-z19.s}}",
                        "ld1rw {{z0.s}}, p0/z, [x27]",
                        "ld1rw {{z1.s}}, p0/z, [x21]",
                        "fmul z8.s, z28.s, z1.s",
                        "fmul z9.s, z29.s, z1.s",
                        "fmul z10.s, z30.s, z1.s",
                        "fmul z11.s, z31.s, z1.s",
                        "cmp x16, x2",
                        "b.ne 6f",
                        "fmul z20.s, z24.s, z0.s",
                        "fmul z21.s, z25.s, z0.s",
                        "fmul z22.s, z26.s, z0.s",
                        "fmul z23.s, z27.s, z0.s",
                        "b 7f",
                        "6:",
                        sme2_output!($elem, load, 20, 21, 22, 23; 12, 13; "x22"),
                        "fmla z20.s, p0/m, z24.s, z0.s",
                        "fmla z21.s, p0/m, z25.s, z0.s",
                        "fmla z22.s, p0/m, z26.s, z0.s",
                        "fmla z23.s, p0/m, z27.s, z0.s",
                        "7:",
                        "fmla z20.s, p0/m, z16.s, z8.s",
                        "fmla z21.s, p0/m, z17.s, z9.s",
                        "fmla z22.s, p0/m, z18.s, z10.s",
                        "fmla z23.s, p0/m, z19.s, z11.s",
                        sme2_output!($elem, store, 20, 21, 22, 23; 12, 13; "x22"),
                        "add x22, x22, x6",
                        "add x12, x12, #4",
                        "add x27, x27, #4",
                        "add x21, x21, #4",
                        "subs x26, x26, #1",
                        "b.ne 5b",
                        "addvl x23, x23, #2",
                    ];
                    // x20 -> the column group's biases
                    finish: ["ld1w {{z24.s-z27.s}}, pn8/z, [x20]"] rows: [
                        "fadd z20.s, z20.s, z24.s",
                        "fadd z21.s, z21.s, z25.s",
                        "fadd z22.s, z22.s, z26.s",
                        "fadd z23.s, z23.s, z27.s",
                    ];
                    extra: [out("x27") _,]
                );
            }
        }
    }
    };
}

sme2_mopa_kernel!(
    /// The family's computation (SME2 order) and [contract](super#safety) with `mr = SVL32`,
    /// `nr = 4 x SVL32`, `kr / sr = 4` and the `ps1s0nrx4` RHS; the first block starts with
    /// `acc = rz * lsum` (`FMUL`) instead of an `FMLA` into `+0`.
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    /// `dst` must also be valid for reads: the rows hold the
    /// accumulators between blocks.
    matmul_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa,
    f32
);

/// The f16-output form, `kai_matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa`: the
/// same computation with the accumulators waiting in the f16 destination between blocks, so
/// that each block's result is rounded to f16 (`FCVT`: nearest, ties to even) and widened back
/// (exactly) for the next block and for the bias; the clamped f32 result is rounded the same way.
pub mod f16 {
    sme2_mopa_kernel!(
        /// As the f32 kernel of this module, writing f16 elements (`dst_stride_row` in bytes),
        /// with the accumulators rounded to f16 after every block:
        ///
        /// ```text
        /// acc = f32(f16(acc))                       after each block's FMLA
        /// dst[i][j] = f16(fclamp(acc + bias[j], clamp_min, clamp_max))
        /// ```
        ///
        /// # Safety
        ///
        /// As for the f32 kernel, with `dst` rows of `2 * n` bytes.
        matmul_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa,
        u16
    );
}
