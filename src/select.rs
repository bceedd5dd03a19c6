//! Run-time kernel selection for this process: CPU detection, the `RKAI_FEATURES` override, the
//! `RKAI_LOG_SELECTION` log, and the C entry points `rkai_select_<family>`.
//!
//! The ranking itself is [`rkai_ukernels::select`] (no_std); this module decides which features
//! it may use:
//! - the features detected at run time (HWCAP on Linux and Android, sysctl on Apple, the
//!   compile-time target features elsewhere), plus [`Features::IN_ORDER`] when every core is an
//!   in-order little core ([`crate::core_kind`]);
//! - restricted to `RKAI_FEATURES` when that environment variable is set: a comma-separated list
//!   of feature names (`neon,dotprod,i8mm,bf16,fp16,sve,sve2,sme,sme2,in_order,sme2p1,sme_i8i32,
//!   sme_f16f32,sme_b16f32,sme_f32f32,sme_fa64`), e.g. `RKAI_FEATURES=neon,dotprod` to triage an
//!   i8mm kernel; a list without `sme` turns off every SME feature, without `sme2` SME2.1;
//! - restricted to an explicit mask argument.
//!
//! With `RKAI_LOG_SELECTION` set (to anything), every selection prints one line to stderr naming
//! the family, the shape class, the kernel, its ISA and the features it was chosen under.

use crate::sys::{self, Line};
use core::ffi::{CStr, c_void};
use core::fmt::Write;
use core::ptr;
use rkai_ukernels::arch::{self, Features};
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::select::{self as rank, Pair, Shape};

pub use rkai_ukernels::select::Shape as ShapeClass;

use crate::rkai_ffi::{RKAI_SELECT_EMULATE, RKAI_SHAPE_GEMM, RKAI_SHAPE_GEMV};

/// Features selection may use: detected, then restricted by `RKAI_FEATURES` and by `mask`. On
/// non-Arm targets every kernel runs through its portable implementation; selection counts only
/// the NEON features as present there ([`Features::WITHOUT_VECTOR_LENGTH`]: an SVE or SME
/// format would be tied to a vector length the host has not got), or, with
/// [`RKAI_SELECT_EMULATE`] in `mask`, every feature, as a big Arm core with everything.
pub fn allowed_features(mask: Features) -> Features {
    let detected = if cfg!(target_arch = "aarch64") {
        crate::core_kind::detected_features()
    } else if mask.0 & RKAI_SELECT_EMULATE != 0 {
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

/// The best GEMV/GEMM pair of `family` for this CPU, restricted to `mask` (pass
/// `Features(u32::MAX)` for no restriction). Both kernels read one packed RHS format.
pub fn best_pair(family: Family, mask: Features) -> Option<Pair> {
    rank::best_pair(family, allowed_features(mask), arch::sve_lanes32())
}

/// The best kernel of `family` for `shape` on this CPU, restricted to `mask`; logged when
/// `RKAI_LOG_SELECTION` is set.
pub fn best_kernel(family: Family, shape: Shape, mask: Features) -> Option<&'static MatmulKernel> {
    let features = allowed_features(mask);
    let chosen =
        rank::best_pair(family, features, arch::sve_lanes32()).map(|pair| pair.kernel(shape));
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
    chosen
}

/// The address of a C function, as `rkai_select_*` writes it into an interface struct.
#[derive(Clone, Copy)]
pub struct CFn(pub *const ());

// SAFETY: the address of a function, never written through.
unsafe impl Sync for CFn {}

/// A kernel `rkai_select_<family>` may choose, with what it writes for it: the family's C
/// functions in interface-struct order, and the names.
pub struct Choice {
    /// The catalog entry (what the ranking returns).
    pub kernel: &'static MatmulKernel,
    /// Its C functions, in the order of the family's `kai_*_ukernel` struct.
    pub functions: &'static [CFn],
    /// Its symbol stem with prefix, e.g. `kai_matmul_clamp_f32_...`.
    pub name: &'static CStr,
    /// Its ISA name.
    pub isa: &'static CStr,
    /// An RHS packer writing its format.
    pub rhs_packer: &'static CStr,
    /// An LHS packer writing its format, if its LHS is packed.
    pub lhs_packer: Option<&'static CStr>,
}

/// `rkai_select_<family>`: writes the chosen kernel's interface struct and names to `choice`
/// (`struct rkai_<family>_choice`: the family's `kai_*_ukernel` function table, then the kernel
/// name, its ISA name, the name of an RHS packer writing its format and the name of an LHS packer
/// writing its format or NULL, all `const char*`, then the `size_t` vector length its packed
/// data is laid out for, [`MatmulKernel::packed_vector_bytes`]). `table` holds every kernel of the family.
/// Returns 0, or -1 (leaving `choice` untouched) when no kernel of the family runs.
///
/// # Safety
/// `choice` points to a writable `struct rkai_<family>_choice`.
pub unsafe fn c_select(
    family: Family,
    table: &[Choice],
    symbol: &str,
    shape: u32,
    feature_mask: u32,
    choice: *mut c_void,
) -> i32 {
    use crate::capi::ensure;
    use rkai_ukernels::contract::require;
    let known = shape == RKAI_SHAPE_GEMV || shape == RKAI_SHAPE_GEMM;
    let condition = "shape == RKAI_SHAPE_GEMV || shape == RKAI_SHAPE_GEMM";
    ensure(symbol, require(known, condition));
    ensure(symbol, require(!choice.is_null(), "choice != NULL"));
    let shape = if shape == RKAI_SHAPE_GEMV {
        Shape::Gemv
    } else {
        Shape::Gemm
    };
    let Some(kernel) = best_kernel(family, shape, Features(feature_mask)) else {
        return -1;
    };
    // The table holds every kernel of the family (generated from the same catalog).
    let Some(chosen) = table.iter().find(|c| ptr::eq(c.kernel, kernel)) else {
        return -1;
    };
    let names = [
        chosen.name.as_ptr(),
        chosen.isa.as_ptr(),
        chosen.rhs_packer.as_ptr(),
        chosen.lhs_packer.map_or(ptr::null(), CStr::as_ptr),
    ];
    let fields = (chosen.functions.iter().map(|f| f.0.cast::<c_void>()))
        .chain(names.into_iter().map(|p| p.cast::<c_void>()));
    let out = choice.cast::<*const c_void>();
    let mut written = 0;
    for (i, field) in fields.enumerate() {
        // SAFETY: the struct is a run of pointer-sized fields (the family's function pointers
        // then four string pointers), all within the caller's struct.
        unsafe { out.add(i).write(field) };
        written = i + 1;
    }
    // SAFETY: the last field, a `size_t` (pointer-sized on every target rkai builds for).
    unsafe {
        out.add(written)
            .cast::<usize>()
            .write(kernel.packed_vector_bytes())
    };
    0
}
