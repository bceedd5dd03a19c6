//! `kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot`: GEMV (1 row x 4 x SVL32
//! columns per step) with SME2 multi-vector `SDOT` into ZA on the `4vlx4` 2-bit interleave
//! (`nr = SVL bytes`: per 4 K values, one byte of every column, one vector).
//!
//! The frame (loops, epilogue, stores) is the per-channel SME2 GEMV's (`sme2_dot_frame!`). The K
//! loop expands each vector of codes with `LUTI2` through ZT0 (the caller's table as 32-bit
//! entries) into four vectors of int8 weights in column order: a 4-value K block of all `nr`
//! columns, as the int8 kernel loads it.

streaming_kernel! {
    /// Computes `dst[i][j]` for `i < m`, `j < n` from packed operands:
    ///
    /// ```text
    /// acc = sum_{kk < k} lq[i][kk] * (lut[code[j][kk]] as i8)  (wrapping i32)
    /// acc = acc + lhs_offset[i] * rsum[j]                      (i32)
    /// y   = fma(acc as f32, rscale[j] * lhs_scale[i], bias[j]) (FMLA: one rounding)
    /// dst[i][j] = fclamp(y, clamp_min, clamp_max)              (FMAXNM, then FMINNM)
    /// ```
    ///
    /// LHS: one row per `k + 8` bytes (`k` int8, `lhs_offset: i32`, `lhs_scale: f32`). RHS: groups
    /// of `nr` columns of `nr * (k / 4 + 12)` bytes (per 4 K values one code byte per column, then
    /// `rsum`, `rscale`, `bias`). `lut`: 4 `i32` or null (`{-2, -1, 0, 1}`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    lut fn matmul_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(
        m, n, k, lut, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let nr = crate::arch::sme_vector_bytes().unwrap_or(0);
        // SAFETY: a non-null lut holds 4 entries (the caller's contract).
        let (_, zt0) = unsafe { super::tables(lut) };

        // Register map: the frame's (`sme2_dot_frame!`), and in the K loop
        //   x25     the ZT0 image
        //   z0      16 activations in every 128-bit segment
        //   z16-z19 RHS: four 4-value K blocks of nr columns as codes
        //   z24-z27, z28-z31, z4-z7, z8-z11  the blocks expanded to int8 (four vectors each)
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and the extents read here (m LHS rows
        // of k + 8 bytes; ceil(n / nr) RHS groups read exactly); ZT0 is loaded from the 64-byte
        // image on this stack frame. The frame covers dst, streaming mode and registers (see
        // `streaming_frames`).
        unsafe {
            sme2_dot_frame!(
                f32;
                m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row,
                nr * (k / 4 + 12), clamp_min, clamp_max;
                setup: ["ldr zt0, [x25]"];
                k_loop: [
                    // ---- K loop: 16 values x nr columns per iteration ----
                    "3:",
                    "ld1rqb {{z0.b}}, p0/z, [x13]",
                    "ld1b {{z16.b-z19.b}}, pn8/z, [x14]",
                    "luti2 {{z24.b-z27.b}}, zt0, z16[0]",
                    "luti2 {{z28.b-z31.b}}, zt0, z17[0]",
                    "sdot za.s[w8, 0, vgx4], {{z24.b-z27.b}}, z0.b[0]",
                    "luti2 {{z4.b-z7.b}}, zt0, z18[0]",
                    "sdot za.s[w8, 1, vgx4], {{z28.b-z31.b}}, z0.b[1]",
                    "luti2 {{z8.b-z11.b}}, zt0, z19[0]",
                    "sdot za.s[w8, 2, vgx4], {{z4.b-z7.b}}, z0.b[2]",
                    "sdot za.s[w8, 3, vgx4], {{z8.b-z11.b}}, z0.b[3]",
                    "addvl x14, x14, #4",
                    "add x13, x13, #16",
                    "subs x16, x16, #16",
                    "b.ne 3b",
                ];
                extra: [in("x25") zt0.as_ptr(),];
            );
        }
    }
}
