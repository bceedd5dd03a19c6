#!/bin/sh
# The aarch64 user-mode emulator of the test matrix: QEMU 11 from tools/qemu11/ (fetched by
# setup-toolchain.sh; the only one that runs SME2), else the system's qemu-aarch64.
# Exception: QEMU 11.1.3 defines neoverse-v1 without FEAT_BF16 (ID_AA64ISAR1_EL1.BF16 = 0, so
# BFDOT/BFMMLA/BFCVTN trap; QEMU 10 and the real core have it), so that model keeps the system's
# QEMU 10, where rkai's BF16 kernels run on it as on the real core.
# RKAI_QEMU=<path> overrides the choice.
qemu=$(dirname "$0")/../tools/qemu11/usr/bin/qemu-aarch64
case ${QEMU_CPU:-} in
  neoverse-v1 | neoverse-v1,*) qemu=qemu-aarch64 ;;
esac
[ -x "$qemu" ] || qemu=qemu-aarch64
exec "${RKAI_QEMU:-$qemu}" "$@"
