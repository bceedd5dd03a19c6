//! The SME2 asm of `kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa` (see
//! `super`): tiles of 2 x SVL32 rows by 2 x SVL32 columns, each from two LHS blocks of SVL32 rows
//! (`lhs_stride` bytes apart) and two RHS blocks of SVL32 columns (`rhs_stride` bytes apart,
//! each its biases then one row per K value).
//!
//! A tile's four ZA tiles (za0 rows of the first LHS block by columns of the first RHS block,
//! za1 the same rows by the second block's columns, za2/za3 the second LHS block's rows) start
//! from the columns' biases added to zero as integers (`ADDHA`: the bias bits, signed zeros and
//! NaN payloads included), then take one `FMOPA` per K value in K order (four per iteration,
//! then two and one). The stores, clamped by `FCLAMP` and predicated to the rows below `m` and
//! the columns below `n`, are the SME packed-float GEMMs' (`float_mopa_kernel!(@tile_out)`).
//! Where the last tile has rows or columns for one block only, the second block's pointer is the
//! first's (its phantom rows or columns are computed and not stored), so nothing past the packed
//! operands is read. KleidiAI covers those edges with narrower sub-kernels instead; every output
//! is the same single `FMOPA` chain either way.

/// The loads of `$s` K steps (`$s` = 2 or 4: one multi-vector load per block; 1: single loads)
/// into z0 (first LHS block, x13), z16 (second LHS block, x20), z4 (first RHS block, x9) and
/// z20 (second RHS block, x21), the pointers then advanced past them.
macro_rules! split_load {
    (1) => {
        "ld1w {{z0.s}}, p0/z, [x13]
        ld1w {{z16.s}}, p0/z, [x20]
        ld1w {{z4.s}}, p0/z, [x9]
        ld1w {{z20.s}}, p0/z, [x21]
        addvl x13, x13, #1
        addvl x20, x20, #1
        addvl x9, x9, #1
        addvl x21, x21, #1"
    };
    (2) => {
        "ld1w {{z0.s-z1.s}}, pn8/z, [x13]
        ld1w {{z16.s-z17.s}}, pn8/z, [x20]
        ld1w {{z4.s-z5.s}}, pn8/z, [x9]
        ld1w {{z20.s-z21.s}}, pn8/z, [x21]
        addvl x13, x13, #2
        addvl x20, x20, #2
        addvl x9, x9, #2
        addvl x21, x21, #2"
    };
    (4) => {
        "ld1w {{z0.s-z3.s}}, pn8/z, [x13]
        ld1w {{z16.s-z19.s}}, pn8/z, [x20]
        ld1w {{z4.s-z7.s}}, pn8/z, [x9]
        ld1w {{z20.s-z23.s}}, pn8/z, [x21]
        addvl x13, x13, #4
        addvl x20, x20, #4
        addvl x9, x9, #4
        addvl x21, x21, #4"
    };
}

/// The outer products of K step `$i` of the loaded ones (z0+i, z16+i by z4+i, z20+i).
macro_rules! split_step {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        float_mopa_kernel!(@step "fmopa", ".s", $a, $b, $c, $d)
    };
}

/// `m` x `n` outputs (both >= 1) at `dst` (rows `dst_stride` bytes apart): the packed LHS blocks
/// at `lhs` (`lhs_stride` bytes apart) times the packed RHS blocks at `rhs` (`rhs_stride` bytes
/// apart), clamped to `[lo, hi]` by `FCLAMP`.
///
/// # Safety
/// The CPU implements SME2; `ceil(m / SVL32)` LHS blocks of `SVL32 * k` floats and
/// `ceil(n / SVL32)` RHS blocks of `SVL32 * (k + 1)` floats at the given strides are readable;
/// the `m` rows of `n` floats at `dst` are writable and overlap neither; a pending lazy ZA save
/// follows the AAPCS64 SME ABI.
pub unsafe fn gemm(
    (m, n, k): (usize, usize, usize),
    (lhs, lhs_stride): (*const f32, usize),
    (rhs, rhs_stride): (*const f32, usize),
    (dst, dst_stride): (*mut f32, usize),
    (lo, hi): (f32, f32),
) {
    // SAFETY: the caller guarantees SME and the ABI's TPIDR2 block.
    unsafe { crate::matmul::streaming::commit_lazy_za_save() };
    // SAFETY: the caller guarantees (see `# Safety`) SME2 and the blocks read here: a tile's
    // second LHS (RHS) block is read only where rows (columns) remain for it, else its first
    // block is read again; every block is read whole and no further. Stores are predicated to
    // the m rows and n columns. Only the declared registers change; streaming mode starts and
    // ends in the block.
    unsafe {
        streaming_asm!("sme2";
            "cntw x7",
            "lsl x8, x7, #1",
            "ptrue p0.b",
            float_mopa_kernel!(@setup "sme2" f32),
            "mov x10, #0",
            // ---- M loop: two LHS blocks (x3, x25) ----
            "1:",
            "sub x17, x0, x10",
            "add x25, x3, x22",
            "cmp x17, x7",
            "csel x25, x25, x3, gt",
            "mov x24, x4",
            "mov x11, #0",
            // ---- N loop: two RHS blocks (x24, x21) ----
            "2:",
            "sub x17, x1, x11",
            "add x21, x24, x23",
            "cmp x17, x7",
            "csel x21, x21, x24, gt",
            "mov x9, x24",
            "zero {{za}}",
            "ld1w {{z27.s}}, p0/z, [x9]",
            "ld1w {{z28.s}}, p0/z, [x21]",
            "addvl x9, x9, #1",
            "addvl x21, x21, #1",
            "addha za0.s, p0/m, p0/m, z27.s",
            "addha za1.s, p0/m, p0/m, z28.s",
            "addha za2.s, p0/m, p0/m, z27.s",
            "addha za3.s, p0/m, p0/m, z28.s",
            // ---- K: four steps per iteration, then two and one ----
            "mov x13, x3",
            "mov x20, x25",
            "lsr x14, x2, #2",
            "cbz x14, 8f",
            "3:",
            split_load!(4),
            split_step!("0", "16", "4", "20"),
            split_step!("1", "17", "5", "21"),
            split_step!("2", "18", "6", "22"),
            split_step!("3", "19", "7", "23"),
            "subs x14, x14, #1",
            "b.ne 3b",
            "8:",
            "tbz x2, #1, 9f",
            split_load!(2),
            split_step!("0", "16", "4", "20"),
            split_step!("1", "17", "5", "21"),
            "9:",
            "tbz x2, #0, 4f",
            split_load!(1),
            split_step!("0", "16", "4", "20"),
            "4:",
            float_mopa_kernel!(@tile_out "sme2" f32),
            "add x24, x24, x23, lsl #1",
            "add x11, x11, x8",
            "cmp x11, x1",
            "b.lo 2b",
            "add x3, x3, x22, lsl #1",
            "add x10, x10, x8",
            "cmp x10, x0",
            "b.lo 1b";
            inout("x0") m => _,
            inout("x1") n => _,
            inout("x2") k => _,
            inout("x3") lhs => _,
            inout("x4") rhs => _,
            inout("x5") dst => _,
            inout("x6") dst_stride => _,
            inout("x22") lhs_stride => _,
            inout("x23") rhs_stride => _,
            lo = in(reg) lo.to_bits(),
            hi = in(reg) hi.to_bits(),
            out("x7") _, out("x8") _, out("x9") _, out("x10") _, out("x11") _,
            out("x12") _, out("x13") _, out("x14") _, out("x15") _, out("x16") _,
            out("x17") _, out("x20") _, out("x21") _, out("x24") _, out("x25") _,
        );
    }
}
