# results/h200x2/node4-1128/ (session of 2026-11-28 night, issue 57): a fresh 2×H200 machine,
# this session's last build (the chase table in bands, the pipelines after every resource):
# the health profile on GPU 0 alone twice (the first with the driver's shader cache cold),
# then on both GPUs at once twice, traced, and the fleet over the four files.
# Rerun: scripts/reproduce.sh results/h200x2/node4-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-0-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0-$i.csv" --json "$out/health-0-$i.json" > "$out/health-0-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
