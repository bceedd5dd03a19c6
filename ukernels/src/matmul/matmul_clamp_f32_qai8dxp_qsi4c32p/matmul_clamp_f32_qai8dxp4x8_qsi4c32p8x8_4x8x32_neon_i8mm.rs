//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm` and
//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm` (identical tile): GEMM (4 rows x
//! 8 columns per step) with FEAT_I8MM `SMMLA`, the whole m x n computation in one `asm!` block.
//! Operands: a dynamically quantized int8 LHS (packed 4 rows x 8-deep blocks) and a groupwise
//! symmetric int4 RHS (packed 8 columns x 8-byte blocks, one bf16 scale per column and block of
//! `bl` K values).
//!
//! Register plan of the single `asm!` block (`v8`..`v15` are never touched):
//!
//! * `v16`..`v23` — int32 accumulators of the current block: `v(16 + 4*rp + cp)` holds the 2x2
//!   `smmla` block of rows `{2rp, 2rp+1}` x columns `{2cp, 2cp+1}` as
//!   `[r0c0, r0c1, r1c0, r1c1]`.
//! * `v24`..`v31` — f32 accumulators over the blocks, in the same interleaved layout.
//! * `v0`..`v3` — LHS operands of two 8-deep K slices (rows {0,1} and {2,3} each): slices 0 and 2
//!   of the chunk, then slices 1 and 3.
//! * `v4`..`v6` — RHS, one column pair at a time: raw bytes decoded in place to 16 * high nibble
//!   (`and 0xF0`) and 16 * low nibble (`shl #4`) in `v5`.
//! * `v7` — the 0xF0 nibble mask.
//!
//! One K-loop iteration covers a 32-deep chunk: 8 q-loads of RHS (two segments of 64 bytes),
//! 8 q-loads of LHS, 16 decode ops and 32 `smmla` (1024 MACs); every accumulator takes one
//! `smmla` per 8-deep slice.
//!
//! After the chunks of a block, the int32 accumulators are converted with `scvtf #4` (exactly
//! `I / 16`) and fused-multiply-added into the f32 accumulators with the block's bf16 scales,
//! widened with `shll #16` from `ld1r` replicated column pairs (`[d(2cp), d(2cp+1)]` twice), which
//! matches the interleaved layout.
//!
//! The final epilogue un-interleaves the 2x2 blocks with `trn1`/`trn2` on `.2d`, so that tile row
//! `r` ends up in `v(16 + 2r)` (columns 0..4) and `v(17 + 2r)` (columns 4..8), then adds
//! `rsum * lhs_offset` (fused), multiplies by the LHS scale, adds the bias and clamps.

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

/// Finish four columns of one tile row held in `v$r`: `fma(rsum, offset)`, times the LHS scale,
/// plus bias, clamped.
///
/// `$rs`/`$bi`: rsum / bias of these four columns; `$i`: the row's lane in the LHS offsets
/// (`v0`, already f32) and scales (`v1`). Uses `v6`/`v7` (clamp).
macro_rules! epilogue_quad {
    ($r:literal, $rs:literal, $bi:literal, $i:literal) => {
        concat!(
            concat!("fmla v", $r, ".4s, v", $rs, ".4s, v0.s[", $i, "]\n"),
            concat!("fmul v", $r, ".4s, v", $r, ".4s, v1.s[", $i, "]\n"),
            concat!("fadd v", $r, ".4s, v", $r, ".4s, v", $bi, ".4s\n"),
            // Clamp: FMAX with the lower bound, then FMIN with the upper.
            concat!("fmax v", $r, ".4s, v", $r, ".4s, v6.4s\n"),
            concat!("fmin v", $r, ".4s, v", $r, ".4s, v7.4s\n"),
        )
    };
}

/// Store one tile row (`$lo` = columns 0..4, `$hi` = columns 4..8) at `x24`, writing only the
/// first `x23` (1..=8) columns. Clobbers `x25` and `v$lo`.
macro_rules! store_row {
    ($lo:literal, $hi:literal) => {
        store_cols8!($lo, $hi, "x23", "x24", "x25"; "5", "6", "7", "8")
    };
}

/// One RHS segment of a chunk (byte offset `$o` of `x20`): its low nibbles meet the LHS slice in
/// `v0`/`v1`, its high nibbles the slice in `v2`/`v3`. Column pairs alternate between `v4` and
/// `v6`; `v5` holds the low nibbles of the pair in flight.
macro_rules! segment {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            concat!("ldr q4, [x20, #", $o0, "]\n"),
            concat!("ldr q6, [x20, #", $o1, "]\n"),
            // Column pair 0.
            "shl v5.16b, v4.16b, #4\n",
            "and v4.16b, v4.16b, v7.16b\n",
            "smmla v16.4s, v0.16b, v5.16b\n",
            "smmla v20.4s, v1.16b, v5.16b\n",
            // Column pair 1.
            "shl v5.16b, v6.16b, #4\n",
            "and v6.16b, v6.16b, v7.16b\n",
            "smmla v17.4s, v0.16b, v5.16b\n",
            "smmla v21.4s, v1.16b, v5.16b\n",
            "smmla v16.4s, v2.16b, v4.16b\n",
            "smmla v20.4s, v3.16b, v4.16b\n",
            concat!("ldr q4, [x20, #", $o2, "]\n"),
            "smmla v17.4s, v2.16b, v6.16b\n",
            "smmla v21.4s, v3.16b, v6.16b\n",
            concat!("ldr q6, [x20, #", $o3, "]\n"),
            // Column pair 2.
            "shl v5.16b, v4.16b, #4\n",
            "and v4.16b, v4.16b, v7.16b\n",
            "smmla v18.4s, v0.16b, v5.16b\n",
            "smmla v22.4s, v1.16b, v5.16b\n",
            // Column pair 3.
            "shl v5.16b, v6.16b, #4\n",
            "and v6.16b, v6.16b, v7.16b\n",
            "smmla v19.4s, v0.16b, v5.16b\n",
            "smmla v23.4s, v1.16b, v5.16b\n",
            "smmla v18.4s, v2.16b, v4.16b\n",
            "smmla v22.4s, v3.16b, v4.16b\n",
            "smmla v19.4s, v2.16b, v6.16b\n",
            "smmla v23.4s, v3.16b, v6.16b\n",
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 8` and
    /// `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    blockwise fn matmul_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, chunks, lhs_stride, rhs_stride) = qai8dxp_blockwise(m, n, k, bl, 8);

        // Register map
        //   x0  rows left                    x12 rows in this block (1..=4)
        //   x1  n                            x13 RHS group pointer
        //   x2  32-deep chunks per block     x14 columns left
        //   x3  LHS group of the block       x15 dst of this column tile
        //   x4  rhs_packed                   x16 LHS pointer (K loop)
        //   x5  dst of this row block        x20 RHS pointer (K loop)
        //   x6  dst_stride_row               x21 blocks left
        //   x7  lhs_stride (one group)       x22 chunks left in the block
        //   x8  rhs_stride (one group)       x23 columns in this tile (1..=8)
        //   w9  clamp_min bits               x24 dst row pointer (stores)
        //   w10 clamp_max bits               x25 partial-store pointer
        //   x11 blocks (nb)
        //
        // SAFETY: the caller guarantees FEAT_I8MM, the argument ranges and the buffer sizes
        // documented above. The asm reads exactly ceil(m/4) LHS groups and ceil(n/8) RHS groups,
        // each only within its data and trailer. Stores are limited to the m x n region. All touched
        // registers are declared; x18, x19, x29, x30, sp and v8..v15 are not used and no stack memory
        // is accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                // ---- Row-block loop: 4 rows (one LHS group) per iteration.
                "21:",
                min_imm!("x12", "x0", "4", "x24"), // rows in this block (1..=4)
                "mov x13, x4",
                "mov x14, x1",
                "mov x15, x5",
                // ---- Column loop: 8 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x23", "x14", "8", "x24"), // columns in this tile (1..=8)
                "mov x16, x3",
                "mov x20, x13",
                "mov x21, x11",
                "movi v7.16b, #0xf0",
                zero_v!("4s"; "24", "25", "26", "27", "28", "29", "30", "31"),
                // ---- Block loop: bl K values (x2 chunks) per iteration.
                "26:",
                "mov x22, x2",
                zero_v!("4s"; "16", "17", "18", "19", "20", "21", "22", "23"),
                // ---- K loop: one 32-deep chunk per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm",
                // LHS slices 0 (K 32c + [0, 8)) and 2 (K 32c + [16, 24)).
                "ldr q0, [x16]",
                "ldr q1, [x16, #16]",
                "ldr q2, [x16, #64]",
                "ldr q3, [x16, #80]",
                // Segment 0: low nibbles are slice 0, high nibbles slice 2.
                segment!("0", "16", "32", "48"),
                // LHS slices 1 (K 32c + [8, 16)) and 3 (K 32c + [24, 32)).
                "ldr q0, [x16, #32]",
                "ldr q1, [x16, #48]",
                "ldr q2, [x16, #96]",
                "ldr q3, [x16, #112]",
                // Segment 1: low nibbles are slice 1, high nibbles slice 3.
                segment!("64", "80", "96", "112"),
                "add x16, x16, #128",
                "add x20, x20, #128",
                "subs x22, x22, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Block epilogue: acc += (I / 16) * d, x20 points at the block's bf16 scales.
                "ld1r {{v0.4s}}, [x20], #4",      // bf16 [d0, d1] replicated
                "ld1r {{v1.4s}}, [x20], #4",      // bf16 [d2, d3] replicated
                "ld1r {{v2.4s}}, [x20], #4",      // bf16 [d4, d5] replicated
                "ld1r {{v3.4s}}, [x20], #4",      // bf16 [d6, d7] replicated
                "scvtf v16.4s, v16.4s, #4",
                "scvtf v17.4s, v17.4s, #4",
                "scvtf v18.4s, v18.4s, #4",
                "scvtf v19.4s, v19.4s, #4",
                "scvtf v20.4s, v20.4s, #4",
                "scvtf v21.4s, v21.4s, #4",
                "scvtf v22.4s, v22.4s, #4",
                "scvtf v23.4s, v23.4s, #4",
                "shll v0.4s, v0.4h, #16",         // f32 [d0, d1, d0, d1]
                "shll v1.4s, v1.4h, #16",
                "shll v2.4s, v2.4h, #16",
                "shll v3.4s, v3.4h, #16",
                "fmla v24.4s, v16.4s, v0.4s",
                "fmla v25.4s, v17.4s, v1.4s",
                "fmla v26.4s, v18.4s, v2.4s",
                "fmla v27.4s, v19.4s, v3.4s",
                "fmla v28.4s, v20.4s, v0.4s",
                "fmla v29.4s, v21.4s, v1.4s",
                "fmla v30.4s, v22.4s, v2.4s",
                "fmla v31.4s, v23.4s, v3.4s",
                "subs x21, x21, #1",
                "b.ne 26b",
                // ---- Final epilogue. x16 points at the LHS trailer, x20 at rsum.
                "ldp q0, q1, [x16]",              // LHS offsets, scales
                "ldp q2, q3, [x20]",              // rsum
                "ldp q4, q5, [x20, #32]",         // bias
                "scvtf v0.4s, v0.4s",
                "dup v6.4s, w9",
                "dup v7.4s, w10",
                // Un-interleave: tile row r -> v(16 + 2r) (columns 0..4), v(17 + 2r) (4..8).
                "trn1 v16.2d, v24.2d, v25.2d",
                "trn1 v17.2d, v26.2d, v27.2d",
                "trn2 v18.2d, v24.2d, v25.2d",
                "trn2 v19.2d, v26.2d, v27.2d",
                "trn1 v20.2d, v28.2d, v29.2d",
                "trn1 v21.2d, v30.2d, v31.2d",
                "trn2 v22.2d, v28.2d, v29.2d",
                "trn2 v23.2d, v30.2d, v31.2d",
                epilogue_quad!("16", "2", "4", "0"),
                epilogue_quad!("17", "3", "5", "0"),
                epilogue_quad!("18", "2", "4", "1"),
                epilogue_quad!("19", "3", "5", "1"),
                epilogue_quad!("20", "2", "4", "2"),
                epilogue_quad!("21", "3", "5", "2"),
                epilogue_quad!("22", "2", "4", "3"),
                epilogue_quad!("23", "3", "5", "3"),
                // ---- Stores. Fast path: a full 4 x 8 tile.
                "cmp x12, #4",
                "b.ne 24f",
                "cmp x23, #8",
                "b.ne 24f",
                "mov x24, x15",
                store_rows_qq!("x24", "x6"; ("16", "17") ("18", "19") ("20", "21") ("22", "23")),
                "b 25f",
                // Partial tile: x12 rows, x23 columns.
                "24:",
                "mov x24, x15",
                each_row!(store_row, lt, "x12", "25", "x24", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23")),
                "25:",
                // Next column tile.
                "add x13, x13, x8",
                "add x15, x15, #32",
                "subs x14, x14, #8",
                "b.gt 22b";
                gemm[4 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                in("x11") nb,
                clobber x(12 13 14 15 16 20 21 22 23 24 25)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
