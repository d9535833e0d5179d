#!/usr/bin/env python3
"""Per device of a traced run (PERFTEST_TRACE, .tsv or .tsv.gz): how long its tests waited for
the node, by how they hold it (from a test's `test` line to its `measure` line), and how long
it waited before each second timing of a row held alone (from its last line before it).
Usage: results/h200x4/node10-1128/waits.py TRACE..."""
import collections, gzip, sys

for path in sys.argv[1:]:
    opener = gzip.open if path.endswith('.gz') else open
    asked, last, seen = {}, {}, set()
    waited = collections.defaultdict(float)
    count = collections.Counter()
    again = []
    for line in opener(path, 'rt'):
        f = line.rstrip('\n').split('\t')
        t, what = float(f[0]), f[1]
        kv = dict(x.split('=', 1) for x in f[2:] if '=' in x)
        d = kv.get('device')
        if what == 'test':
            asked[d] = t
        elif what == 'measure':
            hold = kv.get('hold')
            if d in asked:
                waited[(d, hold)] += t - asked.pop(d)
                count[(d, hold)] += 1
            if hold == 'alone':
                key = (d, kv.get('name'))
                if key in seen:
                    again.append(f'device {d} {t - last[d]:.3f} s')
                seen.add(key)
        if d is not None:
            last[d] = t
    print(path)
    for (d, hold), s in sorted(waited.items()):
        print(f'  device {d} {hold:6}: {s:.2f} s over {count[(d, hold)]} tests')
    print('  before a second timing alone:', ', '.join(again) or 'none')
