# results/h200/dip2-1129/ (session of 2026-11-29, issue 57; build aaba0ef): one H200, the
# health profile eight times on GPU 0, traced, to see a drift check dip for its own clock
# after rows each timed at the steady clock (one health run in three on `hold-1129`'s
# machine), and what the run does then: the rows stand, the clock is brought back.
# Rerun: scripts/reproduce.sh results/h200/dip2-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3 4 5 6 7 8; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
