# The aarch64 test matrix under QEMU: which CPU models run which test files. Sourced by
# scripts/test-all.sh (CI) and scripts/reliability-report.sh, so both cover the same cells.
# Each list can be overridden from the environment (README: "Tests").
# The tests are one binary (tests/suite); a file's tests are selected by the filter `<file>::`,
# its module path (no two modules' paths contain one another's: tests/suite/main.rs).
# shellcheck shell=bash

# Every test on each kind of core (max at 512-bit SVE); NEON kernels behave the same at every SVE
# vector length, so the other lengths run only what depends on it (below). The max model runs
# without SME here: the SME kernels and packers run in the streaming-length loop below, at
# every length and without SVE, and would otherwise run twice.
models=${RKAI_QEMU_MODELS:-"cortex-a53 neoverse-n1 neoverse-v1 neoverse-n2 max,sme=off,sve-default-vector-length=64"}
# The CMake consumer test builds and runs its own aarch64 binaries, and the framework
# integration test (tests/suite/c_integration.rs) is native only; both run once, natively.
full_suite_skips=(--skip cmake_consumers_build_and_run --skip framework_integration_recipes)
# The portable implementations are one machine code on every CPU model, and outside tests they
# run only where the CPU lacks the kernel's features, that is at the 128-bit lengths the native
# run covers: CI runs their reference tests natively and under the first model only; every other
# run (the later models, the vector and streaming lengths) adds these skips. (On neoverse-n1 the
# qai8dxp one alone took 84 of the run's 144 seconds.)
portable_skips=(--skip portable_kernels_match_reference)

# The other vector lengths (128, 256, 1024 and 2048 bits) matter only to the SVE kernels, whose
# tiles or refusals follow the vector length: the test files that exercise them, with the
# qai8dxp tests narrowed to their SVE kernels (RKAI_TEST_KERNEL=_sve).
vl_models=${RKAI_QEMU_VL_MODELS:-"max,sve-default-vector-length=16 max,sve-default-vector-length=32 max,sve-default-vector-length=128 max,sve-default-vector-length=256"}
vl_tests=(cpu:: qai8dxp:: selection:: safe_api:: safe_api_families:: safe_api_ranges:: float_gemm:: qsi8d32p:: getters_grid:: imatmul:: matmul_pack_rhs:: matmul_uker_sve2p1::)

# The streaming vector length (SME, QEMU 11) at 128 to 2048 bits, and 512 bits without SVE:
# detection and selection read it, and the SME kernels' tiles follow it. The files run narrowed
# to the SME kernels (RKAI_TEST_KERNEL=_sme) where they hold other kernels too. Above 512 bits
# tests/suite/support/tester.rs runs each shape once (RKAI_SME_CASES=all: every case). The SME getter
# grid was measured at 128, 512 and 2048 bits (at 256 and 1024 it checks the getters that do
# not depend on the length).
svl_models=${RKAI_QEMU_SVL_MODELS:-"max,sme-default-vector-length=16 max,sme-default-vector-length=32 max,sme-default-vector-length=64 max,sme-default-vector-length=128 max,sme-default-vector-length=256 max,sve=off,sme-default-vector-length=64"}
# One test file a line: each SME family's file joins the list.
svl_tests=(
  cpu:: selection:: safe_api:: safe_api_families:: safe_api_ranges:: packer_slices:: lhs_pack_f16::
  contract_violations:: getters_grid_sme:: plan::
  qai8dxp::
  qsi8d32p::
  qai4c32p::
  qai8dxp_qsu2cxp::
  x16p2vlx2_pack::
  x8p2vlx4_pack::
  bf16_sme::
  f32_sme_pack::
  f16p_qsi4c32p::
  f32p16vlx1b_pack::
  f32p_f32p_sme::
  f16p_f16p_sme::
  f32_sme_gemv::
  f16_sme_gemv::
  matmul_pack_lhs::
  matmul_pack_rhs::
  matmul_uker::
  matmul_uker_u8::
  matmul_uker_f16::
  matmul_uker_mopa::
  matmul_uker_qai8::
  dwconv::
  imatmul_sme::
  qai8_sme::
)

# RKAI_SME_CASES of a streaming-length model (the environment's value wins): without SVE the SME
# kernels run the streaming code the 512-bit run checks case by case, so there each shape runs
# once (`once`), which still reaches every path and any SVE instruction outside streaming mode.
sme_cases_of() { [[ $1 == *sve=off* ]] && echo once || true; }

# SME without SVE (like Apple M4): detection, selection and the SVE getters' fallback differ
# there (the SME kernels run in the streaming-length loop).
sve_off_model=${RKAI_QEMU_SVE_OFF_MODEL-"max,sve=off"}
sve_off_tests=(cpu:: selection:: getters_grid:: packer_slices:: safe_api::)
