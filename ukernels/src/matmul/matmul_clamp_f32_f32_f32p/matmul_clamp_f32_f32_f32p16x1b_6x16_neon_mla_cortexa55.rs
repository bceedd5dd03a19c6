//! `kai_matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55`: the 6 x 16 f32 GEMM scheduled
//! for the in-order Cortex-A55 (same packed format, same numerics as the generic variant).
//!
//! The A55 issues two instructions per cycle in order, but a 128-bit load cannot pair with
//! anything and holds the pipeline for two cycles, while 64-bit vector loads, integer loads and
//! `INS` from a general register pair with an `FMLA` (Arm's A55 optimisation guide; the same
//! trick as KleidiAI's and Arm Compute Library's A55 kernels). So this loop never loads 128 bits:
//!
//! * each packed RHS vector arrives as `ldr d` (low half, into the B register freed by the
//!   previous vector) plus `ins v.d[1], x` of a high half loaded two vectors ahead
//!   (`in_order_vector!`);
//! * each LHS row is loaded 64 bits (2 K values) at a time with `ldr d` straight into `v0`..`v5`,
//!   right after the row's last `FMLA` of the previous 2 K values; the `FMLA`s by element use
//!   lanes 0 and 1 only, so the LHS needs no `INS` (Neoverse V1 runs every `INS` from a general
//!   register on its single M0 pipe: 16 an iteration here, all for the RHS).
//!
//! 96 `FMLA`s carry 60 loads and `INS`es per iteration (4 K values), so on the A55 the loop
//! is bound by its `FMLA`s. An out-of-order core gains nothing from this and pays for the extra
//! instructions: use the generic variant there.
//!
//! Registers as in the generic variant (`v8`..`v31` accumulators, `v0`..`v5` LHS, `v6`/`v7` RHS);
//! the iteration that has no successor runs a copy of the body without the prefetches, so nothing
//! past the K range or the packed group is read.

/// One iteration of the K loop: with (`with`) or without (`without`) the loads of the next
/// iteration's LHS half and first RHS vector, which the last iteration must not make. Vector `j`
/// (K value `j / 4`, columns `4 * (j % 4)`..) loads the low half of vector `j + 1` and the high
/// half of vector `j + 2`; vector 7 refills the LHS rows with their second half (`x27` =
/// `x20 + 8`), vector 15 with the next iteration's first half (`x20` advanced by 16 bytes).
#[rustfmt::skip]
macro_rules! k_block {
    ($p:ident) => { concat!(
        in_order_vector!(f32 "0", "0", even; with "16", with "40"),
        in_order_vector!(f32 "0", "1", odd; with "32", with "56"),
        in_order_vector!(f32 "0", "2", even; with "48", with "72"),
        in_order_vector!(f32 "0", "3", odd; with "64", with "88"),
        in_order_vector!(f32 "1", "0", even; with "80", with "104"),
        in_order_vector!(f32 "1", "1", odd; with "96", with "120"),
        in_order_vector!(f32 "1", "2", even; with "112", with "136"),
        in_order_vector!(f32 "1", "3", odd; with "128", with "152"; lhs with "x27"),
        in_order_vector!(f32 "0", "0", even; with "144", with "168"; then "add x20, x20, #16"),
        in_order_vector!(f32 "0", "1", odd; with "160", with "184"; then "add x27, x20, #8"),
        in_order_vector!(f32 "0", "2", even; with "176", with "200"),
        in_order_vector!(f32 "0", "3", odd; with "192", with "216"),
        in_order_vector!(f32 "1", "0", even; with "208", with "232"),
        in_order_vector!(f32 "1", "1", odd; with "224", with "248"),
        in_order_vector!(f32 "1", "2", even; with "240", $p "264"),
        in_order_vector!(f32 "1", "3", odd; $p "256", $p "280"; lhs $p "x20"),
        "add x16, x16, #256\n",
    ) };
}

float_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 16`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety).
    #[target_feature(enable = "neon")]
    fn matmul_f32_f32p16x1b_6x16_a55: f32, 6 x 16, "matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55", in_order k_block;
}
