#!/usr/bin/env python3
"""Tables for the write suite's figures, from the files results/h100/write/command.sh leaves
(scripts/reproduce.sh results/h100/write OUTDIR).

    python3 results/h100/write/analysis.py OUTDIR > OUTDIR/analysis.md

Reads OUTDIR/write-run1.csv, write-run2.csv, write-verify.csv and loads.csv (standard library
only) and prints Markdown: the device and clock; verification; run-to-run precision; stores
per clock per SM and bytes per clock per SM for every resource and pattern beside the load
test of the same resource; atomics per clock per SM per contention level. Where the CSV has
no per-clock figures (no shader clock or unit count, e.g. lavapipe), rates are billions per
second instead. For write tests the CSV's load columns count stores or atomics.

Exit status: 0, or 2 when a file is missing or lacks a column.
"""

import csv
import os
import statistics
import sys

PATTERNS = ("uniform", "linear", "random")
FORMATS = ("R8", "RG8", "RGBA8", "R16f", "RG16f", "RGBA16f", "R32f", "RG32f", "RGBA32f")


def fail(message):
    print(f"analysis.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path, needed=("test", "status", "ms_median")):
    """Rows of a perftest CSV by test name (the first device only)."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    if rows and any(c not in rows[0] for c in needed):
        fail(f"{path} lacks one of the columns {', '.join(needed)}")
    first = rows[0]["device_index"] if rows else None
    return {r["test"]: r for r in rows if r["device_index"] == first}


def num(row, col):
    try:
        return float(row[col]) if row and row.get(col) else None
    except ValueError:
        return None


class Rates:
    """Per-clock-per-SM figures where the CSV has them, else per-second figures."""

    def __init__(self, rows):
        self.per_clk = any(num(r, "loads_per_clk_per_cu") is not None for r in rows.values())
        self.unit = "/clk/SM" if self.per_clk else " G/s"

    def ops(self, row):
        if row is None or row.get("status") != "ok":
            return None
        return num(row, "loads_per_clk_per_cu" if self.per_clk else "gloads_per_s")

    def bytes(self, row):
        if row is None or row.get("status") != "ok":
            return None
        return num(row, "bytes_per_clk_per_cu" if self.per_clk else "gbytes_per_s")


def fmt(v, digits=2):
    return "" if v is None else f"{v:.{digits}f}"


def cell(row, value, digits=2):
    """A figure, or the row's status where it has none (unsupported, mismatch…)."""
    if value is not None:
        return fmt(value, digits)
    return row["status"] if row else "–"


def triple(rows, name, f, digits=2):
    return " / ".join(cell(rows.get(f"{name} {p}"), f(rows.get(f"{name} {p}")), digits) for p in PATTERNS)


def main():
    if len(sys.argv) != 2:
        fail("usage: results/h100/write/analysis.py OUTDIR")
    d = sys.argv[1]
    run1 = load(os.path.join(d, "write-run1.csv"))
    run2 = load(os.path.join(d, "write-run2.csv"))
    verify = load(os.path.join(d, "write-verify.csv"))
    loads = load(os.path.join(d, "loads.csv"))
    every = {**loads, **run1}
    rate = Rates(every)
    any_row = next(iter(run1.values()))
    out = []
    p = out.append

    p("# Write suite: analysis tables\n")
    p(
        f"Device: {any_row['device_name']} ({any_row['driver']}), shader clock "
        f"{any_row['clock_mhz'] or 'unknown'} MHz, compute units {any_row['compute_units'] or 'unknown'}; "
        f"perftest {any_row['tool_version']} at commit {any_row['git_commit']}. "
        f"Rates are{' per clock per SM' if rate.per_clk else ' billions per second (no per-clock figures in the CSV)'}; "
        "for write tests the CSV's `loads_*` columns count stores or atomics.\n"
    )

    writes = [t for t in run1 if t != "Buffer<RGBA8>.Load random"]
    statuses = {}
    for t in writes:
        statuses.setdefault(verify.get(t, {}).get("status", "missing"), []).append(t)
    p("## Verification (`write-verify.csv`, full dispatch size)\n")
    p(", ".join(f"{len(v)} {k}" for k, v in sorted(statuses.items())) + "\n")
    for k, v in sorted(statuses.items()):
        if k != "ok":
            for t in v:
                p(f"- `{t}`: {k} — {verify.get(t, {}).get('reason', '')}")
    p("")

    diffs = []
    for t in writes:
        a, b = num(run1.get(t), "ms_median"), num(run2.get(t), "ms_median")
        if a and b:
            diffs.append((abs(b / a - 1) * 100, t))
    if diffs:
        diffs.sort()
        cvs = [num(run1[t], "cv_pct") for t in writes if num(run1.get(t), "cv_pct") is not None]
        p("## Precision (`write-run1.csv` vs `write-run2.csv`)\n")
        p(
            f"{len(diffs)} tests timed in both runs: median per-test difference "
            f"{statistics.median(d for d, _ in diffs):.3f} %, largest {diffs[-1][0]:.3f} % "
            f"(`{diffs[-1][1]}`); median CV {statistics.median(cvs):.3f} %.\n"
        )

    ops = rate.ops
    byt = rate.bytes
    p(f"## Stores: stores{rate.unit} and bytes{rate.unit}, uniform / linear / random\n")
    p("Beside each store test, the load test of the same resource and width (`loads.csv`).\n")
    p(f"| store test | ms (u / l / r) | stores{rate.unit} | bytes{rate.unit} | load test | loads{rate.unit} | bytes{rate.unit} |")
    p("|---|---:|---:|---:|---|---:|---:|")
    pairs = []
    for ty, w in (("uint", ""), ("uint", "2"), ("uint", "4"), ("float", ""), ("float", "2"), ("float", "4")):
        pairs.append((f"RWStructuredBuffer<{ty}{w}>.Store", f"StructuredBuffer<float{w}>.Load"))
    for f in FORMATS:
        pairs.append((f"RWBuffer<{f}>.Store", f"RWBuffer<{f}>.Load"))
    for f in FORMATS:
        tf = f.replace("f", "F")
        pairs.append((f"RWTexture2D<{tf}>.Store", f"RWTexture2D<{tf}>.Load"))
    pairs.append(("groupshared{float4} store", "groupshared{float4} load"))
    for store, load_name in pairs:
        p(
            f"| `{store}` | {triple(run1, store, lambda r: num(r, 'ms_median'), 4)} "
            f"| {triple(run1, store, ops)} | {triple(run1, store, byt, 1)} "
            f"| `{load_name}` | {triple(loads, load_name, ops)} | {triple(loads, load_name, byt, 1)} |"
        )
    p("")

    p(f"## Atomics: atomics{rate.unit} by contention, uniform / linear / random\n")
    p(
        "Uniform: every thread of the dispatch hits one element per iteration; linear: no two "
        "threads of a group hit one element at once; random: 16 threads of a group (2 per "
        "32-wide subgroup) share one. Slowdown = linear rate / uniform (or random) rate; "
        "`vs store` = the atomic's linear rate over the 32-bit store's of the same resource.\n"
    )
    p(f"| atomic test | ms (u / l / r) | atomics{rate.unit} | uniform slowdown | random slowdown | vs store (linear) |")
    p("|---|---:|---:|---:|---:|---:|")
    atomic_tests = [
        ("RWByteAddressBuffer.InterlockedAdd", "RWStructuredBuffer<uint>.Store"),
        ("RWByteAddressBuffer.InterlockedAdd(original)", "RWStructuredBuffer<uint>.Store"),
        ("RWByteAddressBuffer.InterlockedCompareExchange", "RWStructuredBuffer<uint>.Store"),
        ("RWByteAddressBuffer.InterlockedAdd64", "RWStructuredBuffer<uint2>.Store"),
        ("RWStructuredBuffer<float>.InterlockedAdd", "RWStructuredBuffer<float>.Store"),
        ("RWTexture2D<uint>.InterlockedAdd", "RWTexture2D<R32F>.Store"),
        ("groupshared{uint} InterlockedAdd", "groupshared{float4} store"),
    ]
    for name, store in atomic_tests:
        u, l, r = (ops(run1.get(f"{name} {q}")) for q in PATTERNS)
        s = ops(run1.get(f"{store} linear"))
        ratio = lambda a, b: f"{a / b:.1f}×" if a and b else ""
        p(
            f"| `{name}` | {triple(run1, name, lambda r: num(r, 'ms_median'), 4)} | {triple(run1, name, ops)} "
            f"| {ratio(l, u)} | {ratio(l, r)} | {fmt(l / s) if l and s else ''} |"
        )
    p("")

    ceilings = [t for t in ("Control: loop 1D", "Control: loop 2D") if t in loads]
    if ceilings:
        p(
            "Loop ceilings (the load loops without their loads): "
            + ", ".join(f"`{t}` {fmt(ops(loads[t]))}{rate.unit}" for t in ceilings)
            + ". A store loop adds one value step (1–4 ALU operations) to the address arithmetic, "
            "so a store rate near these figures may be issue-bound rather than store-bound.\n"
        )
    print("\n".join(out))


if __name__ == "__main__":
    main()
