# results/h200/final2-1129/ (session of 2026-11-29, issue 57; build bfdfba9, the session's
# last code): one H200, the health profile twice on GPU 0, traced, then the whole run once
# (its last lines read; compared row by row with dip-1129's whole run on another H200).
# Rerun: scripts/reproduce.sh results/h200/final2-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
