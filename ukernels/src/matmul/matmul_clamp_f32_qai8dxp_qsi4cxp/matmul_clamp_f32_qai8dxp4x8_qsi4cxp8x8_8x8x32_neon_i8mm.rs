//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm`: GEMM (8 rows x 8 columns per
//! step) with FEAT_I8MM `SMMLA`, the whole m x n computation in one `asm!` block. Operands: a
//! dynamically quantized int8 LHS (packed 4 rows x 8-deep blocks) and a per-channel symmetric
//! int4 RHS (packed 8 columns x 8-byte blocks).
//!
//! Register plan of the single `asm!` block:
//!
//! * `v16`..`v31` — accumulators. `v(16 + 4*rp + cp)` holds the 2x2 block
//!   of rows `{2rp, 2rp+1}` x columns `{2cp, 2cp+1}` of the tile as
//!   `[r0c0, r0c1, r1c0, r1c1]`.
//! * `v8`..`v11` — LHS operands of one 8-deep K slice: group A rows {0,1},
//!   group A rows {2,3}, group B rows {0,1}, group B rows {2,3}.
//! * `v0`..`v7` — RHS: raw super-block bytes and their decoded halves
//!   (`shl #4` = 16 * low nibble, `and 0xF0` = 16 * high nibble); the two
//!   super-blocks of a 32-deep chunk swap the roles of `v0`..`v3` and
//!   `v4`..`v7`.
//! * `v12`/`v13` — broadcast clamp bounds, `v15` — the 0xF0 nibble mask.
//!
//! One K-loop iteration covers a 32-deep chunk: 8 q-loads of RHS (two
//! super-blocks), 16 q-loads of LHS, 16 decode ops and 64 `smmla`
//! (2048 MACs). Each operand register is reloaded right after its last use,
//! one K slice ahead (the first LHS block and RHS super-block of the next
//! chunk are loaded at the end of the current one), so the loop is bound by
//! the 80 vector-pipe ops: llvm-mca (neoverse-v1/-v2) gives 20 cycles per
//! iteration.
//!
//! After the K loop the 2x2 blocks are un-interleaved with `trn1`/`trn2` on
//! `.2d` so that tile row `r` ends up in `v(16 + 2r)` (columns 0..4) and
//! `v(17 + 2r)` (columns 4..8).

use crate::matmul::kernel_geometry::per_channel;

/// Un-interleave, rescale, add bias and clamp one row pair of the tile.
///
/// Inputs: accumulators `$a0..$a3` (column pairs 0..3 of the row pair),
/// the LHS offset vector `$vo`, the LHS scale vector `$vs` and the lane
/// indices `$i0`/`$i1` of the two rows in them. Uses `v4`..`v9` (rsum,
/// rscale, bias), `v12`/`v13` (clamp) and `v10`, `v11`, `v14`, `v15` as
/// temporaries. Output: row `2rp` in `$a0`/`$a1`, row `2rp+1` in `$a2`/`$a3`.
macro_rules! epilogue_row_pair {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $vo:literal, $vs:literal, $i0:literal, $i1:literal) => {
        concat!(
            // Un-interleave: row r0 / r1, columns 0..4 and 4..8.
            concat!("trn1 v10.2d, v", $a0, ".2d, v", $a1, ".2d\n"),
            concat!("trn2 v11.2d, v", $a0, ".2d, v", $a1, ".2d\n"),
            concat!("trn1 v", $a0, ".2d, v", $a2, ".2d, v", $a3, ".2d\n"),
            concat!("trn2 v", $a1, ".2d, v", $a2, ".2d, v", $a3, ".2d\n"),
            // acc += lhs_offset[row] * rsum[col]
            concat!("mla v10.4s, v4.4s, v", $vo, ".s[", $i0, "]\n"),
            concat!("mla v", $a0, ".4s, v5.4s, v", $vo, ".s[", $i0, "]\n"),
            concat!("mla v11.4s, v4.4s, v", $vo, ".s[", $i1, "]\n"),
            concat!("mla v", $a1, ".4s, v5.4s, v", $vo, ".s[", $i1, "]\n"),
            "scvtf v10.4s, v10.4s\n",
            concat!("scvtf v", $a0, ".4s, v", $a0, ".4s\n"),
            "scvtf v11.4s, v11.4s\n",
            concat!("scvtf v", $a1, ".4s, v", $a1, ".4s\n"),
            // s = rscale[col] * lhs_scale[row]; y = acc * s
            concat!("fmul v14.4s, v6.4s, v", $vs, ".s[", $i0, "]\n"),
            concat!("fmul v15.4s, v7.4s, v", $vs, ".s[", $i0, "]\n"),
            "fmul v10.4s, v10.4s, v14.4s\n",
            concat!("fmul v", $a0, ".4s, v", $a0, ".4s, v15.4s\n"),
            concat!("fmul v14.4s, v6.4s, v", $vs, ".s[", $i1, "]\n"),
            concat!("fmul v15.4s, v7.4s, v", $vs, ".s[", $i1, "]\n"),
            "fmul v11.4s, v11.4s, v14.4s\n",
            concat!("fmul v", $a1, ".4s, v", $a1, ".4s, v15.4s\n"),
            // y += bias[col], moving rows to their final registers.
            concat!("fadd v", $a3, ".4s, v", $a1, ".4s, v9.4s\n"),
            concat!("fadd v", $a2, ".4s, v11.4s, v8.4s\n"),
            concat!("fadd v", $a1, ".4s, v", $a0, ".4s, v9.4s\n"),
            concat!("fadd v", $a0, ".4s, v10.4s, v8.4s\n"),
            // Clamp: FMAX with the lower bound, then FMIN with the upper.
            concat!("fmax v", $a0, ".4s, v", $a0, ".4s, v12.4s\n"),
            concat!("fmax v", $a1, ".4s, v", $a1, ".4s, v12.4s\n"),
            concat!("fmax v", $a2, ".4s, v", $a2, ".4s, v12.4s\n"),
            concat!("fmax v", $a3, ".4s, v", $a3, ".4s, v12.4s\n"),
            concat!("fmin v", $a0, ".4s, v", $a0, ".4s, v13.4s\n"),
            concat!("fmin v", $a1, ".4s, v", $a1, ".4s, v13.4s\n"),
            concat!("fmin v", $a2, ".4s, v", $a2, ".4s, v13.4s\n"),
            concat!("fmin v", $a3, ".4s, v", $a3, ".4s, v13.4s\n"),
        )
    };
}

/// Store one tile row (`$lo` = columns 0..4, `$hi` = columns 4..8) at `x22`,
/// writing only the first `x23` (1..=8) columns. Clobbers `x24` and `$lo`.
macro_rules! store_row {
    ($lo:literal, $hi:literal) => {
        store_cols8!($lo, $hi, "x23", "x22", "x24"; "5", "6", "7", "8")
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 8` and
    /// `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi4cxp8x8_8x8(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, lhs_stride, rhs_stride) = per_channel(m, n, k, 8, true);

        // SAFETY: the caller guarantees FEAT_I8MM, m, n, k >= 1 and the buffer
        // sizes documented above. The asm reads exactly ceil(m/4) LHS groups
        // (the second group of a row block is only read when that block has more
        // than 4 rows; otherwise the first group is read twice and the extra rows
        // are discarded) and ceil(n/8) RHS groups; the loads issued one chunk
        // ahead on the last K iteration fall inside the 32-byte LHS and 96-byte
        // RHS trailers of the same group. Stores are limited to the m x n region.
        // All touched registers are declared; x18, x19, x29, x30 and sp are not
        // used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                "dup v12.4s, w9",
                "dup v13.4s, w10",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "21:",
                min_imm!("x11", "x0", "8", "x24"), // rows in this block (1..=8)
                // group B, or group A again if <= 4 rows
                group_if_rows!("x12", "x3", "x7", "x0", "4", "x3"),
                "mov x13, x4",
                "mov x14, x1",
                "mov x15, x5",
                // ---- Column loop: 8 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x23", "x14", "8", "x24"), // columns in this tile (1..=8)
                "mov x16, x3",
                "mov x17, x12",
                "mov x20, x13",
                "mov x21, x2",
                "movi v15.16b, #0xf0",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // Prime the pipeline: super-block 0 of chunk 0, LHS block 0.
                "ld1 {{v0.16b, v1.16b, v2.16b, v3.16b}}, [x20]",
                "ldp q8, q9, [x16]",
                "ldp q10, q11, [x17]",
                // ---- K loop: one 32-deep chunk per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm",
                // Decode super-block 0: low nibbles -> v4..v7, high -> v0..v3.
                "shl v4.16b, v0.16b, #4",
                "shl v5.16b, v1.16b, #4",
                "shl v6.16b, v2.16b, #4",
                "shl v7.16b, v3.16b, #4",
                "and v0.16b, v0.16b, v15.16b",
                "and v1.16b, v1.16b, v15.16b",
                "and v2.16b, v2.16b, v15.16b",
                "and v3.16b, v3.16b, v15.16b",
                // K slice 32c + [0, 8): LHS block 0 x low nibbles of super-block 0;
                // then load LHS block 2.
                "smmla v16.4s, v8.16b, v4.16b",
                "smmla v17.4s, v8.16b, v5.16b",
                "smmla v18.4s, v8.16b, v6.16b",
                "smmla v19.4s, v8.16b, v7.16b",
                "ldr q8, [x16, #64]",
                "smmla v20.4s, v9.16b, v4.16b",
                "smmla v21.4s, v9.16b, v5.16b",
                "smmla v22.4s, v9.16b, v6.16b",
                "smmla v23.4s, v9.16b, v7.16b",
                "ldr q9, [x16, #80]",
                "smmla v24.4s, v10.16b, v4.16b",
                "smmla v25.4s, v10.16b, v5.16b",
                "smmla v26.4s, v10.16b, v6.16b",
                "smmla v27.4s, v10.16b, v7.16b",
                "ldr q10, [x17, #64]",
                "smmla v28.4s, v11.16b, v4.16b",
                "smmla v29.4s, v11.16b, v5.16b",
                "smmla v30.4s, v11.16b, v6.16b",
                "smmla v31.4s, v11.16b, v7.16b",
                "ldr q11, [x17, #80]",
                // K slice 32c + [16, 24): LHS block 2 x high nibbles of super-block 0;
                // then load LHS block 1 and the raw super-block 1.
                "smmla v16.4s, v8.16b, v0.16b",
                "smmla v17.4s, v8.16b, v1.16b",
                "smmla v18.4s, v8.16b, v2.16b",
                "smmla v19.4s, v8.16b, v3.16b",
                "ldr q8, [x16, #32]",
                "ldr q4, [x20, #64]",
                "smmla v20.4s, v9.16b, v0.16b",
                "smmla v21.4s, v9.16b, v1.16b",
                "smmla v22.4s, v9.16b, v2.16b",
                "smmla v23.4s, v9.16b, v3.16b",
                "ldr q9, [x16, #48]",
                "ldr q5, [x20, #80]",
                "smmla v24.4s, v10.16b, v0.16b",
                "smmla v25.4s, v10.16b, v1.16b",
                "smmla v26.4s, v10.16b, v2.16b",
                "smmla v27.4s, v10.16b, v3.16b",
                "ldr q10, [x17, #32]",
                "ldr q6, [x20, #96]",
                "smmla v28.4s, v11.16b, v0.16b",
                "smmla v29.4s, v11.16b, v1.16b",
                "smmla v30.4s, v11.16b, v2.16b",
                "smmla v31.4s, v11.16b, v3.16b",
                "ldr q11, [x17, #48]",
                "ldr q7, [x20, #112]",
                // Decode super-block 1: low nibbles -> v0..v3, high -> v4..v7.
                "shl v0.16b, v4.16b, #4",
                "shl v1.16b, v5.16b, #4",
                "shl v2.16b, v6.16b, #4",
                "shl v3.16b, v7.16b, #4",
                "and v4.16b, v4.16b, v15.16b",
                "and v5.16b, v5.16b, v15.16b",
                "and v6.16b, v6.16b, v15.16b",
                "and v7.16b, v7.16b, v15.16b",
                // K slice 32c + [8, 16): LHS block 1 x low nibbles of super-block 1;
                // then load LHS block 3.
                "smmla v16.4s, v8.16b, v0.16b",
                "smmla v17.4s, v8.16b, v1.16b",
                "smmla v18.4s, v8.16b, v2.16b",
                "smmla v19.4s, v8.16b, v3.16b",
                "ldr q8, [x16, #96]",
                "smmla v20.4s, v9.16b, v0.16b",
                "smmla v21.4s, v9.16b, v1.16b",
                "smmla v22.4s, v9.16b, v2.16b",
                "smmla v23.4s, v9.16b, v3.16b",
                "ldr q9, [x16, #112]",
                "smmla v24.4s, v10.16b, v0.16b",
                "smmla v25.4s, v10.16b, v1.16b",
                "smmla v26.4s, v10.16b, v2.16b",
                "smmla v27.4s, v10.16b, v3.16b",
                "ldr q10, [x17, #96]",
                "smmla v28.4s, v11.16b, v0.16b",
                "smmla v29.4s, v11.16b, v1.16b",
                "smmla v30.4s, v11.16b, v2.16b",
                "smmla v31.4s, v11.16b, v3.16b",
                "ldr q11, [x17, #112]",
                // K slice 32c + [24, 32): LHS block 3 x high nibbles of super-block 1;
                // then load the next chunk's LHS block 0 and raw super-block 0. On the
                // last iteration these read the group trailers instead (32 bytes of
                // LHS offsets/scales, the first 64 of the 96-byte RHS trailer).
                "smmla v16.4s, v8.16b, v4.16b",
                "smmla v17.4s, v8.16b, v5.16b",
                "smmla v18.4s, v8.16b, v6.16b",
                "smmla v19.4s, v8.16b, v7.16b",
                "ldr q8, [x16, #128]",
                "ldr q0, [x20, #128]",
                "smmla v20.4s, v9.16b, v4.16b",
                "smmla v21.4s, v9.16b, v5.16b",
                "smmla v22.4s, v9.16b, v6.16b",
                "smmla v23.4s, v9.16b, v7.16b",
                "ldr q9, [x16, #144]",
                "ldr q1, [x20, #144]",
                "smmla v24.4s, v10.16b, v4.16b",
                "smmla v25.4s, v10.16b, v5.16b",
                "smmla v26.4s, v10.16b, v6.16b",
                "smmla v27.4s, v10.16b, v7.16b",
                "ldr q10, [x17, #128]",
                "ldr q2, [x20, #160]",
                "smmla v28.4s, v11.16b, v4.16b",
                "smmla v29.4s, v11.16b, v5.16b",
                "smmla v30.4s, v11.16b, v6.16b",
                "smmla v31.4s, v11.16b, v7.16b",
                "ldr q11, [x17, #144]",
                "ldr q3, [x20, #176]",
                "add x16, x16, #128",
                "add x17, x17, #128",
                "add x20, x20, #128",
                "subs x21, x21, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Epilogue. x16/x17 point at the LHS trailers, x20 at the RHS one.
                "ldp q0, q1, [x16]",              // group A offsets, scales
                "ldp q2, q3, [x17]",              // group B offsets, scales
                "ldp q4, q5, [x20]",              // rsum
                "ldp q6, q7, [x20, #32]",         // rscale
                "ldp q8, q9, [x20, #64]",         // bias
                epilogue_row_pair!("16", "17", "18", "19", "0", "1", "0", "1"),
                epilogue_row_pair!("20", "21", "22", "23", "0", "1", "2", "3"),
                epilogue_row_pair!("24", "25", "26", "27", "2", "3", "0", "1"),
                epilogue_row_pair!("28", "29", "30", "31", "2", "3", "2", "3"),
                // ---- Stores. Fast path: a full 8 x 8 tile.
                "cmp x11, #8",
                "b.ne 24f",
                "cmp x23, #8",
                "b.ne 24f",
                "mov x22, x15",
                store_rows_qq!("x22", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ("24", "25") ("26", "27")
                    ("28", "29") ("30", "31")),
                "b 25f",
                // Partial tile: x11 rows, x23 columns.
                "24:",
                "mov x22, x15",
                each_row!(store_row, lt, "x11", "25", "x22", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ("24", "25") ("26", "27")
                    ("28", "29") ("30", "31")),
                "25:",
                // Next column tile.
                "add x13, x13, x8",
                "add x15, x15, #32",
                "subs x14, x14, #8",
                "b.gt 22b";
                gemm[8 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                clobber x(11 12 13 14 15 16 17 20 21 22 23 24)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
