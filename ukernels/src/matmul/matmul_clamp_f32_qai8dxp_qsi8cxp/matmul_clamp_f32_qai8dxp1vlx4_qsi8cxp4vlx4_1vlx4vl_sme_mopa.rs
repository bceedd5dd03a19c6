//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa`: the GEMM of the
//! `sme2_mopa` stem (same tile, packed formats, loop order and arithmetic) for CPUs with SME but
//! not SME2: single-vector loads and tile-slice moves, and `FMAX`/`FMIN` instead of `FCLAMP`.

qai8dxp_streaming_kernel! {
    /// As the `sme2_mopa` kernel's function, except `dst[i][j] = min(max(y, clamp_min),
    /// clamp_max)` (FMAX, then FMIN: NaN stays NaN).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa;
    sme_mopa_frame, int8;

    // Register map: the frame's (`sme_mopa_frame!`), and in the K loop z0/z1 (LHS) and
    // z16-z23 (RHS), as in the `sme2_mopa` kernel.
    setup: [];
    k_loop: [
        // ---- K loop: 8 values per iteration ----
        "3:",
        "ld1w {{z0.s}}, p0/z, [x16]",
        "ld1w {{z1.s}}, p0/z, [x16, #1, mul vl]",
        ld1b_z16_to_z23!("x20"),
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
    ];
    extra: [];
}
