#!/usr/bin/env bash
# SME kernels per call under QEMU (DESIGN.md §6 item 4; no llvm-mca model covers SME):
# instructions the kernel's own code executes in one matmul call (its entry, the lazy-ZA-save
# check, streaming-mode entry and exit, loops and edges; not the C shim's checks), the share of
# them that are outer products (SMOPA) or dot products (SME2 multi-vector SDOT into ZA, streaming
# SVE SDOT), and the bytes the loop order loads per MAC, on LLM shapes (m = 1 and m = 32,
# n = k = 4096). Prints a Markdown table.
#
# Method: examples/count_instructions.rs runs one call and prints the run-time addresses of the
# kernel's entry and of its main; scripts/qemu_count.py counts, from QEMU's block log, the
# instructions of the blocks inside that function (its size from nm), by encoding class. (The
# difference of two whole-process counts, used before, also counted the driver's symbol lookup,
# whose cost varies between builds by several percent.) Loaded bytes follow from the packed sizes (the driver's `sizes` phase at
# the same SVL) and the loop order: each pair of an LHS row group (mr rows) and an RHS column group
# (nr columns) reads one group of each, so a GEMV reads the packed RHS once per row and a GEMM once
# per row group, and the packed LHS once per column group.
#   scripts/perf-sme.sh                      (SVL 512 bits)
#   RKAI_SME_SVL_BYTES="16 64" scripts/perf-sme.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh >/dev/null

export CARGO_TARGET_DIR=$PWD/target/cross
scripts/cross-cargo build --quiet --release --target aarch64-unknown-linux-gnu --example count_instructions
bin=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release/examples/count_instructions
classes=(outer=ff800010/a0800000 sdot_za=fff09000/c1509000 sdot_z=ffe0fc00/44a00000)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aarch64-linux-gnu-nm -S "$bin" >"$tmp/nm"
count() { # svl_bytes stem m n k bl: instructions of the kernel's own code in one call, by class
  QEMU_CPU="max,sme-default-vector-length=$1" scripts/qemu-aarch64.sh \
    -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib \
    -d in_asm,exec,nochain "$bin" "$2" "$3" "$4" "$5" "$6" run 2>&1 >"$tmp/addresses" |
    python3 scripts/qemu_count.py --kernel-of "$tmp/nm" "$tmp/addresses" "${classes[@]}"
}
sizes() { # svl_bytes stem m n k bl: packed LHS and RHS bytes, mr, nr at that SVL
  QEMU_CPU="max,sme-default-vector-length=$1" scripts/qemu-aarch64.sh \
    -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib \
    "$bin" "$2" "$3" "$4" "$5" "$6" sizes
}

# m n k bl|stem (bl 0: per channel)
configs=(
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa"
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa"
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa"
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa"
  "1 4096 4096 32|matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot"
  "32 4096 4096 32|matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1 4096 4096 32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot"
  "32 4096 4096 32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1 4096 4096 32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot"
  "32 4096 4096 32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa"
)
echo "| kernel | SVL | m x n x k (bl) | instructions | instr. / MAC | MOPA | SDOT (ZA) | SDOT (Z) | MAC instr. share | loaded bytes / MAC |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for svl in ${RKAI_SME_SVL_BYTES:-64}; do
  for config in "${configs[@]}"; do
    IFS='|' read -r shape stem <<<"$config"
    read -r m n k bl <<<"$shape"
    [[ $stem =~ ${RKAI_SME_STEMS:-.} ]] || continue
    counts=$(count "$svl" "$stem" "$m" "$n" "$k" "$bl")
    packed=$(sizes "$svl" "$stem" "$m" "$n" "$k" "$bl")
    python3 - "$stem" "$svl" "$m" "$n" "$k" "$bl" "$counts" "$packed" <<'PY'
import sys
stem, svl, m, n, k, bl = sys.argv[1], *map(int, sys.argv[2:7])
(total, outer, sdot_za, sdot_z), packed = (list(map(int, a.split())) for a in sys.argv[7:9])
lhs_bytes, rhs_bytes, mr, nr = packed
row_groups, col_groups = -(-m // mr), -(-n // nr)
# Each (row group, column group) pair reads one LHS group and one RHS group.
loaded = col_groups * lhs_bytes + row_groups * rhs_bytes
macs = m * n * k
share = (outer + sdot_za + sdot_z) / total
name = stem.removeprefix("matmul_clamp_")
shape = f"{m}x{n}x{k}" + (f" ({bl})" if bl else "")
print(f"| `{name}` | {8 * svl} | {shape} | {total:,} | {total / macs:.5f} "
      f"| {outer:,} | {sdot_za:,} | {sdot_z:,} | {100 * share:.1f}% | {loaded / macs:.3f} |")
PY
  done
done
