//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot`: the GEMV of the `sme2_dot`
//! stem (same tile, packed formats and arithmetic) for CPUs with SME but not SME2: streaming SVE
//! `SDOT` by element into vector accumulators instead of ZA, `FMAX`/`FMIN` instead of `FCLAMP`.
//! Two accumulator sets (blocks 0/2 and 1/3 of a 16-value step) halve the dependency chains.

streaming_kernel! {
    /// As the `sme2_dot` kernel's function, except `dst[i][j] = min(max(y, clamp_min),
    /// clamp_max)` (FMAX, then FMIN: NaN stays NaN).
    ///
    /// # Safety
    ///
    /// As for the `sme2_dot` kernel, with SME instead of SME2.
    fn matmul_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot(
        m, n, k, lhs_packed, rhs_packed, dst: f32, dst_stride_row, clamp_min, clamp_max,
    ) {
        let k_int = k.div_ceil(32) * 32;
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);

        // Register map as in the `sme2_dot` kernel, except:
        //   x8      scratch (column index of a predicate)
        //   z8-z15  accumulators (blocks 0/2 and 1/3); z0 the 16 activations of a step (indexed
        //           SDOT takes z0-z7); z2/z3 clamp_min / clamp_max
        //   p1-p4   the group's columns below n, one predicate per vector
        //
        // SAFETY: as in the `sme2_dot` kernel (same reads, same predicated stores), with SME.
        unsafe {
            streaming_asm!("sme";
                "ptrue p0.b",
                "rdsvl x17, #1",
                "mov z2.s, w10",
                "mov z3.s, w11",
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
                // ---- K loop: 16 values x nr columns per iteration ----
                "3:",
                "ld1rqb {{z0.b}}, p0/z, [x13]",
                "ld1b {{z16.b}}, p0/z, [x14]",
                "ld1b {{z17.b}}, p0/z, [x14, #1, mul vl]",
                "ld1b {{z18.b}}, p0/z, [x14, #2, mul vl]",
                "ld1b {{z19.b}}, p0/z, [x14, #3, mul vl]",
                "ld1b {{z20.b}}, p0/z, [x14, #4, mul vl]",
                "ld1b {{z21.b}}, p0/z, [x14, #5, mul vl]",
                "ld1b {{z22.b}}, p0/z, [x14, #6, mul vl]",
                "ld1b {{z23.b}}, p0/z, [x14, #7, mul vl]",
                "sdot z8.s, z16.b, z0.b[0]",
                "sdot z9.s, z17.b, z0.b[0]",
                "sdot z10.s, z18.b, z0.b[0]",
                "sdot z11.s, z19.b, z0.b[0]",
                "sdot z12.s, z20.b, z0.b[1]",
                "sdot z13.s, z21.b, z0.b[1]",
                "sdot z14.s, z22.b, z0.b[1]",
                "sdot z15.s, z23.b, z0.b[1]",
                "addvl x14, x14, #16",
                "ld1b {{z24.b}}, p0/z, [x14, #-8, mul vl]",
                "ld1b {{z25.b}}, p0/z, [x14, #-7, mul vl]",
                "ld1b {{z26.b}}, p0/z, [x14, #-6, mul vl]",
                "ld1b {{z27.b}}, p0/z, [x14, #-5, mul vl]",
                "ld1b {{z28.b}}, p0/z, [x14, #-4, mul vl]",
                "ld1b {{z29.b}}, p0/z, [x14, #-3, mul vl]",
                "ld1b {{z30.b}}, p0/z, [x14, #-2, mul vl]",
                "ld1b {{z31.b}}, p0/z, [x14, #-1, mul vl]",
                "sdot z8.s, z24.b, z0.b[2]",
                "sdot z9.s, z25.b, z0.b[2]",
                "sdot z10.s, z26.b, z0.b[2]",
                "sdot z11.s, z27.b, z0.b[2]",
                "sdot z12.s, z28.b, z0.b[3]",
                "sdot z13.s, z29.b, z0.b[3]",
                "sdot z14.s, z30.b, z0.b[3]",
                "sdot z15.s, z31.b, z0.b[3]",
                "add x13, x13, #16",
                "subs x16, x16, #16",
                "b.ne 3b",
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
                in("x0") m,
                inout("x1") n => _,
                in("x2") k_int,
                in("x3") lhs_packed,
                inout("x4") rhs_packed => _,
                inout("x5") dst => _,
                in("x6") dst_stride_row,
                out("x8") _,
                in("x9") nr * (k_int + 12),
                in("x10") clamp_min.to_bits() as usize,
                in("x11") clamp_max.to_bits() as usize,
                out("x12") _,
                out("x13") _,
                out("x14") _,
                out("x15") _,
                out("x16") _,
                out("x17") _,
            );
        }
    }
}
