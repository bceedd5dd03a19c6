//! Fragments of the SME (streaming SVE, no SME2) kernels that are not frames: the eight
//! single-vector loads SME1 needs where SME2 has a multi-vector `LD1B` (`ld1b_z16_to_z23!`).
//! The streaming frames themselves are `streaming_frames.rs`.
//!
//! Users: the SME1 `1vlx4vl` and `1x4vl` kernels of `qai8dxp_qsi8cxp` and `qsi8d32p_qsi4c32p`.

/// `LD1B` (predicate p0, zeroing) of the eight consecutive vectors z16-z23 from `[$base]` on
/// (`#0, mul vl` is the plain `[$base]`): SVE and SME1 have no multi-vector load.
macro_rules! ld1b_z16_to_z23 {
    ($base:literal) => {
        ld1b_z16_to_z23!(@each $base;
            ("16", "0") ("17", "1") ("18", "2") ("19", "3") ("20", "4") ("21", "5") ("22", "6") ("23", "7"))
    };
    (@each $base:literal; $(($z:literal, $i:literal))+) => {
        concat!($(concat!("ld1b {{z", $z, ".b}}, p0/z, [", $base, ", #", $i, ", mul vl]\n"),)+)
    };
}
