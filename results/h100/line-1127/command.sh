# results/h100/line-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), the final build: the stride sweep with its nine
# sets read 32 B apart over 96–384 KB (the L1's line) verified, then a whole run (the latency
# curve's edges refined by probes), its summary as text and JSON.
# Rerun: scripts/reproduce.sh results/h100/line-1127 OUTDIR
"$B" "${X[@]}" --suite latency --filter "latency by stride" --verify > "$out/verify.txt" 2>&1
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary "$out/all.csv" --json "$out/summary.json"   # gzipped here
# summary.txt and summary.json here are the final build's, from the same all.csv (the
# `L1: line` item's words shortened after the run).
