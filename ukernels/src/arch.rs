//! CPU features rkai's kernels need, and their run-time detection.
//!
//! Detection and the two vector lengths are read once per process and cached in atomics (0 means
//! "not read yet"; racing first readers compute the same value, so no lock is needed). A thread
//! that changes its vector length with `prctl(PR_SVE_SET_VL / PR_SME_SET_VL)` after rkai first
//! read it is not supported, as in every library that sizes its tiles once.

use core::fmt;
use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// A set of CPU features, as a bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(pub u32);

impl Features {
    /// Advanced SIMD (always present on AArch64).
    pub const NEON: Features = Features(1 << 0);
    /// FEAT_DotProd: `SDOT`/`UDOT`.
    pub const DOTPROD: Features = Features(1 << 1);
    /// FEAT_I8MM: `SMMLA`.
    pub const I8MM: Features = Features(1 << 2);
    /// FEAT_BF16.
    pub const BF16: Features = Features(1 << 3);
    /// FEAT_FP16 arithmetic.
    pub const FP16: Features = Features(1 << 4);
    /// FEAT_SVE.
    pub const SVE: Features = Features(1 << 5);
    /// FEAT_SVE2.
    pub const SVE2: Features = Features(1 << 6);
    /// FEAT_SME.
    pub const SME: Features = Features(1 << 7);
    /// FEAT_SME2.
    pub const SME2: Features = Features(1 << 8);
    /// Not an instruction set: every core is an in-order little core (Cortex-A53, A55, A510,
    /// A520), where the schedules KleidiAI tunes for the Cortex-A55 beat the generic ones.
    /// Selection prefers those kernels with it and avoids them without it.
    pub const IN_ORDER: Features = Features(1 << 9);
    /// FEAT_SME2p1.
    pub const SME2P1: Features = Features(1 << 10);
    /// FEAT_SME `SMOPA`/`UMOPA` of 8-bit integers into 32-bit tiles.
    pub const SME_I8I32: Features = Features(1 << 11);
    /// FEAT_SME `FMOPA` of f16 into f32 tiles.
    pub const SME_F16F32: Features = Features(1 << 12);
    /// FEAT_SME `BFMOPA` of bf16 into f32 tiles.
    pub const SME_B16F32: Features = Features(1 << 13);
    /// FEAT_SME `FMOPA` of f32 into f32 tiles.
    pub const SME_F32F32: Features = Features(1 << 14);
    /// FEAT_SME_FA64: the whole A64 instruction set in streaming mode (absent on Apple M4).
    pub const SME_FA64: Features = Features(1 << 15);
    /// FEAT_SVE2p1 (SVE2.1: the 2-way f16 `FDOT` into f32, `FCLAMP`, ... outside streaming mode).
    pub const SVE2P1: Features = Features(1 << 16);

    /// Every feature that exists only with FEAT_SME.
    pub const SME_FAMILY: Features = Features(
        Self::SME.0
            | Self::SME2.0
            | Self::SME2P1.0
            | Self::SME_I8I32.0
            | Self::SME_F16F32.0
            | Self::SME_B16F32.0
            | Self::SME_F32F32.0
            | Self::SME_FA64.0,
    );

    /// Names in bit order, for display and parsing (`RKAI_FEATURES`); the SME ones follow
    /// Linux's HWCAP2 names.
    pub const NAMES: [(&'static str, Features); 17] = [
        ("neon", Self::NEON),
        ("dotprod", Self::DOTPROD),
        ("i8mm", Self::I8MM),
        ("bf16", Self::BF16),
        ("fp16", Self::FP16),
        ("sve", Self::SVE),
        ("sve2", Self::SVE2),
        ("sme", Self::SME),
        ("sme2", Self::SME2),
        ("in_order", Self::IN_ORDER),
        ("sme2p1", Self::SME2P1),
        ("sme_i8i32", Self::SME_I8I32),
        ("sme_f16f32", Self::SME_F16F32),
        ("sme_b16f32", Self::SME_B16F32),
        ("sme_f32f32", Self::SME_F32F32),
        ("sme_fa64", Self::SME_FA64),
        ("sve2p1", Self::SVE2P1),
    ];

    /// Every feature of [`Features::NAMES`].
    pub const ALL: Features = {
        let mut all = 0;
        let mut i = 0;
        while i < Self::NAMES.len() {
            all |= Self::NAMES[i].1.0;
            i += 1;
        }
        Features(all)
    };

    /// The features whose kernels pack data independently of any vector length (NEON and its
    /// extensions): what selection assumes on a host that runs every kernel through its portable
    /// path (x86_64), where an SVE or SME format would be tied to a vector length the host does
    /// not have. Kernels needing more are chosen there only on explicit request (`rkai.h`:
    /// `RKAI_SELECT_EMULATE`).
    pub const WITHOUT_VECTOR_LENGTH: Features =
        Features(Self::NEON.0 | Self::DOTPROD.0 | Self::I8MM.0 | Self::BF16.0 | Self::FP16.0);

    /// No features.
    pub const fn empty() -> Self {
        Features(0)
    }

    /// Union of two sets.
    pub const fn union(self, other: Features) -> Self {
        Features(self.0 | other.0)
    }

    /// The features of `self` that are not in `other`.
    pub const fn difference(self, other: Features) -> Self {
        Features(self.0 & !other.0)
    }

    /// Whether every feature of `other` is in `self`.
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// `self` without the features whose prerequisite it lacks: no SME extension without SME,
    /// no SME2.1 without SME2, no SVE2.1 without SVE2. A mask that turns SME off (`RKAI_FEATURES` without `sme`) thereby
    /// turns off everything built on it.
    pub const fn consistent(self) -> Self {
        let mut f = self;
        if !f.contains(Self::SME) {
            f = f.difference(Self::SME_FAMILY);
        }
        if !f.contains(Self::SME2) {
            f = f.difference(Self::SME2P1);
        }
        if !f.contains(Self::SVE2) {
            f = f.difference(Self::SVE2P1);
        }
        f
    }

    /// Features of the CPU this code runs on: HWCAP on Linux and Android, sysctl on Apple
    /// platforms, the compile-time target features elsewhere. Empty on non-Arm targets.
    /// Detected on the first call, then cached.
    pub fn detect() -> Self {
        // Bit 31 marks the cache as filled (no feature uses it), so an empty set is cached too.
        const KNOWN: u32 = 1 << 31;
        static CACHE: AtomicU32 = AtomicU32::new(0);
        let cached = CACHE.load(Ordering::Relaxed);
        if cached & KNOWN != 0 {
            return Features(cached & !KNOWN);
        }
        let f = detect::features().consistent();
        CACHE.store(f.0 | KNOWN, Ordering::Relaxed);
        f
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (name, bit) in Self::NAMES {
            if self.contains(bit) {
                if !first {
                    f.write_str("+")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        if first {
            f.write_str("none")?;
        }
        Ok(())
    }
}

/// The instruction-set requirement of a kernel, as named by its stem's engine and tech suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// `_neon_mla` on f32: Advanced SIMD only.
    Neon,
    /// `_neon_mla` on f16: FEAT_FP16 arithmetic.
    NeonFp16,
    /// `_neon_mmla` / `_neon_dot` on bf16: FEAT_BF16.
    NeonBf16,
    /// f16 output from bf16 operands: FEAT_FP16 and FEAT_BF16.
    NeonFp16Bf16,
    /// `_neon_dotprod`.
    NeonDotprod,
    /// `_neon_i8mm`.
    NeonI8mm,
    /// `_neon_dotprod` with f16 arithmetic (FEAT_FP16): f16-output kernels of integer families.
    NeonFp16Dotprod,
    /// `_neon_i8mm` with f16 arithmetic (FEAT_FP16).
    NeonFp16I8mm,
    /// `_sve_mla`: SVE.
    Sve,
    /// `_sve_dotprod`: SVE (whose SDOT needs nothing more).
    SveDotprod,
    /// `_sve_i8mm`: SVE with FEAT_I8MM.
    SveI8mm,
    /// `_sve2_dotprod`: SVE2.
    Sve2Dotprod,
    /// `_sve2_i8mm`: SVE2 with FEAT_I8MM.
    Sve2I8mm,
    /// `_sve2p1_`: SVE2.1 (FEAT_SVE2p1) outside streaming mode.
    Sve2p1,
    /// `_sme_`: FEAT_SME (streaming SVE and ZA outer products; no SVE needed outside streaming
    /// mode).
    Sme,
    /// `_sme2_`: FEAT_SME2 (multi-vector instructions, ZA array vectors).
    Sme2,
    /// `_sme2p1_`: FEAT_SME2p1 (a kernel may use more, such as the quarter-tile outer products
    /// of FEAT_SME_MOP4, only where [`sme_mop4`] reports them, running SME2 code elsewhere).
    Sme2p1,
}

impl Isa {
    /// Every ISA, from the most widely available to the most specialised.
    pub const ALL: [Isa; 17] = [
        Isa::Neon,
        Isa::NeonFp16,
        Isa::NeonBf16,
        Isa::NeonFp16Bf16,
        Isa::NeonDotprod,
        Isa::NeonI8mm,
        Isa::NeonFp16Dotprod,
        Isa::NeonFp16I8mm,
        Isa::Sve,
        Isa::SveDotprod,
        Isa::SveI8mm,
        Isa::Sve2Dotprod,
        Isa::Sve2I8mm,
        Isa::Sve2p1,
        Isa::Sme,
        Isa::Sme2,
        Isa::Sme2p1,
    ];

    /// Features a CPU must have to run kernels of this ISA.
    pub const fn features(self) -> Features {
        let n = Features::NEON;
        match self {
            Isa::Neon => n,
            Isa::NeonFp16 => n.union(Features::FP16),
            Isa::NeonBf16 => n.union(Features::BF16),
            Isa::NeonFp16Bf16 => n.union(Features::FP16).union(Features::BF16),
            Isa::NeonDotprod => n.union(Features::DOTPROD),
            Isa::NeonI8mm => n.union(Features::I8MM),
            Isa::NeonFp16Dotprod => n.union(Features::FP16).union(Features::DOTPROD),
            Isa::NeonFp16I8mm => n.union(Features::FP16).union(Features::I8MM),
            Isa::Sve | Isa::SveDotprod => n.union(Features::SVE),
            Isa::SveI8mm => n.union(Features::SVE).union(Features::I8MM),
            Isa::Sve2Dotprod => n.union(Features::SVE).union(Features::SVE2),
            Isa::Sve2I8mm => n
                .union(Features::SVE)
                .union(Features::SVE2)
                .union(Features::I8MM),
            Isa::Sve2p1 => n
                .union(Features::SVE)
                .union(Features::SVE2)
                .union(Features::SVE2P1),
            Isa::Sme => n.union(Features::SME),
            Isa::Sme2 => n.union(Features::SME).union(Features::SME2),
            Isa::Sme2p1 => n
                .union(Features::SME)
                .union(Features::SME2)
                .union(Features::SME2P1),
        }
    }

    /// Whether kernels of this ISA use SVE registers outside streaming mode (their vector length
    /// is the SVE length, read at run time).
    pub const fn is_sve(self) -> bool {
        self.features().contains(Features::SVE)
    }

    /// Whether kernels of this ISA run in streaming mode (their vector length is the streaming
    /// length, read at run time).
    pub const fn is_streaming(self) -> bool {
        self.features().contains(Features::SME)
    }

    /// Lower-case name used in logs and tables (the stem's suffix for KleidiAI's ISAs).
    pub const fn name(self) -> &'static str {
        match self {
            Isa::Neon => "neon",
            Isa::NeonFp16 => "neon_fp16",
            Isa::NeonBf16 => "neon_bf16",
            Isa::NeonFp16Bf16 => "neon_fp16_bf16",
            Isa::NeonDotprod => "neon_dotprod",
            Isa::NeonI8mm => "neon_i8mm",
            Isa::NeonFp16Dotprod => "neon_fp16_dotprod",
            Isa::NeonFp16I8mm => "neon_fp16_i8mm",
            Isa::Sve => "sve",
            Isa::SveDotprod => "sve_dotprod",
            Isa::SveI8mm => "sve_i8mm",
            Isa::Sve2Dotprod => "sve2_dotprod",
            Isa::Sve2I8mm => "sve2_i8mm",
            Isa::Sve2p1 => "sve2p1",
            Isa::Sme => "sme",
            Isa::Sme2 => "sme2",
            Isa::Sme2p1 => "sme2p1",
        }
    }
}

/// Cache of a vector length in bytes: 0 until first read, [`ABSENT`] where the extension is not.
struct VectorLength(AtomicUsize);

/// Cached when the extension is missing (no vector length is 1 byte).
const ABSENT: usize = 1;

impl VectorLength {
    const fn new() -> Self {
        VectorLength(AtomicUsize::new(0))
    }

    /// The cached length, reading it with `read` on first use (`None`: extension absent).
    fn get(&self, read: fn() -> Option<usize>) -> Option<usize> {
        let bytes = match self.0.load(Ordering::Relaxed) {
            0 => {
                let bytes = read().unwrap_or(ABSENT);
                self.0.store(bytes, Ordering::Relaxed);
                bytes
            }
            bytes => bytes,
        };
        (bytes != ABSENT).then_some(bytes)
    }
}

/// The non-streaming SVE vector length in bytes (`CNTB`, 16 to 256), `None` without SVE (also
/// on a CPU that has SME but not SVE, whose only scalable vectors are streaming ones). Read once.
pub fn sve_vector_bytes() -> Option<usize> {
    static SVE: VectorLength = VectorLength::new();
    SVE.get(|| {
        #[cfg(target_arch = "aarch64")]
        if Features::detect().contains(Features::SVE) {
            let bytes: usize;
            // SAFETY: CNTB (encoded, so the assembler needs no SVE support) only reads the vector
            // length, and SVE is present.
            unsafe {
                core::arch::asm!(".inst 0x0420e3e0", out("x0") bytes, options(nomem, nostack, pure))
            };
            return Some(bytes);
        }
        None
    })
}

/// The streaming vector length (SVL) in bytes (`RDSVL #1`, 16 to 256): the `vl` unit of
/// KleidiAI's SME kernels, independent of the SVE length and present on CPUs with SME but no
/// SVE. `None` without SME. Read once.
pub fn sme_vector_bytes() -> Option<usize> {
    static SME: VectorLength = VectorLength::new();
    SME.get(|| {
        #[cfg(target_arch = "aarch64")]
        if Features::detect().contains(Features::SME) {
            let bytes: usize;
            // SAFETY: RDSVL (encoded, so the assembler needs no SME support) only reads the
            // streaming vector length, is legal outside streaming mode, and SME is present.
            unsafe {
                core::arch::asm!(".inst 0x04bf5820", out("x0") bytes, options(nomem, nostack, pure))
            };
            return Some(bytes);
        }
        None
    })
}

/// Number of 32-bit lanes in an SVE vector on this CPU (`CNTW`): between 4 and 64.
///
/// Returns 4 (the 128-bit minimum) where SVE is absent, including on other architectures, where
/// the portable implementations of SVE kernels then run with that vector length.
pub fn sve_lanes32() -> usize {
    sve_vector_bytes().map_or(4, |bytes| bytes / 4)
}

/// Number of 32-bit lanes in a streaming vector (KleidiAI's `kai_get_sme_vector_length_u32()`):
/// between 4 and 64. Returns 4 (the 128-bit minimum) where SME is absent, the length the
/// portable implementations of SME kernels then run with.
pub fn sme_lanes32() -> usize {
    sme_vector_bytes().map_or(4, |bytes| bytes / 4)
}

/// Whether the CPU has FEAT_SME_MOP4 (the quarter-tile outer products, `SMOP4A` ...) beside
/// SME2: Linux's `HWCAP_SME_SMOP4` (AT_HWCAP bit 47, as KleidiAI's tests read it); false on
/// other systems (Apple names no such sysctl) and without SME2. Not one of [`Features`]: only
/// the SME2.1 kernel that uses it asks, at run time, and runs SME2 code without it.
pub fn sme_mop4() -> bool {
    #[cfg(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    ))]
    {
        const HWCAP_SME_SMOP4: u64 = 1 << 47;
        // SAFETY: getauxval has no preconditions.
        let hw = unsafe { libc::getauxval(libc::AT_HWCAP) } as u64;
        hw & HWCAP_SME_SMOP4 != 0 && Features::detect().contains(Features::SME2)
    }
    #[cfg(not(all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    )))]
    {
        false
    }
}

#[cfg(all(
    target_arch = "aarch64",
    any(target_os = "linux", target_os = "android")
))]
mod detect {
    use super::Features;

    // Bits of AT_HWCAP / AT_HWCAP2 (Linux arch/arm64/include/uapi/asm/hwcap.h).
    const HWCAP_ASIMD: u64 = 1 << 1;
    const HWCAP_ASIMDHP: u64 = 1 << 10;
    const HWCAP_ASIMDDP: u64 = 1 << 20;
    const HWCAP_SVE: u64 = 1 << 22;
    const HWCAP2_SVE2: u64 = 1 << 1;
    const HWCAP2_I8MM: u64 = 1 << 13;
    const HWCAP2_BF16: u64 = 1 << 14;
    const HWCAP2_SME: u64 = 1 << 23;
    const HWCAP2_SME_I8I32: u64 = 1 << 26;
    const HWCAP2_SME_F16F32: u64 = 1 << 27;
    const HWCAP2_SME_B16F32: u64 = 1 << 28;
    const HWCAP2_SME_F32F32: u64 = 1 << 29;
    const HWCAP2_SME_FA64: u64 = 1 << 30;
    const HWCAP2_SVE2P1: u64 = 1 << 36;
    const HWCAP2_SME2: u64 = 1 << 37;
    const HWCAP2_SME2P1: u64 = 1 << 38;

    pub fn features() -> Features {
        // SAFETY: getauxval has no preconditions.
        let (hw, hw2) = unsafe {
            (
                libc::getauxval(libc::AT_HWCAP) as u64,
                libc::getauxval(libc::AT_HWCAP2) as u64,
            )
        };
        let mut f = Features::empty();
        let mut add = |present: bool, bit: Features| {
            if present {
                f = f.union(bit);
            }
        };
        add(hw & HWCAP_ASIMD != 0, Features::NEON);
        add(hw & HWCAP_ASIMDDP != 0, Features::DOTPROD);
        add(hw & HWCAP_ASIMDHP != 0, Features::FP16);
        add(hw & HWCAP_SVE != 0, Features::SVE);
        add(hw2 & HWCAP2_SVE2 != 0, Features::SVE2);
        add(hw2 & HWCAP2_I8MM != 0, Features::I8MM);
        add(hw2 & HWCAP2_BF16 != 0, Features::BF16);
        add(hw2 & HWCAP2_SME != 0, Features::SME);
        add(hw2 & HWCAP2_SME2 != 0, Features::SME2);
        add(hw2 & HWCAP2_SME2P1 != 0, Features::SME2P1);
        add(hw2 & HWCAP2_SME_I8I32 != 0, Features::SME_I8I32);
        add(hw2 & HWCAP2_SME_F16F32 != 0, Features::SME_F16F32);
        add(hw2 & HWCAP2_SME_B16F32 != 0, Features::SME_B16F32);
        add(hw2 & HWCAP2_SME_F32F32 != 0, Features::SME_F32F32);
        add(hw2 & HWCAP2_SME_FA64 != 0, Features::SME_FA64);
        add(hw2 & HWCAP2_SVE2P1 != 0, Features::SVE2P1);
        f
    }
}

#[cfg(all(target_arch = "aarch64", target_vendor = "apple"))]
mod detect {
    use super::Features;
    use core::ffi::{CStr, c_char, c_int, c_void};

    unsafe extern "C" {
        fn sysctlbyname(
            name: *const c_char,
            oldp: *mut c_void,
            oldlenp: *mut usize,
            newp: *mut c_void,
            newlen: usize,
        ) -> c_int;
    }

    /// Whether the `hw.optional.arm.*` sysctl `name` exists and is non-zero.
    fn has(name: &CStr) -> bool {
        let mut value: u32 = 0;
        let mut len = core::mem::size_of::<u32>();
        // SAFETY: `value` and `len` describe a writable 4-byte buffer; no new value is set.
        let status = unsafe {
            sysctlbyname(
                name.as_ptr(),
                (&raw mut value).cast(),
                &mut len,
                core::ptr::null_mut(),
                0,
            )
        };
        status == 0 && value != 0
    }

    /// Apple reports Arm features through sysctl (no HWCAP); Apple silicon has no SVE.
    pub fn features() -> Features {
        let mut f = Features::NEON;
        for (name, bit) in [
            (c"hw.optional.arm.FEAT_DotProd", Features::DOTPROD),
            (c"hw.optional.arm.FEAT_I8MM", Features::I8MM),
            (c"hw.optional.arm.FEAT_BF16", Features::BF16),
            (c"hw.optional.arm.FEAT_FP16", Features::FP16),
            (c"hw.optional.arm.FEAT_SME", Features::SME),
            (c"hw.optional.arm.FEAT_SME2", Features::SME2),
            (c"hw.optional.arm.FEAT_SME2p1", Features::SME2P1),
            // Apple names the SME type features without the FEAT_ prefix and has no FA64 key.
            (c"hw.optional.arm.SME_I8I32", Features::SME_I8I32),
            (c"hw.optional.arm.SME_F16F32", Features::SME_F16F32),
            (c"hw.optional.arm.SME_B16F32", Features::SME_B16F32),
            (c"hw.optional.arm.SME_F32F32", Features::SME_F32F32),
        ] {
            if has(name) {
                f = f.union(bit);
            }
        }
        f
    }
}

#[cfg(not(any(
    all(
        target_arch = "aarch64",
        any(target_os = "linux", target_os = "android")
    ),
    all(target_arch = "aarch64", target_vendor = "apple")
)))]
mod detect {
    use super::Features;

    /// Without an OS query, trust what the binary was compiled for.
    pub fn features() -> Features {
        let mut f = Features::empty();
        if cfg!(target_arch = "aarch64") {
            f = f.union(Features::NEON);
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "dotprod")) {
            f = f.union(Features::DOTPROD);
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "i8mm")) {
            f = f.union(Features::I8MM);
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "bf16")) {
            f = f.union(Features::BF16);
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "sve")) {
            f = f.union(Features::SVE);
        }
        if cfg!(all(target_arch = "aarch64", target_feature = "sve2")) {
            f = f.union(Features::SVE2);
        }
        f
    }
}
