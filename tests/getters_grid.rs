//! Every getter rkai shares with KleidiAI 1.30 returns KleidiAI's value over KleidiAI's own
//! argument grid (`data/kleidiai-1.30-getters-grid.tsv`, measured by calling KleidiAI's library at
//! 128- and 256-bit SVE vector lengths), and aborts exactly where KleidiAI's debug build asserts.
//!
//! The argument types come from KleidiAI's declarations (`data/kleidiai-1.30-api.txt`), so a
//! getter is called with its real C prototype: `size_t`s, optionally followed by one
//! `enum kai_datatype`.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::cpu;
use support::death;

use rkai::capi::exports::symbol_address;
use rkai::ukernels::arch::Features;

const GRID: &str = include_str!("data/kleidiai-1.30-getters-grid.tsv");
const API: &str = include_str!("data/kleidiai-1.30-api.txt");

/// A getter's C parameter list: `sizes` `size_t` arguments, then an `enum kai_datatype` or not.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Prototype {
    sizes: usize,
    trailing_datatype: bool,
}

/// Prototypes of every `kai_get_*` function KleidiAI declares with only `size_t` and
/// `enum kai_datatype` parameters.
fn prototypes() -> &'static BTreeMap<&'static str, Prototype> {
    static PROTOTYPES: OnceLock<BTreeMap<&'static str, Prototype>> = OnceLock::new();
    PROTOTYPES.get_or_init(parse_prototypes)
}

fn parse_prototypes() -> BTreeMap<&'static str, Prototype> {
    let mut out = BTreeMap::new();
    for line in API.lines() {
        let Some(open) = line.find('(') else { continue };
        let Some(name) = line[..open].split_whitespace().last() else {
            continue;
        };
        if !name.starts_with("kai_get_") {
            continue;
        }
        let params = line[open + 1..].trim_end_matches([')', ';', ' ']);
        let types: Vec<&str> = if params.trim() == "void" || params.trim().is_empty() {
            Vec::new()
        } else {
            params.split(',').map(str::trim).collect()
        };
        let sizes = types.iter().take_while(|t| t.starts_with("size_t")).count();
        let trailing_datatype = match &types[sizes..] {
            [] => false,
            [t] if t.starts_with("enum kai_datatype") => true,
            _ => continue,
        };
        out.insert(
            name,
            Prototype {
                sizes,
                trailing_datatype,
            },
        );
    }
    out
}

/// One grid row: the function, its arguments, KleidiAI's value at 128- and 256-bit vector length
/// (`None`: KleidiAI's debug build rejects the arguments there).
struct Row {
    function: &'static str,
    args: Vec<usize>,
    value_vl128: Option<u64>,
    value_vl256: Option<u64>,
}

fn rows() -> Vec<Row> {
    let value = |s: &str| (s != "-").then(|| s.parse().expect("grid value"));
    GRID.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&'static str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "grid row `{line}`");
            let args = if cols[1].is_empty() {
                Vec::new()
            } else {
                cols[1]
                    .split(',')
                    .map(|a| a.parse().expect("grid argument"))
                    .collect()
            };
            Row {
                function: cols[0],
                args,
                value_vl128: value(cols[2]),
                value_vl256: value(cols[3]),
            }
        })
        .collect()
}

/// Calls the exported `function` with `args` through its C prototype.
fn call(function: &str, prototype: Prototype, args: &[usize]) -> u64 {
    assert_eq!(
        args.len(),
        prototype.sizes + usize::from(prototype.trailing_datatype),
        "{function}: grid arity"
    );
    let addr = symbol_address(function).unwrap_or_else(|| panic!("{function} is not exported"));
    // SAFETY (every transmute below): `addr` is the exported C function `function`, whose
    // KleidiAI prototype is `prototype` (size_t is usize; enum kai_datatype is a C int, u32 here);
    // getters read only their arguments.
    macro_rules! invoke {
        ($($a:ident),*; $dt:ident) => {{
            let f: extern "C" fn($($a: usize,)* $dt: u32) -> usize =
                unsafe { std::mem::transmute(addr) };
            let [$($a,)* $dt] = args.try_into().unwrap();
            f($($a,)* u32::try_from($dt).expect("datatype")) as u64
        }};
        ($($a:ident),*) => {{
            let f: extern "C" fn($($a: usize),*) -> usize = unsafe { std::mem::transmute(addr) };
            let [$($a),*] = args.try_into().unwrap();
            f($($a),*) as u64
        }};
    }
    match (prototype.sizes, prototype.trailing_datatype) {
        (0, false) => invoke!(),
        (1, false) => invoke!(a),
        (2, false) => invoke!(a, b),
        (3, false) => invoke!(a, b, c),
        (4, false) => invoke!(a, b, c, d),
        (5, false) => invoke!(a, b, c, d, e),
        (6, false) => invoke!(a, b, c, d, e, f),
        (5, true) => invoke!(a, b, c, d, e; dt),
        (6, true) => invoke!(a, b, c, d, e, f; dt),
        other => panic!("{function}: no call shape for {other:?}"),
    }
}

unsafe extern "C" {
    safe fn kai_get_sve_vector_length_u8() -> u64;
    safe fn kai_get_sme_vector_length_u8() -> u64;
}

/// The vector length whose grid column applies here, in bytes: the CPU's SVE length, or 16 where
/// SVE is absent (rkai's SVE-dependent getters then describe the 128-bit form its portable
/// implementations run). `None` at lengths the grid was not measured at.
fn grid_vector_length() -> Option<usize> {
    let bytes = if cfg!(target_arch = "aarch64") && cpu::features().contains(Features::SVE) {
        kai_get_sve_vector_length_u8() as usize
    } else {
        16
    };
    matches!(bytes, 16 | 32).then_some(bytes)
}

/// Functions whose value depends on the vector length (the columns differ in some row).
fn vector_length_dependent(rows: &[Row]) -> BTreeSet<&'static str> {
    rows.iter()
        .filter(|r| r.value_vl128 != r.value_vl256)
        .map(|r| r.function)
        .collect()
}

/// Functions that read the hardware rather than compute from arguments: checked against the
/// hardware in `vector_length_functions_read_the_hardware`.
const HARDWARE_FUNCTIONS: [&str; 2] = [
    "kai_get_sve_vector_length_u8",
    "kai_get_sme_vector_length_u8",
];

/// The rows this run checks with KleidiAI's expected value (`None`: must abort).
fn applicable(rows: &[Row]) -> Vec<(&Row, Option<u64>)> {
    let vl = grid_vector_length();
    let dependent = vector_length_dependent(rows);
    rows.iter()
        .filter(|r| !HARDWARE_FUNCTIONS.contains(&r.function))
        .filter_map(|r| match vl {
            Some(16) => Some((r, r.value_vl128)),
            Some(_) => Some((r, r.value_vl256)),
            None => (!dependent.contains(r.function)).then_some((r, r.value_vl128)),
        })
        .collect()
}

#[test]
fn every_grid_function_is_exported_with_kleidiai_prototype() {
    let protos = prototypes();
    let functions: BTreeSet<&str> = rows().iter().map(|r| r.function).collect();
    assert_eq!(functions.len(), 777, "the grid covers 777 functions");
    for f in functions {
        assert!(protos.contains_key(f), "{f}: no size_t-only prototype");
        // The two hardware functions are hand-written in kai_common.h's part, not generated.
        assert!(
            HARDWARE_FUNCTIONS.contains(&f) || symbol_address(f).is_some(),
            "{f} is not exported"
        );
    }
}

/// Indices (into `rows`) of the rows this run expects a value from, with the value.
fn accepted(rows: &[Row]) -> Vec<(usize, u64)> {
    applicable(rows)
        .into_iter()
        .filter_map(|(row, expected)| Some((row_index(rows, row), expected?)))
        .collect()
}

fn row_index(rows: &[Row], row: &Row) -> usize {
    (row as *const Row as usize - rows.as_ptr() as usize) / size_of::<Row>()
}

/// At most `n` of the messages (each starting with its function name) per function.
fn first_per_function(messages: &[String], n: usize) -> Vec<&str> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    messages
        .iter()
        .filter(|m| {
            let count = seen.entry(m.split('(').next().unwrap_or(m)).or_default();
            *count += 1;
            *count <= n
        })
        .map(String::as_str)
        .collect()
}

/// Child of `every_accepted_grid_row_returns_kleidiai_value`: from the accepted row that
/// `RKAI_DEATH_CASE` numbers on, prints `<row> <value>` per call, then `end`. A wrongful abort
/// thus shows as the row after the last one printed.
#[test]
#[ignore = "run as a child by every_accepted_grid_row_returns_kleidiai_value"]
fn accepted_rows_child() {
    let start = death::case_number();
    let protos = prototypes();
    let rows = rows();
    let mut out = std::io::stdout().lock();
    for (index, _) in accepted(&rows).into_iter().skip(start) {
        let row = &rows[index];
        let value = call(row.function, protos[row.function], &row.args);
        // Flushed per row: the line of a row must be out before the next row can abort.
        writeln!(out, "\ngrid-row {index} {value}").unwrap();
        out.flush().unwrap();
    }
    writeln!(out, "\ngrid-end").unwrap();
}

#[test]
fn every_accepted_grid_row_returns_kleidiai_value() {
    let rows = rows();
    let accepted = accepted(&rows);
    let expected: BTreeMap<usize, u64> = accepted.iter().copied().collect();
    let mut wrong = Vec::new();
    let mut start = 0;
    // Each wrongful abort costs one child: stop restarting after 200 of them.
    let mut aborts = 0;
    while start < accepted.len() && aborts < 200 {
        let out = death::run_child("accepted_rows_child", &start.to_string());
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut finished = false;
        for line in stdout.lines() {
            if line == "grid-end" {
                finished = true;
                continue;
            }
            let Some((index, value)) = line
                .strip_prefix("grid-row ")
                .and_then(|l| l.split_once(' '))
            else {
                continue;
            };
            let (Ok(index), Ok(value)) = (index.parse::<usize>(), value.parse::<u64>()) else {
                continue;
            };
            let row = &rows[index];
            if value != expected[&index] {
                wrong.push(format!(
                    "{}({:?}) = {value}, KleidiAI {}",
                    row.function, row.args, expected[&index]
                ));
            }
            start += 1;
        }
        if finished {
            break;
        }
        let (index, _) = accepted[start];
        let row = &rows[index];
        wrong.push(format!(
            "{}({:?}) aborts, KleidiAI returns {}: {}",
            row.function,
            row.args,
            expected[&index],
            String::from_utf8_lossy(&out.stderr).trim()
        ));
        start += 1;
        aborts += 1;
    }
    eprintln!(
        "getters grid: {} rows expected at vector length {:?}",
        accepted.len(),
        grid_vector_length()
    );
    assert!(
        accepted.len() > 60_000,
        "only {} rows apply",
        accepted.len()
    );
    assert!(
        wrong.is_empty(),
        "{} rows differ from KleidiAI (first 3 per function{}):\n{}",
        wrong.len(),
        if aborts == 200 {
            "; stopped after 200 aborts"
        } else {
            ""
        },
        first_per_function(&wrong, 3).join("\n")
    );
}

/// The child half of the death test: the row `RKAI_DEATH_CASE` numbers must abort.
#[test]
#[ignore = "run as a child by every_rejected_grid_row_aborts"]
fn death_child() {
    let index = death::case_number();
    let rows = rows();
    let row = &rows[index];
    call(row.function, prototypes()[row.function], &row.args);
    println!("survived");
}

#[test]
fn every_rejected_grid_row_aborts() {
    let rows = rows();
    let rejected: Vec<usize> = applicable(&rows)
        .iter()
        .filter(|(_, expected)| expected.is_none())
        .map(|(row, _)| row_index(&rows, row))
        .collect();
    // Each case is a child process (under QEMU a whole emulator start): run a few at once.
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = rejected.get(i) else { break };
                    let out = death::run_child("death_child", &index.to_string());
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    let row = &rows[index];
                    let named = format!("rkai: {}: assertion failed:", row.function);
                    if out.status.success() || !stderr.contains(&named) {
                        failures.lock().unwrap().push(format!(
                            "{}({:?}) did not abort as KleidiAI does: {}{stderr}",
                            row.function,
                            row.args,
                            String::from_utf8_lossy(&out.stdout)
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!("getters grid: {} rejected rows checked", rejected.len());
    assert!(
        failures.is_empty(),
        "{} of {} rejected rows:\n{}",
        failures.len(),
        rejected.len(),
        failures.join("\n")
    );
}

#[test]
fn vector_length_functions_read_the_hardware() {
    if !cfg!(target_arch = "aarch64") {
        return;
    }
    let features = cpu::features();
    if features.contains(Features::SVE) {
        let bytes = kai_get_sve_vector_length_u8();
        assert!(bytes.is_power_of_two() && (16..=256).contains(&bytes));
        if let Some(vl) = grid_vector_length() {
            assert_eq!(bytes as usize, vl);
        }
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
        (_, OfGetter(getter)) => call(getter, prototypes()[getter], &[]) as usize,
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
    call(function, prototype, args)
}

#[test]
fn every_source_offset_getter_is_in_the_off_grid_table() {
    let tabled: BTreeSet<&str> = SOURCE_OFFSET_GETTERS.iter().map(|e| e.0).collect();
    assert_eq!(
        tabled.len(),
        SOURCE_OFFSET_GETTERS.len(),
        "duplicate entries"
    );
    let grid: BTreeSet<&str> = rows()
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

/// Child of `source_offset_getters_abort_off_their_multiple`: calls the table entry
/// `RKAI_DEATH_CASE` numbers at the smallest index KleidiAI rejects.
#[test]
#[ignore = "run as a child by source_offset_getters_abort_off_their_multiple"]
fn source_offset_death_child() {
    let entry: usize = std::env::var(death::CASE_ENV)
        .expect("case")
        .parse()
        .expect("entry");
    let (function, formula, multiple) = SOURCE_OFFSET_GETTERS[entry];
    let required = required_multiple(formula, multiple);
    call_source_offset(function, required + 1, 13);
    println!("survived");
}

#[test]
fn source_offset_getters_abort_off_their_multiple() {
    let mut cases = 0;
    for (entry, &(function, formula, multiple)) in SOURCE_OFFSET_GETTERS.iter().enumerate() {
        if required_multiple(formula, multiple) == 1 {
            continue;
        }
        let out = death::run_child("source_offset_death_child", &entry.to_string());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success()
                && stderr.contains(&format!("rkai: {function}: assertion failed:")),
            "{function} accepted an index KleidiAI rejects: {stderr}"
        );
        cases += 1;
    }
    eprintln!("source offsets: {cases} rejected indices checked");
}
