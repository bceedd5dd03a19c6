//! `kai_matmul_clamp_{f32,f16}_bf16p8x4_bf16p12x4b_8x12_neon_mmla`: bf16 GEMM, 8 rows x 12
//! columns per tile, `BFMMLA` on 2x4 by 4x2 blocks, the whole m x n computation in one `asm!`
//! block (the f16 stem shares it: only the bias load and the final narrowing differ).
//!
//! Register plan:
//!
//! * `v8`..`v31` — accumulators: the 2x2 block of row pair `r` and column pair `c` in
//!   `v(8 + 6r + c)` as `[row 2r: col 2c, 2c+1 | row 2r+1: col 2c, 2c+1]`, initialised from the
//!   packed bias.
//! * `v0`..`v3` — one packed LHS group (4 K values of rows 0-1, 2-3, 4-5, 6-7).
//! * `v4`..`v7` — packed RHS column pairs, loaded two at a time.
//!
//! One K-loop iteration covers 4 K values: 4 `ldr q` of LHS, 6 `ldr q` of RHS (160 bytes) and
//! 24 `BFMMLA`s (8 x 12 x 4 = 384 MACs). Plain `ldr q` with offsets and one `add` per pointer,
//! rather than post-indexed `ldp q`, keep the loop within Neoverse V2's dispatch width.
//! Rows past `m` in the last block are the packer's copies of the block's first row and columns
//! past `n` the packer's zero columns: computed, not stored.
//! Partial tiles are written to a scratch tile first and copied element by element.

use super::Args;

/// Two output rows from the accumulators `v$a0`..`v$a5` of one row pair (`[row 2r: col 2c,
/// 2c+1 | row 2r+1: col 2c, 2c+1]` per column pair): `UZP1`/`UZP2` on doublewords give the
/// upper row's 12 columns in `v2`, `v4`, `v6` and the lower row's in `v3`, `v5`, `v7`.
#[rustfmt::skip]
macro_rules! split_rows {
    ($a0:literal, $a1:literal, $a2:literal, $a3:literal, $a4:literal, $a5:literal) => {
        concat!(
            "uzp1 v2.2d, v", $a0, ".2d, v", $a1, ".2d\n",
            "uzp2 v3.2d, v", $a0, ".2d, v", $a1, ".2d\n",
            "uzp1 v4.2d, v", $a2, ".2d, v", $a3, ".2d\n",
            "uzp2 v5.2d, v", $a2, ".2d, v", $a3, ".2d\n",
            "uzp1 v6.2d, v", $a4, ".2d, v", $a5, ".2d\n",
            "uzp2 v7.2d, v", $a4, ".2d, v", $a5, ".2d\n",
        )
    };
}

/// Stores the two f32 rows of a row pair at `x12` and `x12 + x11`; `x12` advances two rows.
#[rustfmt::skip]
macro_rules! store_rows_f32 {
    ($($a:literal),+) => {
        concat!(
            split_rows!($($a),+),
            "stp q2, q4, [x12]\n",
            "str q6, [x12, #32]\n",
            "add x12, x12, x11\n",
            "stp q3, q5, [x12]\n",
            "str q7, [x12, #32]\n",
            "add x12, x12, x11\n",
        )
    };
}

/// As [`store_rows_f32!`], narrowing to f16 (`FCVTN`, ties to even) first.
#[rustfmt::skip]
macro_rules! store_rows_f16 {
    ($($a:literal),+) => {
        concat!(
            split_rows!($($a),+),
            "fcvtn v2.4h, v2.4s\n",
            "fcvtn2 v2.8h, v4.4s\n",
            "fcvtn v6.4h, v6.4s\n",
            "fcvtn v3.4h, v3.4s\n",
            "fcvtn2 v3.8h, v5.4s\n",
            "fcvtn v7.4h, v7.4s\n",
            "str q2, [x12]\n",
            "str d6, [x12, #16]\n",
            "add x12, x12, x11\n",
            "str q3, [x12]\n",
            "str d7, [x12, #16]\n",
            "add x12, x12, x11\n",
        )
    };
}

/// Computes the portion of [`Args`] as described in the parent module, writing f32 (`half ==
/// false`) or f16 results.
///
/// # Safety
///
/// * `m >= 1`, `n >= 1`, `k >= 1`.
/// * `lhs` is readable for `ceil(m / 8)` packed blocks of `8 * roundup(k, 4)` bf16 values.
/// * `rhs` is readable for `ceil(n / 12)` packed groups of 12 biases (f32, or f16 if `half`) and
///   `12 * roundup(k, 4)` bf16 values.
/// * For every `i < m`, `j < n`, the element at `dst + i * dst_stride + j * size` is writable
///   and overlaps neither input; `dst_stride` is a multiple of the element size. Nothing else is
///   written.
/// * The CPU implements FEAT_BF16.
#[target_feature(enable = "bf16")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn matmul_bf16p8x4_bf16p12x4b_8x12(
    m: usize,
    n: usize,
    k: usize,
    lhs: *const u8,
    rhs: *const u8,
    dst: *mut u8,
    dst_stride: usize,
    clamp_min: f32,
    clamp_max: f32,
    half: bool,
) {
    let mut scratch = [0u32; 8 * 12];
    let params: [u64; 7] = [
        n as u64,
        rhs as u64,
        k.div_ceil(4) as u64,
        dst_stride as u64,
        u64::from(half),
        scratch.as_mut_ptr() as u64,
        u64::from(clamp_min.to_bits()) | u64::from(clamp_max.to_bits()) << 32,
    ];
    // SAFETY: the reads and writes stay within the buffers described in `# Safety` and the
    // scratch tile; every register written is an output or clobber; no stack use.
    unsafe {
        asm_clobbering_all_vectors!(

            // x0 rows left, x1 LHS row block, x2 destination row block, x8 parameters.
            "1:",
            "ldr x3, [x8]",
            "ldr x4, [x8, #8]",
            "mov x5, x2",
            "2:",
            // Accumulators from the group's 12 biases, each 2x2 block as [b(2c), b(2c+1)] twice.
            "ldr x9, [x8, #32]",
            "cbnz x9, 3f",
            "ldp q0, q1, [x4]",
            "ldr q2, [x4, #32]",
            "add x4, x4, #48",
            "b 4f",
            "3:",
            "ldr q0, [x4]",
            "ldr d2, [x4, #16]",
            "add x4, x4, #24",
            "fcvtl2 v1.4s, v0.8h",
            "fcvtl v0.4s, v0.4h",
            "fcvtl v2.4s, v2.4h",
            "4:",
            "zip1 v8.2d, v0.2d, v0.2d",
            "zip2 v9.2d, v0.2d, v0.2d",
            "zip1 v10.2d, v1.2d, v1.2d",
            "zip2 v11.2d, v1.2d, v1.2d",
            "zip1 v12.2d, v2.2d, v2.2d",
            "zip2 v13.2d, v2.2d, v2.2d",
            "mov v14.16b, v8.16b",
            "mov v15.16b, v9.16b",
            "mov v16.16b, v10.16b",
            "mov v17.16b, v11.16b",
            "mov v18.16b, v12.16b",
            "mov v19.16b, v13.16b",
            "mov v20.16b, v8.16b",
            "mov v21.16b, v9.16b",
            "mov v22.16b, v10.16b",
            "mov v23.16b, v11.16b",
            "mov v24.16b, v12.16b",
            "mov v25.16b, v13.16b",
            "mov v26.16b, v8.16b",
            "mov v27.16b, v9.16b",
            "mov v28.16b, v10.16b",
            "mov v29.16b, v11.16b",
            "mov v30.16b, v12.16b",
            "mov v31.16b, v13.16b",
            "mov x6, x1",
            "ldr x7, [x8, #16]",
            "5:",
            "// LLVM-MCA-BEGIN matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla",
            "ldr q0, [x6]",
            "ldr q1, [x6, #16]",
            "ldr q2, [x6, #32]",
            "ldr q3, [x6, #48]",
            "ldr q4, [x4]",
            "ldr q5, [x4, #16]",
            "add x6, x6, #64",
            "bfmmla v8.4s, v0.8h, v4.8h",
            "bfmmla v9.4s, v0.8h, v5.8h",
            "bfmmla v14.4s, v1.8h, v4.8h",
            "bfmmla v15.4s, v1.8h, v5.8h",
            "bfmmla v20.4s, v2.8h, v4.8h",
            "bfmmla v21.4s, v2.8h, v5.8h",
            "bfmmla v26.4s, v3.8h, v4.8h",
            "bfmmla v27.4s, v3.8h, v5.8h",
            "ldr q6, [x4, #32]",
            "ldr q7, [x4, #48]",
            "bfmmla v10.4s, v0.8h, v6.8h",
            "bfmmla v11.4s, v0.8h, v7.8h",
            "bfmmla v16.4s, v1.8h, v6.8h",
            "bfmmla v17.4s, v1.8h, v7.8h",
            "bfmmla v22.4s, v2.8h, v6.8h",
            "bfmmla v23.4s, v2.8h, v7.8h",
            "bfmmla v28.4s, v3.8h, v6.8h",
            "bfmmla v29.4s, v3.8h, v7.8h",
            "ldr q4, [x4, #64]",
            "ldr q5, [x4, #80]",
            "add x4, x4, #96",
            "bfmmla v12.4s, v0.8h, v4.8h",
            "bfmmla v13.4s, v0.8h, v5.8h",
            "bfmmla v18.4s, v1.8h, v4.8h",
            "bfmmla v19.4s, v1.8h, v5.8h",
            "bfmmla v24.4s, v2.8h, v4.8h",
            "bfmmla v25.4s, v2.8h, v5.8h",
            "bfmmla v30.4s, v3.8h, v4.8h",
            "bfmmla v31.4s, v3.8h, v5.8h",
            "subs x7, x7, #1",
            "// LLVM-MCA-END",
            "b.ne 5b",
            // Clamp: FMIN with the upper bound, then FMAX with the lower.
            "ldr x9, [x8, #48]",
            "dup v1.4s, w9",
            "lsr x9, x9, #32",
            "dup v0.4s, w9",
            "fmin v8.4s, v8.4s, v0.4s",
            "fmin v9.4s, v9.4s, v0.4s",
            "fmin v10.4s, v10.4s, v0.4s",
            "fmin v11.4s, v11.4s, v0.4s",
            "fmin v12.4s, v12.4s, v0.4s",
            "fmin v13.4s, v13.4s, v0.4s",
            "fmin v14.4s, v14.4s, v0.4s",
            "fmin v15.4s, v15.4s, v0.4s",
            "fmin v16.4s, v16.4s, v0.4s",
            "fmin v17.4s, v17.4s, v0.4s",
            "fmin v18.4s, v18.4s, v0.4s",
            "fmin v19.4s, v19.4s, v0.4s",
            "fmin v20.4s, v20.4s, v0.4s",
            "fmin v21.4s, v21.4s, v0.4s",
            "fmin v22.4s, v22.4s, v0.4s",
            "fmin v23.4s, v23.4s, v0.4s",
            "fmin v24.4s, v24.4s, v0.4s",
            "fmin v25.4s, v25.4s, v0.4s",
            "fmin v26.4s, v26.4s, v0.4s",
            "fmin v27.4s, v27.4s, v0.4s",
            "fmin v28.4s, v28.4s, v0.4s",
            "fmin v29.4s, v29.4s, v0.4s",
            "fmin v30.4s, v30.4s, v0.4s",
            "fmin v31.4s, v31.4s, v0.4s",
            "fmax v8.4s, v8.4s, v1.4s",
            "fmax v9.4s, v9.4s, v1.4s",
            "fmax v10.4s, v10.4s, v1.4s",
            "fmax v11.4s, v11.4s, v1.4s",
            "fmax v12.4s, v12.4s, v1.4s",
            "fmax v13.4s, v13.4s, v1.4s",
            "fmax v14.4s, v14.4s, v1.4s",
            "fmax v15.4s, v15.4s, v1.4s",
            "fmax v16.4s, v16.4s, v1.4s",
            "fmax v17.4s, v17.4s, v1.4s",
            "fmax v18.4s, v18.4s, v1.4s",
            "fmax v19.4s, v19.4s, v1.4s",
            "fmax v20.4s, v20.4s, v1.4s",
            "fmax v21.4s, v21.4s, v1.4s",
            "fmax v22.4s, v22.4s, v1.4s",
            "fmax v23.4s, v23.4s, v1.4s",
            "fmax v24.4s, v24.4s, v1.4s",
            "fmax v25.4s, v25.4s, v1.4s",
            "fmax v26.4s, v26.4s, v1.4s",
            "fmax v27.4s, v27.4s, v1.4s",
            "fmax v28.4s, v28.4s, v1.4s",
            "fmax v29.4s, v29.4s, v1.4s",
            "fmax v30.4s, v30.4s, v1.4s",
            "fmax v31.4s, v31.4s, v1.4s",
            // Whole tiles go to the destination, partial ones through the scratch tile.
            "ldr x11, [x8, #24]",
            "mov x10, x5",
            "cmp x0, #8",
            "b.lt 6f",
            "cmp x3, #12",
            "b.ge 7f",
            "6:",
            "ldr x10, [x8, #40]",
            "mov x11, #48",
            "7:",
            "mov x12, x10",
            "ldr x9, [x8, #32]",
            "cbnz x9, 20f",
            store_rows_f32!(8, 9, 10, 11, 12, 13),
            store_rows_f32!(14, 15, 16, 17, 18, 19),
            store_rows_f32!(20, 21, 22, 23, 24, 25),
            store_rows_f32!(26, 27, 28, 29, 30, 31),
            "b 21f",
            "20:",
            store_rows_f16!(8, 9, 10, 11, 12, 13),
            store_rows_f16!(14, 15, 16, 17, 18, 19),
            store_rows_f16!(20, 21, 22, 23, 24, 25),
            store_rows_f16!(26, 27, 28, 29, 30, 31),
            "21:",
            "cmp x10, x5",
            "b.eq 8f",
            // Copy min(rows, 8) rows of min(cols, 12) elements from the scratch tile.
            "mov x13, #8",
            "cmp x0, #8",
            "csel x13, x0, x13, lt",
            "mov x14, #12",
            "cmp x3, #12",
            "csel x14, x3, x14, lt",
            "lsl x14, x14, #2",
            "cbz x9, 22f",
            "lsr x14, x14, #1",
            "22:",
            "ldr x11, [x8, #24]",
            "mov x15, x5",
            "mov x16, x10",
            "9:",
            "mov x17, #0",
            "10:",
            "ldrb w12, [x16, x17]",
            "strb w12, [x15, x17]",
            "add x17, x17, #1",
            "cmp x17, x14",
            "b.lt 10b",
            "add x15, x15, x11",
            "add x16, x16, #48",
            "subs x13, x13, #1",
            "b.ne 9b",
            "8:",
            // Next column group (12 elements on), then the next row block.
            "mov x12, #48",
            "cbz x9, 11f",
            "mov x12, #24",
            "11:",
            "add x5, x5, x12",
            "subs x3, x3, #12",
            "b.gt 2b",
            "mov x1, x6",
            "ldr x11, [x8, #24]",
            "add x2, x2, x11, lsl #3",
            "subs x0, x0, #8",
            "b.gt 1b",
            inout("x0") m => _,
            inout("x1") lhs => _,
            inout("x2") dst => _,
            in("x8") params.as_ptr(),
            out("x3") _, out("x4") _, out("x5") _, out("x6") _, out("x7") _,
            out("x9") _, out("x10") _, out("x11") _, out("x12") _, out("x13") _,
            out("x14") _, out("x15") _, out("x16") _, out("x17") _,
        );
    }
}

/// Runs the portion `a` with f32 (`half == false`) or f16 results.
///
/// # Safety
/// The family's `check` passed, `a.k >= 1`, the buffers cover the portion, and the CPU
/// implements FEAT_BF16.
pub unsafe fn run_out(a: &Args, half: bool) {
    let es = if half { 2 } else { 4 };
    // SAFETY: forwarded contract; the family's `run` guarantees m, n, k >= 1.
    unsafe {
        matmul_bf16p8x4_bf16p12x4b_8x12(
            a.m,
            a.n,
            a.k,
            a.lhs_packed,
            a.rhs_packed,
            a.dst,
            a.dst_stride_row / es * es,
            a.clamp_min,
            a.clamp_max,
            half,
        )
    }
}

/// Runs the portion `a` with f32 results (the catalog's entry point).
///
/// # Safety
/// As for [`run_out`].
pub unsafe fn run(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe { run_out(a, false) }
}

/// Runs the portion `a` with f16 biases and results (the entry point of
/// `matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla`).
///
/// # Safety
/// As for [`run_out`].
pub unsafe fn run_f16(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe { run_out(a, true) }
}
