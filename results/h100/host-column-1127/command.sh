# results/h100/host-column-1127/ (session of 2026-11-27, issue 48): on a freshly started
# nvidia-h100-x1 machine, a whole run with the build that adds the `host_caches` column (empty
# for a GPU) and the summary's host-CPU section (CPU devices only): the product's last lines and
# summary after that change; nothing measured changed.
# Rerun: scripts/reproduce.sh results/h100/host-column-1127 OUTDIR
wall "$B" "${X[@]}" --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1   # both gzipped here
"$B" summary "$out/all.csv" > "$out/summary.txt"
