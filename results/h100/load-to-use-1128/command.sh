# results/h100/load-to-use-1128/ (session of 2026-11-28, issue 58): on a freshly started
# nvidia-h100-x1 machine, the load-to-use chase in each of its forms (uint2 + bitcast, the
# uint64_t member, a reference member; each also in a loop of one step), three passes
# (forms<pass>.csv), and their summary: which form reaches the hardware's load-to-use latency
# (docs/latency.md). The plain cycles beside them: results/h200/load-to-use-1128 and the
# whole run results/h100/whole-run-1128.
# Rerun: scripts/reproduce.sh results/h100/load-to-use-1128 OUTDIR
for pass in 1 2 3; do
  wall "$B" "${X[@]}" --suite latency --filter load-to-use --csv "$out/forms$pass.csv" > "$out/forms$pass.txt" 2>&1
done
"$B" summary "$out/forms1.csv" "$out/forms2.csv" "$out/forms3.csv" > "$out/summary.txt" 2>&1
