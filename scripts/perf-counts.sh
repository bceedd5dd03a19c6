#!/usr/bin/env bash
# Instructions executed per output MAC for whole calls, counted under QEMU (aarch64, neoverse-v1
# model): packing and matmul separately, on the LLM shapes of the performance issue, for int4
# per-channel, int4 per-block (bl 32 and 128), int8 and f32 weights. Prints a Markdown table.
#
# Method: examples/count_instructions.rs stops after a phase (prepare, pack_rhs, pack_lhs, run);
# QEMU's `-d in_asm,exec,nochain` log gives every executed block, scripts/qemu_count.py sums their
# instructions, and consecutive phases are subtracted. Whole processes differ by some 10^4
# instructions from run to run, more than one GEMV's LHS packing costs, so LHS packing is measured
# over 16 packings and divided.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh >/dev/null

export CARGO_TARGET_DIR=$PWD/target/cross
scripts/cross-cargo build --quiet --release --target aarch64-unknown-linux-gnu --example count_instructions
bin=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release/examples/count_instructions

count() { # stem m n k bl phase [repeats]
  QEMU_CPU=neoverse-v1 qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib \
    -d in_asm,exec,nochain "$bin" "$@" 2>&1 >/dev/null | python3 scripts/qemu_count.py
}

# format | GEMV kernel | GEMM kernel | block length
configs=(
  "int4 per channel|matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod|matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm|0"
  "int4 per block, bl 32|matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod|matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm|32"
  "int4 per block, bl 128|matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod|matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm|128"
  "int8 per channel|matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod|matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm|0"
  "asymmetric int4 per block, bl 32|matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod|matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm|32"
  "f32 (6x16 NEON FMLA for both)|matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla|matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla|0"
  "f16 (6x32 NEON FP16 FMLA for both)|matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla|matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla|0"
  "Q4_0 (llama.cpp), bl 32|matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod|matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm|32"
  "bf16 (BFDOT GEMV, BFMMLA GEMM)|matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot|matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla|0"
)
shapes=("1 4096 4096" "1 11008 4096" "32 4096 4096" "128 4096 4096")
# Subsets for a quick run: RKAI_COUNT_FORMATS (a regular expression on the first column) and
# RKAI_COUNT_SHAPES ("m n k" triples separated by commas).
if [[ -n ${RKAI_COUNT_SHAPES:-} ]]; then IFS=, read -r -a shapes <<<"$RKAI_COUNT_SHAPES"; fi

echo "| weights | kernel | m x n x k | RHS packing (instr.) | per weight | LHS packing (instr.) | matmul (instr.) | matmul instr. / MAC | RHS packing / matmul |"
echo "|---|---|---|---|---|---|---|---|---|"
for config in "${configs[@]}"; do
  IFS='|' read -r format gemv gemm bl <<<"$config"
  [[ $format =~ ${RKAI_COUNT_FORMATS:-.} ]] || continue
  for shape in "${shapes[@]}"; do
    read -r m n k <<<"$shape"
    stem=$gemm
    [[ $m == 1 ]] && stem=$gemv
    prepare=$(count "$stem" "$m" "$n" "$k" "$bl" prepare)
    rhs=$(count "$stem" "$m" "$n" "$k" "$bl" pack_rhs)
    lhs=$(count "$stem" "$m" "$n" "$k" "$bl" pack_lhs)
    lhs16=$(count "$stem" "$m" "$n" "$k" "$bl" pack_lhs 16)
    run=$(count "$stem" "$m" "$n" "$k" "$bl" run)
    python3 - "$format" "$stem" "$m" "$n" "$k" "$prepare" "$rhs" "$lhs" "$lhs16" "$run" <<'PY'
import sys
fmt, stem, m, n, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
prepare, rhs, lhs, lhs16, run = map(int, sys.argv[6:11])
pack_rhs, pack_lhs, matmul = rhs - prepare, (lhs16 - rhs) // 16, run - lhs
macs = m * n * k
print(f"| {fmt} | `{stem[len('matmul_clamp_f32_'):]}` | {m}x{n}x{k} | {pack_rhs:,} | {pack_rhs / (n * k):.3f} "
      f"| {pack_lhs:,} | {matmul:,} | {matmul / macs:.4f} | {100 * pack_rhs / matmul:.0f}% |")
PY
  done
done
