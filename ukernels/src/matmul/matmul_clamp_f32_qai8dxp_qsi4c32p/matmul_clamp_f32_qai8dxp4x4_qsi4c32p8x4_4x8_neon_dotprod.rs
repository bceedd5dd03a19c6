//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod`: GEMM (4 rows x 8 columns
//! per step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!`
//! block. Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a
//! groupwise symmetric int4 RHS (packed 8 columns x 4-byte blocks, one bf16 scale per column
//! and block of `bl` K values).
//!
//! Loop order: row groups of 4 outside, column groups of 8 inside, then the `k / bl` blocks,
//! each in 32-value chunks.
//!
//! One 4-deep K block is a pair of `SDOT (by element)` steps per row: the two decoded RHS
//! vectors hold 4 K values of columns 0..4 and 4..8, the LHS vector holds 4 K values of each of
//! the 4 rows, and `sdot acc[row][half], rhs[half], lhs.4b[row]` adds the 4 products of that
//! row to each column lane. Nibbles decode as `byte << 4` (16 x low nibble: K block `s` of the
//! chunk) and `byte & 0xf0` (16 x high nibble: K block `s + 4`). At the end of every block the
//! integer sums are converted with `SCVTF #4` (exactly `I / 16`), multiplied by the block's
//! column scales into the float accumulators with a fused `FMLA`, and cleared.
//!
//! Register plan:
//!
//! * `v16`..`v23` — integer block accumulators; tile row `r` is `v(16 + 2r)` (columns 0..4)
//!   and `v(17 + 2r)` (columns 4..8).
//! * `v24`..`v31` — float accumulators, the same layout (`v(24 + 2r)`, `v(25 + 2r)`).
//! * `v4` — LHS K block `s`, `v5` — LHS K block `s + 4`.
//! * `v0`/`v1` and `v2`/`v3` — RHS super-block (columns 0..4, 4..8): one pair holds the raw
//!   bytes, decoded in place to the high nibbles, the other receives the low nibbles; the pairs
//!   swap roles between super-blocks.
//! * `v6` — the 0xF0 nibble mask; `v7` — raw block scales. In the block epilogue `v4`/`v5`
//!   hold the f32 scales, in the final epilogue `v0`..`v7` hold the trailers and clamp bounds.
//!
//! One K-loop iteration (a 32-deep chunk) issues 8 RHS and 8 LHS q-loads, 16 decode ops and 64
//! `sdot` (1024 MACs); every operand is reloaded right after its last use, so the loop is bound
//! by the 80 vector-pipe ops (llvm-mca: 40 cycles on Neoverse N1/N2, 20 on V1/V2). The loads are
//! written `ldur` (the same single load; LLVM's Neoverse-N1 model charges the scaled-offset
//! `ldr q` encoding an extra uop on its 3-wide dispatch). The block epilogue adds 27 vector ops
//! per block (llvm-mca, `bl = 32`: one chunk plus its epilogue in 53.1 cycles on N1/N2, 28.7 on
//! V1/V2).

use crate::matmul::kernel_geometry::qai8dxp_blockwise;

/// One 4-deep K block of all 4 rows: rows += RHS `$p` (columns 0..4) / `$q` (columns 4..8) x
/// lanes 0..3 of LHS `$l`.
macro_rules! kblock {
    ($p:literal, $q:literal, $l:literal) => {
        concat!(
            concat!("sdot v16.4s, v", $p, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v17.4s, v", $q, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v18.4s, v", $p, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v19.4s, v", $q, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v20.4s, v", $p, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v21.4s, v", $q, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v22.4s, v", $p, ".16b, v", $l, ".4b[3]\n"),
            concat!("sdot v23.4s, v", $q, ".16b, v", $l, ".4b[3]\n"),
        )
    };
}

/// Decodes the raw RHS super-block `$p`/`$q`: low nibbles into `$pl`/`$ql`, high in place.
macro_rules! decode {
    ($p:literal, $q:literal, $pl:literal, $ql:literal) => {
        concat!(
            concat!("shl v", $pl, ".16b, v", $p, ".16b, #4\n"),
            concat!("shl v", $ql, ".16b, v", $q, ".16b, #4\n"),
            concat!("and v", $p, ".16b, v", $p, ".16b, v6.16b\n"),
            concat!("and v", $q, ".16b, v", $q, ".16b, v6.16b\n"),
        )
    };
}

/// Block epilogue of tile row (`$i`, `$j`) (integer accumulators, columns 0..4 / 4..8) into
/// float accumulators (`$f`, `$g`): `f += (i / 16) * scale` (fused), then `i = 0`. `v4`/`v5`
/// hold the block's f32 column scales.
/// One super-block of the K loop (K blocks `b` and `b + 4`): the nibbles in v$r0/v$r1 split by
/// [`decode`] (low nibbles into v$l0/v$l1), [`kblock`] of the low nibbles with v4, which is
/// reloaded from `[x20, #$o0]`, the next super-block's RHS into v$n0/v$n1 from `[x24, #$no0]` /
/// `[x24, #$no1]`, the high nibbles with v5, reloaded from `[x20, #$o1]`.
macro_rules! super_block {
    ($r0:literal, $r1:literal, $l0:literal, $l1:literal; $o0:literal; $n0:literal, $n1:literal,
     $no0:literal, $no1:literal; $o1:literal) => {
        concat!(
            decode!($r0, $r1, $l0, $l1),
            kblock!($l0, $l1, "4"),
            concat!("ldur q4, [x20, #", $o0, "]\n"),
            concat!("ldur q", $n0, ", [x24, #", $no0, "]\n"),
            concat!("ldur q", $n1, ", [x24, #", $no1, "]\n"),
            kblock!($r0, $r1, "5"),
            concat!("ldur q5, [x20, #", $o1, "]\n"),
        )
    };
}

macro_rules! block_row {
    ($i:literal, $j:literal, $f:literal, $g:literal) => {
        concat!(
            concat!("scvtf v", $i, ".4s, v", $i, ".4s, #4\n"),
            concat!("scvtf v", $j, ".4s, v", $j, ".4s, #4\n"),
            concat!("fmla v", $f, ".4s, v", $i, ".4s, v4.4s\n"),
            concat!("fmla v", $g, ".4s, v", $j, ".4s, v5.4s\n"),
            concat!("movi v", $i, ".4s, #0\n"),
            concat!("movi v", $j, ".4s, #0\n"),
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
    /// `kr / sr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    blockwise fn matmul_f32_qai8dxp4x4_qsi4c32p8x4_4x8(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let (nb, _, lhs_stride, rhs_stride) = qai8dxp_blockwise(m, n, k, bl, 8);

        // General-purpose registers
        //   x0  rows left                      x11 chunks per block (bl / 32)
        //   x1  n                              x12 rows in this group (1..=4)
        //   x2  blocks (k / bl)                x15 columns left
        //   x3  LHS group                      x16 RHS group of the column tile
        //   x4  rhs_packed                     x17 dst of the tile
        //   x5  dst of the row group           x20 LHS pointer
        //   x6  dst_stride_row                 x24 RHS pointer
        //   x7  LHS group stride               x25 blocks left
        //   x8  RHS group stride               x26 chunks left in the block
        //   w9  clamp_min bits, w10 clamp_max  x26-x28 store pointers, columns in the tile
        //
        // SAFETY: the caller guarantees (see `# Safety`) FEAT_DotProd, m, n >= 1, k = nb * bl with
        // bl a multiple of 32, and that the packed buffers hold ceil(m / 4) LHS groups and
        // ceil(n / 8) RHS groups. Every load reads the current chunk, block scales or trailer of
        // one of those groups (no read-ahead). Stores are limited to dst[i][0..n), i < m. All
        // touched registers are declared; x18, x19, x29, x30, v8-v15 and sp are not used and no
        // stack memory is accessed.
        unsafe {
            kernel_asm!(
                // ---- Row loop: one LHS group (4 rows) per iteration.
                "20:",
                min_imm!("x12", "x0", "4", "x28"),
                "mov x15, x1",
                "mov x16, x4",
                "mov x17, x5",
                // ---- Column loop: 8 columns (one RHS group) per iteration.
                "21:",
                "mov x20, x3",
                "mov x24, x16",
                "mov x25, x2",
                "movi v6.16b, #0xf0",
                zero_v!("4s";
                    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                    "29", "30", "31"),
                // ---- Block loop.
                "22:",
                "mov x26, x11",
                // ---- K loop: one 32-deep chunk per iteration.
                "23:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod",
                "ldur q0, [x24]",
                "ldur q1, [x24, #16]",
                "ldur q4, [x20]",
                "ldur q5, [x20, #64]",
                // Super-block 0: K blocks 0 (low nibbles) and 4 (high).
                super_block!("0", "1", "2", "3"; "16";
                    "2", "3", "32", "48"; "80"),
                // Super-block 1: K blocks 1 and 5.
                super_block!("2", "3", "0", "1"; "32";
                    "0", "1", "64", "80"; "96"),
                // Super-block 2: K blocks 2 and 6.
                super_block!("0", "1", "2", "3"; "48";
                    "2", "3", "96", "112"; "112"),
                // Super-block 3: K blocks 3 and 7.
                decode!("2", "3", "0", "1"),
                kblock!("0", "1", "4"),
                kblock!("2", "3", "5"),
                "add x20, x20, #128",
                "add x24, x24, #128",
                "subs x26, x26, #1",
                "b.ne 23b",
                "// LLVM-MCA-END",
                // ---- Block epilogue: x24 points at the block's 8 bf16 scales.
                "ldr q7, [x24], #16",
                "shll v4.4s, v7.4h, #16",
                "shll2 v5.4s, v7.8h, #16",
                block_row!("16", "17", "24", "25"),
                block_row!("18", "19", "26", "27"),
                block_row!("20", "21", "28", "29"),
                block_row!("22", "23", "30", "31"),
                "subs x25, x25, #1",
                "b.ne 22b",
                // ---- Final epilogue. x20 points at the LHS trailer, x24 at the RHS one.
                "ldp q4, q5, [x20]",      // lhs_offset (i32), lhs_scale
                "ldp q0, q1, [x24]",      // rsum
                "ldp q2, q3, [x24, #32]", // bias
                "scvtf v4.4s, v4.4s",
                "dup v6.4s, w9",
                "dup v7.4s, w10",
                for_rows!(finish_row2["0", "1", "2", "3", "6", "7";];
                    ("24", "25", "4", "5", "0") ("26", "27", "4", "5", "1")
                    ("28", "29", "4", "5", "2") ("30", "31", "4", "5", "3")),
                // ---- Stores: x12 rows, x28 columns.
                min_imm!("x28", "x15", "8", "x28"),
                "mov x27, x17",
                each_row!(store_row, le, "x12", "26", "x27", "x6";
                    ("24", "25") ("26", "27") ("28", "29") ("30", "31")),
                "26:",
                // Next column tile.
                "add x16, x16, x8",
                "add x17, x17, #32",
                "subs x15, x15, #8",
                "b.gt 21b";
                gemm[4 rows, "20"](m, n, nb, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                in("x8") rhs_stride,
                in("x9") clamp_min.to_bits() as usize,
                in("x10") clamp_max.to_bits() as usize,
                in("x11") bl / 32,
                clobber x(12 15 16 17 20 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
            );
        }
    }
}
