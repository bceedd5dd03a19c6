//! Every family the safe API covers, every kernel of it this CPU runs: the safe API's packed
//! weights and activations are the bytes of KleidiAI's C packers for the same source, and its
//! `matmul` writes the bits of the exported C kernel run on those bytes (f32, f16 and bf16
//! outputs), or on the same rows for the kernels that read them unpacked. Every weight and
//! activation form a kernel's packers take is checked (both orientations of the float weights).
//! The covered families are derived from `Kernel::new`, so a family the API starts to cover
//! joins this test and must get a source here (the int8-output families, whose operands and
//! output stage differ, are checked in `safe_api_int8`).

use crate::support;

use rkai_ukernels::api::{
    self, Activations, Bias, Clamp, Error, Kernel, Lhs, NibbleOrder, PackedActivations,
    PackedWeights, WeightLayout, Weights,
};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::element::Output;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::{MatmulKernel, Rows};
use rkai_ukernels::matmul::call::PackedArgs;
use rkai_ukernels::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind};
use rkai_ukernels::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};
use std::ffi::c_void;
use support::api::{kernel_named, kernel_of};
use support::cabi::{MatmulFloatFn, RhsPackQsi4c32pFn, RhsPackQsu2cxpFn, func};
use support::cabi::{pack_per_channel_rhs, pack_qai4c32p_rhs};
use support::rng::Rng;

/// Block length of the per-block sources (Q4_0's, and a length every per-block kernel takes).
const BL: usize = 32;

/// One layer's weights in every source form, and its activations in every element type.
struct Layer {
    n: usize,
    k: usize,
    nibbles: Vec<u8>,
    int8: Vec<i8>,
    scales: Vec<f32>,
    block_scales: Vec<half::bf16>,
    q4_0: Vec<u8>,
    /// 2-bit codes, four per byte.
    int2: Vec<u8>,
    /// f32 scales and zero offsets per block of the asymmetric int4 weights (`nibbles`).
    block_scales_f32: Vec<f32>,
    zero_offsets: Vec<f32>,
    bias: Vec<f32>,
    /// Float weights: `n x k` and the same values `k x n`, in f32 and f16.
    w_nxk: Vec<f32>,
    w_kxn: Vec<f32>,
    w_nxk_f16: Vec<half::f16>,
    w_kxn_f16: Vec<half::f16>,
    bias_f16: Vec<half::f16>,
    x: Vec<f32>,
    x_f16: Vec<half::f16>,
    x_bf16: Vec<half::bf16>,
    /// The rows of `x` (f32 and f16) `ROW_PAD` elements further apart, for the kernels that
    /// read them as they are.
    x_wide: Vec<f32>,
    x_wide_f16: Vec<half::f16>,
}

/// The padding of the unpacked rows' stride.
const ROW_PAD: usize = 5;

/// A 2-bit value table other than KleidiAI's default `[-2, -1, 0, 1]`: a matmul that reads the
/// default (or none) instead gives other results.
const INT2_VALUES: [i32; 4] = [-3, -1, 1, 3];

/// The table pointer the C functions take for `w` (null: the default).
fn int2_lut(w: &Weights) -> *const i32 {
    match w {
        Weights::Int2PerChannel {
            values: Some(t), ..
        } => t.as_ptr(),
        _ => std::ptr::null(),
    }
}

impl Layer {
    fn new(m: usize, n: usize, k: usize, seed: u64) -> Layer {
        let mut rng = Rng::new(seed);
        let q4_0 = (0..n * k / BL)
            .flat_map(|_| {
                let d = half::f16::from_f32(rng.f32(0.001, 0.02)).to_le_bytes();
                let mut block = d.to_vec();
                block.extend((0..BL / 2).map(|_| rng.next_u64() as u8));
                block
            })
            .collect();
        let x = rng.vec_f32(m * k, -2.0, 2.0);
        let w_nxk = rng.vec_f32(n * k, -1.0, 1.0);
        let w_kxn: Vec<f32> = (0..k * n).map(|i| w_nxk[(i % n) * k + i / n]).collect();
        let f16s =
            |v: &[f32]| -> Vec<half::f16> { v.iter().map(|&x| half::f16::from_f32(x)).collect() };
        let x_wide: Vec<f32> = (0..m * (k + ROW_PAD))
            .map(|i| {
                let (row, col) = (i / (k + ROW_PAD), i % (k + ROW_PAD));
                if col < k { x[row * k + col] } else { f32::NAN }
            })
            .collect();
        let bias = rng.vec_f32(n, -1.0, 1.0);
        Layer {
            n,
            k,
            nibbles: (0..n * k.div_ceil(2))
                .map(|_| rng.next_u64() as u8)
                .collect(),
            int8: (0..n * k).map(|_| rng.range_i32(-127, 127) as i8).collect(),
            scales: rng.vec_f32(n, 0.001, 0.02),
            block_scales: (0..n * (k / BL))
                .map(|_| half::bf16::from_f32(rng.f32(0.001, 0.02)))
                .collect(),
            q4_0,
            int2: (0..n * k / 4).map(|_| rng.next_u64() as u8).collect(),
            block_scales_f32: rng.vec_f32(n * (k / BL), 0.001, 0.02),
            zero_offsets: rng.vec_f32(n * (k / BL), -0.1, 0.1),
            bias_f16: f16s(&bias),
            bias,
            w_nxk_f16: f16s(&w_nxk),
            w_kxn_f16: f16s(&w_kxn),
            w_nxk,
            w_kxn,
            x_wide_f16: f16s(&x_wide),
            x_wide,
            x_f16: x.iter().map(|&v| half::f16::from_f32(v)).collect(),
            x_bf16: x.iter().map(|&v| half::bf16::from_f32(v)).collect(),
            x,
        }
    }

    /// Every weight source form (the float ones with their bias; the 2-bit codes with
    /// KleidiAI's default table and with one of their own, the asymmetric int4 nibbles in either
    /// order).
    fn weight_forms(&self) -> [Weights<'_>; 13] {
        let f32_bias = Some(Bias::F32(&self.bias));
        let f16_bias = Some(Bias::F16(&self.bias_f16));
        let asymmetric = |order| Weights::Int4AsymmetricPerBlock {
            bl: BL,
            data: &self.nibbles,
            order,
            scales: &self.block_scales_f32,
            zero_offsets: &self.zero_offsets,
        };
        [
            Weights::Int2PerChannel {
                data: &self.int2,
                scales: &self.scales,
                values: None,
            },
            Weights::Int2PerChannel {
                data: &self.int2,
                scales: &self.scales,
                values: Some(INT2_VALUES),
            },
            asymmetric(NibbleOrder::EvenHigh),
            asymmetric(NibbleOrder::EvenLow),
            Weights::Int4PerChannel {
                data: &self.nibbles,
                scales: &self.scales,
            },
            Weights::Int8PerChannel {
                data: &self.int8,
                scales: &self.scales,
            },
            Weights::Int4PerBlock {
                bl: BL,
                data: &self.nibbles,
                scales: &self.block_scales,
            },
            Weights::Q4_0 { blocks: &self.q4_0 },
            Weights::F32 {
                data: &self.w_kxn,
                layout: WeightLayout::Kxn,
                bias: f32_bias,
            },
            Weights::F32 {
                data: &self.w_nxk,
                layout: WeightLayout::Nxk,
                bias: f32_bias,
            },
            Weights::F16 {
                data: &self.w_kxn_f16,
                layout: WeightLayout::Kxn,
                bias: f16_bias,
            },
            Weights::F16 {
                data: &self.w_nxk_f16,
                layout: WeightLayout::Nxk,
                bias: f16_bias,
            },
            Weights::F16 {
                data: &self.w_kxn_f16,
                layout: WeightLayout::Kxn,
                bias: f32_bias,
            },
        ]
    }

    /// The activation rows as they are, `k + ROW_PAD` apart, of the element type `form` has.
    fn wide_rows(&self, form: Activations) -> Activations<'_> {
        let stride = self.k + ROW_PAD;
        match form {
            Activations::F32 { .. } => Activations::F32 {
                data: &self.x_wide,
                stride,
            },
            Activations::F16 { .. } => Activations::F16 {
                data: &self.x_wide_f16,
                stride,
            },
            _ => unreachable!("no kernel reads bf16 rows as they are"),
        }
    }

    /// Every activation source form (contiguous rows).
    fn activation_forms(&self) -> [Activations<'_>; 3] {
        let stride = self.k;
        [
            Activations::F32 {
                data: &self.x,
                stride,
            },
            Activations::F16 {
                data: &self.x_f16,
                stride,
            },
            Activations::Bf16 {
                data: &self.x_bf16,
                stride,
            },
        ]
    }
}

/// The families whose kernels take a plain matmul's forms: every family but the indirect
/// matmuls, which take a convolution's (tests/suite/safe_api_imatmul.rs). The safe API covers
/// every family.
fn covered_families() -> Vec<Family> {
    let indirect = |f: &Family| f.dir().starts_with("imatmul_");
    Family::ALL.into_iter().filter(|f| !indirect(f)).collect()
}

/// The weights packed by the C packer `packer` from `w`.
fn c_packed_weights(
    packer: &Packer,
    kernel: &'static MatmulKernel,
    layer: &Layer,
    w: Weights,
) -> Vec<u8> {
    let t = kernel.tile();
    let (n, k, bias) = (layer.n, layer.k, layer.bias.as_ptr());
    let bl = w.bl();
    let mut out = vec![
        0u8;
        Kernel::new(kernel)
            .unwrap()
            .packed_weights_size(n, k, bl)
            .unwrap()
    ];
    let dst: *mut c_void = out.as_mut_ptr().cast();
    let int4 = kai_rhs_pack_qs4cxs1s0_param {
        lhs_zero_point: 1,
        rhs_zero_point: 8,
    };
    let name = packer.name;
    let tile = (t.nr, t.kr, t.sr);
    let (nr, kr, sr) = tile;
    // SAFETY: sources hold n x k weights of their form, `out` the packed size.
    unsafe {
        match w {
            Weights::Int4PerChannel { data, scales } => {
                let floats = (bias, scales.as_ptr());
                pack_per_channel_rhs(name, (n, k), tile, data.as_ptr().cast(), floats, dst, &int4)
            }
            Weights::Int8PerChannel { data, scales } => {
                let params = kai_rhs_pack_qsi8cx_params {
                    lhs_zero_point: 1,
                    scale_multiplier: 1.0,
                };
                let floats = (bias, scales.as_ptr());
                let src = data.as_ptr().cast();
                pack_per_channel_rhs(name, (n, k), tile, src, floats, dst, &params)
            }
            Weights::Int4PerBlock { data, scales, .. } => {
                let params = kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                    scale_dt: kai_datatype::kai_dt_bf16,
                };
                func::<RhsPackQsi4c32pFn>("run", name)(
                    1,
                    n,
                    k,
                    nr,
                    kr,
                    sr,
                    bl,
                    data.as_ptr(),
                    k.div_ceil(2),
                    bias,
                    scales.as_ptr().cast(),
                    k / bl * 2,
                    dst,
                    0,
                    (&raw const params).cast(),
                )
            }
            Weights::Int2PerChannel { data, scales, .. } => {
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 2,
                };
                func::<RhsPackQsu2cxpFn>("run", name)(
                    1,
                    n,
                    k,
                    nr,
                    kr,
                    sr,
                    data.as_ptr(),
                    bias,
                    scales.as_ptr(),
                    dst,
                    0,
                    &params,
                    int2_lut(&w),
                )
            }
            Weights::Int4AsymmetricPerBlock {
                data,
                scales,
                zero_offsets,
                ..
            } => {
                let params = kai_rhs_pack_qs4cxs1s0_param {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                };
                let floats = (
                    zero_offsets.as_ptr().cast(),
                    bias.cast(),
                    scales.as_ptr().cast(),
                );
                pack_qai4c32p_rhs(name, (n, k, bl), tile, data.as_ptr(), floats, dst, &params)
            }
            // The Q4_0 packers take no bias.
            Weights::Q4_0 { blocks } => support::cabi::pack_q4_0_rhs(
                name,
                (n, k, bl),
                tile,
                (blocks.as_ptr(), std::ptr::null()),
                dst,
                &int4,
            ),
            Weights::F32 { .. } | Weights::F16 { .. } => {
                let (src, bytes, layout, bias) = match w {
                    Weights::F32 { data, layout, bias } => (data.as_ptr().cast(), 4, layout, bias),
                    Weights::F16 { data, layout, bias } => (data.as_ptr().cast(), 2, layout, bias),
                    _ => unreachable!(),
                };
                let stride = bytes * if layout == WeightLayout::Kxn { n } else { k };
                let bias: *const c_void = match bias {
                    Some(Bias::F32(b)) => b.as_ptr().cast(),
                    Some(Bias::F16(b)) => b.as_ptr().cast(),
                    _ => std::ptr::null(),
                };
                support::cabi::pack_float_rhs(name, (n, k), tile, (src, stride), bias, dst)
            }
            _ => unreachable!("a weight form this test does not know"),
        }
    }
    out
}

/// The activations packed by the C packer `packer` from `x`.
fn c_packed_activations(
    packer: &Packer,
    kernel: &'static MatmulKernel,
    m: usize,
    bl: usize,
    x: Activations,
) -> Vec<u8> {
    let t = kernel.tile();
    let k = match x {
        Activations::F32 { stride, .. }
        | Activations::F16 { stride, .. }
        | Activations::Bf16 { stride, .. } => stride,
        _ => unreachable!(),
    };
    let (src, bytes): (*const c_void, usize) = match x {
        Activations::F32 { data, .. } => (data.as_ptr().cast(), 4),
        Activations::F16 { data, .. } => (data.as_ptr().cast(), 2),
        Activations::Bf16 { data, .. } => (data.as_ptr().cast(), 2),
        _ => unreachable!(),
    };
    let size = Kernel::new(kernel)
        .unwrap()
        .packed_activations_size(m, k, bl)
        .unwrap();
    let mut out = vec![0u8; size];
    let PackerKind::Lhs(kind) = packer.kind else {
        unreachable!()
    };
    let geometry = (t.mr, t.kr, t.sr);
    // SAFETY: `src` holds m rows of k values, `out` the packed size.
    unsafe {
        match kind {
            LhsPackerKind::Qai8dxp(_) | LhsPackerKind::Bf16(_) | LhsPackerKind::SmeRows(_) => {
                support::cabi::pack_lhs(
                    packer.name,
                    (m, k),
                    geometry,
                    0,
                    (src, k * bytes),
                    out.as_mut_ptr().cast(),
                )
            }
            LhsPackerKind::Qsi8d32p(_)
            | LhsPackerKind::Qsi8d32pscalef32(_)
            | LhsPackerKind::F16pmrx2 => support::cabi::pack_block_lhs(
                packer.name,
                (m, k, bl),
                geometry,
                0,
                (src, k * bytes),
                out.as_mut_ptr().cast(),
            ),
            other => unreachable!("an LHS packer this test does not know: {other:?}"),
        }
    }
    out
}

/// `matmul` into the family's output type, as bits; then the exported C kernel on the same
/// packed bytes (or rows), with the 2-bit value table `lut` (null for the default), as bits.
fn safe_and_c_outputs<B: AsRef<[u8]>>(
    kernel: &Kernel,
    lhs: Lhs,
    rhs: &PackedWeights<B>,
    (m, n, k, bl): (usize, usize, usize, usize),
    lut: *const i32,
) -> (Vec<u32>, Vec<u32>) {
    let clamp = Clamp {
        min: -3.0,
        max: 3.0,
    };
    let output = kernel.entry().family.output();
    let safe: Vec<u32> = match output {
        Output::F32 => {
            let mut d = vec![f32::NAN; m * n];
            api::matmul(kernel, lhs, rhs, &mut d, n, clamp).unwrap();
            d.iter().map(|v| v.to_bits()).collect()
        }
        Output::F16 => {
            let mut d = vec![half::f16::NAN; m * n];
            api::matmul(kernel, lhs, rhs, &mut d, n, clamp).unwrap();
            d.iter().map(|v| v.to_bits().into()).collect()
        }
        Output::Bf16 => {
            let mut d = vec![half::bf16::NAN; m * n];
            api::matmul(kernel, lhs, rhs, &mut d, n, clamp).unwrap();
            d.iter().map(|v| v.to_bits().into()).collect()
        }
        Output::I8 => unreachable!("safe_api_int8 checks the int8 outputs"),
    };
    let size = output.size();
    let mut c = vec![0xa5u8; m * n * size];
    let (dst, rhs_packed) = (c.as_mut_ptr(), rhs.bytes().as_ptr());
    match lhs {
        Lhs::Packed(lhs) => {
            let a = PackedArgs {
                m,
                n,
                k,
                bl,
                lhs_packed: lhs.bytes().as_ptr(),
                rhs_packed,
                dst,
                dst_stride_row: n * size,
                dst_stride_col: size,
                clamp_min: clamp.min,
                clamp_max: clamp.max,
                lut,
                params: std::ptr::null(),
            };
            // SAFETY: packed operands of the kernel's formats, `c` holds m x n outputs.
            unsafe { support::tester::run_exported(kernel.entry(), &a) };
        }
        Lhs::Rows { rows, .. } => {
            let (src, stride): (*const c_void, usize) = match rows {
                Activations::F32 { data, stride } => (data.as_ptr().cast(), stride * 4),
                Activations::F16 { data, stride } => (data.as_ptr().cast(), stride * 2),
                _ => unreachable!(),
            };
            let run = func::<MatmulFloatFn>("run", kernel.entry().stem);
            // SAFETY: m rows of k values, the packed RHS of the kernel's format, `c` holds
            // m x n outputs.
            unsafe {
                run(
                    m,
                    n,
                    k,
                    src,
                    stride,
                    rhs_packed.cast(),
                    dst.cast(),
                    n * size,
                    size,
                    clamp.min,
                    clamp.max,
                )
            };
        }
        _ => unreachable!(),
    }
    let c = c
        .chunks(size)
        .map(|b| b.iter().rev().fold(0u32, |acc, &x| acc << 8 | u32::from(x)))
        .collect();
    (safe, c)
}

/// The first packer of `packers` taking weights `w`.
fn weight_packer(packers: &[&'static Packer], w: &Weights) -> Option<&'static Packer> {
    let takes = |kind| matches!(kind, PackerKind::Rhs(r) if w.packed_by(r));
    packers.iter().copied().find(|p| takes(p.kind))
}

/// The first packer of `packers` taking activations `x`.
fn activation_packer(packers: &[&'static Packer], x: &Activations) -> Option<&'static Packer> {
    let takes = |kind| matches!(kind, PackerKind::Lhs(l) if x.packed_by(l));
    packers.iter().copied().find(|p| takes(p.kind))
}

#[test]
fn every_covered_family_matches_the_c_functions() {
    let families = covered_families();
    // The families the safe API covers today; a new one must be added here and above.
    assert_eq!(families.len(), 21, "{families:?}");
    let (mut kernels_checked, mut cases) = (0, 0);
    // The int8-output families take other operands and a `Requantize`: `safe_api_int8`.
    let float_output = |f: &Family| f.output() != Output::I8;
    for family in families.into_iter().filter(float_output) {
        for entry in KERNELS.iter().filter(|k| k.family == family) {
            let Ok(kernel) = Kernel::new(entry) else {
                continue;
            };
            let rows: &[usize] = match entry.rows {
                Rows::One => &[1],
                Rows::Any => &[1, 13],
            };
            for &m in rows {
                let (n, k) = (37, 128);
                let layer = Layer::new(m, n, k, (m * 131 + kernels_checked) as u64);
                let stem = entry.stem;
                // Every source form the kernel's packers take, each with the first such packer.
                let weights: Vec<_> = (layer.weight_forms().into_iter())
                    .filter_map(|w| weight_packer(entry.rhs_packers, &w).map(|p| (w, p)))
                    .collect();
                assert!(!weights.is_empty(), "{stem}: no weight form");
                let activations: Vec<_> = (layer.activation_forms().into_iter())
                    .filter(|x| {
                        activation_packer(entry.lhs_packers, x).is_some()
                            || !kernel.reads_packed_lhs() && same_type(x, kernel.entry())
                    })
                    .collect();
                assert!(!activations.is_empty(), "{stem}: no activation form");
                for &(w, rhs_packer) in &weights {
                    let bl = w.bl();
                    let bias = match (w, rhs_packer.kind) {
                        (_, PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(_))) => None,
                        // The float forms carry their bias.
                        (Weights::F32 { .. } | Weights::F16 { .. }, _) => None,
                        _ => Some(&layer.bias[..]),
                    };
                    let size = kernel.packed_weights_size(n, k, bl).unwrap();
                    let packed =
                        PackedWeights::pack(&kernel, n, k, w, bias, vec![0u8; size]).unwrap();
                    assert_eq!(
                        packed.bytes(),
                        &c_packed_weights(rhs_packer, entry, &layer, w)[..],
                        "{stem}: packed weights {w:?}"
                    );
                    for &x in &activations {
                        let lhs_storage;
                        let lhs = match activation_packer(entry.lhs_packers, &x) {
                            Some(lhs_packer) => {
                                let size = kernel.packed_activations_size(m, k, bl).unwrap();
                                let buffer = vec![0u8; size];
                                lhs_storage =
                                    PackedActivations::pack(&kernel, m, k, bl, x, buffer).unwrap();
                                assert_eq!(
                                    lhs_storage.bytes(),
                                    &c_packed_activations(lhs_packer, entry, m, bl, x)[..],
                                    "{stem}: packed activations"
                                );
                                Lhs::from(&lhs_storage)
                            }
                            None => Lhs::Rows {
                                m,
                                k,
                                rows: layer.wide_rows(x),
                            },
                        };
                        let shape = (m, n, k, bl);
                        let (safe, c) =
                            safe_and_c_outputs(&kernel, lhs, &packed, shape, int2_lut(&w));
                        assert_eq!(safe, c, "{stem}: m={m} {w:?}");
                        cases += 1;
                    }
                }
            }
            kernels_checked += 1;
        }
    }
    eprintln!(
        "{kernels_checked} kernels, {cases} cases: safe API bytes and bits equal the C functions'"
    );
}

/// Whether `x` holds the element type `kernel` reads unpacked (its output type).
fn same_type(x: &Activations, kernel: &MatmulKernel) -> bool {
    matches!(
        (x, kernel.family.output()),
        (Activations::F32 { .. }, Output::F32) | (Activations::F16 { .. }, Output::F16)
    )
}

#[test]
fn misuse_of_the_new_forms_is_an_error() {
    let (m, n, k) = (2, 8, 64);
    let layer = Layer::new(m, n, k, 7);
    let q4_0 = Weights::Q4_0 {
        blocks: &layer.q4_0,
    };
    let rows = Activations::F32 {
        data: &layer.x,
        stride: k,
    };
    let Some(kernel) = kernel_of(Family::F32Qsi8d32pQsi4c32p) else {
        // Only a CPU without dotprod runs no kernel of the family.
        assert!(!support::cpu::can_run(
            rkai_ukernels::arch::Isa::NeonDotprod
        ));
        return;
    };
    let size = kernel.packed_weights_size(n, k, BL).unwrap();
    let pack = |w, bias| PackedWeights::pack(&kernel, n, k, w, bias, vec![0u8; size]);
    // The Q4_0 packers take no bias: KleidiAI's condition.
    assert_eq!(
        pack(q4_0, Some(&layer.bias[..])).unwrap_err(),
        Error::Precondition("bias == NULL")
    );
    // A form the kernel's packers do not take.
    let int8 = Weights::Int8PerChannel {
        data: &layer.int8,
        scales: &layer.scales,
    };
    assert_eq!(
        pack(int8, None).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    // Short blocks, and K that is not whole blocks.
    let short = Weights::Q4_0 {
        blocks: &layer.q4_0[1..],
    };
    assert!(matches!(
        pack(short, None),
        Err(Error::BufferTooSmall { .. })
    ));
    let odd_k = PackedWeights::pack(&kernel, n, k - 2, q4_0, None, vec![0u8; size]);
    assert_eq!(odd_k.unwrap_err(), Error::Precondition("(k % bl) == 0"));
    let packed = pack(q4_0, None).unwrap();

    // Activations: a source type the packer does not take, a short or narrow source, and a
    // block length other than the weights'.
    let lhs_size = kernel.packed_activations_size(m, k, BL).unwrap();
    let lhs = |x, bl| PackedActivations::pack(&kernel, m, k, bl, x, vec![0u8; lhs_size]);
    let f16_rows = Activations::F16 {
        data: &layer.x_f16,
        stride: k,
    };
    assert_eq!(
        lhs(f16_rows, BL).unwrap_err(),
        Error::FormatMismatch("activations")
    );
    let short_rows = Activations::F32 {
        data: &layer.x[1..],
        stride: k,
    };
    assert!(matches!(
        lhs(short_rows, BL),
        Err(Error::BufferTooSmall { .. })
    ));
    let narrow = Activations::F32 {
        data: &layer.x,
        stride: k - 1,
    };
    assert_eq!(
        lhs(narrow, BL).unwrap_err(),
        Error::Precondition("stride >= k")
    );
    let x64 = lhs(rows, 2 * BL);
    let x = lhs(rows, BL).unwrap();
    let mut dst = vec![0f32; m * n];
    if let Ok(x64) = x64 {
        let r = api::matmul(&kernel, &x64, &packed, &mut dst, n, Clamp::NONE);
        assert!(
            matches!(
                r,
                Err(Error::ShapeMismatch {
                    dimension: "bl",
                    ..
                })
            ),
            "{r:?}"
        );
    }
    // Another output type than the family's.
    let mut half_dst = vec![half::f16::ZERO; m * n];
    assert_eq!(
        api::matmul(&kernel, &x, &packed, &mut half_dst, n, Clamp::NONE).unwrap_err(),
        Error::FormatMismatch("dst element type")
    );
    api::matmul(&kernel, &x, &packed, &mut dst, n, Clamp::NONE).unwrap();
    // Activations packed for another family's format.
    if let Some(other) = kernel_of(Family::F32F16pQsi4c32p) {
        let other_size = other.packed_activations_size(m, k, BL).unwrap();
        let other_x = PackedActivations::pack(&other, m, k, BL, rows, vec![0u8; other_size]);
        let r = api::matmul(
            &kernel,
            &other_x.unwrap(),
            &packed,
            &mut dst,
            n,
            Clamp::NONE,
        );
        assert_eq!(r.unwrap_err(), Error::FormatMismatch("packed activations"));
    }
}

#[test]
fn misuse_of_the_float_forms_is_an_error() {
    let (m, n, k) = (3, 8, 16);
    let layer = Layer::new(m, n, k, 11);
    // The NEON f32 GEMM runs on every AArch64 CPU (and portably elsewhere).
    let kernel = kernel_named("matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla").unwrap();
    assert!(!kernel.reads_packed_lhs());
    let size = kernel.packed_weights_size(n, k, 0).unwrap();
    let pack = |w, bias| PackedWeights::pack(&kernel, n, k, w, bias, vec![0u8; size]);
    let f32_bias = Some(Bias::F32(&layer.bias));
    let kxn = Weights::F32 {
        data: &layer.w_kxn,
        layout: WeightLayout::Kxn,
        bias: f32_bias,
    };
    // The bias of a float form goes in the form, not beside it.
    assert_eq!(
        pack(kxn, Some(&layer.bias[..])).unwrap_err(),
        Error::Precondition("the bias of a float form is in the form")
    );
    // f16 values, or an f16 bias, for f32 packers.
    let f16_values = Weights::F16 {
        data: &layer.w_kxn_f16,
        layout: WeightLayout::Kxn,
        bias: None,
    };
    assert_eq!(
        pack(f16_values, None).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    let f16_bias = Weights::F32 {
        data: &layer.w_kxn,
        layout: WeightLayout::Kxn,
        bias: Some(Bias::F16(&layer.bias_f16)),
    };
    assert_eq!(
        pack(f16_bias, None).unwrap_err(),
        Error::FormatMismatch("weights")
    );
    // Short values and biases.
    let short = Weights::F32 {
        data: &layer.w_kxn[1..],
        layout: WeightLayout::Kxn,
        bias: None,
    };
    assert!(matches!(
        pack(short, None),
        Err(Error::BufferTooSmall { .. })
    ));
    let short_bias = Weights::F32 {
        data: &layer.w_kxn,
        layout: WeightLayout::Kxn,
        bias: Some(Bias::F32(&layer.bias[1..])),
    };
    assert!(matches!(
        pack(short_bias, None),
        Err(Error::BufferTooSmall { buffer: "bias", .. })
    ));
    let packed = pack(kxn, None).unwrap();

    // A kernel reading rows as they are: no packed activations; rows of its type, long enough,
    // of the weights' k.
    assert_eq!(
        kernel.packed_activations_size(m, k, 0).unwrap_err(),
        Error::LhsForm {
            kernel_reads_packed: false
        }
    );
    let mut dst = vec![0f32; m * n];
    let mut run = |rows, k| {
        let lhs = Lhs::Rows { m, k, rows };
        api::matmul(&kernel, lhs, &packed, &mut dst, n, Clamp::NONE)
    };
    let f16_rows = Activations::F16 {
        data: &layer.x_f16,
        stride: k,
    };
    assert_eq!(
        run(f16_rows, k).unwrap_err(),
        Error::FormatMismatch("activation rows")
    );
    let short_rows = Activations::F32 {
        data: &layer.x[1..],
        stride: k,
    };
    assert!(matches!(
        run(short_rows, k),
        Err(Error::BufferTooSmall {
            buffer: "activations",
            ..
        })
    ));
    let rows = Activations::F32 {
        data: &layer.x,
        stride: k,
    };
    assert!(matches!(
        run(rows, k - 1),
        Err(Error::ShapeMismatch { dimension: "k", .. })
    ));
    let narrow = Activations::F32 {
        data: &layer.x,
        stride: k - 1,
    };
    assert_eq!(
        run(narrow, k).unwrap_err(),
        Error::Precondition("stride >= k")
    );
    run(rows, k).unwrap();

    // The packer that requires a bias says so in KleidiAI's words.
    if let Some(biased) = kernel_named("matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla") {
        let size = biased.packed_weights_size(n, k, 0).unwrap();
        let no_bias = Weights::F32 {
            data: &layer.w_kxn,
            layout: WeightLayout::Kxn,
            bias: None,
        };
        let r = PackedWeights::pack(&biased, n, k, no_bias, None, vec![0u8; size]);
        assert_eq!(r.unwrap_err(), Error::Precondition("bias != NULL"));
    }

    // Rows for a kernel that reads its activations packed, and packed activations for one
    // that reads rows.
    if let Some(int4) = kernel_of(Family::F32Qai8dxpQsi4cxp) {
        let size = int4.packed_weights_size(n, k, 0).unwrap();
        let w = Weights::Int4PerChannel {
            data: &layer.nibbles,
            scales: &layer.scales,
        };
        let int4_weights = PackedWeights::pack(&int4, n, k, w, None, vec![0u8; size]).unwrap();
        let lhs = Lhs::Rows { m, k, rows };
        assert_eq!(
            api::matmul(&int4, lhs, &int4_weights, &mut dst, n, Clamp::NONE).unwrap_err(),
            Error::LhsForm {
                kernel_reads_packed: true
            }
        );
        let size = int4.packed_activations_size(m, k, 0).unwrap();
        let x = PackedActivations::pack(&int4, m, k, 0, rows, vec![0u8; size]).unwrap();
        assert_eq!(
            api::matmul(&kernel, &x, &packed, &mut dst, n, Clamp::NONE).unwrap_err(),
            Error::LhsForm {
                kernel_reads_packed: false
            }
        );
    }
}
