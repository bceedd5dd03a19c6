#!/usr/bin/env bash
# SME kernels per call under QEMU (DESIGN.md §6 item 4; no llvm-mca model covers SME): for every
# SME and SME2 kernel of the catalog, the instructions one call of the kernel's function executes
# (its entry, the lazy-ZA-save check, streaming-mode entry and exit, loops and edges, and what it
# calls; not the C shim's checks), how many of them are outer products (integer SMOPA and SUMOPA,
# BFMOPA bf16 to f32, widening FMOPA f16 to f32, FMOPA f32) or dot and multiply-add
# instructions (SME2 multi-vector SDOT, FDOT and FMLA into ZA; streaming SVE SDOT, FMLA, FMLALB and
# FMLALT), and the bytes the loop order loads per MAC (a GEMV with an unpacked LHS: the packed RHS
# only), at m = 1 and m = 32 (GEMVs that require m = 1 in KleidiAI: m = 1 only), n = k = 4096. Prints a
# Markdown table; with RKAI_SME_KAI_DRIVER, beside KleidiAI's kernel of the same stem.
# The depthwise convolutions (dwconv_*) run on a 16 x 16 image of 256 channels, one pixel of
# padding around it: the f16 (depthfirst) kernel's call computes the whole output image, the f32
# (planar) kernel's call its first band of 4 output rows; their multiply-adds are the f16 FMLA
# (predicated, by vector) and SME2's multi-vector FMLA of a vector group by one vector into ZA,
# and their MACs are 9 per output element computed (the f16 kernel computes whole 4 x 4 tiles).
# The indirect GEMMs (imatmul) run at a convolution-like K: k_chunk_count 9 x k_chunk_length bl
# (455: k = 4095, a 3 x 3 kernel over 455 channels), bl passed as the chunk length to both drivers.
#
# Method: examples/count_instructions.rs runs one call (`run_unpacked`: on zero-filled packed
# buffers, as KleidiAI's driver below runs on a byte pattern; these kernels execute the same
# instructions whatever the data, and skipping the packers keeps QEMU's log short) and prints the
# run-time addresses of the kernel's entry and of its main; scripts/qemu_count.py takes the entry function's range
# from them and nm, and counts, from QEMU's log of the run (`-d in_asm,exec,nochain`, which logs
# every block as it executes), the instructions of every block executed from the function's
# first block to its last (its return), by encoding class: the function and whatever it calls
# (the vector-length and CPU-feature look-ups, a body the compiler kept out of line). (The
# difference of two whole-process counts, used before, also counted the driver's symbol lookup,
# whose cost varies between builds by several percent.) Loaded bytes follow from the packed sizes
# (the driver's `sizes` phase at the same SVL) and the loop order: each pair of an LHS row group
# (mr rows) and an RHS column group (nr columns) reads one group of each, so a GEMV reads the
# packed RHS once per row and a GEMM once per row group, and the packed LHS once per column group.
#
# KleidiAI (optional; nothing of it is in this repository): RKAI_SME_KAI_DRIVER names a
# statically linked, position-dependent aarch64 program built outside the repository from
# KleidiAI's kernel sources, run as `<driver> <stem> <m> <n> <k> <bl> <lhs bytes> <rhs bytes> 1`:
# it calls kai_run_<stem> once on packed buffers of those sizes (taken from rkai's getters, which
# equal KleidiAI's) and exits. `<driver>.ranges` holds one line per stem, `<stem>
# 0xSTART+0xSIZE[,...]`: the code of that kernel's objects (its .c and _asm.S) and of
# kai_common_sme_asm.S. The same QEMU command, window and classes count its instructions.
#   scripts/perf-sme.sh                                   (SVL 512 bits)
#   RKAI_SME_SVL_BYTES="16 64" RKAI_SME_KAI_DRIVER=/tmp/kai-build/kai_drv scripts/perf-sme.sh
#   RKAI_SME_STEMS=<regex> limits the kernels; RKAI_SME_TARGET_DIR (default target/cross) is
#   the cargo target directory of the driver's build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-toolchain.sh >/dev/null

export CARGO_TARGET_DIR=${RKAI_SME_TARGET_DIR:-$PWD/target/cross}
scripts/cross-cargo build --quiet --release --target aarch64-unknown-linux-gnu --example count_instructions
bin=$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release/examples/count_instructions
# Encoding classes (MASK/VALUE, Arm ARM): integer MOPA with a signed first operand (SMOPA and
# SUMOPA, every tile size; bit 4 = 0: accumulate, not the ...MOPS forms); BFMOPA widening (bf16 pairs into
# f32 tiles); FMOPA widening (f16 pairs into f32 tiles); FMOPA non-widening single precision (bit 3
# = 0 sets it apart from SME2's BMOPA); then the dot and multiply-add classes: SME2 multi-vector
# indexed SDOT into ZA (four groups; bits 4:3 = 0 set it apart from the UDOT, USDOT, SUDOT, BFDOT
# and FDOT of the same group); streaming SVE SDOT; SME2 multi-vector indexed FMLA into ZA vector
# groups (single precision, two or four vectors); SME2 multi-vector indexed FDOT f16 pairs into
# ZA (two or four vectors); streaming SVE FMLA single precision, predicated and indexed; FMLALB
# and FMLALT (f16 to f32), by vector and indexed. The first four are the outer products; the
# multiply-adds count as MACs of the five float GEMVs only (the integer kernels' streaming FMLA
# apply scales in their epilogues).
classes=(outer=ff800010/a0800000 bfmopa=ffe0001c/81800000 fmopa_h=ffe0001c/81a00000
  fmopa_s=ffe0001c/80800000 sdot_za=fff09018/c1509000 sdot_z=ffe0fc00/44a00000
  fmla_za=fff01038/c1500000 fdot_za=fff01038/c1501008 fmla_z=ffe0e000/65a00000
  fmla_zi=ffe0fc00/64a00000 fmlal=ffe0f800/64a08000 fmlal_i=ffe0f000/64a04000
  fmla_h=ffe0e000/65600000 fmla_za_vg=fff09c18/c1301800 umopa=ff800010/a1800000)
kai=${RKAI_SME_KAI_DRIVER:-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aarch64-linux-gnu-nm -S "$bin" >"$tmp/nm"
qemu() { # svl_bytes program args...: the program under QEMU at that SVL
  local svl=$1
  shift
  QEMU_CPU="max,sme-default-vector-length=$svl" scripts/qemu-aarch64.sh \
    -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib "$@"
}
count() { # svl_bytes stem m n k bl: instructions of rkai's kernel call, by class
  local svl=$1
  shift
  qemu "$svl" -d in_asm,exec,nochain "$bin" "$@" run_unpacked 2>&1 >"$tmp/addresses" |
    python3 scripts/qemu_count.py --window --kernel-of "$tmp/nm" "$tmp/addresses" "${classes[@]}"
}
count_kai() { # svl_bytes stem m n k bl lhs_bytes rhs_bytes: the same for KleidiAI's kernel
  local svl=$1 stem=$2
  shift 2
  local ranges
  ranges=$(awk -v s="$stem" '$1 == s { print $2 }' "$kai.ranges")
  [[ -n $ranges ]] || { echo "$stem is not in $kai.ranges" >&2; exit 1; }
  local in=()
  for r in ${ranges//,/ }; do
    in+=(--in "$(python3 -c 'import sys; a, z = (int(x, 16) for x in sys.argv[1].split("+")); print(f"{a:x}-{a + z:x}")' "$r")")
  done
  qemu "$svl" -d in_asm,exec,nochain "$kai" "$stem" "$@" 1 2>&1 >/dev/null |
    python3 scripts/qemu_count.py --window "${in[@]}" "${classes[@]}"
}
sizes() { # svl_bytes stem m n k bl: packed LHS and RHS bytes, mr, nr at that SVL
  local svl=$1
  shift
  qemu "$svl" "$bin" "$@" sizes
}

# Every SME and SME2 kernel: "m values|bl|stem" (bl 0: per channel). GEMVs run at m = 1, and at
# m = 32 too where KleidiAI's accepts it (it loops over rows); GEMMs at m = 1 and m = 32. The
# kernels of the generic interface (kai_matmul.h) run through their providers' tables
# (count_instructions: `run` with the clamp flag where they have one; the KleidiAI driver calls
# its provider's `run` the same way).
configs=(
  "1 32|0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot"
  "1 32|0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa"
  "1 32|0|matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot"
  "1 32|0|matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa"
  "1 32|0|matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot"
  "1 32|0|matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa"
  "1|0|matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot"
  "1 32|0|matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa"
  "1|0|matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot"
  "1 32|0|matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa"
  "1|0|matmul_clamp_f16_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot"
  "1 32|0|matmul_clamp_f16_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa"
  "1 32|0|matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot"
  "1 32|0|matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa"
  "1|32|matmul_clamp_f32_qai8dxp1x4_qsi4c32p4vlx4_1x4vl_sme2_dot"
  "1 32|32|matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1|32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot"
  "1 32|32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1|32|matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot"
  "1 32|32|matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme_mopa"
  "1|32|matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot"
  "1 32|32|matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1|32|matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot"
  "1 32|32|matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa"
  "1 32|0|matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme_mopa"
  "1 32|0|matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa"
  "1 32|0|matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa"
  "1 32|0|matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa"
  "1 32|0|matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa"
  "1 32|0|matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa"
  "1 32|32|matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa"
  "1|0|matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla"
  "1|0|matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla"
  "1|0|matmul_clamp_f32_f32_f32p16vlx1b_1x16vl_sme2_mla"
  "1|0|matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla"
  "1|0|matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot"
  "1 32|0|matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa"
  "1 32|0|matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa"
  "1|0|matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot"
  "1 32|455|imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa"
  "1 32|455|imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa"
  "1 32|455|imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa"
  "1 32|455|imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa"
  "1 32|455|imatmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa"
  "1 32|455|imatmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa"
  "16|0|dwconv_clamp_f32_f32_f32p1vlx1b_3x3_s1_4xc_sme2_mla"
  "1|0|matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla"
  "1|0|matmul_clamp_f16_f16_f16p4vsx2bf16_1x32vs_sme2_dot"
  "1 32|0|matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa"
  "1 32|0|matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa"
  "1 32|0|matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa"
  "1 32|0|matmul_clamp_f16_f16p4vsx2_f16p4vsx2bf16_8vsx8vs_sme2_mopa"
  "1 32|0|matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa"
  "1|0|matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot"
  "1|0|matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot"
  "1 32|0|matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa"
  "1 8 32|0|matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4sf32bi32_8vsx8vs_sme2p1_mop4_mopa"
  "16|0|dwconv_clamp_f16_f16_f16p1vlx1b_3x3_s1_4x4_sme2_mla"
)
echo "| kernel | SVL (bits) | m x n x k (bl) | rkai instructions | KleidiAI instructions | rkai / KleidiAI | rkai outer + dot products | KleidiAI outer + dot products | rkai MAC instr. share | KleidiAI MAC instr. share | loaded bytes / MAC |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for svl in ${RKAI_SME_SVL_BYTES:-64}; do
  for config in "${configs[@]}"; do
    IFS='|' read -r ms bl stem <<<"$config"
    [[ $stem =~ ${RKAI_SME_STEMS:-.} ]] || continue
    n=4096 k=4096
    [[ $stem == dwconv_* ]] && n=16 k=256 # rows m, columns n, channels k
    [[ $stem == imatmul_* ]] && k=$((9 * bl)) # 9 chunks of bl = k_chunk_length (a 3x3 convolution)
    for m in $ms; do
      counts=$(count "$svl" "$stem" "$m" "$n" "$k" "$bl")
      packed=$(sizes "$svl" "$stem" "$m" "$n" "$k" "$bl")
      kai_counts=-
      if [[ -n $kai ]]; then
        read -r lhs_bytes rhs_bytes _ <<<"$packed"
        kai_counts=$(count_kai "$svl" "$stem" "$m" "$n" "$k" "$bl" "$lhs_bytes" "$rhs_bytes")
      fi
      python3 - "$stem" "$svl" "$m" "$n" "$k" "$bl" "$counts" "$packed" "$kai_counts" <<'PY'
import sys
stem, svl, m, n, k, bl = sys.argv[1], *map(int, sys.argv[2:7])
counts, packed = (list(map(int, a.split())) for a in sys.argv[7:9])
# total, then the classes: four outer-product encodings, two dot-product ones, then the
# multiply-adds, the MACs of the float GEMVs only (elsewhere a streaming FMLA applies scales)
float_gemv = stem.startswith(("matmul_clamp_f32_f32_f32p", "matmul_clamp_f16_f16_f16p"))
dwconv = stem.startswith("dwconv_")
mac_classes = slice(12, None) if dwconv else slice(5, 12) if float_gemv else slice(5, 7)
# the last class, UMOPA and USMOPA, is an outer product too (the u8 kernels)
outer_of = lambda c: sum(c[1:5]) + c[15]
mac_classes = slice(mac_classes.start, min(mac_classes.stop or 15, 15))
total, outer, dot = counts[0], outer_of(counts), sum(counts[mac_classes])
kai = list(map(int, sys.argv[9].split())) if sys.argv[9] != "-" else None
lhs_bytes, rhs_bytes, mr, nr = packed
row_groups, col_groups = -(-m // mr), -(-n // nr)
# Each (row group, column group) pair reads one LHS group and one RHS group.
loaded = col_groups * lhs_bytes + row_groups * rhs_bytes
macs = m * n * k
name = stem.removeprefix("matmul_clamp_")
if dwconv:
    # The input image and the packed weights once; 9 MACs per output element of whole tiles
    # (depthfirst) or of the call's band (planar: mr = m_step rows; the input its 6 rows).
    out_rows = -(-m // 4) * 4 if mr == 4 and "4x4" in stem else mr
    out_cols = -(-n // 4) * 4 if "4x4" in stem else n
    if "4x4" not in stem:
        lhs_bytes = lhs_bytes * min(m, mr + 2) // m
    loaded, macs = lhs_bytes + rhs_bytes, 9 * out_rows * out_cols * k
if dwconv:
    shape = f"{m}x{n}x{k} (rows x cols x ch)"
elif stem.startswith("imatmul_"):
    shape = f"{m}x{n}x(9x{bl})"  # k_chunk_count x k_chunk_length
else:
    shape = f"{m}x{n}x{k}" + (f" ({bl})" if bl else "")
mac = f"{outer:,} + {dot:,}"
share = f"{100 * (outer + dot) / total:.1f}%"
if kai:
    kt, ko, kd = kai[0], outer_of(kai), sum(kai[mac_classes])
    kai_cells = [f"{kt:,}", f"{total / kt:.2f}", f"{ko:,} + {kd:,}",
                 f"{100 * (ko + kd) / kt:.1f}%"]
else:
    kai_cells = ["—"] * 4
print(f"| `{name}` | {8 * svl} | {shape} | {total:,} | {kai_cells[0]} | {kai_cells[1]} | {mac} "
      f"| {kai_cells[2]} | {share} | {kai_cells[3]} | {loaded / macs:.3f} |")
PY
    done
  done
done
