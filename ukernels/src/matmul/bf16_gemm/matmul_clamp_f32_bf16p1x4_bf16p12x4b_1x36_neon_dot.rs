//! `kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot`: bf16 GEMV, one row x 36 columns
//! (three packed groups of 12) per step, `BFDOT`, the whole row in one `asm!` block.
//!
//! A packed RHS vector holds 4 K values of two columns, `[c: k0 k1 k2 k3 | c+1: k0 k1 k2 k3]`, and
//! the LHS vector the row's 4 K values twice (`LD1R .2d`), so `BFDOT` adds K values 0-1 of column
//! `c` into lane 0 and K values 2-3 into lane 1 (lanes 2-3 likewise for `c + 1`). The two partial
//! sums start as `[bias, +0]` (`ZIP1`/`ZIP2` of the biases with zero) and `FADDP` joins them: the
//! order of KleidiAI's kernel, described in the parent module.
//!
//! Register plan of a 36-column step:
//!
//! * `v14`..`v31` — accumulators, column pair `p` of group `g` in `v(14 + 6g + p)`.
//! * `v0` — the LHS K group, both halves; `v1`..`v12` — RHS column pairs.
//!
//! One K iteration: one `LD1R`, 18 `LDR q` (288 bytes) and 18 `BFDOT`s (36 x 4 = 144 MACs), with
//! offset loads and one `add` per pointer. Remaining groups (one or two) take a 12-column step
//! (`v14`..`v19`); a partial last group is written to a scratch tile and copied element by
//! element.

use super::Args;

/// Accumulators of one group from its 12 biases in `q$b0`..`q$b2` and zero in `v0`: column pair
/// `p` in `v($a0 + p)` as `[bias, +0, bias, +0]`.
#[rustfmt::skip]
macro_rules! zip_biases {
    ($b0:literal, $b1:literal, $b2:literal,
     [$a0:literal, $a1:literal, $a2:literal, $a3:literal, $a4:literal, $a5:literal]) => {
        concat!(
            "zip1 v", $a0, ".4s, v", $b0, ".4s, v0.4s\n",
            "zip2 v", $a1, ".4s, v", $b0, ".4s, v0.4s\n",
            "zip1 v", $a2, ".4s, v", $b1, ".4s, v0.4s\n",
            "zip2 v", $a3, ".4s, v", $b1, ".4s, v0.4s\n",
            "zip1 v", $a4, ".4s, v", $b2, ".4s, v0.4s\n",
            "zip2 v", $a5, ".4s, v", $b2, ".4s, v0.4s\n",
        )
    };
}

/// One K group of one column group: six column pairs from `[$ptr]` into `v$r0`.. and a `BFDOT`
/// of each with the LHS in `v0` into accumulators `v$a0`..
#[rustfmt::skip]
macro_rules! group_step {
    ($ptr:literal,
     [$r0:literal, $r1:literal, $r2:literal, $r3:literal, $r4:literal, $r5:literal],
     [$a0:literal, $a1:literal, $a2:literal, $a3:literal, $a4:literal, $a5:literal]) => {
        concat!(
            "ldr q", $r0, ", [", $ptr, "]\n",
            "ldr q", $r1, ", [", $ptr, ", #16]\n",
            "ldr q", $r2, ", [", $ptr, ", #32]\n",
            "ldr q", $r3, ", [", $ptr, ", #48]\n",
            "ldr q", $r4, ", [", $ptr, ", #64]\n",
            "ldr q", $r5, ", [", $ptr, ", #80]\n",
            "bfdot v", $a0, ".4s, v", $r0, ".8h, v0.8h\n",
            "bfdot v", $a1, ".4s, v", $r1, ".8h, v0.8h\n",
            "bfdot v", $a2, ".4s, v", $r2, ".8h, v0.8h\n",
            "bfdot v", $a3, ".4s, v", $r3, ".8h, v0.8h\n",
            "bfdot v", $a4, ".4s, v", $r4, ".8h, v0.8h\n",
            "bfdot v", $a5, ".4s, v", $r5, ".8h, v0.8h\n",
        )
    };
}

/// `FMIN` with the upper bound (`v1`), then `FMAX` with the lower (`v0`), of each `v$x`.
#[rustfmt::skip]
macro_rules! clamp {
    ($($x:literal),+) => {
        concat!(
            $("fmin v", $x, ".4s, v", $x, ".4s, v1.4s\n",)+
            $("fmax v", $x, ".4s, v", $x, ".4s, v0.4s\n",)+
        )
    };
}

/// The clamp bounds from `[x6]` (lower) and `[x6 + 4]` (upper) into `v0` and `v1`.
macro_rules! load_bounds {
    () => {
        "ld1r {{ v0.4s }}, [x6]\nadd x13, x6, #4\nld1r {{ v1.4s }}, [x13]"
    };
}

/// Computes one row of `n` columns of f32 results.
///
/// # Safety
///
/// * `n >= 1`.
/// * `lhs` is readable for `4 * k_groups` bf16 values, `rhs` for `ceil(n / 12)` packed groups of
///   12 f32 biases and `48 * k_groups` bf16 values (`group_bytes` bytes each).
/// * `dst` is writable for `n` f32 values (any alignment) and overlaps neither input.
/// * The CPU implements FEAT_BF16.
#[target_feature(enable = "bf16")]
pub unsafe fn matmul_bf16p1x4_bf16p12x4b_1x36(
    n: usize,
    k_groups: usize,
    lhs: *const u8,
    rhs: *const u8,
    dst: *mut u8,
    clamp_min: f32,
    clamp_max: f32,
) {
    let group_bytes = 12 * (4 + 8 * k_groups);
    let clamp = [clamp_min, clamp_max];
    let mut scratch = [0f32; 12];
    // SAFETY: the reads and writes stay within the buffers described in `# Safety` and the
    // scratch tile; every register written is an output or clobber; no stack use.
    unsafe {
        asm_clobbering_all_vectors!(
            // x0 LHS, x1 RHS group, x2 columns left, x3 destination, x4 group bytes,
            // x5 K groups, x6 clamp bounds, x7 scratch tile.
            "1:",
            "cmp x2, #36",
            "b.lt 10f",
            "add x9, x1, x4",
            "add x10, x9, x4",
            "ldp q1, q2, [x1]",
            "ldr q3, [x1, #32]",
            "ldp q4, q5, [x9]",
            "ldr q6, [x9, #32]",
            "ldp q7, q8, [x10]",
            "ldr q9, [x10, #32]",
            "movi v0.16b, #0",
            zip_biases!(1, 2, 3, [14, 15, 16, 17, 18, 19]),
            zip_biases!(4, 5, 6, [20, 21, 22, 23, 24, 25]),
            zip_biases!(7, 8, 9, [26, 27, 28, 29, 30, 31]),
            "add x8, x1, #48",
            "add x9, x9, #48",
            "add x10, x10, #48",
            "mov x11, x0",
            "mov x12, x5",
            "cbz x12, 3f",
            "2:",
            "// LLVM-MCA-BEGIN matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot",
            "ld1r {{ v0.2d }}, [x11]",
            "add x11, x11, #8",
            group_step!("x8", [1, 2, 3, 4, 5, 6], [14, 15, 16, 17, 18, 19]),
            "add x8, x8, #96",
            group_step!("x9", [7, 8, 9, 10, 11, 12], [20, 21, 22, 23, 24, 25]),
            "add x9, x9, #96",
            group_step!("x10", [1, 2, 3, 4, 5, 6], [26, 27, 28, 29, 30, 31]),
            "add x10, x10, #96",
            "subs x12, x12, #1",
            "// LLVM-MCA-END",
            "b.ne 2b",
            "3:",
            // Join the partial sums: [col 4q .. 4q+3] in v(14 + q).
            "faddp v14.4s, v14.4s, v15.4s",
            "faddp v15.4s, v16.4s, v17.4s",
            "faddp v16.4s, v18.4s, v19.4s",
            "faddp v17.4s, v20.4s, v21.4s",
            "faddp v18.4s, v22.4s, v23.4s",
            "faddp v19.4s, v24.4s, v25.4s",
            "faddp v20.4s, v26.4s, v27.4s",
            "faddp v21.4s, v28.4s, v29.4s",
            "faddp v22.4s, v30.4s, v31.4s",
            load_bounds!(),
            clamp!(14, 15, 16, 17, 18, 19, 20, 21, 22),
            "stp q14, q15, [x3]",
            "stp q16, q17, [x3, #32]",
            "stp q18, q19, [x3, #64]",
            "stp q20, q21, [x3, #96]",
            "str q22, [x3, #128]",
            "add x3, x3, #144",
            "add x1, x1, x4",
            "add x1, x1, x4",
            "add x1, x1, x4",
            "sub x2, x2, #36",
            "b 1b",
            // One group of 12 columns (the last one or two groups).
            "10:",
            "cbz x2, 30f",
            "ldp q1, q2, [x1]",
            "ldr q3, [x1, #32]",
            "movi v0.16b, #0",
            zip_biases!(1, 2, 3, [14, 15, 16, 17, 18, 19]),
            "add x8, x1, #48",
            "mov x11, x0",
            "mov x12, x5",
            "cbz x12, 12f",
            "11:",
            "ld1r {{ v0.2d }}, [x11]",
            "add x11, x11, #8",
            group_step!("x8", [1, 2, 3, 4, 5, 6], [14, 15, 16, 17, 18, 19]),
            "add x8, x8, #96",
            "subs x12, x12, #1",
            "b.ne 11b",
            "12:",
            "faddp v14.4s, v14.4s, v15.4s",
            "faddp v15.4s, v16.4s, v17.4s",
            "faddp v16.4s, v18.4s, v19.4s",
            load_bounds!(),
            clamp!(14, 15, 16),
            "cmp x2, #12",
            "b.lt 20f",
            "stp q14, q15, [x3]",
            "str q16, [x3, #32]",
            "add x3, x3, #48",
            "add x1, x1, x4",
            "subs x2, x2, #12",
            "b 10b",
            // Partial group: through the scratch tile, x2 (1..11) elements.
            "20:",
            "stp q14, q15, [x7]",
            "str q16, [x7, #32]",
            "21:",
            "ldr w13, [x7], #4",
            "str w13, [x3], #4",
            "subs x2, x2, #1",
            "b.ne 21b",
            "30:",
            in("x0") lhs,
            inout("x1") rhs => _,
            inout("x2") n => _,
            inout("x3") dst => _,
            in("x4") group_bytes,
            in("x5") k_groups,
            in("x6") clamp.as_ptr(),
            inout("x7") scratch.as_mut_ptr() => _,
            out("x8") _, out("x9") _, out("x10") _, out("x11") _, out("x12") _, out("x13") _,
        );
    }
}

/// Runs the portion `a` (one row).
///
/// # Safety
/// The family's `check` passed (so `m == 1`), `a.n >= 1`, the buffers cover the portion, and
/// the CPU implements FEAT_BF16.
pub unsafe fn run(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe {
        matmul_bf16p1x4_bf16p12x4b_1x36(
            a.n,
            a.k.div_ceil(4),
            a.lhs_packed,
            a.rhs_packed,
            a.dst,
            a.clamp_min,
            a.clamp_max,
        )
    }
}
