//! The SME indirect f32 GEMMs `imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme{,2}_mopa` and
//! their packers `lhs_imatmul_pack_x32p2vlx1_x32p_sme` and
//! `rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme` (with the 16-bit and 8-bit LHS packers of the
//! f16 and int8 indirect GEMMs, `lhs_imatmul_pack_x16p2vlx2_x16p_sme` and
//! `lhs_imatmul_pack_x8p2vlx4_x8p_sme`, and the f16 one's RHS packer
//! `rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme`), through the exported C symbols, at the
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

use crate::support;

use rkai_ukernels::catalog;
use rkai_ukernels::float::f16;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::matmul::args::PackedArgs;
use rkai_ukernels::matmul::bf16_gemm::{self, narrow_then_clamp, za_bias};
use rkai_ukernels::matmul::matmul_clamp_qai8_qai8p_qsi8cxp as qai8_gemm;
use rkai_ukernels::reference::qai8::{self, Requantize};
use rkai_ukernels::types::kai_matmul_requantize32_params;
use std::ffi::c_void;
use support::cabi::{
    Getter0, Getter1, Getter2, Getter3, ImatmulLhsPackFn as LhsPackFn, ImatmulPackFn,
    ImatmulPackQsi8Fn, ImatmulPackedFn, func,
};
use support::conv::{self, Conv, Pointers};
use support::guard::{EDGES, Edge, Guarded};
use support::rng::Rng;
use support::sme_pack::{self, le_bytes, slices};

/// The f32 kernels, then the f16 ones.
const STEMS: [&str; 4] = [
    "imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa",
    "imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa",
    "imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa",
    "imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa",
];
const LHS: &str = "lhs_imatmul_pack_x32p2vlx1_x32p_sme";
/// The 16-bit LHS packer (pairs of K values per step).
const LHS_X16: &str = "lhs_imatmul_pack_x16p2vlx2_x16p_sme";
/// The 8-bit LHS packer (the int8 indirect GEMMs'), same gather and layout with kr = 4.
const LHS_X8: &str = "lhs_imatmul_pack_x8p2vlx4_x8p_sme";
const RHS: &str = "rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme";
/// The 16-bit RHS packer (pairs of K values per step, each chunk padded to whole pairs).
const RHS_X16: &str = "rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme";
const CANARY: f32 = f32::from_bits(0x7fc0_dead);

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

/// The chunk shapes `(k_chunk_count, k_chunk_length)` the getter tests sweep.
const CHUNKS: [(usize, usize); 8] = [
    (1, 1),
    (9, 3),
    (1, 64),
    (4, 31),
    (25, 17),
    (9, 0),
    (0, 5),
    (3, 2),
];

/// Kernel `stem`'s own getters follow KleidiAI's formulas at group `g`: steps of `g`; over
/// `chunks`, LHS offsets of `k` values of `elem` bytes a row (each chunk padded to whole steps of
/// `4 / elem` values), RHS offsets of whole blocks of `block(k)` bytes, and destination offsets
/// and size of `elem`-byte values. Returns how many values it checked.
fn kernel_getters_follow(
    stem: &str,
    g: usize,
    elem: usize,
    chunks: &[(usize, usize)],
    block: impl Fn(usize) -> usize,
) -> usize {
    assert_eq!(func::<Getter0>("get_m_step", stem)(), g, "{stem}");
    assert_eq!(func::<Getter0>("get_n_step", stem)(), g, "{stem}");
    let lhs_offset: Getter3 = func("get_lhs_packed_offset", stem);
    let rhs_offset: Getter3 = func("get_rhs_packed_offset", stem);
    let dst_offset: Getter3 = func("get_dst_offset", stem);
    let kr = 4 / elem;
    let mut checked = 3;
    for &(kcc, kcl) in chunks {
        let k = kcc * kcl.div_ceil(kr) * kr;
        for blocks in 0..4 {
            let idx = blocks * g;
            assert_eq!(lhs_offset(idx, kcc, kcl), idx * k * elem, "{stem}");
            assert_eq!(rhs_offset(idx, kcc, kcl), blocks * block(k), "{stem}");
            assert_eq!(
                dst_offset(idx, idx, 4000),
                idx * 4000 + elem * idx,
                "{stem}"
            );
            checked += 3;
        }
    }
    let dst_size: Getter2 = func("get_dst_size", stem);
    assert_eq!(dst_size(7, 9), 7 * 9 * elem, "{stem}");
    checked
}

#[test]
fn getters_follow_kleidiai_formulas() {
    let g = group();
    let mut checked = 0;
    for stem in STEMS {
        // Values of `elem` bytes, `kr` per K step; each chunk padded to whole steps.
        let elem = elem_of(kernel(stem));
        let kr = 4 / elem;
        // The biases, then the packed K rows (KleidiAI's formula).
        let block = |k| g * (elem + elem * k);
        kernel_getters_follow(stem, g, elem, &CHUNKS, block);
        let (lhs_packer, rhs_packer) = packers(elem);
        let p_m_step: Getter0 = func("get_m_step", lhs_packer);
        let p_lhs_offset: Getter3 = func("get_lhs_packed_offset", lhs_packer);
        let p_lhs_size: Getter3 = func("get_lhs_packed_size", lhs_packer);
        let r_n_step: Getter0 = func("get_n_step", rhs_packer);
        let r_rhs_offset: Getter1 = func("get_rhs_offset", rhs_packer);
        let r_bias_offset: Getter1 = func("get_bias_offset", rhs_packer);
        let r_stride: Getter2 = func("get_rhs_packed_stride", rhs_packer);
        let r_offset: Getter3 = func("get_rhs_packed_offset", rhs_packer);
        let r_size: Getter3 = func("get_rhs_packed_size", rhs_packer);
        assert_eq!((p_m_step(), r_n_step()), (g, g), "{stem}");
        for (kcc, kcl) in CHUNKS {
            let k = kcc * kcl.div_ceil(kr) * kr;
            let stride = block(k);
            assert_eq!(r_stride(kcc, kcl), stride, "{rhs_packer}");
            for blocks in 0..4 {
                let idx = blocks * g;
                assert_eq!(p_lhs_offset(idx, kcc, kcl), idx * k * elem, "{lhs_packer}");
                assert_eq!(r_offset(idx, kcc, kcl), blocks * stride, "{rhs_packer}");
                assert_eq!(r_rhs_offset(idx), elem * idx, "{rhs_packer}");
                for m in [idx + 1, idx + g] {
                    let size = m.div_ceil(g) * g * k * elem;
                    assert_eq!(p_lhs_size(m, kcc, kcl), size, "{lhs_packer}");
                    assert_eq!(r_size(m, kcc, kcl), m.div_ceil(g) * stride, "{rhs_packer}");
                }
                checked += 1;
            }
        }
        // KleidiAI asserts nothing about the bias offset's column.
        assert_eq!(
            (r_bias_offset(3), r_bias_offset(g + 1)),
            (3 * elem, (g + 1) * elem)
        );
    }
    println!("RELIABILITY getters: {checked} cases at SVL32 {}", g / 2);
}

/// Bit patterns a packer must copy unchanged, as values of `elem` bytes: a quiet NaN with a
/// payload, -inf, -0, the smallest subnormal and a signalling NaN (for 16-bit values their upper
/// halves, made odd).
fn specials(elem: usize) -> [u32; 5] {
    [
        0x7fc0_1234,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x7f80_0001,
    ]
    .map(|x| if elem == 2 { x >> 16 | 1 } else { x })
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
        let bits = 8 * elem as u32;
        let specials = specials(elem);
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
    let shapes = conv::chunked_edges(g, 1).into_iter().chain([(5, 25, 17)]);
    for (i, (m, kcc, kcl)) in shapes.enumerate() {
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

/// KleidiAI's RHS layouts written out: per group of `nr` columns, the biases, then per chunk,
/// per step of `kr` of its rows (`kr` = 4 / `elem`: 1 for f32, 2 for 16-bit values), those rows'
/// values of each column; columns past `n` and the row completing a chunk of odd length zero.
/// Values are bit patterns of `elem` bytes.
fn rhs_reference(
    elem: usize,
    n: usize,
    (kcc, kcl): (usize, usize),
    (rhs, stride): (&[u32], usize),
    bias: &[u32],
) -> Vec<u8> {
    let (nr, kr) = (group(), 4 / elem);
    let mut words = Vec::new();
    for g in 0..n.div_ceil(nr) {
        let col = |j: usize| g * nr + j;
        words.extend((0..nr).map(|j| if col(j) < n { bias[col(j)] } else { 0 }));
        for c in 0..kcc {
            for step in 0..kcl.div_ceil(kr) {
                for j in 0..nr {
                    for row in step * kr..(step + 1) * kr {
                        words.push(if col(j) < n && row < kcl {
                            rhs[(c * kcl + row) * stride + col(j)]
                        } else {
                            0
                        });
                    }
                }
            }
        }
    }
    words_bytes(elem, &words)
}

/// Little-endian bytes of `words` as values of `elem` bytes (4, or 2: the low halves).
fn words_bytes(elem: usize, words: &[u32]) -> Vec<u8> {
    match elem {
        2 => le_bytes(&words.iter().map(|&x| x as u16).collect::<Vec<_>>()),
        _ => le_bytes(words),
    }
}

/// Packs columns `n0..n0 + cols` through the C packer `name` (values of `elem` bytes), pointers
/// moved by its offset getters.
///
/// # Safety
/// `rhs` holds the K x N matrix (rows `stride` values apart), `bias` `n` values, `out` the
/// whole packed size.
unsafe fn pack_rhs_slice(
    (name, elem): (&str, usize),
    (kcc, kcl): (usize, usize),
    (rhs, stride, bias): (*const u8, usize, *const u8),
    out: *mut u8,
    (n0, cols): (usize, usize),
) {
    let run: ImatmulPackFn = func("run", name);
    let rhs_off: Getter1 = func("get_rhs_offset", name);
    let bias_off: Getter1 = func("get_bias_offset", name);
    let packed_off: Getter3 = func("get_rhs_packed_offset", name);
    // SAFETY: forwarded contract; offsets from the getters.
    unsafe {
        run(
            cols,
            kcc,
            kcl,
            elem * stride,
            rhs.add(rhs_off(n0)).cast(),
            bias.add(bias_off(n0)).cast(),
            out.add(packed_off(n0, kcc, kcl)).cast(),
        )
    };
}

#[test]
fn rhs_packed_bytes_equal_reference_whole_and_sliced() {
    for (name, elem) in [(RHS, 4), (RHS_X16, 2)] {
        rhs_packer_equals_reference(name, elem);
    }
}

/// The packed bytes of RHS packer `name` (values of `elem` bytes), whole and in column slices,
/// against both guard edges.
fn rhs_packer_equals_reference(name: &str, elem: usize) {
    let g = group();
    let size: Getter3 = func("get_rhs_packed_size", name);
    let specials = specials(elem);
    let bits = 8 * elem as u32;
    let mut cases = 0;
    let shapes = conv::chunked_edges(g, 3)
        .into_iter()
        .chain([(g + 1, 3, 2), (5, 1, 0)]);
    for (i, (n, kcc, kcl)) in shapes.enumerate() {
        let (k, stride) = (kcc * kcl, n + 3);
        let rhs = sme_pack::bit_patterns(k * stride, 40 + i as u64, bits, &specials);
        let bias = sme_pack::bit_patterns(n, 60 + i as u64, bits, &specials);
        let expect = rhs_reference(elem, n, (kcc, kcl), (&rhs, stride), &bias);
        let bytes = size(n, kcc, kcl);
        assert_eq!(bytes, expect.len(), "{name}");
        for edge in EDGES {
            let rhs_g = Guarded::from_bytes(&words_bytes(elem, &rhs), edge);
            let bias_g = Guarded::from_bytes(&words_bytes(elem, &bias), edge);
            let src = (rhs_g.ptr(), stride, bias_g.ptr());
            let what = format!("{name} n {n} kcc {kcc} kcl {kcl}");
            // SAFETY (both): buffers sized for the problem.
            sme_pack::packs_equal(&what, bytes, edge, &expect, |out| unsafe {
                pack_rhs_slice((name, elem), (kcc, kcl), src, out, (0, n))
            });
            sme_pack::slices_equal(
                &what,
                bytes,
                edge,
                &expect,
                &slices(n, g),
                |out, s| unsafe { pack_rhs_slice((name, elem), (kcc, kcl), src, out, s) },
            );
            cases += 2;
        }
    }
    println!(
        "RELIABILITY RHS packed bytes: {name} {cases} cases at SVL32 {}",
        g / 2
    );
}

/// What a kernel does with its sums: the float kernels clamp them to `[min, max]`, the int8
/// ones requantize them.
#[derive(Clone, Copy)]
enum Finish {
    Clamp(f32, f32),
    Requantize(Requantize),
}

impl Finish {
    /// The requantization parameters a call passes (none for the float kernels).
    fn params(self) -> Option<kai_matmul_requantize32_params> {
        match self {
            Finish::Clamp(..) => None,
            Finish::Requantize(rq) => Some(c_params(rq)),
        }
    }
}

/// Runs kernel `k` (its C symbol, or with `portable` the portable path) on `m` x `n` results of
/// `kcc` chunks of `kcl` values, from packed operands `lhs` and `rhs` into destination rows
/// `dst_stride` bytes apart.
///
/// # Safety
/// The operands hold `k`'s packed formats for the shape, `dst` the rows.
unsafe fn run_kernel(
    k: &MatmulKernel,
    portable: bool,
    finish: Finish,
    (m, n, kcc, kcl): (usize, usize, usize, usize),
    (lhs, rhs): (*const u8, *const u8),
    (dst, dst_stride): (*mut u8, usize),
) {
    let params = finish.params();
    let params_ptr = params.as_ref().map_or(std::ptr::null(), std::ptr::from_ref);
    let ((lo, hi), elem) = match finish {
        Finish::Clamp(lo, hi) => ((lo, hi), elem_of(k)),
        Finish::Requantize(_) => ((0.0, 0.0), 1),
    };
    if portable {
        // The packed K: each chunk rounded up to whole `kr` steps.
        let kr = k.tile().kr;
        let args = PackedArgs {
            m,
            n,
            k: kcc * kcl.div_ceil(kr) * kr,
            bl: 0,
            lhs_packed: lhs,
            rhs_packed: rhs,
            dst,
            dst_stride_row: dst_stride,
            dst_stride_col: elem,
            clamp_min: lo,
            clamp_max: hi,
            lut: std::ptr::null(),
            params: params_ptr.cast(),
        };
        // SAFETY: forwarded contract.
        match finish {
            Finish::Clamp(..) => unsafe { bf16_gemm::portable::run(k, &args) },
            Finish::Requantize(_) => unsafe { qai8_gemm::portable(k, &args) },
        }
        return;
    }
    let (lhs, rhs, dst) = (lhs.cast(), rhs.cast(), dst.cast());
    // SAFETY: forwarded contract.
    unsafe {
        match finish {
            Finish::Clamp(..) => {
                let run: ImatmulPackedFn = func("run", k.stem);
                run(m, n, kcc, kcl, lhs, rhs, dst, dst_stride, lo, hi)
            }
            Finish::Requantize(_) => {
                let run: ImatmulQai8Fn = func("run", k.stem);
                run(m, n, kcc, kcl, lhs, rhs, dst, dst_stride, params_ptr)
            }
        }
    }
}

/// The LHS of convolution `conv` (its input and pad chunk, stored as values of `elem` bytes)
/// packed by `packer` from a framework's indirection buffer of `mode` pointers, every buffer
/// guarded at `edge`.
fn packed_conv_lhs(
    conv: &Conv,
    (input, pad): &(Vec<u8>, Vec<u8>),
    (packer, elem): (&str, usize),
    mode: Pointers,
    edge: Edge,
) -> Guarded {
    let (m, kcc, kcl) = (conv.m(), conv.kcc(), conv.c_in);
    let input = Guarded::from_bytes(input, edge);
    let pad = Guarded::from_bytes(pad, edge);
    let entries = conv::indirection(conv, (input.ptr(), elem), pad.ptr(), mode, group());
    let entries = Guarded::from_bytes(&conv::entry_bytes(&entries), edge);
    let offset = match mode {
        Pointers::Offsets => input.ptr() as usize,
        Pointers::Absolute => 0,
    };
    let size: Getter3 = func("get_lhs_packed_size", packer);
    let mut lhs = Guarded::new(size(m, kcc, kcl), edge);
    let pack: LhsPackFn = func("run", packer);
    let (entries, pad, out) = (entries.ptr().cast(), pad.ptr().cast(), lhs.mut_ptr().cast());
    // SAFETY: buffers sized for the problem.
    unsafe { pack(m, kcc, kcl, entries, offset, pad, out) };
    lhs
}

/// One convolution packed for the kernels of one value type (`elem` bytes: 4 for the f32
/// kernels, 2 for the f16 ones): input, pad chunk, weights and bias (finite random values, or
/// with hostile ones mixed in; for f16, values a half holds exactly), the packed LHS and RHS
/// (each at the end of a guarded buffer at `edge`, packed through the C packers of the type from
/// a framework's indirection buffer).
struct ConvProblem {
    conv: Conv,
    elem: usize,
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

/// The f16 kernels' hostile values: a half's extremes (the smallest subnormal, a subnormal, the
/// largest finite value, whose sums overflow a half when narrowed) besides NaN, infinities and
/// `-0`.
const HOSTILE_F16: [f32; 8] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    5.960_464_5e-8,
    -3.0e-5,
    65504.0,
    -40000.0,
];

/// Bytes of the values of `kernel` (4 for f32, 2 for f16).
fn elem_of(kernel: &MatmulKernel) -> usize {
    kernel.family.output().size()
}

/// The stored bytes of `values` as values of `elem` bytes (f32, or halves of values a half holds
/// exactly).
fn value_bytes(elem: usize, values: &[f32]) -> Vec<u8> {
    match elem {
        2 => le_bytes(&values.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>()),
        _ => le_bytes(values),
    }
}

/// The packers of the kernels of `elem`-byte values: (LHS, RHS).
fn packers(elem: usize) -> (&'static str, &'static str) {
    match elem {
        2 => (LHS_X16, RHS_X16),
        _ => (LHS, RHS),
    }
}

impl ConvProblem {
    fn new(conv: Conv, elem: usize, seed: u64, hostile: bool, mode: Pointers, edge: Edge) -> Self {
        let (n, kcc, kcl) = (conv.c_out, conv.kcc(), conv.c_in);
        let mut rng = Rng::new(seed);
        let hostile_values = if elem == 2 { HOSTILE_F16 } else { HOSTILE };
        let mut draw = |len: usize, scale: f32| {
            let mut v = rng.vec_f32(len, -scale, scale);
            if hostile {
                for (i, x) in v.iter_mut().enumerate() {
                    if (i * 13 + seed as usize) % 23 == 0 {
                        *x = hostile_values[(i / 23) % hostile_values.len()];
                    }
                }
            }
            if elem == 2 {
                // The half nearest each value (exact for the hostile ones).
                for x in v.iter_mut() {
                    *x = f32::from_bits(f16::to_f32_bits(f16::from_f32(*x)));
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
        let (lhs_packer, rhs_packer) = packers(elem);
        let sources = (value_bytes(elem, &input), value_bytes(elem, &pad));
        let lhs = packed_conv_lhs(&conv, &sources, (lhs_packer, elem), mode, edge);
        let rhs_size: Getter3 = func("get_rhs_packed_size", rhs_packer);
        let mut rhs = Guarded::new(rhs_size(n, kcc, kcl), edge);
        let w = Guarded::from_bytes(&value_bytes(elem, &weights), edge);
        let b = Guarded::from_bytes(&value_bytes(elem, &bias), edge);
        // SAFETY: buffers sized for the problem.
        unsafe {
            pack_rhs_slice(
                (rhs_packer, elem),
                (kcc, kcl),
                (w.ptr(), n, b.ptr()),
                rhs.mut_ptr(),
                (0, n),
            )
        };
        Self {
            conv,
            elem,
            input,
            pad,
            weights,
            bias,
            lhs,
            rhs,
        }
    }

    /// The direct convolution as `kernel` computes it, as result bits (f32, or halves).
    ///
    /// f32: the bias entered into a zeroed ZA tile by `FMOPA` ([`za_bias`]), one fused
    /// multiply-add per tap and channel, a NaN the default NaN (ZA results), then the kernel's
    /// clamp. f16: the bias entered by a widening `FMOPA` of `(1, 1) . (bias, 0)`, then per tap
    /// one widening step per pair of channels ([`f16::dot_add`]; an odd channel count's last
    /// pair meets zeros on both sides, as each chunk is padded to whole pairs), then `FCVT` to a
    /// half and the kernel's clamp on halves ([`narrow_then_clamp`]).
    fn expected(&self, kernel: &MatmulKernel, lo: f32, hi: f32) -> Vec<u32> {
        if self.elem == 2 {
            return self.expected_f16(kernel, lo, hi);
        }
        let sums = conv::direct_sums(&self.conv, &self.input, &self.pad, &self.weights, |j| {
            za_bias(self.bias[j])
        });
        sums.iter()
            .map(|&acc| {
                let acc = if acc.is_nan() { za_bias(acc) } else { acc };
                bf16_gemm::clamp(kernel, acc, lo, hi).to_bits()
            })
            .collect()
    }

    /// [`ConvProblem::expected`] of an f16 kernel.
    fn expected_f16(&self, kernel: &MatmulKernel, lo: f32, hi: f32) -> Vec<u32> {
        let conv = &self.conv;
        let (n, kcl) = (conv.c_out, conv.c_in);
        let half = |x: f32| f16::from_f32(x);
        let mut out = Vec::with_capacity(conv.m() * n);
        for i in 0..conv.m() {
            for j in 0..n {
                let mut acc = f16::dot_add(0.0, [0x3c00, 0x3c00], [half(self.bias[j]), 0]);
                for c in 0..conv.kcc() {
                    let src = match conv.source(i, c) {
                        Some(p) => &self.input[p * kcl..][..kcl],
                        None => &self.pad[..],
                    };
                    let x = |t: usize| if t < kcl { half(src[t]) } else { 0 };
                    let w = |t: usize| {
                        if t < kcl {
                            half(self.weights[(c * kcl + t) * n + j])
                        } else {
                            0
                        }
                    };
                    for t in (0..kcl).step_by(2) {
                        acc = f16::dot_add(acc, [x(t), x(t + 1)], [w(t), w(t + 1)]);
                    }
                }
                out.push(u32::from(narrow_then_clamp(kernel, acc, lo, hi)));
            }
        }
        out
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
        let (stem, elem) = (kernel.stem, self.elem);
        let lhs_off = func::<Getter3>("get_lhs_packed_offset", stem)(m_idx, kcc, kcl);
        let rhs_off = func::<Getter3>("get_rhs_packed_offset", stem)(n_idx, kcc, kcl);
        let dst_off = func::<Getter3>("get_dst_offset", stem)(m_idx, n_idx, elem * n);
        let mut dst = canaries(elem, m * n, edge);
        // SAFETY: offsets from the getters; buffers cover the portion.
        unsafe {
            let (l, r) = (self.lhs.ptr().add(lhs_off), self.rhs.ptr().add(rhs_off));
            let d = dst.mut_ptr().add(dst_off);
            let (finish, dims) = (Finish::Clamp(lo, hi), (rows, cols, kcc, kcl));
            run_kernel(kernel, portable, finish, dims, (l, r), (d, elem * n));
        }
        dst
    }
}

/// A guarded destination of `len` values of `elem` bytes, each the canary (f32, or its upper
/// half: a NaN either way).
fn canaries(elem: usize, len: usize, edge: Edge) -> Guarded {
    Guarded::from_bytes(&words_bytes(elem, &vec![canary(elem); len]), edge)
}

/// The canary's bits as a value of `elem` bytes.
fn canary(elem: usize) -> u32 {
    match elem {
        2 => CANARY.to_bits() >> 16,
        _ => CANARY.to_bits(),
    }
}

/// Value `index` of a destination of `elem`-byte values, as bits.
fn bits_at(dst: &[u8], elem: usize, index: usize) -> u32 {
    let b = &dst[elem * index..elem * (index + 1)];
    b.iter().rev().fold(0, |acc, &x| acc << 8 | u32::from(x))
}

/// `dst` (values of `elem` bytes) holds `want` inside the portion and the canary elsewhere, bit
/// for bit.
fn check_portion(
    what: &str,
    (dst, elem): (&[u8], usize),
    want: &[u32],
    (m, n): (usize, usize),
    (m_idx, n_idx, rows, cols): (usize, usize, usize, usize),
) {
    for i in 0..m {
        for j in 0..n {
            let inside = (m_idx..m_idx + rows).contains(&i) && (n_idx..n_idx + cols).contains(&j);
            let expect = if inside {
                want[i * n + j]
            } else {
                canary(elem)
            };
            let got = bits_at(dst, elem, i * n + j);
            assert_eq!(
                got, expect,
                "{what} portion ({m_idx}, {n_idx}, {rows}, {cols}) at ({i}, {j}): {got:#x} vs {expect:#x}"
            );
        }
    }
}

/// Runs `check(portion, portable)` over KleidiAI's portions of an `m` x `n` result in groups of
/// `g`: through the C symbol where the CPU runs the kernel (`native`); through the portable path
/// on every portion where it does not, else on the first when `portable_first` (the portions'
/// offsets are the same code). Adds the calls to `counts` (C symbol, portable).
fn each_portion(
    (m, n, g): (usize, usize, usize),
    native: bool,
    portable_first: bool,
    counts: &mut (usize, usize),
    mut check: impl FnMut((usize, usize, usize, usize), bool),
) {
    for (pi, portion) in conv::portions(m, n, g, g).into_iter().enumerate() {
        for portable in [false, true] {
            let runs = if portable {
                !native || (pi == 0 && portable_first)
            } else {
                native
            };
            if runs {
                check(portion, portable);
                let count = if portable {
                    &mut counts.1
                } else {
                    &mut counts.0
                };
                *count += 1;
            }
        }
    }
}

/// The path a call took, for messages.
fn path(portable: bool) -> &'static str {
    if portable { "portable" } else { "C symbol" }
}

/// Every convolution geometry for the kernels of each value type, both clamps, KleidiAI's
/// portions, both guard edges (by case), both pointer modes (by case), the exported kernels and
/// the portable path; with `hostile`, hostile values in every operand.
fn convolutions_equal_direct(hostile: bool) -> (usize, usize) {
    let g = group();
    let kernels = runnable();
    // (C symbol calls, portable calls)
    let mut counts = (0, 0);
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
        for elem in [4, 2] {
            let seed = ci as u64 + 100 * hostile as u64;
            let p = ConvProblem::new(conv, elem, seed, hostile, mode, edge);
            let (m, n) = (conv.m(), conv.c_out);
            for clamp in [(f32::NEG_INFINITY, f32::INFINITY), (-0.3, 0.4)] {
                for k in STEMS
                    .iter()
                    .map(|&s| kernel(s))
                    .filter(|&k| elem_of(k) == elem)
                {
                    // The reference once per kernel and clamp, then its portions.
                    let want = p.expected(k, clamp.0, clamp.1);
                    let native = kernels.iter().any(|x| std::ptr::eq(*x, k));
                    each_portion((m, n, g), native, true, &mut counts, |portion, portable| {
                        let dst = p.run(k, portable, portion, clamp, edge);
                        let what = format!(
                            "{} {} {conv:?} {mode:?} clamp {clamp:?} hostile {hostile}",
                            k.stem,
                            path(portable)
                        );
                        check_portion(&what, (dst.bytes(), elem), &want, (m, n), portion);
                    });
                }
            }
        }
    }
    counts
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
    Conv::square((12, 11, 7), 3, 1, 1, group() + 5)
}

/// Threads running kernel `k` on disjoint row blocks at once (each block's LHS through the
/// kernel's offset getter) into `dst`, rows `row_bytes` apart; returns the number of blocks.
fn rows_on_threads(
    k: &'static MatmulKernel,
    finish: Finish,
    dims: (usize, usize, usize, usize),
    (lhs, rhs): (&Guarded, &Guarded),
    (dst, row_bytes): (&mut [u8], usize),
) -> usize {
    let (m, n, kcc, kcl) = dims;
    let lhs_off: Getter3 = func("get_lhs_packed_offset", k.stem);
    let (lp, rp, dp) = (
        lhs.ptr() as usize,
        rhs.ptr() as usize,
        dst.as_mut_ptr() as usize,
    );
    conv::row_blocks_on_threads(m, group(), |m_idx, rows| {
        let l = (lp as *const u8).wrapping_add(lhs_off(m_idx, kcc, kcl));
        let d = (dp as *mut u8).wrapping_add(m_idx * row_bytes);
        let dims = (rows, n, kcc, kcl);
        // SAFETY: each thread writes its own rows; the inputs are shared read-only.
        unsafe { run_kernel(k, false, finish, dims, (l, rp as *const u8), (d, row_bytes)) };
    })
}

/// Kernel `k` called through the register-canary harness leaves the callee-saved registers as
/// they were; called with a lazy ZA save pending, it commits the save before it uses ZA. Each
/// call writes a guarded copy of `fresh` (rows `row_bytes` apart), which `check` checks.
#[cfg(target_arch = "aarch64")]
fn registers_and_lazy_za(
    k: &MatmulKernel,
    finish: Finish,
    dims: (usize, usize, usize, usize),
    (lhs, rhs): (&Guarded, &Guarded),
    (fresh, row_bytes): (&[u8], usize),
    check: impl Fn(&[u8]),
) {
    use support::abi::{PendingZaSave, call, describe};
    let (m, n, kcc, kcl) = dims;
    let (l, r) = (lhs.ptr(), rhs.ptr());
    let mut dst = Guarded::from_bytes(fresh, Edge::End);
    let d = dst.mut_ptr();
    let params = finish.params();
    let p = params.as_ref().map_or(std::ptr::null(), std::ptr::from_ref);
    let args = match finish {
        Finish::Clamp(lo, hi) => call_args!(m, n, kcc, kcl, l, r, d, row_bytes; lo, hi),
        Finish::Requantize(_) => call_args!(m, n, kcc, kcl, l, r, d, row_bytes, p; ),
    };
    let f = rkai_capi::capi::exports::symbol_address(&format!("kai_run_{}", k.stem)).unwrap();
    // SAFETY: the arguments describe run_imatmul's prototype and valid buffers.
    let mask = unsafe { call(f, &args.args) };
    assert_eq!(mask, 0, "{} clobbered {}", k.stem, describe(mask));
    check(dst.bytes());
    let svl = rkai_ukernels::arch::sme_vector_bytes().expect("SME");
    let mut za = PendingZaSave::new(svl);
    let mut dst = Guarded::from_bytes(fresh, Edge::End);
    let d = dst.mut_ptr();
    za.arm();
    // SAFETY: buffers sized for the call.
    unsafe { run_kernel(k, false, finish, dims, (l, r), (d, row_bytes)) };
    za.assert_committed(k.stem);
    check(dst.bytes());
}

/// Threads computing disjoint row blocks of one convolution at once equal one whole call.
#[test]
fn threads_on_disjoint_row_blocks_equal_one_call() {
    for k in runnable() {
        let conv = threaded_conv();
        let dims @ (m, n, _, _) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let elem = elem_of(k);
        let p = ConvProblem::new(conv, elem, 5, false, Pointers::Absolute, Edge::End);
        let want = p.expected(k, -0.5, 0.5);
        let mut dst = words_bytes(elem, &vec![canary(elem); m * n]);
        let (operands, finish) = ((&p.lhs, &p.rhs), Finish::Clamp(-0.5, 0.5));
        let blocks = rows_on_threads(k, finish, dims, operands, (&mut dst, elem * n));
        check_portion(k.stem, (&dst, elem), &want, (m, n), (0, 0, m, n));
        println!("RELIABILITY threads: {} {blocks} row blocks", k.stem);
    }
}

#[cfg(target_arch = "aarch64")]
#[test]
fn registers_survive_and_lazy_za_saves_committed() {
    let mut calls = 0;
    for k in runnable() {
        let conv = threaded_conv();
        let dims @ (m, n, _, _) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let elem = elem_of(k);
        let p = ConvProblem::new(conv, elem, 3, false, Pointers::Offsets, Edge::End);
        let want = p.expected(k, -1e30, 1e30);
        let fresh = words_bytes(elem, &vec![canary(elem); m * n]);
        let check = |dst: &[u8]| check_portion(k.stem, (dst, elem), &want, (m, n), (0, 0, m, n));
        let (operands, finish) = ((&p.lhs, &p.rhs), Finish::Clamp(-1e30, 1e30));
        registers_and_lazy_za(k, finish, dims, operands, (&fresh, elem * n), check);
        calls += 1;
    }
    println!("RELIABILITY registers and lazy ZA: {calls} kernels");
}

// ---------------------------------------------------------------------------------------------
// The int8-output indirect GEMMs (`imatmul_clamp_qai8_qai8p_qsi8cxp`)

/// The int8 kernels: SME (`SMIN` then `SMAX`), SME2 (`SCLAMP`).
const QAI8_STEMS: [&str; 2] = [
    "imatmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa",
    "imatmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa",
];
/// Their RHS packer (each chunk padded to whole steps of 4 with zero rows; its bytes are
/// checked in `tests/suite/x8p2vlx4_pack.rs`).
const RHS_X8: &str = "rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme";
/// The byte an int8 destination is filled with before a call.
const CANARY_I8: u8 = 0xa5;

/// `kai_run_imatmul_clamp_qai8_*`: (m, n, k_chunk_count, k_chunk_length, lhs_packed,
/// rhs_packed, dst, dst_stride_row, params).
type ImatmulQai8Fn = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    *const c_void,
    *const c_void,
    *mut c_void,
    usize,
    *const kai_matmul_requantize32_params,
);

/// The bytes of int8 values.
fn i8_bytes(values: &[i8]) -> Vec<u8> {
    values.iter().map(|&v| v as u8).collect()
}

fn c_params(p: Requantize) -> kai_matmul_requantize32_params {
    kai_matmul_requantize32_params {
        min_value: p.min_value,
        max_value: p.max_value,
        output_zero_point: p.output_zero_point,
    }
}

/// K x N int8 `weights` (`kcc` chunks of `kcl` rows, `n` columns) with their biases and scales
/// packed by the int8 RHS packer with `params`, every buffer guarded at `edge`.
fn packed_int8_rhs(
    (n, kcc, kcl): (usize, usize, usize),
    (weights, bias, scale): (&[u8], &[i32], &[f32]),
    params: rkai_ukernels::types::kai_rhs_pack_qsi8cx_params,
    edge: Edge,
) -> Guarded {
    let size: Getter3 = func("get_rhs_packed_size", RHS_X8);
    let mut rhs = Guarded::new(size(n, kcc, kcl), edge);
    let w = Guarded::from_bytes(weights, edge);
    let bias_bits: Vec<u32> = bias.iter().map(|&b| b as u32).collect();
    let b = Guarded::from_bytes(&le_bytes(&bias_bits), edge);
    let sc = Guarded::from_bytes(&le_bytes(scale), edge);
    let pack: ImatmulPackQsi8Fn = func("run", RHS_X8);
    let (w, b, sc, out) = (
        w.ptr().cast(),
        b.ptr().cast(),
        sc.ptr().cast(),
        rhs.mut_ptr(),
    );
    // SAFETY: buffers sized for the problem.
    unsafe {
        pack(
            n,
            kcc,
            kcl,
            n,
            w,
            b,
            sc,
            out.cast(),
            (&raw const params).cast(),
        )
    };
    rhs
}

/// One int8 convolution: input, pad chunk, K x N weights (K ordered (ky, kx, c_in)), `i32`
/// biases, `f32` scales, the RHS packer's zero point and multiplier, and the packed LHS and RHS
/// (guarded at `edge`, packed through the C packers from a framework's indirection buffer).
/// Shared with `tests/suite/safe_api_imatmul.rs`, which checks the safe API against it.
pub(crate) struct Qai8Conv {
    pub(crate) conv: Conv,
    pub(crate) input: Vec<i8>,
    pub(crate) pad: Vec<i8>,
    pub(crate) weights: Vec<i8>,
    pub(crate) bias: Vec<i32>,
    pub(crate) scale: Vec<f32>,
    pub(crate) zero_point: i32,
    pub(crate) multiplier: f32,
    pub(crate) lhs: Guarded,
    pub(crate) rhs: Guarded,
}

impl Qai8Conv {
    /// Random operands; with `hostile`, int8 extremes, biases at the ends of `i32`, scales that
    /// are infinite, NaN or huge, and zero points at the ends of `i32` (the folds wrap).
    pub(crate) fn new(conv: Conv, seed: u64, hostile: bool, mode: Pointers, edge: Edge) -> Self {
        let (n, kcc, kcl) = (conv.c_out, conv.kcc(), conv.c_in);
        let mut rng = Rng::new(seed ^ 0x1a8);
        let mut bytes = |len: usize| -> Vec<i8> {
            (0..len)
                .map(|_| {
                    let r = rng.next_u64();
                    match hostile && r % 5 == 0 {
                        true => [-128, 127, -1, 0][(r >> 8) as usize % 4],
                        false => (r >> 16) as i8,
                    }
                })
                .collect()
        };
        let input = bytes(conv.h * conv.w * kcl);
        let weights = bytes(kcc * kcl * n);
        let pad = if seed % 2 == 0 {
            vec![-3; kcl]
        } else {
            bytes(kcl)
        };
        let mut rng = Rng::new(seed ^ 0x2b9);
        let bias: Vec<i32> = (0..n)
            .map(|j| match hostile && j % 3 == 0 {
                true => [i32::MIN, i32::MAX, -1][j / 3 % 3],
                false => rng.range_i32(-20000, 20000),
            })
            .collect();
        let mut scale = rng.vec_f32(n, 1e-4, 4e-3);
        let (mut zero_point, mut multiplier) = (rng.range_i32(-128, 127), rng.f32(0.25, 1.0));
        if hostile {
            for (j, s) in scale.iter_mut().enumerate().filter(|(j, _)| j % 4 == 1) {
                *s = [f32::INFINITY, f32::NAN, -1e30, 0.0][j / 4 % 4];
            }
            zero_point = [i32::MIN, i32::MAX, 127][seed as usize % 3];
            multiplier = [1.0, f32::MAX, -0.0][seed as usize / 3 % 3];
        }
        let sources = (i8_bytes(&input), i8_bytes(&pad));
        let lhs = packed_conv_lhs(&conv, &sources, (LHS_X8, 1), mode, edge);
        let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: zero_point,
            scale_multiplier: multiplier,
        };
        let operands = (&i8_bytes(&weights)[..], &bias[..], &scale[..]);
        let rhs = packed_int8_rhs((n, kcc, kcl), operands, params, edge);
        Self {
            conv,
            input,
            pad,
            weights,
            bias,
            scale,
            zero_point,
            multiplier,
            lhs,
            rhs,
        }
    }

    /// The same convolution for activations of zero point `zero_point`: the weights repacked
    /// with it folded in (`safe_api_imatmul` gives the safe API the int8 extremes).
    pub(crate) fn with_zero_point(self, zero_point: i32, edge: Edge) -> Self {
        let conv = self.conv;
        let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: zero_point,
            scale_multiplier: self.multiplier,
        };
        let operands = (
            &i8_bytes(&self.weights)[..],
            &self.bias[..],
            &self.scale[..],
        );
        let rhs = packed_int8_rhs((conv.c_out, conv.kcc(), conv.c_in), operands, params, edge);
        Self {
            zero_point,
            rhs,
            ..self
        }
    }

    /// The direct int8 convolution requantized as `kernel` does (`reference::qai8`): the bias
    /// less the zero point times the column's weight sum, plus one product per tap and input
    /// channel (taps outside the image read the pad chunk), all in wrapping `i32`, then the
    /// output stage in the kernel's clamp order.
    pub(crate) fn expected(&self, kernel: &MatmulKernel, p: Requantize) -> Vec<u8> {
        let conv = &self.conv;
        let (n, kcl) = (conv.c_out, conv.c_in);
        let order = qai8_gemm::clamp_order(kernel);
        let k = conv.kcc() * kcl;
        let mut out = Vec::with_capacity(conv.m() * n);
        for i in 0..conv.m() {
            for j in 0..n {
                let column = (0..k).map(|r| self.weights[r * n + j]);
                let mut acc = qai8::folded_bias(self.bias[j], self.zero_point, column);
                for c in 0..conv.kcc() {
                    let src = match conv.source(i, c) {
                        Some(at) => &self.input[at * kcl..][..kcl],
                        None => &self.pad[..],
                    };
                    for (t, &x) in src.iter().enumerate() {
                        let w = self.weights[(c * kcl + t) * n + j];
                        acc = acc.wrapping_add(i32::from(x) * i32::from(w));
                    }
                }
                let scale = rkai_ukernels::float::fmul(self.scale[j], self.multiplier);
                out.push(qai8::requantize(acc, scale, p, order) as u8);
            }
        }
        out
    }

    /// Runs the portion through `kernel`'s C symbol (or the portable path) into a
    /// canary-filled guarded destination, every pointer moved by the kernel's getters.
    pub(crate) fn run(
        &self,
        kernel: &MatmulKernel,
        portable: bool,
        (m_idx, n_idx, rows, cols): (usize, usize, usize, usize),
        p: Requantize,
        edge: Edge,
    ) -> Guarded {
        let conv = &self.conv;
        let (m, n, kcc, kcl) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let stem = kernel.stem;
        let lhs_off = func::<Getter3>("get_lhs_packed_offset", stem)(m_idx, kcc, kcl);
        let rhs_off = func::<Getter3>("get_rhs_packed_offset", stem)(n_idx, kcc, kcl);
        let dst_off = func::<Getter3>("get_dst_offset", stem)(m_idx, n_idx, n);
        let mut dst = Guarded::from_bytes(&vec![CANARY_I8; m * n], edge);
        // SAFETY: offsets from the getters; buffers cover the portion.
        unsafe {
            let (l, r) = (self.lhs.ptr().add(lhs_off), self.rhs.ptr().add(rhs_off));
            let d = dst.mut_ptr().add(dst_off);
            let (finish, dims) = (Finish::Requantize(p), (rows, cols, kcc, kcl));
            run_kernel(kernel, portable, finish, dims, (l, r), (d, n));
        }
        dst
    }
}

/// `dst` holds `want` inside the portion and the canary byte elsewhere.
fn check_portion_i8(
    what: &str,
    dst: &[u8],
    want: &[u8],
    n: usize,
    (m_idx, n_idx, rows, cols): (usize, usize, usize, usize),
) {
    for (at, (&got, &w)) in dst.iter().zip(want).enumerate() {
        let (i, j) = (at / n, at % n);
        let inside = (m_idx..m_idx + rows).contains(&i) && (n_idx..n_idx + cols).contains(&j);
        let expect = if inside { w } else { CANARY_I8 };
        assert_eq!(
            got, expect,
            "{what} portion ({m_idx}, {n_idx}, {rows}, {cols}) at ({i}, {j})"
        );
    }
}

#[test]
fn int8_getters_follow_kleidiai_formulas() {
    let g = group();
    let mut checked = 0;
    for stem in QAI8_STEMS {
        // Biases, the packed K rows, scales (KleidiAI's formula).
        let block = |k| g * (4 + k + 4);
        checked += kernel_getters_follow(stem, g, 1, &CHUNKS[..7], block);
    }
    println!(
        "RELIABILITY int8 getters: {checked} values at SVL32 {}",
        g / 2
    );
}

/// Every convolution geometry (every other above 512 bits), plain and hostile operands,
/// three requantizations (full range, a narrow one, an inverted one), KleidiAI's portions, both
/// guard edges and pointer modes (by case), through each kernel's C symbol where the CPU runs it
/// and through the portable path (every portion where it does not, else the first).
#[test]
fn int8_convolutions_equal_direct_requantized_convolution() {
    let g = group();
    // (C symbol calls, portable calls)
    let mut counts = (0, 0);
    let every = if g > 32 { 2 } else { 1 };
    let requantize = [
        Requantize {
            min_value: -128,
            max_value: 127,
            output_zero_point: 5,
        },
        Requantize {
            min_value: -20,
            max_value: 60,
            output_zero_point: -9,
        },
        Requantize {
            min_value: 30,
            max_value: -30,
            output_zero_point: 0,
        },
    ];
    for (ci, conv) in conv::conv_cases(g).into_iter().enumerate().step_by(every) {
        let edge = EDGES[ci / every % 2];
        let mode = if ci % 3 == 0 {
            Pointers::Absolute
        } else {
            Pointers::Offsets
        };
        let hostile = ci / every % 3 == 2;
        let p = Qai8Conv::new(conv, ci as u64, hostile, mode, edge);
        let (m, n) = (conv.m(), conv.c_out);
        for (ri, &rq) in requantize.iter().enumerate() {
            for k in QAI8_STEMS.map(kernel) {
                let want = p.expected(k, rq);
                let native = support::cpu::can_run(k.isa);
                each_portion(
                    (m, n, g),
                    native,
                    ri == 0,
                    &mut counts,
                    |portion, portable| {
                        let dst = p.run(k, portable, portion, rq, edge);
                        let what = format!(
                            "{} {} {conv:?} {mode:?} {rq:?} hostile {hostile}",
                            k.stem,
                            path(portable)
                        );
                        check_portion_i8(&what, dst.bytes(), &want, n, portion);
                    },
                );
            }
        }
    }
    let (calls, portable_calls) = counts;
    println!(
        "RELIABILITY int8 convolutions: {calls} kernel calls, {portable_calls} portable calls at SVL32 {}",
        g / 2
    );
}

/// With no K value (`k_chunk_count` or `k_chunk_length` zero) a call requantizes the packed
/// biases: the packer leaves each bias unchanged (the column sums are 0) and the kernel adds no
/// product.
#[test]
fn int8_empty_k_requantizes_the_biases() {
    let g = group();
    let rq = Requantize {
        min_value: -128,
        max_value: 127,
        output_zero_point: -4,
    };
    let (m, n) = (g + 3, g + 1);
    let mut rng = Rng::new(71);
    let bias: Vec<i32> = (0..n).map(|_| rng.range_i32(-40000, 40000)).collect();
    let scale = rng.vec_f32(n, 1e-4, 4e-3);
    let pack = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: 9,
        scale_multiplier: 0.5,
    };
    let mut calls = 0;
    for (kcc, kcl) in [(0usize, 3usize), (3, 0)] {
        // No weight row is read.
        let rhs = packed_int8_rhs((n, kcc, kcl), (&[0; 4], &bias, &scale), pack, Edge::End);
        let lhs = [0u8; 4];
        for k in QAI8_STEMS.map(kernel) {
            let order = qai8_gemm::clamp_order(k);
            let want: Vec<u8> = (0..m * n)
                .map(|at| {
                    let j = at % n;
                    let s = rkai_ukernels::float::fmul(scale[j], 0.5);
                    qai8::requantize(bias[j], s, rq, order) as u8
                })
                .collect();
            for portable in [false, true] {
                if !portable && !support::cpu::can_run(k.isa) {
                    continue;
                }
                let mut dst = Guarded::from_bytes(&vec![CANARY_I8; m * n], Edge::End);
                let dims = (m, n, kcc, kcl);
                let (l, r, d) = (lhs.as_ptr(), rhs.ptr(), dst.mut_ptr());
                // SAFETY: buffers sized for the call.
                unsafe { run_kernel(k, portable, Finish::Requantize(rq), dims, (l, r), (d, n)) };
                let what = format!("{} kcc {kcc} kcl {kcl} portable {portable}", k.stem);
                check_portion_i8(&what, dst.bytes(), &want, n, (0, 0, m, n));
                calls += 1;
            }
        }
    }
    println!("RELIABILITY int8 empty K: {calls} calls at SVL32 {}", g / 2);
}

/// Threads on disjoint row blocks equal one call; callee-saved registers survive a call (the
/// params pointer on the stack); a caller's pending lazy ZA save is committed.
#[test]
fn int8_threads_registers_and_lazy_za() {
    let rq = Requantize {
        min_value: -100,
        max_value: 100,
        output_zero_point: 2,
    };
    for k in QAI8_STEMS
        .map(kernel)
        .into_iter()
        .filter(|k| support::cpu::can_run(k.isa))
    {
        let conv = threaded_conv();
        let dims @ (m, n, _, _) = (conv.m(), conv.c_out, conv.kcc(), conv.c_in);
        let p = Qai8Conv::new(conv, 7, false, Pointers::Absolute, Edge::End);
        let want = p.expected(k, rq);
        let mut dst = vec![CANARY_I8; m * n];
        let (operands, finish) = ((&p.lhs, &p.rhs), Finish::Requantize(rq));
        let blocks = rows_on_threads(k, finish, dims, operands, (&mut dst, n));
        check_portion_i8(k.stem, &dst, &want, n, (0, 0, m, n));
        println!("RELIABILITY int8 threads: {} {blocks} row blocks", k.stem);
        #[cfg(target_arch = "aarch64")]
        {
            let check = |dst: &[u8]| check_portion_i8(k.stem, dst, &want, n, (0, 0, m, n));
            let fresh = vec![CANARY_I8; m * n];
            registers_and_lazy_za(k, finish, dims, operands, (&fresh, n), check);
            println!("RELIABILITY int8 registers and lazy ZA: {}", k.stem);
        }
    }
}

/// int8 kernel `stem` called with `m` x `n`, one chunk of one value, and `null` (`lhs`, `rhs`,
/// `dst` or `params`) null or a short destination stride, which its checks refuse before any
/// access.
fn refused_qai8_run(stem: &str, null: &str, dst_stride_row: usize) {
    let params = c_params(Requantize {
        min_value: -128,
        max_value: 127,
        output_zero_point: 0,
    });
    let params = if null == "params" {
        std::ptr::null()
    } else {
        &raw const params
    };
    let (lhs, rhs, dst) = refused_operands(null);
    let run = func::<ImatmulQai8Fn>("run", stem);
    // SAFETY: refused before any access.
    unsafe { run(2, 2, 1, 1, lhs, rhs, dst, dst_stride_row, params) }
}

/// Operands of a kernel call its checks refuse before any access (`m` = `n` = 2, one chunk of
/// one value): packed LHS, packed RHS and destination, the one `null` names (`lhs`, `rhs` or
/// `dst`) null.
fn refused_operands(null: &str) -> (*const c_void, *const c_void, *mut c_void) {
    let buffer = Box::leak(Box::new([0u64; 8])).as_mut_ptr().cast::<c_void>();
    let pick = |name: &str| {
        if name == null {
            std::ptr::null_mut()
        } else {
            buffer
        }
    };
    (
        pick("lhs").cast_const(),
        pick("rhs").cast_const(),
        pick("dst"),
    )
}

/// The chunked int8 RHS packer with `null` (`rhs`, `bias`, `scale`, `rhs_packed` or `params`)
/// null.
fn refused_x8_rhs_pack(name: &str, null: &str) {
    let src = [0u8; 64];
    let mut out = vec![0u8; 4096];
    let params = rkai_ukernels::types::kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: 0,
        scale_multiplier: 1.0,
    };
    let pick = |n: &str, p: *const c_void| if n == null { std::ptr::null() } else { p };
    let some = src.as_ptr().cast();
    let out = pick("rhs_packed", out.as_mut_ptr().cast()).cast_mut();
    // SAFETY: refused before any access.
    unsafe {
        func::<ImatmulPackQsi8Fn>("run", name)(
            1,
            1,
            1,
            4,
            pick("rhs", some),
            pick("bias", some),
            pick("scale", some),
            out,
            pick("params", (&raw const params).cast()),
        )
    }
}

/// Kernel `stem` called with `m` x `n`, one chunk of one value, and the given packed operands
/// and destination stride, which its checks refuse before any access.
fn refused_run(stem: &str, null: &str, dst_stride_row: usize) {
    let (lhs, rhs, dst) = refused_operands(null);
    let run = func::<ImatmulPackedFn>("run", stem);
    // SAFETY: refused before any access.
    unsafe { run(2, 2, 1, 1, lhs, rhs, dst, dst_stride_row, 0.0, 1.0) }
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

/// The death cases of kernel `$stems[$i]` (closures capture nothing, so the stem is a
/// constant): its offset getters off a tile (cases named `$getter` + what fails; `$lhs_mr` the
/// LHS offset's message), then `$refuse` called with each `(operand, message)` of `nulls` null
/// and with a destination stride of `$short` bytes (`$short_message`; cases named `$run` + what
/// fails).
macro_rules! kernel_cases {
    ($stems:ident[$i:literal], getters: $getter:literal, lhs_mr: $lhs_mr:literal,
        runs: $run:literal, $refuse:ident, nulls: [$(($what:literal, $message:literal)),*],
        short: $short:literal, $short_message:expr) => {
        [
            getter_case!(concat!($getter, "lhs_offset_misaligned_", $i), $lhs_mr
                => get_lhs_packed_offset::<Getter3>($stems[$i])(1, 1, 1)),
            getter_case!(concat!($getter, "rhs_offset_misaligned_", $i), "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter3>($stems[$i])(1, 1, 1)),
            getter_case!(concat!($getter, "dst_offset_misaligned_m_", $i), "(m_idx % m_step) == 0"
                => get_dst_offset::<Getter3>($stems[$i])(1, 0, 64)),
            getter_case!(concat!($getter, "dst_offset_misaligned_n_", $i), "(n_idx % n_step) == 0"
                => get_dst_offset::<Getter3>($stems[$i])(0, 1, 64)),
            $(run_case!(concat!($run, "null_", $what, "_", $i), $message
                => $refuse($stems[$i], $what, 8)),)*
            run_case!(concat!($run, "short_dst_stride_", $i), $short_message
                => $refuse($stems[$i], "", $short)),
        ]
    };
}

/// The death cases of float kernel `STEMS[$i]`, whose values are `$row`.
macro_rules! float_kernel_cases {
    ($i:literal, $row:literal) => {
        kernel_cases!(STEMS[$i], getters: "kernel_", lhs_mr: "m_idx % kai_mr == 0", runs: "",
            refused_run, nulls: [("lhs", "lhs_packed != NULL"), ("rhs", "rhs_packed != NULL"),
            ("dst", "dst != NULL")], short: 3, concat!("dst_stride_row >= n * ", $row))
    };
}

/// The death cases of int8 kernel `QAI8_STEMS[$i]`.
macro_rules! qai8_kernel_cases {
    ($i:literal) => {
        kernel_cases!(QAI8_STEMS[$i], getters: "qai8_", lhs_mr: "(m_idx % mr) == 0",
            runs: "qai8_", refused_qai8_run, nulls: [("lhs", "lhs_packed != NULL"),
            ("rhs", "rhs_packed != NULL"), ("dst", "dst != NULL"), ("params", "params != NULL")],
            short: 1, "dst_stride_row >= n * sizeof(int8_t)")
    };
}

/// The death cases of LHS packer `$name` (cases named `$prefix` + what fails): a null
/// indirection buffer or output, and a packed offset off a row group (`$misaligned`).
macro_rules! lhs_packer_cases {
    ($prefix:literal, $name:expr, $misaligned:literal) => {
        [
            run_case!(concat!($prefix, "null_ptrs"), "lhs_ptrs != NULL"
                => refused_lhs_pack($name, true)),
            run_case!(concat!($prefix, "null_packed"), "lhs_packed != NULL"
                => refused_lhs_pack($name, false)),
            getter_case!(concat!($prefix, "packed_offset_misaligned"), $misaligned
                => get_lhs_packed_offset::<Getter3>($name)(group() + 1, 1, 1)),
        ]
    };
}

/// The death cases of float RHS packer `$name` (cases named `$prefix` + what fails): each
/// operand null, and offsets off a column group (the packed one at column `$packed_n`).
macro_rules! rhs_packer_cases {
    ($prefix:literal, $name:expr, $packed_n:expr) => {
        [
            run_case!(concat!($prefix, "null_rhs"), "rhs != NULL"
                => refused_rhs_pack($name, "rhs")),
            run_case!(concat!($prefix, "null_bias"), "bias != NULL"
                => refused_rhs_pack($name, "bias")),
            run_case!(concat!($prefix, "null_packed"), "rhs_packed != NULL"
                => refused_rhs_pack($name, "rhs_packed")),
            getter_case!(concat!($prefix, "offset_misaligned"), "(n_idx % n_step) == 0"
                => get_rhs_offset::<Getter1>($name)(1)),
            getter_case!(concat!($prefix, "packed_offset_misaligned"), "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter3>($name)($packed_n, 1, 1)),
        ]
    };
}

fn cases() -> Vec<support::death::Case<String, String>> {
    let mut cases = Vec::new();
    cases.extend(lhs_packer_cases!(
        "lhs_",
        LHS,
        "m_idx % kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme() == 0"
    ));
    cases.extend(lhs_packer_cases!(
        "x16_",
        LHS_X16,
        "m_idx % kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme() == 0"
    ));
    cases.extend(lhs_packer_cases!(
        "x8_",
        LHS_X8,
        "m_idx % kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme() == 0"
    ));
    cases.extend(rhs_packer_cases!("rhs_", RHS, 1));
    cases.extend(rhs_packer_cases!("x16_rhs_", RHS_X16, group() + 1));
    cases.extend(float_kernel_cases!(0, "sizeof(float)"));
    cases.extend(float_kernel_cases!(1, "sizeof(float)"));
    cases.extend(float_kernel_cases!(2, "sizeof(uint16_t)"));
    cases.extend(float_kernel_cases!(3, "sizeof(uint16_t)"));
    cases.extend(qai8_kernel_cases!(0));
    cases.extend(qai8_kernel_cases!(1));
    cases.extend([
        run_case!("x8_rhs_null_rhs", "rhs != NULL" => refused_x8_rhs_pack(RHS_X8, "rhs")),
        run_case!("x8_rhs_null_bias", "bias != NULL" => refused_x8_rhs_pack(RHS_X8, "bias")),
        run_case!("x8_rhs_null_scale", "scale != NULL" => refused_x8_rhs_pack(RHS_X8, "scale")),
        run_case!("x8_rhs_null_packed", "rhs_packed != NULL"
            => refused_x8_rhs_pack(RHS_X8, "rhs_packed")),
        run_case!("x8_rhs_null_params", "params != NULL"
            => refused_x8_rhs_pack(RHS_X8, "params")),
    ]);
    cases
}

death_tests!(
    cases,
    "SME imatmul contract violations",
    "contract violations"
);
