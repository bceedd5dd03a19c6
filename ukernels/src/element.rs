//! The element types a kernel writes: f32, or one of the two 16-bit types the f32 results are
//! rounded to.

/// Element type a family writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// IEEE binary32.
    F32,
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// Requantized `int8_t` (the `qai8` destinations).
    I8,
}

impl Output {
    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Output::F32 => 4,
            Output::F16 | Output::Bf16 => 2,
            Output::I8 => 1,
        }
    }

    /// C spelling of `sizeof` the element, for contract messages.
    pub const fn size_condition(self) -> &'static str {
        match self {
            Output::F32 => "dst_stride_col == sizeof(float)",
            Output::F16 | Output::Bf16 => "dst_stride_col == sizeof(uint16_t)",
            Output::I8 => "dst_stride_col == sizeof(int8_t)",
        }
    }

    /// C spelling of the destination row check, for contract messages.
    pub const fn row_condition(self) -> &'static str {
        match self {
            Output::F32 => "dst_stride_row >= n * sizeof(float)",
            Output::F16 | Output::Bf16 => "dst_stride_row >= n * sizeof(uint16_t)",
            Output::I8 => "dst_stride_row >= n * sizeof(int8_t)",
        }
    }

    /// The 16-bit type results are narrowed to, if any.
    pub const fn narrowing(self) -> Option<Narrow> {
        match self {
            Output::F32 | Output::I8 => None,
            Output::F16 => Some(Narrow::F16),
            Output::Bf16 => Some(Narrow::Bf16),
        }
    }
}

/// A 16-bit output type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
}

impl Narrow {
    /// Rounds `v` to this type (nearest, ties to even; NaNs stay quiet NaNs).
    #[inline]
    pub fn bits(self, v: f32) -> u16 {
        match self {
            Narrow::F16 => half::f16::from_f32(v).to_bits(),
            Narrow::Bf16 => half::bf16::from_f32(v).to_bits(),
        }
    }

    /// The f32 value of `bits` of this type (exact).
    #[inline]
    pub fn widen(self, bits: u16) -> f32 {
        match self {
            Narrow::F16 => half::f16::from_bits(bits).to_f32(),
            Narrow::Bf16 => half::bf16::from_bits(bits).to_f32(),
        }
    }
}
