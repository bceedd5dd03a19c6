"""Inner loops of aarch64 kernels for llvm-mca, shared by scripts/perf-mca.sh and
scripts/perf-mca-kleidiai.sh.

Two sources of loops: rkai's own, marked in its emitted assembly with `LLVM-MCA-BEGIN <name>` /
`LLVM-MCA-END`, and any object file's, found in its disassembly as the innermost backward-branch
loop that holds multiply-accumulate instructions (for objects without markers, such as a local
build of KleidiAI). MACs per iteration are counted from the instructions themselves, so both
sources are measured by one rule.
"""
import re
import subprocess

CPUS = ["neoverse-n1", "neoverse-n2", "neoverse-v1", "neoverse-v2"]
# SVE vector bytes in the LLVM model of each core (None: no SVE).
SVE_BYTES = {"neoverse-n1": None, "neoverse-n2": 16, "neoverse-v1": 32, "neoverse-v2": 16}
ARCH = ".arch armv8.6-a+dotprod+i8mm+sve2+fp16+bf16\n"


def marked_regions(asm_text):
    """{name: [instruction, ...]} of every LLVM-MCA-BEGIN/END region of an emitted .s file."""
    bodies, cur, name = {}, None, None
    for line in asm_text.splitlines():
        m = re.search(r"LLVM-MCA-BEGIN\s+(\S+)", line)
        if m:
            name, cur = m.group(1), []
            continue
        if "LLVM-MCA-END" in line and cur is not None:
            bodies[name] = cur
            cur = None
            continue
        if cur is not None:
            s = line.split("//")[0].strip()
            if s and not s.startswith(".") and not s.endswith(":"):
                cur.append(s)
    return bodies


def mca_cycles(instructions, cpu, arch=ARCH):
    """Cycles per iteration of `instructions` (a loop body) on `cpu`, 1000 iterations."""
    src = arch + "\n".join(instructions) + "\n"
    out = subprocess.run(["llvm-mca-22", "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1000"],
                         input=src, capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 1000


# MACs of one 128-bit (NEON) or one vector-length (SVE, per 16 bytes) instruction, by mnemonic
# and destination arrangement.
_NEON_MACS = {
    ("smmla", "4s"): 32, ("ummla", "4s"): 32, ("usmmla", "4s"): 32,
    ("sdot", "4s"): 16, ("udot", "4s"): 16, ("usdot", "4s"): 16, ("sudot", "4s"): 16,
    ("sdot", "2s"): 8, ("udot", "2s"): 8,
    ("fmla", "4s"): 4, ("fmla", "2s"): 2, ("fmla", "8h"): 8, ("fmla", "4h"): 4,
    ("fmla", "2d"): 2,
    ("bfmmla", "4s"): 16, ("bfdot", "4s"): 8, ("bfdot", "2s"): 4,
    ("fmlal", "4s"): 4, ("fmlal2", "4s"): 4, ("bfmlalb", "4s"): 4, ("bfmlalt", "4s"): 4,
}
# SVE: MACs per 16 bytes of vector.
_SVE_MACS = {
    ("smmla", "s"): 32, ("ummla", "s"): 32, ("usmmla", "s"): 32,
    ("sdot", "s"): 16, ("udot", "s"): 16, ("usdot", "s"): 16, ("sudot", "s"): 16,
    ("fmla", "s"): 4, ("fmla", "h"): 8, ("fmla", "d"): 2, ("fmad", "s"): 4, ("fmad", "h"): 8,
    ("bfmmla", "s"): 16, ("bfdot", "s"): 8,
}


def macs_of(instruction, sve_bytes):
    """Multiply-accumulates one instruction performs (0 for any other instruction)."""
    parts = instruction.replace("\t", " ").split(None, 1)
    if len(parts) < 2:
        return 0
    op, operands = parts[0].lower(), parts[1]
    m = re.match(r"\s*v\d+\.(\w+)", operands)
    if m:
        return _NEON_MACS.get((op, m.group(1).lower()), 0)
    m = re.match(r"\s*z\d+\.(\w)", operands)
    if m and sve_bytes:
        return _SVE_MACS.get((op, m.group(1).lower()), 0) * sve_bytes // 16
    return 0


def is_mac(instruction):
    return macs_of(instruction, 16) > 0


_BRANCH = re.compile(r"^(b\.\w+|b|cbn?z|tbn?z)\s+(?:.*,\s*)?(?:0x)?([0-9a-f]+)\s*(<[^>]*>)?$")


def functions(disassembly, prefix="kai_"):
    """{symbol: [(address, instruction)]} from `llvm-objdump -d --no-show-raw-insn` text, for the
    symbols starting with `prefix` (other symbols, such as the `label_N` of hand-written assembly,
    stay inside the function they appear in)."""
    funcs, cur = {}, None
    for line in disassembly.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            if m.group(1).startswith(prefix):
                cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*?)\s*(//.*)?$", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2).replace("\t", " ").strip()))
    return funcs


def innermost_mac_loop(code):
    """Body of the innermost backward-branch loop of `code` (address, instruction pairs) with the
    most multiply-accumulate instructions, branch included, branch targets rewritten to the
    loop's start label; None when no loop holds one."""
    index = {addr: i for i, (addr, _) in enumerate(code)}
    loops = []
    for i, (addr, ins) in enumerate(code):
        m = _BRANCH.match(ins)
        if not m:
            continue
        target = int(m.group(2), 16)
        if target <= addr and target in index:
            body = code[index[target]:i + 1]
            macs = sum(1 for _, x in body if is_mac(x))
            if macs:
                loops.append((index[target], i, macs))
    # Innermost: no other MAC loop strictly inside.
    inner = [l for l in loops
             if not any(o is not l and l[0] <= o[0] and o[1] <= l[1] and (o[0], o[1]) != (l[0], l[1])
                        for o in loops)]
    if not inner:
        return None
    start, end, _ = max(inner, key=lambda l: (l[2], l[1] - l[0]))
    body = []
    for _, ins in code[start:end + 1]:
        m = _BRANCH.match(ins)
        if m:
            ins = ins[:m.start(2)].rstrip().removesuffix("0x").rstrip() + " loop"
        body.append(ins)
    return ["loop:"] + body


def catalog_kernels(catalog_text):
    """Kernels of ukernels/src/catalog.rs with an asm loop on aarch64:
    {stem: (isa, m_step, n_step, region)}, where `region` names the LLVM-MCA region the kernel
    runs (its own stem, or the module of another kernel with the same packed formats), plus the
    set of stems whose n_step scales with the SVE vector length and the set of kernels fixed at
    256-bit SVE."""
    kernels, vl_scaled, sve256 = {}, set(), set()
    entries = re.findall(r"\n(\w+_kernel|kernel_entry)!\(\n(.*?)\n\);", catalog_text, re.S)
    for macro, body in entries:
        fields = re.search(
            r"\n\s+(i?matmul_clamp_\w+),\n\s+(\w+),\n\s+\[(\d+), (\d+), \d+, \d+, \d+, \d+\]",
            "\n" + body)
        # SME (no llvm-mca model; scripts/perf-sme.sh counts them under QEMU) and the templates
        # inside macro definitions have no loop here.
        if macro.startswith("streaming_") or (fields is None and "$" in body):
            continue
        stem, isa, m_step, n_step = fields.groups()
        if isa.startswith("Sme"):
            continue
        last = body.strip().splitlines()[-1].strip().split("::")[-1]
        if last == "portable":
            continue  # no asm loop on aarch64 yet: the portable implementation runs
        if "FixedAtSve256" in body:
            sve256.add(stem)
        region = last if last.startswith("matmul_clamp_f32") else stem
        if macro == "vla_qai8dxp_kernel" or last == "PerSveLane32":
            vl_scaled.add(stem)
        kernels[stem] = (isa, int(m_step), int(n_step), region)
    return kernels, vl_scaled, sve256


def cores_running(stem, isa, vl_scaled, sve256):
    """Which of CPUS run a kernel: bf16 loops not on N1 (no FEAT_BF16); KleidiAI's 256-bit SVE
    kernels only on V1 (the one 256-bit core); SVE2 loops on N2 and V2 (N1 has no SVE, V1 no
    SVE2); other vector-length-scaled loops on every core with SVE."""
    if isa in ("NeonBf16", "NeonFp16Bf16"):
        return [c for c in CPUS if c != "neoverse-n1"]
    if stem in sve256:
        return ["neoverse-v1"]
    if "_sve2_" in stem:
        return ["neoverse-n2", "neoverse-v2"]
    if stem in vl_scaled:
        return [c for c in CPUS if SVE_BYTES[c]]
    return CPUS
