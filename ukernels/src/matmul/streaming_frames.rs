//! The frames of the SME and SME2 kernels of the `qai8dxp` per-channel families (int8 and int4
//! weights): everything but the K loop, as macros expanding to one [`streaming_asm!`] block. The
//! int8 (`qsi8cxp`) and int4 (`qsi4cxp`) kernels of one tile read LHS groups, RHS trailers (row
//! sums, scales, biases) and outputs in the same places and finish outputs the same way; only
//! their inner loops (which decode the weights) differ, so each kernel file holds its K loop and
//! its arguments, and a fix to a frame reaches both families.
//!
//! Every frame takes `m, n, k_int, lhs, rhs, dst, dst_stride_row` (as the kernel functions), the
//! LHS group stride (`mopa` only) and the RHS group stride, the clamp bounds, the kernel's
//! `setup` and `k_loop` text and `extra` operands (ending with a comma), and is used inside an
//! `unsafe` block whose SAFETY comment states what the K loop reads.
//!
//! The per-block families (`c32`: int4 weights with scales per block of `bl` K values) have
//! their own SME2 frames at the end, [`sme2_block_dot_frame`] and [`sme2_block_mopa_frame`]:
//! there a kernel also gives its block fold and row finish, since the families differ in what
//! a block's sums are multiplied by and what follows the blocks.
//!
//! What every frame guarantees, so that a kernel's SAFETY comment need only justify what its own
//! text reads (K loop, fold, tables): `dst` is loaded (block GEMM) and stored only under
//! predicates for columns below `n` and on rows below `m`; streaming mode starts and ends
//! inside the one `asm!` block; only declared registers change (the frame's, listed in its
//! register map below, and the kernel's `extra` operands); no stack is used.

/// The `# Safety` section of the SME kernels of the per-channel and per-block families (for
/// `#[doc = ...]`): the family's contract and the ISA.
macro_rules! streaming_kernel_safety {
    ($isa:literal) => {
        concat!(
            "# Safety\n\n",
            "The [family contract](super#safety); the CPU must implement ",
            $isa,
            ", and a pending lazy ZA save must follow the AAPCS64 SME ABI.\n",
        )
    };
}

// ---- fragments shared by the frames (asm text; see `asm_fragments` for the conventions) ----

/// The 16 x 32-bit trailer of an RHS group (`rsum`, `rscale`, `bias`, four vectors each) at
/// `[$p]` into z16-z27 with single-vector loads (`$p` advances by 8 vectors).
macro_rules! sme_trailer_into_z16 {
    ($p:literal) => {
        concat!(
            "ld1w {{z16.s}}, p0/z, [",
            $p,
            "]\n",
            "ld1w {{z17.s}}, p0/z, [",
            $p,
            ", #1, mul vl]\n",
            "ld1w {{z18.s}}, p0/z, [",
            $p,
            ", #2, mul vl]\n",
            "ld1w {{z19.s}}, p0/z, [",
            $p,
            ", #3, mul vl]\n",
            "ld1w {{z20.s}}, p0/z, [",
            $p,
            ", #4, mul vl]\n",
            "ld1w {{z21.s}}, p0/z, [",
            $p,
            ", #5, mul vl]\n",
            "ld1w {{z22.s}}, p0/z, [",
            $p,
            ", #6, mul vl]\n",
            "ld1w {{z23.s}}, p0/z, [",
            $p,
            ", #7, mul vl]\n",
            "addvl ",
            $p,
            ", ",
            $p,
            ", #8\n",
            "ld1w {{z24.s}}, p0/z, [",
            $p,
            "]\n",
            "ld1w {{z25.s}}, p0/z, [",
            $p,
            ", #1, mul vl]\n",
            "ld1w {{z26.s}}, p0/z, [",
            $p,
            ", #2, mul vl]\n",
            "ld1w {{z27.s}}, p0/z, [",
            $p,
            ", #3, mul vl]\n",
        )
    };
}

/// The same trailer with SME2 multi-vector loads (`$p` unchanged).
macro_rules! sme2_trailer_into_z16 {
    ($p:literal) => {
        concat!(
            "ld1w {{z16.s-z19.s}}, pn8/z, [",
            $p,
            "]\n",
            "ld1w {{z20.s-z23.s}}, pn8/z, [",
            $p,
            ", #4, mul vl]\n",
            "ld1w {{z24.s-z27.s}}, pn8/z, [",
            $p,
            ", #8, mul vl]\n",
        )
    };
}

/// p1-p4: the columns below `$n` of four vectors, counting from 0 in `$i`.
macro_rules! sme_column_predicates {
    ($i:literal, $n:literal) => {
        concat!(
            "mov ",
            $i,
            ", #0\n",
            "whilelt p1.s, ",
            $i,
            ", ",
            $n,
            "\n",
            "incw ",
            $i,
            "\n",
            "whilelt p2.s, ",
            $i,
            ", ",
            $n,
            "\n",
            "incw ",
            $i,
            "\n",
            "whilelt p3.s, ",
            $i,
            ", ",
            $n,
            "\n",
            "incw ",
            $i,
            "\n",
            "whilelt p4.s, ",
            $i,
            ", ",
            $n,
            "\n",
        )
    };
}

/// `$op z$r.s, p0/m, z$r.s, z$b.s` for the four vectors z$r0..z$r3 (`FMAX`/`FMIN` against a
/// bound in every lane).
macro_rules! each_vs {
    ($op:literal, $b:literal; $($r:literal),+) => {
        concat!($($op, " z", $r, ".s, p0/m, z", $r, ".s, z", $b, ".s\n",)+)
    };
}

/// SME2 frames' output element fragments, by the element type of `dst` (`f32`, or `u16` for
/// f16): `columns` sets pn9 to the columns below `$n` of one 4-vector group, `vectors` is the
/// vectors one group's row takes when stored; `store` stores the f32 values z$r0..z$r3 at `[$p]`
/// under pn9, for f16 after rounding them (nearest, ties to even) into z$t0/z$t1 (`FCVT`);
/// `clamp_store` clamps them with z$lo/z$hi (`FCLAMP`) first; `load` reads them back (for f16
/// through z$t0/z$t1, widened exactly).
macro_rules! sme2_output {
    (f32, columns, $n:literal) => {
        concat!("whilelt pn9.s, xzr, ", $n, ", vlx4\n")
    };
    (u16, columns, $n:literal) => {
        concat!("whilelt pn9.h, xzr, ", $n, ", vlx2\n")
    };
    (f32, vectors) => {
        "4"
    };
    (u16, vectors) => {
        "2"
    };
    ($elem:tt, clamp_store, $r0:literal, $r1:literal, $r2:literal, $r3:literal; $t0:literal,
     $t1:literal; $lo:literal, $hi:literal; $p:literal) => {
        concat!(
            "fclamp {{z", $r0, ".s-z", $r3, ".s}}, z", $lo, ".s, z", $hi, ".s\n",
            sme2_output!($elem, store, $r0, $r1, $r2, $r3; $t0, $t1; $p),
        )
    };
    (f32, store, $r0:literal, $r1:literal, $r2:literal, $r3:literal; $t0:literal,
     $t1:literal; $p:literal) => {
        concat!("st1w {{z", $r0, ".s-z", $r3, ".s}}, pn9, [", $p, "]\n")
    };
    (u16, store, $r0:literal, $r1:literal, $r2:literal, $r3:literal; $t0:literal,
     $t1:literal; $p:literal) => {
        concat!(
            "fcvt z", $t0, ".h, {{z", $r0, ".s-z", $r1, ".s}}\n",
            "fcvt z", $t1, ".h, {{z", $r2, ".s-z", $r3, ".s}}\n",
            "st1h {{z", $t0, ".h-z", $t1, ".h}}, pn9, [", $p, "]\n",
        )
    };
    (f32, load, $r0:literal, $r1:literal, $r2:literal, $r3:literal; $t0:literal,
     $t1:literal; $p:literal) => {
        concat!("ld1w {{z", $r0, ".s-z", $r3, ".s}}, pn9/z, [", $p, "]\n")
    };
    (u16, load, $r0:literal, $r1:literal, $r2:literal, $r3:literal; $t0:literal,
     $t1:literal; $p:literal) => {
        concat!(
            "ld1h {{z", $t0, ".h-z", $t1, ".h}}, pn9/z, [", $p, "]\n",
            "uunpklo z", $r0, ".s, z", $t0, ".h\n",
            "uunpkhi z", $r1, ".s, z", $t0, ".h\n",
            "uunpklo z", $r2, ".s, z", $t1, ".h\n",
            "uunpkhi z", $r3, ".s, z", $t1, ".h\n",
            "fcvt z", $r0, ".s, p0/m, z", $r0, ".h\n",
            "fcvt z", $r1, ".s, p0/m, z", $r1, ".h\n",
            "fcvt z", $r2, ".s, p0/m, z", $r2, ".h\n",
            "fcvt z", $r3, ".s, p0/m, z", $r3, ".h\n",
        )
    };
}

/// `ST1W` of z$r0..z$r3 at `[$p]`, one vector each under p1..p4.
macro_rules! sme_store4 {
    ($p:literal; $r0:literal, $r1:literal, $r2:literal, $r3:literal) => {
        concat!(
            "st1w {{z",
            $r0,
            ".s}}, p1, [",
            $p,
            "]\n",
            "st1w {{z",
            $r1,
            ".s}}, p2, [",
            $p,
            ", #1, mul vl]\n",
            "st1w {{z",
            $r2,
            ".s}}, p3, [",
            $p,
            ", #2, mul vl]\n",
            "st1w {{z",
            $r3,
            ".s}}, p4, [",
            $p,
            ", #3, mul vl]\n",
        )
    };
}

/// Every GEMM frame's row-group loop head (label 1; x15 rows of this group, x8 the RHS group
/// pointer, x13 columns left, x14 the column group's dst) before the column-group label 2.
macro_rules! mopa_row_group_head {
    () => {
        concat!(
            "1:\n",
            "cmp x0, x17\n",
            "csel x15, x0, x17, lt\n",
            "mov x8, x4\n",
            "mov x13, x1\n",
            "mov x14, x5\n",
            "2:\n",
        )
    };
}

/// Every GEMM frame's loop tails: next column group (`$vectors` of output per row), next row
/// group (x3, x5 and x0 by the row group).
macro_rules! mopa_group_tails {
    ($vectors:expr) => {
        concat!(
            "add x8, x8, x9\n",
            "addvl x14, x14, #",
            $vectors,
            "\n",
            "subs x13, x13, x17, lsl #2\n",
            "b.gt 2b\n",
            "add x3, x3, x7\n",
            "madd x5, x6, x17, x5\n",
            "subs x0, x0, x17\n",
            "b.gt 1b\n",
        )
    };
}

/// The per-channel GEMM frames' loop heads: row groups, then column groups (x16, x20, x21 at
/// the group's LHS, RHS and K count).
macro_rules! mopa_loop_heads {
    () => {
        concat!(
            mopa_row_group_head!(),
            "mov x16, x3\n",
            "mov x20, x8\n",
            "mov x21, x2\n",
        )
    };
}

/// The GEMM frames' output-row pointers after the K loop: x22 dst, x23/x24 the LHS offsets and
/// scales of the group, x21 rows to store.
macro_rules! mopa_row_pointers {
    () => {
        concat!(
            "mov x22, x14\n",
            "mov x23, x16\n",
            "addvl x24, x16, #1\n",
            "mov x21, x15\n",
        )
    };
}

/// One output row of a GEMM in z4-z7 from its accumulators: `+ lhs_offset * rsum`, then (after
/// `$convert`, the `SCVTF`) times `lhs_scale * rscale`, plus the bias.
macro_rules! mopa_finish_row {
    ($convert:expr) => {
        concat!(
            "mla z4.s, p0/m, z16.s, z0.s\n",
            "mla z5.s, p0/m, z17.s, z0.s\n",
            "mla z6.s, p0/m, z18.s, z0.s\n",
            "mla z7.s, p0/m, z19.s, z0.s\n",
            $convert,
            "fmul z8.s, z1.s, z20.s\n",
            "fmul z9.s, z1.s, z21.s\n",
            "fmul z10.s, z1.s, z22.s\n",
            "fmul z11.s, z1.s, z23.s\n",
            "fmul z4.s, z4.s, z8.s\n",
            "fmul z5.s, z5.s, z9.s\n",
            "fmul z6.s, z6.s, z10.s\n",
            "fmul z7.s, z7.s, z11.s\n",
            "fadd z4.s, z4.s, z24.s\n",
            "fadd z5.s, z5.s, z25.s\n",
            "fadd z6.s, z6.s, z26.s\n",
            "fadd z7.s, z7.s, z27.s\n",
        )
    };
}

/// The per-channel GEMM frames' loop tails: next output row (the tile slice advances by
/// `$slice`), then [`mopa_group_tails`].
macro_rules! mopa_loop_tails {
    ($slice:literal, $vectors:expr) => {
        concat!(
            "add x22, x22, x6\n",
            "add x23, x23, #4\n",
            "add x24, x24, #4\n",
            "add x12, x12, #",
            $slice,
            "\n",
            "subs x21, x21, #1\n",
            "b.ne 4b\n",
            mopa_group_tails!($vectors),
        )
    };
}

/// The GEMV frames' loop heads after the column group's predicates (`$predicates`): rows (x13
/// the row's LHS, x15 its dst), then the K pointers (x14 RHS, x16 K count).
macro_rules! dot_loop_heads {
    ($predicates:expr) => {
        concat!(
            "1:\n",
            $predicates,
            "mov x12, x0\n",
            "mov x13, x3\n",
            "mov x15, x5\n",
            "2:\n",
            "mov x14, x4\n",
            "mov x16, x2\n",
        )
    };
}

/// The GEMV frames' combined scale `rscale * lhs_scale` (z1) in z20-z23.
macro_rules! dot_scales {
    () => {
        concat!(
            "fmul z20.s, z20.s, z1.s\n",
            "fmul z21.s, z21.s, z1.s\n",
            "fmul z22.s, z22.s, z1.s\n",
            "fmul z23.s, z23.s, z1.s\n",
        )
    };
}

/// The GEMV frames' loop tails: next row (`$next_lhs` moves x13 to its LHS), next column group
/// (`$vectors` of output per row).
macro_rules! dot_loop_tails {
    ($next_lhs:expr, $vectors:expr) => {
        concat!(
            $next_lhs,
            "add x15, x15, x6\n",
            "subs x12, x12, #1\n",
            "b.ne 2b\n",
            "add x4, x4, x9\n",
            "addvl x5, x5, #",
            $vectors,
            "\n",
            "subs x1, x1, x17\n",
            "b.gt 1b\n",
        )
    };
}

/// The GEMM frames' `asm!` block: `$text` in streaming mode with the operands of every GEMM frame.
macro_rules! mopa_frame_asm {
    (
        $ext:literal; [$($text:expr),+ $(,)?];
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr; [$($extra:tt)*]
    ) => {
        streaming_asm!($ext; $($text),+;
            inout("x0") $m => _,
            in("x1") $n,
            in("x2") $k_int,
            inout("x3") $lhs => _,
            in("x4") $rhs,
            inout("x5") $dst => _,
            in("x6") $dst_stride_row,
            in("x7") $lhs_stride,
            out("x8") _,
            in("x9") $rhs_stride,
            in("x10") $clamp_min.to_bits() as usize,
            in("x11") $clamp_max.to_bits() as usize,
            out("x12") _,
            out("x13") _,
            out("x14") _,
            out("x15") _,
            out("x16") _,
            out("x17") _,
            out("x20") _,
            out("x21") _,
            out("x22") _,
            out("x23") _,
            out("x24") _,
            $($extra)*
        )
    };
}

/// The GEMV frames' `asm!` block: `$text` in streaming mode with the operands of every GEMV frame.
macro_rules! dot_frame_asm {
    (
        $ext:literal; [$($text:expr),+ $(,)?];
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr; [$($extra:tt)*]
    ) => {
        streaming_asm!($ext; $($text),+;
            in("x0") $m,
            inout("x1") $n => _,
            in("x2") $k_int,
            in("x3") $lhs,
            inout("x4") $rhs => _,
            inout("x5") $dst => _,
            in("x6") $dst_stride_row,
            out("x8") _,
            in("x9") $rhs_stride,
            in("x10") $clamp_min.to_bits() as usize,
            in("x11") $clamp_max.to_bits() as usize,
            out("x12") _,
            out("x13") _,
            out("x14") _,
            out("x15") _,
            out("x16") _,
            out("x17") _,
            $($extra)*
        )
    };
}

/// The `1vlx4vl` SME2 GEMM of the `qai8dxp` per-channel families around its K loop: row groups of
/// `mr = SVL32` outside, column groups of `nr = 4 x SVL32` inside, then, per group, the integer
/// accumulators of ZA tiles `za0..za3` finished row by row (one multi-vector `MOVA` of byte-tile
/// slices per output row): `acc + lhs_offset * rsum`, `SCVTF`, times `lhs_scale * rscale`, plus
/// the bias (`FMUL`, `FADD`), `FCLAMP`, predicated multi-vector store.
///
/// The K loop (`k_loop`, with its own label `3` and branch) starts with `x16` at the group's LHS
/// data, `x20` at the column group's RHS data and `x21 = k_int`, and must leave `x16` at the
/// group's LHS offsets and `x20` at the column group's trailer (sums, scales, biases). It may use
/// `x21`, z0-z11 and z14-z31 (z12/z13 hold the clamp bounds) and `p0`/`pn8` (all lanes).
/// `setup` runs once after the frame's own set-up; `extra` operands follow the frame's. The
/// first argument is the element type of `dst` (`f32`, or `u16` for f16; see [`sme2_output`]).
///
/// Register map (the frame's; the K loop's registers are the kernel's):
///
/// ```text
/// x0  rows left (signed)           x12 ZA slice of the output row (4 x row)
/// x1  n                            x13 columns left in this row group (signed)
/// x2  k_int                        x14 dst of the column group's row 0
/// x3  LHS group pointer            x15 rows of this group to store
/// x4  rhs_packed                   x16 LHS pointer inside the group
/// x5  dst of the row group         x17 mr (CNTW)
/// x6  dst_stride_row               x20 RHS pointer inside the column group
/// x7  LHS group stride             x21 K values left
/// x8  RHS group pointer            x22 dst pointer of the output row
/// x9  RHS group stride             x23 / x24 the row's LHS offset / scale pointer
/// x10 / x11 clamp_min / clamp_max bits
///
/// z16-z27 after the K loop: rsum, rscale, bias of the column group
/// z4-z11  one output row; z12/z13 clamp_min / clamp_max in every lane
/// ZA      tiles za0..za3: columns [t x mr, (t + 1) x mr) of the group
/// p0/pn8  all lanes; pn9 the group's columns below n
/// ```
macro_rules! sme2_mopa_frame {
    (
        $elem:tt;
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        mopa_frame_asm!("sme2"; [
            "ptrue p0.b",
            "ptrue pn8.b",
            "cntw x17",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            mopa_loop_heads!(),
            "zero {{za}}",
            $($k_loop,)+
            // ---- epilogue: x16 -> the group's LHS offsets, x20 -> the RHS trailer ----
            sme2_trailer_into_z16!("x20"),
            sme2_output!($elem, columns, "x13"),
            "mov x12, #0",
            mopa_row_pointers!(),
            // ---- one output row per iteration (ZA array rows 4r .. 4r + 4) ----
            "4:",
            "ld1rw {{z0.s}}, p0/z, [x23]",
            "ld1rw {{z1.s}}, p0/z, [x24]",
            "mova {{z4.b-z7.b}}, za0h.b[w12, 0:3]",
            mopa_finish_row!("scvtf {{z4.s-z7.s}}, {{z4.s-z7.s}}\n"),
            sme2_output!($elem, clamp_store, 4, 5, 6, 7; 8, 9; 12, 13; "x22"),
            mopa_loop_tails!(4, sme2_output!($elem, vectors)),
        ];
            $m, $n, $k_int, $lhs, $rhs, $dst, $dst_stride_row, $lhs_stride, $rhs_stride,
            $clamp_min, $clamp_max; [$($extra)*]
        )
    };
}

/// The `1vlx4vl` SME GEMM frame (as [`sme2_mopa_frame`], with single-vector loads, `MOVA` of word
/// slices, `FMAX`/`FMIN` and one store predicate per vector, for CPUs without SME2). The K loop
/// has the same contract (it may also use p5-p15). Register map: as [`sme2_mopa_frame`]'s,
/// except that x12 is the output row's tile slice and p1-p4 the group's columns below n, one
/// predicate per vector.
macro_rules! sme_mopa_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        mopa_frame_asm!("sme"; [
            "ptrue p0.b",
            "cntw x17",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            mopa_loop_heads!(),
            "zero {{za}}",
            $($k_loop,)+
            // ---- epilogue: x16 -> the group's LHS offsets, x20 -> the RHS trailer ----
            sme_trailer_into_z16!("x20"),
            sme_column_predicates!("x12", "x13"),
            "mov x12, #0",
            mopa_row_pointers!(),
            // ---- one output row per iteration (tile slice r of za0..za3) ----
            "4:",
            "ld1rw {{z0.s}}, p0/z, [x23]",
            "ld1rw {{z1.s}}, p0/z, [x24]",
            "mova z4.s, p0/m, za0h.s[w12, 0]",
            "mova z5.s, p0/m, za1h.s[w12, 0]",
            "mova z6.s, p0/m, za2h.s[w12, 0]",
            "mova z7.s, p0/m, za3h.s[w12, 0]",
            mopa_finish_row!(concat!(
                "scvtf z4.s, p0/m, z4.s\n",
                "scvtf z5.s, p0/m, z5.s\n",
                "scvtf z6.s, p0/m, z6.s\n",
                "scvtf z7.s, p0/m, z7.s\n",
            )),
            each_vs!("fmax", 12; 4, 5, 6, 7),
            each_vs!("fmin", 13; 4, 5, 6, 7),
            sme_store4!("x22"; 4, 5, 6, 7),
            mopa_loop_tails!(1, "4"),
        ];
            $m, $n, $k_int, $lhs, $rhs, $dst, $dst_stride_row, $lhs_stride, $rhs_stride,
            $clamp_min, $clamp_max; [$($extra)*]
        )
    };
}

/// The `1x4vl` SME2 GEMV of the `qai8dxp` per-channel families around its K loop: column groups of
/// `nr = SVL bytes` outside, rows inside; after the K loop the four ZA vector groups `w8 + 0..3`
/// (one accumulation chain each) are summed, and the row is finished: `acc + lhs_offset * rsum`,
/// `SCVTF`, `FMLA` into the bias with `rscale * lhs_scale`, `FCLAMP`, predicated store.
///
/// The K loop (`k_loop`, with its own label `3` and branch) starts with `x13` at the row's LHS
/// data, `x14` at the column group's RHS data and `x16 = k_int`, accumulates into ZA vector groups
/// `[w8, 0..3, vgx4]`, and must leave `x13` at the row's offset and scale and `x14` at the
/// group's trailer. It may use `x16`, z0-z11 and z14-z31 (z12/z13 hold the clamp bounds) and
/// `p0`/`pn8` (all lanes). `setup` runs once after the frame's own set-up; `extra` operands follow
/// the frame's. The first argument is the element type of `dst` (as for [`sme2_mopa_frame`]).
///
/// Register map (the frame's; the K loop's registers are the kernel's):
///
/// ```text
/// x0  m                            x8  0 (ZA vector select)
/// x1  columns left (signed)        x12 rows left in this column group
/// x2  k_int                        x13 LHS pointer (walks the rows)
/// x3  lhs_packed                   x14 RHS pointer inside the group
/// x4  RHS group pointer            x15 dst pointer of the current row
/// x5  dst of the group's column 0  x16 K values left
/// x6  dst_stride_row               x17 nr (RDSVL)
/// x9  RHS group stride             x10 / x11 clamp_min / clamp_max bits
///
/// z4-z11  accumulators read from ZA; z12/z13 clamp_min / clamp_max in every lane
/// ZA      vector groups 0..3: the K loop's accumulation chains
/// p0/pn8  all lanes; pn9 the group's columns below n
/// ```
macro_rules! sme2_dot_frame {
    (
        $elem:tt;
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        dot_frame_asm!("sme2"; [
            "ptrue p0.b",
            "ptrue pn8.b",
            "mov x8, #0",
            "rdsvl x17, #1",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            dot_loop_heads!(sme2_output!($elem, columns, "x1")),
            "zero {{za}}",
            $($k_loop,)+
            // ---- epilogue: x13 -> the row's offset and scale, x14 -> the group's trailer ----
            "mova {{z4.d-z7.d}}, za.d[w8, 0, vgx4]",
            "mova {{z8.d-z11.d}}, za.d[w8, 1, vgx4]",
            "add z4.s, z4.s, z8.s",
            "add z5.s, z5.s, z9.s",
            "add z6.s, z6.s, z10.s",
            "add z7.s, z7.s, z11.s",
            "mova {{z8.d-z11.d}}, za.d[w8, 2, vgx4]",
            "add z4.s, z4.s, z8.s",
            "add z5.s, z5.s, z9.s",
            "add z6.s, z6.s, z10.s",
            "add z7.s, z7.s, z11.s",
            "mova {{z8.d-z11.d}}, za.d[w8, 3, vgx4]",
            "add z4.s, z4.s, z8.s",
            "add z5.s, z5.s, z9.s",
            "add z6.s, z6.s, z10.s",
            "add z7.s, z7.s, z11.s",
            "ld1rw {{z0.s}}, p0/z, [x13]",
            "ld1rw {{z1.s}}, p0/z, [x13, #4]",
            sme2_trailer_into_z16!("x14"),
            "mla z4.s, p0/m, z16.s, z0.s",
            "mla z5.s, p0/m, z17.s, z0.s",
            "mla z6.s, p0/m, z18.s, z0.s",
            "mla z7.s, p0/m, z19.s, z0.s",
            "scvtf {{z4.s-z7.s}}, {{z4.s-z7.s}}",
            dot_scales!(),
            "fmla z24.s, p0/m, z20.s, z4.s",
            "fmla z25.s, p0/m, z21.s, z5.s",
            "fmla z26.s, p0/m, z22.s, z6.s",
            "fmla z27.s, p0/m, z23.s, z7.s",
            sme2_output!($elem, clamp_store, 24, 25, 26, 27; 28, 29; 12, 13; "x15"),
            dot_loop_tails!("add x13, x13, #8\n", sme2_output!($elem, vectors)),
        ];
            $m, $n, $k_int, $lhs, $rhs, $dst, $dst_stride_row, $rhs_stride,
            $clamp_min, $clamp_max; [$($extra)*]
        )
    };
}

/// The `1x4vl` SME GEMV frame (as [`sme2_dot_frame`], for CPUs without SME2): the K loop
/// accumulates into vectors z8-z11 and z12-z15 (summed afterwards) instead of ZA, which the frame
/// zeroes for every row; clamp bounds live in z2/z3, so the K loop may use z0, z1, z4-z7 and
/// z16-z31, and p5-p15. Register map: as [`sme2_dot_frame`]'s, except that x8 is scratch (the
/// column index of a predicate), z2/z3 hold clamp_min / clamp_max and p1-p4 the group's columns
/// below n, one predicate per vector.
macro_rules! sme_dot_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        dot_frame_asm!("sme"; [
            "ptrue p0.b",
            "rdsvl x17, #1",
            "mov z2.s, w10",
            "mov z3.s, w11",
            $($setup,)*
            dot_loop_heads!(sme_column_predicates!("x8", "x1")),
            "mov z8.s, #0",
            "mov z9.s, #0",
            "mov z10.s, #0",
            "mov z11.s, #0",
            "mov z12.s, #0",
            "mov z13.s, #0",
            "mov z14.s, #0",
            "mov z15.s, #0",
            $($k_loop,)+
            // ---- epilogue: x13 -> the row's offset and scale, x14 -> the group's trailer ----
            "add z8.s, z8.s, z12.s",
            "add z9.s, z9.s, z13.s",
            "add z10.s, z10.s, z14.s",
            "add z11.s, z11.s, z15.s",
            "ld1rw {{z0.s}}, p0/z, [x13]",
            "ld1rw {{z1.s}}, p0/z, [x13, #4]",
            sme_trailer_into_z16!("x14"),
            "mla z8.s, p0/m, z16.s, z0.s",
            "mla z9.s, p0/m, z17.s, z0.s",
            "mla z10.s, p0/m, z18.s, z0.s",
            "mla z11.s, p0/m, z19.s, z0.s",
            "scvtf z8.s, p0/m, z8.s",
            "scvtf z9.s, p0/m, z9.s",
            "scvtf z10.s, p0/m, z10.s",
            "scvtf z11.s, p0/m, z11.s",
            dot_scales!(),
            "fmla z24.s, p0/m, z20.s, z8.s",
            "fmla z25.s, p0/m, z21.s, z9.s",
            "fmla z26.s, p0/m, z22.s, z10.s",
            "fmla z27.s, p0/m, z23.s, z11.s",
            each_vs!("fmax", 2; 24, 25, 26, 27),
            each_vs!("fmin", 3; 24, 25, 26, 27),
            sme_store4!("x15"; 24, 25, 26, 27),
            dot_loop_tails!("add x13, x13, #8\n", "4"),
        ];
            $m, $n, $k_int, $lhs, $rhs, $dst, $dst_stride_row, $rhs_stride,
            $clamp_min, $clamp_max; [$($extra)*]
        )
    };
}

/// A kernel of the `qai8dxp` per-channel families around one of the four frames above: the
/// frame, the bytes per weight (`int8`, or `int4`: two per byte), and the kernel's `setup`,
/// `k_loop` and `extra` text; the rest (the integer K `k_int`, the group strides from the
/// streaming length, the lazy-ZA commit, the `unsafe` block) is the same in all of them. SME2
/// kernels may add their f16-output form (`f16 { ... }`: `pub mod f16` with the same code
/// storing `u16`). A kernel's file says in a comment over the invocation what its K loop reads.
macro_rules! qai8dxp_streaming_kernel {
    (
        $(#[$doc:meta])* fn $name:ident;
        $(#[$f16_mod_doc:meta])* f16 { $(#[$f16_doc:meta])* fn $f16_name:ident; }
        $frame:ident, $weights:ident;
        setup: [$($setup:tt)*]; k_loop: [$($k_loop:tt)*]; extra: [$($extra:tt)*];
    ) => {
        qai8dxp_streaming_kernel!(@one $(#[$doc])* $name, f32, $frame, $weights;
            [$($setup)*] [$($k_loop)*] [$($extra)*]);
        $(#[$f16_mod_doc])*
        pub mod f16 {
            qai8dxp_streaming_kernel!(@one $(#[$f16_doc])* $f16_name, u16, $frame, $weights;
                [$($setup)*] [$($k_loop)*] [$($extra)*]);
        }
    };
    (
        $(#[$doc:meta])* fn $name:ident;
        $frame:ident, $weights:ident;
        setup: [$($setup:tt)*]; k_loop: [$($k_loop:tt)*]; extra: [$($extra:tt)*];
    ) => {
        qai8dxp_streaming_kernel!(@one $(#[$doc])* $name, f32, $frame, $weights;
            [$($setup)*] [$($k_loop)*] [$($extra)*]);
    };
    (@one $(#[$doc:meta])* $name:ident, $elem:tt, $frame:ident, $weights:ident;
        [$($setup:tt)*] [$($k_loop:tt)*] [$($extra:tt)*]) => {
        streaming_kernel! {
        $(#[$doc])*
        fn $name(
            m, n, k, lhs_packed, rhs_packed, dst: $elem, dst_stride_row, clamp_min, clamp_max,
        ) {
            // K as the packers pad it (whole 32-value chunks), and one RHS group: nr = 4 x SVL32
            // columns of k_int weights and their 12-byte trailers.
            let k_int = k.div_ceil(32) * 32;
            let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
            let rhs_group = svl * (qai8dxp_streaming_kernel!(@bytes $weights, k_int) + 12);
            // SAFETY: the caller guarantees (see `# Safety`) the kernel's ISA and that the packed
            // buffers cover the bytes its K loop reads (ceil(n / nr) RHS groups of `rhs_group`
            // bytes, and m LHS rows of k_int + 8 bytes, or ceil(m / mr) groups of mr = SVL32
            // such rows, each read exactly, including rows and columns past m and n); tables
            // its `extra` operands point to are static. The frame covers dst, streaming mode and
            // registers (see the module documentation).
            unsafe {
                qai8dxp_streaming_kernel!(@frame $frame, $elem;
                    m, n, k_int, lhs_packed, rhs_packed, dst, dst_stride_row,
                    svl / 4 * (k_int + 8), rhs_group, clamp_min, clamp_max;
                    setup: [$($setup)*];
                    k_loop: [$($k_loop)*];
                    extra: [$($extra)*];
                );
            }
        }
        }
    };
    (@bytes int8, $k:ident) => { $k };
    (@bytes int4, $k:ident) => { $k / 2 };
    // The GEMV frames read one LHS row at a time and take no group stride; the SME (not SME2)
    // frames store f32 only.
    (@frame sme2_mopa_frame, $elem:tt; $($args:tt)*) => { sme2_mopa_frame!($elem; $($args)*) };
    (@frame sme_mopa_frame, f32; $($args:tt)*) => { sme_mopa_frame!($($args)*) };
    (@frame sme2_dot_frame, $elem:tt; $m:ident, $n:ident, $k:ident, $l:ident, $r:ident,
        $d:ident, $ds:ident, $lhs_group:expr, $($args:tt)*) => {
        sme2_dot_frame!($elem; $m, $n, $k, $l, $r, $d, $ds, $($args)*)
    };
    (@frame sme_dot_frame, f32; $m:ident, $n:ident, $k:ident, $l:ident, $r:ident,
        $d:ident, $ds:ident, $lhs_group:expr, $($args:tt)*) => {
        sme_dot_frame!($m, $n, $k, $l, $r, $d, $ds, $($args)*)
    };
}

// ---- the per-block (`c32`) families: int4 weights with scales per block of `bl` K values ----

/// One 16-value step of the per-block SME2 GEMVs: the packed RHS vector groups at `[x14, #$o0,
/// mul vl]` and `[x14, #$o1, mul vl]` (four 4-value K steps of two vectors) widened by `LUTI4`
/// through ZT0 into z4-z15 and z28-z31, and multi-vector `SDOT`s of them by the four 4-value
/// blocks of the 16 activations in z$a into ZA vector group `w8 + 0`.
macro_rules! luti4_sdot_step {
    ($a:literal; $o0:literal, $o1:literal) => {
        concat!(
            "ld1b {{z16.b-z19.b}}, pn8/z, [x14, #", $o0, ", mul vl]\n",
            "ld1b {{z20.b-z23.b}}, pn8/z, [x14, #", $o1, ", mul vl]\n",
            "luti4 {{z4.b-z5.b}}, zt0, z16[0]\n",
            "luti4 {{z6.b-z7.b}}, zt0, z17[0]\n",
            "luti4 {{z8.b-z9.b}}, zt0, z18[0]\n",
            "luti4 {{z10.b-z11.b}}, zt0, z19[0]\n",
            "luti4 {{z12.b-z13.b}}, zt0, z20[0]\n",
            "luti4 {{z14.b-z15.b}}, zt0, z21[0]\n",
            "luti4 {{z28.b-z29.b}}, zt0, z22[0]\n",
            "luti4 {{z30.b-z31.b}}, zt0, z23[0]\n",
            "sdot za.s[w8, 0, vgx4], {{z4.b-z7.b}}, z", $a, ".b[0]\n",
            "sdot za.s[w8, 0, vgx4], {{z8.b-z11.b}}, z", $a, ".b[1]\n",
            "sdot za.s[w8, 0, vgx4], {{z12.b-z15.b}}, z", $a, ".b[2]\n",
            "sdot za.s[w8, 0, vgx4], {{z28.b-z31.b}}, z", $a, ".b[3]\n",
        )
    };
}

/// The 16-value K loop (label 4) of the per-block SME2 GEMVs whose LHS rows are plain int8 runs:
/// the 16 activations at `x13` broadcast per 128-bit segment (z0), one [`luti4_sdot_step`];
/// `x21` counts the block's K.
macro_rules! luti4_sdot_k16_loop {
    () => {
        concat!(
            "4:\n",
            "ld1rqb {{z0.b}}, p0/z, [x13]\n",
            luti4_sdot_step!(0; 0, 4),
            "addvl x14, x14, #8\n",
            "add x13, x13, #16\n",
            "subs x21, x21, #16\n",
            "b.ne 4b\n",
        )
    };
}

/// The 8-value K loop (label 4) of the per-block SME2 GEMMs whose LHS steps are one vector
/// each: two LHS steps at `x23` (z4/z5), two packed RHS steps at `x20` widened by `LUTI4`
/// through ZT0 (z8-z15, one vector per ZA tile), eight `SMOPA`s; `x21` counts the block's K.
macro_rules! luti4_smopa_k8_loop {
    () => {
        concat!(
            "4:\n",
            "ld1w {{z4.s-z5.s}}, pn8/z, [x23]\n",
            "ld1b {{z0.b-z3.b}}, pn8/z, [x20]\n",
            "luti4 {{z8.b-z9.b}}, zt0, z0[0]\n",
            "luti4 {{z10.b-z11.b}}, zt0, z1[0]\n",
            "luti4 {{z12.b-z13.b}}, zt0, z2[0]\n",
            "luti4 {{z14.b-z15.b}}, zt0, z3[0]\n",
            "smopa za0.s, p0/m, p0/m, z4.b, z8.b\n",
            "smopa za1.s, p0/m, p0/m, z4.b, z9.b\n",
            "smopa za2.s, p0/m, p0/m, z4.b, z10.b\n",
            "smopa za3.s, p0/m, p0/m, z4.b, z11.b\n",
            "smopa za0.s, p0/m, p0/m, z5.b, z12.b\n",
            "smopa za1.s, p0/m, p0/m, z5.b, z13.b\n",
            "smopa za2.s, p0/m, p0/m, z5.b, z14.b\n",
            "smopa za3.s, p0/m, p0/m, z5.b, z15.b\n",
            "addvl x23, x23, #2\n",
            "addvl x20, x20, #4\n",
            "subs x21, x21, #8\n",
            "b.ne 4b\n",
        )
    };
}

/// The `1x4vl` SME2 GEMV of the per-block families around its K loop and block fold: column
/// groups of `nr = SVL bytes` outside, rows inside, then the blocks. Per row the f32
/// accumulators z24-z27 start at `+0`; per block ZA is zeroed, the K loop runs, the block's
/// integer sums (ZA vector group `w8 + 0`) are converted into z20-z23 (`SCVTF`), `fold` forms the
/// block's four scale vectors z$s0..z$s3 (and may add terms of its own), and the frame adds the
/// sums times the scales into the accumulators (`FMLA`). After the blocks `row_end` finishes the
/// row into z$r0..z$r3 (with z$t0/z$t1 free for the f16 store), which the frame clamps (z2/z3)
/// and stores under pn9; `next_lhs` moves x13 to the next row's LHS.
///
/// Registers: x13 walks the row's LHS, x14 the column group's RHS (from `x4`), x16 counts the
/// blocks (`nb`, passed as `k_int` of [`dot_frame_asm`]), x21 = `bl` (x20) at the top of the K
/// loop (label 4, with its own branch); x7 is the ZT0 table. `row_setup` runs after the row's
/// pointers are set; `extra` operands follow the frame's. The first argument is the element
/// type of `dst` (see [`sme2_output`]).
///
/// Register map (the frame's; the kernel's text adds its own): the x registers of
/// [`sme2_dot_frame`]'s map, with x2 = `nb` and x16 the blocks left, plus x7 the ZT0 table,
/// x20 `bl` and x21 the K values left in the block; z24-z27 the row's f32 accumulators, z20-z23
/// a block's converted sums, z2/z3 clamp_min / clamp_max in every lane; ZA vector group 0 the
/// block's integer sums; p0/pn8 all lanes, pn9 the group's columns below n.
macro_rules! sme2_block_dot_frame {
    (
        $elem:tt;
        $m:expr, $n:expr, $nb:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $bl:expr, $table:expr, $clamp_min:expr, $clamp_max:expr;
        row_setup: [$($row_setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        fold: [$($fold:expr),+ $(,)?] => $s0:literal, $s1:literal, $s2:literal, $s3:literal;
        row_end: [$($row_end:expr),* $(,)?] => $r0:literal, $r1:literal, $r2:literal,
            $r3:literal; $t0:literal, $t1:literal;
        next_lhs: $next_lhs:expr;
        extra: [$($extra:tt)*] $(;)?
    ) => {
        dot_frame_asm!("sme2"; [
            "ptrue p0.b",
            "ptrue pn8.b",
            "mov x8, #0",
            "rdsvl x17, #1",
            "ldr zt0, [x7]",
            "mov z2.s, w10",
            "mov z3.s, w11",
            dot_loop_heads!(sme2_output!($elem, columns, "x1")),
            $($row_setup,)*
            "mov z24.s, #0",
            "mov z25.s, #0",
            "mov z26.s, #0",
            "mov z27.s, #0",
            // ---- loop over blocks ----
            "3:",
            "zero {{za}}",
            "mov x21, x20",
            $($k_loop,)+
            // ---- fold the block in ----
            "mova {{z20.d-z23.d}}, za.d[w8, 0, vgx4]",
            "scvtf {{z20.s-z23.s}}, {{z20.s-z23.s}}",
            $($fold,)+
            concat!("fmla z24.s, p0/m, z20.s, z", $s0, ".s"),
            concat!("fmla z25.s, p0/m, z21.s, z", $s1, ".s"),
            concat!("fmla z26.s, p0/m, z22.s, z", $s2, ".s"),
            concat!("fmla z27.s, p0/m, z23.s, z", $s3, ".s"),
            "subs x16, x16, #1",
            "b.ne 3b",
            // ---- row epilogue ----
            $($row_end,)*
            sme2_output!($elem, clamp_store, $r0, $r1, $r2, $r3; $t0, $t1; 2, 3; "x15"),
            dot_loop_tails!($next_lhs, sme2_output!($elem, vectors)),
        ];
            $m, $n, $nb, $lhs, $rhs, $dst, $dst_stride_row, $rhs_stride, $clamp_min, $clamp_max;
            [in("x7") $table, in("x20") $bl, out("x21") _, $($extra)*]
        )
    };
}

/// The `1vlx4vl` SME2 GEMM of the per-block families around its K loop, block fold and
/// epilogue: row groups of `mr = SVL32` outside, column groups of `nr = 4 x SVL32` inside, then
/// the blocks; per block ZA is zeroed, the K loop runs and `fold` folds the four ZA tiles into
/// the group's accumulators (kept in `dst` between blocks, by the kernels' choice). Without
/// `finish` the fold stores the final values itself; with it, after the blocks every row of the
/// group (x22 its dst, x26 rows left) is loaded into z20-z23, finished by `rows` (which also
/// advances the kernel's row pointers), clamped and stored (z12/z13 free for f16).
///
/// Registers: x23 / x20 the group's LHS / RHS (from `x3` / `x8`), x16 counts the blocks (x2 =
/// `nb`), x21 = `bl` (x24) at the top of the K loop (label 4, with its own branch), x14 the
/// column group's dst, x15 its rows; x25 is the ZT0 table, x12 / x26 the clamp bounds at entry,
/// moved into z$lo / z$hi (so x12, x25 and x26 are free afterwards). `group_setup` runs after
/// the column group's pointers are set; `extra` operands follow the frame's. The first argument
/// is the element type of `dst` (see [`sme2_output`]).
///
/// Register map (the frame's; the kernel's text adds its own):
///
/// ```text
/// x0  rows left (signed)           x13 columns left in this row group (signed)
/// x1  n                            x14 dst of the column group's row 0
/// x2  blocks per row (nb)          x15 rows of this group to store
/// x3  LHS group pointer            x16 blocks left
/// x4  rhs_packed                   x17 mr (CNTW)
/// x5  dst of the row group         x20 RHS pointer inside the column group
/// x6  dst_stride_row               x21 K values left in the block
/// x7  LHS group stride             x23 LHS pointer inside the group
/// x8  RHS group pointer            x24 bl
/// x9  RHS group stride             x12 / x26 / x25 at entry: clamp bounds, table
///
/// ZA      tiles za0..za3: the block's integer sums
/// p0/pn8  all lanes; pn9 the group's columns below n
/// ```
macro_rules! sme2_block_mopa_frame {
    (
        $elem:tt;
        $m:expr, $n:expr, $nb:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $bl:expr, $table:expr, $clamp_min:expr,
        $clamp_max:expr => $lo:literal, $hi:literal;
        group_setup: [$($group_setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        fold: [$($fold:expr),+ $(,)?];
        $(finish: [$($finish:expr),* $(,)?] rows: [$($rows:expr),+ $(,)?];)?
        extra: [$($extra:tt)*] $(;)?
    ) => {
        streaming_asm!("sme2";
            "ptrue p0.b",
            "ptrue pn8.b",
            "cntw x17",
            "ldr zt0, [x25]",
            concat!("mov z", $lo, ".s, w12"),
            concat!("mov z", $hi, ".s, w26"),
            mopa_row_group_head!(),
            sme2_output!($elem, columns, "x13"),
            "mov x23, x3",
            "mov x20, x8",
            $($group_setup,)*
            "mov x16, x2",
            // ---- loop over blocks ----
            "3:",
            "zero {{za}}",
            "mov x21, x24",
            $($k_loop,)+
            $($fold,)+
            "subs x16, x16, #1",
            "b.ne 3b",
            $(
                // ---- epilogue: one output row per iteration ----
                $($finish,)*
                "mov x22, x14",
                "mov x26, x15",
                "8:",
                sme2_output!($elem, load, 20, 21, 22, 23; 12, 13; "x22"),
                $($rows,)+
                sme2_output!($elem, clamp_store, 20, 21, 22, 23; 12, 13; $lo, $hi; "x22"),
                "add x22, x22, x6",
                "subs x26, x26, #1",
                "b.ne 8b",
            )?
            mopa_group_tails!(sme2_output!($elem, vectors));
            inout("x0") $m => _,
            in("x1") $n,
            in("x2") $nb,
            inout("x3") $lhs => _,
            in("x4") $rhs,
            inout("x5") $dst => _,
            in("x6") $dst_stride_row,
            in("x7") $lhs_stride,
            out("x8") _,
            in("x9") $rhs_stride,
            inout("x12") $clamp_min.to_bits() as usize => _,
            out("x13") _,
            out("x14") _,
            out("x15") _,
            out("x16") _,
            out("x17") _,
            out("x20") _,
            out("x21") _,
            out("x22") _,
            out("x23") _,
            in("x24") $bl,
            inout("x25") $table => _,
            inout("x26") $clamp_max.to_bits() as usize => _,
            $($extra)*
        )
    };
}
