# results/h200x4/node2-1128/ (session of 2026-11-28, issue 57): on a freshly started machine
# asked as nvidia-h100-x4 (four H200s came), this session's build (a self-timed test's buffers made before it
# waits for the node; its probe counts toward its warm-up): the health profile on GPU 0 alone,
# on all four GPUs at once twice, the fleet over the three; then where the store rows' GPU-to-GPU
# differences come from: the store rows on all GPUs at once, on GPU 0 alone, on GPU 1 alone,
# and on GPU 0 alone with 64 MB of device memory taken first (PERFTEST_PAD_MB=64).
# Rerun: scripts/reproduce.sh results/h200x4/node2-1128 OUTDIR [health|stores]
# Committed gzipped: the traces, CSVs and JSON documents of the all-GPU runs, the store runs.
nvidia-smi -L > "$out/gpus.txt" 2>&1
if [ "${1:-health}" = health ]; then
  PERFTEST_TRACE=$out/trace-health-0.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0.csv" --json "$out/health-0.json" > "$out/health-0.txt" 2>&1
  for i in 1 2; do
    PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
  done
  "$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
  echo "fleet exit $?" >> "$out/verdict.txt"
fi
if [ "${1:-stores}" = stores ]; then
  S=(--suite write,bandwidth --filter Store)
  wall "$B" "${X[@]}" --device all "${S[@]}" --csv "$out/stores-all.csv" > "$out/stores-all.txt" 2>&1
  wall "$B" "${X[@]}" --device 0 "${S[@]}" --csv "$out/stores-0.csv" > "$out/stores-0.txt" 2>&1
  wall "$B" "${X[@]}" --device 1 "${S[@]}" --csv "$out/stores-1.csv" > "$out/stores-1.txt" 2>&1
  PERFTEST_PAD_MB=64 wall "$B" "${X[@]}" --device 0 "${S[@]}" --csv "$out/stores-0-pad64.csv" > "$out/stores-0-pad64.txt" 2>&1
fi
