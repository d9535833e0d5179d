# results/h200/huge-1129/ (session of 2026-11-29, issue 57): one H200, the build whose host
# regions (the copies' imported host-coherent memory) ask for 2 MB pages: the health profile
# four times on GPU 0, traced (the `prepare` phase, which fills the regions, and the time a
# device's resources take to free, against `close-1129`'s 4 KB pages); the copies verified
# (the device imports 2 MB pages and copies their bytes); the fleet over the four profiles.
# Rerun: scripts/reproduce.sh results/h200/huge-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
cat /sys/kernel/mm/transparent_hugepage/enabled > "$out/thp.txt" 2>&1
for i in 1 2 3 4; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --verify --csv "$out/copies-verify.csv" > "$out/copies-verify.txt" 2>&1
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" "$out/health-4.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
