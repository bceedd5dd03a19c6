//! `kai_lhs_pack_f16pmrx2_f32_neon` through its exported C symbols: getters follow KleidiAI's
//! formulas and assertions, and the packed bytes equal a scalar packing (conversion by the `half`
//! crate, an implementation independent of rkai's) at every `mr` from 1 to 17 and the SME
//! vector-length multiples, over NaN, infinite, subnormal, overflowing and tie inputs, with
//! buffers against guard pages and the rows past `m` left untouched.

use crate::support;

use support::cabi::{BlockLhsGetter, Getter1, Getter2, func, pack_block_lhs};
use support::guard::{EDGES, Guarded};
use support::rng::Rng;

const PACKER: &str = "lhs_pack_f16pmrx2_f32_neon";
const UNTOUCHED: u8 = 0xa5;

/// `FCVTN`'s rounding of one value, as the `half` crate computes it (ties to even, overflow to
/// infinity, NaN quieted keeping the sign and the top payload bits).
fn to_f16(x: f32) -> u16 {
    half::f16::from_f32(x).to_bits()
}

/// The packed LHS written out: block `b`, pair `p` of row `i` at halves `b mr k + 2 (p mr + i)`.
fn reference(m: usize, k: usize, mr: usize, lhs: &[f32], size: usize) -> Vec<u8> {
    let mut out = vec![UNTOUCHED; size];
    for row in 0..m {
        let (b, i) = (row / mr, row % mr);
        for v in 0..k {
            let at = 2 * (b * mr * k + 2 * ((v / 2) * mr + i) + v % 2);
            out[at..at + 2].copy_from_slice(&to_f16(lhs[row * k + v]).to_le_bytes());
        }
    }
    out
}

/// Values where the conversion's rounding and special cases show.
fn specials() -> Vec<f32> {
    vec![
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001), // signalling NaN, payload below the kept bits
        f32::from_bits(0x7fa0_2000), // signalling NaN, payload kept
        f32::from_bits(0xffc0_1234),
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        f32::from_bits(1), // f32 subnormal
        -f32::from_bits(0x007f_ffff),
        5.960_464_5e-8,              // smallest f16 subnormal
        2.980_232_2e-8,              // half of it: ties to even, to zero
        8.940_697e-8,                // 1.5 of it: ties to even, up
        f32::from_bits(0x387f_c000), // largest f16 subnormal
        6.103_515_6e-5,              // smallest f16 normal
        65504.0,                     // f16 max
        65519.996,                   // rounds down to max
        65520.0,                     // overflows to infinity
        -70000.0,
        f32::MAX,
        1.000_488_3, // 1 + 2^-11: tie, to even (1.0)
        1.001_464_8, // 1 + 3 * 2^-11: tie, to even (up)
        0.333_333_34,
    ]
}

#[test]
fn getters_follow_kleidiai() {
    let m_step: Getter1 = func("get_m_step", PACKER);
    let lhs_offset: Getter2 = func("get_lhs_offset", PACKER);
    let offset: BlockLhsGetter = func("get_lhs_packed_offset", PACKER);
    let size: BlockLhsGetter = func("get_lhs_packed_size", PACKER);
    let mut cases = 0;
    for mr in [1, 2, 3, 4, 5, 8, 16, 32, 64] {
        assert_eq!(m_step(mr), mr);
        for (k, bl, kr) in [
            (32, 32, 2),
            (64, 32, 2),
            (128, 64, 4),
            (96, 32, 2),
            (2, 2, 2),
        ] {
            let block = mr * k * 2;
            for m in [1, mr, mr + 1, 3 * mr + 2] {
                assert_eq!(size(m, k, bl, mr, kr, 2), m.div_ceil(mr) * block);
                cases += 1;
            }
            assert_eq!(offset(3 * mr, k, bl, mr, kr, 2), 3 * block);
            assert_eq!(lhs_offset(5, 4 * k), 20 * k);
        }
    }
    println!("RELIABILITY getters: {cases} cases");
}

#[test]
fn packed_bytes_equal_reference_at_every_mr() {
    let size: BlockLhsGetter = func("get_lhs_packed_size", PACKER);
    let mut rng = Rng::new(17);
    let specials = specials();
    let mut cases = 0;
    let mrs: Vec<usize> = (1..=17).chain([24, 32, 64]).collect();
    for (n, &mr) in mrs.iter().enumerate() {
        for k in [2, 6, 16, 32, 48, 64] {
            for m in [1, mr.saturating_sub(1).max(1), mr, mr + 1, 2 * mr + 3] {
                let mut lhs = rng.vec_f32(m * k, -4.0, 4.0);
                for (i, v) in lhs.iter_mut().enumerate() {
                    if i % 3 == n % 3 {
                        *v = specials[(i / 3 + n) % specials.len()];
                    }
                }
                let bytes = size(m, k, k, mr, 2, 2);
                let want = reference(m, k, mr, &lhs, bytes);
                let edge = EDGES[cases % 2];
                let src = Guarded::from_f32(&lhs, edge);
                let mut out = Guarded::from_bytes(&vec![UNTOUCHED; bytes], edge);
                let (shape, tile, src) = ((m, k, 7), (mr, 3, 2), (src.ptr().cast(), 1));
                // SAFETY: buffers sized for the call; stride, bl, kr and m_idx_start are ignored
                // as KleidiAI ignores them (odd values show it).
                unsafe { pack_block_lhs(PACKER, shape, tile, 5, src, out.mut_ptr().cast()) };
                assert_eq!(out.bytes(), &want[..], "m {m} k {k} mr {mr}");
                cases += 1;
            }
        }
    }
    println!("RELIABILITY packed bytes: {cases} cases");
}

/// Packer `name` called with sr = 1 (one row, k = 2), which it refuses before any access.
fn pack_with_sr_1(name: &str) {
    let mut out = [0u8; 64];
    let zeros = [0.0f32; 2];
    let src = (zeros.as_ptr().cast(), 8);
    // SAFETY: refused before any access.
    unsafe { pack_block_lhs(name, (1, 2, 2), (1, 2, 1), 0, src, out.as_mut_ptr().cast()) }
}

fn cases() -> Vec<support::death::Case<String, String>> {
    vec![
        run_case!("sr_not_2", "sr == 2" => pack_with_sr_1(PACKER)),
        getter_case!("k_not_multiple_of_bl", "(k % bl) == 0"
            => get_lhs_packed_size::<BlockLhsGetter>(PACKER)(4, 48, 32, 4, 2, 2)),
        getter_case!("odd_k", "(k % 2) == 0"
            => get_lhs_packed_offset::<BlockLhsGetter>(PACKER)(0, 3, 1, 4, 1, 2)),
        getter_case!("m_idx_not_multiple_of_mr", "(m_idx % mr) == 0"
            => get_lhs_packed_offset::<BlockLhsGetter>(PACKER)(3, 32, 32, 4, 2, 2)),
    ]
}

death_tests!(cases, "f16pmrx2 packer contract violations");
