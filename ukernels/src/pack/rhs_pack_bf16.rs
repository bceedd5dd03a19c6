//! The bf16 RHS packers of the bf16 GEMM families (K x N sources):
//! `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`, `rhs_pack_kxn_bf16p12x4biasf32_f16_neon` and
//! `rhs_pack_kxn_bf16p12x4biasf16_f16_neon`.
//!
//! Format ([`RhsLayout::Bf16Bias`]): groups of 12 columns; each group holds its 12 biases (f32 or
//! f16, byte copies; zeros for a null bias), then for every 4 K values the 4 bf16 values of column
//! 0, then of column 1, ... of column 11. Values are converted as `BFCVT` does (f16 sources
//! widened to f32 first). Two behaviours of KleidiAI's asm are reproduced on purpose:
//!
//! * the K values past `k` (up to a multiple of 4) repeat the first source row, column by column
//!   (its tail loop points the missing rows at the start of the matrix), not zeros;
//! * in the last, partial group only the `n % 12` real biases are written: the other bias slots
//!   keep whatever the destination held. Data slots of the missing columns are zero.

use crate::contract::{self, Checked};
use crate::float;
use crate::layout::RhsLayout;

/// Columns per packed group.
pub const NR: usize = 12;
/// K values per packed step.
pub const KR: usize = 4;

/// One of the bf16 RHS packers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`: f32 values and biases; its offset and
    /// size getters take (and assert) `nr` and `kr`.
    QuantF32,
    /// `kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon`: f16 values, f32 biases.
    F16BiasF32,
    /// `kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon`: f16 values and biases.
    F16BiasF16,
}

impl Variant {
    /// Bytes per source value.
    pub const fn source_bytes(self) -> usize {
        match self {
            Variant::QuantF32 => 4,
            _ => 2,
        }
    }

    /// Bytes per bias.
    pub const fn bias_bytes(self) -> usize {
        match self {
            Variant::F16BiasF16 => 2,
            _ => 4,
        }
    }

    /// The packed format.
    pub const fn layout(self) -> RhsLayout {
        RhsLayout::Bf16Bias {
            bias_bytes: self.bias_bytes(),
        }
    }

    /// Whether the packer has a `get_rhs_packed_stride` getter.
    pub const fn has_stride_getter(self) -> bool {
        matches!(self, Variant::F16BiasF16)
    }
}

/// Arguments of one packing call, as the C entry point receives them.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Must be 1.
    pub num_groups: usize,
    /// Output channels.
    pub n: usize,
    /// Reduction length.
    pub k: usize,
    /// Must be 12.
    pub nr: usize,
    /// Must be 4.
    pub kr: usize,
    /// Must be 1.
    pub sr: usize,
    /// Bytes between the K source rows.
    pub rhs_stride: usize,
    /// K x N source.
    pub rhs: *const u8,
    /// `n` biases or null.
    pub bias: *const u8,
    /// Must be null.
    pub scale: *const u8,
    /// Destination.
    pub rhs_packed: *mut u8,
    /// Must be 0.
    pub extra_bytes: usize,
    /// Must be null.
    pub params: *const u8,
}

/// Checks what the packer requires (KleidiAI's assertions) and that the packed size fits.
pub fn check(v: Variant, a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    match v {
        Variant::QuantF32 => {
            contract::require(a.nr == NR, "kai_nr == nr")?;
            contract::require(a.kr == KR, "kai_kr == kr")?;
            contract::require(a.sr == 1, "kai_sr == sr")?;
        }
        _ => {
            contract::require(a.nr == NR, "nr == kai_nr")?;
            contract::require(a.kr == KR, "kr == kai_kr")?;
            contract::require(a.sr == 1, "sr == 1")?;
        }
    }
    contract::require(!a.rhs.is_null(), "rhs != NULL")?;
    contract::require(a.scale.is_null(), "scale == NULL")?;
    contract::require(!a.rhs_packed.is_null(), "rhs_packed != NULL")?;
    contract::require(a.extra_bytes == 0, "extra_bytes == 0")?;
    contract::require(a.params.is_null(), "params == NULL")?;
    v.layout().size(a.n, a.k, NR, KR, 1)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold `k` rows of `n` values `rhs_stride` bytes apart,
/// `bias` (when non-null) `n` values, and `rhs_packed` must be writable for the packed size.
pub unsafe fn run(v: Variant, a: &Args) {
    let (sb, bb) = (v.source_bytes(), v.bias_bytes());
    let kp = a.k.div_ceil(KR) * KR;
    let stride = NR * (bb + 2 * kp);
    let value = |kk: usize, col: usize| -> u16 {
        // K values past k repeat row 0 (KleidiAI's pad row); callers only ask for k >= 1.
        let kk = if kk < a.k { kk } else { 0 };
        // SAFETY: row kk < k holds n values; col < n.
        unsafe {
            let p = a.rhs.add(kk * a.rhs_stride + col * sb);
            match v {
                Variant::QuantF32 => float::bf16_from_f32_bits(p.cast::<u32>().read_unaligned()),
                _ => float::bf16_from_f32_bits(float::f16::to_f32_bits(
                    p.cast::<u16>().read_unaligned(),
                )),
            }
        }
    };
    for (g, col0) in (0..a.n).step_by(NR).enumerate() {
        let cols = NR.min(a.n - col0);
        // SAFETY: every group lies inside the packed size of n columns.
        let out = unsafe { a.rhs_packed.add(g * stride) };
        // SAFETY: the biases (when given) hold n values; only the real columns' slots are
        // written, as KleidiAI does.
        unsafe {
            if a.bias.is_null() {
                core::ptr::write_bytes(out, 0, cols * bb);
            } else {
                core::ptr::copy_nonoverlapping(a.bias.add(col0 * bb), out, cols * bb);
            }
        }
        // SAFETY: the group's data follows its NR biases.
        let mut data = unsafe { out.add(NR * bb) };
        for k0 in (0..kp).step_by(KR) {
            for c in 0..NR {
                for i in 0..KR {
                    let bits = if c < cols { value(k0 + i, col0 + c) } else { 0 };
                    // SAFETY: NR * kp values follow the biases, written in order.
                    unsafe {
                        data.cast::<u16>().write_unaligned(bits);
                        data = data.add(2);
                    }
                }
            }
        }
    }
}
