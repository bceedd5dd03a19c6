#!/usr/bin/env bash
# Installs the tools rkai's build and tests need, and nothing when they are already present.
#   native:  cmake, ninja, a C compiler (always)
#   cross:   on x86_64 hosts, the aarch64 toolchain of DESIGN §4 (Debian rustc-web with the arm64
#            standard library, gcc-aarch64-linux-gnu, qemu-user 10 from bookworm-backports)
#   qemu11:  Debian trixie-backports' qemu-user 11 (static binaries; the only QEMU that runs SME2),
#            unpacked into tools/qemu11/ of this checkout; the machine's apt sources stay as they are
#   perf:    llvm-mca-22 (only with --perf)
# Usage: scripts/setup-toolchain.sh [--perf]
set -euo pipefail

want_perf=0
[[ "${1:-}" == "--perf" ]] && want_perf=1

host_arch=$(uname -m)
sudo_cmd=""
if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi

missing=()
have() { command -v "$1" >/dev/null 2>&1; }

have cmake || missing+=(cmake)
have ninja || missing+=(ninja-build)
have cc || missing+=(gcc)
have cargo || missing+=(rustc-web cargo-web)
have pkg-config || missing+=(pkg-config)
have make || missing+=(make)

need_backports=0
if [[ "$host_arch" == "x86_64" ]]; then
  have aarch64-linux-gnu-gcc || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  have aarch64-linux-gnu-g++ || missing+=(g++-aarch64-linux-gnu)
  [[ -d /usr/lib/rustlib/aarch64-unknown-linux-gnu ]] || missing+=(rustc-web cargo-web libstd-rust-web-dev:arm64)
  [[ -x /usr/bin/clippy-driver ]] || missing+=(rust-web-clippy)
  if ! have qemu-aarch64 || ! qemu-aarch64 --version | grep -q "version 1[0-9]"; then
    need_backports=1
  fi
fi
if [[ $want_perf -eq 1 ]]; then
  have llvm-mca-22 || missing+=(llvm-22)
  have valgrind || missing+=(valgrind)
fi

if [[ ${#missing[@]} -eq 0 && $need_backports -eq 0 ]]; then
  echo "setup-toolchain: everything present"
else
  export DEBIAN_FRONTEND=noninteractive
  if [[ "$host_arch" == "x86_64" ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo_cmd dpkg --add-architecture arm64
  fi
  if [[ $need_backports -eq 1 ]] && ! grep -rqs "bookworm-backports" /etc/apt/sources.list.d/ /etc/apt/sources.list; then
    # Same mirror and key as the existing Debian entry, backports suite (qemu-user 10 lives there).
    src=$(grep -l "deb.debian.org/debian$\|deb.debian.org/debian " /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 || true)
    uris=http://deb.debian.org/debian
    key=/usr/share/keyrings/debian-archive-keyring.gpg
    if [[ -n "$src" ]]; then
      uris=$(awk '/^URIs:/{print $2; exit}' "$src")
      key=$(awk '/^Signed-By:/{print $2; exit}' "$src")
    fi
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' "$uris" "$key" |
      $sudo_cmd tee /etc/apt/sources.list.d/rkai-backports.sources >/dev/null
  fi
  $sudo_cmd apt-get update -qq
  if [[ ${#missing[@]} -gt 0 ]]; then
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  if [[ $need_backports -eq 1 ]]; then
    $sudo_cmd apt-get install -y -qq --no-install-recommends -t bookworm-backports qemu-user
  fi
fi

# Debian's rustc-web ships the aarch64 std; expose it to rustup as toolchain `deb-web`.
if [[ "$host_arch" == "x86_64" ]] && have rustup && ! rustup toolchain list | grep -q '^deb-web'; then
  rustup toolchain link deb-web /usr
fi

# QEMU 11 for the aarch64 test matrix (scripts/qemu-aarch64.sh prefers it). Fetched with a private
# apt source list, lists and cache so nothing of the machine's apt configuration changes; only the
# aarch64 emulator and the package's copyright are kept (the package has every target, 470 MB).
fetch_qemu11() {
  local dest=$1 tmp arch
  arch=$(dpkg --print-architecture)
  tmp=$(mktemp -d)
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/unpacked"
  echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main" >"$tmp/tb.list"
  local -a opts=(-qq -o Dir::Etc::sourcelist="$tmp/tb.list" -o Dir::Etc::sourceparts=/dev/null
    -o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update
  (cd "$tmp" && apt-get "${opts[@]}" download qemu-user)
  dpkg-deb -x "$tmp"/qemu-user_*.deb "$tmp/unpacked"
  rm -rf "$dest"
  mkdir -p "$dest/usr/bin" "$dest/usr/share/doc/qemu-user"
  cp "$tmp/unpacked/usr/bin/qemu-aarch64" "$dest/usr/bin/"
  cp "$tmp/unpacked/usr/share/doc/qemu-user/copyright" "$dest/usr/share/doc/qemu-user/"
  dpkg-deb -f "$tmp"/qemu-user_*.deb Version >"$dest/VERSION"
  rm -rf "$tmp"
}

qemu11=$(cd "$(dirname "$0")/.." && pwd)/tools/qemu11
if [[ "$host_arch" == "x86_64" ]] && ! "$qemu11/usr/bin/qemu-aarch64" --version 2>/dev/null | grep -q "version 11\."; then
  fetch_qemu11 "$qemu11"
  version=$("$qemu11/usr/bin/qemu-aarch64" --version | head -1)
  echo "setup-toolchain: $version in $qemu11"
  # The matrix's expectations (tests/suite/support/cpu.rs) were read under 11.1.3; another major
  # version in trixie-backports needs them checked again.
  [[ $version == *"version 11."* ]] || { echo "setup-toolchain: expected QEMU 11" >&2; exit 1; }
fi
