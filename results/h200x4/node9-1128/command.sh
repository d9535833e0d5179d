# results/h200x4/node9-1128/ (session of 2026-11-28 evening, issue 57): as node8-1128, with
# a device taking its host block as soon as the node's host is free (node8: every device put
# its host block last and they waited for each other there): the default run once on GPU 0,
# the health profile on GPU 0 alone twice and on all four GPUs at once twice, traced, the
# fleet over the four files, the bandwidth suite's transfer rows verified.
# Rerun: scripts/reproduce.sh results/h200x4/node9-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --json "$out/default.json" > "$out/default.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-0-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0-$i.csv" --json "$out/health-0-$i.json" > "$out/health-0-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
wall "$B" "${X[@]}" --device 0 --suite bandwidth --verify --filter "transfer:" > "$out/verify-transfer.txt" 2>&1
