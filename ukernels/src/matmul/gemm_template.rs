//! Pieces of the integer GEMMs shared by kernels of different families whose tiles are walked the
//! same way: the 8-row `SDOT` (by element) steps and the loop frame of the 16 x 4 GEMMs that run
//! a 16-row tile as two passes of 8 rows.

/// Four `sdot` of one LHS group: rows `$a0..$a3` += RHS `$w` x lanes 0..3 of LHS `$l`.
macro_rules! sdot_group {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $w:literal, $l:literal) => {
        concat!(
            concat!("sdot v", $a0, ".4s, v", $w, ".16b, v", $l, ".4b[0]\n"),
            concat!("sdot v", $a1, ".4s, v", $w, ".16b, v", $l, ".4b[1]\n"),
            concat!("sdot v", $a2, ".4s, v", $w, ".16b, v", $l, ".4b[2]\n"),
            concat!("sdot v", $a3, ".4s, v", $w, ".16b, v", $l, ".4b[3]\n"),
        )
    };
}

/// One 4-value K slice of an 8-row pass (accumulators `v16`..`v23`): RHS `$w` x LHS `$l0`/`$l1`
/// (groups 0 and 1). With bases and an offset, each LHS register is reloaded right after its
/// last use from `[$b0, #$off]` / `[$b1, #$off]`.
macro_rules! sdot_pass8 {
    ($w:literal, $l0:literal, $l1:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            sdot_group!("20", "21", "22", "23", $w, $l1),
        )
    };
    ($w:literal, $l0:literal, $l1:literal, $b0:literal, $b1:literal, $off:literal) => {
        concat!(
            sdot_group!("16", "17", "18", "19", $w, $l0),
            concat!("ldur q", $l0, ", [", $b0, ", #", $off, "]\n"),
            sdot_group!("20", "21", "22", "23", $w, $l1),
            concat!("ldur q", $l1, ", [", $b1, ", #", $off, "]\n"),
        )
    };
}

/// The loop heads of a 16 x 4 GEMM run as two passes of 8 rows (`gemm[16 rows, "20"]`): row
/// blocks of 16 (label 20; `x15` columns left, `x16` RHS group, `x17` dst of the column tile),
/// column tiles of 4 (label 21; `x13` rows in the block, `x14` LHS group of the pass, `x22` dst of
/// the pass), passes (label 22; `x12` rows in the pass). `x28` is scratch.
macro_rules! pass16x4_start {
    () => {
        concat!(
            // ---- Row-block loop: 16 rows (four LHS groups) per iteration.
            "20:\n",
            "mov x15, x1\n",
            "mov x16, x4\n",
            "mov x17, x5\n",
            // ---- Column loop: 4 columns (one RHS group) per iteration.
            "21:\n",
            min_imm!("x13", "x0", "16", "x28"),
            "mov x14, x3\n",
            "mov x22, x17\n",
            // ---- Pass loop: 8 rows (two LHS groups) per iteration.
            "22:\n",
            min_imm!("x12", "x13", "8", "x28"),
        )
    };
}

/// Stores the first `x28` (1..=4) columns of pass row `$a` at `x27`. Clobbers `x26` and `$a`.
macro_rules! pass16x4_store_row {
    ($a:literal) => {
        store_cols4!(tbz, $a, "x28", "x27", "x26"; "5", "6", "8")
    };
}

/// The loop tails of [`pass16x4_start`]: stores the pass's rows `v24`..`v31` (8 full rows of 4
/// columns in one go, else `x12` rows of `x28` columns; `x26`, `x27` scratch), then the next pass
/// (`x7` bytes per LHS group, `x6` per dst row), the next column tile (`x8` bytes per RHS
/// group). Uses the local labels 5, 6, 8 and 25..27.
macro_rules! pass16x4_store_and_next {
    () => {
        concat!(
            // ---- Stores: x12 rows, x28 columns. Fast path: 8 full rows.
            min_imm!("x28", "x15", "4", "x28"),
            "mov x27, x22\n",
            "cmp x12, #8\n",
            "b.ne 25f\n",
            "cmp x28, #4\n",
            "b.ne 25f\n",
            store_rows_q!("x27", "x6"; "24", "25", "26", "27", "28", "29", "30", "31"),
            "b 26f\n",
            // Partial pass: x12 rows, x28 columns.
            "25:\n",
            each_row!(pass16x4_store_row, le, "x12", "26", "x27", "x6";
                ("24") ("25") ("26") ("27") ("28") ("29") ("30") ("31")),
            "26:\n",
            // Next pass: rows 8..16 of the tile.
            "subs x13, x13, #8\n",
            "b.le 27f\n",
            "add x14, x14, x7, lsl #1\n",
            "add x22, x22, x6, lsl #3\n",
            "b 22b\n",
            "27:\n",
            // Next column tile.
            "add x16, x16, x8\n",
            "add x17, x17, #16\n",
            "subs x15, x15, #4\n",
            "b.gt 21b\n",
        )
    };
}
