//! What the bf16 packers' tests (`tests/suite/bf16_pack.rs`, the SME ones in `tests/suite/bf16_sme.rs`) share:
//! the conversion every packer applies, KleidiAI's bf16 RHS layout (both the NEON `12x4b` and
//! the SME `2vlx2b` packers write it, with their own group width and K block), the source
//! helpers and the inputs of the conversion-against-the-instruction tests.

use super::guard::{Edge, Guarded};

/// The bf16 bits a packer writes for f32 `bits`: rounded to nearest even (`half`), NaNs quieted
/// with their sign and upper payload kept (as `BFCVT` does).
pub fn bf16_bits(bits: u32) -> u16 {
    if bits & 0x7fff_ffff > 0x7f80_0000 {
        return ((bits >> 16) | 0x0040) as u16;
    }
    half::bf16::from_f32(f32::from_bits(bits)).to_bits()
}

/// KleidiAI's bf16 RHS layout of `n` columns of `k` values: groups of `nr` columns, each the
/// bytes `bias(j)` of its columns `j` (also past `n`: the caller says what those hold), then K
/// padded to whole blocks of `kb` values, a block of each column of the group in turn: the bits
/// `value(kk, j)` (also for `kk` past `k`) of the columns before `n`, zeros after.
pub fn rhs_layout(
    (n, k): (usize, usize),
    (nr, kb): (usize, usize),
    bias: impl Fn(usize) -> Vec<u8>,
    value: impl Fn(usize, usize) -> u16,
) -> Vec<u8> {
    let kp = k.div_ceil(kb) * kb;
    let mut out = Vec::new();
    for g in 0..n.div_ceil(nr) {
        for j in g * nr..(g + 1) * nr {
            out.extend(bias(j));
        }
        for k0 in (0..kp).step_by(kb) {
            for j in g * nr..(g + 1) * nr {
                for kk in k0..k0 + kb {
                    let bits = if j < n { value(kk, j) } else { 0 };
                    out.extend_from_slice(&bits.to_le_bytes());
                }
            }
        }
    }
    out
}

/// The `k` x `n` values of a source whose rows are `stride` values apart.
pub fn kxn_values(src: &[u32], (k, n): (usize, usize), stride: usize) -> Vec<u32> {
    (0..k * n).map(|i| src[i / n * stride + i % n]).collect()
}

/// A source buffer holding `bytes` against a guard page at `edge`; one zero byte where there
/// are none (k = 0), so the packer still gets a valid pointer.
pub fn source(bytes: &[u8], edge: Edge) -> Guarded {
    Guarded::from_bytes(if bytes.is_empty() { &[0] } else { bytes }, edge)
}

/// The f32 bit patterns a conversion test starts with: a signalling NaN, a NaN with a payload,
/// the largest finite value (rounds up to infinity), ties with even below and above, the
/// smallest subnormal.
pub const CONVERSION_SPECIALS: [u32; 6] = [
    0x7f80_0001,
    0xffc1_2345,
    0x7f7f_ffff,
    0x3f80_8000,
    0x3f81_8000,
    1,
];

/// `count` f32 bit patterns for a conversion test: `specials` first, then a xorshift sequence.
pub fn conversion_inputs(count: u32, specials: &[u32]) -> impl Iterator<Item = u32> + '_ {
    let mut x = 0x9e37_79b9u32;
    (0..count).map(move |i| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        specials.get(i as usize).copied().unwrap_or(x)
    })
}
