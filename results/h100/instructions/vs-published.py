#!/usr/bin/env python3
"""Sets an instruction-suite CSV (perftest --suite instructions --csv) beside the published
per-SM rates of NVIDIA Hopper (GH100, compute capability 9.0) and prints a Markdown table.

Usage: python3 results/h100/instructions/vs-published.py RUN.csv [SIZES_DIR]

SIZES_DIR (optional): the output of `scripts/instruction-sizes.sh run`, which adds the machine
instructions per update of each arithmetic chain (from the driver's code size) and the
instructions per clock per SM that makes.

Only the Python standard library is needed. Rows without ops/clk/CU (no shader clock or no
compute-unit count, e.g. a CPU device) print '-'. The published figures and their sources are
at the end of the table; see results/README.md.
"""

import csv
import re
import sys

# Results per clock per SM: (figure, source key, note). Sources:
#  W: NVIDIA H100 Tensor Core GPU Architecture (whitepaper, 2022), the H100 SM: 128 FP32,
#     64 INT32 and 64 FP64 units per SM, packed FP16 at twice the FP32 rate outside the
#     Tensor Cores.
#  G: CUDA C++ Programming Guide (v12.6, section 5.4.1, Table 4; in CUDA 13 the Best Practices
#     Guide, 12.1.1), "Throughput of Native Arithmetic Instructions (Number of Results per
#     Clock Cycle per Multiprocessor)", compute capability 9.0 column, as two independent
#     copies of it agree (see results/README.md: NVIDIA's page itself was not readable here).
#  B: CUDA C++ Programming Guide, "Shared Memory" (compute capability 5.x and later): 32
#     banks, each 32 bits wide per clock; lanes that hit one bank at different addresses
#     are served one after the other.
PUBLISHED = {
    "fp32 add": (128, "W, G", ""),
    "fp32 mul": (128, "W, G", ""),
    "fp32 fma": (128, "W, G", ""),
    "fp32 min/max": (64, "G", "compare, minimum, maximum"),
    "fp16 add": (None, "", "scalar: a driver may pair two chains in one packed instruction"),
    "fp16 fma": (None, "", "scalar: a driver may pair two chains in one packed instruction"),
    "fp16x2 add (packed)": (256, "W, G", "16-bit results: 2 per packed op"),
    "fp16x2 fma (packed)": (256, "W, G", "16-bit results: 2 per packed op"),
    "fp16x2 mul+add (packed)": (256, "W, G", "16-bit results: 2 per packed op"),
    "int32 add": (64, "W, G", "the ALU pipe's rate; adds may also go to the FMA pipe as IMAD (N)"),
    "int32 mul": (64, "G", ""),
    "int32 mad": (64, "G", ""),
    "int32 xor/and/or": (64, "G", "bitwise AND, OR, XOR"),
    "int32 shift+xor (xorshift)": (64, "G", "shift 64, bitwise 64; a left shift may be an IMAD on the FMA pipe (N)"),
    "int32 min/max": (64, "G", "compare, minimum, maximum"),
    "convert f32<->i32 (+xor, +add)": (16, "G", "all other type conversions; the xor and add run on other units"),
    "convert f32<->f16 (+add, +mul)": (16, "G", "all other type conversions; f32<->f16 has fast converters on the ALU and FMA pipes (N)"),
    "fp32 sqrt": (None, "", "not in the table (an SFU operation where the hardware has it)"),
    "fp32 inversesqrt": (16, "G", "SFU"),
    "fp32 1/x (+add)": (16, "G", "SFU; the add runs on the FP32 units; Vulkan's 2.5 ULP may add a refinement"),
    "fp32 exp2": (16, "G", "SFU"),
    "fp32 log2 (+add)": (16, "G", "SFU; the add runs on the FP32 units"),
    "fp32 sin (+add)": (16, "G", "SFU (plus a range-reduction multiply and the add, on the FP32 units)"),
    "fp32 cos": (16, "G", "SFU (plus a range-reduction multiply)"),
    "fp64 add": (64, "W, G", ""),
    "fp64 fma": (64, "W, G", ""),
    "int64 add": (None, "", "no native 64-bit integer add: two 32-bit adds with carry"),
    "int64 mul": (None, "", "no native 64-bit integer multiply: several 32-bit multiply-adds"),
    "subgroup shuffle": (32, "G", "warp shuffle"),
    "subgroup broadcast (+xor)": (32, "G", "warp shuffle, if the driver broadcasts with one"),
    "subgroup ballot (+bit test)": (None, "", ""),
    "subgroup add (+xor)": (None, "", ""),
    "shared u32 load, stride 1": (32, "B", "32 banks × 4 bytes"),
    "shared u32 load, stride 2": (16, "B", "2-way bank conflict"),
    "shared u32 load, stride 4": (8, "B", "4-way"),
    "shared u32 load, stride 8": (4, "B", "8-way"),
    "shared u32 load, stride 16": (2, "B", "16-way"),
    "shared u32 load, stride 32": (1, "B", "32-way: every lane in one bank"),
    "shared uvec4 load, stride 1": (8, "B", "128 bytes per clock"),
}


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def code_sizes(path):
    """Binary Size of each test in a `--shader-stats` listing."""
    name, out = None, {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\S.*): [0-9.]+ms", line)
            if m:
                name = m.group(1)
            m = re.search(r"Binary Size = (\d+)", line)
            if m and name:
                out[name] = int(m.group(1))
    return out


def instructions_per_update(sizes_dir):
    """Machine instructions per chain update: the code of rounds 8..15 (128 updates) in
    16-byte instructions (scripts/instruction-sizes.sh)."""
    if sizes_dir is None:
        return {}
    try:
        full = code_sizes(f"{sizes_dir}/rounds16.txt")
        half = code_sizes(f"{sizes_dir}/rounds8.txt")
    except OSError as e:
        sys.exit(f"{sizes_dir}: not the output of `scripts/instruction-sizes.sh run` ({e})")
    if not full or not half:
        sys.exit(f"{sizes_dir}: no Binary Size in rounds16.txt or rounds8.txt (a device without "
                 "VK_KHR_pipeline_executable_properties?)")
    return {t: (full[t] - half[t]) / 16 / 128 for t in full if t in half}


def counted_per_update(test):
    """Results the suite counts per chain update: 2 for a packed op, a round trip or a
    shift-and-xor (docs/instructions.md: the instruction suite's table)."""
    return 2 if "(packed)" in test or test.startswith("convert") or "xorshift" in test else 1


def main(path, sizes_dir=None):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    missing = {"test", "status", "loads_per_clk_per_cu", "latency_clk", "unit"} - set(rows[0] if rows else {})
    if missing:
        sys.exit(f"{path}: not an instruction-suite CSV (missing {', '.join(sorted(missing))})")
    per_update = instructions_per_update(sizes_dir)
    devices = {r["device_name"] for r in rows}
    print(f"Measured on {', '.join(sorted(devices))} ({path}); per SM and clock.\n")
    head = ["operation", "measured ops/clk/SM", "published", "measured / published", "latency clk"]
    align = ["---", "---:", "---:", "---:", "---:"]
    if per_update:
        head += ["instructions per update", "instructions/clk/SM"]
        align += ["---:", "---:"]
    head += ["source", "note"]
    align += ["---", "---"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(align) + "|")
    for r in rows:
        if r.get("family") not in ("alu", "subgroup_ops", "shared_bank", "occupancy"):
            continue
        measured = number(r["loads_per_clk_per_cu"]) if r["status"] == "ok" else None
        figure, source, note = PUBLISHED.get(r["test"], (None, "", ""))
        ratio = f"{measured / figure:.3f}" if measured is not None and figure else "-"
        cells = [
            f"`{r['test']}`",
            f"{measured:.2f}" if measured is not None else ("-" if r["status"] == "ok" else r["status"]),
            str(figure) if figure else "-",
            ratio,
            r["latency_clk"] or "-",
        ]
        if per_update:
            n = per_update.get(r["test"])
            cells.append(f"{n:.3f}" if n is not None else "-")
            issued = measured / counted_per_update(r["test"]) * n if n is not None and measured is not None else None
            cells.append(f"{issued:.1f}" if issued is not None else "-")
        cells += [source or "-", note.replace("|", "\\|")]
        print("| " + " | ".join(cells) + " |")
    print(
        "\nW: NVIDIA H100 Tensor Core GPU Architecture (whitepaper, 2022). "
        "G: CUDA C++ Programming Guide v12.6, Arithmetic Instructions, Table 4 (Throughput of "
        "Native Arithmetic Instructions), compute capability 9.0. B: CUDA C++ Programming "
        "Guide, Shared Memory (32 banks of 32 bits per clock). N: NVIDIA's pipe assignments "
        "(Nsight Compute Profiling Guide, Pipelines; NVIDIA forum answers) - see "
        "results/README.md."
    )


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
