//! `kai_matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa`: the Q4_0 GEMM of the
//! `sme2_mopa` stem (same tile, LHS format, loop order and fold) for CPUs with SME but not SME2,
//! on the `ps4s0sf16` RHS of `rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon`: without `LUTI4`,
//! the nibbles are widened by shifting (`LSL #4` for the low ones, `AND #0xf0` for the high
//! ones, 16 x the values; the packer divided the scales by 16), single-vector loads and
//! tile-slice moves, and `FMAX`/`FMIN` instead of `FCLAMP`.
//!
//! One 8-value K packet of a column group is four vectors (4 bytes per column: values `8p + t`
//! low and `8p + t + 4` high in byte `t`), one per ZA tile; its low nibbles pair with the LHS
//! vector of K `8p .. 8p + 4`, its high ones with that of `8p + 4 .. 8p + 8`. The K loop takes
//! 16 values per iteration with immediate-offset loads: KleidiAI's loads and widening per outer
//! product, without its per-load address arithmetic.

/// The row loop of one block fold from local label `$l`: the row's sums from ZA, the scale
/// product, `$combine` (into z8-z11), the predicated stores and `b 8f` (the block's end).
macro_rules! fold_rows {
    ($l:literal; $($combine:expr),+ $(,)?) => {
        concat!(
            $l, ":\n",
            "mova z16.s, p0/m, za0h.s[w12, 0]\n",
            "mova z17.s, p0/m, za1h.s[w12, 0]\n",
            "mova z18.s, p0/m, za2h.s[w12, 0]\n",
            "mova z19.s, p0/m, za3h.s[w12, 0]\n",
            "scvtf z16.s, p0/m, z16.s\n",
            "scvtf z17.s, p0/m, z17.s\n",
            "scvtf z18.s, p0/m, z18.s\n",
            "scvtf z19.s, p0/m, z19.s\n",
            "ld1rh {{z1.h}}, p0/z, [x25]\n",
            "add x25, x25, #2\n",
            "mov z20.s, #0\n",
            "mov z21.s, #0\n",
            "mov z22.s, #0\n",
            "mov z23.s, #0\n",
            "fmlalb z20.s, z1.h, z24.h\n",
            "fmlalb z21.s, z1.h, z25.h\n",
            "fmlalt z22.s, z1.h, z24.h\n",
            "fmlalt z23.s, z1.h, z25.h\n",
            $($combine, "\n",)+
            "st1w {{z8.s}}, p2, [x22]\n",
            "st1w {{z9.s}}, p3, [x22, #1, mul vl]\n",
            "st1w {{z10.s}}, p4, [x22, #2, mul vl]\n",
            "st1w {{z11.s}}, p5, [x22, #3, mul vl]\n",
            "add x22, x22, x6\n",
            "add x12, x12, #1\n",
            "subs x26, x26, #1\n",
            "b.ne ", $l, "b\n",
            "b 8f",
        )
    };
}

/// `FMUL` of the first block.
macro_rules! later_block {
    () => {
        concat!(
            "ld1w {{z8.s}}, p2/z, [x22]\n",
            "ld1w {{z9.s}}, p3/z, [x22, #1, mul vl]\n",
            "ld1w {{z10.s}}, p4/z, [x22, #2, mul vl]\n",
            "ld1w {{z11.s}}, p5/z, [x22, #3, mul vl]\n",
            "fmla z8.s, p0/m, z20.s, z16.s\n",
            "fmla z9.s, p0/m, z21.s, z17.s\n",
            "fmla z10.s, p0/m, z22.s, z18.s\n",
            "fmla z11.s, p0/m, z23.s, z19.s",
        )
    };
}

/// `FMAX` with the lower bound, then `FMIN` with the upper.
macro_rules! clamp {
    () => {
        concat!(
            "fmax z8.s, p0/m, z8.s, z6.s\n",
            "fmax z9.s, p0/m, z9.s, z6.s\n",
            "fmax z10.s, p0/m, z10.s, z6.s\n",
            "fmax z11.s, p0/m, z11.s, z6.s\n",
            "fmin z8.s, p0/m, z8.s, z7.s\n",
            "fmin z9.s, p0/m, z9.s, z7.s\n",
            "fmin z10.s, p0/m, z10.s, z7.s\n",
            "fmin z11.s, p0/m, z11.s, z7.s",
        )
    };
}

streaming_kernel! {
    /// As the `sme2_mopa` kernel's function, with the RHS in the `ps4s0sf16` format (`w` read
    /// as 16 x the values, `wd` the scales divided by 16 as the packer rounds them) and
    /// `min(max(acc, clamp_min), clamp_max)` (FMAX, then FMIN: NaN stays NaN) as the clamp.
    ///
    /// RHS layout (one group of `nr` columns per `nr * nb * (bl / 2 + 2)` bytes): for every
    /// 8-value K packet, `nr` columns x 4 bytes (K `8p + t` in the low nibble of byte `t`,
    /// `8p + t + 4` in the high one, signed), then `wd: [[f16; nr]; nb]`.
    ///
    /// # Safety
    ///
    /// As for the `sme2_mopa` kernel, with SME instead of SME2.
    blockwise fn matmul_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;
        let nb = k / bl;

        // Register map as in the `sme2_mopa` kernel (its frame's and its own), except:
        //   x12     the output row's tile slice (row index); at a column group's start, scratch
        //   x25     the row's LHS scale
        //   K loop: z0-z3 LHS (four 4-value K steps); z16-z23 packed RHS (two packets); z24-z27,
        //           z28-z31 packet 0 widened (low, high), z8-z11, z12-z15 packet 1; z4 0xf0
        //   fold:   as in the `sme2_mopa` kernel; z6/z7 clamp_min / clamp_max in every lane
        //   p2-p5   the group's columns below n, one predicate per vector
        //
        // SAFETY: as in the `sme2_mopa` kernel (same reads, same predicated loads and stores of
        // dst), with SME.
        unsafe {
            streaming_asm!("sme";
                "ptrue p0.b",
                "cntw x17",
                "mov z6.s, w12",
                "mov z7.s, w26",
                "dup z4.b, #-16",
                // ---- loop over row groups, then column groups ----
                mopa_row_group_head!(),
                "mov x12, #0",
                "whilelt p2.s, x12, x13",
                "incw x12",
                "whilelt p3.s, x12, x13",
                "incw x12",
                "whilelt p4.s, x12, x13",
                "incw x12",
                "whilelt p5.s, x12, x13",
                "mov x23, x3",
                "mov x20, x8",
                "add x27, x3, x11",
                "add x28, x8, x10",
                "mov x16, x2",
                // ---- loop over blocks ----
                "3:",
                "zero {{za}}",
                "mov x21, x24",
                // ---- 16 K values per iteration ----
                "4:",
                "ld1w {{z0.s}}, p0/z, [x23]",
                "ld1w {{z1.s}}, p0/z, [x23, #1, mul vl]",
                "ld1w {{z2.s}}, p0/z, [x23, #2, mul vl]",
                "ld1w {{z3.s}}, p0/z, [x23, #3, mul vl]",
                ld1b_z16_to_z23!("x20"),
                "lsl z24.b, z16.b, #4",
                "lsl z25.b, z17.b, #4",
                "lsl z26.b, z18.b, #4",
                "lsl z27.b, z19.b, #4",
                "smopa za0.s, p0/m, p0/m, z0.b, z24.b",
                "smopa za1.s, p0/m, p0/m, z0.b, z25.b",
                "smopa za2.s, p0/m, p0/m, z0.b, z26.b",
                "smopa za3.s, p0/m, p0/m, z0.b, z27.b",
                "and z28.d, z16.d, z4.d",
                "and z29.d, z17.d, z4.d",
                "and z30.d, z18.d, z4.d",
                "and z31.d, z19.d, z4.d",
                "smopa za0.s, p0/m, p0/m, z1.b, z28.b",
                "smopa za1.s, p0/m, p0/m, z1.b, z29.b",
                "smopa za2.s, p0/m, p0/m, z1.b, z30.b",
                "smopa za3.s, p0/m, p0/m, z1.b, z31.b",
                "lsl z8.b, z20.b, #4",
                "lsl z9.b, z21.b, #4",
                "lsl z10.b, z22.b, #4",
                "lsl z11.b, z23.b, #4",
                "smopa za0.s, p0/m, p0/m, z2.b, z8.b",
                "smopa za1.s, p0/m, p0/m, z2.b, z9.b",
                "smopa za2.s, p0/m, p0/m, z2.b, z10.b",
                "smopa za3.s, p0/m, p0/m, z2.b, z11.b",
                "and z12.d, z20.d, z4.d",
                "and z13.d, z21.d, z4.d",
                "and z14.d, z22.d, z4.d",
                "and z15.d, z23.d, z4.d",
                "smopa za0.s, p0/m, p0/m, z3.b, z12.b",
                "smopa za1.s, p0/m, p0/m, z3.b, z13.b",
                "smopa za2.s, p0/m, p0/m, z3.b, z14.b",
                "smopa za3.s, p0/m, p0/m, z3.b, z15.b",
                "addvl x23, x23, #4",
                "addvl x20, x20, #8",
                "subs x21, x21, #16",
                "b.ne 4b",
                // ---- fold the block into every row: the block's RHS scales interleaved (even
                // halves of z24 / z25: quarters 0 / 1, odd ones: quarters 2 / 3) ----
                "ld1h {{z16.h}}, p0/z, [x28]",
                "ld1h {{z17.h}}, p0/z, [x28, #1, mul vl]",
                "addvl x28, x28, #2",
                "zip1 z24.h, z16.h, z17.h",
                "zip2 z25.h, z16.h, z17.h",
                q40_gemm_fold!(fold_rows; later_block!(); clamp!()),
                "subs x16, x16, #1",
                "b.ne 3b",
                // ---- next column group, then row group ----
                mopa_group_tails!("4");
                inout("x0") m => _,
                in("x1") n,
                in("x2") nb,
                inout("x3") lhs_packed => _,
                in("x4") rhs_packed,
                inout("x5") dst => _,
                in("x6") dst_stride_row,
                in("x7") mr * (k + 2 * nb),
                out("x8") _,
                in("x9") svl * nb * (bl / 2 + 2),
                in("x10") svl * k / 2,
                in("x11") mr * k,
                inout("x12") clamp_min.to_bits() as usize => _,
                out("x13") _,
                out("x14") _,
                out("x15") _,
                out("x16") _,
                out("x17") _,
                out("x20") _,
                out("x21") _,
                out("x22") _,
                out("x23") _,
                in("x24") bl,
                out("x25") _,
                inout("x26") clamp_max.to_bits() as usize => _,
                out("x27") _,
                out("x28") _,
            );
        }
    }
}
