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

With `--in START-END` (hexadecimal guest addresses; several allowed) or `--in-file PATH` (such
ranges, one per line, read once the log ends, so the program being measured may write them),
counts only the blocks that start in one of the ranges: the instructions of given functions,
exactly, without the process around them (a block never runs past a function's return).
`--kernel-of NM_LISTING DRIVER_OUTPUT` is the range of one function of a position-independent
program: DRIVER_OUTPUT (read once the log ends) holds `kernel ADDR main ADDR`, the run-time
addresses of the function and of `main`, and NM_LISTING (`nm -S`) their static addresses and
sizes.

`--window` (with ranges) counts, instead of the blocks in the ranges, every block executed from
the first one in a range up to the return from it, in execution order (`nochain` logs each block
as it runs): one call of a function and everything it calls (a helper, a libc function, a body
it tail-calls). The return address is the end of the block that made the call (a call ends a
block): the last block before the first one in a range that ends with `BL` or `BLR` and whose
return address did not run in between (the function may be reached by a tail call, `B` or `BR`,
from a function that was itself called: then the window ends on the return to that one's caller).
"""
import re
import sys
from array import array

TRACE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
INSN = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\s")


def parse_range(text):
    start, end = (int(x, 16) for x in text.split("-"))
    return start, end


classes = []
kernel_of = None
window = False
ranges = []
range_files = []
args = iter(sys.argv[1:])
for arg in args:
    if arg == "--in":
        ranges.append(parse_range(next(args)))
    elif arg == "--in-file":
        range_files.append(next(args))
    elif arg == "--window":
        window = True
    elif arg == "--kernel-of":
        kernel_of = (next(args), next(args))
    else:
        name, pattern = arg.split("=")
        mask, value = (int(x, 16) for x in pattern.split("/"))
        classes.append((name, mask, value))

sizes = {}  # block pc -> [instructions, per-class counts, last instruction's encoding]
executions = {}  # block pc -> times executed
order = array("Q")  # with --window: executed block pcs in order
block = None
for line in sys.stdin:
    if line.startswith("Trace"):
        m = TRACE.match(line)
        if m:
            pc = int(m.group(1), 16)
            executions[pc] = executions.get(pc, 0) + 1
            if window:
                order.append(pc)
        continue
    if line.startswith("IN:"):
        block = None
        continue
    m = INSN.match(line)
    if m:
        if block is None:
            block = [0, [0] * len(classes), 0]
            sizes[int(m.group(1), 16)] = block
        block[0] += 1
        word = int(m.group(2), 16)
        block[2] = word  # the last instruction's encoding, once the block ends
        for i, (_, mask, value) in enumerate(classes):
            if word & mask == value:
                block[1][i] += 1

for path in range_files:
    with open(path) as f:
        ranges.extend(parse_range(line) for line in f if line.strip())
if kernel_of:
    with open(kernel_of[1]) as f:
        words = f.read().split()
    runtime = dict(zip(words[::2], (int(w, 16) for w in words[1::2])))
    symbols = []  # (static address, size, name)
    with open(kernel_of[0]) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    static_main = next(a for a, _, n in symbols if re.search(r"\d+main17h[0-9a-f]+E$", n) and "closure" not in n)
    base = runtime["main"] - static_main
    size = next(z for a, z, _ in symbols if a == runtime["kernel"] - base)
    ranges.append((runtime["kernel"], runtime["kernel"] + size))

inside = {}  # pc -> whether the block starts in a range
def in_ranges(pc):
    if pc not in inside:
        inside[pc] = not ranges or any(start <= pc < end for start, end in ranges)
    return inside[pc]


if window:
    # Executions from the first block in a range until the caller's next block runs.
    first = next((i for i, pc in enumerate(order) if in_ranges(pc)), None)
    executions = {}
    if first is not None:
        # Back from the first block: the latest call (BL, BLR) not yet returned from.
        returned = {}
        ret = None
        for i in range(first - 1, -1, -1):
            pc = order[i]
            count, _, last = sizes[pc]
            if last & 0xFC000000 == 0x94000000 or last & 0xFFFFFC1F == 0xD63F0000:
                end = pc + 4 * count
                if returned.get(end, 0) == 0:
                    ret = end
                    break
                returned[end] -= 1
            returned[pc] = returned.get(pc, 0) + 1
        for pc in order[first:]:
            if pc == ret:
                break
            executions[pc] = executions.get(pc, 0) + 1
total = 0
per_class = [0] * len(classes)
for pc, times in executions.items():
    if not window and not in_ranges(pc):
        continue
    count, class_counts, _ = sizes[pc]
    total += times * count
    for i, c in enumerate(class_counts):
        per_class[i] += times * c
print(" ".join(str(v) for v in [total] + per_class))
