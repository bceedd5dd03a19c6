//! Preconditions shared by the C ABI (which aborts with KleidiAI's kind of message) and the safe
//! Rust API (which returns an error). Checking lives here so both report the same condition.

/// A violated precondition: the C-style condition text, e.g. `"params->lhs_zero_point == 1"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The condition that had to hold, in the spelling of the C parameters.
    pub condition: &'static str,
}

/// Result of a precondition check.
pub type Checked = Result<(), Violation>;

/// Returns `Err` naming `condition` unless `holds`.
#[inline]
pub const fn require(holds: bool, condition: &'static str) -> Checked {
    if holds {
        Ok(())
    } else {
        Err(Violation { condition })
    }
}

/// `a * b` or a violation naming `condition` when the product does not fit in `usize`.
#[inline]
pub const fn mul(a: usize, b: usize, condition: &'static str) -> Result<usize, Violation> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(Violation { condition }),
    }
}

/// `a + b` or a violation naming `condition` on overflow.
#[inline]
pub const fn add(a: usize, b: usize, condition: &'static str) -> Result<usize, Violation> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(Violation { condition }),
    }
}

/// `roundup(a, b)` or a violation naming `condition` on overflow or `b == 0`.
#[inline]
pub const fn roundup(a: usize, b: usize, condition: &'static str) -> Result<usize, Violation> {
    if b == 0 {
        return Err(Violation { condition });
    }
    match a.checked_add(b - 1) {
        Some(v) => Ok(v / b * b),
        None => Err(Violation { condition }),
    }
}

/// The packing parameters every packer receives from a kernel's getters: `rows` (mr or nr), `kr`
/// and `sr` must be non-zero and `kr` a multiple of `sr`. `rows_condition` names the first, e.g.
/// `"mr > 0"`.
#[inline]
pub const fn packing_params(
    rows: usize,
    rows_condition: &'static str,
    kr: usize,
    sr: usize,
) -> Checked {
    if rows == 0 {
        return Err(Violation {
            condition: rows_condition,
        });
    }
    if kr == 0 || sr == 0 {
        return Err(Violation {
            condition: "kr > 0 && sr > 0",
        });
    }
    require(kr % sr == 0, "(kr % sr) == 0")
}
