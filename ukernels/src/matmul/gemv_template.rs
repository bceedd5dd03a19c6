//! Whole-kernel templates of the integer GEMVs whose siblings differ only in their K loop: the
//! kernel file states its RHS format and its loop, the template writes the function, its `run`
//! entry, the loop nest and the epilogue around it.

/// Declares a vector-length-agnostic per-channel GEMV of the qai8dxp families with `nr = 2 x VL32`
/// (`..._1x2vl_sve2_dotprod`):
///
/// ```text
/// sve2_gemv_1x2vl! {
///     /// docs, safety
///     #[target_feature(enable = "sve2")]
///     fn name: int8 | int4, "<stem for llvm-mca>";
///     k_loop [ ... ]
/// }
/// ```
///
/// Loop order: column groups of `nr` outside, rows inside, K in 32-value chunks (label 4, from
/// the row's LHS `x9` and the group's RHS `x10`; the loop moves both on and counts `x12` down to
/// zero, setting the flags for its closing `b.ne`). The loop sums a row into `z0`..`z7` as 8
/// column registers of a 64-bit lane pair per column: `z0`..`z3` and `z4`..`z7` hold the two
/// halves of the sums of column registers 0..3 (columns `c x VL64 ..`), each column's sum split
/// over an even and an odd 32-bit lane. It may use `z8`..`z11` and `z16`..`z31` (and `z12`, the
/// 0xF0 mask of `int4`). The epilogue folds the halves and the lane pairs and applies the
/// per-channel dequantisation and the clamp:
///
/// ```text
/// acc = acc + lhs_offset * rsum;  y = (acc as f32) * (rscale * lhs_scale) + bias
/// dst = min(max(y, clamp_min), clamp_max)
/// ```
macro_rules! sve2_gemv_1x2vl {
    ($(#[$attr:meta])* fn $name:ident: int8, $mca:literal; k_loop [$($body:expr),+ $(,)?]) => {
        sve2_gemv_1x2vl!(@kernel [$(#[$attr])*] $name, false, "", $mca; [$($body),+]
            v(0 1 2 3 4 5 6 7 8 9 10 11 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31));
    };
    ($(#[$attr:meta])* fn $name:ident: int4, $mca:literal; k_loop [$($body:expr),+ $(,)?]) => {
        sve2_gemv_1x2vl!(@kernel [$(#[$attr])*] $name, true, "mov z12.b, #-16\n", $mca; [$($body),+]
            v(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31));
    };
    (@kernel [$($attr:tt)*] $name:ident, $int4:literal, $mask:literal, $mca:literal; [$($body:expr),+]
     v($($v:tt)*)) => {
        asm_kernel! {
            $($attr)*
            fn $name(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (chunks, _, _, rhs_col_bytes) =
                    crate::matmul::kernel_geometry::per_channel(m, n, k, 1, $int4);

                // Register map
                //   x0  m                            x8  rows left in this column group
                //   x1  columns left (signed)        x9  LHS pointer (walks the rows)
                //   x2  32-value chunks              x10 RHS pointer inside the group
                //   x3  lhs_packed                   x11 dst pointer of the current row
                //   x4  RHS group pointer            x12 chunks left
                //   x5  dst of the group's column 0  x13 VL32 (CNTW)
                //   x6  dst_stride_row               x14 RHS group stride (nr * rhs_col_bytes)
                //   x15 clamp_min bits               x16 clamp_max bits
                //
                //   z0-z7   accumulators (the K loop's); z8-z11, z16-z31 the K loop's operands
                //   z12     0xF0 in every byte (int4)
                //   z13/z14 clamp_min / clamp_max in every lane
                //   p0      all lanes; p1/p2 columns of the group below n (first / second VL32)
                //
                // SAFETY: the caller guarantees (see `# Safety`) SVE2 and that the packed buffers
                // cover the bytes read here (m LHS rows of k_int + 8 bytes; ceil(n / nr) RHS groups
                // of nr * rhs_col_bytes bytes, read exactly). Stores are predicated to columns
                // below n and rows below m. Only declared registers are touched (v8-v15 are
                // declared, so the compiler saves d8-d15); no stack use.
                unsafe {
                    kernel_asm!(
                        "ptrue p0.b",
                        "cntw x13",
                        "mul x14, x14, x13",
                        "lsl x14, x14, #1",
                        concat!($mask, "mov z13.s, w15\n", "mov z14.s, w16\n"),
                        // ---- loop over column groups ----
                        "2:",
                        "whilelt p1.s, xzr, x1",
                        "whilelt p2.s, x13, x1",
                        "mov x8, x0",
                        "mov x9, x3",
                        "mov x11, x5",
                        // ---- loop over rows ----
                        "3:",
                        "mov x10, x4",
                        "mov x12, x2",
                        zero_z!("0", "1", "2", "3", "4", "5", "6", "7"),
                        // ---- K loop: 32 values x nr columns per iteration ----
                        k_loop!("4", $mca; $($body),+),
                        // ---- epilogue: x9 -> lhs_offset, x10 -> rsum of this group ----
                        "ld1rw {{z8.s}}, p0/z, [x9]",
                        "ld1rw {{z9.s}}, p0/z, [x9, #4]",
                        "add x9, x9, #8",
                        "ld1w {{z16.s}}, p0/z, [x10]",
                        "ld1w {{z17.s}}, p0/z, [x10, #1, mul vl]",
                        "ld1w {{z18.s}}, p0/z, [x10, #2, mul vl]",
                        "ld1w {{z19.s}}, p0/z, [x10, #3, mul vl]",
                        "ld1w {{z20.s}}, p0/z, [x10, #4, mul vl]",
                        "ld1w {{z21.s}}, p0/z, [x10, #5, mul vl]",
                        "add z0.s, z0.s, z4.s",
                        "add z1.s, z1.s, z5.s",
                        "add z2.s, z2.s, z6.s",
                        "add z3.s, z3.s, z7.s",
                        // Fold lane pairs: even lanes (bytes 0..4 of a column) + odd lanes (4..8).
                        "uzp1 z4.s, z0.s, z1.s",
                        "uzp2 z5.s, z0.s, z1.s",
                        "uzp1 z6.s, z2.s, z3.s",
                        "uzp2 z7.s, z2.s, z3.s",
                        "add z4.s, z4.s, z5.s",
                        "add z6.s, z6.s, z7.s",
                        "mla z4.s, p0/m, z16.s, z8.s",
                        "mla z6.s, p0/m, z17.s, z8.s",
                        "fmul z18.s, z18.s, z9.s",
                        "fmul z19.s, z19.s, z9.s",
                        "scvtf z4.s, p0/m, z4.s",
                        "scvtf z6.s, p0/m, z6.s",
                        "fmul z4.s, z4.s, z18.s",
                        "fmul z6.s, z6.s, z19.s",
                        "fadd z4.s, z4.s, z20.s",
                        "fadd z6.s, z6.s, z21.s",
                        "fmax z4.s, p0/m, z4.s, z13.s",
                        "fmax z6.s, p0/m, z6.s, z13.s",
                        "fmin z4.s, p0/m, z4.s, z14.s",
                        "fmin z6.s, p0/m, z6.s, z14.s",
                        "st1w {{z4.s}}, p1, [x11]",
                        "st1w {{z6.s}}, p2, [x11, #1, mul vl]",
                        "add x11, x11, x6",
                        "subs x8, x8, #1",
                        "b.ne 3b",
                        // ---- next column group ----
                        "add x4, x4, x14",
                        "addvl x5, x5, #2",
                        "sub x1, x1, x13, lsl #1",
                        "cmp x1, #0",
                        "b.gt 2b";
                        gemv(m, n, chunks, lhs_packed, rhs_packed, dst, dst_stride_row);
                        inout("x14") rhs_col_bytes => _,
                        in("x15") clamp_min.to_bits() as usize,
                        in("x16") clamp_max.to_bits() as usize,
                        clobber x(8 9 10 11 12 13) v($($v)*) p(0 1 2),
                    );
                }
            }
        }
    };
}

/// Declares a GEMV of the families with a qsi8d32p LHS (1 row x 4 columns per step), int4 RHS:
///
/// ```text
/// qai4c32p_gemv! {                       // asymmetric weights (qai4c32p)
///     /// docs, safety
///     #[target_feature(enable = "dotprod")]
///     fn name: "<stem for llvm-mca>", fold "add" | "addp", lhs v(..);
///     k_loop [ ... ]
/// }
/// qsi8d32p_gemv! {                       // symmetric weights (qsi4c32p)
///     /// docs, safety
///     #[target_feature(enable = "dotprod")]
///     fn name: "<stem for llvm-mca>";
///     block_start [ ... ] k_loop [ ... ] block_end [ ... ]
///     clobber x(..) v(..)
/// }
/// ```
///
/// Loop order: column groups of 4 outside, rows inside, blocks of `bl` values (label 4), then
/// 32-value sub-blocks (label 5: the loop reads 64 bytes of weights at `x10` and the
/// activations at `x9`, moves both on and counts `x12` down to zero, setting the flags for its
/// closing `b.ne`). The loop sums 16 x the products into accumulators of `v16`..`v23`, decoding
/// nibbles with the 0xF0 mask in `v31`. After the blocks the row's f32 sums in `v30` are clamped
/// (`v28`/`v29`) and stored (4 columns or the n % 4 tail).
///
/// * qai4c32p: the loop uses `v0`..`v3`, `v24`..`v27` and its `lhs` registers and leaves the
///   block's sums in `v16`..`v23` (lane = column for `add`, column pairs folded by `addp`); per
///   block, in the family's order, `acc = fma(I, rs16 * ls, fma(rz, lsum, acc))`, and `acc +
///   bias` is stored.
/// * qsi4c32p: each block starts with its 4 f16 column scales in `v25` and its f16 row scale in
///   `v24` (then `block_start`); `x14` holds bl / 2, the offset of the activations paired with
///   the high nibbles. The loop sums into `v16`, `v17`, `v22`, `v23`; `block_end` moves `x9` to
///   the next block, widens the scales and leaves the block's sums of the 4 columns in `v16` and
///   the product of the scales in `v25`; per block `acc = fma(sums / 16, scales, acc)`.
macro_rules! qai4c32p_gemv {
    ($(#[$attr:meta])* fn $name:ident: $mca:literal, fold $fold:literal, lhs v($($lhs:tt)+);
     k_loop [$($body:expr),+ $(,)?]) => {
        qsi8d32p_gemv!(@frame [$(#[$attr])*] $name, bl, "add x4, x10, #16", $mca;
            [zero_v!("16b"; "16", "17", "18", "19", "20", "21", "22", "23"), "mov x12, x2"]
            [$($body),+]
            [
                "ldp s24, s26, [x9], #8", // lsum, ls
                "ldp q25, q27, [x10], #32", // rz, rs16 of the 4 columns
                "add v16.4s, v16.4s, v18.4s",
                "add v20.4s, v20.4s, v22.4s",
                "add v17.4s, v17.4s, v19.4s",
                "add v21.4s, v21.4s, v23.4s",
                "add v16.4s, v16.4s, v20.4s",
                "add v17.4s, v17.4s, v21.4s",
                concat!($fold, " v16.4s, v16.4s, v17.4s"), // I of columns 0-3
                "fmul v27.4s, v27.4s, v26.s[0]", // rs16 x ls
                "fmla v30.4s, v25.4s, v24.s[0]", // + rz x lsum
                "scvtf v16.4s, v16.4s",
                "subs x15, x15, #1",
                "fmla v30.4s, v16.4s, v27.4s",
            ]
            // Row epilogue: the bias.
            ["ldr q26, [x10]", "fadd v30.4s, v30.4s, v26.4s"]
            [] x(8 9 10 11 12 13 15) v(0 1 2 3 $($lhs)+ 16 17 18 19 20 21 22 23 24 25 26 27 30 31));
    };
}

/// See [`qai4c32p_gemv`].
macro_rules! qsi8d32p_gemv {
    ($(#[$attr:meta])* fn $name:ident: $mca:literal;
     block_start [$($start:expr),* $(,)?] k_loop [$($body:expr),+ $(,)?] block_end [$($end:expr),+ $(,)?]
     clobber $($clobber:tt)+) => {
        qsi8d32p_gemv!(@frame [$(#[$attr])*] $name, bl, "mov x4, x10", $mca;
            ["ldr d25, [x10], #8", "ldr h24, [x9], #2", zero_v!("16b"; "16", "17", "22", "23"),
             "mov x12, x2" $(, $start)*]
            [$($body),+]
            [$($end,)+ "scvtf v16.4s, v16.4s, #4", "subs x15, x15, #1", "fmla v30.4s, v16.4s, v25.4s"]
            []
            [in("x14") bl / 2,] $($clobber)+);
    };
    // `$bl` names the block length (passed in, so that the kernel's operands can use it).
    (@frame [$($attr:tt)*] $name:ident, $bl:ident, $next:literal, $mca:literal;
     [$($start:expr),+] [$($body:expr),+] [$($end:expr),+ $(,)?] [$($row_end:expr),*]
     [$($ops:tt)*] $($clobber:tt)+) => {
        asm_kernel! {
            $($attr)*
            blockwise fn $name(m, n, k, $bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (blocks, sub_blocks, _, _) =
                    crate::matmul::kernel_geometry::qsi8d32p_blockwise(m, n, k, $bl, 1);

                // Register map
                //   x0  m (rows)                     x8  rows left in this group
                //   x1  columns left (n - 4g)        x9  LHS pointer (walks the rows)
                //   x2  sub-blocks per block         x10 RHS pointer (walks the group)
                //   x3  lhs_packed                   x11 dst pointer of the current row
                //   x4  RHS group pointer            x12 sub-blocks left in this block
                //   x5  dst + 4 * 4g                 x13 partial-store pointer
                //   x6  dst_stride_row               x14 bl / 2 (qsi4c32p)
                //   x7  blocks (k / bl)              x15 blocks left in this row
                //
                // LHS rows are contiguous, so x9 walks through them block by block. x10 walks a
                // group's blocks and ends at the next group (qsi4c32p) or at the group's biases
                // (qai4c32p; the next group follows them).
                //
                //   v28/v29 clamp bounds, v30 f32 accumulator of the row, v31 0xF0 mask
                //
                // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover
                // exactly the bytes this block reads (m LHS rows; ceil(n / 4) RHS groups), that
                // dst rows are writable for 4 * n bytes, and that the CPU implements dotprod (also
                // required by this function's `target_feature`). The block stores only
                // dst[i][0..n), touches only the declared registers, and does not use the stack.
                unsafe {
                    kernel_asm!(
                        gemv[4 cols, $next](m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row)
                        setup ["movi v31.16b, #0xf0", "dup v28.4s, v28.s[0]", "dup v29.4s, v29.s[0]"]
                        row [
                            "mov x15, x7",
                            "movi v30.16b, #0",
                            // ---- loop over blocks ----
                            "4:",
                            $($start,)+
                            // ---- K loop: one 32-value sub-block x 4 columns per iteration ----
                            k_loop!("5", $mca; $($body),+),
                            // ---- block epilogue ----
                            $($end,)+
                            "b.ne 4b",
                            // ---- row epilogue: clamp, store 4 columns or the n % 4 tail ----
                            $($row_end,)*
                            "fmax v30.4s, v30.4s, v28.4s",
                            "fmin v30.4s, v30.4s, v29.4s",
                            store_cols4!(cmp, "30", "x1", "x11", "x13"; "6", "7", "8"),
                        ];
                        in("x7") blocks,
                        $($ops)*
                        inout("v28") clamp_min => _,
                        inout("v29") clamp_max => _,
                        clobber $($clobber)+
                    );
                }
            }
        }
    };
}

/// Declares a NEON GEMV of the qai8dxp families (one LHS row per packed group, int8 or int4 RHS,
/// per-channel or blockwise scales):
///
/// ```text
/// qai8dxp_gemv! {
///     /// docs, safety
///     #[target_feature(enable = "dotprod")]
///     fn name: per_channel(4 cols, int4), "<stem for llvm-mca>";
///     setup [ ... ] row_start [ ... ] k_loop [ ... ] row_end [ ... ]
///     clobber x(..) v(..)
/// }
/// ```
///
/// The RHS format picks the geometry and the operands:
///
/// * `fn name: per_channel(C cols, int8 | int4)`: `x2` = 32-value K passes, `x14` = bytes of an
///   RHS group, clamp bounds as bits in `w15`/`w16`. The K loop is label 4.
/// * `blockwise fn name: blockwise(4 cols)`: `x2` = 32-value chunks per block, `x7` = blocks,
///   `x14`, `w15`/`w16` as above; `blockwise(8 cols)`: `x2` = blocks, `x7` = chunks per block,
///   `x14`, bounds in `w16`/`w17`. The K loop is label 5, inside the kernel's block loop.
///
/// Around the kernel's code the template writes `kernel_asm!`'s `gemv` loop nest (column groups
/// of C outside, rows inside; see there for `x8`..`x11`), the K loop's label, llvm-mca region and
/// closing `b.ne` (the loop sets the flags: `subs x12, x12, #1`). `row_start` runs before the K
/// loop of each row, `row_end` after it (block and row epilogues, the store).
///
/// Register map (the template's and the `gemv` nest's; `g` the column group, `C` its columns):
///
/// ```text
/// x0  m (rows)                     x8  rows left in this group
/// x1  columns left (n - C g)       x9  LHS pointer (walks the rows)
/// x2  see above                    x10 RHS pointer inside the group
/// x3  lhs_packed                   x11 dst pointer of the current row
/// x4  RHS group pointer            x12 the K loop's counter
/// x5  dst + 4 C g                  x14 rhs_stride (bytes of an RHS group)
/// x6  dst_stride_row               x7 and the bounds' bits: see above
/// ```
///
/// LHS rows are contiguous (`k_int + 8` bytes each), so x9 simply walks through them: the K
/// loop, then the row's `lhs_offset` and `lhs_scale`.
macro_rules! qai8dxp_gemv {
    ($(#[$attr:meta])* fn $name:ident: per_channel($cols:tt cols, $int:ident), $mca:literal;
     setup [$($setup:expr),+ $(,)?] row_start [$($start:expr),+ $(,)?] k_loop [$($body:expr),+ $(,)?]
     row_end [$($end:expr),+ $(,)?] clobber $($clobber:tt)+) => {
        asm_kernel! {
            $(#[$attr])*
            fn $name(m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (passes, _, _, rhs_stride) = crate::matmul::kernel_geometry::per_channel(
                    m, n, k, $cols, qai8dxp_gemv!(@int4 $int));
                // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover
                // exactly the bytes this block reads (m LHS rows of k_int + 8 bytes; ceil(n / C)
                // RHS groups of rhs_stride bytes), that dst rows are writable for 4 * n bytes, and
                // that the CPU implements dotprod (also required by this function's
                // `target_feature`). The block stores only dst[i][0..n), touches only the declared
                // registers, and does not use the stack.
                unsafe {
                    kernel_asm!(
                        gemv[$cols cols, "add x4, x4, x14"](m, n, passes, lhs_packed, rhs_packed, dst, dst_stride_row)
                        setup [$($setup),+]
                        row [
                            $($start,)+
                            k_loop!("4", $mca; $($body),+),
                            $($end,)+
                        ];
                        in("x14") rhs_stride,
                        in("x15") clamp_min.to_bits(),
                        in("x16") clamp_max.to_bits(),
                        clobber $($clobber)+
                    );
                }
            }
        }
    };
    ($(#[$attr:meta])* blockwise fn $name:ident: blockwise($cols:tt cols), $mca:literal;
     setup [$($setup:expr),+ $(,)?] row_start [$($start:expr),+ $(,)?] k_loop [$($body:expr),+ $(,)?]
     row_end [$($end:expr),+ $(,)?] clobber $($clobber:tt)+) => {
        asm_kernel! {
            $(#[$attr])*
            blockwise fn $name(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (blocks, chunks, _, rhs_stride) =
                    crate::matmul::kernel_geometry::qai8dxp_blockwise(m, n, k, bl, $cols);
                // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover
                // exactly the bytes this block reads (m LHS rows of k + 8 bytes; ceil(n / C) RHS
                // groups of rhs_stride bytes), that dst rows are writable for 4 * n bytes, and that
                // the CPU implements dotprod (also required by this function's `target_feature`).
                // The block stores only dst[i][0..n), touches only the declared registers, and
                // does not use the stack.
                unsafe {
                    qai8dxp_gemv!(@blockwise $cols, blocks, chunks, rhs_stride, clamp_min, clamp_max;
                        m, n, lhs_packed, rhs_packed, dst, dst_stride_row;
                        [$($setup),+] [
                            $($start,)+
                            k_loop!("5", $mca; $($body),+),
                            $($end,)+
                        ] $($clobber)+);
                }
            }
        }
    };
    (@int4 int4) => { true };
    (@int4 int8) => { false };
    // 4 columns: blocks outside chunks (x2 chunks, x7 blocks), bounds in w15 / w16; 8 columns:
    // x2 blocks, x7 chunks per block, bounds in w16 / w17.
    (@blockwise 4, $blocks:ident, $chunks:ident, $($rest:tt)+) => {
        qai8dxp_gemv!(@blockwise_asm 4, $chunks, $blocks, "x15", "x16", $($rest)+)
    };
    (@blockwise 8, $blocks:ident, $chunks:ident, $($rest:tt)+) => {
        qai8dxp_gemv!(@blockwise_asm 8, $blocks, $chunks, "x16", "x17", $($rest)+)
    };
    (@blockwise_asm $cols:tt, $x2:ident, $x7:ident, $lo_reg:tt, $hi_reg:tt, $rs:ident, $lo:ident,
     $hi:ident; $m:ident, $n:ident, $l:ident, $r:ident, $d:ident, $ds:ident;
     [$($setup:expr),+] [$($row:expr),+ $(,)?] $($clobber:tt)+) => {
        kernel_asm!(
            gemv[$cols cols, "add x4, x4, x14"]($m, $n, $x2, $l, $r, $d, $ds)
            setup [$($setup),+]
            row [$($row),+];
            in("x7") $x7,
            in("x14") $rs,
            in($lo_reg) $lo.to_bits(),
            in($hi_reg) $hi.to_bits(),
            clobber $($clobber)+
        )
    };
}

/// v0 += v2 + v4 + v6 and v1 += v3 + v5 + v7 (int32 lanes): the eight independent SDOT chains of
/// the per-channel GEMVs summed, pairwise, into the two that hold the columns' sums.
macro_rules! sum_sdot_chains_into_v0_v1 {
    () => {
        concat!(
            "add v0.4s, v0.4s, v2.4s\n",
            "add v1.4s, v1.4s, v3.4s\n",
            "add v4.4s, v4.4s, v6.4s\n",
            "add v5.4s, v5.4s, v7.4s\n",
            "add v0.4s, v0.4s, v4.4s\n",
            "add v1.4s, v1.4s, v5.4s\n",
        )
    };
}

/// The end of a row of the per-channel 4-column GEMVs, its column sums in v0: dequantised with the
/// row's lhs offset and scale (v24 lanes 0 / 1) and the group's rsum, rscale and bias (v16..v18),
/// clamped to v28 / v29, then 4 columns (or the n % 4 tail) stored at x11 (x13 scratch).
macro_rules! per_channel_gemv4_row_end {
    () => {
        concat!(
            dequant_row!(scale_first, "0";
                "16", "24"["0"]; "17", "24"["1"] -> "17"; "18"; "28", "29"),
            store_cols4!(cmp, "0", "x1", "x11", "x13"; "5", "7", "6"),
        )
    };
}

/// One 32-value chunk of the 4-column int4 GEMVs with 4-byte super-blocks (`qsi4c32p4x4`,
/// `qsi4cxp4x4`): RHS super-blocks 0..3 from `x10` into `v16`..`v19`, decoded with the 0xF0 mask in
/// `v30` (16 x low nibbles into `v22`..`v25`, 16 x high nibbles in place), LHS `lq[0..32]` from
/// `x9` into `v20`/`v21`, `SDOT` by element into `v0`..`v3` (low) and `v4`..`v7` (high); moves
/// `x9` and `x10` on and counts `x12` down (flags set for the loop's `b.ne`).
macro_rules! int4_chunk_4x4 {
    () => {
        concat!(
            // Each 2-uop `ldr q` is paired with a 1-uop op (Neoverse N1 dispatches 3 uops a cycle).
            "ldr q16, [x10]\n",
            "add x9, x9, #32\n",
            "ldr q17, [x10, #16]\n",
            "subs x12, x12, #1\n",
            "ldr q18, [x10, #32]\n",
            "shl v22.16b, v16.16b, #4\n",
            "ldr q19, [x10, #48]\n",
            "shl v23.16b, v17.16b, #4\n",
            "ldr q20, [x9, #-32]\n",
            "shl v24.16b, v18.16b, #4\n",
            "ldr q21, [x9, #-16]\n",
            "shl v25.16b, v19.16b, #4\n",
            "add x10, x10, #64\n",
            "and v16.16b, v16.16b, v30.16b\n",
            "and v17.16b, v17.16b, v30.16b\n",
            "and v18.16b, v18.16b, v30.16b\n",
            "and v19.16b, v19.16b, v30.16b\n",
            // low nibbles: K 4s..4s+4 of the chunk, LHS lq[4s..4s+4]
            "sdot v0.4s, v22.16b, v20.4b[0]\n",
            "sdot v1.4s, v23.16b, v20.4b[1]\n",
            "sdot v2.4s, v24.16b, v20.4b[2]\n",
            "sdot v3.4s, v25.16b, v20.4b[3]\n",
            // high nibbles: K 16+4s..16+4s+4, LHS lq[16+4s..16+4s+4]
            "sdot v4.4s, v16.16b, v21.4b[0]\n",
            "sdot v5.4s, v17.16b, v21.4b[1]\n",
            "sdot v6.4s, v18.16b, v21.4b[2]\n",
            "sdot v7.4s, v19.16b, v21.4b[3]\n",
        )
    };
}

/// One 32-value chunk of the 4-column int4 GEMVs with 8-byte super-blocks (`qsi4c32p4x8`,
/// `qsi4cxp4x8`): RHS bytes from `x10` into `v16`..`v19` (16 x low nibbles in place, 16 x high
/// nibbles into `v20`..`v23` with the 0xF0 mask in `v31`), LHS 8-byte slices from `x9` replicated
/// into `v24`..`v27`, `SDOT` into `v0`..`v3` (low) and `v4`..`v7` (high), two columns per
/// register; moves `x9` and `x10` on and counts `x12` down (flags set for the loop's `b.ne`).
macro_rules! int4_chunk_4x8 {
    () => {
        concat!(
            // Each 2-uop `ldr q` is paired with a 1-uop op (Neoverse N1 dispatches 3 uops a cycle).
            "ldr q24, [x9]\n",
            "add x9, x9, #32\n",
            "ldr q16, [x10]\n",
            "subs x12, x12, #1\n",
            "ldr q17, [x10, #16]\n",
            "dup v25.2d, v24.d[1]\n",
            "ldr q26, [x9, #-16]\n",
            "dup v24.2d, v24.d[0]\n",
            "ldr q18, [x10, #32]\n",
            "and v20.16b, v16.16b, v31.16b\n",
            "ldr q19, [x10, #48]\n",
            "shl v16.16b, v16.16b, #4\n",
            "add x10, x10, #64\n",
            "and v21.16b, v17.16b, v31.16b\n",
            "shl v17.16b, v17.16b, #4\n",
            "dup v27.2d, v26.d[1]\n",
            "dup v26.2d, v26.d[0]\n",
            // super-block 0: low nibbles x lq[0..8], high x lq[16..24]
            "sdot v0.4s, v16.16b, v24.16b\n",
            "sdot v1.4s, v17.16b, v24.16b\n",
            "and v22.16b, v18.16b, v31.16b\n",
            "shl v18.16b, v18.16b, #4\n",
            "sdot v4.4s, v20.16b, v26.16b\n",
            "sdot v5.4s, v21.16b, v26.16b\n",
            "and v23.16b, v19.16b, v31.16b\n",
            "shl v19.16b, v19.16b, #4\n",
            // super-block 1: low nibbles x lq[8..16], high x lq[24..32]
            "sdot v2.4s, v18.16b, v25.16b\n",
            "sdot v6.4s, v22.16b, v27.16b\n",
            "sdot v3.4s, v19.16b, v25.16b\n",
            "sdot v7.4s, v23.16b, v27.16b\n",
        )
    };
}

/// Declares a 256-bit SVE GEMV of `matmul_clamp_f32_qsi8d32p_qsi4c32p` (1 row x 8 columns per
/// step, `..._1x8_sve_dotprod`):
///
/// ```text
/// sve_qsi8d32p_gemv! {
///     /// docs, safety
///     #[target_feature(enable = "sve")]
///     fn name: "<stem for llvm-mca>", lhs v(..);
///     k_loop [ ... ] block_end [ ... ]
/// }
/// ```
///
/// Loop order: groups of 8 columns outside, rows inside, blocks of `bl` values (label 4: the
/// f16 row scale into `z24`, the 8 f16 column scales into `z25`, `x16` = the activations paired
/// with the high nibbles, `bl / 2` after `x9`), then 32-value sub-blocks (label 5: the loop reads
/// the weights at `x10` and the activations at `x9` / `x16` into its `lhs` registers, moves the
/// three on and counts `x12` down, setting the flags for its closing `b.ne`). The loop sums into
/// `z0`..`z3` (decoding with the 0xF0 bytes in `z31` into `z16`..`z23`); `block_end` leaves the
/// block's 8 column sums in `z0` (as f32) and the product of the scales in `z27`. Per block
/// `acc = fma(sums, scales / 16 * row scale, acc)`; after the blocks `acc`, clamped, is stored
/// under the group's column predicate.
macro_rules! sve_qsi8d32p_gemv {
    ($(#[$attr:meta])* fn $name:ident: $mca:literal, lhs v($($lhs:tt)+);
     k_loop [$($body:expr),+ $(,)?] block_end [$($end:expr),+ $(,)?]) => {
        asm_kernel! {
            $(#[$attr])*
            blockwise fn $name(m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max) {
                let (blocks, sub_blocks, _, _) =
                    crate::matmul::kernel_geometry::qsi8d32p_blockwise(m, n, k, bl, 1);

                // Register map
                //   x0  m (rows)                     x8  rows left in this group
                //   x1  columns left (n - 8g)        x9  LHS pointer (low half of the block)
                //   x2  sub-blocks per block         x10 RHS pointer (walks the group)
                //   x3  lhs_packed                   x11 dst pointer of the current row
                //   x4  RHS group pointer            x12 sub-blocks left in this block
                //   x5  dst + 4 * 8g                 x14 bl / 2 (LHS high-half offset)
                //   x6  dst_stride_row               x15 blocks left in this row
                //   x7  blocks (k / bl)              x16 LHS pointer (high half)
                //   w17 clamp_min bits, w20 clamp_max bits, w21 scratch
                //   p0  all lanes                    p1  the group's columns to store
                //
                //   z0-z3   i32 sums; z16-z19 RHS segments, `and 0xf0` in place; z20-z23 the
                //           same shifted left by 4
                //   z24/z25 row scale / column scales, z26 f32 accumulator, z27 scale product
                //   z28/z29 clamp bounds, z30 1/16, z31 0xF0 bytes
                //
                // SAFETY: the caller guarantees (see `# Safety`) that the packed buffers cover
                // exactly the bytes this block reads (m LHS rows; ceil(n / 8) RHS groups), that dst
                // rows are writable for 4 * n bytes, and that the CPU implements SVE with 256-bit
                // vectors (so that `mul vl` offsets step one 32-byte segment). Stores are
                // predicated to the n columns. Only the declared registers are touched and the
                // stack is not used.
                unsafe {
                    kernel_asm!(
                        "ptrue p0.b",
                        "dup z31.b, #-16",
                        "movz w21, #0x3d80, lsl #16", // 1/16
                        "dup z30.s, w21",
                        "dup z28.s, w17",
                        "dup z29.s, w20",
                        // ---- loop over groups of 8 columns ----
                        "2:",
                        "mov x8, x0",
                        "mov x9, x3",
                        "mov x11, x5",
                        "whilelt p1.s, xzr, x1",
                        // ---- loop over rows ----
                        "3:",
                        "mov x10, x4",
                        "mov x15, x7",
                        "mov z26.s, #0",
                        // ---- loop over blocks ----
                        "4:",
                        "ld1rh {{z24.s}}, p0/z, [x9]",
                        "ld1h {{z25.s}}, p0/z, [x10]",
                        "add x9, x9, #2",
                        "add x10, x10, #16",
                        "add x16, x9, x14",
                        "mov x12, x2",
                        zero_z!("0", "1", "2", "3"),
                        // ---- K loop: one 32-value sub-block x 8 columns per iteration ----
                        k_loop!("5", $mca; $($body),+),
                        // ---- block epilogue: x16 ends at the next block ----
                        "mov x9, x16",
                        $($end,)+
                        "subs x15, x15, #1",
                        "fmla z26.s, p0/m, z0.s, z27.s",
                        "b.ne 4b",
                        // ---- row epilogue: clamp, store the group's columns ----
                        "fmax z26.s, p0/m, z26.s, z28.s",
                        "fmin z26.s, p0/m, z26.s, z29.s",
                        "st1w {{z26.s}}, p1, [x11]",
                        "add x11, x11, x6",
                        "subs x8, x8, #1",
                        "b.ne 3b",
                        // ---- next group of 8 columns (x10 ends at its start) ----
                        "mov x4, x10",
                        "add x5, x5, #32",
                        "subs x1, x1, #8",
                        "b.gt 2b";
                        gemv(m, n, sub_blocks, lhs_packed, rhs_packed, dst, dst_stride_row);
                        in("x7") blocks,
                        in("x14") bl / 2,
                        in("x17") clamp_min.to_bits() as usize,
                        in("x20") clamp_max.to_bits() as usize,
                        clobber x(8 9 10 11 12 15 16 21)
                            v(0 1 2 3 $($lhs)+ 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) p(0 1),
                    );
                }
            }
        }
    };
}

/// The start of a 32-value step of the SVE qsi8d32p GEMVs' K loop, after their LHS loads: the
/// step's four RHS segments into z16-z19, the LHS (x9, x16) and RHS (x10) pointers moved on, and
/// the first two segments' nibbles split (z20/z21 = byte << 4, z16/z17 = byte & 0xF0).
macro_rules! sve_qsi8d32p_gemv_rhs_step {
    () => {
        concat!(
            "ld1b {{z16.b}}, p0/z, [x10]\n",
            "ld1b {{z17.b}}, p0/z, [x10, #1, mul vl]\n",
            "ld1b {{z18.b}}, p0/z, [x10, #2, mul vl]\n",
            "ld1b {{z19.b}}, p0/z, [x10, #3, mul vl]\n",
            "add x9, x9, #16\n",
            "add x16, x16, #16\n",
            "addvl x10, x10, #4\n",
            "lsl z20.b, z16.b, #4\n",
            "lsl z21.b, z17.b, #4\n",
            "and z16.d, z16.d, z31.d\n",
            "and z17.d, z17.d, z31.d\n",
        )
    };
}
