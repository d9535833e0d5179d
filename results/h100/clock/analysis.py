#!/usr/bin/env python3
"""Reads the runs of results/h100/clock/command.sh (DIR holds NAME.csv, calibrations.json or NAME.json,
walls.txt) and prints what issue 20 asks of them: per run, every row's clock against the run's
steady clock, the conditions, the rows whose ratio or time differs from the warm run's, the
re-measured rows against the warm run, the four default runs' agreement, and wall times.

Usage: results/h100/clock/analysis.py DIR
"""
import csv
import gzip
import json
import os
import statistics
import sys


def has(d, name):
    """Whether DIR holds NAME.csv, plain or gzipped (the committed ones are gzipped)."""
    return any(os.path.exists(os.path.join(d, f"{name}{ext}")) for ext in (".csv", ".csv.gz"))


def load(d, name):
    path = os.path.join(d, f"{name}.csv")
    f = open(path, newline="") if os.path.exists(path) else gzip.open(path + ".gz", "rt", newline="")
    with f:
        return {r["test"]: r for r in csv.DictReader(f)}


def steady_clock(d, name):
    path = os.path.join(d, "calibrations.json")
    if os.path.exists(path):
        cal = json.load(open(path)).get(name, {}).get("calibration") or {}
    else:
        cal = json.load(open(os.path.join(d, f"{name}.json")))["devices"][0]["calibration"]
    return cal.get("steady_clock_mhz")


def per_group_ms(r):
    return float(r["ms_median"]) / int(r["groups"])


def main(d):
    runs = [n for n in ["fresh", "idle", "warm", "gaps", "busy"] if has(d, n)]
    names = [f[: -len(".csv.gz")] if f.endswith(".csv.gz") else f[: -len(".csv")] for f in os.listdir(d) if f.endswith((".csv", ".csv.gz"))]
    defaults = sorted(n for n in names if n.startswith("default-"))
    warm = load(d, "warm")
    print("## Rows against the steady clock and the warm run\n")
    print("| run | steady MHz | rows with a clock | max |clock/steady − 1| | conditions | ratio off the warm run's by > 1 % |")
    print("|---|---|---|---|---|---|")
    for n in runs + defaults:
        rows = load(d, n)
        steady = steady_clock(d, n)
        clocks = [float(r["clock_mhz"]) for r in rows.values() if r["clock_mhz"]]
        dev = max(abs(c / steady - 1) * 100 for c in clocks)
        conds = {}
        for r in rows.values():
            if r["status"] == "ok":
                conds[r["conditions"] or "(none)"] = conds.get(r["conditions"] or "(none)", 0) + 1
        off = []
        for t, r in rows.items():
            if r["ratio"] and warm[t]["ratio"] and n != "warm":
                pct = 100 * (float(r["ratio"]) / float(warm[t]["ratio"]) - 1)
                if abs(pct) > 1:
                    off.append(f"{t} {pct:+.1f} % (groups {r['groups']} vs {warm[t]['groups']})")
        cond_text = ", ".join(f"{k} {v}" for k, v in sorted(conds.items()))
        print(f"| {n} | {steady:.0f} | {len(clocks)} | {dev:.2f} % | {cond_text} | {'; '.join(off) or 'none'} |")
    for n in ["gaps", "busy"]:
        if n not in runs:
            continue
        rows = load(d, n)
        print(f"\n## `{n}`: re-measured rows against the warm run (time per group)\n")
        diffs = sorted(
            (100 * (per_group_ms(r) / per_group_ms(warm[t]) - 1), t, r["reason"])
            for t, r in rows.items()
            if r["conditions"] == "re-measured"
        )
        for pct, t, reason in diffs if n == "gaps" else diffs[:3] + diffs[-3:]:
            print(f"- {t}: {pct:+.2f} %" + (f" ({reason.split(';')[-1].strip()})" if n == "gaps" else ""))
        if n == "busy":
            print(f"- ({len(diffs)} rows; the fewest and most different shown)")
        slow = [t for t, r in rows.items() if r["conditions"] == "steady" and r["ms_median"]
                and per_group_ms(r) / per_group_ms(warm[t]) - 1 > 0.01]
        print(f"- rows left `steady` but more than 1 % slower than the warm run: {len(slow)}")
    if defaults:
        print("\n## Default runs: spread of each test's median over the runs\n")
        for prefix in ["default-", "old-default-"]:
            group = [load(d, n) for n in sorted(names) if n.startswith(prefix)]
            if not group:
                continue
            spreads = sorted(
                (100 * (max(v) / min(v) - 1), t)
                for t in group[0]
                for v in [[float(g[t]["ms_median"]) for g in group if g[t]["ms_median"]]]
                if v
            )
            print(f"- {prefix}N ({len(group)} runs): largest spread {spreads[-1][0]:.2f} % ({spreads[-1][1]}), "
                  f"tests over 0.3 %: {sum(1 for s in spreads if s[0] > 0.3)} of {len(spreads)}")
    walls = os.path.join(d, "walls.txt")
    if os.path.exists(walls):
        print("\n## Wall times\n")
        for line in open(walls):
            name, rc, ms = line.split()
            print(f"- {name}: {int(ms.split('=')[1]) / 1000:.2f} s ({rc})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
