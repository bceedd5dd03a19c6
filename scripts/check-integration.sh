#!/usr/bin/env bash
# Checks the framework recipes of docs/INTEGRATION.md: builds and installs rkai with CMake once,
# then configures, builds and runs each stand-in project under tests/integration/<framework>/,
# which reproduces how that framework's own CMake code takes KleidiAI (add_subdirectory of a
# submodule, FetchContent with an override, KLEIDIAI_SOURCE_DIR, a system library found by
# path, a find module, the glue file), against this source tree, its build tree or its install
# prefix. Each stand-in's program calls a few kai_* functions and must print "<name>: OK".
# Every fetch URL in the stand-ins is unreachable, so a recipe that let a download happen fails.
#
# Native only. rkai is compiled once: every stand-in shares one cargo target directory
# (RKAI_CARGO_TARGET_DIR), so their cargo steps find it up to date.
#
# Usage: scripts/check-integration.sh          (from any directory; safe to re-run)
# Environment:
#   RKAI_INTEGRATION_DIR  output directory (default: <repo>/target/integration): rkai/ (the CMake
#                         build), prefix/ (the install), cargo/ (kept between runs), one build
#                         directory and log per stand-in under standins/ and logs/
#   RKAI_CARGO_TARGET_DIR cargo's target dir (default: cargo/ of the output directory); the test
#                         suite shares one with its other C builds
#   RKAI_JOBS             parallel build jobs (default: all CPUs)
# Exit status 0 only when every stand-in built and printed its OK line.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${RKAI_INTEGRATION_DIR:-$ROOT/target/integration}
JOBS=${RKAI_JOBS:-$(nproc 2>/dev/null || echo 2)}
CARGO_DIR=${RKAI_CARGO_TARGET_DIR:-$DIR/cargo}
PREFIX=$DIR/prefix
BUILD=$DIR/rkai
LOGS=$DIR/logs
START=$(date +%s)
RESULTS=()
FAILED=0

for tool in cmake ninja cc c++ cargo; do
  command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool (run scripts/setup-toolchain.sh)" >&2; exit 1; }
done

# Everything but cargo's target directory is rebuilt: each run proves the recipes anew.
rm -rf "$BUILD" "$PREFIX" "$DIR/executorch-prefix" "$DIR/standins" "$LOGS"
mkdir -p "$LOGS" "$DIR/standins"

say() { printf '\n==> %s\n' "$*"; }
elapsed() { echo $(($(date +%s) - $1)); }

common=(-G Ninja -DCMAKE_BUILD_TYPE=Release)

step() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "FAILED: $*" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

say "rkai: configure, build (cargo) and install into $PREFIX"
t0=$(date +%s)
step "$LOGS/rkai-configure.log" cmake -S "$ROOT" -B "$BUILD" "${common[@]}" -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DRKAI_CARGO_TARGET_DIR="$CARGO_DIR" -DKLEIDIAI_BUILD_TESTS=OFF
step "$LOGS/rkai-build.log" cmake --build "$BUILD" --parallel "$JOBS"
step "$LOGS/rkai-install.log" cmake --install "$BUILD"
echo "    done ($(elapsed "$t0") s)"

# standin <label> <directory under tests/integration> <program> [env VAR=value ...] -- [cmake args...]
# Configures, builds and runs one stand-in; records PASS when the program exits 0 and prints
# "<something>: OK".
standin() {
  local label=$1 src=$2 program=$3
  shift 3
  local -a envs=()
  while [[ $# -gt 0 && $1 != -- ]]; do
    envs+=("$1")
    shift
  done
  [[ ${1:-} == -- ]] && shift
  local slug=${label//[^A-Za-z0-9.]/_}
  local bdir=$DIR/standins/$slug log=$LOGS/$slug.log t0 status=0
  t0=$(date +%s)
  say "$label"
  {
    echo "+ cmake -S tests/integration/$src $*"
    env "${envs[@]}" cmake -S "$ROOT/tests/integration/$src" -B "$bdir" "${common[@]}" "$@" &&
      env "${envs[@]}" cmake --build "$bdir" --parallel "$JOBS" &&
      "$bdir/$program"
  } >"$log" 2>&1 || status=$?
  if [[ $status -eq 0 ]] && grep -qE '^[^:]+: OK$' "$log"; then
    RESULTS+=("PASS  $label ($(elapsed "$t0") s)")
    grep -E '^[^:]+: (kai_get_version|OK)' "$log" | sed 's/^/    | /'
  else
    RESULTS+=("FAIL  $label (exit $status, see $log)")
    FAILED=1
    echo "    FAILED (exit $status); last lines of $log:"
    tail -n 30 "$log" | sed 's/^/    | /'
  fi
}

cargo_dir=(-DRKAI_CARGO_TARGET_DIR="$CARGO_DIR")

standin "pytorch: add_subdirectory(third_party/kleidiai = rkai)" pytorch pytorch_standin -- \
  -DKLEIDIAI_SUBMODULE="$ROOT" "${cargo_dir[@]}"
standin "torchao: -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI" torchao torchao_standin -- \
  -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI="$ROOT" "${cargo_dir[@]}"
# torchao's setup.py passes a fixed argument list to CMake: the override travels in a toolchain
# file named by the CMAKE_TOOLCHAIN_FILE environment variable (CMake 3.21 and newer).
printf 'set(FETCHCONTENT_SOURCE_DIR_KLEIDIAI "%s" CACHE PATH "")\n' "$ROOT" >"$DIR/rkai-override.cmake"
standin "torchao: FETCHCONTENT_SOURCE_DIR_KLEIDIAI from CMAKE_TOOLCHAIN_FILE (environment)" torchao torchao_standin \
  "CMAKE_TOOLCHAIN_FILE=$DIR/rkai-override.cmake" -- "${cargo_dir[@]}"
standin "onnxruntime: FETCHCONTENT_SOURCE_DIR_KLEIDIAI" onnxruntime onnxruntime_standin -- \
  -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI="$ROOT" "${cargo_dir[@]}"
standin "xnnpack: KLEIDIAI_SOURCE_DIR (add_subdirectory)" xnnpack xnnpack_standin -- \
  -DKLEIDIAI_SOURCE_DIR="$ROOT" "${cargo_dir[@]}"
standin "xnnpack: XNNPACK_USE_SYSTEM_LIBS, KLEIDIAI_SOURCE_DIR = rkai build dir" xnnpack xnnpack_standin -- \
  -DXNNPACK_USE_SYSTEM_LIBS=ON -DKLEIDIAI_SOURCE_DIR="$BUILD"
standin "onednn: KAI_ROOT_DIR = rkai build dir" onednn onednn_standin "KAI_ROOT_DIR=$BUILD" --
standin "onednn: CMAKE_PREFIX_PATH = install prefix" onednn onednn_standin -- \
  -DCMAKE_PREFIX_PATH="$PREFIX"
standin "onednn: KAI_LIBRARY = installed libkleidiai.a" onednn onednn_standin -- \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DKAI_LIBRARY="$PREFIX/lib/libkleidiai.a"
standin "llama.cpp (edited): FETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD" llama.cpp llama_cpp_standin -- \
  -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD="$ROOT" "${cargo_dir[@]}"
standin "mnn (edited): KLEIDIAI_SRC_DIR" mnn mnn_standin -- \
  -DKLEIDIAI_SRC_DIR="$ROOT" "${cargo_dir[@]}"
# ExecuTorch: build with XNNPACK and KLEIDIAI_SOURCE_DIR, install (its export set holds
# `kleidiai`), then build and run a program against that install.
executorch_flow() {
  local label="executorch: XNNPACK + KLEIDIAI_SOURCE_DIR, install(TARGETS kleidiai EXPORT ...)"
  local bdir=$DIR/standins/executorch etprefix=$DIR/executorch-prefix log=$LOGS/executorch.log t0 status=0
  t0=$(date +%s)
  say "$label"
  {
    cmake -S "$ROOT/tests/integration/executorch" -B "$bdir" "${common[@]}" -DKLEIDIAI_SOURCE_DIR="$ROOT" \
      "${cargo_dir[@]}" -DCMAKE_INSTALL_PREFIX="$etprefix" &&
      cmake --build "$bdir" --parallel "$JOBS" &&
      cmake --install "$bdir" &&
      cmake -S "$ROOT/tests/integration/executorch/consumer" -B "$bdir-consumer" "${common[@]}" \
        -DEXECUTORCH_PREFIX="$etprefix" &&
      cmake --build "$bdir-consumer" --parallel "$JOBS" &&
      "$bdir-consumer/executorch_consumer"
  } >"$log" 2>&1 || status=$?
  if [[ $status -eq 0 ]] && grep -qE '^[^:]+: OK$' "$log"; then
    RESULTS+=("PASS  $label ($(elapsed "$t0") s)")
    grep -E '^[^:]+: (kai_get_version|OK)|packed-weight key|exported kleidiai links' "$log" | sed 's/^/    | /'
  else
    RESULTS+=("FAIL  $label (exit $status, see $log)")
    FAILED=1
    echo "    FAILED (exit $status); last lines of $log:"
    tail -n 30 "$log" | sed 's/^/    | /'
  fi
}
executorch_flow
standin "glue: installed package + kleidiai-target.cmake" glue ops/glue_standin -- \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_PROJECT_INCLUDE="$PREFIX/lib/cmake/KleidiAI/kleidiai-target.cmake"

printf '\n==> Summary (%s s, output in %s)\n' "$(elapsed "$START")" "$DIR"
for line in "${RESULTS[@]}"; do
  echo "    $line"
done
if [[ $FAILED -ne 0 ]]; then
  echo "check-integration: FAILED"
  exit 1
fi
echo "check-integration: OK"
