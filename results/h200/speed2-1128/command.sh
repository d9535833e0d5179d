# results/h200/speed2-1128/ (session of 2026-11-28 evening, issue 60): on one H200 machine, the
# build that stops timing a chase again for its dispatch's own spread and ends the warm-up as
# soon as it settles at the clock seen at open (after) — the default run three times, the
# health profile twice, traced, the whole run, traced — and right after it the whole run of
# the build before (3255a76, $BEFORE) on the same GPU. compare.py (h200x4/whole-1128's) sets
# the whole runs side by side. Committed gzipped: CSVs, traces.
# Rerun: BEFORE=path/to/3255a76/perftest scripts/reproduce.sh results/h200/speed2-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" --json "$out/health-$i.json" > "$out/health-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-after-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/after-all.csv.gz" > "$out/after-all.txt" 2>&1
if [ -n "${BEFORE:-}" ]; then
  PERFTEST_TRACE=$out/trace-before-all.tsv wall "$BEFORE" "${X[@]}" --device 0 --suite all --csv "$out/before-all.csv.gz" > "$out/before-all.txt" 2>&1
fi
# python3 results/h200x4/whole-1128/compare.py "$out/before-all.csv.gz" "$out/after-all.csv.gz" > "$out/compare.txt"
