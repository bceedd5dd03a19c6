//! The KleidiAI-compatible C ABI.
//!
//! The exported `kai_*` functions are generated from the catalog (see `build.rs`); each forwards
//! to the function of the same verb in the module of its family or packer kind, passing its
//! catalog entry and its own symbol name. Precondition failures print
//! `<symbol>: assertion failed: <condition>` and abort, as KleidiAI's debug builds do; rkai keeps
//! the checks in release builds so a bad argument never turns into memory corruption.

mod args;
mod common;
pub(crate) mod lhs_pack_bf16;
pub(crate) mod lhs_quant_pack_qai8dxp;
pub(crate) mod lhs_quant_pack_qai8dxp_half;
pub(crate) mod lhs_quant_pack_qsi8d32p;
pub(crate) mod lhs_quant_pack_qsi8d32pscalef32;
pub(crate) mod matmul;
pub(crate) mod rhs_pack_bf16;
pub(crate) mod rhs_pack_float;
mod rhs_pack_getters;
pub(crate) mod rhs_pack_qai4c32p;
pub(crate) mod rhs_pack_qsi4c32p_qsu4c32s1s0;
pub(crate) mod rhs_pack_qsi4c32pscalef16_qsu4c32s16s0;
pub(crate) mod rhs_pack_qsi4cxp_qs4cxs1s0;
pub(crate) mod rhs_pack_qsi8cxp_qsi8cx;

pub use args::CArgs;
pub use common::{KLEIDIAI_VERSION, kai_get_version};

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
