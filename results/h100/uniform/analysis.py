#!/usr/bin/env python3
"""Tables for the uniform-load, sampler and ceiling investigation, from perftest CSVs.

    python3 results/h100/uniform/analysis.py RUN1.csv [RUN2.csv ...] [--verify VERIFY.csv]

Reads `perftest --suite all --csv` files of one device (scripts/reproduce.sh results/h100/uniform makes them)
and prints Markdown to stdout:

1. Uniform loads, per original family variant: the plain `uniform` test (what the driver
   does), the elected-lane probe, and the two wave-wide probes, in loads/clk/SM (Gloads/s
   where the CSV has no clock or compute-unit count, e.g. on lavapipe), with `linear` beside
   them, and the best probe's speed-up over the driver.
2. Sampler set-ups: for each `Texture2D<F>.Sample(nearest, SETUP) P`, its time against
   `Texture2D<F>.Load P` (the texel-fetch rate) and `Texture2D<F>.Sample(nearest) P`; a
   set-up whose 27 times match `.Load` within 3 % is what moves nearest sampling onto the
   texel-fetch path.
3. Ceilings, per original family variant: the original kernel (`linear`; `uniform` for the
   uniform-buffer uniform ceiling) against its `(unrolled ceiling)`, in loads and bytes per
   clock per SM, the share of the 128 bytes/clk/SM L1 (`--l1-bytes`), and how much of the
   ceiling the original loop reaches.

Each figure is the mean over the runs given; with two or more runs the largest per-test
spread between them is printed, so that differences smaller than it are read as noise.
Tests missing from the CSVs (a filtered run) are left out. Exit status: 0, or 2 for an
unusable CSV.
"""

import argparse
import csv
import gzip
import statistics
import sys
from collections import OrderedDict

FORMATS_BUFFER = ["R8", "RG8", "RGBA8", "R16f", "RG16f", "RGBA16f", "R32f", "RG32f", "RGBA32f"]
FORMATS_TEXTURE = [f.replace("f", "F") for f in FORMATS_BUFFER]
PATTERNS = ["uniform", "linear", "random"]
PROBES = [
    ("elected lane + broadcast", "elected"),
    ("wave-wide load + shuffle", "wave shuffle"),
    ("wave-wide load + unrolled broadcast", "wave bcast"),
]
SETUPS = [
    "immutable sampler",
    "combined sampler",
    "combined immutable sampler",
    "clamp to edge",
    "unnormalized coordinates",
    "GENERAL layout",
    "linear tiling",
]
MATCH = 0.03  # "the same time": within 3 %


def fail(message):
    print(f"analysis.py: {message}", file=sys.stderr)
    sys.exit(2)


def variants():
    """The original families' test names without their pattern, in the original's order."""
    out = [f"Buffer<{f}>.Load" for f in FORMATS_BUFFER]
    out += [f"ByteAddressBuffer.Load{n}" for n in ["", "2", "3", "4"]]
    out += [f"ByteAddressBuffer.Load{n} unaligned" for n in ["2", "4"]]
    out += [f"StructuredBuffer<{t}>.Load" for t in ["float", "float2", "float4"]]
    out += ["cbuffer{float4} load"]
    out += [f"Texture2D<{f}>.Load" for f in FORMATS_TEXTURE]
    out += [f"Texture2D<{f}>.Sample(nearest)" for f in FORMATS_TEXTURE]
    out += [f"Texture2D<{f}>.Sample(bilinear)" for f in FORMATS_TEXTURE]
    return out


class Runs:
    """The rows of every run, by test name."""

    def __init__(self, paths):
        self.runs = []
        for path in paths:
            try:
                with open_csv(path) as f:
                    rows = list(csv.DictReader(f))
            except OSError as e:
                fail(f"cannot read {path}: {e}")
            need = {"test", "status", "ms_median", "gloads_per_s"}
            if not rows or not need <= set(rows[0]):
                fail(f"{path} is not a perftest CSV (needs the columns {sorted(need)})")
            self.runs.append({r["test"]: r for r in rows if r.get("status") == "ok"})
        first = next(iter(self.runs[0].values()), {})
        self.per_clock = bool(first.get("loads_per_clk_per_cu"))
        self.device = first.get("device_name", "?")
        self.driver = first.get("driver", "?")
        self.clock = first.get("clock_mhz", "")
        self.units = first.get("compute_units", "")
        self.commit = first.get("git_commit", "?")

    def values(self, test, column):
        out = []
        for run in self.runs:
            cell = run.get(test, {}).get(column, "")
            if cell:
                out.append(float(cell))
        return out

    def mean(self, test, column):
        v = self.values(test, column)
        return statistics.fmean(v) if v else None

    def ms(self, test):
        return self.mean(test, "ms_median")

    def rate(self, test):
        """Loads per clock per SM, or Gloads/s where the CSV has no per-clock figures."""
        return self.mean(test, "loads_per_clk_per_cu" if self.per_clock else "gloads_per_s")

    def bytes_rate(self, test):
        return self.mean(test, "bytes_per_clk_per_cu" if self.per_clock else "gbytes_per_s")

    def spread(self, tests):
        """The largest relative difference between runs of any of `tests`, and its test."""
        worst = (0.0, None)
        for t in tests:
            v = self.values(t, "ms_median")
            if len(v) >= 2:
                d = (max(v) - min(v)) / min(v)
                if worst[1] is None or d > worst[0]:
                    worst = (d, t)
        return worst


def num(v, digits=2):
    return "" if v is None else f"{v:.{digits}f}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |"]
    out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def uniform_section(runs, unit):
    rows, used = [], []
    wins = []
    for v in variants():
        names = [f"{v} uniform"] + [f"{v} uniform ({p})" for p, _ in PROBES] + [f"{v} linear"]
        rates = [runs.rate(n) for n in names]
        if all(r is None for r in rates[1:4]):
            continue
        used += names
        driver = rates[0]
        probes = [r for r in rates[1:4] if r is not None]
        best = max(probes) if probes else None
        speedup = best / driver if best and driver else None
        if speedup and speedup > 1 + MATCH:
            wins.append(v)
        rows.append(
            [f"`{v}`"] + [num(r) for r in rates] + [num(speedup) + ("×" if speedup else "")]
        )
    header = ["test", "uniform (driver)"] + [short for _, short in PROBES] + [
        "linear",
        "best probe / driver",
    ]
    text = [
        "## 1. Uniform loads: driver vs elected lane vs wave-wide",
        "",
        f"{unit}, the loop's 256 logical loads per thread (a wave-wide probe issues"
        " subgroup-size times fewer load instructions for the same figure).",
        "",
        table(header, rows),
        "",
        f"A probe beats the driver's uniform loop by more than 3 % in {len(wins)} of"
        f" {len(rows)} variants.",
    ]
    return "\n".join(text), used


def sampler_section(runs):
    used = []
    detail = []
    counts = OrderedDict((s, [0, 0, 0]) for s in SETUPS)  # [tests, ~Load, ~Sample(nearest)]
    for f in FORMATS_TEXTURE:
        for p in PATTERNS:
            load = runs.ms(f"Texture2D<{f}>.Load {p}")
            near = runs.ms(f"Texture2D<{f}>.Sample(nearest) {p}")
            names = [f"Texture2D<{f}>.Load {p}", f"Texture2D<{f}>.Sample(nearest) {p}"]
            cells = [num(load, 3), num(near, 3)]
            for s in SETUPS:
                name = f"Texture2D<{f}>.Sample(nearest, {s}) {p}"
                t = runs.ms(name)
                names.append(name)
                cells.append(num(t, 3))
                if t is not None:
                    counts[s][0] += 1
                    if load and abs(t / load - 1) <= MATCH:
                        counts[s][1] += 1
                    if near and abs(t / near - 1) <= MATCH:
                        counts[s][2] += 1
            if any(c for c in cells[2:]):
                used += names
                detail.append([f"`{f}` {p}"] + cells)
    summary = []
    explains = []
    for s, (n, like_load, like_near) in counts.items():
        if n:
            summary.append([f"`Sample(nearest, {s})`", str(n), str(like_load), str(like_near)])
            if like_load >= n - 2 and like_load > like_near:
                explains.append(f"`{s}`")
    verdict = (
        "Set-ups that put nearest sampling on the texel-fetch path (their times match "
        "`Texture2D<F>.Load` on all but at most two of their tests): "
        + (", ".join(explains) if explains else "none")
        + "."
    )
    text = [
        "## 2. Nearest sampling: which set-up reaches the texel-fetch rate",
        "",
        "Tests of each set-up whose median time is within 3 % of `Texture2D<F>.Load` (the"
        " texel-fetch rate) and of the original's `Texture2D<F>.Sample(nearest)`:",
        "",
        table(["set-up", "tests", "≈ .Load", "≈ .Sample(nearest)"], summary),
        "",
        verdict,
        "",
        "Milliseconds per dispatch:",
        "",
        table(["format, pattern", ".Load", ".Sample(nearest)"] + SETUPS, detail),
    ]
    return "\n".join(text), used


def ceiling_section(runs, unit, bunit, l1):
    rows, used = [], []
    for control in ["Control: loop 1D", "Control: loop 2D"]:
        r = runs.rate(control)
        if r is not None:
            used.append(control)
            rows.append([f"`{control}` (no load)", num(r), "", "", "", "", "", ""])
    for v in variants():
        for p in ["uniform", "linear"]:
            ceiling = f"{v} {p} (unrolled ceiling)"
            c = runs.rate(ceiling)
            if c is None:
                continue
            loop = f"{v} {p}"
            o = runs.rate(loop)
            ob, cb = runs.bytes_rate(loop), runs.bytes_rate(ceiling)
            used += [loop, ceiling]
            rows.append(
                [
                    f"`{v} {p}`",
                    num(o),
                    num(c),
                    num(ob, 1),
                    num(cb, 1),
                    num(100 * cb / l1, 0) + " %" if cb is not None and runs.per_clock else "",
                    num(100 * o / c, 0) + " %" if o and c else "",
                    num(c / o) + "×" if o and c else "",
                ]
            )
    header = [
        "test",
        f"loop {unit}",
        f"ceiling {unit}",
        f"loop {bunit}",
        f"ceiling {bunit}",
        f"ceiling / L1 ({l1:g} B/clk)",
        "loop / ceiling",
        "ceiling speed-up",
    ]
    text = [
        "## 3. Ceilings: the original loop against its loads unrolled",
        "",
        "`(unrolled ceiling)`: 32 loads per loop iteration at constant offsets from one"
        " base, one add per load. A loop well below its ceiling pays for its own"
        " instructions (issue-bound); one at its ceiling is bound by the load path.",
        "",
        table(header, rows),
    ]
    return "\n".join(text), used


def open_csv(path):
    """A CSV as text, gzipped (`.gz`, as committed results are) or not."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", newline="")
    return open(path, newline="")


def verify_section(path):
    try:
        with open_csv(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    if not rows or not {"test", "status", "reason"} <= set(rows[0]):
        fail(f"{path} is not a perftest CSV")
    status = OrderedDict()
    for r in rows:
        status[r["status"]] = status.get(r["status"], 0) + 1
    bad = [f"`{r['test']}` {r['status']} {r['reason']}" for r in rows if r["status"] not in ("ok", "unsupported")]
    line = ", ".join(f"{n} {s}" for s, n in status.items())
    out = [f"Verification (`--verify`, every thread against the CPU reference): {line}."]
    unsupported = [f"`{r['test']}`: {r['reason']}" for r in rows if r["status"] == "unsupported"]
    if unsupported:
        out.append("Unsupported: " + "; ".join(unsupported[:10]) + (" …" if len(unsupported) > 10 else ""))
    if bad:
        out.append("Failed: " + "; ".join(bad))
    return "\n\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="perftest --suite all CSVs of one device")
    ap.add_argument("--verify", help="the CSV of a --verify run")
    ap.add_argument("--l1-bytes", type=float, default=128.0, help="L1 bytes/clk/SM (H100: 128)")
    a = ap.parse_args()
    runs = Runs(a.runs)
    unit = "loads/clk/SM" if runs.per_clock else "Gloads/s"
    bunit = "B/clk/SM" if runs.per_clock else "GB/s"
    print(f"# {runs.device}: uniform loads, sampler set-ups, ceilings\n")
    print(
        f"{len(a.runs)} run(s) of commit `{runs.commit}`, driver {runs.driver}"
        + (f", shader clock {runs.clock} MHz, {runs.units} SMs" if runs.per_clock else "")
        + "; each figure is the mean over the runs.\n"
    )
    if a.verify:
        print(verify_section(a.verify) + "\n")
    sections = [
        uniform_section(runs, unit),
        sampler_section(runs),
        ceiling_section(runs, unit, bunit, a.l1_bytes),
    ]
    used = [t for _, u in sections for t in u]
    spread, worst = runs.spread(used)
    if worst:
        print(
            f"Largest difference between runs over these tests: {100 * spread:.2f} % "
            f"(`{worst}`).\n"
        )
    for text, _ in sections:
        print(text + "\n")


if __name__ == "__main__":
    main()
