#!/usr/bin/env python3
"""Whose clock do the matrix suite's rows follow: the one their kernel read over its own work,
or the probes' around the dispatches? For every row timed ok in two of the three runs here
(matrix1, matrix2, the whole run) whose clocks differ by more than 0.5 % (either clock), the
share of each clock's change seen in the row's time: log(time ratio) / log(clock ratio), 1 where
the time follows that clock. Usage: follow.py FOLDER (holding matrix1.csv, matrix2.csv, all.csv,
plain or gzipped)."""
import csv, gzip, itertools, math, os, re, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)


def rows(name):
    path = os.path.join(folder, name)
    opener = open if os.path.exists(path) else gzip.open
    path = path if os.path.exists(path) else path + ".gz"
    out = {}
    with opener(path, "rt") as f:
        for r in csv.DictReader(f):
            if r["family"] not in ("coopmat", "coopmat2", "peak") or r["status"] != "ok":
                continue
            if "latency" in r["test"] or not r["ms_median"]:
                continue
            m = re.search(r"the probe around it read (\d+(?:\.\d+)?) MHz", r["reason"])
            if not m:
                continue
            out[r["test"]] = (float(r["ms_median"]), float(r["clock_mhz"]), float(m.group(1)))
    return out


runs = {n: rows(f"{n}.csv") for n in ("matrix1", "matrix2", "all")}
print("share of each clock's change seen in the time (1: the time follows that clock)")
print(f"{'rows':10} {'kernel clock: median (range), pairs':40} {'probes: median (range), pairs':40}")
for kind, pick in (("tensor", lambda t: "coopmat" in t), ("ALU peaks", lambda t: "peak" in t)):
    own, probe = [], []
    for a, b in itertools.combinations(runs, 2):
        for test in runs[a].keys() & runs[b].keys():
            if not pick(test):
                continue
            (ta, ka, pa), (tb, kb, pb) = runs[a][test], runs[b][test]
            speed = math.log(ta / tb)  # time up = slower: a higher clock in b
            if abs(math.log(kb / ka)) > 0.005:
                own.append(speed / math.log(kb / ka))
            if abs(math.log(pb / pa)) > 0.005:
                probe.append(speed / math.log(pb / pa))
    fmt = lambda v: (f"{statistics.median(v):.2f} ({min(v):.2f} … {max(v):.2f}), n={len(v)}" if v else "-")
    print(f"{kind:10} {fmt(own):40} {fmt(probe):40}")
