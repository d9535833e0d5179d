# results/h100/time-1128/ (session of 2026-11-28, issue 60; an intermediate build of this session,
# before the chase evicts instead of walking and self-timed probes count as warm-up): where a run's wall time goes, on
# a freshly started H100 machine, with the build that counts each device's time by phase (the
# JSON's devices[].time_s, the terminal's `time:` line) and writes the run's `started` and
# `wall_s`: the whole run traced (PERFTEST_TRACE), the health profile traced, the default run
# three times.
# Rerun: scripts/reproduce.sh results/h100/time-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
PERFTEST_TRACE=$out/trace-all.tsv wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv.gz" --json "$out/all.json.gz" > "$out/all.txt" 2>&1   # CSV and JSON not committed (size)
gzip -f "$out/trace-all.tsv"
PERFTEST_TRACE=$out/trace-health.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health.csv" --json "$out/health.json" > "$out/health.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-default-$i.tsv wall "$B" "${X[@]}" --device 0 --json "$out/default-$i.json" > "$out/default-$i.txt" 2>&1
done
