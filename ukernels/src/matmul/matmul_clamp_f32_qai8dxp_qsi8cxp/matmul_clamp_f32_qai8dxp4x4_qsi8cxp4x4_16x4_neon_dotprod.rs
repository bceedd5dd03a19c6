//! `kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod`: GEMM (16 rows x 4 columns per
//! step) with FEAT_DotProd `SDOT` (by element), the whole m x n computation in one `asm!` block.
//! Operands: a dynamically quantized int8 LHS (packed 4 rows x 4-deep blocks) and a per-channel
//! symmetric int8 RHS (packed 4 columns x 4-deep blocks).
//!
//! Register plan of the single `asm!` block:
//!
//! * `v16`..`v31` — accumulators: `v(16 + r)` holds tile row `r` (LHS group
//!   `r / 4`, lane `r % 4`), lane `j` = column `j`. Every accumulator takes
//!   one `sdot` per 4-deep block, eight per iteration.
//! * `v8`..`v11` / `v12`..`v15` — LHS of an even / odd 4-deep block, one
//!   register per group (lane `r` = the 4 values of the group's row `r`).
//! * `v0`..`v7` — RHS of the eight 4-deep blocks of a chunk (lane `j` = the 4
//!   values of column `j`).
//!
//! One K-loop iteration covers a 32-deep chunk: 8 RHS and 32 LHS `ldr q` and
//! 128 `sdot` (2048 MACs). Single loads rather than `ldp q` pairs: Neoverse V2
//! cracks an `ldp q` into three uops, which cost a cycle per iteration there
//! (llvm-mca: 33 against 32, KleidiAI's loop 32). The LHS of a row block lives in up to four
//! groups; a group past the block's last row is replaced by group 0, so only
//! groups holding rows are ever read.
//!
//! The accumulators already hold tile rows, so the epilogue offsets,
//! rescales, clamps and stores them one row at a time, stopping at the
//! block's last row.


/// Two 4-deep K blocks (RHS already in `v$r0`, `v$r1`) at byte offsets `$o`
/// and `$o16` (= `$o + 16`) of every LHS pointer: the LHS of both blocks into
/// `v8`..`v15`, then 32 `sdot` by element.
macro_rules! k_block_pair {
    ($o:literal, $o16:literal, $r0:literal, $r1:literal) => {
        concat!(
            concat!("ldr q8, [x20, #", $o, "]\n"),
            concat!("ldr q12, [x20, #", $o16, "]\n"),
            concat!("ldr q9, [x21, #", $o, "]\n"),
            concat!("ldr q13, [x21, #", $o16, "]\n"),
            concat!("ldr q10, [x22, #", $o, "]\n"),
            concat!("ldr q14, [x22, #", $o16, "]\n"),
            concat!("ldr q11, [x23, #", $o, "]\n"),
            concat!("ldr q15, [x23, #", $o16, "]\n"),
            k_block!($r0, "8", "9", "10", "11"),
            k_block!($r1, "12", "13", "14", "15"),
        )
    };
}

/// One 4-deep K block: RHS `v$r`, LHS groups 0..3 in `v$g0`..`v$g3`.
macro_rules! k_block {
    ($r:literal, $g0:literal, $g1:literal, $g2:literal, $g3:literal) => {
        concat!(
            concat!("sdot v16.4s, v", $r, ".16b, v", $g0, ".4b[0]\n"),
            concat!("sdot v17.4s, v", $r, ".16b, v", $g0, ".4b[1]\n"),
            concat!("sdot v18.4s, v", $r, ".16b, v", $g0, ".4b[2]\n"),
            concat!("sdot v19.4s, v", $r, ".16b, v", $g0, ".4b[3]\n"),
            concat!("sdot v20.4s, v", $r, ".16b, v", $g1, ".4b[0]\n"),
            concat!("sdot v21.4s, v", $r, ".16b, v", $g1, ".4b[1]\n"),
            concat!("sdot v22.4s, v", $r, ".16b, v", $g1, ".4b[2]\n"),
            concat!("sdot v23.4s, v", $r, ".16b, v", $g1, ".4b[3]\n"),
            concat!("sdot v24.4s, v", $r, ".16b, v", $g2, ".4b[0]\n"),
            concat!("sdot v25.4s, v", $r, ".16b, v", $g2, ".4b[1]\n"),
            concat!("sdot v26.4s, v", $r, ".16b, v", $g2, ".4b[2]\n"),
            concat!("sdot v27.4s, v", $r, ".16b, v", $g2, ".4b[3]\n"),
            concat!("sdot v28.4s, v", $r, ".16b, v", $g3, ".4b[0]\n"),
            concat!("sdot v29.4s, v", $r, ".16b, v", $g3, ".4b[1]\n"),
            concat!("sdot v30.4s, v", $r, ".16b, v", $g3, ".4b[2]\n"),
            concat!("sdot v31.4s, v", $r, ".16b, v", $g3, ".4b[3]\n"),
        )
    };
}

/// Finish the tile row held in accumulator `v$a` (lane `$i` of the group's offsets `v$vo` and
/// scales `v$vs`; `v2` rsum, `v3` rscale, `v4` bias, `v0`/`v1` clamp, `v7` temporary), store
/// its first `x26` (1..=4) columns at `x27` (clobbers `x28`), then advance `x27`.
macro_rules! row {
    ($a:literal, $vo:literal, $vs:literal, $i:literal) => {
        concat!(
            dequant_row!(convert_first, $a; "2", $vo[$i]; "3", $vs[$i] -> "7"; "4"; "0", "1"),
            store_cols4!(cmp, $a, "x26", "x27", "x28"; "5", "6", "8"),
            "add x27, x27, x6\n",
        )
    };
}

qsi8cxp_16x4_gemm! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr = 4`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must support `FEAT_DotProd`.
    #[target_feature(enable = "dotprod")]
    fn matmul_f32_qai8dxp4x4_qsi8cxp4x4_16x4: "matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod";
    prelude []
    k_loop [
        "ldr q0, [x24]",
        "ldr q1, [x24, #16]",
        "ldr q2, [x24, #32]",
        "ldr q3, [x24, #48]",
        "ldr q4, [x24, #64]",
        "ldr q5, [x24, #80]",
        "ldr q6, [x24, #96]",
        "ldr q7, [x24, #112]",
        k_block_pair!("0", "16", "0", "1"),
        k_block_pair!("32", "48", "2", "3"),
        k_block_pair!("64", "80", "4", "5"),
        k_block_pair!("96", "112", "6", "7"),
    ]
    rows [
        each_row!(row, lt, "x11", "25";
            ("16", "8", "9", "0") ("17", "8", "9", "1") ("18", "8", "9", "2")
            ("19", "8", "9", "3") ("20", "10", "11", "0") ("21", "10", "11", "1")
            ("22", "10", "11", "2") ("23", "10", "11", "3") ("24", "12", "13", "0")
            ("25", "12", "13", "1") ("26", "12", "13", "2") ("27", "12", "13", "3")
            ("28", "14", "15", "0") ("29", "14", "15", "1") ("30", "14", "15", "2")
            ("31", "14", "15", "3")),
    ]
}
