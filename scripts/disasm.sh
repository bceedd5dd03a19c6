#!/usr/bin/env bash
# Prints the aarch64 disassembly of the C library as CMake builds it (release, no_std), one
# function after another in name order, normalized so that moving code between Rust modules
# compares equal: addresses and raw bytes dropped, Rust paths cut to their last segment, hashes
# dropped. Compare two revisions with:
#   scripts/disasm.sh > /tmp/before.txt; <change>; scripts/disasm.sh > /tmp/after.txt
#   diff /tmp/before.txt /tmp/after.txt
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/cross}
target=aarch64-unknown-linux-gnu
scripts/cross-cargo build --quiet --release -p rkai-capi --lib --no-default-features --target $target
objdump=aarch64-linux-gnu-objdump
command -v $objdump >/dev/null || objdump=objdump
$objdump -d --no-show-raw-insn -C "$CARGO_TARGET_DIR/$target/release/librkai_capi.so" | python3 -c '
import re, sys
functions, name, body, page_register = {}, None, [], None
def short(symbol):
    symbol = re.sub(r"::h[0-9a-f]{16}", "", symbol)
    # A method of a type declared in another module demangles as `<path::Type>::method`.
    symbol = re.sub(r"^<(?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*>::", "", symbol)
    # Generic arguments hold paths too: cut every path to its last segment.
    return re.sub(r"(?:[A-Za-z_][A-Za-z0-9_]*::)+", "", symbol)
for line in sys.stdin:
    head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if head:
        # Functions that share a short name (methods of two types both named Variant) are
        # listed together, in a fixed order.
        name = short(head.group(1)); body = []
        functions.setdefault(name, []).append(body)
        continue
    inst = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line.rstrip())
    if name is None or not inst:
        continue
    text = re.sub(r"\b[0-9a-f]+ <([^>]*)>", lambda m: "<" + short(m.group(1)) + ">", inst.group(1))
    text = re.sub(r"<([^>+]*)\+0x[0-9a-f]+>", r"<\1+off>", text)
    # Where the linker put data is not code: an ADRP page and the low 12 bits its register
    # then adds or loads with.
    adrp = re.match(r"adrp\s+(x\d+),", text)
    if adrp:
        page_register = adrp.group(1)
        text = "adrp\t" + page_register + ", <page>"
    elif page_register and re.match(r"(add|ldr|ldrb|ldrh|str)\s+\S+, (\[)?" + page_register + r"\b", text):
        text = re.sub(r"#(0x)?[0-9a-f]+", "#lo12", text)
        page_register = None
    body.append(text)
for name in sorted(functions):
    for body in sorted(functions[name]):
        print(name + ":")
        for text in body:
            print("  " + text)
'
