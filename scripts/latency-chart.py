#!/usr/bin/env python3
"""The latency suite's curves: clocks per load (the CSV's latency_clk) against the working set,
one line per resource, log-2 x axis, and the registers' chase (no load: the loop's own cost) as a
horizontal line; with no clocks in the CSV (a CPU device, a GPU without
shaderSubgroupClock) it says so and exits 1. Also prints each curve as a table, with ns per load
(latency_clk / clock_mhz x 1000).

Usage: scripts/latency-chart.py RUN.csv OUT.png [--plateau NAME=LO-HI ...]
  RUN.csv  a `perftest --suite latency --csv` file
  --plateau  also print a Markdown table: per resource, the median clocks and ns per load over
             the working sets from LO to HI (e.g. `L1=4KB-16KB`, `memory=64MB-256MB`), with the
             range of the points in it; one column per plateau, in the order given
"""
import csv
import re
import statistics
import sys

NAME = re.compile(r"^latency: (.+) (\d+(?:\.\d+)?) (KB|MB)$")
REGISTERS = re.compile(r"^latency: registers")


def curves(path):
    """{resource: [(bytes, clocks, ns)]} in the CSV's order, the registers' (clocks, ns) or
    None, and the device's name."""
    out, device, registers = {}, "this run", None
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok" or not r.get("latency_clk"):
                continue
            clk = float(r["latency_clk"])
            ns = clk / float(r["clock_mhz"]) * 1000 if r.get("clock_mhz") else None
            device = r["device_name"]
            if REGISTERS.match(r["test"]):
                registers = (clk, ns)
                continue
            m = NAME.match(r["test"])
            if not m:
                continue
            size = round(float(m[2]) * (1 << (10 if m[3] == "KB" else 20)))
            out.setdefault(m[1], []).append((size, clk, ns))
    return device, out, registers


def label(size):
    if size < 1 << 20:
        return f"{size >> 10} KB"
    return f"{size / (1 << 20):g} MB"


def parse_size(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(KB|MB)", text.strip(), re.IGNORECASE)
    if not m:
        sys.exit(f"bad size {text!r} (expected e.g. 16KB or 1.5MB)")
    return round(float(m[1]) * (1 << (10 if m[2].upper() == "KB" else 20)))


def plateaus(data, specs):
    """A Markdown table: per resource, median clk and ns over each plateau's sizes."""
    ranges = []
    for spec in specs:
        name, _, span = spec.partition("=")
        lo, _, hi = span.partition("-")
        if not name or not hi:
            sys.exit(f"bad --plateau {spec!r} (expected NAME=LO-HI)")
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
            clk = statistics.median(p[1] for p in inside)
            cell = f"{clk:.0f} clk"
            if all(p[2] is not None for p in inside):
                cell += f" / {statistics.median(p[2] for p in inside):.0f} ns"
            lo_clk, hi_clk = min(p[1] for p in inside), max(p[1] for p in inside)
            cells.append(cell + f" ({lo_clk:.0f}–{hi_clk:.0f})")
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
    sys.argv[1:] = args
    device, data, registers = curves(sys.argv[1])
    if not data:
        print(f"{sys.argv[1]}: no latency_clk values (no shader clock on this device?)", file=sys.stderr)
        sys.exit(1)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 6.5))
    for i, (resource, points) in enumerate(data.items()):
        points.sort()
        # Eleven resources, ten default colours: the eleventh line is dashed.
        style = "-" if i < 10 else "--"
        ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o", markersize=2, label=resource)
        print(f"\n{resource}")
        for size, clk, ns in points:
            print(f"  {label(size):>7}  {clk:8.1f} clk" + (f"  {ns:7.1f} ns" if ns is not None else ""))
    if registers:
        clk, ns = registers
        ax.axhline(clk, color="black", linestyle=":", label="registers, no load (the loop's own cost)")
        print("\nregisters, no load\n" + f"  {clk:8.1f} clk" + (f"  {ns:7.1f} ns" if ns is not None else ""))
    if specs:
        print("\n" + plateaus(data, specs))
    ax.set_xscale("log", base=2)
    # Ticks at the powers of two (the sweep has four points per octave).
    ticks = sorted({p[0] for points in data.values() for p in points if p[0] & (p[0] - 1) == 0})
    ax.set_xticks(ticks)
    ax.set_xticklabels([label(t) for t in ticks], rotation=45, ha="right")
    ax.set_xlabel("working set (random cycle of 128-byte lines)")
    ax.set_ylabel("clocks per load (dependent chase, one lane)")
    ax.set_title(f"Load latency per resource: {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
