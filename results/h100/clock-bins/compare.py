#!/usr/bin/env python3
"""Are the clocks above the driver's 1980 MHz real? (1) The probe's fixed chain: the same ticks
at every clock, and how long it took in real time (the trace). (2) Rows of two whole runs whose
probe clocks differ: does their speed follow, family by family?"""
import collections, csv, gzip, re, statistics, sys
from pathlib import Path

here = Path(__file__).resolve().parent
print("(1) the probe's chain, by the clock it read (trace: ticks and real-time ns)")
for v in ["new1", "new2"]:
    by = collections.defaultdict(list)
    for line in gzip.open(here / f"trace-{v}.txt.gz", "rt"):
        m = re.search(r"probe_ticks=(\d+),(\d+)\tprobe_realtime=(\d+),(\d+)\tprobe_iterations=(\d+)", line)
        if m:
            t0, t1, r0, r1, it = map(int, m.groups())
            for t, r in ((t0, r0), (t1, r1)):
                by[(it, round(t / r * 1000 / 15) * 15)].append((t, r))
    for (it, mhz), l in sorted(by.items()):
        print(f"  {v}: {it} iterations, probe at ~{mhz} MHz: {len(l):3d} probes, ticks median "
              f"{statistics.median(t for t, _ in l):.0f}, real time median {statistics.median(r for _, r in l) / 1000:.2f} µs")

def load(p):
    return {r["test"]: r for r in csv.DictReader(gzip.open(p, "rt"))}

a = load(here.parent / "load-to-use-1127" / "all.csv.gz")
b = load(here.parent / "whole-run-1126" / "final" / "all.csv.gz")
print("(2) whole runs load-to-use-1127 against whole-run-1126/final: rows whose clocks differ by more than 0.5 %")
print(f"  {'family':34s} rows  clock ratio  speed ratio  share of the clock's change seen in the time")
fam = collections.defaultdict(list)
for t, r in a.items():
    s = b.get(t)
    if not s or r["status"] != "ok" or s["status"] != "ok" or not r["clock_mhz"] or not s["clock_mhz"]:
        continue
    cr = float(r["clock_mhz"]) / float(s["clock_mhz"])
    sr = float(s["ms_median"]) / float(r["ms_median"])
    if abs(cr - 1) > 0.005:
        fam[r["family"]].append((cr, sr))
for f, l in sorted(fam.items(), key=lambda x: -len(x[1])):
    if len(l) < 3:
        continue
    share = statistics.median((s - 1) / (c - 1) for c, s in l)
    print(f"  {f:34s} {len(l):4d}  {statistics.median(c for c, _ in l):.4f}       "
          f"{statistics.median(s for _, s in l):.4f}       {share:5.2f}")
