# results/h200/speed8-1129/ (session of 2026-11-29, issue 57): the session's last build (a host region per buffer, none shared between devices; speed7 shared one per size, the same on one GPU) on a fresh H200: the
# copies' host-coherent memory is the process's own, imported by the device (import-1129), and
# the health profile reads one 1 GB host copy each way (node5-1129). The health profile four
# times (the first with the driver's shader cache cold), traced; the default run three times;
# the transfer family's copies verified; the whole run once; the fleet over the profiles.
# Rerun: scripts/reproduce.sh results/h200/speed8-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3 4; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
for i in 1 2 3; do
  wall "$B" "${X[@]}" --device 0 --csv "$out/default-$i.csv" > "$out/default-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --verify --csv "$out/copies-verify.csv" > "$out/copies-verify.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --suite all --csv "$out/all.csv.gz" > "$out/all.txt" 2>&1
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" "$out/health-4.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
# compare-speed7.txt (made here): python3 results/h200x4/whole-1128/compare.py results/h200/speed7-1129/all.csv.gz "$out/all.csv.gz" (the two builds on two H200s)
