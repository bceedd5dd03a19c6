//! The safe API's convolutions through the float indirect matmuls (`imatmul_clamp_f32_f32_f32p`,
//! `imatmul_clamp_f32_f32p_f32p`, `imatmul_clamp_f16_f16p_f16p`), every kernel of them this CPU
//! runs, on the tests' convolutions (3x3 and 1x1, stride 1 and 2, padded or not, zero or other
//! pad chunks): the weights `PackedWeights::pack_chunked` packs are the C packer's bytes, the
//! activations `PackedActivations::pack_indirect` packs are the C LHS packer's bytes from a
//! framework's indirection buffer (`support::conv::indirection`, byte offsets or absolute
//! pointers), and `matmul` (and `parallel::matmul` over row blocks) writes the bits of the
//! exported C kernel on those bytes; all equal a direct convolution. Then every misuse is an
//! error: short table, image, pad, storage or destination, an impossible geometry, operands of
//! other chunks, element types or block layouts.
//!
//! The int8 indirect matmuls (`imatmul_clamp_qai8_qai8p_qsi8cxp`) the same way on int8 images
//! (`Weights::Int8Requantized` through `pack_chunked`, `matmul_requantized` and its parallel
//! form): packed bytes equal the C packers' for the operands of `imatmul_sme::Qai8Conv`, outputs
//! equal the exported C kernel's bytes and the direct requantized convolution of
//! `reference::qai8`, over clamped, unclamped and inverted output ranges; and their misuse is
//! an error.

use crate::support;

use crate::imatmul_sme::Qai8Conv;
use rkai_ukernels::api::{
    self, Activations, Bias, Chunks, Clamp, Conv2d, Error, IndirectElement, Indirection,
    InputQuantization, Kernel, Lhs, OutputElement, PackedActivations, PackedWeights, Requantize,
    WeightLayout, Weights,
};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::reference::qai8;
use std::ffi::c_void;
use support::cabi::{Getter3, ImatmulFn, ImatmulLhsPackFn, ImatmulPackFn, ImatmulPackedFn, func};
use support::conv::{self, Conv, Pointers};
use support::guard::Edge;
use support::rng::Rng;

/// The families of the float indirect matmuls.
const FAMILIES: [Family; 3] = [
    Family::ImatmulF32F32F32p,
    Family::ImatmulF32F32pF32p,
    Family::ImatmulF16F16pF16p,
];

/// Every kernel of the float indirect families this CPU runs (all of them off AArch64: their
/// portable paths).
fn kernels() -> Vec<Kernel> {
    (KERNELS.iter())
        .filter(|k| FAMILIES.contains(&k.family))
        .filter_map(|k| Kernel::new(k).ok())
        .collect()
}

/// The first kernel of `family` this CPU runs.
fn kernel_of(family: Family) -> Option<Kernel> {
    kernels().into_iter().find(|k| k.entry().family == family)
}

/// The safe API's geometry of a test convolution.
fn geometry(c: &Conv) -> Conv2d {
    assert_eq!(c.kh, c.kw, "the test convolutions are square");
    Conv2d::square(c.h, c.w, c.c_in, c.kh, c.stride, c.pad)
}

/// An element type of the float indirect matmuls, as the tests handle it.
trait Element: IndirectElement + OutputElement + Send + std::fmt::Debug {
    fn from_f32(v: f32) -> Self;
    fn to_f32(self) -> f32;
    fn bits(self) -> u32;
    fn weights<'a>(data: &'a [Self], bias: Option<&'a [Self]>) -> Weights<'a>;
}

impl Element for f32 {
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
    fn weights<'a>(data: &'a [Self], bias: Option<&'a [Self]>) -> Weights<'a> {
        let bias = bias.map(Bias::F32);
        let layout = WeightLayout::Kxn;
        Weights::F32 { data, layout, bias }
    }
}

impl Element for half::f16 {
    fn from_f32(v: f32) -> Self {
        half::f16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        half::f16::to_f32(self)
    }
    fn bits(self) -> u32 {
        self.to_bits().into()
    }
    fn weights<'a>(data: &'a [Self], bias: Option<&'a [Self]>) -> Weights<'a> {
        let bias = bias.map(Bias::F16);
        let layout = WeightLayout::Kxn;
        Weights::F16 { data, layout, bias }
    }
}

/// One convolution's operands: an NHWC image, HWIO weights (K x N), a bias and a pad chunk.
struct Problem<T> {
    conv: Conv,
    input: Vec<T>,
    weights: Vec<T>,
    bias: Vec<T>,
    pad: Vec<T>,
}

impl<T: Element> Problem<T> {
    /// Random operands; a zero pad chunk for even seeds, other values for odd ones (read as
    /// they are).
    fn new(conv: Conv, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut draw = |len, scale: f32| -> Vec<T> {
            (rng.vec_f32(len, -scale, scale).into_iter())
                .map(T::from_f32)
                .collect()
        };
        let (n, kcc, kcl) = (conv.c_out, conv.kcc(), conv.c_in);
        let pad = if seed % 2 == 0 {
            vec![T::from_f32(0.0); kcl]
        } else {
            draw(kcl, 2.0)
        };
        Problem {
            input: draw(conv.h * conv.w * kcl, 1.0),
            weights: draw(kcc * kcl * n, 1.0),
            bias: draw(n, 0.5),
            pad,
            conv,
        }
    }

    /// The safe API's packed weights, packed activations (for the kernels that pack them) and
    /// output bits, with `matmul` (`threads` 0) or `parallel::matmul` on `threads` threads.
    fn safe(&self, kernel: &Kernel, clamp: Clamp, threads: usize) -> Outputs {
        let (g, n) = (geometry(&self.conv), self.conv.c_out);
        let weights = T::weights(&self.weights, Some(&self.bias));
        let size = kernel.packed_chunked_weights_size(n, g.chunks()).unwrap();
        let packed =
            PackedWeights::pack_chunked(kernel, n, g.chunks(), weights, vec![0u8; size]).unwrap();
        let mut table = vec![0usize; kernel.indirection_len(&g).unwrap()];
        let indirection = Indirection::new(kernel, &g, &self.input, &self.pad, &mut table).unwrap();
        let packed_lhs = kernel.reads_packed_lhs().then(|| {
            let size = kernel.packed_indirect_activations_size(&g).unwrap();
            PackedActivations::pack_indirect(kernel, &indirection, vec![0u8; size]).unwrap()
        });
        let lhs = match &packed_lhs {
            Some(p) => Lhs::from(p),
            None => Lhs::from(&indirection),
        };
        let mut dst = vec![T::from_f32(f32::NAN); self.conv.m() * n];
        match threads {
            0 => api::matmul(kernel, lhs, &packed, &mut dst, n, clamp).unwrap(),
            t => api::parallel::matmul(kernel, lhs, &packed, &mut dst, n, clamp, t).unwrap(),
        }
        Outputs {
            rhs: packed.bytes().to_vec(),
            lhs: packed_lhs.map(|p| p.bytes().to_vec()),
            dst: dst.iter().map(|v| v.bits()).collect(),
        }
    }

    /// The same through the exported C functions, the indirection buffer built by the tests'
    /// framework builder (byte offsets or absolute pointers as `mode` says).
    fn c(&self, entry: &MatmulKernel, mode: Pointers, clamp: Clamp) -> Outputs {
        let (m, n, kcc, kcl) = (
            self.conv.m(),
            self.conv.c_out,
            self.conv.kcc(),
            self.conv.c_in,
        );
        let elem = size_of::<T>();
        let rhs_packer = entry.rhs_packers[0].name;
        let mut rhs = vec![0u8; func::<Getter3>("get_rhs_packed_size", rhs_packer)(n, kcc, kcl)];
        // SAFETY: K x N weights and n biases of the packer's type, `rhs` its packed size.
        unsafe {
            func::<ImatmulPackFn>("run", rhs_packer)(
                n,
                kcc,
                kcl,
                elem * n,
                self.weights.as_ptr().cast(),
                self.bias.as_ptr().cast(),
                rhs.as_mut_ptr().cast(),
            )
        };
        let input: *const u8 = self.input.as_ptr().cast();
        let pad: *const c_void = self.pad.as_ptr().cast();
        let block_rows = entry.tile().m_step;
        let entries = conv::indirection(&self.conv, (input, elem), pad.cast(), mode, block_rows);
        let offset = match mode {
            Pointers::Offsets => input as usize,
            Pointers::Absolute => 0,
        };
        let ptrs: *const *const c_void = entries.as_ptr().cast();
        let mut dst = vec![0u8; m * n * elem];
        let (lo, hi) = (clamp.min, clamp.max);
        let lhs = match entry.lhs_packers.first() {
            Some(packer) => {
                let size = func::<Getter3>("get_lhs_packed_size", packer.name)(m, kcc, kcl);
                let mut lhs = vec![0u8; size];
                // SAFETY: the buffer's entries point to chunks of kcl values; `lhs` holds the
                // packed size; then packed operands of the kernel's formats, `dst` m x n values.
                unsafe {
                    let pack: ImatmulLhsPackFn = func("run", packer.name);
                    pack(m, kcc, kcl, ptrs, offset, pad, lhs.as_mut_ptr().cast());
                    func::<ImatmulPackedFn>("run", entry.stem)(
                        m,
                        n,
                        kcc,
                        kcl,
                        lhs.as_ptr().cast(),
                        rhs.as_ptr().cast(),
                        dst.as_mut_ptr().cast(),
                        elem * n,
                        lo,
                        hi,
                    )
                };
                Some(lhs)
            }
            // SAFETY: as above, the kernel reading the buffer itself.
            None => unsafe {
                func::<ImatmulFn>("run", entry.stem)(
                    m,
                    n,
                    kcc,
                    kcl,
                    ptrs.cast(),
                    pad,
                    offset,
                    rhs.as_ptr().cast(),
                    dst.as_mut_ptr().cast(),
                    elem * n,
                    lo,
                    hi,
                );
                None
            },
        };
        let dst = (dst.chunks(elem))
            .map(|b| b.iter().rev().fold(0u32, |acc, &x| acc << 8 | u32::from(x)))
            .collect();
        Outputs { rhs, lhs, dst }
    }

    /// The direct convolution in f32 on the same values, clamped.
    fn direct(&self, clamp: Clamp) -> Vec<f32> {
        let f = |v: &[T]| v.iter().map(|x| x.to_f32()).collect::<Vec<_>>();
        let bias = f(&self.bias);
        let (input, pad, weights) = (f(&self.input), f(&self.pad), f(&self.weights));
        let sums = conv::direct_sums(&self.conv, &input, &pad, &weights, |j| bias[j]);
        sums.iter()
            .map(|s| s.min(clamp.max).max(clamp.min))
            .collect()
    }
}

/// What a convolution produced: packed weights, packed activations (if the kernel packs them)
/// and the output bits.
struct Outputs {
    rhs: Vec<u8>,
    lhs: Option<Vec<u8>>,
    dst: Vec<u32>,
}

/// Runs every test convolution through `kernel` (of element type `T`) by the safe API and the C
/// functions, compares them and the direct convolution; returns the cases run.
fn check_kernel<T: Element>(kernel: &Kernel) -> usize {
    let entry = kernel.entry();
    let tolerance = if size_of::<T>() == 2 { 1e-2 } else { 1e-5 };
    let mut cases = 0;
    for (ci, c) in conv::conv_cases(entry.tile().n_step)
        .into_iter()
        .enumerate()
    {
        let p = Problem::<T>::new(c, ci as u64);
        let mode = [Pointers::Offsets, Pointers::Absolute][ci % 2];
        let clamp = [
            Clamp::NONE,
            Clamp {
                min: -0.6,
                max: 0.7,
            },
        ][ci / 2 % 2];
        let safe = p.safe(kernel, clamp, 0);
        let c_out = p.c(entry, mode, clamp);
        let stem = entry.stem;
        assert!(safe.rhs == c_out.rhs, "{stem}: {c:?}: packed weights");
        assert!(
            safe.lhs == c_out.lhs,
            "{stem}: {c:?} {mode:?}: packed activations"
        );
        let differing = |a: &[u32], b: &[u32]| a.iter().zip(b).position(|(x, y)| x != y);
        assert_eq!(safe.dst.len(), c_out.dst.len());
        let first = differing(&safe.dst, &c_out.dst);
        assert_eq!(
            first, None,
            "{stem}: {c:?} {mode:?}: first output unlike C's"
        );
        // Row blocks on threads write the same bits.
        let threaded = p.safe(kernel, clamp, 3).dst;
        assert_eq!(
            differing(&threaded, &safe.dst),
            None,
            "{stem}: {c:?}: threads"
        );
        for (i, (&bits, want)) in safe.dst.iter().zip(p.direct(clamp)).enumerate() {
            let got = match size_of::<T>() {
                2 => half::f16::from_bits(bits as u16).to_f32(),
                _ => f32::from_bits(bits),
            };
            let err = (got - want).abs();
            assert!(
                err <= tolerance * (1.0 + want.abs()),
                "{}: {c:?} output {i}: {got} vs direct {want}",
                entry.stem
            );
        }
        cases += 1;
    }
    cases
}

#[test]
fn convolutions_equal_the_c_functions_and_a_direct_convolution() {
    let kernels = kernels();
    if cfg!(not(target_arch = "aarch64")) {
        // Off AArch64 every kernel runs its portable path.
        assert_eq!(kernels.len(), 5, "{kernels:?}");
    }
    let mut cases = 0;
    for kernel in &kernels {
        cases += match kernel.entry().family {
            Family::ImatmulF16F16pF16p => check_kernel::<half::f16>(kernel),
            _ => check_kernel::<f32>(kernel),
        };
    }
    println!(
        "RELIABILITY safe imatmul: {} kernels, {cases} convolutions equal the C functions and a direct convolution",
        kernels.len()
    );
}

#[test]
fn every_indirect_family_is_covered() {
    let indirect = (KERNELS.iter()).filter(|k| k.family.dir().starts_with("imatmul_"));
    let families = [FAMILIES.as_slice(), &[INT8]].concat();
    for entry in indirect {
        assert!(families.contains(&entry.family), "{}", entry.stem);
        match Kernel::new(entry) {
            Ok(_) => assert!(support::cpu::can_run(entry.isa), "{}", entry.stem),
            Err(e) => {
                assert_eq!(e, Error::NotSupportedByCpu(entry.stem));
                assert!(!support::cpu::can_run(entry.isa), "{}", entry.stem);
            }
        }
    }
}

#[test]
fn impossible_geometries_are_errors() {
    let mut g = Conv2d::square(4, 4, 3, 3, 1, 0);
    assert_eq!(g.output_pixels(), Ok(4));
    g.kernel_width = 6;
    assert_eq!(
        g.output_width().unwrap_err(),
        Error::Precondition("kernel size <= padded input size")
    );
    // Padding makes room for it.
    g.pad_left = 1;
    g.pad_right = 1;
    assert_eq!(g.output_width(), Ok(1));
    g.stride_y = 0;
    assert_eq!(
        g.output_height().unwrap_err(),
        Error::Precondition("stride > 0 && kernel size > 0")
    );
    let tall = Conv2d::square(5, 7, 2, 3, 2, 1);
    assert_eq!((tall.output_height(), tall.output_width()), (Ok(3), Ok(4)));
    assert_eq!(
        tall.chunks(),
        Chunks {
            count: 9,
            length: 2
        }
    );
    assert_eq!(tall.chunks().k(), Ok(18));
}

/// One small convolution's operands for the error cases.
struct Small {
    g: Conv2d,
    n: usize,
    image: Vec<f32>,
    pad: Vec<f32>,
    w: Vec<f32>,
    bias: Vec<f32>,
}

impl Small {
    fn new() -> Small {
        let g = Conv2d::square(5, 5, 4, 3, 1, 1);
        let (n, k) = (7, g.chunks().k().unwrap());
        let mut rng = Rng::new(3);
        Small {
            image: rng.vec_f32(5 * 5 * 4, -1.0, 1.0),
            pad: vec![0.0; 4],
            w: rng.vec_f32(k * n, -1.0, 1.0),
            bias: rng.vec_f32(n, -1.0, 1.0),
            g,
            n,
        }
    }

    fn weights(&self) -> Weights<'_> {
        f32::weights(&self.w, Some(&self.bias))
    }

    fn packed_weights(&self, kernel: &Kernel) -> PackedWeights<Vec<u8>> {
        let (n, chunks) = (self.n, self.g.chunks());
        let size = kernel.packed_chunked_weights_size(n, chunks).unwrap();
        PackedWeights::pack_chunked(kernel, n, chunks, self.weights(), vec![0u8; size]).unwrap()
    }
}

#[test]
fn misuse_of_the_indirection_is_an_error() {
    let Some(kernel) = kernel_of(Family::ImatmulF32F32F32p) else {
        assert!(!support::cpu::can_run(rkai_ukernels::arch::Isa::Sve));
        return;
    };
    let s = Small::new();
    let (g, n) = (s.g, s.n);
    let len = kernel.indirection_len(&g).unwrap();
    // 25 output pixels in blocks of 6 rows, 9 taps.
    assert_eq!(len, 30 * 9);
    let mut table = vec![0usize; len];
    let short = Indirection::new(&kernel, &g, &s.image, &s.pad, &mut table[1..]);
    assert!(matches!(
        short,
        Err(Error::BufferTooSmall { buffer: "indirection table", needed, given })
            if (needed, given) == (len, len - 1)
    ));
    let image = Indirection::new(&kernel, &g, &s.image[1..], &s.pad, &mut table);
    assert!(matches!(
        image,
        Err(Error::BufferTooSmall {
            buffer: "image",
            ..
        })
    ));
    let pad = Indirection::new(&kernel, &g, &s.image, &s.pad[1..], &mut table);
    assert!(matches!(
        pad,
        Err(Error::BufferTooSmall { buffer: "pad", .. })
    ));
    let halves = vec![half::f16::ZERO; s.image.len()];
    let wrong_type = Indirection::new(&kernel, &g, &halves, &halves[..4], &mut table);
    assert_eq!(
        wrong_type.unwrap_err(),
        Error::FormatMismatch("image element type")
    );
    let mut huge = g;
    huge.kernel_height = 9;
    assert_eq!(
        kernel.indirection_len(&huge).unwrap_err(),
        Error::Precondition("kernel size <= padded input size")
    );

    // Weights: storage, orientation, chunks.
    let (chunks, k) = (g.chunks(), g.chunks().k().unwrap());
    let size = kernel.packed_chunked_weights_size(n, chunks).unwrap();
    let pack = |w, storage| PackedWeights::pack_chunked(&kernel, n, chunks, w, storage);
    assert!(matches!(
        pack(s.weights(), vec![0u8; size - 1]),
        Err(Error::BufferTooSmall {
            buffer: "packed weight storage",
            ..
        })
    ));
    assert!(matches!(
        pack(f32::weights(&s.w[1..], Some(&s.bias)), vec![0u8; size]),
        Err(Error::BufferTooSmall { .. })
    ));
    let nxk = Weights::F32 {
        data: &s.w,
        layout: WeightLayout::Nxk,
        bias: Some(Bias::F32(&s.bias)),
    };
    assert_eq!(
        pack(nxk, vec![0u8; size]).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    let packed = s.packed_weights(&kernel);
    assert_eq!((packed.n(), packed.k()), (n, k));

    let indirection = Indirection::new(&kernel, &g, &s.image, &s.pad, &mut table).unwrap();
    assert_eq!(indirection.m(), 25);
    let mut dst = vec![0f32; 25 * n];
    api::matmul(&kernel, &indirection, &packed, &mut dst, n, Clamp::NONE).unwrap();
    // The bytes loaded back read the same.
    let bytes = packed.bytes().to_vec();
    let loaded =
        PackedWeights::from_chunked_bytes(&kernel, n, chunks, packed.vector_bytes(), bytes)
            .unwrap();
    let mut again = vec![0f32; 25 * n];
    api::matmul(&kernel, &indirection, &loaded, &mut again, n, Clamp::NONE).unwrap();
    assert_eq!(again, dst);
    let short = packed.bytes()[1..].to_vec();
    assert!(matches!(
        PackedWeights::from_chunked_bytes(&kernel, n, chunks, packed.vector_bytes(), short),
        Err(Error::BufferTooSmall { .. })
    ));
    // Short destination, and a row stride shorter than a row.
    assert!(matches!(
        api::matmul(
            &kernel,
            &indirection,
            &packed,
            &mut dst[1..],
            n,
            Clamp::NONE
        ),
        Err(Error::BufferTooSmall { buffer: "dst", .. })
    ));
    assert_eq!(
        api::matmul(&kernel, &indirection, &packed, &mut dst, n - 1, Clamp::NONE).unwrap_err(),
        Error::Precondition("dst_stride >= n")
    );
    // Weights over other chunks: one more channel, or a 1x1 kernel of as many values.
    let other = |chunks: Chunks| {
        let w = vec![0.5f32; chunks.k().unwrap() * n];
        let size = kernel.packed_chunked_weights_size(n, chunks).unwrap();
        let weights = f32::weights(&w, Some(&s.bias));
        PackedWeights::pack_chunked(&kernel, n, chunks, weights, vec![0u8; size]).unwrap()
    };
    for (count, length, dimension, packed_len, given) in [
        (9, 5, "k_chunk_length", 5, 4),
        (1, 36, "k_chunk_count", 1, 9),
    ] {
        let weights = other(Chunks { count, length });
        let got = api::matmul(&kernel, &indirection, &weights, &mut dst, n, Clamp::NONE);
        let want = Error::ShapeMismatch {
            dimension,
            packed: packed_len,
            given,
        };
        assert_eq!(got.unwrap_err(), want);
    }
    // Rows for the kernel that reads an indirection table; the table for one that reads rows.
    let rows = Lhs::Rows {
        m: 25,
        k,
        rows: Activations::F32 {
            data: &s.image,
            stride: k,
        },
    };
    assert_eq!(
        api::matmul(&kernel, rows, &packed, &mut dst, n, Clamp::NONE).unwrap_err(),
        Error::FormatMismatch("activations")
    );
    let plain = Kernel::new(
        rkai_ukernels::catalog::kernel("matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla").unwrap(),
    )
    .unwrap();
    assert_eq!(
        kernel.packed_indirect_activations_size(&g).unwrap_err(),
        Error::LhsForm {
            kernel_reads_packed: false
        }
    );
    assert_eq!(
        plain.indirection_len(&g).unwrap_err(),
        Error::FormatMismatch("an indirection table")
    );
    assert_eq!(
        plain.packed_chunked_weights_size(n, chunks).unwrap_err(),
        Error::FormatMismatch("chunked weights")
    );
    // No channel: KleidiAI's condition, from the kernel's checked dispatcher.
    let empty = Conv2d::square(5, 5, 0, 3, 1, 1);
    let none = other(empty.chunks());
    let mut table = vec![0usize; kernel.indirection_len(&empty).unwrap()];
    let indirection = Indirection::new(&kernel, &empty, &[] as &[f32], &[], &mut table).unwrap();
    assert_eq!(
        api::matmul(&kernel, &indirection, &none, &mut dst, n, Clamp::NONE).unwrap_err(),
        Error::Precondition("k_chunk_length > 0")
    );
}

#[test]
fn misuse_of_the_packed_indirect_activations_is_an_error() {
    let Some(kernel) = kernel_of(Family::ImatmulF32F32pF32p) else {
        assert!(!support::cpu::can_run(rkai_ukernels::arch::Isa::Sme));
        return;
    };
    let s = Small::new();
    let (g, n) = (s.g, s.n);
    let mut table = vec![0usize; kernel.indirection_len(&g).unwrap()];
    let indirection = Indirection::new(&kernel, &g, &s.image, &s.pad, &mut table).unwrap();
    let size = kernel.packed_indirect_activations_size(&g).unwrap();
    let short = PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; size - 1]);
    assert!(matches!(
        short,
        Err(Error::BufferTooSmall {
            buffer: "packed activation storage",
            ..
        })
    ));
    let lhs = PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; size]).unwrap();
    assert_eq!((lhs.m(), lhs.k()), (25, 36));
    let packed = s.packed_weights(&kernel);
    let mut dst = vec![0f32; 25 * n];
    api::matmul(&kernel, &lhs, &packed, &mut dst, n, Clamp::NONE).unwrap();
    // The table itself for a kernel that packs it.
    assert_eq!(
        api::matmul(&kernel, &indirection, &packed, &mut dst, n, Clamp::NONE).unwrap_err(),
        Error::LhsForm {
            kernel_reads_packed: true
        }
    );
    // Activations of a plain convolution's shape but not gathered: not this kernel's source.
    let rows = Activations::F32 {
        data: &s.image,
        stride: 4,
    };
    assert_eq!(
        PackedActivations::pack(&kernel, 25, 4, 0, rows, vec![0u8; size]).unwrap_err(),
        Error::FormatMismatch("activations")
    );
    // A table laid out for another kernel's blocks (the SVE kernel's 6 rows).
    if let Some(sve) = kernel_of(Family::ImatmulF32F32F32p) {
        let mut sve_table = vec![0usize; sve.indirection_len(&g).unwrap()];
        let sve_indirection = Indirection::new(&sve, &g, &s.image, &s.pad, &mut sve_table).unwrap();
        let r = PackedActivations::pack_indirect(&kernel, &sve_indirection, vec![0u8; size]);
        assert!(matches!(
            r,
            Err(Error::ShapeMismatch {
                dimension: "indirection block rows",
                packed: 6,
                ..
            })
        ));
    }
    // f16 weights for the f32 kernel.
    let halves = vec![half::f16::ONE; s.w.len()];
    let chunks = g.chunks();
    let wsize = kernel.packed_chunked_weights_size(n, chunks).unwrap();
    let r = PackedWeights::pack_chunked(
        &kernel,
        n,
        chunks,
        half::f16::weights(&halves, None),
        vec![0u8; wsize],
    );
    assert_eq!(r.unwrap_err(), Error::FormatMismatch("weights"));
}

// ---------------------------------------------------------------------------------------------
// The int8 indirect matmuls (`imatmul_clamp_qai8_qai8p_qsi8cxp`)

/// The family of the int8 indirect matmuls.
const INT8: Family = Family::ImatmulQai8Qai8pQsi8cxp;

/// Every kernel of the int8 indirect family this CPU runs (both off AArch64: their portable
/// paths).
fn int8_kernels() -> Vec<Kernel> {
    (KERNELS.iter())
        .filter(|k| k.family == INT8)
        .filter_map(|k| Kernel::new(k).ok())
        .collect()
}

/// The input quantization of a `Qai8Conv` (its zero point drawn in the int8 range).
fn int8_input(p: &Qai8Conv) -> InputQuantization {
    InputQuantization {
        zero_point: i8::try_from(p.zero_point).unwrap(),
        scale_multiplier: p.multiplier,
    }
}

/// The reference's form of an output stage.
fn reference_requantize(r: Requantize) -> qai8::Requantize {
    qai8::Requantize {
        min_value: r.min.into(),
        max_value: r.max.into(),
        output_zero_point: r.zero_point.into(),
    }
}

/// The safe API's packed weights, packed activations and output bytes for `p`, with
/// `matmul_requantized` (`threads` 0) or `parallel::matmul_requantized` on `threads` threads.
fn int8_safe(kernel: &Kernel, p: &Qai8Conv, r: Requantize, threads: usize) -> Outputs {
    let (g, n) = (geometry(&p.conv), p.conv.c_out);
    let weights = Weights::Int8Requantized {
        data: &p.weights,
        scales: &p.scale,
        bias: &p.bias,
        input: int8_input(p),
    };
    let size = kernel.packed_chunked_weights_size(n, g.chunks()).unwrap();
    let packed =
        PackedWeights::pack_chunked(kernel, n, g.chunks(), weights, vec![0u8; size]).unwrap();
    let mut table = vec![0usize; kernel.indirection_len(&g).unwrap()];
    let indirection = Indirection::new(kernel, &g, &p.input, &p.pad, &mut table).unwrap();
    let size = kernel.packed_indirect_activations_size(&g).unwrap();
    let lhs = PackedActivations::pack_indirect(kernel, &indirection, vec![0u8; size]).unwrap();
    let mut dst = vec![0x5a_i8; p.conv.m() * n];
    match threads {
        0 => api::matmul_requantized(kernel, &lhs, &packed, &mut dst, n, r).unwrap(),
        t => api::parallel::matmul_requantized(kernel, &lhs, &packed, &mut dst, n, r, t).unwrap(),
    }
    Outputs {
        rhs: packed.bytes().to_vec(),
        lhs: Some(lhs.bytes().to_vec()),
        dst: dst.iter().map(|&v| u32::from(v as u8)).collect(),
    }
}

#[test]
fn int8_convolutions_equal_the_c_functions_and_a_direct_convolution() {
    let kernels = int8_kernels();
    if cfg!(not(target_arch = "aarch64")) {
        assert_eq!(kernels.len(), 2, "{kernels:?}");
    }
    let stages = [
        Requantize::unclamped(5),
        Requantize {
            min: -20,
            max: 60,
            zero_point: -9,
        },
        // Inverted: the SME kernel gives min, the SME2 kernel max.
        Requantize {
            min: 30,
            max: -30,
            zero_point: 0,
        },
    ];
    let mut cases = 0;
    for kernel in &kernels {
        let entry = kernel.entry();
        let stem = entry.stem;
        for (ci, c) in conv::conv_cases(entry.tile().n_step)
            .into_iter()
            .enumerate()
        {
            let mode = [Pointers::Offsets, Pointers::Absolute][ci % 2];
            let edge = [Edge::End, Edge::Start][ci / 2 % 2];
            let p = Qai8Conv::new(c, ci as u64, false, mode, edge);
            let (m, n) = (c.m(), c.c_out);
            for (si, &stage) in stages.iter().enumerate() {
                let safe = int8_safe(kernel, &p, stage, 0);
                assert!(safe.rhs == p.rhs.bytes(), "{stem}: {c:?}: packed weights");
                assert!(
                    safe.lhs.as_deref() == Some(p.lhs.bytes()),
                    "{stem}: {c:?} {mode:?}: packed activations"
                );
                let rq = reference_requantize(stage);
                let c_dst = p.run(entry, false, (0, 0, m, n), rq, edge);
                let c_dst: Vec<u32> = c_dst.bytes().iter().map(|&b| b.into()).collect();
                assert_eq!(safe.dst, c_dst, "{stem}: {c:?} {stage:?}: C kernel");
                let want: Vec<u32> = (p.expected(entry, rq).into_iter()).map(u32::from).collect();
                assert_eq!(
                    safe.dst, want,
                    "{stem}: {c:?} {stage:?}: direct convolution"
                );
                if si == 1 {
                    // Row blocks on threads write the same bytes.
                    let threaded = int8_safe(kernel, &p, stage, 3).dst;
                    assert_eq!(threaded, safe.dst, "{stem}: {c:?}: threads");
                }
                cases += 1;
            }
        }
    }
    println!(
        "RELIABILITY safe int8 imatmul: {} kernels, {cases} convolutions equal the C functions and a direct requantized convolution",
        kernels.len()
    );
}

#[test]
fn the_pad_chunk_of_an_int8_image_is_its_zero_point() {
    let Some(kernel) = int8_kernels().into_iter().next() else {
        return;
    };
    // The same image padded by one pixel with the zero point, and unpadded with a zero-point
    // border drawn into it: the same output.
    let (c, n, zero_point) = (3, 5, -7i8);
    let padded = Conv2d::square(4, 4, c, 3, 1, 1);
    let framed = Conv2d::square(6, 6, c, 3, 1, 0);
    let mut rng = Rng::new(11);
    let image: Vec<i8> = (0..4 * 4 * c).map(|_| rng.next_u64() as i8).collect();
    let mut bordered = vec![zero_point; 6 * 6 * c];
    for (p, pixel) in image.chunks(c).enumerate() {
        let at = ((p / 4 + 1) * 6 + p % 4 + 1) * c;
        bordered[at..at + c].copy_from_slice(pixel);
    }
    let w: Vec<i8> = (0..9 * c * n).map(|_| rng.next_u64() as i8).collect();
    let input = InputQuantization {
        zero_point,
        scale_multiplier: 0.5,
    };
    let (scales, bias) = (vec![0.01f32; n], vec![100i32; n]);
    let weights = Weights::Int8Requantized {
        data: &w,
        scales: &scales,
        bias: &bias,
        input,
    };
    let run = |g: &Conv2d, image: &[i8]| {
        let size = kernel.packed_chunked_weights_size(n, g.chunks()).unwrap();
        let packed =
            PackedWeights::pack_chunked(&kernel, n, g.chunks(), weights, vec![0u8; size]).unwrap();
        let pad = vec![zero_point; c];
        let mut table = vec![0usize; kernel.indirection_len(g).unwrap()];
        let indirection = Indirection::new(&kernel, g, image, &pad, &mut table).unwrap();
        let size = kernel.packed_indirect_activations_size(g).unwrap();
        let lhs = PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; size]).unwrap();
        let mut y = vec![0i8; 16 * n];
        let r = Requantize::unclamped(3);
        api::matmul_requantized(&kernel, &lhs, &packed, &mut y, n, r).unwrap();
        y
    };
    let y = run(&padded, &image);
    assert_eq!(y, run(&framed, &bordered));
    assert!(y.iter().any(|&v| v != y[0]), "{y:?}");
}

#[test]
fn misuse_of_the_int8_indirection_is_an_error() {
    let Some(kernel) = int8_kernels().into_iter().next() else {
        assert!(!support::cpu::can_run(rkai_ukernels::arch::Isa::Sme));
        return;
    };
    let s = Small::new();
    let (g, n) = (s.g, s.n);
    let (chunks, k) = (g.chunks(), g.chunks().k().unwrap());
    let w = vec![1i8; k * n];
    let (scales, bias) = (vec![0.5f32; n], vec![0i32; n]);
    let input = InputQuantization {
        zero_point: 0,
        scale_multiplier: 1.0,
    };
    let int8 = |w| Weights::Int8Requantized {
        data: w,
        scales: &scales,
        bias: &bias,
        input,
    };
    let size = kernel.packed_chunked_weights_size(n, chunks).unwrap();
    let pack = |w, storage| PackedWeights::pack_chunked(&kernel, n, chunks, w, storage);
    // Short weights, scales, biases and storage; float weights.
    assert!(matches!(
        pack(int8(&w[1..]), vec![0u8; size]),
        Err(Error::BufferTooSmall {
            buffer: "int8 weights",
            ..
        })
    ));
    let short_scales = Weights::Int8Requantized {
        data: &w,
        scales: &scales[1..],
        bias: &bias,
        input,
    };
    assert!(matches!(
        pack(short_scales, vec![0u8; size]),
        Err(Error::BufferTooSmall {
            buffer: "scales",
            ..
        })
    ));
    let short_bias = Weights::Int8Requantized {
        data: &w,
        scales: &scales,
        bias: &bias[1..],
        input,
    };
    assert!(matches!(
        pack(short_bias, vec![0u8; size]),
        Err(Error::BufferTooSmall { buffer: "bias", .. })
    ));
    assert!(matches!(
        pack(int8(&w), vec![0u8; size - 1]),
        Err(Error::BufferTooSmall {
            buffer: "packed weight storage",
            ..
        })
    ));
    assert_eq!(
        pack(s.weights(), vec![0u8; size]).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    let packed = pack(int8(&w), vec![0u8; size]).unwrap();
    assert_eq!((packed.n(), packed.k()), (n, k));

    // Images of another element type, each way.
    let image = vec![2i8; 5 * 5 * 4];
    let pad = [0i8; 4];
    let mut table = vec![0usize; kernel.indirection_len(&g).unwrap()];
    assert_eq!(
        Indirection::new(&kernel, &g, &s.image, &s.pad, &mut table).unwrap_err(),
        Error::FormatMismatch("image element type")
    );
    if let Some(float) = kernel_of(Family::ImatmulF32F32pF32p) {
        let mut float_table = vec![0usize; float.indirection_len(&g).unwrap()];
        assert_eq!(
            Indirection::new(&float, &g, &image, &pad, &mut float_table).unwrap_err(),
            Error::FormatMismatch("image element type")
        );
        // An f32 table for the int8 kernel's packer; int8 weights for the float kernel.
        let f32_table = Indirection::new(&float, &g, &s.image, &s.pad, &mut float_table).unwrap();
        let lhs_size = kernel.packed_indirect_activations_size(&g).unwrap();
        let r = PackedActivations::pack_indirect(&kernel, &f32_table, vec![0u8; lhs_size]);
        assert_eq!(
            r.unwrap_err(),
            Error::FormatMismatch("indirection table element type")
        );
        let fsize = float.packed_chunked_weights_size(n, chunks).unwrap();
        let r = PackedWeights::pack_chunked(&float, n, chunks, int8(&w), vec![0u8; fsize]);
        assert_eq!(r.unwrap_err(), Error::FormatMismatch("weights"));
    }
    let short_pad = Indirection::new(&kernel, &g, &image, &pad[1..], &mut table);
    assert!(matches!(
        short_pad,
        Err(Error::BufferTooSmall { buffer: "pad", .. })
    ));
    let indirection = Indirection::new(&kernel, &g, &image, &pad, &mut table).unwrap();
    let lhs_size = kernel.packed_indirect_activations_size(&g).unwrap();
    assert!(matches!(
        PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; lhs_size - 1]),
        Err(Error::BufferTooSmall {
            buffer: "packed activation storage",
            ..
        })
    ));
    let lhs = PackedActivations::pack_indirect(&kernel, &indirection, vec![0u8; lhs_size]).unwrap();
    assert_eq!((lhs.m(), lhs.k()), (25, k));
    let mut dst = vec![0i8; 25 * n];
    let r = Requantize::unclamped(0);
    api::matmul_requantized(&kernel, &lhs, &packed, &mut dst, n, r).unwrap();
    // The centre pixel: 36 inputs of 2 times 1, scaled by 0.5.
    assert_eq!(dst[12 * n], 36);

    // The table itself (the kernel packs it); a float output stage; a float destination.
    assert_eq!(
        api::matmul_requantized(&kernel, &indirection, &packed, &mut dst, n, r).unwrap_err(),
        Error::LhsForm {
            kernel_reads_packed: true
        }
    );
    let mut floats = vec![0f32; 25 * n];
    assert_eq!(
        api::matmul(&kernel, &lhs, &packed, &mut floats, n, Clamp::NONE).unwrap_err(),
        Error::OutputStage {
            kernel_requantizes: true
        }
    );
    // Short destination, short row stride.
    assert!(matches!(
        api::matmul_requantized(&kernel, &lhs, &packed, &mut dst[1..], n, r),
        Err(Error::BufferTooSmall { buffer: "dst", .. })
    ));
    assert_eq!(
        api::matmul_requantized(&kernel, &lhs, &packed, &mut dst, n - 1, r).unwrap_err(),
        Error::Precondition("dst_stride >= n")
    );
    // Weights over other chunks of the same K: a 1x1 kernel of 36 channels.
    let one_tap = Chunks {
        count: 1,
        length: k,
    };
    let size = kernel.packed_chunked_weights_size(n, one_tap).unwrap();
    let other = PackedWeights::pack_chunked(&kernel, n, one_tap, int8(&w), vec![0u8; size]);
    let other = other.unwrap();
    assert!(matches!(
        api::matmul_requantized(&kernel, &lhs, &other, &mut dst, n, r),
        Err(Error::ShapeMismatch {
            dimension: "k_chunk_count",
            packed: 1,
            given: 9
        })
    ));
    // Rows of int8 activations: not this kernel's source.
    let rows = Activations::Int8 {
        data: &image,
        stride: 4,
    };
    assert_eq!(
        PackedActivations::pack(&kernel, 25, 4, 0, rows, vec![0u8; lhs_size]).unwrap_err(),
        Error::FormatMismatch("activations")
    );
}

/// Hostile operands the safe types allow: the int8 extremes as input zero point (folded into the
/// packed weights), output zero points at both ends, bounds at the ends of int8, inverted and
/// equal, with `Qai8Conv`'s hostile values (int8 extremes, `i32` extreme biases, infinite, NaN,
/// huge and zero scales, multipliers `f32::MAX` and -0): the safe API writes the C kernel's bytes
/// and the direct convolution's.
#[test]
fn int8_convolutions_with_hostile_quantization_equal_the_c_functions() {
    let stages = [
        Requantize::unclamped(i8::MIN),
        Requantize::unclamped(i8::MAX),
        Requantize {
            min: i8::MAX,
            max: i8::MIN,
            zero_point: i8::MIN,
        },
        Requantize {
            min: i8::MIN,
            max: i8::MIN,
            zero_point: i8::MAX,
        },
    ];
    let mut cases = 0;
    for kernel in &int8_kernels() {
        let entry = kernel.entry();
        let c = conv::conv_cases(entry.tile().n_step)[1];
        for (seed, zero_point) in [i8::MIN, i8::MAX].into_iter().enumerate() {
            let (mode, edge) = (Pointers::Offsets, Edge::End);
            let p = Qai8Conv::new(c, seed as u64 + 3, true, mode, edge);
            let p = p.with_zero_point(zero_point.into(), edge);
            for stage in stages {
                let safe = int8_safe(kernel, &p, stage, 0);
                let rq = reference_requantize(stage);
                let c_dst = p.run(entry, false, (0, 0, c.m(), c.c_out), rq, edge);
                let c_dst: Vec<u32> = c_dst.bytes().iter().map(|&b| b.into()).collect();
                let what = format!("{}: {c:?} zero point {zero_point} {stage:?}", entry.stem);
                assert!(safe.rhs == p.rhs.bytes(), "{what}: packed weights");
                assert_eq!(safe.dst, c_dst, "{what}: C kernel");
                let want: Vec<u32> = (p.expected(entry, rq).into_iter()).map(u32::from).collect();
                assert_eq!(safe.dst, want, "{what}: direct convolution");
                cases += 1;
            }
        }
    }
    println!("RELIABILITY safe int8 imatmul hostile quantization: {cases} convolutions");
}
