#!/usr/bin/env python3
"""From traced runs (PERFTEST_TRACE, .tsv or .tsv.gz) of one device: how long its `prepare`
phase took (from its pipelines done to its prepare done: the copies' host memory filled and
imported) and how long its resources and then the device took to free after its last test.
Usage: results/h200/huge-1129/phases.py TRACE..."""
import gzip, sys

for path in sys.argv[1:]:
    opener = gzip.open if path.endswith('.gz') else open
    t = {}
    for line in opener(path, 'rt'):
        f = line.rstrip('\n').split('\t')
        if f[1] in ('phase', 'process'):
            t[f[2].replace('\tdevice=0', '')] = float(f[0])
    print(f"{path}: prepare {t['done=prepare'] - t['done=pipelines']:.3f} s, "
          f"resources freed {t['device 0 resources freed'] - t['device 0 tests done']:.3f} s, "
          f"device closed {t['device 0 closed'] - t['device 0 resources freed']:.3f} s")
