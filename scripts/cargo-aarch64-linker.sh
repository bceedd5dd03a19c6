#!/bin/sh
# cargo's linker for aarch64-unknown-linux-gnu (see .cargo/config.toml): the Debian cross
# compiler when installed (x86_64 hosts), the system compiler otherwise (native aarch64 hosts).
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
  exec aarch64-linux-gnu-gcc "$@"
fi
exec cc "$@"
