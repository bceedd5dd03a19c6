//! `kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod`: GEMV (1 row x 4 columns per
//! step) with FEAT_DotProd `SDOT`, the whole m x n computation in one `asm!` block. Operands: a
//! dynamically quantized int8 LHS (one row per group, K in order) and a per-channel symmetric
//! int8 RHS (packed 4 columns x 8-deep blocks).
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), K in passes of 32 values x 4 columns.

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp1x8_qsi8cxp4x8_1x4: per_channel(4 cols, int8), "matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer.
    //
    //   v0-v7   accumulators: v(2b)/v(2b+1) take 8-deep block b of a pass,
    //           columns {0,1} / {2,3}; one SDOT each per iteration, so the
    //           loop is bound by the pipes, not by the SDOT latency
    //   v16-v23 RHS: v(16+2b)/v(17+2b) block b, columns {0,1} / {2,3}
    //   v24-v27 LHS 8-byte blocks 0..3, each replicated into both halves
    //   v28/v29 clamp_min / clamp_max in every lane
    // v8-v15 (callee-saved) are not used. The epilogue reuses v16-v24.
    setup ["dup v28.4s, w15", "dup v29.4s, w16"]
    row_start [
        "mov x12, x2",
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7"),
        // ---- K loop: 32 K values x 4 columns per iteration ----
    ]
    k_loop [
        // LHS: 32 values (blocks 0..3) in two loads, each 8-value block then
        // replicated into both halves of its register. Single `ldr q` loads,
        // not `ldp` pairs: V2 cracks an `ldp q` into three uops (6.0 against
        // 4.5 cycles per iteration in llvm-mca; N2 7.0 against 6.0).
        "ldr q24, [x9], #32",
        "ldur q26, [x9, #-16]",
        "ldr q16, [x10]",
        "ldr q17, [x10, #16]",
        "ldr q18, [x10, #32]",
        "dup v25.2d, v24.d[1]",
        "dup v24.2d, v24.d[0]",
        "ldr q19, [x10, #48]",
        "ldr q20, [x10, #64]",
        "dup v27.2d, v26.d[1]",
        "dup v26.2d, v26.d[0]",
        "ldr q21, [x10, #80]",
        "ldr q22, [x10, #96]",
        "ldr q23, [x10, #112]",
        // Block b: v(16+2b) columns {0,1}, v(17+2b) columns {2,3}, LHS v(24+b).
        "sdot v0.4s, v16.16b, v24.16b",
        "sdot v1.4s, v17.16b, v24.16b",
        "sdot v2.4s, v18.16b, v25.16b",
        "sdot v3.4s, v19.16b, v25.16b",
        "sdot v4.4s, v20.16b, v26.16b",
        "sdot v5.4s, v21.16b, v26.16b",
        "sdot v6.4s, v22.16b, v27.16b",
        "sdot v7.4s, v23.16b, v27.16b",
        "add x10, x10, #128",
        "subs x12, x12, #1",
    ]
    row_end [
        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d24, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldp q16, q17, [x10]", // rsum, rscale
        "ldr q18, [x10, #32]", // bias
        sum_sdot_chains_into_v0_v1!(),
        "addp v0.4s, v0.4s, v1.4s", // columns 0..3
        per_channel_gemv4_row_end!(),
    ]
    clobber x(8 9 10 11 12 13) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29)
}
