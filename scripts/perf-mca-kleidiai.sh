#!/usr/bin/env bash
# rkai's inner loops beside KleidiAI's, for every kernel both libraries have an asm loop for
# (llvm-mca-22 on Neoverse N2, V1 and V2, the cores of the performance goal; SME has no llvm-mca
# model). Prints the Markdown
# section "rkai against KleidiAI" of docs/PERFORMANCE.md.
#
#   RKAI_MCA_KLEIDIAI=<directory of object files, or libkleidiai.a> \
#   RKAI_KLEIDIAI_BUILD="<which KleidiAI, how compiled>" scripts/perf-mca-kleidiai.sh
#
# The objects are a local build of KleidiAI's matmul kernels for aarch64 (nothing of it is in this
# repository, and no script here builds it); RKAI_KLEIDIAI_BUILD is printed with the table, so
# say there which commit and compiler flags made them.
#
# Both loops are measured by one rule (scripts/mca_loops.py): rkai's is its marked K loop,
# KleidiAI's the innermost backward-branch loop of `kai_kernel_<stem>` (or `kai_run_<stem>`
# where the asm is inline) holding the most multiply-accumulate instructions; MACs per
# iteration are counted from the instructions of each loop, so loops covering different tiles
# or K depths compare by MACs per cycle.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${RKAI_MCA_KLEIDIAI:?set RKAI_MCA_KLEIDIAI to a directory of KleidiAI aarch64 objects or libkleidiai.a}"
scripts/setup-toolchain.sh --perf >/dev/null

export CARGO_TARGET_DIR=$PWD/target/cross
scripts/cross-cargo rustc --quiet -p rkai-ukernels --release --target aarch64-unknown-linux-gnu -- --emit asm
asm=$(ls -t "$CARGO_TARGET_DIR"/aarch64-unknown-linux-gnu/release/deps/rkai_ukernels-*.s | head -1)

if [ -d "$RKAI_MCA_KLEIDIAI" ]; then
  objects=("$RKAI_MCA_KLEIDIAI"/*.o)
else
  objects=("$RKAI_MCA_KLEIDIAI")
fi
disassembly=$(mktemp)
trap 'rm -f "$disassembly"' EXIT
llvm-objdump-22 -d --no-show-raw-insn --mattr=+sve2,+i8mm,+dotprod,+bf16,+fullfp16 \
  "${objects[@]}" >"$disassembly"

python3 - "$asm" "$disassembly" "${RKAI_KLEIDIAI_BUILD:-unspecified}" <<'PY'
import sys
sys.path.insert(0, "scripts")
from mca_loops import (catalog_kernels, cores_running, functions, innermost_mac_loop,
                       macs_of, marked_regions, mca_cycles, SVE_BYTES)

asm, disassembly, build = sys.argv[1:4]
kernels, vl_scaled, sve256 = catalog_kernels(open("ukernels/src/catalog.rs").read())
ours = marked_regions(open(asm).read())
theirs = functions(open(disassembly).read())


def instructions(body):
    return [x for x in body if not x.endswith(":")]


rows = []
for stem, (isa, _, _, region) in kernels.items():
    code = theirs.get(f"kai_kernel_{stem}") or theirs.get(f"kai_run_{stem}")
    loop = code and innermost_mac_loop(code)
    if not loop or region not in ours:
        continue
    for cpu in [c for c in cores_running(stem, isa, vl_scaled, sve256) if c != "neoverse-n1"]:
        per = []
        for body in (ours[region], loop):
            macs = sum(macs_of(x, SVE_BYTES[cpu]) for x in body)
            cycles = mca_cycles(body, cpu)
            per.append((len(instructions(body)), cycles, macs / cycles))
        rows.append((stem, cpu, per[0], per[1]))

below = [r for r in rows if r[2][2] < r[3][2] * 0.995]
print("## rkai against KleidiAI: inner loops (llvm-mca-22)")
print()
print(f"KleidiAI build measured: {build}. Loops of the {len({r[0] for r in rows})} kernels that "
      "both libraries implement with an asm loop, on the cores of N2, V1 and V2 that run them; "
      "MACs per cycle "
      "are counted from each loop's own multiply-accumulate instructions (the rule of "
      "`scripts/mca_loops.py`), so loops over different tiles or K depths compare directly. "
      "Made by `RKAI_MCA_KLEIDIAI=<objects> RKAI_KLEIDIAI_BUILD=<description> "
      "scripts/perf-mca-kleidiai.sh`.")
print()
print(f"Rows where rkai's loop is below KleidiAI's (by more than 0.5%): {len(below)}.")
print()
print("| kernel | core | rkai instr./iter | rkai cycles/iter | rkai MACs/cycle "
      "| KleidiAI instr./iter | KleidiAI cycles/iter | KleidiAI MACs/cycle | rkai / KleidiAI |")
print("|---|---|---|---|---|---|---|---|---|")
for stem, cpu, (n0, c0, p0), (n1, c1, p1) in rows:
    print(f"| `{stem}` | {cpu} | {n0} | {c0:.2f} | {p0:.1f} | {n1} | {c1:.2f} | {p1:.1f} "
          f"| {p0 / p1:.2f} |")
if below:
    print()
    print("Kernels whose loop is below KleidiAI's on some core (lowest ratio):")
    print()
    worst = {}
    for stem, cpu, (_, _, p0), (_, _, p1) in below:
        worst[stem] = min(worst.get(stem, (9, "")), (p0 / p1, cpu))
    for stem, (ratio, cpu) in worst.items():
        print(f"- `{stem}`: {ratio:.2f} on {cpu}")
PY
