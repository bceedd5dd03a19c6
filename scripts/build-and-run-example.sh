#!/usr/bin/env bash
# Builds rkai with CMake, installs it into a prefix, builds c_examples/int4_linear.c (an int4
# LLM linear layer through the KleidiAI C API) against it every way a C/C++ project consumes
# KleidiAI, and runs every build:
#
#   subdirectory   add_subdirectory(rkai), linking `kleidiai` (static) and rkai::rkai_shared
#   package        find_package(KleidiAI 1.30) -> KleidiAI::kleidiai,
#                  find_package(rkai) -> rkai::rkai and rkai::rkai_shared
#   pkg-config     cc $(pkg-config --cflags --libs --static rkai)   (links libkleidiai.so)
#                  the same with kleidiai.pc, forcing libkleidiai.a
#
# natively, then, on x86_64 hosts, for aarch64 with cmake/aarch64-linux-gnu.cmake, running the
# binaries under qemu-aarch64 (QEMU_CPU=max: dotprod + i8mm; plus one run on neoverse-n1, which
# has no i8mm, where the GEMM kernel must be skipped).
#
# Usage: scripts/build-and-run-example.sh          (from any directory; safe to re-run)
# Environment:
#   RKAI_BUILD_DIR     output directory (default: <repo>/target/cmake-example); per arch it holds
#                      rkai/ (CMake build), prefix/ (the install), cargo/ (cargo's target dir,
#                      kept between runs), subdirectory/, package/, pkgconfig/, logs/
#   RKAI_CARGO_TARGET_DIR  cargo's target dir for every arch (default: cargo/ of each arch's
#                      output directory); the test suite shares one with its other C builds
#   RKAI_SKIP_SETUP=1  do not run scripts/setup-toolchain.sh first
#   RKAI_CROSS         auto (default: aarch64 flow on x86_64 hosts when the cross tools are
#                      present), 1 (required: fail without them), 0 (native only)
#   RKAI_QEMU_CPU      QEMU CPU model of the aarch64 runs (default: max)
#   RKAI_JOBS          parallel build jobs (default: all CPUs)
# Exit status 0 only when every build and run succeeded; the summary lists each variant.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${RKAI_BUILD_DIR:-$ROOT/target/cmake-example}
mkdir -p "$BUILD_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
CROSS=${RKAI_CROSS:-auto}
QEMU_CPU_MODEL=${RKAI_QEMU_CPU:-max}
JOBS=${RKAI_JOBS:-$(nproc 2>/dev/null || echo 2)}
HOST_ARCH=$(uname -m)
SYSROOT_AARCH64=/usr/aarch64-linux-gnu
# -E LD_LIBRARY_PATH keeps the cross ld.so away from the arm64 multiarch glibc listed in the host's
# /etc/ld.so.cache (mixing the two makes pthread_create spin forever), as .cargo/config.toml does.
# qemu-aarch64.sh picks the emulator per model as the test matrix does (QEMU 11 when fetched).
QEMU=("$ROOT/scripts/qemu-aarch64.sh" -L "$SYSROOT_AARCH64" -E "LD_LIBRARY_PATH=$SYSROOT_AARCH64/lib")

START_TIME=$(date +%s)
RESULTS=()     # "PASS|FAIL|SKIP<TAB>arch<TAB>variant<TAB>detail"
FAILED=0

say() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
elapsed() { echo $(( $(date +%s) - $1 )); }

# run_step <log> <description> <command...>: runs a build step with its output in <log>; on
# failure shows the end of the log and stops the script.
run_step() {
  local log=$1 what=$2 t0
  shift 2
  t0=$(date +%s)
  if "$@" >"$log" 2>&1; then
    note "$what ($(elapsed "$t0") s)"
  else
    echo "FAILED: $what" >&2
    echo "---- last lines of $log ----" >&2
    tail -n 60 "$log" >&2
    RESULTS+=("FAIL	${CURRENT_ARCH:-?}	$what	build step failed, see $log")
    print_summary
    exit 1
  fi
}

# run_example <arch> <variant> <log> <command...>: runs one build of the example and records
# PASS when it exits 0 and printed `int4_linear: OK`.
run_example() {
  local arch=$1 variant=$2 log=$3 t0 status=0
  shift 3
  t0=$(date +%s)
  "$@" >"$log" 2>&1 || status=$?
  local secs
  secs=$(elapsed "$t0")
  if [[ $status -eq 0 ]] && grep -qx 'int4_linear: OK' "$log"; then
    RESULTS+=("PASS	$arch	$variant	${secs} s")
    note "PASS  $variant (${secs} s)"
  else
    RESULTS+=("FAIL	$arch	$variant	exit $status, see $log")
    FAILED=1
    note "FAIL  $variant (exit $status) -- output:"
    sed 's/^/        /' "$log"
    return 0
  fi
  if [[ ${SHOWN_FULL:-} != "$arch" ]]; then
    SHOWN_FULL=$arch
    sed 's/^/        | /' "$log"
  else
    grep -E '^\[(GEMV|GEMM)\]|time per matmul|max rel error|SKIP' "$log" | sed 's/^/        | /'
  fi
}

print_summary() {
  local total
  total=$(elapsed "$START_TIME")
  printf '\n==> Summary (%s s, build dir %s)\n' "$total" "$BUILD_DIR"
  local line
  for line in "${RESULTS[@]}"; do
    IFS=$'\t' read -r status arch variant detail <<<"$line"
    printf '    %-4s  %-8s %-58s %s\n' "$status" "$arch" "$variant" "$detail"
  done
  for line in "${SYMBOL_COUNTS[@]}"; do
    printf '    %s\n' "$line"
  done
}

have() { command -v "$1" >/dev/null 2>&1; }

cross_tools_present() {
  have aarch64-linux-gnu-gcc && { have qemu-aarch64 || [[ -x $ROOT/tools/qemu11/usr/bin/qemu-aarch64 ]]; } && [[ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu ]] &&
    "$ROOT/scripts/cross-cargo" --version >/dev/null 2>&1
}

# flow <arch>: build, install, consume and run for one architecture.
flow() {
  local arch=$1
  CURRENT_ARCH=$arch
  local dir=$BUILD_DIR/$arch
  local prefix=$dir/prefix logs=$dir/logs
  local -a cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
  local -a runner=()
  local cc=cc nm_tool=nm
  if [[ $arch == aarch64 && $HOST_ARCH != aarch64 ]]; then
    cmake_args+=("-DCMAKE_TOOLCHAIN_FILE=$ROOT/cmake/aarch64-linux-gnu.cmake" "-DRKAI_CARGO=$ROOT/scripts/cross-cargo")
    runner=(env "QEMU_CPU=$QEMU_CPU_MODEL" "${QEMU[@]}")
    cc=aarch64-linux-gnu-gcc
    have aarch64-linux-gnu-nm && nm_tool=aarch64-linux-gnu-nm
  fi
  local label=$arch
  [[ ${#runner[@]} -gt 0 ]] && label="$arch (qemu-aarch64, QEMU_CPU=$QEMU_CPU_MODEL)"

  say "[$label] build and install rkai with CMake"
  # Everything but cargo's target dir is rebuilt from scratch: each run proves the flows anew.
  rm -rf "$dir/rkai" "$prefix" "$dir/subdirectory" "$dir/package" "$dir/pkgconfig" "$logs"
  mkdir -p "$logs" "$dir/pkgconfig"
  run_step "$logs/rkai-configure.log" "configure (cmake -S . ${cmake_args[*]})" \
    cmake -S "$ROOT" -B "$dir/rkai" "${cmake_args[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" \
      -DRKAI_CARGO_TARGET_DIR="${RKAI_CARGO_TARGET_DIR:-$dir/cargo}" -DKLEIDIAI_BUILD_TESTS=OFF
  run_step "$logs/rkai-build.log" "build (cargo build --release -p rkai-capi --no-default-features, via CMake)" \
    cmake --build "$dir/rkai" --parallel "$JOBS"
  run_step "$logs/rkai-install.log" "install into $prefix" cmake --install "$dir/rkai"
  local missing=()
  local f
  for f in lib/libkleidiai.a lib/libkleidiai.so include/kai/kai_common.h include/rkai.h \
           include/kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h \
           lib/cmake/KleidiAI/KleidiAIConfig.cmake lib/cmake/KleidiAI/KleidiAIConfigVersion.cmake \
           lib/cmake/rkai/rkaiConfig.cmake lib/cmake/rkai/rkaiConfigVersion.cmake \
           lib/pkgconfig/rkai.pc lib/pkgconfig/kleidiai.pc; do
    [[ -e $prefix/$f ]] || missing+=("$f")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    RESULTS+=("FAIL	$arch	install layout	missing: ${missing[*]}")
    FAILED=1
    note "FAIL install layout: missing ${missing[*]}"
  else
    RESULTS+=("PASS	$arch	install layout (lib, include, cmake, pkgconfig)	$prefix")
  fi
  local count
  count=$("$nm_tool" -g --defined-only "$prefix/lib/libkleidiai.a" 2>/dev/null | grep -c ' T kai_' || true)
  SYMBOL_COUNTS+=("$arch: $count kai_* functions defined in $prefix/lib/libkleidiai.a")
  note "libkleidiai.a defines $count kai_* functions; SONAME of libkleidiai.so:" \
       "$(readelf -d "$prefix/lib/libkleidiai.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"

  say "[$label] consumer: add_subdirectory(rkai)"
  run_step "$logs/subdirectory-configure.log" "configure c_examples (RKAI_CONSUME=subdirectory)" \
    cmake -S "$ROOT/c_examples" -B "$dir/subdirectory" "${cmake_args[@]}" -DRKAI_CONSUME=subdirectory \
      -DRKAI_SOURCE_DIR="$ROOT" -DRKAI_CARGO_TARGET_DIR="${RKAI_CARGO_TARGET_DIR:-$dir/cargo}"
  run_step "$logs/subdirectory-build.log" "build" cmake --build "$dir/subdirectory" --parallel "$JOBS"
  run_example "$arch" "subdirectory: kleidiai (static)" "$logs/run-subdirectory-static.log" \
    "${runner[@]}" "$dir/subdirectory/int4_linear"
  run_example "$arch" "subdirectory: rkai::rkai_shared" "$logs/run-subdirectory-shared.log" \
    "${runner[@]}" "$dir/subdirectory/int4_linear_shared"

  say "[$label] consumer: find_package(KleidiAI) / find_package(rkai) from $prefix"
  run_step "$logs/package-configure.log" "configure c_examples (RKAI_CONSUME=package)" \
    cmake -S "$ROOT/c_examples" -B "$dir/package" "${cmake_args[@]}" -DRKAI_CONSUME=package \
      -DCMAKE_PREFIX_PATH="$prefix"
  run_step "$logs/package-build.log" "build" cmake --build "$dir/package" --parallel "$JOBS"
  run_example "$arch" "package: KleidiAI::kleidiai (static)" "$logs/run-package-kleidiai.log" \
    "${runner[@]}" "$dir/package/int4_linear_kleidiai"
  run_example "$arch" "package: rkai::rkai (static)" "$logs/run-package-rkai.log" \
    "${runner[@]}" "$dir/package/int4_linear_rkai"
  run_example "$arch" "package: rkai::rkai_shared" "$logs/run-package-rkai-shared.log" \
    "${runner[@]}" "$dir/package/int4_linear_rkai_shared"

  say "[$label] consumer: pkg-config"
  local pc=(env "PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig" PKG_CONFIG_PATH= pkg-config)
  local flags_rkai flags_kleidiai
  flags_rkai=$("${pc[@]}" --cflags --libs --static rkai)
  # -l:libkleidiai.a: the same flags, but the archive even though libkleidiai.so sits next to it.
  flags_kleidiai=$("${pc[@]}" --cflags --libs --static kleidiai | sed 's/-lkleidiai\b/-l:libkleidiai.a/')
  note "pkg-config --cflags --libs --static rkai: $flags_rkai"
  note "pkg-config --modversion rkai kleidiai: $("${pc[@]}" --modversion rkai) $("${pc[@]}" --modversion kleidiai)"
  # shellcheck disable=SC2086 # word splitting of pkg-config output is intended
  run_step "$logs/pkgconfig-shared-build.log" "$cc int4_linear.c \$(pkg-config --cflags --libs --static rkai)" \
    "$cc" -std=c99 -O3 -pthread -Wall -Wextra -Wpedantic "$ROOT/c_examples/int4_linear.c" -o "$dir/pkgconfig/int4_linear" \
      $flags_rkai -Wl,-rpath,"$prefix/lib"
  # shellcheck disable=SC2086
  run_step "$logs/pkgconfig-static-build.log" "$cc int4_linear.c \$(pkg-config --cflags --libs --static kleidiai) (archive)" \
    "$cc" -std=c99 -O3 -pthread -Wall -Wextra -Wpedantic "$ROOT/c_examples/int4_linear.c" -o "$dir/pkgconfig/int4_linear_static" \
      $flags_kleidiai
  run_example "$arch" "pkg-config rkai (libkleidiai.so)" "$logs/run-pkgconfig-shared.log" \
    "${runner[@]}" "$dir/pkgconfig/int4_linear"
  run_example "$arch" "pkg-config --static kleidiai (libkleidiai.a)" "$logs/run-pkgconfig-static.log" \
    "${runner[@]}" "$dir/pkgconfig/int4_linear_static"

  if [[ $arch == aarch64 && $HOST_ARCH != aarch64 ]]; then
    say "[$arch] feature detection: QEMU_CPU=neoverse-n1 (dotprod, no i8mm)"
    run_example "$arch" "neoverse-n1: GEMM (i8mm) skipped" "$logs/run-neoverse-n1.log" \
      env QEMU_CPU=neoverse-n1 "${QEMU[@]}" "$dir/subdirectory/int4_linear"
    if ! grep -q 'SKIP: this CPU has no i8mm' "$logs/run-neoverse-n1.log"; then
      RESULTS+=("FAIL	$arch	neoverse-n1: i8mm kernel not skipped	see $logs/run-neoverse-n1.log")
      FAILED=1
    fi
  fi
}

SYMBOL_COUNTS=()

if [[ ${RKAI_SKIP_SETUP:-0} != 1 ]]; then
  say "toolchain (scripts/setup-toolchain.sh)"
  "$ROOT/scripts/setup-toolchain.sh"
fi
for tool in cmake ninja cc pkg-config cargo; do
  have "$tool" || { echo "missing tool: $tool (run scripts/setup-toolchain.sh)" >&2; exit 1; }
done

case $HOST_ARCH in
  x86_64 | amd64) native=x86_64 ;;
  aarch64 | arm64) native=aarch64 ;;
  *) native=$HOST_ARCH ;;
esac

say "rkai $(sed -n 's/^version *= *"\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -1) from $ROOT; host $HOST_ARCH; output in $BUILD_DIR"
note "$(cmake --version | head -1); ninja $(ninja --version); $(cargo --version)"

flow "$native"

if [[ $native == x86_64 && $CROSS != 0 ]]; then
  if cross_tools_present; then
    note "aarch64: $("$ROOT/scripts/cross-cargo" --version); $(aarch64-linux-gnu-gcc --version | head -1); $(QEMU_CPU=$QEMU_CPU_MODEL "${QEMU[0]}" --version | head -1)"
    flow aarch64
  elif [[ $CROSS == 1 ]]; then
    echo "RKAI_CROSS=1 but the aarch64 tools are missing (aarch64-linux-gnu-gcc, qemu-aarch64, scripts/cross-cargo with the aarch64 std)" >&2
    RESULTS+=("FAIL	aarch64	cross tools missing	run scripts/setup-toolchain.sh")
    FAILED=1
  else
    RESULTS+=("SKIP	aarch64	cross tools missing	aarch64-linux-gnu-gcc, qemu-aarch64 or scripts/cross-cargo")
  fi
fi

print_summary
if [[ $FAILED -ne 0 ]]; then
  echo "build-and-run-example: FAILED"
  exit 1
fi
echo "build-and-run-example: OK"
