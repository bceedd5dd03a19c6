#!/usr/bin/env bash
# SME kernels per whole call under QEMU (DESIGN.md §6 item 4; no llvm-mca model covers SME):
# instructions executed by one matmul call, the share of them that are outer products (SMOPA)
# or dot products (SME2 multi-vector SDOT into ZA, streaming SVE SDOT), and the bytes the loop
# order loads per MAC, on LLM shapes (m = 1 and m = 32, n = k = 4096). Prints a Markdown table.
#
# Method: examples/count_instructions.rs (see perf-counts.sh) runs up to LHS packing, then up to
# the matmul; the difference of QEMU's block-log counts (scripts/qemu_count.py, with encoding
# classes) is the call. Loaded bytes follow from the packed sizes and the loop order: a GEMV reads
# the packed RHS once per row, a GEMM the packed RHS once per row group of mr rows and the packed
# LHS once per column group of nr columns.
#   scripts/perf-sme.sh                      (SVL 512 bits)
#   RKAI_SME_SVL_BYTES="16 64" scripts/perf-sme.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh >/dev/null

export CARGO_TARGET_DIR=$PWD/target/cross
scripts/cross-cargo build --quiet --release --target aarch64-unknown-linux-gnu --example count_instructions
bin=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release/examples/count_instructions
classes=(outer=ff800010/a0800000 sdot_za=fff09000/c1509000 sdot_z=ffe0fc00/44a00000)

count() { # svl_bytes stem m n k bl phase (per-channel kernels: block length 0)
  QEMU_CPU="max,sme-default-vector-length=$1" scripts/qemu-aarch64.sh \
    -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib \
    -d in_asm,exec,nochain "$bin" "$2" "$3" "$4" "$5" "$6" "$7" 2>&1 >/dev/null | python3 scripts/qemu_count.py "${classes[@]}"
}

configs=( # "m n k bl|stem" (bl 0: per channel)
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa"
  "1 4096 4096 0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot"
  "32 4096 4096 0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa"
  "1 4096 4096 32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot"
  "32 1024 1024 32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1 4096 4096 32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot"
  "32 1024 1024 32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa"
)
echo "| kernel | SVL | m x n x k | instructions | instr. / MAC | MOPA | SDOT (ZA) | SDOT (Z) | MAC instr. share | loaded bytes / MAC |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for svl in ${RKAI_SME_SVL_BYTES:-64}; do
  for config in "${configs[@]}"; do
    IFS='|' read -r shape stem <<<"$config"
    read -r m n k bl <<<"$shape"
    [[ $stem =~ ${RKAI_SME_STEMS:-.} ]] || continue
    before=$(count "$svl" "$stem" "$m" "$n" "$k" "$bl" pack_lhs)
    after=$(count "$svl" "$stem" "$m" "$n" "$k" "$bl" run)
    python3 - "$stem" "$svl" "$m" "$n" "$k" "$bl" "$before" "$after" <<'PY'
import math, sys
stem, svl, m, n, k, bl = sys.argv[1], *map(int, sys.argv[2:7])
before, after = (list(map(int, a.split())) for a in sys.argv[7:9])
total, outer, sdot_za, sdot_z = (a - b for a, b in zip(after, before))
k_int = -(-k // 32) * 32
gemm = "1vlx4vl" in stem
mr = svl // 4 if gemm else 1
nr = svl  # 4 x SVL32 columns
if bl:  # Q4_0: one f16 scale per row and block on both sides
    lhs_group, rhs_group = mr * (k + 2 * k // bl), nr * (k // bl) * (bl // 2 + 2)
else:
    lhs_group, rhs_group = mr * (k_int + 8), nr * (k_int + 12)
row_groups, col_groups = -(-m // mr), -(-n // nr)
# Each (row group, column group) pair reads one LHS group and one RHS group.
loaded = row_groups * col_groups * (lhs_group + rhs_group)
macs = m * n * k
share = (outer + sdot_za + sdot_z) / total
print(f"| `{stem[len('matmul_clamp_f32_'):]}` | {8 * svl} | {m}x{n}x{k} | {total:,} | {total / macs:.5f} "
      f"| {outer:,} | {sdot_za:,} | {sdot_z:,} | {100 * share:.1f}% | {loaded / macs:.3f} |")
PY
  done
done
