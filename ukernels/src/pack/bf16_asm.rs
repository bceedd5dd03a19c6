//! Assembly fragments shared by the bf16 packers' NEON paths.

/// Sets up the constants of [`bf16_from!`]: v24 = 0x7fff, v25 = 1, v26 = 0x40,
/// v27 = 0x7fffffff, v28 = 0x7f800000 (all 32-bit lanes). Clobbers w17.
macro_rules! bf16_constants {
    () => {
        concat!(
            "movi v24.4s, #0x7f, msl #8\n",
            "movi v25.4s, #1\n",
            "movi v26.4s, #0x40\n",
            "mvni v27.4s, #0x80, lsl #24\n",
            "mov w17, #0x7f800000\n",
            "dup v28.4s, w17\n",
        )
    };
}

/// Rounds the four f32 lanes of `v$src` to bf16 as `BFCVT` does (nearest even; NaNs quieted
/// with their upper payload) and narrows them into `v$dst` with `$op` (`xtn` into the low half,
/// `xtn2` into the high half; `$arrangement` `4h` or `8h`). Needs [`bf16_constants!`]; clobbers
/// v16-v18.
#[rustfmt::skip]
macro_rules! bf16_from {
    ($src:literal, $op:literal, $dst:literal, $arrangement:literal) => {
        concat!(
            "ushr v16.4s, v", $src, ".4s, #16\n",
            "and v17.16b, v16.16b, v25.16b\n",
            "add v17.4s, v17.4s, v24.4s\n",
            "add v17.4s, v17.4s, v", $src, ".4s\n",
            "ushr v17.4s, v17.4s, #16\n",
            "orr v16.16b, v16.16b, v26.16b\n",
            "and v18.16b, v", $src, ".16b, v27.16b\n",
            "cmhi v18.4s, v18.4s, v28.4s\n",
            "bsl v18.16b, v16.16b, v17.16b\n",
            $op, " v", $dst, ".", $arrangement, ", v18.4s\n",
        )
    };
}
