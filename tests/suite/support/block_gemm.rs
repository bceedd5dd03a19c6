//! Data and contract-violation calls shared by the per-block quantized GEMM families whose
//! kernels take a packed LHS, a packed RHS and the block length (`kai_run_matmul_*(m, n, k, bl,
//! lhs_packed, rhs_packed, dst, dst_stride_row, dst_stride_col, min, max)`):
//! `matmul_clamp_f32_qsi8d32p_qsi4c32p` and `matmul_clamp_{f32,f16}_qsi8d32p_qai4c32p`, and the
//! Q4_0 weights ([`Q4_0Problem`]) those and `matmul_clamp_f32_f16p_qsi4c32p` read. Their kernel
//! checks are the generic tester's ([`super::tester`]).

use super::cabi::func as sym;
use super::cabi::{Getter5, MatmulBlockFn, pack_block_lhs, pack_q4_0_rhs};
use super::guard::{Edge, Guarded};
use super::rng::Rng;
use super::tester;
use rkai_ukernels::reference::qsi8d32p::q4_0_rows;
use rkai_ukernels::types::kai_rhs_pack_qs4cxs1s0_param as Params;

/// The RHS packers' parameters in these families' tests: LHS zero point 1, RHS zero point 8
/// (an unsigned 4-bit source).
pub const PARAMS: Params = Params {
    lhs_zero_point: 1,
    rhs_zero_point: 8,
};

/// A Q4_0 test problem (llama.cpp's format): m x k f32 activations and n x k int4 weights
/// (-8..=7) in blocks of `bl` values with f16 block scales.
#[derive(Clone)]
pub struct Q4_0Problem {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub bl: usize,
    pub lhs: Vec<f32>,
    pub w: Vec<i8>,
    pub wd: Vec<u16>,
}

impl Q4_0Problem {
    /// The activations `activations(rng, m, k)` of a generator seeded with `seed`, then from the
    /// same generator the weights and the scales: of either sign, as llama.cpp's Q4_0 has them
    /// (it divides a block's extreme by -8), every third negative.
    pub fn new(
        (m, n, k, bl): (usize, usize, usize, usize),
        seed: u64,
        activations: impl FnOnce(&mut Rng, usize, usize) -> Vec<f32>,
    ) -> Self {
        let mut rng = Rng::new(seed);
        let lhs = activations(&mut rng, m, k);
        let w = (0..n * k).map(|_| rng.range_i32(-8, 7) as i8).collect();
        let wd = (0..n * (k / bl))
            .map(|i| {
                let d = rng.f32(0.001, 0.1);
                half::f16::from_f32(if i % 3 == 1 { -d } else { d }).to_bits()
            })
            .collect();
        Q4_0Problem {
            m,
            n,
            k,
            bl,
            lhs,
            w,
            wd,
        }
    }

    pub fn blocks(&self) -> usize {
        self.k / self.bl
    }

    /// The weights as Q4_0 source rows.
    pub fn rhs_source(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.n * self.blocks() * (self.bl / 2 + 2)];
        q4_0_rows(self.n, self.k, self.bl, &self.w, &self.wd, &mut out);
        out
    }

    /// The weights packed by the Q4_0 RHS packer `name` at tile (nr, kr, sr) with [`PARAMS`],
    /// source and output against a guard page at `edge`; the output starts filled with `fill`.
    pub fn pack_rhs(
        &self,
        name: &str,
        (nr, kr, sr): (usize, usize, usize),
        edge: Edge,
        fill: u8,
    ) -> Guarded {
        let (n, k, bl) = (self.n, self.k, self.bl);
        let size = sym::<Getter5>("get_rhs_packed_size", name)(n, k, nr, kr, bl);
        let src = Guarded::from_bytes(&self.rhs_source(), edge);
        let mut packed = Guarded::from_bytes(&vec![fill; size], edge);
        let sources = (src.ptr(), std::ptr::null());
        // SAFETY: buffers sized from the getters.
        unsafe {
            pack_q4_0_rhs(
                name,
                (n, k, bl),
                (nr, kr, sr),
                sources,
                packed.mut_ptr().cast(),
                &PARAMS,
            )
        };
        packed
    }
}

/// Shapes (n, k, bl) for the RHS packer tests: column tails of every tile, one to eight blocks
/// of 32 to 256.
pub const RHS_SHAPES: [(usize, usize, usize); 8] = [
    (1, 32, 32),
    (3, 64, 32),
    (4, 64, 64),
    (9, 96, 32),
    (17, 256, 128),
    (33, 288, 96),
    (8, 512, 256),
    (70, 128, 32),
];

/// One RHS packer with one tile: (packer, nr, kr).
pub type RhsCase = (&'static str, usize, usize);

/// For each of `cases` (sorted, without repeats) and each of [`RHS_SHAPES`] (n, k, bl) that
/// `takes(case, bl)` accepts, packs `problem(n, k, bl, seed)` (seeds from 200) with `pack(p,
/// packer, nr, kr, edge, fill)` at either guard-page edge, over a buffer filled with 0x5a
/// (packers that leave columns past n untouched must keep it), and compares the bytes with
/// `expected(p, packer, nr, kr, size, fill)`; returns the packings compared.
pub fn rhs_packings_equal_reference<P>(
    mut cases: Vec<RhsCase>,
    takes: impl Fn(RhsCase, usize) -> bool,
    problem: impl Fn(usize, usize, usize, u64) -> P,
    pack: impl Fn(&P, &str, usize, usize, Edge, u8) -> Guarded,
    expected: impl Fn(&P, &str, usize, usize, usize, u8) -> Vec<u8>,
) -> usize {
    cases.sort();
    cases.dedup();
    let fill = 0x5a;
    let mut compared = 0;
    for c in cases {
        let (name, nr, kr) = c;
        for (seed, &(n, k, bl)) in RHS_SHAPES.iter().enumerate() {
            if !takes(c, bl) {
                continue;
            }
            let p = problem(n, k, bl, 200 + seed as u64);
            compared += tester::packs_equal_reference(
                || format!("{name} nr={nr} kr={kr} n={n} k={k} bl={bl}"),
                |edge| pack(&p, name, nr, kr, edge, fill),
                |size| expected(&p, name, nr, kr, size, fill),
            );
        }
    }
    compared
}

/// The (block length, K) the random-problem tests draw: one to four blocks of 32, 64, 96 or 128.
pub fn random_block_k() -> impl proptest::strategy::Strategy<Value = (usize, usize)> {
    use proptest::strategy::Strategy;
    (1usize..5, 0usize..4).prop_map(|(blocks, i)| {
        let bl = [32, 64, 96, 128][i];
        (bl, blocks * bl)
    })
}

/// m x k activations uniform in [-3, 5); with more than two rows, row 1 is zero (scale 0) and
/// row 2 holds halves whose blocks have maximum 127 (scale 1, so the packers' rounding ties
/// show).
pub fn activations(rng: &mut Rng, m: usize, k: usize, bl: usize) -> Vec<f32> {
    let mut lhs = rng.vec_f32(m * k, -3.0, 5.0);
    if m > 2 {
        lhs[k..2 * k].fill(0.0);
        for (i, v) in lhs[2 * k..3 * k].iter_mut().enumerate() {
            *v = if i % bl == 0 {
                127.0
            } else {
                (rng.range_i32(-250, 250) as f32) * 0.5
            };
        }
    }
    lhs
}

/// Calls `stem` for m = 1, n = 4 with the given k, block length, `dst_stride_col` and RHS (for
/// the contract-violation cases).
pub fn run_kernel(stem: &str, k: usize, bl: usize, dst_stride_col: usize, null_rhs: bool) {
    run_rows(stem, 1, k, bl, dst_stride_col, null_rhs)
}

/// [`run_kernel`] for `m` rows.
pub fn run_rows(stem: &str, m: usize, k: usize, bl: usize, dst_stride_col: usize, null_rhs: bool) {
    let lhs = vec![0u8; 4096];
    let rhs = vec![0u8; 4096];
    let mut dst = vec![0f32; 64];
    // SAFETY: expected to abort before touching memory (or to compute within the buffers).
    unsafe {
        sym::<MatmulBlockFn>("run", stem)(
            m,
            4,
            k,
            bl,
            lhs.as_ptr().cast(),
            if null_rhs {
                std::ptr::null()
            } else {
                rhs.as_ptr().cast()
            },
            dst.as_mut_ptr().cast(),
            16,
            dst_stride_col,
            -1.0,
            1.0,
        )
    }
}

/// Calls the per-block LHS packer `name` for `m` rows from `m_idx_start`, k = 64, with the given
/// block length and tile (for the contract-violation cases).
pub fn run_lhs(
    name: &str,
    m: usize,
    bl: usize,
    mr: usize,
    kr: usize,
    sr: usize,
    m_idx_start: usize,
) {
    let src = vec![0f32; 8 * 64];
    let mut out = vec![0u8; 8192];
    let (shape, tile, src) = ((m, 64, bl), (mr, kr, sr), (src.as_ptr().cast(), 256));
    // SAFETY: expected to abort before touching memory.
    unsafe { pack_block_lhs(name, shape, tile, m_idx_start, src, out.as_mut_ptr().cast()) }
}

/// The contract violations every per-block f32 GEMV `$gemv` (a `const` stem) shares, as death
/// [`Case`](super::death::Case)s: block length, K, destination stride, null RHS, getter steps.
#[macro_export]
macro_rules! block_gemv_cases {
    ($gemv:expr) => {{
        use $crate::support::block_gemm::run_kernel;
        use $crate::support::cabi::Getter3;
        vec![
            $crate::run_case!("bl_not_multiple_of_32", "(bl % 32) == 0"
                => run_kernel($gemv, 96, 48, 4, false)),
            $crate::run_case!("k_not_multiple_of_bl", "(k % bl) == 0"
                => run_kernel($gemv, 96, 64, 4, false)),
            $crate::run_case!("zero_bl", "bl > 0" => run_kernel($gemv, 64, 0, 4, false)),
            $crate::run_case!("dst_stride_col", "dst_stride_col == sizeof(float)"
                => run_kernel($gemv, 64, 32, 2, false)),
            $crate::run_case!("null_rhs", "rhs_packed != NULL"
                => run_kernel($gemv, 64, 32, 4, true)),
            $crate::getter_case!("lhs_offset_bl", "(bl % 32) == 0"
                => get_lhs_packed_offset::<Getter3>($gemv)(0, 64, 16)),
            $crate::getter_case!("rhs_offset_n_idx", "(n_idx % nr) == 0"
                => get_rhs_packed_offset::<Getter3>($gemv)(2, 64, 32)),
        ]
    }};
}
