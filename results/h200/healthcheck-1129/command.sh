# results/h200/healthcheck-1129/ (session of 2026-11-29, issue 57): deploy/slurm/healthcheck.sh
# on one H200 as a Prolog would run it (root, a configuration file), judged with a history of
# two H200s of one node (results/h200x2/node5-1129, host `vm`, 2 GPUs a run), copied into
# OUTDIR. As node `newnode` (no run of it in the history): the profile on this GPU, judged
# against the history's GPUs. As node `vm`: the same node name as the history's two-GPU node,
# now with one GPU, so one GPU is missing.
# Rerun: scripts/reproduce.sh results/h200/healthcheck-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
cp -r results/h200x2/node5-1129 "$out/history"
printf 'PERFTEST=%s\nPERFTEST_HISTORY=%s\nPERFTEST_HEALTH_DIR=%s\n' "$B" "$out/history" "$out/health" > "$out/health.conf"
chmod 644 "$out/health.conf"
for node in newnode vm; do
  PERFTEST_HEALTH_CONF=$out/health.conf SLURMD_NODENAME=$node deploy/slurm/healthcheck.sh > "$out/check-$node.txt" 2>&1
  echo "exit $?" >> "$out/check-$node.txt"
done
# Seen (a fresh H200, the build with `perftest fleet --this-run`, which the check now passes):
# `newnode` exit 0, its GPU healthy among the history's 14 (the profile 9.6 s); `vm` exit 1,
# each of the history's two UUIDs "missing: 1 GPU(s) in this run, 2 in the history
# (…/new-all-1.csv.gz)" (7.6 s). (The session's first run of it, with the count read by awk
# from verdict.json, gave the same codes: 9.0 and 7.4 s.)
