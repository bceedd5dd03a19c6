//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod`: GEMM (16 rows x 4 columns
//! per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!`
//! block. Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a
//! per-channel symmetric int4 RHS (packed 4 columns x 4-byte blocks).
//!
//! Loop order: blocks of 16 rows (four LHS groups) outside, column groups of 4 inside, K in
//! 32-value chunks (`k_int = roundup(k, 32)`).
//!
//! One 4-deep K block is a single `SDOT (by element)` step: the decoded RHS vector holds 4 K
//! values of each of the 4 columns, the LHS vector of a group holds 4 K values of each of its 4
//! rows, and `sdot acc[row], rhs, lhs.4b[row % 4]` adds the 4 products of that row to each column
//! lane. Nibbles decode as `byte << 4` (16 x low nibble: K block `s` of the chunk) and
//! `byte & 0xf0` (16 x high nibble: K block `s + 4`); the packer pre-scales sums and scales.
//!
//! Register plan:
//!
//! * `v16`..`v31` — accumulators; `v(16 + r)` holds tile row `r`, lanes = columns 0..4.
//! * `v4`..`v7` — LHS K block `s` of groups 0..3; `v8`..`v11` — LHS K block `s + 4`.
//! * `v0`/`v2` — raw RHS super-block, decoded in place to the high nibbles; `v1`/`v3` — its low
//!   nibbles (the two pairs alternate between super-blocks).
//! * `v12`/`v13` — broadcast clamp bounds, `v15` — the 0xF0 nibble mask, `v14`/`v3` — epilogue
//!   temporaries.
//!
//! One K-loop iteration (a 32-deep chunk) issues 4 RHS and 32 LHS q-loads, 8 decode ops and 128
//! `sdot` (2048 MACs); every operand is reloaded right after its last use, so the loop is bound by
//! the 136 vector-pipe ops (llvm-mca: 68 cycles on Neoverse N1/N2, 34 on V1/V2). The loads are
//! written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the scaled-offset
//! `ldr q` encoding an extra uop, which would make its 3-wide dispatch the bound).

use crate::matmul::kernel_geometry::per_channel;

/// One 4-deep K block of all 16 rows: RHS `$w` x LHS `$l0..$l3` (groups 0..3). With `$off`,
/// each LHS register is reloaded right after its last use from `[x20..x23, #$off]`.
macro_rules! kblock {
    ($w:literal, $l0:literal, $l1:literal, $l2:literal, $l3:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            sdot_group!("20", "21", "22", "23", $w, $l1),
            sdot_group!("24", "25", "26", "27", $w, $l2),
            sdot_group!("28", "29", "30", "31", $w, $l3),
        )
    };
    ($w:literal, $l0:literal, $l1:literal, $l2:literal, $l3:literal, $off:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            concat!("ldur q", $l0, ", [x20, #", $off, "]\n"),
            sdot_group!("20", "21", "22", "23", $w, $l1),
            concat!("ldur q", $l1, ", [x21, #", $off, "]\n"),
            sdot_group!("24", "25", "26", "27", $w, $l2),
            concat!("ldur q", $l2, ", [x22, #", $off, "]\n"),
            sdot_group!("28", "29", "30", "31", $w, $l3),
            concat!("ldur q", $l3, ", [x23, #", $off, "]\n"),
        )
    };
}

/// Offset, rescale, add bias and clamp tile row `v$a`: lane `$i` of the group's offsets `v$o`
/// and scales `v$s`; `v0` rsum, `v1` rscale, `v2` bias, `v12`/`v13` clamp, `v$t` temporary.
/// One super-block of the K loop (K blocks `b` and `b + 4`): the next super-block's RHS into
/// v$next from `[x24, #$no]`, this one's nibbles in v$r decoded (`byte << 4` into v$lo,
/// `byte & 0xf0` in place; the mask in v15), then [`kblock`] of the low and the high nibbles
/// (LHS reloads at `$o0` / `$o1`).
macro_rules! super_block {
    ($next:literal, $no:literal; $r:literal, $lo:literal; $o0:literal, $o1:literal) => {
        concat!(
            concat!("ldur q", $next, ", [x24, #", $no, "]\n"),
            concat!("shl v", $lo, ".16b, v", $r, ".16b, #4\n"),
            concat!("and v", $r, ".16b, v", $r, ".16b, v15.16b\n"),
            kblock!($lo, "4", "5", "6", "7", $o0),
            kblock!($r, "8", "9", "10", "11", $o1),
        )
    };
}

macro_rules! epilogue_row {
    ($a:literal, $o:literal, $s:literal, $i:literal, $t:literal) => {
        dequant_row!(scale_first, $a; "0", $o[$i]; "1", $s[$i] -> $t; "2"; "12", "13")
    };
}

/// Stores the first `x28` (1..=4) columns of tile row `$a` at `x27`. Clobbers `x26` and `$a`.
macro_rules! store_row {
    ($a:literal) => {
        store_cols4!(tbz, $a, "x28", "x27", "x26"; "5", "6", "8")
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr / sr = 4` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp4x8_qsi4cxp4x4_16x4(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (_, k_int, lhs_stride, rhs_stride) = per_channel(m, n, k, 4, true);

        // General-purpose registers
        //   x0  rows left                      x11 rows in this block (1..=16)
        //   x1  n                              x12-x14 groups 1..3 of the block (group 0 when
        //   x2  k_int                                  they hold no row of the block)
        //   x3  LHS group 0 of the row block   x15 columns left
        //   x4  rhs_packed                     x16 RHS group of the column tile
        //   x5  dst of the row block           x17 dst of the tile
        //   x6  dst_stride_row                 x20-x23 LHS pointers of groups 0..3
        //   x7  LHS group stride               x24 RHS pointer
        //   x8  RHS group stride               x25 full chunks left
        //   w9  clamp_min bits, w10 clamp_max  x26-x28 store pointers, columns in the tile
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n, k >= 1 and that the
        // packed buffers hold ceil(m / 4) LHS groups and ceil(n / 4) RHS groups. The block reads
        // only inside them: groups past the last row of a block alias group 0; the loads issued
        // one K block ahead at the end of a chunk read the next chunk or the first 16
        // bytes of the 32-byte LHS / 48-byte RHS trailers. Stores are limited to dst[i][0..n), i < m.
        // All touched registers are declared; x18, x19, x29, x30 and sp are not used and no stack
        // memory is accessed.
        unsafe {
            kernel_asm!(
                "movi v15.16b, #0xf0",
                "dup v12.4s, w9",
                "dup v13.4s, w10",
                // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
                "20:",
                min_imm!("x11", "x0", "16", "x28"),
                "add x12, x3, x7",
                "add x13, x12, x7",
                group_if_rows!("x14", "x13", "x7", "x11", "12", "x3"),
                "cmp x11, #8",
                "csel x13, x13, x3, gt",
                "cmp x11, #4",
                "csel x12, x12, x3, gt",
                "mov x15, x1",
                "mov x16, x4",
                "mov x17, x5",
                // ---- Column loop: 4 columns (one RHS group) per iteration.
                "21:",
                "mov x20, x3",
                "mov x21, x12",
                "mov x22, x13",
                "mov x23, x14",
                "mov x24, x16",
                "lsr x25, x2, #5",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // Prime: LHS K block 0 of every group, RHS super-block 0.
                "ldur q4, [x20]",
                "ldur q5, [x21]",
                "ldur q6, [x22]",
                "ldur q7, [x23]",
                "ldur q0, [x24]",
                "cbz x25, 24f",
                // ---- K loop: one 32-deep chunk per iteration.
                "22:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod",
                "ldur q8, [x20, #64]",
                "ldur q9, [x21, #64]",
                "ldur q10, [x22, #64]",
                "ldur q11, [x23, #64]",
                // Super-block 0: K blocks 0 (low nibbles) and 4 (high).
                super_block!("2", "16"; "0", "1"; "16", "80"),
                // Super-block 1: K blocks 1 and 5.
                super_block!("0", "32"; "2", "3"; "32", "96"),
                // Super-block 2: K blocks 2 and 6.
                super_block!("2", "48"; "0", "1"; "48", "112"),
                // Super-block 3: K blocks 3 and 7. Preload the next chunk's super-block 0 and LHS
                // K block 0 (on the last chunk: the first 16 trailer bytes).
                "ldur q0, [x24, #64]",
                "shl v3.16b, v2.16b, #4",
                "and v2.16b, v2.16b, v15.16b",
                kblock!("3", "4", "5", "6", "7", "128"),
                kblock!("2", "8", "9", "10", "11"),
                "add x20, x20, #128",
                "add x21, x21, #128",
                "add x22, x22, #128",
                "add x23, x23, #128",
                "add x24, x24, #64",
                "subs x25, x25, #1",
                "b.ne 22b",
                "// LLVM-MCA-END",
                // ---- Epilogue. x20..x23 point at the LHS trailers, x24 at the RHS one.
                "24:",
                "ldp q0, q1, [x24]",   // rsum, rscale
                "ldr q2, [x24, #32]",  // bias
                "ldp q4, q5, [x20]",   // group 0 offsets, scales
                "ldp q6, q7, [x21]",   // group 1
                "ldp q8, q9, [x22]",   // group 2
                "ldp q10, q11, [x23]", // group 3
                epilogue_row!("16", "4", "5", "0", "3"),
                epilogue_row!("17", "4", "5", "1", "14"),
                epilogue_row!("18", "4", "5", "2", "3"),
                epilogue_row!("19", "4", "5", "3", "14"),
                epilogue_row!("20", "6", "7", "0", "3"),
                epilogue_row!("21", "6", "7", "1", "14"),
                epilogue_row!("22", "6", "7", "2", "3"),
                epilogue_row!("23", "6", "7", "3", "14"),
                epilogue_row!("24", "8", "9", "0", "3"),
                epilogue_row!("25", "8", "9", "1", "14"),
                epilogue_row!("26", "8", "9", "2", "3"),
                epilogue_row!("27", "8", "9", "3", "14"),
                epilogue_row!("28", "10", "11", "0", "3"),
                epilogue_row!("29", "10", "11", "1", "14"),
                epilogue_row!("30", "10", "11", "2", "3"),
                epilogue_row!("31", "10", "11", "3", "14"),
                // ---- Stores. Fast path: a full 16 x 4 tile.
                min_imm!("x28", "x15", "4", "x28"),
                "mov x27, x17",
                "cmp x11, #16",
                "b.ne 25f",
                "cmp x28, #4",
                "b.ne 25f",
                store_rows_q!("x27", "x6";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                "b 26f",
                // Partial tile: x11 rows, x28 columns.
                "25:",
                each_row!(store_row, le, "x11", "26", "x27", "x6";
                    ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23") ("24") ("25") ("26")
                    ("27") ("28") ("29") ("30") ("31")),
                "26:",
                // Next column tile.
                "add x16, x16, x8",
                "add x17, x17, #16",
                "subs x15, x15, #4",
                "b.gt 21b";
                gemm[16 rows, "20"](m, n, k_int, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                clobber x(11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
