//! The harness of the generic-interface kernel tests (`kai_matmul.h`, `tests/matmul_uker*.rs`):
//! one kernel's descriptor table called as a C caller calls it. A test file keeps what is its
//! kernel's own (reference, packing, getter formulas, shapes, death conditions); this module
//! gives the rest:
//!
//! - [`Uker`]: a provider, its name and the `config` passed to every call; its getters by name
//!   ([`Uker::step`], the strides, offsets and `get_dst_size`) and [`Uker::run`], through the
//!   register-canary frame on aarch64.
//! - [`args`]: the run arguments of a shape (flags, the three operand pointers, clamp bounds);
//!   strides are the caller's to set (KleidiAI's GEMVs ignore them, its GEMMs read them).
//! - [`Nulls`] and [`Nulls::apply`]: the null-pointer death cases every kernel shares.

use rkai_ukernels::matmul_types::*;
use std::ptr;

/// `KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP` as the `flags` field holds it.
pub const CLAMP: u64 = kai_matmul_uker_flags_args::KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP as u64;

/// One kernel's table as its provider returns it.
#[derive(Clone, Copy)]
pub struct Uker {
    /// The provider's C name (death-test messages name it).
    pub name: &'static str,
    /// The provider function (`rkai_capi::capi::exports::<name>`).
    pub provider: extern "C" fn() -> kai_matmul_uker_api,
    /// The `config` every call passes (`format.bl` for block-quantized kernels).
    pub config: kai_matmul_uker_config,
}

/// A portion of a problem: rows `m0..m0 + mh`, columns `n0..n0 + nw`.
pub type Portion = (usize, usize, usize, usize);

impl Uker {
    /// A kernel whose format has no block length.
    pub const fn new(name: &'static str, provider: extern "C" fn() -> kai_matmul_uker_api) -> Self {
        let config = kai_matmul_uker_config {
            format: kai_matmul_uker_format_config { bl: 0 },
        };
        Uker {
            name,
            provider,
            config,
        }
    }

    /// The run arguments of `portion` of a problem `k` deep (starts multiples of the steps):
    /// [`args`] with the operands and destination moved there through the offset getters and
    /// the strides `ls`, `rs` and `ds` passed.
    pub fn portion_args<T>(
        &self,
        (flags, portion, k): (u64, Portion, usize),
        (lhs, ls, rhs, rs): (*const u8, usize, *const u8, usize),
        (dst, ds): (*mut u8, usize),
        bounds: (&T, &T),
    ) -> kai_matmul_uker_args {
        let (m0, mh, n0, nw) = portion;
        let (l, r, d) = (
            lhs.wrapping_add(self.lhs_offset(m0, 0, ls)),
            rhs.wrapping_add(self.rhs_offset(n0, 0, rs)),
            dst.wrapping_add(self.dst_offset(m0, n0, ds)),
        );
        let mut a = args(flags, (mh, nw, k), (l, r, d), bounds);
        a.operand.lhs.stride.m = ls;
        a.operand.rhs.stride.n = rs;
        a.operand.dst.stride.m = ds;
        a
    }

    /// The table.
    pub fn api(&self) -> kai_matmul_uker_api {
        (self.provider)()
    }

    /// `get_step`.
    pub fn step(&self) -> kai_matmul_uker_dim_args {
        // SAFETY: the getter reads only `config`.
        unsafe { (self.api().get_step.unwrap())(&self.config) }
    }

    /// `get_lhs_stride` of an `m` x `k` LHS.
    pub fn lhs_stride(&self, m: usize, k: usize) -> usize {
        let shape = kai_matmul_uker_lhs_dim_args { m, k };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_lhs_stride.unwrap())(&self.config, &shape) }.m
    }

    /// `get_rhs_stride` of an `n` x `k` RHS.
    pub fn rhs_stride(&self, n: usize, k: usize) -> usize {
        let shape = kai_matmul_uker_rhs_dim_args { n, k };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_rhs_stride.unwrap())(&self.config, &shape) }.n
    }

    /// `get_dst_stride` of an `m` x `n` destination.
    pub fn dst_stride(&self, m: usize, n: usize) -> usize {
        let shape = kai_matmul_uker_dst_dim_args { m, n };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_dst_stride.unwrap())(&self.config, &shape) }.m
    }

    /// `get_lhs_offset` of `(m, k)` with row stride `stride`.
    pub fn lhs_offset(&self, m: usize, k: usize, stride: usize) -> usize {
        let index = kai_matmul_uker_lhs_dim_args { m, k };
        let stride = kai_matmul_uker_lhs_stride_args { m: stride };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_lhs_offset.unwrap())(&self.config, &index, &stride) }
    }

    /// `get_rhs_offset` of `(n, k)` with block stride `stride`.
    pub fn rhs_offset(&self, n: usize, k: usize, stride: usize) -> usize {
        let index = kai_matmul_uker_rhs_dim_args { n, k };
        let stride = kai_matmul_uker_rhs_stride_args { n: stride };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_rhs_offset.unwrap())(&self.config, &index, &stride) }
    }

    /// `get_dst_offset` of `(m, n)` with row stride `stride`.
    pub fn dst_offset(&self, m: usize, n: usize, stride: usize) -> usize {
        let index = kai_matmul_uker_dst_dim_args { m, n };
        let stride = kai_matmul_uker_dst_stride_args { m: stride };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_dst_offset.unwrap())(&self.config, &index, &stride) }
    }

    /// `get_dst_size` of an `m` x `n` destination with row stride `stride`.
    pub fn dst_size(&self, m: usize, n: usize, stride: usize) -> usize {
        let shape = kai_matmul_uker_dst_dim_args { m, n };
        let stride = kai_matmul_uker_dst_stride_args { m: stride };
        // SAFETY: the getter reads only the structs passed.
        unsafe { (self.api().get_dst_size.unwrap())(&self.config, &shape, &stride) }
    }

    /// Runs the table's `run` on `a`; on aarch64 through the register-canary frame, which
    /// fails the test when the call clobbers a callee-saved register.
    pub fn run(&self, a: &kai_matmul_uker_args) {
        let f = self.api().run.unwrap();
        #[cfg(target_arch = "aarch64")]
        {
            let mut c = super::abi::CallArgs::default();
            c.x[0] = ptr::from_ref(&self.config) as u64;
            c.x[1] = ptr::from_ref(a) as u64;
            // SAFETY: `run(config, args)` takes two pointers; the buffers are the caller's.
            let mask = unsafe { super::abi::call(f as usize, &c) };
            assert_eq!(
                mask,
                0,
                "{} clobbered {}",
                self.name,
                super::abi::describe(mask)
            );
        }
        #[cfg(not(target_arch = "aarch64"))]
        // SAFETY: valid arguments whose buffers the caller sized.
        unsafe {
            f(&self.config, a)
        };
    }
}

/// The run arguments of an `(m, n, k)` call: flags, operand pointers and the clamp bounds'
/// addresses (read as the kernel's element type); strides zero, bias and scale operands null.
pub fn args<T>(
    flags: u64,
    (m, n, k): (usize, usize, usize),
    (lhs, rhs, dst): (*const u8, *const u8, *mut u8),
    bounds: (&T, &T),
) -> kai_matmul_uker_args {
    // SAFETY: the struct is plain data (pointers, integers); all-zero is a valid value.
    let mut a: kai_matmul_uker_args = unsafe { std::mem::zeroed() };
    a.flags = flags;
    a.shape = kai_matmul_uker_dim_args { m, n, k };
    a.operand.lhs.ptr = lhs.cast();
    a.operand.rhs.ptr = rhs.cast();
    a.operand.dst.ptr = dst.cast();
    a.activation.clamp.min_ptr = ptr::from_ref(bounds.0).cast();
    a.activation.clamp.max_ptr = ptr::from_ref(bounds.1).cast();
    a
}

/// Which pointer of the run arguments a death case makes null.
#[derive(Clone, Copy, Debug)]
pub enum Nulls {
    /// No pointer: the arguments as built.
    None,
    /// `operand.lhs.ptr`.
    Lhs,
    /// `operand.rhs.ptr`.
    Rhs,
    /// `operand.dst.ptr`.
    Dst,
    /// `activation.clamp.min_ptr`.
    Min,
    /// `activation.clamp.max_ptr`.
    Max,
}

impl Nulls {
    /// Makes the named pointer of `a` null.
    pub fn apply(self, a: &mut kai_matmul_uker_args) {
        match self {
            Nulls::None => {}
            Nulls::Lhs => a.operand.lhs.ptr = ptr::null(),
            Nulls::Rhs => a.operand.rhs.ptr = ptr::null(),
            Nulls::Dst => a.operand.dst.ptr = ptr::null_mut(),
            Nulls::Min => a.activation.clamp.min_ptr = ptr::null(),
            Nulls::Max => a.activation.clamp.max_ptr = ptr::null(),
        }
    }

    /// KleidiAI's assertion text for the pointer.
    pub fn condition(self) -> &'static str {
        match self {
            Nulls::None => "",
            Nulls::Lhs => "args->operand.lhs.ptr != NULL",
            Nulls::Rhs => "args->operand.rhs.ptr != NULL",
            Nulls::Dst => "args->operand.dst.ptr != NULL",
            Nulls::Min => "args->activation.clamp.min_ptr != NULL",
            Nulls::Max => "args->activation.clamp.max_ptr != NULL",
        }
    }
}

/// The death cases every float kernel of the generic interface shares, as `support::death`
/// cases: the three refused `flags` values, the four offset-getter assumptions and the five null
/// pointers (the clamp bounds' only with the clamp flag). `$call(flags, nulls)` runs a valid call
/// of the kernel with those flags and that pointer made null; `KERNEL` (a [`Uker`]) and `NAME`
/// (its C name) are the test file's.
#[macro_export]
macro_rules! uker_float_violations {
    ($call:path) => {{
        use support::uker::{CLAMP, Nulls};
        const FLAGS: &str = "Only supported flags are accepted!";
        const N_STEP: &str = "index->n % get_n_step() == 0";
        let cases: Vec<support::death::Case<&'static str, &'static str>> = vec![
            ("flag_bit0", NAME, FLAGS, || $call(1, Nulls::None)),
            ("flag_high", NAME, FLAGS, || {
                $call(CLAMP | (1 << 40), Nulls::None)
            }),
            ("flag_next", NAME, FLAGS, || $call(CLAMP << 1, Nulls::None)),
            ("lhs_offset_k", NAME, "index->k == 0", || {
                KERNEL.lhs_offset(0, 1, 4);
            }),
            ("rhs_offset_n", NAME, N_STEP, || {
                KERNEL.rhs_offset(1, 0, 4);
            }),
            ("rhs_offset_k", NAME, "index->k == 0", || {
                KERNEL.rhs_offset(0, 2, 4);
            }),
            ("dst_offset_n", NAME, N_STEP, || {
                KERNEL.dst_offset(0, 1, 4);
            }),
            ("null_lhs", NAME, Nulls::Lhs.condition(), || {
                $call(0, Nulls::Lhs)
            }),
            ("null_rhs", NAME, Nulls::Rhs.condition(), || {
                $call(0, Nulls::Rhs)
            }),
            ("null_dst", NAME, Nulls::Dst.condition(), || {
                $call(0, Nulls::Dst)
            }),
            ("null_min", NAME, Nulls::Min.condition(), || {
                $call(CLAMP, Nulls::Min)
            }),
            ("null_max", NAME, Nulls::Max.condition(), || {
                $call(CLAMP, Nulls::Max)
            }),
        ];
        cases
    }};
}

/// The f32 values the float kernels' hostile tests draw from: infinities, NaNs (quiet with a
/// payload, signalling), signed zeros, the smallest subnormal, the largest finite values and one
/// whose products overflow.
pub const HOSTILE_F32: [f32; 11] = [
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::from_bits(0x7f80_0001),
    f32::from_bits(0xffc0_1234),
    -0.0,
    0.0,
    f32::from_bits(1),
    f32::MAX,
    -f32::MAX,
    1.0e30,
];

/// Operands for a hostile test's `round`: the LHS (`m` x `k`), the RHS (`k` x `n`) and the bias
/// (`n`), every third value one of `specials` (which third, and which special, move with
/// `round`), the others drawn by `random`.
pub fn hostile_operands<T: Copy>(
    specials: &[T],
    (m, n, k): (usize, usize, usize),
    round: usize,
    mut random: impl FnMut() -> T,
) -> [Vec<T>; 3] {
    let mut pick = |i: usize| {
        if (i + round) % 3 == 0 {
            specials[(i * 7 + round) % specials.len()]
        } else {
            random()
        }
    };
    let lhs = (0..m * k).map(&mut pick).collect();
    let rhs = (0..k * n).map(|i| pick(i + 1)).collect();
    let bias = (0..n).map(|i| pick(i + 2)).collect();
    [lhs, rhs, bias]
}

/// The streaming length in 32-bit lanes (4 without SME), checked against the QEMU model when the
/// test matrix names one: `mr`/`nr` of the SME kernels are multiples of it.
pub fn sme_lanes32() -> usize {
    let lanes = super::sme_pack::svl32();
    assert_eq!(lanes, rkai_ukernels::arch::sme_lanes32());
    lanes
}

/// KleidiAI's getter formulas of one kernel, as its test file states them.
pub struct Getters<'a> {
    /// `get_step`'s `m` and `n` (its `k` is 0: no kernel of the interface splits K).
    pub step: (usize, usize),
    /// Rows of one packed LHS block (1 where the LHS is plain rows).
    pub lhs_rows: usize,
    /// Columns of one packed RHS block (`nr`).
    pub rhs_cols: usize,
    /// `get_lhs_stride` for `k` (bytes from row or block to the next).
    pub lhs_stride: &'a dyn Fn(usize) -> usize,
    /// `get_rhs_stride` for `k` (bytes from block to block).
    pub rhs_stride: &'a dyn Fn(usize) -> usize,
    /// Bytes of one destination value.
    pub dst_bytes: usize,
}

impl<'a> Getters<'a> {
    /// A one-row GEMV's formulas: step 1 x `nr`, the LHS plain rows, RHS blocks of `nr` columns.
    pub fn gemv(
        nr: usize,
        (lhs_stride, rhs_stride): (&'a dyn Fn(usize) -> usize, &'a dyn Fn(usize) -> usize),
        dst_bytes: usize,
    ) -> Self {
        Getters {
            step: (1, nr),
            lhs_rows: 1,
            rhs_cols: nr,
            lhs_stride,
            rhs_stride,
            dst_bytes,
        }
    }
}

/// Checks `kernel`'s getters against `formulas` over edge shapes (K values around the packing
/// steps, N around the block width) and the offsets of blocks 0, 1 and 3 with strides wider than
/// the getters' (the offsets must follow the caller's stride). Returns the values checked (with
/// the `RELIABILITY getters` line the report collects).
pub fn check_getters(kernel: &Uker, formulas: &Getters) -> usize {
    let api = kernel.api();
    assert!(api.run.is_some() && api.get_dst_size.is_some());
    let step = kernel.step();
    assert_eq!(
        (step.m, step.n, step.k),
        (formulas.step.0, formulas.step.1, 0)
    );
    let (rows, nr) = (formulas.lhs_rows, formulas.rhs_cols);
    let mut checked = 1;
    for k in [0usize, 1, 2, 3, 4, 5, 7, 9, 64, 1000, 1001] {
        for n in [1, nr - 1, nr, nr + 1, 5 * nr + 3] {
            let (ls, rs, ds) = (
                kernel.lhs_stride(n, k),
                kernel.rhs_stride(n, k),
                kernel.dst_stride(3, n),
            );
            assert_eq!(
                ls,
                (formulas.lhs_stride)(k),
                "{} lhs stride k {k}",
                kernel.name
            );
            assert_eq!(
                rs,
                (formulas.rhs_stride)(k),
                "{} rhs stride k {k}",
                kernel.name
            );
            assert_eq!(
                ds,
                n * formulas.dst_bytes,
                "{} dst stride n {n}",
                kernel.name
            );
            for blk in [0, 1, 3] {
                assert_eq!(kernel.lhs_offset(blk * rows, 0, ls + 8), blk * (ls + 8));
                assert_eq!(kernel.rhs_offset(blk * nr, 0, rs + 8), blk * (rs + 8));
                let dst = kernel.dst_offset(blk * rows, step.n, ds + 8);
                assert_eq!(dst, blk * rows * (ds + 8) + step.n * formulas.dst_bytes);
                let m = blk * rows + 1;
                assert_eq!(kernel.dst_size(m, n, ds + 4), m * (ds + 4));
                checked += 4;
            }
            checked += 3;
        }
    }
    eprintln!(
        "{checked} getter values of {} equal KleidiAI's (nr {nr})",
        kernel.name
    );
    eprintln!("RELIABILITY getters {checked}");
    checked
}

/// The run arguments of a GEMV (a one-row kernel) with the three strides KleidiAI's GEMVs ignore
/// made hostile, so that reading one shows.
pub fn gemv_args(
    flags: u64,
    shape: (usize, usize, usize),
    operands: (*const u8, *const u8, *mut u8),
    bounds: (&f32, &f32),
) -> kai_matmul_uker_args {
    let mut a = args(flags, shape, operands, bounds);
    a.operand.lhs.stride.m = usize::MAX;
    a.operand.rhs.stride.n = 3;
    a.operand.dst.stride.m = 1;
    a
}

/// A valid one-row call of `kernel` over 4 columns (K 1) whose operands all hold `one` (a value's
/// little-endian bytes), with `flags`, `m` rows and the `nulls` pointer made null: the death
/// cases' call.
pub fn gemv_call(kernel: &Uker, one: &[u8], (flags, m, nulls): (u64, usize, Nulls)) {
    let x = one.repeat(64);
    let mut d = vec![0u8; x.len()];
    let mut a = gemv_args(
        flags,
        (m, 4, 1),
        (x.as_ptr(), x.as_ptr(), d.as_mut_ptr()),
        (&0.0, &1.0),
    );
    nulls.apply(&mut a);
    kernel.run(&a);
}

/// The death cases of a float GEMV: [`uker_float_violations!`]'s and `m` other than 1.
/// `$call(flags, m, nulls)` runs [`gemv_call`] of the test file's `KERNEL` (its C name `NAME`).
#[macro_export]
macro_rules! uker_gemv_violations {
    ($call:path) => {{
        use support::uker::{CLAMP, Nulls};
        fn one_row(flags: u64, nulls: Nulls) {
            $call(flags, 1, nulls)
        }
        const ONE_ROW: &str = "args->shape.m == 1";
        let mut cases = uker_float_violations!(one_row);
        cases.push(("m_zero", NAME, ONE_ROW, || $call(0, 0, Nulls::None)));
        cases.push(("m_two", NAME, ONE_ROW, || $call(CLAMP, 2, Nulls::None)));
        cases
    }};
}

/// One GEMV problem in bytes: `n` columns, `k` values, the LHS row, the packed RHS, the expected
/// destination row, the bytes of one value a destination starts filled with (a pattern no result
/// has), and the clamp bounds (`None`: no clamp flag, and bounds that would change the result
/// if read).
pub struct GemvCase<'a> {
    /// Columns.
    pub n: usize,
    /// Depth.
    pub k: usize,
    /// The LHS row (`k` values).
    pub lhs: &'a [u8],
    /// The RHS as the kernel's packer writes it.
    pub packed: &'a [u8],
    /// The destination row the reference gives.
    pub expect: &'a [u8],
    /// One destination value's fill bytes.
    pub fill: &'a [u8],
    /// The clamp bounds, if the clamp flag is set.
    pub clamp: Option<(f32, f32)>,
}

/// Runs a GEMV case at every guard-page edge: the whole row, then each portion (start columns
/// every block of `nr`, widths 1, a block and three blocks less one) through the getters, which
/// must write its columns and nothing else. Returns the runs.
pub fn check_gemv(kernel: &Uker, nr: usize, case: &GemvCase) -> usize {
    use super::guard::{EDGES, Guarded};
    let GemvCase { n, k, .. } = *case;
    let bytes = case.fill.len();
    let filled = case.fill.repeat(n);
    let (flags, lo, hi) = match case.clamp {
        Some((lo, hi)) => (CLAMP, lo, hi),
        None => (0, 1.0, -1.0),
    };
    let what = format!("{} n {n} k {k} clamp {:?}", kernel.name, case.clamp);
    let mut runs = 0;
    for edge in EDGES {
        let l = Guarded::from_bytes(case.lhs, edge);
        let r = Guarded::from_bytes(case.packed, edge);
        let mut d = Guarded::from_bytes(&filled, edge);
        let operands = (l.ptr(), r.ptr(), d.mut_ptr());
        kernel.run(&gemv_args(flags, (1, n, k), operands, (&lo, &hi)));
        assert_eq!(d.bytes(), case.expect, "{what} {edge:?}");
        runs += 1;
        let (rs, ds) = (kernel.rhs_stride(n, k), kernel.dst_stride(1, n));
        assert_eq!(kernel.lhs_offset(0, 0, kernel.lhs_stride(1, k)), 0);
        for (start, width) in gemv_portions(n, nr) {
            let mut out = Guarded::from_bytes(&filled, edge);
            let (ro, doff) = (
                kernel.rhs_offset(start, 0, rs),
                kernel.dst_offset(0, start, ds),
            );
            // SAFETY: the offsets stay inside the buffers (start < n, start % nr == 0).
            let (rp, dp) = unsafe { (r.ptr().add(ro), out.mut_ptr().add(doff)) };
            kernel.run(&gemv_args(
                flags,
                (1, width, k),
                (l.ptr(), rp, dp),
                (&lo, &hi),
            ));
            let (inside, got) = (start * bytes..(start + width) * bytes, out.bytes());
            assert_eq!(
                got[inside.clone()],
                case.expect[inside.clone()],
                "{what} portion {start}+{width}"
            );
            let outside = got[..inside.start].iter().chain(&got[inside.end..]);
            assert!(
                outside.eq(filled[..inside.start].iter().chain(&filled[inside.end..])),
                "{what}: portion {start}+{width} wrote outside"
            );
            runs += 1;
        }
    }
    runs
}

/// The clamp settings of the edge-shape tests: none, bounds that cut, and the widest finite ones.
pub const CLAMPS: [Option<(f32, f32)>; 3] = [None, Some((-0.75, 0.5)), Some((f32::MIN, f32::MAX))];

/// The clamp settings of the hostile tests: none, bounds that cut, infinite, inverted and NaN
/// bounds (what `FCLAMP` makes of each is the reference's to say).
pub const HOSTILE_CLAMPS: [Option<(f32, f32)>; 5] = [
    None,
    Some((-1.0, 1.0)),
    Some((f32::NEG_INFINITY, f32::INFINITY)),
    Some((2.0, -2.0)),
    Some((f32::NAN, 1.0)),
];

/// A GEMV sweep's widths and depths: every one of [`gemv_widths`] with the depths `full` where
/// `full_sweep()` says so, else a partial block and several four-block steps with a tail, with
/// the depths `quick`.
pub fn gemv_sweep<'a>(
    nr: usize,
    (full, quick): (&'a [usize], &'a [usize]),
) -> (Vec<usize>, &'a [usize]) {
    if super::sme_pack::full_sweep() {
        (gemv_widths(nr).to_vec(), full)
    } else {
        (vec![nr - 1, 5 * nr + 3], quick)
    }
}

/// The portions `(start, width)` of a GEMV's `n` columns in blocks of `nr`: starts every block
/// past the first, widths 1, a block and three blocks less one (cut at the row's end).
pub fn gemv_portions(n: usize, nr: usize) -> Vec<(usize, usize)> {
    (nr..n)
        .step_by(nr)
        .flat_map(|start| [1, nr, 3 * nr - 1].map(|width| (start, width.min(n - start))))
        .collect()
}

/// The GEMVs' edge widths for blocks of `nr` columns: one and two columns, a block and around
/// it, the four-block step of the streaming loop and around it, and several steps with a tail.
pub fn gemv_widths(nr: usize) -> [usize; 11] {
    [
        1,
        2,
        nr - 1,
        nr,
        nr + 1,
        2 * nr,
        3 * nr + 1,
        4 * nr,
        4 * nr + 1,
        5 * nr - 1,
        9 * nr + 3,
    ]
}

/// The shapes of a MOPA GEMM's sweep, blocks of `nr` rows and columns (a tile one or two of
/// them): every edge of two blocks and of the four-step K loop where `full_sweep()` says so,
/// else one full tile with partial ones beside it, one problem smaller than a tile and a
/// portion.
pub fn mopa_shapes(nr: usize) -> Vec<(usize, usize, usize)> {
    if super::sme_pack::full_sweep() {
        let mn = [1, nr - 1, nr + 1, 2 * nr, 2 * nr + 1, 4 * nr + 3];
        let mut out = Vec::new();
        for &m in &mn {
            for &n in &mn {
                for k in [1, 3, 4, 5, 8, 9, 17] {
                    if (m + n + k) % 3 == 0 || k == 9 {
                        out.push((m, n, k));
                    }
                }
            }
        }
        out
    } else {
        vec![
            (2 * nr + 1, 2 * nr + 3, 17),
            (3, nr + 1, 5),
            (4 * nr + 3, 3 * nr, 9),
        ]
    }
}

/// Portions `(m0, rows, n0, columns)` of an `m` x `n` problem with blocks of `nr`: starts past
/// the first block where there is one (so a portion starts on an odd block), widths up to the
/// end.
pub fn mopa_portions(m: usize, n: usize, nr: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    if m > nr && n > nr {
        out.push((nr, (m - nr).min(2 * nr + 1), nr, (n - nr).min(nr + 1)));
    }
    if n > 2 * nr {
        out.push((0, 1, 2 * nr, n - 2 * nr));
    }
    out
}

/// Prints a sweep's count: `runs` equal the reference, with the block width (`what`, `width`)
/// and whether the SME2 asm ran them (else the portable path did).
pub fn report_sme2_runs(runs: usize, (what, width): (&str, usize)) {
    eprintln!(
        "{runs} runs equal the reference ({what} {width}, SME2 asm: {})",
        asm_runs(rkai_ukernels::arch::Isa::Sme2)
    );
}

/// Whether the kernels of `isa` run their asm here (else the C table answers with the portable
/// path): the tests print it beside their counts.
pub fn asm_runs(isa: rkai_ukernels::arch::Isa) -> bool {
    cfg!(target_arch = "aarch64") && super::cpu::can_run(isa)
}
