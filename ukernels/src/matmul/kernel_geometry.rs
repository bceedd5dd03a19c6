//! What the asm kernels compute from `k` (and `bl`) before their loops: pass counts and the byte
//! strides of the packed groups they walk. The formats are [`crate::layout`]'s, checked there
//! before any kernel runs; these are the kernels' unchecked forms of the same formulas, written
//! once instead of in every kernel. Each also asserts (in debug builds) what every kernel of its
//! kind requires: `m, n >= 1`, and for the blockwise ones `bl` a multiple of 32 dividing `k`.

/// Bytes of one packed qai8dxp LHS group of 4 rows: `k_int` int8 values per row, then 4 x i32
/// offsets and 4 x f32 scales.
const fn qai8dxp_group(k_int: usize) -> usize {
    4 * (k_int + 8)
}

/// Bytes per column of a per-channel RHS group (qsi8cxp, or qsi4cxp with `int4`): the column's
/// `k_int` values, then i32 rsum, f32 scale and f32 bias.
const fn per_channel_column(k_int: usize, int4: bool) -> usize {
    (if int4 { k_int / 2 } else { k_int }) + 12
}

/// Per-channel kernels (qai8dxp x qsi8cxp / qsi4cxp): `(passes, k_int, lhs_group, rhs_group)`:
/// 32-value K passes, K rounded up to them, the bytes of an LHS group of 4 rows and of an RHS
/// group of `nr` columns.
#[inline(always)]
pub(crate) fn per_channel(
    m: usize,
    n: usize,
    k: usize,
    nr: usize,
    int4: bool,
) -> (usize, usize, usize, usize) {
    debug_assert!(m >= 1 && n >= 1 && k >= 1);
    let passes = k.div_ceil(32);
    let k_int = passes * 32;
    (
        passes,
        k_int,
        qai8dxp_group(k_int),
        nr * per_channel_column(k_int, int4),
    )
}

/// Bytes per column of a qsi4c32p RHS group: per block `bl / 2` bytes of int4 values and a bf16
/// scale, then f32 rsum and bias.
const fn qsi4c32p_column(nb: usize, bl: usize) -> usize {
    nb * (bl / 2 + 2) + 8
}

/// Blockwise qai8dxp x qsi4c32p kernels: `(nb, chunks, lhs_group, rhs_group)`: blocks, 32-value
/// chunks per block, the bytes of an LHS group of 4 rows and of an RHS group of `nr` columns.
#[inline(always)]
pub(crate) fn qai8dxp_blockwise(
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
) -> (usize, usize, usize, usize) {
    let nb = k / bl;
    debug_assert!(m >= 1 && n >= 1 && bl >= 32 && bl % 32 == 0 && nb >= 1 && nb * bl == k);
    (nb, bl / 32, qai8dxp_group(k), nr * qsi4c32p_column(nb, bl))
}

/// qsi8d32p-LHS kernels (x qsi4c32p or qai4c32p): `(nb, chunks, lhs_group, rhs_group)`: blocks,
/// 32-value chunks per block, the bytes of an LHS group of 4 rows (per block: 4 x `bl` int8 and
/// 4 f16 scales) and of a qsi4c32p RHS group of `nr` columns (per block: `nr` x `bl / 2` bytes
/// and `nr` f16 scales).
#[inline(always)]
pub(crate) fn qsi8d32p_blockwise(
    m: usize,
    n: usize,
    k: usize,
    bl: usize,
    nr: usize,
) -> (usize, usize, usize, usize) {
    let nb = k / bl;
    debug_assert!(m >= 1 && n >= 1 && bl >= 32 && bl % 32 == 0 && nb >= 1 && nb * bl == k);
    (nb, bl / 32, 4 * nb * (bl + 2), nr * nb * (bl / 2 + 2))
}

/// Both clamp bounds in one register (lower bound in the low 32 bits), for kernels short of
/// general registers.
#[inline(always)]
pub(crate) fn clamp_pair(clamp_min: f32, clamp_max: f32) -> u64 {
    u64::from(clamp_min.to_bits()) | (u64::from(clamp_max.to_bits()) << 32)
}
