# results/h200/speed6-1128/ (session of 2026-11-28 night, issue 60): this session's last build
# (the chase table staged in 64 MB bands filled on every core; the pipelines after every
# resource) on the H200 machine of ab2-1128, right after its two whole runs (the driver's
# shader cache warm): the health profile three times, traced, and the default run three
# times. (No 4-GPU kind was lent for this build.)
# Rerun: scripts/reproduce.sh results/h200/speed6-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
for i in 1 2 3; do
  wall "$B" "${X[@]}" --device 0 > "$out/default-$i.txt" 2>&1
done
