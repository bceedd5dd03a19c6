#!/usr/bin/env bash
# The whole test suite: formatting, lints, header drift, native tests (x86_64 runs the portable
# path), the CMake/C consumer builds and the framework integration stand-ins
# (tests/suite/c_integration.rs, part of the native `cargo test --workspace`), the safe API's
# examples (tests/suite/examples.rs runs them), and the aarch64 suite under every QEMU CPU model
# of DESIGN.md §4. Installs what it needs first.
#   scripts/test-all.sh            everything
#   RKAI_QEMU_MODELS="neoverse-v1" scripts/test-all.sh   a subset of models
#   RKAI_QEMU_VL_MODELS="" scripts/test-all.sh            skip the extra SVE vector lengths
#   RKAI_QEMU_SVL_MODELS="" scripts/test-all.sh           skip the streaming (SME) vector lengths
# The emulator is QEMU 11 (fetched into tools/qemu11/ by setup-toolchain.sh) for every model but
# neoverse-v1, which QEMU 11 defines without BF16 and so keeps QEMU 10 (scripts/qemu-aarch64.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

scripts/setup-toolchain.sh

# Each step prints the minutes and seconds since the start (CI's budget is 60 minutes).
step() { printf '\n==> [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

step "rustfmt"
cargo fmt --all --check

step "clippy (native)"
cargo clippy --workspace --all-targets -- -D warnings
step "clippy (the C library as CMake builds it: no_std)"
cargo clippy --lib --no-default-features -- -D warnings

step "rustdoc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "native tests ($(uname -m))"
cargo test --workspace

step "cargo package (the three crates build from what they would publish)"
# Cargo verifies rkai and rkai-capi against the packaged rkai-ukernels as if it came from a
# registry, and never rebuilds or re-unpacks a registry crate whose version it has seen: an
# earlier run's build (in the target directory) or unpacked copy (under $CARGO_HOME/registry/src)
# would be used instead of today's sources. So: a target directory of its own, and no unpacked copies of our crates.
forget_packaged() {
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rkai-ukernels-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rkai-capi-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rkai-[0-9]*
}
package_dir=$(mktemp -d)
forget_packaged
cargo package --workspace --allow-dirty --quiet --target-dir "$package_dir"
rm -rf "$package_dir"
forget_packaged

step "fuzzing (bounded: RKAI_FUZZ_SECONDS per target, default 30)"
scripts/fuzz.sh

target=aarch64-unknown-linux-gnu
cross_cargo=(scripts/cross-cargo)
if ! command -v qemu-aarch64 >/dev/null && [[ ! -x tools/qemu11/usr/bin/qemu-aarch64 ]]; then
  echo "qemu-aarch64 not found: skipping the CPU-model matrix" >&2
  exit 0
fi

# A separate target dir keeps the two compilers' host artifacts apart.
export CARGO_TARGET_DIR=$root/target/cross
step "clippy (aarch64)"
"${cross_cargo[@]}" clippy --workspace --all-targets --target $target -- -D warnings
"${cross_cargo[@]}" clippy --lib --no-default-features --target $target -- -D warnings
step "rustdoc (aarch64: the asm modules exist only there)"
RUSTDOCFLAGS="-D warnings" "${cross_cargo[@]}" doc --workspace --no-deps --quiet --target $target
"${cross_cargo[@]}" test --workspace --target $target --no-run

# The QEMU CPU models and which test files run on each: scripts/test-matrix.sh (shared with
# scripts/reliability-report.sh).
source scripts/test-matrix.sh
later=()   # the first model runs the portable implementations' tests, the later ones skip them
for model in $models; do
  step "aarch64 tests under QEMU_CPU=$model"
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model "${cross_cargo[@]}" test --workspace --target $target \
    -- "${full_suite_skips[@]}" "${later[@]}"
  later=("${portable_skips[@]}")
done
for model in $vl_models; do
  step "aarch64 vector-length tests under QEMU_CPU=$model"
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sve \
    "${cross_cargo[@]}" test --target $target --test suite -- "${vl_tests[@]}" "${portable_skips[@]}"
done
for model in $svl_models; do
  step "aarch64 streaming-vector-length tests under QEMU_CPU=$model"
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sme \
    RKAI_SME_CASES=${RKAI_SME_CASES:-$(sme_cases_of "$model")} \
    "${cross_cargo[@]}" test --target $target --test suite -- "${svl_tests[@]}" "${portable_skips[@]}"
done
if [[ -n "$sve_off_model" ]]; then
  step "aarch64 SME-without-SVE tests under QEMU_CPU=$sve_off_model"
  QEMU_CPU=$sve_off_model RKAI_EXPECT_CPU=$sve_off_model "${cross_cargo[@]}" test --target $target \
    --test suite -- "${sve_off_tests[@]}" "${portable_skips[@]}"
fi
step "all tests passed"
