#!/usr/bin/env bash
# Regenerates docs/RELIABILITY.md: runs the hardening tests natively and on every QEMU CPU model
# of DESIGN.md §4, collects the case counts the tests print (`RELIABILITY <category> <cases>` on
# stderr), runs the fuzz targets, and writes one table. Any failing test stops the script
# (nothing is written), so a published table always means zero failures.
#   scripts/reliability-report.sh                     (about 30 minutes here)
#   RKAI_FUZZ_SECONDS=300 scripts/reliability-report.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/setup-toolchain.sh >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What the table is made with (computed first, so a failure here costs no test run).
made_with=$(scripts/made-with.sh scripts/qemu-aarch64.sh)

# The files that print case counts, run natively and on each kind of core; the vector-length
# and streaming-length models run CI's files for them (scripts/test-matrix.sh).
tests=(qai8dxp:: overflow:: contract_violations:: safe_api:: selection:: float_gemm:: half_gemm::
  qsi8d32p:: qai4c32p:: bf16_gemm:: qai8dxp_qsu2cxp::)
source scripts/test-matrix.sh
collect() { # label, then the cargo command (the test filters: the array named by $collect_tests)
  local label=$1
  shift
  echo "reliability: $label" >&2
  local -n chosen=${collect_tests:-tests}
  "$@" --test suite -- --nocapture "${full_suite_skips[@]}" "${chosen[@]}" >"$work/out" 2>&1 || {
    tail -40 "$work/out" >&2
    echo "reliability: tests failed on $label" >&2
    exit 1
  }
  # A model whose files print no counts (sve=off) adds no row; grep's status must not end the run.
  { grep -o 'RELIABILITY [a-z_]* [0-9][0-9]*' "$work/out" || true; } |
    awk -v m="$label" '{print m "\t" $2 "\t" $3}' >>"$work/counts"
  # Kept outside the temporary directory, so a failure later leaves the counts behind.
  cp "$work/counts" "$root/target/reliability-counts.tsv"
}

# The fuzz targets first: a failure there stops the script before the long runs.
scripts/fuzz.sh >"$work/fuzz" 2>&1 || {
  tail -40 "$work/fuzz" >&2
  exit 1
}
collect "$(uname -m) (native)" cargo test --release
export CARGO_TARGET_DIR=$root/target/cross
cross=(scripts/cross-cargo test --release --target aarch64-unknown-linux-gnu)
for model in $models; do
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model collect "$model" "${cross[@]}"
done
for model in $vl_models; do
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sve collect_tests=vl_tests \
    collect "$model (SVE kernels)" "${cross[@]}"
done
for model in $svl_models; do
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sme collect_tests=svl_tests \
    collect "$model (SME kernels)" "${cross[@]}"
done
if [[ -n "$sve_off_model" ]]; then
  QEMU_CPU=$sve_off_model RKAI_EXPECT_CPU=$sve_off_model collect_tests=sve_off_tests \
    collect "$sve_off_model" "${cross[@]}"
fi
unset CARGO_TARGET_DIR
cat "$work/fuzz" >&2

python3 - "$work/counts" "$work/fuzz" "${RKAI_FUZZ_SECONDS:-30}" "$made_with" >"$work/report" <<'PY'
import sys, collections, re
counts = collections.OrderedDict()
models = []
for line in open(sys.argv[1]):
    model, cat, n = line.rstrip("\n").split("\t")
    if model not in models:
        models.append(model)
    counts.setdefault(cat, {})
    counts[cat][model] = counts[cat].get(model, 0) + int(n)
what = {
    "bounds_kernels": "Bounds: kernel calls, every portion of the edge-shape matrix, operands (packed or not) and dst against guard pages on both sides, dst pre-filled with a canary checked outside the portion",
    "bounds_portable": "Bounds: the same matrix through the portable implementation of every kernel (what x86_64 and CPUs without the kernel's extension would run)",
    "bounds_packers": "Bounds: packer calls against guard pages on both sides, bytes compared with the reference",
    "registers": "Registers: asm kernel calls through a trampoline that seeds and checks x19-x28, x29, sp, d8-d15",
    "concurrency": "Concurrency: kernels run as 8 threads on disjoint m_step x n_step portions of shared operands, bytes equal to one call",
    "overflow_layouts": "Overflow: kernel x block-length layouts exact at the size_t boundary and refused one step past it",
    "overflow_c_aborts": "Overflow: C getters given wrapping sizes abort with the condition (child processes)",
    "hostile": "Hostile data: NaN, +-Inf, denormal, all-zero, huge activations; zero, denormal, huge, infinite, NaN scales; non-finite bias; NaN (quiet, signalling), +-Inf, signed-zero, subnormal and overflowing float activations and weights, NaN clamp bounds (kernel and LHS-packer calls, guard pages, vs reference)",
    "contract": "Contract violations: KleidiAI assertions triggered in child processes, message checked",
    "reference": "Reference: SME, SVE2.1 and depthwise kernel calls on edge shapes and portions against the scalar reference (int8 requantized output bit-exact, float within its tolerance)",
    "strides": "Strides: SME kernel calls with LHS and dst row strides wider than a row, padding untouched",
    "packers": "Packers: SME packer calls on edge shapes with special values, bytes compared with the reference",
    "packer_bytes": "Packer bytes: depthwise weight packer calls, bytes compared with the reference",
    "getters": "Getters: SME step, offset and size getters equal to KleidiAI's values at this streaming length",
    "lazy_za": "Lazy ZA: SME kernels called by a caller with a pending lazy ZA save (TPIDR2_EL0 names a save block): the save is committed before ZA is used, results still match the reference",
    "plans": "Plans: SME/NEON split plans for every family, shape, thread and SME-unit count keep their invariants (every column once, the SME side in whole steps)",
    "death": "Contract violations of the int8-output and depthwise kernels: KleidiAI assertions triggered in child processes, message checked",
    "from_bytes": "Loading packed bytes: `PackedWeights::from_bytes` takes C-packed bytes and refuses another vector length, a short buffer and a block length KleidiAI refuses",
}
print("# Reliability\n")
print("Generated by `scripts/reliability-report.sh` (the hardening campaign of issue 7). Each number is")
print("a count of checked cases on that CPU model; the script stops without writing this file if any")
print("case fails, so every figure below had **0 failures**. Asm kernels run only on the models whose")
print("extensions they need (none on cortex-a53); x86_64 runs every kernel's portable implementation")
print("through the exported C functions. The models and test files are CI's")
print("(`scripts/test-matrix.sh`); each column runs the files listed there for it, in release mode.\n")
print(f"Made on {sys.argv[4]} (neoverse-v1 under QEMU 10, see `scripts/qemu-aarch64.sh`).\n")
print("| category | " + " | ".join(f"`{m}`" for m in models) + " |")
print("|---|" + "---|" * len(models))
order = list(what) + [c for c in counts if c not in what]
for cat in (c for c in order if c in counts):
    per = counts[cat]
    print(f"| {what.get(cat, cat)} | " + " | ".join(f"{per.get(m, 0):,}" for m in models) + " |")
fuzz = open(sys.argv[2]).read()
runs = re.findall(r"fuzz: (\S+) for (\d+)s.*?Done (\d+) runs", fuzz, re.S)
print("\n## Fuzzing (x86_64, libFuzzer + AddressSanitizer, portable path)\n")
if runs:
    print("| target | what it checks | seconds | runs | failures |\n|---|---|---|---|---|")
    desc = {
        "layout_sizes": "every packed layout's size/offset arithmetic on arbitrary (huge, zero, odd) arguments: no panic, no wrap, offsets inside sizes",
        "safe_api": "the safe Rust API's constructors and matmul on arbitrary shapes, block lengths, slice lengths and data: Err or an in-bounds run writing exactly m x n outputs",
    }
    for t, s, n in runs:
        print(f"| `{t}` | {desc.get(t, '')} | {s} | {int(n):,} | 0 |")
    print("\nSeed corpus: `fuzz/corpus/<target>`. Longer runs: `RKAI_FUZZ_SECONDS=600 scripts/fuzz.sh`.")
else:
    print("Skipped: no nightly toolchain.")
print("\n## Also checked on every change (`scripts/test-all.sh`, run by `.ci/run`)\n")
print("- The same models and files in debug mode, and the fuzz targets for 30 s each.")
print("- The safe API returns an `Err` (never aborts) for short buffers, mismatched formats and shapes,")
print("  block lengths KleidiAI refuses and families it does not cover (`tests/suite/safe_api.rs`).")
PY
mv "$work/report" docs/RELIABILITY.md
echo "wrote docs/RELIABILITY.md"
