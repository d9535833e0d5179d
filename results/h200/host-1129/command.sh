# results/h200/host-1129/ (session of 2026-11-29, issue 57): deploy/slurm/healthcheck.sh with
# `perftest fleet --host` (the node's verdict typed in the binary; the check reads no text
# back) on one H200 as a Prolog runs it (root, a configuration file), judged with the history
# of a two-H200 node (results/h200x2/node5-1129, host `vm`). As `newnode` (new to the
# history) and as `vm` (the history's node name, now one GPU: one missing). Then the whole
# run with this build, against samples-1129's (another H200, the build before this session's):
# `python3 results/h200x4/whole-1128/compare.py`.
# Rerun: scripts/reproduce.sh results/h200/host-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
cp -r results/h200x2/node5-1129 "$out/history"
printf 'PERFTEST=%s\nPERFTEST_HISTORY=%s\nPERFTEST_HEALTH_DIR=%s\n' "$B" "$out/history" "$out/health" > "$out/health.conf"
chmod 644 "$out/health.conf"
for node in newnode vm; do
  PERFTEST_HEALTH_CONF=$out/health.conf SLURMD_NODENAME=$node wall deploy/slurm/healthcheck.sh > "$out/check-$node.txt" 2>&1
  echo "exit $?" >> "$out/check-$node.txt"
done
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv" > "$out/all.txt" 2>&1
# Seen (a fresh H200): `newnode` exit 0, "newnode: healthy (1 GPU-run(s) of it among 14
# judged)" (9.8 s); `vm` exit 1, both history UUIDs `missing` (7.8 s); the whole run 3865 ok,
# 143 unsupported, 0 failed, 155.0 s; against samples-1129 median |Δ| 0.07 %.
