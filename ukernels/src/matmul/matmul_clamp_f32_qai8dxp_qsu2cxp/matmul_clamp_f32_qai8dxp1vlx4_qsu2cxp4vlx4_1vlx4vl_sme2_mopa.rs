//! `kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa`: GEMM (SVL32 rows x
//! 4 x SVL32 columns per step) with `SMOPA` outer products into the four 32-bit ZA tiles on the
//! `4vlx4` 2-bit interleave of the family's SME2 GEMV, and an LHS in groups of `mr = SVL32` rows
//! with `kr = 4` (one vector per 4-value K block).
//!
//! The frame (loops, epilogue, stores) is the per-channel SME2 GEMM's (`sme2_mopa_frame!`); the K
//! loop expands each vector of codes (a 4-value block of the group's `nr` columns) with `LUTI2`
//! into the four int8 vectors the int8 kernel loads.

streaming_kernel! {
    /// As the family's `sme2_dot` GEMV's function, with `y = (acc as f32) * (lhs_scale[i] *
    /// rscale[j]) + bias[j]` (FMUL, then FADD: two roundings) and `mr = SVL32` rows per LHS group
    /// (`mr * (k + 8)` bytes: for every 4-value K block, `mr` rows x 4 int8 values, then
    /// `lhs_offset: [i32; mr]`, `lhs_scale: [f32; mr]`).
    ///
    #[doc = streaming_kernel_safety!("SME2")]
    lut fn matmul_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(
        m, n, k, lut, lhs_packed, rhs_packed, dst, dst_stride_row, clamp_min, clamp_max,
    ) {
        let svl = crate::arch::sme_vector_bytes().unwrap_or(0);
        let mr = svl / 4;
        // SAFETY: a non-null lut holds 4 entries (the caller's contract).
        let (_, zt0) = unsafe { super::tables(lut) };

        // Register map: the frame's (`sme2_mopa_frame!`), and in the K loop
        //   x25     the ZT0 image
        //   z0-z3   LHS: four 4-value K blocks of mr rows
        //   z16-z19 RHS: the same four blocks of nr columns as codes
        //   z20-z23, z24-z27  a block expanded to int8 (four vectors)
        //
        // SAFETY: the caller guarantees (see `# Safety`) SME2 and that the packed buffers cover the
        // bytes read here (ceil(m / mr) LHS groups and ceil(n / nr) RHS groups, each read exactly,
        // including rows and columns past m and n); ZT0 is loaded from the 64-byte image on this
        // stack frame. The frame covers dst, streaming mode and registers (see `streaming_frames`).
        unsafe {
            sme2_mopa_frame!(
                f32;
                m, n, k, lhs_packed, rhs_packed, dst, dst_stride_row,
                mr * (k + 8), svl * (k / 4 + 12), clamp_min, clamp_max;
                setup: ["ldr zt0, [x25]"];
                k_loop: [
                    // ---- K loop: 16 values per iteration ----
                    "3:",
                    "ld1w {{z0.s-z3.s}}, pn8/z, [x16]",
                    "ld1b {{z16.b-z19.b}}, pn8/z, [x20]",
                    "luti2 {{z20.b-z23.b}}, zt0, z16[0]",
                    "luti2 {{z24.b-z27.b}}, zt0, z17[0]",
                    "smopa za0.s, p0/m, p0/m, z0.b, z20.b",
                    "smopa za1.s, p0/m, p0/m, z0.b, z21.b",
                    "smopa za2.s, p0/m, p0/m, z0.b, z22.b",
                    "smopa za3.s, p0/m, p0/m, z0.b, z23.b",
                    "luti2 {{z20.b-z23.b}}, zt0, z18[0]",
                    "smopa za0.s, p0/m, p0/m, z1.b, z24.b",
                    "smopa za1.s, p0/m, p0/m, z1.b, z25.b",
                    "smopa za2.s, p0/m, p0/m, z1.b, z26.b",
                    "smopa za3.s, p0/m, p0/m, z1.b, z27.b",
                    "luti2 {{z24.b-z27.b}}, zt0, z19[0]",
                    "smopa za0.s, p0/m, p0/m, z2.b, z20.b",
                    "smopa za1.s, p0/m, p0/m, z2.b, z21.b",
                    "smopa za2.s, p0/m, p0/m, z2.b, z22.b",
                    "smopa za3.s, p0/m, p0/m, z2.b, z23.b",
                    "smopa za0.s, p0/m, p0/m, z3.b, z24.b",
                    "smopa za1.s, p0/m, p0/m, z3.b, z25.b",
                    "smopa za2.s, p0/m, p0/m, z3.b, z26.b",
                    "smopa za3.s, p0/m, p0/m, z3.b, z27.b",
                    "addvl x16, x16, #4",
                    "addvl x20, x20, #4",
                    "subs x21, x21, #16",
                    "b.ne 3b",
                ];
                extra: [in("x25") zt0.as_ptr(),];
            );
        }
    }
}
