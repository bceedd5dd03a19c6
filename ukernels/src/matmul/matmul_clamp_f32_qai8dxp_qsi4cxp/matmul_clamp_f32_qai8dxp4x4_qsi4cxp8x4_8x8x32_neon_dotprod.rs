//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod`: GEMM (8 rows x 8 columns
//! per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!`
//! block. Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a
//! per-channel symmetric int4 RHS (packed 8 columns x 4-byte blocks).
//!
//! Loop order: blocks of 8 rows (two LHS groups) outside, column groups of 8 inside, K in
//! 32-value chunks (`k_int = roundup(k, 32)`).
//!
//! One 4-deep K block is a pair of `SDOT (by element)` steps per row: the two decoded RHS
//! vectors hold 4 K values of columns 0..4 and 4..8, the LHS vector of a group holds 4 K values
//! of each of its 4 rows, and `sdot acc[row][half], rhs[half], lhs.4b[row % 4]` adds the 4
//! products of that row to each column lane. Nibbles decode as `byte << 4` (16 x low nibble:
//! K block `s` of the chunk) and `byte & 0xf0` (16 x high nibble: K block `s + 4`); the packer
//! pre-scales sums and scales.
//!
//! Register plan:
//!
//! * `v16`..`v31` — accumulators; tile row `r` is `v(16 + 2r)` (columns 0..4) and
//!   `v(17 + 2r)` (columns 4..8).
//! * `v8`/`v9` — LHS K block `s` of groups 0 and 1; `v10`/`v11` — LHS K block `s + 4`.
//! * `v0`/`v1` and `v4`/`v5` — raw RHS super-block (columns 0..4, 4..8), decoded in place to the
//!   high nibbles; `v2`/`v3` and `v6`/`v7` — their low nibbles (the two sets alternate between
//!   super-blocks).
//! * `v12`/`v13` — broadcast clamp bounds, `v15` — the 0xF0 nibble mask, `v14` spare.
//!
//! One K-loop iteration (a 32-deep chunk) issues 8 RHS and 16 LHS q-loads, 16 decode ops and
//! 128 `sdot` (2048 MACs); every operand is reloaded right after its last use, so the loop is
//! bound by the 144 vector-pipe ops (llvm-mca: 72 cycles on Neoverse N1/N2, 36 on V1/V2). The
//! loads are written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the
//! scaled-offset `ldr q` encoding an extra uop on its 3-wide dispatch).

use crate::matmul::kernel_geometry::per_channel;

/// Eight `sdot` of one LHS group: rows `$a0/$a1` .. `$a6/$a7` (columns 0..4 / 4..8) += RHS
/// `$p` / `$q` x lanes 0..3 of LHS `$l`.
macro_rules! sdot_group {
    (
        $a0:literal, $a1:literal, $a2:literal, $a3:literal,
        $a4:literal, $a5:literal, $a6:literal, $a7:literal,
        $p:literal, $q:literal, $l:literal
    ) => {
        concat!(
            concat!("sdot v", $a0, ".4s, v", $p, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v", $a1, ".4s, v", $q, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v", $a2, ".4s, v", $p, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v", $a3, ".4s, v", $q, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v", $a4, ".4s, v", $p, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v", $a5, ".4s, v", $q, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v", $a6, ".4s, v", $p, ".16b, v", $l, ".4b[3]\n"),
            concat!("sdot v", $a7, ".4s, v", $q, ".16b, v", $l, ".4b[3]\n"),
        )
    };
}

/// One 4-deep K block of all 8 rows: RHS `$p`/`$q` x LHS `$l0`/`$l1` (groups 0 and 1). With
/// `$off`, each LHS register is reloaded right after its last use from `[x20/x21, #$off]`.
macro_rules! kblock {
    ($p:literal, $q:literal, $l0:literal, $l1:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", "20", "21", "22", "23", $p, $q, $l0),
            sdot_group!("24", "25", "26", "27", "28", "29", "30", "31", $p, $q, $l1),
        )
    };
    ($p:literal, $q:literal, $l0:literal, $l1:literal, $off:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", "20", "21", "22", "23", $p, $q, $l0),
            concat!("ldur q", $l0, ", [x20, #", $off, "]\n"),
            sdot_group!("24", "25", "26", "27", "28", "29", "30", "31", $p, $q, $l1),
            concat!("ldur q", $l1, ", [x21, #", $off, "]\n"),
        )
    };
}

/// Decodes the raw RHS super-block `$p`/`$q`: low nibbles into `$pl`/`$ql`, high in place.
macro_rules! decode {
    ($p:literal, $q:literal, $pl:literal, $ql:literal) => {
        concat!(
            concat!("shl v", $pl, ".16b, v", $p, ".16b, #4\n"),
            concat!("and v", $p, ".16b, v", $p, ".16b, v15.16b\n"),
            concat!("shl v", $ql, ".16b, v", $q, ".16b, #4\n"),
            concat!("and v", $q, ".16b, v", $q, ".16b, v15.16b\n"),
        )
    };
}

/// Offset, rescale, add bias and clamp tile row `$a`/`$b` (columns 0..3 / 4..7): lane `$i` of the
/// group's offsets `v$o` and scales `v$s`; `v0`/`v1` rsum, `v2`/`v3` rscale, `v4`/`v5` bias,
/// `v12`/`v13` clamp, `v10`/`v11` temporaries.
/// One super-block of the K loop (K blocks `b` and `b + 4`): the next super-block's RHS into
/// v$n0/v$n1 from `[x24, #$no0]` / `[x24, #$no1]`, this one's nibbles in v$r0/v$r1 split by
/// [`decode`] (low nibbles into v$l0/v$l1), then [`kblock`] of the low and the high nibbles (LHS
/// reloads at `$o0` / `$o1`).
macro_rules! super_block {
    ($n0:literal, $n1:literal, $no0:literal, $no1:literal; $r0:literal, $r1:literal,
     $l0:literal, $l1:literal; $o0:literal, $o1:literal) => {
        concat!(
            concat!("ldur q", $n0, ", [x24, #", $no0, "]\n"),
            concat!("ldur q", $n1, ", [x24, #", $no1, "]\n"),
            decode!($r0, $r1, $l0, $l1),
            kblock!($l0, $l1, "8", "9", $o0),
            kblock!($r0, $r1, "10", "11", $o1),
        )
    };
}

macro_rules! epilogue_row {
    ($a:literal, $b:literal, $o:literal, $s:literal, $i:literal) => {
        concat!(
            dequant_row2!("0", "1", "2", "3", "10", "11", "4", "5"; $a, $b, $o[$i], $s[$i]),
            clamp_v!("4s"; $a, $b; "12", "13"),
        )
    };
}

/// Stores the first `x28` (1..=8) columns of tile row (`$a`, `$b`) at `x27`. Clobbers `x26`
/// and `$a`.
macro_rules! store_row {
    ($a:literal, $b:literal) => {
        store_cols8!($a, $b, "x28", "x27", "x26"; "5", "6", "7", "8")
    };
}

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 8` and
    /// `kr / sr = 4` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp4x4_qsi4cxp8x4_8x8(
        m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (_, k_int, lhs_stride, rhs_stride) = per_channel(m, n, k, 8, true);

        // General-purpose registers
        //   x0  rows left                      x11 rows in this block (1..=8)
        //   x1  n                              x12 group 1 of the block (group 0 when the block
        //   x2  k_int                              has at most 4 rows)
        //   x3  LHS group 0 of the row block   x15 columns left
        //   x4  rhs_packed                     x16 RHS group of the column tile
        //   x5  dst of the row block           x17 dst of the tile
        //   x6  dst_stride_row                 x20/x21 LHS pointers of groups 0 and 1
        //   x7  LHS group stride               x24 RHS pointer
        //   x8  RHS group stride               x25 full chunks left
        //   w9  clamp_min bits, w10 clamp_max  x26-x28 store pointers, columns in the tile
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n, k >= 1 and that the
        // packed buffers hold ceil(m / 4) LHS groups and ceil(n / 8) RHS groups. The block reads
        // only inside them: group 1 aliases group 0 when a block has at most 4 rows; the loads
        // issued one K block ahead at the end of a chunk read the next chunk or the first
        // 16 bytes of the 32-byte LHS trailer and the first 32 of the 96-byte RHS trailer. Stores are
        // limited to dst[i][0..n), i < m. All touched registers are declared; x18, x19, x29, x30
        // and sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                "movi v15.16b, #0xf0",
                "dup v12.4s, w9",
                "dup v13.4s, w10",
                // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                "20:",
                min_imm!("x11", "x0", "8", "x28"),
                group_if_rows!("x12", "x3", "x7", "x11", "4", "x3"),
                "mov x15, x1",
                "mov x16, x4",
                "mov x17, x5",
                // ---- Column loop: 8 columns (one RHS group) per iteration.
                "21:",
                "mov x20, x3",
                "mov x21, x12",
                "mov x24, x16",
                "lsr x25, x2, #5",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // Prime: LHS K block 0 of both groups, RHS super-block 0.
                "ldur q8, [x20]",
                "ldur q9, [x21]",
                "ldur q0, [x24]",
                "ldur q1, [x24, #16]",
                "cbz x25, 24f",
                // ---- K loop: one 32-deep chunk per iteration.
                "22:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod",
                "ldur q10, [x20, #64]",
                "ldur q11, [x21, #64]",
                // Super-block 0: K blocks 0 (low nibbles) and 4 (high).
                super_block!("4", "5", "32", "48";
                    "0", "1", "2", "3"; "16", "80"),
                // Super-block 1: K blocks 1 and 5.
                super_block!("0", "1", "64", "80";
                    "4", "5", "6", "7"; "32", "96"),
                // Super-block 2: K blocks 2 and 6.
                super_block!("4", "5", "96", "112";
                    "0", "1", "2", "3"; "48", "112"),
                // Super-block 3: K blocks 3 and 7. Preload the next chunk's super-block 0 and LHS
                // K block 0 (on the last chunk: the start of the trailers).
                "ldur q0, [x24, #128]",
                "ldur q1, [x24, #144]",
                decode!("4", "5", "6", "7"),
                kblock!("6", "7", "8", "9", "128"),
                kblock!("4", "5", "10", "11"),
                "add x20, x20, #128",
                "add x21, x21, #128",
                "add x24, x24, #128",
                "subs x25, x25, #1",
                "b.ne 22b",
                "// LLVM-MCA-END",
                // ---- Epilogue. x20/x21 point at the LHS trailers, x24 at the RHS one.
                "24:",
                "ldp q0, q1, [x24]",      // rsum
                "ldp q2, q3, [x24, #32]", // rscale
                "ldp q4, q5, [x24, #64]", // bias
                "ldp q6, q7, [x20]",      // group 0 offsets, scales
                "ldp q8, q9, [x21]",      // group 1
                rows_of_two_groups!(epilogue_row;
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ["6", "7"];
                    ("24", "25") ("26", "27") ("28", "29") ("30", "31") ["8", "9"]),
                // ---- Stores. Fast path: a full 8 x 8 tile.
                min_imm!("x28", "x15", "8", "x28"),
                "mov x27, x17",
                "cmp x11, #8",
                "b.ne 25f",
                "cmp x28, #8",
                "b.ne 25f",
                store_rows_qq!("x27", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ("24", "25") ("26", "27")
                    ("28", "29") ("30", "31")),
                "b 26f",
                // Partial tile: x11 rows, x28 columns.
                "25:",
                each_row!(store_row, le, "x11", "26", "x27", "x6";
                    ("16", "17") ("18", "19") ("20", "21") ("22", "23") ("24", "25") ("26", "27")
                    ("28", "29") ("30", "31")),
                "26:",
                // Next column tile.
                "add x16, x16, x8",
                "add x17, x17, #32",
                "subs x15, x15, #8",
                "b.gt 21b";
                gemm[8 rows, "20"](m, n, k_int, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                clobber x(11 12 15 16 17 20 21 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
