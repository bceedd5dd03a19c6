#!/usr/bin/env bash
# What a C program pays in code for the kai_* functions it calls. Builds rkai's static library as
# CMake builds it (`cargo build --release --no-default-features`: no_std, see src/lib.rs), links
# c_examples/size_probe.c (one GEMV, one GEMM and their two packers, the torchao/PyTorch pattern)
# against it statically with `-Wl,--gc-sections`, and prints the program's .text size: for
# aarch64 (with the cross toolchain on x86_64 hosts) and for the host.
#
# Comparison with KleidiAI: RKAI_SIZE_KLEIDIAI=<path> names an aarch64 build of KleidiAI 1.30
# holding the probe's functions, either a static library (libkleidiai.a) or a directory of object
# files; the same program (same headers, same flags) is linked against it and the ratio printed.
# This repository does not build KleidiAI; docs/PERFORMANCE.md says how its figure was made.
#
# Output, one line per build:
#   size-report: aarch64 rkai .text <bytes>
#   size-report: x86_64 rkai .text <bytes>
#   size-report: aarch64 kleidiai .text <bytes> (rkai / kleidiai = <ratio>)
# Options: --aarch64-only, --host-only; --markdown prints the "Code size" section of
# docs/PERFORMANCE.md instead (scripts/perf-report.sh includes it), with the KleidiAI figure
# recorded there when RKAI_SIZE_KLEIDIAI is not set. CARGO_TARGET_DIR defaults to target/size.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

want_aarch64=1
want_host=1
markdown=0
pass=()
for arg in "$@"; do
  case $arg in
    --aarch64-only) want_host=0; pass+=("$arg") ;;
    --host-only) want_aarch64=0; pass+=("$arg") ;;
    --markdown) markdown=1 ;;
    *) echo "usage: $0 [--aarch64-only | --host-only] [--markdown]" >&2; exit 2 ;;
  esac
done

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target/size}
work=$CARGO_TARGET_DIR/size-report
mkdir -p "$work"
host=$(uname -m)
# The probe's own flags: what a framework's release build uses.
cflags=(-std=c99 -O2 -I"$ROOT/include")
# What the no_std library links against (`--print native-static-libs`), then --gc-sections.
ldflags=(-Wl,--gc-sections -lm -lrt -lpthread)

# markdown_section <report lines> <aarch64 probe>: the "Code size" section of PERFORMANCE.md.
markdown_section() {
  local nm=aarch64-linux-gnu-nm
  [[ $(uname -m) == aarch64 ]] && nm=nm
  local cc=aarch64-linux-gnu-gcc
  [[ $(uname -m) == aarch64 ]] && cc=gcc
  MADE_WITH=$("$ROOT/scripts/made-with.sh" "$cc") REPORT=$1 PROBE=$2 NM=$nm python3 - <<'PY'
import os, re, subprocess

report = os.environ["REPORT"]
def figure(what):
    m = re.search(rf"^size-report: {what} \.text (\d+)", report, re.M)
    return int(m.group(1)) if m else None

# KleidiAI 1.30.0's figure when no build of it is given (see the text below).
KLEIDIAI_RECORDED = 9132
# rkai before the C library became lean (main at 40c6224, `cargo build --release`).
RKAI_BEFORE = 430196
rkai, host, kai = figure("aarch64 rkai"), figure("x86_64 rkai"), figure("aarch64 kleidiai")
kai_note = "" if kai else " (recorded)"
kai = kai or KLEIDIAI_RECORDED

# Where the bytes of the rkai program are: its functions by what they serve (aliases once).
parts, seen = {}, set()
listing = subprocess.run([os.environ["NM"], "-S", "-C", os.environ["PROBE"]],
                         capture_output=True, text=True, check=True).stdout
for line in listing.splitlines():
    f = line.split(" ", 3)
    if len(f) < 4 or f[2] not in "tTwW" or not f[1] or f[0] in seen:
        continue
    seen.add(f[0])
    name = f[3]
    if "lhs_quant_pack" in name or "pack::lhs" in name or "layout::qai8dxp" in name:
        part = "LHS packer `lhs_quant_pack_qai8dxp_f32` (getters, checks, loops)"
    elif "rhs_pack" in name or "pack::rhs" in name or "layout::" in name or "RhsLayout" in name:
        part = "RHS packer `rhs_pack_nxk_qsi4cxp_qs4cxs1s0` (getters, checks, loops)"
    elif "matmul" in name:
        part = "the two matmul kernels (getters, checks, asm)"
    elif name == "main":
        part = "the program's `main`"
    else:
        part = "assertion messages, panic handler, start-up"
    parts[part] = parts.get(part, 0) + int(f[1], 16)

print(f"""## Code size: what a C program links

Made with {os.environ['MADE_WITH']} (`scripts/size-report.sh --markdown`).

A C program that calls one GEMV, one GEMM and their two packers (the torchao/PyTorch pattern,
`c_examples/size_probe.c`: `kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod`,
`kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm`, `kai_lhs_quant_pack_qai8dxp_f32`,
`kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0`; 11 `kai_*` functions), compiled with `-std=c99 -O2` by
`aarch64-linux-gnu-gcc` 12 and linked statically with `-Wl,--gc-sections`:

| library | `.text` of the program (bytes) | against KleidiAI |
|---|---|---|
| KleidiAI 1.30.0{kai_note} | {kai:,} | 1.00 |
| rkai before (40c6224: Rust std in the library, every packer reachable from each shim) | {RKAI_BEFORE:,} | {RKAI_BEFORE / kai:.1f} |
| rkai | {rkai:,} | {rkai / kai:.2f} |

The same program for x86_64 (rkai's portable code, no KleidiAI to compare with): {host:,} bytes.
`tests/suite/c_size.rs` keeps both under committed bounds. Measured by

```sh
RKAI_SIZE_KLEIDIAI=<KleidiAI objects or libkleidiai.a> scripts/size-report.sh
```

which builds rkai's static library as CMake does (`cargo build --release --no-default-features`),
links the program against it and, given a build of KleidiAI, against that. KleidiAI's figure
comes from its v1.30.0 sources (commit 74b1a12): the five files the program uses compiled with
the flags of KleidiAI's CMakeLists for a release build (`-O3 -DNDEBUG -std=c99`;
`-march=armv8.2-a+dotprod` for the GEMV, `+i8mm` for the GEMM and its `.S`, `armv8-a` for the
packers) and archived; linking an archive takes only the objects a program references, as from
KleidiAI's own `libkleidiai.a` (whose CMake build stops at an internal compiler error of GCC 12
in an unrelated bf16 packer).

Where the rkai program's bytes are (`nm -S`, by the functions they serve; KleidiAI's program
has 3.6 KB of kernels with their getters, a 3.2 KB LHS packer, a 1.0 KB scalar RHS packer and the
same `main`):

| part | bytes |
|---|---|""")
for part, size in sorted(parts.items(), key=lambda p: -p[1]):
    print(f"| {part} | {size:,} |")
print("""
Before, the program carried about 200 KB of Rust's standard library (panic, backtrace and
formatting machinery, reached from the assertion message and from every panic path) and about
175 KB of packers it never calls (a shim passed its packer's kind to a function that matched on
it at run time, so every packer of the C ABI was reachable from each). What changed
(docs/ARCHITECTURE.md, "What a C program links"): the C library is `no_std` with a panic
handler that writes a static message and aborts, and assertion messages are written from
static pieces with `write(2)`; each shim passes constants, so the dispatch below it folds and
it references its own kernel or packer only; the packers compile their drivers once and only
their innermost loops per tile, and the int4 RHS packer runs zero point 0 through zero point
8's loops (flipping bit 3 of each nibble as it copies the source), which halves its loops. What
remains above KleidiAI's figure is mostly the RHS packer: rkai's packs with a NEON loop per
tile where KleidiAI's is scalar C; both of rkai's packers also check their arguments in every
build.

What it costs, counted under QEMU (neoverse-v1) with `examples/count_instructions.rs` before and
after (4096 x 4096 weights): packing the int4 weights takes 8-9% more instructions for the
`nr` = 8 tiles (0.204 to 0.222 per weight for the tile of the 1x8x32 dotprod GEMV and the 8x8x32
i8mm GEMM, 0.233 to 0.251 for the 8x8x32 dotprod GEMM's) and 14-16% more for the `nr` = 4 tiles
(0.212 to 0.245, 0.244 to 0.278): the chunk loop is no longer unrolled four times. Zero point 0
packs at about half zero point 8's speed (a driver calling the packer with zero point 0: 1.97
times the instructions). Weights are packed once per model load. Quantizing the activations is
unchanged, the matmul calls are within 0.1%.

A default `cargo build` (the `std` feature, for Rust callers) links Rust's standard library:
its unwinding personality, named by every unwind table, keeps its panic machinery, and the same
program then has about 223 KB of `.text`. The C library is the `no_std` one CMake builds.""")
PY
}

# text_size <size tool> <program>: the size of its .text section.
text_size() {
  "$1" -A "$2" | awk '$1 == ".text" { print $2 }'
}

# report <arch> <cc> <size tool> <cargo> <library dir>
report() {
  local arch=$1 cc=$2 size=$3 cargo=$4 libdir=$5 target_args=()
  if [[ $arch != "$host" ]]; then
    target_args=(--target "$arch-unknown-linux-gnu")
  fi
  "$cargo" build --quiet --release --lib --no-default-features "${target_args[@]}"
  local exe=$work/size_probe-$arch
  "$cc" "${cflags[@]}" c_examples/size_probe.c "$libdir/librkai_capi.a" "${ldflags[@]}" -o "$exe"
  echo "size-report: $arch rkai .text $(text_size "$size" "$exe")"
}

if ((markdown)); then
  markdown_section "$("$0" "${pass[@]}")" "$work/size_probe-aarch64"
  exit
fi

if ((want_aarch64)); then
  if [[ $host == aarch64 ]]; then
    report aarch64 cc size cargo "$CARGO_TARGET_DIR/release"
    a64_cc=cc a64_size=size a64_ar=ar
  elif command -v aarch64-linux-gnu-gcc >/dev/null; then
    # The linker CMake's cross build hands cargo (cmake/aarch64-linux-gnu.cmake's compiler): cargo
    # rebuilds every crate when the linker changes, and the test suite's C builds share one
    # target directory.
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-$(command -v aarch64-linux-gnu-gcc)} \
    report aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-size "$ROOT/scripts/cross-cargo" \
      "$CARGO_TARGET_DIR/aarch64-unknown-linux-gnu/release"
    a64_cc=aarch64-linux-gnu-gcc a64_size=aarch64-linux-gnu-size a64_ar=aarch64-linux-gnu-ar
  else
    echo "size-report: aarch64: skipped (no aarch64-linux-gnu-gcc; scripts/setup-toolchain.sh installs it)"
    want_aarch64=0
  fi
fi
if ((want_host)) && [[ $host != aarch64 ]]; then
  report "$host" cc size cargo "$CARGO_TARGET_DIR/release"
fi

if ((want_aarch64)) && [[ -n ${RKAI_SIZE_KLEIDIAI:-} ]]; then
  kai=$RKAI_SIZE_KLEIDIAI
  if [[ -d $kai ]]; then
    # Objects become an archive, so that the link takes only what the program calls, as it
    # does from libkleidiai.a.
    rm -f "$work/kleidiai-objects.a"
    "$a64_ar" rcs "$work/kleidiai-objects.a" "$kai"/*.o
    kai=$work/kleidiai-objects.a
  fi
  exe=$work/size_probe-kleidiai
  "$a64_cc" "${cflags[@]}" c_examples/size_probe.c "$kai" "${ldflags[@]}" -o "$exe"
  kai_text=$(text_size "$a64_size" "$exe")
  rkai_text=$(text_size "$a64_size" "$work/size_probe-aarch64")
  echo "size-report: aarch64 kleidiai .text $kai_text (rkai / kleidiai = $(awk -v r="$rkai_text" -v k="$kai_text" 'BEGIN { printf "%.2f", r / k }'))"
fi
