//! Every `qai8dxp` family (int8 activations x per-channel int4 or int8 weights, or int4 weights
//! with bf16 scales per block; f32, f16 or bf16 output) and its packers, through the exported C
//! symbols, against the scalar reference: getter values and packed sizes equal KleidiAI 1.30's
//! (measured tables), packed bytes equal the reference byte for byte, results equal it bit for
//! bit (16-bit outputs: the reference's f32 result rounded to nearest even), on every edge shape,
//! portion, guard-page placement, and (on aarch64) with callee-saved registers checked.

use crate::support;

use rkai_ukernels::catalog::{KERNELS, PACKERS};

use rkai_ukernels::kernel::{Columns, MatmulKernel, Origin};

use rkai_ukernels::layout::RhsLayout;
use rkai_ukernels::pack::Source;
use rkai_ukernels::pack::kinds::{LhsPackerKind, PackerKind, RhsPackerKind};
use rkai_ukernels::pack::lhs_quant_pack_qai8dxp::LhsType;
use rkai_ukernels::pack::rhs_pack_qsi4c32p_qsu4c32s1s0::Variant as BlockPacker;
use rkai_ukernels::reference::{self, SumOrder, qai8dx};
use rkai_ukernels::types::{
    kai_datatype, kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params as BlockParams,
    kai_rhs_pack_qs4cxs1s0_param as Int4Params, kai_rhs_pack_qsi8cx_params,
};
use support::cabi::func as sym;
use support::cabi::{
    Getter0, Getter2, Getter3, Getter4, Getter5, Getter6, Getter7, RhsPackQsi4c32pFn,
    RhsPackQsi4cxpFn, RhsPackQsi8cxpFn,
};
use support::gemm::Impl;
use support::guard::{EDGES, Edge, Guarded};
use support::hostile;
use support::rng::Rng;
use support::tester::{self, Depth, PackedFamily};

const LHS_PACKER: &str = "lhs_quant_pack_qai8dxp_f32";
const BF16: u32 = kai_datatype::kai_dt_bf16 as u32;
/// The int4 packers, for tests of their size formulas.
const INT4_RHS_PACKERS: [(&str, bool); 2] = [
    ("rhs_pack_nxk_qsi4cxp_qs4cxs1s0", false),
    ("rhs_pack_kxn_qsi4cxp_qs4cxs1s0", true),
];

/// The RHS packers the catalog pairs with `k`, as (name, takes a K x N source).
fn rhs_packers(k: &MatmulKernel) -> Vec<(&'static str, bool)> {
    k.rhs_packers
        .iter()
        .map(|p| {
            let kxn = matches!(
                p.kind,
                PackerKind::Rhs(RhsPackerKind::Qsi4cxp(Source::Kxn))
                    | PackerKind::Rhs(RhsPackerKind::Qsi8cxp(Source::Kxn))
            ) || matches!(
                p.kind,
                PackerKind::Rhs(RhsPackerKind::Qsi4c32p(v)) if v.source() == Source::Kxn
            );
            (p.name, kxn)
        })
        .collect()
}

/// Whether `packer` writes the sequential-nibble int4 layout (unscaled sums and scales) rather
/// than `s16s0` (x16 sums, /16 scales).
fn is_sequential(packer: &str) -> bool {
    packer.contains("qsi4cxps1s0")
}

fn is_int8(k: &MatmulKernel) -> bool {
    k.family.rhs_layout(0) == RhsLayout::Qsi8cxp
}

/// The per-block packer named `packer`.
fn block_packer(packer: &str) -> BlockPacker {
    match PACKERS.iter().find(|p| p.name == packer).map(|p| p.kind) {
        Some(PackerKind::Rhs(RhsPackerKind::Qsi4c32p(v))) => v,
        _ => unreachable!("{packer} is not a per-block int4 packer"),
    }
}

/// Row-sum order of a per-block packer.
fn sum_order(packer: &str) -> SumOrder {
    block_packer(packer).sum_order()
}

/// The element type of the LHS packer the catalog pairs with `k`.
fn lhs_type(k: &MatmulKernel) -> LhsType {
    match k.lhs_packers[0].kind {
        PackerKind::Lhs(LhsPackerKind::Qai8dxp(t)) => t,
        _ => unreachable!("qai8dxp kernels pair with qai8dxp LHS packers"),
    }
}

/// The kernels of the `qai8dxp` families (those that read a `qai8dxp` packed LHS), but the 2-bit
/// family's (`tests/suite/qai8dxp_qsu2cxp.rs`: its weights, table and K multiple are its own).
/// `RKAI_TEST_KERNEL=<substring>` narrows every test to the kernels whose stem contains it (for
/// quick runs under QEMU).
fn family_kernels() -> impl Iterator<Item = &'static MatmulKernel> {
    tester::narrowed(KERNELS.iter().copied().filter(|k| {
        k.lhs_packers
            .iter()
            .any(|p| matches!(p.kind, PackerKind::Lhs(LhsPackerKind::Qai8dxp(_))))
            && !k.family.takes_lut()
    }))
}

fn runnable_quiet() -> Vec<&'static MatmulKernel> {
    family_kernels()
        .filter(|k| support::cpu::can_run(k.isa))
        .collect()
}

fn runnable() -> Vec<&'static MatmulKernel> {
    tester::runnable(
        family_kernels(),
        |k| support::cpu::can_run(k.isa),
        "qai8dxp",
    )
}

#[test]
fn getters_equal_kleidiai_values() {
    tester::getters_equal_kleidiai_values(
        family_kernels().filter(|k| k.origin == Origin::KleidiAi),
    );
}

#[test]
fn packed_sizes_and_offsets_equal_kleidiai_values() {
    let kleidiai = family_kernels().filter(|k| k.origin == Origin::KleidiAi);
    let checked = tester::packed_sizes_equal_measured(kleidiai, |r| {
        let (k, t, (kk, bl)) = (r.kernel, r.kernel.tile(), (r.k, r.bl));
        let (lhs_packer, rhs_packer) = (r.lhs_packer, r.rhs_packer);
        // Kernel offsets agree with packer offsets (what consumers rely on when tiling).
        let step_m = t.m_step.max(t.mr);
        let lhs_k = sym::<Getter2>("get_lhs_packed_offset", k.stem)(step_m, kk);
        let lhs_p =
            sym::<Getter5>("get_lhs_packed_offset", lhs_packer)(step_m, kk, t.mr, t.kr, t.sr);
        assert_eq!(lhs_k, lhs_p);
        let (rhs_k, rhs_p, stride) = if k.family.is_blockwise() {
            (
                sym::<Getter3>("get_rhs_packed_offset", k.stem)(t.n_step, kk, bl),
                sym::<Getter7>("get_rhs_packed_offset", rhs_packer)(
                    t.n_step, kk, t.nr, t.kr, t.sr, bl, BF16,
                ),
                sym::<Getter6>("get_rhs_packed_stride", rhs_packer)(kk, t.nr, t.kr, t.sr, bl, BF16),
            )
        } else {
            (
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(t.n_step, kk),
                sym::<Getter5>("get_rhs_packed_offset", rhs_packer)(t.n_step, kk, t.nr, t.kr, t.sr),
                sym::<Getter4>("get_rhs_packed_stride", rhs_packer)(kk, t.nr, t.kr, t.sr),
            )
        };
        assert_eq!(rhs_k, rhs_p);
        assert_eq!(rhs_p, stride);
        let lhs = sym::<Getter5>("get_lhs_packed_size", lhs_packer)(r.m, kk, t.mr, t.kr, t.sr);
        let rhs = if k.family.is_blockwise() {
            sym::<Getter7>("get_rhs_packed_size", rhs_packer)(r.n, kk, t.nr, t.kr, t.sr, bl, BF16)
        } else {
            sym::<Getter5>("get_rhs_packed_size", rhs_packer)(r.n, kk, t.nr, t.kr, t.sr)
        };
        (lhs, rhs)
    });
    // The measured table has no rows for streaming (SME) kernels: their sizes are checked
    // against KleidiAI's formulas at this streaming vector length in
    // `rkai_kernel_getters_and_sizes_follow_the_vector_length`.
    let claimed = family_kernels()
        .filter(|k| k.origin == Origin::KleidiAi && !k.isa.is_streaming())
        .count();
    assert!(
        checked >= 3 * claimed,
        "expected the measured rows of every kernel, checked {checked}"
    );
}

/// rkai's extension kernels have no KleidiAI table: their getters return the catalog tile with
/// VL-scaled columns multiplied by this CPU's 32-bit SVE lanes, and their packed sizes and
/// offsets follow KleidiAI's formulas for the packers' formats at that `nr`. KleidiAI's
/// streaming (SME) kernels have getter rows but no packed-size rows: their sizes and offsets
/// are checked here the same way, at this streaming vector length.
#[test]
fn rkai_kernel_getters_and_sizes_follow_the_vector_length() {
    let lanes = rkai_ukernels::arch::sve_lanes32();
    let mut checked = 0;
    for k in family_kernels().filter(|k| k.origin == Origin::Rkai || k.isa.is_streaming()) {
        let b = k.base_tile;
        let scale = if k.columns == Columns::PerSveLane32 {
            lanes
        } else {
            1
        };
        let want = [b.m_step, b.n_step * scale, b.mr, b.nr * scale, b.kr, b.sr];
        let got = tester::TILE_PARAMETERS.map(|v| sym::<Getter0>(&format!("get_{v}"), k.stem)());
        if k.origin == Origin::Rkai {
            assert_eq!(got, want, "{} with {lanes} lanes", k.stem);
        }
        let t = k.tile();
        assert_eq!(t.n_step % t.nr, 0, "{}", k.stem);
        for (m, n, kk, bl) in [
            (1usize, 1usize, 32usize, 32usize),
            (7, 33, 128, 64),
            (16, 300, 512, 256),
        ] {
            let bl = if k.family.is_blockwise() { bl } else { 0 };
            // KleidiAI's formulas: LHS groups of mr rows of k + 8 bytes; RHS groups of nr
            // columns (per block: bl / 2 data and 2 scale bytes per column; then rsum, bias).
            let lhs_stride = t.mr * (kk.div_ceil(32) * 32 + 8);
            let rhs_stride = match kk.checked_div(bl) {
                Some(blocks) => t.nr * (blocks * (bl / 2 + 2) + 8),
                None if is_int8(k) => t.nr * (kk.div_ceil(32) * 32 + 12),
                None => t.nr * (kk.div_ceil(32) * 16 + 12),
            };
            let lhs_packer = k.lhs_packers[0].name;
            let lhs = sym::<Getter5>("get_lhs_packed_size", lhs_packer)(m, kk, t.mr, t.kr, t.sr);
            assert_eq!(lhs, m.div_ceil(t.mr) * lhs_stride, "{} LHS", k.stem);
            for (packer, _) in rhs_packers(k) {
                let rhs = if bl != 0 {
                    sym::<Getter7>("get_rhs_packed_size", packer)(n, kk, t.nr, t.kr, t.sr, bl, BF16)
                } else {
                    sym::<Getter5>("get_rhs_packed_size", packer)(n, kk, t.nr, t.kr, t.sr)
                };
                assert_eq!(rhs, n.div_ceil(t.nr) * rhs_stride, "{} / {packer}", k.stem);
            }
            let rhs_off = if bl != 0 {
                sym::<Getter3>("get_rhs_packed_offset", k.stem)(t.n_step, kk, bl)
            } else {
                sym::<Getter2>("get_rhs_packed_offset", k.stem)(t.n_step, kk)
            };
            assert_eq!(rhs_off, t.n_step / t.nr * rhs_stride, "{}", k.stem);
            let lhs_off = sym::<Getter2>("get_lhs_packed_offset", k.stem)(t.m_step, kk);
            assert_eq!(lhs_off, t.m_step / t.mr * lhs_stride, "{}", k.stem);
            checked += 1;
        }
    }
    eprintln!("rkai kernels: {checked} size checks with {lanes} SVE lanes");
}

/// A test problem: activations (f32 values representable in the kernel's LHS packer type),
/// int4 or int8 weights, per-channel f32 scales or per-block bf16 scales, optional bias.
struct Problem {
    int8: bool,
    m: usize,
    n: usize,
    k: usize,
    /// Block length of per-block weights (0: per channel).
    bl: usize,
    lhs_type: LhsType,
    lhs: Vec<f32>,
    w: Vec<i8>,
    scale: Vec<f32>,
    /// bf16 bits, `k / bl` per channel (per-block weights only).
    block_scale: Vec<u16>,
    bias: Option<Vec<f32>>,
}

impl Problem {
    /// A problem for `kernel`; `bl` is the block length of per-block kernels (ignored otherwise).
    fn new(
        kernel: &MatmulKernel,
        m: usize,
        n: usize,
        k: usize,
        bl: usize,
        with_bias: bool,
        seed: u64,
    ) -> Self {
        let int8 = is_int8(kernel);
        let bl = if kernel.family.is_blockwise() { bl } else { 0 };
        let lhs_type = lhs_type(kernel);
        let mut rng = Rng::new(seed);
        let mut lhs = rng.vec_f32(m * k, -3.0, 5.0);
        if m > 1 && k > 1 {
            // An all-positive row and a constant row exercise both zero-point branches and the
            // constant-row rule.
            for v in &mut lhs[..k] {
                *v = v.abs() + 0.5;
            }
            let last = (m - 1) * k;
            lhs[last..last + k].fill(1.25);
        }
        let (lo, hi) = if int8 { (-128, 127) } else { (-8, 7) };
        let w = (0..n * k).map(|_| rng.range_i32(lo, hi) as i8).collect();
        let scale = rng.vec_f32(n, 0.001, 0.1);
        let block_scale = match k.checked_div(bl) {
            None => Vec::new(),
            Some(blocks) => rng
                .vec_f32(n * blocks, 0.001, 0.1)
                .iter()
                .map(|&v| half::bf16::from_f32(v).to_bits())
                .collect(),
        };
        let bias = with_bias.then(|| rng.vec_f32(n, -1.0, 1.0));
        for v in &mut lhs {
            *v = match lhs_type {
                LhsType::F32 => *v,
                LhsType::F16 => half::f16::from_f32(*v).to_f32(),
                LhsType::Bf16 => half::bf16::from_f32(*v).to_f32(),
            };
        }
        Problem {
            int8,
            m,
            n,
            k,
            bl,
            lhs_type,
            lhs,
            w,
            scale,
            block_scale,
            bias,
        }
    }

    /// The activations as the LHS packer's element type, with the row stride in bytes.
    fn lhs_source(&self) -> (Vec<u8>, usize) {
        match self.lhs_type {
            LhsType::F32 => (
                self.lhs.iter().flat_map(|v| v.to_le_bytes()).collect(),
                4 * self.k,
            ),
            LhsType::F16 => (
                self.lhs
                    .iter()
                    .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
                    .collect(),
                2 * self.k,
            ),
            LhsType::Bf16 => (
                self.lhs
                    .iter()
                    .flat_map(|&v| half::bf16::from_f32(v).to_le_bytes())
                    .collect(),
                2 * self.k,
            ),
        }
    }

    /// Source bytes in the given orientation; int4 with the given zero point (8: unsigned
    /// u = w + 8), int8 as is.
    fn rhs_source(&self, kxn: bool, zero_point: u8) -> Vec<u8> {
        let (rows, cols) = if kxn {
            (self.k, self.n)
        } else {
            (self.n, self.k)
        };
        if self.int8 {
            let at = |r: usize, c: usize| {
                if kxn {
                    self.w[c * self.k + r]
                } else {
                    self.w[r * self.k + c]
                }
            };
            return (0..rows)
                .flat_map(|r| (0..cols).map(move |c| at(r, c) as u8))
                .collect();
        }
        let row_bytes = cols.div_ceil(2);
        let mut out = vec![0u8; rows * row_bytes];
        for r in 0..rows {
            for c in 0..cols {
                let (n_idx, k_idx) = if kxn { (c, r) } else { (r, c) };
                let v = self.w[n_idx * self.k + k_idx];
                let nib = if zero_point == 8 {
                    (v + 8) as u8
                } else {
                    v as u8 & 0x0f
                };
                out[r * row_bytes + c / 2] |= nib << (4 * (c % 2));
            }
        }
        out
    }

    fn quantized(&self) -> (Vec<i8>, Vec<qai8dx::Row>) {
        let mut lq = vec![0i8; self.m * self.k];
        let rows = (0..self.m)
            .map(|i| {
                qai8dx::quantize_row(
                    &self.lhs[i * self.k..(i + 1) * self.k],
                    &mut lq[i * self.k..(i + 1) * self.k],
                )
            })
            .collect();
        (lq, rows)
    }
}

/// Packs the activations with the LHS packer of the problem's element type.
fn pack_lhs(p: &Problem, mr: usize, kr: usize, sr: usize, edge: Edge) -> Guarded {
    let name = match p.lhs_type {
        LhsType::F32 => LHS_PACKER,
        LhsType::F16 => "lhs_quant_pack_qai8dxp_f16_neon",
        LhsType::Bf16 => "lhs_quant_pack_qai8dxp_bf16_neon",
    };
    let (bytes, stride) = p.lhs_source();
    tester::pack_qai8dxp_lhs(name, (p.m, p.k), (mr, kr, sr), (&bytes, stride), edge)
}

/// Bytes of the packed RHS for `p` with `packer`.
fn rhs_packed_size(p: &Problem, packer: &str, nr: usize, kr: usize, sr: usize) -> usize {
    if p.bl != 0 {
        sym::<Getter7>("get_rhs_packed_size", packer)(p.n, p.k, nr, kr, sr, p.bl, BF16)
    } else {
        sym::<Getter5>("get_rhs_packed_size", packer)(p.n, p.k, nr, kr, sr)
    }
}

fn pack_rhs(
    p: &Problem,
    packer: (&str, bool),
    zero_point: u8,
    nr: usize,
    kr: usize,
    sr: usize,
    edge: Edge,
) -> Guarded {
    let size = rhs_packed_size(p, packer.0, nr, kr, sr);
    let src = Guarded::from_bytes(&p.rhs_source(packer.1, zero_point), edge);
    let scale = Guarded::from_f32(&p.scale, edge);
    let bias = p.bias.as_ref().map(|b| Guarded::from_f32(b, edge));
    let mut packed = Guarded::new(size, edge);
    let bias_ptr = bias.as_ref().map_or(std::ptr::null(), |b| b.ptr().cast());
    // Every RHS packer of the family starts with (num_groups = 1, n, k, nr, kr, sr).
    macro_rules! pack {
        ($f:expr; $($own:expr),* $(,)?) => { $f(1, p.n, p.k, nr, kr, sr, $($own),*) };
    }
    if p.bl != 0 {
        let scales: Vec<u8> = p.block_scale.iter().flat_map(|s| s.to_le_bytes()).collect();
        let scales = Guarded::from_bytes(&scales, edge);
        let params = BlockParams {
            lhs_zero_point: 1,
            rhs_zero_point: 8,
            scale_dt: kai_datatype::kai_dt_bf16,
        };
        let rhs_stride = if packer.1 { p.n.div_ceil(2) } else { p.k / 2 };
        // SAFETY: buffers sized from the getters.
        unsafe {
            pack!(sym::<RhsPackQsi4c32pFn>("run", packer.0); p.bl, src.ptr(), rhs_stride,
                bias_ptr, scales.ptr().cast(), 2 * (p.k / p.bl), packed.mut_ptr().cast(), 0,
                (&raw const params).cast())
        };
    } else if p.int8 {
        let params = kai_rhs_pack_qsi8cx_params {
            lhs_zero_point: 1,
            scale_multiplier: 1.0,
        };
        // SAFETY: buffers sized from the getters.
        unsafe {
            pack!(sym::<RhsPackQsi8cxpFn>("run", packer.0); src.ptr().cast(), bias_ptr,
                scale.ptr().cast(), packed.mut_ptr().cast(), 0, &params)
        };
    } else {
        let params = Int4Params {
            lhs_zero_point: 1,
            rhs_zero_point: zero_point,
        };
        // SAFETY: buffers sized from the getters.
        unsafe {
            pack!(sym::<RhsPackQsi4cxpFn>("run", packer.0); src.ptr(), bias_ptr,
                scale.ptr().cast(), packed.mut_ptr().cast(), 0, &params)
        };
    }
    packed
}

/// Source zero points the int4 packers accept (the int8 packer has none; one pass; the
/// per-block packers take only 8).
fn zero_points(p: &Problem) -> &'static [u8] {
    if p.int8 {
        &[0]
    } else if p.bl != 0 {
        &[8]
    } else {
        &[0, 8]
    }
}

/// Packed RHS bytes the reference expects from `packer` for `p` and `k`'s tile.
fn expected_rhs(k: &MatmulKernel, p: &Problem, size: usize, packer: &str) -> Vec<u8> {
    let t = k.tile();
    let mut out = vec![0u8; size];
    // The per-channel references take (n, k, nr, kr, [sr,] values, scales, bias, ..., out).
    macro_rules! per_channel {
        ($f:path; $($sr:expr)?; $($extra:expr),*) => {
            $f(p.n, p.k, t.nr, t.kr, $($sr,)? &p.w, &p.scale, p.bias.as_deref(), $($extra,)* &mut out)
        };
    }
    if p.bl != 0 {
        reference::pack_qsi4c32p(
            p.n,
            p.k,
            t.nr,
            t.kr,
            t.sr,
            p.bl,
            &p.w,
            &p.block_scale,
            p.bias.as_deref(),
            sum_order(packer),
            block_packer(packer).sequential_nibbles(),
            &mut out,
        );
    } else if p.int8 {
        per_channel!(reference::pack_qsi8cxp; ; 1);
    } else if is_sequential(packer) {
        per_channel!(reference::pack_qsi4cxps1s0; ; );
    } else {
        per_channel!(reference::pack::qsi4cxp; t.sr; );
    }
    out
}

/// Results the reference expects in f32 (row-major, stride n) from an RHS packed by `packer`
/// (which fixes the per-block row sums), with the kernel's tile `t`.
fn expected_dst(
    p: &Problem,
    t: &rkai_ukernels::kernel::Tile,
    finish: rkai_ukernels::kernel::Epilogue,
    packer: &str,
    lq: &[i8],
    rows: &[qai8dx::Row],
    clamp: (f32, f32),
) -> Vec<f32> {
    let mut dst = vec![0.0f32; p.m * p.n];
    if let Some(blocks) = p.k.checked_div(p.bl) {
        let rsum: Vec<f32> = (0..p.n)
            .map(|j| {
                reference::qsi4c32p_row_sum(
                    &p.w[j * p.k..(j + 1) * p.k],
                    &p.block_scale[j * blocks..(j + 1) * blocks],
                    p.bl,
                    t.kr / t.sr,
                    sum_order(packer),
                )
            })
            .collect();
        reference::matmul_f32_qai8dx_qsi4c32(
            finish,
            p.m,
            p.n,
            p.k,
            p.bl,
            lq,
            rows,
            &p.w,
            &p.block_scale,
            &rsum,
            p.bias.as_deref(),
            clamp,
            &mut dst,
            p.n,
        );
        return dst;
    }
    let bias = p.bias.as_deref();
    let (m, n, k, w, scale) = (p.m, p.n, p.k, &p.w, &p.scale);
    if p.int8 {
        reference::matmul_f32_qai8dx_qsi8cx(
            finish, m, n, k, lq, rows, w, scale, bias, clamp, &mut dst, n,
        );
    } else {
        let by_16 = !is_sequential(packer);
        reference::matmul_f32_qai8dx_qsi4cx(
            finish, by_16, m, n, k, lq, rows, w, scale, bias, clamp, &mut dst, n,
        );
    }
    dst
}

#[rustfmt::skip]
const PACK_SHAPES: [(usize, usize, usize); 10] = [
    (1, 1, 1), (1, 8, 32), (3, 7, 31), (4, 9, 33), (5, 16, 64),
    (8, 17, 100), (13, 33, 65), (2, 3, 2), (16, 64, 256), (9, 5, 47),
];

/// K and block length for a shape of a per-channel list: per-block kernels round K up to a block
/// length that cycles through 32, 64, 128 and 256 (per-channel kernels: unchanged, 0).
fn blocked(k: &MatmulKernel, kk: usize, seed: usize) -> (usize, usize) {
    if k.family.is_blockwise() {
        let bl = [32, 64, 128, 256][seed % 4];
        (kk.div_ceil(bl) * bl, bl)
    } else {
        (kk, 0)
    }
}

#[test]
fn packers_match_reference_bytes() {
    let mut cases = 0;
    for k in family_kernels() {
        let t = k.tile();
        for (seed, &(m, n, kk)) in PACK_SHAPES.iter().enumerate() {
            let (kk, bl) = blocked(k, kk, seed);
            for with_bias in [false, true] {
                for edge in EDGES {
                    let p = Problem::new(k, m, n, kk, bl, with_bias, seed as u64);
                    let (lq, rows) = p.quantized();
                    let packed = pack_lhs(&p, t.mr, t.kr, t.sr, edge);
                    let mut expect = vec![0u8; packed.bytes().len()];
                    reference::pack::qai8dxp(m, kk, t.mr, t.kr, t.sr, &lq, &rows, &mut expect);
                    assert_eq!(
                        packed.bytes(),
                        &expect[..],
                        "LHS bytes, {} m={m} k={kk}",
                        k.stem
                    );
                    for &zp in zero_points(&p) {
                        for packer in rhs_packers(k) {
                            let size = rhs_packed_size(&p, packer.0, t.nr, t.kr, t.sr);
                            let expect = expected_rhs(k, &p, size, packer.0);
                            let packed = pack_rhs(&p, packer, zp, t.nr, t.kr, t.sr, edge);
                            assert_eq!(
                                packed.bytes(),
                                &expect[..],
                                "{} zp={zp} n={n} k={kk} bl={bl} bias={with_bias}",
                                packer.0
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("packer byte comparisons: {cases}");
    eprintln!("RELIABILITY bounds_packers {cases}");
}

#[test]
fn lhs_packing_in_row_slices_equals_one_call() {
    // Frameworks pack row ranges on different threads: start offsets need not be multiples of mr.
    for k in family_kernels() {
        let t = k.tile();
        let p = Problem::new(k, 11, 1, 45, 0, false, 7);
        let whole = pack_lhs(&p, t.mr, t.kr, t.sr, Edge::End);
        for split in 1..p.m {
            let mut parts = Guarded::new(whole.bytes().len(), Edge::End);
            for (start, end) in [(0, split), (split, p.m)] {
                let off = sym::<Getter5>("get_lhs_packed_offset", LHS_PACKER)(
                    start, p.k, t.mr, t.kr, t.sr,
                );
                let src_off = sym::<Getter2>("get_lhs_offset", LHS_PACKER)(start, 4 * p.k);
                let (shape, tile) = ((end - start, p.k), (t.mr, t.kr, t.sr));
                // SAFETY: offsets from the getters stay inside the buffers.
                unsafe {
                    let src = (p.lhs.as_ptr().cast::<u8>().add(src_off).cast(), 4 * p.k);
                    let out = parts.mut_ptr().add(off).cast();
                    support::cabi::pack_lhs(LHS_PACKER, shape, tile, start, src, out)
                };
            }
            assert_eq!(parts.bytes(), whole.bytes(), "{} split at {split}", k.stem);
        }
    }
}

/// Shapes of KleidiAI's own tests plus edge cases (k smaller than a block, single column...).
#[rustfmt::skip]
const SHAPES: [(usize, usize, usize); 21] = [
    (16, 32, 64), (16, 32, 36), (15, 35, 65), (8, 32, 64), (15, 31, 45), (1, 35, 65),
    (1, 71, 32), (1, 128, 32), (64, 128, 32), (1, 225, 55), (125, 200, 56), (1, 1, 1),
    (3, 7, 31), (9, 17, 33), (2, 8, 512), (17, 9, 1),
    // Every column tail mod 8 (2, 4, 5, 6 in particular) and row tails of the 8-row tile.
    (6, 12, 40), (7, 14, 48), (5, 13, 20), (11, 6, 96), (10, 4, 8),
];

/// Shapes (m, n, k, bl) of the per-block kernels: every block length of the issue (32 to 256),
/// one and several blocks, the same row and column tails as above.
#[rustfmt::skip]
const BLOCK_SHAPES: [(usize, usize, usize, usize); 19] = [
    (16, 32, 64, 32), (15, 35, 128, 64), (1, 35, 256, 128), (1, 71, 256, 256), (8, 32, 64, 64),
    (15, 31, 96, 32), (1, 1, 32, 32), (3, 7, 32, 32), (9, 17, 128, 32), (2, 8, 512, 256),
    (17, 9, 64, 32), (6, 12, 128, 128), (7, 14, 64, 32), (5, 13, 32, 32), (11, 6, 96, 32),
    (10, 4, 256, 64), (125, 200, 128, 64), (64, 128, 64, 32), (1, 225, 64, 32),
];

/// The test shapes (m, n, k, bl) of `k`'s family.
fn shapes(k: &MatmulKernel) -> Vec<(usize, usize, usize, usize)> {
    if k.family.is_blockwise() {
        BLOCK_SHAPES.to_vec()
    } else {
        SHAPES.iter().map(|&(m, n, kk)| (m, n, kk, 0)).collect()
    }
}

/// One kernel case: a problem and the RHS packer (name, takes a K x N source) it is packed with.
struct KernelCase {
    p: Problem,
    rhs_packer: (&'static str, bool),
}

/// The `qai8dxp` families for the generic tester: the LHS packer of the problem's type, the
/// case's RHS packer (zero point 8).
struct Qai8dxp;

impl PackedFamily for Qai8dxp {
    type Problem = KernelCase;

    fn shape(c: &KernelCase) -> (usize, usize, usize, usize) {
        (c.p.m, c.p.n, c.p.k, c.p.bl)
    }

    fn pack(k: &MatmulKernel, c: &KernelCase, edge: Edge) -> (Guarded, Guarded) {
        let t = k.tile();
        let lhs = pack_lhs(&c.p, t.mr, t.kr, t.sr, edge);
        (lhs, pack_rhs(&c.p, c.rhs_packer, 8, t.nr, t.kr, t.sr, edge))
    }

    fn expected(k: &MatmulKernel, c: &KernelCase, clamp: (f32, f32)) -> Vec<f32> {
        let (lq, rows) = c.p.quantized();
        expected_dst(
            &c.p,
            &k.tile(),
            k.epilogue,
            c.rhs_packer.0,
            &lq,
            &rows,
            clamp,
        )
    }
}

/// The shared hostile scenarios; the scale ones hit the per-channel and the per-block scales.
fn make_hostile(p: &mut Problem, scenario: &str) {
    let set_scale = |scale: &mut [f32], block_scale: &mut [u16], v: f32| {
        for (j, s) in scale.iter_mut().enumerate() {
            if j % 2 == 0 {
                *s = v;
            }
        }
        let b = half::bf16::from_f32(v).to_bits();
        for (i, s) in block_scale.iter_mut().enumerate() {
            if i % 3 == 1 {
                *s = b;
            }
        }
    };
    let operands = hostile::Operands {
        lhs: &mut p.lhs,
        k: p.k,
        bias: &mut p.bias,
        n: p.n,
    };
    let (scale, block_scale) = (&mut p.scale, &mut p.block_scale);
    let known = hostile::apply(scenario, operands, |v| set_scale(scale, block_scale, v));
    assert!(known, "unknown scenario {scenario}");
    // Values the LHS type cannot hold become what its packer sees.
    for v in &mut p.lhs {
        *v = match p.lhs_type {
            LhsType::F32 => *v,
            LhsType::F16 => half::f16::from_f32(*v).to_f32(),
            LhsType::Bf16 => half::bf16::from_f32(*v).to_f32(),
        };
    }
}

/// Runs `k` on every hostile scenario (two shapes, guard pages on both sides, every portion);
/// returns the number of cases.
fn check_hostile(k: &MatmulKernel, which: Impl) -> usize {
    let (t, depth) = (k.tile(), Depth::of(k));
    let mut cases = 0;
    let bl = if k.family.is_blockwise() { 32 } else { 0 };
    for (seed, (m, n, kk)) in [(5, 13, 64), (1, 9, 96)].into_iter().enumerate() {
        for scenario in hostile::SCENARIOS {
            let mut p = Problem::new(k, m, n, kk, bl, seed == 0, 900 + seed as u64);
            make_hostile(&mut p, scenario);
            let (lq, rows) = p.quantized();
            let packer = rhs_packers(k)[0];
            let clamp = (f32::NEG_INFINITY, f32::INFINITY);
            let mut expect = expected_dst(&p, &t, k.epilogue, packer.0, &lq, &rows, clamp);
            // KleidiAI's NEON LHS packer takes a row's range with NaN-propagating FMAX/FMIN over
            // blocks of 8 values and a NaN-skipping scalar tail: a NaN in the blocks makes the
            // row's scale, and so its whole output row, NaN; a NaN in the tail is skipped.
            for i in 0..m {
                if p.lhs[i * kk..i * kk + kk / 8 * 8]
                    .iter()
                    .any(|v| v.is_nan())
                {
                    // (SME2's FCLAMP turns that quiet NaN into a bound.)
                    let nan = k.epilogue.clamp.apply(f32::NAN, clamp.0, clamp.1);
                    expect[i * n..(i + 1) * n].fill(nan);
                }
            }
            let case = KernelCase {
                p,
                rhs_packer: packer,
            };
            cases += tester::check_problem::<Qai8dxp>(depth, k, &case, clamp, &expect, &[which]);
        }
    }
    cases
}

#[test]
fn hostile_data_matches_reference() {
    hostile::check_exported_and_portable(runnable(), family_kernels(), check_hostile);
}

fn check_kernel(k: &MatmulKernel, implementations: &[Impl]) -> usize {
    let packers = rhs_packers(k);
    let problems = shapes(k)
        .into_iter()
        .enumerate()
        .flat_map(|(seed, (m, n, kk, bl))| {
            let packers = &packers;
            [false, true].map(move |with_bias| KernelCase {
                p: Problem::new(k, m, n, kk, bl, with_bias, 100 + seed as u64),
                rhs_packer: packers[(seed + with_bias as usize) % packers.len()],
            })
        });
    tester::check_kernel::<Qai8dxp>(k, problems, implementations)
}

reference_tests!(
    runnable: runnable(),
    all: family_kernels(),
    check: |k, which| check_kernel(k, &[which]),
    family: Qai8dxp,
    threads: |k, (m, n)| {
        let (kk, bl) = blocked(k, 200, 1);
        let p = Problem::new(k, m, n, kk, bl, true, 77);
        let rhs_packer = rhs_packers(k)[0];
        KernelCase { p, rhs_packer }
    },
    registers: |k| {
        let shapes = [(1, 8, 32), (9, 17, 65), (16, 32, 64)];
        let rhs_packer = rhs_packers(k)[0];
        let case = |(m, n, kk)| {
            let (kk, bl) = blocked(k, kk, 1);
            let p = Problem::new(k, m, n, kk, bl, true, 5);
            KernelCase { p, rhs_packer }
        };
        shapes.map(case).into()
    },
);

mod random_shapes {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random shapes and data: packed bytes and results equal the reference.
        #[test]
        fn random_problems_match_reference(m in 1usize..40, n in 1usize..40, kk in 1usize..130, seed in any::<u64>(), bias in any::<bool>()) {
            for k in runnable_quiet() {
                let t = k.tile();
                let (kk, bl) = blocked(k, kk, seed as usize);
                let p = Problem::new(k, m, n, kk, bl, bias, seed);
                let (lq, rows) = p.quantized();
                let lhs = pack_lhs(&p, t.mr, t.kr, t.sr, Edge::End);
                let mut expect_lhs = vec![0u8; lhs.bytes().len()];
                reference::pack::qai8dxp(m, kk, t.mr, t.kr, t.sr, &lq, &rows, &mut expect_lhs);
                prop_assert_eq!(lhs.bytes(), &expect_lhs[..]);
                let packers = rhs_packers(k);
                let packer = packers[seed as usize % packers.len()];
                let rhs = pack_rhs(&p, packer, 8, t.nr, t.kr, t.sr, Edge::End);
                let expect_rhs = expected_rhs(k, &p, rhs.bytes().len(), packer.0);
                prop_assert_eq!(rhs.bytes(), &expect_rhs[..]);
                let clamp = (-2.0, 2.5);
                let expect = expected_dst(&p, &t, k.epilogue, packer.0, &lq, &rows, clamp);
                let case = KernelCase { p, rhs_packer: packer };
                tester::check_portion::<Qai8dxp>(k, Impl::Exported, &case, (&lhs, &rhs), (0, 0, m, n), clamp, &expect, Edge::End);
            }
        }
    }
}

#[test]
fn packers_round_k_to_32_whatever_kr_and_sr() {
    // KleidiAI 1.30 pads K to whole 32-value chunks for every kernel's kr/sr (kernels with
    // kr = 8, sr = 2 rely on it), so sizes for k = 36 use 64 K values.
    for (kr, sr) in [(8, 2), (16, 2), (4, 1), (8, 1)] {
        let lhs = sym::<Getter5>("get_lhs_packed_size", LHS_PACKER)(5, 36, 4, kr, sr);
        assert_eq!(lhs, 2 * 4 * (64 + 8), "LHS kr={kr} sr={sr}");
        for (packer, _) in INT4_RHS_PACKERS {
            let rhs = sym::<Getter5>("get_rhs_packed_size", packer)(9, 36, 4, kr, sr);
            assert_eq!(rhs, 3 * 4 * (32 + 12), "{packer} kr={kr} sr={sr}");
        }
    }
}

/// `x` rounded to bf16 or f16 bits.
fn to_half(x: f32, bf16: bool) -> u16 {
    if bf16 {
        half::bf16::from_f32(x).to_bits()
    } else {
        half::f16::from_f32(x).to_bits()
    }
}

/// The value of bf16 or f16 `bits`.
fn from_half(bits: u16, bf16: bool) -> f32 {
    if bf16 {
        half::bf16::from_bits(bits).to_f32()
    } else {
        half::f16::from_bits(bits).to_f32()
    }
}

/// `kai_lhs_quant_pack_qai8dxp_{f16,bf16}_neon` produce exactly the f32 packer's bytes for the
/// widened values (KleidiAI: "the identical format"), which the reference also checks.
#[test]
fn half_precision_lhs_packers_match_f32_packer_on_widened_input() {
    let mut cases = 0;
    for k in family_kernels() {
        let t = k.tile();
        for (name, bf16) in [
            ("lhs_quant_pack_qai8dxp_f16_neon", false),
            ("lhs_quant_pack_qai8dxp_bf16_neon", true),
        ] {
            if bf16 && t.kr / t.sr != 8 {
                continue; // the bf16 packer supports only 8-deep blocks
            }
            for (seed, &(m, n, kk)) in PACK_SHAPES.iter().enumerate() {
                for edge in EDGES {
                    let mut p = Problem::new(k, m, n, kk, 0, false, 300 + seed as u64);
                    let bits: Vec<u16> = p.lhs.iter().map(|&x| to_half(x, bf16)).collect();
                    p.lhs = bits.iter().map(|&b| from_half(b, bf16)).collect();
                    let expect = pack_lhs(&p, t.mr, t.kr, t.sr, edge);
                    let src: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
                    let src = Guarded::from_bytes(&src, edge);
                    let size = sym::<Getter5>("get_lhs_packed_size", name)(m, kk, t.mr, t.kr, t.sr);
                    assert_eq!(size, expect.bytes().len());
                    let mut packed = Guarded::new(size, edge);
                    // SAFETY: buffers sized from the getters; f16/bf16 rows of 2 * k bytes.
                    unsafe {
                        sym::<support::cabi::LhsQuantPackHalfFn>("run", name)(
                            m,
                            kk,
                            t.mr,
                            t.kr,
                            t.sr,
                            0,
                            src.ptr().cast(),
                            2 * kk,
                            packed.mut_ptr().cast(),
                        )
                    };
                    assert_eq!(
                        packed.bytes(),
                        expect.bytes(),
                        "{name} for {} m={m} k={kk}",
                        k.stem
                    );
                    cases += 1;
                }
            }
        }
    }
    eprintln!("half-precision LHS packing cases: {cases}");
}

/// Per-block packers with hostile scales (infinities, NaNs, the largest finite and subnormal
/// bf16 values, signed zeros): packed bytes, row sums included, still equal the reference's,
/// which follows each packer's order of f32 operations.
#[test]
fn block_packers_match_reference_on_non_finite_scales() {
    const SCALES: [u16; 9] = [
        0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x7f7f, 0x0001, 0x0000, 0x8000,
    ];
    let mut cases = 0;
    for k in family_kernels().filter(|k| k.family.is_blockwise()) {
        let t = k.tile();
        for (seed, &(n, kk, bl)) in [(5, 64, 32), (9, 128, 64), (16, 256, 128)]
            .iter()
            .enumerate()
        {
            let mut p = Problem::new(k, 1, n, kk, bl, true, 900 + seed as u64);
            for (i, s) in p.block_scale.iter_mut().enumerate() {
                if i % 3 != 1 {
                    *s = SCALES[(i + seed) % SCALES.len()];
                }
            }
            for packer in rhs_packers(k) {
                let size = rhs_packed_size(&p, packer.0, t.nr, t.kr, t.sr);
                let expect = expected_rhs(k, &p, size, packer.0);
                let packed = pack_rhs(&p, packer, 8, t.nr, t.kr, t.sr, Edge::End);
                assert_eq!(
                    packed.bytes(),
                    &expect[..],
                    "{} n={n} k={kk} bl={bl}",
                    packer.0
                );
                cases += 1;
            }
        }
    }
    eprintln!("non-finite scale packings: {cases}");
}

/// `kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon` (the format of the SME2 `qsi4cxp` kernels)
/// against the reference, for small nr/kr and both zero points (the kernels' own tiles are
/// covered by `packers_match_reference_bytes`).
#[test]
fn sequential_nibble_int4_packer_matches_reference_bytes() {
    const NAME: &str = "rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon";
    let int4 = KERNELS[0];
    let mut cases = 0;
    for (nr, kr, sr) in [(4, 4, 1), (8, 4, 1), (16, 8, 1), (64, 4, 1), (32, 8, 2)] {
        for (seed, &(_, n, kk)) in PACK_SHAPES.iter().enumerate() {
            for zp in [0u8, 8] {
                for with_bias in [false, true] {
                    for edge in EDGES {
                        let p = Problem::new(int4, 1, n, kk, 0, with_bias, 500 + seed as u64);
                        let size = sym::<Getter5>("get_rhs_packed_size", NAME)(n, kk, nr, kr, sr);
                        let mut expect = vec![0u8; size];
                        reference::pack_qsi4cxps1s0(
                            n,
                            kk,
                            nr,
                            kr,
                            &p.w,
                            &p.scale,
                            p.bias.as_deref(),
                            &mut expect,
                        );
                        let packed = pack_rhs(&p, (NAME, false), zp, nr, kr, sr, edge);
                        assert_eq!(
                            packed.bytes(),
                            &expect[..],
                            "nr={nr} kr={kr} n={n} k={kk} zp={zp}"
                        );
                        cases += 1;
                    }
                }
            }
        }
    }
    eprintln!("sequential-nibble packer cases: {cases}");
}

/// Signalling NaN clamp bounds, on the SME kernels: SME2's `FCLAMP` on f32 turns a signalling
/// NaN lower bound into the upper bound and a signalling upper bound into NaN; the f16 `qsi4cxp`
/// kernels narrow result and bounds first, which quiets the bound, so it is ignored (the
/// reference applies each kernel's `Clamp`).
#[test]
fn streaming_kernels_follow_their_clamp_on_signalling_nan_bounds() {
    let snan = f32::from_bits(0x7f80_0001);
    let mut cases = 0;
    for k in runnable_quiet()
        .into_iter()
        .filter(|k| k.isa.is_streaming())
    {
        let t = k.tile();
        let (kk, bl) = blocked(k, 64, 1);
        let p = Problem::new(k, 5, 13, kk, bl, true, 77);
        let (lq, rows) = p.quantized();
        let packer = rhs_packers(k)[0];
        let lhs = pack_lhs(&p, t.mr, t.kr, t.sr, Edge::End);
        let rhs = pack_rhs(&p, packer, 8, t.nr, t.kr, t.sr, Edge::End);
        let case = KernelCase {
            p,
            rhs_packer: packer,
        };
        for clamp in [(snan, 2.0), (-2.0, snan), (snan, snan)] {
            let expect = expected_dst(&case.p, &t, k.epilogue, packer.0, &lq, &rows, clamp);
            tester::check_portion::<Qai8dxp>(
                k,
                Impl::Exported,
                &case,
                (&lhs, &rhs),
                (0, 0, case.p.m, case.p.n),
                clamp,
                &expect,
                Edge::End,
            );
            cases += 1;
        }
    }
    eprintln!("signalling-NaN bound cases: {cases}");
}

/// Every SME kernel commits a caller's pending lazy ZA save before using ZA, and so does
/// `kai_commit_za` ([`tester::lazy_za_saves_committed`]).
#[cfg(target_arch = "aarch64")]
#[test]
fn streaming_kernels_commit_a_pending_lazy_za_save() {
    let ran = tester::lazy_za_saves_committed::<Qai8dxp>(&runnable_quiet(), |k| {
        let (kk, bl) = blocked(k, 40, 1);
        KernelCase {
            p: Problem::new(k, 3, k.tile().n_step + 1, kk, bl, true, 77),
            rhs_packer: rhs_packers(k)[0],
        }
    });
    let Some(kernels) = ran else { return };
    // (Runs narrowed by RKAI_TEST_KERNEL, such as the SVE vector-length steps, may have none.)
    if std::env::var_os("RKAI_TEST_KERNEL").is_none() {
        assert!(kernels > 0, "SME present but no SME kernel ran");
    }
}
