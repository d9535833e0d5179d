# results/h200/close-1129/ (session of 2026-11-29, issue 57; build 9886c55): one H200, the build whose trace
# says when a device's resources are freed and the device closed: the health profile four
# times on GPU 0, traced (where the time between a device's last test and the run's end
# goes; and one more chance for a drift check to dip for its own clock).
# Rerun: scripts/reproduce.sh results/h200/close-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3 4; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
