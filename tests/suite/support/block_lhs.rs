//! The LHS side shared by the per-block families (`qsi8d32p` x `qsi4c32p` and `qsi8d32p` x
//! `qai4c32p`): their LHS packers take `(m, k, bl, mr, kr, sr, m_idx_start, lhs, stride, packed)`
//! and their kernels' getters take `bl`. A family's test file says what its problem holds and
//! what the reference packs; packing, the byte comparisons, the row-slice checks and the offset
//! checks against KleidiAI's measured sizes are here.

use super::cabi::func as sym;
use super::cabi::{BlockLhsGetter, Getter2, Getter3, Getter5, pack_block_lhs};
use super::guard::{Edge, Guarded};
use super::rng::Rng;
use super::tester::{self, Measured};
use rkai_ukernels::kernel::MatmulKernel;

/// One LHS packer with one tile: (packer, mr, kr, sr).
pub type LhsCase = (&'static str, usize, usize, usize);

/// What the shared LHS checks need from a family's test problem.
pub trait BlockLhsProblem {
    /// (m, k, bl).
    fn lhs_shape(&self) -> (usize, usize, usize);
    /// The source rows `packer` reads.
    fn lhs_source(&self, packer: &str) -> Vec<u8>;
    /// The bytes of one source row for `packer` (the row stride passed to it).
    fn lhs_row_bytes(&self, packer: &str) -> usize;
    /// Whether a call packing from row `start` passes the source at that row and `m_idx_start =
    /// 0`; otherwise it passes the matrix base and `m_idx_start = start`, which the packer
    /// resolves itself.
    fn source_at_start_row(_packer: &str) -> bool {
        false
    }
    /// The bytes the reference expects from case `c` over `size` bytes of `fill`.
    fn expected_lhs(&self, c: LhsCase, size: usize, fill: u8) -> Vec<u8>;
    /// The f32 activations, for the hostile-value rewrites.
    fn activations_mut(&mut self) -> &mut [f32];
}

/// Shapes (m, k, bl) for the packer tests: row tails of every tile, one to eight blocks of 32
/// to 256.
pub const PACK_SHAPES: [(usize, usize, usize); 10] = [
    (1, 32, 32),
    (3, 64, 32),
    (4, 64, 64),
    (5, 96, 32),
    (8, 256, 128),
    (9, 288, 96),
    (13, 512, 256),
    (2, 128, 32),
    (16, 256, 64),
    (7, 64, 32),
];

/// Packs rows `start..start + rows` of `p` with case `c` into `packed` at the packer's offset
/// for `start`.
pub fn pack_rows<P: BlockLhsProblem>(
    p: &P,
    (name, mr, kr, sr): LhsCase,
    (start, rows): (usize, usize),
    src: &Guarded,
    packed: &mut Guarded,
) {
    let (_, k, bl) = p.lhs_shape();
    let stride = p.lhs_row_bytes(name);
    let off = sym::<BlockLhsGetter>("get_lhs_packed_offset", name)(start, k, bl, mr, kr, sr);
    let (src_row, m_idx_start) = if P::source_at_start_row(name) {
        (start, 0)
    } else {
        (0, start)
    };
    let src_off = sym::<Getter2>("get_lhs_offset", name)(src_row, stride);
    // SAFETY: offsets from the getters stay inside the buffers.
    unsafe {
        pack_block_lhs(
            name,
            (rows, k, bl),
            (mr, kr, sr),
            m_idx_start,
            (src.ptr().add(src_off).cast(), stride),
            packed.mut_ptr().add(off).cast(),
        )
    };
}

/// Packs all rows of `p` with case `c` against a guard page at `edge`; the buffer starts filled
/// with `fill`.
pub fn pack<P: BlockLhsProblem>(p: &P, c: LhsCase, edge: Edge, fill: u8) -> Guarded {
    let (name, mr, kr, sr) = c;
    let (m, k, bl) = p.lhs_shape();
    let size = sym::<BlockLhsGetter>("get_lhs_packed_size", name)(m, k, bl, mr, kr, sr);
    let src = Guarded::from_bytes(&p.lhs_source(name), edge);
    let mut packed = Guarded::from_bytes(&vec![fill; size], edge);
    pack_rows(p, c, (0, m), &src, &mut packed);
    packed
}

/// Packs all rows of `p` with case `c` (no guard-page offset, zero fill) and asserts the bytes
/// equal the reference's; the packed LHS.
pub fn pack_checked<P: BlockLhsProblem>(p: &P, c: LhsCase) -> Guarded {
    let lhs = pack(p, c, Edge::End, 0);
    let expect = p.expected_lhs(c, lhs.bytes().len(), 0);
    assert_eq!(lhs.bytes(), &expect[..], "LHS packed by {}", c.0);
    lhs
}

/// The cases of each (packer, its (mr, kr, sr) tiles) of `tiles`.
pub fn tiles_of(tiles: &[(&'static str, &[[usize; 3]])]) -> Vec<LhsCase> {
    let mut out = Vec::new();
    for &(name, tiles) in tiles {
        out.extend(tiles.iter().map(|&[mr, kr, sr]| (name, mr, kr, sr)));
    }
    out
}

/// The (packer, mr, kr, sr) of every kernel of `kernels` with each of its LHS packers, then
/// `extra`, sorted and without repeats.
pub fn cases(
    kernels: impl Iterator<Item = &'static MatmulKernel>,
    extra: &[LhsCase],
) -> Vec<LhsCase> {
    let mut out: Vec<_> = kernels
        .flat_map(|k| {
            let t = k.tile();
            k.lhs_packers
                .iter()
                .map(move |p| (p.name, t.mr, t.kr, t.sr))
        })
        .collect();
    out.extend_from_slice(extra);
    out.sort();
    out.dedup();
    out
}

/// Packs `problem(seed, shape)` for each of `shapes` (m, k, bl) with every case that `takes` it
/// (given `(k, bl)`), against a guard page at either edge, over a buffer filled with `fill`, and
/// compares the bytes with the reference's; returns the packings compared.
pub fn packings_equal_reference<P: BlockLhsProblem>(
    cases: &[LhsCase],
    takes: impl Fn(LhsCase, (usize, usize)) -> bool,
    shapes: &[(usize, usize, usize)],
    fill: u8,
    problem: impl Fn(usize, (usize, usize, usize)) -> P,
) -> usize {
    let mut compared = 0;
    for &c in cases {
        let (name, mr, kr, sr) = c;
        for (seed, &(m, k, bl)) in shapes.iter().enumerate() {
            if !takes(c, (k, bl)) {
                continue;
            }
            let p = problem(seed, (m, k, bl));
            compared += tester::packs_equal_reference(
                || format!("{name} mr={mr} kr={kr} sr={sr} m={m} k={k} bl={bl}"),
                |edge| pack(&p, c, edge, fill),
                |size| p.expected_lhs(c, size, fill),
            );
        }
    }
    compared
}

/// Frameworks pack row ranges on different threads: for each case, packing `p` in two calls
/// split at every row `splits_at(case, split, m)` allows equals packing it in one.
pub fn row_slices_equal_one_call<P: BlockLhsProblem>(
    cases: &[LhsCase],
    p: &P,
    splits_at: impl Fn(LhsCase, usize, usize) -> bool,
) {
    let m = p.lhs_shape().0;
    for &c in cases {
        let (name, mr, ..) = c;
        let whole = pack(p, c, Edge::End, 0);
        let src = Guarded::from_bytes(&p.lhs_source(name), Edge::End);
        for split in (1..m).filter(|&s| splits_at(c, s, m)) {
            let mut parts = Guarded::new(whole.bytes().len(), Edge::End);
            pack_rows(p, c, (0, split), &src, &mut parts);
            pack_rows(p, c, (split, m - split), &src, &mut parts);
            assert_eq!(
                parts.bytes(),
                whole.bytes(),
                "{name} mr={mr} split at {split}"
            );
        }
    }
}

/// Rewrites activations for the hostile-value packer tests: in every third block some values
/// become one of `special`, and in every fifth block the last value becomes `last_of_block`.
pub fn make_hostile(lhs: &mut [f32], bl: usize, seed: u64, special: &[f32], last_of_block: f32) {
    let mut rng = Rng::new(seed);
    let last = special.len() as i32 - 1;
    for (i, v) in lhs.iter_mut().enumerate() {
        let block = i / bl;
        if block % 3 == 1 && rng.range_i32(0, 7) == 0 {
            *v = special[rng.range_i32(0, last) as usize];
        }
        if block % 5 == 2 && i % bl == bl - 1 {
            *v = last_of_block;
        }
    }
}

/// For measured row `r`: checks that the kernel's packed offsets of one m_step and one n_step
/// agree with its packers' (what consumers rely on when tiling), and returns the packers'
/// packed sizes (LHS, RHS) and the kernel's RHS offset.
pub fn measured_sizes(r: &Measured) -> ((usize, usize), usize) {
    let (k, t, (kk, bl)) = (r.kernel, r.kernel.tile(), (r.k, r.bl));
    let step_m = t.m_step.max(t.mr);
    assert_eq!(
        sym::<Getter3>("get_lhs_packed_offset", k.stem)(step_m, kk, bl),
        sym::<BlockLhsGetter>("get_lhs_packed_offset", r.lhs_packer)(
            step_m, kk, bl, t.mr, t.kr, t.sr
        )
    );
    let rhs_offset = sym::<Getter3>("get_rhs_packed_offset", k.stem)(t.n_step, kk, bl);
    assert_eq!(
        rhs_offset,
        sym::<Getter5>("get_rhs_packed_offset", r.rhs_packer)(t.n_step, kk, t.nr, t.kr, bl)
    );
    let lhs = sym::<BlockLhsGetter>("get_lhs_packed_size", r.lhs_packer);
    let rhs = sym::<Getter5>("get_rhs_packed_size", r.rhs_packer);
    let sizes = (
        lhs(r.m, kk, bl, t.mr, t.kr, t.sr),
        rhs(r.n, kk, t.nr, t.kr, bl),
    );
    (sizes, rhs_offset)
}

/// The three LHS packer tests of a per-block family, over the cases (every kernel of `$kernels`
/// with each of its LHS packers, then the `LhsCase`s of `$extra`) that `$takes` accepts for a `(k, bl)`, on problems `$problem(m, k, bl, seed)`:
/// byte comparisons on [`PACK_SHAPES`]; the same with `$special` values scattered over the
/// activations and `$last` ending some blocks; row slices split where `$splits_at(case, split,
/// m)` allows. `$reliability` says whether the counts go to `RELIABILITY`.
#[macro_export]
macro_rules! block_lhs_tests {
    (
        kernels: $kernels:expr,
        extra_cases: $extra:expr,
        takes: $takes:expr,
        problem: $problem:expr,
        special: $special:expr,
        last_of_block: $last:expr,
        splits_at: $splits_at:expr,
        reliability: $reliability:expr $(,)?
    ) => {
        /// The LHS cases of the family.
        fn block_lhs_cases() -> Vec<$crate::support::block_lhs::LhsCase> {
            $crate::support::block_lhs::cases($kernels, &$extra)
        }

        #[test]
        fn lhs_packers_match_reference_bytes() {
            use $crate::support::block_lhs;
            let new = $problem;
            let problem = |seed: usize, (m, k, bl)| new(m, k, bl, seed as u64);
            let shapes = &block_lhs::PACK_SHAPES;
            let cases = block_lhs::packings_equal_reference(
                &block_lhs_cases(),
                $takes,
                shapes,
                0xa5,
                problem,
            );
            eprintln!("LHS packer byte comparisons: {cases}");
            if $reliability {
                eprintln!("RELIABILITY bounds_packers {cases}");
            }
        }

        /// Activations with the family's special values (infinities, NaNs, signed zeros, the
        /// extremes of the type, quantization ties): packed bytes still equal the reference,
        /// which follows each packer's order of comparisons and its rounding.
        #[test]
        fn lhs_packers_match_reference_on_hostile_values() {
            use $crate::support::block_lhs::{self, BlockLhsProblem};
            let new = $problem;
            let hostile = |seed: usize, (m, k, bl)| {
                let mut p = new(m, k, bl, 40 + seed as u64);
                let (lhs, seed) = (p.activations_mut(), 7 + seed as u64);
                block_lhs::make_hostile(lhs, bl, seed, &$special, $last);
                p
            };
            let shapes = [(5, 128, 32), (8, 256, 64)];
            let cases = block_lhs::packings_equal_reference(
                &block_lhs_cases(),
                $takes,
                &shapes,
                0x3c,
                hostile,
            );
            eprintln!("hostile LHS packings: {cases}");
            if $reliability {
                eprintln!("RELIABILITY hostile {cases}");
            }
        }

        #[test]
        fn lhs_packing_in_row_slices_equals_one_call() {
            let (k, bl) = (384, 96);
            let p = ($problem)(11, k, bl, 9);
            let takes = $takes;
            let cases: Vec<_> = block_lhs_cases()
                .into_iter()
                .filter(|&c| takes(c, (k, bl)))
                .collect();
            $crate::support::block_lhs::row_slices_equal_one_call(&cases, &p, $splits_at);
        }
    };
}
