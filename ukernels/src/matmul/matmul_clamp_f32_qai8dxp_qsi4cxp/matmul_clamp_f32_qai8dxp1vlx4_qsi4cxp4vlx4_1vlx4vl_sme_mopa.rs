//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) with `SMOPA` outer products into the four 32-bit ZA tiles, for
//! CPUs with SME but not SME2, on the `s16s0` int4 RHS of the family's `sme_dot` GEMV
//! (`nr = 4 x SVL32`, `kr = 8`, `sr = 2`) and an LHS in groups of `mr = SVL32` rows whose
//! 4-value K blocks are one vector each (block `b` of a 32-value chunk at vector `b`).
//!
//! The frame (loops, epilogue, stores) is the `qsi8cxp` SME GEMM's (`sme_mopa_frame!`). The K
//! loop takes one 32-value chunk per iteration: run `r` of the RHS (four vectors) holds K blocks
//! `r` (low nibbles, `LSL #4`) and `r + 4` (high nibbles, `AND #0xf0`), each 16 x the weight,
//! multiplied by LHS vectors `r` and `r + 4`.

qai8dxp_streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`, `kr / sr = 4`
    /// (`s16s0` RHS); the family's computation (`FMUL`, then `FADD`: two roundings).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa;
    sme_mopa_frame, int4;

    // Register map: the frame's (`sme_mopa_frame!`), and in the K loop
    //   z0-z7   LHS: the chunk's eight 4-value K blocks of mr rows
    //   z16-z31 RHS: the chunk's four runs of nr columns (four vectors each)
    //   z8-z11  low nibbles of one run; high nibbles are decoded in place
    setup: [];
    k_loop: [
        // ---- K loop: 32 values per iteration ----
        "3:",
        "ld1w {{z0.s}}, p0/z, [x16]",
        "ld1w {{z1.s}}, p0/z, [x16, #1, mul vl]",
        "ld1w {{z2.s}}, p0/z, [x16, #2, mul vl]",
        "ld1w {{z3.s}}, p0/z, [x16, #3, mul vl]",
        "ld1w {{z4.s}}, p0/z, [x16, #4, mul vl]",
        "ld1w {{z5.s}}, p0/z, [x16, #5, mul vl]",
        "ld1w {{z6.s}}, p0/z, [x16, #6, mul vl]",
        "ld1w {{z7.s}}, p0/z, [x16, #7, mul vl]",
        ld1b_vectors!("x20"; 16, 0; 17, 1; 18, 2; 19, 3; 20, 4; 21, 5; 22, 6; 23, 7),
        "addvl x20, x20, #16",
        ld1b_vectors!("x20"; 24, -8; 25, -7; 26, -6; 27, -5; 28, -4; 29, -3; 30, -2; 31, -1),
        s16s0_mopa_run!(16, 17, 18, 19; 0, 4),
        s16s0_mopa_run!(20, 21, 22, 23; 1, 5),
        s16s0_mopa_run!(24, 25, 26, 27; 2, 6),
        s16s0_mopa_run!(28, 29, 30, 31; 3, 7),
        "addvl x16, x16, #8",
        "subs x21, x21, #32",
        "b.ne 3b",
    ];
    extra: [];
}
