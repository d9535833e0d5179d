#!/usr/bin/env python3
"""The branch suite's curves beside the published ones: ratio to `NX Coherent branch baseline`
against N for each branch kind, one panel per GPU (this run's CSV first, then every GPU of the
published tables), and a Markdown table of the same figures at a few N.

Usage: scripts/branch-chart.py RUN.csv PUBLISHED.md OUT.png [OUT.md]
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


def main(run, published, png, md=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    device, mine = from_csv(run)
    panels = [(device, mine)] + from_published(published)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), sharey=True)
    for ax, (gpu, data) in zip(axes, panels):
        for c, s in KINDS:
            pts = sorted((n, r) for (n, cc, ss), r in data.items() if (cc, ss) == (c, s))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=f"{c} {s}",
                        linestyle="-" if c == "Coherent" else "--")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_title(gpu, fontsize=9)
        ax.set_xlabel("independent ALU work N (X)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("ratio to NX Coherent branch baseline")
    axes[0].legend(fontsize=7)
    fig.suptitle("Branch with 2 samples + independent ALU workload (higher is faster)", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    if md:
        with open(md, "w") as f:
            f.write(table(panels, [0, 8, 16, 20, 24, 32, 48, 64, 72, 96, 128, 192, 256]))


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(*sys.argv[1:])
