#!/usr/bin/env bash
# Prints what a generated report is made with, for its header: rkai's commit (noting uncommitted
# changes outside docs/), the date (UTC), rustc (and the aarch64 builds' one), and each further tool named as an argument by
# the first line of its `--version` (e.g. `llvm-mca-22`, `scripts/qemu-aarch64.sh`).
#   scripts/made-with.sh scripts/qemu-aarch64.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rustc=$(rustc --version | cut -d' ' -f1-2)
# The aarch64 builds' compiler, where scripts/cross-cargo picks another toolchain.
if command -v rustup >/dev/null 2>&1 && [ "$(uname -m)" = x86_64 ]; then
  cross=$(rustc +deb-web --version 2>/dev/null | cut -d' ' -f1-2 || true)
  [ -z "$cross" ] || [ "$cross" = "$rustc" ] || rustc+=" (aarch64 builds: $cross)"
fi
line="rkai \`$(git rev-parse --short HEAD)\`$(git diff --quiet HEAD -- . ':!docs' || echo ' with uncommitted changes'), $(date -u +%Y-%m-%d), $rustc"
for tool in "$@"; do
  if command -v "$tool" >/dev/null; then
    version=$("$tool" --version 2>&1 | sed -n -e 's/ version / /I' -e '/./{p;q}' || true)
  else
    version="$tool not installed"
  fi
  line+=", ${version:-$tool}"
done
echo "$line"
