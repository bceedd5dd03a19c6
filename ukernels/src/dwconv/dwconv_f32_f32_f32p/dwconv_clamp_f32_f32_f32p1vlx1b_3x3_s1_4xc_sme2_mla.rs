//! `kai_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla`: the SME2 kernel.
//!
//! Per channel group (one streaming vector of channels, predicate P1) it walks the output
//! columns with three ZA vector groups in rotation (`VGx4`: vector `i` of a group is output row
//! `i`): step `s` starts output column `s` from the biases, loads input column `s - pad_left`
//! (if inside the image; six window rows, each under its row's predicate P2-P7) and adds it to
//! columns `s`, `s - 1` and `s - 2` as filter columns 0, 1 and 2, then clamps and stores column
//! `s - 2`, which is complete. Every output element thus receives its taps in the order the
//! family documents.

use super::super::{PlanarArgs, PlanarGeometry};

/// Runs the kernel.
///
/// # Safety
/// As [`super::portable`]; the CPU implements SME2, and a pending lazy ZA save follows the
/// AAPCS64 SME ABI.
pub(super) unsafe fn run(a: &PlanarArgs) {
    let g: PlanarGeometry = a.geometry(4, super::M_STEP);
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    // SAFETY: the loads read the valid window rows of the input columns inside the image and the
    // channels below the count, the stores write the output rows and columns of the call (the
    // caller's buffers); the block saves nothing it does not declare.
    unsafe {
        streaming_asm!("sme2";
            "dup z22.s, w16",
            "dup z23.s, w17",
            // P8: window rows [rows_lo, rows_hi); P14: output rows written.
            "whilelt p8.b, xzr, x14",
            "whilelt p9.b, xzr, x13",
            "ptrue p15.b",
            "eor p8.b, p15/z, p8.b, p9.b",
            "whilelt p14.b, xzr, x15",
            "mov x20, #0",
            "mov w12, #0",
            "1:",
            "whilelt p1.s, x20, x11",
            "b.none 9f",
            "psel p2, p1, p8.b[w12, 0]",
            "psel p3, p1, p8.b[w12, 1]",
            "psel p4, p1, p8.b[w12, 2]",
            "psel p5, p1, p8.b[w12, 3]",
            "psel p6, p1, p8.b[w12, 4]",
            "psel p7, p1, p8.b[w12, 5]",
            // The group's biases (Z12-Z15, one per output row) and taps (Z0-Z8, row-major).
            "ld1w z12.s, p1/z, [x3]",
            "ld1w z0.s, p1/z, [x3, #1, mul vl]",
            "ld1w z1.s, p1/z, [x3, #2, mul vl]",
            "ld1w z2.s, p1/z, [x3, #3, mul vl]",
            "ld1w z3.s, p1/z, [x3, #4, mul vl]",
            "ld1w z4.s, p1/z, [x3, #5, mul vl]",
            "ld1w z5.s, p1/z, [x3, #6, mul vl]",
            "ld1w z6.s, p1/z, [x3, #7, mul vl]",
            "addvl x3, x3, #8",
            "ld1w z7.s, p1/z, [x3]",
            "ld1w z8.s, p1/z, [x3, #1, mul vl]",
            "addvl x3, x3, #2",
            "mov z13.d, z12.d",
            "mov z14.d, z12.d",
            "mov z15.d, z12.d",
            "mov x21, #0",
            "mov w8, #0",
            "2:",
            "mova za.d[w8, 2, vgx4], {{z12.d-z15.d}}",
            "sub x22, x21, x9",
            "cmp x22, x10",
            "b.hs 3f",
            "madd x22, x22, x2, x0",
            "ld1w z16.s, p2/z, [x22]",
            "add x22, x22, x1",
            "ld1w z17.s, p3/z, [x22]",
            "add x22, x22, x1",
            "ld1w z18.s, p4/z, [x22]",
            "add x22, x22, x1",
            "ld1w z19.s, p5/z, [x22]",
            "add x22, x22, x1",
            "ld1w z20.s, p6/z, [x22]",
            "add x22, x22, x1",
            "ld1w z21.s, p7/z, [x22]",
            "fmla za.s[w8, 2, vgx4], {{z16.s-z19.s}}, z0.s",
            "fmla za.s[w8, 1, vgx4], {{z16.s-z19.s}}, z1.s",
            "fmla za.s[w8, 0, vgx4], {{z16.s-z19.s}}, z2.s",
            "fmla za.s[w8, 2, vgx4], {{z17.s-z20.s}}, z3.s",
            "fmla za.s[w8, 1, vgx4], {{z17.s-z20.s}}, z4.s",
            "fmla za.s[w8, 0, vgx4], {{z17.s-z20.s}}, z5.s",
            "fmla za.s[w8, 2, vgx4], {{z18.s-z21.s}}, z6.s",
            "fmla za.s[w8, 1, vgx4], {{z18.s-z21.s}}, z7.s",
            "fmla za.s[w8, 0, vgx4], {{z18.s-z21.s}}, z8.s",
            "3:",
            "subs x22, x21, #2",
            "b.lo 4f",
            "mova {{z24.d-z27.d}}, za.d[w8, 0, vgx4]",
            "fclamp {{z24.s-z27.s}}, z22.s, z23.s",
            "madd x22, x22, x6, x4",
            "psel p0, p1, p14.b[w12, 0]",
            "st1w z24.s, p0, [x22]",
            "add x22, x22, x5",
            "psel p0, p1, p14.b[w12, 1]",
            "st1w z25.s, p0, [x22]",
            "add x22, x22, x5",
            "psel p0, p1, p14.b[w12, 2]",
            "st1w z26.s, p0, [x22]",
            "add x22, x22, x5",
            "psel p0, p1, p14.b[w12, 3]",
            "st1w z27.s, p0, [x22]",
            "4:",
            "add x21, x21, #1",
            "add w8, w8, #1",
            "cmp x21, x7",
            "b.lo 2b",
            "addvl x0, x0, #1",
            "addvl x4, x4, #1",
            "incw x20",
            "b 1b",
            "9:";
            inout("x0") g.window => _,
            in("x1") a.in_stride_row,
            in("x2") a.in_stride_col,
            inout("x3") a.rhs_packed => _,
            inout("x4") a.dst => _,
            in("x5") a.dst_stride_row,
            in("x6") a.dst_stride_col,
            in("x7") g.output_cols.wrapping_add(2),
            out("x8") _,
            in("x9") a.pad_left,
            in("x10") g.input_cols,
            in("x11") g.channels,
            out("x12") _,
            in("x13") g.rows_lo,
            in("x14") g.rows_hi,
            in("x15") g.out_rows,
            in("x16") a.clamp_min.to_bits(),
            in("x17") a.clamp_max.to_bits(),
            out("x20") _, out("x21") _, out("x22") _,
        )
    };
}
