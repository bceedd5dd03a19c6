//! `kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa`: f16 x Q4_0 GEMM (SVL32 rows
//! x 4 x SVL32 columns per step): widening `FMOPA`s into the four 32-bit ZA tiles, in streaming
//! mode. Operands: f16 activations in groups of `mr = SVL32` rows (one vector per pair of K
//! values, row `r` in lane `r`) and the `ps1s0scalef16` RHS of the Q4_0 SME2 kernels.
//!
//! One 4-value K step of a column group is two vectors of nibbles, two bytes per column; `LD2B`
//! splits them into the columns' first bytes (values 0-1) and second bytes (values 2-3), and one
//! four-vector `LUTI4` through a ZT0 table of the halves `u - 8` widens each into four vectors of
//! f16 pairs, one per ZA tile (tile `t` holds columns `[t x SVL32, (t + 1) x SVL32)`). Each is
//! multiplied by its columns' block scales (loaded once per block and zipped into pairs), then
//! multiplied into its tile by the LHS pair vector. The K loop takes 8 values per iteration:
//! one 4-vector LHS load and two `LD2B`s (43 instructions for 16 `FMOPA`s), where KleidiAI's
//! loop, 4 values per iteration, makes four single-vector LHS loads and two `LD2B`s in 52.
//!
//! The whole K is one block of `sme2_block_mopa_frame` (`streaming_frames`) (`nb = 1`, its block length `k`): ZA
//! accumulates across the scale blocks, which the K loop walks itself; the frame's fold then
//! reads every output row from ZA (row `r` of the four tiles is ZA array rows `4r .. 4r + 4`,
//! one multi-vector `MOVA` of byte-tile slices), clamps and stores it.

/// `ZT0` for `LUTI4` widening the unsigned nibbles of the `ps1s0scalef16` format (zero point 8)
/// to f16: entry `u` (a 32-bit table element, of which a halfword lookup takes the low half) is
/// the half `u - 8`.
pub static U4_MINUS_8_F16: [u32; 16] = [
    0xc800, 0xc700, 0xc600, 0xc500, 0xc400, 0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000,
    0x4200, 0x4400, 0x4500, 0x4600, 0x4700,
];

/// The row loop of the fold: every row of the group from ZA, clamped and stored.
macro_rules! store_rows {
    () => {
        concat!(
            "mov x12, #0\n",
            "mov x22, x14\n",
            "mov x26, x15\n",
            "6:\n",
            "mova {{z20.b-z23.b}}, za0h.b[w12, 0:3]\n",
            sme2_output!(f32, clamp_store, 20, 21, 22, 23; 12, 13; 30, 31; "x22"),
            "add x22, x22, x6\n",
            "add x12, x12, #4\n",
            "subs x26, x26, #1\n",
            "b.ne 6b",
        )
    };
}

/// One pair step of the K loop: the widened f16 weights z$w0..z$w3 times the zipped block scales
/// z24-z27, then their outer products with the LHS pair vector z$a into the four tiles.
macro_rules! scale_and_mopa {
    ($a:literal; $w0:literal, $w1:literal, $w2:literal, $w3:literal) => {
        concat!(
            "fmul z", $w0, ".h, z", $w0, ".h, z24.h\n",
            "fmul z", $w1, ".h, z", $w1, ".h, z25.h\n",
            "fmul z", $w2, ".h, z", $w2, ".h, z26.h\n",
            "fmul z", $w3, ".h, z", $w3, ".h, z27.h\n",
            "fmopa za0.s, p0/m, p0/m, z", $a, ".h, z", $w0, ".h\n",
            "fmopa za1.s, p0/m, p0/m, z", $a, ".h, z", $w1, ".h\n",
            "fmopa za2.s, p0/m, p0/m, z", $a, ".h, z", $w2, ".h\n",
            "fmopa za3.s, p0/m, p0/m, z", $a, ".h, z", $w3, ".h\n",
        )
    };
}

streaming_kernel! {
    /// The family's [contract](super#safety) with `mr = SVL32`, `nr = 4 x SVL32`, `kr = 4`,
    /// `sr = 2` (pairs of K values, 4-value RHS steps).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    blockwise fn matmul_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(
        m, n, k, bl, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;
        let nb = k / bl;

        // Register map: the frame's (`sme2_block_mopa_frame!` with one block of `k` values: x21
        // counts the K values left in the column group; x23 / x20 walk the LHS / RHS data), and
        //   x10 bl                           x27 the column group's next block scales
        //   x11 K values left in the block   x28 nr * k / 2 (offset of the RHS scales)
        //   x12 ZA slice of the output row   x22 / x26 dst of the output row, rows left
        //
        //   K loop: z4-z7 LHS (four pairs of K values of mr rows); z0-z3 packed RHS (z0/z2 the
        //           first bytes of two K steps, z1/z3 the second); z8-z23 widened and scaled
        //           weights; z24-z27 the block's RHS scales, each repeated for a pair
        //   fold:   z20-z23 one output row; z30/z31 clamp_min / clamp_max in every lane
        //   ZT0     the nibble -> f16 table
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (ceil(m / mr) LHS groups of 2 mr k bytes and ceil(n / nr) RHS groups of
        // nr k / 2 nibble bytes and nb x nr scales, each read exactly, including rows and columns
        // past m and n); the table holds 64 bytes. The frame covers dst, streaming mode and
        // registers (see `streaming_frames`).
        unsafe {
            sme2_block_mopa_frame!(f32;
                m, n, 1usize, lhs_packed, rhs_packed, dst, dst_stride_row, 2 * mr * k,
                svl * nb * (bl / 2 + 2), k, U4_MINUS_8_F16.as_ptr(), clamp_min, clamp_max
                    => 30, 31;
                group_setup: ["add x27, x8, x28"];
                k_loop: [
                    // ---- per block: its scales, each column's repeated for a pair ----
                    "5:",
                    "ld1h {{z0.h-z1.h}}, pn8/z, [x27]",
                    "addvl x27, x27, #2",
                    "zip {{z24.h-z25.h}}, z0.h, z0.h",
                    "zip {{z26.h-z27.h}}, z1.h, z1.h",
                    "mov x11, x10",
                    // ---- 8 K values per iteration ----
                    "4:",
                    "ld1w {{z4.s-z7.s}}, pn8/z, [x23]",
                    "ld2b {{z0.b, z1.b}}, p0/z, [x20]",
                    "ld2b {{z2.b, z3.b}}, p0/z, [x20, #2, mul vl]",
                    "luti4 {{z8.h-z11.h}}, zt0, z0[0]",
                    "luti4 {{z12.h-z15.h}}, zt0, z1[0]",
                    "luti4 {{z16.h-z19.h}}, zt0, z2[0]",
                    "luti4 {{z20.h-z23.h}}, zt0, z3[0]",
                    scale_and_mopa!("4"; "8", "9", "10", "11"),
                    scale_and_mopa!("5"; "12", "13", "14", "15"),
                    scale_and_mopa!("6"; "16", "17", "18", "19"),
                    scale_and_mopa!("7"; "20", "21", "22", "23"),
                    "addvl x23, x23, #4",
                    "addvl x20, x20, #4",
                    "subs x11, x11, #8",
                    "b.ne 4b",
                    "subs x21, x21, x10",
                    "b.ne 5b",
                ];
                fold: [store_rows!()];
                extra: [
                    in("x10") bl,
                    out("x11") _,
                    out("x27") _,
                    in("x28") svl * k / 2,
                ]
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_holds_the_halves_u_minus_8() {
        for (u, &e) in super::U4_MINUS_8_F16.iter().enumerate() {
            assert_eq!(e, u32::from(crate::float::f16::from_f64(u as f64 - 8.0)));
        }
    }
}
