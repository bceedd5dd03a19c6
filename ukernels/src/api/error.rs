//! Why a safe call refused its arguments.

use crate::contract::Violation;
use core::fmt;

/// Why a safe call refused its arguments. More variants may come with more families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A precondition of the kernel or packer does not hold (KleidiAI's condition text).
    Precondition(&'static str),
    /// A buffer is shorter than the operation needs.
    BufferTooSmall {
        /// Which buffer.
        buffer: &'static str,
        /// Elements (or bytes, for packed storage) needed.
        needed: usize,
        /// Elements (or bytes) given.
        given: usize,
    },
    /// Two operands disagree about a dimension.
    ShapeMismatch {
        /// Which dimension.
        dimension: &'static str,
        /// Its value in the packed operand.
        packed: usize,
        /// Its value in the call.
        given: usize,
    },
    /// An operand is not in a format the kernel reads (packed for another kernel's format, a
    /// source form the kernel's packers do not take, or another output type).
    FormatMismatch(&'static str),
    /// The activations came packed to a kernel that reads rows as they are, or as rows to one
    /// that reads them packed (see [`super::Lhs`]).
    LhsForm {
        /// Whether the kernel reads packed activations.
        kernel_reads_packed: bool,
    },
    /// The output stage does not fit the kernel: a [`super::Clamp`] ([`super::matmul`]) for a
    /// kernel that requantizes to int8, or a [`super::Requantize`]
    /// ([`super::matmul_requantized`]) for one that writes floats.
    OutputStage {
        /// Whether the kernel requantizes to int8.
        kernel_requantizes: bool,
    },
    /// This CPU cannot run the kernel (or no kernel of the family).
    NotSupportedByCpu(&'static str),
    /// Packed bytes follow another vector length than the kernel's on this CPU (SVE and SME
    /// formats are tied to the length they were packed at).
    VectorLengthMismatch {
        /// Bytes per vector the data was packed for.
        packed: usize,
        /// Bytes per vector the kernel's format follows here.
        here: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Precondition(c) => write!(f, "precondition failed: {c}"),
            Error::BufferTooSmall {
                buffer,
                needed,
                given,
            } => write!(f, "{buffer} holds {given} but needs {needed}"),
            Error::ShapeMismatch {
                dimension,
                packed,
                given,
            } => write!(
                f,
                "{dimension} is {packed} in the packed operand but {given} here"
            ),
            Error::FormatMismatch(what) => write!(f, "{what} is not in a format the kernel reads"),
            Error::LhsForm {
                kernel_reads_packed: true,
            } => write!(f, "the kernel reads packed activations (Lhs::Packed)"),
            Error::LhsForm {
                kernel_reads_packed: false,
            } => write!(
                f,
                "the kernel reads activation rows as they are (Lhs::Rows)"
            ),
            Error::OutputStage {
                kernel_requantizes: true,
            } => write!(
                f,
                "the kernel requantizes to int8 (matmul_requantized with a Requantize)"
            ),
            Error::OutputStage {
                kernel_requantizes: false,
            } => write!(f, "the kernel writes floats (matmul with a Clamp)"),
            Error::NotSupportedByCpu(what) => write!(f, "this CPU cannot run {what}"),
            Error::VectorLengthMismatch { packed, here } => write!(
                f,
                "packed for {packed}-byte vectors, but the kernel follows {here}-byte vectors here"
            ),
        }
    }
}

impl core::error::Error for Error {}

impl From<Violation> for Error {
    fn from(v: Violation) -> Self {
        Error::Precondition(v.condition)
    }
}

/// Result of the safe API.
pub type Result<T> = core::result::Result<T, Error>;

/// [`Error::VectorLengthMismatch`] unless bytes packed at `packed` vector bytes suit this CPU's
/// `here`.
pub(super) fn same_vector_length(packed: usize, here: usize) -> Result<()> {
    if packed != here {
        return Err(Error::VectorLengthMismatch { packed, here });
    }
    Ok(())
}

/// [`Error::BufferTooSmall`] unless `given >= needed`.
pub(super) fn need(buffer: &'static str, needed: usize, given: usize) -> Result<()> {
    if given < needed {
        return Err(Error::BufferTooSmall {
            buffer,
            needed,
            given,
        });
    }
    Ok(())
}

/// [`Error::ShapeMismatch`] unless `packed == given`.
pub(super) fn same(dimension: &'static str, packed: usize, given: usize) -> Result<()> {
    if packed != given {
        return Err(Error::ShapeMismatch {
            dimension,
            packed,
            given,
        });
    }
    Ok(())
}

/// Elements a source of `rows` rows of `cols` values `stride` apart reads (0 without rows):
/// `(rows - 1) * stride + cols`, or `None` when that overflows or `stride < cols`.
pub(super) fn strided_len(rows: usize, cols: usize, stride: usize) -> Result<usize> {
    if rows == 0 {
        return Ok(0);
    }
    if stride < cols {
        return Err(Error::Precondition("stride >= k"));
    }
    (rows - 1)
        .checked_mul(stride)
        .and_then(|v| v.checked_add(cols))
        .ok_or(Error::Precondition("source extent fits in usize"))
}
