#!/usr/bin/env bash
# The whole test suite: formatting, lints, header drift, native tests (x86_64 runs the portable
# path), the CMake/C consumer builds and the framework integration stand-ins
# (tests/c_integration.rs, part of the native `cargo test --workspace`), and the aarch64 suite under every QEMU CPU model of
# DESIGN.md §4. Installs what it needs first.
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

# Each step prints the minutes and seconds since the start (CI's budget is 30 minutes).
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

step "cargo package (both crates build from what they would publish)"
# Cargo verifies rkai against the packaged rkai-ukernels as if it came from a registry, and never
# rebuilds or re-unpacks a registry crate whose version it has seen: an earlier run's build (in the
# target directory) or unpacked copy (under $CARGO_HOME/registry/src) would be used instead of
# today's sources. So: a target directory of its own, and no unpacked copies of our crates.
forget_packaged() {
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rkai-ukernels-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/rkai-[0-9]*
}
package_dir=$(mktemp -d)
forget_packaged
cargo package --workspace --allow-dirty --quiet --target-dir "$package_dir"
rm -rf "$package_dir"
forget_packaged

step "Rust example (safe API), native"
cargo run --quiet --release --example int4_linear

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

# Every test on each kind of core (max at 512-bit SVE); NEON kernels behave the same at every SVE
# vector length, so the other lengths run only what depends on it (below). The max model runs
# without SME here: the SME kernels and packers run in the streaming-length loop below, at
# every length and without SVE, and would otherwise run twice at 512 bits.
models=${RKAI_QEMU_MODELS:-"cortex-a53 neoverse-n1 neoverse-v1 neoverse-n2 max,sme=off,sve-default-vector-length=64"}
for model in $models; do
  step "aarch64 tests under QEMU_CPU=$model"
  # The CMake consumer test builds and runs its own aarch64 binaries, and the framework
  # integration test (tests/c_integration.rs) is native only; both run once, natively.
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model "${cross_cargo[@]}" test --workspace --target $target \
    -- --skip cmake_consumers_build_and_run --skip framework_integration_recipes
done
# The other vector lengths (128, 256, 1024 and 2048 bits) matter only to the SVE kernels, whose
# tiles or refusals follow the vector length: run the test files that exercise them, with the
# qai8dxp tests narrowed to their SVE kernels.
vl_models=${RKAI_QEMU_VL_MODELS:-"max,sve-default-vector-length=16 max,sve-default-vector-length=32 max,sve-default-vector-length=128 max,sve-default-vector-length=256"}
vl_tests=(--test cpu --test qai8dxp --test selection --test safe_api --test float_gemm --test qsi8d32p --test getters_grid --test imatmul --test matmul_pack_rhs)
for model in $vl_models; do
  step "aarch64 vector-length tests under QEMU_CPU=$model"
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sve \
    "${cross_cargo[@]}" test --target $target "${vl_tests[@]}"
done
# The streaming vector length (SME, QEMU 11) at 128 to 2048 bits: detection and selection read
# it, and the SME kernels' tiles follow it; the qai8dxp and qsi8d32p tests run narrowed to the
# SME kernels, the qai4c32p tests (which ignore the narrowing) run the whole family. The SME
# getter grid was measured at 128, 512 and 2048 bits (at 256 and 1024 it checks the getters that
# do not depend on the length).
svl_models=${RKAI_QEMU_SVL_MODELS:-"max,sme-default-vector-length=16 max,sme-default-vector-length=32 max,sme-default-vector-length=64 max,sme-default-vector-length=128 max,sme-default-vector-length=256 max,sve=off,sme-default-vector-length=64"}
# One test file a line: each SME family's file joins the list.
svl_tests=(
  --test cpu --test selection --test safe_api --test packer_slices --test lhs_pack_f16
  --test contract_violations --test getters_grid_sme
  --test qai8dxp
  --test qsi8d32p
  --test qai4c32p
  --test qai8dxp_qsu2cxp
  --test x16p2vlx2_pack
  --test bf16_sme
  --test f32_sme_pack
  --test f16p_qsi4c32p
  --test f32p16vlx1b_pack
  --test f16_sme_gemv
)
for model in $svl_models; do
  step "aarch64 streaming-vector-length tests under QEMU_CPU=$model"
  QEMU_CPU=$model RKAI_EXPECT_CPU=$model RKAI_TEST_KERNEL=_sme \
    "${cross_cargo[@]}" test --target $target "${svl_tests[@]}"
done
# SME without SVE (like Apple M4): detection, selection and the SVE getters' fallback differ
# there (the SME kernels ran at SVL 512 above; the full suite took 25 minutes there).
sve_off_model=${RKAI_QEMU_SVE_OFF_MODEL-"max,sve=off"}
if [[ -n "$sve_off_model" ]]; then
  step "aarch64 SME-without-SVE tests under QEMU_CPU=$sve_off_model"
  QEMU_CPU=$sve_off_model RKAI_EXPECT_CPU=$sve_off_model "${cross_cargo[@]}" test --target $target \
    --test cpu --test selection --test getters_grid --test packer_slices --test safe_api
fi
for model in cortex-a53 neoverse-n1 neoverse-v1; do
  step "Rust example (safe API) under QEMU_CPU=$model"
  QEMU_CPU=$model "${cross_cargo[@]}" run --quiet --release --target $target --example int4_linear
done
step "all tests passed"
