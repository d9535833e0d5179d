#!/usr/bin/env python3
"""Transcribe PerfTest's published results into crates/results/data/published/ (built into perftest).

    python3 scripts/published-references.py [--source MD] [--out DIR] [--check]

Reads the original tool's published results (default: tests/data/perftest-published.md, a
copy of the shared reference file) — one `### HEADING` section per GPU, holding lines
`NAME: <ms>ms <ratio>x` and the author's notes — and writes into DIR (default:
data/published/):

- `gpus.csv`: one row per GPU, in the file's order: `key` (vendor-architecture, lower case),
  `heading` (as the file gives it), `vendor`, `architecture`, `product` (the part in
  parentheses), `api` (`Direct3D 11`), `source` (where the numbers were published),
  `lines` (the section's lines in the source file, `15-117`), `tests` (rows in
  results.csv), `summary` (the first paragraph of the notes, cut to 100 characters: what
  `perftest compare --list-references` shows);
- `results.csv`: one row per published line: `gpu` (the key), `position` (1-based, in the
  published table), `test` (the name in this project's suite), `family` (the suite's family,
  derived from the name), `ms` and `ratio` (the text as published), `line` (in the source
  file) and `note` (empty unless the name was corrected);
- `notes.md`: the author's notes under each table, verbatim.

Every name must be one of the original suite's (tests/data/original-tests.txt). A name that
appears twice in one table is resolved only where the table follows the suite's order line
by line (the RTX 3090's): the occurrence at a position whose suite name is missing from the
table takes that name, with a note; anything else is an error. Numbers are copied as text,
never re-printed.

--check writes nothing and exits 1 when the files in DIR differ from what would be written
(`cargo test` runs it). Exit status: 0, 1 (--check: out of date), 2 (unreadable or
unexpected input).
"""

import argparse
import csv
import io
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = "Direct3D 11"
ORIGIN = "sebbbi/perftest README (https://github.com/sebbbi/perftest)"
RESULT = re.compile(r"^\s*(?P<name>\S.*?): (?P<ms>[0-9]+\.[0-9]+)ms (?P<ratio>[0-9]+\.[0-9]+)x\s*$")
VENDORS = {"amd": "AMD", "nvidia": "NVIDIA", "intel": "Intel"}
SUMMARY_CHARS = 100


def fail(message):
    print(f"published-references.py: {message}", file=sys.stderr)
    sys.exit(2)


def family(name):
    """The suite's family of an original test, from its name (checked against the catalog
    by tests/integration/references.rs)."""
    if name.startswith("Buffer<"):
        return "typed_buffer"
    if name.startswith("ByteAddressBuffer."):
        return "raw_buffer_unaligned" if " unaligned " in name else "raw_buffer"
    if name.startswith("StructuredBuffer<"):
        return "structured_buffer"
    if name.startswith("cbuffer{"):
        return "constant_buffer"
    if name.startswith("Texture2D<"):
        if ".Sample(nearest)" in name:
            return "texture_sample_nearest"
        if ".Sample(bilinear)" in name:
            return "texture_sample_bilinear"
        if ".Load " in name:
            return "texture_load"
    fail(f"no family for test {name!r}")


def split_heading(heading):
    """`NVidia Ampere (RTX 3090)` -> (NVIDIA, Ampere, RTX 3090)."""
    m = re.fullmatch(r"(\S+) (.+?) \((.+)\)", heading)
    if not m or m.group(1).lower() not in VENDORS:
        fail(f"heading {heading!r} is not `VENDOR ARCHITECTURE (PRODUCT)`")
    return VENDORS[m.group(1).lower()], m.group(2), m.group(3)


def paragraphs(lines):
    """Note lines -> paragraphs (blank and whitespace-only lines separate them)."""
    out, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.rstrip())
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def summary(paras):
    if not paras:
        return ""
    text = " ".join(paras[0]).replace("**", "").strip()
    if len(text) <= SUMMARY_CHARS:
        return text
    cut = text[: SUMMARY_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,.;:")
    return cut + "…"


def parse(path, suite):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    sections = []  # [heading, first line, last line, [(line, name, ms, ratio)], [note lines]]
    for number, line in enumerate(lines, start=1):
        if line.startswith("### "):
            sections.append([line[4:].strip(), number, number, [], []])
            continue
        if not sections:
            continue  # the file's introduction
        section = sections[-1]
        section[2] = number
        if line.strip().startswith("```"):
            continue
        m = RESULT.match(line)
        if m:
            section[3].append((number, m["name"], m["ms"], m["ratio"]))
        else:
            section[4].append(line)
    if not sections:
        fail(f"{path}: no `### GPU` section")
    gpus, rows, notes = [], [], []
    for heading, first, last, results, note_lines in sections:
        if not results:
            fail(f"{path}: {heading}: no `NAME: <ms>ms <ratio>x` line")
        vendor, architecture, product = split_heading(heading)
        key = f"{vendor}-{architecture}".lower().replace(" ", "-")
        names = [r[1] for r in results]
        for number, name, _, _ in results:
            if name not in suite:
                fail(f"{path}: line {number}: {name!r} is not a test of the original suite")
        corrected = {}
        for name in sorted({n for n in names if names.count(n) > 1}):
            for pos, n in enumerate(names):
                if n != name:
                    continue
                # Only a table in the suite's exact order says which test a repeated name was.
                expected = suite[pos] if len(names) == len(suite) else None
                if expected is not None and expected != name and expected not in names:
                    corrected[pos] = expected
            if sum(1 for pos, n in enumerate(names) if n == name and pos not in corrected) != 1:
                fail(f"{path}: {heading}: {name!r} appears {names.count(name)} times")
        paras = paragraphs(note_lines)
        for pos, (number, name, ms, ratio) in enumerate(results):
            note = ""
            if pos in corrected:
                note = (
                    f"published as `{name}`, a name this table gives twice; position "
                    f"{pos + 1} is where the original suite runs `{corrected[pos]}`, "
                    f"whose name the original printed wrongly: the value is that test's"
                )
                name = corrected[pos]
            rows.append([key, pos + 1, name, family(name), ms, ratio, number, note])
        gpus.append(
            [
                key,
                heading,
                vendor,
                architecture,
                product,
                API,
                ORIGIN,
                f"{first}-{last}",
                len(results),
                summary(paras),
            ]
        )
        notes.append((heading, paras))
    keys = [g[0] for g in gpus]
    if len(set(keys)) != len(keys):
        fail(f"{path}: two GPUs share a vendor and architecture: {keys}")
    return gpus, rows, notes


def to_csv(header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def render(gpus, rows, notes):
    gpus_csv = to_csv(
        [
            "key",
            "heading",
            "vendor",
            "architecture",
            "product",
            "api",
            "source",
            "lines",
            "tests",
            "summary",
        ],
        gpus,
    )
    results_csv = to_csv(["gpu", "position", "test", "family", "ms", "ratio", "line", "note"], rows)
    md = [
        "# PerfTest's published results: the author's notes, per GPU",
        "",
        f"Verbatim from the {ORIGIN},",
        "as copied in `tests/data/perftest-published.md`: the text under each GPU's table (and",
        "the note inside Intel's). Written by `scripts/published-references.py`; do not edit.",
        "All ratios are relative to `Buffer<RGBA8>.Load random` (=1.0x) on the same GPU.",
    ]
    for heading, paras in notes:
        md += ["", f"## {heading}"]
        for p in paras:
            md += [""] + p
    return {
        "gpus.csv": gpus_csv,
        "results.csv": results_csv,
        "notes.md": "\n".join(md) + "\n",
    }


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="published-references.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--source", default=os.path.join(ROOT, "tests/data/perftest-published.md"))
    p.add_argument("--out", default=os.path.join(ROOT, "crates/results/data/published"))
    p.add_argument("--check", action="store_true", help="compare with DIR, write nothing")
    args = p.parse_args(argv)
    try:
        with open(os.path.join(ROOT, "tests/data/original-tests.txt"), encoding="utf-8") as f:
            suite = [line for line in f.read().split("\n") if line]
    except OSError as e:
        fail(f"cannot read the suite's names: {e.strerror}")
    files = render(*parse(args.source, suite))
    stale = []
    for name, text in files.items():
        path = os.path.join(args.out, name)
        try:
            with open(path, encoding="utf-8", newline="") as f:
                current = f.read()
        except OSError:
            current = None
        if current == text:
            continue
        if args.check:
            stale.append(path)
            continue
        os.makedirs(args.out, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        print(f"published-references.py: wrote {path}", file=sys.stderr)
    if stale:
        print(
            "published-references.py: out of date (run scripts/published-references.py): "
            + ", ".join(stale),
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
