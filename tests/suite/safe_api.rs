//! The safe Rust API (`rkai_ukernels::api`): same packed bytes and results as the C functions it
//! wraps, for the selected GEMV/GEMM pair of each covered family; threads change nothing; and
//! every misuse is an `Err`, never an abort.

use crate::support;

use rkai_ukernels::api::{
    self, Activations, Clamp, Error, Kernel, NibbleOrder, PackedActivations, PackedWeights, Weights,
};
use rkai_ukernels::catalog;
use rkai_ukernels::family::Family;
use rkai_ukernels::select::Shape;
use rkai_ukernels::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};
use std::ffi::c_void;
use support::api::kernel_named;
use support::cabi::pack_per_channel_rhs;
use support::cabi::{MatmulBlockFn, MatmulFn, RhsPackQsi4c32pFn, func, pack_lhs};
use support::rng::Rng;

const FAMILIES: [Family; 3] = [
    Family::F32Qai8dxpQsi4cxp,
    Family::F32Qai8dxpQsi8cxp,
    Family::F32Qai8dxpQsi4c32p,
];

/// Weights of one layer in every supported encoding.
struct Layer {
    n: usize,
    k: usize,
    bl: usize,
    nibbles: Vec<u8>,
    int8: Vec<i8>,
    scales: Vec<f32>,
    block_scales: Vec<half::bf16>,
    bias: Vec<f32>,
}

impl Layer {
    fn new(n: usize, k: usize, bl: usize, seed: u64) -> Layer {
        let mut rng = Rng::new(seed);
        let row = k.div_ceil(2);
        Layer {
            n,
            k,
            bl,
            nibbles: (0..n * row).map(|_| rng.next_u64() as u8).collect(),
            int8: (0..n * k).map(|_| rng.range_i32(-127, 127) as i8).collect(),
            scales: rng.vec_f32(n, 0.001, 0.02),
            block_scales: (0..n * (k / bl))
                .map(|_| half::bf16::from_bits((rng.f32(0.001, 0.02).to_bits() >> 16) as u16))
                .collect(),
            bias: rng.vec_f32(n, -1.0, 1.0),
        }
    }

    fn weights(&self, family: Family) -> Weights<'_> {
        match family {
            Family::F32Qai8dxpQsi4cxp => Weights::Int4PerChannel {
                data: &self.nibbles,
                scales: &self.scales,
            },
            Family::F32Qai8dxpQsi8cxp => Weights::Int8PerChannel {
                data: &self.int8,
                scales: &self.scales,
            },
            _ => Weights::Int4PerBlock {
                bl: self.bl,
                data: &self.nibbles,
                scales: &self.block_scales,
            },
        }
    }
}

fn pack(kernel: &Kernel, layer: &Layer, family: Family) -> PackedWeights<Vec<u8>> {
    let bl = if family == Family::F32Qai8dxpQsi4c32p {
        layer.bl
    } else {
        0
    };
    let size = kernel.packed_weights_size(layer.n, layer.k, bl).unwrap();
    PackedWeights::pack(
        kernel,
        layer.n,
        layer.k,
        layer.weights(family),
        Some(&layer.bias),
        vec![0u8; size],
    )
    .unwrap()
}

/// The RHS packers' parameters for the per-channel int4 and int8 weights.
const INT4_PARAMS: kai_rhs_pack_qs4cxs1s0_param = kai_rhs_pack_qs4cxs1s0_param {
    lhs_zero_point: 1,
    rhs_zero_point: 8,
};
const INT8_PARAMS: kai_rhs_pack_qsi8cx_params = kai_rhs_pack_qsi8cx_params {
    lhs_zero_point: 1,
    scale_multiplier: 1.0,
};

/// The same layer through the C functions: (packed RHS, dst).
fn through_c(
    kernel: &Kernel,
    layer: &Layer,
    family: Family,
    x: &[f32],
    m: usize,
) -> (Vec<u8>, Vec<f32>) {
    let k_entry = kernel.entry();
    let t = k_entry.tile();
    let (n, k) = (layer.n, layer.k);
    let rhs_name = k_entry.rhs_packers[0].name;
    let mut lhs = vec![0u8; kernel.packed_activations_size(m, k, 0).unwrap()];
    let bl = if family == Family::F32Qai8dxpQsi4c32p {
        layer.bl
    } else {
        0
    };
    let mut rhs = vec![0u8; kernel.packed_weights_size(n, k, bl).unwrap()];
    let mut dst = vec![f32::NAN; m * n];
    // SAFETY: buffers sized by the packers' own size functions; C prototypes as declared.
    unsafe {
        pack_lhs(
            "lhs_quant_pack_qai8dxp_f32",
            (m, k),
            (t.mr, t.kr, t.sr),
            0,
            (x.as_ptr().cast(), k * 4),
            lhs.as_mut_ptr().cast(),
        );
        let out: *mut c_void = rhs.as_mut_ptr().cast();
        let (bias, tile) = (layer.bias.as_ptr(), (t.nr, t.kr, t.sr));
        let floats = (bias, layer.scales.as_ptr());
        match family {
            Family::F32Qai8dxpQsi4cxp => {
                let src = layer.nibbles.as_ptr().cast();
                pack_per_channel_rhs(rhs_name, (n, k), tile, src, floats, out, &INT4_PARAMS);
            }
            Family::F32Qai8dxpQsi8cxp => {
                let src = layer.int8.as_ptr().cast();
                pack_per_channel_rhs(rhs_name, (n, k), tile, src, floats, out, &INT8_PARAMS);
            }
            _ => {
                let p = kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
                    lhs_zero_point: 1,
                    rhs_zero_point: 8,
                    scale_dt: kai_datatype::kai_dt_bf16,
                };
                func::<RhsPackQsi4c32pFn>("run", rhs_name)(
                    1,
                    n,
                    k,
                    t.nr,
                    t.kr,
                    t.sr,
                    bl,
                    layer.nibbles.as_ptr(),
                    k.div_ceil(2),
                    bias,
                    layer.block_scales.as_ptr().cast(),
                    (k / bl) * 2,
                    out,
                    0,
                    (&raw const p).cast(),
                );
            }
        }
        let (l, r) = (lhs.as_ptr().cast(), rhs.as_ptr().cast());
        if family == Family::F32Qai8dxpQsi4c32p {
            func::<MatmulBlockFn>("run", k_entry.stem)(
                m,
                n,
                k,
                bl,
                l,
                r,
                dst.as_mut_ptr().cast(),
                n * 4,
                4,
                -3.0,
                3.0,
            );
        } else {
            func::<MatmulFn>("run", k_entry.stem)(
                m,
                n,
                k,
                l,
                r,
                dst.as_mut_ptr().cast(),
                n * 4,
                4,
                -3.0,
                3.0,
            );
        }
    }
    (rhs, dst)
}

/// `m` rows of `k` f32 activations (`x`, rows `k` apart) packed for `kernel` into a buffer of
/// the size it asks for.
fn pack_rows(
    kernel: &Kernel,
    m: usize,
    k: usize,
    x: &[f32],
) -> Result<PackedActivations<Vec<u8>>, Error> {
    let size = kernel.packed_activations_size(m, k, 0).unwrap();
    let rows = Activations::F32 { data: x, stride: k };
    PackedActivations::pack(kernel, m, k, 0, rows, vec![0; size])
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn selected_pairs_match_the_c_functions_and_threads_change_nothing() {
    let clamp = Clamp {
        min: -3.0,
        max: 3.0,
    };
    for family in FAMILIES {
        let Ok((gemv, gemm)) = Kernel::select_pair(family) else {
            // Only a CPU without dotprod has no pair; selection tests cover that case.
            assert!(!support::cpu::can_run(
                rkai_ukernels::arch::Isa::NeonDotprod
            ));
            continue;
        };
        for (n, k) in [(1, 64), (37, 128), (70, 256)] {
            let layer = Layer::new(n, k, 64, (n * k) as u64);
            let packed = pack(&gemm, &layer, family);
            for (kernel, m) in [(gemv, 1), (gemm, 1), (gemm, 13)] {
                let x = Rng::new(m as u64).vec_f32(m * k, -2.0, 2.0);
                let lhs = pack_rows(&kernel, m, k, &x).unwrap();
                let mut dst = vec![f32::NAN; m * n];
                api::matmul(&kernel, &lhs, &packed, &mut dst, n, clamp).unwrap();
                let (c_rhs, c_dst) = through_c(&kernel, &layer, family, &x, m);
                let stem = kernel.entry().stem;
                assert_eq!(packed.bytes(), &c_rhs[..], "{stem}: packed weights");
                assert_eq!(bits(&dst), bits(&c_dst), "{stem}: m={m} n={n} k={k}");
                let mut threaded = vec![f32::NAN; m * n];
                api::parallel::matmul(&kernel, &lhs, &packed, &mut threaded, n, clamp, 3).unwrap();
                assert_eq!(bits(&threaded), bits(&dst), "{stem}: threads");
            }
        }
    }
}

/// Bytes packed by the C packer (or saved earlier) come back through `from_bytes` with the vector
/// length they were packed at, and compute the same results; another vector length, short
/// storage or an impossible block length are refused.
#[test]
fn packed_bytes_load_back_with_their_vector_length() {
    let mut loaded = 0;
    for family in FAMILIES {
        let Ok((gemv, gemm)) = Kernel::select_pair(family) else {
            continue;
        };
        let (n, k, m) = (37, 128, 5);
        let layer = Layer::new(n, k, 64, 7);
        let x = Rng::new(3).vec_f32(m * k, -2.0, 2.0);
        let bl = if family == Family::F32Qai8dxpQsi4c32p {
            64
        } else {
            0
        };
        for kernel in [gemv, gemm] {
            let here = kernel.entry().packed_vector_bytes();
            let (c_rhs, c_dst) = through_c(&kernel, &layer, family, &x, m);
            let packed = pack(&kernel, &layer, family);
            assert_eq!(packed.vector_bytes(), here);
            let back =
                PackedWeights::from_bytes(&kernel, n, k, bl, packed.vector_bytes(), c_rhs.clone())
                    .unwrap();
            let lhs = pack_rows(&kernel, m, k, &x).unwrap();
            let mut dst = vec![f32::NAN; m * n];
            // `through_c` clamps to [-3, 3].
            let clamp = Clamp {
                min: -3.0,
                max: 3.0,
            };
            api::matmul(&kernel, &lhs, &back, &mut dst, n, clamp).unwrap();
            let stem = kernel.entry().stem;
            assert_eq!(bits(&dst), bits(&c_dst), "{stem}");
            // Packed at another vector length (SME and SVE formats), or for none where this
            // kernel follows one.
            let other = if here == 0 { 16 } else { 2 * here };
            assert_eq!(
                PackedWeights::from_bytes(&kernel, n, k, bl, other, c_rhs.clone()).unwrap_err(),
                Error::VectorLengthMismatch {
                    packed: other,
                    here
                }
            );
            let short = c_rhs[..c_rhs.len() - 1].to_vec();
            assert!(matches!(
                PackedWeights::from_bytes(&kernel, n, k, bl, here, short),
                Err(Error::BufferTooSmall { .. })
            ));
            if family == Family::F32Qai8dxpQsi4c32p {
                assert!(matches!(
                    PackedWeights::from_bytes(&kernel, n, k, 48, here, c_rhs),
                    Err(Error::Precondition(_))
                ));
            }
            loaded += 1;
        }
    }
    eprintln!("RELIABILITY from_bytes {loaded}");
}

#[test]
fn misuse_is_an_error() {
    let family = Family::F32Qai8dxpQsi4cxp;
    let Ok(kernel) = Kernel::select(family, Shape::Gemm) else {
        return;
    };
    let layer = Layer::new(16, 64, 32, 7);
    let (n, k) = (16, 64);
    let size = kernel.packed_weights_size(n, k, 0).unwrap();
    let w = layer.weights(family);

    let short = PackedWeights::pack(&kernel, n, k, w, None, vec![0u8; size - 1]);
    assert!(matches!(short, Err(Error::BufferTooSmall { needed, .. }) if needed == size));
    let few_scales = Weights::Int4PerChannel {
        data: &layer.nibbles,
        scales: &layer.scales[..n - 1],
    };
    let r = PackedWeights::pack(&kernel, n, k, few_scales, None, vec![0u8; size]);
    assert_eq!(
        r.unwrap_err(),
        Error::BufferTooSmall {
            buffer: "scales",
            needed: n,
            given: n - 1
        }
    );
    let int8 = layer.weights(Family::F32Qai8dxpQsi8cxp);
    let r = PackedWeights::pack(&kernel, n, k, int8, None, vec![0u8; size]);
    assert_eq!(r.unwrap_err(), Error::FormatMismatch("weights"));
    let bias = [0.0f32; 3];
    let r = PackedWeights::pack(&kernel, n, k, w, Some(&bias), vec![0u8; size]);
    assert!(matches!(
        r,
        Err(Error::BufferTooSmall { buffer: "bias", .. })
    ));

    let packed = PackedWeights::pack(&kernel, n, k, w, None, vec![0u8; size]).unwrap();
    let m = 4;
    let x = vec![0.5f32; m * k];
    let lhs = pack_rows(&kernel, m, k, &x).unwrap();
    assert!(matches!(
        pack_rows(&kernel, m, k, &x[1..]),
        Err(Error::BufferTooSmall {
            buffer: "activations",
            ..
        })
    ));

    let mut dst = vec![0.0f32; m * n];
    assert!(matches!(
        api::matmul(&kernel, &lhs, &packed, &mut dst[1..], n, Clamp::NONE),
        Err(Error::BufferTooSmall { buffer: "dst", .. })
    ));
    assert_eq!(
        api::matmul(&kernel, &lhs, &packed, &mut dst, n - 1, Clamp::NONE),
        Err(Error::Precondition("dst_stride >= n"))
    );
    // Activations of another k.
    let x2 = vec![0.5f32; m * 2 * k];
    let lhs2 = pack_rows(&kernel, m, 2 * k, &x2).unwrap();
    assert_eq!(
        api::matmul(&kernel, &lhs2, &packed, &mut dst, n, Clamp::NONE),
        Err(Error::ShapeMismatch {
            dimension: "k",
            packed: k,
            given: 2 * k
        })
    );
    // Weights packed for a kernel of another format (nr 4, kr 8 against nr 8, kr 16...).
    let other = catalog::KERNELS
        .iter()
        .filter(|o| o.family == family)
        .filter(|o| !rkai_ukernels::select::share_rhs_format(o, kernel.entry()))
        .find_map(|o| Kernel::new(o).ok());
    if let Some(other) = other {
        assert_eq!(
            api::matmul(&other, &lhs, &packed, &mut dst, n, Clamp::NONE),
            Err(Error::FormatMismatch("packed weights"))
        );
    }
    // Block length that is not a multiple of 32: KleidiAI's condition, as an error.
    let block = Kernel::select(Family::F32Qai8dxpQsi4c32p, Shape::Gemm).unwrap();
    let odd = Weights::Int4PerBlock {
        bl: 48,
        data: &layer.nibbles,
        scales: &layer.block_scales,
    };
    let r = PackedWeights::pack(&block, n, 96, odd, None, vec![0u8; 1 << 16]);
    assert!(matches!(r, Err(Error::Precondition(_))), "{r:?}");
    // Every catalog kernel is covered: Kernel::new refuses only what this CPU cannot run.
    for entry in catalog::KERNELS {
        match Kernel::new(entry) {
            Ok(_) => assert!(support::cpu::can_run(entry.isa), "{}", entry.stem),
            Err(e) => assert_eq!(e, Error::NotSupportedByCpu(entry.stem)),
        }
    }
}

#[test]
fn misuse_of_the_2bit_form_is_an_error() {
    let Ok(kernel) = Kernel::select(Family::F32Qai8dxpQsu2cxp, Shape::Gemm) else {
        assert!(!support::cpu::can_run(
            rkai_ukernels::arch::Isa::NeonDotprod
        ));
        return;
    };
    let (n, k) = (8, 64);
    let mut rng = Rng::new(5);
    let codes: Vec<u8> = (0..n * k / 4).map(|_| rng.next_u64() as u8).collect();
    let scales = rng.vec_f32(n, 0.01, 0.1);
    let size = kernel.packed_weights_size(n, k, 0).unwrap();
    let pack = |k, w, bias| PackedWeights::pack(&kernel, n, k, w, bias, vec![0u8; size]);
    let int2 = |data, scales| Weights::Int2PerChannel {
        data,
        scales,
        values: Some([-3, -1, 1, 3]),
    };
    assert!(matches!(
        pack(k, int2(&codes[1..], &scales), None),
        Err(Error::BufferTooSmall {
            buffer: "int2 weights",
            ..
        })
    ));
    assert!(matches!(
        pack(k, int2(&codes, &scales[1..]), None),
        Err(Error::BufferTooSmall {
            buffer: "scales",
            ..
        })
    ));
    let bias = [0f32; 3];
    assert!(matches!(
        pack(k, int2(&codes, &scales), Some(&bias)),
        Err(Error::BufferTooSmall { buffer: "bias", .. })
    ));
    // K must be whole groups of 32 codes: KleidiAI's condition.
    assert_eq!(
        pack(48, int2(&codes, &scales), None).unwrap_err(),
        Error::Precondition("k % kai_k_multiple_of == 0")
    );
    let w = pack(k, int2(&codes, &scales), None).unwrap();
    assert_eq!(w.int2_values(), Some([-3, -1, 1, 3]));
    // Loaded bytes take their table back; a format without one refuses it.
    let vector_bytes = w.vector_bytes();
    let loaded = PackedWeights::from_bytes(&kernel, n, k, 0, vector_bytes, w.into_storage());
    let loaded = loaded.unwrap();
    assert_eq!(loaded.int2_values(), None);
    assert_eq!(
        loaded.with_int2_values([1, 2, 3, 4]).unwrap().int2_values(),
        Some([1, 2, 3, 4])
    );
    if let Ok(int4) = Kernel::select(Family::F32Qai8dxpQsi4cxp, Shape::Gemm) {
        let layer = Layer::new(n, k, 32, 1);
        let size = int4.packed_weights_size(n, k, 0).unwrap();
        let w = layer.weights(Family::F32Qai8dxpQsi4cxp);
        let packed = PackedWeights::pack(&int4, n, k, w, None, vec![0u8; size]).unwrap();
        assert_eq!(
            packed.with_int2_values([1, 2, 3, 4]).unwrap_err(),
            Error::FormatMismatch("2-bit value table")
        );
    }
}

#[test]
fn misuse_of_the_asymmetric_int4_form_is_an_error() {
    let (m, n, k, bl) = (3, 8, 128, 32);
    let mut rng = Rng::new(9);
    let nibbles: Vec<u8> = (0..n * k / 2).map(|_| rng.next_u64() as u8).collect();
    let scales = rng.vec_f32(n * k / bl, 0.01, 0.1);
    let zero_offsets = rng.vec_f32(n * k / bl, -0.1, 0.1);
    let x = rng.vec_f32(m * k, -1.0, 1.0);
    let x_f16: Vec<half::f16> = x.iter().map(|&v| half::f16::from_f32(v)).collect();
    let asymmetric = |bl, data, scales, zero_offsets| Weights::Int4AsymmetricPerBlock {
        bl,
        data,
        order: NibbleOrder::EvenHigh,
        scales,
        zero_offsets,
    };
    for family in [Family::F32Qsi8d32pQai4c32p, Family::F16Qsi8d32pQai4c32p] {
        let Ok(kernel) = Kernel::select(family, Shape::Gemm) else {
            continue;
        };
        let size = kernel.packed_weights_size(n, k, bl).unwrap();
        let pack = |k, w: Weights<'_>| PackedWeights::pack(&kernel, n, k, w, None, vec![0u8; size]);
        let short = |w: Weights<'_>| match pack(k, w) {
            Err(Error::BufferTooSmall { buffer, .. }) => buffer,
            other => panic!("{other:?}"),
        };
        let (z, s) = (&zero_offsets[..], &scales[..]);
        assert_eq!(short(asymmetric(bl, &nibbles[1..], s, z)), "int4 weights");
        assert_eq!(short(asymmetric(bl, &nibbles, &s[1..], z)), "block scales");
        assert_eq!(short(asymmetric(bl, &nibbles, s, &z[1..])), "zero offsets");
        // Block lengths KleidiAI refuses: not a multiple of 32, not dividing K, none.
        assert_eq!(
            pack(k, asymmetric(48, &nibbles, s, z)).unwrap_err(),
            Error::Precondition("(bl % 32) == 0")
        );
        assert_eq!(
            pack(96, asymmetric(64, &nibbles, s, z)).unwrap_err(),
            Error::Precondition("(k % bl) == 0")
        );
        assert!(matches!(
            pack(k, asymmetric(0, &nibbles, s, z)),
            Err(Error::Precondition(_))
        ));
        let packed = pack(k, asymmetric(bl, &nibbles, s, z)).unwrap();
        // Activations of another element type than the family's packer takes, and of another
        // block length than the weights'.
        let f32_rows = Activations::F32 {
            data: &x,
            stride: k,
        };
        let f16_rows = Activations::F16 {
            data: &x_f16,
            stride: k,
        };
        let (rows, other_rows) = if family == Family::F32Qsi8d32pQai4c32p {
            (f32_rows, f16_rows)
        } else {
            (f16_rows, f32_rows)
        };
        let lhs = |bl, x| {
            let size = kernel.packed_activations_size(m, k, bl).unwrap();
            PackedActivations::pack(&kernel, m, k, bl, x, vec![0u8; size])
        };
        assert_eq!(
            lhs(bl, other_rows).unwrap_err(),
            Error::FormatMismatch("activations")
        );
        let x64 = lhs(2 * bl, rows).unwrap();
        let r = if family == Family::F32Qsi8d32pQai4c32p {
            api::matmul(&kernel, &x64, &packed, &mut [0f32; 24], n, Clamp::NONE)
        } else {
            let mut dst = [half::f16::ZERO; 24];
            api::matmul(&kernel, &x64, &packed, &mut dst, n, Clamp::NONE)
        };
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
    // The NEON kernels' packer takes the even input in the high nibble only.
    let stem = "matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod";
    if let Some(neon) = kernel_named(stem) {
        let size = neon.packed_weights_size(n, k, bl).unwrap();
        let even_low = Weights::Int4AsymmetricPerBlock {
            bl,
            data: &nibbles,
            order: NibbleOrder::EvenLow,
            scales: &scales,
            zero_offsets: &zero_offsets,
        };
        let r = PackedWeights::pack(&neon, n, k, even_low, None, vec![0u8; size]);
        assert_eq!(r.unwrap_err(), Error::FormatMismatch("weights"));
    }
}

#[test]
fn kernels_the_cpu_lacks_are_refused() {
    for k in catalog::KERNELS
        .iter()
        .filter(|k| k.family == Family::F32Qai8dxpQsi4cxp)
    {
        let ok = Kernel::new(k).is_ok();
        assert_eq!(ok, support::cpu::can_run(k.isa), "{}", k.stem);
    }
}
