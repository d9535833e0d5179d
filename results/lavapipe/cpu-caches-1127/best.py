# The fastest of the three passes per size (plain1-3.csv.gz): lavapipe's timing has slow and
# fast spells that last seconds; the fastest pass of each size is the CPU's own latency.
# Run from this folder: python3 best.py > best.txt
import csv, gzip, re
files = [f"plain{i}.csv.gz" for i in (1, 2, 3)]
rows = {}
for f in files:
    for r in csv.DictReader(gzip.open(f, "rt")):
        m = re.fullmatch(r"latency: ByteAddressBuffer ([0-9.]+) (KB|MB)", r["test"])
        if m and r["latency_ns"]:
            kb = float(m.group(1)) * (1024 if m.group(2) == "MB" else 1)
            rows.setdefault(kb, {})[f] = float(r["latency_ns"])
print("size_kb  " + "  ".join(f[:6] for f in files) + "   fastest")
for kb in sorted(rows):
    v = rows[kb]
    cells = "  ".join(f"{v[f]:6.2f}" if f in v else "     -" for f in files)
    print(f"{kb:7.0f}  {cells}   {min(v.values()):6.2f}")
