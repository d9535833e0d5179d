# results/h200/final3-1129/ (session of 2026-11-29, issue 57): one H200, the session's last
# build (the sampling rule of samples-1129, its decision as a function of its own; a device's
# tests held alone one after another take the node once, a path only several devices take):
# the health profile three times on GPU 0, traced (the first warms the driver's cache for this
# binary), once through `--device all` (one GPU here: no node lock, the same path), the default
# run, and the fleet over the four profiles.
# Rerun: scripts/reproduce.sh results/h200/final3-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
PERFTEST_TRACE=$out/trace-health-all.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all.csv" > "$out/health-all.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --csv "$out/default.csv" > "$out/default.txt" 2>&1
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" "$out/health-all.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
