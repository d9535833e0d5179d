# results/h100/hierarchy-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine (driver 580.159.04), build c6b66fd (the probe read edge to edge, the
# summary's far part and --json): a whole run, its summary as text and JSON.
# Rerun: scripts/reproduce.sh results/h100/hierarchy-1127 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
"$B" summary "$out/all.csv" > "$out/summary.txt"
"$B" summary "$out/all.csv" --json "$out/summary.json"   # gzipped here
# The terminal output all.txt is committed gzipped (all.txt.gz), to keep the tree small.
