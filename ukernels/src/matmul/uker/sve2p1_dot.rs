//! `kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot` (see `super`): f16 rows times the
//! RHS of `rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve` (blocks of `nr` = 16 x vscale columns: `nr`
//! f16 biases, then per pair of K rows `nr` interleaved pairs), f16 out, with SVE2.1's 2-way
//! `FDOT` (f16 pairs into f32 lanes) outside streaming mode.
//!
//! Numerics (KleidiAI's order, which this asm keeps): each output starts from its column's bias
//! widened to f32 (`FCVT`), takes one `FDOT` step per K pair in K order (the pair's two products
//! summed and rounded once to f32, then added to the sum with a second rounding:
//! [`crate::float::f16::fdot`]; an odd K's last pair is the last value times the packer's zero
//! row, the LHS lane past K loaded as +0), is narrowed to f16 by `FCVT` (ties to even) and, with
//! the clamp flag, clamped by `FCLAMP` ([`crate::float::f16::clamp_num`]) to the f32 bounds
//! narrowed to f16 the same way. Rows are independent, so the tiling is free: the asm takes up to
//! six rows per call (24 f32 accumulators, four vectors per row: `nr` columns) and walks the
//! column blocks, eight K values (four pairs, one `LD1RQH` per row) per step.
//!
//! Without SVE2.1 the portable path gives the same bits, with the blocks of the CPU's SVE length
//! (128-bit without SVE), as the packer lays them out.

use crate::contract::{self, Violation};
use crate::float::f16;
use crate::matmul_types::kai_matmul_uker_args;

/// Rows one asm call takes.
pub const ROWS: usize = 6;

/// Bytes of one value (LHS, RHS, bias, destination).
pub const BYTES: usize = 2;

/// K values per packed pair.
pub const KR: usize = 2;

/// Halves of one packed block of `nr` columns for `k` rows: the biases, then the pairs.
fn block_halves(nr: usize, k: usize) -> usize {
    nr * (1 + k.div_ceil(KR) * KR)
}

/// The clamp bounds as the kernel applies them: f32 narrowed to f16 (`FCVT`).
pub fn half_bounds(clamp: Option<(f32, f32)>) -> Option<(u16, u16)> {
    clamp.map(|(lo, hi)| (f16::from_f32(lo), f16::from_f32(hi)))
}

/// The pointers of one call: `m` rows of `n` outputs at `dst` (rows `dst_row` bytes apart) from
/// the LHS rows at `lhs` (`lhs_row` bytes apart).
#[derive(Clone, Copy)]
pub struct Call {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// Values per LHS row.
    pub k: usize,
    /// The first LHS row.
    pub lhs: *const u8,
    /// Bytes from one LHS row to the next.
    pub lhs_row: usize,
    /// The first packed block.
    pub rhs: *const u8,
    /// The first output row.
    pub dst: *mut u8,
    /// Bytes from one output row to the next.
    pub dst_row: usize,
}

/// The computation in scalar code, the same bits as the asm, over blocks of `nr` columns.
///
/// # Safety
/// `c` satisfies [`super::run`]'s contract with blocks of `nr` columns.
pub unsafe fn portable(c: &Call, nr: usize, clamp: Option<(f32, f32)>) {
    let bounds = half_bounds(clamp);
    let block = block_halves(nr, c.k);
    let rhs = c.rhs.cast::<u16>();
    for i in 0..c.m {
        let lhs = c.lhs.wrapping_add(i * c.lhs_row).cast::<u16>();
        let dst = c.dst.wrapping_add(i * c.dst_row).cast::<u16>();
        for j in 0..c.n {
            let (b, col) = (rhs.wrapping_add((j / nr) * block), j % nr);
            // SAFETY: column j's bias and pairs lie in its block; row i holds k values and n
            // outputs.
            unsafe {
                let mut acc = f32::from_bits(f16::to_f32_bits(b.add(col).read_unaligned()));
                for p in 0..c.k.div_ceil(KR) {
                    let w = b.add(nr + p * KR * nr + KR * col);
                    let x0 = lhs.add(KR * p).read_unaligned();
                    let x1 = if KR * p + 1 < c.k {
                        lhs.add(KR * p + 1).read_unaligned()
                    } else {
                        0
                    };
                    let pair = [w.read_unaligned(), w.add(1).read_unaligned()];
                    acc = f16::fdot(acc, pair, [x0, x1]);
                }
                let mut y = f16::from_f32(acc);
                if let Some((lo, hi)) = bounds {
                    y = f16::clamp_num(y, lo, hi);
                }
                dst.add(j).write_unaligned(y);
            }
        }
    }
}

/// The accumulators of row `$r` (0-5) for the RHS vector `$q` (0-3) of a K pair, as text.
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! acc {
    (0, 0) => { "z8" };  (0, 1) => { "z9" };  (0, 2) => { "z10" }; (0, 3) => { "z11" };
    (1, 0) => { "z12" }; (1, 1) => { "z13" }; (1, 2) => { "z14" }; (1, 3) => { "z15" };
    (2, 0) => { "z16" }; (2, 1) => { "z17" }; (2, 2) => { "z18" }; (2, 3) => { "z19" };
    (3, 0) => { "z20" }; (3, 1) => { "z21" }; (3, 2) => { "z22" }; (3, 3) => { "z23" };
    (4, 0) => { "z24" }; (4, 1) => { "z25" }; (4, 2) => { "z26" }; (4, 3) => { "z27" };
    (5, 0) => { "z28" }; (5, 1) => { "z29" }; (5, 2) => { "z30" }; (5, 3) => { "z31" };
}

/// `FDOT` of RHS vector `$q` (in `$z`) by pair `$i` of every row's LHS quadword (z0-z5).
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! fdot_rows {
    ($z:literal, $q:tt, $i:literal) => {
        concat!(
            "fdot ", acc!(0, $q), ".s, ", $z, ".h, z0.h[", $i, "]\n",
            "fdot ", acc!(1, $q), ".s, ", $z, ".h, z1.h[", $i, "]\n",
            "fdot ", acc!(2, $q), ".s, ", $z, ".h, z2.h[", $i, "]\n",
            "fdot ", acc!(3, $q), ".s, ", $z, ".h, z3.h[", $i, "]\n",
            "fdot ", acc!(4, $q), ".s, ", $z, ".h, z4.h[", $i, "]\n",
            "fdot ", acc!(5, $q), ".s, ", $z, ".h, z5.h[", $i, "]\n",
        )
    };
}

/// One K pair (`$i` of the quadword): its four RHS vectors (z6, z7 in turn) into all rows, then
/// the RHS pointer past them.
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! pair_step {
    ($i:literal) => {
        concat!(
            "ld1h {{z6.h}}, p5/z, [{rhs}]\n",
            "ld1h {{z7.h}}, p5/z, [{rhs}, #1, mul vl]\n",
            fdot_rows!("z6", 0, $i),
            "ld1h {{z6.h}}, p5/z, [{rhs}, #2, mul vl]\n",
            fdot_rows!("z7", 1, $i),
            "ld1h {{z7.h}}, p5/z, [{rhs}, #3, mul vl]\n",
            fdot_rows!("z6", 2, $i),
            fdot_rows!("z7", 3, $i),
            "addvl {rhs}, {rhs}, #4\n",
        )
    };
}

/// A row's four accumulators narrowed to f16 in place (`FCVT`, ties to even).
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! narrow_row {
    ($r:tt) => {
        concat!(
            "fcvt ", acc!($r, 0), ".h, p5/m, ", acc!($r, 0), ".s\n",
            "fcvt ", acc!($r, 1), ".h, p5/m, ", acc!($r, 1), ".s\n",
            "fcvt ", acc!($r, 2), ".h, p5/m, ", acc!($r, 2), ".s\n",
            "fcvt ", acc!($r, 3), ".h, p5/m, ", acc!($r, 3), ".s\n",
        )
    };
}

/// A row's four accumulators clamped to z0 (lower) and z1 (upper).
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! clamp_row {
    ($r:tt) => {
        concat!(
            "fclamp ", acc!($r, 0), ".h, z0.h, z1.h\n",
            "fclamp ", acc!($r, 1), ".h, z0.h, z1.h\n",
            "fclamp ", acc!($r, 2), ".h, z0.h, z1.h\n",
            "fclamp ", acc!($r, 3), ".h, z0.h, z1.h\n",
        )
    };
}

/// Row `$r`'s columns of the block stored under p4-p1 at its destination pointer (slot `6 + $r`
/// of `{ptrs}`) plus `{doff}`; then to `5f` when it was the last row.
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! store_row {
    ($r:tt, $slot:literal, $last:literal) => {
        concat!(
            "ldr {d}, [{ptrs}, #", $slot, "]\n",
            "add {d}, {d}, {doff}\n",
            "st1h {{", acc!($r, 0), ".s}}, p4, [{d}]\n",
            "st1h {{", acc!($r, 1), ".s}}, p3, [{d}, #1, mul vl]\n",
            "st1h {{", acc!($r, 2), ".s}}, p2, [{d}, #2, mul vl]\n",
            "st1h {{", acc!($r, 3), ".s}}, p1, [{d}, #3, mul vl]\n",
            "cmp {rows}, #", $last, "\n",
            "b.le 5f\n",
        )
    };
}

/// A row's accumulators set from row 0's (the block's biases).
#[cfg(target_arch = "aarch64")]
#[cfg(target_arch = "aarch64")]
#[rustfmt::skip]
macro_rules! copy_bias {
    ($r:tt) => {
        concat!(
            "mov ", acc!($r, 0), ".d, z8.d\n",
            "mov ", acc!($r, 1), ".d, z9.d\n",
            "mov ", acc!($r, 2), ".d, z10.d\n",
            "mov ", acc!($r, 3), ".d, z11.d\n",
        )
    };
}

/// Up to six rows (`c.m`, 1..=6) of the call with the asm.
///
/// # Safety
/// The CPU implements SVE2.1; `c` satisfies [`super::run`]'s contract with `1 <= c.m <= 6`,
/// `c.n >= 1` and blocks of `nr` = the SVE length in bytes.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "sve2")]
pub unsafe fn rows(c: &Call, bounds: Option<(u16, u16)>) {
    // Rows past m read row 0 (never stored); slots 6-11 are the destination rows.
    let mut ptrs = [0usize; 2 * ROWS];
    for r in 0..ROWS {
        let row = if r < c.m { r } else { 0 };
        ptrs[r] = c.lhs.wrapping_add(row * c.lhs_row) as usize;
        ptrs[ROWS + r] = c.dst.wrapping_add(row * c.dst_row) as usize;
    }
    let (lo, hi) = bounds.unwrap_or((0, 0));
    let noclamp = usize::from(bounds.is_none());
    // SAFETY: the caller's contract: rows 0..m of k values (LD1RQH under a whilelt predicate
    // reads none past K), ceil(n / nr) contiguous packed blocks (the loads walk them in order and
    // stop at the last one's end), m rows of n writable outputs (stores under whilelt predicates
    // of the columns below n, rows below m). Every Z and P register used is declared clobbered.
    unsafe {
        asm_clobbering_all_vectors!(
            ".arch_extension sve2p1",
            "ptrue p5.b",
            "mov {col}, #0",
            "mov {doff}, #0",
            // Column block: predicates of its four vectors, then its biases in row 0's four
            // accumulators (f16 widened), copied to the other rows.
            "1:",
            "whilelt p4.s, {col}, {n}",
            "incw {col}",
            "whilelt p3.s, {col}, {n}",
            "incw {col}",
            "whilelt p2.s, {col}, {n}",
            "incw {col}",
            "whilelt p1.s, {col}, {n}",
            "incw {col}",
            "ld1h {{z8.s}}, p5/z, [{rhs}]",
            "ld1h {{z9.s}}, p5/z, [{rhs}, #1, mul vl]",
            "ld1h {{z10.s}}, p5/z, [{rhs}, #2, mul vl]",
            "ld1h {{z11.s}}, p5/z, [{rhs}, #3, mul vl]",
            "addvl {rhs}, {rhs}, #2",
            "fcvt z8.s, p5/m, z8.h",
            "fcvt z9.s, p5/m, z9.h",
            "fcvt z10.s, p5/m, z10.h",
            "fcvt z11.s, p5/m, z11.h",
            copy_bias!(1),
            copy_bias!(2),
            copy_bias!(3),
            copy_bias!(4),
            copy_bias!(5),
            "ldp {a0}, {a1}, [{ptrs}]",
            "ldp {a2}, {a3}, [{ptrs}, #16]",
            "ldp {a4}, {a5}, [{ptrs}, #32]",
            "mov {kk}, {k}",
            "cbz {kk}, 3f",
            // Eight K values per step: each row's quadword (zeros past K), then its four pairs
            // while K values remain.
            "2:",
            "whilelt p0.h, xzr, {kk}",
            "ld1rqh {{z0.h}}, p0/z, [{a0}]",
            "ld1rqh {{z1.h}}, p0/z, [{a1}]",
            "ld1rqh {{z2.h}}, p0/z, [{a2}]",
            "ld1rqh {{z3.h}}, p0/z, [{a3}]",
            "ld1rqh {{z4.h}}, p0/z, [{a4}]",
            "ld1rqh {{z5.h}}, p0/z, [{a5}]",
            "add {a0}, {a0}, #16",
            "add {a1}, {a1}, #16",
            "add {a2}, {a2}, #16",
            "add {a3}, {a3}, #16",
            "add {a4}, {a4}, #16",
            "add {a5}, {a5}, #16",
            pair_step!("0"),
            "subs {kk}, {kk}, #2",
            "b.le 3f",
            pair_step!("1"),
            "subs {kk}, {kk}, #2",
            "b.le 3f",
            pair_step!("2"),
            "subs {kk}, {kk}, #2",
            "b.le 3f",
            pair_step!("3"),
            "subs {kk}, {kk}, #2",
            "b.gt 2b",
            // Narrow, clamp, store the rows below m.
            "3:",
            narrow_row!(0),
            narrow_row!(1),
            narrow_row!(2),
            narrow_row!(3),
            narrow_row!(4),
            narrow_row!(5),
            "cbnz {noclamp}, 4f",
            "dup z0.h, {lo:w}",
            "dup z1.h, {hi:w}",
            clamp_row!(0),
            clamp_row!(1),
            clamp_row!(2),
            clamp_row!(3),
            clamp_row!(4),
            clamp_row!(5),
            "4:",
            store_row!(0, "48", "1"),
            store_row!(1, "56", "2"),
            store_row!(2, "64", "3"),
            store_row!(3, "72", "4"),
            store_row!(4, "80", "5"),
            store_row!(5, "88", "6"),
            "5:",
            "addvl {doff}, {doff}, #2",
            "cmp {col}, {n}",
            "b.lt 1b",
            col = out(reg) _,
            doff = out(reg) _,
            kk = out(reg) _,
            d = out(reg) _,
            a0 = out(reg) _,
            a1 = out(reg) _,
            a2 = out(reg) _,
            a3 = out(reg) _,
            a4 = out(reg) _,
            a5 = out(reg) _,
            rhs = inout(reg) c.rhs => _,
            n = in(reg) c.n,
            k = in(reg) c.k,
            rows = in(reg) c.m,
            ptrs = in(reg) ptrs.as_ptr(),
            noclamp = in(reg) noclamp,
            lo = in(reg) u32::from(lo),
            hi = in(reg) u32::from(hi),
            out("p0") _, out("p1") _, out("p2") _, out("p3") _, out("p4") _, out("p5") _,
        )
    };
}

/// KleidiAI's assumptions on the strides and depth of a call, in its order (after the null
/// operands).
pub fn check_strides(args: &kai_matmul_uker_args) -> Result<(), Violation> {
    let o = &args.operand;
    contract::require(
        o.lhs.stride.m % BYTES == 0,
        "args->operand.lhs.stride.m % LHS_ELEM_BYTES == 0",
    )?;
    contract::require(
        o.dst.stride.m % BYTES == 0,
        "args->operand.dst.stride.m % DST_ELEM_BYTES == 0",
    )?;
    contract::require(
        args.shape.k <= u32::MAX as usize,
        "args->shape.k <= UINT32_MAX",
    )
}
