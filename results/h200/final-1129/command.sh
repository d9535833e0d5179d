# results/h200/final-1129/ (session of 2026-11-29, issue 57): the session's last commit (a host
# region made only where the device can import one of its size; otherwise as speed8-1129) on a
# fresh H200: the health profile three times, traced (the first with the driver's shader cache
# cold), the transfer family's copies verified, the fleet over the profiles.
# Rerun: scripts/reproduce.sh results/h200/final-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --suite bandwidth --filter "transfer: vkCmdCopyBuffer" --verify --csv "$out/copies-verify.csv" > "$out/copies-verify.txt" 2>&1
"$B" fleet "$out/health-1.csv" "$out/health-2.csv" "$out/health-3.csv" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
