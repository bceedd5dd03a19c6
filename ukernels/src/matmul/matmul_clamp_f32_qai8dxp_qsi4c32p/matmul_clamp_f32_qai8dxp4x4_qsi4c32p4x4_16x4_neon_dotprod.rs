//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod`: GEMM (16 rows x 4 columns
//! per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!`
//! block. Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a
//! groupwise symmetric int4 RHS (packed 4 columns x 4-byte blocks, one bf16 scale per column
//! and block of `bl` K values).
//!
//! Full 16-row blocks run in one pass (`sdot_16x4_chunk`), which decodes each RHS register once
//! per 16 rows: 16 int32 block accumulators (`v16`..`v23` rows 0..8, `v8`..`v15` rows 8..16;
//! `v8`..`v15` are declared clobbered, so the compiler saves `d8`..`d15`), the f32 accumulators
//! of rows 0..8 in `v24`..`v31` and those of rows 8..16 in a stack array of the Rust function
//! (loaded, multiply-added and stored once per block; its last 16 bytes stay zero and clear the
//! int32 accumulators of rows 8..16 by loads). At `bl = 32` llvm-mca-22 puts a block (K loop and
//! fold) at 46.3 / 24.6 / 25.1 cycles per 1024 MACs on N2 / V1 / V2 against 48.5 / 26.3 / 26.3
//! for two 8-row passes (49.0 against 48.5 on N1).
//!
//! The last `m % 16` rows run the 8-row passes: column groups of 4 inside blocks of up to 16
//! rows, each tile computed in two passes of 8 rows (two LHS groups), each pass running over the
//! `k / bl` blocks in 32-value chunks (the second pass re-reads the RHS column group, which the
//! first one has just brought into L1).
//!
//! One 4-deep K block is a single `SDOT (by element)` step: the decoded RHS vector holds 4 K
//! values of each of the 4 columns, the LHS vector of a group holds 4 K values of each of its 4
//! rows, and `sdot acc[row], rhs, lhs.4b[row % 4]` adds the 4 products of that row to each
//! column lane. Nibbles decode as `byte << 4` (16 x low nibble: K block `s` of the chunk) and
//! `byte & 0xf0` (16 x high nibble: K block `s + 4`). At the end of every block the integer
//! sums are converted with `SCVTF #4` (exactly `I / 16`), multiplied by the block's column
//! scales into the float accumulators with a fused `FMLA`, and cleared.
//!
//! Register plan (one 8-row pass):
//!
//! * `v16`..`v23` — integer block accumulators; `v(16 + r)` holds pass row `r`, lanes =
//!   columns 0..4.
//! * `v24`..`v31` — float accumulators, `v(24 + r)` for pass row `r`.
//! * `v4`/`v5` — LHS K block `s` of the pass's groups 0 and 1; `v6`/`v7` — LHS K block `s + 4`.
//! * `v0`/`v2` — raw RHS super-block, decoded in place to the high nibbles (the two alternate
//!   between super-blocks); `v1` — its low nibbles.
//! * `v3` — the 0xF0 nibble mask. In the block epilogue `v4` holds the f32 scales, in the
//!   final epilogue `v0`..`v7` hold the trailers and clamp bounds.
//!
//! One K-loop iteration (a 32-deep chunk of one pass) issues 4 RHS and 16 LHS q-loads, 8 decode
//! ops and 64 `sdot` (1024 MACs); every operand is reloaded right after its last use, so the
//! loop is bound by the 72 vector-pipe ops (llvm-mca: 36 cycles on Neoverse N1/N2, 18 on V1/V2).
//! The loads are written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the
//! scaled-offset `ldr q` encoding an extra uop, which would make its 3-wide dispatch the bound).
//! The block epilogue adds 25 vector ops per pass and block (llvm-mca, `bl = 32`: one chunk plus
//! its epilogue in 48.6 cycles on N1/N2, 26.4 on V1/V2).

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

/// Block epilogue of pass row `$i` (integer accumulator) into float accumulator `$f`:
/// `f += (i / 16) * scale` (fused), then `i = 0`. `v4` holds the block's f32 column scales.
macro_rules! block_row {
    ($i:literal, $f:literal) => {
        concat!(
            concat!("scvtf v", $i, ".4s, v", $i, ".4s, #4\n"),
            concat!("fmla v", $f, ".4s, v", $i, ".4s, v4.4s\n"),
            concat!("movi v", $i, ".4s, #0\n"),
        )
    };
}

/// Block epilogue of the four rows whose f32 accumulators are at `[x12, #$o]`: loaded,
/// `f += (i / 16) * scale` (fused; `v$i` already converted, `v4` the scales), stored back.
macro_rules! block_mem {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal; $i0:literal, $i1:literal, $i2:literal, $i3:literal) => {
        concat!(
            concat!("ldr q0, [x12, #", $o0, "]\n"),
            concat!("ldr q1, [x12, #", $o1, "]\n"),
            concat!("ldr q2, [x12, #", $o2, "]\n"),
            concat!("ldr q5, [x12, #", $o3, "]\n"),
            concat!("fmla v0.4s, v", $i0, ".4s, v4.4s\n"),
            concat!("fmla v1.4s, v", $i1, ".4s, v4.4s\n"),
            concat!("fmla v2.4s, v", $i2, ".4s, v4.4s\n"),
            concat!("fmla v5.4s, v", $i3, ".4s, v4.4s\n"),
            concat!("stp q0, q1, [x12, #", $o0, "]\n"),
            concat!("stp q2, q5, [x12, #", $o2, "]\n"),
        )
    };
}

/// Final epilogue of 8 rows from the f32 sums `v24`..`v31` (in place): `$a` / `$b` point at the
/// trailers of the two LHS groups, `$r` at the RHS group's rsum and bias.
macro_rules! finish16x4 {
    ($a:literal, $b:literal, $r:literal) => {
        concat!(
            concat!("ldp q4, q5, [", $a, "]\n"), // group 0 lhs_offset (i32), lhs_scale
            concat!("ldp q6, q7, [", $b, "]\n"), // group 1
            concat!("ldp q0, q1, [", $r, "]\n"), // rsum, bias
            "scvtf v4.4s, v4.4s\n",
            "scvtf v6.4s, v6.4s\n",
            "dup v2.4s, w9\n",
            "dup v3.4s, w10\n",
            for_rows!(finish_row[v, "0", "1", "2", "3";];
                ("24", "4", "5", "0") ("25", "4", "5", "1") ("26", "4", "5", "2")
                ("27", "4", "5", "3") ("28", "6", "7", "0") ("29", "6", "7", "1")
                ("30", "6", "7", "2") ("31", "6", "7", "3")),
        )
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp4x4_qsi4c32p4x4_16x4(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, _, lhs_stride, rhs_stride) = qai8dxp_blockwise(m, n, k, bl, 4);
        // Rows of full 16-row blocks; the rest (0..16 rows) goes through the 8-row passes.
        let m16 = m & !15;
        // f32 accumulators of rows 8..16, then 16 zero bytes.
        let mut acc = [0f32; 36];
        if m16 != 0 {
            // Register map of the 16-row pass
            //   x0..x10 as below                  x11 chunks per block (bl / 32)
            //   x12 the accumulator array         x14 RHS group of the column tile
            //   x15 columns left                  x16 dst of the column tile
            //   x17 / x20 / x27 / x28 LHS groups A..D, x21 RHS (K loop)
            //   x22 blocks left                   x23 chunks left in the block
            //   x24 columns in the tile (1..=4)   x25 dst row pointer, x26 partial-store pointer
            //
            // SAFETY: as the 8-row passes' SAFETY below, for the first m16 rows (four whole LHS
            // groups per row block); `acc` is the function's own array, read and written only
            // within its 144 bytes (bytes 128..144 are read, never written).
            unsafe {
                kernel_asm!(
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
                    "mov x22, x2",
                    "movi v3.16b, #0xf0",
                    zero_v!("4s";
                        "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
                        "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"),
                    "stp q24, q24, [x12]",
                    "stp q24, q24, [x12, #32]",
                    "stp q24, q24, [x12, #64]",
                    "stp q24, q24, [x12, #96]",
                    // ---- Block loop.
                    "26:",
                    "mov x23, x11",
                    // ---- K loop: one 32-deep chunk per iteration.
                    "23:",
                    "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod",
                    sdot_16x4_chunk!(),
                    "b.ne 23b",
                    "// LLVM-MCA-END",
                    // ---- Block epilogue: x21 points at the block's 4 bf16 scales. Rows 0..8 in
                    // registers, rows 8..16 through `acc` (their int32 sums cleared by loads).
                    "ldr d4, [x21], #8",
                    "shll v4.4s, v4.4h, #16",
                    for_rows!(block_row[]; ("16", "24") ("17", "25") ("18", "26") ("19", "27")
                        ("20", "28") ("21", "29") ("22", "30") ("23", "31")),
                    for_rows!(scvtf4[]; ("8") ("9") ("10") ("11") ("12") ("13") ("14") ("15")),
                    block_mem!("0", "16", "32", "48"; "8", "9", "10", "11"),
                    block_mem!("64", "80", "96", "112"; "12", "13", "14", "15"),
                    for_rows!(ldr_zero[]; ("8") ("9") ("10") ("11") ("12") ("13") ("14") ("15")),
                    "subs x22, x22, #1",
                    "b.ne 26b",
                    // ---- Final epilogue and stores, rows 0..8 then rows 8..16.
                    finish16x4!("x17", "x20", "x21"),
                    "mov x25, x16",
                    store8x4!("x24", "x25", "x6", "x26"),
                    "ldp q24, q25, [x12]",
                    "ldp q26, q27, [x12, #32]",
                    "ldp q28, q29, [x12, #64]",
                    "ldp q30, q31, [x12, #96]",
                    finish16x4!("x27", "x28", "x21"),
                    "add x25, x16, x6, lsl #3",
                    store8x4!("x24", "x25", "x6", "x26"),
                    // Next column tile.
                    "add x14, x14, x8",
                    "add x16, x16, #16",
                    "subs x15, x15, #4",
                    "b.gt 22b";
                    gemm[16 rows, "21"](m16, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                    in("x8") rhs_stride,
                    in("x9") clamp_min.to_bits() as usize,
                    in("x10") clamp_max.to_bits() as usize,
                    in("x11") bl / 32,
                    in("x12") acc.as_mut_ptr(),
                    clobber x(14 15 16 17 20 21 22 23 24 25 26 27 28)
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

        // General-purpose registers
        //   x0  rows left                      x11 chunks per block (bl / 32)
        //   x1  n                              x12 rows in this pass (1..=8)
        //   x2  blocks (k / bl)                x13 rows of the tile not yet done
        //   x3  LHS group 0 of the row block   x14 LHS group 0 of the pass
        //   x4  rhs_packed                     x15 columns left
        //   x5  dst of the row block           x16 RHS group of the column tile
        //   x6  dst_stride_row                 x17 dst of the tile
        //   x7  LHS group stride               x20/x21 LHS pointers of the pass's groups 0 and 1
        //   x8  RHS group stride               x22 dst of the pass
        //   w9  clamp_min bits, w10 clamp_max  x24 RHS pointer, x25 blocks left
        //   x26 chunks left in the block       x26-x28 store pointers, columns in the tile
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n >= 1, k = nb * bl with
        // bl a multiple of 32, and that the packed buffers hold ceil(m / 4) LHS groups and
        // ceil(n / 4) RHS groups. A pass only starts with at least one row left, so its group 0
        // exists; its group 1 aliases group 0 when the pass has at most 4 rows. Every load reads
        // the current chunk, block scales or trailer of one of those groups (no read-ahead).
        // Stores are limited to dst[i][0..n), i < m. All touched registers are declared; x18, x19,
        // x29, x30, v8-v15 and sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                pass16x4_start!(),
                "mov x20, x14",
                group_if_rows!("x21", "x14", "x7", "x12", "4", "x14"),
                "mov x24, x16",
                "mov x25, x2",
                "movi v3.16b, #0xf0",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- Block loop.
                "23:",
                "mov x26, x11",
                // ---- K loop: one 32-deep chunk per iteration.
                "24:",
                "ldur q0, [x24]",
                "ldur q4, [x20]",
                "ldur q5, [x21]",
                "ldur q6, [x20, #64]",
                "ldur q7, [x21, #64]",
                // Super-block 0: K blocks 0 (low nibbles) and 4 (high).
                sdot_super_block!("0"; "x20", "x21", "16"; "2", "16";
                    "x20", "x21", "80"),
                // Super-block 1: K blocks 1 and 5.
                sdot_super_block!("2"; "x20", "x21", "32"; "0", "32";
                    "x20", "x21", "96"),
                // Super-block 2: K blocks 2 and 6.
                sdot_super_block!("0"; "x20", "x21", "48"; "2", "48";
                    "x20", "x21", "112"),
                // Super-block 3: K blocks 3 and 7.
                sdot_super_block!("2"),
                "add x20, x20, #128",
                "add x21, x21, #128",
                "add x24, x24, #64",
                "subs x26, x26, #1",
                "b.ne 24b",
                // ---- Block epilogue: x24 points at the block's 4 bf16 scales.
                "ldr d4, [x24], #8",
                "shll v4.4s, v4.4h, #16",
                block_row!("16", "24"),
                block_row!("17", "25"),
                block_row!("18", "26"),
                block_row!("19", "27"),
                block_row!("20", "28"),
                block_row!("21", "29"),
                block_row!("22", "30"),
                block_row!("23", "31"),
                "subs x25, x25, #1",
                "b.ne 23b",
                // ---- Final epilogue. x20/x21 point at the LHS trailers, x24 at the RHS one.
                finish16x4!("x20", "x21", "x24"),
                pass16x4_store_and_next!();
                gemm[16 rows, "20"](m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                in("x11") bl / 32,
                clobber x(12 13 14 15 16 17 20 21 22 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
