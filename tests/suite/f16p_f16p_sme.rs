//! KleidiAI's SME f16 GEMMs with both operands packed (`matmul_clamp_f16_f16p_f16p`: the
//! `f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa` and `f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa` kernels)
//! with their packers (`lhs_pack_x16p2vlx2_x16_sme`, `rhs_pack_{kxn,nxk}_x16p2vlx2b_x16_x16_sme`,
//! whose bytes `tests/suite/x16p2vlx2_pack.rs` checks) through their C symbols, at the streaming vector
//! length of the CPU running the test (`scripts/test-all.sh` runs it at every one): getters equal
//! KleidiAI's formulas and measured tiles; every kernel (exported, and the portable path) equals
//! the scalar reference bit for bit (widening `FMOPA` steps into f32 from the bias in a zeroed ZA
//! tile, as the architecture and QEMU define them, then `FCVT` to f16 and the clamp on halves)
//! for edge shapes around the tile (odd K included), portions, guard pages, canaries, hostile
//! values and inverted clamps; threads, callee-saved registers and a caller's pending lazy ZA
//! save; invalid arguments abort naming the assertion. The harness is `support/packed_float.rs`,
//! shared with the f32 family.

use crate::support;

use rkai_ukernels::family::Family;
use rkai_ukernels::float::f16;
use support::packed_float::{self as pf, Problem, Sme, tile};
use support::tester::{self, Depth, PackedFamily};

const FAMILY: Family = Family::F16F16pF16p;

packed_float_tests!(
    family: FAMILY,
    dst_type: "uint16_t",
    what: "SME f16 contract violations",
);

/// Sums over a wide exponent range: the model (each pair rounded once to f32, then added) gives
/// other bits than f32 products added one by one, and the kernels follow the model.
#[test]
fn wide_exponent_ranges_round_each_pair_once() {
    let h = |x: u32| f32::from_bits(f16::to_f32_bits(x as u16));
    let cases = pf::wide_values_round_as_the_model(FAMILY, h);
    eprintln!("RELIABILITY hostile {cases}");
}

/// The clamp bounds are narrowed to f16 before the clamp (ties to even, signalling NaNs
/// quieted), and the clamp runs on narrowed results: bounds between two halves, NaN bounds and
/// results that round onto a bound.
#[test]
fn bounds_are_narrowed_before_the_clamp() {
    let t = tile();
    let mut cases = 0;
    for (k, which) in pf::implementations(FAMILY) {
        let p = Problem::new(k, (t + 1, t + 2, 5), 0, pf::Values::Normal, 21);
        let clamps = [
            (-0.300_01, 0.300_01),
            (f32::from_bits(0x7f80_0001), 1.0),
            (-1.0, f32::from_bits(0xffc1_2345)),
            (65519.0, 65520.0),
            (1e-8, 2e-8),
        ];
        // The NaN bounds only, where not every case runs.
        let depth = Depth::of(k);
        let clamps = match depth {
            Depth::Every => &clamps[..],
            Depth::Once => &clamps[1..3],
        };
        for &clamp in clamps {
            let expect = Sme::expected(k, &p, clamp);
            cases += tester::check_problem::<Sme>(depth, k, &p, clamp, &expect, &[which]);
        }
    }
    eprintln!("RELIABILITY hostile {cases}");
}
