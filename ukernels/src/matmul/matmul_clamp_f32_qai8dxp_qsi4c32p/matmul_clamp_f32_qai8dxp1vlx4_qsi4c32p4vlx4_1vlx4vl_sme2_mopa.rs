//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) on int4 weights with one bf16 scale per block of `bl` K values:
//! `SMOPA` outer products into the four 32-bit ZA tiles, in streaming mode. Operands: a
//! dynamically quantized int8 LHS in groups of `mr = SVL32` rows (one vector per 4-value K
//! step: row `r` in lane `r`) and the `ps1s0` RHS of the family's `1x4vl` GEMV.
//!
//! One 4-value K step of a column group is two vectors of packed nibbles; `LUTI4` through a ZT0
//! table of the sixteen int4 values widens each to two vectors of int8, one per ZA tile (tile
//! `t` holds columns `[t x SVL32, (t + 1) x SVL32)` of the group).
//!
//! Loop order: row groups outside, column groups inside, then the blocks, then K in 8-value
//! steps. ZA holds one block's integer sums; after each block every output row is read from ZA
//! (row `r` of the four tiles is ZA array rows `4r .. 4r + 4`, one multi-vector `MOVA` of
//! byte-tile slices) and folded into its f32 accumulators, which live in the destination rows
//! between blocks (only columns below `n` and rows below `m`, as the final values will): the
//! first block with `FMUL`, the others with `FMLA` (the order of KleidiAI's kernel, which also
//! keeps them there).

use crate::matmul::streaming::INT4_TO_INT8;

streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`, `kr / sr = 4` and
    /// the `ps1s0` RHS. The first block's sum is multiplied by its scale (`SCVTF`, `FMUL`), later
    /// ones are fused in with `FMLA`; the `rsum` and bias terms as the family's, then `FCLAMP`
    /// (`FMAXNM`, then `FMINNM`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    /// `dst` must also be valid for reads: the rows hold the f32
    /// accumulators between blocks.
    blockwise fn matmul_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;
        let nb = k / bl;

        // Register map: the frame's (`sme2_block_mopa_frame!`), and
        //   x12 ZA slice of the output row (4 x row)  x22 dst pointer of the output row
        //   x26 rows left to fold or store            x27 the row's LHS scale pointer
        //
        //   z4/z5   LHS: two 4-value K steps of mr rows
        //   z0-z3   packed RHS: two K steps (two vectors each); z8-z15 widened to int8
        //   z16-z19 one output row from ZA; z20-z23 its accumulators
        //   z24-z27 the block's scales, then the column group's row sums
        //   z28-z31 the column group's biases; z6/z7 clamp_min / clamp_max in every lane
        //   ZT0     the int4 -> int8 table
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read exactly,
        // including rows and columns past m and n); the table holds 64 bytes. The frame covers dst,
        // streaming mode and registers (see `streaming_frames`).
        unsafe {
            sme2_block_mopa_frame!(f32;
                m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, mr * (k + 8),
                svl * (nb * (bl / 2 + 2) + 8), bl, INT4_TO_INT8.as_ptr(),
                clamp_min, clamp_max => 6, 7;
                group_setup: [];
                k_loop: [luti4_smopa_k8_loop!()];
                // ---- fold the block into every row: x20 -> its nr bf16 scales ----
                fold: [
                    "ld1h {{z24.s}}, p0/z, [x20]",
                    "ld1h {{z25.s}}, p0/z, [x20, #1, mul vl]",
                    "ld1h {{z26.s}}, p0/z, [x20, #2, mul vl]",
                    "ld1h {{z27.s}}, p0/z, [x20, #3, mul vl]",
                    "addvl x20, x20, #2",
                    "lsl z24.s, z24.s, #16",
                    "lsl z25.s, z25.s, #16",
                    "lsl z26.s, z26.s, #16",
                    "lsl z27.s, z27.s, #16",
                    "mov x12, #0",
                    "mov x22, x14",
                    "mov x26, x15",
                    "5:",
                    "mova {{z16.b-z19.b}}, za0h.b[w12, 0:3]",
                    "scvtf {{z16.s-z19.s}}, {{z16.s-z19.s}}",
                    "cmp x16, x2",
                    "b.ne 6f",
                    "fmul z20.s, z16.s, z24.s",
                    "fmul z21.s, z17.s, z25.s",
                    "fmul z22.s, z18.s, z26.s",
                    "fmul z23.s, z19.s, z27.s",
                    "b 7f",
                    "6:",
                    sme2_output!(f32, load, 20, 21, 22, 23; 12, 13; "x22"),
                    "fmla z20.s, p0/m, z16.s, z24.s",
                    "fmla z21.s, p0/m, z17.s, z25.s",
                    "fmla z22.s, p0/m, z18.s, z26.s",
                    "fmla z23.s, p0/m, z19.s, z27.s",
                    "7:",
                    sme2_output!(f32, store, 20, 21, 22, 23; 12, 13; "x22"),
                    "add x22, x22, x6",
                    "add x12, x12, #4",
                    "subs x26, x26, #1",
                    "b.ne 5b",
                ];
                // x23 -> the group's LHS offsets, x20 -> the RHS trailer (row sums, biases)
                finish: [
                    "ld1w {{z24.s-z27.s}}, pn8/z, [x20]",
                    "ld1w {{z28.s-z31.s}}, pn8/z, [x20, #4, mul vl]",
                    "addvl x27, x23, #1",
                ] rows: [
                    "ld1rw {{z0.s}}, p0/z, [x23]",
                    "ld1rw {{z1.s}}, p0/z, [x27]",
                    "scvtf z0.s, p0/m, z0.s",
                    "fmla z20.s, p0/m, z24.s, z0.s",
                    "fmla z21.s, p0/m, z25.s, z0.s",
                    "fmla z22.s, p0/m, z26.s, z0.s",
                    "fmla z23.s, p0/m, z27.s, z0.s",
                    "fmul z20.s, z20.s, z1.s",
                    "fmul z21.s, z21.s, z1.s",
                    "fmul z22.s, z22.s, z1.s",
                    "fmul z23.s, z23.s, z1.s",
                    "fadd z20.s, z20.s, z28.s",
                    "fadd z21.s, z21.s, z29.s",
                    "fadd z22.s, z22.s, z30.s",
                    "fadd z23.s, z23.s, z31.s",
                    "add x23, x23, #4",
                    "add x27, x27, #4",
                ];
                extra: [out("x27") _,]
            );
        }
    }
}
