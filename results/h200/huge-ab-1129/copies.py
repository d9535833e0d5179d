#!/usr/bin/env python3
"""Each 1 GB copy's GB/s in the five runs of each build, and the change of the median.
Usage (from the repository root): python3 results/h200/huge-ab-1129/copies.py"""
import collections, csv, gzip, os, statistics

here = os.path.dirname(os.path.abspath(__file__))
rates = collections.defaultdict(lambda: collections.defaultdict(list))
for build in ('new', 'old'):
    for i in range(1, 6):
        with gzip.open(os.path.join(here, f'{build}-{i}.csv.gz'), 'rt') as f:
            for r in csv.DictReader(f):
                rates[r['test']][build].append(float(r['gbytes_per_s']))
for test, by in rates.items():
    new, old = by['new'], by['old']
    change = 100 * (statistics.median(new) / statistics.median(old) - 1)
    print(f"{test}: 2 MB pages {' '.join(f'{x:.2f}' for x in new)}; "
          f"4 KB pages {' '.join(f'{x:.2f}' for x in old)}; median {change:+.2f} %")
