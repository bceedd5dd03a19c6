//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm`: GEMM (8 rows x 4 columns per
//! step) with FEAT_I8MM `SMMLA`. Operands: a dynamically quantized int8 LHS (packed 4 rows x
//! 8-deep blocks) and a per-channel symmetric int4 RHS (packed 4 columns x 8-byte blocks).
//!
//! Full 16-row blocks run a 16 x 4 register blocking (`smmla_16x4_chunk`: 16 int32 accumulators
//! in `v8`..`v23`, declared clobbered so that the compiler saves `d8`..`d15`), which decodes each
//! RHS register once per 16 rows; the last `m % 16` rows run the 8 x 4 `asm!` block below.
//!
//! Register plan of the 8-row `asm!` block:
//!
//! * `v16`..`v31` — accumulators in two sets: `v16`..`v23` take the K slices
//!   of the low nibbles (`32c + [0, 16)`), `v24`..`v31` those of the high
//!   nibbles (`32c + [16, 32)`), so each accumulator sees only two `smmla`
//!   per chunk and the dependency chains stay shorter than the pipe time.
//!   `v(16 + 2*rp + cp)` (and `v(24 + 2*rp + cp)`) holds the 2x2 block of
//!   row pair `rp` (0, 1: group A rows {0,1}, {2,3}; 2, 3: group B rows
//!   {0,1}, {2,3}) x columns `{2cp, 2cp+1}` as `[r0c0, r0c1, r1c0, r1c1]`.
//! * `v8`..`v11` — LHS operands of one 8-deep K slice: group A rows {0,1},
//!   group A rows {2,3}, group B rows {0,1}, group B rows {2,3}.
//! * `v0`..`v7` — RHS: super-block 0 raw in `v0`/`v1` (decoded in place to
//!   16 * high nibble, `and 0xF0`), its 16 * low nibble (`shl #4`) in
//!   `v2`/`v3`; super-block 1 likewise in `v4`/`v5` and `v6`/`v7`.
//! * `v15` — the 0xF0 nibble mask; `v12`/`v13` — broadcast clamp bounds.
//!
//! One K-loop iteration covers a 32-deep chunk: 4 q-loads of RHS (two
//! super-blocks of 32 bytes), 16 q-loads of LHS, 8 decode ops and 32
//! `smmla` (1024 MACs). All loads of a chunk only depend on the chunk
//! pointers, so the out-of-order core runs them ahead of the `smmla` that
//! consume them.
//!
//! After the K loop the two accumulator sets are added and the 2x2 blocks are
//! un-interleaved with `trn1`/`trn2` on `.2d`, so that tile row `r` ends up
//! in `v(24 + r)` (columns 0..4).

use crate::matmul::kernel_geometry::per_channel;

/// Offset, rescale, add bias and clamp tile row `v$r`: lane `$i` of the group's offsets `v$vo`
/// and scales `v$vs`; `v4` rsum, `v5` rscale, `v6` bias, `v12`/`v13` clamp, `v$t` temporary.
macro_rules! epilogue_row {
    ($r:literal, $vo:literal, $vs:literal, $i:literal, $t:literal) => {
        dequant_row!(convert_first, $r; "4", $vo[$i]; "5", $vs[$i] -> $t; "6"; "12", "13")
    };
}

/// Store one tile row held in `v$r` at `x22`, writing only the first `x23`
/// (1..=4) columns. Clobbers `x24` and `v$r`.
macro_rules! store_row {
    ($r:literal) => {
        store_cols4!(cmp, $r, "x23", "x22", "x24"; "5", "6", "8")
    };
}

/// [`epilogue_row`] for the 16-row pass: clamp bounds in `v7` / `v16`.
macro_rules! epilogue_row16 {
    ($r:literal, $vo:literal, $vs:literal, $i:literal, $t:literal) => {
        dequant_row!(convert_first, $r; "4", $vo[$i]; "5", $vs[$i] -> $t; "6"; "7", "16")
    };
}

/// The trailers of LHS groups `$a` / `$b` into `v0`..`v3` (offsets, scales) and the 8 rows of
/// the int32 accumulators `v$0`..`v$7` un-interleaved into `v24`..`v31` (tile row `r` of the
/// half in `v(24 + r)`).
macro_rules! finish16_half {
    ($a:literal, $b:literal; $v0:literal, $v1:literal, $v2:literal, $v3:literal,
     $v4:literal, $v5:literal, $v6:literal, $v7:literal) => {
        concat!(
            concat!("ldp q0, q1, [", $a, "]\n"),
            concat!("ldp q2, q3, [", $b, "]\n"),
            concat!("trn1 v24.2d, v", $v0, ".2d, v", $v1, ".2d\n"),
            concat!("trn2 v25.2d, v", $v0, ".2d, v", $v1, ".2d\n"),
            concat!("trn1 v26.2d, v", $v2, ".2d, v", $v3, ".2d\n"),
            concat!("trn2 v27.2d, v", $v2, ".2d, v", $v3, ".2d\n"),
            concat!("trn1 v28.2d, v", $v4, ".2d, v", $v5, ".2d\n"),
            concat!("trn2 v29.2d, v", $v4, ".2d, v", $v5, ".2d\n"),
            concat!("trn1 v30.2d, v", $v6, ".2d, v", $v7, ".2d\n"),
            concat!("trn2 v31.2d, v", $v6, ".2d, v", $v7, ".2d\n"),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi4cxp4x8_8x4(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (chunks, _, lhs_stride, rhs_stride) = per_channel(m, n, k, 4, true);
        // Rows of full 16-row blocks; the rest (0..16 rows) goes through the 8-row pass.
        let m16 = m & !15;
        if m16 != 0 {
            // Register map: x0..x10 as the 8-row pass, x13 RHS group pointer, x14 columns left,
            // x15 dst of this column tile, x17 / x20 / x27 / x28 LHS groups A..D and x21 RHS (K loop), x22 dst row pointer,
            // x23 chunks left, x24 columns in this tile (1..=4), x25 partial-store pointer.
            //
            // SAFETY: as the 8-row pass's SAFETY below, for the first m16 rows (four whole LHS
            // groups per row block).
            unsafe {
                kernel_asm!(
                    ".arch_extension i8mm",
                    // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
                    "21:",
                    "mov x13, x4",
                    "mov x14, x1",
                    "mov x15, x5",
                    // ---- Column loop: 4 columns (one RHS group) per iteration.
                    "22:",
                    min_imm!("x24", "x14", "4", "x24"), // columns in this tile (1..=4)
                    "mov x17, x3",
                    "add x20, x3, x7",
                    "add x27, x20, x7",
                    "add x28, x27, x7",
                    "mov x21, x13",
                    "mov x23, x2",
                    "movi v7.16b, #0xf0",
                    zero_v!("4s";
                        "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
                        "21", "22", "23"),
                    // ---- K loop: one 32-deep chunk per iteration.
                    "23:",
                    "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm",
                    smmla_16x4_chunk!(),
                    "b.ne 23b",
                    "// LLVM-MCA-END",
                    // ---- Epilogue, rows 0..8 (v16..v23) then rows 8..16 (v8..v15). x17..x28
                    // point at the LHS trailers, x21 at the RHS one.
                    "ldp q4, q5, [x21]",              // rsum, rscale
                    "ldr q6, [x21, #32]",             // bias
                    finish16_half!("x17", "x20"; "16", "17", "18", "19", "20", "21", "22", "23"),
                    "dup v7.4s, w9",
                    "dup v16.4s, w10",
                    for_rows!(epilogue_row16[];
                        ("24", "0", "1", "0", "17") ("25", "0", "1", "1", "18")
                        ("26", "0", "1", "2", "19") ("27", "0", "1", "3", "20")
                        ("28", "2", "3", "0", "21") ("29", "2", "3", "1", "22")
                        ("30", "2", "3", "2", "23") ("31", "2", "3", "3", "17")),
                    "mov x22, x15",
                    store8x4!("x24", "x22", "x6", "x25"),
                    finish16_half!("x27", "x28"; "8", "9", "10", "11", "12", "13", "14", "15"),
                    for_rows!(epilogue_row16[];
                        ("24", "0", "1", "0", "17") ("25", "0", "1", "1", "18")
                        ("26", "0", "1", "2", "19") ("27", "0", "1", "3", "20")
                        ("28", "2", "3", "0", "21") ("29", "2", "3", "1", "22")
                        ("30", "2", "3", "2", "23") ("31", "2", "3", "3", "17")),
                    "add x22, x15, x6, lsl #3",
                    store8x4!("x24", "x22", "x6", "x25"),
                    // Next column tile.
                    "add x13, x13, x8",
                    "add x15, x15, #16",
                    "subs x14, x14, #4",
                    "b.gt 22b";
                    gemm[16 rows, "21"](m16, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                    in("x8") rhs_stride,
                    in("x9") clamp_min.to_bits() as usize,
                    in("x10") clamp_max.to_bits() as usize,
                    clobber x(13 14 15 17 20 21 22 23 24 25 27 28)
                        v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
                );
            }
            if m16 == m {
                return;
            }
        }
        // The last m % 16 rows.
        let (m, lhs_packed) = (m - m16, lhs_packed.wrapping_add(m16 / 4 * lhs_stride));
        let dst = dst.cast::<u8>().wrapping_add(m16 * dst_stride_row).cast::<f32>();

        // SAFETY: the caller guarantees FEAT_I8MM, m, n, k >= 1 and the buffer
        // sizes documented above. The asm reads exactly ceil(m/4) LHS groups
        // (the second group of a row block is only read when that block has more
        // than 4 rows; otherwise the first group is read twice and the extra rows
        // are discarded) and ceil(n/4) RHS groups, each only within its data and
        // trailer. Stores are limited to the m x n region. All touched registers
        // are declared; x18, x19, x29, x30 and sp are not used and no stack
        // memory is accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                "movi v15.16b, #0xf0",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "21:",
                min_imm!("x11", "x0", "8", "x24"), // rows in this block (1..=8)
                // group B, or group A again if <= 4 rows
                group_if_rows!("x12", "x3", "x7", "x0", "4", "x3"),
                "mov x13, x4",
                "mov x14, x1",
                "mov x15, x5",
                // ---- Column loop: 4 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x23", "x14", "4", "x24"), // columns in this tile (1..=4)
                "mov x16, x3",
                "mov x17, x12",
                "mov x20, x13",
                "mov x21, x2",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- K loop: one 32-deep chunk per iteration.
                "23:",
                "ldr q0, [x20]",
                "ldr q1, [x20, #16]",
                "ldr q8, [x16]",
                "ldr q9, [x16, #16]",
                "ldr q10, [x17]",
                "ldr q11, [x17, #16]",
                "ldr q4, [x20, #32]",
                "ldr q5, [x20, #48]",
                // Decode super-block 0: 16 * low nibbles -> v2, v3; high -> v0, v1.
                "shl v2.16b, v0.16b, #4",
                "shl v3.16b, v1.16b, #4",
                "and v0.16b, v0.16b, v15.16b",
                "and v1.16b, v1.16b, v15.16b",
                // K slice 32c + [0, 8): LHS block 0 x low nibbles of super-block 0.
                "smmla v16.4s, v8.16b, v2.16b",
                "smmla v17.4s, v8.16b, v3.16b",
                "ldr q8, [x16, #64]",
                "smmla v18.4s, v9.16b, v2.16b",
                "smmla v19.4s, v9.16b, v3.16b",
                "ldr q9, [x16, #80]",
                "smmla v20.4s, v10.16b, v2.16b",
                "smmla v21.4s, v10.16b, v3.16b",
                "ldr q10, [x17, #64]",
                "smmla v22.4s, v11.16b, v2.16b",
                "smmla v23.4s, v11.16b, v3.16b",
                "ldr q11, [x17, #80]",
                // Decode super-block 1: 16 * low nibbles -> v6, v7; high -> v4, v5.
                "shl v6.16b, v4.16b, #4",
                "shl v7.16b, v5.16b, #4",
                "and v4.16b, v4.16b, v15.16b",
                "and v5.16b, v5.16b, v15.16b",
                // K slice 32c + [16, 24): LHS block 2 x high nibbles of super-block 0.
                "smmla v24.4s, v8.16b, v0.16b",
                "smmla v25.4s, v8.16b, v1.16b",
                "ldr q8, [x16, #32]",
                "smmla v26.4s, v9.16b, v0.16b",
                "smmla v27.4s, v9.16b, v1.16b",
                "ldr q9, [x16, #48]",
                "smmla v28.4s, v10.16b, v0.16b",
                "smmla v29.4s, v10.16b, v1.16b",
                "ldr q10, [x17, #32]",
                "smmla v30.4s, v11.16b, v0.16b",
                "smmla v31.4s, v11.16b, v1.16b",
                "ldr q11, [x17, #48]",
                // K slice 32c + [8, 16): LHS block 1 x low nibbles of super-block 1.
                "smmla v16.4s, v8.16b, v6.16b",
                "smmla v17.4s, v8.16b, v7.16b",
                "ldr q8, [x16, #96]",
                "smmla v18.4s, v9.16b, v6.16b",
                "smmla v19.4s, v9.16b, v7.16b",
                "ldr q9, [x16, #112]",
                "smmla v20.4s, v10.16b, v6.16b",
                "smmla v21.4s, v10.16b, v7.16b",
                "ldr q10, [x17, #96]",
                "smmla v22.4s, v11.16b, v6.16b",
                "smmla v23.4s, v11.16b, v7.16b",
                "ldr q11, [x17, #112]",
                // K slice 32c + [24, 32): LHS block 3 x high nibbles of super-block 1.
                "smmla v24.4s, v8.16b, v4.16b",
                "smmla v25.4s, v8.16b, v5.16b",
                "smmla v26.4s, v9.16b, v4.16b",
                "smmla v27.4s, v9.16b, v5.16b",
                "smmla v28.4s, v10.16b, v4.16b",
                "smmla v29.4s, v10.16b, v5.16b",
                "smmla v30.4s, v11.16b, v4.16b",
                "smmla v31.4s, v11.16b, v5.16b",
                "add x16, x16, #128",
                "add x17, x17, #128",
                "add x20, x20, #64",
                "subs x21, x21, #1",
                "b.ne 23b",
                // ---- Epilogue. x16/x17 point at the LHS trailers, x20 at the RHS one.
                "ldp q0, q1, [x16]",              // group A offsets, scales
                "ldp q2, q3, [x17]",              // group B offsets, scales
                "ldp q4, q5, [x20]",              // rsum, rscale
                "ldr q6, [x20, #32]",             // bias
                "dup v12.4s, w9",
                "dup v13.4s, w10",
                // Merge the low- and high-nibble sets.
                "add v16.4s, v16.4s, v24.4s",
                "add v17.4s, v17.4s, v25.4s",
                "add v18.4s, v18.4s, v26.4s",
                "add v19.4s, v19.4s, v27.4s",
                "add v20.4s, v20.4s, v28.4s",
                "add v21.4s, v21.4s, v29.4s",
                "add v22.4s, v22.4s, v30.4s",
                "add v23.4s, v23.4s, v31.4s",
                // Un-interleave: tile row r -> v(24 + r).
                "trn1 v24.2d, v16.2d, v17.2d",
                "trn2 v25.2d, v16.2d, v17.2d",
                "trn1 v26.2d, v18.2d, v19.2d",
                "trn2 v27.2d, v18.2d, v19.2d",
                "trn1 v28.2d, v20.2d, v21.2d",
                "trn2 v29.2d, v20.2d, v21.2d",
                "trn1 v30.2d, v22.2d, v23.2d",
                "trn2 v31.2d, v22.2d, v23.2d",
                epilogue_row!("24", "0", "1", "0", "7"),
                epilogue_row!("25", "0", "1", "1", "8"),
                epilogue_row!("26", "0", "1", "2", "9"),
                epilogue_row!("27", "0", "1", "3", "10"),
                epilogue_row!("28", "2", "3", "0", "11"),
                epilogue_row!("29", "2", "3", "1", "14"),
                epilogue_row!("30", "2", "3", "2", "16"),
                epilogue_row!("31", "2", "3", "3", "17"),
                // ---- Stores. Fast path: a full 8 x 4 tile.
                "cmp x11, #8",
                "b.ne 24f",
                "cmp x23, #4",
                "b.ne 24f",
                "mov x22, x15",
                store_rows_q!("x22", "x6"; "24", "25", "26", "27", "28", "29", "30", "31"),
                "b 25f",
                // Partial tile: x11 rows, x23 columns.
                "24:",
                "mov x22, x15",
                each_row!(store_row, lt, "x11", "25", "x22", "x6";
                    ("24") ("25") ("26") ("27") ("28") ("29") ("30") ("31")),
                "25:",
                // Next column tile.
                "add x13, x13, x8",
                "add x15, x15, #16",
                "subs x14, x14, #4",
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
