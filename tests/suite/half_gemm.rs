//! The f16 GEMM family `matmul_clamp_f16_f16_f16p` and its RHS packers, through the exported C
//! symbols: getters and packed sizes equal KleidiAI's measured values, packed bytes equal the
//! reference, results equal the per-step-rounded f16 reference bit for bit, portions write only
//! themselves, buffers sit against guard pages, callee-saved registers survive, and invalid
//! arguments abort naming the condition. On CPUs without FEAT_FP16 the kernels are skipped
//! (the catalog refuses them); the portable implementation runs everywhere. The checks
//! themselves are shared with the f32 family (`support::float_family`).

use crate::support;

use rkai_ukernels::family::Family;
use rkai_ukernels::reference::half_gemm as reference;
use support::float_family::{self as harness, FloatFamily, FloatModel, Problem, Reference};
use support::guard::Edge;
use support::rng::Rng;

/// `matmul_clamp_f16_f16_f16p`: f16 bits, the reference rounding every step to f16.
struct F16;

impl FloatModel for F16 {
    type T = u16;
    const LABEL: &'static str = "f16";
    const REFERENCE: Reference<u16> = reference::matmul;
}

impl FloatFamily for F16 {
    const FAMILY: Family = Family::F16F16F16p;
    const C_TYPE: &'static str = "uint16_t";
    /// A whole 32-column group.
    const EXTRA_PACK_SHAPES: &'static [(usize, usize)] = &[(32, 8)];
    /// A column group and a half, and a K tail of 4 in the 8-step loop.
    const EXTRA_SHAPES: &'static [(usize, usize, usize)] = &[(6, 48, 12)];
    const PORTABLE_TOO: bool = true;
    const REGISTER_SHAPES: [(usize, usize, usize); 3] = [(1, 8, 3), (7, 33, 9), (12, 40, 64)];
    const STRIDE_COL_N: usize = 40;
}

float_family_tests!(F16, kernels = 3, packers = 3);

/// Where FEAT_FP16 is missing the exported kernels must not run: the catalog marks them as
/// needing it, and the selection never offers them.
#[test]
fn kernels_need_fp16() {
    for k in harness::kernels::<F16>() {
        assert_eq!(k.isa, rkai_ukernels::arch::Isa::NeonFp16, "{}", k.stem);
    }
    if cfg!(target_arch = "aarch64")
        && !support::cpu::features().contains(rkai_ukernels::arch::Isa::NeonFp16.features())
    {
        assert!(harness::runnable::<F16>().is_empty());
    }
}

/// Long sums that overflow and cancel: the per-step rounding is what the kernels do.
#[test]
fn large_values_round_at_every_step() {
    let mut cases = 0;
    for (k, impls) in harness::hostile_impls::<F16>() {
        let t = k.tile();
        let (m, n, kk) = (6, t.n_step, 200);
        let mut p = Problem::<F16>::new(m, n, kk, 0, true, 31);
        let mut rng = Rng::new(32);
        p.lhs = harness::random(&mut rng, p.lhs.len(), -40.0, 40.0);
        p.w = harness::random(&mut rng, p.w.len(), -30.0, 30.0);
        let rhs = harness::pack(&p, k.rhs_packers[0], Edge::End);
        cases += harness::check_whole(k, &impls, &p, &rhs, (f32::NEG_INFINITY, f32::INFINITY));
    }
    eprintln!("large-value f16 cases: {cases}");
    eprintln!("RELIABILITY hostile {cases}");
}
