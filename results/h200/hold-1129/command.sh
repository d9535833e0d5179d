# results/h200/hold-1129/ (session of 2026-11-29, issue 57; build 6c367fb): one H200, the build whose rows
# held alone on a node are timed again for their spread inside their hold (a path only
# several devices at once take): the health profile three times on GPU 0, traced, to show
# the one-GPU run as before (time, rows flagged, the submission rows' second timing after
# their block's check), and the default run once.
# Rerun: scripts/reproduce.sh results/h200/hold-1129 OUTDIR
nvidia-smi -L > "$out/gpus.txt" 2>&1
for i in 1 2 3; do
  PERFTEST_TRACE=$out/trace-health-$i.tsv wall "$B" "${X[@]}" --device 0 --suite health --csv "$out/health-$i.csv" > "$out/health-$i.txt" 2>&1
done
wall "$B" "${X[@]}" --device 0 --csv "$out/default.csv" > "$out/default.txt" 2>&1
