//! The bf16 LHS packers of the bf16 GEMM families (`matmul_clamp_{f32,f16}_bf16p_bf16p` and the
//! SME family `matmul_clamp_fp32_bf16p_bf16p`): `lhs_quant_pack_bf16p8x4_f32_neon`,
//! `lhs_quant_pack_bf16p1x4_f32_neon`, `lhs_pack_bf16p8x4_f16_neon`, `lhs_pack_bf16p2vlx2_f32_sme`
//! and `lhs_pack_bf16p2vlx2_f32_sme2`.
//!
//! Format (`bf16p{mr}x{kr}`): blocks of `mr` rows; within a block, for each group of `kr` K
//! values, the `kr` bf16 values of row 0, then of row 1, ... of row `mr - 1`. K is padded with
//! zeros to a multiple of `kr`. Values are converted as `BFCVT` does with the default FPCR (round
//! to nearest even, NaNs quieted, subnormals kept: [`float::bf16_from_f32_bits`]); f16 sources are
//! widened to f32 first (exact).
//!
//! * NEON packers (`kr` = 4, `mr` 8 or 1): the rows past `m` of the last block repeat the block's
//!   first row (KleidiAI's asm points them at it).
//! * SME packers (`bf16p2vlx2`, `kr` = 2, `mr` = 2 x SVL32, a run-time value): the rows past `m`
//!   of the last block are zeros (KleidiAI's asm loads them under a false predicate). The SME and
//!   SME2 packers write the same bytes; rkai packs both with the same scalar code, which runs on
//!   any CPU (KleidiAI converts with streaming `BFCVT`, which would follow a non-default FPCR;
//!   rkai assumes the default FPCR, as every KleidiAI caller has). Their getters ignore `mr`,
//!   `kr` and `sr`; their `run` asserts them and ignores `m_idx_start`.

use crate::contract::{self, Checked};
use crate::float;

/// K values per packed group of the NEON packers.
pub const KR: usize = 4;
/// K values per packed group of the SME packers.
pub const SME_KR: usize = 2;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::Bf16LhsPacker as Variant;

impl Variant {
    /// Whether this is one of the SME packers (`bf16p2vlx2`).
    pub const fn is_sme(self) -> bool {
        matches!(self, Variant::Bf16p2vlx2F32Sme | Variant::Bf16p2vlx2F32Sme2)
    }

    /// Rows per packed block (for the SME packers, 2 x the streaming vector length in 32-bit
    /// lanes on this CPU).
    #[inline(always)]
    pub fn mr(self) -> usize {
        match self {
            Variant::Bf16p1x4F32 => 1,
            Variant::Bf16p8x4F32 | Variant::Bf16p8x4F16 => 8,
            Variant::Bf16p2vlx2F32Sme | Variant::Bf16p2vlx2F32Sme2 => {
                2 * crate::arch::sme_lanes32()
            }
        }
    }

    /// K values per packed group.
    pub const fn kr(self) -> usize {
        if self.is_sme() { SME_KR } else { KR }
    }

    /// Bytes per source element.
    pub const fn source_bytes(self) -> usize {
        match self {
            Variant::Bf16p8x4F16 => 2,
            _ => 4,
        }
    }

    /// KleidiAI's assertions on the (mr, kr, sr) triple every getter receives (the SME packers'
    /// getters ignore it).
    pub fn check_params(self, mr: usize, kr: usize, sr: usize) -> Checked {
        if self.is_sme() {
            return Ok(());
        }
        self.check_run_params(mr, kr, sr)
    }

    /// KleidiAI's assertions on the (mr, kr, sr) triple `run` receives.
    fn check_run_params(self, mr: usize, kr: usize, sr: usize) -> Checked {
        contract::require(mr == self.mr(), "mr == kai_mr")?;
        contract::require(kr == self.kr(), "kr == kai_kr")?;
        contract::require(sr == 1, "sr == kai_sr")
    }

    /// Bytes of the packed LHS of `m` rows of `k` values.
    pub fn packed_size(self, m: usize, k: usize) -> Result<usize, contract::Violation> {
        let cond = "packed LHS size fits in size_t";
        let rows = contract::roundup(m, self.mr(), cond)?;
        let cols = contract::roundup(k, self.kr(), cond)?;
        contract::mul(contract::mul(rows, cols, cond)?, 2, cond)
    }

    /// Byte offset of the packed block holding row `m_idx` (KleidiAI's assertion on `m_idx`
    /// included: a multiple of `mr`, and 0 for the one-row packer).
    pub fn packed_offset(self, m_idx: usize, k: usize) -> Result<usize, contract::Violation> {
        match self {
            Variant::Bf16p1x4F32 => contract::require(m_idx == 0, "m_idx == 0")?,
            Variant::Bf16p8x4F32 => contract::require(m_idx % self.mr() == 0, "m_idx % mr == 0")?,
            Variant::Bf16p8x4F16 | Variant::Bf16p2vlx2F32Sme | Variant::Bf16p2vlx2F32Sme2 => {
                contract::require(m_idx % self.mr() == 0, "m_idx % kai_mr == 0")?
            }
        }
        self.packed_size(m_idx, k)
    }
}

/// Arguments of one packing call: those every LHS packer takes (see [`super::args::LhsArgs`]).
pub use super::args::LhsArgs as Args;

/// Checks what the packer requires (KleidiAI's assertions) and that the packed size fits.
pub fn check(v: Variant, a: &Args) -> Checked {
    v.check_run_params(a.mr, a.kr, a.sr)?;
    if v == Variant::Bf16p1x4F32 {
        contract::require(a.m == 1, "m == 1")?;
    }
    contract::require(!a.lhs.is_null(), "lhs != NULL")?;
    contract::require(!a.lhs_packed.is_null(), "lhs_packed != NULL")?;
    if !v.is_sme() {
        contract::require(a.m_idx_start == 0, "m_idx_start == 0")?;
    }
    v.packed_size(a.m, a.k)?;
    Ok(())
}

/// bf16 bits of source element `i` of the row at `row`.
///
/// # Safety
/// `row` holds at least `i + 1` elements of the packer's source type.
unsafe fn convert(v: Variant, row: *const u8, i: usize) -> u16 {
    // SAFETY: see the function contract.
    unsafe {
        match v {
            Variant::Bf16p8x4F16 => {
                let h = row.add(2 * i).cast::<u16>().read_unaligned();
                float::bf16_from_f32_bits(float::f16::to_f32_bits(h))
            }
            _ => float::bf16_from_f32_bits(row.add(4 * i).cast::<u32>().read_unaligned()),
        }
    }
}

/// Packs the rows.
///
/// # Safety
/// [`check`] must have passed; `lhs` must hold `m` rows of `k` source elements `lhs_stride`
/// bytes apart and `lhs_packed` must be writable for the packed size of `m` rows.
pub unsafe fn run(v: Variant, a: &Args) {
    let (mr, kr) = (v.mr(), v.kr());
    let kp = a.k.div_ceil(kr) * kr;
    let mut out = a.lhs_packed;
    for block in (0..a.m).step_by(mr) {
        let height = mr.min(a.m - block);
        // SAFETY: the block's rows hold k values; out has room for the block.
        let done = unsafe { fast_chunks(v, a, block, height, out) };
        // SAFETY: the fast path wrote `done` K values of each of the mr rows.
        out = unsafe { out.add(2 * mr * done) };
        for k0 in (done..kp).step_by(kr) {
            for r in 0..mr {
                // Rows past m: the block's first row again (NEON), zeros (SME).
                let (r, zero_row) = match (r < height, v.is_sme()) {
                    (true, _) => (r, false),
                    (false, sme) => (0, sme),
                };
                // Not dereferenced past its k values (the one-row packer has a single row).
                let row = a.lhs.wrapping_add((block + r) * a.lhs_stride);
                for i in k0..k0 + kr {
                    let bits = if i < a.k && !zero_row {
                        // SAFETY: row block + r < m holds k source elements.
                        unsafe { convert(v, row, i) }
                    } else {
                        0
                    };
                    // SAFETY: the packed buffer holds roundup(m, mr) * roundup(k, 4) values,
                    // written in order.
                    unsafe {
                        out.cast::<u16>().write_unaligned(bits);
                        out = out.add(2);
                    }
                }
            }
        }
    }
}

/// The NEON part of [`run`] for a full block of f32 rows: converts the first `4 * floor(k / 4)`
/// K values and returns how many it wrote (0 where it does not apply).
///
/// # Safety
/// As for [`run`], for the block of rows starting at `block`, packed at `out`.
#[allow(unused_variables)]
unsafe fn fast_chunks(v: Variant, a: &Args, block: usize, height: usize, out: *mut u8) -> usize {
    #[cfg(target_arch = "aarch64")]
    if matches!(v, Variant::Bf16p8x4F32 | Variant::Bf16p1x4F32) && height == v.mr() && a.k >= KR {
        let chunks = a.k / KR;
        // SAFETY: the block's rows start lhs_stride bytes apart and hold k floats; out holds
        // mr * 4 values per chunk.
        unsafe {
            let first = a.lhs.add(block * a.lhs_stride);
            if v.mr() == 1 {
                neon::convert_row(first, out, chunks);
            } else {
                neon::pack_block8(first, a.lhs_stride, out, chunks);
            }
        }
        return KR * chunks;
    }
    0
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::asm;

    /// One row: `chunks` groups of 4 floats at `src` become `4 * chunks` contiguous bf16 at `out`.
    ///
    /// # Safety
    /// `src` holds `4 * chunks` floats, `out` is writable for `8 * chunks` bytes; `chunks >= 1`.
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn convert_row(src: *const u8, out: *mut u8, chunks: usize) {
        // SAFETY: reads 16 and writes 8 bytes per chunk inside the ranges of the contract; only
        // the declared registers are touched.
        unsafe {
            asm!(
                bf16_constants!(),
                "2:",
                "ldr q0, [{src}], #16",
                bf16_from!("0", "xtn", "1", "4h"),
                "str d1, [{out}], #8",
                "subs {chunks}, {chunks}, #1",
                "b.ne 2b",
                src = inout(reg) src => _,
                out = inout(reg) out => _,
                chunks = inout(reg) chunks => _,
                out("x17") _,
                out("v0") _, out("v1") _, out("v16") _, out("v17") _, out("v18") _,
                out("v24") _, out("v25") _, out("v26") _, out("v27") _, out("v28") _,
                options(nostack),
            );
        }
    }

    /// Eight rows `stride` bytes apart from `src`: per chunk, 4 floats of each row become the 4
    /// bf16 of rows 0..7 in turn (64 bytes at `out`).
    ///
    /// # Safety
    /// Each row holds `4 * chunks` floats, `out` is writable for `64 * chunks` bytes;
    /// `chunks >= 1`.
    #[target_feature(enable = "neon")]
    pub(super) unsafe fn pack_block8(src: *const u8, stride: usize, out: *mut u8, chunks: usize) {
        // SAFETY: reads 16 bytes of each row and writes 64 bytes per chunk inside the ranges of
        // the contract; only the declared registers are touched.
        unsafe {
            asm!(
                bf16_constants!(),
                "add x9, {src}, {stride}",
                "add x10, x9, {stride}",
                "add x11, x10, {stride}",
                "add x12, x11, {stride}",
                "add x13, x12, {stride}",
                "add x14, x13, {stride}",
                "add x15, x14, {stride}",
                "2:",
                "ldr q0, [{src}], #16",
                "ldr q1, [x9], #16",
                "ldr q2, [x10], #16",
                "ldr q3, [x11], #16",
                "ldr q4, [x12], #16",
                "ldr q5, [x13], #16",
                "ldr q6, [x14], #16",
                "ldr q7, [x15], #16",
                bf16_from!("0", "xtn", "20", "4h"),
                bf16_from!("1", "xtn2", "20", "8h"),
                bf16_from!("2", "xtn", "21", "4h"),
                bf16_from!("3", "xtn2", "21", "8h"),
                bf16_from!("4", "xtn", "22", "4h"),
                bf16_from!("5", "xtn2", "22", "8h"),
                bf16_from!("6", "xtn", "23", "4h"),
                bf16_from!("7", "xtn2", "23", "8h"),
                "stp q20, q21, [{out}]",
                "stp q22, q23, [{out}, #32]",
                "add {out}, {out}, #64",
                "subs {chunks}, {chunks}, #1",
                "b.ne 2b",
                src = inout(reg) src => _,
                out = inout(reg) out => _,
                chunks = inout(reg) chunks => _,
                stride = in(reg) stride,
                out("x9") _, out("x10") _, out("x11") _, out("x12") _,
                out("x13") _, out("x14") _, out("x15") _, out("x17") _,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                out("v16") _, out("v17") _, out("v18") _,
                out("v20") _, out("v21") _, out("v22") _, out("v23") _,
                out("v24") _, out("v25") _, out("v26") _, out("v27") _, out("v28") _,
                options(nostack),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    lhs_quant_pack_bf16p8x4_f32_neon: Lhs(Bf16(Variant::Bf16p8x4F32));
    lhs_quant_pack_bf16p1x4_f32_neon: Lhs(Bf16(Variant::Bf16p1x4F32));
    lhs_pack_bf16p8x4_f16_neon: Lhs(Bf16(Variant::Bf16p8x4F16));
    lhs_pack_bf16p2vlx2_f32_sme: Lhs(Bf16(Variant::Bf16p2vlx2F32Sme));
    lhs_pack_bf16p2vlx2_f32_sme2: Lhs(Bf16(Variant::Bf16p2vlx2F32Sme2));
}
