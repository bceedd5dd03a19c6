#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets) for a bounded time, starting from the committed
# seed corpus (fuzz/corpus/<target>, left unchanged: new inputs go to a temporary directory).
# Needs a nightly toolchain (libFuzzer and AddressSanitizer); without one it says so and exits 0.
#   scripts/fuzz.sh                   30 s per target
#   RKAI_FUZZ_SECONDS=600 scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${RKAI_FUZZ_SECONDS:-30}

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain (rustup toolchain install nightly): skipping the fuzz targets"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install --locked cargo-fuzz
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in $(cargo +nightly fuzz list); do
  mkdir -p "$work/$target"
  echo "fuzz: $target for ${seconds}s"
  cargo +nightly fuzz run "$target" "$work/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 2>&1 | grep -E "^Done|number_of_executed_runs|ERROR|panicked|SUMMARY" || true
  # cargo fuzz exits non-zero on a crash; pipefail would hide it behind grep, so check artifacts.
  if compgen -G "artifacts/$target/*" >/dev/null; then
    echo "fuzz: $target found a failing input: fuzz/artifacts/$target" >&2
    exit 1
  fi
done
