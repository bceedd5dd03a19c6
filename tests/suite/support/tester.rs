//! The generic kernel tester for the families whose kernels read a packed LHS and a packed RHS
//! (XNNPACK's `GemmMicrokernelTester`, memchr's test `Runner`). The catalog entry says everything
//! a call needs: which getters and `run_matmul` take `bl` ([`Family::block_length`]), the output
//! type and its narrowing, rows per call ([`Rows`]), the tile. A family's test file implements
//! [`PackedFamily`] (its problem, its packing through the paired packers, its reference) and the
//! tester runs it over edge shapes, clamps, guard-page placements, portions, threads, register
//! canaries and the exported symbol or the portable implementation. Counts are returned, so each
//! file reports them (`RELIABILITY ...`) under its own categories.

use super::cabi::{Getter0, Getter2, Getter3, MatmulBlockFn, MatmulFn, MatmulLutFn};
use super::gemm::{self, Impl, Portion, portions};
use super::guard::{EDGES, Edge, Guarded};
use rkai_ukernels::family::{BlockLength, DstPointer};
use rkai_ukernels::kernel::{MatmulKernel, Rows};
use rkai_ukernels::matmul::args::KernelFn;
use rkai_ukernels::matmul::call;
use rkai_ukernels::matmul::output::Output;

use super::cabi::func as sym;

/// What a family's test file supplies: its problems, how they are packed, and the reference.
pub trait PackedFamily {
    /// One test problem: the family's operands (and the packers this case pairs).
    type Problem;
    /// (m, n, k, bl) of `p`; `bl` is 0 for the per-channel families.
    fn shape(p: &Self::Problem) -> (usize, usize, usize, usize);
    /// Packed LHS and RHS of `p` for `k`, each against a guard page at `edge`.
    fn pack(k: &MatmulKernel, p: &Self::Problem, edge: Edge) -> (Guarded, Guarded);
    /// Reference results (m x n, f32 before any narrowing to the output type).
    fn expected(k: &MatmulKernel, p: &Self::Problem, clamp: (f32, f32)) -> Vec<f32>;
    /// Whether an expected NaN matches any NaN (payloads follow each implementation's operand
    /// order); otherwise NaNs compare bit for bit too.
    const ANY_NAN: bool = true;
    /// The value table `run_matmul` gets (families whose `Family::takes_lut`); None:
    /// a null pointer.
    fn lut(_: &Self::Problem) -> Option<[i32; 4]> {
        None
    }
}

/// The `lut` argument for `table` (null for none), valid while `table` lives.
pub fn lut_ptr(table: &Option<[i32; 4]>) -> *const i32 {
    table.as_ref().map_or(std::ptr::null(), |t| t.as_ptr())
}

/// A unit struct `$name` that is the [`PackedFamily`] of `$problem`, a per-channel problem with
/// fields `m`, `n`, `k` and methods `pack_lhs(edge)`, `pack_rhs(edge)` and
/// `results(kernel, clamp)` (the bf16 families'); `any_nan` as [`PackedFamily::ANY_NAN`].
#[macro_export]
macro_rules! problem_packed_family {
    ($(#[$attr:meta])* $name:ident for $problem:ty $(, any_nan: $any_nan:expr)? $(,)?) => {
        $(#[$attr])*
        struct $name;

        impl $crate::support::tester::PackedFamily for $name {
            type Problem = $problem;
            $(const ANY_NAN: bool = $any_nan;)?

            fn shape(p: &$problem) -> (usize, usize, usize, usize) {
                (p.m, p.n, p.k, 0)
            }

            fn pack(
                _: &rkai_ukernels::kernel::MatmulKernel,
                p: &$problem,
                edge: $crate::support::guard::Edge,
            ) -> ($crate::support::guard::Guarded, $crate::support::guard::Guarded) {
                (p.pack_lhs(edge), p.pack_rhs(edge))
            }

            fn expected(
                k: &rkai_ukernels::kernel::MatmulKernel,
                p: &$problem,
                clamp: (f32, f32),
            ) -> Vec<f32> {
                p.results(k, clamp)
            }
        }
    };
}

/// `kernels` narrowed by `RKAI_TEST_KERNEL=<substring>` to those whose stem contains it (quick
/// runs under QEMU, the vector-length loops of `scripts/test-all.sh`).
pub fn narrowed(
    kernels: impl Iterator<Item = &'static MatmulKernel>,
) -> impl Iterator<Item = &'static MatmulKernel> {
    let only = std::env::var("RKAI_TEST_KERNEL").ok();
    kernels.filter(move |k| only.as_deref().is_none_or(|s| k.stem.contains(s)))
}

/// Packs `m` x `k` activations (`bytes`, rows `stride` bytes apart) with the `qai8dxp` LHS packer
/// `name` into a guarded buffer of exactly the packed size.
pub fn pack_qai8dxp_lhs(
    name: &str,
    (m, k): (usize, usize),
    (mr, kr, sr): (usize, usize, usize),
    (bytes, stride): (&[u8], usize),
    edge: Edge,
) -> Guarded {
    let size = sym::<super::cabi::Getter5>("get_lhs_packed_size", name)(m, k, mr, kr, sr);
    let lhs = Guarded::from_bytes(bytes, edge);
    let mut packed = Guarded::new(size, edge);
    let (src, out) = ((lhs.ptr().cast(), stride), packed.mut_ptr().cast());
    // SAFETY: buffers sized from the getters.
    unsafe { super::cabi::pack_lhs(name, (m, k), (mr, kr, sr), 0, src, out) };
    packed
}

/// The kernels of `family`, [`narrowed`].
pub fn family_kernels(
    family: rkai_ukernels::family::Family,
) -> impl Iterator<Item = &'static MatmulKernel> {
    narrowed(
        rkai_ukernels::catalog::KERNELS
            .iter()
            .copied()
            .filter(move |k| k.family == family),
    )
}

/// The family's kernels that this CPU runs, listed on stderr.
pub fn runnable(
    kernels: impl Iterator<Item = &'static MatmulKernel>,
    runs_here: impl Fn(&MatmulKernel) -> bool,
    what: &str,
) -> Vec<&'static MatmulKernel> {
    let all: Vec<_> = kernels.collect();
    let run: Vec<_> = all.iter().copied().filter(|k| runs_here(k)).collect();
    eprintln!(
        "CPU features {:?}, SVE lanes {}: running {} of {} {what} kernels ({})",
        super::cpu::features(),
        rkai_ukernels::arch::sve_lanes32(),
        run.len(),
        all.len(),
        run.iter().map(|k| k.stem).collect::<Vec<_>>().join(", ")
    );
    run
}

/// The tile parameters a kernel reports (`get_<parameter>`), in the order of KleidiAI's
/// measured table.
pub const TILE_PARAMETERS: [&str; 6] = ["m_step", "n_step", "mr", "nr", "kr", "sr"];

/// The six tile getters of every kernel equal each of its rows in KleidiAI's measured table (the
/// SVE kernels report one tile at every vector length measured). SME kernels were measured at
/// streaming lengths of 16, 32 and 64 bytes: they must equal the row of this CPU's length, or,
/// at a length not measured, the 16-byte row with every value that differs between the 16- and
/// 32-byte rows scaled to this length. Returns the rows checked.
pub fn getters_equal_kleidiai_values<'a>(kernels: impl Iterator<Item = &'a MatmulKernel>) -> usize {
    let table: Vec<Vec<&str>> = tsv_rows(include_str!("../data/kleidiai-1.30-getters.tsv"));
    let svl = 4 * rkai_ukernels::arch::sme_lanes32();
    let mut checked = 0;
    for k in kernels {
        let rows: Vec<_> = table.iter().filter(|r| r[0] == k.stem).collect();
        assert!(!rows.is_empty(), "{} not in table", k.stem);
        let expected: Vec<Vec<String>> = if k.isa.is_streaming() {
            // Column 11: the streaming length (bytes) the row was measured at.
            let at = |bytes: usize| rows.iter().find(|r| r[11] == bytes.to_string());
            let (r16, r32) = (at(16).unwrap(), at(32).unwrap());
            let value = |r: &Vec<&str>, i: usize| r[1 + i].parse::<usize>().unwrap();
            let scaled = (0..TILE_PARAMETERS.len())
                .map(|i| match value(r16, i) == value(r32, i) {
                    true => value(r16, i).to_string(),
                    false => (value(r16, i) * svl / 16).to_string(),
                })
                .collect::<Vec<_>>();
            if let Some(measured) = at(svl) {
                assert_eq!(measured[1..7].to_vec(), scaled, "scaling law of {}", k.stem);
            }
            vec![scaled]
        } else {
            rows.iter()
                .map(|r| r[1..7].iter().map(|v| v.to_string()).collect())
                .collect()
        };
        for row in expected {
            for (i, parameter) in TILE_PARAMETERS.iter().enumerate() {
                let verb = format!("get_{parameter}");
                let got = sym::<Getter0>(&verb, k.stem)();
                assert_eq!(got.to_string(), row[i], "{verb} of {}", k.stem);
            }
            checked += 1;
        }
    }
    checked
}

/// Runs `check` on each kernel, printing its cases (`label` after the stem); returns the total.
pub fn count_cases<'a>(
    kernels: impl IntoIterator<Item = &'a MatmulKernel>,
    label: &str,
    check: impl Fn(&MatmulKernel) -> usize,
) -> usize {
    let mut total = 0;
    for k in kernels {
        let cases = check(k);
        eprintln!("{}{label}: {cases} cases", k.stem);
        total += cases;
    }
    total
}

/// Packs with `pack` against a guard page at either edge, and compares the bytes with what the
/// reference writes into a buffer of that size (`expected(size)`); `what` names the case in a
/// failure. Returns the number of packings compared.
pub fn packs_equal_reference(
    what: impl Fn() -> String,
    pack: impl Fn(Edge) -> Guarded,
    expected: impl Fn(usize) -> Vec<u8>,
) -> usize {
    for edge in EDGES {
        let packed = pack(edge);
        let expect = expected(packed.bytes().len());
        assert_eq!(packed.bytes(), &expect[..], "{} edge={edge:?}", what());
    }
    EDGES.len()
}

/// Rows of a tab-separated table after its header.
pub fn tsv_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

/// One row of KleidiAI's measured packed sizes (`tests/data/kleidiai-1.30-packed-sizes.tsv`).
pub struct Measured<'a> {
    pub kernel: &'static MatmulKernel,
    pub lhs_packer: &'a str,
    pub rhs_packer: &'a str,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// The block length (0 where the table says `-`: a per-channel kernel).
    pub bl: usize,
}

/// Every measured row of `kernels`: the packers' (LHS, RHS) packed sizes that `sizes` returns
/// and the kernel's destination size equal the row's, and the kernel's destination offset
/// follows its output type. `sizes` checks the family's packed offsets too. Returns the rows
/// checked.
pub fn packed_sizes_equal_measured(
    kernels: impl Iterator<Item = &'static MatmulKernel>,
    mut sizes: impl FnMut(&Measured) -> (usize, usize),
) -> usize {
    let table = tsv_rows(include_str!("../data/kleidiai-1.30-packed-sizes.tsv"));
    let mut checked = 0;
    for kernel in kernels {
        let t = kernel.tile();
        for row in table.iter().filter(|r| r[0] == kernel.stem) {
            let [m, n, k] = [4, 5, 6].map(|i| row[i].parse::<usize>().unwrap());
            let bl = row[7].parse().unwrap_or(0);
            let (lhs_packer, rhs_packer) = (row[1], row[2]);
            let measured = Measured {
                kernel,
                lhs_packer,
                rhs_packer,
                m,
                n,
                k,
                bl,
            };
            let (lhs, rhs) = sizes(&measured);
            let dst = sym::<Getter2>("get_dst_size", kernel.stem)(m, n);
            assert_eq!(
                [lhs, rhs, dst].map(|v| v.to_string()),
                [row[8], row[9], row[10]],
                "{row:?}"
            );
            let es = kernel.family.output().size();
            assert_eq!(
                sym::<Getter3>("get_dst_offset", kernel.stem)(t.m_step, t.n_step, es * n),
                t.m_step * es * n + es * t.n_step,
                "{}",
                kernel.stem
            );
            checked += 1;
        }
    }
    checked
}

/// Byte offsets of the portion starting at (`m0`, `n0`) in the packed LHS, the packed RHS and a
/// destination with rows `dst_stride_row` bytes apart, from the kernel's own getters (which take
/// `bl` as its family's C function set says).
pub fn offsets(
    k: &MatmulKernel,
    (m0, n0): (usize, usize),
    (kk, bl): (usize, usize),
    dst_stride_row: usize,
) -> (usize, usize, usize) {
    let lhs = match k.family.block_length() {
        BlockLength::LhsAndRhs => sym::<Getter3>("get_lhs_packed_offset", k.stem)(m0, kk, bl),
        BlockLength::None | BlockLength::Rhs => {
            sym::<Getter2>("get_lhs_packed_offset", k.stem)(m0, kk)
        }
    };
    let rhs = match k.family.block_length() {
        BlockLength::None => sym::<Getter2>("get_rhs_packed_offset", k.stem)(n0, kk),
        BlockLength::Rhs | BlockLength::LhsAndRhs => {
            sym::<Getter3>("get_rhs_packed_offset", k.stem)(n0, kk, bl)
        }
    };
    let dst = sym::<Getter3>("get_dst_offset", k.stem)(m0, n0, dst_stride_row);
    (lhs, rhs, dst)
}

/// Calls `kai_run_matmul_<stem>` through the prototype its family has.
///
/// # Safety
/// `a` describes a valid portion for the kernel.
pub unsafe fn run_exported(k: &MatmulKernel, a: &call::PackedArgs) {
    let (l, r, d) = (a.lhs_packed.cast(), a.rhs_packed.cast(), a.dst);
    let (row, col, lo, hi) = (a.dst_stride_row, a.dst_stride_col, a.clamp_min, a.clamp_max);
    // SAFETY (every arm): forwarded contract; the pointer types are the prototype's.
    unsafe {
        match (k.family.block_length(), k.family.dst_pointer()) {
            // `float*` and `void*` destinations share the ABI.
            (BlockLength::None, _) if k.family.takes_lut() => sym::<MatmulLutFn>("run", k.stem)(
                a.m,
                a.n,
                a.k,
                l,
                r,
                d.cast(),
                row,
                col,
                lo,
                hi,
                a.lut,
            ),
            (BlockLength::None, DstPointer::Float | DstPointer::Void) => {
                sym::<MatmulFn>("run", k.stem)(a.m, a.n, a.k, l, r, d.cast(), row, col, lo, hi)
            }
            (BlockLength::Rhs | BlockLength::LhsAndRhs, _) => sym::<MatmulBlockFn>("run", k.stem)(
                a.m,
                a.n,
                a.k,
                a.bl,
                l,
                r,
                d.cast(),
                row,
                col,
                lo,
                hi,
            ),
        }
    }
}

/// Runs `a` through `which`: the exported symbol, or the portable implementation after its
/// contract check (which must accept the call).
///
/// # Safety
/// `a` describes a valid portion for the kernel.
pub unsafe fn run(k: &MatmulKernel, which: Impl, a: &call::PackedArgs) {
    match which {
        // SAFETY: forwarded contract.
        Impl::Exported => unsafe { run_exported(k, a) },
        Impl::Portable => {
            let portable = MatmulKernel {
                native: KernelFn::Portable,
                ..*k
            };
            let checked = call::check_packed(&portable, a)
                .unwrap_or_else(|v| panic!("{}: {}", k.stem, v.condition));
            // SAFETY: forwarded contract.
            unsafe { call::run_packed(&portable, checked, a) }
        }
    }
}

/// The calls (row start, rows) a framework makes for rows `m0..m0 + mh`: one, or one per row
/// for the kernels that take a single row ([`Rows::One`]).
pub fn calls(k: &MatmulKernel, m0: usize, mh: usize) -> Vec<(usize, usize)> {
    match k.rows {
        Rows::Any => vec![(m0, mh)],
        Rows::One => (m0..m0 + mh).map(|r| (r, 1)).collect(),
    }
}

/// Runs `portion` of a problem with `k` values in blocks of `bl` through `which` into the
/// destination at address `dst` (rows `dst_stride_row` bytes apart), offsetting every pointer
/// through the kernel's getters as framework callers do.
///
/// # Safety
/// The buffers hold the packed operands and the destination of the whole problem.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_portion_into(
    k: &MatmulKernel,
    which: Impl,
    (kk, bl): (usize, usize),
    (lhs, rhs, dst): (*const u8, *const u8, *mut u8),
    dst_stride_row: usize,
    portion: Portion,
    clamp: (f32, f32),
    lut: *const i32,
) {
    let (m0, n0, mh, nw) = portion;
    for (r0, rows) in calls(k, m0, mh) {
        let (lo, ro, d) = offsets(k, (r0, n0), (kk, bl), dst_stride_row);
        // SAFETY: offsets from the getters stay inside the caller's buffers.
        unsafe {
            let args = call::PackedArgs {
                m: rows,
                n: nw,
                k: kk,
                bl,
                lhs_packed: lhs.add(lo),
                rhs_packed: rhs.add(ro),
                dst: dst.add(d),
                dst_stride_row,
                dst_stride_col: k.family.output().size(),
                clamp_min: clamp.0,
                clamp_max: clamp.1,
                lut,
                params: std::ptr::null(),
            };
            run(k, which, &args)
        }
    }
}

/// The bits `k` stores for the f32 result `v`: f32 bits, or its 16-bit rounding.
pub fn output_bits(k: &MatmulKernel, v: f32) -> u32 {
    match k.family.output().narrowing() {
        None => v.to_bits(),
        Some(narrow) => narrow.bits(v).into(),
    }
}

/// Whether `bits` in `k`'s output format encode a NaN.
fn is_nan_bits(k: &MatmulKernel, bits: u32) -> bool {
    match k.family.output() {
        Output::F32 => f32::from_bits(bits).is_nan(),
        Output::F16 => half::f16::from_bits(bits as u16).is_nan(),
        Output::Bf16 => half::bf16::from_bits(bits as u16).is_nan(),
        Output::I8 => false,
    }
}

/// Runs one portion of `p` through `which` into a guarded destination (rows padded past `n`, a
/// canary everywhere) and checks it against `expect` (m x n, f32): bit for bit inside the
/// portion, the canary untouched outside.
#[allow(clippy::too_many_arguments)]
pub fn check_portion<F: PackedFamily>(
    k: &MatmulKernel,
    which: Impl,
    p: &F::Problem,
    (lhs, rhs): (&Guarded, &Guarded),
    portion: Portion,
    clamp: (f32, f32),
    expect: &[f32],
    edge: Edge,
) {
    let (m, n, kk, bl) = F::shape(p);
    let es = k.family.output().size();
    let stride = n + 3; // padded rows catch writes past the row end
    let canary = 0x7fc0_deadu32 & (u32::MAX >> (32 - 8 * es));
    let fill: Vec<u8> = (0..m * stride)
        .flat_map(|_| canary.to_le_bytes()[..es].to_vec())
        .collect();
    let mut dst = Guarded::from_bytes(&fill, edge);
    let buffers = (lhs.ptr(), rhs.ptr(), dst.mut_ptr());
    let table = F::lut(p);
    // SAFETY: packed by the family's packers for this problem; dst holds m rows of `stride`.
    unsafe {
        run_portion_into(
            k,
            which,
            (kk, bl),
            buffers,
            es * stride,
            portion,
            clamp,
            lut_ptr(&table),
        )
    };
    let want = |at: usize| {
        let v = expect[at];
        (v, output_bits(k, v))
    };
    let (m0, n0, mh, nw) = portion;
    for i in 0..m {
        for j in 0..stride {
            let at = es * (i * stride + j);
            let mut raw = [0u8; 4];
            raw[..es].copy_from_slice(&dst.bytes()[at..at + es]);
            let got = u32::from_le_bytes(raw);
            let inside = (m0..m0 + mh).contains(&i) && (n0..n0 + nw).contains(&j);
            let (value, bits) = if inside {
                want(i * n + j)
            } else {
                (0.0, canary)
            };
            if inside && F::ANY_NAN && value.is_nan() && is_nan_bits(k, got) {
                continue;
            }
            assert_eq!(
                got,
                bits,
                "{} ({}) m={m} n={n} k={kk} bl={bl} portion={portion:?} at ({i},{j}) \
                 clamp={clamp:?}",
                k.stem,
                which.name(),
            );
        }
    }
}

/// Runs the portions of `p` with `clamp` through each of `impls`, with the operands against a
/// guard page at each edge, as far as `depth` ([`Depth::of`] the kernel) says: every edge and
/// portion, or one edge with the whole call and the last tile. Returns the number of cases.
pub fn check_problem<F: PackedFamily>(
    depth: Depth,
    k: &MatmulKernel,
    p: &F::Problem,
    clamp: (f32, f32),
    expect: &[f32],
    impls: &[Impl],
) -> usize {
    let t = k.tile();
    let (m, n, kk, _) = F::shape(p);
    let mut cases = 0;
    for edge in depth.edges(kk) {
        let (lhs, rhs) = F::pack(k, p, edge);
        for portion in depth.portions(portions(m, n, t.m_step, t.n_step)) {
            for &which in impls {
                check_portion::<F>(k, which, p, (&lhs, &rhs), portion, clamp, expect, edge);
                cases += 1;
            }
        }
    }
    cases
}

/// No clamp, then a clamp that bites (the 20th and 80th percentiles of the unclamped results).
pub fn clamps<F: PackedFamily>(k: &MatmulKernel, p: &F::Problem) -> [(f32, f32); 2] {
    let no_clamp = (f32::NEG_INFINITY, f32::INFINITY);
    let mut sorted = F::expected(k, p, no_clamp);
    sorted.sort_by(f32::total_cmp);
    let biting = (sorted[sorted.len() / 5], sorted[sorted.len() * 4 / 5]);
    [no_clamp, biting]
}

/// [`check_problem`] for each of `problems` with the [`clamps`], at [`Depth::of`] `k`; returns the
/// number of cases.
pub fn check_kernel<F: PackedFamily>(
    k: &MatmulKernel,
    problems: impl Iterator<Item = F::Problem>,
    impls: &[Impl],
) -> usize {
    let depth = Depth::of(k);
    let mut cases = 0;
    for p in problems {
        for &clamp in depth.clamps(&clamps::<F>(k, &p)) {
            let expect = F::expected(k, &p, clamp);
            cases += check_problem::<F>(depth, k, &p, clamp, &expect, impls);
        }
    }
    cases
}

/// The streaming lengths (bytes) at which the SME tests run every case of every shape: 128 to
/// 512 bits, the lengths of shipping SME hardware (Apple M4: 512). Above them a QEMU call costs
/// about its tiles x K x SVL squared, so the edge shapes each run once there (one clamp, one
/// guard edge, the whole call and the last tile); `RKAI_SME_CASES=all` runs every case at every
/// length (README, "Two commands").
pub const EVERY_CASE_UP_TO_SVL_BYTES: usize = 64;

/// How many of a shape's cases a kernel runs on this machine: the one place that decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Every case: both clamps, both guard edges, every portion.
    Every,
    /// Each shape once (a streaming kernel above [`EVERY_CASE_UP_TO_SVL_BYTES`]): the biting
    /// clamp, one guard edge (alternating with K), the whole call and the last (partial) tile.
    Once,
}

impl Depth {
    /// [`Depth::Every`] unless `k` is a streaming kernel: then what `RKAI_SME_CASES` asks, or
    /// [`Depth::Once`] at a length above [`EVERY_CASE_UP_TO_SVL_BYTES`].
    pub fn of(k: &MatmulKernel) -> Depth {
        if k.isa.is_streaming() {
            Depth::streaming()
        } else {
            Depth::Every
        }
    }

    /// The depth of the streaming kernels and packers here: what `RKAI_SME_CASES` asks (read once
    /// per process: `all` every case, `once` each shape once, at every length), else
    /// [`Depth::Once`] above [`EVERY_CASE_UP_TO_SVL_BYTES`] and [`Depth::Every`] up to it (and
    /// without SME).
    pub fn streaming() -> Depth {
        let long =
            rkai_ukernels::arch::sme_vector_bytes().unwrap_or(0) > EVERY_CASE_UP_TO_SVL_BYTES;
        sme_cases_asked().unwrap_or(if long { Depth::Once } else { Depth::Every })
    }

    /// The clamps of [`clamps`] this depth runs: both, or only the biting one.
    pub fn clamps(self, clamps: &[(f32, f32); 2]) -> &[(f32, f32)] {
        match self {
            Depth::Every => &clamps[..],
            Depth::Once => &clamps[1..],
        }
    }

    /// The guard edges for a problem of `kk` values: both, or one alternating with `kk`.
    pub fn edges(self, kk: usize) -> Vec<Edge> {
        match self {
            Depth::Every => EDGES.to_vec(),
            Depth::Once => vec![EDGES[kk % 2]],
        }
    }

    /// The portions (of [`portions`]) this depth runs: all, or the whole call and the last tile.
    pub fn portions(self, all: Vec<Portion>) -> Vec<Portion> {
        match self {
            Depth::Once if all.len() > 2 => vec![all[0], all[2]],
            _ => all,
        }
    }
}

/// The depth `RKAI_SME_CASES` asks for at every length (`all`, `once`; read once per process).
fn sme_cases_asked() -> Option<Depth> {
    static ASKED: std::sync::OnceLock<Option<Depth>> = std::sync::OnceLock::new();
    *ASKED.get_or_init(|| match std::env::var("RKAI_SME_CASES").as_deref() {
        Ok("all") => Some(Depth::Every),
        Ok("once") => Some(Depth::Once),
        _ => None,
    })
}

/// Whether `RKAI_SME_CASES=all` asks for every case at every length.
pub fn every_sme_case_asked() -> bool {
    sme_cases_asked() == Some(Depth::Every)
}

/// Whether every case of `k`'s shapes runs on this machine ([`Depth::of`] is [`Depth::Every`]);
/// for a family's own loops over scenarios.
pub fn every_case_here(k: &MatmulKernel) -> bool {
    Depth::of(k) == Depth::Every
}

/// Every kernel of `all` through its portable implementation, then each of `runnable` (the
/// kernels this CPU runs) through its exported symbol: what a family's own scenario tests loop
/// over.
pub fn implementations(
    all: impl Iterator<Item = &'static MatmulKernel>,
    runnable: Vec<&'static MatmulKernel>,
) -> Vec<(&'static MatmulKernel, Impl)> {
    let portable = all.map(|k| (k, Impl::Portable));
    let exported = runnable.into_iter().map(|k| (k, Impl::Exported));
    portable.chain(exported).collect()
}

/// Disjoint m_step x n_step portions of `p` on 8 threads sharing the packed operands equal one
/// call (see [`gemm::threads_equal_one_call`]); returns the number of tiles.
pub fn threads_equal_one_call<F: PackedFamily>(k: &MatmulKernel, p: &F::Problem) -> usize {
    let t = k.tile();
    let (m, n, kk, bl) = F::shape(p);
    let es = k.family.output().size();
    let (lhs, rhs) = F::pack(k, p, Edge::End);
    // Addresses, not the guard-page owners, cross the threads.
    let (lhs_at, rhs_at) = (lhs.ptr() as usize, rhs.ptr() as usize);
    let table = F::lut(p);
    let run_into = move |dst: usize, m0: usize, n0: usize, rows: usize, cols: usize| {
        let buffers = (lhs_at as *const u8, rhs_at as *const u8, dst as *mut u8);
        let portion = (m0, n0, rows, cols);
        // SAFETY: the packed operands outlive the threads; each writes only its own portion.
        unsafe {
            run_portion_into(
                k,
                Impl::Exported,
                (kk, bl),
                buffers,
                es * n,
                portion,
                (-3.0, 3.0),
                lut_ptr(&table),
            )
        }
    };
    gemm::threads_equal_one_call(k.stem, (m, n), (t.m_step, t.n_step), es, &run_into)
}

/// [`threads_equal_one_call`] for each of `kernels` on `problem(k, (m, n))`, with m three row
/// steps and a row and n five column steps and 3 columns (whole and partial tiles on both axes);
/// returns the tiles run.
pub fn threads_equal_one_call_on<F: PackedFamily>(
    kernels: &[&MatmulKernel],
    problem: impl Fn(&MatmulKernel, (usize, usize)) -> F::Problem,
) -> usize {
    let mut tiles = 0;
    for k in kernels {
        let t = k.tile();
        let p = problem(k, (3 * t.m_step.max(4) + 1, 5 * t.n_step + 3));
        tiles += threads_equal_one_call::<F>(k, &p);
    }
    tiles
}

/// [`registers_survive`] for each of `kernels` on every problem of `problems(k)`; returns the
/// calls made.
#[cfg(target_arch = "aarch64")]
pub fn registers_survive_on<F: PackedFamily>(
    kernels: &[&MatmulKernel],
    problems: impl Fn(&MatmulKernel) -> Vec<F::Problem>,
) -> usize {
    let mut calls = 0;
    for k in kernels {
        for p in problems(k) {
            registers_survive::<F>(k, &p);
            calls += 1;
        }
    }
    calls
}

/// Calls `k` on the whole of `p` with the callee-saved registers seeded; asserts they survive.
#[cfg(target_arch = "aarch64")]
pub fn registers_survive<F: PackedFamily>(k: &MatmulKernel, p: &F::Problem) {
    use super::abi::CallArgs;
    let (m, n, kk, bl) = F::shape(p);
    let (lhs, rhs) = F::pack(k, p, Edge::End);
    let es = k.family.output().size();
    let mut dst = Guarded::new(es * m * n, Edge::End);
    let (lhs, rhs, dst) = (lhs.ptr() as u64, rhs.ptr() as u64, dst.mut_ptr() as u64);
    let (m, n, kk, bl, es) = (m as u64, n as u64, kk as u64, bl as u64, es as u64);
    // The per-block prototype has `bl` after k, pushing dst_stride_col onto the stack.
    let table = F::lut(p);
    let lut = lut_ptr(&table) as u64;
    let (x, stack) = match k.family.block_length() {
        // The 2-bit family's `lut` follows the clamp bounds: the ninth integer argument.
        BlockLength::None => ([m, n, kk, lhs, rhs, dst, es * n, es], [lut, 0, 0, 0]),
        BlockLength::Rhs | BlockLength::LhsAndRhs => {
            ([m, n, kk, bl, lhs, rhs, dst, es * n], [es, 0, 0, 0])
        }
    };
    let mut d = [0; 8];
    d[..2].copy_from_slice(&[CallArgs::f32_bits(-1e30), CallArgs::f32_bits(1e30)]);
    let args = CallArgs { x, stack, d };
    // SAFETY: args describe kai_run_matmul's prototype with valid buffers.
    unsafe { gemm::assert_registers_survive(k.stem, &args) };
}

/// A caller with a pending lazy ZA save (AAPCS64 SME ABI: `TPIDR2_EL0` names a TPIDR2 block)
/// calls each streaming kernel of `kernels` on the whole of `problem(k)`: the kernel must commit
/// the save (store ZA to the caller's buffer, clear `TPIDR2_EL0`) before it uses ZA, and still
/// compute the reference result; `kai_commit_za` must do the same. Returns the kernels run, or
/// `None` where the CPU has no SME (no ZA state to protect).
#[cfg(target_arch = "aarch64")]
pub fn lazy_za_saves_committed<F: PackedFamily>(
    kernels: &[&MatmulKernel],
    problem: impl Fn(&MatmulKernel) -> F::Problem,
) -> Option<usize> {
    let mut za = super::abi::PendingZaSave::for_isa(rkai_ukernels::arch::Isa::Sme)?;
    let mut ran = 0;
    for k in kernels.iter().filter(|k| k.isa.is_streaming()) {
        let p = problem(k);
        let (m, n, ..) = F::shape(&p);
        let (lhs, rhs) = F::pack(k, &p, Edge::End);
        let clamp = (-3.0, 3.0);
        let expect = F::expected(k, &p, clamp);
        za.arm();
        let (operands, portion) = ((&lhs, &rhs), (0, 0, m, n));
        check_portion::<F>(
            k,
            Impl::Exported,
            &p,
            operands,
            portion,
            clamp,
            &expect,
            Edge::End,
        );
        za.assert_committed(k.stem);
        ran += 1;
    }
    za.arm();
    rkai_capi::capi::kai_commit_za();
    za.assert_committed("kai_commit_za");
    za.finish();
    Some(ran)
}

/// `check` (the cases it checked) on each of `kernels` through `which`, printing the cases per
/// kernel and in all; returns the total.
pub fn reference_cases<'a>(
    kernels: impl IntoIterator<Item = &'a MatmulKernel>,
    which: Impl,
    check: impl Fn(&MatmulKernel, Impl) -> usize,
) -> usize {
    let label = if which == Impl::Portable {
        " (portable)"
    } else {
        ""
    };
    let total = count_cases(kernels, label, |k| check(k, which));
    eprintln!("{} kernel cases: {total}", which.name());
    total
}

/// The two reference tests of a packed family: `exported_kernels_match_reference` runs `$check`
/// (`Fn(&MatmulKernel, Impl) -> usize`) on the exported symbols of the kernels `$runnable` lists,
/// `portable_kernels_match_reference` on the portable implementation of every kernel `$all`
/// yields; each prints its `RELIABILITY` count. Given `family`, also the thread test on the
/// problems `$threads(k, (m, n))` and, on aarch64, the register test on `$registers(k)`
/// ([`threads_equal_one_call_on`], [`registers_survive_on`]).
#[macro_export]
macro_rules! reference_tests {
    (
        runnable: $runnable:expr,
        all: $all:expr,
        check: $check:expr
        $(, family: $family:ty, threads: $threads:expr, registers: $registers:expr)? $(,)?
    ) => {
        $(
            /// Frameworks run disjoint m_step x n_step portions of one call on many threads,
            /// sharing the packed operands: the result must equal one single-threaded call byte
            /// for byte.
            #[test]
            fn threads_on_disjoint_portions_equal_one_call() {
                let kernels = $runnable;
                $crate::support::tester::threads_equal_one_call_on::<$family>(&kernels, $threads);
                eprintln!("RELIABILITY concurrency {}", kernels.len());
            }

            #[cfg(target_arch = "aarch64")]
            #[test]
            fn callee_saved_registers_survive() {
                use $crate::support::tester::registers_survive_on;
                let calls = registers_survive_on::<$family>(&$runnable, $registers);
                eprintln!("RELIABILITY registers {calls}");
            }
        )?

        #[test]
        fn exported_kernels_match_reference() {
            use $crate::support::{gemm::Impl, tester::reference_cases};
            let total = reference_cases($runnable, Impl::Exported, $check);
            eprintln!("RELIABILITY bounds_kernels {total}");
        }

        #[test]
        fn portable_kernels_match_reference() {
            use $crate::support::{gemm::Impl, tester::reference_cases};
            let total = reference_cases($all, Impl::Portable, $check);
            eprintln!("RELIABILITY bounds_portable {total}");
        }
    };
}
