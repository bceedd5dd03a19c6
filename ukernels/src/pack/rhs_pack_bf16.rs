//! The bf16 RHS packers of the bf16 GEMM families (K x N sources):
//! `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`, `rhs_pack_kxn_bf16p12x4biasf32_f16_neon`,
//! `rhs_pack_kxn_bf16p12x4biasf16_f16_neon` and, for the SME family,
//! `rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`.
//!
//! Format ([`RhsLayout::Bf16Bias`]): groups of `nr` columns (12; 2 x SVL32 for the SME packer);
//! each group holds its `nr` biases (f32 or f16, byte copies; zeros for a null bias), then for
//! every `kr` K values (4; 2 for the SME packer) the `kr` bf16 values of column 0, then of column
//! 1, ... of column `nr - 1`. Values are converted as `BFCVT` does with the default FPCR (f16
//! sources widened to f32 first). Behaviours of KleidiAI's asm reproduced on purpose:
//!
//! * the K values past `k` (up to a multiple of `kr`) repeat the first source row, column by
//!   column (its tail points the missing rows at the start of the matrix), not zeros;
//! * NEON packers: in the last, partial group only the `n % 12` real biases are written, the
//!   other bias slots keep whatever the destination held. The SME packer writes zeros there
//!   (predicated loads of the bias, whole-vector stores). Data slots of the missing columns are
//!   zero in both.
//!
//! The SME packer requires a bias (KleidiAI asserts `bias != NULL`). rkai packs it with scalar
//! code that runs on any CPU (KleidiAI's converts with streaming `BFCVT`/`BFCVTNT`, which would
//! follow a non-default FPCR; rkai assumes the default FPCR).

use crate::contract::{self, Checked};
use crate::float;
use crate::layout::RhsLayout;

/// Columns per packed group of the NEON packers.
pub const NR: usize = 12;
/// K values per packed step of the NEON packers.
pub const KR: usize = 4;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Bf16RhsPacker as Variant;

impl Variant {
    /// Bytes per source value.
    pub const fn source_bytes(self) -> usize {
        match self {
            Variant::QuantF32 | Variant::KxnF32Sme => 4,
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
        matches!(self, Variant::F16BiasF16 | Variant::KxnF32Sme)
    }

    /// Whether this is the SME packer (`bf16p2vlx2b`).
    pub const fn is_sme(self) -> bool {
        matches!(self, Variant::KxnF32Sme)
    }

    /// Columns per packed group (for the SME packer, 2 x the streaming vector length in 32-bit
    /// lanes on this CPU).
    #[inline(always)]
    pub fn nr(self) -> usize {
        if self.is_sme() {
            2 * crate::arch::sme_lanes32()
        } else {
            NR
        }
    }

    /// K values per packed step.
    pub const fn kr(self) -> usize {
        if self.is_sme() { 2 } else { KR }
    }
}

/// Arguments of one packing call: those every RHS packer takes (see [`super::args::RhsArgs`]).
pub use super::args::RhsArgs as Args;

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
            contract::require(a.nr == v.nr(), "nr == kai_nr")?;
            contract::require(a.kr == v.kr(), "kr == kai_kr")?;
            contract::require(a.sr == 1, "sr == 1")?;
        }
    }
    a.check_float_buffers(v.is_sme())?;
    v.layout().size(a.n, a.k, v.nr(), v.kr(), 1)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold `k` rows of `n` values `rhs_stride` bytes apart,
/// `bias` (when non-null) `n` values, and `rhs_packed` must be writable for the packed size.
pub unsafe fn run(v: Variant, a: &Args) {
    let (sb, bb) = (v.source_bytes(), v.bias_bytes());
    let (nr, kr) = (v.nr(), v.kr());
    let kp = a.k.div_ceil(kr) * kr;
    let stride = nr * (bb + 2 * kp);
    // Read once per call, not per group.
    let bfcvt = crate::arch::Features::detect().contains(crate::arch::Features::BF16);
    let value = |kk: usize, col: usize| -> u16 {
        // K values past k repeat row 0 (KleidiAI's pad row); callers only ask for k >= 1.
        let kk = if kk < a.k { kk } else { 0 };
        // SAFETY: row kk < k holds n values; col < n.
        unsafe {
            let p = a.rhs.add(kk * a.rhs_stride + col * sb);
            match v {
                Variant::QuantF32 | Variant::KxnF32Sme => {
                    float::bf16_from_f32_bits(p.cast::<u32>().read_unaligned())
                }
                _ => float::bf16_from_f32_bits(float::f16::to_f32_bits(
                    p.cast::<u16>().read_unaligned(),
                )),
            }
        }
    };
    for (g, col0) in (0..a.n).step_by(nr).enumerate() {
        let cols = nr.min(a.n - col0);
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
            // The SME packer zeroes the bias slots of missing columns.
            if v.is_sme() {
                core::ptr::write_bytes(out.add(cols * bb), 0, (nr - cols) * bb);
            }
        }
        // SAFETY: the group's data follows its nr biases.
        let mut data = unsafe { out.add(nr * bb) };
        // SAFETY: a full group's columns col0..col0 + 12 exist in every source row.
        let done = if cols == NR && !v.is_sme() {
            unsafe { fast_blocks(v, a, col0, data, bfcvt) }
        } else {
            0
        };
        // SAFETY: the fast path wrote `done` K values of the group's 12 columns.
        data = unsafe { data.add(done * nr * 2) };
        for k0 in (done..kp).step_by(kr) {
            for c in 0..nr {
                for i in 0..kr {
                    let bits = if c < cols { value(k0 + i, col0 + c) } else { 0 };
                    // SAFETY: nr * kp values follow the biases, written in order.
                    unsafe {
                        data.cast::<u16>().write_unaligned(bits);
                        data = data.add(2);
                    }
                }
            }
        }
    }
}

/// The NEON part of [`run`] for a full group of 12 columns starting at `col0`: packs the first
/// `4 * floor(k / 4)` K values to `data` (with `BFCVTN` when `bfcvt`, the CPU having FEAT_BF16)
/// and returns how many it packed (0 where it does not apply).
///
/// # Safety
/// As for [`run`]; columns `col0..col0 + 12` exist and `data` is the group's data.
#[allow(unused_variables)]
unsafe fn fast_blocks(v: Variant, a: &Args, col0: usize, data: *mut u8, bfcvt: bool) -> usize {
    #[cfg(target_arch = "aarch64")]
    if a.k >= KR {
        let blocks = a.k / KR;
        // SAFETY: 4 * blocks rows of 12 values from col0, rhs_stride bytes apart; the group's
        // data holds 48 values per block.
        unsafe {
            let src = a.rhs.add(col0 * v.source_bytes());
            match (v, bfcvt) {
                (Variant::QuantF32, true) => neon::group_f32_bfcvt(src, a.rhs_stride, blocks, data),
                (Variant::QuantF32, false) => neon::group_f32(src, a.rhs_stride, blocks, data),
                (_, true) => neon::group_f16_bfcvt(src, a.rhs_stride, blocks, data),
                (_, false) => neon::group_f16(src, a.rhs_stride, blocks, data),
            }
        }
        return KR * blocks;
    }
    0
}

/// NEON packing of full groups: per block of 4 K rows, each row's 12 values are rounded to bf16,
/// then the 4 x 12 block is transposed to 12 columns of 4 K values with `ZIP1`/`ZIP2` on
/// halfwords and words. The rounding is `BFCVTN` on FEAT_BF16 CPUs (as KleidiAI's packer does, so
/// a non-default FPCR acts the same), and integer arithmetic giving `BFCVT`'s bits with the
/// default FPCR elsewhere (3.1 against about 1 instruction per weight).
#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::asm;

    /// Transposes rows `v19`..`v22` (columns 0-7) and `v23`, `v29`..`v31` (columns 8-11, low
    /// halves) of one K block and stores the 12 columns x 4 K values (96 bytes) at `x2`, which
    /// advances.
    macro_rules! transpose_store {
        () => {
            concat!(
                "zip1 v0.8h, v19.8h, v20.8h\n",
                "zip2 v1.8h, v19.8h, v20.8h\n",
                "zip1 v2.8h, v21.8h, v22.8h\n",
                "zip2 v3.8h, v21.8h, v22.8h\n",
                "zip1 v6.4s, v0.4s, v2.4s\n",
                "zip2 v7.4s, v0.4s, v2.4s\n",
                "zip1 v16.4s, v1.4s, v3.4s\n",
                "zip2 v17.4s, v1.4s, v3.4s\n",
                "stp q6, q7, [x2]\n",
                "stp q16, q17, [x2, #32]\n",
                "zip1 v0.8h, v23.8h, v29.8h\n",
                "zip1 v1.8h, v30.8h, v31.8h\n",
                "zip1 v2.4s, v0.4s, v1.4s\n",
                "zip2 v3.4s, v0.4s, v1.4s\n",
                "stp q2, q3, [x2, #64]\n",
                "add x2, x2, #96\n",
            )
        };
    }

    /// Loads 12 f32 values at `[$row]` into `v0`..`v2`.
    #[rustfmt::skip]
    macro_rules! load_f32 {
        ($row:literal) => {
            concat!(
                "ldp q0, q1, [", $row, "]\n",
                "ldr q2, [", $row, ", #32]\n",
            )
        };
    }

    /// Loads 12 f16 values at `[$row]` and widens them exactly into `v0`..`v2`.
    #[rustfmt::skip]
    macro_rules! load_f16 {
        ($row:literal) => {
            concat!(
                "ldr q3, [", $row, "]\n",
                "ldr d4, [", $row, ", #16]\n",
                "fcvtl v0.4s, v3.4h\n",
                "fcvtl2 v1.4s, v3.8h\n",
                "fcvtl v2.4s, v4.4h\n",
            )
        };
    }

    /// Rounds `v0`..`v2` to bf16 into `v$lo` (columns 0-7) and `v$hi` (8-11): with `BFCVTN`
    /// `bfcvt`) or with the integer rounding of [`bf16_from!`] (`int`.
    #[rustfmt::skip]
    macro_rules! round3 {
        (bfcvt, $lo:literal, $hi:literal) => {
            concat!(
                "bfcvtn v", $lo, ".4h, v0.4s\n",
                "bfcvtn2 v", $lo, ".8h, v1.4s\n",
                "bfcvtn v", $hi, ".4h, v2.4s\n",
            )
        };
        (int, $lo:literal, $hi:literal) => {
            concat!(
                bf16_from!("0", "xtn", $lo, "4h"),
                bf16_from!("1", "xtn2", $lo, "8h"),
                bf16_from!("2", "xtn", $hi, "4h"),
            )
        };
    }

    /// One full group: rows loaded by `$load!` and rounded by `round3!($round, ..)`; `x0` first
    /// row, `x1` row stride, `x3` K blocks, `x2` output.
    macro_rules! group {
        ($load:ident, $round:ident, $src:expr, $stride:expr, $blocks:expr, $out:expr) => {
            // SAFETY (of the caller): 4 * blocks rows of 12 values from x0, 96 bytes per block
            // at x2; only the declared registers are touched.
            unsafe {
                asm!(
                    bf16_constants!(),
                    "2:",
                    "add x9, x0, x1",
                    "add x10, x9, x1",
                    "add x11, x10, x1",
                    $load!("x0"),
                    round3!($round, "19", "23"),
                    $load!("x9"),
                    round3!($round, "20", "29"),
                    $load!("x10"),
                    round3!($round, "21", "30"),
                    $load!("x11"),
                    round3!($round, "22", "31"),
                    transpose_store!(),
                    "add x0, x11, x1",
                    "subs x3, x3, #1",
                    "b.ne 2b",
                    inout("x0") $src => _,
                    in("x1") $stride,
                    inout("x2") $out => _,
                    inout("x3") $blocks => _,
                    out("x9") _, out("x10") _, out("x11") _, out("x17") _,
                    out("v0") _, out("v1") _, out("v2") _, out("v3") _, out("v4") _,
                    out("v6") _, out("v7") _, out("v16") _, out("v17") _, out("v18") _,
                    out("v19") _, out("v20") _, out("v21") _, out("v22") _, out("v23") _,
                    out("v24") _, out("v25") _, out("v26") _, out("v27") _, out("v28") _,
                    out("v29") _, out("v30") _, out("v31") _,
                    options(nostack),
                )
            }
        };
    }

    /// `blocks` K blocks of 12 f32 columns from `src` (rows `stride` bytes apart) to `out`.
    ///
    /// # Safety
    /// `4 * blocks` rows of 12 floats are readable, `96 * blocks` bytes at `out` writable;
    /// `blocks >= 1`.
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn group_f32(src: *const u8, stride: usize, blocks: usize, out: *mut u8) {
        group!(load_f32, int, src, stride, blocks, out);
    }

    /// As [`group_f32`] for f16 sources.
    ///
    /// # Safety
    /// As for [`group_f32`], with rows of 12 halves (`FCVTL` from half precision is base
    /// Advanced SIMD).
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn group_f16(src: *const u8, stride: usize, blocks: usize, out: *mut u8) {
        group!(load_f16, int, src, stride, blocks, out);
    }

    /// As [`group_f32`] with `BFCVTN`.
    ///
    /// # Safety
    /// As for [`group_f32`]; the CPU implements FEAT_BF16.
    #[target_feature(enable = "bf16")]
    pub(super) unsafe fn group_f32_bfcvt(
        src: *const u8,
        stride: usize,
        blocks: usize,
        out: *mut u8,
    ) {
        group!(load_f32, bfcvt, src, stride, blocks, out);
    }

    /// As [`group_f16`] with `BFCVTN`.
    ///
    /// # Safety
    /// As for [`group_f16`]; the CPU implements FEAT_BF16.
    #[target_feature(enable = "bf16")]
    pub(super) unsafe fn group_f16_bfcvt(
        src: *const u8,
        stride: usize,
        blocks: usize,
        out: *mut u8,
    ) {
        group!(load_f16, bfcvt, src, stride, blocks, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon: Rhs(Bf16(Variant::QuantF32));
    rhs_pack_kxn_bf16p12x4biasf32_f16_neon: Rhs(Bf16(Variant::F16BiasF32));
    rhs_pack_kxn_bf16p12x4biasf16_f16_neon: Rhs(Bf16(Variant::F16BiasF16));
    rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme: Rhs(Bf16(Variant::KxnF32Sme));
}
