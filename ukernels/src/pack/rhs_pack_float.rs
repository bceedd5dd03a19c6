//! The float RHS packers of the float GEMM families (f32 and f16), which all write one format
//! ([`RhsLayout::FloatBias`]): groups of `nr` columns, each `nr` biases then `k` rows of `nr`
//! values, byte copies of the source (no conversion). Columns past `n` and the biases of a null
//! `bias` are zero.
//!
//! They differ in the source orientation, the element size, `nr`, `kr`, which arguments they
//! assert and the meaning of their stride getter (see [`Variant`]).
//!
//! The SME packer `f32p16vlx1b` (`nr` = 16 x the streaming length in 32-bit lanes, `kr` = 1) is
//! this format too, its padding columns zero (KleidiAI's streaming code loads whole vectors under
//! zeroing predicates and stores them all); portable Rust here like the others.
//!
//! The SME packers (`x16p2vlx2b`, `nr` = 2 x the streaming length in 32-bit lanes, `kr` = 2)
//! interleave pairs of K values: after the group's `nr` biases, for each pair of K rows, the two
//! values of column 0, then of column 1, ...; K is padded with a zero row to an even count, and
//! every byte of a group is written (zeros past `n`), as KleidiAI's streaming code writes whole
//! vectors loaded under zeroing predicates. They are portable Rust here (plain copies). Their
//! chunked form (`rhs_imatmul_pack_kxn_x16p2vlx2b`, K as `k_chunk_count` chunks of consecutive
//! source rows) pairs each chunk's rows afresh, a chunk of odd length ending in a zero row
//! ([`Chunks`]); KleidiAI's loops there run at least once (with `k_chunk_count == 0` its chunk
//! counter wraps, and a chunk of length 0 still packs one pair from the source), and rkai packs
//! only the bytes inside the packed size, as for the packers below.
//!
//! Paths: the K x N sources are row copies (`copy_nonoverlapping` of the group's part of each K
//! row, which the compiler turns into wide loads and stores); the N x K sources of the
//! one-value-per-step packers are transposed by NEON loops on AArch64 for whole groups (f32 in
//! 4 x 4 blocks, 16-bit values in 8 x 8 blocks, with `ZIP1`/`ZIP2`), portably elsewhere, for the
//! last, partial group and for the K tail. The pair-interleaving packers are plain copies.
//!
//! KleidiAI's two SME packers (`..._f32p2vlx1biasf32_f32_f32_sme`) run loops that execute at
//! least once: with `n == 0` its K x N one writes a whole group (biases and `k` rows of zeros)
//! into a buffer of size 0, and with `k == 0` it packs one source row past the biases, beyond the
//! packed size. rkai writes nothing for `n == 0` and only the biases for `k == 0`: the bytes inside
//! the packed size are KleidiAI's, and nothing outside it is touched.

use crate::arch;
use crate::contract::{self, Checked};
use crate::layout::RhsLayout;
use crate::pack::Source;
use core::ptr;

/// Which of this module's packers runs (declared with the other packer kinds).
pub use super::kinds::FloatPacker as Variant;

impl Variant {
    /// Orientation of the source.
    pub const fn source(self) -> Source {
        match self {
            Variant::NxkX32p16x1bx32
            | Variant::NxkX16p32x1bx16
            | Variant::NxkX16p2vlx2bSme
            | Variant::NxkF32p2vlx1biasf32Sme => Source::Nxk,
            _ => Source::Kxn,
        }
    }

    /// Bytes per value and per bias.
    pub const fn bytes(self) -> usize {
        match self {
            Variant::KxnX16p32x1b
            | Variant::NxkX16p32x1bx16
            | Variant::KxnF16p16x1biasf16
            | Variant::KxnX16p2vlx2bSme
            | Variant::NxkX16p2vlx2bSme => 2,
            _ => 4,
        }
    }

    /// Columns per packed group (what `get_n_step` returns).
    pub fn nr(self) -> usize {
        match self {
            Variant::KxnX32p16x1b | Variant::NxkX32p16x1bx32 => 16,
            Variant::KxnF32p8x1biasf32 => 8,
            Variant::KxnX32p4vlx1bSve => 4 * arch::sve_lanes32(),
            Variant::KxnX16p32x1b | Variant::NxkX16p32x1bx16 => 32,
            Variant::KxnF16p16x1biasf16 => 16,
            Variant::KxnF32p2vlx1biasf32Sme | Variant::NxkF32p2vlx1biasf32Sme => {
                2 * arch::sme_lanes32()
            }
            Variant::KxnX16p2vlx2bSme | Variant::NxkX16p2vlx2bSme => 2 * arch::sme_lanes32(),
            Variant::KxnF32p16vlx1bSme => 16 * arch::sme_lanes32(),
        }
    }

    /// K values per interleaved step (`kr`, which `run` asserts for the SME packers).
    pub const fn kr(self) -> usize {
        match self {
            Variant::KxnX16p2vlx2bSme | Variant::NxkX16p2vlx2bSme => 2,
            _ => 1,
        }
    }

    /// Whether the `nr` argument of `run` must equal [`Variant::nr`] (otherwise it is ignored).
    pub const fn checks_nr(self) -> bool {
        !matches!(self, Variant::KxnX32p16x1b | Variant::KxnX16p32x1b)
    }

    /// Whether the `sr` argument of `run` must be 1 (otherwise it is ignored).
    pub const fn checks_sr(self) -> bool {
        !matches!(self, Variant::KxnX32p4vlx1bSve)
    }

    /// Whether `run` requires a bias (otherwise a null bias packs zeros).
    pub const fn requires_bias(self) -> bool {
        matches!(
            self,
            Variant::KxnF32p8x1biasf32
                | Variant::KxnX32p4vlx1bSve
                | Variant::KxnF16p16x1biasf16
                | Variant::KxnX16p2vlx2bSme
                | Variant::NxkX16p2vlx2bSme
                | Variant::KxnF32p2vlx1biasf32Sme
                | Variant::NxkF32p2vlx1biasf32Sme
                | Variant::KxnF32p16vlx1bSme
        )
    }

    /// Whether `get_rhs_packed_stride` returns the bytes of one column rather than of a group.
    pub const fn stride_per_column(self) -> bool {
        matches!(
            self,
            Variant::NxkX32p16x1bx32
                | Variant::NxkX16p32x1bx16
                | Variant::NxkX16p2vlx2bSme
                | Variant::NxkF32p2vlx1biasf32Sme
        )
    }

    /// Whether `get_bias_offset` requires a group-aligned `n_idx`: the packers whose stride is
    /// per column (KleidiAI's n x k packers) are the ones that assert it.
    pub const fn bias_offset_aligned(self) -> bool {
        self.stride_per_column()
    }

    /// Whether the packer has a `get_rhs_packed_stride` getter.
    pub const fn has_stride_getter(self) -> bool {
        !matches!(
            self,
            Variant::KxnF32p8x1biasf32 | Variant::KxnF16p16x1biasf16
        )
    }

    /// The packed format.
    pub const fn layout(self) -> RhsLayout {
        RhsLayout::FloatBias {
            bytes: self.bytes(),
        }
    }
}

/// Arguments of one packing call: those every RHS packer takes (see [`super::args::RhsArgs`]).
pub use super::args::RhsArgs as Args;

/// Checks what the packer requires (KleidiAI's assertions) and that the packed size fits.
pub fn check(v: Variant, a: &Args) -> Checked {
    contract::require(a.num_groups == 1, "num_groups == 1")?;
    if v.checks_nr() {
        contract::require(a.nr == v.nr(), "nr == n_step")?;
    }
    match v.kr() {
        1 => contract::require(a.kr == 1, "kr == 1")?,
        _ => contract::require(a.kr == v.kr(), "kr == KR")?,
    }
    if v.checks_sr() {
        contract::require(a.sr == 1, "sr == 1")?;
    }
    a.check_float_buffers(v.requires_bias())?;
    v.layout().size(a.n, a.k, v.nr(), v.kr(), 1)?;
    Ok(())
}

/// Packs the weights.
///
/// # Safety
/// [`check`] must have passed; `rhs` must hold the K x N (or N x K) matrix with rows
/// `rhs_stride` bytes apart, `bias` (when non-null) `n` values, and `rhs_packed` must be writable
/// for the packed size of `n` columns.
pub unsafe fn run(v: Variant, a: &Args) {
    if v.kr() == 2 {
        // SAFETY: forwarded contract.
        unsafe {
            pairs::run(
                v,
                a,
                Chunks {
                    count: 1,
                    length: a.k,
                },
            )
        };
        return;
    }
    let g = Geometry {
        k: a.k,
        nr: v.nr(),
        bytes: v.bytes(),
    };
    let stride = g.group_stride();
    for group in 0..a.n.div_ceil(g.nr) {
        let col0 = group * g.nr;
        let cols = g.nr.min(a.n - col0);
        // SAFETY: every group lies inside the packed size of n columns; forwarded contract.
        unsafe {
            g.pack_group(
                v.source(),
                a.rhs_packed.add(group * stride),
                (a.rhs, a.rhs_stride),
                a.bias,
                (col0, cols),
            )
        };
    }
}

/// One group of this format at `out`: `nr` columns of `bytes`-byte values from column `col0`
/// (`cols` of them, the rest zero), their biases (zeros for a null `bias`), then `k` rows. The
/// generic-interface SME packers (`pack::matmul_pack_rhs_x32p4vsx1bx32`) place their groups at
/// a caller's stride through this.
///
/// # Safety
/// `out` is writable for `(k + 1) * nr * bytes` bytes; `bias` is null or holds `col0 + cols`
/// values; the source (rows `rhs_stride` bytes apart, K x N or N x K by `source`) holds columns
/// `col0..col0 + cols` of `k` values.
pub(crate) unsafe fn pack_group(
    source: Source,
    (bytes, nr, k): (usize, usize, usize),
    out: *mut u8,
    rhs: (*const u8, usize),
    bias: *const u8,
    columns: (usize, usize),
) {
    let g = Geometry { k, nr, bytes };
    // SAFETY: forwarded contract.
    unsafe { g.pack_group(source, out, rhs, bias, columns) }
}

/// The K rows of a chunked packer's call (`rhs_imatmul_pack_*`): `count` chunks of `length`
/// consecutive source rows, each packed as its own run of `kr` steps (a chunk of odd length ends
/// in a zero row when `kr` is 2); the plain packers' K is one chunk.
#[derive(Clone, Copy, Debug)]
pub struct Chunks {
    /// `k_chunk_count`.
    pub count: usize,
    /// `k_chunk_length`.
    pub length: usize,
}

impl Chunks {
    /// The chunks of a chunked call's arguments: `k` is `k_chunk_count * k_chunk_length` and
    /// `bl` is `k_chunk_length` (see [`super::args::RhsArgs`]).
    pub fn of(a: &Args) -> Self {
        Chunks {
            count: a.k.checked_div(a.bl).unwrap_or(0),
            length: a.bl,
        }
    }

    /// The packed K: each chunk rounded up to whole steps of `kr`.
    pub fn packed_k(self, kr: usize) -> Result<usize, contract::Violation> {
        super::lhs_imatmul_pack_sme::packed_k(kr, self.count, self.length)
    }

    /// The packer's arguments over the packed K (KleidiAI's chunked packers take no `nr`, `kr`
    /// or `sr`: those of the variant).
    fn args(self, v: Variant, a: &Args) -> Result<Args, contract::Violation> {
        Ok(Args {
            num_groups: 1,
            k: self.packed_k(v.kr())?,
            nr: v.nr(),
            kr: v.kr(),
            sr: 1,
            bl: 0,
            ..*a
        })
    }
}

/// [`check`] for a chunked packer (`a.k` is `k_chunk_count * k_chunk_length`, `a.bl` the chunk
/// length).
pub fn check_chunked(v: Variant, a: &Args) -> Checked {
    check(v, &Chunks::of(a).args(v, a)?)
}

/// [`run`] for a chunked packer: with `kr` = 1 the chunks' rows are the rows of one K x N
/// matrix; with `kr` = 2 each chunk's pairs start afresh.
///
/// # Safety
/// [`check_chunked`] must have passed; otherwise as for [`run`] over the chunks' rows.
pub unsafe fn run_chunked(v: Variant, a: &Args) {
    let chunks = Chunks::of(a);
    let Ok(args) = chunks.args(v, a) else {
        return;
    };
    if v.kr() == 2 {
        // SAFETY: forwarded contract.
        unsafe { pairs::run(v, &args, chunks) };
    } else {
        // SAFETY: forwarded contract (with kr = 1 the packed K is the chunks' rows).
        unsafe { run(v, &args) };
    }
}

/// Shape of one packing call.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    k: usize,
    nr: usize,
    bytes: usize,
}

impl Geometry {
    /// See [`pack_group`].
    ///
    /// # Safety
    /// As for [`pack_group`].
    unsafe fn pack_group(
        &self,
        source: Source,
        out: *mut u8,
        (rhs, rhs_stride): (*const u8, usize),
        bias: *const u8,
        (col0, cols): (usize, usize),
    ) {
        // SAFETY: bias (when non-null) has col0 + cols values; out holds the group.
        unsafe { self.write_bias(out, bias, col0, cols) };
        // SAFETY: forwarded contract; the group's rows follow its biases.
        let rows = unsafe { out.add(self.row_bytes()) };
        match source {
            // SAFETY (both arms): the source holds the matrix; rows holds k rows of the group.
            Source::Kxn => unsafe { self.copy_kxn(rows, rhs, rhs_stride, col0, cols) },
            Source::Nxk => unsafe { self.copy_nxk(rows, rhs, rhs_stride, col0, cols) },
        }
    }

    /// Bytes of one packed row (or of the biases) of a group.
    fn row_bytes(&self) -> usize {
        self.nr * self.bytes
    }

    /// Bytes of one group (fits: `check` sized the whole buffer).
    fn group_stride(&self) -> usize {
        (self.k + 1) * self.row_bytes()
    }

    /// The group's `nr` biases: `cols` copied from `bias + col0` (zeros for a null bias), the
    /// rest zero.
    ///
    /// # Safety
    /// `out` is writable for `nr` values; `bias` is null or holds `col0 + cols` values.
    unsafe fn write_bias(&self, out: *mut u8, bias: *const u8, col0: usize, cols: usize) {
        let used = if bias.is_null() { 0 } else { cols * self.bytes };
        // SAFETY: see the function contract.
        unsafe {
            if used != 0 {
                ptr::copy_nonoverlapping(bias.add(col0 * self.bytes), out, used);
            }
            ptr::write_bytes(out.add(used), 0, self.row_bytes() - used);
        }
    }

    /// K x N source: each of the `k` rows contributes `cols` contiguous values.
    ///
    /// # Safety
    /// `rows` is writable for `k` packed rows; source row `kk` holds `col0 + cols` values at
    /// `rhs + kk * stride`.
    unsafe fn copy_kxn(
        &self,
        rows: *mut u8,
        rhs: *const u8,
        stride: usize,
        col0: usize,
        cols: usize,
    ) {
        let (row_bytes, used) = (self.row_bytes(), cols * self.bytes);
        for kk in 0..self.k {
            // SAFETY: see the function contract.
            unsafe {
                let out = rows.add(kk * row_bytes);
                let src = rhs.add(kk * stride + col0 * self.bytes);
                ptr::copy_nonoverlapping(src, out, used);
                ptr::write_bytes(out.add(used), 0, row_bytes - used);
            }
        }
    }

    /// The NEON part of [`Geometry::copy_nxk`] for full groups: returns how many K values it
    /// packed (a multiple of 4 for f32, of 8 for 16-bit values), 0 where it does not apply.
    ///
    /// # Safety
    /// As for [`Geometry::copy_nxk`], with `rhs` at the group's first source row.
    #[allow(unused_variables)]
    unsafe fn transpose_fast(
        &self,
        rows: *mut u8,
        rhs: *const u8,
        stride: usize,
        cols: usize,
    ) -> usize {
        #[cfg(target_arch = "aarch64")]
        if self.bytes == 4 && cols == self.nr && self.nr % 4 == 0 {
            // SAFETY: forwarded contract.
            return unsafe { neon::transpose_f32(rows, rhs, stride, self) };
        }
        #[cfg(target_arch = "aarch64")]
        if self.bytes == 2 && cols == self.nr && self.nr % 8 == 0 {
            // SAFETY: forwarded contract.
            return unsafe { neon::transpose_x16(rows, rhs, stride, self) };
        }
        0
    }

    /// N x K source: packed row `kk` gathers value `kk` of each of the `cols` source rows.
    ///
    /// # Safety
    /// `rows` is writable for `k` packed rows; source row `col0 + c` (`c < cols`) holds `k`
    /// values at `rhs + (col0 + c) * stride`.
    unsafe fn copy_nxk(
        &self,
        rows: *mut u8,
        rhs: *const u8,
        stride: usize,
        col0: usize,
        cols: usize,
    ) {
        let row_bytes = self.row_bytes();
        // SAFETY: forwarded contract.
        let done = unsafe { self.transpose_fast(rows, rhs.add(col0 * stride), stride, cols) };
        for kk in done..self.k {
            // SAFETY: see the function contract.
            unsafe {
                let out = rows.add(kk * row_bytes);
                for c in 0..cols {
                    let src = rhs.add((col0 + c) * stride + kk * self.bytes);
                    ptr::copy_nonoverlapping(src, out.add(c * self.bytes), self.bytes);
                }
                let used = cols * self.bytes;
                ptr::write_bytes(out.add(used), 0, row_bytes - used);
            }
        }
    }
}

/// The packers that interleave pairs of K values (`x16p2vlx2b`).
mod pairs {
    use super::{Args, Chunks, Source, Variant};
    use core::ptr;

    /// Packs every group: its `nr` biases, then per chunk, per pair of its K rows, the pair of
    /// each column (`a.k` is the packed K, `chunks.count * roundup(chunks.length, 2)`).
    ///
    /// # Safety
    /// As for [`super::run`], for a variant whose `kr` is 2 and whose values are 16-bit, the
    /// source holding the chunks' `count * length` rows.
    pub(super) unsafe fn run(v: Variant, a: &Args, chunks: Chunks) {
        let nr = v.nr();
        let per_chunk = chunks.length.div_ceil(2);
        let pairs = chunks.count * per_chunk;
        // Bytes of one group: nr biases and nr pairs per pair of K rows.
        let stride = nr * 2 * (1 + 2 * pairs);
        for group in 0..a.n.div_ceil(nr) {
            let col0 = group * nr;
            let cols = nr.min(a.n - col0);
            // SAFETY: every group lies inside the packed size of n columns.
            let out = unsafe { a.rhs_packed.add(group * stride) };
            // SAFETY: the bias holds n values (checked non-null); out holds nr biases.
            unsafe {
                ptr::copy_nonoverlapping(a.bias.add(col0 * 2), out, cols * 2);
                ptr::write_bytes(out.add(cols * 2), 0, (nr - cols) * 2);
            }
            for p in 0..pairs {
                // SAFETY: the pair's 2 * nr values follow the biases and earlier pairs.
                let row = unsafe { out.add(nr * 2 * (1 + 2 * p)) };
                // The pair's chunk and its first row there.
                let (chunk, t) = (p / per_chunk, 2 * (p % per_chunk));
                for c in 0..nr {
                    for half in 0..2 {
                        let kk = chunk * chunks.length + t + half;
                        let value = if c < cols && t + half < chunks.length {
                            let (j, stride) = (col0 + c, a.rhs_stride);
                            let at = match v.source() {
                                Source::Kxn => kk * stride + j * 2,
                                Source::Nxk => j * stride + kk * 2,
                            };
                            // SAFETY: the source holds value (kk, j) at `at`.
                            unsafe { ptr::read_unaligned(a.rhs.add(at).cast::<u16>()) }
                        } else {
                            0
                        };
                        // SAFETY: inside the pair's 2 * nr values.
                        unsafe { ptr::write_unaligned(row.add(4 * c + 2 * half).cast(), value) };
                    }
                }
            }
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use super::Geometry;
    use core::arch::asm;

    /// Transposes the first `4 * floor(k / 4)` K values of a full group of `g.nr` (a multiple of
    /// 4) f32 source rows into packed rows; returns how many K values it covered.
    ///
    /// # Safety
    /// `rows` is writable for `k` packed rows of `g.nr` values; source row `c < g.nr` holds `k`
    /// values at `rhs + c * stride`.
    pub(super) unsafe fn transpose_f32(
        rows: *mut u8,
        rhs: *const u8,
        stride: usize,
        g: &Geometry,
    ) -> usize {
        let blocks = g.k / 4;
        if blocks == 0 {
            return 0;
        }
        let row_bytes = g.row_bytes();
        for quad in 0..g.nr / 4 {
            // SAFETY: the four source rows of this quad hold k values; the packed rows hold its
            // 16 bytes at offset 16 * quad.
            unsafe {
                transpose_quad(
                    rows.add(16 * quad),
                    rhs.add(4 * quad * stride),
                    stride,
                    row_bytes,
                    blocks,
                )
            };
        }
        4 * blocks
    }

    /// Four source rows, `blocks` 4 x 4 blocks: each block's four K values become four packed
    /// rows of the quad's 4 columns.
    ///
    /// # Safety
    /// `src + r * stride` (r < 4) holds `4 * blocks` floats; `out + kk * row_bytes` is writable
    /// for 16 bytes for `kk < 4 * blocks`.
    #[target_feature(enable = "neon")]
    unsafe fn transpose_quad(
        out: *mut u8,
        src: *const u8,
        stride: usize,
        row_bytes: usize,
        blocks: usize,
    ) {
        // SAFETY: the loop reads 16 bytes of each of the four rows per block and writes four
        // 16-byte packed rows per block, all inside the ranges of the function contract. Only the
        // declared registers are touched; no stack memory is used.
        unsafe {
            asm!(
                "add x9, {src}, {stride}",
                "add x10, x9, {stride}",
                "add x11, x10, {stride}",
                "2:",
                "ldr q0, [{src}], #16",
                "ldr q1, [x9], #16",
                "ldr q2, [x10], #16",
                "ldr q3, [x11], #16",
                // Rows r0..r3 (lane = K) -> columns (lane = row).
                "zip1 v4.4s, v0.4s, v2.4s",
                "zip1 v5.4s, v1.4s, v3.4s",
                "zip2 v6.4s, v0.4s, v2.4s",
                "zip2 v7.4s, v1.4s, v3.4s",
                "zip1 v0.4s, v4.4s, v5.4s",
                "zip2 v1.4s, v4.4s, v5.4s",
                "zip1 v2.4s, v6.4s, v7.4s",
                "zip2 v3.4s, v6.4s, v7.4s",
                "str q0, [{out}]",
                "str q1, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "str q2, [{out}]",
                "str q3, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "subs {blocks}, {blocks}, #1",
                "b.ne 2b",
                src = inout(reg) src => _,
                out = inout(reg) out => _,
                blocks = inout(reg) blocks => _,
                stride = in(reg) stride,
                rb = in(reg) row_bytes,
                out("x9") _, out("x10") _, out("x11") _,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                options(nostack),
            );
        }
    }

    /// Transposes the first `8 * floor(k / 8)` K values of a full group of `g.nr` (a multiple of
    /// 8) 16-bit source rows into packed rows; returns how many K values it covered.
    ///
    /// # Safety
    /// `rows` is writable for `k` packed rows of `g.nr` values; source row `c < g.nr` holds `k`
    /// values at `rhs + c * stride`.
    pub(super) unsafe fn transpose_x16(
        rows: *mut u8,
        rhs: *const u8,
        stride: usize,
        g: &Geometry,
    ) -> usize {
        let blocks = g.k / 8;
        if blocks == 0 {
            return 0;
        }
        let row_bytes = g.row_bytes();
        for oct in 0..g.nr / 8 {
            // SAFETY: the eight source rows of this block of columns hold k values; the packed
            // rows hold its 16 bytes at offset 16 * oct.
            unsafe {
                transpose_oct(
                    rows.add(16 * oct),
                    rhs.add(8 * oct * stride),
                    stride,
                    row_bytes,
                    blocks,
                )
            };
        }
        8 * blocks
    }

    /// Eight source rows, `blocks` 8 x 8 blocks of 16-bit values: each block's eight K values
    /// become eight packed rows of the block's 8 columns (three rounds of `ZIP1`/`ZIP2`).
    ///
    /// # Safety
    /// `src + r * stride` (r < 8) holds `8 * blocks` 16-bit values; `out + kk * row_bytes` is
    /// writable for 16 bytes for `kk < 8 * blocks`.
    #[target_feature(enable = "neon")]
    unsafe fn transpose_oct(
        out: *mut u8,
        src: *const u8,
        stride: usize,
        row_bytes: usize,
        blocks: usize,
    ) {
        // SAFETY: the loop reads 16 bytes of each of the eight rows per block and writes eight
        // 16-byte packed rows per block, all inside the ranges of the function contract. Only the
        // declared registers are touched; no stack memory is used.
        unsafe {
            asm!(
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
                // Rows r0..r7 (lane = K) -> columns (lane = row): pair rows 4 apart, then 2
                // apart, then adjacent.
                "zip1 v16.8h, v0.8h, v4.8h",
                "zip2 v17.8h, v0.8h, v4.8h",
                "zip1 v18.8h, v1.8h, v5.8h",
                "zip2 v19.8h, v1.8h, v5.8h",
                "zip1 v20.8h, v2.8h, v6.8h",
                "zip2 v21.8h, v2.8h, v6.8h",
                "zip1 v22.8h, v3.8h, v7.8h",
                "zip2 v23.8h, v3.8h, v7.8h",
                "zip1 v24.8h, v16.8h, v20.8h",
                "zip2 v25.8h, v16.8h, v20.8h",
                "zip1 v26.8h, v18.8h, v22.8h",
                "zip2 v27.8h, v18.8h, v22.8h",
                "zip1 v28.8h, v17.8h, v21.8h",
                "zip2 v29.8h, v17.8h, v21.8h",
                "zip1 v30.8h, v19.8h, v23.8h",
                "zip2 v31.8h, v19.8h, v23.8h",
                "zip1 v0.8h, v24.8h, v26.8h",
                "zip2 v1.8h, v24.8h, v26.8h",
                "zip1 v2.8h, v25.8h, v27.8h",
                "zip2 v3.8h, v25.8h, v27.8h",
                "zip1 v4.8h, v28.8h, v30.8h",
                "zip2 v5.8h, v28.8h, v30.8h",
                "zip1 v6.8h, v29.8h, v31.8h",
                "zip2 v7.8h, v29.8h, v31.8h",
                "str q0, [{out}]",
                "str q1, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "str q2, [{out}]",
                "str q3, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "str q4, [{out}]",
                "str q5, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "str q6, [{out}]",
                "str q7, [{out}, {rb}]",
                "add {out}, {out}, {rb}, lsl #1",
                "subs {blocks}, {blocks}, #1",
                "b.ne 2b",
                src = inout(reg) src => _,
                out = inout(reg) out => _,
                blocks = inout(reg) blocks => _,
                stride = in(reg) stride,
                rb = in(reg) row_bytes,
                out("x9") _, out("x10") _, out("x11") _, out("x12") _,
                out("x13") _, out("x14") _, out("x15") _,
                out("v0") _, out("v1") _, out("v2") _, out("v3") _,
                out("v4") _, out("v5") _, out("v6") _, out("v7") _,
                out("v16") _, out("v17") _, out("v18") _, out("v19") _,
                out("v20") _, out("v21") _, out("v22") _, out("v23") _,
                out("v24") _, out("v25") _, out("v26") _, out("v27") _,
                out("v28") _, out("v29") _, out("v30") _, out("v31") _,
                options(nostack),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Catalog entries

use crate::pack::kinds::packer_entries;

packer_entries! {
    rhs_pack_kxn_x32p16x1b_x32_x32_neon: Rhs(Float(Variant::KxnX32p16x1b));
    rhs_pack_nxk_x32p16x1bx32_x32_x32_neon: Rhs(Float(Variant::NxkX32p16x1bx32));
    rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon: Rhs(Float(Variant::KxnF32p8x1biasf32));
    /// nr = 4 x VL32.
    rhs_pack_kxn_x32p4vlx1b_x32_x32_sve: Rhs(Float(Variant::KxnX32p4vlx1bSve));
    /// nr = 4 x VL32; K as chunks.
    rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve: Rhs(ChunkedFloat(Variant::KxnX32p4vlx1bSve));
    rhs_pack_kxn_x16p32x1b_x16_x16_neon: Rhs(Float(Variant::KxnX16p32x1b));
    rhs_pack_nxk_x16p32x1bx16_x16_x16_neon: Rhs(Float(Variant::NxkX16p32x1bx16));
    rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon: Rhs(Float(Variant::KxnF16p16x1biasf16));
    /// nr = 2 x SVL32, kr = 2.
    rhs_pack_kxn_x16p2vlx2b_x16_x16_sme: Rhs(Float(Variant::KxnX16p2vlx2bSme));
    /// nr = 2 x SVL32, kr = 2.
    rhs_pack_nxk_x16p2vlx2b_x16_x16_sme: Rhs(Float(Variant::NxkX16p2vlx2bSme));
    /// nr = 2 x SVL32, kr = 2; K as chunks, each padded to whole pairs with a zero row.
    rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme:
        Rhs(ChunkedFloat(Variant::KxnX16p2vlx2bSme));
    /// nr = 2 x SVL32 (KleidiAI packs through streaming SVE stores; rkai's copy writes the same
    /// bytes without entering streaming mode).
    rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme: Rhs(Float(Variant::KxnF32p2vlx1biasf32Sme));
    /// nr = 2 x SVL32; K as chunks (with kr = 1 the same bytes as the packer above over all the
    /// chunks' rows).
    rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme:
        Rhs(ChunkedFloat(Variant::KxnF32p2vlx1biasf32Sme));
    /// nr = 2 x SVL32 (KleidiAI transposes through ZA; rkai's NEON and scalar transposes write
    /// the same bytes).
    rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme: Rhs(Float(Variant::NxkF32p2vlx1biasf32Sme));
    /// nr = 16 x SVL32.
    rhs_pack_kxn_f32p16vlx1b_f32_f32_sme: Rhs(Float(Variant::KxnF32p16vlx1bSme));
}
