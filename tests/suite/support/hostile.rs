//! Hostile inputs (issue 7) the quantized families share: activations with NaN, +-Inf,
//! denormals, all-zero rows and values near f32::MAX; zero, denormal, huge, infinite and NaN
//! weight scales; non-finite biases. A family adds the scenarios only its format has.

use super::gemm::Impl;
use rkai_ukernels::kernel::MatmulKernel;

/// f32 bit patterns a copy must carry unchanged (for `sme_pack::bit_patterns`): a quiet NaN with
/// a payload, -inf, -0, the smallest subnormal and +inf.
pub const F32_SPECIALS: [u32; 5] = [
    0x7fc0_0001,
    0xff80_0000,
    0x8000_0000,
    0x0000_0001,
    0x7f80_0000,
];

/// The shared scenarios, in the order the families run them.
pub const SCENARIOS: [&str; 12] = [
    "lhs_nan",
    "lhs_inf",
    "lhs_neg_inf",
    "lhs_denormal",
    "lhs_zero_rows",
    "lhs_huge",
    "scale_zero",
    "scale_denormal",
    "scale_huge",
    "scale_inf",
    "scale_nan",
    "bias_non_finite",
];

/// The parts of a problem the shared scenarios rewrite.
pub struct Operands<'a> {
    /// Activations, rows of `k`.
    pub lhs: &'a mut [f32],
    pub k: usize,
    /// Per-column bias of `n` values (made 0.5 where absent).
    pub bias: &'a mut Option<Vec<f32>>,
    pub n: usize,
}

/// Applies shared scenario `scenario` to `o`, the scale scenarios through `set_scale` (the
/// family knows which of its scales to overwrite); false for a scenario that is not shared.
pub fn apply(scenario: &str, o: Operands, set_scale: impl FnOnce(f32)) -> bool {
    let Operands { lhs, k, bias, n } = o;
    match scenario {
        "lhs_nan" => lhs[k / 2] = f32::NAN,
        "lhs_inf" => lhs[k - 1] = f32::INFINITY,
        "lhs_neg_inf" => lhs[0] = f32::NEG_INFINITY,
        "lhs_denormal" => lhs.iter_mut().for_each(|v| *v *= 1e-39),
        "lhs_zero_rows" => lhs.iter_mut().step_by(2).for_each(|v| *v = 0.0),
        "lhs_huge" => lhs.iter_mut().for_each(|v| *v *= 6e37),
        "scale_zero" => set_scale(0.0),
        "scale_denormal" => set_scale(1e-39),
        "scale_huge" => set_scale(3e38),
        "scale_inf" => set_scale(f32::INFINITY),
        "scale_nan" => set_scale(f32::NAN),
        "bias_non_finite" => {
            let bias = bias.get_or_insert_with(|| vec![0.5; n]);
            bias[0] = f32::NAN;
            if n > 1 {
                bias[1] = f32::NEG_INFINITY;
            }
        }
        _ => return false,
    }
    true
}

/// Runs `check` (the hostile cases of one kernel with one implementation, returning how many)
/// on the exported symbols of `runnable` and on the portable implementation of `all`, and
/// prints the `RELIABILITY` count.
pub fn check_exported_and_portable<'a>(
    runnable: impl IntoIterator<Item = &'a MatmulKernel>,
    all: impl IntoIterator<Item = &'a MatmulKernel>,
    check: impl Fn(&MatmulKernel, Impl) -> usize,
) {
    let exported: usize = runnable.into_iter().map(|k| check(k, Impl::Exported)).sum();
    let portable: usize = all.into_iter().map(|k| check(k, Impl::Portable)).sum();
    eprintln!("RELIABILITY hostile {}", exported + portable);
}
