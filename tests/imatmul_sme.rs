//! The SME indirect f32 GEMMs `imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme{,2}_mopa` and
//! their packers `lhs_imatmul_pack_x32p2vlx1_x32p_sme` and
//! `rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme` (with the 16-bit and 8-bit LHS packers of the
//! f16 and int8 indirect GEMMs, `lhs_imatmul_pack_x16p2vlx2_x16p_sme` and
//! `lhs_imatmul_pack_x8p2vlx4_x8p_sme`), through the exported C symbols, at the
//! streaming length of the CPU (checked against the QEMU model the run asked for):
//! - getters equal KleidiAI's formulas;
//! - packed bytes equal references written from KleidiAI's layouts (the LHS gathered through
//!   indirection buffers of byte offsets or absolute pointers, with a pad chunk that is read as
//!   it is; values copied bit for bit, NaN payloads included), whole and in slices through the
//!   offset getters, into fill-byte buffers against guard pages;
//! - convolutions (3x3 and 1x1, stride 1 and 2, padded) through a framework's indirection buffer
//!   equal a direct convolution bit for bit (bias entered as `FMOPA` enters it, one fused
//!   multiply-add per tap and input channel, then the kernel's clamp), over KleidiAI's portions,
//!   for the exported kernels and the portable path, with hostile values;
//! - threads on disjoint row blocks, callee-saved registers, a caller's pending lazy ZA save, and
//!   every KleidiAI assertion (death tests).

mod support;

use rkai::ukernels::catalog;
use rkai::ukernels::kernel::MatmulKernel;
use rkai::ukernels::matmul::args::PackedArgs;
use rkai::ukernels::matmul::bf16_gemm::{self, za_bias};
use std::ffi::c_void;
use support::cabi::{Getter0, Getter1, Getter2, Getter3, ImatmulPackFn, func};
use support::conv::{self, Conv, Pointers};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{self, le_bytes, slices};

const STEMS: [&str; 2] = [
    "imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa",
    "imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa",
];
const LHS: &str = "lhs_imatmul_pack_x32p2vlx1_x32p_sme";
/// The 16-bit LHS packer (pairs of K values per step).
const LHS_X16: &str = "lhs_imatmul_pack_x16p2vlx2_x16p_sme";
/// The 8-bit LHS packer (the int8 indirect GEMMs'), same gather and layout with kr = 4.
const LHS_X8: &str = "lhs_imatmul_pack_x8p2vlx4_x8p_sme";
const RHS: &str = "rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme";
const CANARY: f32 = f32::from_bits(0x7fc0_dead);

/// `kai_run_imatmul_clamp_f32_f32p*`: (m, n, k_chunk_count, k_chunk_length, lhs_packed,
/// rhs_packed, dst, dst_stride_row, clamp_min, clamp_max).
type RunFn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    *mut c_void,
    usize,
    f32,
    f32,
);

/// `kai_run_lhs_imatmul_pack_*`: (m, k_chunk_count, k_chunk_length, lhs_ptrs, lhs_ptr_offset,
/// pad_ptr, lhs_packed).
type LhsPackFn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    *const *const c_void,
    usize,
    *const c_void,
    *mut c_void,
);

/// Rows and columns per packed group (2 x SVL32), the streaming length checked against the
/// model.
fn group() -> usize {
    2 * sme_pack::svl32()
}

fn kernel(stem: &str) -> &'static MatmulKernel {
    catalog::kernel(stem).expect("catalog entry")
}

/// The kernels this CPU runs (both getters answer everywhere).
fn runnable() -> Vec<&'static MatmulKernel> {
    STEMS
        .iter()
        .map(|s| kernel(s))
        .filter(|k| support::cpu::can_run(k.isa))
        .collect()
}

#[test]
fn getters_follow_kleidiai_formulas() {
    let g = group();
    let mut checked = 0;
    let p_m_step: Getter0 = func("get_m_step", LHS);
    let p_lhs_offset: Getter3 = func("get_lhs_packed_offset", LHS);
    let p_lhs_size: Getter3 = func("get_lhs_packed_size", LHS);
    let r_n_step: Getter0 = func("get_n_step", RHS);
    let r_rhs_offset: Getter1 = func("get_rhs_offset", RHS);
    let r_bias_offset: Getter1 = func("get_bias_offset", RHS);
    let r_stride: Getter2 = func("get_rhs_packed_stride", RHS);
    let r_offset: Getter3 = func("get_rhs_packed_offset", RHS);
    let r_size: Getter3 = func("get_rhs_packed_size", RHS);
    assert_eq!(p_m_step(), g);
    assert_eq!(r_n_step(), g);
    for stem in STEMS {
        let m_step: Getter0 = func("get_m_step", stem);
        let n_step: Getter0 = func("get_n_step", stem);
        assert_eq!((m_step(), n_step()), (g, g), "{stem}");
        let lhs_offset: Getter3 = func("get_lhs_packed_offset", stem);
        let rhs_offset: Getter3 = func("get_rhs_packed_offset", stem);
        let dst_offset: Getter3 = func("get_dst_offset", stem);
        let dst_size: Getter2 = func("get_dst_size", stem);
        for (kcc, kcl) in [(1, 1), (9, 3), (1, 64), (4, 31), (25, 17), (9, 0)] {
            let k = kcc * kcl;
            let stride = g * (4 + 4 * k);
            assert_eq!(r_stride(kcc, kcl), stride);
            for blocks in 0..4 {
                let idx = blocks * g;
                assert_eq!(lhs_offset(idx, kcc, kcl), idx * k * 4, "{stem}");
                assert_eq!(p_lhs_offset(idx, kcc, kcl), idx * k * 4);
                assert_eq!(rhs_offset(idx, kcc, kcl), blocks * stride, "{stem}");
                assert_eq!(r_offset(idx, kcc, kcl), blocks * stride);
                assert_eq!(r_rhs_offset(idx), 4 * idx);
                assert_eq!(dst_offset(idx, idx, 4000), idx * 4000 + 4 * idx);
                for m in [idx + 1, idx + g] {
                    assert_eq!(p_lhs_size(m, kcc, kcl), m.div_ceil(g) * g * k * 4);
                    assert_eq!(r_size(m, kcc, kcl), m.div_ceil(g) * stride);
                }
                checked += 1;
            }
        }
        assert_eq!(r_bias_offset(3), 12);
        assert_eq!(dst_size(7, 9), 7 * 9 * 4);
    }
    println!("RELIABILITY getters: {checked} cases at SVL32 {}", g / 2);
}

/// The chunks of a synthetic LHS: `m` rows of `kcc` chunks of `kcl` bit patterns of `elem`
/// bytes (4 or 2), the chunk of (row, c) at value `(row * kcc + c) * kcl` of `values`, every
/// fifth one (about) the pad chunk instead.
struct Chunks {
    elem: usize,
    m: usize,
    kcc: usize,
    kcl: usize,
    values: Guarded,
    pad: Guarded,
}

impl Chunks {
    fn new(elem: usize, (m, kcc, kcl): (usize, usize, usize), seed: u64, edge: Edge) -> Self {
        let specials = [
            0x7fc0_1234,
            0xff80_0000,
            0x8000_0000,
            0x0000_0001,
            0x7f80_0001,
        ];
        let bits = 8 * elem as u32;
        let specials = specials.map(|x| if elem == 2 { x >> 16 | 1 } else { x });
        let bytes = |v: Vec<u32>| match elem {
            2 => le_bytes(&v.iter().map(|&x| x as u16).collect::<Vec<_>>()),
            _ => le_bytes(&v),
        };
        let values = sme_pack::bit_patterns(m * kcc * kcl, seed, bits, &specials);
        let pad = sme_pack::bit_patterns(kcl.max(1), seed + 1, bits, &specials);
        Self {
            elem,
            m,
            kcc,
            kcl,
            values: Guarded::from_bytes(&bytes(values), edge),
            pad: Guarded::from_bytes(&bytes(pad), edge),
        }
    }

    fn is_pad(&self, row: usize, c: usize) -> bool {
        (row * 7 + c * 3) % 5 == 0
    }

    /// The bytes of value `t` of chunk `c` of `row` (zeros past the chunk).
    fn value(&self, row: usize, c: usize, t: usize) -> Vec<u8> {
        if t >= self.kcl {
            return vec![0; self.elem];
        }
        let (buf, at) = if self.is_pad(row, c) {
            (&self.pad, t)
        } else {
            (&self.values, (row * self.kcc + c) * self.kcl + t)
        };
        buf.bytes()[self.elem * at..self.elem * (at + 1)].to_vec()
    }

    /// K values per 4-byte step.
    fn kr(&self) -> usize {
        4 / self.elem
    }

    /// The indirection buffer in KleidiAI's block layout ([`conv::indirection`]'s), ending at
    /// the last entry read; rows past `m` hold [`conv::POISON`].
    fn entries(&self, mode: Pointers) -> Vec<usize> {
        let (mr, kcc) = (group(), self.kcc);
        let last = (self.m - 1) / mr * mr;
        let mut out = vec![conv::POISON; last * kcc + mr * (kcc - 1) + (self.m - last)];
        for row in 0..self.m {
            for c in 0..kcc {
                out[row / mr * mr * kcc + c * mr + row % mr] = if self.is_pad(row, c) {
                    self.pad.ptr() as usize
                } else {
                    let off = self.elem * (row * kcc + c) * self.kcl;
                    match mode {
                        Pointers::Offsets => off,
                        Pointers::Absolute => self.values.ptr() as usize + off,
                    }
                };
            }
        }
        out
    }

    /// KleidiAI's packed layout written out: per block of `mr` rows, per chunk, per step of
    /// `kr` K values, those values of each row (rows past `m` and values past an odd chunk
    /// length zero).
    fn reference(&self) -> Vec<u8> {
        let (mr, kr) = (group(), self.kr());
        let mut out = Vec::new();
        for block in (0..self.m).step_by(mr) {
            for c in 0..self.kcc {
                for step in 0..self.kcl.div_ceil(kr) {
                    for r in 0..mr {
                        let row = block + r;
                        for t in step * kr..(step + 1) * kr {
                            if row < self.m {
                                out.extend_from_slice(&self.value(row, c, t));
                            } else {
                                out.extend(std::iter::repeat_n(0, self.elem));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Packs rows `m0..m0 + rows` of an `m`-row problem through the C packer, every pointer moved by
/// the packer's offset getter (a slice starts at entry `m0 * kcc` of the indirection buffer).
///
/// # Safety
/// `entries` is the whole indirection buffer, `out` the whole packed size.
unsafe fn pack_lhs_slice(
    name: &str,
    ch: &Chunks,
    entries: *const usize,
    offset: usize,
    out: *mut u8,
    (m0, rows): (usize, usize),
) {
    let run: LhsPackFn = func("run", name);
    let packed_offset: Getter3 = func("get_lhs_packed_offset", name);
    // SAFETY: forwarded contract; offsets from the getters.
    unsafe {
        run(
            rows,
            ch.kcc,
            ch.kcl,
            entries.add(m0 * ch.kcc).cast(),
            offset,
            ch.pad.ptr().cast(),
            out.add(packed_offset(m0, ch.kcc, ch.kcl)).cast(),
        )
    };
}

#[test]
fn lhs_packed_bytes_equal_reference_whole_and_sliced() {
    for (name, elem) in [(LHS, 4), (LHS_X16, 2), (LHS_X8, 1)] {
        lhs_packer_equals_reference(name, elem);
    }
}

/// The getters and packed bytes of LHS packer `name` (values of `elem` bytes).
fn lhs_packer_equals_reference(name: &str, elem: usize) {
    let g = group();
    let size: Getter3 = func("get_lhs_packed_size", name);
    let m_step: Getter0 = func("get_m_step", name);
    let offset: Getter3 = func("get_lhs_packed_offset", name);
    assert_eq!(m_step(), g, "{name}");
    let kr = 4 / elem;
    for (kcc, kcl) in [(1usize, 1usize), (9, 3), (4, 8)] {
        let row = kcc * kcl.div_ceil(kr) * kr * elem;
        assert_eq!(offset(2 * g, kcc, kcl), 2 * g * row, "{name}");
        assert_eq!(size(g + 1, kcc, kcl), 2 * g * row, "{name}");
    }
    let mut cases = 0;
    for (i, (m, kcc, kcl)) in [
        (1, 1, 1),
        (g - 1, 9, 3),
        (g, 1, 5),
        (g + 1, 4, 7),
        (3 * g + 5, 2, 16),
        (2 * g, 9, 1),
        (5, 25, 17),
    ]
    .into_iter()
    .enumerate()
    {
        for (e, edge) in EDGES.into_iter().enumerate() {
            let ch = Chunks::new(elem, (m, kcc, kcl), (i * 2 + e) as u64, edge);
            let expect = ch.reference();
            let bytes = size(m, kcc, kcl);
            assert_eq!(bytes, expect.len());
            for mode in [Pointers::Offsets, Pointers::Absolute] {
                let entries = ch.entries(mode);
                let ibuf = Guarded::from_bytes(&conv::entry_bytes(&entries), edge);
                let offset = match mode {
                    Pointers::Offsets => ch.values.ptr() as usize,
                    Pointers::Absolute => 0,
                };
                let what = format!("{name} m {m} kcc {kcc} kcl {kcl} {mode:?}");
                let ib = ibuf.ptr().cast::<usize>();
                // SAFETY (both): buffers sized for the problem.
                sme_pack::packs_equal(&what, bytes, edge, &expect, |out| unsafe {
                    pack_lhs_slice(name, &ch, ib, offset, out, (0, m))
                });
                sme_pack::slices_equal(
                    &what,
                    bytes,
                    edge,
                    &expect,
                    &slices(m, g),
                    |out, s| unsafe { pack_lhs_slice(name, &ch, ib, offset, out, s) },
                );
                cases += 2;
            }
        }
    }
    println!(
        "RELIABILITY LHS packed bytes: {name} {cases} cases at SVL32 {}",
        g / 2
    );
}

/// KleidiAI's RHS layout written out: per group of `nr` columns, the biases, then each of the
/// `k` rows; columns past `n` zero.
fn rhs_reference(n: usize, k: usize, rhs: &[u32], stride: usize, bias: &[u32]) -> Vec<u8> {
    let nr = group();
    let mut words = Vec::new();
    for g in 0..n.div_ceil(nr) {
        let col = |j: usize| g * nr + j;
        words.extend((0..nr).map(|j| if col(j) < n { bias[col(j)] } else { 0 }));
        for kk in 0..k {
            words.extend((0..nr).map(|j| {
                if col(j) < n {
                    rhs[kk * stride + col(j)]
                } else {
                    0
                }
            }));
        }
    }
    le_bytes(&words)
}

/// Packs columns `n0..n0 + cols` through the C packer, pointers moved by its offset getters.
///
/// # Safety
/// `rhs` holds the K x N matrix (rows `stride` words apart), `bias` `n` values, `out` the
/// whole packed size.
unsafe fn pack_rhs_slice(
    (kcc, kcl): (usize, usize),
    (rhs, stride, bias): (*const u8, usize, *const u8),
    out: *mut u8,
    (n0, cols): (usize, usize),
) {
    let run: ImatmulPackFn = func("run", RHS);
    let rhs_off: Getter1 = func("get_rhs_offset", RHS);
    let bias_off: Getter1 = func("get_bias_offset", RHS);
    let packed_off: Getter3 = func("get_rhs_packed_offset", RHS);
    // SAFETY: forwarded contract; offsets from the getters.
    unsafe {
        run(
            cols,
            kcc,
            kcl,
            4 * stride,
            rhs.add(rhs_off(n0)).cast(),
            bias.add(bias_off(n0)).cast(),
            out.add(packed_off(n0, kcc, kcl)).cast(),
        )
    };
}

#[test]
fn rhs_packed_bytes_equal_reference_whole_and_sliced() {
    let g = group();
    let size: Getter3 = func("get_rhs_packed_size", RHS);
    let specials = [
        0x7fc0_1234,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f80_0001,
    ];
    let mut cases = 0;
    for (i, (n, kcc, kcl)) in [
        (1, 1, 1),
        (g - 1, 9, 3),
        (g, 1, 5),
        (g + 3, 4, 7),
        (3 * g + 5, 2, 16),
        (2 * g, 9, 1),
    ]
    .into_iter()
    .enumerate()
    {
        let (k, stride) = (kcc * kcl, n + 3);
        let rhs = sme_pack::bit_patterns(k * stride, 40 + i as u64, 32, &specials);
        let bias = sme_pack::bit_patterns(n, 60 + i as u64, 32, &specials);
        let expect = rhs_reference(n, k, &rhs, stride, &bias);
        let bytes = size(n, kcc, kcl);
        assert_eq!(bytes, expect.len());
        for edge in EDGES {
            let rhs_g = Guarded::from_bytes(&le_bytes(&rhs), edge);
            let bias_g = Guarded::from_bytes(&le_bytes(&bias), edge);
            let src = (rhs_g.ptr(), stride, bias_g.ptr());
            let what = format!("n {n} kcc {kcc} kcl {kcl}");
            // SAFETY (both): buffers sized for the problem.
            sme_pack::packs_equal(&what, bytes, edge, &expect, |out| unsafe {
                pack_rhs_slice((kcc, kcl), src, out, (0, n))
            });
            sme_pack::slices_equal(
                &what,
                bytes,
                edge,
                &expect,
                &slices(n, g),
                |out, s| unsafe { pack_rhs_slice((kcc, kcl), src, out, s) },
            );
            cases += 2;
        }
    }
    println!(
        "RELIABILITY RHS packed bytes: {cases} cases at SVL32 {}",
        g / 2
    );
}

/// One convolution packed for the kernels: input, pad chunk, weights and bias (finite random
/// values, or with hostile ones mixed in), the packed LHS and RHS (each at the end of a guarded
/// buffer at `edge`, packed through the C packers from a framework's indirection buffer).
struct ConvProblem {
    conv: Conv,
    input: Vec<f32>,
    pad: Vec<f32>,
    weights: Vec<f32>,
    bias: Vec<f32>,
    lhs: Guarded,
    rhs: Guarded,
}

/// Values that must travel through the kernels as through the reference.
const HOSTILE: [f32; 8] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    1e-40,
    -1e-45,
    3e38,
    f32::from_bits(0x7fa0_0001),
];

impl ConvProblem {
    fn new(conv: Conv, seed: u64, hostile: bool, mode: Pointers, edge: Edge) -> Self {
        let (n, kcc, kcl) = (conv.c_out, conv.kcc(), conv.c_in);
        let mut rng = Rng::new(seed);
        let mut draw = |len: usize, scale: f32| {
            let mut v = rng.vec_f32(len, -scale, scale);
            if hostile {
                for (i, x) in v.iter_mut().enumerate() {
                    if (i * 13 + seed as usize) % 23 == 0 {
                        *x = HOSTILE[(i / 23) % HOSTILE.len()];
                    }
                }
            }
            v
        };
        let input = draw(conv.h * conv.w * kcl, 1.0);
        let weights = draw(kcc * kcl * n, 1.0);
        let bias = draw(n, 0.5);
        let pad = if seed % 2 == 0 {
            vec![0.0; kcl]
        } else {
            draw(kcl, 2.0)
        };
        let input_g = Guarded::from_f32(&input, edge);
        let pad_g = Guarded::from_f32(&pad, edge);
        let entries = conv::indirection(&conv, (input_g.ptr(), 4), pad_g.ptr(), mode, group());
        let ibuf = Guarded::from_bytes(&conv::entry_bytes(&entries), edge);
        let offset = match mode {
            Pointers::Offsets => input_g.ptr() as usize,
            Pointers::Absolute => 0,
        };
        let lhs_size: Getter3 = func("get_lhs_packed_size", LHS);
        let mut lhs = Guarded::new(lhs_size(conv.m(), kcc, kcl), edge);
        let pack_lhs: LhsPackFn = func("run", LHS);
        // SAFETY: buffers sized for the problem.
        unsafe {
            pack_lhs(
                conv.m(),
                kcc,
                kcl,
                ibuf.ptr().cast(),
                offset,
                pad_g.ptr().cast(),
                lhs.mut_ptr().cast(),
            )
        };
        let rhs_size: Getter3 = func("get_rhs_packed_size", RHS);
        let mut rhs = Guarded::new(rhs_size(n, kcc, kcl), edge);
        let w = Guarded::from_f32(&weights, edge);
        let b = Guarded::from_f32(&bias, edge);
        // SAFETY: buffers sized for the problem.
        unsafe { pack_rhs_slice((kcc, kcl), (w.ptr(), n, b.ptr()), rhs.mut_ptr(), (0, n)) };
        Self {
            conv,
            input,
            pad,
            weights,
            bias,
            lhs,
            rhs,
        }
    }

    /// The direct convolution as `kernel` computes it: the bias entered into a zeroed ZA tile
    /// by `FMOPA` ([`za_bias`]), one fused multiply-add per tap and channel, a NaN the default
    /// NaN (ZA results), then the kernel's clamp.
    fn expected(&self, kernel: &MatmulKernel, lo: f32, hi: f32) -> Vec<f32> {
        let sums = conv::direct_sums(&self.conv, &self.input, &self.pad, &self.weights, |j| {
            za_bias(self.bias[j])
        });
        sums.iter()
            .map(|&acc| {
                let acc = if acc.is_nan() { za_bias(acc) } else { acc };
                bf16_gemm::clamp(kernel, acc, lo, hi)
            })
            .collect()
    }

    /// Runs the portion (`m_idx`, `n_idx`, `rows`, `cols`) through `kernel`'s C symbol (or the
    /// portable path) into a canary-filled guarded destination, moving every pointer by the
    /// kernel's getters, and returns the destination.
    fn run(
        &self,
        kernel: &MatmulKernel,
        portable: bool,
        (m_idx, n_idx, rows, cols): (usize, usize, usize, usize),
        (lo, hi): (f32, f32),
        edge: Edge,
    ) -> Guarded {
        let (m, n, kcc, kcl) = (
            self.conv.m(),
            self.conv.c_out,
            self.conv.kcc(),
            self.conv.c_in,
        );
        let stem = kernel.stem;
        let lhs_off = func::<Getter3>("get_lhs_packed_offset", stem)(m_idx, kcc, kcl);
        let rhs_off = func::<Getter3>("get_rhs_packed_offset", stem)(n_idx, kcc, kcl);
        let dst_off = func::<Getter3>("get_dst_offset", stem)(m_idx, n_idx, 4 * n);
        let mut dst = Guarded::from_f32(&vec![CANARY; m * n], edge);
        // SAFETY: offsets from the getters; buffers cover the portion.
        let (l, r, d) = unsafe {
            (
                self.lhs.ptr().add(lhs_off),
                self.rhs.ptr().add(rhs_off),
                dst.mut_ptr().add(dst_off),
            )
        };
        if portable {
            let args = PackedArgs {
                m: rows,
                n: cols,
                k: kcc * kcl,
                bl: 0,
                lhs_packed: l,
                rhs_packed: r,
                dst: d,
                dst_stride_row: 4 * n,
                dst_stride_col: 4,
                clamp_min: lo,
                clamp_max: hi,
                lut: std::ptr::null(),
                params: std::ptr::null(),
            };
            // SAFETY: as above.
            unsafe { bf16_gemm::portable::run(kernel, &args) };
        } else {
            let run: RunFn = func("run", stem);
            // SAFETY: as above.
            unsafe {
                run(
                    rows,
                    cols,
                    kcc,
                    kcl,
                    l.cast(),
                    r.cast(),
                    d.cast(),
                    4 * n,
                    lo,
                    hi,
                )
            };
        }
        dst
    }
}

/// `dst` holds `want` inside the portion and the canary elsewhere, bit for bit.
fn check_portion(
    what: &str,
    dst: &Guarded,
    want: &[f32],
    (m, n): (usize, usize),
    (m_idx, n_idx, rows, cols): (usize, usize, usize, usize),
) {
    for i in 0..m {
        for j in 0..n {
            let inside = (m_idx..m_idx + rows).contains(&i) && (n_idx..n_idx + cols).contains(&j);
            let expect = if inside { want[i * n + j] } else { CANARY };
            let got = dst.f32_at(i * n + j);
            assert_eq!(
                got.to_bits(),
                expect.to_bits(),
                "{what} portion ({m_idx}, {n_idx}, {rows}, {cols}) at ({i}, {j}): {got} vs {expect}"
            );
        }
    }
}

/// Every convolution geometry, both clamps, KleidiAI's portions, both guard edges (by case),
/// both pointer modes (by case), the exported kernels and the portable path; with `hostile`,
/// hostile values in every operand.
fn convolutions_equal_direct(hostile: bool) -> (usize, usize) {
    let g = group();
    let kernels = runnable();
    let (mut calls, mut portable_calls) = (0, 0);
    // Above 512 bits, every third geometry (the emulated streaming length makes each call
    // large); every geometry at the shorter lengths.
    let every = if g > 32 { 3 } else { 1 };
    for (ci, conv) in conv::conv_cases(g).into_iter().enumerate().step_by(every) {
        let edge = EDGES[ci % 2];
        let mode = if ci % 3 == 0 {
            Pointers::Absolute
        } else {
            Pointers::Offsets
        };
        let p = ConvProblem::new(conv, ci as u64 + 100 * hostile as u64, hostile, mode, edge);
        let (m, n) = (conv.m(), conv.c_out);
        for clamp in [(f32::NEG_INFINITY, f32::INFINITY), (-0.3, 0.4)] {
            for portion in conv::portions(m, n, g, g) {
                // Each kernel through its C symbol where the CPU runs it, and its portable path.
                let impls = STEMS.iter().flat_map(|&s| {
                    let k = kernel(s);
                    let native = kernels.iter().any(|x| std::ptr::eq(*x, k));
                    [(k, false), (k, true)]
                        .into_iter()
                        .filter(move |&(_, p)| p || native)
                });
                for (k, portable) in impls {
                    let want = p.expected(k, clamp.0, clamp.1);
                    let dst = p.run(k, portable, portion, clamp, edge);
                    let what = format!(
                        "{} {} {conv:?} {mode:?} clamp {clamp:?} hostile {hostile}",
                        k.stem,
                        if portable { "portable" } else { "C symbol" }
                    );
                    check_portion(&what, &dst, &want, (m, n), portion);
                    if portable {
                        portable_calls += 1;
                    } else {
                        calls += 1;
                    }
                }
            }
        }
    }
    (calls, portable_calls)
}

#[test]
fn convolutions_through_indirection_equal_direct_convolution() {
    let (calls, portable) = convolutions_equal_direct(false);
    println!(
        "RELIABILITY convolutions: {calls} kernel calls, {portable} portable calls at SVL32 {}",
        group() / 2
    );
}

#[test]
fn hostile_values_equal_direct_convolution() {
    let (calls, portable) = convolutions_equal_direct(true);
    println!(
        "RELIABILITY hostile convolutions: {calls} kernel calls, {portable} portable calls at SVL32 {}",
        group() / 2
    );
}

fn threaded_conv() -> Conv {
    Conv {
        h: 12,
        w: 11,
        c_in: 7,
        kh: 3,
        kw: 3,
        stride: 1,
        pad: 1,
        c_out: group() + 5,
    }
}

/// Threads computing disjoint row blocks of one convolution at once equal one whole call.
#[test]
fn threads_on_disjoint_row_blocks_equal_one_call() {
    let g = group();
    for k in runnable() {
        let conv = threaded_conv();
        let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let p = ConvProblem::new(conv, 5, false, Pointers::Absolute, Edge::End);
        let want = p.expected(k, -0.5, 0.5);
        let mut dst = vec![CANARY; m * n];
        let run: RunFn = func("run", k.stem);
        let lhs_off: Getter3 = func("get_lhs_packed_offset", k.stem);
        let (lp, rp, dp) = (
            p.lhs.ptr() as usize,
            p.rhs.ptr() as usize,
            dst.as_mut_ptr() as usize,
        );
        std::thread::scope(|s| {
            for m_idx in (0..m).step_by(g) {
                s.spawn(move || {
                    let rows = g.min(m - m_idx);
                    // SAFETY: each thread writes its own rows; the inputs are shared read-only.
                    unsafe {
                        run(
                            rows,
                            n,
                            kcc,
                            kcl,
                            (lp as *const u8).add(lhs_off(m_idx, kcc, kcl)).cast(),
                            rp as *const c_void,
                            (dp as *mut f32).add(m_idx * n).cast(),
                            4 * n,
                            -0.5,
                            0.5,
                        )
                    };
                });
            }
        });
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&dst), bits(&want), "{}", k.stem);
        println!(
            "RELIABILITY threads: {} {} row blocks",
            k.stem,
            m.div_ceil(g)
        );
    }
}

#[cfg(target_arch = "aarch64")]
#[test]
fn registers_survive_and_lazy_za_saves_committed() {
    use support::abi::{CallArgs, PendingZaSave, call, describe};
    let mut calls = 0;
    for k in runnable() {
        let conv = threaded_conv();
        let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let p = ConvProblem::new(conv, 3, false, Pointers::Offsets, Edge::End);
        let want = p.expected(k, -1e30, 1e30);
        let mut dst = vec![0.0f32; m * n];
        let args = CallArgs {
            x: [
                m as u64,
                n as u64,
                kcc as u64,
                kcl as u64,
                p.lhs.ptr() as u64,
                p.rhs.ptr() as u64,
                dst.as_mut_ptr() as u64,
                4 * n as u64,
            ],
            d: [
                CallArgs::f32_bits(-1e30),
                CallArgs::f32_bits(1e30),
                0,
                0,
                0,
                0,
                0,
                0,
            ],
            stack: [0, 0, 0, 0],
        };
        let symbol = format!("kai_run_{}", k.stem);
        let f = rkai::capi::exports::symbol_address(&symbol).unwrap();
        // SAFETY: the arguments describe run_imatmul's prototype and valid buffers.
        let mask = unsafe { call(f, &args) };
        assert_eq!(mask, 0, "{} clobbered {}", k.stem, describe(mask));
        assert_eq!(dst, want);
        // A caller with a pending lazy ZA save: the kernel commits it before using ZA.
        let svl = rkai::ukernels::arch::sme_vector_bytes().expect("SME");
        let mut za = PendingZaSave::new(svl);
        let mut dst = Guarded::from_f32(&vec![0.0; m * n], Edge::End);
        za.arm();
        let run: RunFn = func("run", k.stem);
        // SAFETY: buffers sized for the call.
        unsafe {
            run(
                m,
                n,
                kcc,
                kcl,
                p.lhs.ptr().cast(),
                p.rhs.ptr().cast(),
                dst.mut_ptr().cast(),
                4 * n,
                -1e30,
                1e30,
            )
        };
        za.assert_committed(k.stem);
        check_portion(k.stem, &dst, &want, (m, n), (0, 0, m, n));
        calls += 1;
    }
    println!("RELIABILITY registers and lazy ZA: {calls} kernels");
}

/// Kernel `stem` called with `m` x `n`, one chunk of one value, and the given packed operands
/// and destination stride, which its checks refuse before any access.
fn refused_run(stem: &str, null: &str, dst_stride_row: usize) {
    let (lhs, rhs) = ([0.0f32; 8], [0.0f32; 8]);
    let d = Box::leak(Box::new([0.0f32; 8]));
    let pick = |name: &str, p: *const f32| {
        if name == null {
            std::ptr::null()
        } else {
            p.cast()
        }
    };
    // SAFETY: refused before any access.
    unsafe {
        func::<RunFn>("run", stem)(
            2,
            2,
            1,
            1,
            pick("lhs", lhs.as_ptr()),
            pick("rhs", rhs.as_ptr()),
            if null == "dst" {
                std::ptr::null_mut()
            } else {
                d.as_mut_ptr().cast()
            },
            dst_stride_row,
            0.0,
            1.0,
        )
    }
}

/// The LHS packer called with a null indirection buffer or output.
fn refused_lhs_pack(name: &str, null_ptrs: bool) {
    let entries = [0usize; 4];
    let mut out = [0u8; 64];
    let ptrs = if null_ptrs {
        std::ptr::null()
    } else {
        entries.as_ptr().cast()
    };
    let out = if null_ptrs {
        out.as_mut_ptr().cast()
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: refused before any access.
    unsafe { func::<LhsPackFn>("run", name)(1, 1, 1, ptrs, 0, std::ptr::null(), out) }
}

/// The RHS packer with `null` (`rhs`, `bias` or `rhs_packed`) null.
fn refused_rhs_pack(name: &str, null: &str) {
    let src = [0.0f32; 1];
    let mut out = vec![0u8; 4096];
    let pick = |n: &str| {
        if n == null {
            std::ptr::null()
        } else {
            src.as_ptr().cast()
        }
    };
    let out = if null == "rhs_packed" {
        std::ptr::null_mut()
    } else {
        out.as_mut_ptr().cast()
    };
    // SAFETY: refused before any access.
    unsafe { func::<ImatmulPackFn>("run", name)(1, 1, 1, 4, pick("rhs"), pick("bias"), out) }
}

/// The death cases of kernel `STEMS[$i]` (closures capture nothing, so the stem is a constant).
macro_rules! kernel_cases {
    ($i:literal) => {
        [
            getter_case!(concat!("kernel_lhs_offset_misaligned_", $i), "m_idx % kai_mr == 0"
                => get_lhs_packed_offset::<Getter3>(STEMS[$i])(1, 1, 1)),
            getter_case!(concat!("kernel_rhs_offset_misaligned_", $i), "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter3>(STEMS[$i])(1, 1, 1)),
            getter_case!(concat!("kernel_dst_offset_misaligned_m_", $i), "(m_idx % m_step) == 0"
                => get_dst_offset::<Getter3>(STEMS[$i])(1, 0, 64)),
            getter_case!(concat!("kernel_dst_offset_misaligned_n_", $i), "(n_idx % n_step) == 0"
                => get_dst_offset::<Getter3>(STEMS[$i])(0, 1, 64)),
            run_case!(concat!("null_lhs_", $i), "lhs_packed != NULL" => refused_run(STEMS[$i], "lhs", 8)),
            run_case!(concat!("null_rhs_", $i), "rhs_packed != NULL" => refused_run(STEMS[$i], "rhs", 8)),
            run_case!(concat!("null_dst_", $i), "dst != NULL" => refused_run(STEMS[$i], "dst", 8)),
            run_case!(concat!("short_dst_stride_", $i), "dst_stride_row >= n * sizeof(float)"
                => refused_run(STEMS[$i], "", 4)),
        ]
    };
}

fn cases() -> Vec<support::death::Case<String, String>> {
    let mut cases = vec![
        run_case!("lhs_null_ptrs", "lhs_ptrs != NULL" => refused_lhs_pack(LHS, true)),
        run_case!("lhs_null_packed", "lhs_packed != NULL" => refused_lhs_pack(LHS, false)),
        getter_case!("lhs_packed_offset_misaligned",
            "m_idx % kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme() == 0"
            => get_lhs_packed_offset::<Getter3>(LHS)(group() + 1, 1, 1)),
        run_case!("x16_null_ptrs", "lhs_ptrs != NULL" => refused_lhs_pack(LHS_X16, true)),
        run_case!("x16_null_packed", "lhs_packed != NULL" => refused_lhs_pack(LHS_X16, false)),
        getter_case!("x16_packed_offset_misaligned",
            "m_idx % kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme() == 0"
            => get_lhs_packed_offset::<Getter3>(LHS_X16)(group() + 1, 1, 1)),
        run_case!("x8_null_ptrs", "lhs_ptrs != NULL" => refused_lhs_pack(LHS_X8, true)),
        run_case!("x8_null_packed", "lhs_packed != NULL" => refused_lhs_pack(LHS_X8, false)),
        getter_case!("x8_packed_offset_misaligned",
            "m_idx % kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme() == 0"
            => get_lhs_packed_offset::<Getter3>(LHS_X8)(group() + 1, 1, 1)),
        run_case!("rhs_null_rhs", "rhs != NULL" => refused_rhs_pack(RHS, "rhs")),
        run_case!("rhs_null_bias", "bias != NULL" => refused_rhs_pack(RHS, "bias")),
        run_case!("rhs_null_packed", "rhs_packed != NULL"
            => refused_rhs_pack(RHS, "rhs_packed")),
        getter_case!("rhs_offset_misaligned", "(n_idx % n_step) == 0"
            => get_rhs_offset::<Getter1>(RHS)(1)),
        getter_case!("rhs_packed_offset_misaligned", "(n_idx % nr) == 0"
            => get_rhs_packed_offset::<Getter3>(RHS)(1, 1, 1)),
    ];
    cases.extend(kernel_cases!(0));
    cases.extend(kernel_cases!(1));
    cases
}

death_tests!(
    cases,
    "SME imatmul contract violations",
    "contract violations"
);
