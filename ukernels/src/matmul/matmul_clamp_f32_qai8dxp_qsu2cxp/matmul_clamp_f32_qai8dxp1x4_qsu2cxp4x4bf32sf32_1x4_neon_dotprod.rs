//! `kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod`: GEMV (one row, 4
//! columns per step) with FEAT_DotProd `SDOT` by element on 2-bit codes decoded with `TBL`, the
//! whole row in one `asm!` block.
//!
//! Per 16 K values a column group holds 16 bytes (4 columns x 4); 2-bit slot `s` of the 4 bytes
//! of a column holds K `4s..4s + 4`, so masking slot `s` of all 16 bytes and looking the codes up
//! gives one `SDOT` operand for LHS block `s`. Four accumulators, one per slot.

use super::Args;

/// Stores `v$v` (4 columns) at `[x12]`, or its first `x0 < 4` lanes.
macro_rules! store_row4 {
    ($v:literal) => {
        concat!(
            "cmp x0, #4\n",
            "b.lt 31f\n",
            "str q", $v, ", [x12]\n",
            "b 33f\n",
            "31:\n",
            "mov x13, x12\n",
            "tbz x0, #1, 32f\n",
            "st1 {{v", $v, ".d}}[0], [x13], #8\n",
            "tbz x0, #0, 33f\n",
            "st1 {{v", $v, ".s}}[2], [x13]\n",
            "b 33f\n",
            "32:\n",
            "st1 {{v", $v, ".s}}[0], [x13]\n",
            "33:\n",
        )
    };
}
pub(super) use store_row4;

/// The 4 slots of RHS bytes `v$src` as table values: slot s into `v$d_s` (mask `v3`, table `v2`).
/// Several sources are decoded op by op in turn, which gives an out-of-order core independent
/// work between dependent ops (the GEMV's two 16-byte halves: 9.0 against 9.35 cycles per
/// iteration on V1 in llvm-mca, KleidiAI's loop 9.0).
macro_rules! decode_slots {
    ($($src:literal => $d0:literal, $d1:literal, $d2:literal, $d3:literal);+) => {
        concat!(
            $("and v", $d0, ".16b, v", $src, ".16b, v3.16b\n",)+
            $("ushr v", $d1, ".16b, v", $src, ".16b, #2\n",)+
            $("ushr v", $d2, ".16b, v", $src, ".16b, #4\n",)+
            $("ushr v", $d3, ".16b, v", $src, ".16b, #6\n",)+
            $("and v", $d1, ".16b, v", $d1, ".16b, v3.16b\n",)+
            $("and v", $d2, ".16b, v", $d2, ".16b, v3.16b\n",)+
            $("tbl v", $d0, ".16b, {{v2.16b}}, v", $d0, ".16b\n",)+
            $("tbl v", $d1, ".16b, {{v2.16b}}, v", $d1, ".16b\n",)+
            $("tbl v", $d2, ".16b, {{v2.16b}}, v", $d2, ".16b\n",)+
            $("tbl v", $d3, ".16b, {{v2.16b}}, v", $d3, ".16b\n",)+
        )
    };
}
pub(super) use decode_slots;

/// Computes `dst[0][j]` for `j < n` (one row):
///
/// ```text
/// acc = sum_{kk < k} lq[kk] * (lut[code[j][kk]] as i8)      (wrapping i32)
/// acc = acc + lhs_offset * rsum[j]                           (i32)
/// y   = (acc as f32) * (lhs_scale * rscale[j]) + bias[j]     (FMUL, FMUL, FADD)
/// dst[0][j] = min(max(y, clamp_min), clamp_max)              (FMAX, FMIN)
/// ```
///
/// LHS: `k` int8 values, `lhs_offset: i32`, `lhs_scale: f32`. RHS: groups of 4 columns of
/// `4 * (k / 4 + 12)` bytes (16 bytes per 16 K values, then `rsum`, `rscale`, `bias`).
///
/// # Safety
/// * The CPU implements FEAT_DotProd.
/// * `n >= 1`, `k` a positive multiple of 32; `lhs` holds `k + 8` bytes, `rhs` `ceil(n / 4)`
///   groups, `dst` `n` writable floats not overlapping them; `table` 16 readable bytes.
#[target_feature(enable = "dotprod")]
pub unsafe fn matmul_f32_qai8dxp1x4_qsu2cxp4x4_1x4(
    n: usize,
    k: usize,
    lhs: *const u8,
    rhs: *const u8,
    dst: *mut f32,
    table: *const i8,
    clamp_min: f32,
    clamp_max: f32,
) {
    // Register map
    //   x0 columns left   x1 LHS row   x2 k   x3 RHS (walks the groups)   x4 dst
    //   x9 LHS pointer    x10 K left   x12/x13 store pointers
    //   v0/v1 clamp bounds   v2 table   v3 0x03 mask
    //   v16-v19 accumulators of slots 0..3 (lane = column)
    //   v20/v21 RHS bytes   v22-v29 decoded slots   v30/v31 LHS values
    // SAFETY: the caller guarantees (see `# Safety`) dotprod and the extents read and written:
    // per group k / 16 RHS loads of 16 bytes and a 48-byte trailer, k / 16 LHS loads of 16 bytes
    // and its 8-byte trailer, stores of at most n floats. No stack use; v8-v15 untouched.
    unsafe {
        core::arch::asm!(
            "ld1r {{v0.4s}}, [{lo}]",
            "ld1r {{v1.4s}}, [{hi}]",
            "ldr q2, [{table}]",
            "movi v3.16b, #0x03",
            "1:",
            "mov x9, x1",
            "mov x10, x2",
            "movi v16.4s, #0",
            "movi v17.4s, #0",
            "movi v18.4s, #0",
            "movi v19.4s, #0",
            // ---- K loop: 32 values x 4 columns per iteration ----
            "2:",
            "// LLVM-MCA-BEGIN matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod",
            "ldp q20, q21, [x3], #32",
            "ldp q30, q31, [x9], #32",
            decode_slots!("20" => "22", "23", "24", "25"; "21" => "26", "27", "28", "29"),
            "sdot v16.4s, v22.16b, v30.4b[0]",
            "sdot v17.4s, v23.16b, v30.4b[1]",
            "sdot v18.4s, v24.16b, v30.4b[2]",
            "sdot v19.4s, v25.16b, v30.4b[3]",
            "sdot v16.4s, v26.16b, v31.4b[0]",
            "sdot v17.4s, v27.16b, v31.4b[1]",
            "sdot v18.4s, v28.16b, v31.4b[2]",
            "sdot v19.4s, v29.16b, v31.4b[3]",
            "subs x10, x10, #32",
            "b.ne 2b",
            "// LLVM-MCA-END",
            // ---- epilogue: x9 -> lhs_offset, lhs_scale; x3 -> the group's trailer ----
            "add v16.4s, v16.4s, v17.4s",
            "add v18.4s, v18.4s, v19.4s",
            "add v16.4s, v16.4s, v18.4s",
            "ld1r {{v20.4s}}, [x9], #4",
            "ld1r {{v21.4s}}, [x9]",
            "ldp q22, q23, [x3], #32",
            "ldr q24, [x3], #16",
            "mla v16.4s, v22.4s, v20.4s",
            "fmul v23.4s, v21.4s, v23.4s",
            "scvtf v16.4s, v16.4s",
            "fmul v16.4s, v16.4s, v23.4s",
            "fadd v16.4s, v16.4s, v24.4s",
            "fmax v16.4s, v16.4s, v0.4s",
            "fmin v16.4s, v16.4s, v1.4s",
            "mov x12, x4",
            store_row4!("16"),
            "add x4, x4, #16",
            "subs x0, x0, #4",
            "b.gt 1b",
            table = in(reg) table,
            lo = in(reg) &clamp_min,
            hi = in(reg) &clamp_max,
            inout("x0") n => _,
            in("x1") lhs,
            in("x2") k,
            inout("x3") rhs => _,
            inout("x4") dst => _,
            out("x9") _, out("x10") _, out("x12") _, out("x13") _,
            out("v0") _, out("v1") _, out("v2") _, out("v3") _,
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
/// The family's `check` passed (so `m == 1` and `k % 32 == 0`), the buffers cover the portion,
/// and the CPU implements FEAT_DotProd.
pub unsafe fn run(a: &Args) {
    // SAFETY: forwarded contract.
    unsafe {
        let (tbl, _) = super::tables(a.lut);
        matmul_f32_qai8dxp1x4_qsu2cxp4x4_1x4(
            a.n,
            a.k,
            a.lhs_packed,
            a.rhs_packed,
            a.dst.cast(),
            tbl.as_ptr(),
            a.clamp_min,
            a.clamp_max,
        )
    }
}
