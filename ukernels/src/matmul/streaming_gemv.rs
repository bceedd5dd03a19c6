//! The SME GEMVs whose LHS is not packed (KleidiAI's `1xNvl` float kernels: one LHS row, an RHS
//! packed with its bias in front): the declaration of such a kernel over
//! [`UnpackedLhsArgs`](super::args::UnpackedLhsArgs), whatever its element type, and the asm
//! fragments several of them share.
//!
//! A kernel file holds one `streaming_gemv_kernel!` whose body is one `streaming_asm!` block (see
//! [`super::streaming`]). The kernel computes row 0 only: its family's check has refused
//! `m != 1` (KleidiAI's `m == 1` assertion).

/// A clamp bound as a kernel of this form takes it: f32 as given, or f16 bits rounded as
/// KleidiAI's `FCVT Hd, Sn` rounds them.
pub trait Bound: Copy {
    /// The bound for `clamp_min` or `clamp_max`.
    fn from_clamp(x: f32) -> Self;
}

impl Bound for f32 {
    fn from_clamp(x: f32) -> f32 {
        x
    }
}

/// f16 bits.
impl Bound for u16 {
    fn from_clamp(x: f32) -> u16 {
        crate::float::f16::from_f32(x)
    }
}

/// Declares an SME GEMV with an unpacked LHS: `fn name(n, k, lhs, rhs_packed, dst, clamp_min:
/// T, clamp_max)` (`T`: a [`Bound`] type; `lhs` at the row, `rhs_packed` at the portion's first
/// column group, `dst` at its first element) and its `run` entry, which commits a pending lazy ZA
/// save before the kernel touches ZA.
macro_rules! streaming_gemv_kernel {
    ($(#[$a:meta])* fn $name:ident(
        $n:ident, $k:ident, $l:ident, $r:ident, $d:ident, $lo:ident: $bt:ty, $hi:ident $(,)?
    ) $body:block) => {
        asm_kernel!(@define [$(#[$a])*] $name(
            $n: usize, $k: usize, $l: *const u8, $r: *const u8, $d: *mut u8, $lo: $bt, $hi: $bt) {
                // SAFETY: the caller guarantees SME (the kernel's ISA) and the ABI's TPIDR2 block.
                unsafe { $crate::matmul::streaming::commit_lazy_za_save() };
                $body
            };
            |a| a.n, a.k, a.lhs, a.rhs_packed, a.dst,
            <$bt as $crate::matmul::streaming_gemv::Bound>::from_clamp(a.clamp_min),
            <$bt as $crate::matmul::streaming_gemv::Bound>::from_clamp(a.clamp_max));
    };
}

/// Sets up [`half_pairs_k_loop!`]: `p3` all true when `k` (x1) is not 0, all false when it is
/// (the loop's RHS loads are predicated by it); and x9 the bytes of one packed column group of
/// `nr` = 2 x SVL32 halves per row (its biases, then `ceil(k / 2)` pairs: `(1 + 2 * ceil(k / 2))`
/// vectors). Leaves x11 all ones when `k` is not 0 and 0 when it is (for other predicates of the
/// RHS loads, until the loop). Uses x10.
macro_rules! half_pairs_setup {
    () => {
        concat!(
            "cmp x1, #0\n",
            "csetm x11, ne\n",
            "whilelo p3.h, xzr, x11\n",
            "add x9, x1, #1\n",
            "lsr x9, x9, #1\n",
            "lsl x9, x9, #1\n",
            "add x9, x9, #1\n",
            "rdvl x10, #1\n",
            "mul x9, x9, x10\n",
        )
    };
}

/// The K loop of an f16 GEMV over pairs of K values, in K order: for each pair, z0 holds the
/// pair of LHS values in every 32-bit lane (`LD1RW`), then `$step` runs (its RHS loads
/// predicated by `p3/z`, see [`half_pairs_setup!`]). An odd K's last value is loaded alone into
/// the low half of each lane (`LD1RH` to 32-bit lanes: the high half is `+0`, and no byte past
/// the row is read), and `k == 0` runs `$step` once with z0 and every RHS load zero (nothing
/// read). Registers: x1 `k`, x2 the LHS row (kept), x10 and x11 scratch, p0 all true. Labels
/// 2 to 5.
macro_rules! half_pairs_k_loop {
    ($($step:literal),+ $(,)?) => {
        concat!(
            "mov x10, x2\n",
            "lsr x11, x1, #1\n",
            "cbz x11, 3f\n",
            "2:\n",
            "ld1rw {{z0.s}}, p0/z, [x10]\n",
            "add x10, x10, #4\n",
            $($step, "\n",)+
            "subs x11, x11, #1\n",
            "b.ne 2b\n",
            "3:\n",
            "cbz x1, 4f\n",
            "tbz x1, #0, 5f\n",
            "4:\n",
            "ld1rh {{z0.s}}, p3/z, [x10]\n",
            $($step, "\n",)+
            "5:\n",
        )
    };
}
