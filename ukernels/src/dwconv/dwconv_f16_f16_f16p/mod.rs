//! `dwconv_f16_f16_f16p`: f16 depthwise 3x3 convolution, stride 1, over the `depthfirst`
//! interface.
//!
//! A call computes the whole output image (`dst_rows x dst_cols`, every channel) in 4x4 tiles
//! of output pixels, the first at output (0, 0), each from the 6x6 input pixels under it; the
//! input pixel of output (y, x) and tap (kh, kw) is (y + kh - pad_top, x + kw - pad_left), a zero
//! when outside the `src_rows x src_cols` image (padding is multiplied, not skipped). Output
//! pixels of a tile past the image's edge are computed and thrown away. An output element is
//! its channel's bias, then nine fused multiply-adds in f16 (`FMLA` on Z registers, rounded to
//! a half after each, FPCR.DN = 0 NaN rules, the weight the first factor), in an order that
//! depends on the pixel's place in its tile ([`TAP_ORDER`]; KleidiAI's kernel interleaves the
//! sixteen sums), then SME2's `FCLAMP` with both bounds rounded to halves (`FCVT`).

#[cfg(target_arch = "aarch64")]
mod dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla;

use super::pack::dwconv_pack_x16p1vlx1b_x16_x16_sme;
use super::{DepthfirstArgs, DwconvKernel, Run};
use crate::arch::Isa;
use crate::float::f16;

/// Output rows and columns of a tile.
pub const TILE: usize = 4;

/// Input rows and columns under a tile.
const TILE_IN: usize = TILE + 2;

/// The taps (`kh * 3 + kw`) in the order an output pixel adds them, by its place in its tile
/// (`row * 4 + column`), as KleidiAI's kernel adds them.
pub const TAP_ORDER: [[u8; 9]; TILE * TILE] = [
    [8, 0, 1, 3, 5, 7, 2, 6, 4],
    [7, 8, 0, 4, 5, 6, 1, 2, 3],
    [6, 7, 2, 3, 4, 8, 0, 1, 5],
    [2, 6, 1, 5, 3, 7, 0, 8, 4],
    [5, 8, 0, 2, 4, 7, 3, 6, 1],
    [4, 5, 7, 8, 1, 2, 3, 6, 0],
    [3, 4, 6, 7, 0, 1, 5, 8, 2],
    [3, 6, 2, 0, 4, 7, 5, 8, 1],
    [2, 5, 6, 1, 4, 0, 3, 8, 7],
    [1, 2, 4, 5, 0, 3, 7, 8, 6],
    [0, 1, 3, 4, 2, 5, 6, 7, 8],
    [0, 3, 8, 1, 4, 2, 5, 6, 7],
    [6, 2, 3, 7, 1, 0, 5, 8, 4],
    [1, 2, 6, 0, 4, 7, 5, 8, 3],
    [0, 1, 8, 2, 3, 6, 4, 7, 5],
    [8, 0, 5, 7, 1, 2, 3, 6, 4],
];

/// [`TAP_ORDER`] as (tap, input pixel of the tile `(row + kh) * 6 + column + kw`) byte pairs,
/// the table the portable function walks (the asm is this order unrolled).
static STEPS: [[u8; 2]; TILE * TILE * 9] = {
    let mut t = [[0u8; 2]; TILE * TILE * 9];
    let mut i = 0;
    while i < t.len() {
        let (o, tap) = (i / 9, TAP_ORDER[i / 9][i % 9] as usize);
        let pixel = (o / TILE + tap / 3) * TILE_IN + o % TILE + tap % 3;
        t[i] = [tap as u8, pixel as u8];
        i += 1;
    }
    t
};

/// `kai_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla`.
#[allow(non_upper_case_globals)]
pub static dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla: DwconvKernel = DwconvKernel {
    stem: "dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla",
    dir: "dwconv_f16_f16_f16p",
    isa: Isa::Sme2,
    m_step: TILE,
    filter: (3, 3),
    element_bytes: 2,
    packer: &dwconv_pack_x16p1vlx1b_x16_x16_sme,
    run: Run::Depthfirst {
        #[cfg(target_arch = "aarch64")]
        native: Some(dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla::run),
        #[cfg(not(target_arch = "aarch64"))]
        native: None,
        portable,
    },
};

/// The kernels of this folder, for the catalog.
pub static KERNELS: &[&DwconvKernel] = &[&dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla];

/// One tile of a call: the addresses of its 6x6 input pixels (null: padding) and of its 4x4
/// output pixels (null: past the output's edge), channel 0.
struct Tile {
    inputs: [*const u8; TILE_IN * TILE_IN],
    outputs: [*mut u8; TILE * TILE],
}

/// Calls `f` on every tile of the call, rows of tiles top to bottom, each left to right.
fn for_each_tile(a: &DepthfirstArgs, mut f: impl FnMut(&Tile)) {
    let inside = |start: usize, i: usize, pad: usize, n: usize| {
        (start + i).checked_sub(pad).filter(|&v| v < n)
    };
    for m in (0..a.dst_rows).step_by(TILE) {
        for n in (0..a.dst_cols).step_by(TILE) {
            let mut t = Tile {
                inputs: [core::ptr::null(); TILE_IN * TILE_IN],
                outputs: [core::ptr::null_mut(); TILE * TILE],
            };
            for (i, p) in t.inputs.iter_mut().enumerate() {
                let y = inside(m, i / TILE_IN, a.pad_top, a.src_rows);
                let x = inside(n, i % TILE_IN, a.pad_left, a.src_cols);
                if let (Some(y), Some(x)) = (y, x) {
                    *p = a
                        .src
                        .wrapping_add(y * a.in_stride_row + x * a.in_stride_col);
                }
            }
            for (i, p) in t.outputs.iter_mut().enumerate() {
                let (y, x) = (m + i / TILE, n + i % TILE);
                if y < a.dst_rows && x < a.dst_cols {
                    *p = a
                        .dst
                        .wrapping_add(y * a.out_stride_row + x * a.out_stride_col);
                }
            }
            f(&t);
        }
    }
}

/// The kernel in portable Rust, with the native kernel's bits (module documentation), for a
/// streaming length of `arch::sme_lanes32()` f32 lanes.
///
/// # Safety
/// `rhs_packed` holds the packed weights of the channel count; `src` the `src_rows x src_cols`
/// input pixels at its strides and `dst` the `dst_rows x dst_cols` output pixels at its, each
/// of `num_channels` halves.
pub unsafe fn portable(a: &DepthfirstArgs) {
    let group = crate::arch::sme_lanes32() * 2;
    let (lo, hi) = (f16::from_f32(a.clamp_min), f16::from_f32(a.clamp_max));
    // SAFETY: the caller's buffers hold every element addressed below.
    let read = |p: *const u8, ch: usize| unsafe { p.cast::<u16>().add(ch).read_unaligned() };
    for_each_tile(a, |t| {
        for ch in 0..a.num_channels {
            let packed = a
                .rhs_packed
                .wrapping_add(((ch / group) * group * 10 + ch % group) * 2);
            let row = |r: usize| read(packed.wrapping_add(r * group * 2), 0);
            for (o, &out) in t.outputs.iter().enumerate() {
                if out.is_null() {
                    continue;
                }
                let mut acc = row(0);
                for &[tap, pixel] in &STEPS[o * 9..o * 9 + 9] {
                    let input = t.inputs[usize::from(pixel)];
                    let x = if input.is_null() { 0 } else { read(input, ch) };
                    acc = f16::fmla(acc, row(1 + usize::from(tap)), x);
                }
                let y = f16::clamp_num(acc, lo, hi);
                // SAFETY: `out` is an output pixel of the call (the caller's buffer).
                unsafe { out.cast::<u16>().add(ch).write_unaligned(y) };
            }
        }
    });
}
