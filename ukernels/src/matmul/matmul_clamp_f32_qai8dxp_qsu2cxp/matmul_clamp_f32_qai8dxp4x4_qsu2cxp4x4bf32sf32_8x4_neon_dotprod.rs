//! `kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod`: GEMM (portions of 8
//! rows x 4 columns) with FEAT_DotProd `SDOT` by element on 2-bit codes decoded with `TBL`.
//!
//! Loop order: pairs of LHS groups (8 rows) outside, column groups of 4 inside, K in steps of
//! 16: the 16 RHS bytes of a step are decoded once (as in the GEMV) and each slot meets LHS block
//! `s` of both groups (4 rows x 4 values each) by element, one accumulator per row. Eight rows per
//! decode, as KleidiAI's loop (llvm-mca: 4-row passes ran at 0.77-0.81 of its MACs per cycle on
//! N2, V1 and V2). When at most 4 rows remain, group B is group A again (read, not stored); rows
//! past `m` in the last group are computed from the packer's padding and not stored.

use super::Args;
use super::matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod::{
    decode_slots, store_row4,
};

/// The four `SDOT`s of decoded slot `v$d` with LHS block `v$l` (lane r = row r) into the
/// accumulators `v$a0`..`v$a3` of those rows.
macro_rules! sdot_rows {
    ($d:literal, $l:literal; $a0:literal, $a1:literal, $a2:literal, $a3:literal) => {
        concat!(
            "sdot v", $a0, ".4s, v", $d, ".16b, v", $l, ".4b[0]\n",
            "sdot v", $a1, ".4s, v", $d, ".16b, v", $l, ".4b[1]\n",
            "sdot v", $a2, ".4s, v", $d, ".16b, v", $l, ".4b[2]\n",
            "sdot v", $a3, ".4s, v", $d, ".16b, v", $l, ".4b[3]\n",
        )
    };
}

/// Row `r` of accumulator `v$a` (LHS offsets `v$o`, scales `v$s`): offset times sums (`v28`),
/// to f32, times the RHS scales (`v29`) then the LHS scale, plus bias (`v30`), clamped to
/// `v0`, `v1`.
macro_rules! finish_row {
    ($a:literal, $o:literal, $s:literal, $r:literal) => {
        concat!(
            "mla v", $a, ".4s, v28.4s, v", $o, ".s[", $r, "]\n",
            "scvtf v", $a, ".4s, v", $a, ".4s\n",
            "fmul v", $a, ".4s, v", $a, ".4s, v29.4s\n",
            "fmul v", $a, ".4s, v", $a, ".4s, v", $s, ".s[", $r, "]\n",
            "fadd v", $a, ".4s, v", $a, ".4s, v30.4s\n",
            "fmax v", $a, ".4s, v", $a, ".4s, v0.4s\n",
            "fmin v", $a, ".4s, v", $a, ".4s, v1.4s\n",
        )
    };
}

/// Stores row `$r + 1` (`v$v`) one stride below the previous row, unless only `$r + 1` rows of
/// the pass exist (then leaves for `4f`).
macro_rules! next_row {
    ($rows:literal, $v:literal) => {
        concat!(
            "cmp x8, #", $rows, "\n",
            "b.le 4f\n",
            "add x12, x12, x6\n",
            store_row4!($v),
        )
    };
}

/// Computes `dst[i][j]` for `i < m`, `j < n`:
///
/// ```text
/// acc = sum_{kk < k} lq[i][kk] * (lut[code[j][kk]] as i8)     (wrapping i32)
/// acc = acc + lhs_offset[i] * rsum[j]                          (i32)
/// y   = (acc as f32) * rscale[j] * lhs_scale[i] + bias[j]      (FMUL, FMUL, FADD)
/// dst[i][j] = min(max(y, clamp_min), clamp_max)                (FMAX, FMIN)
/// ```
///
/// LHS: groups of 4 rows of `4 * (k + 8)` bytes (per 4 K values, 4 rows x 4 int8; then 4
/// `lhs_offset: i32` and 4 `lhs_scale: f32`). RHS as for the family's GEMV.
///
/// # Safety
/// * The CPU implements FEAT_DotProd.
/// * `m, n >= 1`, `k` a positive multiple of 32; `lhs` holds `ceil(m / 4)` groups, `rhs`
///   `ceil(n / 4)` groups, `dst` the `m` rows of `n` floats at `i * dst_stride_row` bytes (not
///   overlapping them); `table` 16 readable bytes.
#[target_feature(enable = "dotprod")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn matmul_f32_qai8dxp4x4_qsu2cxp4x4_8x4(
    m: usize,
    n: usize,
    k: usize,
    lhs: *const u8,
    rhs: *const u8,
    dst: *mut f32,
    dst_stride_row: usize,
    table: *const i8,
    clamp_min: f32,
    clamp_max: f32,
) {
    let lhs_stride = 4 * (k + 8);
    // Register map
    //   x8 rows left   x0 columns left   x1 n   x2 k   x3 LHS group A   x4 RHS start
    //   x5 dst of the row pass   x6 dst_stride_row   x7 LHS group stride   x14 LHS group B
    //   x9/x16 LHS pointers (A/B)   x10 K left   x11 RHS pointer   x12/x13 store pointers
    //   x15 dst column
    //   v2 table   v3 0x03 mask   v16-v23 rows 0..7 (lane = column)   v0 RHS bytes
    //   v24-v27 / v4-v7 LHS blocks 0..3 of group A / B   v28-v31 decoded slots 0..3
    //   epilogue: v28-v30 sums, RHS scales, bias; v24/v25, v26/v27 offsets and scales of A, B;
    //   v0/v1 clamp bounds (loaded there: the loop needs every other register)
    // SAFETY: the caller guarantees (see `# Safety`) dotprod and the extents: each LHS group and
    // RHS group is read exactly (data then trailer; group B is group A when at most 4 rows are
    // left), stores cover rows below m and columns below n. No stack use; v8-v15 untouched.
    unsafe {
        core::arch::asm!(
            "ldr q2, [{table}]",
            "movi v3.16b, #0x03",
            "1:",
            group_if_rows!("x14", "x3", "x7", "x8", "4", "x3"),
            "mov x11, x4",
            "mov x0, x1",
            "mov x15, x5",
            "2:",
            "mov x9, x3",
            "mov x16, x14",
            "mov x10, x2",
            zero_v!("4s"; "16", "17", "18", "19", "20", "21", "22", "23"),
            // ---- K loop: 16 values x 8 rows x 4 columns per iteration ----
            "3:",
            "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod",
            "ldr q0, [x11], #16",
            "ldr q24, [x9]",
            "ldr q25, [x9, #16]",
            "ldr q26, [x9, #32]",
            "ldr q27, [x9, #48]",
            "ldr q4, [x16]",
            "ldr q5, [x16, #16]",
            "ldr q6, [x16, #32]",
            "ldr q7, [x16, #48]",
            decode_slots!("0" => "28", "29", "30", "31"),
            sdot_rows!("28", "24"; "16", "17", "18", "19"),
            sdot_rows!("28", "4"; "20", "21", "22", "23"),
            sdot_rows!("29", "25"; "16", "17", "18", "19"),
            sdot_rows!("29", "5"; "20", "21", "22", "23"),
            sdot_rows!("30", "26"; "16", "17", "18", "19"),
            sdot_rows!("30", "6"; "20", "21", "22", "23"),
            sdot_rows!("31", "27"; "16", "17", "18", "19"),
            sdot_rows!("31", "7"; "20", "21", "22", "23"),
            "add x9, x9, #64",
            "add x16, x16, #64",
            "subs x10, x10, #16",
            "b.ne 3b",
            "// LLVM-MCA-END",
            // ---- epilogue: x9/x16 -> the groups' offsets and scales, x11 -> the RHS trailer ----
            "ldp q24, q25, [x9]",
            "ldp q26, q27, [x16]",
            "ldp q28, q29, [x11], #32",
            "ldr q30, [x11], #16",
            "ld1r {{v0.4s}}, [{lo}]",
            "ld1r {{v1.4s}}, [{hi}]",
            rows_of_two_groups!(finish_row;
                ("16") ("17") ("18") ("19") ["24", "25"];
                ("20") ("21") ("22") ("23") ["26", "27"]),
            "mov x12, x15",
            store_row4!("16"),
            next_row!("1", "17"),
            next_row!("2", "18"),
            next_row!("3", "19"),
            next_row!("4", "20"),
            next_row!("5", "21"),
            next_row!("6", "22"),
            next_row!("7", "23"),
            "4:",
            "add x15, x15, #16",
            "subs x0, x0, #4",
            "b.gt 2b",
            "add x3, x3, x7, lsl #1",
            "add x5, x5, x6, lsl #3",
            "subs x8, x8, #8",
            "b.gt 1b",
            table = in(reg) table,
            lo = in(reg) &clamp_min,
            hi = in(reg) &clamp_max,
            out("x0") _,
            in("x1") n,
            in("x2") k,
            inout("x3") lhs => _,
            in("x4") rhs,
            inout("x5") dst => _,
            in("x6") dst_stride_row,
            in("x7") lhs_stride,
            inout("x8") m => _,
            out("x9") _, out("x10") _, out("x11") _, out("x12") _, out("x13") _, out("x14") _,
            out("x15") _, out("x16") _,
            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
            out("v4") _, out("v5") _, out("v6") _, out("v7") _,
            out("v16") _, out("v17") _, out("v18") _, out("v19") _,
            out("v20") _, out("v21") _, out("v22") _, out("v23") _,
            out("v24") _, out("v25") _, out("v26") _, out("v27") _,
            out("v28") _, out("v29") _, out("v30") _, out("v31") _,
            options(nostack),
        );
    }
}

/// Runs the kernel on the portion `a` (the entry point the catalog registers).
///
/// # Safety
/// The family's `check` passed (so `k % 32 == 0`, `m, n >= 1`), the buffers cover the portion,
/// and the CPU implements FEAT_DotProd.
pub unsafe fn run(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe {
        let (tbl, _) = super::tables(a.lut);
        matmul_f32_qai8dxp4x4_qsu2cxp4x4_8x4(
            a.m,
            a.n,
            a.k,
            a.lhs_packed,
            a.rhs_packed,
            a.dst.cast(),
            a.dst_stride_row,
            tbl.as_ptr(),
            a.clamp_min,
            a.clamp_max,
        )
    }
}
