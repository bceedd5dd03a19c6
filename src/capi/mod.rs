//! The KleidiAI-compatible C ABI.
//!
//! The exported `kai_*` functions are generated from the catalog (see `build.rs`); each forwards
//! to the function of its verb in `matmul`, `lhs_pack` or `rhs_pack`, passing its catalog entry
//! (a packer's kind), its own symbol name and its arguments by name ([`CArgs`]). Precondition failures print
//! `<symbol>: assertion failed: <condition>` and abort, as KleidiAI's debug builds do; rkai keeps
//! the checks in release builds so a bad argument never turns into memory corruption.

mod args;
mod common;
pub(crate) mod lhs_pack;
pub(crate) mod matmul;
pub(crate) mod rhs_pack;

pub use args::CArgs;
pub use common::{KLEIDIAI_VERSION, kai_commit_za, kai_get_version};

use rkai_ukernels::contract::Violation;

/// The generated `#[no_mangle]` functions.
#[allow(clippy::too_many_arguments, missing_docs)]
pub mod exports {
    include!(concat!(env!("OUT_DIR"), "/c_shims.rs"));
}

/// Reports a violated precondition of `symbol` and aborts the process.
#[cold]
#[inline(never)]
fn fail(symbol: &str, violation: Violation) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = writeln!(
        std::io::stderr(),
        "rkai: {symbol}: assertion failed: {}",
        violation.condition
    );
    std::process::abort()
}

/// Unwraps a checked value or aborts naming `symbol`.
#[inline]
pub(crate) fn ensure<T>(symbol: &str, result: Result<T, Violation>) -> T {
    match result {
        Ok(v) => v,
        Err(violation) => fail(symbol, violation),
    }
}
