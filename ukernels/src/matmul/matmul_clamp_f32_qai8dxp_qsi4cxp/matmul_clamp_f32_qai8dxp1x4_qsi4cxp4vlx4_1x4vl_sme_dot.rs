//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot`: GEMV (1 row x 4 x SVL32 columns
//! per step) with streaming SVE `SDOT` by element, for CPUs with SME but not SME2, on int4 weights
//! in the `s16s0` format of `rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0` (`nr = SVL bytes`, `kr = 8`,
//! `sr = 2`: four-byte runs per column, each byte holding K `32c + j` low and `32c + 16 + j`
//! high; row sums x16, scales /16).
//!
//! The frame (loops, epilogue, stores) is the `qsi8cxp` SME GEMV's (`sme_dot_frame!`). The K loop
//! takes one 32-value chunk per iteration: the low nibbles (`LSL #4`, K `32c .. 32c + 16`)
//! multiply the chunk's first 16 activations into z8-z11, the high ones (`AND #0xf0`, in place)
//! the last 16 into z12-z15; both are 16 x the weight, which the packer's sums and scales undo.

qai8dxp_streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = 1`, `nr = 4 x SVL32`, `kr / sr = 4`
    /// (`s16s0` RHS). The dequantisation is one fused `FMLA`: `y = fma(acc as f32, rscale16[j] *
    /// lhs_scale[i], bias[j])` (`rscale16` the packed `scale / 16`), clamped with `FMAX`, then
    /// `FMIN`.
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot;
    sme_dot_frame, int4;

    // Register map: the frame's (`sme_dot_frame!`), and in the K loop
    //   z0/z1   activations 0..16 / 16..32 of the chunk, in every 128-bit segment
    //   z16-z31 RHS: the chunk's four runs of nr columns (four vectors each)
    //   z4-z7   low nibbles of one run; high nibbles are decoded in place
    setup: [];
    k_loop: [
        // ---- K loop: 32 values x nr columns per iteration ----
        "3:",
        "ld1rqb {{z0.b}}, p0/z, [x13]",
        "ld1rqb {{z1.b}}, p0/z, [x13, #16]",
        ld1b_vectors!("x14"; 16, 0; 17, 1; 18, 2; 19, 3; 20, 4; 21, 5; 22, 6; 23, 7),
        "addvl x14, x14, #16",
        ld1b_vectors!("x14"; 24, -8; 25, -7; 26, -6; 27, -5; 28, -4; 29, -3; 30, -2; 31, -1),
        s16s0_dot_run!(16, 17, 18, 19; 0),
        s16s0_dot_run!(20, 21, 22, 23; 1),
        s16s0_dot_run!(24, 25, 26, 27; 2),
        s16s0_dot_run!(28, 29, 30, 31; 3),
        "add x13, x13, #32",
        "subs x16, x16, #32",
        "b.ne 3b",
    ];
    extra: [];
}
