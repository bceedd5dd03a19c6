//! KleidiAI's f32 depthwise convolution (`kai_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla`,
//! the `planar` interface), its packer `kai_rhs_dwconv_pack_x32p1vlx1b_x32_x32_sme` and the f16
//! kernel's packer `kai_rhs_dwconv_pack_x16p1vlx1b_x16_x16_sme`, through their C symbols at the
//! streaming length of the CPU running the test (`scripts/test-matrix.sh` runs it at every one;
//! the portable path runs everywhere): packed bytes equal a layout reference written from
//! KleidiAI's format; every output equals a direct depthwise convolution of the whole image
//! (`reference::dwconv`) bit for bit, on image shapes from 1x1 to 56x56, channel counts around the
//! streaming length and padding on each side, called four output rows at a time as KleidiAI's
//! tests call it (pointers through the offset getters), whole and in row portions, against guard
//! pages, with hostile values; registers, a pending lazy ZA save, and every KleidiAI assertion.

use crate::support;

use rkai_capi::capi::exports as c;
use rkai_ukernels::catalog;
use rkai_ukernels::dwconv::{DepthfirstArgs, DwconvKernel, PlanarArgs, Run};
use rkai_ukernels::float::f16;
use rkai_ukernels::reference::dwconv::{self as reference, Padding};
use std::ffi::c_void;
use std::ops::Range;
use support::float_family::{F16_SPECIALS, F32_SPECIALS};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{self, FILL};

const STEM: &str = "dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla";
const PACKER: &str = "dwconv_pack_x32p1vlx1b_x32_x32_sme";
const PACKER_X16: &str = "dwconv_pack_x16p1vlx1b_x16_x16_sme";

/// The catalog entry of depthwise kernel `stem`.
fn dwconv_kernel(stem: &str) -> &'static DwconvKernel {
    catalog::DWCONV_KERNELS
        .iter()
        .copied()
        .find(|k| k.stem == stem)
        .unwrap()
}

fn kernel() -> &'static DwconvKernel {
    dwconv_kernel(STEM)
}

/// Whether the exported kernel can run here (SME2 on aarch64; the portable path elsewhere).
fn native_runs() -> bool {
    support::cpu::can_run(kernel().isa)
}

/// Channel counts around the streaming length (`svl` f32 lanes).
fn channel_counts(svl: usize) -> Vec<usize> {
    let mut v = vec![1, svl - 1, svl, svl + 1, 3 * svl + 5];
    v.dedup();
    v.retain(|&c| c > 0);
    v
}

/// The channel counts of the image tests: all of [`channel_counts`] up to 512-bit streaming
/// vectors (`sme_pack::full_sweep`); above, where a QEMU call costs about its channels x SVL, those
/// up to one vector and one (the hostile tests keep three vectors and five).
fn image_channel_counts(lanes: usize) -> Vec<usize> {
    let mut v = channel_counts(lanes);
    if !sme_pack::full_sweep() {
        v.retain(|&c| c <= lanes + 1);
    }
    v
}

/// The clamps and guard edges a problem runs with: all of them up to 512-bit streaming vectors;
/// above, the biting clamp (the last) and one edge, alternating with `turn`.
fn swept(clamps: Vec<(f32, f32)>, edges: &[Edge], turn: usize) -> (Vec<(f32, f32)>, Vec<Edge>) {
    if sme_pack::full_sweep() {
        return (clamps, edges.to_vec());
    }
    let biting = clamps.len() - 1;
    (clamps[biting..].to_vec(), vec![edges[turn % edges.len()]])
}

/// The packed layout, written from KleidiAI's description: per group of `lanes` channels one row
/// of biases, then one row per tap (row-major), each `lanes` values of `bytes` bytes; lanes past
/// the channel count keep the buffer's [`FILL`].
fn packed_reference(
    (taps, channels): (usize, usize),
    (lanes, bytes): (usize, usize),
    w: &[u32],
    b: &[u32],
) -> Vec<u8> {
    let groups = channels.div_ceil(lanes);
    let mut out = vec![FILL; groups * (taps + 1) * lanes * bytes];
    for ch in 0..channels {
        let (g, lane) = (ch / lanes, ch % lanes);
        let mut put = |row: usize, v: u32| {
            let at = ((g * (taps + 1) + row) * lanes + lane) * bytes;
            out[at..at + bytes].copy_from_slice(&v.to_le_bytes()[..bytes]);
        };
        put(0, b[ch]);
        for tap in 0..taps {
            put(1 + tap, w[tap * channels + ch]);
        }
    }
    out
}

type PackSize = extern "C" fn(usize, usize, usize) -> usize;
type PackRun = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    *mut c_void,
);

/// The two packers: name, size and run functions, bytes per value, and the `height`/`width`
/// they are called with (the x16 packer asserts they are the filter's; the x32 one ignores them).
fn packers() -> [(&'static str, PackSize, PackRun, usize, bool); 2] {
    [
        (
            PACKER,
            c::kai_rhs_get_dst_size_dwconv_pack_x32p1vlx1b_x32_x32_sme,
            c::kai_run_rhs_dwconv_pack_x32p1vlx1b_x32_x32_sme,
            4,
            false,
        ),
        (
            PACKER_X16,
            c::kai_rhs_get_dst_size_dwconv_pack_x16p1vlx1b_x16_x16_sme,
            c::kai_run_rhs_dwconv_pack_x16p1vlx1b_x16_x16_sme,
            2,
            true,
        ),
    ]
}

/// Asserts that each `kai_get_<what>_<stem>()` of `getters` returns its value; how many.
fn constant_getters_equal(stem: &str, getters: &[(&str, usize)]) -> usize {
    for &(what, want) in getters {
        let got = support::cabi::func::<extern "C" fn() -> usize>(&format!("get_{what}"), stem)();
        assert_eq!(got, want, "kai_get_{what}_{stem}");
    }
    getters.len()
}

#[test]
fn getters_equal_kleidiai() {
    let svl = sme_pack::svl32();
    let tile = [
        ("m_step", 4),
        ("filter_height", 3),
        ("filter_width", 3),
        ("kr", 1),
    ];
    let mut checked = constant_getters_equal(STEM, &tile);
    for (h, w, ch) in [(0, 0, 0), (1, 1, 1), (7, 5, 3), (56, 56, 197)] {
        assert_eq!(
            c::kai_get_dst_size_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(h, w, ch),
            h * w * ch * 4
        );
        for (fh, fw) in [(3, 3), (1, 1), (5, 7)] {
            assert_eq!(
                c::kai_rhs_get_dst_size_dwconv_pack_x32p1vlx1b_x32_x32_sme(fh, fw, ch),
                ch.div_ceil(svl) * svl * (fh * fw + 1) * 4,
                "packed size {fh}x{fw} channels {ch}"
            );
            assert_eq!(
                c::kai_rhs_get_dst_size_dwconv_pack_x16p1vlx1b_x16_x16_sme(fh, fw, ch),
                ch.div_ceil(2 * svl) * 2 * svl * (fh * fw + 1) * 2,
                "x16 packed size {fh}x{fw} channels {ch}"
            );
            checked += 1;
        }
        checked += 1;
    }
    for row in [0, 4, 8, 52] {
        for stride in [4, 12, 56 * 197 * 4] {
            assert_eq!(
                c::kai_get_dst_offset_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(
                    row, stride
                ),
                row * stride
            );
            assert_eq!(
                c::kai_get_src_offset_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(
                    row + 1,
                    stride
                ),
                (row + 1) * stride
            );
            checked += 2;
        }
    }
    eprintln!("RELIABILITY getters {checked}");
}

#[test]
fn packer_bytes_equal_reference() {
    let svl = sme_pack::svl32();
    let mut cases = 0;
    for (name, size_of, run, bytes, shape_checked) in packers() {
        let lanes = svl * 4 / bytes;
        let bits = 8 * bytes as u32;
        let specials: [u32; 5] = match bytes {
            4 => [0x7fc0_0000, 0x7f80_0001, 0x7f80_0000, 0x8000_0000, 1],
            _ => [0x7e00, 0x7c01, 0x7c00, 0x8000, 1],
        };
        for channels in channel_counts(lanes) {
            for (fh, fw) in [(3, 3), (1, 1), (2, 5)] {
                let taps = fh * fw;
                let seed = (taps * 1000 + channels + bytes) as u64;
                let w = sme_pack::bit_patterns(taps * channels, seed, bits, &specials);
                let b = sme_pack::bit_patterns(channels, seed + 7, bits, &specials);
                let expect = packed_reference((taps, channels), (lanes, bytes), &w, &b);
                let size = size_of(fh, fw, channels);
                assert_eq!(
                    size,
                    expect.len(),
                    "{name} size {fh}x{fw} channels {channels}"
                );
                let (h, w_) = if shape_checked { (fh, fw) } else { (9, 11) };
                let le = |v: &[u32]| -> Vec<u8> {
                    v.iter()
                        .flat_map(|x| x.to_le_bytes()[..bytes].to_vec())
                        .collect()
                };
                for edge in EDGES {
                    let (wb, bb) = (
                        Guarded::from_bytes(&le(&w), edge),
                        Guarded::from_bytes(&le(&b), edge),
                    );
                    let what = format!("{name} {fh}x{fw} channels {channels}");
                    sme_pack::packs_equal(&what, size, edge, &expect, |out| {
                        // SAFETY: the buffers hold the weights, biases and packed size.
                        unsafe {
                            run(
                                fh,
                                fw,
                                h,
                                w_,
                                channels,
                                wb.ptr().cast(),
                                bb.ptr().cast(),
                                out.cast(),
                            )
                        }
                    });
                    cases += 1;
                }
            }
        }
    }
    eprintln!("RELIABILITY packer_bytes {cases}");
}

/// One convolution problem: an image, its filter and biases (f32 values, or raw halves for the
/// f16 kernel), padding and clamp.
struct ProblemOf<T> {
    h: usize,
    w: usize,
    c: usize,
    pad: Padding,
    src: Vec<T>,
    weights: Vec<T>,
    bias: Vec<T>,
    clamp: (f32, f32),
}

/// The f32 kernel's problem.
type Problem = ProblemOf<f32>;
/// The f16 kernel's problem.
type Problem16 = ProblemOf<u16>;

impl<T> ProblemOf<T> {
    /// An `h` x `w` image of `c` channels, its 3x3 filter and its biases, drawn in that order
    /// from `values`; no clamp.
    fn from_values(
        (h, w, c): (usize, usize, usize),
        pad: Padding,
        mut values: impl FnMut(usize) -> Vec<T>,
    ) -> Self {
        let (src, weights, bias) = (values(h * w * c), values(9 * c), values(c));
        ProblemOf {
            h,
            w,
            c,
            pad,
            src,
            weights,
            bias,
            clamp: (f32::NEG_INFINITY, f32::INFINITY),
        }
    }

    fn out_shape(&self) -> (usize, usize) {
        reference::output_shape(self.h, self.w, self.pad)
    }
}

impl Problem {
    fn new(h: usize, w: usize, c: usize, pad: Padding, seed: u64, hostile: bool) -> Self {
        let mut rng = Rng::new(seed);
        let values = |n: usize| {
            let mut v = rng.vec_f32(n, -2.0, 2.0);
            if hostile {
                for (i, x) in v.iter_mut().enumerate() {
                    if (i * 7 + seed as usize) % 5 == 0 {
                        *x = F32_SPECIALS[(i / 5 + seed as usize) % F32_SPECIALS.len()];
                    }
                }
            }
            v
        };
        ProblemOf::from_values((h, w, c), pad, values)
    }

    fn expected(&self) -> Vec<f32> {
        let (_, ow) = self.out_shape();
        let mut out = vec![0.0; self.out_shape().0 * ow * self.c];
        reference::f32_3x3(
            &self.src,
            (self.h, self.w, self.c),
            &self.weights,
            &self.bias,
            self.pad,
            self.clamp,
            |y, x, ch, v| out[(y * ow + x) * self.c + ch] = v,
        );
        out
    }

    fn packed(&self, edge: Edge) -> Guarded {
        let size = c::kai_rhs_get_dst_size_dwconv_pack_x32p1vlx1b_x32_x32_sme(3, 3, self.c);
        let mut out = sme_pack::prefilled(size, edge);
        let (w, b) = (
            Guarded::from_f32(&self.weights, edge),
            Guarded::from_f32(&self.bias, edge),
        );
        // SAFETY: the buffers hold the filter, biases and packed size.
        unsafe {
            c::kai_run_rhs_dwconv_pack_x32p1vlx1b_x32_x32_sme(
                3,
                3,
                self.h,
                self.w,
                self.c,
                w.ptr().cast(),
                b.ptr().cast(),
                out.mut_ptr().cast(),
            )
        };
        out
    }
}

/// How a call runs: the exported symbol or the portable path.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Impl {
    Exported,
    Portable,
}

/// The arguments of the call for output rows `out_row..rows.end` (at most four), as KleidiAI's
/// tests compute them, the pointers moved through the offset getters.
fn call_args(
    p: &Problem,
    src: *const u8,
    packed: *const u8,
    dst: *mut u8,
    out_row: usize,
    end: usize,
) -> PlanarArgs {
    let (_, ow) = p.out_shape();
    let (in_row_bytes, out_row_bytes, col) = (p.w * p.c * 4, ow * p.c * 4, p.c * 4);
    let start = out_row as isize - p.pad.top as isize;
    let pad_top = (-start).max(0) as usize;
    let in_row = start.max(0) as usize;
    let src_off = c::kai_get_src_offset_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(
        in_row,
        in_row_bytes,
    );
    let dst_off = c::kai_get_dst_offset_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(
        out_row,
        out_row_bytes,
    );
    PlanarArgs {
        src: src.wrapping_add(src_off),
        rhs_packed: packed,
        dst: dst.wrapping_add(dst_off),
        in_stride_row: in_row_bytes,
        in_stride_col: col,
        dst_stride_row: out_row_bytes,
        dst_stride_col: col,
        valid_input_rows: p.h.saturating_sub(in_row),
        valid_dst_rows: end - out_row,
        pad_left: p.pad.left,
        pad_top,
        pad_value: 0.0,
        clamp_min: p.clamp.0,
        clamp_max: p.clamp.1,
    }
}

/// Runs one call through `how`.
///
/// # Safety
/// The arguments describe valid buffers.
unsafe fn call(how: Impl, a: &PlanarArgs) {
    match how {
        // SAFETY: forwarded.
        Impl::Exported => unsafe {
            a.call_c(c::kai_run_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla)
        },
        // SAFETY: forwarded.
        Impl::Portable => {
            let Run::Planar { portable, .. } = kernel().run else {
                unreachable!()
            };
            // SAFETY: forwarded.
            unsafe { portable(a) }
        }
    }
}

fn impls() -> Vec<Impl> {
    if native_runs() {
        vec![Impl::Exported, Impl::Portable]
    } else {
        vec![Impl::Portable]
    }
}

const fn pad(top: usize, bottom: usize, left: usize, right: usize) -> Padding {
    Padding {
        top,
        bottom,
        left,
        right,
    }
}

/// Paddings of 0 and 1 on each side (one side at a time, none, all), and a large one.
const PADDINGS: [Padding; 8] = [
    pad(0, 0, 0, 0),
    pad(1, 0, 0, 0),
    pad(0, 1, 0, 0),
    pad(0, 0, 1, 0),
    pad(0, 0, 0, 1),
    pad(1, 1, 1, 1),
    pad(0, 1, 0, 1),
    pad(5, 3, 7, 11),
];

/// The clamp of a problem: none, or one that bites (the middle half of the outputs' range).
fn clamps(expect: &[f32]) -> Vec<(f32, f32)> {
    let finite = expect.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f32::MAX, f32::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let mut v = vec![(f32::NEG_INFINITY, f32::INFINITY)];
    if lo < hi {
        v.push((lo + (hi - lo) / 4.0, hi - (hi - lo) / 4.0));
    }
    v
}

/// A region of the output image: rows, columns.
type Region = (Range<usize>, Range<usize>);

/// What the image tests ask of a kernel, named by its value type: the f32 kernel (`planar`
/// interface: four output rows a call, every column) and the f16 one (`depthfirst`: any region
/// in one call, summing in tiles that start at the region's origin).
trait Precision: Sized {
    /// Bytes per value.
    const BYTES: usize;
    /// Values per streaming vector.
    fn lanes() -> usize {
        sme_pack::svl32() * 4 / Self::BYTES
    }
    /// An output value's bits as f32.
    fn value(bits: u32) -> f32;
    /// A problem of random values (hostile ones scatter specials).
    fn problem(
        h: usize,
        w: usize,
        c: usize,
        pad: Padding,
        seed: u64,
        hostile: bool,
    ) -> ProblemOf<Self>;
    /// Whether a problem is cheap enough under QEMU at every streaming length.
    fn affordable(channels: usize, pad: Padding) -> bool;
    /// The whole output image's bits, its summation tiles starting at `origin`.
    fn expected_bits(p: &ProblemOf<Self>, origin: (usize, usize)) -> Vec<u32>;
    /// The output size from the kernel's getter.
    fn dst_size(oh: usize, ow: usize, c: usize) -> usize;
    fn src(p: &ProblemOf<Self>, edge: Edge) -> Guarded;
    fn packed(p: &ProblemOf<Self>, edge: Edge) -> Guarded;
    /// Computes `region` of the output image `dst` through `how`.
    fn compute(
        p: &ProblemOf<Self>,
        how: Impl,
        buffers: (&Guarded, &Guarded),
        dst: &mut Guarded,
        region: &Region,
    );
    /// The output portions a caller computes alone, each with its guard edge.
    fn portions(p: &ProblemOf<Self>) -> Vec<(Region, Edge)>;
}

impl Precision for f32 {
    const BYTES: usize = 4;

    fn value(bits: u32) -> f32 {
        f32::from_bits(bits)
    }

    fn problem(h: usize, w: usize, c: usize, pad: Padding, seed: u64, hostile: bool) -> Problem {
        Problem::new(h, w, c, pad, seed, hostile)
    }

    fn affordable(_: usize, _: Padding) -> bool {
        true
    }

    /// One summation order whatever the tile: `origin` changes nothing.
    fn expected_bits(p: &Problem, _: (usize, usize)) -> Vec<u32> {
        p.expected().iter().map(|v| v.to_bits()).collect()
    }

    fn dst_size(oh: usize, ow: usize, c: usize) -> usize {
        c::kai_get_dst_size_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(oh, ow, c)
    }

    fn src(p: &Problem, edge: Edge) -> Guarded {
        Guarded::from_f32(&p.src, edge)
    }

    fn packed(p: &Problem, edge: Edge) -> Guarded {
        p.packed(edge)
    }

    /// Four rows a call, as KleidiAI's tests call it; `region` spans every column.
    fn compute(
        p: &Problem,
        how: Impl,
        (src, packed): (&Guarded, &Guarded),
        dst: &mut Guarded,
        region: &Region,
    ) {
        let (rows, cols) = region;
        assert_eq!(
            *cols,
            0..p.out_shape().1,
            "the planar kernel computes whole rows"
        );
        for out_row in rows.clone().step_by(4) {
            let a = call_args(p, src.ptr(), packed.ptr(), dst.mut_ptr(), out_row, rows.end);
            // SAFETY: the buffers hold the image, the packed filter and the output image.
            unsafe { call(how, &a) };
        }
    }

    /// A caller's row slices: from the second call to one row before the end, and the last
    /// (partial) call alone.
    fn portions(p: &Problem) -> Vec<(Region, Edge)> {
        let (oh, ow) = p.out_shape();
        if oh <= 4 {
            return Vec::new();
        }
        vec![
            ((4..oh - 1, 0..ow), Edge::End),
            (((oh - 1) / 4 * 4..oh, 0..ow), Edge::Start),
        ]
    }
}

impl Precision for u16 {
    const BYTES: usize = 2;

    fn value(bits: u32) -> f32 {
        f32::from_bits(f16::to_f32_bits(bits as u16))
    }

    fn problem(h: usize, w: usize, c: usize, pad: Padding, seed: u64, hostile: bool) -> Problem16 {
        Problem16::new(h, w, c, pad, seed, hostile)
    }

    /// Beyond one vector and one channel, only no padding, padding all round and padding below
    /// and right.
    fn affordable(channels: usize, pad: Padding) -> bool {
        channels <= Self::lanes() + 1 || [PADDINGS[0], PADDINGS[5], PADDINGS[6]].contains(&pad)
    }

    fn expected_bits(p: &Problem16, origin: (usize, usize)) -> Vec<u32> {
        p.expected(origin).into_iter().map(u32::from).collect()
    }

    fn dst_size(oh: usize, ow: usize, c: usize) -> usize {
        c::kai_get_dst_size_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla(oh, ow, c)
    }

    fn src(p: &Problem16, edge: Edge) -> Guarded {
        Guarded::from_bytes(&sme_pack::le_bytes(&p.src), edge)
    }

    fn packed(p: &Problem16, edge: Edge) -> Guarded {
        p.packed(edge)
    }

    /// One call for the whole region.
    fn compute(
        p: &Problem16,
        how: Impl,
        (src, packed): (&Guarded, &Guarded),
        dst: &mut Guarded,
        region: &Region,
    ) {
        let a = p.args(src.ptr(), packed.ptr(), dst.mut_ptr(), region);
        // SAFETY: the buffers hold the image, the packed filter and the output image.
        unsafe { call16(how, &a) };
    }

    /// The last partial tile alone, a tile's worth from the second tile row and column on, and
    /// a region starting mid-tile.
    fn portions(p: &Problem16) -> Vec<(Region, Edge)> {
        let (oh, ow) = p.out_shape();
        let mut regions = vec![((oh - 1) / 4 * 4..oh, (ow - 1) / 4 * 4..ow)];
        if oh > 4 && ow > 4 {
            regions.push((4..oh.min(8), 4..ow.min(8)));
        }
        if oh > 2 && ow > 1 {
            regions.push((1..oh - 1, 1..ow));
        }
        regions.into_iter().map(|r| (r, Edge::End)).collect()
    }
}

/// Computes output `region` into a guarded destination of the whole image pre-filled with
/// [`FILL`]; the region equals `expect` bit for bit and every other byte keeps the fill.
fn check_region<T: Precision>(
    p: &ProblemOf<T>,
    expect: &[u32],
    how: Impl,
    edge: Edge,
    region: Region,
) {
    let (oh, ow) = p.out_shape();
    let (src, packed) = (T::src(p, edge), T::packed(p, edge));
    let mut dst = sme_pack::prefilled(T::dst_size(oh, ow, p.c), edge);
    T::compute(p, how, (&src, &packed), &mut dst, &region);
    let got = dst.bytes();
    for y in 0..oh {
        for x in 0..ow {
            let at = (y * ow + x) * p.c;
            let pixel = &got[at * T::BYTES..(at + p.c) * T::BYTES];
            if !(region.0.contains(&y) && region.1.contains(&x)) {
                assert!(
                    pixel.iter().all(|&b| b == FILL),
                    "{how:?}: pixel ({y}, {x}) outside {region:?} written"
                );
                continue;
            }
            for (ch, chunk) in pixel.chunks_exact(T::BYTES).enumerate() {
                let mut bytes = [0; 4];
                bytes[..T::BYTES].copy_from_slice(chunk);
                let (v, want) = (u32::from_le_bytes(bytes), expect[at + ch]);
                assert_eq!(
                    v,
                    want,
                    "{how:?} {edge:?} {}x{}x{} pad {:?} clamp {:?} region {region:?}: row {y} \
                     column {x} channel {ch}: {} != {} ({v:#x} != {want:#x})",
                    p.h,
                    p.w,
                    p.c,
                    p.pad,
                    p.clamp,
                    T::value(v),
                    T::value(want)
                );
            }
        }
    }
}

/// Checks problem `p` whole through each implementation (at `edges`) and with each clamp;
/// with `portions`, also the kernel's output portions (regions starting mid-tile against the
/// convolution summed in their own tiles). How many cases.
fn check_problem<T: Precision>(mut p: ProblemOf<T>, edges: &[Edge], portions: bool) -> usize {
    let mut cases = 0;
    let (oh, ow) = p.out_shape();
    let unclamped: Vec<f32> = T::expected_bits(&p, (0, 0))
        .into_iter()
        .map(T::value)
        .collect();
    let (clamps, edges) = swept(clamps(&unclamped), edges, p.h + p.c);
    for clamp in clamps {
        p.clamp = clamp;
        let expect = T::expected_bits(&p, (0, 0));
        let portions = if portions {
            T::portions(&p)
        } else {
            Vec::new()
        };
        let portion_expects: Vec<Option<Vec<u32>>> = portions
            .iter()
            .map(|((rows, cols), _)| match (rows.start % 4, cols.start % 4) {
                (0, 0) => None,
                origin => Some(T::expected_bits(&p, origin)),
            })
            .collect();
        for how in impls() {
            for &edge in &edges {
                check_region(&p, &expect, how, edge, (0..oh, 0..ow));
                cases += 1;
            }
            for ((region, edge), own) in portions.iter().zip(&portion_expects) {
                check_region(
                    &p,
                    own.as_ref().unwrap_or(&expect),
                    how,
                    *edge,
                    region.clone(),
                );
                cases += 1;
            }
        }
    }
    cases
}

/// Hostile values (`T::problem`'s specials) at three shapes around the vector length and every
/// affordable padding, then inverted, NaN and the extra `bounds`; how many cases.
fn hostile_cases<T: Precision>(bounds: &[(f32, f32)]) -> usize {
    let lanes = T::lanes();
    let mut cases = 0;
    for (h, w, channels) in [(3, 3, lanes), (7, 5, lanes + 1), (6, 9, 3 * lanes + 5)] {
        for (i, &pad) in PADDINGS.iter().enumerate() {
            if T::affordable(channels, pad) {
                let p = T::problem(h, w, channels, pad, (i * 7 + channels) as u64, true);
                cases += check_problem(p, &EDGES, false);
            }
        }
        let inverted_and_nan = [(0.25, -0.25), (f32::NAN, 1.0), (-1.0, f32::NAN)];
        for &clamp in inverted_and_nan.iter().chain(bounds) {
            let mut p = T::problem(h, w, channels, pad(1, 1, 1, 1), channels as u64, true);
            p.clamp = clamp;
            let (oh, ow) = p.out_shape();
            let expect = T::expected_bits(&p, (0, 0));
            for how in impls() {
                check_region(&p, &expect, how, Edge::End, (0..oh, 0..ow));
                cases += 1;
            }
        }
    }
    cases
}

/// A lazy ZA save pending at the call is committed (the kernel `stem` of `isa`).
#[cfg(target_arch = "aarch64")]
fn lazy_za_save_is_committed_for<T: Precision>(stem: &str, isa: rkai_ukernels::arch::Isa) -> bool {
    let Some(mut za) = support::abi::PendingZaSave::for_isa(isa) else {
        return false;
    };
    let p = T::problem(3, 3, 5, pad(1, 1, 1, 1), 9, false);
    let expect = T::expected_bits(&p, (0, 0));
    za.arm();
    check_region(&p, &expect, Impl::Exported, Edge::End, (0..3, 0..3));
    za.assert_committed(stem);
    za.finish();
    true
}

#[test]
fn outputs_equal_direct_convolution() {
    let svl = sme_pack::svl32();
    let mut cases = 0;
    for (h, w) in [(1, 1), (3, 3), (7, 5), (14, 14)] {
        for channels in image_channel_counts(svl) {
            for (i, &pad) in PADDINGS.iter().enumerate() {
                if reference::output_shape(h, w, pad).0 == 0
                    || reference::output_shape(h, w, pad).1 == 0
                {
                    continue;
                }
                let p = Problem::new(
                    h,
                    w,
                    channels,
                    pad,
                    (h * 131 + w * 17 + channels * 3 + i) as u64,
                    false,
                );
                cases += check_problem(p, &EDGES, true);
            }
        }
    }
    // The feature-map size of a MobileNet layer, once per padding kind.
    for pad in [pad(1, 1, 1, 1), pad(0, 0, 0, 0)] {
        let p = Problem::new(56, 56, svl + 1, pad, 56, false);
        cases += check_problem(p, &[Edge::End], true);
    }
    eprintln!("RELIABILITY reference {cases}");
}

#[test]
fn hostile_values_equal_direct_convolution() {
    let cases = hostile_cases::<f32>(&[]);
    eprintln!("RELIABILITY hostile {cases}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn registers_survive() {
    use support::abi::{call8, describe};
    if !native_runs() {
        eprintln!("no SME2 on this CPU: the kernel does not run");
        return;
    }
    let svl = sme_pack::svl32();
    let p = Problem::new(7, 5, svl + 1, pad(1, 1, 1, 1), 3, false);
    let expect = p.expected();
    let (src, packed) = (Guarded::from_f32(&p.src, Edge::End), p.packed(Edge::End));
    let (oh, ow) = p.out_shape();
    let mut dst = sme_pack::prefilled(oh * ow * p.c * 4, Edge::End);
    for out_row in (0..oh).step_by(4) {
        let a = call_args(&p, src.ptr(), packed.ptr(), dst.mut_ptr(), out_row, oh);
        let args = call_args!(a.src, a.rhs_packed, a.dst, a.in_stride_row, a.in_stride_col,
            a.dst_stride_row, a.dst_stride_col, a.valid_input_rows, a.valid_dst_rows, a.pad_left,
            a.pad_top; a.pad_value, a.clamp_min, a.clamp_max);
        let f =
            c::kai_run_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla as *const () as usize;
        // SAFETY: the arguments describe run_dwconv's prototype and valid buffers.
        let mask = unsafe { call8(f, &args) };
        assert_eq!(mask, 0, "clobbered: {}", describe(mask));
    }
    let got: Vec<u32> = dst
        .bytes()
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got, expect.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    eprintln!("RELIABILITY registers {}", oh.div_ceil(4));
}

#[cfg(target_arch = "aarch64")]
#[test]
fn lazy_za_save_is_committed() {
    if lazy_za_save_is_committed_for::<f32>(STEM, kernel().isa) {
        eprintln!("RELIABILITY lazy_za 1");
    }
}

// ---- Contract violations: KleidiAI's assertions -------------------------------------------------

fn run_with(f: impl FnOnce(&mut PlanarArgs)) {
    let (src, packed, mut dst) = ([0f32; 64], [0f32; 160], [0f32; 64]);
    let mut a = PlanarArgs {
        src: src.as_ptr().cast(),
        rhs_packed: packed.as_ptr().cast(),
        dst: dst.as_mut_ptr().cast(),
        in_stride_row: 12,
        in_stride_col: 4,
        dst_stride_row: 4,
        dst_stride_col: 4,
        valid_input_rows: 3,
        valid_dst_rows: 1,
        pad_left: 0,
        pad_top: 0,
        pad_value: 0.0,
        clamp_min: -1.0,
        clamp_max: 1.0,
    };
    f(&mut a);
    // SAFETY: only reached with valid arguments when the contract check lets the call through.
    unsafe { call(Impl::Exported, &a) };
}

/// Packer `which` of [`packers`] on one channel's filter (`height` x `width` stated), with the
/// pointers given or null.
fn pack_with(which: usize, (rhs, bias, out): (bool, bool, bool), (height, width): (usize, usize)) {
    let (w, b, mut o) = ([0f32; 9], [0f32; 1], [0f32; 640]);
    let ptr = |on: bool, p: *const f32| {
        if on {
            p.cast::<c_void>()
        } else {
            std::ptr::null()
        }
    };
    let out = if out {
        o.as_mut_ptr().cast()
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: the buffers, where not null, hold one channel's filter, bias and packing.
    unsafe {
        (packers()[which].2)(
            3,
            3,
            height,
            width,
            1,
            ptr(rhs, w.as_ptr()),
            ptr(bias, b.as_ptr()),
            out,
        )
    };
}

fn cases() -> Vec<support::death::Case> {
    let run = format!("kai_run_{STEM}");
    let pack = format!("kai_run_rhs_{PACKER}");
    let pack16 = format!("kai_run_rhs_{PACKER_X16}");
    let offset = format!("kai_get_dst_offset_{STEM}");
    let case = |name: &'static str, symbol: &str, condition: &str, f: fn()| {
        (name, symbol.to_string(), condition.to_string(), f)
    };
    let mut cases = vec![
        case("null_src", &run, "src != NULL", || {
            run_with(|a| a.src = std::ptr::null())
        }),
        case("null_rhs", &run, "rhs_packed != NULL", || {
            run_with(|a| a.rhs_packed = std::ptr::null())
        }),
        case("null_dst", &run, "dst != NULL", || {
            run_with(|a| a.dst = std::ptr::null_mut())
        }),
        case("no_rows", &run, "valid_dst_rows != 0", || {
            run_with(|a| a.valid_dst_rows = 0)
        }),
        case("pad_value", &run, "pad_value == 0.0F", || {
            run_with(|a| a.pad_value = 1.0)
        }),
        case("pad_nan", &run, "pad_value == 0.0F", || {
            run_with(|a| a.pad_value = f32::NAN)
        }),
        case("strides", &run, "dst_stride_col == in_stride_col", || {
            run_with(|a| a.dst_stride_col = 8)
        }),
        case("offset_row", &offset, "dst_row_idx % kai_mr == 0", || {
            c::kai_get_dst_offset_dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla(2, 64);
        }),
    ];
    // Packer `$i` of `packers()` (C symbol `$symbol`) with each of its pointers null.
    macro_rules! null_pointer_cases {
        ($prefix:literal, $symbol:expr, $i:literal) => {
            [
                case(concat!($prefix, "rhs"), $symbol, "rhs != NULL", || {
                    pack_with($i, (false, true, true), (3, 3))
                }),
                case(
                    concat!($prefix, "out"),
                    $symbol,
                    "rhs_packed != NULL",
                    || pack_with($i, (true, true, false), (3, 3)),
                ),
                case(concat!($prefix, "bias"), $symbol, "bias != NULL", || {
                    pack_with($i, (true, false, true), (3, 3))
                }),
            ]
        };
    }
    cases.extend(null_pointer_cases!("pack_", &pack, 0));
    cases.extend(null_pointer_cases!("x16_", &pack16, 1));
    cases.extend([
        case("x16_height", &pack16, "height == filter_height", || {
            pack_with(1, (true, true, true), (4, 3))
        }),
        case("x16_width", &pack16, "width == filter_width", || {
            pack_with(1, (true, true, true), (3, 1))
        }),
    ]);
    cases
}

death_tests!(cases, "dwconv contract violations", "death");

// ---- The f16 kernel (`depthfirst` interface) ------------------------------------------------------

const STEM16: &str = "dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla";

fn kernel16() -> &'static DwconvKernel {
    dwconv_kernel(STEM16)
}

#[test]
fn f16_getters_equal_kleidiai() {
    let mut checked = constant_getters_equal(STEM16, &[("filter_height", 3), ("filter_width", 3)]);
    for (h, w, ch) in [(0, 0, 0), (1, 1, 1), (7, 5, 3), (56, 56, 197)] {
        assert_eq!(
            c::kai_get_dst_size_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla(h, w, ch),
            h * w * ch * 2
        );
        checked += 1;
    }
    eprintln!("RELIABILITY f16_getters {checked}");
}

impl Problem16 {
    /// Values in [-2, 2); hostile ones also scatter the f16 specials and values large enough
    /// for the sums to overflow a half.
    fn new(h: usize, w: usize, c: usize, pad: Padding, seed: u64, hostile: bool) -> Self {
        let mut rng = Rng::new(seed);
        let values = |n: usize| -> Vec<u16> {
            let v = rng.vec_f32(n, -2.0, 2.0);
            v.iter()
                .enumerate()
                .map(|(i, &x)| {
                    let k = i * 7 + seed as usize;
                    match (hostile, k % 5, k % 3) {
                        (true, 0, _) => F16_SPECIALS[(i / 5 + seed as usize) % F16_SPECIALS.len()],
                        (true, 1, 0) => f16::from_f32(x * 300.0),
                        _ => f16::from_f32(x),
                    }
                })
                .collect()
        };
        ProblemOf::from_values((h, w, c), pad, values)
    }

    /// The whole output image, its summation tiles starting at `origin`.
    fn expected(&self, origin: (usize, usize)) -> Vec<u16> {
        let (oh, ow) = self.out_shape();
        let mut out = vec![0; oh * ow * self.c];
        reference::f16_3x3(
            &self.src,
            (self.h, self.w, self.c),
            &self.weights,
            &self.bias,
            self.pad,
            self.clamp,
            origin,
            |y, x, ch, v| out[(y * ow + x) * self.c + ch] = v,
        );
        out
    }

    fn packed(&self, edge: Edge) -> Guarded {
        let size = c::kai_rhs_get_dst_size_dwconv_pack_x16p1vlx1b_x16_x16_sme(3, 3, self.c);
        let mut out = sme_pack::prefilled(size, edge);
        let (w, b) = (
            Guarded::from_bytes(&sme_pack::le_bytes(&self.weights), edge),
            Guarded::from_bytes(&sme_pack::le_bytes(&self.bias), edge),
        );
        // SAFETY: the buffers hold the filter, biases and packed size.
        unsafe {
            c::kai_run_rhs_dwconv_pack_x16p1vlx1b_x16_x16_sme(
                3,
                3,
                3,
                3,
                self.c,
                w.ptr().cast(),
                b.ptr().cast(),
                out.mut_ptr().cast(),
            )
        };
        out
    }

    /// The arguments computing output `region`, as a caller cuts an image: the input's origin
    /// moved to the region's first input pixel, the padding above and left what remains of it.
    fn args(
        &self,
        src: *const u8,
        packed: *const u8,
        dst: *mut u8,
        region: &Region,
    ) -> DepthfirstArgs {
        let (_, ow) = self.out_shape();
        let (rows, cols) = region;
        let (col, in_row, out_row) = (self.c * 2, self.w * self.c * 2, ow * self.c * 2);
        let y0 = rows.start.saturating_sub(self.pad.top);
        let x0 = cols.start.saturating_sub(self.pad.left);
        DepthfirstArgs {
            src: src.wrapping_add(y0 * in_row + x0 * col),
            rhs_packed: packed,
            dst: dst.wrapping_add(rows.start * out_row + cols.start * col),
            num_channels: self.c,
            src_rows: self.h - y0.min(self.h),
            src_cols: self.w - x0.min(self.w),
            dst_rows: rows.len(),
            dst_cols: cols.len(),
            pad_left: self.pad.left.saturating_sub(cols.start),
            pad_top: self.pad.top.saturating_sub(rows.start),
            in_stride_row: in_row,
            in_stride_col: col,
            out_stride_row: out_row,
            out_stride_col: col,
            clamp_min: self.clamp.0,
            clamp_max: self.clamp.1,
        }
    }
}

/// Runs one f16 call through `how`.
///
/// # Safety
/// The arguments describe valid buffers.
unsafe fn call16(how: Impl, a: &DepthfirstArgs) {
    match how {
        // SAFETY: forwarded.
        Impl::Exported => unsafe {
            a.call_c(c::kai_run_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla)
        },
        Impl::Portable => {
            let Run::Depthfirst { portable, .. } = kernel16().run else {
                unreachable!()
            };
            // SAFETY: forwarded.
            unsafe { portable(a) }
        }
    }
}

/// The image tests' channel counts around the streaming length in halves.
fn channel_counts16() -> Vec<usize> {
    image_channel_counts(2 * sme_pack::svl32())
}

#[test]
fn f16_outputs_equal_direct_convolution() {
    let mut cases = 0;
    let lanes = 2 * sme_pack::svl32();
    // Small images at every channel count and padding; 14x14 (several tiles each way) at a few,
    // to keep the file fast at the longest streaming vectors under QEMU.
    let shapes = [
        ((1, 1), channel_counts16(), &PADDINGS[..]),
        ((3, 3), channel_counts16(), &PADDINGS[..]),
        ((7, 5), channel_counts16(), &PADDINGS[..]),
        (
            (14, 14),
            vec![1, lanes + 1],
            &[PADDINGS[0], PADDINGS[5], PADDINGS[7]][..],
        ),
    ];
    for ((h, w), counts, paddings) in shapes {
        for channels in counts {
            for (i, &pad) in paddings.iter().enumerate() {
                let (oh, ow) = reference::output_shape(h, w, pad);
                if oh == 0 || ow == 0 || !u16::affordable(channels, pad) {
                    continue;
                }
                let seed = (h * 131 + w * 17 + channels * 3 + i) as u64;
                let p = Problem16::new(h, w, channels, pad, seed, false);
                let edges: &[Edge] = if h < 14 { &EDGES } else { &[Edge::End] };
                cases += check_problem(p, edges, h >= 7 && channels <= lanes + 1);
            }
        }
    }
    // The feature-map size of a MobileNet layer (RGB), once per padding kind.
    for pad in [pad(1, 1, 1, 1), pad(0, 0, 0, 0)] {
        let p = Problem16::new(56, 56, 3, pad, 56, false);
        cases += check_problem(p, &[Edge::End], false);
    }
    eprintln!("RELIABILITY f16_reference {cases}");
}

#[test]
fn f16_hostile_values_equal_direct_convolution() {
    // Beyond-half bounds too (rounded to infinities).
    let cases = hostile_cases::<u16>(&[(-1e6, 7e4)]);
    eprintln!("RELIABILITY f16_hostile {cases}");
}

/// Calls with no output rows, columns or channels write nothing (and read nothing: null
/// pointers), as KleidiAI's loops do.
#[test]
fn f16_empty_calls_touch_nothing() {
    let p = Problem16::new(3, 3, 5, pad(1, 1, 1, 1), 4, false);
    let mut cases = 0;
    for how in impls() {
        for (rows, cols, channels) in [(0, 3, 5), (3, 0, 5), (3, 3, 0)] {
            let mut dst = sme_pack::prefilled(3 * 3 * 5 * 2, Edge::End);
            let mut a = p.args(
                std::ptr::null(),
                std::ptr::null(),
                dst.mut_ptr(),
                &(0..rows, 0..cols),
            );
            a.src = std::ptr::null();
            a.num_channels = channels;
            if channels == 0 {
                a.rhs_packed = std::ptr::null();
            }
            // SAFETY: nothing is read, and nothing written outside the image's `dst`.
            unsafe { call16(how, &a) };
            assert!(
                dst.bytes().iter().all(|&b| b == FILL),
                "{how:?} {rows}x{cols}x{channels}"
            );
            cases += 1;
        }
    }
    eprintln!("RELIABILITY f16_empty {cases}");
}

#[cfg(target_arch = "aarch64")]
#[test]
fn f16_lazy_za_save_is_committed() {
    if lazy_za_save_is_committed_for::<u16>(STEM16, kernel16().isa) {
        eprintln!("RELIABILITY f16_lazy_za 1");
    }
}

#[cfg(target_arch = "aarch64")]
#[test]
fn f16_registers_survive() {
    use support::abi::{call8, describe};
    if !support::cpu::can_run(kernel16().isa) {
        eprintln!("no SME2 on this CPU: the kernel does not run");
        return;
    }
    let p = Problem16::new(7, 5, 2 * sme_pack::svl32() + 1, pad(1, 1, 1, 1), 3, false);
    let (oh, ow) = p.out_shape();
    let expect = p.expected((0, 0));
    let (src, packed) = (
        Guarded::from_bytes(&sme_pack::le_bytes(&p.src), Edge::End),
        p.packed(Edge::End),
    );
    let mut dst = sme_pack::prefilled(oh * ow * p.c * 2, Edge::End);
    let a = p.args(src.ptr(), packed.ptr(), dst.mut_ptr(), &(0..oh, 0..ow));
    let args = call_args!(a.src, a.rhs_packed, a.dst, a.num_channels, a.src_rows,
        a.src_cols, a.dst_rows, a.dst_cols, a.pad_left, a.pad_top, a.in_stride_row,
        a.in_stride_col, a.out_stride_row, a.out_stride_col; a.clamp_min, a.clamp_max);
    let f = c::kai_run_dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla as *const () as usize;
    // SAFETY: the arguments describe run_dwconv's prototype and valid buffers.
    let mask = unsafe { call8(f, &args) };
    assert_eq!(mask, 0, "clobbered: {}", describe(mask));
    let got: Vec<u16> = dst
        .bytes()
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got, expect);
    eprintln!("RELIABILITY f16_registers 1");
}
