# results/h200/speed6-1128/ (session of 2026-11-28 night, issue 60): this session's last build
# (the chase table staged in 64 MB bands filled on every core; the pipelines after every
# resource) on a fresh H200 machine (the first profile with the driver's shader cache cold):
# the health profile three times, traced, the fleet over the three, and the default run
# three times. (No 4-GPU kind was lent for this build.)
# Rerun: scripts/reproduce.sh results/h200/speed6-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
for i in 1 2 3; do
  wall "$B" "${X[@]}" --device 0 > "$out/default-$i.txt" 2>&1
done
