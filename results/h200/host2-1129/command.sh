# results/h200/host2-1129/ (session of 2026-11-29, issue 57): deploy/slurm/healthcheck.sh with
# the session's last build of `perftest fleet --host` on one H200, as a Prolog runs it (root,
# a configuration file), judged with the history of a two-H200 node (results/h200x2/node5-1129,
# host `vm`). Three nodes: `newnode` (new to the history), `vm` (the history's node name, now
# one GPU: one missing), and `slownode`, whose profile runs with `--fault slow-gpu` (every
# timing 8× slower): suspect in its run, re-measured by the check (confirm.csv), degraded.
# Rerun: scripts/reproduce.sh results/h200/host2-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
cp -r results/h200x2/node5-1129 "$out/history"
printf 'PERFTEST=%s\nPERFTEST_HISTORY=%s\nPERFTEST_HEALTH_DIR=%s\n' "$B" "$out/history" "$out/health" > "$out/health.conf"
cp "$out/health.conf" "$out/slow.conf"
printf '%s\n' "PERFTEST_ARGS='--suite health --device all --fault slow-gpu'" >> "$out/slow.conf"
chmod 644 "$out/health.conf" "$out/slow.conf"
for node in newnode vm slownode; do
  conf=$out/health.conf
  [ $node = slownode ] && conf=$out/slow.conf
  PERFTEST_HEALTH_CONF=$conf SLURMD_NODENAME=$node wall deploy/slurm/healthcheck.sh > "$out/check-$node.txt" 2>&1
  echo "exit $?" >> "$out/check-$node.txt"
done
# Seen (a fresh H200, build 81363c0): `newnode` exit 0 — its first verdict suspect in one item
# (dispatch: dependent +7.1 %, threshold 5.9 %), re-measured by the check (0.7 s): +1.0 %,
# "did not come back (not a fault)", healthy (10.5 s in all). `vm` exit 1, both history UUIDs
# `missing` (7.4 s). `slownode` exit 1: 33 items suspect in its run, re-measured (2.7 s), 33
# `degraded` lines, one per item, each naming the other run's figure (10.0 s in all).
# slownode's rows (health/slownode/perftest.csv, confirm.csv) are not committed: slowed on
# purpose, they are no healthy run for the fleet over the committed folders to read.
