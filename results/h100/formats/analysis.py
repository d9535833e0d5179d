#!/usr/bin/env python3
"""Tables for the `formats` suite from perftest CSVs (standard library only).

Usage: python3 results/h100/formats/analysis.py RUN1.csv [RUN2.csv]

Prints Markdown: run-to-run agreement (with two runs), then, per pattern-median of the first
run, (1) texture dimensions against Texture2D<F>, (2) the extended formats against the
original format of the same width, (3) block compression per sample against the
uncompressed format it replaces, (4) host-visible and BAR memory against device-local.
A rate is loads per clock per compute unit where the CSV has it, else Gloads/s; "x" columns
are time ratios (reference ms / test ms: above 1 = faster than the reference).
"""

import csv
import statistics
import sys

PATTERNS = ("uniform", "linear", "random")


def load(path):
    with open(path, newline="") as f:
        return {r["test"]: r for r in csv.DictReader(f)}


def ms(rows, name):
    r = rows.get(name)
    if not r or r["status"] != "ok" or not r["ms_median"]:
        return None
    return float(r["ms_median"])


def rate(rows, name):
    r = rows.get(name)
    if not r or r["status"] != "ok":
        return None
    for key in ("loads_per_clk_per_cu", "gloads_per_s"):
        if r.get(key):
            return float(r[key])
    return None


def cell(rows, name):
    r = rows.get(name)
    if r is None:
        return "—"
    if r["status"] != "ok":
        return r["status"]
    v = rate(rows, name)
    return f"{v:.2f}" if v is not None else "?"


def ratio(rows, ref, test):
    """ref ms / test ms for each pattern, as 'u/l/r'."""
    out = []
    for p in PATTERNS:
        a, b = ms(rows, f"{ref} {p}"), ms(rows, f"{test} {p}")
        out.append(f"{a / b:.2f}" if a and b else "-")
    return "/".join(out)


def agreement(a, b):
    diffs = []
    for name, r in a.items():
        x, y = ms(a, name), ms(b, name)
        if x and y:
            diffs.append((abs(y - x) / x * 100, name))
    if not diffs:
        return
    diffs.sort()
    print("## Run-to-run agreement\n")
    print(f"{len(diffs)} tests timed in both runs: median |Δ| "
          f"{statistics.median(d for d, _ in diffs):.2f} %, 95th percentile "
          f"{diffs[int(len(diffs) * 0.95)][0]:.2f} %, max {diffs[-1][0]:.2f} % ({diffs[-1][1]}).\n")


ORIGINAL = ["R8", "RG8", "RGBA8", "R16F", "RG16F", "RGBA16F", "R32F", "RG32F", "RGBA32F"]


def dimensions(rows):
    print("## Texture dimensions (rate; x = Texture2D time / this time, uniform/linear/random)\n")
    print("| format | read | Texture2D | Texture1D | x | Texture2DArray | x | Texture3D | x |")
    print("|---|---|---:|---:|---|---:|---|---:|---|")
    reads = [("Load", "Load", "Load", "Load"),
             ("Sample(nearest)",) * 4,
             ("Sample(bilinear)", "Sample(linear)", "Sample(bilinear)", "Sample(trilinear)")]
    for f in ORIGINAL:
        for r2d, r1d, rarr, r3d in reads:
            ref = f"Texture2D<{f}>.{r2d}"
            line = [f, r2d, cell(rows, f"{ref} linear")]
            for dim, r in (("Texture1D", r1d), ("Texture2DArray", rarr), ("Texture3D", r3d)):
                t = f"{dim}<{f}>.{r}"
                line += [cell(rows, f"{t} linear"), ratio(rows, ref, t)]
            print("| " + " | ".join(line) + " |")
    print()


def ext_name_width(name):
    """The original format of the same channel count and bytes per texel (or None)."""
    table = {
        "R8UI": "R8", "RG8UI": "RG8", "RGBA8UI": "RGBA8",
        "R8I": "R8", "RG8I": "RG8", "RGBA8I": "RGBA8",
        "R8_SNORM": "R8", "RG8_SNORM": "RG8", "RGBA8_SNORM": "RGBA8",
        "R16UI": "R16F", "RG16UI": "RG16F", "RGBA16UI": "RGBA16F",
        "R16I": "R16F", "RG16I": "RG16F", "RGBA16I": "RGBA16F",
        "R16_SNORM": "R16F", "RG16_SNORM": "RG16F", "RGBA16_SNORM": "RGBA16F",
        "R16": "R16F", "RG16": "RG16F", "RGBA16": "RGBA16F",
        "R32UI": "R32F", "RG32UI": "RG32F", "RGBA32UI": "RGBA32F",
        "R32I": "R32F", "RG32I": "RG32F", "RGBA32I": "RGBA32F",
        "RGB10_A2": "RGBA8", "R11F_G11F_B10F": "RGBA8", "RGB9_E5": "RGBA8",
        "SRGB8_ALPHA8": "RGBA8",
        # Block-compressed: the uncompressed format of the same channels.
        "BC1": "RGBA8", "BC4": "R8", "BC5": "RG8", "BC7": "RGBA8",
        "ETC2_RGBA8": "RGBA8", "ASTC_4x4": "RGBA8",
    }
    return table.get(name)


def buffer_name(f):
    # The original prints buffer float formats with a lower-case f.
    return f.replace("F", "f") if f.endswith("F") else f


def formats(rows, compressed):
    names = []
    for t in rows:
        for prefix in ("Buffer<", "Texture2D<"):
            if t.startswith(prefix) and t.endswith(" linear"):
                f = t[len(prefix):t.index(">")]
                if f not in ORIGINAL and f not in [buffer_name(o) for o in ORIGINAL] \
                        and f not in names and ext_name_width(f):
                    names.append(f)
    block = {"BC1", "BC4", "BC5", "BC7", "ETC2_RGBA8", "ASTC_4x4"}
    names = [n for n in names if (n in block) == compressed]
    if compressed:
        print("## Block compression per sample (x = uncompressed time / compressed time)\n")
    else:
        print("## Extended formats (x = time of the original format of the same size / this time)\n")
    print("| format | vs | Buffer.Load | x | Texture2D.Load | x | Sample(nearest) | x | Sample(bilinear) | x |")
    print("|---|---|---:|---|---:|---|---:|---|---:|---|")
    for f in names:
        ref = ext_name_width(f)
        line = [f, ref]
        for op, refop in (("Buffer<{}>.Load", "Buffer<{}>.Load"),
                          ("Texture2D<{}>.Load", "Texture2D<{}>.Load"),
                          ("Texture2D<{}>.Sample(nearest)", "Texture2D<{}>.Sample(nearest)"),
                          ("Texture2D<{}>.Sample(bilinear)", "Texture2D<{}>.Sample(bilinear)")):
            t = op.format(f)
            r = refop.format(buffer_name(ref) if op.startswith("Buffer") else ref)
            if f"{t} linear" not in rows:
                line += ["—", ""]
            else:
                line += [cell(rows, f"{t} linear"), ratio(rows, r, t)]
        print("| " + " | ".join(line) + " |")
    print()


def memory(rows):
    print("## Where the data lives (x = device-local time / this time, uniform/linear/random)\n")
    loads = []
    for t in rows:
        if t.endswith(" (device-local) linear"):
            loads.append(t[: -len(" (device-local) linear")])
    print("| load | device-local | host-visible | x | device-local+host-visible | x |")
    print("|---|---:|---:|---|---:|---|")
    for l in loads:
        ref = f"{l} (device-local)"
        line = [l, cell(rows, f"{ref} linear")]
        for kind in ("host-visible", "device-local+host-visible"):
            t = f"{l} ({kind})"
            line += [cell(rows, f"{t} linear"), ratio(rows, ref, t)]
        print("| " + " | ".join(line) + " |")
    print()
    kinds = {}
    for t, r in rows.items():
        if r.get("memory"):
            kinds.setdefault(t[t.rindex("(") + 1:t.rindex(")")], r["memory"])
    for k, m in kinds.items():
        print(f"- {k}: {m}")
    print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [load(p) for p in sys.argv[1:3]]
    rows = runs[0]
    dev = next(iter(rows.values()), {})
    print(f"# formats suite: {dev.get('device_name', '?')} ({dev.get('driver', '')})\n")
    print("Rates are " + ("loads/clk/CU" if any(r.get("loads_per_clk_per_cu") for r in rows.values())
                          else "Gloads/s") + " of the linear pattern.\n")
    if len(runs) == 2:
        agreement(*runs)
    bad = {}
    for t, r in rows.items():
        if r["status"] != "ok":
            bad.setdefault((r["status"], r["reason"]), []).append(t)
    if bad:
        print("## Not ok\n")
        for (s, why), tests in bad.items():
            print(f"- {s} ({why}): {len(tests)} tests, e.g. `{tests[0]}`")
        print()
    dimensions(rows)
    formats(rows, compressed=False)
    formats(rows, compressed=True)
    memory(rows)


if __name__ == "__main__":
    main()
