//! `kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot`: the Q4_0 GEMV of the
//! `sme2_sdot` stem (same tile, LHS format, loop order and fold) for CPUs with SME but not SME2,
//! on the `ps4s0sf16` RHS of `rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon`: streaming SVE
//! `SDOT` by element into vector accumulators instead of ZA, nibbles widened by shifting
//! (`LSL #4` for the low ones, `AND #0xf0` for the high ones: 16 x the values, whose scales the
//! packer divided by 16), `FMAX`/`FMIN` instead of `FCLAMP`.
//!
//! One 8-value K packet of a group is four vectors (4 bytes per column: values `8p + t` low and
//! `8p + t + 4` high in byte `t`); the low nibbles multiply activations `8p .. 8p + 4`, the high
//! ones `8p + 4 .. 8p + 8`. KleidiAI's loads, widening and accumulators per `SDOT`, with
//! immediate-offset loads instead of pointer updates, 32 K values per iteration (`bl` is a
//! multiple of 32).

/// One 16-value step of the K loop: eight vectors of packed nibbles at `x14` + `$o` vectors (four
/// 4-value K steps of two vectors), their high nibbles (`LSL` 4) and low ones (`AND` with `0xf0`,
/// z4) as int8 times 16, dotted with the four 4-value blocks of the activations in z$a into z8-z11.
macro_rules! sme_nibble_sdot_step {
    ($a:literal; $o0:literal, $o1:literal, $o2:literal, $o3:literal, $o4:literal, $o5:literal,
     $o6:literal, $o7:literal) => {
        concat!(
            "ld1b {{z16.b}}, p0/z, [x14, #", $o0, ", mul vl]\n",
            "ld1b {{z17.b}}, p0/z, [x14, #", $o1, ", mul vl]\n",
            "ld1b {{z18.b}}, p0/z, [x14, #", $o2, ", mul vl]\n",
            "ld1b {{z19.b}}, p0/z, [x14, #", $o3, ", mul vl]\n",
            "ld1b {{z20.b}}, p0/z, [x14, #", $o4, ", mul vl]\n",
            "ld1b {{z21.b}}, p0/z, [x14, #", $o5, ", mul vl]\n",
            "ld1b {{z22.b}}, p0/z, [x14, #", $o6, ", mul vl]\n",
            "ld1b {{z23.b}}, p0/z, [x14, #", $o7, ", mul vl]\n",
            "lsl z24.b, z16.b, #4\n",
            "lsl z25.b, z17.b, #4\n",
            "lsl z26.b, z18.b, #4\n",
            "lsl z27.b, z19.b, #4\n",
            "and z16.d, z16.d, z4.d\n",
            "and z17.d, z17.d, z4.d\n",
            "and z18.d, z18.d, z4.d\n",
            "and z19.d, z19.d, z4.d\n",
            "sdot z8.s, z24.b, z", $a, ".b[0]\n",
            "sdot z9.s, z25.b, z", $a, ".b[0]\n",
            "sdot z10.s, z26.b, z", $a, ".b[0]\n",
            "sdot z11.s, z27.b, z", $a, ".b[0]\n",
            "sdot z8.s, z16.b, z", $a, ".b[1]\n",
            "sdot z9.s, z17.b, z", $a, ".b[1]\n",
            "sdot z10.s, z18.b, z", $a, ".b[1]\n",
            "sdot z11.s, z19.b, z", $a, ".b[1]\n",
            "lsl z28.b, z20.b, #4\n",
            "lsl z29.b, z21.b, #4\n",
            "lsl z30.b, z22.b, #4\n",
            "lsl z31.b, z23.b, #4\n",
            "and z20.d, z20.d, z4.d\n",
            "and z21.d, z21.d, z4.d\n",
            "and z22.d, z22.d, z4.d\n",
            "and z23.d, z23.d, z4.d\n",
            "sdot z8.s, z28.b, z", $a, ".b[2]\n",
            "sdot z9.s, z29.b, z", $a, ".b[2]\n",
            "sdot z10.s, z30.b, z", $a, ".b[2]\n",
            "sdot z11.s, z31.b, z", $a, ".b[2]\n",
            "sdot z8.s, z20.b, z", $a, ".b[3]\n",
            "sdot z9.s, z21.b, z", $a, ".b[3]\n",
            "sdot z10.s, z22.b, z", $a, ".b[3]\n",
            "sdot z11.s, z23.b, z", $a, ".b[3]\n",
        )
    };
}

streaming_kernel! {
    /// As the `sme2_sdot` kernel's function, with the RHS in the `ps4s0sf16` format (`w` read
    /// as 16 x the values, `wd` the scales divided by 16 as the packer rounds them) and
    /// `dst[i][j] = min(max(acc, clamp_min), clamp_max)` (FMAX, then FMIN: NaN stays NaN).
    ///
    /// RHS layout (one group of `nr` columns per `nr * nb * (bl / 2 + 2)` bytes): for every
    /// 8-value K packet, `nr` columns x 4 bytes (K `8p + t` in the low nibble of byte `t`,
    /// `8p + t + 4` in the high one, signed), then `wd: [[f16; nr]; nb]`.
    ///
    /// # Safety
    ///
    /// As for the `sme2_sdot` kernel, with SME instead of SME2.
    blockwise fn matmul_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
        let nb = k / bl;

        // Register map as in the `sme2_sdot` kernel, except:
        //   x8      scratch (column index of a predicate)
        //   z0 / z1 16 activations in every 128-bit segment (indexed SDOT takes z0-z7)
        //   z12-z15 f32 accumulators of the row (column quarters 0 to 3)
        //   z2/z3   clamp_min / clamp_max; z4 0xf0 in every byte
        //   z8-z11  the block's integer sums
        //   K loop: z16-z23 packed RHS (two packets; high nibbles widened in place), z24-z31
        //           the low nibbles widened
        //   fold:   z16 the block's LHS scale (f16), z17-z20 its RHS scales, z24-z27 the scale
        //           products
        //   p1-p4   the group's columns below n, one predicate per vector
        //
        // SAFETY: as in the `sme2_sdot` kernel (same reads, same predicated stores), with SME.
        unsafe {
            streaming_asm!("sme";
                "ptrue p0.b",
                "rdsvl x17, #1",
                "mov z2.s, w10",
                "mov z3.s, w11",
                "dup z4.b, #-16",
                // ---- loop over column groups ----
                dot_loop_heads!(sme_column_predicates!("x8", "x1")),
                "add x22, x4, x25",
                "add x23, x13, x24",
                "mov z12.s, #0",
                "mov z13.s, #0",
                "mov z14.s, #0",
                "mov z15.s, #0",
                // ---- loop over blocks ----
                "3:",
                "mov z8.s, #0",
                "mov z9.s, #0",
                "mov z10.s, #0",
                "mov z11.s, #0",
                "mov x21, x20",
                // ---- 32 K values x nr columns per iteration, two 16-value steps ----
                "4:",
                "ld1rqb {{z0.b}}, p0/z, [x13]",
                "ld1rqb {{z1.b}}, p0/z, [x13, #16]",
                sme_nibble_sdot_step!(0; 0, 1, 2, 3, 4, 5, 6, 7),
                "addvl x14, x14, #16",
                sme_nibble_sdot_step!(1; -8, -7, -6, -5, -4, -3, -2, -1),
                "add x13, x13, #32",
                "subs x21, x21, #32",
                "b.ne 4b",
                // ---- fold the block in: s = +0 + ld * wd (after ZIP1 / ZIP2 the even halves
                // of z19 / z20 hold quarters 0 / 1, the odd ones quarters 2 / 3) ----
                "scvtf z8.s, p0/m, z8.s",
                "scvtf z9.s, p0/m, z9.s",
                "scvtf z10.s, p0/m, z10.s",
                "scvtf z11.s, p0/m, z11.s",
                "ld1rh {{z16.h}}, p0/z, [x23]",
                "ld1h {{z17.h}}, p0/z, [x22]",
                "ld1h {{z18.h}}, p0/z, [x22, #1, mul vl]",
                "add x23, x23, #2",
                "addvl x22, x22, #2",
                "zip1 z19.h, z17.h, z18.h",
                "zip2 z20.h, z17.h, z18.h",
                "mov z24.s, #0",
                "mov z25.s, #0",
                "mov z26.s, #0",
                "mov z27.s, #0",
                "fmlalb z24.s, z16.h, z19.h",
                "fmlalb z25.s, z16.h, z20.h",
                "fmlalt z26.s, z16.h, z19.h",
                "fmlalt z27.s, z16.h, z20.h",
                "fmla z12.s, p0/m, z8.s, z24.s",
                "fmla z13.s, p0/m, z9.s, z25.s",
                "fmla z14.s, p0/m, z10.s, z26.s",
                "fmla z15.s, p0/m, z11.s, z27.s",
                "subs x16, x16, #1",
                "b.ne 3b",
                // ---- row epilogue; x23 is now the next row ----
                each_vs!("fmax", 2; 12, 13, 14, 15),
                each_vs!("fmin", 3; 12, 13, 14, 15),
                sme_store4!("x15"; 12, 13, 14, 15),
                dot_loop_tails!("mov x13, x23\n", "4");
                in("x0") m,
                inout("x1") n => _,
                in("x2") nb,
                in("x3") lhs_packed,
                inout("x4") rhs_packed => _,
                inout("x5") dst => _,
                in("x6") dst_stride_row,
                out("x8") _,
                in("x9") nr * nb * (bl / 2 + 2),
                in("x10") clamp_min.to_bits() as usize,
                in("x11") clamp_max.to_bits() as usize,
                out("x12") _,
                out("x13") _,
                out("x14") _,
                out("x15") _,
                out("x16") _,
                out("x17") _,
                in("x20") bl,
                out("x21") _,
                out("x22") _,
                out("x23") _,
                in("x24") k,
                in("x25") nr * k / 2,
            );
        }
    }
}
