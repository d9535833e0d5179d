# results/h200x4/node6-1128/ (session of 2026-11-28 evening, issue 57): on a machine of four
# H200s, the build whose host-link tests run beside the other GPUs' GPU tests (node5-1128
# measured that those leave them within 0.3 %), whose device setup and pinned buffers are host
# work kept apart from them, and whose blocks with a host test that would wait go after the
# next block without one: the health profile on GPU 0 alone twice and on all four GPUs at once
# twice, traced, and the fleet over the four files; the default run once on GPU 0.
# Rerun: scripts/reproduce.sh results/h200x4/node6-1128 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
wall "$B" "${X[@]}" --device 0 --json "$out/default.json" > "$out/default.txt" 2>&1
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-0-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-0-$i.csv" --json "$out/health-0-$i.json" > "$out/health-0-$i.txt" 2>&1
done
for i in 1 2; do
  PERFTEST_TRACE=$out/trace-health-all-$i.tsv wall "$B" "${X[@]}" --device all --suite health --csv "$out/health-all-$i.csv" --json "$out/health-all-$i.json" > "$out/health-all-$i.txt" 2>&1
done
"$B" fleet "$out/health-all-1.csv" "$out/health-all-2.csv" "$out/health-0-1.csv" "$out/health-0-2.csv" --json "$out/verdict.json" > "$out/verdict.txt" 2>&1
echo "fleet exit $?" >> "$out/verdict.txt"
