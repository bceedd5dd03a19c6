# CMake toolchain file: cross-compile for 64-bit Arm Linux (glibc) from an x86_64 host with the
# Debian/Ubuntu GNU cross toolchain (gcc-aarch64-linux-gnu), running binaries under QEMU user mode.
#
#   cmake -S . -B build-aarch64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DRKAI_CARGO=<rkai>/scripts/cross-cargo
#
# rkai's library is built by cargo for RKAI_RUST_TARGET. Test programs run through
# CMAKE_CROSSCOMPILING_EMULATOR (ctest and add_test use it); pick the emulated CPU with the
# QEMU_CPU environment variable (e.g. QEMU_CPU=max, QEMU_CPU=neoverse-n1).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(_rkai_cross_prefix aarch64-linux-gnu-)
set(CMAKE_C_COMPILER ${_rkai_cross_prefix}gcc)
set(CMAKE_CXX_COMPILER ${_rkai_cross_prefix}g++)
set(CMAKE_ASM_COMPILER ${_rkai_cross_prefix}gcc)

set(_rkai_sysroot /usr/aarch64-linux-gnu)
# -E LD_LIBRARY_PATH: without it the cross ld.so finds the arm64 multiarch glibc (installed with
# libstd-rust-web-dev:arm64) through the host's /etc/ld.so.cache, and that mix of two glibc builds
# makes pthread_create spin forever under QEMU.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;${_rkai_sysroot};-E;LD_LIBRARY_PATH=${_rkai_sysroot}/lib)

# Libraries and headers of the target come from the cross sysroot; programs from the host.
# Packages may also come from outside it (CMAKE_PREFIX_PATH pointing at an aarch64 install).
list(APPEND CMAKE_FIND_ROOT_PATH ${_rkai_sysroot})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

set(RKAI_RUST_TARGET aarch64-unknown-linux-gnu CACHE STRING "Rust target triple (empty: host)")
