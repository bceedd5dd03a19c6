//! `kai_matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55`: the 6 x 32 f16 GEMM scheduled
//! for the in-order Cortex-A55 (same packed format, same numerics as the generic variant), built
//! like the f32 A55 kernel with 8 K values (one 128-bit LHS block) per iteration.
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
//!   0-15 (K values 0-3, lanes 0-3) the high halves (K values 4-7) are inserted, during vectors
//!   16-31 the low halves of the *next* iteration, through `x23`/`x24`;
//! * every such load or insert sits between two `FMLA`s, far enough ahead of its first use that an
//!   in-order core does not wait.
//!
//! 192 `FMLA`s carry 120 companions per iteration (8 K values), so on the A55 the loop is bound
//! by its `FMLA`s. An out-of-order core gains nothing from this and pays for the extra instructions:
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
        // b0: K value 0, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[0]\n",
        "ldr d7, [x16, #16]\n",
        "ins v0.d[1], x23\n",
        "fmla v12.8h, v6.8h, v1.h[0]\n",
        "ldr x24, [x11, x27]\n",
        "fmla v16.8h, v6.8h, v2.h[0]\n",
        "fmla v20.8h, v6.8h, v3.h[0]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[0]\n",
        "ldr x28, [x16, #40]\n",
        "fmla v28.8h, v6.8h, v5.h[0]\n",
        // b1: K value 0, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[0]\n",
        "ldr d6, [x16, #32]\n",
        "fmla v13.8h, v7.8h, v1.h[0]\n",
        "ins v1.d[1], x24\n",
        "ldr x23, [x12, x27]\n",
        "fmla v17.8h, v7.8h, v2.h[0]\n",
        "fmla v21.8h, v7.8h, v3.h[0]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[0]\n",
        "ldr x30, [x16, #56]\n",
        "fmla v29.8h, v7.8h, v5.h[0]\n",
        // b2: K value 0, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[0]\n",
        "ldr d7, [x16, #48]\n",
        "fmla v14.8h, v6.8h, v1.h[0]\n",
        "ldr x24, [x13, x27]\n",
        "fmla v18.8h, v6.8h, v2.h[0]\n",
        "ins v2.d[1], x23\n",
        "fmla v22.8h, v6.8h, v3.h[0]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[0]\n",
        "ldr x28, [x16, #72]\n",
        "fmla v30.8h, v6.8h, v5.h[0]\n",
        // b3: K value 0, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[0]\n",
        "ldr d6, [x16, #64]\n",
        "fmla v15.8h, v7.8h, v1.h[0]\n",
        "ldr x23, [x14, x27]\n",
        "fmla v19.8h, v7.8h, v2.h[0]\n",
        "fmla v23.8h, v7.8h, v3.h[0]\n",
        "ins v6.d[1], x28\n",
        "ins v3.d[1], x24\n",
        "fmla v27.8h, v7.8h, v4.h[0]\n",
        "ldr x30, [x16, #88]\n",
        "fmla v31.8h, v7.8h, v5.h[0]\n",
        // b4: K value 1, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[1]\n",
        "ldr d7, [x16, #80]\n",
        "fmla v12.8h, v6.8h, v1.h[1]\n",
        "ldr x24, [x15, x27]\n",
        "fmla v16.8h, v6.8h, v2.h[1]\n",
        "fmla v20.8h, v6.8h, v3.h[1]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[1]\n",
        "ldr x28, [x16, #104]\n",
        "ins v4.d[1], x23\n",
        "fmla v28.8h, v6.8h, v5.h[1]\n",
        // b5: K value 1, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[1]\n",
        "ldr d6, [x16, #96]\n",
        "fmla v13.8h, v7.8h, v1.h[1]\n",
        "fmla v17.8h, v7.8h, v2.h[1]\n",
        "fmla v21.8h, v7.8h, v3.h[1]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[1]\n",
        "ldr x30, [x16, #120]\n",
        "fmla v29.8h, v7.8h, v5.h[1]\n",
        "ins v5.d[1], x24\n",
        // b6: K value 1, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[1]\n",
        "ldr d7, [x16, #112]\n",
        "fmla v14.8h, v6.8h, v1.h[1]\n",
        "fmla v18.8h, v6.8h, v2.h[1]\n",
        "fmla v22.8h, v6.8h, v3.h[1]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[1]\n",
        "ldr x28, [x16, #136]\n",
        "fmla v30.8h, v6.8h, v5.h[1]\n",
        // b7: K value 1, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[1]\n",
        "ldr d6, [x16, #128]\n",
        "fmla v15.8h, v7.8h, v1.h[1]\n",
        "fmla v19.8h, v7.8h, v2.h[1]\n",
        "fmla v23.8h, v7.8h, v3.h[1]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.8h, v7.8h, v4.h[1]\n",
        "ldr x30, [x16, #152]\n",
        "fmla v31.8h, v7.8h, v5.h[1]\n",
        // b8: K value 2, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[2]\n",
        "ldr d7, [x16, #144]\n",
        "fmla v12.8h, v6.8h, v1.h[2]\n",
        "fmla v16.8h, v6.8h, v2.h[2]\n",
        "fmla v20.8h, v6.8h, v3.h[2]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[2]\n",
        "ldr x28, [x16, #168]\n",
        "fmla v28.8h, v6.8h, v5.h[2]\n",
        // b9: K value 2, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[2]\n",
        "ldr d6, [x16, #160]\n",
        "fmla v13.8h, v7.8h, v1.h[2]\n",
        "fmla v17.8h, v7.8h, v2.h[2]\n",
        "fmla v21.8h, v7.8h, v3.h[2]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[2]\n",
        "ldr x30, [x16, #184]\n",
        "fmla v29.8h, v7.8h, v5.h[2]\n",
        // b10: K value 2, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[2]\n",
        "ldr d7, [x16, #176]\n",
        "fmla v14.8h, v6.8h, v1.h[2]\n",
        "fmla v18.8h, v6.8h, v2.h[2]\n",
        "fmla v22.8h, v6.8h, v3.h[2]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[2]\n",
        "ldr x28, [x16, #200]\n",
        "fmla v30.8h, v6.8h, v5.h[2]\n",
        // b11: K value 2, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[2]\n",
        "ldr d6, [x16, #192]\n",
        "fmla v15.8h, v7.8h, v1.h[2]\n",
        "fmla v19.8h, v7.8h, v2.h[2]\n",
        "fmla v23.8h, v7.8h, v3.h[2]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.8h, v7.8h, v4.h[2]\n",
        "ldr x30, [x16, #216]\n",
        "fmla v31.8h, v7.8h, v5.h[2]\n",
        // b12: K value 3, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[3]\n",
        "ldr d7, [x16, #208]\n",
        "fmla v12.8h, v6.8h, v1.h[3]\n",
        "fmla v16.8h, v6.8h, v2.h[3]\n",
        "fmla v20.8h, v6.8h, v3.h[3]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[3]\n",
        "ldr x28, [x16, #232]\n",
        "fmla v28.8h, v6.8h, v5.h[3]\n",
        // b13: K value 3, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[3]\n",
        "ldr d6, [x16, #224]\n",
        "fmla v13.8h, v7.8h, v1.h[3]\n",
        "fmla v17.8h, v7.8h, v2.h[3]\n",
        "fmla v21.8h, v7.8h, v3.h[3]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[3]\n",
        "ldr x30, [x16, #248]\n",
        "fmla v29.8h, v7.8h, v5.h[3]\n",
        // b14: K value 3, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[3]\n",
        "add x20, x20, #16\n",
        "ldr d7, [x16, #240]\n",
        "fmla v14.8h, v6.8h, v1.h[3]\n",
        "fmla v18.8h, v6.8h, v2.h[3]\n",
        "fmla v22.8h, v6.8h, v3.h[3]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[3]\n",
        "ldr x28, [x16, #264]\n",
        "fmla v30.8h, v6.8h, v5.h[3]\n",
        // b15: K value 3, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[3]\n",
        "ldr d6, [x16, #256]\n",
        "fmla v15.8h, v7.8h, v1.h[3]\n",
        prefetch!($p, "ldr x23, [x10, x20]"),
        "fmla v19.8h, v7.8h, v2.h[3]\n",
        "fmla v23.8h, v7.8h, v3.h[3]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.8h, v7.8h, v4.h[3]\n",
        "ldr x30, [x16, #280]\n",
        "fmla v31.8h, v7.8h, v5.h[3]\n",
        // b16: K value 4, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[4]\n",
        "ldr d7, [x16, #272]\n",
        prefetch!($p, "ins v0.d[0], x23"),
        "fmla v12.8h, v6.8h, v1.h[4]\n",
        prefetch!($p, "ldr x24, [x11, x20]"),
        "fmla v16.8h, v6.8h, v2.h[4]\n",
        "fmla v20.8h, v6.8h, v3.h[4]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[4]\n",
        "ldr x28, [x16, #296]\n",
        "fmla v28.8h, v6.8h, v5.h[4]\n",
        // b17: K value 4, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[4]\n",
        "ldr d6, [x16, #288]\n",
        "fmla v13.8h, v7.8h, v1.h[4]\n",
        prefetch!($p, "ins v1.d[0], x24"),
        prefetch!($p, "ldr x23, [x12, x20]"),
        "fmla v17.8h, v7.8h, v2.h[4]\n",
        "fmla v21.8h, v7.8h, v3.h[4]\n",
        "add x27, x20, #8\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[4]\n",
        "ldr x30, [x16, #312]\n",
        "fmla v29.8h, v7.8h, v5.h[4]\n",
        // b18: K value 4, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[4]\n",
        "ldr d7, [x16, #304]\n",
        "fmla v14.8h, v6.8h, v1.h[4]\n",
        prefetch!($p, "ldr x24, [x13, x20]"),
        "fmla v18.8h, v6.8h, v2.h[4]\n",
        prefetch!($p, "ins v2.d[0], x23"),
        "fmla v22.8h, v6.8h, v3.h[4]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[4]\n",
        "ldr x28, [x16, #328]\n",
        "fmla v30.8h, v6.8h, v5.h[4]\n",
        // b19: K value 4, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[4]\n",
        "ldr d6, [x16, #320]\n",
        "fmla v15.8h, v7.8h, v1.h[4]\n",
        prefetch!($p, "ldr x23, [x14, x20]"),
        "fmla v19.8h, v7.8h, v2.h[4]\n",
        "fmla v23.8h, v7.8h, v3.h[4]\n",
        "ins v6.d[1], x28\n",
        prefetch!($p, "ins v3.d[0], x24"),
        "fmla v27.8h, v7.8h, v4.h[4]\n",
        "ldr x30, [x16, #344]\n",
        "fmla v31.8h, v7.8h, v5.h[4]\n",
        // b20: K value 5, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[5]\n",
        "ldr d7, [x16, #336]\n",
        "fmla v12.8h, v6.8h, v1.h[5]\n",
        prefetch!($p, "ldr x24, [x15, x20]"),
        "fmla v16.8h, v6.8h, v2.h[5]\n",
        "fmla v20.8h, v6.8h, v3.h[5]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[5]\n",
        "ldr x28, [x16, #360]\n",
        prefetch!($p, "ins v4.d[0], x23"),
        "fmla v28.8h, v6.8h, v5.h[5]\n",
        // b21: K value 5, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[5]\n",
        "ldr d6, [x16, #352]\n",
        "fmla v13.8h, v7.8h, v1.h[5]\n",
        "fmla v17.8h, v7.8h, v2.h[5]\n",
        "fmla v21.8h, v7.8h, v3.h[5]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[5]\n",
        "ldr x30, [x16, #376]\n",
        "fmla v29.8h, v7.8h, v5.h[5]\n",
        prefetch!($p, "ins v5.d[0], x24"),
        // b22: K value 5, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[5]\n",
        "ldr d7, [x16, #368]\n",
        "fmla v14.8h, v6.8h, v1.h[5]\n",
        "fmla v18.8h, v6.8h, v2.h[5]\n",
        "fmla v22.8h, v6.8h, v3.h[5]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[5]\n",
        "ldr x28, [x16, #392]\n",
        "fmla v30.8h, v6.8h, v5.h[5]\n",
        // b23: K value 5, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[5]\n",
        "ldr d6, [x16, #384]\n",
        "fmla v15.8h, v7.8h, v1.h[5]\n",
        "fmla v19.8h, v7.8h, v2.h[5]\n",
        "fmla v23.8h, v7.8h, v3.h[5]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.8h, v7.8h, v4.h[5]\n",
        "ldr x30, [x16, #408]\n",
        "fmla v31.8h, v7.8h, v5.h[5]\n",
        // b24: K value 6, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[6]\n",
        "ldr d7, [x16, #400]\n",
        "fmla v12.8h, v6.8h, v1.h[6]\n",
        "fmla v16.8h, v6.8h, v2.h[6]\n",
        "fmla v20.8h, v6.8h, v3.h[6]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[6]\n",
        "ldr x28, [x16, #424]\n",
        "fmla v28.8h, v6.8h, v5.h[6]\n",
        // b25: K value 6, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[6]\n",
        "ldr d6, [x16, #416]\n",
        "fmla v13.8h, v7.8h, v1.h[6]\n",
        "fmla v17.8h, v7.8h, v2.h[6]\n",
        "fmla v21.8h, v7.8h, v3.h[6]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[6]\n",
        "ldr x30, [x16, #440]\n",
        "fmla v29.8h, v7.8h, v5.h[6]\n",
        // b26: K value 6, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[6]\n",
        "ldr d7, [x16, #432]\n",
        "fmla v14.8h, v6.8h, v1.h[6]\n",
        "fmla v18.8h, v6.8h, v2.h[6]\n",
        "fmla v22.8h, v6.8h, v3.h[6]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[6]\n",
        "ldr x28, [x16, #456]\n",
        "fmla v30.8h, v6.8h, v5.h[6]\n",
        // b27: K value 6, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[6]\n",
        "ldr d6, [x16, #448]\n",
        "fmla v15.8h, v7.8h, v1.h[6]\n",
        "fmla v19.8h, v7.8h, v2.h[6]\n",
        "fmla v23.8h, v7.8h, v3.h[6]\n",
        "ins v6.d[1], x28\n",
        "fmla v27.8h, v7.8h, v4.h[6]\n",
        "ldr x30, [x16, #472]\n",
        "fmla v31.8h, v7.8h, v5.h[6]\n",
        // b28: K value 7, columns 0-7
        "fmla v8.8h, v6.8h, v0.h[7]\n",
        "ldr d7, [x16, #464]\n",
        "fmla v12.8h, v6.8h, v1.h[7]\n",
        "fmla v16.8h, v6.8h, v2.h[7]\n",
        "fmla v20.8h, v6.8h, v3.h[7]\n",
        "ins v7.d[1], x30\n",
        "fmla v24.8h, v6.8h, v4.h[7]\n",
        "ldr x28, [x16, #488]\n",
        "fmla v28.8h, v6.8h, v5.h[7]\n",
        // b29: K value 7, columns 8-15
        "fmla v9.8h, v7.8h, v0.h[7]\n",
        "ldr d6, [x16, #480]\n",
        "fmla v13.8h, v7.8h, v1.h[7]\n",
        "fmla v17.8h, v7.8h, v2.h[7]\n",
        "fmla v21.8h, v7.8h, v3.h[7]\n",
        "ins v6.d[1], x28\n",
        "fmla v25.8h, v7.8h, v4.h[7]\n",
        "ldr x30, [x16, #504]\n",
        "fmla v29.8h, v7.8h, v5.h[7]\n",
        // b30: K value 7, columns 16-23
        "fmla v10.8h, v6.8h, v0.h[7]\n",
        "ldr d7, [x16, #496]\n",
        "fmla v14.8h, v6.8h, v1.h[7]\n",
        "fmla v18.8h, v6.8h, v2.h[7]\n",
        "fmla v22.8h, v6.8h, v3.h[7]\n",
        "ins v7.d[1], x30\n",
        "fmla v26.8h, v6.8h, v4.h[7]\n",
        prefetch!($p, "ldr x28, [x16, #520]"),
        "fmla v30.8h, v6.8h, v5.h[7]\n",
        // b31: K value 7, columns 24-31
        "fmla v11.8h, v7.8h, v0.h[7]\n",
        prefetch!($p, "ldr d6, [x16, #512]"),
        "fmla v15.8h, v7.8h, v1.h[7]\n",
        prefetch!($p, "ldr x23, [x10, x27]"),
        "fmla v19.8h, v7.8h, v2.h[7]\n",
        "fmla v23.8h, v7.8h, v3.h[7]\n",
        prefetch!($p, "ins v6.d[1], x28"),
        "fmla v27.8h, v7.8h, v4.h[7]\n",
        prefetch!($p, "ldr x30, [x16, #536]"),
        "fmla v31.8h, v7.8h, v5.h[7]\n",
        "add x16, x16, #512\n",
    ) };
}

float_kernel! {
    /// Computes, for `i < m` and `j < n`, starting from `acc = bias[j]`,
    ///
    /// ```text
    /// acc = f16(rhs[kk][j] * lhs[i][kk] + acc) for kk in 0..k;  dst[i][j] = max(min(acc, clamp_max), clamp_min)
    /// ```
    ///
    /// with every step rounded to f16 and the bounds given as f16 bits.
    ///
    /// # Safety
    ///
    /// * The CPU implements FEAT_FP16; `m >= 1`, `n >= 1`; `lhs_stride` and `dst_stride` are even.
    /// * LHS row `i < m` is readable for `k` halves at `lhs + i * lhs_stride` (unaligned is fine).
    /// * `rhs_packed` is readable for `ceil(n / 32)` groups of `64 * (k + 1)` bytes (32 biases, then
    ///   32 values per K value).
    /// * For every `i < m`, `j < n`, the 2 bytes at `dst + i * dst_stride + 2 * j` are writable and
    ///   overlap neither input. Nothing else is written.
    #[target_feature(enable = "fp16")]
    fn matmul_f16_f16p32x1b_6x32_a55: f16, 6 x 32, "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55", in_order k_block;
}
