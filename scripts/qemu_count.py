#!/usr/bin/env python3
"""Counts the guest instructions QEMU executed, from its `-d in_asm,exec,nochain` log on stdin.

`in_asm` prints each translated block once ("IN:" then one line per instruction); `exec` with
`nochain` prints one "Trace" line per execution of a block, naming its guest pc. The sum over
executions of the block's instruction count is the number of instructions executed. Prints it.
"""
import re
import sys

TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
INSN = re.compile(r"^0x([0-9a-f]+):\s")

sizes = {}  # block pc -> instructions
total = 0
block_pc, block_len = None, 0
for line in sys.stdin:
    if line.startswith("Trace"):
        m = TRACE.match(line)
        if m:
            total += sizes[int(m.group(1), 16)]
        continue
    if line.startswith("IN:"):
        block_pc, block_len = None, 0
        continue
    m = INSN.match(line)
    if m:
        if block_pc is None:
            block_pc = int(m.group(1), 16)
        block_len += 1
        sizes[block_pc] = block_len
print(total)
