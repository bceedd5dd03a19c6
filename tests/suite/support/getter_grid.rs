//! KleidiAI's getter grids (`tests/data/kleidiai-1.30-getters-grid*.tsv`): every `kai_get_*`
//! function taking only `size_t` (and optionally a trailing `enum kai_datatype`) over a grid of
//! arguments, with KleidiAI 1.30's value at each vector length it was measured at, or `-` where
//! its debug build rejects the arguments there.
//!
//! A grid test calls rkai's exported symbol with its real C prototype (parsed from KleidiAI's
//! declarations, `data/kleidiai-1.30-api.txt`) and checks it returns KleidiAI's value wherever
//! KleidiAI accepts and aborts, naming the function, wherever KleidiAI's debug build rejects.
//! [`grid_tests!`](crate::grid_tests) writes a test binary's tests for one grid.

use super::death;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::OnceLock;

use rkai_capi::capi::exports::symbol_address;
use rkai_ukernels::arch;

const API: &str = include_str!("../data/kleidiai-1.30-api.txt");

/// A getter's C parameter list: `sizes` `size_t` arguments, then an `enum kai_datatype` or not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prototype {
    pub sizes: usize,
    pub trailing_datatype: bool,
}

/// Prototypes of every `kai_get_*` function KleidiAI declares with only `size_t` and
/// `enum kai_datatype` parameters.
pub fn prototypes() -> &'static BTreeMap<&'static str, Prototype> {
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

/// The exported `function`'s address and C prototype; panics if either is missing.
pub fn resolve(function: &str) -> (usize, Prototype) {
    let prototype = *prototypes()
        .get(function)
        .unwrap_or_else(|| panic!("{function}: no size_t-only prototype"));
    let addr = symbol_address(function).unwrap_or_else(|| panic!("{function} is not exported"));
    (addr as usize, prototype)
}

/// Calls the exported `function` with `args` through its C prototype.
pub fn call(function: &str, args: &[usize]) -> u64 {
    let (addr, prototype) = resolve(function);
    call_at(function, addr, prototype, args)
}

/// Calls the C function at `addr` (the getter `function`, of `prototype`) with `args`.
/// Allocates nothing, so a forked child may call it.
fn call_at(function: &str, addr: usize, prototype: Prototype, args: &[usize]) -> u64 {
    assert_eq!(
        args.len(),
        prototype.sizes + usize::from(prototype.trailing_datatype),
        "{function}: grid arity"
    );
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

/// Functions that read the hardware rather than compute from arguments (checked against the
/// hardware by the grid test binaries).
pub const HARDWARE_FUNCTIONS: [&str; 2] = [
    "kai_get_sve_vector_length_u8",
    "kai_get_sme_vector_length_u8",
];

/// The vector length a grid's columns follow.
#[derive(Clone, Copy)]
pub enum VectorLength {
    /// The SVE vector length (the SVE kernels' getters).
    Sve,
    /// The streaming vector length (the SME kernels' getters).
    Streaming,
}

impl VectorLength {
    /// The length in bytes rkai's getters describe in this process: the CPU's, or 16 (128 bits)
    /// where the extension is absent, the length rkai's portable implementations run with.
    pub fn bytes(self) -> usize {
        match self {
            VectorLength::Sve => arch::sve_vector_bytes(),
            VectorLength::Streaming => arch::sme_vector_bytes(),
        }
        .unwrap_or(16)
    }
}

/// One grid file and what its columns mean.
pub struct Grid {
    /// The file's contents.
    pub text: &'static str,
    /// The vector length (bytes) each value column was measured at, in column order.
    pub column_bytes: &'static [usize],
    /// Which vector length the columns are measured at.
    pub length: VectorLength,
    /// How many functions the file covers (a check that it was read whole).
    pub functions: usize,
}

/// One grid row: the function, its arguments, KleidiAI's value at each column's vector length
/// (`None`: KleidiAI's debug build rejects the arguments there).
pub struct Row {
    pub function: &'static str,
    pub args: Vec<usize>,
    pub values: Vec<Option<u64>>,
}

impl Grid {
    pub fn rows(&self) -> Vec<Row> {
        let value = |s: &str| (s != "-").then(|| s.parse().expect("grid value"));
        self.text
            .lines()
            .skip(1)
            .map(|line| {
                let cols: Vec<&'static str> = line.split('\t').collect();
                assert_eq!(cols.len(), 2 + self.column_bytes.len(), "grid row `{line}`");
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
                    values: cols[2..].iter().map(|s| value(s)).collect(),
                }
            })
            .collect()
    }

    /// The column measured at this process's vector length, if the grid has one.
    pub fn column(&self) -> Option<usize> {
        let bytes = self.length.bytes();
        self.column_bytes.iter().position(|&b| b == bytes)
    }

    /// The rows this run checks, with KleidiAI's expected value (`None`: must abort). At a
    /// vector length the grid was not measured at, only functions whose every row is the same in
    /// every column (value and acceptance) apply, with the first column's value.
    pub fn applicable(&self, rows: &[Row]) -> Vec<(usize, Option<u64>)> {
        let column = self.column();
        let dependent: BTreeSet<&str> = rows
            .iter()
            .filter(|r| r.values.iter().any(|v| *v != r.values[0]))
            .map(|r| r.function)
            .collect();
        rows.iter()
            .enumerate()
            .filter(|(_, r)| !HARDWARE_FUNCTIONS.contains(&r.function))
            .filter_map(|(i, r)| match column {
                Some(c) => Some((i, r.values[c])),
                None => (!dependent.contains(r.function)).then_some((i, r.values[0])),
            })
            .collect()
    }

    /// Indices of the rows this run expects a value from, with the value.
    pub fn accepted(&self, rows: &[Row]) -> Vec<(usize, u64)> {
        self.applicable(rows)
            .into_iter()
            .filter_map(|(i, expected)| Some((i, expected?)))
            .collect()
    }

    /// Indices of the rows this run expects an abort from.
    pub fn rejected(&self, rows: &[Row]) -> Vec<usize> {
        self.applicable(rows)
            .into_iter()
            .filter(|(_, expected)| expected.is_none())
            .map(|(i, _)| i)
            .collect()
    }

    /// Every function of the grid but the hardware ones is exported with KleidiAI's prototype.
    pub fn check_exports(&self) {
        let functions: BTreeSet<&str> = self.rows().iter().map(|r| r.function).collect();
        assert_eq!(functions.len(), self.functions, "functions in the grid");
        for f in functions {
            assert!(
                prototypes().contains_key(f),
                "{f}: no size_t-only prototype"
            );
            // The two hardware functions are hand-written in kai_common.h's part, not generated.
            assert!(
                HARDWARE_FUNCTIONS.contains(&f) || symbol_address(f).is_some(),
                "{f} is not exported"
            );
        }
    }

    /// Body of the child test of [`Grid::check_accepted`]: from the accepted row that
    /// `RKAI_DEATH_CASE` numbers on, prints `grid-row <row> <value>` per call, then `grid-end`.
    /// A wrongful abort thus shows as the row after the last one printed.
    pub fn accepted_rows_child(&self) {
        let start = death::case_number();
        let rows = self.rows();
        let mut out = std::io::stdout().lock();
        for (index, _) in self.accepted(&rows).into_iter().skip(start) {
            let row = &rows[index];
            let value = call(row.function, &row.args);
            // Flushed per row: the line of a row must be out before the next row can abort.
            writeln!(out, "\ngrid-row {index} {value}").unwrap();
            out.flush().unwrap();
        }
        writeln!(out, "\ngrid-end").unwrap();
    }

    /// Every accepted row returns KleidiAI's value: the rows run in a child (`child_test`, which
    /// calls [`Grid::accepted_rows_child`]), restarted after the row a wrongful abort stopped at.
    /// Fails listing every differing value and every refusal by function and arguments.
    pub fn check_accepted(&self, child_test: &str, min_rows: usize) {
        let rows = self.rows();
        let accepted = self.accepted(&rows);
        let expected: BTreeMap<usize, u64> = accepted.iter().copied().collect();
        let mut wrong = Vec::new();
        let mut start = 0;
        // Each wrongful abort costs one child: stop restarting after 500 of them.
        let mut aborts = 0;
        while start < accepted.len() && aborts < 500 {
            let out = death::run_child(child_test, &start.to_string());
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
            "getters grid: {} accepted rows checked at vector length {} bytes (column {:?})",
            accepted.len(),
            self.length.bytes(),
            self.column()
        );
        assert!(
            accepted.len() >= min_rows,
            "only {} rows apply",
            accepted.len()
        );
        assert!(
            wrong.is_empty(),
            "{} rows differ from KleidiAI{}:\n{}",
            wrong.len(),
            if aborts == 500 {
                " (stopped after 500 aborts)"
            } else {
                ""
            },
            wrong.join("\n")
        );
    }

    /// Every rejected row aborts with KleidiAI's message naming the function. Each row runs in a
    /// forked child, which costs far less than a new process (under QEMU, a new emulator).
    pub fn check_rejected(&self) {
        let rows = self.rows();
        let rejected = self.rejected(&rows);
        let mut failures = Vec::new();
        for &index in &rejected {
            let row = &rows[index];
            let (addr, prototype) = resolve(row.function);
            let outcome = death::in_fork(|| {
                call_at(row.function, addr, prototype, &row.args);
            });
            let named = format!("rkai: {}: assertion failed:", row.function);
            if !outcome.aborted || !outcome.stderr.contains(&named) {
                failures.push(format!(
                    "{}({:?}) did not abort as KleidiAI does: {}",
                    row.function,
                    row.args,
                    outcome.stderr.trim()
                ));
            }
        }
        eprintln!("getters grid: {} rejected rows checked", rejected.len());
        assert!(
            failures.is_empty(),
            "{} of {} rejected rows:\n{}",
            failures.len(),
            rejected.len(),
            failures.join("\n")
        );
    }
}

/// The tests of one grid in a test binary: exports, accepted rows (with their ignored child) and
/// rejected rows. `$grid` is a `Grid` constant; `$min_rows` the fewest accepted rows that may
/// apply in any configuration the suite runs.
#[macro_export]
macro_rules! grid_tests {
    ($grid:expr, $min_rows:expr) => {
        #[test]
        fn every_grid_function_is_exported_with_kleidiai_prototype() {
            $grid.check_exports();
        }

        #[test]
        #[ignore = "run as a child by every_accepted_grid_row_returns_kleidiai_value"]
        fn accepted_rows_child() {
            $grid.accepted_rows_child();
        }

        #[test]
        fn every_accepted_grid_row_returns_kleidiai_value() {
            $grid.check_accepted(&$crate::child_test!("accepted_rows_child"), $min_rows);
        }

        #[test]
        fn every_rejected_grid_row_aborts() {
            $grid.check_rejected();
        }
    };
}
