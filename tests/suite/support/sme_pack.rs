//! The harness of the SME packer tests (`tests/suite/f32p16vlx1b_pack.rs`, `tests/suite/x16p2vlx2_pack.rs`,
//! `tests/suite/f32_sme_pack.rs`, `tests/suite/x8p2vlx4_pack.rs`; a new SME packer's test file should use it
//! too). A test file keeps
//! what is its packer's own: the reference written from KleidiAI's layout, the getter formulas,
//! the shapes and the death cases' conditions. This module gives the rest:
//!
//! - [`svl32`]: the streaming length in 32-bit lanes (4 without SME: rkai's portable length),
//!   checked against the QEMU model `RKAI_EXPECT_CPU` names, so a misconfigured run fails.
//! - [`full_sweep`]: whether this streaming length runs every edge shape or a reduced set.
//! - [`bit_patterns`] and [`le_bytes`]: source values (random bit patterns, never zero, some
//!   NaNs, infinities, subnormals and signed zeros) and their little-endian bytes.
//! - [`RhsPacker`] and [`LhsPacker`]: a packer's stem and tile; `pack` packs a slice (columns
//!   `n0..n0 + cols`, rows `m0..m0 + rows`) with every pointer moved through the packer's own
//!   offset getters, as a framework packing on threads does (slice 0 with all of `n` or `m` is
//!   the whole packing). The row-copying LHS format (`lhs_pack_x*p2vlx*_sme`) is the same for
//!   every element size, so its reference and cases are here too:
//!   [`LhsPacker::rows_reference`], [`LhsPacker::rows_case`] (whole and in row slices) and
//!   [`LhsPacker::rows_cases`] (over shapes, source row pads and guard edges).
//! - [`packs_equal`] and [`slices_equal`]: pack into a buffer of the size the getter reports,
//!   pre-filled with [`FILL`] and against a guard page, and compare every byte with the
//!   reference (padding included: any byte left unwritten keeps the fill); [`slices`] cuts a
//!   dimension into the calls of a slicing caller.
//! - [`check_rhs_getters`] and [`check_lhs_getters`]: the step, stride, size and offset getters
//!   against the formulas of KleidiAI's group layouts.
//! - [`RhsCall`], [`rhs_call`] and the macro `sme_rhs_run_cases!`: the death cases every SME RHS
//!   packer's `run` shares (one per KleidiAI assertion on its arguments); [`lhs_call`] for an
//!   LHS packer's.
//!
//! A minimal RHS packer test, per shape and guard edge:
//!
//! ```ignore
//! let packer = RhsPacker { name: KXN, tile: (nr, 1, 1), value_bytes: 4 };
//! let expect = le_bytes(&reference(n, k, ...));
//! let size = sym::<Getter2>("get_rhs_packed_size", KXN)(n, k);
//! // SAFETY (in the closure): `src` and `bias` hold the operands of the whole problem.
//! let pack = |out, (n0, cols)| unsafe { packer.pack((src.ptr(), row_bytes), bias.ptr(), k, out, (n0, cols)) };
//! sme_pack::packs_equal("n=.. k=..", size, edge, &expect, |out| pack(out, (0, n)));
//! sme_pack::slices_equal("n=.. k=..", size, edge, &expect, &slices(n, nr), pack);
//! ```

use super::cabi::func as sym;
use super::cabi::{Getter0, Getter1, Getter2, Getter5, RhsPackFloatFn, pack_float_rhs, pack_lhs};
use super::guard::{EDGES, Edge, Guarded};
use super::rng::Rng;
use std::ffi::c_void;
use std::ptr;

/// The byte every output buffer holds before a packing: the test values are never zero and
/// padding must be, so a byte left unwritten shows.
pub const FILL: u8 = 0xa5;

/// The streaming vector length in 32-bit lanes as the CPU reports it (4 without SME: rkai's
/// portable length). Where `RKAI_EXPECT_CPU` names a QEMU model with
/// `sme-default-vector-length=<bytes>`, the reported length must be that one.
pub fn svl32() -> usize {
    let reported = rkai_ukernels::arch::sme_vector_bytes();
    let model = std::env::var("RKAI_EXPECT_CPU").ok();
    let asked = model.as_deref().and_then(|m| {
        let tail = m.split("sme-default-vector-length=").nth(1)?;
        tail.split(',').next()?.parse::<usize>().ok()
    });
    if let Some(bytes) = asked {
        assert_eq!(reported, Some(bytes), "streaming length of {model:?}");
    }
    reported.unwrap_or(16) / 4
}

/// Whether this run sweeps every edge shape of an SME kernel or packer whose test does not go
/// through [`super::tester`]: [`super::tester::Depth::streaming`] is `Every` (every case up to
/// [`super::tester::EVERY_CASE_UP_TO_SVL_BYTES`] and without SME, unless `RKAI_SME_CASES` asks
/// otherwise); else a test runs a reduced set that reaches each code path once.
pub fn full_sweep() -> bool {
    super::tester::Depth::streaming() == super::tester::Depth::Every
}

/// `len` random bit patterns of `bits` (16 or 32) bits, none zero so that padding stands out;
/// one in eight (about) is one of `specials` (NaNs, infinities, signed zeros, subnormals: the
/// packers copy bits, and these travel as any other value).
pub fn bit_patterns(len: usize, seed: u64, bits: u32, specials: &[u32; 5]) -> Vec<u32> {
    let all_ones = u64::MAX >> (64 - bits);
    let mut rng = Rng::new(seed);
    (0..len)
        .map(|_| {
            let r = rng.next_u64();
            match r % 8 {
                0 => specials[(r >> 8) as usize % 5],
                _ => ((r >> 16) % (all_ones - 1) + 1) as u32,
            }
        })
        .collect()
}

/// A value a packer copies: its little-endian bytes.
pub trait LeBytes: Copy {
    fn put(self, out: &mut Vec<u8>);
}

impl LeBytes for u16 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes())
    }
}

impl LeBytes for u32 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes())
    }
}

impl LeBytes for f32 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_bits().to_le_bytes())
    }
}

/// The little-endian bytes of `values`.
pub fn le_bytes<T: LeBytes>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 4);
    for &v in values {
        v.put(&mut out);
    }
    out
}

/// A guarded buffer of `size` bytes of [`FILL`] against a guard page at `edge`.
pub fn prefilled(size: usize, edge: Edge) -> Guarded {
    Guarded::from_bytes(&vec![FILL; size], edge)
}

/// The calls (start, count) of a caller cutting `total` rows or columns into slices of `step`.
pub fn slices(total: usize, step: usize) -> Vec<(usize, usize)> {
    (0..total)
        .step_by(step)
        .map(|start| (start, step.min(total - start)))
        .collect()
}

/// `pack` (given the output buffer) into [`prefilled`] `size` bytes against `edge` writes
/// exactly `expect` (which must also be `size` bytes long); `what` names the case.
pub fn packs_equal(what: &str, size: usize, edge: Edge, expect: &[u8], pack: impl FnOnce(*mut u8)) {
    let mut out = prefilled(size, edge);
    pack(out.mut_ptr());
    assert_eq!(out.bytes(), expect, "{what} {edge:?}");
}

/// [`packs_equal`] with one `pack(out, (start, count))` call for each of `slices`: the slices
/// together write exactly the whole packing.
pub fn slices_equal(
    what: &str,
    size: usize,
    edge: Edge,
    expect: &[u8],
    slices: &[(usize, usize)],
    pack: impl Fn(*mut u8, (usize, usize)),
) {
    let mut out = prefilled(size, edge);
    for &slice in slices {
        pack(out.mut_ptr(), slice);
    }
    assert_eq!(out.bytes(), expect, "slices {what} {edge:?}");
}

/// KleidiAI's `2vl` tile: rows (LHS) or columns (RHS) per packed group, twice the streaming
/// length in 32-bit lanes.
pub fn two_vl() -> usize {
    2 * svl32()
}

/// [`two_vl`], asserting that it is half the streaming vector length in bytes (16 without SME).
pub fn two_vl_is_half_svl_bytes() -> usize {
    let t = two_vl();
    let svl_bytes = rkai_ukernels::arch::sme_vector_bytes().unwrap_or(16);
    assert_eq!(t * 2, svl_bytes, "nr is SVL / 2 bytes");
    t
}

/// The death cases of the getters of a `2vl` LHS packer `$lhs` with `kr = $kr` (KleidiAI's
/// `lhs_pack_x{16p2vlx2,8p2vlx4}_*_sme`): `mr` other than the packer's (message `$mr`),
/// `m_idx` off a row (`$m_idx`) or off a group (`$m_step`, checked before `kr`), `kr` of
/// `$wrong_kr`, `sr` of 2. An array of [`super::death::Case`]s.
#[macro_export]
macro_rules! two_vl_lhs_getter_cases {
    ($lhs:expr, kr: $kr:literal, wrong_kr: $wrong_kr:literal, mr: $mr:expr, m_idx: $m_idx:expr,
        m_step: $m_step:expr) => {{
        use $crate::support::cabi::{Getter1, Getter2, Getter5};
        use $crate::support::sme_pack::two_vl;
        [
            getter_case!("lhs_m_step", $mr => get_m_step::<Getter1>($lhs)(two_vl() + 1)),
            getter_case!("lhs_offset", $m_idx => get_lhs_offset::<Getter2>($lhs)(1, 16)),
            getter_case!("lhs_packed_offset_mr", $mr
                => get_lhs_packed_offset::<Getter5>($lhs)(0, 8, 2 * two_vl(), $kr, 1)),
            getter_case!("lhs_packed_offset", $m_step
                => get_lhs_packed_offset::<Getter5>($lhs)(two_vl() / 2, 8, two_vl(), 1, 1)),
            getter_case!("lhs_packed_size_kr", "kr == KR"
                => get_lhs_packed_size::<Getter5>($lhs)(4, 8, two_vl(), $wrong_kr, 1)),
            getter_case!("lhs_packed_size_sr", "sr == SR"
                => get_lhs_packed_size::<Getter5>($lhs)(4, 8, two_vl(), $kr, 2)),
        ]
    }};
}

/// `a` rounded up to a multiple of `b`.
pub fn roundup(a: usize, b: usize) -> usize {
    a.div_ceil(b) * b
}

/// An SME RHS packer (`kai_run_rhs_pack_{kxn,nxk}_*_sme`, [`RhsPackFloatFn`]): its stem, the
/// tile it is called with and the bytes of one source value. An `_nxk_` stem reads N rows of K
/// values (its `get_rhs_offset` takes the row stride), a `_kxn_` one K rows of N values.
#[derive(Clone, Copy)]
pub struct RhsPacker {
    pub name: &'static str,
    /// (nr, kr, sr) as `run` takes them.
    pub tile: (usize, usize, usize),
    pub value_bytes: usize,
}

impl RhsPacker {
    /// A packer of KleidiAI's `2vl` tile ([`two_vl`] columns a group) taking `kr` K values a
    /// step.
    pub fn two_vl(name: &'static str, kr: usize, value_bytes: usize) -> Self {
        RhsPacker {
            name,
            tile: (two_vl(), kr, 1),
            value_bytes,
        }
    }

    /// Whether the source is N x K.
    pub fn nxk(&self) -> bool {
        self.name.contains("_nxk_")
    }

    /// `get_rhs_offset` of column `n0` in a source whose rows are `row_bytes` apart.
    pub fn rhs_offset(&self, n0: usize, row_bytes: usize) -> usize {
        match self.nxk() {
            true => sym::<Getter2>("get_rhs_offset", self.name)(n0, row_bytes),
            false => sym::<Getter1>("get_rhs_offset", self.name)(n0),
        }
    }

    /// Packs columns `n0..n0 + cols` of K = `k` rows: source, bias and output pointers moved
    /// through `get_rhs_offset`, `get_bias_offset` and `get_rhs_packed_offset` of `n0`.
    ///
    /// # Safety
    /// `src` (rows `row_bytes` apart), `bias` and `out` hold the whole problem's operands and
    /// packed size.
    pub unsafe fn pack(
        &self,
        (src, row_bytes): (*const u8, usize),
        bias: *const u8,
        k: usize,
        out: *mut u8,
        (n0, cols): (usize, usize),
    ) {
        let rhs_offset = self.rhs_offset(n0, row_bytes);
        let bias_offset = sym::<Getter1>("get_bias_offset", self.name)(n0);
        let packed_offset = sym::<Getter2>("get_rhs_packed_offset", self.name)(n0, k);
        // SAFETY: the offsets stay inside the caller's buffers for this slice.
        unsafe {
            let source = (src.add(rhs_offset).cast(), row_bytes);
            let (bias, out) = (bias.add(bias_offset).cast(), out.add(packed_offset).cast());
            pack_float_rhs(self.name, (cols, k), self.tile, source, bias, out)
        }
    }
}

/// An SME LHS packer (`kai_run_lhs_pack_*_sme`): its stem and the tile it is called with.
#[derive(Clone, Copy)]
pub struct LhsPacker {
    pub name: &'static str,
    /// (mr, kr, sr) as `run` and the getters take them.
    pub tile: (usize, usize, usize),
}

impl LhsPacker {
    /// A packer of KleidiAI's `2vl` tile ([`two_vl`] rows a group) taking `kr` K values a step.
    pub fn two_vl(name: &'static str, kr: usize) -> Self {
        LhsPacker {
            name,
            tile: (two_vl(), kr, 1),
        }
    }

    /// Packs rows `m0..m0 + rows` of K = `k` values (`m_idx_start` 0): source and output
    /// pointers moved through `get_lhs_offset` and `get_lhs_packed_offset` of `m0`.
    ///
    /// # Safety
    /// `src` (rows `row_bytes` apart) and `out` hold the whole problem's rows and packed size.
    pub unsafe fn pack(
        &self,
        (src, row_bytes): (*const u8, usize),
        k: usize,
        out: *mut u8,
        (m0, rows): (usize, usize),
    ) {
        let (mr, kr, sr) = self.tile;
        let lhs_offset = sym::<Getter2>("get_lhs_offset", self.name)(m0, row_bytes);
        let packed_offset = sym::<Getter5>("get_lhs_packed_offset", self.name)(m0, k, mr, kr, sr);
        // SAFETY: the offsets stay inside the caller's buffers for these rows.
        unsafe {
            let source = (src.add(lhs_offset).cast(), row_bytes);
            pack_lhs(
                self.name,
                (rows, k),
                self.tile,
                0,
                source,
                out.add(packed_offset).cast(),
            )
        }
    }
}

impl LhsPacker {
    /// KleidiAI's row-copying SME LHS format (`lhs_pack_x*p2vlx*_sme`), written from its layout:
    /// per block of `mr` rows, per step of `kr` K values (K padded to whole steps), the step's
    /// values of each row in turn; rows past `m` and values past `k` zero. `data` holds `m` rows
    /// of `row` values of `elem` bytes.
    pub fn rows_reference(
        &self,
        data: &[u8],
        elem: usize,
        (m, k, row): (usize, usize, usize),
    ) -> Vec<u8> {
        let (mr, kr, _) = self.tile;
        let block = mr * k.div_ceil(kr) * kr;
        let mut out = vec![0; m.div_ceil(mr) * block * elem];
        for (i, value) in out.chunks_mut(elem).enumerate() {
            let (b, at) = (i / block, i % block);
            let (step, within) = (at / (kr * mr), at % (kr * mr));
            let (r, kk) = (b * mr + within / kr, kr * step + within % kr);
            if r < m && kk < k {
                let from = (r * row + kk) * elem;
                value.copy_from_slice(&data[from..from + elem]);
            }
        }
        out
    }

    /// Packs `m` rows of K = `k` values of `elem` bytes (`data`: rows of `k + pad` values, read
    /// from a guarded buffer at `edge`) whole and, past one block, in row slices of the block
    /// (`m_idx_start` 0: the pointers move through the getters); both equal
    /// [`Self::rows_reference`].
    pub fn rows_case(
        &self,
        data: &[u8],
        elem: usize,
        (m, k, pad): (usize, usize, usize),
        edge: Edge,
    ) {
        let row = k + pad;
        let (mr, kr, sr) = self.tile;
        let src = Guarded::from_bytes(data, edge);
        let size = sym::<Getter5>("get_lhs_packed_size", self.name)(m, k, mr, kr, sr);
        let expect = self.rows_reference(data, elem, (m, k, row));
        // SAFETY: the source and output buffers hold the whole problem.
        let pack = |out, rows| unsafe { self.pack((src.ptr(), elem * row), k, out, rows) };
        let what = format!("{} m={m} k={k} pad={pad}", self.name);
        packs_equal(&what, size, edge, &expect, |out| pack(out, (0, m)));
        if m > mr {
            slices_equal(&what, size, edge, &expect, &slices(m, mr), pack);
        }
    }

    /// [`Self::rows_case`] for each of `shapes` (m, k), with source rows of `k` and `k + 5`
    /// values against both guard edges; `values(len, seed)` gives the bytes of `len` source
    /// values. Prints the count.
    pub fn rows_cases(
        &self,
        shapes: &[(usize, usize)],
        elem: usize,
        values: impl Fn(usize, u64) -> Vec<u8>,
    ) {
        let mut cases = 0;
        for (seed, &(m, k)) in shapes.iter().enumerate() {
            for pad in [0, 5] {
                for edge in EDGES {
                    self.rows_case(&values(m * (k + pad), seed as u64), elem, (m, k, pad), edge);
                    cases += 1;
                }
            }
        }
        eprintln!("{} cases at mr = {}: {cases}", self.name, self.tile.0);
    }
}

/// The RHS getters of `p` at K = `k` follow KleidiAI's group layout, `group` bytes a group of
/// nr columns (biases and values): `get_n_step` is nr; `get_rhs_packed_stride` is the group
/// (one column, group / nr, for an N x K packer); the packed size of each of `ns` columns is
/// whole groups; at each column of `idxs`, the packed offset is whole groups, the bias offset
/// that many values and the source offset that many values (K x N) or rows of `row_bytes`
/// (N x K).
pub fn check_rhs_getters(
    p: &RhsPacker,
    k: usize,
    group: usize,
    ns: &[usize],
    idxs: &[usize],
    row_bytes: usize,
) {
    let (nr, name) = (p.tile.0, p.name);
    assert_eq!(sym::<Getter0>("get_n_step", name)(), nr, "{name}");
    let stride = if p.nxk() { group / nr } else { group };
    let got = sym::<Getter1>("get_rhs_packed_stride", name)(k);
    assert_eq!(got, stride, "{name} stride k={k}");
    for &n in ns {
        let size = sym::<Getter2>("get_rhs_packed_size", name)(n, k);
        assert_eq!(size, n.div_ceil(nr) * group, "{name} n={n} k={k}");
    }
    for &n_idx in idxs {
        let packed_offset = sym::<Getter2>("get_rhs_packed_offset", name)(n_idx, k);
        assert_eq!(
            packed_offset,
            n_idx / nr * group,
            "{name} n_idx={n_idx} k={k}"
        );
        let bias_offset = sym::<Getter1>("get_bias_offset", name)(n_idx);
        assert_eq!(bias_offset, p.value_bytes * n_idx, "{name} n_idx={n_idx}");
        let src = if p.nxk() { row_bytes } else { p.value_bytes };
        assert_eq!(
            p.rhs_offset(n_idx, row_bytes),
            n_idx * src,
            "{name} n_idx={n_idx}"
        );
    }
}

/// The LHS getters of `p` at K = `k` follow KleidiAI's group layout, `row` packed bytes a row:
/// `get_m_step` is mr; the packed size of each of `ms` rows is whole groups of mr rows; at each
/// row of `idxs`, the packed offset is that many rows and the source offset that many rows of
/// `row_bytes`.
pub fn check_lhs_getters(
    p: &LhsPacker,
    k: usize,
    row: usize,
    ms: &[usize],
    idxs: &[usize],
    row_bytes: usize,
) {
    let ((mr, kr, sr), name) = (p.tile, p.name);
    assert_eq!(sym::<Getter1>("get_m_step", name)(mr), mr, "{name}");
    for &m in ms {
        let size = sym::<Getter5>("get_lhs_packed_size", name)(m, k, mr, kr, sr);
        assert_eq!(size, m.div_ceil(mr) * mr * row, "{name} m={m} k={k}");
    }
    for &m_idx in idxs {
        let offset = sym::<Getter5>("get_lhs_packed_offset", name)(m_idx, k, mr, kr, sr);
        assert_eq!(offset, m_idx * row, "{name} m_idx={m_idx} k={k}");
        let offset = sym::<Getter2>("get_lhs_offset", name)(m_idx, row_bytes);
        assert_eq!(offset, m_idx * row_bytes, "{name} m_idx={m_idx}");
    }
}

/// Calls LHS packer `name` for `m` x `k` values with rows `row_bytes` apart (zeros), tile
/// (mr, kr, sr) and `m_idx_start`; a null source or output where `null` (source, output) says
/// (for the death cases: the call is expected to abort).
pub fn lhs_call(
    name: &str,
    (m, k, row_bytes): (usize, usize, usize),
    tile: (usize, usize, usize),
    m_idx_start: usize,
    null: (bool, bool),
) {
    let lhs = vec![0u8; 1024];
    let mut out = vec![0u8; 1 << 16];
    let src = if null.0 {
        ptr::null()
    } else {
        lhs.as_ptr().cast()
    };
    let dst: *mut c_void = if null.1 {
        ptr::null_mut()
    } else {
        out.as_mut_ptr().cast()
    };
    // SAFETY: the buffers cover the few rows of the death cases and their packing at any tile.
    unsafe { pack_lhs(name, (m, k), tile, m_idx_start, (src, row_bytes), dst) }
}

/// What a death case's call of an SME RHS packer changes from a valid one.
#[derive(Clone, Copy, Default)]
pub struct RhsCall {
    pub groups: Option<usize>,
    pub nr: Option<usize>,
    pub kr: Option<usize>,
    pub sr: Option<usize>,
    pub null_rhs: bool,
    pub null_bias: bool,
    pub scale: bool,
    pub null_out: bool,
    pub extra: usize,
    pub params: bool,
}

/// Calls RHS packer `name` for n = 4, k = 8 (rows 16 bytes apart) with the valid tile
/// (`nr`, `kr`) and sr = 1, changed as `o` says.
pub fn rhs_call(name: &str, (nr, kr): (usize, usize), o: RhsCall) {
    let w = [0u8; 256];
    let mut out = vec![0u8; 4 * 9 * 16 * 64];
    let some = w.as_ptr().cast::<c_void>();
    let pick = |null: bool| if null { ptr::null() } else { some };
    let opt = |set: bool| if set { some } else { ptr::null() };
    let dst: *mut c_void = if o.null_out {
        ptr::null_mut()
    } else {
        out.as_mut_ptr().cast()
    };
    // SAFETY: buffers cover n = 4, k = 8 at any tile; the call is expected to abort.
    unsafe {
        sym::<RhsPackFloatFn>("run", name)(
            o.groups.unwrap_or(1),
            4,
            8,
            o.nr.unwrap_or(nr),
            o.kr.unwrap_or(kr),
            o.sr.unwrap_or(1),
            16,
            pick(o.null_rhs),
            pick(o.null_bias),
            opt(o.scale),
            dst,
            o.extra,
            opt(o.params),
        )
    }
}

/// The `run` cases of a 2vl SME LHS packer `$name` taking `kr` K values a step, named
/// `$prefix` + what fails: an mr of twice the tile (`$mr_condition`), a wrong kr
/// (`$bad_kr`, "kr == KR"), sr = 2, a start row of 1 and NULL source and output. The calling
/// file imports `lhs_call` and `two_vl`.
#[macro_export]
macro_rules! sme_lhs_run_cases {
    ($name:expr, $prefix:literal, kr: $kr:expr, bad_kr: $bad_kr:expr,
        mr: $mr_condition:expr $(,)?) => {
        [
            $crate::run_case!(concat!($prefix, "mr"), $mr_condition
                => lhs_call($name, (2, 8, 16), (2 * two_vl(), $kr, 1), 0, (false, false))),
            $crate::run_case!(concat!($prefix, "kr"), "kr == KR"
                => lhs_call($name, (2, 8, 16), (two_vl(), $bad_kr, 1), 0, (false, false))),
            $crate::run_case!(concat!($prefix, "sr"), "sr == SR"
                => lhs_call($name, (2, 8, 16), (two_vl(), $kr, 2), 0, (false, false))),
            $crate::run_case!(concat!($prefix, "start"), "m_idx_start == 0"
                => lhs_call($name, (2, 8, 16), (two_vl(), $kr, 1), 1, (false, false))),
            $crate::run_case!(concat!($prefix, "null"), "lhs != NULL"
                => lhs_call($name, (2, 8, 16), (two_vl(), $kr, 1), 0, (true, false))),
            $crate::run_case!(concat!($prefix, "null_out"), "lhs_packed != NULL"
                => lhs_call($name, (2, 8, 16), (two_vl(), $kr, 1), 0, (false, true))),
        ]
    };
}

/// The death cases of SME RHS packer `$name` (names prefixed `$prefix`) called through
/// [`rhs_call`] with the valid tile `$valid` ((nr, kr), computed in the child): one per KleidiAI
/// assertion on `run`'s arguments, the nr case with `$bad_nr`, the kr case with `$bad_kr`
/// failing `$kr_condition`, and `get_rhs_packed_offset` of half a group. The calling file
/// imports `rhs_call`, `RhsCall` and `Getter2`.
#[macro_export]
macro_rules! sme_rhs_run_cases {
    ($name:expr, $prefix:literal, valid: $valid:expr, nr: $bad_nr:expr,
        kr: $bad_kr:expr => $kr_condition:literal $(,)?) => {
        [
            $crate::run_case!(concat!($prefix, "groups"), "num_groups == 1"
                => rhs_call($name, $valid, RhsCall { groups: Some(2), ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "nr"), "nr == n_step"
                => rhs_call($name, $valid, RhsCall { nr: Some($bad_nr), ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "kr"), $kr_condition
                => rhs_call($name, $valid, RhsCall { kr: Some($bad_kr), ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "sr"), "sr == 1"
                => rhs_call($name, $valid, RhsCall { sr: Some(2), ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "null"), "rhs != NULL"
                => rhs_call($name, $valid, RhsCall { null_rhs: true, ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "bias"), "bias != NULL"
                => rhs_call($name, $valid, RhsCall { null_bias: true, ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "scale"), "scale == NULL"
                => rhs_call($name, $valid, RhsCall { scale: true, ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "out"), "rhs_packed != NULL"
                => rhs_call($name, $valid, RhsCall { null_out: true, ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "extra"), "extra_bytes == 0"
                => rhs_call($name, $valid, RhsCall { extra: 4, ..RhsCall::default() })),
            $crate::run_case!(concat!($prefix, "params"), "params == NULL"
                => rhs_call($name, $valid, RhsCall { params: true, ..RhsCall::default() })),
            $crate::getter_case!(concat!($prefix, "packed_offset"), "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter2>($name)($valid.0 / 2, 8)),
        ]
    };
}
