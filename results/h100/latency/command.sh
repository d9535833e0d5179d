# results/h100/latency/ (formerly scripts/h100-latency.sh), run from the tree committed as
# 006a9ad: every pointer chase verified once under the validation layer, then timed
# (`--suite latency`: clocks per load in the CSV's latency_clk, ns per load = latency_clk /
# clock_mhz × 1000) twice, to show the sweep repeats, with an nvidia-smi log beside the timed
# runs. (run3.* and beside-shared/ came from later runs: results/README.md says which.)
# Rerun: scripts/reproduce.sh results/h100/latency OUTDIR
# Then:  results/h100/curves.py OUTDIR/run1.csv --plateau … (curves.txt); perftest report OUTDIR/run1.csv -o OUTDIR/report.html (the chart)
"$B" "${X[@]}" --suite latency --verify --validation --csv "$out/verify.csv" > "$out/verify.txt" 2>&1
echo "verify exit $?" >> "$out/verify.txt"
smi=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 \
    > "$out/smi.csv" 2>/dev/null &
  smi=$!
fi
for run in run1 run2; do
  start=$(date +%s%N)
  "$B" "${X[@]}" --suite latency --csv "$out/$run.csv" --json "$out/$run.json" --format table > "$out/$run.txt" 2>&1
  echo "$run exit $? after $(( ($(date +%s%N) - start) / 1000000 )) ms" >> "$out/$run.txt"
done
[ -n "$smi" ] && kill "$smi" 2>/dev/null
tail -n 1 "$out/verify.txt" "$out/run1.txt" "$out/run2.txt"
