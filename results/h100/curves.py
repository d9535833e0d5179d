#!/usr/bin/env python3
"""Per-resource points and plateau tables of a latency or bandwidth sweep: what
results/h100/latency/curves.txt and results/h100/bandwidth/curves.txt hold, and the plateau
tables results/README.md quotes. `perftest report` draws these curves and `perftest summary`
reads the ByteAddressBuffer's levels; this prints every resource's points and their medians
over named ranges of working sets.

Usage: results/h100/curves.py RUN.csv [--plateau NAME=LO-HI ...]
  RUN.csv    a `perftest --suite latency --csv` or `--suite bandwidth --csv` file (its
             `latency:` rows when it has any, else its `bandwidth:` rows)
  --plateau  a Markdown table: per resource, the median over the working sets from LO to HI
             (sizes in KB, MB or GB: `L1=4KB-16KB`, `memory=1GB-1GB`), one column per plateau
             in the order given. Latency: clocks and ns per load, with the range of the points
             in it; bandwidth: bytes per clock per compute unit and TB/s.

Latency rows without clocks (a CPU device, a GPU without shaderSubgroupClock) do not count;
with no rows left it says so and exits 1. Standard library only.
"""
import csv
import gzip
import re
import statistics
import sys

NAME = re.compile(r"^(latency|bandwidth): (.+) (\d+(?:\.\d+)?) (KB|MB|GB)$")
REGISTERS = re.compile(r"^latency: registers")
SHIFT = {"KB": 10, "MB": 20, "GB": 30}


def size_of(number, unit):
    return round(float(number) * (1 << SHIFT[unit.upper()]))


def label(size):
    if size < 1 << 20:
        return f"{size >> 10} KB"
    if size < 1 << 30:
        return f"{size / (1 << 20):g} MB"
    return f"{size >> 30} GB"


def parse_size(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB)", text.strip(), re.IGNORECASE)
    if not m:
        sys.exit(f"bad size {text!r} (expected e.g. 16KB, 1.5MB or 1GB)")
    return size_of(m[1], m[2])


def ranges_of(specs):
    ranges = []
    for spec in specs:
        name, _, span = spec.partition("=")
        lo, _, hi = span.partition("-")
        if not name or not hi:
            sys.exit(f"bad --plateau {spec!r} (expected NAME=LO-HI)")
        ranges.append((name, parse_size(lo), parse_size(hi)))
    return ranges


def curves(path):
    """The suite, {resource: [(bytes, value, second value or None)]} in the CSV's order, and
    the registers' (clocks, ns) or None. Latency: (clocks, ns); bandwidth: (GB/s, B/clk/CU)."""
    out = {"latency": {}, "bandwidth": {}}
    registers = None
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                continue
            m = NAME.match(r["test"])
            if r["test"].startswith("latency:"):
                if not r.get("latency_clk"):
                    continue
                clk = float(r["latency_clk"])
                ns = clk / float(r["clock_mhz"]) * 1000 if r.get("clock_mhz") else None
                if REGISTERS.match(r["test"]):
                    registers = (clk, ns)
                elif m:
                    out["latency"].setdefault(m[2], []).append((size_of(m[3], m[4]), clk, ns))
            elif m and r.get("gbytes_per_s"):
                per_clk = float(r["bytes_per_clk_per_cu"]) if r.get("bytes_per_clk_per_cu") else None
                out["bandwidth"].setdefault(m[2], []).append((size_of(m[3], m[4]), float(r["gbytes_per_s"]), per_clk))
    suite = "latency" if out["latency"] else "bandwidth"
    return suite, out[suite], registers


def point(suite, value, second):
    if suite == "latency":
        return f"{value:8.1f} clk" + (f"  {second:7.1f} ns" if second is not None else "")
    return f"{value:9.1f} GB/s" + (f"  {second:6.1f} B/clk/CU" if second is not None else "")


def cell(suite, inside):
    """One plateau's figures: the medians of the points inside it."""
    second = None
    if all(p[2] is not None for p in inside):
        second = statistics.median(p[2] for p in inside)
    value = statistics.median(p[1] for p in inside)
    if suite == "latency":
        text = f"{value:.0f} clk" + (f" / {second:.0f} ns" if second is not None else "")
        return text + f" ({min(p[1] for p in inside):.0f}–{max(p[1] for p in inside):.0f})"
    text = f"{value / 1000:.2f} TB/s"
    return (f"{second:.1f} B/clk/CU, " if second is not None else "") + text


def plateaus(suite, data, ranges):
    lines = ["| resource | " + " | ".join(f"{n} ({label(lo)}–{label(hi)})" for n, lo, hi in ranges) + " |",
             "|---|" + "---|" * len(ranges)]
    for resource, points in data.items():
        cells = []
        for _, lo, hi in ranges:
            inside = [p for p in points if lo <= p[0] <= hi]
            cells.append(cell(suite, inside) if inside else "–")
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
    if len(args) != 1:
        sys.exit(__doc__)
    # The ranges are checked before the CSV is read.
    ranges = ranges_of(specs)
    suite, data, registers = curves(args[0])
    if not data:
        print(f"{args[0]}: no latency rows with clocks and no bandwidth rows", file=sys.stderr)
        sys.exit(1)
    for resource, points in data.items():
        points.sort()
        print(f"\n{resource}")
        for size, value, second in points:
            print(f"  {label(size):>7}  " + point(suite, value, second))
    if registers:
        clk, ns = registers
        print("\nregisters, no load\n" + f"  {clk:8.1f} clk" + (f"  {ns:7.1f} ns" if ns is not None else ""))
    if ranges:
        print("\n" + plateaus(suite, data, ranges))


if __name__ == "__main__":
    main()
