#!/usr/bin/env python3
"""Counts the guest instructions QEMU executed, from its `-d in_asm,exec,nochain` log on stdin.

`in_asm` prints each translated block once ("IN:" then one line per instruction, with its
encoding); `exec` with `nochain` prints one "Trace" line per execution of a block, naming its
guest pc. The sum over executions of the block's instruction count is the number of
instructions executed. Prints it.

With `NAME=MASK/VALUE` arguments (hexadecimal encodings), also counts the executed instructions
whose encoding `e` has `e & MASK == VALUE`, one number per class after the total (the SME
performance table uses it for outer products and multi-vector dot products, which QEMU's
disassembler does not name).
"""
import re
import sys

TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
INSN = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\s")

classes = []
for arg in sys.argv[1:]:
    name, pattern = arg.split("=")
    mask, value = (int(x, 16) for x in pattern.split("/"))
    classes.append((name, mask, value))

sizes = {}  # block pc -> [instructions, per-class counts]
total = 0
per_class = [0] * len(classes)
block = None
for line in sys.stdin:
    if line.startswith("Trace"):
        m = TRACE.match(line)
        if m:
            counts = sizes[int(m.group(1), 16)]
            total += counts[0]
            for i, c in enumerate(counts[1]):
                per_class[i] += c
        continue
    if line.startswith("IN:"):
        block = None
        continue
    m = INSN.match(line)
    if m:
        if block is None:
            block = [0, [0] * len(classes)]
            sizes[int(m.group(1), 16)] = block
        block[0] += 1
        word = int(m.group(2), 16)
        for i, (_, mask, value) in enumerate(classes):
            if word & mask == value:
                block[1][i] += 1
print(" ".join(str(v) for v in [total] + per_class))
