# results/h100/load-to-use-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), build 12e2b95 (the probe before clock-bins'
# change): a whole run (the first with the load-to-use chase, `latency_ns` and the host-link
# note), the load-to-use rows verified, and the health profile (its time: health.txt's last line).
# (all.json is not kept: the CSV has every row.)
# Rerun: scripts/reproduce.sh results/h100/load-to-use-1127 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" --json "$out/all.json" > "$out/all.txt" 2>&1
wall "$B" "${X[@]}" --suite latency --filter load-to-use --verify --csv "$out/ltu-verify.csv" > "$out/ltu-verify.txt" 2>&1
wall "$B" "${X[@]}" --suite health --csv "$out/health.csv" > "$out/health.txt" 2>&1
"$B" summary "$out/all.csv" > "$out/summary.txt"
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
