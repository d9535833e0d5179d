"""Row-by-row comparison of two whole runs (CSV, gzipped or not): per family the median and
largest |change| of each row's figure (a chase's or chain's latency in clocks where the row has
one, else its median time), with the rows' status and conditions.
Usage: python3 compare.py BEFORE.csv.gz AFTER.csv.gz"""
import csv, gzip, statistics, sys
from collections import defaultdict

def rows(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt', newline='') as f:
        return {r['test']: r for r in csv.DictReader(f)}

a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"tests: before {len(a)}, after {len(b)}, only before {len(set(a) - set(b))}, only after {len(set(b) - set(a))}")
for name, r in (('before', a), ('after', b)):
    cond = defaultdict(int)
    for x in r.values():
        cond[(x['status'], x.get('conditions', ''))] += 1
    print(name, dict(sorted(cond.items())))
fam = defaultdict(list)
allds = []
for t in a:
    if t not in b:
        continue
    x, y = a[t], b[t]
    col = 'latency_clk' if x.get('latency_clk') and y.get('latency_clk') else 'ms_median'
    try:
        m0, m1 = float(x[col]), float(y[col])
    except ValueError:
        continue
    if m0 <= 0:
        continue
    d = (m1 / m0 - 1) * 100
    fam[x['family']].append((abs(d), d, t))
    allds.append(abs(d))
allds.sort()
p = lambda q: allds[min(len(allds) - 1, int(q * len(allds)))]
print(f"rows compared {len(allds)} median |d| {statistics.median(allds):.2f}% p95 {p(0.95):.2f} p99 {p(0.99):.2f} max {allds[-1]:.1f}")
print(f"{'family':36} {'n':>5} {'med|d|%':>8} {'max|d|%':>8}  largest")
for f, v in sorted(fam.items(), key=lambda kv: -statistics.median(x[0] for x in kv[1])):
    v.sort(reverse=True)
    print(f"{f:36} {len(v):5} {statistics.median(x[0] for x in v):8.2f} {v[0][0]:8.1f}  {v[0][2][:60]} ({v[0][1]:+.1f})")
big = sorted((e for v in fam.values() for e in v), reverse=True)
beyond = [e for e in big if e[0] > 2]
print("rows beyond 2 %:", len(beyond))
for _, d, t in beyond:
    print(f"  {d:+6.1f}%  {t}  (cv % before {a[t].get('cv_pct', '')}, after {b[t].get('cv_pct', '')})")
