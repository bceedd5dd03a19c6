//! `kai_matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla`: f32 GEMM on 6-row blocks x 4 SVE vectors
//! of columns (`nr` = 4 x VL32, read at run time), `FMLA` by element, the whole m x n computation
//! in one `asm!` block. Vector-length agnostic: the same code runs at 128 to 2048 bits.
//!
//! Register plan:
//!
//! * `z8`..`z31` — accumulators: row `r` of the tile in `z(8 + 4r)`..`z(11 + 4r)`, initialised
//!   from the packed bias.
//! * `z0`..`z5` — four K values of LHS rows 0..5, loaded with `LD1RQW` so that every 128-bit
//!   segment holds them and the indexed `FMLA` broadcasts one per segment.
//! * `z6`, `z7` — two vectors of the packed RHS row of the current K value.
//! * `p0` all lanes; `p1`..`p4` the columns of the tile's four vectors that exist (stores);
//!   `p5` the K tail's values.
//!
//! One K-loop iteration covers 4 K values: 6 LHS loads, 16 vector loads of packed RHS and 96
//! `FMLA`s (96 x VL32 MACs). Rows past the block's last row read row 0 again (their results are
//! not stored); columns past `n` are the packer's zero padding, and the stores are predicated.

asm_kernel! {
    /// The family's computation and [contract](super#safety) with `nr = 4 x VL32`.
    ///
    /// # Safety
    ///
    /// The [family contract](super#safety), on a CPU implementing SVE.
    #[target_feature(enable = "sve")]
    float fn matmul_f32_f32p4vlx1b_6x4vl(
        m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min, clamp_max,
    ) {
        // Register map
        //   x0  rows left                 x10-x15 LHS rows 0..5 of the block
        //   x1  n                         x16 packed RHS (advances through the groups)
        //   x2  k                         x17 columns left
        //   x3  LHS block (row 0)         x20 index of the K value in the LHS rows (floats)
        //   x4  lhs_stride                x21 loop counter / K tail length
        //   x5  rhs_packed                x22 dst of this column tile (row 0)
        //   x6  dst block (row 0)         x23 dst row pointer (stores)
        //   x7  dst_stride                x24 rows in this block (1..=6)
        //   w8  clamp_min bits            x25 columns in this tile (1..=nr)
        //   w9  clamp_max bits            x26 column index for the predicates, nr
        //   x27 6 * lhs_stride            x28 6 * dst_stride
        //
        // SAFETY: the caller guarantees SVE and the buffer extents above. LHS rows are read only
        // within their k floats: whole 4-value blocks while 4 or more remain, then the tail under a
        // predicate (inactive elements are not accessed); rows past the block's last row are replaced
        // by its row 0. The packed RHS is read exactly once per row block, group by group. Stores are
        // predicated to columns < n and cover rows < m only. Every touched general and vector
        // register is declared; the predicates p0-p5 are declared clobbered; x18, x19, x29, x30 and
        // sp are not used and no stack memory is accessed.
        unsafe {
            kernel_asm!(
                "ptrue p0.s",
                times6!("x27", "x4"),
                times6!("x28", "x7"),
                // ---- Row blocks of 6.
                "10:",
                min_imm!("x24", "x0", "6", "x24"),
                row_pointers!("x24", "x3", "x4"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "mov x16, x5",
                "mov x17, x1",
                "mov x22, x6",
                // ---- Column tiles of 4 vectors: predicates, then accumulators from the bias.
                sve_6x4vl_tile_head!(),
                "mov x20, #0",
                "lsr x21, x2, #2",
                "cbz x21, 40f",
                // ---- K loop: 4 K values per iteration.
                "30:",
                "// LLVM-MCA-BEGIN matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla",
                load_rows!(ld1rqw "p0", "x20"; "x10", "x11", "x12", "x13", "x14", "x15"),
                "add x20, x20, #4",
                sve_6x4vl_k_step!("0"),
                sve_6x4vl_k_step!("1"),
                sve_6x4vl_k_step!("2"),
                sve_6x4vl_k_step!("3"),
                "subs x21, x21, #1",
                "b.ne 30b",
                "// LLVM-MCA-END",
                // ---- K tail (1 to 3 values): one predicated block load, then value by value.
                sve_6x4vl_k_tail!("x2", "x20"),
                // ---- Clamp and store the block's rows.
                "50:",
                "mov z0.s, w9",
                "mov z1.s, w8",
                sve_6x4vl_tile_end!("x7");
                float[6 rows, "10"](m, n, k, lhs, lhs_stride, rhs_packed, dst, dst_stride, clamp_min.to_bits() as usize, clamp_max.to_bits() as usize);
                clobber x(10 11 12 13 14 15 16 17 20 21 22 23 24 25 26 27 28)
                    v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
                    p(0 1 2 3 4 5),
            );
        }
    }
}
