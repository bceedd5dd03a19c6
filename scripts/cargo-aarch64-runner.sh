#!/bin/sh
# cargo's runner for aarch64-unknown-linux-gnu binaries (see .cargo/config.toml): native on an
# aarch64 host unless QEMU_CPU selects a model to emulate; QEMU user mode otherwise (QEMU 11 when
# fetched, see qemu-aarch64.sh).
# LD_LIBRARY_PATH keeps the cross ld.so on the cross libc: with the arm64 multiarch libc found
# through /etc/ld.so.cache instead, the glibc version mix makes pthread_create spin forever.
if [ "$(uname -m)" = aarch64 ] && [ -z "${QEMU_CPU:-}" ]; then
  exec "$@"
fi
exec "$(dirname "$0")/qemu-aarch64.sh" -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib "$@"
