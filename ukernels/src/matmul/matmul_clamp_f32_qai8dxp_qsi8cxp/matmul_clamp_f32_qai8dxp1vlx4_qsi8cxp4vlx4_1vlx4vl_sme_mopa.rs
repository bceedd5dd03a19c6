//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa`: the GEMM of the
//! `sme2_mopa` stem (same tile, packed formats, loop order and arithmetic) for CPUs with SME but
//! not SME2: single-vector loads and tile-slice moves, and `FMAX`/`FMIN` instead of `FCLAMP`.

streaming_kernel! {
    /// As the `sme2_mopa` kernel's function, except `dst[i][j] = min(max(y, clamp_min),
    /// clamp_max)` (FMAX, then FMIN: NaN stays NaN).
    ///
    /// # Safety
    ///
    /// As for the `sme2_mopa` kernel, with SME instead of SME2.
    fn matmul_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa(
        m, n, k, lhs_packed, rhs_packed, dst: f32, dst_stride_row, clamp_min, clamp_max,
    ) {
        let k_int = k.div_ceil(32) * 32;
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;

        // Register map as in the `sme2_mopa` kernel, except: x12 is the output row's tile slice
        // and p1-p4 the group's columns below n, one predicate per vector.
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME and that the packed buffers cover
        // the bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read
        // exactly, including rows and columns past m and n, which the packers fill). Stores are
        // predicated to columns below n and limited to rows below m. Streaming mode starts and
        // ends inside the block; only declared registers change; no stack use.
        unsafe {
            streaming_asm!("sme";
                "ptrue p0.b",
                "cntw x17",
                "mov z12.s, w10",
                "mov z13.s, w11",
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
                // ---- K loop: 8 values per iteration ----
                "3:",
                "ld1w {{z0.s}}, p0/z, [x16]",
                "ld1w {{z1.s}}, p0/z, [x16, #1, mul vl]",
                "ld1b {{z16.b}}, p0/z, [x20]",
                "ld1b {{z17.b}}, p0/z, [x20, #1, mul vl]",
                "ld1b {{z18.b}}, p0/z, [x20, #2, mul vl]",
                "ld1b {{z19.b}}, p0/z, [x20, #3, mul vl]",
                "ld1b {{z20.b}}, p0/z, [x20, #4, mul vl]",
                "ld1b {{z21.b}}, p0/z, [x20, #5, mul vl]",
                "ld1b {{z22.b}}, p0/z, [x20, #6, mul vl]",
                "ld1b {{z23.b}}, p0/z, [x20, #7, mul vl]",
                "smopa za0.s, p0/m, p0/m, z0.b, z16.b",
                "smopa za1.s, p0/m, p0/m, z0.b, z17.b",
                "smopa za2.s, p0/m, p0/m, z0.b, z18.b",
                "smopa za3.s, p0/m, p0/m, z0.b, z19.b",
                "smopa za0.s, p0/m, p0/m, z1.b, z20.b",
                "smopa za1.s, p0/m, p0/m, z1.b, z21.b",
                "smopa za2.s, p0/m, p0/m, z1.b, z22.b",
                "smopa za3.s, p0/m, p0/m, z1.b, z23.b",
                "addvl x16, x16, #2",
                "addvl x20, x20, #8",
                "subs x21, x21, #8",
                "b.ne 3b",
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
                "fmul z8.s, z20.s, z1.s",
                "fmul z9.s, z21.s, z1.s",
                "fmul z10.s, z22.s, z1.s",
                "fmul z11.s, z23.s, z1.s",
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
                inout("x0") m => _,
                in("x1") n,
                in("x2") k_int,
                inout("x3") lhs_packed => _,
                in("x4") rhs_packed,
                inout("x5") dst => _,
                in("x6") dst_stride_row,
                in("x7") mr * (k_int + 8),
                out("x8") _,
                in("x9") svl * (k_int + 12),
                in("x10") clamp_min.to_bits() as usize,
                in("x11") clamp_max.to_bits() as usize,
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
            );
        }
    }
}
