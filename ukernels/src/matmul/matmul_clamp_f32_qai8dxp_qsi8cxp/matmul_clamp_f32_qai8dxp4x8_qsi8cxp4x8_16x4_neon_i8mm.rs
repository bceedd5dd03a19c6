//! `kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm`: GEMM (16 rows x 4 columns per
//! step) with FEAT_I8MM `SMMLA`, the whole m x n computation in one `asm!` block. Operands: a
//! dynamically quantized int8 LHS (packed 4 rows x 8-deep blocks) and a per-channel symmetric
//! int8 RHS (packed 4 columns x 8-deep blocks).
//!
//! Register plan of the single `asm!` block:
//!
//! * `v16`..`v31` — accumulators: `v(16 + 4g + 2h + cp)` holds the 2x2 block
//!   of LHS group `g` (0..4, rows `4g..4g+4` of the tile), row pair `h`
//!   (rows `{2h, 2h+1}` of the group) x columns `{2cp, 2cp+1}` as
//!   `[r0c0, r0c1, r1c0, r1c1]`. Every accumulator takes one `smmla` per
//!   8-deep block, four per iteration.
//! * `v8`..`v15` — LHS operands of one 8-deep block: `v(8 + 2g + h)` is row
//!   pair `h` of group `g` (16 bytes, two rows x 8 values).
//! * `v0`..`v3` — RHS of one 8-deep block (columns `{0,1}`, `{2,3}`), even
//!   blocks in `v0`/`v1`, odd blocks in `v2`/`v3`.
//!
//! One K-loop iteration covers a 32-deep chunk: 8 RHS and 32 LHS `ldr q`, 64
//! `smmla` (2048 MACs), 5 pointer `add`s, `subs` and `b.ne`. The LHS of a row
//! block lives in up to four groups; a group past the block's last row is
//! replaced by group 0, so only groups holding rows are ever read.
//!
//! The loop is bound by dispatch width on Neoverse V2 (6 uops per cycle; 4
//! `smmla` pipes need 16 cycles for 64 `smmla`), so its uop count matters, not
//! its instruction count: an `ldp q` costs three uops on V2 and N2 (two on V1)
//! where two `ldr q` cost two. With 20 `ldp q` the iteration was 131 uops
//! (21.8 cycles of dispatch on V2, 23 in llvm-mca: 70% of the `smmla` peak);
//! with 40 `ldr q` it is 111 uops (18.5 cycles: 86%). N2 and V1 stay bound by
//! their `smmla` pipes (32 and 16 cycles).
//!
//! The epilogue works one row pair at a time: `trn1`/`trn2` on `.2d` turn two
//! 2x2 blocks into two tile rows (`v5`, `v6`), which are offset, rescaled,
//! clamped and stored before the next pair; it stops at the block's last row.


/// One 8-deep K block at byte offset `$o` (`$p` = `$o + 16`) of every pointer:
/// RHS into `v$r0`/`v$r1`, LHS row pairs into `v8`..`v15`, then the 16 `smmla`.
///
/// Every operand register takes its own `ldr q` (one uop on Neoverse N2, V1
/// and V2) rather than sharing an `ldp q` (three uops on N2 and V2, two on
/// V1): the loop is dispatch-bound on V2, see the module notes.
macro_rules! k_block {
    ($o:literal, $p:literal, $r0:literal, $r1:literal) => {
        concat!(
            concat!("ldr q", $r0, ", [x24, #", $o, "]\n"),
            concat!("ldr q", $r1, ", [x24, #", $p, "]\n"),
            concat!("ldr q8, [x20, #", $o, "]\n"),
            concat!("ldr q9, [x20, #", $p, "]\n"),
            concat!("ldr q10, [x21, #", $o, "]\n"),
            concat!("ldr q11, [x21, #", $p, "]\n"),
            concat!("ldr q12, [x22, #", $o, "]\n"),
            concat!("ldr q13, [x22, #", $p, "]\n"),
            concat!("ldr q14, [x23, #", $o, "]\n"),
            concat!("ldr q15, [x23, #", $p, "]\n"),
            concat!("smmla v16.4s, v8.16b, v", $r0, ".16b\n"),
            concat!("smmla v17.4s, v8.16b, v", $r1, ".16b\n"),
            concat!("smmla v18.4s, v9.16b, v", $r0, ".16b\n"),
            concat!("smmla v19.4s, v9.16b, v", $r1, ".16b\n"),
            concat!("smmla v20.4s, v10.16b, v", $r0, ".16b\n"),
            concat!("smmla v21.4s, v10.16b, v", $r1, ".16b\n"),
            concat!("smmla v22.4s, v11.16b, v", $r0, ".16b\n"),
            concat!("smmla v23.4s, v11.16b, v", $r1, ".16b\n"),
            concat!("smmla v24.4s, v12.16b, v", $r0, ".16b\n"),
            concat!("smmla v25.4s, v12.16b, v", $r1, ".16b\n"),
            concat!("smmla v26.4s, v13.16b, v", $r0, ".16b\n"),
            concat!("smmla v27.4s, v13.16b, v", $r1, ".16b\n"),
            concat!("smmla v28.4s, v14.16b, v", $r0, ".16b\n"),
            concat!("smmla v29.4s, v14.16b, v", $r1, ".16b\n"),
            concat!("smmla v30.4s, v15.16b, v", $r0, ".16b\n"),
            concat!("smmla v31.4s, v15.16b, v", $r1, ".16b\n"),
        )
    };
}

/// Offset, rescale, add bias and clamp one tile row held in `v$r` (4 columns).
///
/// `$vo`/`$vs`: LHS offsets / scales of the row's group, `$i`: the row's lane
/// in them. Uses `v2` (rsum), `v3` (rscale), `v4` (bias), `v0`/`v1` (clamp)
/// and `v7` as a temporary.
macro_rules! epilogue_row {
    ($r:literal, $vo:literal, $vs:literal, $i:literal) => {
        dequant_row!(convert_first, $r; "2", $vo[$i]; "3", $vs[$i] -> "7"; "4"; "0", "1")
    };
}

/// Store one tile row held in `v$r` at `x27`, writing only the first `x26`
/// (1..=4) columns. Clobbers `x28` and `v$r`.
macro_rules! store_row {
    ($r:literal) => {
        store_cols4!(cmp, $r, "x26", "x27", "x28"; "5", "6", "8")
    };
}

/// Finish and store the row pair held in accumulators `v$a` (columns 0, 1)
/// and `v$b` (columns 2, 3): tile rows `$lo` and `$lo + 1`, lanes `$i0`/`$i1`
/// of the group's offsets `v$vo` and scales `v$vs`. Leaves for `25f` when the
/// tile has no row `$lo + 1` (`x11 < $hi`, with `$hi = $lo + 2`), and with `$next`
/// (`$hi + 1`) after the pair when it has no next pair.
macro_rules! row_pair {
    ($a:literal, $b:literal, $vo:literal, $vs:literal, $i0:literal, $i1:literal, $hi:literal;
     $next:literal) => {
        concat!(
            row_pair!($a, $b, $vo, $vs, $i0, $i1, $hi),
            concat!("cmp x11, #", $next, "\n"),
            "b.lt 25f\n",
        )
    };
    ($a:literal, $b:literal, $vo:literal, $vs:literal, $i0:literal, $i1:literal, $hi:literal) => {
        concat!(
            concat!("trn1 v5.2d, v", $a, ".2d, v", $b, ".2d\n"),
            concat!("trn2 v6.2d, v", $a, ".2d, v", $b, ".2d\n"),
            epilogue_row!("5", $vo, $vs, $i0),
            epilogue_row!("6", $vo, $vs, $i1),
            store_row!("5"),
            "add x27, x27, x6\n",
            concat!("cmp x11, #", $hi, "\n"),
            "b.lt 25f\n",
            store_row!("6"),
            "add x27, x27, x6\n",
        )
    };
}

qsi8cxp_16x4_gemm! {
    /// The family's computation and [contract](super#safety) with `mr = 4`, `nr = 4` and
    /// `kr = 8`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety); the CPU must implement `FEAT_I8MM`.
    #[target_feature(enable = "i8mm")]
    fn matmul_f32_qai8dxp4x8_qsi8cxp4x8_16x4: "matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm";
    prelude [
        ".arch_extension i8mm",
    ]
    k_loop [
        k_block!("0", "16", "0", "1"),
        k_block!("32", "48", "2", "3"),
        k_block!("64", "80", "0", "1"),
        k_block!("96", "112", "2", "3"),
    ]
    rows [
        row_pair!("16", "17", "8", "9", "0", "1", "2"; "3"),
        row_pair!("18", "19", "8", "9", "2", "3", "4"; "5"),
        row_pair!("20", "21", "10", "11", "0", "1", "6"; "7"),
        row_pair!("22", "23", "10", "11", "2", "3", "8"; "9"),
        row_pair!("24", "25", "12", "13", "0", "1", "10"; "11"),
        row_pair!("26", "27", "12", "13", "2", "3", "12"; "13"),
        row_pair!("28", "29", "14", "15", "0", "1", "14"; "15"),
        row_pair!("30", "31", "14", "15", "2", "3", "16"),
    ]
}
