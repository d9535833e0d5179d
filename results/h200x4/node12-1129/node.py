#!/usr/bin/env python3
"""The node run of this folder, read back: per run (health-0-N alone, health-all-N at once) its
wall time and its ratio to the mean alone run, its rows flagged (the last lines), and per device
of each traced run when it started, ended its setup phases and its tests, and whether each
1 GB host copy row says its memory was imported. Usage: node.py OUTDIR (the folder
scripts/reproduce.sh wrote; .txt/.csv/.tsv, or the same gzipped)."""
import csv, glob, gzip, io, os, re, sys

out = sys.argv[1]


def read(stem):
    for path in (stem, stem + '.gz'):
        if os.path.exists(path):
            opener = gzip.open if path.endswith('.gz') else open
            with opener(path, 'rt') as f:
                return f.read()
    return None


def wall(name):
    text = read(f'{out}/{name}.txt') or ''
    m = re.findall(r'^wall ([0-9.]+) s$', text, re.M)
    return float(m[-1]) if m else None


runs = sorted({re.sub(r'\.(txt|csv)(\.gz)?$', '', os.path.basename(p))
               for p in glob.glob(f'{out}/health-*.txt*')})
alone = [w for r in runs if r.startswith('health-0-') and (w := wall(r)) is not None]
mean_alone = sum(alone) / len(alone) if alone else None
for run in runs:
    w = wall(run)
    ratio = f' ({w / mean_alone:.2f}× the mean alone, {mean_alone:.2f} s)' if w and mean_alone else ''
    print(f'{run}: wall {w} s{ratio}')
    text = read(f'{out}/{run}.txt') or ''
    for line in text.splitlines():
        if line.startswith('perftest: ') and (' ok, ' in line or 're-measured (' in line):
            print('   ', line)
    rows = read(f'{out}/{run}.csv')
    if rows:
        for r in csv.DictReader(io.StringIO(rows)):
            if r['family'] == 'transfer' and r['test'].endswith(' 1 GB'):
                said = (f"{r['gbytes_per_s']} GB/s, {r['conditions']}, imported: "
                        f"{'imported' in r['memory']}") if r['status'] == 'ok' else \
                    f"{r['status']}: {r['reason']}"
                print(f"    device {r['device_index']} {r['test']}: {said}")
    trace = read(f"{out}/trace-{run.removeprefix('health-')}.tsv")
    if not trace:
        continue
    t = {}
    for line in trace.splitlines():
        f = line.split('\t')
        kv = dict(x.split('=', 1) for x in f[2:] if '=' in x)
        if f[1] == 'start':
            t[(kv['device'], 'start')] = float(f[0])
        elif f[1] == 'phase':
            t[(kv['device'], kv['done'])] = float(f[0])
        elif f[1] in ('hold alone', 'measure') and (f[1] == 'hold alone' or 'hold=alone' in f):
            key = (kv['device'], 'holds alone' if f[1] == 'hold alone' else 'rows alone')
            t[key] = t.get(key, 0) + 1
        elif f[1] == 'process':
            m = re.match(r'device (\d+) (tests done|resources freed|closed)$', f[2])
            if m:
                t[(m.group(1), m.group(2))] = float(f[0])
    for d in sorted({d for d, _ in t}, key=int):
        steps = ('start', 'resources', 'pipelines', 'prepare', 'calibration', 'tests done', 'closed')
        print(f'    device {d}: ' + ', '.join(
            f'{s} {t[(d, s)]:.2f}' for s in steps if (d, s) in t)
            + f"; {t.get((d, 'rows alone'), 0)} rows held alone in "
            f"{t.get((d, 'holds alone'), 0)} series")
print((read(f'{out}/verdict.txt') or 'no verdict.txt').strip().splitlines()[-2:])
