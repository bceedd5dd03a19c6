#!/usr/bin/env bash
# Static performance estimate of every asm inner loop: emits the aarch64 assembly of
# rkai-ukernels, extracts each `LLVM-MCA-BEGIN <region>` ... `LLVM-MCA-END` loop body and runs
# llvm-mca-22 for Neoverse N1, N2, V1 and V2. Prints the Markdown section of docs/PERFORMANCE.md
# (scripts/perf-report.sh assembles the document).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh --perf >/dev/null

export CARGO_TARGET_DIR=$PWD/target/cross
cargo_cmd=(scripts/cross-cargo)
"${cargo_cmd[@]}" rustc --quiet -p rkai-ukernels --release --target aarch64-unknown-linux-gnu -- --emit asm
asm=$(ls -t "$CARGO_TARGET_DIR"/aarch64-unknown-linux-gnu/release/deps/rkai_ukernels-*.s | head -1)

table=$(python3 - "$asm" <<'PY'
import re, subprocess, sys, datetime

sys.path.insert(0, "scripts")
from mca_loops import catalog_kernels, cores_running, marked_regions, mca_cycles, SVE_BYTES

# Each kernel's K-loop region is named after its stem; one iteration covers its m_step x n_step
# tile over 32 K values. Stems, ISAs and tiles come from the catalog (one entry per kernel).
INSTR = {"NeonDotprod": "SDOT", "NeonI8mm": "SMMLA", "SveDotprod": "SDOT", "SveI8mm": "SMMLA",
         "Sve2Dotprod": "SDOT", "Sve2I8mm": "SMMLA", "Neon": "FMLA", "Sve": "FMLA",
         "NeonFp16": "HFMLA", "NeonFp16Dotprod": "SDOT", "NeonFp16I8mm": "SMMLA",
         "NeonBf16": "BFMMLA", "NeonFp16Bf16": "BFMMLA"}
# K values one iteration covers: 32 for the integer loops, 4 for the float (FMLA) loops.
K_PER_ITERATION = {"SDOT": 32, "SMMLA": 32, "FMLA": 4, "HFMLA": 4, "BFMMLA": 4, "BFDOT": 4}
# Kernels built on another instruction than their ISA's default.
INSTR_STEM = {"matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot": "BFDOT"}
# Float loops that cover more K values per iteration than their instruction's default.
K_PER_ITERATION_STEM = {
    "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55": 8,
    "matmul_clamp_f16_f16_f16p16x1biasf16_6x16x8_neon_mla": 8,
    # Integer loops over 16 K values per iteration.
    "matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod": 16,
}
# Loops that cover another number of rows per iteration than the kernel's m_step (a register
# budget of 8 rows runs a 16-row step as two passes; the per-channel 8x4 SMMLA code runs whole
# 16-row blocks with a 16-row loop).
ROWS_PER_ITERATION = {
    "matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm": 16,
    "matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod": 8,
    "matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm": 8,
    "matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm": 8,
    # KleidiAI reports m_step 1 for the SVE f32 kernel; its loop covers 6-row blocks.
    "matmul_clamp_f32_f32_f32p4vlx1b_6x4vl_sve_mla": 6,
}
KERNELS, VL_SCALED, SVE256 = catalog_kernels(open("ukernels/src/catalog.rs").read())
# SVE loops that cover half of n_step per iteration (two passes of VL32 columns per group).
HALF_COLUMNS = {
    "matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_8x2vl_sve2_dotprod",
    "matmul_clamp_f32_qai8dxp4x8_qsi4cxp2vlx8_16x2vl_sve2_i8mm",
}
REGIONS = {}
for stem, (isa, m_step, n_step, module) in KERNELS.items():
    if module == stem:
        rows = ROWS_PER_ITERATION.get(stem, m_step)
        n_step = n_step // 2 if stem in HALF_COLUMNS else n_step
        instr = INSTR_STEM.get(stem, INSTR[isa])
        kpi = K_PER_ITERATION_STEM.get(stem, K_PER_ITERATION[instr])
        REGIONS[stem] = (stem, rows * n_step * kpi, instr)
SHARED = {stem: module for stem, (_, _, _, module) in KERNELS.items() if module != stem}
# Peak int8 MACs per cycle per core (anchors §C2: SDOT 16 MAC, SMMLA 32 MAC per instruction).
PEAK = {
    "SDOT": {"neoverse-n1": 32, "neoverse-n2": 32, "neoverse-v1": 64, "neoverse-v2": 64},
    "SMMLA": {"neoverse-n1": None, "neoverse-n2": 64, "neoverse-v1": 128, "neoverse-v2": 128},
    # f32 FMLA: 2 (N1, N2) or 4 (V1, V2) 128-bit pipes of 4 lanes; on V1 SVE runs 2 x 256 bits.
    "FMLA": {"neoverse-n1": 8, "neoverse-n2": 8, "neoverse-v1": 16, "neoverse-v2": 16},
    # f16 FMLA (FEAT_FP16): 8 lanes per 128 bits on the same pipes.
    "HFMLA": {"neoverse-n1": 16, "neoverse-n2": 16, "neoverse-v1": 32, "neoverse-v2": 32},
    # BFMMLA (16 MACs each) at the issue rate llvm-mca-22 models: 2 per cycle on N2, 4 on V1 and
    # V2 (N1 has no FEAT_BF16).
    "BFMMLA": {"neoverse-n1": None, "neoverse-n2": 32, "neoverse-v1": 64, "neoverse-v2": 64},
    # BFDOT (8 MACs each): 2 per cycle on N2, 4 on V1 and V2 in llvm-mca-22.
    "BFDOT": {"neoverse-n1": None, "neoverse-n2": 16, "neoverse-v1": 32, "neoverse-v2": 32},
}
def cpus_for(stem):
    return cores_running(stem, KERNELS[stem][0], VL_SCALED, SVE256)

def lanes(stem, cpu):
    """Columns per catalog n_step unit of `stem` on `cpu`."""
    return SVE_BYTES[cpu] // 4 if stem in VL_SCALED else 1

bodies = marked_regions(open(sys.argv[1]).read())

missing = set(REGIONS) - set(bodies)
unknown = set(bodies) - set(REGIONS)
if missing or unknown:
    sys.exit(f"regions missing from asm: {sorted(missing)}; unknown regions: {sorted(unknown)}")

rows = []
for region, (stem, macs, instr) in REGIONS.items():
    src = ".arch armv8.6-a+dotprod+i8mm+sve2+fp16\n" + "\n".join(bodies[region]) + "\n"
    for cpu in cpus_for(stem):
        macs = REGIONS[region][1] * lanes(stem, cpu)
        out = subprocess.run(["llvm-mca-22", "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1000"],
                             input=src, capture_output=True, text=True, check=True).stdout
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 1000
        peak = PEAK[instr][cpu]
        per = macs / cycles
        pct = f"{100 * per / peak:.0f}%" if peak else "n/a (no i8mm)"
        rows.append((stem, cpu, len(bodies[region]), cycles, macs, per, instr, peak, pct))

print("Kernels without their own row run the loop of another with the same packed formats:")
print()
for stem, module in SHARED.items():
    print(f"- `{stem}` runs `{module}`" + (" (then narrows to 16 bits)" if not stem.startswith("matmul_clamp_f32") else ""))
print()
print("| kernel | core | instructions/iter | cycles/iter | MACs/iter | MACs/cycle | peak (" + "/".join(["instr"]) + ") | % of peak |")
print("|---|---|---|---|---|---|---|---|")
for stem, cpu, n, cyc, macs, per, instr, peak, pct in rows:
    print(f"| `{stem}` | {cpu} | {n} | {cyc:.2f} | {macs} | {per:.1f} | {peak or '-'} ({instr}) | {pct} |")

# Targets of the performance issue on Neoverse V2: GEMM loops reach 85% (int8 weights) or 70%
# (int4) of the instruction's peak; GEMV loops are judged by weight bytes streamed per cycle.
print()
print("### Targets on Neoverse V2")
print()
print("| kernel | kind | figure on V2 | target | status |")
print("|---|---|---|---|---|")
for stem, cpu, n, cyc, macs, per, instr, peak, pct in rows:
    # The targets are set for the integer loops (the float and bf16 loops have none).
    if cpu != "neoverse-v2" or instr in ("FMLA", "HFMLA", "BFMMLA", "BFDOT"):
        continue
    int8 = "qsi8cxp" in stem
    m_step, n_step = KERNELS[stem][1], KERNELS[stem][2] * lanes(stem, cpu)
    if m_step == 1:
        # One iteration streams 32 K values of n_step columns.
        weight_bytes = n_step * 32 * (1 if int8 else 0.5)
        print(f"| `{stem}` | GEMV | {weight_bytes / cyc:.1f} weight B/cycle | memory bound | "
              "above one core's DRAM stream (tens of GB/s, about 5-15 B/cycle at 3 GHz) |")
    else:
        goal = 85 if int8 else 70
        got = 100 * per / peak
        status = "meets" if got >= goal else "short: see below"
        print(f"| `{stem}` | GEMM | {got:.0f}% of {instr} peak | {goal}% | {status} |")

# rkai's SVE2 kernels against the best NEON loop of the same family, shape class (GEMV: m_step 1)
# and instruction, on the cores that run both at 128-bit vectors.
def family_of(stem):
    m = re.search(r"_qai8dxp\d+x\d+_(qsi4cxp|qsi8cxp|qsi4c32p)", stem)
    return m and m.group(1)
def gemv(stem):
    return KERNELS[stem][1] == 1
print()
print("### rkai SVE2 kernels against the NEON kernels (128-bit SVE on N2 and V2)")
print()
print("| SVE2 kernel | core | MACs/cycle | best NEON loop (same family, shape, instruction) | MACs/cycle | SVE2 / NEON |")
print("|---|---|---|---|---|---|")
for stem, cpu, n, cyc, macs, per, instr, peak, pct in rows:
    if "_sve2_" not in stem:
        continue
    rivals = [(p2, s2) for s2, c2, _, _, _, p2, i2, _, _ in rows
              if c2 == cpu and "_neon_" in s2 and i2 == instr
              and family_of(s2) == family_of(stem) and gemv(s2) == gemv(stem)]
    best_per, best = max(rivals)
    print(f"| `{stem}` | {cpu} | {per:.1f} | `{best}` | {best_per:.1f} | {per / best_per:.2f} |")

# The two schedules of the f32 6x16 tile on an in-order and an out-of-order core.
print()
print("### The f32 6x16 loop: generic and Cortex-A55 schedules")
print()
print("| loop | core | instructions/iter | cycles/iter (llvm-mca) | f32 MACs/cycle |")
print("|---|---|---|---|---|")
for stem in ["matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla",
             "matmul_clamp_f32_f32_f32p16x1b_6x16_neon_mla_cortexa55"]:
    src = "\n".join(bodies[stem]) + "\n"
    for cpu in ["cortex-a55", "neoverse-n1"]:
        out = subprocess.run(["llvm-mca-22", "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1000"],
                             input=src, capture_output=True, text=True, check=True).stdout
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 1000
        print(f"| `{stem[len('matmul_clamp_f32_f32_f32p16x1b_6x16_'):]}` | {cpu} | {len(bodies[stem])} | {cycles:.1f} | {384 / cycles:.1f} |")

# The same comparison for the f16 6x32 tile (generic: 4 K values per iteration, A55: 8).
print()
print("### The f16 6x32 loop: generic and Cortex-A55 schedules")
print()
print("| loop | core | instructions/iter | K values/iter | cycles/iter (llvm-mca) | f16 MACs/cycle |")
print("|---|---|---|---|---|---|")
for stem in ["matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla",
             "matmul_clamp_f16_f16_f16p32x1b_6x32_neon_mla_cortexa55"]:
    src = ".arch armv8.2-a+fp16\n" + "\n".join(bodies[stem]) + "\n"
    macs = REGIONS[stem][1]
    for cpu in ["cortex-a55", "neoverse-n1"]:
        out = subprocess.run(["llvm-mca-22", "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1000"],
                             input=src, capture_output=True, text=True, check=True).stdout
        cycles = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 1000
        print(f"| `{stem[len('matmul_clamp_f16_f16_f16p32x1b_6x32_'):]}` | {cpu} | {len(bodies[stem])} | {macs // 192} | {cycles:.1f} | {macs / cycles:.1f} |")
PY
)

cat <<DOC
## Inner loops (llvm-mca-22, 1000 iterations of the marked K loop)

Made with $(scripts/made-with.sh llvm-mca-22) (\`scripts/perf-mca.sh\`).

MACs are int8 x int4 (or f32 for the FMLA rows, f16 for the HFMLA rows) multiply-accumulates;
peak is the core's rate for the instruction the kernel is built on (SDOT 16 MAC, SMMLA 32 MAC,
FMLA 4 MAC, f16 FMLA 8 MAC per 128 bits;
pipes per \`anchors-architecture-and-performance.md\` §C2). The SVE loop is measured at each
core's vector length (none on N1).

$table

Reading the numbers:
- int4 weights cost one vector op (\`shl #4\` or \`and #0xf0\`) per 16 bytes of nibbles. A GEMV
  tile uses each decoded register once, so one decode per SDOT caps it at 50% of the SDOT peak
  (40-50% reached; the activation broadcast takes the rest). GEMVs are bound by weight
  bandwidth, not SDOT: the targets table gives the weight bytes each loop consumes per cycle on
  V2 (13-26 B/cycle); one core streams a few tens of GB/s from DRAM (about 5-15 B/cycle at
  3 GHz, a typical figure, not measured here), so decode speed is set by memory, not by these
  loops.
- GEMM tiles reuse each decoded register across rows: the SDOT 16x4 and 8x8 tiles reach 89-94%
  of the SDOT peak on V1/V2; the SMMLA 8x8 tile reaches 80% (16 decodes for 64 SMMLA: 80 vector
  ops on 4 pipes = 20 cycles). KleidiAI's 4-row SMMLA stems (\`4x4x32\`, \`4x8x32\` of the
  per-channel family) run the 8-row loops (and the 16-row loop on whole 16-row blocks): same
  packed formats, two or four times the reuse of each decoded register (a 4-row loop caps at
  67%: 16 SMMLA per 8 decodes).
- int8 weights need no decode: the SDOT 16x4 tile reaches 97% of the SDOT peak and the SMMLA
  16x4 tile 86% on V2. Its loop used to issue \`ldp q\` pairs, three uops each in LLVM's V2
  model, which made it dispatch-bound at 70%; single \`ldr q\` loads (one uop) fixed it with the
  same bytes read.
- Per-block int4 (\`qsi4c32p\`) K loops run at the speed of their per-channel siblings; what the
  table cannot show is the block epilogue (SCVTF #4 and an FMLA with the widened bf16 scales per
  accumulator, once per \`bl\` values). Measured by the kernels' authors with llvm-mca on one
  chunk plus the epilogue, at bl = 32 on V2: the 1x4 GEMV block takes 7.7 cycles against 4.3
  for the loop alone, the 1x8 (nr 8) GEMV 12-13.5 against 8-9. Larger blocks amortise it;
  bl = 32 is the worst case. The per-block 16x4 kernels (SMMLA and SDOT) run whole 16-row blocks
  in one pass, decoding each weight register once per 16 rows: 16 int32 block sums in v8-v23
  (the compiler saves d8-d15), the f32 accumulators of rows 0-7 in v24-v31 and those of rows
  8-15 in a stack array (load, FMLA, store once per block), whose zero tail clears int32 sums by
  loads instead of vector-pipe MOVIs; row tails run the former 8-row passes. One chunk plus the
  block fold at bl = 32 (llvm-mca-22), per 1024 MACs on N2 / V1 / V2: SMMLA 29.0 / 16.9 / 17.5
  cycles against 34.0 / 19.0 / 19.0 for the 8-row pass, SDOT 46.3 / 24.6 / 25.1 against
  48.5 / 26.3 / 26.3 (on N1 49.0 against 48.5).
- Shortfall: the per-block SMMLA 4x8 loop (\`qai8dxp4x8_qsi4c32p8x8_4x8x32\`) reaches 67% on V2,
  under the 70% int4 target. A 4x8 tile does 32 SMMLA per 16 decodes, which caps it at 67% on 4
  vector pipes. An 8-row pass would reach the 80% of the per-channel 8x8 loop but needs 16 int32
  block sums plus 16 f32 accumulators; keeping the f32 accumulators in memory (load, FMLA,
  store once per block, about 25% extra at bl = 128) or using v8-v15 with fewer operand
  registers are the candidate fixes, not implemented.
- The f16- and bf16-output quantized kernels run the f32 loops listed here, then narrow each
  result once.
- The bf16 GEMV (\`1x36_neon_dot\`) streams 288 weight bytes per iteration with 19 loads for
  18 BFDOTs, so it is bound by loads and dispatch, not BFDOT (90% of the BFDOT peak on N2, 62-71%
  on V1/V2); that is 40-45 weight bytes per cycle on V1/V2, several times what DRAM or L2
  deliver to one core. KleidiAI's own loop for the same 36 columns (its BFDOTs plus five
  \`PRFM\`s, the same loads), measured the same way: 10.4 cycles on N2, 8.0 on V1, 8.2 on V2
  per iteration, against rkai's 10.0, 6.4 and 7.2 above. Unrolling two K groups would save 0.3
  cycles on N2 and 0.4 on V2 in llvm-mca; ldp pairs are slower there (dispatch, as above).
- Float GEMMs (\`matmul_clamp_f32_f32_f32p\`): the 6x16 and 6x8 FMLA loops keep 24 (12)
  accumulators and load each packed RHS vector once per 6 rows, so on out-of-order cores they
  are bound by the FMLA pipes. The Cortex-A55 variant of the 6x16 tile never loads 128 bits
  (64-bit vector loads, integer loads and \`INS\` pair with an \`FMLA\` on the A55, a 128-bit load
  holds its in-order pipeline for two cycles, per Arm's A55 optimisation guide): with 96 FMLAs
  and 60 such companions per iteration it is FMLA-bound there (about 96 cycles by those rules,
  against about 140 for the generic loop's 22 128-bit loads). Each packed RHS vector is an
  \`ldr d\` plus an \`INS\` of a high half loaded two vectors ahead; each LHS row is loaded 64 bits
  at a time with \`ldr d\` straight into its register and used by element on lanes of the low
  half, so the LHS needs no \`INS\` (16 \`INS\` per iteration, KleidiAI's loop 22). LLVM's
  Cortex-A55 model does not see the A55's rules (it issues two Q-form FMLAs per cycle and charges
  nothing for 128-bit loads), so under llvm-mca the A55 schedule is about even with the generic
  one on the A55 (see the table above); on out-of-order cores it is slower for real (more
  instructions), which is why both variants exist.
- f16 GEMMs (\`matmul_clamp_f16_f16_f16p\`, FEAT_FP16, f16 accumulators): the same register
  plans on 8 half lanes, so the 6x32 and 6x16x8 loops are bound by the FMLA pipes like their
  f32 siblings (twice the MACs per instruction). The Cortex-A55 6x32 schedule covers 8 K values
  per iteration (two 64-bit LHS halves, 4 K values each) with 192 FMLAs and 108 companions
  (\`ldr d\`, integer loads, \`INS\`); the same llvm-mca caveat applies as for the f32 A55 loop.
- The two Cortex-A55 loops are at or above KleidiAI's on N2, V1 and V2 in "rkai against
  KleidiAI": on V1 / V2 every \`INS\` from a general register takes the single M0 pipe and a
  vector pipe, so the \`INS\` count sets the pace there (16 per f32 iteration against KleidiAI's
  22, 32 per f16 iteration against 38). rkai's own selection picks the A55 variants on in-order
  cores only; on N2, V1 and V2 it picks the generic 6x16 / 6x32 loops.
- rkai's SVE2 kernels (\`_sve2_\`) are vector-length agnostic: \`n_step\` and \`nr\` are
  multiples of the run-time vector length, so one binary serves 128- to 2048-bit cores. LLVM
  models N2 and V2 with 128-bit SVE, where one VL32 unit is 4 columns; the MACs above count
  those columns, and a wider core multiplies the work per iteration by its width. Against NEON at
  the same 128 bits they win where the wider register file lets a tile reuse more: the int4
  SMMLA 16x2vl loop decodes each weight register once per 8 row pairs (8 decodes per 64 SMMLA,
  against 16 for the NEON 8x8); the GEMVs broadcast each 8-value activation block to the whole
  vector. Where they trail the best NEON loop (the SDOT GEMMs, whose \`LD1RD\` row broadcasts
  cost one load per 2 SDOT), run-time selection still prefers NEON on 128-bit cores: it ranks SVE
  first only when the vector is wider than 128 bits.
DOC
