//! TEMPORARY placeholder.
/// # Safety
/// As the portable kernel.
pub unsafe fn run(a: &super::Args) {
    unsafe { super::portable::run(4 * crate::arch::sve_lanes32(), a) }
}
