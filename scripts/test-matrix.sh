# The aarch64 test matrix under QEMU: which CPU models run which test files. Sourced by
# scripts/test-all.sh (CI) and scripts/reliability-report.sh, so both cover the same cells.
# Each list can be overridden from the environment (README: "Tests").
# shellcheck shell=bash

# Every test on each kind of core (max at 512-bit SVE); NEON kernels behave the same at every SVE
# vector length, so the other lengths run only what depends on it (below). The max model runs
# without SME here: the SME kernels and packers run in the streaming-length loop below, at
# every length and without SVE, and would otherwise run twice.
models=${RKAI_QEMU_MODELS:-"cortex-a53 neoverse-n1 neoverse-v1 neoverse-n2 max,sme=off,sve-default-vector-length=64"}
# The CMake consumer test builds and runs its own aarch64 binaries, and the framework
# integration test (tests/c_integration.rs) is native only; both run once, natively.
full_suite_skips=(--skip cmake_consumers_build_and_run --skip framework_integration_recipes)

# The other vector lengths (128, 256, 1024 and 2048 bits) matter only to the SVE kernels, whose
# tiles or refusals follow the vector length: the test files that exercise them, with the
# qai8dxp tests narrowed to their SVE kernels (RKAI_TEST_KERNEL=_sve).
vl_models=${RKAI_QEMU_VL_MODELS:-"max,sve-default-vector-length=16 max,sve-default-vector-length=32 max,sve-default-vector-length=128 max,sve-default-vector-length=256"}
vl_tests=(--test cpu --test qai8dxp --test selection --test safe_api --test safe_api_families --test float_gemm --test qsi8d32p --test getters_grid --test imatmul --test matmul_pack_rhs --test matmul_uker_sve2p1)

# The streaming vector length (SME, QEMU 11) at 128 to 2048 bits, and 512 bits without SVE:
# detection and selection read it, and the SME kernels' tiles follow it. The files run narrowed
# to the SME kernels (RKAI_TEST_KERNEL=_sme) where they hold other kernels too. Above 512 bits
# tests/support/tester.rs runs each shape once (RKAI_SME_CASES=all: every case). The SME getter
# grid was measured at 128, 512 and 2048 bits (at 256 and 1024 it checks the getters that do
# not depend on the length).
svl_models=${RKAI_QEMU_SVL_MODELS:-"max,sme-default-vector-length=16 max,sme-default-vector-length=32 max,sme-default-vector-length=64 max,sme-default-vector-length=128 max,sme-default-vector-length=256 max,sve=off,sme-default-vector-length=64"}
# One test file a line: each SME family's file joins the list.
svl_tests=(
  --test cpu --test selection --test safe_api --test safe_api_families --test packer_slices --test lhs_pack_f16
  --test contract_violations --test getters_grid_sme --test plan
  --test qai8dxp
  --test qsi8d32p
  --test qai4c32p
  --test qai8dxp_qsu2cxp
  --test x16p2vlx2_pack
  --test x8p2vlx4_pack
  --test bf16_sme
  --test f32_sme_pack
  --test f16p_qsi4c32p
  --test f32p16vlx1b_pack
  --test f32p_f32p_sme
  --test f16p_f16p_sme
  --test f32_sme_gemv
  --test f16_sme_gemv
  --test matmul_pack_lhs
  --test matmul_pack_rhs
  --test matmul_uker
  --test matmul_uker_u8
  --test matmul_uker_f16
  --test matmul_uker_mopa
  --test matmul_uker_qai8
  --test dwconv
  --test imatmul_sme
  --test qai8_sme
)

# SME without SVE (like Apple M4): detection, selection and the SVE getters' fallback differ
# there (the SME kernels run in the streaming-length loop).
sve_off_model=${RKAI_QEMU_SVE_OFF_MODEL-"max,sve=off"}
sve_off_tests=(--test cpu --test selection --test getters_grid --test packer_slices --test safe_api)
