//! `kai_matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55`: the 6 x 16 f32 GEMM scheduled
//! for the in-order Cortex-A55 (same packed format, same numerics as the generic variant).
//!
//! The A55 issues two instructions per cycle in order, but a 128-bit load cannot pair with
//! anything and holds the pipeline for two cycles, while 64-bit vector loads, integer loads and
//! `INS` from a general register pair with an `FMLA` (Arm's A55 optimisation guide; the same
//! trick as KleidiAI's and Arm Compute Library's A55 kernels). So this loop never loads 128 bits:
//!
//! * each packed RHS vector arrives as `ldr d` (low half, into the B register freed by the
//!   previous vector) plus `ins v.d[1], x` of a high half loaded into `x28`/`x30` two vectors
//!   ahead;
//! * the LHS rows are refilled 64 bits at a time while the other half is in use: during vectors
//!   0-7 (K values 0 and 1, lanes 0-1) the high halves (K values 2, 3) are inserted, during vectors
//!   8-15 the low halves of the *next* iteration, through `x23`/`x24`;
//! * every such load or insert sits between two `FMLA`s, far enough ahead of its first use that an
//!   in-order core does not wait.
//!
//! 96 `FMLA`s carry 72 companions per iteration (4 K values), so on the A55 the loop is bound by
//! its `FMLA`s. An out-of-order core gains nothing from this and pays for the extra instructions:
//! use the generic variant there.
//!
//! Registers as in the generic variant (`v8`..`v31` accumulators, `v0`..`v5` LHS, `v6`/`v7` RHS);
//! the iteration that has no successor runs a copy of the body without the prefetches, so nothing
//! past the K range or the packed group is read.

/// One iteration of the K loop: with (`with`) or without (`without`) the loads of the next
/// iteration's LHS and first RHS vector, which the last iteration must not make.
#[rustfmt::skip]
macro_rules! k_block {
    ($p:ident) => { concat!(
        // b0: K value 0, columns 0-3
        "fmla v8.4s, v6.4s, v0.s[0]\n",
        "ldr d7, [x16, #16]\n",
        "ins v0.d[1], x23\n",
        "fmla v12.4s, v6.4s, v1.s[0]\n",
        "ldr x24, [x11, x27]\n",
        "fmla v16.4s, v6.4s, v2.s[0]\n",
        "fmla v20.4s, v6.4s, v3.s[0]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.4s, v6.4s, v4.s[0]\n",
        "ldr x28, [x16, #40]\n",
        "fmla v28.4s, v6.4s, v5.s[0]\n",
        // b1: K value 0, columns 4-7
        "fmla v9.4s, v7.4s, v0.s[0]\n",
        "ldr d6, [x16, #32]\n",
        "fmla v13.4s, v7.4s, v1.s[0]\n",
        "ins v1.d[1], x24\n",
        "ldr x23, [x12, x27]\n",
        "fmla v17.4s, v7.4s, v2.s[0]\n",
        "fmla v21.4s, v7.4s, v3.s[0]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.4s, v7.4s, v4.s[0]\n",
        "ldr x30, [x16, #56]\n",
        "fmla v29.4s, v7.4s, v5.s[0]\n",
        // b2: K value 0, columns 8-11
        "fmla v10.4s, v6.4s, v0.s[0]\n",
        "ldr d7, [x16, #48]\n",
        "fmla v14.4s, v6.4s, v1.s[0]\n",
        "ldr x24, [x13, x27]\n",
        "fmla v18.4s, v6.4s, v2.s[0]\n",
        "ins v2.d[1], x23\n",
        "fmla v22.4s, v6.4s, v3.s[0]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.4s, v6.4s, v4.s[0]\n",
        "ldr x28, [x16, #72]\n",
        "fmla v30.4s, v6.4s, v5.s[0]\n",
        // b3: K value 0, columns 12-15
        "fmla v11.4s, v7.4s, v0.s[0]\n",
        "ldr d6, [x16, #64]\n",
        "fmla v15.4s, v7.4s, v1.s[0]\n",
        "ldr x23, [x14, x27]\n",
        "fmla v19.4s, v7.4s, v2.s[0]\n",
        "fmla v23.4s, v7.4s, v3.s[0]\n",
        "ins v6.d[1], x28\n",
        "ins v3.d[1], x24\n",
        "fmla v27.4s, v7.4s, v4.s[0]\n",
        "ldr x30, [x16, #88]\n",
        "fmla v31.4s, v7.4s, v5.s[0]\n",
        // b4: K value 1, columns 0-3
        "fmla v8.4s, v6.4s, v0.s[1]\n",
        "ldr d7, [x16, #80]\n",
        "fmla v12.4s, v6.4s, v1.s[1]\n",
        "ldr x24, [x15, x27]\n",
        "fmla v16.4s, v6.4s, v2.s[1]\n",
        "fmla v20.4s, v6.4s, v3.s[1]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.4s, v6.4s, v4.s[1]\n",
        "ldr x28, [x16, #104]\n",
        "ins v4.d[1], x23\n",
        "fmla v28.4s, v6.4s, v5.s[1]\n",
        // b5: K value 1, columns 4-7
        "fmla v9.4s, v7.4s, v0.s[1]\n",
        "ldr d6, [x16, #96]\n",
        "fmla v13.4s, v7.4s, v1.s[1]\n",
        "fmla v17.4s, v7.4s, v2.s[1]\n",
        "fmla v21.4s, v7.4s, v3.s[1]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.4s, v7.4s, v4.s[1]\n",
        "ldr x30, [x16, #120]\n",
        "fmla v29.4s, v7.4s, v5.s[1]\n",
        "ins v5.d[1], x24\n",
        // b6: K value 1, columns 8-11
        "fmla v10.4s, v6.4s, v0.s[1]\n",
        "add x20, x20, #16\n",
        "ldr d7, [x16, #112]\n",
        "fmla v14.4s, v6.4s, v1.s[1]\n",
        "fmla v18.4s, v6.4s, v2.s[1]\n",
        "fmla v22.4s, v6.4s, v3.s[1]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.4s, v6.4s, v4.s[1]\n",
        "ldr x28, [x16, #136]\n",
        "fmla v30.4s, v6.4s, v5.s[1]\n",
        // b7: K value 1, columns 12-15
        "fmla v11.4s, v7.4s, v0.s[1]\n",
        "ldr d6, [x16, #128]\n",
        "fmla v15.4s, v7.4s, v1.s[1]\n",
        prefetch!($p, "ldr x23, [x10, x20]"),
        "fmla v19.4s, v7.4s, v2.s[1]\n",
        "fmla v23.4s, v7.4s, v3.s[1]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.4s, v7.4s, v4.s[1]\n",
        "ldr x30, [x16, #152]\n",
        "fmla v31.4s, v7.4s, v5.s[1]\n",
        // b8: K value 2, columns 0-3
        "fmla v8.4s, v6.4s, v0.s[2]\n",
        "ldr d7, [x16, #144]\n",
        prefetch!($p, "ins v0.d[0], x23"),
        "fmla v12.4s, v6.4s, v1.s[2]\n",
        prefetch!($p, "ldr x24, [x11, x20]"),
        "fmla v16.4s, v6.4s, v2.s[2]\n",
        "fmla v20.4s, v6.4s, v3.s[2]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.4s, v6.4s, v4.s[2]\n",
        "ldr x28, [x16, #168]\n",
        "fmla v28.4s, v6.4s, v5.s[2]\n",
        // b9: K value 2, columns 4-7
        "fmla v9.4s, v7.4s, v0.s[2]\n",
        "ldr d6, [x16, #160]\n",
        "fmla v13.4s, v7.4s, v1.s[2]\n",
        prefetch!($p, "ins v1.d[0], x24"),
        prefetch!($p, "ldr x23, [x12, x20]"),
        "fmla v17.4s, v7.4s, v2.s[2]\n",
        "fmla v21.4s, v7.4s, v3.s[2]\n",
        "add x27, x20, #8\n",
        "ins v6.d[1], x28\n",
        "fmla v25.4s, v7.4s, v4.s[2]\n",
        "ldr x30, [x16, #184]\n",
        "fmla v29.4s, v7.4s, v5.s[2]\n",
        // b10: K value 2, columns 8-11
        "fmla v10.4s, v6.4s, v0.s[2]\n",
        "ldr d7, [x16, #176]\n",
        "fmla v14.4s, v6.4s, v1.s[2]\n",
        prefetch!($p, "ldr x24, [x13, x20]"),
        "fmla v18.4s, v6.4s, v2.s[2]\n",
        prefetch!($p, "ins v2.d[0], x23"),
        "fmla v22.4s, v6.4s, v3.s[2]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.4s, v6.4s, v4.s[2]\n",
        "ldr x28, [x16, #200]\n",
        "fmla v30.4s, v6.4s, v5.s[2]\n",
        // b11: K value 2, columns 12-15
        "fmla v11.4s, v7.4s, v0.s[2]\n",
        "ldr d6, [x16, #192]\n",
        "fmla v15.4s, v7.4s, v1.s[2]\n",
        prefetch!($p, "ldr x23, [x14, x20]"),
        "fmla v19.4s, v7.4s, v2.s[2]\n",
        "fmla v23.4s, v7.4s, v3.s[2]\n",
        "ins v6.d[1], x28\n",
        prefetch!($p, "ins v3.d[0], x24"),
        "fmla v27.4s, v7.4s, v4.s[2]\n",
        "ldr x30, [x16, #216]\n",
        "fmla v31.4s, v7.4s, v5.s[2]\n",
        // b12: K value 3, columns 0-3
        "fmla v8.4s, v6.4s, v0.s[3]\n",
        "ldr d7, [x16, #208]\n",
        "fmla v12.4s, v6.4s, v1.s[3]\n",
        prefetch!($p, "ldr x24, [x15, x20]"),
        "fmla v16.4s, v6.4s, v2.s[3]\n",
        "fmla v20.4s, v6.4s, v3.s[3]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.4s, v6.4s, v4.s[3]\n",
        "ldr x28, [x16, #232]\n",
        prefetch!($p, "ins v4.d[0], x23"),
        "fmla v28.4s, v6.4s, v5.s[3]\n",
        // b13: K value 3, columns 4-7
        "fmla v9.4s, v7.4s, v0.s[3]\n",
        "ldr d6, [x16, #224]\n",
        "fmla v13.4s, v7.4s, v1.s[3]\n",
        "fmla v17.4s, v7.4s, v2.s[3]\n",
        "fmla v21.4s, v7.4s, v3.s[3]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.4s, v7.4s, v4.s[3]\n",
        "ldr x30, [x16, #248]\n",
        "fmla v29.4s, v7.4s, v5.s[3]\n",
        prefetch!($p, "ins v5.d[0], x24"),
        // b14: K value 3, columns 8-11
        "fmla v10.4s, v6.4s, v0.s[3]\n",
        "ldr d7, [x16, #240]\n",
        "fmla v14.4s, v6.4s, v1.s[3]\n",
        "fmla v18.4s, v6.4s, v2.s[3]\n",
        "fmla v22.4s, v6.4s, v3.s[3]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.4s, v6.4s, v4.s[3]\n",
        prefetch!($p, "ldr x28, [x16, #264]"),
        "fmla v30.4s, v6.4s, v5.s[3]\n",
        // b15: K value 3, columns 12-15
        "fmla v11.4s, v7.4s, v0.s[3]\n",
        prefetch!($p, "ldr d6, [x16, #256]"),
        "fmla v15.4s, v7.4s, v1.s[3]\n",
        prefetch!($p, "ldr x23, [x10, x27]"),
        "fmla v19.4s, v7.4s, v2.s[3]\n",
        "fmla v23.4s, v7.4s, v3.s[3]\n",
        prefetch!($p, "ins v6.d[1], x28"),
        "fmla v27.4s, v7.4s, v4.s[3]\n",
        prefetch!($p, "ldr x30, [x16, #280]"),
        "fmla v31.4s, v7.4s, v5.s[3]\n",
        "add x16, x16, #256\n",
    ) };
}

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 16`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety).
    #[target_feature(enable = "neon")]
    fn matmul_f32_f32p16x1b_6x16_a55: f32, 6 x 16, "matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55", in_order k_block;
}
