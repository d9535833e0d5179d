# results/h200/dip-1129/ (session of 2026-11-29, issue 57; build aaba0ef): one H200, the build whose check
# off only for its own low clock, after rows each timed at the steady clock, leaves the rows
# standing and brings the clock back (instead of timing the block again): the health profile
# four times on GPU 0, traced, then the whole run once (the last lines read; compared row by
# row with earlier whole runs on other H200s).
# Rerun: scripts/reproduce.sh results/h200/dip-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3 4; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
