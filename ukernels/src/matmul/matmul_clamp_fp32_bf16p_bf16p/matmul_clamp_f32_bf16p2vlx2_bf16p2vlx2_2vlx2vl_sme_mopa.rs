//! `kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa`: the family's GEMM (see the
//! parent module) for CPUs with SME but not SME2: `FMIN` with `clamp_max`, then `FMAX` with
//! `clamp_min`.

bf16_mopa_kernel! {
    /// Computes `dst[i][j] = max(min(bias[j] + sum over K pairs of a_i . b_j, clamp_max),
    /// clamp_min)` for the `m` x `n` portion (see the parent module for the packed operands and
    /// the rounding).
    ///
    #[doc = streaming_kernel_safety!("SME")]
    fn matmul_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa;
    "sme";
    setup [];
    load [
        "ld1h {{z0.h}}, p0/z, [x13]",
        "ld1h {{z1.h}}, p0/z, [x13, #1, mul vl]",
        "ld1h {{z2.h}}, p0/z, [x13, #2, mul vl]",
        "ld1h {{z3.h}}, p0/z, [x13, #3, mul vl]",
        "ld1h {{z4.h}}, p0/z, [x9]",
        "ld1h {{z5.h}}, p0/z, [x9, #1, mul vl]",
        "ld1h {{z6.h}}, p0/z, [x9, #2, mul vl]",
        "ld1h {{z7.h}}, p0/z, [x9, #3, mul vl]",
    ];
    clamp [
        "fmin z4.s, p0/m, z4.s, z31.s",
        "fmin z5.s, p0/m, z5.s, z31.s",
        "fmax z4.s, p0/m, z4.s, z30.s",
        "fmax z5.s, p0/m, z5.s, z30.s",
    ]
}
