//! Every getter rkai shares with KleidiAI 1.30 returns KleidiAI's value over KleidiAI's own
//! argument grid (`data/kleidiai-1.30-getters-grid.tsv`, measured by calling KleidiAI's library at
//! 128- and 256-bit SVE vector lengths), and aborts exactly where KleidiAI's debug build asserts.
//! The SME getters' grid, over streaming vector lengths, is `getters_grid_sme.rs`.

use crate::support;

use std::collections::BTreeSet;
use support::cpu;
use support::death;
use support::getter_grid::{Grid, VectorLength, call, prototypes};

use rkai_ukernels::arch::Features;

use support::cpu::{kai_get_sme_vector_length_u8, kai_get_sve_vector_length_u8};

/// The grid over SVE vector lengths (where SVE is absent, rkai's SVE-dependent getters describe
/// the 128-bit form its portable implementations run).
const SVE_GRID: Grid = Grid {
    text: include_str!("data/kleidiai-1.30-getters-grid.tsv"),
    column_bytes: &[16, 32],
    length: VectorLength::Sve,
    functions: 777,
};

grid_tests!(SVE_GRID, 60_000);

#[test]
fn vector_length_functions_read_the_hardware() {
    if !cfg!(target_arch = "aarch64") {
        return;
    }
    let features = cpu::features();
    if features.contains(Features::SVE) {
        let bytes = kai_get_sve_vector_length_u8();
        assert!(bytes.is_power_of_two() && (16..=256).contains(&bytes));
        assert_eq!(bytes as usize, VectorLength::Sve.bytes());
    }
    if features.contains(Features::SME) {
        let bytes = kai_get_sme_vector_length_u8();
        assert!(bytes.is_power_of_two() && (16..=256).contains(&bytes));
    }
}

/// What a source-offset getter returns, from KleidiAI 1.30's definitions.
#[derive(Clone, Copy)]
enum SourceOffset {
    /// `(idx, stride) -> idx * stride` (N x K / row-major sources).
    IndexTimesStride,
    /// `(n_idx, rhs_stride) -> n_idx / 2`: a column of a K x N int4 row; asserts `n_idx` even.
    Int4Column,
    /// `(n_idx, rhs_stride) -> n_idx`: a column of a K x N int8 row.
    Int8Column,
    /// `(idx) -> idx * bytes`: a column of a K x N row or of a bias vector.
    IndexTimes(u64),
}

/// When KleidiAI asserts the index: a fixed multiple, one read from a getter (vector-length
/// dependent), or never.
#[derive(Clone, Copy)]
enum IndexMultiple {
    Any,
    Of(usize),
    OfGetter(&'static str),
}

use IndexMultiple::{Any, Of, OfGetter};
use SourceOffset::{IndexTimes, IndexTimesStride, Int4Column, Int8Column};

/// Every source-offset getter (`kai_get_{lhs,rhs,bias}_offset_*`) rkai shares with KleidiAI,
/// with KleidiAI 1.30's formula and index assertion. The grid holds only even indices and two
/// strides, and no row KleidiAI rejects at both vector lengths; this table covers the rest.
const SOURCE_OFFSET_GETTERS: &[(&str, SourceOffset, IndexMultiple)] = &[
    (
        "kai_get_lhs_offset_lhs_pack_bf16p8x4_f16_neon",
        IndexTimesStride,
        Of(8),
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_bf16p1x4_f32_neon",
        IndexTimesStride,
        Of(1),
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_bf16p8x4_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f16_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qsi8d32pscalef32_f16_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla",
        IndexTimesStride,
        Of(1),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_lhs_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla",
        IndexTimesStride,
        Of(6),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0",
        Int4Column,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0",
        Int4Column,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon",
        Int8Column,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon",
        IndexTimesStride,
        Any,
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_x16p32x1bx16_x16_x16_neon",
        IndexTimesStride,
        Of(32),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_nxk_x32p16x1bx32_x32_x32_neon",
        IndexTimesStride,
        Of(16),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_x16p32x1b_x16_x16_neon",
        IndexTimes(2),
        Of(32),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_x32p16x1b_x32_x32_neon",
        IndexTimes(4),
        Of(16),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_x32p4vlx1b_x32_x32_sve",
        IndexTimes(4),
        OfGetter("kai_get_n_step_rhs_pack_kxn_x32p4vlx1b_x32_x32_sve"),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon",
        IndexTimes(2),
        Of(12),
    ),
    (
        "kai_get_rhs_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon",
        IndexTimes(4),
        Of(12),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf32_f16_neon",
        IndexTimes(2),
        Of(12),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon",
        IndexTimes(2),
        Of(16),
    ),
    (
        "kai_get_rhs_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon",
        IndexTimes(4),
        Of(8),
    ),
    (
        "kai_get_bias_offset_rhs_pack_nxk_x16p32x1bx16_x16_x16_neon",
        IndexTimes(2),
        Of(32),
    ),
    (
        "kai_get_bias_offset_rhs_pack_nxk_x32p16x1bx32_x32_x32_neon",
        IndexTimes(4),
        Of(16),
    ),
    (
        "kai_get_bias_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon",
        IndexTimes(4),
        Of(12),
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon",
        IndexTimes(2),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_x16p32x1b_x16_x16_neon",
        IndexTimes(2),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_x32p16x1b_x32_x32_neon",
        IndexTimes(4),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_x32p4vlx1b_x32_x32_sve",
        IndexTimes(4),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_f16p16x1biasf16_f16_f16_neon",
        IndexTimes(2),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_bf16p12x4biasf32_f16_neon",
        IndexTimes(4),
        Any,
    ),
    (
        "kai_get_bias_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon",
        IndexTimes(4),
        Any,
    ),
];

/// Strides beyond the grid's two: none, odd, large, not a multiple of anything.
const OFF_GRID_STRIDES: [usize; 5] = [0, 1, 13, 4104, 65_539];

/// The index multiple KleidiAI asserts for `function` (1: none), for the Int4Column case 2.
fn required_multiple(formula: SourceOffset, multiple: IndexMultiple) -> usize {
    match (formula, multiple) {
        (Int4Column, _) => 2,
        (_, Any) => 1,
        (_, Of(m)) => m,
        (_, OfGetter(getter)) => call(getter, &[]) as usize,
    }
}

fn expected_source_offset(formula: SourceOffset, idx: usize, stride: usize) -> u64 {
    match formula {
        IndexTimesStride => (idx * stride) as u64,
        Int4Column => (idx / 2) as u64,
        Int8Column => idx as u64,
        IndexTimes(bytes) => idx as u64 * bytes,
    }
}

/// Calls a source-offset getter with the arguments its prototype takes.
fn call_source_offset(function: &str, idx: usize, stride: usize) -> u64 {
    let prototype = prototypes()[function];
    let args: &[usize] = if prototype.sizes == 2 {
        &[idx, stride]
    } else {
        &[idx]
    };
    call(function, args)
}

#[test]
fn every_source_offset_getter_is_in_the_off_grid_table() {
    let tabled: BTreeSet<&str> = SOURCE_OFFSET_GETTERS.iter().map(|e| e.0).collect();
    assert_eq!(
        tabled.len(),
        SOURCE_OFFSET_GETTERS.len(),
        "duplicate entries"
    );
    let grid: BTreeSet<&str> = SVE_GRID
        .rows()
        .iter()
        .map(|r| r.function)
        .filter(|f| {
            [
                "kai_get_lhs_offset_",
                "kai_get_rhs_offset_",
                "kai_get_bias_offset_",
            ]
            .iter()
            .any(|p| f.starts_with(p))
        })
        .collect();
    assert_eq!(tabled, grid);
}

#[test]
fn source_offset_getters_off_the_grid_follow_kleidiai_formulas() {
    let mut checked = 0;
    for &(function, formula, multiple) in SOURCE_OFFSET_GETTERS {
        let required = required_multiple(formula, multiple);
        for idx in (0..=97).filter(|i| i % required == 0) {
            for stride in OFF_GRID_STRIDES {
                let got = call_source_offset(function, idx, stride);
                let expected = expected_source_offset(formula, idx, stride);
                assert_eq!(got, expected, "{function}({idx}, {stride})");
                checked += 1;
            }
        }
    }
    eprintln!("source offsets: {checked} off-grid calls checked");
}

#[test]
fn source_offset_getters_abort_off_their_multiple() {
    let mut cases = 0;
    for &(function, formula, multiple) in SOURCE_OFFSET_GETTERS {
        if required_multiple(formula, multiple) == 1 {
            continue;
        }
        let required = required_multiple(formula, multiple);
        let outcome = death::in_fork(|| {
            call_source_offset(function, required + 1, 13);
        });
        assert!(
            outcome.aborted
                && outcome
                    .stderr
                    .contains(&format!("rkai: {function}: assertion failed:")),
            "{function} accepted an index KleidiAI rejects: {}",
            outcome.stderr
        );
        cases += 1;
    }
    eprintln!("source offsets: {cases} rejected indices checked");
}
