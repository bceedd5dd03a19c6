//! `kai_imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla`: the f32 SVE GEMM on 6-row blocks x 4 SVE
//! vectors of columns of `matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla`, with each row's K
//! values gathered chunk by chunk through the indirection buffer. Vector-length agnostic.
//!
//! Register plan (the vector side is the sibling kernel's):
//!
//! * `z8`..`z31` — accumulators, row `r` in `z(8 + 4r)`..`z(11 + 4r)`, from the packed bias.
//! * `z0`..`z5` — four K values of rows 0..5 of the current chunk (`LD1RQW`), `z6`, `z7` — the
//!   packed RHS (`sve_6x4vl_k_step!`).
//! * `p0` all lanes; `p1`..`p4` the tile's existing columns; `p5` the chunk's K tail.
//!
//! For every column tile, the chunks run in order: the 6 pointers of a chunk are read (rows past
//! the block's last row reuse row 0's chunk and read no entry), resolved against `pad_ptr` and
//! `lhs_ptr_offset`, then the K loop runs over the chunk as the sibling runs over a row. The
//! packed RHS of a group is one run of `k_chunk_count * k_chunk_length` rows, read once.

/// `$reg` = the chunk of indirection entry `[x20, #$off]`: `pad_ptr` (x5) as it is, any other
/// pointer plus `lhs_ptr_offset` (x6); x26 is scratch.
macro_rules! chunk_pointer {
    ($reg:literal, $off:literal) => {
        concat!(
            concat!("ldr ", $reg, ", [x20, #", $off, "]\n"),
            concat!("add x26, ", $reg, ", x6\n"),
            concat!("cmp ", $reg, ", x5\n"),
            concat!("csel ", $reg, ", x5, x26, eq\n"),
        )
    };
}

/// Computes the portion described by the arguments: for `i < m`, `j < n`, starting from
/// `acc = bias[j]`, one `FMLA` per K value over the chunks of row `i` in order, then
/// `dst[i][j] = max(min(acc, bounds[1]), bounds[0])`.
///
/// # Safety
///
/// * The CPU implements SVE; `m`, `n`, `kcc`, `kcl` >= 1; `dst_stride` is a multiple of 4.
/// * `ibuf` holds the indirection entries of rows `0..m` (block layout of the family); each
///   resolved chunk is readable for `kcl` floats (unaligned is fine).
/// * `rhs_packed` is readable for `ceil(n / nr)` groups of `4 * nr * (kcc * kcl + 1)` bytes.
/// * For every `i < m`, `j < n`, the 4 bytes at `dst + i * dst_stride + 4 * j` are writable and
///   overlap no input. Nothing else is written.
#[target_feature(enable = "sve")]
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
pub unsafe fn imatmul_f32_f32p4vlx1b_6x4vl(
    m: usize,
    n: usize,
    kcc: usize,
    kcl: usize,
    ibuf: *const *const u8,
    pad: *const u8,
    offset: usize,
    rhs_packed: *const u8,
    dst: *mut u8,
    dst_stride: usize,
    bounds: &[f32; 2],
) {
    // Register map
    //   x0  rows left                 x10-x15 chunk pointers of rows 0..5
    //   x1  n                         x16 packed RHS (advances through the groups)
    //   x2  k_chunk_count             x17 columns left
    //   x3  k_chunk_length            x20 indirection entries of the current chunk
    //   x4  indirection block         x21 loop counter / K tail length
    //   x5  pad_ptr                   x22 dst of this column tile (row 0)
    //   x6  lhs_ptr_offset            x23 K index in the chunk (floats) / dst row pointer
    //   x7  rhs_packed                x24 rows in this block (1..=6)
    //   x8  dst block (row 0)         x25 columns in this tile (1..=nr)
    //   x9  dst_stride                x26 scratch, nr
    //   x27 &[clamp_min, clamp_max]   x28 6 * dst_stride
    //   x30 chunks left
    //
    // SAFETY: the caller guarantees SVE and the buffer extents above. Only the indirection
    // entries of rows below m are read; a chunk is read only within its kcl floats (whole 4-value
    // blocks, then the tail under a predicate, whose inactive elements are not accessed). The
    // packed RHS is read exactly once per row block, group by group. Stores are predicated to
    // columns < n and cover rows < m only. Every touched general, vector and predicate register
    // is declared; x18, x19, x29 and sp are not used and no stack memory is accessed.
    unsafe {
        kernel_asm!(@ops [
            "ptrue p0.s",
            times6!("x28", "x9"),
            // ---- Row blocks of 6.
            "10:",
            min_imm!("x24", "x0", "6", "x24"),
            "mov x16, x7",
            "mov x17, x1",
            "mov x22, x8",
            // ---- Column tiles of 4 vectors: predicates, then accumulators from the bias.
            sve_6x4vl_tile_head!(),
            "mov x20, x4",
            "mov x30, x2",
            // ---- Chunks: resolve the rows' pointers (pad as is, others plus the offset).
            "30:",
            chunk_pointer!("x10", "0"),
            "mov x11, x10",
            "mov x12, x10",
            "mov x13, x10",
            "mov x14, x10",
            "mov x15, x10",
            "cmp x24, #1",
            "b.le 31f",
            chunk_pointer!("x11", "8"),
            "cmp x24, #2",
            "b.le 31f",
            chunk_pointer!("x12", "16"),
            "cmp x24, #3",
            "b.le 31f",
            chunk_pointer!("x13", "24"),
            "cmp x24, #4",
            "b.le 31f",
            chunk_pointer!("x14", "32"),
            "cmp x24, #5",
            "b.le 31f",
            chunk_pointer!("x15", "40"),
            "31:",
            "add x20, x20, #48",
            "mov x23, #0",
            "lsr x21, x3, #2",
            "cbz x21, 40f",
            // ---- K loop over the chunk: 4 K values per iteration.
            "32:",
            "// LLVM-MCA-BEGIN imatmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla",
            load_rows!(ld1rqw "p0", "x23"; "x10", "x11", "x12", "x13", "x14", "x15"),
            "add x23, x23, #4",
            sve_6x4vl_k_step!("0"),
            sve_6x4vl_k_step!("1"),
            sve_6x4vl_k_step!("2"),
            sve_6x4vl_k_step!("3"),
            "subs x21, x21, #1",
            "b.ne 32b",
            "// LLVM-MCA-END",
            // ---- K tail of the chunk (1 to 3 values): one predicated load, then value by value.
            sve_6x4vl_k_tail!("x3", "x23"),
            "50:",
            "subs x30, x30, #1",
            "b.ne 30b",
            // ---- Clamp and store the block's rows.
            "ld1rw {{z0.s}}, p0/z, [x27, #4]",
            "ld1rw {{z1.s}}, p0/z, [x27]",
            sve_6x4vl_tile_end!("x9"),
            // ---- Next row block: its indirection entries, its destination rows.
            "mov x26, #48",
            "madd x4, x2, x26, x4",
            "add x8, x8, x28",
            "subs x0, x0, #6",
            "b.gt 10b"
        ] []
            inout("x0") m => _, in("x1") n, in("x2") kcc, in("x3") kcl, inout("x4") ibuf => _,
            in("x5") pad, in("x6") offset, in("x7") rhs_packed, inout("x8") dst => _,
            in("x9") dst_stride, in("x27") bounds.as_ptr(),
            clobber x(10 11 12 13 14 15 16 17 20 21 22 23 24 25 26 28 lr)
                v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                p(0 1 2 3 4 5),
        );
    }
}


/// Runs the kernel on the portion described by `a` (the entry point the catalog registers).
///
/// # Safety
/// The family's `check` passed (so m, n and both chunk sizes are >= 1), the buffers cover the
/// portion, and the CPU implements SVE.
pub unsafe fn run(a: &super::Args) {
    let bounds = [a.clamp_min, a.clamp_max];
    // SAFETY: forwarded contract.
    unsafe {
        imatmul_f32_f32p4vlx1b_6x4vl(
            a.m,
            a.n,
            a.k_chunk_count,
            a.k_chunk_length,
            a.indirection_buffer,
            a.pad_ptr,
            a.lhs_ptr_offset,
            a.rhs_packed,
            a.dst,
            a.dst_row_bytes(),
            &bounds,
        )
    }
}
