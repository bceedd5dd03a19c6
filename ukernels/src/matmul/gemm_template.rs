//! Pieces of the integer GEMMs shared by kernels of different families whose tiles are walked the
//! same way: the 8-row `SDOT` (by element) steps and the loop frame of the 16 x 4 GEMMs that run
//! a 16-row tile as two passes of 8 rows.

/// Four `sdot` of one LHS group: rows `$a0..$a3` += RHS `$w` x lanes 0..3 of LHS `$l`.
macro_rules! sdot_group {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $w:literal, $l:literal) => {
        concat!(
            concat!("sdot v", $a0, ".4s, v", $w, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v", $a1, ".4s, v", $w, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v", $a2, ".4s, v", $w, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v", $a3, ".4s, v", $w, ".16b, v", $l, ".4b[3]\n"),
        )
    };
}

/// One 4-value K slice of an 8-row pass (accumulators `v16`..`v23`): RHS `$w` x LHS `$l0`/`$l1`
/// (groups 0 and 1). With bases and an offset, each LHS register is reloaded right after its
/// last use from `[$b0, #$off]` / `[$b1, #$off]`.
macro_rules! sdot_pass8 {
    ($w:literal, $l0:literal, $l1:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            sdot_group!("20", "21", "22", "23", $w, $l1),
        )
    };
    ($w:literal, $l0:literal, $l1:literal, $b0:literal, $b1:literal, $off:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            concat!("ldur q", $l0, ", [", $b0, ", #", $off, "]\n"),
            sdot_group!("20", "21", "22", "23", $w, $l1),
            concat!("ldur q", $l1, ", [", $b1, ", #", $off, "]\n"),
        )
    };
}

/// One super-block of the 16 x 4 `dotprod` int4 K loops: the RHS nibbles in v$r decoded
/// (`byte << 4` into v1, `byte & 0xf0` in place; the mask in v3), the low nibbles times LHS v4/v5
/// (reloaded from `$l0`/`$l1` + `$lo`), the next super-block's RHS into v$next from
/// `[x24, #$no]`, then the high nibbles times v6/v7 (reloaded from `$h0`/`$h1` + `$ho`); with
/// `$r` alone (the last super-block of an iteration), no loads.
macro_rules! sdot_super_block {
    ($r:literal) => {
        concat!(
            concat!("shl v1.16b, v", $r, ".16b, #4\n"),
            concat!("and v", $r, ".16b, v", $r, ".16b, v3.16b\n"),
            sdot_pass8!("1", "4", "5"),
            sdot_pass8!($r, "6", "7"),
        )
    };
    ($r:literal; $l0:literal, $l1:literal, $lo:literal; $next:literal, $no:literal;
     $h0:literal, $h1:literal, $ho:literal) => {
        concat!(
            concat!("shl v1.16b, v", $r, ".16b, #4\n"),
            concat!("and v", $r, ".16b, v", $r, ".16b, v3.16b\n"),
            sdot_pass8!("1", "4", "5", $l0, $l1, $lo),
            concat!("ldur q", $next, ", [x24, #", $no, "]\n"),
            sdot_pass8!($r, "6", "7", $h0, $h1, $ho),
        )
    };
}

/// The loop heads of a 16 x 4 GEMM run as two passes of 8 rows (`gemm[16 rows, "20"]`): row
/// blocks of 16 (label 20; `x15` columns left, `x16` RHS group, `x17` dst of the column tile),
/// column tiles of 4 (label 21; `x13` rows in the block, `x14` LHS group of the pass, `x22` dst of
/// the pass), passes (label 22; `x12` rows in the pass). `x28` is scratch.
macro_rules! pass16x4_start {
    () => {
        concat!(
            // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
            "20:\n",
            "mov x15, x1\n",
            "mov x16, x4\n",
            "mov x17, x5\n",
            // ---- Column loop: 4 columns (one RHS group) per iteration.
            "21:\n",
            min_imm!("x13", "x0", "16", "x28"),
            "mov x14, x3\n",
            "mov x22, x17\n",
            // ---- Pass loop: 8 rows (two LHS groups) per iteration.
            "22:\n",
            min_imm!("x12", "x13", "8", "x28"),
        )
    };
}

/// Stores the first `x28` (1..=4) columns of pass row `$a` at `x27`. Clobbers `x26` and `$a`.
macro_rules! pass16x4_store_row {
    ($a:literal) => {
        store_cols4!(tbz, $a, "x28", "x27", "x26"; "5", "6", "8")
    };
}

/// The loop tails of [`pass16x4_start`]: stores the pass's rows `v24`..`v31` (8 full rows of 4
/// columns in one go, else `x12` rows of `x28` columns; `x26`, `x27` scratch), then the next pass
/// (`x7` bytes per LHS group, `x6` per dst row), the next column tile (`x8` bytes per RHS
/// group). Uses the local labels 5, 6, 8 and 25..27.
macro_rules! pass16x4_store_and_next {
    () => {
        concat!(
            // ---- Stores: x12 rows, x28 columns. Fast path: 8 full rows.
            min_imm!("x28", "x15", "4", "x28"),
            "mov x27, x22\n",
            "cmp x12, #8\n",
            "b.ne 25f\n",
            "cmp x28, #4\n",
            "b.ne 25f\n",
            store_rows_q!("x27", "x6"; "24", "25", "26", "27", "28", "29", "30", "31"),
            "b 26f\n",
            // Partial pass: x12 rows, x28 columns.
            "25:\n",
            each_row!(pass16x4_store_row, le, "x12", "26", "x27", "x6";
                ("24") ("25") ("26") ("27") ("28") ("29") ("30") ("31")),
            "26:\n",
            // Next pass: rows 8..16 of the tile.
            "subs x13, x13, #8\n",
            "b.le 27f\n",
            "add x14, x14, x7, lsl #1\n",
            "add x22, x22, x6, lsl #3\n",
            "b 22b\n",
            "27:\n",
            // Next column tile.
            "add x16, x16, x8\n",
            "add x17, x17, #16\n",
            "subs x15, x15, #4\n",
            "b.gt 21b\n",
        )
    };
}

/// Declares a vector-length-agnostic blockwise int4 GEMM of `matmul_clamp_f32_qai8dxp_qsi4c32p`
/// with 8 rows x VL32 columns per step (`..._8x1vl_sve2_{dotprod,i8mm}`):
///
/// ```text
/// sve2_8x1vl_gemm! {
///     /// docs, safety
///     #[target_feature(enable = "sve2")]
///     fn name: "<stem for llvm-mca>";
///     setup [..] tile_start [..] block_start [..] k_loop [..] block_end [..]
///     unpack_before [..] unpack_after [..]
///     clobber x(..) v(..) p(..)
/// }
/// ```
///
/// Loop nest: row blocks of 8 rows (two LHS groups, label 21; `x12` rows, `x13` group B or group
/// A again when the block has at most 4 rows), column tiles of VL32 columns (label 22; `p1` the
/// tile's columns, `x17`/`x20` the LHS groups, `x21` the RHS, `x22` blocks left), blocks of `bl`
/// values (label 26; `x23` chunks left), 32-value chunks (label 23: the kernel's `k_loop`, then
/// the LHS pointers move 128 bytes and the RHS 4 vectors on). `block_end` folds a block's sums
/// into the f32 accumulators; after the blocks the trailers are loaded (`z0`/`z1` group A
/// offsets/scales, `z2`/`z3` group B, `z4` rsum, `z5` bias, `z6`/`z7` the clamp bounds; around
/// them the kernel's `unpack_*` code leaves tile row `r` in `z(16 + r)`), the rows are finished
/// and stored under `p1`.
macro_rules! sve2_8x1vl_gemm {
    ($(#[$attr:meta])* fn $name:ident: $mca:literal;
     setup [$($setup:expr),+ $(,)?] tile_start [$($tile:expr),+ $(,)?]
     block_start [$($block:expr),+ $(,)?] k_loop [$($body:expr),+ $(,)?]
     block_end [$($end:expr),+ $(,)?] unpack_before [$($before:expr),* $(,)?]
     unpack_after [$($after:expr),* $(,)?] clobber $($clobber:tt)+) => {
        asm_kernel! {
            $(#[$attr])*
            blockwise fn $name(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (nb, chunks, lhs_stride, group_bytes_per_column) =
                    crate::matmul::kernel_geometry::qai8dxp_blockwise(m, n, k, bl, 1);

                // Register map
                //   x0  rows left                    x12 rows in this block (1..=8)
                //   x1  n                            x13 LHS group B of the block
                //   x2  32-deep chunks per block     x14 RHS group pointer
                //   x3  LHS block (group A)          x15 columns left
                //   x4  rhs_packed                   x16 dst of this column tile
                //   x5  dst of this row block        x17 LHS group A pointer (K loop)
                //   x6  dst_stride_row               x20 LHS group B pointer (K loop)
                //   x7  lhs_stride (one group)       x21 RHS pointer (K loop)
                //   x8  group stride (bytes)         x22 blocks left
                //   w9  clamp_min bits               x23 chunks left in the block
                //   w10 clamp_max bits               x24 VL32
                //   x11 blocks (nb)                  x25 dst row pointer
                //   p0  all lanes                    p1  columns of this tile
                //
                // SAFETY: the caller guarantees the CPU features, the argument ranges and the
                // buffer sizes documented above. The asm reads exactly ceil(m/4) LHS groups (group
                // B of a row block is replaced by group A when the block has at most 4 rows) and
                // ceil(n/VL32) RHS groups, each only within its data and trailer. Stores are
                // predicated to the n columns and limited to the m rows. All touched registers are
                // declared (the v8-v15 the kernel uses make the compiler preserve d8-d15); x18,
                // x19, x29, x30 and sp are not used and no stack memory is accessed.
                unsafe {
                    kernel_asm!(
                        "ptrue p0.b",
                        "cntw x24",
                        "mul x8, x8, x24",
                        $($setup,)+
                        // ---- Row-block loop: 8 rows (two LHS groups) per iteration.
                        "21:",
                        min_imm!("x12", "x0", "8", "x25"), // rows in this block (1..=8)
                        // group B, or group A again if <= 4 rows
                        group_if_rows!("x13", "x3", "x7", "x0", "4", "x3"),
                        "mov x14, x4",
                        "mov x15, x1",
                        "mov x16, x5",
                        // ---- Column loop: VL32 columns (one RHS group) per iteration.
                        "22:",
                        "whilelt p1.s, xzr, x15",
                        "mov x17, x3",
                        "mov x20, x13",
                        "mov x21, x14",
                        "mov x22, x11",
                        $($tile,)+
                        // ---- Block loop: bl K values (x2 chunks) per iteration.
                        "26:",
                        "mov x23, x2",
                        $($block,)+
                        // ---- K loop: one 32-deep chunk per iteration.
                        k_loop!("23", $mca; $($body,)+
                            "add x17, x17, #128", "add x20, x20, #128", "addvl x21, x21, #4",
                            "subs x23, x23, #1"),
                        // ---- Block epilogue, x21 at the block's bf16 scales.
                        $($end,)+
                        "subs x22, x22, #1",
                        "b.ne 26b",
                        // ---- Final epilogue. x17/x20 point at the LHS trailers, x21 at rsum.
                        $($before,)*
                        "ld1rqw {{z0.s}}, p0/z, [x17]",       // group A offsets
                        "ld1rqw {{z1.s}}, p0/z, [x17, #16]",  // group A scales
                        "ld1rqw {{z2.s}}, p0/z, [x20]",       // group B offsets
                        "ld1rqw {{z3.s}}, p0/z, [x20, #16]",  // group B scales
                        "ld1w {{z4.s}}, p0/z, [x21]",         // rsum
                        "ld1w {{z5.s}}, p0/z, [x21, #1, mul vl]", // bias
                        "scvtf z0.s, p0/m, z0.s",
                        "scvtf z2.s, p0/m, z2.s",
                        "dup z6.s, w9",
                        "dup z7.s, w10",
                        $($after,)*
                        for_rows!(finish_row[z, "4", "5", "6", "7";];
                            ("16", "0", "1", "0") ("17", "0", "1", "1") ("18", "0", "1", "2")
                            ("19", "0", "1", "3") ("20", "2", "3", "0") ("21", "2", "3", "1")
                            ("22", "2", "3", "2") ("23", "2", "3", "3")),
                        // ---- Stores: x12 rows, the columns of p1.
                        "mov x25, x16",
                        each_row!(st1w_row["x25";], lt, "x12", "25", "x25", "x6";
                            ("16") ("17") ("18") ("19") ("20") ("21") ("22") ("23")),
                        "25:",
                        // Next column tile.
                        "add x14, x14, x8",
                        "addvl x16, x16, #1",
                        "subs x15, x15, x24",
                        "b.gt 22b";
                        gemm[8 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                        inout("x8") group_bytes_per_column => _,
                        in("x9") clamp_min.to_bits() as usize,
                        in("x10") clamp_max.to_bits() as usize,
                        in("x11") nb,
                        clobber $($clobber)+
                    );
                }
            }
        }
    };
}

/// Declares a 16 x 4 GEMM of `matmul_clamp_f32_qai8dxp_qsi8cxp` (int8 per-channel RHS, 4
/// columns per group; `..._16x4_neon_{dotprod,i8mm}`):
///
/// ```text
/// qsi8cxp_16x4_gemm! {
///     /// docs, safety
///     #[target_feature(enable = "dotprod")]
///     fn name: "<stem for llvm-mca>";
///     prelude [..] k_loop [..] rows [..]
/// }
/// ```
///
/// Loop nest: row blocks of 16 rows (four LHS groups, label 21; `x11` rows, `x12`..`x14` groups
/// 1..3 or group 0 again past the block's rows), column tiles of 4 (label 22; `x26` columns,
/// `x20`..`x23` the LHS groups, `x24` the RHS, `x25` chunks left, accumulators `v16`..`v31`
/// zeroed), 32-value chunks (label 23: the kernel's `k_loop`, then the five pointers move 128
/// bytes on). The epilogue loads the trailers (`v8`..`v15` offsets and scales of groups 0..3,
/// `v2`/`v3` rsum/rscale, `v4` bias, `v0`/`v1` the clamp bounds) and runs the kernel's `rows`
/// (dequantise, clamp and store `x11` rows of `x26` columns from `x27`, leaving for label 25).
macro_rules! qsi8cxp_16x4_gemm {
    ($(#[$attr:meta])* fn $name:ident: $mca:literal;
     prelude [$($prelude:expr),* $(,)?] k_loop [$($body:expr),+ $(,)?] rows [$($rows:expr),+ $(,)?]) => {
        asm_kernel! {
            $(#[$attr])*
            fn $name(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (chunks, _, lhs_stride, rhs_stride) =
                    crate::matmul::kernel_geometry::per_channel(m, n, k, 4, false);

                // Register map
                //   x0  rows left                    x11 rows in this block (1..=16)
                //   x1  n                            x12-x14 groups 1..3 of the block
                //   x2  32-deep chunks               x15 RHS group pointer
                //   x3  LHS block (group 0)          x16 columns left
                //   x4  rhs_packed                   x17 dst of this column tile
                //   x5  dst of this row block        x20-x23 LHS group pointers (K loop)
                //   x6  dst_stride_row               x24 RHS pointer (K loop)
                //   x7  lhs_stride (one group)       x25 chunks left
                //   x8  rhs_stride (one group)       x26 columns in this tile (1..=4)
                //   w9  clamp_min bits               x27 dst row pointer (stores)
                //   w10 clamp_max bits               x28 partial-store pointer
                //
                // SAFETY: the caller guarantees the CPU feature, m, n, k >= 1 and the buffer
                // sizes documented above. The asm reads exactly ceil(m/4) LHS groups (a group past
                // the block's rows is replaced by the block's first group) and ceil(n/4) RHS
                // groups, each only within its data and trailer. Stores are limited to the m x n
                // region. All touched registers are declared; x18, x19, x29, x30 and sp are not
                // used and no stack memory is accessed.
                unsafe {
                    kernel_asm!(
                        $($prelude,)*
                        // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
                        "21:",
                        min_imm!("x11", "x0", "16", "x24"), // rows in this block (1..=16)
                        // group 1, or group 0 if <= 4 rows
                        group_if_rows!("x12", "x3", "x7", "x11", "4", "x3"),
                        "add x13, x3, x7, lsl #1",        // group 2 ...
                        "cmp x11, #8",
                        "csel x13, x13, x3, gt",          // ... or group 0 if <= 8 rows
                        // group 3 (x13 is group 2 here), or group 0 if <= 12 rows
                        group_if_rows!("x14", "x13", "x7", "x11", "12", "x3"),
                        "mov x15, x4",
                        "mov x16, x1",
                        "mov x17, x5",
                        // ---- Column loop: 4 columns (one RHS group) per iteration.
                        "22:",
                        min_imm!("x26", "x16", "4", "x24"), // columns in this tile (1..=4)
                        "mov x20, x3",
                        "mov x21, x12",
                        "mov x22, x13",
                        "mov x23, x14",
                        "mov x24, x15",
                        "mov x25, x2",
                        zero_v!("4s";
                            "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28",
                            "29", "30", "31"),
                        // ---- K loop: one 32-deep chunk per iteration.
                        k_loop!("23", $mca; $($body,)+
                            "add x20, x20, #128", "add x21, x21, #128", "add x22, x22, #128",
                            "add x23, x23, #128", "add x24, x24, #128", "subs x25, x25, #1"),
                        // ---- Epilogue. x20..x23 point at the LHS trailers, x24 at the RHS one.
                        "ldp q8, q9, [x20]",              // group 0 offsets, scales
                        "ldp q10, q11, [x21]",            // group 1
                        "ldp q12, q13, [x22]",            // group 2
                        "ldp q14, q15, [x23]",            // group 3
                        "ldp q2, q3, [x24]",              // rsum, rscale
                        "ldr q4, [x24, #32]",             // bias
                        "dup v0.4s, w9",
                        "dup v1.4s, w10",
                        "mov x27, x17",
                        $($rows,)+
                        "25:",
                        // Next column tile.
                        "add x15, x15, x8",
                        "add x17, x17, #16",
                        "subs x16, x16, #4",
                        "b.gt 22b";
                        gemm[16 rows, "21"](m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row, lhs_stride);
                        in("x8") rhs_stride,
                        in("x9") clamp_min.to_bits() as usize,
                        in("x10") clamp_max.to_bits() as usize,
                        clobber x(11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                            v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31),
                    );
                }
            }
        }
    };
}

/// Loop pieces of the `2vlx8` GEMMs (RHS groups of `nr = 2 x VL32` columns; `x13` = VL32,
/// `x8` = bytes of one group, scaled here from bytes per column, `x20`/`x11`/`x14` the group's
/// RHS, dst and columns left; their accumulators `z16`..`z31`). The start: all-true `p0`, VL32,
/// the group stride.
macro_rules! gemm2vl_start {
    () => {
        concat!(
            "ptrue p0.b\n",
            "cntw x13\n",
            "mul x8, x8, x13\n",
            "lsl x8, x8, #1\n"
        )
    };
}

/// The column-group loop of a row block (label 2): from the first group.
macro_rules! gemm2vl_groups {
    () => {
        concat!("mov x20, x4\n", "mov x11, x5\n", "mov x14, x1\n", "2:\n")
    };
}

/// Before a tile's K loop: `x12` = chunks, accumulators zeroed.
macro_rules! gemm2vl_chunks {
    () => {
        concat!(
            "mov x12, x2\n",
            zero_z!(
                "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
                "30", "31"
            ),
        )
    };
}

/// The next column group (`x8` bytes of RHS, two vectors of dst), while columns are left.
macro_rules! gemm2vl_next_group {
    () => {
        concat!(
            "add x20, x20, x8\n",
            "addvl x11, x11, #2\n",
            "sub x14, x14, x13, lsl #1\n",
            "cmp x14, #0\n",
            "b.gt 2b\n",
        )
    };
}

/// The two passes over VL32 columns of a group (label 3; `x22` the pass's first column, `p1` its
/// columns, `x10` its RHS, `x9` the row block's LHS) ...
macro_rules! gemm2vl_pass {
    () => {
        concat!(
            "mov x22, #0\n",
            "3:\n",
            "whilelt p1.s, x22, x14\n",
            "add x10, x20, x22, lsl #3\n",
            "mov x9, x3\n",
        )
    };
}

/// ... and the second pass after the first (label 5), unless no column of it is below n.
macro_rules! gemm2vl_next_pass {
    () => {
        concat!(
            "5:\n",
            "cbnz x22, 6f\n",
            "mov x22, x13\n",
            "cmp x14, x13\n",
            "b.gt 3b\n",
            "6:\n"
        )
    };
}
