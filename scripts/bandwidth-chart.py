#!/usr/bin/env python3
"""The bandwidth suite's curves: GB/s delivered to the shaders against the working set, one
line per resource, log axes; and, with --plateau, a Markdown table per resource of the median
bytes per clock per compute unit and GB/s over each named range of working sets. Sizes are read
and written as scripts/latency-chart.py does (it is imported for them).

Usage: scripts/bandwidth-chart.py RUN.csv OUT.png [--plateau NAME=LO-HI ...]
  RUN.csv    a `perftest --suite bandwidth --csv` file
  --plateau  e.g. `L1=4KB-128KB`, `L2=8MB-32MB`, `memory=1GB-1GB` (sizes in KB, MB or GB)
"""
import csv
import importlib.util
import pathlib
import re
import statistics
import sys

spec = importlib.util.spec_from_file_location("latency_chart", pathlib.Path(__file__).with_name("latency-chart.py"))
latency_chart = importlib.util.module_from_spec(spec)
spec.loader.exec_module(latency_chart)

NAME = re.compile(r"^bandwidth: (.+) (\d+(?:\.\d+)?) (KB|MB|GB)$")
SHIFT = {"KB": 10, "MB": 20, "GB": 30}


def size_of(number, unit):
    return round(float(number) * (1 << SHIFT[unit.upper()]))


def label(size):
    return f"{size >> 30} GB" if size >= 1 << 30 else latency_chart.label(size)


def parse_size(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB)", text.strip(), re.IGNORECASE)
    if not m:
        sys.exit(f"bad size {text!r} (expected e.g. 16KB, 1.5MB or 1GB)")
    return size_of(m[1], m[2])


def curves(path):
    """The device's name and {resource: [(bytes, GB/s, bytes/clk/CU or None)]}."""
    out, device = {}, "this run"
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            m = NAME.match(r["test"])
            if r["status"] != "ok" or not m or not r.get("gbytes_per_s"):
                continue
            device = r["device_name"]
            per_clk = float(r["bytes_per_clk_per_cu"]) if r.get("bytes_per_clk_per_cu") else None
            out.setdefault(m[1], []).append((size_of(m[2], m[3]), float(r["gbytes_per_s"]), per_clk))
    return device, out


def plateaus(data, specs):
    ranges = []
    for s in specs:
        name, _, span = s.partition("=")
        lo, _, hi = span.partition("-")
        if not name or not hi:
            sys.exit(f"bad --plateau {s!r} (expected NAME=LO-HI)")
        ranges.append((name, parse_size(lo), parse_size(hi)))
    lines = ["| resource | " + " | ".join(f"{n} ({label(lo)}–{label(hi)})" for n, lo, hi in ranges) + " |",
             "|---|" + "---|" * len(ranges)]
    for resource, points in data.items():
        cells = []
        for _, lo, hi in ranges:
            inside = [p for p in points if lo <= p[0] <= hi]
            if not inside:
                cells.append("–")
                continue
            gbs = statistics.median(p[1] for p in inside)
            cell = f"{gbs / 1000:.2f} TB/s"
            if all(p[2] is not None for p in inside):
                cell = f"{statistics.median(p[2] for p in inside):.1f} B/clk/CU, " + cell
            cells.append(cell)
        lines.append(f"| {resource} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    specs = []
    while "--plateau" in args:
        at = args.index("--plateau")
        if at + 1 >= len(args):
            sys.exit(__doc__)
        specs.append(args[at + 1])
        del args[at : at + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    # The ranges are checked before anything is drawn.
    table = plateaus({}, specs) if specs else None
    device, data = curves(args[0])
    if not data:
        print(f"{args[0]}: no bandwidth rows", file=sys.stderr)
        sys.exit(1)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 6.5))
    for resource, points in data.items():
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=2, label=resource)
        print(f"\n{resource}")
        for size, gbs, per_clk in points:
            print(f"  {label(size):>7}  {gbs:9.1f} GB/s" + (f"  {per_clk:6.1f} B/clk/CU" if per_clk is not None else ""))
    if table is not None:
        print("\n" + plateaus(data, specs))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ticks = sorted({p[0] for points in data.values() for p in points if p[0] & (p[0] - 1) == 0})
    ax.set_xticks(ticks)
    ax.set_xticklabels([label(t) for t in ticks], rotation=45, ha="right")
    ax.set_xlabel("working set")
    ax.set_ylabel("GB/s delivered to the shaders (all compute units)")
    ax.set_title(f"Read bandwidth per resource: {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args[1], dpi=120)


if __name__ == "__main__":
    main()
