# results/h100/granularity-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), the build with the stride sweep (the latency
# suite's `latency by stride:` rows, 24 of them): a whole run, its summary as text and JSON.
# Rerun: scripts/reproduce.sh results/h100/granularity-1127 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary "$out/all.csv" --json "$out/summary.json"   # gzipped here
# summary.txt and summary.json here are the final build's (the knee rule: the smallest stride
# from which the curve rises no further), from the same all.csv; the run's own build had read
# the 256 MB set's knee as every larger stride within 10 % of the most, and its 512 B dip
# (631 clk against 702 at 128 B) had moved it to 256 B.
