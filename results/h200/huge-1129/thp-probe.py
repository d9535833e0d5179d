#!/usr/bin/env python3
"""How long 1 GB of anonymous memory takes to fault in (a byte per 4 KB page, from Python:
the loop's own time included) and to free, with and without MADV_HUGEPAGE, and the host's
transparent-huge-page settings. Ran on an H200 machine in its own device call
(`python3 thp-probe.py; nproc`), its output in thp-probe.txt."""
import mmap, time, sys
print(open('/sys/kernel/mm/transparent_hugepage/enabled').read().strip(), open('/sys/kernel/mm/transparent_hugepage/defrag').read().strip())
N = 1 << 30
for huge in (False, True, False, True):
    t0 = time.perf_counter()
    m = mmap.mmap(-1, N, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if huge:
        m.madvise(mmap.MADV_HUGEPAGE)
    t1 = time.perf_counter()
    # one byte per 4 KB page, as the region's fill faults every page
    mv = memoryview(m)
    for off in range(0, N, 4096):
        mv[off] = 1
    t2 = time.perf_counter()
    ah = [l for l in open('/proc/self/smaps_rollup') if l.startswith('AnonHugePages')]
    del mv
    m.close()
    t3 = time.perf_counter()
    print(f'huge={huge} fault {t2-t1:.3f} s free {t3-t2:.3f} s {ah[0].strip() if ah else ""}')
    sys.stdout.flush()
