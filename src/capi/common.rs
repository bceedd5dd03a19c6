//! `kai_common.h` functions with external linkage.

/// `kai_get_version()`'s value, NUL-terminated.
pub const KLEIDIAI_VERSION: &str = "1.30.0\0";

/// KleidiAI declares this `inline` without an external definition, so C code that does not inline
/// it fails to link against KleidiAI; rkai exports it.
#[unsafe(no_mangle)]
pub extern "C" fn kai_get_version() -> *const core::ffi::c_char {
    KLEIDIAI_VERSION.as_ptr().cast()
}

/// SVE vector length in bytes (`CNTB`). Like KleidiAI, requires SVE (SIGILL otherwise) on
/// aarch64; returns 0 on other architectures.
#[unsafe(no_mangle)]
pub extern "C" fn kai_get_sve_vector_length_u8() -> u64 {
    #[cfg(target_arch = "aarch64")]
    {
        let bytes: u64;
        // SAFETY: CNTB (encoded so no assembler SVE support is needed) only reads VL; the caller
        // guarantees SVE as KleidiAI's contract requires.
        unsafe {
            core::arch::asm!(".inst 0x0420e3e0", out("x0") bytes, options(nomem, nostack, pure))
        };
        bytes
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        0
    }
}

/// Streaming vector length in bytes (`RDSVL #1`). Requires SME on aarch64; 0 elsewhere.
#[unsafe(no_mangle)]
pub extern "C" fn kai_get_sme_vector_length_u8() -> u64 {
    #[cfg(target_arch = "aarch64")]
    {
        let bytes: u64;
        // SAFETY: RDSVL only reads the streaming VL; the caller guarantees SME.
        unsafe {
            core::arch::asm!(".inst 0x04bf5820", out("x0") bytes, options(nomem, nostack, pure))
        };
        bytes
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        0
    }
}

/// Commits a pending lazy ZA save (KleidiAI's `kai_commit_za`): if the caller's `TPIDR2_EL0`
/// names a TPIDR2 block, ZA is saved to its buffer and `TPIDR2_EL0` cleared, so that ZA is free
/// for a private-ZA function. rkai's SME kernels do this themselves; the symbol is for callers
/// that call KleidiAI's helper directly. Does nothing without SME (and off aarch64).
#[unsafe(no_mangle)]
pub extern "C" fn kai_commit_za() {
    #[cfg(target_arch = "aarch64")]
    if rkai_ukernels::arch::Features::detect().contains(rkai_ukernels::arch::Features::SME) {
        // SAFETY: SME is present; a non-zero TPIDR2_EL0 is the caller's ABI obligation.
        unsafe { rkai_ukernels::matmul::streaming::commit_lazy_za_save() };
    }
}
