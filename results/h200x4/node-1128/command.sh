# results/h200x4/node-1128/ (session of 2026-11-28, issues 57 and 60): on a freshly started
# machine asked as nvidia-h100-x4 (four H200s of one host came), build ed2ada8 (before this session's changes), each run traced
# (PERFTEST_TRACE, one timeline per process): the default run on GPU 0, the health profile on
# GPU 0 alone, on all four GPUs at once twice, the fleet over them; then the store rows
# (`--suite write,bandwidth --filter Store`) on all four GPUs at once, twice.
# Rerun: scripts/reproduce.sh results/h200x4/node-1128 OUTDIR [health|stores]
# Committed gzipped: the traces, the all-GPU CSVs and terminal outputs, the store runs, the verdict JSON.
nvidia-smi -L > "$out/gpus.txt" 2>&1
nvidia-smi topo -m > "$out/topo.txt" 2>&1
if [ "${1:-health}" = health ]; then
  PERFTEST_TRACE=$out/trace-default.tsv wall "$B" "${X[@]}" --device 0 --csv "$out/default-0.csv" > "$out/default-0.txt" 2>&1
  PERFTEST_TRACE=$out/trace-health-0.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0.csv" > "$out/health-0.txt" 2>&1
  for i in 1 2; do
    PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" > "$out/health-all-$i.txt" 2>&1
  done
  "$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
  echo "fleet exit $?" >> "$out/verdict.txt"
fi
if [ "${1:-stores}" = stores ]; then
  for i in 1 2; do
    PERFTEST_TRACE=$out/trace-stores-$i.tsv wall "$B" "${X[@]}" --device all --suite write,bandwidth --filter Store --csv "$out/stores-$i.csv" > "$out/stores-$i.txt" 2>&1
  done
fi
