//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm` and
//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm` (same tile and packed formats;
//! `m_step` only says where portions may start): GEMM with FEAT_I8MM `SMMLA`, the whole m x n
//! computation in one `asm!` block. Operands: a dynamically quantized int8 LHS (packed 4 rows x
//! 8-deep blocks) and a groupwise symmetric int4 RHS (packed 4 columns x 8-byte blocks, one bf16
//! scale per column and block of `bl` K values).
//!
//! Full 16-row blocks run a 16 x 4 register blocking (four LHS groups x one RHS group), which
//! decodes each RHS register once per 16 rows; the last `m % 16` rows run an 8 x 4 blocking. The
//! 16-row pass holds 16 int32 block accumulators (`v8`..`v23`, declared clobbered so that the
//! compiler saves `d8`..`d15`), the f32 accumulators of rows 0..8 in `v24`..`v31` and those of
//! rows 8..16 in a stack array of the Rust function (loaded, multiply-added and stored once per
//! block). That array's last 16 bytes stay zero: the int32 accumulators are cleared by loading
//! them, which keeps the clearing off the vector pipes (at `bl = 32` llvm-mca-22 puts a whole
//! block, K loop and fold, at 29 / 17 / 17.5 cycles per 1024 MACs on N2 / V1 / V2, against 34 /
//! 19 / 19 for the 8-row pass).
//!
//! Register plan of the 8-row `asm!` block (the 16-row block keeps it for `v0`..`v7`, rows
//! 0..8 and the epilogue):
//!
//! * `v16`..`v23` — int32 accumulators of the current block: `v(16 + 2*rp + cp)` holds the 2x2
//!   `smmla` block of row pair `rp` (0, 1: group A rows {0,1}, {2,3}; 2, 3: group B rows {0,1},
//!   {2,3}) x columns `{2cp, 2cp+1}` as `[r0c0, r0c1, r1c0, r1c1]`.
//! * `v24`..`v31` — f32 accumulators over the blocks, in the same interleaved layout.
//! * `v0`..`v3` — RHS of one 32-deep chunk segment (columns `{0,1}`, `{2,3}`): 16 * low nibbles
//!   (`shl #4`) and 16 * high nibbles (`and 0xF0`).
//! * `v4`..`v6` — LHS operands (one row pair of one 8-deep K slice each), streamed.
//! * `v7` — the 0xF0 nibble mask.
//!
//! One K-loop iteration covers a 32-deep chunk: 4 q-loads of RHS, 16 q-loads of LHS, 8 decode
//! ops and 32 `smmla` (1024 MACs); every accumulator takes one `smmla` per 8-deep slice.
//!
//! After the chunks of a block, the int32 accumulators are converted with `scvtf #4` (exactly
//! `I / 16`) and fused-multiply-added into the f32 accumulators with the block's bf16 scales,
//! widened with `shll #16` from `ld1r` replicated column pairs (`[d0, d1, d0, d1]`,
//! `[d2, d3, d2, d3]`), which matches the interleaved layout.
//!
//! The final epilogue un-interleaves the 2x2 blocks with `trn1`/`trn2` on `.2d`, so that tile row
//! `r` ends up in `v(16 + r)` (columns 0..4), then adds `rsum * lhs_offset` (fused), multiplies by
//! the LHS scale, adds the bias and clamps.

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

/// Store one tile row held in `v$r` at `x25`, writing only the first `x24` (1..=4) columns.
/// Clobbers `x26` and `v$r`.
macro_rules! store_row {
    ($r:literal) => {
        store_cols4!(cmp, $r, "x24", "x25", "x26"; "5", "6", "8")
    };
}

/// Block epilogue of rows 0..8: `acc += (I / 16) * d` for the int32 accumulators `v16`..`v23`
/// into the f32 ones `v24`..`v31`; x21 points at the block's bf16 scales and moves past them,
/// whose f32 column pairs stay in `v0` (`[d0, d1, d0, d1]`) and `v1` (`[d2, d3, d2, d3]`).
macro_rules! fold8 {
    () => {
        concat!(
            "ld1r {{v0.4s}}, [x21], #4\n",      // bf16 [d0, d1] replicated
            "ld1r {{v1.4s}}, [x21], #4\n",      // bf16 [d2, d3] replicated
            "scvtf v16.4s, v16.4s, #4\n",
            "scvtf v17.4s, v17.4s, #4\n",
            "scvtf v18.4s, v18.4s, #4\n",
            "scvtf v19.4s, v19.4s, #4\n",
            "scvtf v20.4s, v20.4s, #4\n",
            "scvtf v21.4s, v21.4s, #4\n",
            "scvtf v22.4s, v22.4s, #4\n",
            "scvtf v23.4s, v23.4s, #4\n",
            "shll v0.4s, v0.4h, #16\n",         // f32 [d0, d1, d0, d1]
            "shll v1.4s, v1.4h, #16\n",         // f32 [d2, d3, d2, d3]
            "fmla v24.4s, v16.4s, v0.4s\n",
            "fmla v25.4s, v17.4s, v1.4s\n",
            "fmla v26.4s, v18.4s, v0.4s\n",
            "fmla v27.4s, v19.4s, v1.4s\n",
            "fmla v28.4s, v20.4s, v0.4s\n",
            "fmla v29.4s, v21.4s, v1.4s\n",
            "fmla v30.4s, v22.4s, v0.4s\n",
            "fmla v31.4s, v23.4s, v1.4s\n",
        )
    };
}

/// Final epilogue of 8 rows from the f32 sums `v24`..`v31`: `$a` / `$b` point at the trailers of
/// the two LHS groups, x21 at rsum and bias. Tile row `r` ends up in `v(16 + r)`.
macro_rules! finish8 {
    ($a:literal, $b:literal) => {
        concat!(
            concat!("ldp q0, q1, [", $a, "]\n"),    // group A offsets, scales
            concat!("ldp q2, q3, [", $b, "]\n"),    // group B offsets, scales
            "ldp q4, q5, [x21]\n",              // rsum, bias
            "scvtf v0.4s, v0.4s\n",
            "scvtf v2.4s, v2.4s\n",
            "dup v6.4s, w9\n",
            "dup v7.4s, w10\n",
            // Un-interleave: tile row r -> v(16 + r).
            "trn1 v16.2d, v24.2d, v25.2d\n",
            "trn2 v17.2d, v24.2d, v25.2d\n",
            "trn1 v18.2d, v26.2d, v27.2d\n",
            "trn2 v19.2d, v26.2d, v27.2d\n",
            "trn1 v20.2d, v28.2d, v29.2d\n",
            "trn2 v21.2d, v28.2d, v29.2d\n",
            "trn1 v22.2d, v30.2d, v31.2d\n",
            "trn2 v23.2d, v30.2d, v31.2d\n",
            for_rows!(finish_row[v, "4", "5", "6", "7";];
                ("16", "0", "1", "0") ("17", "0", "1", "1") ("18", "0", "1", "2")
                ("19", "0", "1", "3") ("20", "2", "3", "0") ("21", "2", "3", "1")
                ("22", "2", "3", "2") ("23", "2", "3", "3")),
        )
    };
}

/// Stores the 8 rows `v16`..`v23` (the first `$rows` of them, `x24` columns) from `x25` on.
macro_rules! store8 {
    ($rows:literal) => {
        concat!(
            concat!("cmp ", $rows, ", #8\n"),
            "b.ne 24f\n",
            "cmp x24, #4\n",
            "b.ne 24f\n",
            store_rows_q!("x25", "x6"; "16", "17", "18", "19", "20", "21", "22", "23"),
            "b 25f\n",
            // Partial tile: $rows rows, x24 columns.
            "24:\n",
            each_row!(store_row, lt, $rows, "25", "x25", "x6";
                ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
            "25:\n",
        )
    };
}

/// Block epilogue of four f32 accumulators kept in memory at `[x12, #$o]`: loaded, `fmla` with
/// the converted int32 sums `v$i` and the scale pairs `v0` / `v1` (alternating, as in
/// [`fold8`]), stored back.
macro_rules! fold_mem {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal; $i0:literal, $i1:literal, $i2:literal, $i3:literal) => {
        concat!(
            concat!("ldr q2, [x12, #", $o0, "]\n"),
            concat!("ldr q3, [x12, #", $o1, "]\n"),
            concat!("ldr q4, [x12, #", $o2, "]\n"),
            concat!("ldr q5, [x12, #", $o3, "]\n"),
            concat!("fmla v2.4s, v", $i0, ".4s, v0.4s\n"),
            concat!("fmla v3.4s, v", $i1, ".4s, v1.4s\n"),
            concat!("fmla v4.4s, v", $i2, ".4s, v0.4s\n"),
            concat!("fmla v5.4s, v", $i3, ".4s, v1.4s\n"),
            concat!("stp q2, q3, [x12, #", $o0, "]\n"),
            concat!("stp q4, q5, [x12, #", $o2, "]\n"),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    blockwise fn matmul_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, chunks, lhs_stride, rhs_stride) = qai8dxp_blockwise(m, n, k, bl, 4);
        // Rows of full 16-row blocks; the rest (0..16 rows) goes through the 8-row pass.
        let m16 = m & !15;
        // f32 accumulators of rows 8..16 (8 registers' worth), then 16 zero bytes.
        let mut acc = [0f32; 36];
        if m16 != 0 {
            // Register map: as the 8-row pass below, except
            //   x12 the accumulator array       x13 8 (rows of each half tile)
            //   x27 LHS group C pointer         x28 LHS group D pointer (K loop)
            //   v8..v15 int32 accumulators of rows 8..16 (groups C, D), as v16..v23 for A, B.
            //
            // SAFETY: as the 8-row pass's SAFETY below, for the first m16 rows (four whole LHS
            // groups per row block); `acc` is the function's own array, read and written only
            // within its 144 bytes (bytes 128..144 are read, never written).
            unsafe {
                kernel_asm!(
                    ".arch_extension i8mm",
                    "mov x13, #8",
                    // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
                    "21:",
                    "mov x14, x4",
                    "mov x15, x1",
                    "mov x16, x5",
                    // ---- Column loop: 4 columns (one RHS group) per iteration.
                    "22:",
                    min_imm!("x24", "x15", "4", "x24"), // columns in this tile (1..=4)
                    "mov x17, x3",
                    "add x20, x3, x7",
                    "add x27, x20, x7",
                    "add x28, x27, x7",
                    "mov x21, x14",
                    "mov x22, x11",
                    "movi v7.16b, #0xf0",
                    zero_v!("4s"; "24", "25", "26", "27", "28", "29", "30", "31"),
                    "stp q24, q24, [x12]",
                    "stp q24, q24, [x12, #32]",
                    "stp q24, q24, [x12, #64]",
                    "stp q24, q24, [x12, #96]",
                    // ---- Block loop: bl K values (x2 chunks) per iteration.
                    "26:",
                    "mov x23, x2",
                    // Clear the int32 accumulators by loads (load pipes, not vector pipes).
                    for_rows!(ldr_zero[];
                        ("8") ("9") ("10") ("11") ("12") ("13") ("14") ("15")
                        ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
                    // ---- K loop: one 32-deep chunk per iteration; each 16-byte RHS register is
                    // decoded once for the 16 rows. The int32 sums are exact, so the order of the
                    // K slices does not matter.
                    "23:",
                    "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm",
                    smmla_16x4_chunk!(),
                    "b.ne 23b",
                    "// LLVM-MCA-END",
                    // ---- Block epilogue: rows 0..8 in registers, rows 8..16 through `acc`.
                    fold8!(),
                    for_rows!(scvtf4[]; ("8") ("9") ("10") ("11") ("12") ("13") ("14") ("15")),
                    fold_mem!("0", "16", "32", "48"; "8", "9", "10", "11"),
                    fold_mem!("64", "80", "96", "112"; "12", "13", "14", "15"),
                    "subs x22, x22, #1",
                    "b.ne 26b",
                    // ---- Final epilogue and stores, rows 0..8 then rows 8..16.
                    finish8!("x17", "x20"),
                    "mov x25, x16",
                    store8!("x13"),
                    "ldp q24, q25, [x12]",
                    "ldp q26, q27, [x12, #32]",
                    "ldp q28, q29, [x12, #64]",
                    "ldp q30, q31, [x12, #96]",
                    finish8!("x27", "x28"),
                    "add x25, x16, x6, lsl #3",
                    store8!("x13"),
                    // Next column tile.
                    "add x14, x14, x8",
                    "add x16, x16, #16",
                    "subs x15, x15, #4",
                    "b.gt 22b";
                    gemm[16 rows, "21"](m16, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                    in("x8") rhs_stride,
                    in("x9") clamp_min.to_bits() as usize,
                    in("x10") clamp_max.to_bits() as usize,
                    in("x11") nb,
                    in("x12") acc.as_mut_ptr(),
                    clobber x(13 14 15 16 17 20 21 22 23 24 25 26 27 28)
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

        // Register map
        //   x0  rows left                    x12 rows in this block (1..=8)
        //   x1  n                            x13 LHS group B of the block
        //   x2  32-deep chunks per block     x14 RHS group pointer
        //   x3  LHS block (group A)          x15 columns left
        //   x4  rhs_packed                   x16 dst of this column tile
        //   x5  dst of this row block        x17 LHS group A pointer (K loop)
        //   x6  dst_stride_row               x20 LHS group B pointer (K loop)
        //   x7  lhs_stride (one group)       x21 RHS pointer (K loop)
        //   x8  rhs_stride (one group)       x22 blocks left
        //   w9  clamp_min bits               x23 chunks left in the block
        //   w10 clamp_max bits               x24 columns in this tile (1..=4)
        //   x11 blocks (nb)                  x25 dst row pointer, x26 partial-store pointer
        //
        // SAFETY: the caller guarantees FEAT_I8MM, the argument ranges and the buffer sizes
        // documented above. The asm reads exactly ceil(m/4) LHS groups (group B of a row block is
        // replaced by group A when the block has at most 4 rows) and ceil(n/4) RHS groups, each only
        // within its data and trailer. Stores are limited to the m x n region. All touched registers
        // are declared; x18, x19, x29, x30, sp and v8..v15 are not used and no stack memory is
        // accessed.
        unsafe {
            kernel_asm!(
                ".arch_extension i8mm",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "21:",
                min_imm!("x12", "x0", "8", "x24"), // rows in this block (1..=8)
                // group B, or group A again if <= 4 rows
                group_if_rows!("x13", "x3", "x7", "x0", "4", "x3"),
                "mov x14, x4",
                "mov x15, x1",
                "mov x16, x5",
                // ---- Column loop: 4 columns (one RHS group) per iteration.
                "22:",
                min_imm!("x24", "x15", "4", "x24"), // columns in this tile (1..=4)
                "mov x17, x3",
                "mov x20, x13",
                "mov x21, x14",
                "mov x22, x11",
                "movi v7.16b, #0xf0",
                zero_v!("4s"; "24", "25", "26", "27", "28", "29", "30", "31"),
                // ---- Block loop: bl K values (x2 chunks) per iteration.
                "26:",
                "mov x23, x2",
                zero_v!("4s"; "16", "17", "18", "19", "20", "21", "22", "23"),
                // ---- K loop: one 32-deep chunk per iteration.
                "23:",
                "ldr q0, [x21]",                  // segment 0, columns {0,1}
                "ldr q1, [x21, #16]",             // segment 0, columns {2,3}
                "ldr q4, [x17]",
                "ldr q5, [x17, #16]",
                "ldr q6, [x20]",
                // Decode segment 0: 16 * low nibbles -> v2, v3; high -> v0, v1.
                "shl v2.16b, v0.16b, #4",
                "shl v3.16b, v1.16b, #4",
                "and v0.16b, v0.16b, v7.16b",
                "and v1.16b, v1.16b, v7.16b",
                // K slice 32c + [0, 8): LHS slice 0 x low nibbles of segment 0.
                "smmla v16.4s, v4.16b, v2.16b",
                "smmla v17.4s, v4.16b, v3.16b",
                "ldr q4, [x20, #16]",
                "smmla v18.4s, v5.16b, v2.16b",
                "smmla v19.4s, v5.16b, v3.16b",
                "ldr q5, [x17, #64]",
                "smmla v20.4s, v6.16b, v2.16b",
                "smmla v21.4s, v6.16b, v3.16b",
                "ldr q6, [x17, #80]",
                "smmla v22.4s, v4.16b, v2.16b",
                "smmla v23.4s, v4.16b, v3.16b",
                "ldr q4, [x20, #64]",
                "ldr q2, [x21, #32]",             // segment 1, columns {0,1}
                "ldr q3, [x21, #48]",             // segment 1, columns {2,3}
                // K slice 32c + [16, 24): LHS slice 2 x high nibbles of segment 0.
                "smmla v16.4s, v5.16b, v0.16b",
                "smmla v17.4s, v5.16b, v1.16b",
                "ldr q5, [x20, #80]",
                "smmla v18.4s, v6.16b, v0.16b",
                "smmla v19.4s, v6.16b, v1.16b",
                "ldr q6, [x17, #32]",
                "smmla v20.4s, v4.16b, v0.16b",
                "smmla v21.4s, v4.16b, v1.16b",
                "ldr q4, [x17, #48]",
                "smmla v22.4s, v5.16b, v0.16b",
                "smmla v23.4s, v5.16b, v1.16b",
                "ldr q5, [x20, #32]",
                // Decode segment 1: 16 * low nibbles -> v0, v1; high -> v2, v3.
                "shl v0.16b, v2.16b, #4",
                "shl v1.16b, v3.16b, #4",
                "and v2.16b, v2.16b, v7.16b",
                "and v3.16b, v3.16b, v7.16b",
                // K slice 32c + [8, 16): LHS slice 1 x low nibbles of segment 1.
                "smmla v16.4s, v6.16b, v0.16b",
                "smmla v17.4s, v6.16b, v1.16b",
                "ldr q6, [x20, #48]",
                "smmla v18.4s, v4.16b, v0.16b",
                "smmla v19.4s, v4.16b, v1.16b",
                "ldr q4, [x17, #96]",
                "smmla v20.4s, v5.16b, v0.16b",
                "smmla v21.4s, v5.16b, v1.16b",
                "ldr q5, [x17, #112]",
                "smmla v22.4s, v6.16b, v0.16b",
                "smmla v23.4s, v6.16b, v1.16b",
                "ldr q6, [x20, #96]",
                // K slice 32c + [24, 32): LHS slice 3 x high nibbles of segment 1.
                "smmla v16.4s, v4.16b, v2.16b",
                "smmla v17.4s, v4.16b, v3.16b",
                "ldr q4, [x20, #112]",
                "smmla v18.4s, v5.16b, v2.16b",
                "smmla v19.4s, v5.16b, v3.16b",
                "smmla v20.4s, v6.16b, v2.16b",
                "smmla v21.4s, v6.16b, v3.16b",
                "smmla v22.4s, v4.16b, v2.16b",
                "smmla v23.4s, v4.16b, v3.16b",
                "add x17, x17, #128",
                "add x20, x20, #128",
                "add x21, x21, #64",
                "subs x23, x23, #1",
                "b.ne 23b",
                fold8!(),
                "subs x22, x22, #1",
                "b.ne 26b",
                finish8!("x17", "x20"),
                "mov x25, x16",
                store8!("x12"),
                // Next column tile.
                "add x14, x14, x8",
                "add x16, x16, #16",
                "subs x15, x15, #4",
                "b.gt 22b";
                gemm[8 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                in("x11") nb,
                clobber x(12 13 14 15 16 17 20 21 22 23 24 25 26)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
