//! `dwconv_f32_f32_f32p`: f32 depthwise 3x3 convolution, stride 1, over the `planar` interface.
//!
//! A call computes up to four output rows over the full output width and every channel, from a
//! window of six input rows (`PLANAR_WINDOW_ROWS`) of which rows `[pad_top, pad_top +
//! valid_input_rows)` are read and the others are zeros. Each output element is its channel's
//! bias, then for the filter columns left to right and, within a column, its rows top to bottom,
//! one fused multiply-add into a ZA vector (a NaN result is the default NaN), then `FCLAMP`
//! (`float::clamp_num`). A filter column whose input column lies outside the image (left of
//! `pad_left` or right of the input width) is skipped, not added as zeros; a row outside the
//! window's valid rows multiplies a zero.

#[cfg(target_arch = "aarch64")]
mod dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla;

use super::pack::dwconv_pack_x32p1vlx1b_x32_x32_sme;
use super::{DwconvKernel, PlanarArgs, Run};
use crate::arch::Isa;
use crate::float;

/// Output rows of one call.
const M_STEP: usize = 4;

/// `kai_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla`.
#[allow(non_upper_case_globals)]
pub static dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla: DwconvKernel = DwconvKernel {
    stem: "dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla",
    dir: "dwconv_f32_f32_f32p",
    isa: Isa::Sme2,
    m_step: M_STEP,
    filter: (3, 3),
    element_bytes: 4,
    packer: &dwconv_pack_x32p1vlx1b_x32_x32_sme,
    run: Run::Planar {
        #[cfg(target_arch = "aarch64")]
        native: Some(dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla::run),
        #[cfg(not(target_arch = "aarch64"))]
        native: None,
        portable,
    },
};

/// The kernels of this folder, for the catalog.
pub static KERNELS: &[&DwconvKernel] = &[&dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla];

/// The kernel in portable Rust, with the native kernel's bits (module documentation), for a
/// streaming length of `arch::sme_lanes32()` lanes.
///
/// # Safety
/// The arguments pass [`PlanarArgs::check`]; `rhs_packed` holds the packed weights of the
/// channel count; every row of the window's valid rows holds the input width of pixels, and
/// `dst` the output rows written.
pub unsafe fn portable(a: &PlanarArgs) {
    let g = a.geometry(4, M_STEP);
    let group = crate::arch::sme_lanes32();
    // SAFETY (both closures): the caller's buffers hold every element addressed below.
    let read = |p: *const u8| unsafe { p.cast::<f32>().read_unaligned() };
    for ch in 0..g.channels {
        let packed = a
            .rhs_packed
            .wrapping_add(((ch / group) * group * 10 + ch % group) * 4);
        let tap = |row: usize| read(packed.wrapping_add(row * group * 4));
        for r in 0..g.out_rows {
            for c in 0..g.output_cols {
                let mut acc = tap(0);
                for kw in 0..3 {
                    let col = (c + kw).wrapping_sub(a.pad_left);
                    if col >= g.input_cols {
                        continue;
                    }
                    for kh in 0..3 {
                        let row = r + kh;
                        let x = if (g.rows_lo..g.rows_hi).contains(&row) {
                            read(g.window.wrapping_add(
                                row * a.in_stride_row + col * a.in_stride_col + ch * 4,
                            ))
                        } else {
                            0.0
                        };
                        acc = float::fmla_za(acc, x, tap(1 + kh * 3 + kw));
                    }
                }
                let y = float::clamp_num(acc, a.clamp_min, a.clamp_max);
                let at = a
                    .dst
                    .wrapping_add(r * a.dst_stride_row + c * a.dst_stride_col + ch * 4);
                // SAFETY: `at` is an element of an output row written (the caller's buffer).
                unsafe { at.cast::<f32>().write_unaligned(y) };
            }
        }
    }
}
