//! `kai_matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55`: the 6 x 32 f16 GEMM scheduled
//! for the in-order Cortex-A55 (same packed format, same numerics as the generic variant), built
//! like the f32 A55 kernel with 8 K values (two 64-bit LHS halves) per iteration.
//!
//! The A55 issues two instructions per cycle in order, but a 128-bit load cannot pair with
//! anything and holds the pipeline for two cycles, while 64-bit vector loads, integer loads and
//! `INS` from a general register pair with an `FMLA` (Arm's A55 optimisation guide; the same
//! trick as KleidiAI's and Arm Compute Library's A55 kernels). So this loop never loads 128 bits:
//!
//! * each packed RHS vector arrives as `ldr d` (low half, into the B register freed by the
//!   previous vector) plus `ins v.d[1], x` of a high half loaded two vectors ahead
//!   (`in_order_vector!`);
//! * each LHS row is loaded 64 bits (4 K values) at a time with `ldr d` straight into `v0`..`v5`,
//!   right after the row's last `FMLA` of the previous 4 K values; the `FMLA`s by element use
//!   lanes 0 to 3 only, so the LHS needs no `INS` (Neoverse V1 runs every `INS` from a general
//!   register on its single M0 pipe: 32 an iteration here, all for the RHS).
//!
//! 192 `FMLA`s carry 108 loads and `INS`es per iteration (8 K values), so on the A55 the loop
//! is bound by its `FMLA`s. An out-of-order core gains nothing from this and pays for the extra
//! instructions: use the generic variant there.
//!
//! Registers as in the generic variant (`v8`..`v31` accumulators, `v0`..`v5` LHS, `v6`/`v7` RHS);
//! the iteration that has no successor runs a copy of the body without the prefetches, so nothing
//! past the K range or the packed group is read.

/// One iteration of the K loop: with (`with`) or without (`without`) the loads of the next
/// iteration's LHS half and first RHS vector, which the last iteration must not make. Vector `j`
/// (K value `j / 4`, columns `4 * (j % 4)`..) loads the low half of vector `j + 1` and the high
/// half of vector `j + 2`; vector 15 refills the LHS rows with their second half (`x27` =
/// `x20 + 8`), vector 31 with the next iteration's first half (`x20` advanced by 16 bytes).
#[rustfmt::skip]
macro_rules! k_block {
    ($p:ident) => { concat!(
        in_order_vector!(f16 "0", "0", even; with "16", with "40"),
        in_order_vector!(f16 "0", "1", odd; with "32", with "56"),
        in_order_vector!(f16 "0", "2", even; with "48", with "72"),
        in_order_vector!(f16 "0", "3", odd; with "64", with "88"),
        in_order_vector!(f16 "1", "0", even; with "80", with "104"),
        in_order_vector!(f16 "1", "1", odd; with "96", with "120"),
        in_order_vector!(f16 "1", "2", even; with "112", with "136"),
        in_order_vector!(f16 "1", "3", odd; with "128", with "152"),
        in_order_vector!(f16 "2", "0", even; with "144", with "168"),
        in_order_vector!(f16 "2", "1", odd; with "160", with "184"),
        in_order_vector!(f16 "2", "2", even; with "176", with "200"),
        in_order_vector!(f16 "2", "3", odd; with "192", with "216"),
        in_order_vector!(f16 "3", "0", even; with "208", with "232"),
        in_order_vector!(f16 "3", "1", odd; with "224", with "248"),
        in_order_vector!(f16 "3", "2", even; with "240", with "264"),
        in_order_vector!(f16 "3", "3", odd; with "256", with "280"; lhs with "x27"),
        in_order_vector!(f16 "0", "0", even; with "272", with "296"; then "add x20, x20, #16"),
        in_order_vector!(f16 "0", "1", odd; with "288", with "312"; then "add x27, x20, #8"),
        in_order_vector!(f16 "0", "2", even; with "304", with "328"),
        in_order_vector!(f16 "0", "3", odd; with "320", with "344"),
        in_order_vector!(f16 "1", "0", even; with "336", with "360"),
        in_order_vector!(f16 "1", "1", odd; with "352", with "376"),
        in_order_vector!(f16 "1", "2", even; with "368", with "392"),
        in_order_vector!(f16 "1", "3", odd; with "384", with "408"),
        in_order_vector!(f16 "2", "0", even; with "400", with "424"),
        in_order_vector!(f16 "2", "1", odd; with "416", with "440"),
        in_order_vector!(f16 "2", "2", even; with "432", with "456"),
        in_order_vector!(f16 "2", "3", odd; with "448", with "472"),
        in_order_vector!(f16 "3", "0", even; with "464", with "488"),
        in_order_vector!(f16 "3", "1", odd; with "480", with "504"),
        in_order_vector!(f16 "3", "2", even; with "496", $p "520"),
        in_order_vector!(f16 "3", "3", odd; $p "512", $p "536"; lhs $p "x20"),
        "add x16, x16, #512\n",
    ) };
}

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 32`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety), on a CPU implementing FEAT_FP16.
    #[target_feature(enable = "fp16")]
    fn matmul_f16_f16p32x1b_6x32_a55: f16, 6 x 32, "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55", in_order k_block;
}
