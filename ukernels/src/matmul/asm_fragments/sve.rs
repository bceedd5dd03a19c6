//! SVE fragments: zeroing and predicated row stores (`zero_z!`, `st1w_row!`), the SVE2 int4
//! GEMMs' nibble decoding and epilogue steps (`sve_nibble_super_block!`, `scvtf_z!`, `zop3!`,
//! `mla_z!`, `bias_clamp_z!`), and the `6x4vl` float kernels' tile (`sve_6x4vl_tile_head!`,
//! `sve_6x4vl_k_step!`, `sve_6x4vl_k_tail!`, `sve_6x4vl_tile_end!`).
//!
//! Users: the vector-length-agnostic SVE2 `qai8dxp` kernels and their templates, and the SVE
//! `matmul_clamp_f32_f32_f32p` and `imatmul_clamp_f32_f32_f32p` kernels.

/// `MOV z$r.s, #0` for each listed SVE register.
macro_rules! zero_z {
    ($($r:literal),+ $(,)?) => {
        concat!($(concat!("mov z", $r, ".s, #0\n"),)+)
    };
}

/// Stores one tile row of SVE vectors `z$z...` at `[$ptr]`, `[$ptr, #1, mul vl]`, ...,
/// vector `i` under predicate `p(i + 1)` (the columns of each vector in the tile).
macro_rules! st1w_row {
    ($ptr:literal; $($z:literal),+) => {
        st1w_row!(@go $ptr; ["p1", "p2", "p3", "p4"] [", #1, mul vl", ", #2, mul vl", ", #3, mul vl"];
            ""; $($z),+)
    };
    (@go $ptr:literal; [$p:literal $(, $ps:literal)*] [$($os:literal),*]; $off:literal; $z:literal $(, $zs:literal)*) => {
        concat!(
            concat!("st1w {{z", $z, ".s}}, ", $p, ", [", $ptr, $off, "]\n"),
            st1w_row!(@next $ptr; [$($ps),*] [$($os),*]; $($zs),*),
        )
    };
    (@next $ptr:literal; [$($ps:literal),*] [$o:literal $(, $os:literal)*]; $($zs:literal),+) => {
        st1w_row!(@go $ptr; [$($ps),*] [$($os),*]; $o; $($zs),+)
    };
    (@next $ptr:literal; [$($ps:literal),*] [$($os:literal),*];) => {
        ""
    };
}

/// One nibble super-block of the SVE2 int4 GEMMs' K loop: two vectors of packed nibbles at
/// `$p` + `$o0` / `$o1` vectors into z0/z1 (`$lhs0`, the LHS loads of the low half, between),
/// split into `byte << 4` (z0/z1, in place) and `byte & 0xf0` (z2/z3; the mask in z12), both 16x
/// the int4 values, then `$slice!` of the low nibbles, `$lhs1`, `$slice!` of the high ones.
macro_rules! sve_nibble_super_block {
    ($slice:ident; $p:literal, $o0:literal, $o1:literal; $lhs0:expr; $lhs1:expr) => {
        concat!(
            "ld1b {{z0.b}}, p0/z, [",
            $p,
            ", #",
            $o0,
            ", mul vl]\n",
            "ld1b {{z1.b}}, p0/z, [",
            $p,
            ", #",
            $o1,
            ", mul vl]\n",
            $lhs0,
            "and z2.d, z0.d, z12.d\n",
            "and z3.d, z1.d, z12.d\n",
            "lsl z0.b, z0.b, #4\n",
            "lsl z1.b, z1.b, #4\n",
            $slice!("0", "1"),
            $lhs1,
            $slice!("2", "3"),
        )
    };
}

/// SVE, the end of a dequantised row: `FADD z$a, z$a, z$bias` for each `($a, $bias)`, then
/// `FMAX` with `z$lo` and `FMIN` with `z$hi` for each (under `p0`).
macro_rules! bias_clamp_z {
    ($(($a:literal, $b:literal))+; $lo:literal, $hi:literal) => {
        concat!(
            $(concat!("fadd z", $a, ".s, z", $a, ".s, z", $b, ".s\n"),)+
            $(concat!("fmax z", $a, ".s, p0/m, z", $a, ".s, z", $lo, ".s\n"),)+
            $(concat!("fmin z", $a, ".s, p0/m, z", $a, ".s, z", $hi, ".s\n"),)+
        )
    };
}

/// SVE: `SCVTF z$r.s, p0/m, z$r.s` (int32 to f32) for each listed register.
macro_rules! scvtf_z {
    ($($r:literal),+) => {
        concat!($(concat!("scvtf z", $r, ".s, p0/m, z", $r, ".s\n"),)+)
    };
}

/// SVE: `$op z$d.$t, z$n.$t, z$m.$t` for each `($d, $n, $m)` (unpredicated `uzp1`, `uzp2`,
/// `add`, `fmul`, ...).
macro_rules! zop3 {
    ($op:literal $t:literal; $(($d:literal, $n:literal, $m:literal))+) => {
        concat!($(concat!($op, " z", $d, ".", $t, ", z", $n, ".", $t, ", z", $m, ".", $t, "\n"),)+)
    };
}

/// SVE: `MLA z$d.s, p0/m, z$n.s, z$m.s` for each `($d, $n, $m)` (`d += n * m`, int32).
macro_rules! mla_z {
    ($(($d:literal, $n:literal, $m:literal))+) => {
        concat!($(concat!("mla z", $d, ".s, p0/m, z", $n, ".s, z", $m, ".s\n"),)+)
    };
}

/// The 24 `FMLA`s of one K value of the SVE 6 x 4VL f32 tiles (element `$l` of each segment of the
/// six LHS rows in `z0`..`z5`, accumulators `z8`..`z31` by row): loads the packed row's four
/// vectors from `x16` (under `p0`) and advances it.
macro_rules! sve_6x4vl_k_step {
    ($l:literal) => {
        concat!(
            "ld1w {{z6.s}}, p0/z, [x16]\n",
            "ld1w {{z7.s}}, p0/z, [x16, #1, mul vl]\n",
            concat!("fmla z8.s, z6.s, z0.s[", $l, "]\n"),
            concat!("fmla z12.s, z6.s, z1.s[", $l, "]\n"),
            concat!("fmla z16.s, z6.s, z2.s[", $l, "]\n"),
            concat!("fmla z20.s, z6.s, z3.s[", $l, "]\n"),
            concat!("fmla z24.s, z6.s, z4.s[", $l, "]\n"),
            concat!("fmla z28.s, z6.s, z5.s[", $l, "]\n"),
            concat!("fmla z9.s, z7.s, z0.s[", $l, "]\n"),
            concat!("fmla z13.s, z7.s, z1.s[", $l, "]\n"),
            concat!("fmla z17.s, z7.s, z2.s[", $l, "]\n"),
            concat!("fmla z21.s, z7.s, z3.s[", $l, "]\n"),
            concat!("fmla z25.s, z7.s, z4.s[", $l, "]\n"),
            concat!("fmla z29.s, z7.s, z5.s[", $l, "]\n"),
            "ld1w {{z6.s}}, p0/z, [x16, #2, mul vl]\n",
            "ld1w {{z7.s}}, p0/z, [x16, #3, mul vl]\n",
            concat!("fmla z10.s, z6.s, z0.s[", $l, "]\n"),
            concat!("fmla z14.s, z6.s, z1.s[", $l, "]\n"),
            concat!("fmla z18.s, z6.s, z2.s[", $l, "]\n"),
            concat!("fmla z22.s, z6.s, z3.s[", $l, "]\n"),
            concat!("fmla z26.s, z6.s, z4.s[", $l, "]\n"),
            concat!("fmla z30.s, z6.s, z5.s[", $l, "]\n"),
            concat!("fmla z11.s, z7.s, z0.s[", $l, "]\n"),
            concat!("fmla z15.s, z7.s, z1.s[", $l, "]\n"),
            concat!("fmla z19.s, z7.s, z2.s[", $l, "]\n"),
            concat!("fmla z23.s, z7.s, z3.s[", $l, "]\n"),
            concat!("fmla z27.s, z7.s, z4.s[", $l, "]\n"),
            concat!("fmla z31.s, z7.s, z5.s[", $l, "]\n"),
            "addvl x16, x16, #4\n",
        )
    };
}

/// The head of a column tile of the SVE 6 x 4VL f32 kernels (label `20`): `x25` = the tile's
/// columns (`x17` columns left, at most 4 x VL32), their predicates p1-p4, and the bias row at
/// `x16` (advanced past it) as every row's starting accumulators z8..z31. Uses x26.
macro_rules! sve_6x4vl_tile_head {
    () => {
        concat!(
            "20:\n",
            "cntw x26, all, mul #4\n",
            "cmp x17, x26\n",
            "csel x25, x17, x26, lt\n",
            "mov x26, #0\n",
            "whilelt p1.s, x26, x25\n",
            "incw x26\n",
            "whilelt p2.s, x26, x25\n",
            "incw x26\n",
            "whilelt p3.s, x26, x25\n",
            "incw x26\n",
            "whilelt p4.s, x26, x25\n",
            "ld1w {{z8.s}}, p0/z, [x16]\n",
            "ld1w {{z9.s}}, p0/z, [x16, #1, mul vl]\n",
            "ld1w {{z10.s}}, p0/z, [x16, #2, mul vl]\n",
            "ld1w {{z11.s}}, p0/z, [x16, #3, mul vl]\n",
            "addvl x16, x16, #4\n",
            copy_rows!(z;
                ("8", "9", "10", "11") => ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
        )
    };
}

/// The K tail of the SVE 6 x 4VL f32 kernels (label `40`, done at `50`): the last `$k & 3` values
/// (1 to 3, in `x21`) of the six rows at `x10`..`x15` + `$at` bytes, one predicated block load
/// (inactive elements are not accessed), then value by value.
macro_rules! sve_6x4vl_k_tail {
    ($k:literal, $at:literal) => {
        concat!(
            "40:\n",
            "ands x21, ", $k, ", #3\n",
            "b.eq 50f\n",
            "whilelt p5.s, xzr, x21\n",
            load_rows!(ld1rqw "p5", $at; "x10", "x11", "x12", "x13", "x14", "x15"),
            sve_6x4vl_k_step!("0"),
            "cmp x21, #1\n",
            "b.eq 50f\n",
            sve_6x4vl_k_step!("1"),
            "cmp x21, #2\n",
            "b.eq 50f\n",
            sve_6x4vl_k_step!("2"),
        )
    };
}

/// The end of a column tile of the SVE 6 x 4VL f32 kernels: z8..z31 clamped to `[z1, z0]`, the
/// `x24` rows stored from `x22` (rows `$stride` bytes apart, columns under p1-p4), then the next
/// tile (back to label `20` while columns are left in `x17`). Uses x23 and x26.
macro_rules! sve_6x4vl_tile_end {
    ($stride:literal) => {
        concat!(
            fmin_fmax!(z;
                "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"; "0", "1"),
            "mov x23, x22\n",
            each_row!(st1w_row["x23";], le, "x24", "60", "x23", $stride;
                ("8", "9", "10", "11") ("12", "13", "14", "15") ("16", "17", "18", "19")
                ("20", "21", "22", "23") ("24", "25", "26", "27") ("28", "29", "30", "31")),
            "60:\n",
            "addvl x22, x22, #4\n",
            "cntw x26, all, mul #4\n",
            "subs x17, x17, x26\n",
            "b.gt 20b\n",
        )
    };
}
