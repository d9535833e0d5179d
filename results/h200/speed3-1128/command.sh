# results/h200/speed3-1128/ (session of 2026-11-28 evening, issue 60): on one H200 machine (the
# one of speed2-1128, right after it), build 54d54c4 — a chase not timed again for its
# dispatch's own spread, the warm-up ended once settled at the clock seen at open — the default
# run three times and the health profile twice, traced; then the health profile of the build
# before (3255a76, $BEFORE) once, traced.
# Rerun: BEFORE=path/to/3255a76/perftest scripts/reproduce.sh results/h200/speed3-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" --json "$out/health-$i.json" > "$out/health-$i.txt" 2>&1
done
if [ -n "${BEFORE:-}" ]; then
  PERFTEST_TRACE=$out/trace-health-before.tsv wall "$BEFORE" "${X[@]}" --device 0 --suite health --csv "$out/health-before.csv" --json "$out/health-before.json" > "$out/health-before.txt" 2>&1
fi
