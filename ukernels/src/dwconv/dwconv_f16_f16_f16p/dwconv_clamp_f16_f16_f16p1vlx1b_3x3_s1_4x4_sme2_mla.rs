//! `kai_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla`: the SME2 kernel.
//!
//! Per tile (`super::for_each_tile`) one streaming call walks the channel groups (one vector of
//! halves, predicate P0); per group it computes the sixteen output pixels one after the other
//! in Z24, from the bias (Z29), stepping through the (tap, input pixel) table `super::STEPS`:
//! each step loads the input pixel's channels (an address and a channel stride per pixel, the
//! stride 0 for padding, which points at zeros) and the tap's weights, and adds their product
//! with `FMLA`; then `FCLAMP` (bounds in Z30, Z31) and a store to the output pixel (stride 0 for
//! pixels past the output's edge, which point at a scratch vector).

use super::super::DepthfirstArgs;

/// Zeros for padding pixels: the longest streaming vector.
static ZEROS: [u16; 128] = [0; 128];

/// Runs the kernel.
///
/// # Safety
/// As [`super::portable`]; the CPU implements SME2, and a pending lazy ZA save follows the
/// AAPCS64 SME ABI.
pub(super) unsafe fn run(a: &DepthfirstArgs) {
    let lo = crate::float::f16::from_f32(a.clamp_min);
    let hi = crate::float::f16::from_f32(a.clamp_max);
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    let mut scratch = [0u16; 128];
    super::for_each_tile(a, |t| {
        // (address of channel 0, bytes per channel step of 0 or 1) per pixel.
        let mut inputs = [[ZEROS.as_ptr() as usize, 0]; 36];
        for (e, &p) in inputs.iter_mut().zip(&t.inputs) {
            if !p.is_null() {
                *e = [p as usize, 1];
            }
        }
        let mut outputs = [[scratch.as_mut_ptr() as usize, 0]; 16];
        for (e, &p) in outputs.iter_mut().zip(&t.outputs) {
            if !p.is_null() {
                *e = [p as usize, 1];
            }
        }
        // SAFETY: the loads read the channels below the count of the tile's input pixels (the
        // caller's image), the zeros or the packed groups; the stores write those channels of
        // its output pixels (the caller's image) or the scratch vector; the block saves nothing
        // it does not declare.
        unsafe {
            streaming_asm!("sme2";
                "ptrue p3.h",
                "dup z30.h, w5",
                "dup z31.h, w6",
                "cnth x7",
                "mov x8, #0",
                "1:",
                "whilelt p0.h, x8, x3",
                "b.none 9f",
                "lsl x9, x8, #1",
                "ld1h z29.h, p0/z, [x2]",
                "mov x10, #0",
                "mov x11, x4",
                "2:",
                "mov z24.d, z29.d",
                "mov x12, #9",
                "3:",
                "ldrb w13, [x11], #1",
                "ldrb w14, [x11], #1",
                "add x14, x0, x14, lsl #4",
                "ldp x15, x16, [x14]",
                "madd x15, x16, x9, x15",
                "ld1h z27.h, p0/z, [x15]",
                "add x13, x13, #1",
                "mul x13, x13, x7",
                "ld1h z26.h, p0/z, [x2, x13, lsl #1]",
                "fmla z24.h, p3/m, z26.h, z27.h",
                "subs x12, x12, #1",
                "b.ne 3b",
                "fclamp {{z24.h-z25.h}}, z30.h, z31.h",
                "add x14, x1, x10, lsl #4",
                "ldp x15, x16, [x14]",
                "madd x15, x16, x9, x15",
                "st1h z24.h, p0, [x15]",
                "add x10, x10, #1",
                "cmp x10, #16",
                "b.lo 2b",
                "addvl x2, x2, #10",
                "inch x8",
                "b 1b",
                "9:";
                in("x0") inputs.as_ptr(),
                in("x1") outputs.as_ptr(),
                inout("x2") a.rhs_packed => _,
                in("x3") a.num_channels,
                in("x4") super::STEPS.as_ptr(),
                in("w5") u32::from(lo),
                in("w6") u32::from(hi),
                out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _,
                out("x12") _, out("x13") _, out("x14") _, out("x15") _, out("x16") _,
            )
        };
    });
}
