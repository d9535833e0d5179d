# results/h200/speed4-1128/ (session of 2026-11-28 evening, issue 60): on one H200 machine, this
# session's last build (speed2-1128's chase rule and warm-up; the transfer rows' host buffers
# pinned once at setup and kept; the node's lock and block order, which a single device does
# not use): the default run three times, the health profile twice, traced, and the whole run,
# traced. compare.py (h200x4/whole-1128's) sets the whole run beside speed2-1128's two.
# Rerun: scripts/reproduce.sh results/h200/speed4-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" --json "$out/health-$i.json" > "$out/health-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv.gz" > "$out/all.txt" 2>&1
# python3 results/h200x4/whole-1128/compare.py results/h200/speed2-1128/after-all.csv.gz "$out/all.csv.gz" > "$out/compare.txt"
