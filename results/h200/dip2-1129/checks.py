#!/usr/bin/env python3
"""The lowest shader clock any drift check of each traced run read (PERFTEST_TRACE, .tsv or
.tsv.gz), and how many checks it ran. Usage: results/h200/dip2-1129/checks.py TRACE..."""
import gzip, re, sys

for path in sys.argv[1:]:
    opener = gzip.open if path.endswith('.gz') else open
    lowest = []
    for line in opener(path, 'rt'):
        f = line.split('\t')
        m = re.search(r'clocks=\[([^\]]*)\]', line) if f[1] == 'check' else None
        if m and m.group(1):
            lowest.append(min(float(x) for x in m.group(1).split(',')))
    print(f'{path}: {len(lowest)} checks, the lowest clock {min(lowest):.0f} MHz')
