# results/h200/start-1128/ (session of 2026-11-28 afternoon, issue 60): where the default run's
# and the health profile's time goes on one H200, with the trace's process lines (the
# instance, the device opened, the outputs, the teardown) beside each device's phases: the
# default run three times and the health profile once, traced; --version and --list-devices
# timed. Committed gzipped: the JSON documents, the CSV and the traces.
# Rerun: scripts/reproduce.sh results/h200/start-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2; do
  { wall "$B" --version; wall "$B" --list-devices; } >> "$out/start.txt" 2>&1
done
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-health.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health.csv" --json "$out/health.json" > "$out/health.txt" 2>&1
