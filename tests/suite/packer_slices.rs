//! Every exported packer packs column slices (RHS) and row slices (LHS) the way frameworks split
//! packing across threads: each pointer is offset with the packer's own getters, the slice is
//! packed alone, and its bytes equal the same range of one whole packing. The slice's inputs end at
//! a guard page right after their last valid byte, and every input byte outside the slice is noise,
//! so a packer reading past its slice crashes or produces different bytes.
//!
//! Pack parameters come from the catalog's kernel pairings, so a packer added to the catalog gets
//! slice cases without editing this file; `every_exported_packer_has_slice_cases` fails for one that
//! gets none. No packer accepts `num_groups > 1` (KleidiAI asserts `num_groups == 1` in all of
//! them), so there are no group cases.

use crate::support;

use core::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

use rkai_ukernels::catalog::{KERNELS, PACKERS};

use rkai_ukernels::pack::Source;
use rkai_ukernels::pack::kinds::{LhsPackerKind, Packer, PackerKind, RhsPackerKind, SmeRowsPacker};
use rkai_ukernels::pack::lhs_pack_bf16::Variant as Bf16Lhs;
use rkai_ukernels::pack::lhs_quant_pack_qai8dxp::LhsType;
use rkai_ukernels::pack::lhs_quant_pack_qsi8d32p::Variant as Qsi8d32pLhs;
use rkai_ukernels::pack::rhs_pack_bf16::Variant as Bf16Rhs;
use rkai_ukernels::pack::rhs_pack_float::Variant as FloatRhs;
use rkai_ukernels::pack::rhs_pack_qsi4c32p_qsu4c32s1s0::Variant as Qsi4c32pRhs;
use rkai_ukernels::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params, kai_rhs_pack_qs4cxs1s0_param,
    kai_rhs_pack_qsi8cx_params,
};
use support::cabi::{
    BlockLhsGetter, Getter0, Getter1, Getter2, Getter3, Getter4, Getter5, Getter7, ImatmulPackFn,
    ImatmulPackQsi8Fn, LhsBlockPackFn, LhsQuantPackHalfFn, RhsPackFloatFn, RhsPackQ4_0Fn,
    RhsPackQai4c32pFn, RhsPackQsi4c32pFn, RhsPackQsi4cxpFn, RhsPackQsi8cxpFn, RhsPackQsu2cxpFn,
    sym,
};
use support::guard::{Edge, Guarded};
use support::rng::Rng;

/// A getter of one index (offset of `idx`, size of `idx` rows or columns) with the case's other
/// arguments bound.
type IndexFn = Box<dyn Fn(usize) -> usize>;

/// Byte the destination starts as: bytes a packer leaves alone compare equal between the whole
/// packing and a slice, and a slice's writes before its offset show.
const UNTOUCHED: u8 = 0xa5;

/// Pack parameters of packers whose only KleidiAI kernels are SME ones rkai does not export:
/// KleidiAI's SME2 pairings at a 128-bit streaming vector (`compat/pairs.tsv`, `getters.tsv`),
/// as (nr or mr, kr, sr).
const SME_PAIRINGS: &[(&str, &[[usize; 3]])] = &[
    ("rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon", &[[16, 4, 1]]),
    ("rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon", &[[16, 4, 1]]),
    (
        "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon",
        &[[16, 8, 2]],
    ),
    (
        "rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon",
        &[[16, 8, 2]],
    ),
    // The LHS of KleidiAI's `f16p1vlx2` SME2 kernel (mr = SVL32); rkai has no consumer.
    (
        "lhs_pack_f16pmrx2_f32_neon",
        &[[4, 2, 2], [16, 2, 2], [7, 2, 2]],
    ),
];

/// Packers of 2 x SVL32 rows or columns, kr = sr = 1.
const SME_F32P2VLX1: &[&str] = &[
    "lhs_pack_f32p2vlx1_f32_sme",
    "rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme",
    "rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme",
];

/// The packer's C function `kai_<verb>_<packer>` as `F`.
fn c_fn<F: Copy>(verb: &str, packer: &Packer) -> F {
    sym(&format!("kai_{verb}_{}", packer.name))
}

fn is_lhs(packer: &Packer) -> bool {
    packer.kind.rhs_layout(0).is_none()
}

/// (nr or mr, kr, sr) of every catalog kernel reading `packer`'s output, as the kernels report
/// them on this CPU; KleidiAI's SME pairing where no exported kernel reads it.
fn pack_params(packer: &Packer) -> Vec<[usize; 3]> {
    let mut params = Vec::new();
    for kernel in KERNELS {
        let packers = if is_lhs(packer) {
            kernel.lhs_packers
        } else {
            kernel.rhs_packers
        };
        if !packers.iter().any(|p| ptr::eq(*p, packer)) {
            continue;
        }
        let tile = kernel.tile();
        let rows_or_columns = if is_lhs(packer) { tile.mr } else { tile.nr };
        let p = [rows_or_columns, tile.kr, tile.sr];
        if !params.contains(&p) {
            params.push(p);
        }
    }
    if params.is_empty() {
        if let Some((_, sme)) = SME_PAIRINGS.iter().find(|(name, _)| *name == packer.name) {
            params.extend_from_slice(sme);
        }
        // The f32 SME packers' group scales with the streaming length (KleidiAI's
        // `f32p2vlx1` kernels, which rkai does not provide yet).
        if SME_F32P2VLX1.contains(&packer.name) {
            params.push([2 * rkai_ukernels::arch::sme_lanes32(), 1, 1]);
        }
    }
    if params.is_empty() && packer.name.contains("x16p2vlx2") {
        // The SME 16-bit packers: nr or mr = 2 x the running streaming length in 32-bit lanes.
        params.push([2 * rkai_ukernels::arch::sme_lanes32(), 2, 1]);
    }
    if params.is_empty()
        && (packer.name.contains("x8p2vlx4") || packer.name.contains("qsi8cxp2vlx4sb"))
    {
        // The SME int8 packers: nr or mr = 2 x the streaming length in 32-bit lanes, kr = 4.
        params.push([2 * rkai_ukernels::arch::sme_lanes32(), 4, 1]);
    }
    if params.is_empty() && packer.name == "rhs_pack_kxn_f32p16vlx1b_f32_f32_sme" {
        // nr = 16 x the running streaming length in 32-bit lanes.
        params.push([16 * rkai_ukernels::arch::sme_lanes32(), 1, 1]);
    }
    params
}

/// Rows or columns of a test matrix for groups of `tile`: three whole groups and a partial one.
fn extent(tile: usize) -> usize {
    3 * tile + 3
}

/// Slices `(start, len)` of `total` rows or columns that start on `step` multiples: the first
/// step, one and two steps in the middle, everything after the first step, and the partial tail.
fn slices(total: usize, step: usize) -> Vec<(usize, usize)> {
    let tail = (total - 1) / step * step;
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (start, len) in [
        (0, step),
        (step, step),
        (step, 2 * step),
        (step, total.saturating_sub(step)),
        (tail, total - tail),
    ] {
        let len = len.min(total.saturating_sub(start));
        if len > 0 && !out.contains(&(start, len)) {
            out.push((start, len));
        }
    }
    out
}

/// How to fill a source buffer.
#[derive(Clone, Copy)]
enum Fill {
    Bytes,
    F32,
    F16,
    Bf16,
}

impl Fill {
    /// Bytes per value.
    fn bytes(self) -> usize {
        match self {
            Fill::Bytes => 1,
            Fill::F16 | Fill::Bf16 => 2,
            Fill::F32 => 4,
        }
    }
}

fn random(rng: &mut Rng, fill: Fill, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 4);
    while out.len() < len {
        let v = rng.f32(-4.0, 4.0);
        match fill {
            Fill::Bytes => out.extend_from_slice(&rng.next_u64().to_le_bytes()),
            Fill::F32 => out.extend_from_slice(&v.to_le_bytes()),
            Fill::F16 => out.extend_from_slice(&half::f16::from_f32(v).to_le_bytes()),
            Fill::Bf16 => out.extend_from_slice(&half::bf16::from_f32(v).to_le_bytes()),
        }
    }
    out.truncate(len);
    out
}

/// `rows` rows of `row_bytes` data bytes, `stride` bytes apart (also a per-column input such as
/// biases, scales or zero points: one row per column).
struct Matrix {
    rows: usize,
    stride: usize,
    row_bytes: usize,
    bytes: Vec<u8>,
}

impl Matrix {
    fn new(rng: &mut Rng, fill: Fill, rows: usize, row_bytes: usize, padding: usize) -> Self {
        let stride = row_bytes + padding;
        Matrix {
            rows,
            stride,
            row_bytes,
            bytes: random(rng, fill, rows * stride),
        }
    }

    /// Data bytes of rows `first..first + count`.
    fn rows(&self, first: usize, count: usize) -> Vec<Range<usize>> {
        (first..first + count)
            .map(|r| r * self.stride..r * self.stride + self.row_bytes)
            .collect()
    }
}

/// `len` bytes against a guard page holding `whole`'s bytes in `valid` and noise elsewhere.
fn guarded_view(whole: &[u8], len: usize, valid: &[Range<usize>], rng: &mut Rng) -> Guarded {
    let mut view = Guarded::from_bytes(&random(rng, Fill::Bytes, len), Edge::End);
    for r in valid {
        view.bytes_mut()[r.clone()].copy_from_slice(&whole[r.clone()]);
    }
    view
}

fn end(ranges: &[Range<usize>]) -> usize {
    ranges.last().map_or(0, |r| r.end)
}

/// A destination of `len` bytes set to [`UNTOUCHED`], against a guard page.
fn destination(len: usize) -> Guarded {
    Guarded::from_bytes(&vec![UNTOUCHED; len], Edge::End)
}

/// Names the packing call in progress when a guard page faults: a packer reading past its slice
/// kills the test process, and the bare signal would not say which packer and slice did it.
mod fault_names {
    use std::cell::Cell;
    use std::ptr;
    use std::sync::OnceLock;

    const SIGNALS: [libc::c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

    thread_local! {
        /// The current call's name, as the pointer and length of a string that outlives it.
        static CURRENT: Cell<(*const u8, usize)> = const { Cell::new((ptr::null(), 0)) };
    }

    /// The handlers ours replaced, in `SIGNALS` order.
    static PREVIOUS: OnceLock<[libc::sigaction; 2]> = OnceLock::new();

    /// Clears the name when the call ends, panicking or not.
    struct Clear;

    impl Drop for Clear {
        fn drop(&mut self) {
            CURRENT.set((ptr::null(), 0));
        }
    }

    /// Runs `call`, writing `name` to stderr if it faults.
    pub fn naming<T>(name: &str, call: impl FnOnce() -> T) -> T {
        PREVIOUS.get_or_init(install);
        CURRENT.set((name.as_ptr(), name.len()));
        let _clear = Clear;
        call()
    }

    fn install() -> [libc::sigaction; 2] {
        SIGNALS.map(|signal| {
            // SAFETY: a zeroed sigaction is a valid value; the handler only calls write and
            // sigaction, which are async-signal-safe.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_fault as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                let mut previous: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, &action, &mut previous);
                previous
            }
        })
    }

    extern "C" fn on_fault(signal: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
        let (name, len) = CURRENT.get();
        let prefix = b"\npacker_slices: memory fault in ";
        // SAFETY: name/len describe a string alive for the whole call; restoring the previous
        // handler (or the default) makes the faulting access, which repeats on return, end the
        // process as it would have without this handler.
        unsafe {
            if !name.is_null() {
                libc::write(2, prefix.as_ptr().cast(), prefix.len());
                libc::write(2, name.cast(), len);
                libc::write(2, b"\n".as_ptr().cast(), 1);
            }
            let index = SIGNALS.iter().position(|&s| s == signal).unwrap_or(0);
            match PREVIOUS.get() {
                Some(previous) => libc::sigaction(signal, &previous[index], ptr::null_mut()),
                None => {
                    libc::signal(signal, libc::SIG_DFL);
                    0
                }
            };
        }
    }
}

/// Checks a slice's packing `dst` (whose first `offset` bytes precede the slice) against the
/// whole packing; the `tail` slice must also end where the whole packing does.
fn expect_same_bytes(what: &str, dst: &[u8], offset: usize, whole: &[u8], tail: bool) {
    if let Some(i) = dst[..offset].iter().position(|&b| b != UNTOUCHED) {
        panic!("{what}: wrote byte {i}, before its packed offset {offset}");
    }
    let slice = &dst[offset..];
    assert!(
        offset + slice.len() <= whole.len(),
        "{what}: packed offset {offset} + slice size {} exceeds the whole packing ({} bytes)",
        slice.len(),
        whole.len()
    );
    let expected = &whole[offset..offset + slice.len()];
    if let Some(i) = slice.iter().zip(expected).position(|(a, b)| a != b) {
        panic!(
            "{what}: packed byte {} (slice byte {i} of {}) is {:#04x}, the whole packing has \
             {:#04x}",
            offset + i,
            slice.len(),
            slice[i],
            expected[i]
        );
    }
    assert!(
        !tail || dst.len() == whole.len(),
        "{what}: the tail slice does not end where the whole packing does"
    );
}

// ---------------------------------------------------------------------------------------------
// Case grid

/// One case's tile and extents, named as for an RHS packer (`nr` and `n` hold `mr` and `m` for
/// an LHS packer).
#[derive(Clone, Copy)]
struct Shape {
    nr: usize,
    kr: usize,
    sr: usize,
    n: usize,
    k: usize,
    /// Block length; the K chunk length for [`Ks::Chunks`]; 0 for per-channel packers.
    bl: usize,
}

impl Shape {
    /// (k_chunk_count, k_chunk_length) of a [`Ks::Chunks`] shape.
    fn chunks(self) -> (usize, usize) {
        (self.k / self.bl, self.bl)
    }
}

/// The K extents of a packer's cases.
#[derive(Clone, Copy)]
enum Ks {
    /// K of a per-channel packer.
    Channel(&'static [usize]),
    /// (block length, K) of a per-block packer; lengths `kr` does not divide are skipped, as the
    /// packers split each block into `kr`-value segments.
    Blocks(&'static [(usize, usize)]),
    /// (k_chunk_count, k_chunk_length) of the chunked float packer.
    Chunks(&'static [(usize, usize)]),
}

/// Every (shape, bias) of `p`'s cases: its pack parameters, then `ks`, then `biases`.
fn grid(p: &Packer, ks: Ks, biases: &[bool]) -> Vec<(Shape, bool)> {
    let mut out = Vec::new();
    for [nr, kr, sr] in pack_params(p) {
        let k_points: Vec<(usize, usize)> = match ks {
            Ks::Channel(ks) => ks.iter().map(|&k| (0, k)).collect(),
            Ks::Blocks(blocks) => blocks
                .iter()
                .copied()
                .filter(|(bl, _)| bl % kr == 0)
                .collect(),
            Ks::Chunks(chunks) => chunks.iter().map(|&(c, l)| (l, c * l)).collect(),
        };
        for (bl, k) in k_points {
            for &bias in biases {
                let n = extent(nr);
                out.push((
                    Shape {
                        nr,
                        kr,
                        sr,
                        n,
                        k,
                        bl,
                    },
                    bias,
                ));
            }
        }
    }
    out
}

impl Shape {
    /// The case's label, in KleidiAI's argument names (`mr`, `m` for an LHS packer).
    fn label(&self, ks: Ks, lhs: bool) -> String {
        let (tile, extent) = if lhs { ("mr", "m") } else { ("nr", "n") };
        let k = match ks {
            Ks::Channel(_) => format!("k {}", self.k),
            Ks::Blocks(_) => format!("k {} bl {}", self.k, self.bl),
            Ks::Chunks(_) => format!(
                "k_chunk_count {} k_chunk_length {}",
                self.k / self.bl,
                self.bl
            ),
        };
        let Shape { nr, kr, sr, n, .. } = *self;
        format!("{tile} {nr} kr {kr} sr {sr} {extent} {n} {k}")
    }
}

/// A packed offset or size getter of (index, k, nr or mr, kr, sr), KleidiAI's usual one.
fn by_tile(g: Getter5, idx: usize, s: Shape) -> usize {
    g(idx, s.k, s.nr, s.kr, s.sr)
}

/// A packed offset or size getter of (index, k, nr, kr, bl).
fn by_block(g: Getter5, idx: usize, s: Shape) -> usize {
    g(idx, s.k, s.nr, s.kr, s.bl)
}

// ---------------------------------------------------------------------------------------------
// RHS

/// Source matrix of an RHS packer.
struct RhsMatrix {
    source: Source,
    /// Bits per value, which place a column inside a K x N row.
    bits: usize,
    /// Whether the packer derives the K x N row stride from `n` (KleidiAI's per-channel K x N
    /// packers): a column slice is then copied out of the matrix before packing, as a caller of
    /// those packers must.
    stride_from_n: bool,
    m: Matrix,
}

impl RhsMatrix {
    /// Random `fill` values of `bits` bits each in rows `padding` bytes longer than their values.
    fn random(
        rng: &mut Rng,
        fill: Fill,
        source: Source,
        bits: usize,
        padding: usize,
        s: Shape,
    ) -> Self {
        let (rows, values) = match source {
            Source::Nxk => (s.n, s.k),
            Source::Kxn => (s.k, s.n),
        };
        RhsMatrix {
            source,
            bits,
            stride_from_n: false,
            m: Matrix::new(rng, fill, rows, (values * bits).div_ceil(8), padding),
        }
    }

    /// An N x K source of `m`'s rows, whatever they hold.
    fn nxk(m: Matrix) -> Self {
        RhsMatrix {
            source: Source::Nxk,
            bits: 0,
            stride_from_n: false,
            m,
        }
    }

    /// What KleidiAI's `get_rhs_offset` returns for column `n_idx`: its row (N x K) or the byte
    /// of its value in a row (K x N).
    fn column_offset(&self, n_idx: usize) -> usize {
        match self.source {
            Source::Nxk => n_idx * self.m.stride,
            Source::Kxn => n_idx * self.bits / 8,
        }
    }

    /// Bytes of columns `n_idx..n_idx + w` where column `n_idx` starts at byte `offset`.
    fn columns(&self, offset: usize, n_idx: usize, w: usize) -> Vec<Range<usize>> {
        match self.source {
            Source::Nxk => self.m.rows(n_idx, w),
            Source::Kxn => {
                let bytes = (w * self.bits).div_ceil(8);
                (0..self.m.rows)
                    .map(|r| r * self.m.stride + offset..r * self.m.stride + offset + bytes)
                    .collect()
            }
        }
    }
}

/// Pointers and sizes of one RHS packing call (null for inputs the packer does not take).
struct RhsCall {
    n: usize,
    rhs: *const u8,
    rhs_stride: usize,
    bias: *const u8,
    scale: *const u8,
    scale_stride: usize,
    zero: *const u8,
    dst: *mut u8,
}

/// One RHS shape and parameter set of a packer, with its C functions bound.
struct RhsCase {
    label: String,
    n: usize,
    nr: usize,
    /// `kai_get_n_step_<packer>(nr)`, for packers that have it.
    n_step: Option<usize>,
    rhs: RhsMatrix,
    bias: Option<Matrix>,
    scale: Option<Matrix>,
    zero: Option<Matrix>,
    /// `kai_get_rhs_offset_<packer>(n_idx, rhs_stride)` (the K x N float getters take no stride).
    rhs_offset: Box<dyn Fn(usize, usize) -> usize>,
    /// `kai_get_bias_offset_<packer>(n_idx)` where the packer has one; callers of the others
    /// offset the bias by `n_idx` elements.
    bias_offset: Option<Getter1>,
    packed_offset: IndexFn,
    packed_size: IndexFn,
    run: Box<dyn Fn(&RhsCall)>,
}

/// Inputs of one call, each against a guard page.
struct RhsInputs {
    /// Holds the source mapped while the packer reads it through `first_column`.
    _rhs: Guarded,
    /// Where the packer reads the first column: `rhs` offset by the getter's value, or the start
    /// of a copied-out slice.
    first_column: *const u8,
    bias: Option<Guarded>,
    scale: Option<Guarded>,
    zero: Option<Guarded>,
}

/// `offset` bytes into an input the case has, null for one it has not.
fn at(input: &Option<Guarded>, offset: usize) -> *const u8 {
    input
        .as_ref()
        .map_or(ptr::null(), |g| g.ptr().wrapping_add(offset))
}

/// Inputs holding only columns `n_idx..n_idx + w` and ending right after them; the offsets are
/// where column `n_idx` starts in each.
fn rhs_inputs(c: &RhsCase, n_idx: usize, w: usize, rhs_offset: usize, rng: &mut Rng) -> RhsInputs {
    let whole_rhs = &c.rhs.m.bytes;
    let ranges = c.rhs.columns(rhs_offset, n_idx, w);
    let copied_out = c.rhs.stride_from_n && w < c.n;
    let rhs = if copied_out {
        let sub: Vec<u8> = ranges
            .iter()
            .flat_map(|r| &whole_rhs[r.clone()])
            .copied()
            .collect();
        Guarded::from_bytes(&sub, Edge::End)
    } else {
        guarded_view(whole_rhs, end(&ranges), &ranges, rng)
    };
    let first_column = if copied_out {
        rhs.ptr()
    } else {
        rhs.ptr().wrapping_add(rhs_offset)
    };
    let mut per_column = |p: &Option<Matrix>| {
        p.as_ref().map(|p| {
            let ranges = p.rows(n_idx, w);
            guarded_view(&p.bytes, end(&ranges), &ranges, rng)
        })
    };
    RhsInputs {
        _rhs: rhs,
        first_column,
        bias: per_column(&c.bias),
        scale: per_column(&c.scale),
        zero: per_column(&c.zero),
    }
}

fn check_rhs_case(name: &str, c: &RhsCase, rng: &mut Rng) -> usize {
    let what = format!("{name} [{}]", c.label);
    if let Some(n_step) = c.n_step {
        assert_eq!(
            n_step, c.nr,
            "{what}: kai_get_n_step_{name}({}) = {n_step}, KleidiAI returns nr",
            c.nr
        );
    }
    let stride = c.rhs.m.stride;
    let scale_stride = c.scale.as_ref().map_or(0, |s| s.stride);

    let whole_inputs = rhs_inputs(c, 0, c.n, 0, rng);
    let mut whole = destination((c.packed_size)(c.n));
    let call = RhsCall {
        n: c.n,
        rhs: whole_inputs.first_column,
        rhs_stride: stride,
        bias: at(&whole_inputs.bias, 0),
        scale: at(&whole_inputs.scale, 0),
        scale_stride,
        zero: at(&whole_inputs.zero, 0),
        dst: whole.mut_ptr(),
    };
    fault_names::naming(&format!("{what} whole"), || (c.run)(&call));

    let slices = slices(c.n, c.nr);
    for &(n_idx, w) in &slices {
        let what = format!("{what} columns {n_idx}..{}", n_idx + w);
        let rhs_offset = (c.rhs_offset)(n_idx, stride);
        let expected = c.rhs.column_offset(n_idx);
        assert_eq!(
            rhs_offset, expected,
            "{what}: kai_get_rhs_offset_{name}(n_idx = {n_idx}, rhs_stride = {stride}) = \
             {rhs_offset}, KleidiAI returns {expected}"
        );
        let per_column_offset = |p: &Option<Matrix>| n_idx * p.as_ref().map_or(0, |p| p.stride);
        let bias_offset = per_column_offset(&c.bias);
        if let (Some(getter), Some(_)) = (c.bias_offset, &c.bias) {
            let got = getter(n_idx);
            assert_eq!(
                got, bias_offset,
                "{what}: kai_get_bias_offset_{name}({n_idx}) = {got}, KleidiAI returns \
                 {bias_offset}"
            );
        }
        let inputs = rhs_inputs(c, n_idx, w, rhs_offset, rng);
        let packed_offset = (c.packed_offset)(n_idx);
        let mut dst = destination(packed_offset + (c.packed_size)(w));
        let call = RhsCall {
            n: w,
            rhs: inputs.first_column,
            rhs_stride: stride,
            bias: at(&inputs.bias, bias_offset),
            scale: at(&inputs.scale, per_column_offset(&c.scale)),
            scale_stride,
            zero: at(&inputs.zero, per_column_offset(&c.zero)),
            dst: dst.mut_ptr().wrapping_add(packed_offset),
        };
        fault_names::naming(&what, || (c.run)(&call));
        let what = format!("{what} at kai_get_rhs_packed_offset_{name} = {packed_offset}");
        let tail = n_idx + w == c.n;
        expect_same_bytes(&what, dst.bytes(), packed_offset, whole.bytes(), tail);
    }
    slices.len()
}

/// A per-column input of an RHS packer: one `fill` value per column, or per block of `bl` for a
/// per-block packer, in rows `padding` bytes longer than their values.
#[derive(Clone, Copy)]
struct PerColumn {
    fill: Fill,
    padding: usize,
    /// One value per block of `bl` when `bl` is non-zero (else one per column whatever `bl`
    /// is: the chunked packers' `bl` is their chunk length).
    per_block: bool,
}

impl PerColumn {
    const F32: PerColumn = PerColumn {
        fill: Fill::F32,
        padding: 0,
        per_block: true,
    };
    const F32_PER_CHANNEL: PerColumn = PerColumn {
        per_block: false,
        ..PerColumn::F32
    };

    fn random(self, rng: &mut Rng, s: Shape) -> Matrix {
        // One value per block, or per column for a per-channel packer (bl 0).
        let values = match self.per_block {
            true => s.k.checked_div(s.bl).unwrap_or(1),
            false => 1,
        };
        Matrix::new(
            rng,
            self.fill,
            s.n,
            values * self.fill.bytes(),
            self.padding,
        )
    }
}

/// A packer's bias: one `fill` value per column, which KleidiAI lets callers leave null (the
/// packer then packs zeros) unless `required`.
#[derive(Clone, Copy)]
struct Bias {
    fill: Fill,
    required: bool,
}

/// How a packer reports its column step.
#[derive(Clone, Copy)]
enum NStep {
    /// `kai_get_n_step(nr)`.
    OfNr,
    /// `kai_get_n_step()`.
    Fixed,
    /// None: callers step by `nr`.
    Absent,
}

/// What an RHS packer's cases are made of, besides its source matrix and C calls.
#[derive(Clone, Copy)]
struct RhsSpec {
    /// Seed of the inputs' values.
    seed: u64,
    ks: Ks,
    /// None for a packer that takes no bias.
    bias: Option<Bias>,
    scale: Option<PerColumn>,
    zero: Option<PerColumn>,
    n_step: NStep,
    /// Whether `kai_get_rhs_offset` takes the row stride (all but the K x N float packers' do).
    offset_takes_stride: bool,
    /// Whether the packer has `kai_get_bias_offset`; callers of the others offset the bias by
    /// `n_idx` elements.
    bias_offset: bool,
}

impl RhsSpec {
    /// A packer with a required bias of `bias_fill` values, optional `scale`s, a fixed
    /// `kai_get_n_step()`, `kai_get_bias_offset` and a `kai_get_rhs_offset` without the stride.
    fn bias_required(seed: u64, ks: Ks, bias_fill: Fill, scale: Option<PerColumn>) -> Self {
        RhsSpec {
            seed,
            ks,
            bias: Some(Bias {
                fill: bias_fill,
                required: true,
            }),
            scale,
            zero: None,
            n_step: NStep::Fixed,
            offset_takes_stride: false,
            bias_offset: true,
        }
    }

    /// The quantized packers': an optional f32 bias and f32 scales, `kai_get_n_step(nr)`.
    fn quantized(seed: u64, ks: Ks) -> Self {
        RhsSpec {
            seed,
            ks,
            bias: Some(Bias {
                fill: Fill::F32,
                required: false,
            }),
            scale: Some(PerColumn::F32),
            zero: None,
            n_step: NStep::OfNr,
            offset_takes_stride: true,
            bias_offset: false,
        }
    }
}

/// `kai_get_rhs_offset_<packer>`, with or without the row stride argument.
fn rhs_offset_getter(p: &Packer, takes_stride: bool) -> Box<dyn Fn(usize, usize) -> usize> {
    if takes_stride {
        let g: Getter2 = c_fn("get_rhs_offset", p);
        Box::new(move |n_idx, stride| g(n_idx, stride))
    } else {
        let g: Getter1 = c_fn("get_rhs_offset", p);
        Box::new(move |n_idx, _| g(n_idx))
    }
}

/// The cases of RHS packer `p`: `spec`'s grid, each with a source from `rhs`, the packed offset
/// and size getters (both of type `Packed`) called through `packed`, and the packer's `run`
/// (of type `Run`) called through `run`.
fn rhs_cases<Run: Copy + 'static, Packed: Copy + 'static>(
    p: &Packer,
    spec: RhsSpec,
    rhs: impl Fn(&mut Rng, Shape) -> RhsMatrix,
    packed: fn(Packed, usize, Shape) -> usize,
    run: impl Fn(Run, &RhsCall, Shape) + Copy + 'static,
) -> Vec<RhsCase> {
    let run_fn: Run = c_fn("run", p);
    let packed_offset: Packed = c_fn("get_rhs_packed_offset", p);
    let packed_size: Packed = c_fn("get_rhs_packed_size", p);
    let n_step = |nr: usize| match spec.n_step {
        NStep::OfNr => Some(c_fn::<Getter1>("get_n_step", p)(nr)),
        NStep::Fixed => Some(c_fn::<Getter0>("get_n_step", p)()),
        NStep::Absent => None,
    };
    let biases: &[bool] = match spec.bias {
        None => &[false],
        Some(Bias { required: true, .. }) => &[true],
        Some(_) => &[true, false],
    };
    let mut rng = Rng::new(spec.seed);
    let mut cases = Vec::new();
    for (s, bias) in grid(p, spec.ks, biases) {
        let label = s.label(spec.ks, false);
        cases.push(RhsCase {
            label: match spec.bias {
                Some(_) if bias => format!("{label} bias"),
                Some(_) => format!("{label} no bias"),
                None => label,
            },
            n: s.n,
            nr: s.nr,
            n_step: n_step(s.nr),
            rhs: rhs(&mut rng, s),
            bias: spec
                .bias
                .filter(|_| bias)
                .map(|b| Matrix::new(&mut rng, b.fill, s.n, b.fill.bytes(), 0)),
            scale: spec.scale.map(|c| c.random(&mut rng, s)),
            zero: spec.zero.map(|c| c.random(&mut rng, s)),
            rhs_offset: rhs_offset_getter(p, spec.offset_takes_stride),
            bias_offset: spec.bias_offset.then(|| c_fn("get_bias_offset", p)),
            packed_offset: Box::new(move |n_idx| packed(packed_offset, n_idx, s)),
            packed_size: Box::new(move |n| packed(packed_size, n, s)),
            run: Box::new(move |c| run(run_fn, c, s)),
        });
    }
    cases
}

/// Zero points of the 4-bit packers for unsigned nibbles, as KleidiAI's tests pass them.
const UNSIGNED_NIBBLES: kai_rhs_pack_qs4cxs1s0_param = kai_rhs_pack_qs4cxs1s0_param {
    lhs_zero_point: 1,
    rhs_zero_point: 8,
};

/// Calls RHS packer `$run` with the arguments all of them start with (one group, then the call's
/// n and the case's k, nr, kr, sr), then `$own`.
macro_rules! pack_rhs {
    ($run:ident, $c:ident, $s:ident; $($own:expr),* $(,)?) => {
        $run(1, $c.n, $s.k, $s.nr, $s.kr, $s.sr, $($own),*)
    };
}

/// A chunked (indirect-matmul) RHS packer's call: (n, k_chunk_count, k_chunk_length,
/// rhs_stride, rhs, bias), then the packer's own arguments.
macro_rules! pack_chunked_rhs {
    ($run:ident, $c:ident, $s:ident; $($own:expr),* $(,)?) => {{
        let (chunks, chunk_len) = $s.chunks();
        $run($c.n, chunks, chunk_len, $c.rhs_stride, $c.rhs.cast(), $c.bias.cast(), $($own),*)
    }};
}

/// `rhs_pack_nxk_qsu2cxp{4x4bf32sf32,4vlx4}_qsu2cx_neon`, with the default table (a slice's last
/// group takes the 4x4 packer's scalar path, whose sums differ from the vectorised path's only
/// for tables that overflow int8).
fn qsu2cxp_cases(p: &Packer) -> Vec<RhsCase> {
    let params = kai_rhs_pack_qs4cxs1s0_param {
        lhs_zero_point: 1,
        rhs_zero_point: 2,
    };
    rhs_cases(
        p,
        RhsSpec::quantized(5, Ks::Channel(&[32, 96])),
        |rng, s| RhsMatrix::random(rng, Fill::Bytes, Source::Nxk, 2, 0, s),
        by_tile,
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: RhsPackQsu2cxpFn, c, s| unsafe {
            pack_rhs!(run, c, s; c.rhs, c.bias.cast(), c.scale.cast(), c.dst.cast(), 0, &params,
                ptr::null())
        },
    )
}

/// `rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0` and `rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (`bits`
/// 4), `rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon` (`bits` 8): one prototype but for the types, and
/// K x N forms that derive the row stride from `n`.
fn per_channel_cases(p: &Packer, source: Source, bits: usize) -> Vec<RhsCase> {
    // Seeded by the value width, so that the two families draw different values.
    let spec = RhsSpec::quantized(bits as u64, Ks::Channel(&[13, 77]));
    let rhs = move |rng: &mut Rng, s| RhsMatrix {
        stride_from_n: source == Source::Kxn,
        ..RhsMatrix::random(rng, Fill::Bytes, source, bits, 0, s)
    };
    if bits == 8 {
        let params = kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: 1,
            scale_multiplier: 1.0,
        };
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        return rhs_cases(
            p,
            spec,
            rhs,
            by_tile,
            move |run: RhsPackQsi8cxpFn, c, s| unsafe {
                pack_rhs!(run, c, s; c.rhs.cast(), c.bias.cast(), c.scale.cast(), c.dst.cast(), 0,
                &params)
            },
        );
    }
    // Signed nibbles for K x N, as KleidiAI's tests pass them.
    let params = kai_rhs_pack_qs4cxs1s0_param {
        rhs_zero_point: if source == Source::Kxn { 0 } else { 8 },
        ..UNSIGNED_NIBBLES
    };
    // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
    rhs_cases(
        p,
        spec,
        rhs,
        by_tile,
        move |run: RhsPackQsi4cxpFn, c, s| unsafe {
            pack_rhs!(run, c, s; c.rhs, c.bias.cast(), c.scale.cast(), c.dst.cast(), 0, &params)
        },
    )
}

/// `rhs_pack_{nxk,kxn}_qsi4c32p_qsu4c32s1s0` and the NEON `nrx4` / `nrx8` forms: bf16 scales per
/// block; row and scale strides are arguments, so both are padded.
fn qsi4c32p_cases(p: &Packer, variant: Qsi4c32pRhs) -> Vec<RhsCase> {
    let params = kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
        lhs_zero_point: 1,
        rhs_zero_point: 8,
        scale_dt: kai_datatype::kai_dt_bf16,
    };
    let bf16_scales = PerColumn {
        fill: Fill::Bf16,
        padding: 2,
        per_block: true,
    };
    let blocks = Ks::Blocks(&[(32, 96), (64, 192), (96, 192), (128, 256)]);
    rhs_cases(
        p,
        RhsSpec {
            scale: Some(bf16_scales),
            ..RhsSpec::quantized(32, blocks)
        },
        move |rng, s| RhsMatrix::random(rng, Fill::Bytes, variant.source(), 4, 3, s),
        |g: Getter7, idx, s| {
            let bf16 = kai_datatype::kai_dt_bf16 as u32;
            g(idx, s.k, s.nr, s.kr, s.sr, s.bl, bf16)
        },
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: RhsPackQsi4c32pFn, c, s| unsafe {
            pack_rhs!(run, c, s; s.bl, c.rhs, c.rhs_stride, c.bias.cast(), c.scale.cast(),
                c.scale_stride, c.dst.cast(), 0, ptr::from_ref(&params).cast())
        },
    )
}

/// `rhs_pack_nxk_qsi4c32p*scalef16_qsu4c32s16s0*`: Q4_0 rows (an f16 scale before each block's
/// nibbles), no bias, no `get_n_step` (callers step by `nr`).
fn q4_0_cases(p: &Packer) -> Vec<RhsCase> {
    rhs_cases(
        p,
        RhsSpec {
            bias: None,
            scale: None,
            n_step: NStep::Absent,
            ..RhsSpec::quantized(40, Ks::Blocks(&[(32, 96), (96, 192), (256, 256)]))
        },
        |rng, s| {
            let row_bytes = s.k / s.bl * (2 + s.bl / 2);
            RhsMatrix::nxk(Matrix::new(rng, Fill::Bytes, s.n, row_bytes, 0))
        },
        by_block,
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: RhsPackQ4_0Fn, c, s| unsafe {
            pack_rhs!(run, c, s; s.bl, c.rhs, ptr::null(), c.dst.cast(), 0, &UNSIGNED_NIBBLES)
        },
    )
}

/// `rhs_pack_nxk_qai4c32p*`: f32 zero points and scales per block, optional f32 bias, no
/// `get_n_step` (callers step by `nr`).
fn qai4c32p_cases(p: &Packer) -> Vec<RhsCase> {
    rhs_cases(
        p,
        RhsSpec {
            zero: Some(PerColumn::F32),
            n_step: NStep::Absent,
            ..RhsSpec::quantized(41, Ks::Blocks(&[(32, 96), (64, 128), (128, 256)]))
        },
        |rng, s| RhsMatrix::random(rng, Fill::Bytes, Source::Nxk, 4, 0, s),
        by_block,
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: RhsPackQai4c32pFn, c, s| unsafe {
            pack_rhs!(run, c, s; s.bl, c.rhs, c.zero.cast(), c.bias.cast(), c.scale.cast(),
                c.dst.cast(), 0, &UNSIGNED_NIBBLES)
        },
    )
}

/// What differs between the RHS packers of f32 and f16 sources (the float and bf16 families),
/// which share one C signature, a row stride argument and a bias offset getter.
struct FloatSource {
    source: Source,
    value_fill: Fill,
    bias: Bias,
    /// Whether the packed offset and size getters also take (nr, kr) (the bf16 `quant` packer).
    getters_take_tile: bool,
    ks: &'static [usize],
}

/// Float and bf16 RHS packers; the row stride is padded by one value.
fn float_source_cases(p: &Packer, f: FloatSource) -> Vec<RhsCase> {
    let spec = RhsSpec {
        seed: 16,
        ks: Ks::Channel(f.ks),
        bias: Some(f.bias),
        scale: None,
        zero: None,
        n_step: NStep::Fixed,
        offset_takes_stride: f.source == Source::Nxk,
        bias_offset: true,
    };
    let (fill, bytes) = (f.value_fill, f.value_fill.bytes());
    let rhs = move |rng: &mut Rng, s| RhsMatrix::random(rng, fill, f.source, 8 * bytes, bytes, s);
    // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
    let run = |run: RhsPackFloatFn, c: &RhsCall, s: Shape| unsafe {
        pack_rhs!(run, c, s; c.rhs_stride, c.rhs.cast(), c.bias.cast(), ptr::null(), c.dst.cast(),
            0, ptr::null())
    };
    if f.getters_take_tile {
        rhs_cases(p, spec, rhs, |g: Getter4, i, s| g(i, s.k, s.nr, s.kr), run)
    } else {
        rhs_cases(p, spec, rhs, |g: Getter2, i, s| g(i, s.k), run)
    }
}

/// `rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`: int8 K x N rows (padded by 3 bytes),
/// required `i32` biases and `f32` scales, a non-zero LHS zero point (folded into the biases).
fn qsi8cxpsb_cases(p: &Packer) -> Vec<RhsCase> {
    let params = kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: -7,
        scale_multiplier: 0.25,
    };
    let spec = RhsSpec::bias_required(17, Ks::Channel(&[5, 19]), Fill::F32, Some(PerColumn::F32));
    rhs_cases(
        p,
        spec,
        |rng, s| RhsMatrix::random(rng, Fill::Bytes, Source::Kxn, 8, 3, s),
        |g: Getter2, i, s| g(i, s.k),
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: RhsPackFloatFn, c, s| unsafe {
            pack_rhs!(run, c, s; c.rhs_stride, c.rhs.cast(), c.bias.cast(), c.scale.cast(),
                c.dst.cast(), 0, ptr::from_ref(&params).cast())
        },
    )
}

/// `rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme`.
fn chunked_qsi8cxpsb_cases(p: &Packer) -> Vec<RhsCase> {
    let params = kai_rhs_pack_qsi8cx_params {
        lhs_zero_point: 9,
        scale_multiplier: 0.5,
    };
    let scale = Some(PerColumn::F32_PER_CHANNEL);
    let spec = RhsSpec::bias_required(18, CHUNKS, Fill::F32, scale);
    rhs_cases(
        p,
        spec,
        |rng, s| RhsMatrix::random(rng, Fill::Bytes, Source::Kxn, 8, 3, s),
        chunked_packed_getter,
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        move |run: ImatmulPackQsi8Fn, c, s| unsafe {
            let params = ptr::from_ref(&params).cast();
            pack_chunked_rhs!(run, c, s; c.scale.cast(), c.dst.cast(), params)
        },
    )
}

/// The (k_chunk_count, k_chunk_length) points of the chunked (indirect-matmul) RHS packers.
const CHUNKS: Ks = Ks::Chunks(&[(1, 1), (9, 3), (4, 5)]);

/// A chunked RHS packer's packed offset or size getter: (n_idx or n, k_chunk_count,
/// k_chunk_length).
fn chunked_packed_getter(g: Getter3, idx: usize, s: Shape) -> usize {
    let (chunks, chunk_len) = s.chunks();
    g(idx, chunks, chunk_len)
}

fn value_fill(bytes: usize) -> Fill {
    if bytes == 2 { Fill::F16 } else { Fill::F32 }
}

/// `rhs_pack_{kxn,nxk}_x32p16x1b*`, `..._f32p8x1biasf32_...`, `..._x32p4vlx1b_..._sve`,
/// `..._x16p32x1b*`, `..._f16p16x1biasf16_...`.
fn float_cases(p: &Packer, v: FloatRhs) -> Vec<RhsCase> {
    float_source_cases(
        p,
        FloatSource {
            source: v.source(),
            value_fill: value_fill(v.bytes()),
            bias: Bias {
                fill: value_fill(v.bytes()),
                required: v.requires_bias(),
            },
            getters_take_tile: false,
            ks: &[1, 19],
        },
    )
}

/// `rhs_imatmul_pack_kxn_x32p4vlx1b_x32_x32_sve` and the SME `rhs_imatmul_pack_kxn_*`: K as
/// chunks, bias required.
fn chunked_float_cases(p: &Packer, v: FloatRhs) -> Vec<RhsCase> {
    let fill = value_fill(v.bytes());
    let spec = RhsSpec::bias_required(16, CHUNKS, fill, None);
    rhs_cases(
        p,
        spec,
        |rng, s| RhsMatrix::random(rng, fill, Source::Kxn, 8 * v.bytes(), 4, s),
        chunked_packed_getter,
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        |run: ImatmulPackFn, c, s| unsafe { pack_chunked_rhs!(run, c, s; c.dst.cast()) },
    )
}

/// `rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon`, `rhs_pack_kxn_bf16p12x4bias{f32,f16}_f16_neon`,
/// `rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme`.
fn bf16_rhs_cases(p: &Packer, v: Bf16Rhs) -> Vec<RhsCase> {
    float_source_cases(
        p,
        FloatSource {
            source: Source::Kxn,
            value_fill: value_fill(v.source_bytes()),
            bias: Bias {
                fill: value_fill(v.bias_bytes()),
                // The SME packer asserts a bias.
                required: v.is_sme(),
            },
            getters_take_tile: v == Bf16Rhs::QuantF32,
            ks: &[5, 19],
        },
    )
}

// ---------------------------------------------------------------------------------------------
// LHS

/// One LHS shape and parameter set of a packer, with its C functions bound.
struct LhsCase {
    label: String,
    m: usize,
    mr: usize,
    /// `kai_get_m_step_<packer>(mr)`.
    m_step: usize,
    lhs: Matrix,
    lhs_offset: Getter2,
    packed_offset: IndexFn,
    packed_size: IndexFn,
    /// (m, lhs, lhs_stride, lhs_packed), with `m_idx_start` 0 and `lhs` at the first row, as
    /// KleidiAI's callers pass them.
    run: Box<dyn Fn(usize, *const u8, usize, *mut u8)>,
}

fn check_lhs_case(name: &str, c: &LhsCase, rng: &mut Rng) -> usize {
    let what = format!("{name} [{}]", c.label);
    assert_eq!(
        c.m_step, c.mr,
        "{what}: kai_get_m_step_{name}({}) = {}, KleidiAI returns mr",
        c.mr, c.m_step
    );
    let stride = c.lhs.stride;
    let rows = c.lhs.rows(0, c.m);
    let source = guarded_view(&c.lhs.bytes, end(&rows), &rows, rng);
    let mut whole = destination((c.packed_size)(c.m));
    fault_names::naming(&format!("{what} whole"), || {
        (c.run)(c.m, source.ptr(), stride, whole.mut_ptr())
    });

    let slices = slices(c.m, c.m_step);
    for &(m_idx, h) in &slices {
        let what = format!("{what} rows {m_idx}..{}", m_idx + h);
        let lhs_offset = (c.lhs_offset)(m_idx, stride);
        assert_eq!(
            lhs_offset,
            m_idx * stride,
            "{what}: kai_get_lhs_offset_{name}(m_idx = {m_idx}, lhs_stride = {stride}) = \
             {lhs_offset}, KleidiAI returns m_idx * lhs_stride"
        );
        let rows = c.lhs.rows(m_idx, h);
        let source = guarded_view(&c.lhs.bytes, end(&rows), &rows, rng);
        let packed_offset = (c.packed_offset)(m_idx);
        let mut dst = destination(packed_offset + (c.packed_size)(h));
        let lhs = source.ptr().wrapping_add(lhs_offset);
        let lhs_packed = dst.mut_ptr().wrapping_add(packed_offset);
        fault_names::naming(&what, || (c.run)(h, lhs, stride, lhs_packed));
        let what = format!("{what} at kai_get_lhs_packed_offset_{name} = {packed_offset}");
        let tail = m_idx + h == c.m;
        expect_same_bytes(&what, dst.bytes(), packed_offset, whole.bytes(), tail);
    }
    slices.len()
}

/// What an LHS packer's cases are made of, besides its C calls.
struct LhsSpec {
    /// Seed of the inputs' values.
    seed: u64,
    ks: Ks,
    /// The source's values, in rows `padding` values longer than K.
    fill: Fill,
    padding: usize,
    /// Whether the packer takes one row only (m = 1).
    one_row: bool,
}

/// The cases of LHS packer `p`: `spec`'s grid, with the packed offset and size getters (both of
/// type `Packed`) called through `packed` and the packer's `run` (of type `Run`) through `run`
/// with (m, lhs, lhs_stride, lhs_packed).
fn lhs_cases<Run: Copy + 'static, Packed: Copy + 'static>(
    p: &Packer,
    spec: LhsSpec,
    packed: fn(Packed, usize, Shape) -> usize,
    run: impl Fn(Run, usize, *const u8, usize, *mut u8, Shape) + Copy + 'static,
) -> Vec<LhsCase> {
    let run_fn: Run = c_fn("run", p);
    let m_step: Getter1 = c_fn("get_m_step", p);
    let packed_offset: Packed = c_fn("get_lhs_packed_offset", p);
    let packed_size: Packed = c_fn("get_lhs_packed_size", p);
    let mut rng = Rng::new(spec.seed);
    let mut cases = Vec::new();
    for (mut s, _) in grid(p, spec.ks, &[false]) {
        if spec.one_row {
            s.n = 1;
        }
        let bytes = spec.fill.bytes();
        cases.push(LhsCase {
            label: s.label(spec.ks, true),
            m: s.n,
            mr: s.nr,
            m_step: m_step(s.nr),
            lhs: Matrix::new(&mut rng, spec.fill, s.n, s.k * bytes, spec.padding * bytes),
            lhs_offset: c_fn("get_lhs_offset", p),
            packed_offset: Box::new(move |m_idx| packed(packed_offset, m_idx, s)),
            packed_size: Box::new(move |m| packed(packed_size, m, s)),
            run: Box::new(move |m, lhs, stride, dst| run(run_fn, m, lhs, stride, dst, s)),
        });
    }
    cases
}

/// `lhs_quant_pack_qai8dxp_{f32,f16_neon,bf16_neon}`.
fn qai8dxp_lhs_cases(p: &Packer, element: LhsType) -> Vec<LhsCase> {
    let fill = match element {
        LhsType::F32 => Fill::F32,
        LhsType::F16 => Fill::F16,
        LhsType::Bf16 => Fill::Bf16,
    };
    unblocked_lhs_cases(p, fill, &[13, 77], false)
}

/// `lhs_quant_pack_bf16p{8,1}x4_f32_neon`, `lhs_pack_bf16p8x4_f16_neon`,
/// `lhs_pack_bf16p2vlx2_f32_{sme,sme2}`.
fn bf16_lhs_cases(p: &Packer, v: Bf16Lhs) -> Vec<LhsCase> {
    // The one-row packer asserts m == 1 and a zero packed offset, so its only slice is row 0.
    let one_row = v == Bf16Lhs::Bf16p1x4F32;
    unblocked_lhs_cases(p, value_fill(v.source_bytes()), &[5, 19], one_row)
}

/// LHS packers without a block length: (m, k, mr, kr, sr, m_idx_start, lhs, lhs_stride,
/// lhs_packed). The row stride is padded by two values.
fn unblocked_lhs_cases(
    p: &Packer,
    fill: Fill,
    ks: &'static [usize],
    one_row: bool,
) -> Vec<LhsCase> {
    let spec = LhsSpec {
        seed: 1,
        ks: Ks::Channel(ks),
        fill,
        padding: 2,
        one_row,
    };
    // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
    lhs_cases(
        p,
        spec,
        by_tile,
        |run: LhsQuantPackHalfFn, m, lhs, stride, dst, s| unsafe {
            run(m, s.k, s.nr, s.kr, s.sr, 0, lhs.cast(), stride, dst.cast())
        },
    )
}

/// `lhs_quant_pack_qsi8d32p*` and `lhs_quant_pack_qsi8d32pscalef32_{f32,f16}_neon`: per-block
/// quantization, K a multiple of the block length; rows `padding` values longer than K.
fn per_block_lhs_cases(p: &Packer, bytes: usize, padding: usize) -> Vec<LhsCase> {
    let spec = LhsSpec {
        seed: 2,
        ks: Ks::Blocks(&[(32, 96), (64, 128), (128, 256)]),
        fill: value_fill(bytes),
        padding,
        one_row: false,
    };
    lhs_cases(
        p,
        spec,
        |g: BlockLhsGetter, idx, s| g(idx, s.k, s.bl, s.nr, s.kr, s.sr),
        // SAFETY: the call's buffers hold the extents KleidiAI's contract names.
        |run: LhsBlockPackFn, m, lhs, stride, dst, s| unsafe {
            run(
                m,
                s.k,
                s.bl,
                s.nr,
                s.kr,
                s.sr,
                0,
                lhs.cast(),
                stride,
                dst.cast(),
            )
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Driving every packer

/// A packer's slice cases.
enum Cases {
    Rhs(Vec<RhsCase>),
    Lhs(Vec<LhsCase>),
}

impl Cases {
    fn len(&self) -> usize {
        match self {
            Cases::Rhs(cases) => cases.len(),
            Cases::Lhs(cases) => cases.len(),
        }
    }
}

/// Every packer kind has a case builder (the match has no catch-all, so a new kind does not
/// compile without one).
fn slice_cases(p: &Packer) -> Cases {
    match p.kind {
        PackerKind::Lhs(LhsPackerKind::Qai8dxp(element)) => {
            Cases::Lhs(qai8dxp_lhs_cases(p, element))
        }
        PackerKind::Rhs(RhsPackerKind::Qsi4cxp(source)) => {
            Cases::Rhs(per_channel_cases(p, source, 4))
        }
        PackerKind::Rhs(RhsPackerKind::Qsi4cxps1s0) => {
            Cases::Rhs(per_channel_cases(p, Source::Nxk, 4))
        }
        PackerKind::Rhs(RhsPackerKind::Qsi8cxp(source)) => {
            Cases::Rhs(per_channel_cases(p, source, 8))
        }
        PackerKind::Rhs(RhsPackerKind::Qsu2cxp(_)) => Cases::Rhs(qsu2cxp_cases(p)),
        PackerKind::Rhs(RhsPackerKind::Qsi4c32p(v)) => Cases::Rhs(qsi4c32p_cases(p, v)),
        PackerKind::Lhs(LhsPackerKind::Qsi8d32p(v)) => {
            // KleidiAI's NEON forms read rows as `k` contiguous floats whatever `lhs_stride`
            // says (the 4x8sb one in its 4-row path), so their callers pass unpadded rows.
            let padding = if v == Qsi8d32pLhs::F32 { 2 } else { 0 };
            Cases::Lhs(per_block_lhs_cases(p, 4, padding))
        }
        PackerKind::Rhs(RhsPackerKind::Qsi4c32pf16(_)) => Cases::Rhs(q4_0_cases(p)),
        PackerKind::Lhs(LhsPackerKind::Qsi8d32pscalef32(v)) => {
            Cases::Lhs(per_block_lhs_cases(p, v.element_size(), 2))
        }
        PackerKind::Rhs(RhsPackerKind::Qai4c32p(_)) => Cases::Rhs(qai4c32p_cases(p)),
        PackerKind::Rhs(RhsPackerKind::Float(v)) => Cases::Rhs(float_cases(p, v)),
        PackerKind::Rhs(RhsPackerKind::ChunkedFloat(v)) => Cases::Rhs(chunked_float_cases(p, v)),
        // KleidiAI's packer reads rows `k` floats apart whatever `lhs_stride` says.
        PackerKind::Lhs(LhsPackerKind::F16pmrx2) => Cases::Lhs(per_block_lhs_cases(p, 4, 0)),
        PackerKind::Lhs(LhsPackerKind::Bf16(v)) => Cases::Lhs(bf16_lhs_cases(p, v)),
        PackerKind::Lhs(LhsPackerKind::SmeRows(SmeRowsPacker::X16p2vlx2)) => {
            Cases::Lhs(unblocked_lhs_cases(p, Fill::F16, &[5, 19], false))
        }
        PackerKind::Lhs(LhsPackerKind::SmeRows(SmeRowsPacker::F32p2vlx1)) => {
            Cases::Lhs(unblocked_lhs_cases(p, Fill::F32, &[5, 19], false))
        }
        PackerKind::Rhs(RhsPackerKind::Bf16(v)) => Cases::Rhs(bf16_rhs_cases(p, v)),
        // Its source is an indirection buffer, not rows: `tests/suite/imatmul_sme.rs` packs its row
        // blocks through the offset getters against a whole packing.
        PackerKind::Lhs(LhsPackerKind::IndirectSmeRows(_)) => Cases::Lhs(Vec::new()),
        PackerKind::Lhs(LhsPackerKind::SmeRows(SmeRowsPacker::X8p2vlx4)) => {
            Cases::Lhs(unblocked_lhs_cases(p, Fill::Bytes, &[5, 19], false))
        }
        PackerKind::Rhs(RhsPackerKind::Qsi8cxpsb) => Cases::Rhs(qsi8cxpsb_cases(p)),
        PackerKind::Rhs(RhsPackerKind::ChunkedQsi8cxpsb) => Cases::Rhs(chunked_qsi8cxpsb_cases(p)),
    }
}

/// Packs every slice of every case of `p`: (cases, slices).
fn check_packer(p: &Packer) -> (usize, usize) {
    // Noise differs per packer but reproduces run to run.
    let seed = p
        .name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31) ^ u64::from(b));
    let mut rng = Rng::new(seed);
    match slice_cases(p) {
        Cases::Rhs(cases) => counted(&cases, |c| check_rhs_case(p.name, c, &mut rng)),
        Cases::Lhs(cases) => counted(&cases, |c| check_lhs_case(p.name, c, &mut rng)),
    }
}

/// (cases, slices) of checking every case with `check`, which returns the case's slice count.
fn counted<C>(cases: &[C], check: impl FnMut(&C) -> usize) -> (usize, usize) {
    (cases.len(), cases.iter().map(check).sum())
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic without a message".to_string())
}

/// Checks every LHS or RHS packer, going on past a failing one so that one run lists them all.
fn check_packers(lhs: bool) {
    let mut failures = Vec::new();
    for p in PACKERS.iter().filter(|p| is_lhs(p) == lhs) {
        match catch_unwind(AssertUnwindSafe(|| check_packer(p))) {
            Ok((cases, slices)) => println!("{}: {cases} cases, {slices} slices", p.name),
            Err(payload) => failures.push(format!("{}: {}", p.name, panic_message(&*payload))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} packers fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn rhs_column_slices_equal_the_whole_packing() {
    check_packers(false);
}

#[test]
fn lhs_row_slices_equal_the_whole_packing() {
    check_packers(true);
}

#[test]
fn every_exported_packer_has_slice_cases() {
    let headers = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/include/kai/ukernels/matmul/pack"
    );
    for entry in std::fs::read_dir(headers).expect("packer headers") {
        let file = entry.expect("directory entry").file_name();
        let file = file.to_string_lossy();
        let Some(name) = file.strip_prefix("kai_").and_then(|f| f.strip_suffix(".h")) else {
            continue;
        };
        assert!(
            PACKERS.iter().any(|p| p.name == name),
            "{file} declares a packer the catalog does not list"
        );
    }
    // The indirect LHS packers' row blocks are packed through their offset getters in
    // `tests/suite/imatmul_sme.rs` (their source is an indirection buffer, not rows).
    let elsewhere =
        |p: &Packer| matches!(p.kind, PackerKind::Lhs(LhsPackerKind::IndirectSmeRows(_)));
    let without: Vec<&str> = PACKERS
        .iter()
        .filter(|p| slice_cases(p).len() == 0 && !elsewhere(p))
        .map(|p| p.name)
        .collect();
    assert!(
        without.is_empty(),
        "exported packers without slice cases: {without:?}"
    );
}
