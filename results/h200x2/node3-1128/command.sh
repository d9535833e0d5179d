# results/h200x2/node3-1128/ (session of 2026-11-28 afternoon, issue 57): the node4-1128 runs on
# a machine of two H200s (asked as nvidia-h200-x2), build 6d3c0a0: the default run three times
# on GPU 0, the health profile on GPU 0 alone, on both GPUs at once twice, and the fleet over
# the three files.
# Rerun: scripts/reproduce.sh results/h200x2/node3-1128 OUTDIR
# Committed gzipped: the traces, CSVs and JSON documents of the all-GPU runs.
nvidia-smi -L > "$out/gpus.txt" 2>&1
nvidia-smi topo -m > "$out/topo.txt" 2>&1
for i in 1 2; do
  { wall "$B" --version; wall "$B" --list-devices; } >> "$out/start.txt" 2>&1
done
for i in 1 2 3; do
  wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-health-0.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0.csv" --json "$out/health-0.json" > "$out/health-0.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
done
if [ -n "${BEFORE:-}" ]; then
  PERFTEST_TRACE=$out/trace-health-all-before.tsv wall "$BEFORE" "${X[@]}" --device all --suite health --csv "$out/health-all-before.csv" > "$out/health-all-before.txt" 2>&1
fi
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
