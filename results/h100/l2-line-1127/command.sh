# results/h100/l2-line-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine, the stride sweep with thirteen more sets read 32 B apart over 8–64 MB
# (the L2's line) verified, then a whole run (the tensor-core rows reading their own clock) and
# its summary as text and JSON.
# Rerun: scripts/reproduce.sh results/h100/l2-line-1127 OUTDIR
"$B" "${X[@]}" --suite latency --filter "latency by stride" --verify > "$out/verify.txt" 2>&1
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary "$out/all.csv" --json "$out/summary.json"   # gzipped here
# summary.txt and summary.json here are the final build's, from the same all.csv (the item
# `L1 beside 32 KB of shared memory` came after the run).
