//! KleidiAI's SME f32 GEMMs with both operands packed (`matmul_clamp_f32_f32p_f32p`: the
//! `f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa` and `f32p2vlx1_f32p2vlx1biasf32_sme2_mopa` kernels)
//! with their packers (`lhs_pack_f32p2vlx1_f32_sme`, `rhs_pack_{kxn,nxk}_f32p2vlx1biasf32_f32_f32_sme`,
//! whose bytes `tests/suite/f32_sme_pack.rs` checks) through their C symbols, at the streaming vector
//! length of the CPU running the test (`scripts/test-all.sh` runs it at every one): getters equal
//! KleidiAI's formulas and measured tiles; every kernel (exported, and the portable path) equals
//! the scalar reference bit for bit (`FMOPA`'s fused steps from the bias in a zeroed ZA tile,
//! then `FMIN`/`FMAX` or `FCLAMP`) for edge shapes around the tile, portions, guard pages,
//! canaries, hostile values and inverted clamps; threads, callee-saved registers and a caller's
//! pending lazy ZA save; invalid arguments abort naming the assertion. The harness is
//! `support/packed_float.rs`, shared with the f16 family.

use crate::support;

use rkai_ukernels::family::Family;
use support::packed_float as pf;

const FAMILY: Family = Family::F32F32pF32p;

packed_float_tests!(
    family: FAMILY,
    dst_type: "float",
    what: "SME f32 contract violations",
);

/// Fused steps: on these values a product rounded before its sum gives other bits.
#[test]
fn wide_exponent_ranges_round_once_per_step() {
    let cases = pf::wide_values_round_as_the_model(FAMILY, f32::from_bits);
    eprintln!("RELIABILITY hostile {cases}");
}
