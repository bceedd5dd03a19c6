//! `kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod`: GEMV (1 row x 4 columns per step)
//! with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!` block.
//! Operands: a dynamically quantized int8 LHS (one row per group, K in order) and a per-channel
//! symmetric int8 RHS (packed 4 columns x 4-deep blocks).
//!
//! Loop order: column groups of 4 outside, rows inside (a group's weights stay in L1 while every
//! row uses them), K in passes of 32 values x 4 columns.


/// One 4-deep K block: `sdot` of the RHS block `v$r` (lane `j` = column `j`)
/// with the 4 LHS values in lane `$i` of `v$l`, into accumulator `v$a`.
macro_rules! k_block {
    ($a:literal, $r:literal, $l:literal, $i:literal) => {
        concat!("sdot v", $a, ".4s, v", $r, ".16b, v", $l, ".4b[", $i, "]\n")
    };
}

qai8dxp_gemv! {
    /// The family's computation and [contract](super#safety) with `mr = 1`, `nr = 4` and
    /// `kr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp1x4_qsi8cxp4x4_1x4: per_channel(4 cols, int8), "matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod";
    // Register map: the template's (`qai8dxp_gemv!`); x13 the partial-store pointer.
    //
    //   v0-v7   accumulators: v(b) takes 4-deep block b of a pass (lane j =
    //           column j); one SDOT each per iteration, so the loop is bound
    //           by the pipes, not by the SDOT latency
    //   v16-v23 RHS: v(16+b) block b (lane j = 4 values of column j)
    //   v24/v25 LHS values 0..16 / 16..32 of the pass (lane i of v24 = block
    //           i, of v25 = block 4 + i)
    //   v28/v29 clamp_min / clamp_max in every lane
    // v8-v15 (callee-saved) are not used. The epilogue reuses v16-v18 and v24.
    setup ["dup v28.4s, w15", "dup v29.4s, w16"]
    row_start [
        "mov x12, x2",
        zero_v!("16b"; "0", "1", "2", "3", "4", "5", "6", "7"),
        // ---- K loop: 32 K values x 4 columns per iteration ----
    ]
    k_loop [
        "ldp q24, q25, [x9], #32",
        "ldp q16, q17, [x10]",
        "ldp q18, q19, [x10, #32]",
        "ldp q20, q21, [x10, #64]",
        "ldp q22, q23, [x10, #96]",
        rows_of_two_groups!(k_block;
            ("0", "16") ("1", "17") ("2", "18") ("3", "19") ["24"];
            ("4", "20") ("5", "21") ("6", "22") ("7", "23") ["25"]),
        "add x10, x10, #128",
        "subs x12, x12, #1",
    ]
    row_end [
        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
        "ldr d24, [x9], #8", // s[0] = lhs_offset, s[1] = lhs_scale
        "ldp q16, q17, [x10]", // rsum, rscale
        "ldr q18, [x10, #32]", // bias
        sum_sdot_chains_into_v0_v1!(),
        "add v0.4s, v0.4s, v1.4s", // columns 0..3
        per_channel_gemv4_row_end!(),
    ]
    clobber x(8 9 10 11 12 13) v(0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 24 25 28 29)
}
