# results/h200x2/node-1128/ (session of 2026-11-28, issues 57, 58, 63): on a freshly started
# machine asked as nvidia-h100-x2 (two H200s of one host came), with the build that holds every row to its
# clock (re-warm, the driver's clock read in flight, self-timed rows re-measured), judges the
# write path and the other units, and confirms before calling: GPU 0's whole run, then the
# health profile on both GPUs at once, twice, and on GPU 0 alone; the fleet over them.
# Rerun: scripts/reproduce.sh results/h200x2/node-1128 OUTDIR [all|health]
if [ "${1:-all}" = all ]; then
  wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all-0.csv" > "$out/all-0.txt" 2>&1   # gzipped here
  "$B" summary "$out/all-0.csv" > "$out/summary-0.txt"
fi
if [ "${1:-health}" = health ]; then
  for i in 1 2; do
    wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-both-$i.csv" > "$out/health-both-$i.txt" 2>&1
  done
  wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0.csv" > "$out/health-0.txt" 2>&1
  "$B" fleet "$out/health-both-1.csv" "$out/health-both-2.csv" "$out/health-0.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1   # exit 0
fi
