# results/h200x2/node6-1129/ (session of 2026-11-29, issue 57): node scale on the two H200s of
# one machine with the session's last build (81363c0), the procedure of
# results/h200x4/node12-1129 (prepared for four GPUs; `--device all` takes every GPU): the
# profile once on GPU 0 to warm the driver's shader cache, then GPU 0 alone and both GPUs at
# once, in turn, twice, traced; the fleet over the four files. Then deploy/slurm/healthcheck.sh
# as a Prolog runs it (root, a configuration file) on both GPUs as node `vm`, judged with the
# history of another two-H200 node of that name (results/h200x2/node5-1129): as many GPUs as
# in the history, so none missing. Read with `python3 results/h200x4/node12-1129/node.py OUTDIR`.
# Rerun: scripts/reproduce.sh results/h200x2/node6-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/first.csv" > "$out/first.txt" 2>&1
for i in 1 2; do
  for d in 0 all; do
    PERFTEST_TRACE=$out/trace-$d-$i.tsv wall "$B" "${X[@]}" --device $d --suite health --csv "$out/health-$d-$i.csv" > "$out/health-$d-$i.txt" 2>&1
  done
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
cp -r results/h200x2/node5-1129 "$out/history"
printf 'PERFTEST=%s\nPERFTEST_HISTORY=%s\nPERFTEST_HEALTH_DIR=%s\n' "$B" "$out/history" "$out/health" > "$out/health.conf"
chmod 644 "$out/health.conf"
PERFTEST_HEALTH_CONF=$out/health.conf SLURMD_NODENAME=vm wall deploy/slurm/healthcheck.sh > "$out/check-vm.txt" 2>&1
echo "exit $?" >> "$out/check-vm.txt"
# Seen (a fresh 2×H200 machine): GPU 0 alone 7.54, 7.44 s; both at once 8.47, 8.39 s (1.13×,
# 1.12×); 0 flagged; the fleet over the four healthy, exit 0; the check as `vm` exit 0, 8.5 s.
