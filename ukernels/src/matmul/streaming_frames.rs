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
/// `setup` runs once after the frame's own set-up; `extra` operands follow the frame's.
macro_rules! sme2_mopa_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        streaming_asm!("sme2";
            "ptrue p0.b",
            "ptrue pn8.b",
            "cntw x17",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            // ---- loop over row groups ----
            "1:",
            "cmp x0, x17",
            "csel x15, x0, x17, lt",
            "mov x8, x4",
            "mov x13, x1",
            "mov x14, x5",
            // ---- loop over column groups ----
            "2:",
            "mov x16, x3",
            "mov x20, x8",
            "mov x21, x2",
            "zero {{za}}",
            $($k_loop,)+
            // ---- epilogue: x16 -> the group's LHS offsets, x20 -> the RHS trailer ----
            "ld1w {{z16.s-z19.s}}, pn8/z, [x20]",
            "ld1w {{z20.s-z23.s}}, pn8/z, [x20, #4, mul vl]",
            "ld1w {{z24.s-z27.s}}, pn8/z, [x20, #8, mul vl]",
            "whilelt pn9.s, xzr, x13, vlx4",
            "mov x12, #0",
            "mov x22, x14",
            "mov x23, x16",
            "addvl x24, x16, #1",
            "mov x21, x15",
            // ---- one output row per iteration ----
            "4:",
            "ld1rw {{z0.s}}, p0/z, [x23]",
            "ld1rw {{z1.s}}, p0/z, [x24]",
            "mova {{z4.b-z7.b}}, za0h.b[w12, 0:3]",
            "mla z4.s, p0/m, z16.s, z0.s",
            "mla z5.s, p0/m, z17.s, z0.s",
            "mla z6.s, p0/m, z18.s, z0.s",
            "mla z7.s, p0/m, z19.s, z0.s",
            "scvtf {{z4.s-z7.s}}, {{z4.s-z7.s}}",
            "fmul z8.s, z1.s, z20.s",
            "fmul z9.s, z1.s, z21.s",
            "fmul z10.s, z1.s, z22.s",
            "fmul z11.s, z1.s, z23.s",
            "fmul z4.s, z4.s, z8.s",
            "fmul z5.s, z5.s, z9.s",
            "fmul z6.s, z6.s, z10.s",
            "fmul z7.s, z7.s, z11.s",
            "fadd z4.s, z4.s, z24.s",
            "fadd z5.s, z5.s, z25.s",
            "fadd z6.s, z6.s, z26.s",
            "fadd z7.s, z7.s, z27.s",
            "fclamp {{z4.s-z7.s}}, z12.s, z13.s",
            "st1w {{z4.s-z7.s}}, pn9, [x22]",
            "add x22, x22, x6",
            "add x23, x23, #4",
            "add x24, x24, #4",
            "add x12, x12, #4",
            "subs x21, x21, #1",
            "b.ne 4b",
            // ---- next column group ----
            "add x8, x8, x9",
            "addvl x14, x14, #4",
            "subs x13, x13, x17, lsl #2",
            "b.gt 2b",
            // ---- next row group ----
            "add x3, x3, x7",
            "madd x5, x6, x17, x5",
            "subs x0, x0, x17",
            "b.gt 1b";
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

/// The `1vlx4vl` SME GEMM frame (as [`sme2_mopa_frame`], with single-vector loads, `MOVA` of word
/// slices, `FMAX`/`FMIN` and one store predicate per vector, for CPUs without SME2). The K loop
/// has the same contract (it may also use p5-p15).
macro_rules! sme_mopa_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $lhs_stride:expr, $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        streaming_asm!("sme";
            "ptrue p0.b",
            "cntw x17",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            // ---- loop over row groups ----
            "1:",
            "cmp x0, x17",
            "csel x15, x0, x17, lt",
            "mov x8, x4",
            "mov x13, x1",
            "mov x14, x5",
            // ---- loop over column groups ----
            "2:",
            "mov x16, x3",
            "mov x20, x8",
            "mov x21, x2",
            "zero {{za}}",
            $($k_loop,)+
            // ---- epilogue: x16 -> the group's LHS offsets, x20 -> the RHS trailer ----
            "ld1w {{z16.s}}, p0/z, [x20]",
            "ld1w {{z17.s}}, p0/z, [x20, #1, mul vl]",
            "ld1w {{z18.s}}, p0/z, [x20, #2, mul vl]",
            "ld1w {{z19.s}}, p0/z, [x20, #3, mul vl]",
            "ld1w {{z20.s}}, p0/z, [x20, #4, mul vl]",
            "ld1w {{z21.s}}, p0/z, [x20, #5, mul vl]",
            "ld1w {{z22.s}}, p0/z, [x20, #6, mul vl]",
            "ld1w {{z23.s}}, p0/z, [x20, #7, mul vl]",
            "addvl x20, x20, #8",
            "ld1w {{z24.s}}, p0/z, [x20]",
            "ld1w {{z25.s}}, p0/z, [x20, #1, mul vl]",
            "ld1w {{z26.s}}, p0/z, [x20, #2, mul vl]",
            "ld1w {{z27.s}}, p0/z, [x20, #3, mul vl]",
            "mov x12, #0",
            "whilelt p1.s, x12, x13",
            "incw x12",
            "whilelt p2.s, x12, x13",
            "incw x12",
            "whilelt p3.s, x12, x13",
            "incw x12",
            "whilelt p4.s, x12, x13",
            "mov x12, #0",
            "mov x22, x14",
            "mov x23, x16",
            "addvl x24, x16, #1",
            "mov x21, x15",
            // ---- one output row per iteration ----
            "4:",
            "ld1rw {{z0.s}}, p0/z, [x23]",
            "ld1rw {{z1.s}}, p0/z, [x24]",
            "mova z4.s, p0/m, za0h.s[w12, 0]",
            "mova z5.s, p0/m, za1h.s[w12, 0]",
            "mova z6.s, p0/m, za2h.s[w12, 0]",
            "mova z7.s, p0/m, za3h.s[w12, 0]",
            "mla z4.s, p0/m, z16.s, z0.s",
            "mla z5.s, p0/m, z17.s, z0.s",
            "mla z6.s, p0/m, z18.s, z0.s",
            "mla z7.s, p0/m, z19.s, z0.s",
            "scvtf z4.s, p0/m, z4.s",
            "scvtf z5.s, p0/m, z5.s",
            "scvtf z6.s, p0/m, z6.s",
            "scvtf z7.s, p0/m, z7.s",
            "fmul z8.s, z1.s, z20.s",
            "fmul z9.s, z1.s, z21.s",
            "fmul z10.s, z1.s, z22.s",
            "fmul z11.s, z1.s, z23.s",
            "fmul z4.s, z4.s, z8.s",
            "fmul z5.s, z5.s, z9.s",
            "fmul z6.s, z6.s, z10.s",
            "fmul z7.s, z7.s, z11.s",
            "fadd z4.s, z4.s, z24.s",
            "fadd z5.s, z5.s, z25.s",
            "fadd z6.s, z6.s, z26.s",
            "fadd z7.s, z7.s, z27.s",
            "fmax z4.s, p0/m, z4.s, z12.s",
            "fmax z5.s, p0/m, z5.s, z12.s",
            "fmax z6.s, p0/m, z6.s, z12.s",
            "fmax z7.s, p0/m, z7.s, z12.s",
            "fmin z4.s, p0/m, z4.s, z13.s",
            "fmin z5.s, p0/m, z5.s, z13.s",
            "fmin z6.s, p0/m, z6.s, z13.s",
            "fmin z7.s, p0/m, z7.s, z13.s",
            "st1w {{z4.s}}, p1, [x22]",
            "st1w {{z5.s}}, p2, [x22, #1, mul vl]",
            "st1w {{z6.s}}, p3, [x22, #2, mul vl]",
            "st1w {{z7.s}}, p4, [x22, #3, mul vl]",
            "add x22, x22, x6",
            "add x23, x23, #4",
            "add x24, x24, #4",
            "add x12, x12, #1",
            "subs x21, x21, #1",
            "b.ne 4b",
            // ---- next column group ----
            "add x8, x8, x9",
            "addvl x14, x14, #4",
            "subs x13, x13, x17, lsl #2",
            "b.gt 2b",
            // ---- next row group ----
            "add x3, x3, x7",
            "madd x5, x6, x17, x5",
            "subs x0, x0, x17",
            "b.gt 1b";
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
/// the frame's.
macro_rules! sme2_dot_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        streaming_asm!("sme2";
            "ptrue p0.b",
            "ptrue pn8.b",
            "mov x8, #0",
            "rdsvl x17, #1",
            "mov z12.s, w10",
            "mov z13.s, w11",
            $($setup,)*
            // ---- loop over column groups ----
            "1:",
            "whilelt pn9.s, xzr, x1, vlx4",
            "mov x12, x0",
            "mov x13, x3",
            "mov x15, x5",
            // ---- loop over rows ----
            "2:",
            "mov x14, x4",
            "mov x16, x2",
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
            "ld1w {{z16.s-z19.s}}, pn8/z, [x14]",
            "ld1w {{z20.s-z23.s}}, pn8/z, [x14, #4, mul vl]",
            "ld1w {{z24.s-z27.s}}, pn8/z, [x14, #8, mul vl]",
            "mla z4.s, p0/m, z16.s, z0.s",
            "mla z5.s, p0/m, z17.s, z0.s",
            "mla z6.s, p0/m, z18.s, z0.s",
            "mla z7.s, p0/m, z19.s, z0.s",
            "scvtf {{z4.s-z7.s}}, {{z4.s-z7.s}}",
            "fmul z20.s, z20.s, z1.s",
            "fmul z21.s, z21.s, z1.s",
            "fmul z22.s, z22.s, z1.s",
            "fmul z23.s, z23.s, z1.s",
            "fmla z24.s, p0/m, z20.s, z4.s",
            "fmla z25.s, p0/m, z21.s, z5.s",
            "fmla z26.s, p0/m, z22.s, z6.s",
            "fmla z27.s, p0/m, z23.s, z7.s",
            "fclamp {{z24.s-z27.s}}, z12.s, z13.s",
            "st1w {{z24.s-z27.s}}, pn9, [x15]",
            "add x13, x13, #8",
            "add x15, x15, x6",
            "subs x12, x12, #1",
            "b.ne 2b",
            // ---- next column group ----
            "add x4, x4, x9",
            "addvl x5, x5, #4",
            "subs x1, x1, x17",
            "b.gt 1b";
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

/// The `1x4vl` SME GEMV frame (as [`sme2_dot_frame`], for CPUs without SME2): the K loop
/// accumulates into vectors z8-z11 and z12-z15 (summed afterwards) instead of ZA, which the frame
/// zeroes for every row; clamp bounds live in z2/z3, so the K loop may use z0, z1, z4-z7 and
/// z16-z31, and p5-p15.
macro_rules! sme_dot_frame {
    (
        $m:expr, $n:expr, $k_int:expr, $lhs:expr, $rhs:expr, $dst:expr, $dst_stride_row:expr,
        $rhs_stride:expr, $clamp_min:expr, $clamp_max:expr;
        setup: [$($setup:expr),* $(,)?];
        k_loop: [$($k_loop:expr),+ $(,)?];
        extra: [$($extra:tt)*] $(;)?
    ) => {
        streaming_asm!("sme";
            "ptrue p0.b",
            "rdsvl x17, #1",
            "mov z2.s, w10",
            "mov z3.s, w11",
            $($setup,)*
            // ---- loop over column groups ----
            "1:",
            "mov x8, #0",
            "whilelt p1.s, x8, x1",
            "incw x8",
            "whilelt p2.s, x8, x1",
            "incw x8",
            "whilelt p3.s, x8, x1",
            "incw x8",
            "whilelt p4.s, x8, x1",
            "mov x12, x0",
            "mov x13, x3",
            "mov x15, x5",
            // ---- loop over rows ----
            "2:",
            "mov x14, x4",
            "mov x16, x2",
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
            "ld1w {{z16.s}}, p0/z, [x14]",
            "ld1w {{z17.s}}, p0/z, [x14, #1, mul vl]",
            "ld1w {{z18.s}}, p0/z, [x14, #2, mul vl]",
            "ld1w {{z19.s}}, p0/z, [x14, #3, mul vl]",
            "ld1w {{z20.s}}, p0/z, [x14, #4, mul vl]",
            "ld1w {{z21.s}}, p0/z, [x14, #5, mul vl]",
            "ld1w {{z22.s}}, p0/z, [x14, #6, mul vl]",
            "ld1w {{z23.s}}, p0/z, [x14, #7, mul vl]",
            "addvl x14, x14, #8",
            "ld1w {{z24.s}}, p0/z, [x14]",
            "ld1w {{z25.s}}, p0/z, [x14, #1, mul vl]",
            "ld1w {{z26.s}}, p0/z, [x14, #2, mul vl]",
            "ld1w {{z27.s}}, p0/z, [x14, #3, mul vl]",
            "mla z8.s, p0/m, z16.s, z0.s",
            "mla z9.s, p0/m, z17.s, z0.s",
            "mla z10.s, p0/m, z18.s, z0.s",
            "mla z11.s, p0/m, z19.s, z0.s",
            "scvtf z8.s, p0/m, z8.s",
            "scvtf z9.s, p0/m, z9.s",
            "scvtf z10.s, p0/m, z10.s",
            "scvtf z11.s, p0/m, z11.s",
            "fmul z20.s, z20.s, z1.s",
            "fmul z21.s, z21.s, z1.s",
            "fmul z22.s, z22.s, z1.s",
            "fmul z23.s, z23.s, z1.s",
            "fmla z24.s, p0/m, z20.s, z8.s",
            "fmla z25.s, p0/m, z21.s, z9.s",
            "fmla z26.s, p0/m, z22.s, z10.s",
            "fmla z27.s, p0/m, z23.s, z11.s",
            "fmax z24.s, p0/m, z24.s, z2.s",
            "fmax z25.s, p0/m, z25.s, z2.s",
            "fmax z26.s, p0/m, z26.s, z2.s",
            "fmax z27.s, p0/m, z27.s, z2.s",
            "fmin z24.s, p0/m, z24.s, z3.s",
            "fmin z25.s, p0/m, z25.s, z3.s",
            "fmin z26.s, p0/m, z26.s, z3.s",
            "fmin z27.s, p0/m, z27.s, z3.s",
            "st1w {{z24.s}}, p1, [x15]",
            "st1w {{z25.s}}, p2, [x15, #1, mul vl]",
            "st1w {{z26.s}}, p3, [x15, #2, mul vl]",
            "st1w {{z27.s}}, p4, [x15, #3, mul vl]",
            "add x13, x13, #8",
            "add x15, x15, x6",
            "subs x12, x12, #1",
            "b.ne 2b",
            // ---- next column group ----
            "add x4, x4, x9",
            "addvl x5, x5, #4",
            "subs x1, x1, x17",
            "b.gt 1b";
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
