//! The safe API's saved, partial and paired operands: packed activations loaded back from their
//! bytes (`PackedActivations::from_bytes`, with the vector length they were packed at) and
//! output column ranges (`api::matmul_columns`), each checked against the whole computation on
//! the same operands, for every kernel of a few families this CPU runs (narrowed by
//! `RKAI_TEST_KERNEL`): NEON, SVE and SME kernels whose activations follow the streaming length
//! or none; the int8 GEMV/GEMM pair `select_pair` gives; plan sides run with an int8 output
//! stage.

use crate::support;

use crate::qai8_sme::Problem;
use rkai_ukernels::api::{
    self, Activations, Bias, Clamp, Error, InputQuantization, Kernel, Lhs, PackedActivations,
    PackedWeights, Requantize, WeightLayout, Weights,
};
use rkai_ukernels::catalog::KERNELS;
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::{MatmulKernel, Rows};
use rkai_ukernels::matmul::matmul_clamp_qai8_qai8p_qsi8cxp::clamp_order;
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind};
use support::rng::Rng;

/// Families with f32 output whose activations are packed from f32 rows: per-channel int4 (NEON,
/// SVE, SME GEMMs whose row tile follows the streaming length, SME GEMVs whose does not) and
/// the float GEMMs (NEON and SME packers).
const FAMILIES: [Family; 3] = [
    Family::F32Qai8dxpQsi4cxp,
    Family::F32F32pF32p,
    Family::F32Bf16pBf16p,
];

/// One layer's weights in the source forms those families take, and its f32 activations.
struct Layer {
    n: usize,
    k: usize,
    nibbles: Vec<u8>,
    scales: Vec<f32>,
    w_nxk: Vec<f32>,
    bias: Vec<f32>,
    x: Vec<f32>,
}

impl Layer {
    fn new(n: usize, k: usize, seed: u64) -> Layer {
        let mut rng = Rng::new(seed);
        Layer {
            n,
            k,
            nibbles: (0..n * k.div_ceil(2))
                .map(|_| rng.next_u64() as u8)
                .collect(),
            scales: rng.vec_f32(n, 0.001, 0.02),
            w_nxk: rng.vec_f32(n * k, -1.0, 1.0),
            bias: rng.vec_f32(n, -1.0, 1.0),
            x: rng.vec_f32(MAX_M * k, -2.0, 2.0),
        }
    }

    /// The weights in the first form a packer of `kernel` takes.
    fn weights(&self, kernel: &MatmulKernel) -> Option<Weights<'_>> {
        let forms = [
            Weights::Int4PerChannel {
                data: &self.nibbles,
                scales: &self.scales,
            },
            Weights::F32 {
                data: &self.w_nxk,
                layout: WeightLayout::Nxk,
                bias: Some(Bias::F32(&self.bias)),
            },
            // The same values read as k rows of n: random weights either way.
            Weights::F32 {
                data: &self.w_nxk,
                layout: WeightLayout::Kxn,
                bias: Some(Bias::F32(&self.bias)),
            },
        ];
        forms.into_iter().find(|w| {
            (kernel.rhs_packers.iter())
                .any(|p| matches!(p.kind, PackerKind::Rhs(r) if w.packed_by(r)))
        })
    }

    fn rows(&self) -> Activations<'_> {
        Activations::F32 {
            data: &self.x,
            stride: self.k,
        }
    }

    /// `kernel`'s weights packed (with the bias where the form has none of its own).
    fn packed_weights(&self, kernel: &Kernel) -> Option<PackedWeights<Vec<u8>>> {
        let weights = self.weights(kernel.entry())?;
        let bias = matches!(weights, Weights::Int4PerChannel { .. }).then_some(&self.bias[..]);
        let size = kernel.packed_weights_size(self.n, self.k, 0).unwrap();
        Some(PackedWeights::pack(kernel, self.n, self.k, weights, bias, vec![0u8; size]).unwrap())
    }

    /// The first `m` rows packed for `kernel`.
    fn packed_activations(&self, kernel: &Kernel, m: usize) -> PackedActivations<Vec<u8>> {
        let size = kernel.packed_activations_size(m, self.k, 0).unwrap();
        PackedActivations::pack(kernel, m, self.k, 0, self.rows(), vec![0; size]).unwrap()
    }
}

/// Rows of the activations: more than one row block of every kernel at 128-bit vectors, and
/// part of one.
const MAX_M: usize = 11;

/// The rows `kernel` takes: [`MAX_M`], or one for a GEMV that asserts it.
fn rows_of(kernel: &Kernel) -> usize {
    match kernel.entry().rows {
        Rows::Any => MAX_M,
        Rows::One => 1,
    }
}

/// The kernels of [`FAMILIES`] this CPU runs whose activations are packed from f32 rows.
fn kernels() -> Vec<Kernel> {
    let entries = KERNELS
        .iter()
        .copied()
        .filter(|k| FAMILIES.contains(&k.family));
    support::tester::narrowed(entries)
        .filter_map(|entry| Kernel::new(entry).ok())
        .filter(|kernel| kernel.reads_packed_lhs())
        .collect()
}

/// Whether the row tile of the activations `kernel` packs is a number of streaming vectors:
/// the SME packers', whatever the kernel, and the outer-product kernels' (whose `mr` is).
fn rows_follow_streaming_length(kernel: &MatmulKernel) -> bool {
    let sme_packer = kernel.lhs_packers.iter().any(|p| {
        matches!(
            p.kind,
            PackerKind::Lhs(LhsPackerKind::SmeRows(_) | LhsPackerKind::IndirectSmeRows(_))
        ) || matches!(p.kind, PackerKind::Lhs(LhsPackerKind::Bf16(v)) if v.is_sme())
    });
    sme_packer || kernel.tile().mr > kernel.base_tile.mr
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

const CLAMP: Clamp = Clamp {
    min: -20.0,
    max: 20.0,
};

// ---------------------------------------------------------------------------------------------
// Packed activations from bytes

/// Activations packed, kept as bytes and loaded back with the vector length they were packed at
/// compute the bits of the original; another vector length, short storage and a kernel that
/// reads rows as they are are refused.
#[test]
fn packed_activations_load_back_with_their_vector_length() {
    let layer = Layer::new(9, 64, 11);
    let mut loaded = 0;
    for kernel in kernels() {
        let stem = kernel.entry().stem;
        let Some(rhs) = layer.packed_weights(&kernel) else {
            continue;
        };
        let m = rows_of(&kernel);
        let lhs = layer.packed_activations(&kernel, m);
        // The streaming vector the kernel's weights follow too, where the rows follow it.
        let expected = if rows_follow_streaming_length(kernel.entry()) {
            rhs.vector_bytes()
        } else {
            0
        };
        assert_eq!(lhs.vector_bytes(), expected, "{stem}");
        let (k, here) = (layer.k, lhs.vector_bytes());
        let saved = lhs.bytes().to_vec();
        let back = PackedActivations::from_bytes(&kernel, m, k, 0, here, saved.clone()).unwrap();
        assert_eq!((back.m(), back.k(), back.vector_bytes()), (m, k, here));
        let mut whole = vec![f32::NAN; m * layer.n];
        api::matmul(&kernel, &lhs, &rhs, &mut whole, layer.n, CLAMP).unwrap();
        let mut again = vec![f32::NAN; m * layer.n];
        api::matmul(&kernel, &back, &rhs, &mut again, layer.n, CLAMP).unwrap();
        assert_eq!(bits(&again), bits(&whole), "{stem}");
        // Packed at another vector length, or for none where these rows follow one.
        let other = if here == 0 { 16 } else { 2 * here };
        assert_eq!(
            PackedActivations::from_bytes(&kernel, m, k, 0, other, saved.clone()).unwrap_err(),
            Error::VectorLengthMismatch {
                packed: other,
                here
            },
            "{stem}"
        );
        let short = saved[..saved.len() - 1].to_vec();
        assert!(
            matches!(
                PackedActivations::from_bytes(&kernel, m, k, 0, here, short),
                Err(Error::BufferTooSmall { .. })
            ),
            "{stem}"
        );
        loaded += 1;
    }
    // The f32 GEMM reads its rows as they are: there are no packed bytes to load.
    if let Ok(rows_kernel) = Kernel::select(Family::F32F32F32p, rkai_ukernels::select::Shape::Gemm)
    {
        assert_eq!(
            PackedActivations::from_bytes(&rows_kernel, 1, 4, 0, 0, vec![0u8; 64]).unwrap_err(),
            Error::LhsForm {
                kernel_reads_packed: false
            }
        );
    }
    eprintln!("RELIABILITY packed activations from bytes {loaded}");
    assert!(loaded > 0 || !support::cpu::can_run(rkai_ukernels::arch::Isa::NeonDotprod));
}

// ---------------------------------------------------------------------------------------------
// Column ranges

/// Column ranges computed apart (`matmul_columns`: the first step, the rest, and one step in the
/// middle) write the bits of the whole matmul in their columns and nothing elsewhere; a start
/// off the kernel's step and an end past `n` are refused with KleidiAI's conditions.
#[test]
fn column_ranges_write_their_columns_of_the_whole_result() {
    let mut ranges = 0;
    for kernel in kernels() {
        let stem = kernel.entry().stem;
        let step = kernel.entry().tile().n_step;
        // Two whole steps and a partial one.
        let n = 2 * step + 3;
        let layer = Layer::new(n, 32, n as u64);
        let Some(rhs) = layer.packed_weights(&kernel) else {
            continue;
        };
        let m = rows_of(&kernel);
        let lhs = layer.packed_activations(&kernel, m);
        let mut whole = vec![f32::NAN; m * n];
        api::matmul(&kernel, &lhs, &rhs, &mut whole, n, CLAMP).unwrap();
        let mut halves = vec![f32::NAN; m * n];
        for columns in [0..step, step..n] {
            api::matmul_columns(&kernel, &lhs, &rhs, &mut halves, n, CLAMP, columns).unwrap();
        }
        assert_eq!(bits(&halves), bits(&whole), "{stem}");
        let middle = step..2 * step;
        let mut one = vec![f32::NAN; m * n];
        api::matmul_columns(&kernel, &lhs, &rhs, &mut one, n, CLAMP, middle.clone()).unwrap();
        for (i, (got, want)) in one.iter().zip(&whole).enumerate() {
            if middle.contains(&(i % n)) {
                assert_eq!(got.to_bits(), want.to_bits(), "{stem}: element {i}");
            } else {
                assert!(
                    got.is_nan(),
                    "{stem}: element {i} outside the columns written"
                );
            }
        }
        // Empty ranges write nothing, wherever they start (n itself is off the kernel's step).
        for empty in [0..0, n..n, 1..1] {
            let mut none = vec![f32::NAN; m * n];
            api::matmul_columns(&kernel, &lhs, &rhs, &mut none, n, CLAMP, empty).unwrap();
            assert!(none.iter().all(|v| v.is_nan()), "{stem}: empty range wrote");
        }
        let mut dst = vec![0f32; m * n];
        let mut refused = |columns| {
            api::matmul_columns(&kernel, &lhs, &rhs, &mut dst, n, CLAMP, columns).unwrap_err()
        };
        if step > 1 {
            let off_step = refused(1..n);
            assert!(
                matches!(off_step, Error::Precondition(c) if c.starts_with("(n_idx % ")),
                "{stem}: {off_step:?}"
            );
        }
        assert_eq!(
            refused(0..n + 1),
            Error::Precondition("n_start + n_len <= n")
        );
        ranges += 1;
    }
    eprintln!("RELIABILITY column ranges {ranges}");
    assert!(ranges > 0 || !support::cpu::can_run(rkai_ukernels::arch::Isa::NeonDotprod));
}

// ---------------------------------------------------------------------------------------------
// The int8 GEMV/GEMM pair

/// The problem's weights packed for `kernel` and its output stage, in the safe API's types.
fn int8_operands(kernel: &Kernel, p: &Problem) -> (PackedWeights<Vec<u8>>, Requantize) {
    let input = InputQuantization {
        zero_point: i8::try_from(p.lhs_zero_point).unwrap(),
        scale_multiplier: p.scale_multiplier,
    };
    let weights = Weights::Int8Requantized {
        data: &p.rhs,
        scales: &p.scale,
        bias: &p.bias,
        input,
    };
    let size = kernel.packed_weights_size(p.n, p.k, 0).unwrap();
    let packed = PackedWeights::pack(kernel, p.n, p.k, weights, None, vec![0u8; size]).unwrap();
    let byte = |v: i32| i8::try_from(v).unwrap();
    let requantize = Requantize {
        min: byte(p.params.min_value),
        max: byte(p.params.max_value),
        zero_point: byte(p.params.output_zero_point),
    };
    (packed, requantize)
}

/// The pair the int8 operands run through, from `select_pair` of `family`, with one packing of
/// the problem's weights (for the GEMM) and the bytes each kernel writes for the problem.
fn int8_pair_outputs(family: Family, p: &Problem) -> Option<[(Kernel, Vec<u8>); 2]> {
    let (gemv, gemm) = Kernel::select_pair(family).ok()?;
    let (packed, requantize) = int8_operands(&gemm, p);
    let rows = Activations::Int8 {
        data: &p.lhs,
        stride: p.k,
    };
    let run = |kernel: Kernel| {
        let mut dst = vec![0i8; p.m * p.n];
        if kernel.reads_packed_lhs() {
            let size = kernel.packed_activations_size(p.m, p.k, 0).unwrap();
            let x = PackedActivations::pack(&kernel, p.m, p.k, 0, rows, vec![0u8; size]).unwrap();
            api::matmul_requantized(&kernel, &x, &packed, &mut dst, p.n, requantize).unwrap();
        } else {
            // The GEMV: one row as it is.
            let (m, k) = (1, p.k);
            api::matmul_requantized(
                &kernel,
                Lhs::Rows { m, k, rows },
                &packed,
                &mut dst,
                p.n,
                requantize,
            )
            .unwrap();
        }
        (kernel, dst.iter().map(|&v| v as u8).collect())
    };
    Some([run(gemv), run(gemm)])
}

/// `select_pair` of either int8-output family gives the SME GEMM with the SME2 GEMV that reads
/// its packed weights where SME2 runs (the GEMM standing in for a GEMV where only SME does): one
/// packing serves both, and each writes the reference's bytes.
#[test]
fn the_int8_families_pair_the_gemm_with_the_int8_gemv() {
    let p = Problem::random(1, 3 * 16 * 4 + 5, 45, 0x1a);
    let Some(from_gemm) = int8_pair_outputs(Family::Qai8Qai8pQsi8cxp, &p) else {
        // No SME (or, off AArch64, no kernel that follows no vector length): neither family.
        assert!(Kernel::select_pair(Family::Qai8Qai8Qsi8cxp).is_err());
        return;
    };
    let [(gemv, gemv_bytes), (gemm, gemm_bytes)] = &from_gemm;
    let sme2 = support::cpu::can_run(rkai_ukernels::arch::Isa::Sme2);
    assert_eq!(
        gemv.entry().family == Family::Qai8Qai8Qsi8cxp,
        sme2,
        "{}",
        gemv.entry().stem
    );
    assert!(gemv.entry().tile().m_step == 1 || std::ptr::eq(gemv.entry(), gemm.entry()));
    for (kernel, bytes) in [(gemv, gemv_bytes), (gemm, gemm_bytes)] {
        let expected = p.reference(clamp_order(kernel.entry()));
        assert_eq!(bytes, &expected, "{}", kernel.entry().stem);
    }
    if sme2 {
        // From the GEMV's family: the same pair.
        let from_gemv = int8_pair_outputs(Family::Qai8Qai8Qsi8cxp, &p).unwrap();
        let stems = |pair: &[(Kernel, Vec<u8>); 2]| pair.clone().map(|(k, _)| k.entry().stem);
        assert_eq!(stems(&from_gemv), stems(&from_gemm));
    }
}

// ---------------------------------------------------------------------------------------------
// Plan sides with an output stage

/// `parallel::run_sides` with a `Requantize` stage: an int8 GEMM's columns as two sides (each
/// on its own threads) write the bytes of `matmul_requantized` over the whole output; a float
/// stage for an int8 kernel is refused.
#[test]
fn plan_sides_requantize_int8_kernels() {
    let Some(kernel) = KERNELS
        .iter()
        .filter(|k| k.family == Family::Qai8Qai8pQsi8cxp)
        .find_map(|k| Kernel::new(k).ok())
    else {
        return;
    };
    let step = kernel.entry().tile().n_step;
    let p = Problem::random(
        2 * kernel.entry().tile().m_step + 1,
        2 * step + 3,
        19,
        0x51de,
    );
    let (rhs, requantize) = int8_operands(&kernel, &p);
    let rows = Activations::Int8 {
        data: &p.lhs,
        stride: p.k,
    };
    let size = kernel.packed_activations_size(p.m, p.k, 0).unwrap();
    let lhs = PackedActivations::pack(&kernel, p.m, p.k, 0, rows, vec![0u8; size]).unwrap();
    let mut whole = vec![0i8; p.m * p.n];
    api::matmul_requantized(&kernel, &lhs, &rhs, &mut whole, p.n, requantize).unwrap();
    let side = |columns, threads| api::parallel::Side {
        kernel: &kernel,
        lhs: &lhs,
        rhs: &rhs,
        threads,
        columns,
    };
    let sides = [side((0, step), 2), side((step, p.n), 3)];
    let mut dst = vec![0x5ai8; p.m * p.n];
    api::parallel::run_sides(&sides, &mut dst, p.n, requantize).unwrap();
    assert_eq!(dst, whole, "{}", kernel.entry().stem);
    let bytes: Vec<u8> = whole.iter().map(|&v| v as u8).collect();
    assert_eq!(bytes, p.reference(clamp_order(kernel.entry())));
    assert_eq!(
        api::parallel::run_sides(&sides, &mut dst, p.n, CLAMP).unwrap_err(),
        Error::OutputStage {
            kernel_requantizes: true
        }
    );
}
