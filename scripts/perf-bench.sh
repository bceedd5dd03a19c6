#!/usr/bin/env bash
# Measured throughput: runs the criterion benches (`cargo bench --bench matmul`, every catalog
# kernel and packer this machine can run, on the LLM shapes) natively and prints the Markdown
# section of docs/PERFORMANCE.md from criterion's estimates. Extra arguments go to criterion
# (e.g. a name filter).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf target/criterion/qai8dxp
cargo bench --quiet --bench matmul -- "$@" >/dev/null 2>&1
criterion=$(awk '/^name = "criterion"$/{getline; sub(/^version = /, ""); gsub(/"/, ""); print; exit}' Cargo.lock)
MADE_WITH="$(scripts/made-with.sh), criterion $criterion" python3 - <<'PY'
import json, os, pathlib, platform, re

root = pathlib.Path("target/criterion/qai8dxp")
cpu = platform.machine()
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
rows = []
for est in sorted(root.rglob("new/estimates.json")):
    bench = json.loads((est.parent / "benchmark.json").read_text())
    mean_ns = json.loads(est.read_text())["mean"]["point_estimate"]
    ident = bench["function_id"]
    throughput = bench.get("throughput") or {}
    if "Bytes" in throughput:
        rate = f"{throughput['Bytes'] / mean_ns:.2f} GB/s"
    else:
        rate = f"{throughput['Elements'] / mean_ns:.2f} G/s"
    kind, name, rest = ident.split("/", 2)
    rows.append((kind, name, rest, mean_ns, rate))
order = {"matmul": 0, "pack_rhs": 1, "pack_lhs": 2}
rows.sort(key=lambda r: (order[r[0]], r[1], r[2]))
arch = "aarch64 (the asm kernels)" if platform.machine() in ("aarch64", "arm64") else f"{platform.machine()} (the portable path)"
print(f"## Measured throughput (criterion, {cpu}, {arch})")
print()
print(f"Made with {os.environ['MADE_WITH']} (`scripts/perf-bench.sh`).")
print()
print("GEMM rows give int8 ops (2·M·N·K) per second, GEMV rows packed-weight bytes per second, RHS")
print("packers source-weight bytes per second, LHS packers activations per second. Times are")
print("criterion's mean of 10 samples; the machine is shared, so expect a few percent of noise.")
print()
print("| what | name | shape | time | rate |")
print("|---|---|---|---|---|")
for kind, name, rest, ns, rate in rows:
    t = f"{ns / 1e6:.2f} ms" if ns < 1e9 else f"{ns / 1e9:.2f} s"
    print(f"| {kind} | `{name}` | {rest} | {t} | {rate} |")
PY
