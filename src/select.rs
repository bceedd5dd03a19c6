//! Run-time kernel selection in C: the entry points `rkai_select_<family>` and
//! `rkai_select_<family>_<layout>`.
//!
//! The ranking is [`rkai_ukernels::select`]; which features it may use (detection,
//! `RKAI_FEATURES`, the mask) and the `RKAI_LOG_SELECTION` log are
//! [`rkai_ukernels::select_env`], which the Rust API follows too.

use core::ffi::{CStr, c_void};
use core::ptr;
use rkai_ukernels::arch::{self, Features};
use rkai_ukernels::family::Family;
use rkai_ukernels::kernel::MatmulKernel;
use rkai_ukernels::pack::kinds::Packer;
use rkai_ukernels::select::{self as rank, Pair, Shape};

pub use rkai_ukernels::select::Shape as ShapeClass;

use crate::rkai_ffi::{RKAI_SHAPE_GEMM, RKAI_SHAPE_GEMV};
use rkai_ukernels::select_env::log_choice;

pub use rkai_ukernels::select_env::{allowed_features, parse_features};

/// The best GEMV/GEMM pair of `family` for this CPU, restricted to `mask` (pass
/// `Features(u32::MAX)` for no restriction). Both kernels read one packed RHS format.
pub fn best_pair(family: Family, mask: Features) -> Option<Pair> {
    rank::best_pair(family, allowed_features(mask), arch::sve_lanes32())
}

/// The best kernel of `family` for `shape` on this CPU, restricted to `mask` (a family of one-row
/// GEMVs only: its GEMV for one row, none for several); logged when `RKAI_LOG_SELECTION` is set.
pub fn best_kernel(family: Family, shape: Shape, mask: Features) -> Option<&'static MatmulKernel> {
    let features = allowed_features(mask);
    let chosen = rank::best_kernel(family, shape, features, arch::sve_lanes32());
    log_choice(family, shape, chosen, features);
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
    // SAFETY: `choice` is the caller's `struct rkai_<family>_choice`.
    unsafe { write_words(choice.cast(), chosen.words()) };
    0
}

impl Choice {
    /// The words of its `struct rkai_<family>_choice`: the functions, four names and the
    /// `size_t` packed vector length (pointer-sized on every target rkai builds for).
    fn words(&self) -> impl Iterator<Item = *const c_void> {
        let names = [
            self.name.as_ptr(),
            self.isa.as_ptr(),
            self.rhs_packer.as_ptr(),
            self.lhs_packer.map_or(ptr::null(), CStr::as_ptr),
        ];
        let size = ptr::without_provenance(self.kernel.packed_vector_bytes());
        let functions = self.functions.iter().map(|f| f.0.cast::<c_void>());
        functions
            .chain(names.into_iter().map(|p| p.cast::<c_void>()))
            .chain([size])
    }
}

/// Writes `words` one after another from `out`.
///
/// # Safety
/// `out` has room for every word.
unsafe fn write_words(mut out: *mut *const c_void, words: impl Iterator<Item = *const c_void>) {
    for word in words {
        // SAFETY: within the caller's struct, a run of pointer-sized fields.
        unsafe {
            out.write(word);
            out = out.add(1);
        }
    }
}

/// A packer `rkai_select_<family>_<layout>` may hand out: its name and its functions in the
/// order of its `struct rkai_<family>_rhs_packer_<layout>` or `rkai_<family>_lhs_packer`
/// (`None`: NULL).
pub struct PackerFns {
    /// Its catalog name (no `kai_` prefix).
    pub stem: &'static str,
    /// `kai_` and its name.
    pub name: &'static CStr,
    /// Its functions in member order.
    pub functions: &'static [Option<CFn>],
}

impl PackerFns {
    /// The words of its struct: the name, then the functions.
    fn words(&self) -> impl Iterator<Item = *const c_void> {
        let functions = self.functions.iter();
        let functions = functions.map(|f| f.map_or(ptr::null(), |f| f.0.cast::<c_void>()));
        [self.name.as_ptr().cast::<c_void>()]
            .into_iter()
            .chain(functions)
    }

    /// The first packer of `table` among `packers` (a kernel's).
    fn among<'a>(table: &'a [PackerFns], packers: &[&'static Packer]) -> Option<&'a PackerFns> {
        table
            .iter()
            .find(|p| packers.iter().any(|q| q.name == p.stem))
    }
}

/// `rkai_select_<family>_<layout>`: the best pair of `family` for which a packer of `rhs` (the
/// family's RHS packers of the layout) packs the weights both kernels read, written to
/// `selection` (`struct rkai_<family>_selection_<layout>`: the GEMV's and the GEMM's choice, the
/// RHS packer, then, where the family has LHS packers (`lhs` not empty), the GEMV's and the
/// GEMM's, all NULL for a kernel reading its LHS unpacked). Returns 0, or -1 leaving
/// `selection` untouched.
///
/// # Safety
/// `selection` points to a writable `struct rkai_<family>_selection_<layout>`.
pub unsafe fn c_select_layout(
    family: Family,
    kernels: &[Choice],
    (rhs, lhs): (&[PackerFns], &[PackerFns]),
    symbol: &str,
    feature_mask: u32,
    selection: *mut c_void,
) -> i32 {
    use crate::capi::ensure;
    use rkai_ukernels::contract::require;
    ensure(symbol, require(!selection.is_null(), "selection != NULL"));
    let features = allowed_features(Features(feature_mask));
    // A packer writing the format both kernels read.
    let packer_of = |pair: &Pair| {
        PackerFns::among(rhs, pair.gemm.rhs_packers)
            .filter(|p| pair.gemv.rhs_packers.iter().any(|q| q.name == p.stem))
    };
    let sve_lanes32 = arch::sve_lanes32();
    let best = rank::best_pair_where(family, features, sve_lanes32, |p| packer_of(p).is_some());
    for shape in [Shape::Gemv, Shape::Gemm] {
        log_choice(family, shape, best.map(|pair| pair.kernel(shape)), features);
    }
    let Some(pair) = best else { return -1 };
    let choice = |k: &MatmulKernel| kernels.iter().find(|c| ptr::eq(c.kernel, k));
    let (Some(gemv), Some(gemm), Some(packer)) =
        (choice(pair.gemv), choice(pair.gemm), packer_of(&pair))
    else {
        return -1;
    };
    // An LHS packer struct, or its words all NULL where the kernel reads its LHS unpacked.
    let lhs_struct = |k: &MatmulKernel| {
        let width = lhs.first().map_or(0, |p| p.functions.len() + 1);
        let packer = PackerFns::among(lhs, k.lhs_packers);
        let words = packer.into_iter().flat_map(PackerFns::words);
        words.chain(core::iter::repeat(ptr::null())).take(width)
    };
    let words = (gemv.words().chain(gemm.words()).chain(packer.words()))
        .chain(lhs_struct(pair.gemv))
        .chain(lhs_struct(pair.gemm));
    // SAFETY: `selection` is the caller's struct of these words.
    unsafe { write_words(selection.cast(), words) };
    0
}

/// The C name (`kai_` or `rkai_` and its stem) of `kernel`, from the selection tables.
pub fn kernel_c_name(kernel: &MatmulKernel) -> Option<&'static CStr> {
    let tables = crate::capi::exports::CHOICE_TABLES.iter();
    let mut choices = tables.flat_map(|t| t.iter());
    choices.find(|c| ptr::eq(c.kernel, kernel)).map(|c| c.name)
}
