//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot`: the GEMV of the `sme2_dot`
//! stem (same tile, packed formats and arithmetic) for CPUs with SME but not SME2: streaming SVE
//! `SDOT` by element into vector accumulators instead of ZA, `FMAX`/`FMIN` instead of `FCLAMP`.
//! Two accumulator sets (blocks 0/2 and 1/3 of a 16-value step) halve the dependency chains.

qai8dxp_streaming_kernel! {
    /// As the `sme2_dot` kernel's function, except `dst[i][j] = min(max(y, clamp_min),
    /// clamp_max)` (FMAX, then FMIN: NaN stays NaN).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot;
    sme_dot_frame, int8;

    // Register map: the frame's (`sme_dot_frame!`), and in the K loop
    //   z8-z15  accumulators (blocks 0/2 and 1/3); z0 the 16 activations of a step (indexed
    //           SDOT takes z0-z7); z16-z23 RHS
    setup: [];
    k_loop: [
        // ---- K loop: 16 values x nr columns per iteration ----
        "3:",
        "ld1rqb {{z0.b}}, p0/z, [x13]",
        ld1b_z16_to_z23!("x14"),
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
    ];
    extra: [];
}
