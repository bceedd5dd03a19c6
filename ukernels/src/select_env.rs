//! What selection may use on this machine, for the C entry points and the Rust API alike: the
//! features detected at run time, restricted by the `RKAI_FEATURES` environment variable and a
//! caller's mask, and the `RKAI_LOG_SELECTION` log.
//!
//! - Detected: HWCAP on Linux and Android, sysctl on Apple, the compile-time target features
//!   elsewhere, plus [`Features::IN_ORDER`] when every core is an in-order little core
//!   ([`crate::core_kind`]). Off AArch64 every kernel runs through its portable path; selection
//!   counts only the NEON features as present there ([`Features::WITHOUT_VECTOR_LENGTH`]: an SVE
//!   or SME format would be tied to a vector length the host has not got), or, with [`EMULATE`]
//!   in the mask, every feature, as a big Arm core with everything.
//! - `RKAI_FEATURES`, when set: a comma-separated list of feature names ([`Features::NAMES`]),
//!   e.g. `RKAI_FEATURES=neon,dotprod` to triage an i8mm kernel; a list without `sme` turns off
//!   every SME feature, without `sme2` SME2.1.
//! - `RKAI_LOG_SELECTION`, when set (to anything): every selection prints one line to stderr
//!   naming the family, the shape class, the kernel, its ISA and the features it was chosen
//!   under.

use crate::arch::Features;
use crate::family::Family;
use crate::kernel::MatmulKernel;
use crate::select::Shape;
use crate::sys::{self, Line};
use core::fmt::Write;

/// Mask bit: off AArch64, choose as on an Arm CPU with every feature (C's `RKAI_SELECT_EMULATE`).
pub const EMULATE: u32 = 1 << 31;

/// The mask that restricts nothing and emulates nothing (C's `RKAI_FEATURES_ALL`).
pub const ALL: Features = Features(!EMULATE);

/// Features selection may use: detected, then restricted by `RKAI_FEATURES` and by `mask`
/// (module documentation).
pub fn allowed_features(mask: Features) -> Features {
    let detected = if cfg!(target_arch = "aarch64") {
        crate::core_kind::detected_features()
    } else if mask.0 & EMULATE != 0 {
        Features::ALL.difference(Features::IN_ORDER)
    } else {
        Features::WITHOUT_VECTOR_LENGTH
    };
    let mut f = Features(detected.0 & mask.0);
    if let Some(list) = sys::env(c"RKAI_FEATURES") {
        f = Features(f.0 & parse_features(list).0);
    }
    // An SME extension is unusable once SME itself is masked off.
    f.consistent()
}

/// Parses a comma-separated list of feature names; unknown names are ignored with a warning.
pub fn parse_features(list: &str) -> Features {
    let mut f = Features::empty();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match Features::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, bit)) => f = f.union(*bit),
            None => Line::new()
                .str("rkai: RKAI_FEATURES: unknown feature `")
                .str(name)
                .str("` ignored\n")
                .flush(),
        }
    }
    f
}

/// With `RKAI_LOG_SELECTION` set, one line naming the choice for `shape` of `family`.
pub fn log_choice(
    family: Family,
    shape: Shape,
    chosen: Option<&'static MatmulKernel>,
    features: Features,
) {
    if sys::env_is_set(c"RKAI_LOG_SELECTION") {
        let mut line = Line::new();
        // Writing to a `Line` cannot fail.
        let _ = match chosen {
            Some(k) => writeln!(
                line,
                "rkai: {} {shape:?}: {}_{} ({}) with features {features:?}",
                family.dir(),
                k.prefix(),
                k.stem,
                k.isa.name()
            ),
            None => writeln!(
                line,
                "rkai: {} {shape:?}: no kernel runs with features {features:?}",
                family.dir()
            ),
        };
        line.flush();
    }
}
