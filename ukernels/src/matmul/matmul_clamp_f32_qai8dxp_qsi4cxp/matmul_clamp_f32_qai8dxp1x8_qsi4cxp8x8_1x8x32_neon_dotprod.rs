//! `kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod`: GEMV (1 row x 8 columns per
//! step) with FEAT_DotProd `SDOT`, the whole m x n computation in one `asm!` block.
//!
//! Loop order: column groups of 8 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), K in passes of 32 values x 8 columns. Nibbles decode as `byte & 0xf0` and
//! `byte << 4` (16x the value; the packer pre-scales sums and scales to match).

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 8` and
    /// `kr / sr = 8` (`s16s0` RHS).
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp1x8_qsi4cxp8x8_1x8: per_channel(8 cols, int4), "matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer.
    //
    //   v0-v3   accumulators of the low nibbles, column pairs 0..3
    //   v4-v7   accumulators of the high nibbles, column pairs 0..3
    //           (lanes 0-1: first column of the pair, lanes 2-3: second)
    //   v16-v23 RHS bytes: v16-v19 super-block 0, v20-v23 super-block 1;
    //           shifted left by 4 in place (= 16 * low nibble)
    //   v24-v27 LHS 8-byte slices lq[0..8], [8..16], [16..24], [24..32],
    //           each replicated in both 64-bit halves (one LD4R)
    //   v28-v30 byte & 0xF0 (= 16 * high nibble), rotating
    //   v31     0xF0 mask
    // v8-v15 (callee-saved) are not used. The epilogue reuses v16-v27.
    setup ["movi v31.16b, #0xf0"]
    row_start [
        "mov x12, x2",
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7"),
        // ---- K loop: 32 K values x 8 columns per iteration ----
    ]
    k_loop [
        "ld4r {{v24.2d, v25.2d, v26.2d, v27.2d}}, [x9], #32",
        // super-block 0: low nibbles x lq[0..8], high x lq[16..24]
        "ldr q16, [x10]",
        "and v28.16b, v16.16b, v31.16b",
        "shl v16.16b, v16.16b, #4",
        "sdot v0.4s, v16.16b, v24.16b",
        "sdot v4.4s, v28.16b, v26.16b",
        "ldr q17, [x10, #16]",
        "and v29.16b, v17.16b, v31.16b",
        "shl v17.16b, v17.16b, #4",
        "sdot v1.4s, v17.16b, v24.16b",
        "sdot v5.4s, v29.16b, v26.16b",
        "ldr q18, [x10, #32]",
        "and v30.16b, v18.16b, v31.16b",
        "shl v18.16b, v18.16b, #4",
        "sdot v2.4s, v18.16b, v24.16b",
        "sdot v6.4s, v30.16b, v26.16b",
        "ldr q19, [x10, #48]",
        "and v28.16b, v19.16b, v31.16b",
        "shl v19.16b, v19.16b, #4",
        "sdot v3.4s, v19.16b, v24.16b",
        "sdot v7.4s, v28.16b, v26.16b",
        // super-block 1: low nibbles x lq[8..16], high x lq[24..32]
        "ldr q20, [x10, #64]",
        "and v29.16b, v20.16b, v31.16b",
        "shl v20.16b, v20.16b, #4",
        "sdot v0.4s, v20.16b, v25.16b",
        "sdot v4.4s, v29.16b, v27.16b",
        "ldr q21, [x10, #80]",
        "and v30.16b, v21.16b, v31.16b",
        "shl v21.16b, v21.16b, #4",
        "sdot v1.4s, v21.16b, v25.16b",
        "sdot v5.4s, v30.16b, v27.16b",
        "ldr q22, [x10, #96]",
        "and v28.16b, v22.16b, v31.16b",
        "shl v22.16b, v22.16b, #4",
        "sdot v2.4s, v22.16b, v25.16b",
        "sdot v6.4s, v28.16b, v27.16b",
        "ldr q23, [x10, #112]",
        "add x10, x10, #128",
        "and v29.16b, v23.16b, v31.16b",
        "shl v23.16b, v23.16b, #4",
        "subs x12, x12, #1",
        "sdot v3.4s, v23.16b, v25.16b",
        "sdot v7.4s, v29.16b, v27.16b",
    ]
    row_end [
        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d24, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldp q16, q17, [x10]", // rsum
        "ldp q18, q19, [x10, #32]", // rscale
        "ldp q20, q21, [x10, #64]", // bias
        "add v0.4s, v0.4s, v4.4s",
        "add v1.4s, v1.4s, v5.4s",
        "add v2.4s, v2.4s, v6.4s",
        "add v3.4s, v3.4s, v7.4s",
        "addp v0.4s, v0.4s, v1.4s", // columns 0..3
        "addp v2.4s, v2.4s, v3.4s", // columns 4..7
        dequant_row2!("16", "17", "18", "19", "18", "19", "20", "21";
            "0", "2", "24"["0"], "24"["1"]),
        "dup v22.4s, w15",
        "dup v23.4s, w16",
        clamp_v!("4s"; "0", "2"; "22", "23"),
        // ---- store 8 columns, or the n % 8 tail ----
        store_cols8!("0", "2", "x1", "x11", "x13"; "5", "7", "8", "6"),
    ]
    clobber x(8 9 10 11 12 13) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
}
