#!/usr/bin/env python3
"""The branch suite beside the published GPUs (results/h100/branch/vs-published.md): a Markdown
table of each branch kind's ratio to `NX Coherent branch baseline` at a few N, this run's CSV
first, then every GPU of the published tables. `perftest report` draws this run's curves; the
published ones are not built into perftest, hence this script (standard library only).

Usage: results/h100/branch/vs-published.py RUN.csv PUBLISHED.md > vs-published.md
  RUN.csv       a `perftest --suite branch --csv` file
  PUBLISHED.md  ../shared/reference/branch-benchmark.md (the PerfTest fork's tables)
"""
import csv
import re
import sys

KINDS = [
    ("Coherent", "long"),
    ("Coherent", "short"),
    ("Divergent", "baseline"),
    ("Divergent", "long"),
    ("Divergent", "short"),
]
LINE = re.compile(r"^(\d+)X (Coherent|Divergent) branch (baseline|long|short): ([\d.]+)ms ([\d.]+)x")


def from_csv(path):
    """{(n, coherence, shape): ratio} of a perftest CSV (its device's name as the title)."""
    out, device = {}, "this run"
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            m = re.match(r"^(\d+)X (Coherent|Divergent) branch (baseline|long|short)$", r["test"])
            if m and r["ratio"]:
                out[(int(m[1]), m[2], m[3])] = float(r["ratio"])
                device = r["device_name"]
    return device, out


def from_published(path):
    """[(gpu, {(n, coherence, shape): ratio})] of the published tables, in their order."""
    gpus, current = [], None
    for line in open(path, encoding="utf-8"):
        if line.startswith("### "):
            current = (line[4:].strip(), {})
            gpus.append(current)
        m = LINE.match(line.strip())
        if m and current:
            current[1][(int(m[1]), m[2], m[3])] = float(m[5])
    return [g for g in gpus if g[1]]


def table(panels, ns):
    rows = ["| GPU | N | " + " | ".join(f"{c} {s}" for c, s in KINDS) + " |",
            "|---|---|" + "---|" * len(KINDS)]
    for gpu, data in panels:
        for n in ns:
            if (n, "Coherent", "baseline") not in data:
                continue
            cells = [f"{data[(n, c, s)]:.3f}" if (n, c, s) in data else "" for c, s in KINDS]
            rows.append(f"| {gpu} | {n}X | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def main(run, published):
    device, mine = from_csv(run)
    panels = [(device, mine)] + from_published(published)
    sys.stdout.write(table(panels, [0, 8, 16, 20, 24, 32, 48, 64, 72, 96, 128, 192, 256]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
