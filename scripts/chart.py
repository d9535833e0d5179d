#!/usr/bin/env python3
"""Draw a grouped horizontal bar chart of perftest CSV results.

    python3 scripts/chart.py OUT.png A.csv [B.csv ...] [--metric METRIC]
    python3 scripts/chart.py -o OUT.png -o OUT.svg A.csv [B.csv ...] [--metric METRIC]
    python3 scripts/chart.py OUT.png A.csv [B.csv ...] --reference NAME [--reference NAME ...]

One bar per (test, series), tests top to bottom in the order they first appear, grouped by
the CSV's `family` column (shaded bands, family name on the right). A series is one device
in one file, labelled like `perftest compare`: the file stem, or `STEM:DEVICE_NAME` when
the file holds rows of several devices. Rows whose metric cell is empty (unsupported or
failed tests, a run without the baseline) are skipped.

The output format follows the extension: `.png` or `.svg`. Give the output either as the
first positional argument, or with `-o` (repeatable, to write both a PNG and an SVG in one
go; then every positional argument is a CSV).

METRIC is `ratio` (default: speed relative to `Buffer<RGBA8>.Load random` on the same
device, higher is faster), `loads_per_clk_per_cu` or `gloads_per_s`.

--reference NAME (repeatable) sets the runs' ratios beside the original tool's published
ones (PerfTest, Direct3D 11: data/published/, as `perftest compare --reference` does; NAME is
`all`, an architecture, product or heading exactly — `gcn5`, `RTX 3090` — or part of exactly
one heading, case-insensitive). The chart is then a dot plot on a logarithmic axis — ratios of
different GPUs span three orders of magnitude, and a factor reads the same everywhere on it —
with one row per test of the runs, grouped by family: a filled circle per run, an open
marker per reference (none where it did not publish the test). --filter TEXT (repeatable,
case-insensitive part of a test name) keeps only the tests that contain one of them.

Needs matplotlib: `pip install -r scripts/requirements-chart.txt`. Uses the non-interactive
Agg backend, so it runs without a display.

Exit status: 0 on success, 2 for bad arguments, an unknown or ambiguous reference, or an
unusable CSV (unreadable, a missing column, no value to plot).
"""

import argparse
import csv
import os
import sys

METRICS = {
    "ratio": "speed relative to Buffer<RGBA8>.Load random (higher is faster)",
    "loads_per_clk_per_cu": "loads per clock per compute unit (higher is faster)",
    "gloads_per_s": "billions of loads per second (higher is faster)",
}
FORMATS = (".png", ".svg")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHED = os.path.join(ROOT, "data", "published")


def fail(message):
    print(f"chart.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="chart.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "-o",
        "--output",
        action="append",
        default=[],
        metavar="OUT",
        help="output file, .png or .svg; repeatable. Without -o, the first positional "
        "argument is the output",
    )
    p.add_argument(
        "--metric",
        choices=sorted(METRICS),
        default="ratio",
        help="CSV column to plot (default: ratio)",
    )
    p.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="NAME",
        help="set the ratios beside a GPU's published results (repeatable; `all`)",
    )
    p.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="TEXT",
        help="only the tests whose name contains TEXT (case-insensitive; repeatable)",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="[OUT] A.csv [B.csv ...]")
    args = p.parse_args(argv)
    if args.reference and args.metric != "ratio":
        p.error("--reference compares ratios: leave --metric out (or give ratio)")
    if args.output:
        outputs, csvs = args.output, args.files
    else:
        outputs, csvs = args.files[:1], args.files[1:]
    if not csvs:
        p.error("no CSV file given")
    for out in outputs:
        if os.path.splitext(out)[1].lower() not in FORMATS:
            p.error(f"output {out!r} must end in .png or .svg")
    for c in csvs:
        if os.path.splitext(c)[1].lower() in FORMATS:
            p.error(
                f"{c!r} looks like an output, not a CSV (give the output first, or with -o)"
            )
    return outputs, csvs, args.metric, args.reference, args.filter


def read_published():
    """[{key, heading, architecture, product, ..., results: {test: ratio}}], published order."""
    try:
        with open(os.path.join(PUBLISHED, "gpus.csv"), newline="", encoding="utf-8") as f:
            gpus = list(csv.DictReader(f))
        with open(os.path.join(PUBLISHED, "results.csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read the published results in {PUBLISHED}: {e.strerror}")
    for i, g in enumerate(gpus):
        g["index"] = i  # one colour and marker per GPU in every chart
        g["results"] = {r["test"]: float(r["ratio"]) for r in rows if r["gpu"] == g["key"]}
    return gpus


def select_references(names, gpus):
    """The references NAMEs give, as `perftest compare --reference` chooses them (see
    src/published.rs): `all`; else a NAME equal to an architecture, product, heading or key
    (case-insensitive) names that one; else part of exactly one heading."""
    chosen = []
    listing = lambda gs: "\n".join(f"  {g['heading']}" for g in gs)  # noqa: E731
    for name in names:
        needle = name.strip().lower()
        if not needle:
            fail(
                "--reference needs a name: `all`, or part of one of these headings:\n"
                + listing(gpus)
            )
        if needle == "all":
            found = gpus
        else:
            found = [
                g
                for g in gpus
                if needle in (g[k].lower() for k in ("heading", "architecture", "product", "key"))
            ] or [g for g in gpus if needle in g["heading"].lower()]
            if not found:
                fail(
                    f"--reference {name!r} matches no published GPU; give `all` or part of a "
                    f"heading:\n{listing(gpus)}"
                )
            if len(found) > 1:
                fail(
                    f"--reference {name!r} is ambiguous: it matches {len(found)} published "
                    f"GPUs; give more of the heading, or an architecture exactly:\n{listing(found)}"
                )
        for g in found:
            if g not in chosen:
                chosen.append(g)
    return chosen


def read_series(paths, metric):
    """[(label, {test: value})], [test names in order], {test: family}."""
    needed = ["device_index", "device_name", "test", "family", metric]
    stems = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    series, tests, family_of = [], [], {}
    for path, stem in zip(paths, stems):
        label = path if stems.count(stem) > 1 else stem
        try:
            with open(path, newline="", encoding="utf-8-sig") as f:
                reader = csv.DictReader(f)
                columns = [c.strip() for c in (reader.fieldnames or [])]
                if not columns:
                    fail(f"{path}: the file is empty")
                missing = [c for c in needed if c not in columns]
                if missing:
                    fail(
                        f"{path}: missing column{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(missing)} (needs {', '.join(needed)})"
                    )
                reader.fieldnames = columns
                rows = list(reader)
        except OSError as e:
            fail(f"cannot read {path}: {e.strerror}")
        except (csv.Error, UnicodeDecodeError) as e:
            fail(f"{path}: not a readable CSV: {e}")
        if not rows:
            fail(f"{path}: the file has a header but no rows")

        devices = {}  # (index, name) -> {test: value}, in order of first appearance
        for n, row in enumerate(rows, start=2):
            test = (row.get("test") or "").strip()
            key = (
                (row.get("device_index") or "").strip(),
                (row.get("device_name") or "").strip(),
            )
            values = devices.setdefault(key, {})
            cell = (row.get(metric) or "").strip()
            if not test or not cell:
                continue
            try:
                value = float(cell)
            except ValueError:
                fail(f"{path}: line {n}: {metric} {cell!r} is not a number")
            values[test] = value
            if test not in family_of:
                family_of[test] = (row.get("family") or "").strip() or "(no family)"
                tests.append(test)
        names = [name for _, name in devices]
        for (index, name), values in devices.items():
            if len(devices) == 1:
                s_label = label
            elif names.count(name) > 1:
                s_label = f"{label}:{name}#{index}"
            else:
                s_label = f"{label}:{name}"
            series.append((s_label, values))
    if not tests:
        fail(f"no {metric} value in {', '.join(paths)} (every {metric} cell is empty)")
    return series, tests, family_of


def finish(fig, ax, outputs, title, n, height, legend_row_in):
    """Title, a two-column legend of `n` entries above the plot (`legend_row_in` inches a
    row), layout, and every output written (SVGs without a date, so they are reproducible)."""
    import matplotlib.pyplot as plt

    top_in = 0.3 + legend_row_in * ((n + 1) // 2)  # title, then the legend, above the ticks
    fig.suptitle(title, x=0.01, y=1 - 0.08 / height, ha="left", va="top", fontsize=12)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(0.01, 1 - 0.38 / height),
        ncol=2,
        fontsize=8,
        frameon=False,
        borderaxespad=0,
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - top_in / height))
    for out in outputs:
        fig.savefig(
            out,
            dpi=110,
            metadata={"Date": None} if out.lower().endswith(".svg") else None,
        )
        print(f"chart.py: wrote {out}", file=sys.stderr)
    plt.close(fig)


def draw(outputs, series, tests, family_of, metric):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # keep text as text: searchable SVG

    # Group by family, families in order of first appearance, tests in order within each.
    families = []
    for t in tests:
        if family_of[t] not in families:
            families.append(family_of[t])
    ordered = [t for fam in families for t in tests if family_of[t] == fam]

    n = len(series)
    gap = 0.8  # rows are 1 apart; bars of one test share `gap` of that
    bar = gap / n
    row_in = 0.14 + 0.07 * n  # inches per test
    height = 1.6 + row_in * len(ordered) + 0.25 * ((n + 1) // 2)
    longest = max(len(t) for t in ordered)
    fig, ax = plt.subplots(figsize=(6.5 + 0.075 * longest, height))

    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    y_of = {t: i for i, t in enumerate(ordered)}
    vmax = 0.0
    for k, (label, values) in enumerate(series):
        ys, xs, absent = [], [], []
        for t in ordered:
            y = y_of[t] - gap / 2 + bar * (k + 0.5)
            if t in values:
                ys.append(y)
                xs.append(values[t])
            else:
                absent.append(y)
        vmax = max([vmax] + xs)
        ax.barh(ys, xs, height=bar * 0.92, color=colors[k % len(colors)], label=label)
        if n == 1:
            for y, x in zip(ys, xs):
                ax.annotate(
                    f"{x:.3f}" if abs(x) < 10 else f"{x:.0f}",
                    (x, y),
                    xytext=(2, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=6,
                    color="#333333",
                )
        for y in absent:  # this series has no value for a test another one has
            ax.annotate(
                "n/a",
                (0, y),
                xytext=(2, 0),
                textcoords="offset points",
                va="center",
                fontsize=6,
                color=colors[k % len(colors)],
            )

    # Family bands, separators and names.
    family_axis = ax.secondary_yaxis("right")
    centres, start = [], 0
    for i, fam in enumerate(families):
        count = sum(1 for t in ordered if family_of[t] == fam)
        lo, hi = start - 0.5, start + count - 0.5
        if i % 2 == 0:
            ax.axhspan(lo, hi, color="#f0f0f0", zorder=0)
        if i > 0:
            ax.axhline(lo, color="#888888", linewidth=0.8, zorder=1)
        centres.append((lo + hi) / 2)
        start += count
    family_axis.set_yticks(centres, labels=[f.replace("_", " ") for f in families])
    family_axis.tick_params(axis="y", length=0, labelsize=9)
    for lbl in family_axis.get_yticklabels():
        lbl.set_fontweight("bold")

    ax.set_yticks(range(len(ordered)), labels=ordered, fontsize=7)
    ax.set_ylim(len(ordered) - 0.5, -0.5)  # first test at the top
    ax.set_xlim(0, vmax * 1.08 if vmax > 0 else 1)
    ax.tick_params(axis="y", length=0)
    ax.xaxis.grid(True, color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.tick_params(axis="x", labeltop=True, top=True)
    if metric == "ratio":
        ax.axvline(1.0, color="#444444", linewidth=0.8, linestyle="--", zorder=2)
    ax.set_xlabel(f"{metric}: {METRICS[metric]}")
    finish(fig, ax, outputs, f"perftest: {metric} per test", n, height, 0.2)


def draw_references(outputs, runs, references, tests, family_of):
    """A dot plot, log axis: per test a filled circle per run, an open marker per reference."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    plt.rcParams["svg.fonttype"] = "none"

    families = []
    for t in tests:
        if family_of[t] not in families:
            families.append(family_of[t])
    ordered = [t for fam in families for t in tests if family_of[t] == fam]
    n = len(runs) + len(references)
    height = 2.0 + 0.17 * len(ordered) + 0.25 * ((n + 1) // 2)
    longest = max(len(t) for t in ordered)
    fig, ax = plt.subplots(figsize=(7.5 + 0.075 * longest, height))

    y_of = {t: i for i, t in enumerate(ordered)}
    values = []
    # The row's span, faint: how far apart the GPUs are on this test.
    for t in ordered:
        xs = [v[t] for _, v in runs if t in v] + [
            g["results"][t] for g in references if t in g["results"]
        ]
        if len(xs) > 1:
            ax.hlines(y_of[t], min(xs), max(xs), color="#cccccc", linewidth=0.8, zorder=1)
    run_colors = ["#000000", "#d62728", "#1f77b4", "#2ca02c"]
    for k, (label, v) in enumerate(runs):
        pts = [(v[t], y_of[t]) for t in ordered if t in v]
        values += [x for x, _ in pts]
        ax.scatter(
            [x for x, _ in pts],
            [y for _, y in pts],
            s=22,
            color=run_colors[k % len(run_colors)],
            zorder=4,
            label=f"{label} (this run)",
        )
    markers = ["o", "s", "D", "^", "v", "<", ">", "p", "h", "*", "P", "X", "d"]
    # tab10, then three more dark colours: every one readable as an open marker.
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"][:10] + [
        "#393b79",
        "#c51b7d",
        "#637939",
    ]
    for g in references:
        k = g["index"]
        pts = [(g["results"][t], y_of[t]) for t in ordered if t in g["results"]]
        values += [x for x, _ in pts]
        ax.scatter(
            [x for x, _ in pts],
            [y for _, y in pts],
            s=26,
            marker=markers[k % len(markers)],
            facecolors="none",
            edgecolors=colors[k % len(colors)],
            linewidths=1.1,
            zorder=3,
            label=f"{g['architecture']} ({g['product']}), {g['api']}, published",
        )

    family_axis = ax.secondary_yaxis("right")
    centres, start = [], 0
    for i, fam in enumerate(families):
        count = sum(1 for t in ordered if family_of[t] == fam)
        lo, hi = start - 0.5, start + count - 0.5
        if i % 2 == 0:
            ax.axhspan(lo, hi, color="#f0f0f0", zorder=0)
        if i > 0:
            ax.axhline(lo, color="#888888", linewidth=0.8, zorder=1)
        centres.append((lo + hi) / 2)
        start += count
    family_axis.set_yticks(centres, labels=[f.replace("_", " ") for f in families])
    family_axis.tick_params(axis="y", length=0, labelsize=9)
    for lbl in family_axis.get_yticklabels():
        lbl.set_fontweight("bold")

    ax.set_xscale("log")
    lo, hi = min(values), max(values)
    ax.set_xlim(lo / 1.5, hi * 1.5)
    # Plain numbers at 1-2-5 steps rather than powers of ten: ratios are read as factors.
    steps = [m * 10.0**e for e in range(-4, 4) for m in (1, 2, 5)]
    ax.set_xticks([s for s in steps if lo / 1.5 <= s <= hi * 1.5])
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_yticks(range(len(ordered)), labels=ordered, fontsize=7)
    ax.set_ylim(len(ordered) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.xaxis.grid(True, which="both", color="#e4e4e4", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.tick_params(axis="x", labeltop=True, top=True)
    ax.axvline(1.0, color="#444444", linewidth=0.8, linestyle="--", zorder=2)
    ax.set_xlabel(
        "ratio: speed relative to Buffer<RGBA8>.Load random on the same GPU "
        "(log scale, higher is faster)"
    )
    finish(
        fig,
        ax,
        outputs,
        "perftest: ratio per test against PerfTest's published results",
        n,
        height,
        0.18,
    )


def main(argv=None):
    outputs, csvs, metric, names, filters = parse_args(sys.argv[1:] if argv is None else argv)
    references = select_references(names, read_published()) if names else []
    series, tests, family_of = read_series(csvs, metric)
    if filters:
        tests = [t for t in tests if any(f.lower() in t.lower() for f in filters)]
        if not tests:
            fail(f"--filter {' --filter '.join(filters)} matches no test with a {metric}")
        series = [
            (label, {t: v for t, v in values.items() if t in tests}) for label, values in series
        ]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail(
            "matplotlib is not installed: pip install -r scripts/requirements-chart.txt"
        )
    if references:
        draw_references(outputs, series, references, tests, family_of)
    else:
        draw(outputs, series, tests, family_of, metric)


if __name__ == "__main__":
    main()
