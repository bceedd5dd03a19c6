//! KleidiAI's generic int8-output kernels (`kai_matmul.h`, `matmul_clamp_qai8_*`) through the C
//! ABI: one module per kernel group, and what they share. Each module gives its `violations()`
//! (KleidiAI's assumptions as death cases), which this file's one `death_tests!` runs: the child
//! test of a binary is found by its exact name, so there is one pair per binary.

use crate::support;

mod gemv;
mod gemv_qsi4;
mod mop4;
mod mopa_qsi4;
mod mopa_qsi8;

/// Every module's death cases.
fn violations() -> Vec<support::death::Case<&'static str, &'static str>> {
    [
        gemv::violations(),
        mopa_qsi8::violations(),
        mopa_qsi4::violations(),
        gemv_qsi4::violations(),
        mop4::violations(),
    ]
    .concat()
}

death_tests!(violations, "assumptions");
