//! TEMPORARY placeholder.
/// # Safety
/// As the generic kernel.
pub unsafe fn run(a: &super::Args) {
    unsafe { super::matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla::run(a) }
}
