//! The KleidiAI-compatible C ABI.
//!
//! The exported `kai_*` functions are generated from the catalog (see `build.rs`); each forwards
//! to the function of its verb in `matmul`, `lhs_pack` or `rhs_pack`, passing its catalog entry
//! (a packer's kind), its own symbol name and its arguments by name ([`CArgs`]). Precondition
//! failures print `rkai: <symbol>: assertion failed: <condition>` and abort, as KleidiAI's debug
//! builds do; rkai keeps the checks in release builds so a bad argument never turns into memory
//! corruption.
//!
//! The verb functions and the dispatch below them are `#[inline(always)]`: in each shim the
//! catalog entry is a constant, so every `match` on its family, operands, kind or tile folds
//! away and the shim references only its own kernel or packer. A C program then links only the
//! code of the functions it calls.

mod args;
mod common;
pub(crate) mod dwconv;
pub(crate) mod lhs_pack;
pub(crate) mod matmul;
pub(crate) mod rhs_pack;
pub(crate) mod uker_lhs_pack;
pub(crate) mod uker_matmul;
pub(crate) mod uker_rhs_pack;

pub use args::CArgs;
pub use common::{KLEIDIAI_VERSION, kai_commit_za, kai_get_version};

use rkai_ukernels::contract::Violation;

/// The generated `#[no_mangle]` functions.
#[allow(clippy::too_many_arguments, missing_docs)]
pub mod exports {
    include!(concat!(env!("OUT_DIR"), "/c_shims.rs"));
}

/// A provider of one of KleidiAI's generic interfaces (`kai_matmul_pack_rhs.h`,
/// `kai_matmul_pack_lhs.h`): its catalog entry's kind `K` and the symbol assertion messages
/// name. The generated provider function declares one and fills its table with the interface
/// module's functions instantiated for it (`uker_rhs_pack::api`, `uker_lhs_pack::api`).
pub trait UkerProvider<K> {
    /// The catalog entry's kind.
    const KIND: K;
    /// `kai_<name>`.
    const SYMBOL: &'static str;
}

/// Unwraps a checked value or aborts naming `symbol` (see [`crate::sys::assertion_failed`]).
#[inline(always)]
pub(crate) fn ensure<T>(symbol: &str, result: Result<T, Violation>) -> T {
    match result {
        Ok(v) => v,
        Err(violation) => crate::sys::assertion_failed(symbol, violation.condition),
    }
}
